//! Bad input gets one clear line, exit status 2, and writes nothing.

use pf1e_e2e::{Fixture, ctl, json_of, pf1e, refused, run, start_coordinator};

#[test]
fn bad_sweeps_and_wrong_tokens_are_refused_and_nothing_is_written() {
    let fx = Fixture::new("bad", 4, 2);
    let good = Fixture::sweep_text(4, 2);
    let malformed = fx.write_sweep("malformed.yaml", &good.replace("runs: 4", "runs: [4"));
    let unknown_field = fx.write_sweep("field.yaml", &good.replace("seed: 11", "seed: 11\nsede: 3"));
    let missing = fx.write_sweep("missing.yaml", &good.replace("orc.json", "ogre.json"));
    let side = fx.write_sweep("side.yaml", &good.replace("monsters: {", "villains: {"));

    let c = start_coordinator(&fx.path("c.redb"), "127.0.0.1:0", &[], &[("PF1E_TOKEN", "s3cret-token")]);
    let submit = |sweep: &std::path::Path, token: Option<&str>| {
        let mut cmd = pf1e();
        cmd.args(["ctl", "--coordinator", &c.url, "submit"]).arg(sweep);
        if let Some(t) = token {
            cmd.env("PF1E_TOKEN", t);
        }
        run(cmd)
    };
    refused(&submit(&malformed, Some("s3cret-token")), &["malformed.yaml", "line "]);
    refused(&submit(&unknown_field, Some("s3cret-token")), &["field.yaml", "line 3", "sede"]);
    refused(&submit(&missing, Some("s3cret-token")), &["missing.yaml", "line 10", "ogre.json"]);
    refused(&submit(&side, Some("s3cret-token")), &["side.yaml", "villains"]);
    let wrong = submit(&fx.sweep(), Some("not-the-token"));
    refused(&wrong, &["token"]);
    assert!(!String::from_utf8_lossy(&wrong.stderr).contains("s3cret"), "the token leaked");
    refused(&submit(&fx.sweep(), None), &["token"]);

    let mut cmd = pf1e();
    cmd.args(["ctl", "--coordinator", &c.url, "status", "--json"]).env("PF1E_TOKEN", "s3cret-token");
    let list = json_of(&run(cmd));
    assert_eq!(list["sweeps"], serde_json::json!([]), "something was journaled: {list}");
    assert_eq!(list["coordinator"]["cache_hits"], 0);

    // The embedded mode does not even create its cache file.
    for bad in [&malformed, &missing, &side] {
        let db = fx.path("run.redb");
        let mut cmd = pf1e();
        cmd.arg("run").arg(bad).arg("--db").arg(&db);
        refused(&run(cmd), &[]);
        assert!(!db.exists(), "pf1e run wrote its cache for a bad sweep");
    }
    // Usage errors too.
    refused(&ctl(&c.url, &["status", "not-a-number"]), &[]);
}

#[test]
fn a_sweep_without_a_bound_is_refused_at_once_and_one_journaled_before_fails_alone_at_restart() {
    let fx = Fixture::new("unbounded", 4, 2);
    let huge =
        fx.write_sweep("huge.yaml", &Fixture::sweep_text(4, 2).replace("runs: 4", "runs: 99999999999100"));
    // Embedded: one line, exit 2, before any battle.
    let mut cmd = pf1e();
    cmd.arg("run").arg(&huge).arg("--db").arg(fx.path("run.redb"));
    refused(&run(cmd), &["huge.yaml", "line 3", "default budget", "1000000"]);

    // A coordinator journal holding such a sweep (written as an older
    // version did, past every check): the coordinator starts, records it
    // as failed with its error, and serves the next sweep.
    let db = fx.path("c.redb");
    {
        // Bundled as an older version would: the small sweep's files with the
        // huge sweep's text (today's bundling refuses it).
        let mut bundle = pf1e_coordinator::sweep::bundle_from_disk(&fx.sweep()).unwrap();
        bundle.sweep_yaml = std::fs::read_to_string(&huge).unwrap();
        bundle.sweep_path = huge.display().to_string();
        let state = pf1e_coordinator::store::JournalState {
            name: "e2e".into(),
            status: pf1e_coordinator::store::SweepStatus::Running,
            error: String::new(),
            planners: Vec::new(),
            stats: None,
            llm: Default::default(),
        };
        pf1e_coordinator::store::Store::open(&db).unwrap().create_sweep(&bundle, &state).unwrap();
    }
    for restart in 0..2 {
        let c = start_coordinator(&db, "127.0.0.1:0", &[], &[]);
        let s = json_of(&ctl(&c.url, &["status", "1", "--json"]));
        assert_eq!(s["status"], "failed", "restart {restart}: {s}");
        assert!(s["error"].as_str().unwrap().contains("default budget"), "{s}");
        // Submitted again: refused with one line, the coordinator stays up.
        refused(&ctl(&c.url, &["submit", huge.to_str().unwrap()]), &["default budget"]);
        let out = ctl(&c.url, &["submit", fx.sweep().to_str().unwrap()]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(json_of(&ctl(&c.url, &["health", "--json"])).is_object());
    }
}
