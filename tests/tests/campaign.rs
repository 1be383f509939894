//! The campaign's data end to end: every PC plays a battle, the predecessor's
//! scenarios run, and the campaign sweep gives the same results embedded and
//! on a coordinator with two workers.

use std::path::{Path, PathBuf};

use pf1e_e2e::{ctl, data_dir, json_of, pf1e, run, start_coordinator, start_worker};

const PCS: [&str; 8] = ["esha", "harvie", "ierlieth", "jeanne", "misty", "nairda", "oni", "tammara"];

fn data(rel: &str) -> String {
    data_dir().join(rel).to_str().expect("utf-8 path").to_string()
}

#[test]
fn every_pc_plays_a_battle_on_every_campaign_map() {
    for map in ["maps/tower.yaml", "maps/corridor.yaml", "maps/field.yaml", "maps/sample_arena.yaml"] {
        for pc in PCS {
            let mut cmd = pf1e();
            cmd.args(["sim", "--map", &data(map), "--side", "players", &data(&format!("pcs/{pc}.json"))]);
            cmd.args(["--side", "monsters", &data("monsters/orc.json"), &data("monsters/goblin.json")]);
            cmd.args(["--runs", "20", "--round-cap", "20", "--json", "--threads", "1"]);
            let report = json_of(&run(cmd));
            assert_eq!(report["runs"], 20, "{pc} on {map}: {report}");
        }
    }
}

/// The `results` of `pf1e run SWEEP --json --no-cache`.
fn embedded(sweep: &Path) -> serde_json::Value {
    let mut cmd = pf1e();
    cmd.arg("run").arg(sweep).args(["--json", "--no-cache", "-q"]);
    let doc = json_of(&run(cmd));
    assert_eq!(doc["status"], "done", "{doc}");
    doc["results"].clone()
}

#[test]
fn the_predecessors_scenarios_run_and_the_warband_wins_more_than_the_lichs_foes() {
    let share = |doc: &serde_json::Value| doc["jobs"][0]["cells"][0]["party_win_rate"].as_f64();
    let warband = embedded(&data_dir().join("sweeps/warband.yaml"));
    let duel = embedded(&data_dir().join("sweeps/lich_duel.yaml"));
    let representative = embedded(&data_dir().join("sweeps/representative.yaml"));
    for doc in [&warband, &duel, &representative] {
        assert_eq!(
            doc["jobs"][0]["cells"].as_array().map(Vec::len),
            Some(2),
            "default and focus fire: {doc}"
        );
    }
    // Whatever the exact figures, four PCs beat the agent's band more often than two beat a lich.
    let (w, d) = (share(&warband).expect("warband win rate"), share(&duel).expect("duel win rate"));
    assert!(w > d, "warband {w} vs lich duel {d}");
}

/// The campaign sweep with its budgets scaled down (same scenario, same
/// jobs), its paths made absolute so it can live in a temporary directory.
fn small_campaign(dir: &Path) -> PathBuf {
    let text = std::fs::read_to_string(data_dir().join("sweeps/campaign.yaml")).expect("campaign.yaml");
    let abs = format!("{}/", data_dir().display());
    let small = text
        .replace("../", &abs)
        .replace("runs: 200", "runs: 20")
        .replace("shard_size: 100", "shard_size: 10")
        .replace("max_total_runs: 24000", "max_total_runs: 1600")
        .replace("max_total_runs: 60000", "max_total_runs: 8000")
        .replace("iterations: 2", "iterations: 1")
        .replace("runs: 100,", "runs: 10,");
    assert_ne!(small, text);
    let path = dir.join("campaign-small.yaml");
    std::fs::write(&path, small).expect("write sweep");
    path
}

/// The `results` of `sweep` submitted to a coordinator with two workers.
fn on_a_coordinator(dir: &Path, sweep: &Path) -> serde_json::Value {
    let c = start_coordinator(&dir.join("c.redb"), "127.0.0.1:0", &[], &[]);
    let _w1 = start_worker(&c.url, &["--threads", "1"], &[]);
    let _w2 = start_worker(&c.url, &["--threads", "1"], &[]);
    let out = ctl(&c.url, &["submit", sweep.to_str().expect("utf-8"), "-q", "--watch"]);
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "submit: {stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let id = stdout.lines().last().expect("an id").trim().to_string();
    let doc = json_of(&ctl(&c.url, &["results", &id, "--json"]));
    assert_eq!(doc["status"], "done");
    doc["results"].clone()
}

#[test]
fn the_campaign_sweep_gives_the_same_results_embedded_and_on_a_coordinator_with_two_workers() {
    let dir = tempfile::tempdir().expect("tempdir");
    let sweep = small_campaign(dir.path());
    let reference = embedded(&sweep);
    let kinds: Vec<&str> =
        reference["jobs"].as_array().expect("jobs").iter().filter_map(|j| j["kind"].as_str()).collect();
    assert_eq!(kinds, ["optimize", "minmax", "danger_map", "frontier"], "{reference}");

    assert_eq!(on_a_coordinator(dir.path(), &sweep), reference, "the cluster and the embedded mode differ");
}

/// campaign_search.yaml scaled down (2 batches of 3 retreat values, 20 runs
/// each), with `extra` lines added to its optimize job.
fn small_search(dir: &Path, extra: &str) -> PathBuf {
    let text = std::fs::read_to_string(data_dir().join("sweeps/campaign_search.yaml"))
        .expect("campaign_search.yaml");
    let small = text
        .replace("../", &format!("{}/", data_dir().display()))
        .replace("runs: 200", "runs: 20")
        .replace("shard_size: 100", "shard_size: 10")
        .replace(
            "{ batches: 4, points: 4, confirm: 3, confirm_runs: 800 }",
            "{ batches: 2, points: 3, confirm: 2, confirm_runs: 40 }",
        );
    assert_ne!(small, text);
    let sweep = dir.join("search-small.yaml");
    std::fs::write(&sweep, small + extra).expect("write sweep");
    sweep
}

#[test]
fn the_search_for_a_pareto_front_proposes_the_same_points_embedded_and_on_a_coordinator() {
    let dir = tempfile::tempdir().expect("tempdir");
    let sweep = small_search(dir.path(), "      pareto: [p_any_death, expected_hp_lost]\n");
    let reference = embedded(&sweep);
    let search = &reference["jobs"][0]["result"]["search"];
    assert_eq!(search["pareto"], serde_json::json!(["p_any_death", "expected_hp_lost"]), "{search}");
    let points = search["points"].as_array().expect("points");
    assert_eq!(points.iter().filter(|p| p["batch"].as_u64() > Some(0)).count(), 6, "{search}");
    assert!(points.iter().any(|p| p["front"] == true), "{search}");

    assert_eq!(on_a_coordinator(dir.path(), &sweep), reference, "the cluster and the embedded mode differ");
}

#[test]
fn the_search_of_a_continuous_lever_proposes_the_same_points_embedded_and_on_a_coordinator() {
    let dir = tempfile::tempdir().expect("tempdir");
    let sweep = small_search(dir.path(), "");
    let reference = embedded(&sweep);
    let search = &reference["jobs"][0]["result"]["search"];
    let points = search["points"].as_array().expect("points");
    assert_eq!(points.iter().filter(|p| p["batch"].as_u64() > Some(0)).count(), 6, "{search}");
    assert!(search["best"].is_string(), "{search}");
    // The base and up to `confirm` points of distinct play are measured
    // again with 40 runs (points that played alike share one
    // re-measurement), and after them any point that ranks first with 20
    // runs is brought up to 40 (rank 1 never rests on fewer runs than a
    // row below it): every run spent is one of these cells.
    let remeasured = points.iter().filter(|p| p["runs"].as_u64() >= Some(40)).count() as u64;
    assert!(remeasured >= 2, "{search}");
    let result = &reference["jobs"][0]["result"];
    let spent = result["spent_runs"].as_u64().expect("spent");
    assert_eq!(spent, 20 + 6 * 20 + remeasured * 40, "{search}");
    let playbook = result["playbook"].as_array().expect("playbook");
    let most = playbook.iter().filter_map(|r| r["runs"].as_u64()).max();
    assert_eq!(playbook[0]["runs"].as_u64(), most, "rank 1 has the most runs: {result}");

    assert_eq!(on_a_coordinator(dir.path(), &sweep), reference, "the cluster and the embedded mode differ");
}
