//! `pf1e run`: the default cache location, reuse across sweeps, stable results.

use pf1e_e2e::{Fixture, json_of, pf1e, run};

fn run_json(fx: &Fixture, sweep: &std::path::Path) -> serde_json::Value {
    let mut cmd = pf1e();
    cmd.arg("run").arg(sweep).args(["--json", "-q"]).env("PF1E_CACHE", fx.path("cache/pf1e.redb"));
    json_of(&run(cmd))
}

#[test]
fn a_second_run_and_an_overlapping_sweep_come_from_the_cache() {
    let fx = Fixture::new("embedded", 6, 2);
    let first = run_json(&fx, &fx.sweep());
    assert!(fx.path("cache/pf1e.redb").exists(), "PF1E_CACHE names the default cache file");
    assert_eq!(first["stats"]["shards_total"], 6);
    assert_eq!(first["stats"]["shards_computed"], 6);
    assert_eq!(first["results"], fx.embedded_results(), "the cache changes no result");

    let second = run_json(&fx, &fx.sweep());
    assert_eq!(second["stats"]["shards_from_cache"], 6);
    assert_eq!(second["stats"]["shards_computed"], 0);
    assert_eq!(second["results"], first["results"]);

    // A wider sweep reuses the cells it shares with the first one, and more runs reuse the first runs.
    let wider = Fixture::sweep_text(8, 2).replace("[0.5, 1.0]", "[0.5, 0.75, 1.0]");
    let doc = run_json(&fx, &fx.write_sweep("wider.yaml", &wider));
    assert_eq!(doc["stats"]["shards_total"], 12);
    assert_eq!(doc["stats"]["shards_from_cache"], 6);
    let cells = doc["results"]["jobs"][0]["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 3);
    assert_eq!(cells[1]["hp"]["players"], 0.75);
    assert_eq!(cells[0]["runs"], 8);
}
