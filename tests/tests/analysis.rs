//! The analysis jobs end to end on goblins and orcs: every kind in one
//! sweep, the same results embedded, with one or two workers, after a
//! killed coordinator resumes; reports written with `--out`; budgets refused
//! before any battle.

use pf1e_e2e::{Fixture, ctl, json_of, pf1e, start_coordinator, start_worker, wait_for};

/// Three goblins against two orcs, all five analysis jobs, small run counts.
fn analysis_sweep(budget: u64) -> String {
    format!(
        "name: analysis\nseed: 5\nruns: 20\nparty: players\nshard_size: 10\nbudget: {{ max_total_runs: {budget} }}\nscenario:\n  map: ../maps/sample_arena.yaml\n  sides:\n    players: {{ zone: A, combatants: [../monsters/goblin.json, ../monsters/goblin.json, ../monsters/goblin.json] }}\n    monsters: {{ zone: B, combatants: [../monsters/orc.json, ../monsters/orc.json] }}\njobs:\n  - optimize: {{ max_total_runs: 1200, adversary: lowest_hp, candidates: [{{ target: weakest_ac, retreat: 0.3 }}] }}\n  - minmax: {{ iterations: 2, party: [default, lowest_hp], adversary: [default, weakest_ac] }}\n  - danger_map: {{ fractions: [0.5, 1.0], criterion: p_any_death, threshold: 0.1, depth: 1, aware: {{ players: [true, false] }}, copies: {{ monsters: {{ orc: [0, 1] }} }} }}\n  - frontier: {{ criterion: p_any_death, target: 0.1, min_fraction: 0.2, precision: 0.1 }}\n  - sensitivity: {{ criterion: expected_hp_lost }}\n"
    )
}

fn fixture(tag: &str) -> (Fixture, std::path::PathBuf) {
    let fx = Fixture::new(tag, 10, 10);
    let sweep = fx.write_sweep("analysis.yaml", &analysis_sweep(20_000));
    (fx, sweep)
}

/// Runs to the end, reading stdout as it comes: the documents here are
/// larger than a pipe buffer.
fn output(mut cmd: std::process::Command) -> std::process::Output {
    let out = cmd.stdin(std::process::Stdio::null()).output().expect("run pf1e");
    assert!(out.status.success(), "{cmd:?}: {}", String::from_utf8_lossy(&out.stderr));
    out
}

fn embedded(sweep: &std::path::Path, extra: &[&str]) -> serde_json::Value {
    let mut cmd = pf1e();
    cmd.arg("run").arg(sweep).args(["--json", "--no-cache", "-q"]).args(extra);
    json_of(&output(cmd))
}

#[test]
fn every_job_runs_and_reports() {
    let (fx, sweep) = fixture("analysis");
    let out = fx.path("report");
    let doc = embedded(&sweep, &["--out", out.to_str().unwrap()]);
    let jobs = doc["results"]["jobs"].as_array().unwrap();
    let kinds: Vec<&str> = jobs.iter().map(|j| j["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["optimize", "minmax", "danger_map", "frontier", "sensitivity"]);
    let playbook = jobs[0]["result"]["playbook"].as_array().unwrap();
    // Goblins cast nothing and have no class ability: the grid varies target
    // and charges only (4 × 2); then retreat refinements of the best (up to 3)
    // distinct results, and the candidate.
    assert!((8 + 3 + 1..=8 + 9 + 1).contains(&playbook.len()), "{}", playbook.len());
    assert!(jobs[0]["result"]["spent_runs"].as_u64().unwrap() <= 1200);
    assert!(!jobs[1]["result"]["iterations"].as_array().unwrap().is_empty());
    assert!(jobs[2]["result"]["points"].as_array().unwrap().len() >= 4);
    let layers = jobs[2]["result"]["layers"].as_array().unwrap();
    assert_eq!(layers.len(), 4, "awareness × extra orc");
    // An extra orc is more dangerous for the goblins than none, aware or not.
    let hp_lost = |l: &serde_json::Value| -> f64 {
        l["points"].as_array().unwrap().iter().map(|p| p["party"]["expected_hp_lost"].as_f64().unwrap()).sum()
    };
    assert!(hp_lost(&layers[1]) > hp_lost(&layers[0]), "{} vs {}", hp_lost(&layers[1]), hp_lost(&layers[0]));
    assert!(!jobs[3]["result"]["probes"].as_array().unwrap().is_empty());
    // Orcs cast nothing and have no class ability, goblins cast nothing: the
    // six variants of target, retreat and charges.
    assert_eq!(jobs[4]["result"]["levers"].as_array().unwrap().len(), 6);
    // Common random numbers where a job compares strategies: its cells play
    // the sweep's seed. A danger map's points and a frontier's probes each play their own dice, so
    // that one stream's luck does not bias the whole map (docs/statistics.md).
    for j in jobs {
        let cells = j["cells"].as_array().unwrap();
        if j["kind"] == "danger_map" || j["kind"] == "frontier" {
            let seeds: std::collections::BTreeSet<u64> =
                cells.iter().map(|c| c["seed"].as_u64().unwrap()).collect();
            assert!(seeds.len() > 1, "every point plays the same dice");
        } else {
            assert!(cells.iter().all(|c| c["seed"] == 5), "{}", j["kind"]);
        }
    }
    for f in ["report.md", "results.json", "danger_map_3.svg", "danger_map_3_4.svg"] {
        assert!(out.join(f).exists(), "{f} written");
    }
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("| Rank | Strategy |") && md.contains("danger_map_3.svg"), "{md}");
    let svg = std::fs::read_to_string(out.join("danger_map_3.svg")).unwrap();
    assert!(svg.contains("<svg") && svg.contains("<rect"));

    // The text report: each job's answer, then one aligned table per job
    // (every column on a wide terminal).
    let mut cmd = pf1e();
    cmd.arg("run").arg(&sweep).args(["--no-cache", "-q"]).env("COLUMNS", "400");
    let text = String::from_utf8(output(cmd).stdout).unwrap();
    for h in [
        "job 1 (optimize)",
        "best plan: ",
        "Worst-decile HP",
        "answer: party ",
        "P(no PC dies)",
        "most dangerous: ",
        "Party\\Adv",
        "frontier",
        "the adversary lever that matters most: ",
        "Levers",
    ] {
        assert!(text.contains(h), "{h} missing from\n{text}");
    }
}

#[test]
fn budgets_are_refused_before_any_battle() {
    let (fx, _) = fixture("budget");
    let sweep = fx.write_sweep("tight.yaml", &analysis_sweep(1000));
    let db = fx.path("never.redb");
    let mut cmd = pf1e();
    cmd.arg("run").arg(&sweep).args(["-q", "--db", db.to_str().unwrap()]);
    let out = cmd.output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("max_total_runs") && err.contains("tight.yaml"), "{err}");
    assert!(!db.exists(), "nothing was written");
    let job_budget = analysis_sweep(20_000).replace("max_total_runs: 1200", "max_total_runs: 500");
    let out = pf1e().arg("run").arg(fx.write_sweep("job.yaml", &job_budget)).arg("-q").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("optimize: the grid"), "job budgets too");
}

/// `ctl results ID --json`, read as it comes.
fn results(url: &str, id: &str) -> serde_json::Value {
    let mut cmd = pf1e();
    cmd.args(["ctl", "--coordinator", url, "results", id, "--json"]);
    json_of(&output(cmd))
}

fn submit(url: &str, sweep: &std::path::Path) -> String {
    let out = ctl(url, &["submit", sweep.to_str().unwrap(), "-q"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).lines().last().unwrap().trim().to_string()
}

#[test]
fn cluster_with_one_or_two_workers_and_a_resumed_coordinator_match_the_embedded_mode() {
    let (fx, sweep) = fixture("analysis-cluster");
    let reference = embedded(&sweep, &[])["results"].clone();
    for workers in [1, 2] {
        let c = start_coordinator(&fx.path(&format!("c{workers}.redb")), "127.0.0.1:0", &[], &[]);
        let _w: Vec<_> = (0..workers).map(|_| start_worker(&c.url, &["--threads", "1"], &[])).collect();
        let id = submit(&c.url, &sweep);
        let done = wait_for(&c.url, &id, "the sweep", |s| s["status"] != "running");
        assert_eq!(done["status"], "done");
        let doc = results(&c.url, &id);
        assert_eq!(doc["results"], reference, "{workers} worker(s)");
    }

    // Killed mid-sweep, restarted on the same database: the planners replay from the cache.
    let db = fx.path("resume.redb");
    let mut first = start_coordinator(&db, "127.0.0.1:0", &["--lease-ttl-ms", "800"], &[]);
    let url = first.url.clone();
    let _worker = start_worker(&url, &["--threads", "1", "--max-batch", "1"], &[]);
    let id = submit(&url, &sweep);
    let before = wait_for(&url, &id, "some computed shards", |s| {
        s["stats"]["shards_computed"].as_u64().unwrap_or(0) >= 5
    });
    first.proc.kill9();
    assert_eq!(before["status"], "running", "the sweep ended before the kill");
    let second = start_coordinator(&db, &first.addr, &["--lease-ttl-ms", "800"], &[]);
    let after = wait_for(&second.url, &id, "the resumed sweep", |s| s["status"] != "running");
    assert_eq!(after["status"], "done", "{after}");
    assert!(after["stats"]["shards_from_cache"].as_u64().unwrap() >= 5);
    let doc = results(&second.url, &id);
    assert_eq!(doc["results"], reference, "resumed");
}
