//! The encounter designer end to end: the shipped example finds encounters
//! for the level-4 campaign party inside its band, each measured again by
//! an independent `pf1e sim` with another seed; the same answer embedded and
//! with two workers; a search that cannot fit its budget refused before any
//! battle.

use pf1e_e2e::{Fixture, ctl, data_dir, json_of, pf1e, start_coordinator, start_worker, wait_for};

fn output(mut cmd: std::process::Command) -> std::process::Output {
    let out = cmd.stdin(std::process::Stdio::null()).output().expect("run pf1e");
    assert!(out.status.success(), "{cmd:?}: {}", String::from_utf8_lossy(&out.stderr));
    out
}

/// Wilson's score interval of `k` successes in `n` at quantile `z`.
fn wilson(k: f64, n: f64, z: f64) -> (f64, f64) {
    let p = k / n;
    let centre = p + z * z / (2.0 * n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    let d = 1.0 + z * z / n;
    ((centre - half) / d, (centre + half) / d)
}

#[test]
fn the_designer_finds_three_encounters_in_the_band_and_another_seed_agrees_on_each() {
    let sweep = data_dir().join("sweeps/design.yaml");
    let mut cmd = pf1e();
    cmd.arg("run").arg(&sweep).args(["--json", "--no-cache", "-q"]);
    let doc = json_of(&output(cmd));
    let job = &doc["results"]["jobs"][0];
    assert_eq!(job["kind"], "design");
    let r = &job["result"];
    let band = r["target"].as_array().unwrap().iter().find(|b| b["metric"] == "p_some_pc_dies").unwrap();
    let (low, high) = (band["low"].as_f64().unwrap(), band["high"].as_f64().unwrap());
    let tpk_high = r["target"].as_array().unwrap().iter().find(|b| b["metric"] == "p_tpk").unwrap()["high"]
        .as_f64()
        .unwrap();
    // The proposals (ranked), distinct groups of monsters at their starting hit points.
    let proposals: Vec<&serde_json::Value> =
        r["candidates"].as_array().unwrap().iter().filter(|c| c["rank"].as_u64().unwrap() > 0).collect();
    let mut groups: Vec<String> =
        proposals.iter().map(|c| format!("{} at {}", c["files"], c["hp_fraction"])).collect();
    groups.sort();
    groups.dedup();
    assert!(groups.len() >= 3, "{} distinct encounters in [{low}, {high}]: {r}", groups.len());
    for c in proposals.iter().take(3) {
        let p = c["party"]["p_any_death"].as_f64().unwrap();
        assert!((low..=high).contains(&p), "a proposal inside the band: {c}");
        assert_eq!(
            c["files"].as_array().unwrap().len() as u64,
            c["members"].as_array().unwrap().iter().map(|m| m["count"].as_u64().unwrap()).sum::<u64>()
        );
        // The independent re-check: the same fight with another seed.
        let mut sim = pf1e();
        sim.args(["sim", "--map"]).arg(data_dir().join("maps/field.yaml")).args(["--side", "players"]);
        for pc in ["esha", "harvie", "oni", "nairda"] {
            sim.arg(data_dir().join(format!("pcs/{pc}.json")));
        }
        sim.args(["--side", "monsters"]);
        for f in c["files"].as_array().unwrap() {
            sim.arg(data_dir().join("sweeps").join(f.as_str().unwrap()));
        }
        // A proposal refined on the monsters' hit points starts them there.
        let hp = c["hp_fraction"].as_f64().unwrap();
        if hp < 1.0 {
            sim.args(["--start-hp", "monsters", &hp.to_string()]);
        }
        sim.args(["--runs", "400", "--seed", "90210", "--round-cap", "30", "--json", "-q"]);
        let again = json_of(&output(sim));
        let s = &again["party"]["simulated"];
        let n = again["runs"].as_f64().unwrap();
        let (lo, hi) = wilson(s["p_pc_dies"].as_f64().unwrap() * n, n, 3.0);
        assert!(lo <= high && hi >= low, "re-check P(a PC dies) [{lo}, {hi}] misses [{low}, {high}]: {c}");
        // Another seed measures the wipes the designer measured: the two
        // intervals meet. A confirmed proposal has every interval inside its
        // band, so its wipes are rare on another seed too; an unconfirmed
        // one holds its bands at its point estimates only (docs/designer.md,
        // "The answer"), and its P(TPK) may sit on the band's edge.
        let (lo, hi) = wilson(s["p_all_down"].as_f64().unwrap() * n, n, 3.0);
        let ci = &c["party"]["p_tpk_ci"];
        let (clo, chi) = (ci[0].as_f64().unwrap(), ci[1].as_f64().unwrap());
        assert!(
            lo <= chi && hi >= clo,
            "re-check P(TPK) [{lo}, {hi}] misses the proposal's [{clo}, {chi}]: {c}"
        );
        if c["confirmed"] == true {
            assert!(lo <= tpk_high, "re-check P(TPK) from {lo} is over {tpk_high}: {c}");
        }
    }
    // The best proposal's battle worth reading: its command, run from the
    // sweep file's folder, plays the proposal's very battles (same P(a PC
    // dies) to the last digit) and shows the run named.
    let best = proposals[0];
    let battle = &best["worth_reading"];
    let command = battle["command"].as_str().expect("a replay command");
    assert!(!command.contains('\''), "plain paths need no quoting: {command}");
    let words: Vec<&str> = command.split_whitespace().collect();
    assert_eq!(words[..2], ["pf1e", "sim"], "{command}");
    let replay = |extra: &[&str]| {
        let mut sim = pf1e();
        sim.current_dir(data_dir().join("sweeps")).args(&words[1..]).args(extra).args(["--json", "-q"]);
        json_of(&output(sim))
    };
    let again = replay(&[]);
    assert_eq!(again["runs"], best["party"]["runs"], "{command}");
    assert_eq!(again["party"]["simulated"]["p_pc_dies"], best["party"]["p_any_death"], "{command}");
    assert_eq!(again["shown"]["run"], battle["run"], "{again}");
    assert!(again["transcript"].as_array().is_some_and(|t| !t.is_empty()), "the battle is printed");
    // Its best party plan, played with --strategy on the same dice, measures what the designer says.
    let plan = &best["plan"];
    assert!(plan["measured"].as_u64().unwrap() >= 5, "{plan}");
    if plan["better"] == true {
        let strategy = plan["strategy"].as_str().unwrap();
        let planned = replay(&["--strategy", strategy]);
        assert_eq!(planned["party"]["simulated"]["p_pc_dies"], plan["p_some_pc_dies"], "{strategy}");
        assert!(plan["p_some_pc_dies"].as_f64() < best["party"]["p_any_death"].as_f64(), "{plan}");
    }
}

/// A small design over the fixture's goblins and orcs: three goblins against
/// groups of orcs and goblins.
fn small_design(max_total_runs: u64) -> String {
    format!(
        "name: design\nseed: 3\nruns: 20\nparty: players\nshard_size: 10\nscenario:\n  map: ../maps/sample_arena.yaml\n  sides:\n    players: {{ zone: A, combatants: [../monsters/goblin.json, ../monsters/goblin.json, ../monsters/goblin.json] }}\n    monsters: {{ zone: B }}\njobs:\n  - design:\n      target: {{ p_some_pc_dies: [0.1, 0.6] }}\n      pool: {{ monsters: [../monsters/orc.json, ../monsters/goblin.json] }}\n      max_monsters: 3\n      candidates: 5\n      race_rounds: 1\n      refine: 1\n      max_total_runs: {max_total_runs}\n"
    )
}

fn submit(url: &str, sweep: &std::path::Path) -> String {
    let out = ctl(url, &["submit", sweep.to_str().unwrap(), "-q"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).lines().last().unwrap().trim().to_string()
}

#[test]
fn embedded_and_two_workers_design_the_same_encounters() {
    let fx = Fixture::new("design-cluster", 10, 10);
    let sweep = fx.write_sweep("design.yaml", &small_design(10_000));
    let mut cmd = pf1e();
    cmd.arg("run").arg(&sweep).args(["--json", "--no-cache", "-q"]);
    let reference = json_of(&output(cmd))["results"].clone();
    let candidates = reference["jobs"][0]["result"]["candidates"].as_array().unwrap();
    assert!(!candidates.is_empty(), "{reference}");
    let c = start_coordinator(&fx.path("c.redb"), "127.0.0.1:0", &[], &[]);
    let _w: Vec<_> = (0..2).map(|_| start_worker(&c.url, &["--threads", "1"], &[])).collect();
    let id = submit(&c.url, &sweep);
    let done = wait_for(&c.url, &id, "the design", |s| s["status"] != "running");
    assert_eq!(done["status"], "done", "{done}");
    let mut cmd = pf1e();
    cmd.args(["ctl", "--coordinator", &c.url, "results", &id, "--json"]);
    assert_eq!(json_of(&output(cmd))["results"], reference);
}

#[test]
fn a_search_over_its_budget_and_bad_targets_are_refused_before_any_battle() {
    let fx = Fixture::new("design-budget", 10, 10);
    let db = fx.path("never.redb");
    let refuse = |name: &str, text: &str| {
        let sweep = fx.write_sweep(name, text);
        let out = pf1e().arg("run").arg(&sweep).args(["-q", "--db", db.to_str().unwrap()]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{name}");
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(name), "{err}");
        err
    };
    let err = refuse("tight.yaml", &small_design(100));
    assert!(err.contains("design: ") && err.contains("max_total_runs of 100"), "{err}");
    let err = refuse("label.yaml", &small_design(10_000).replace("{ p_some_pc_dies: [0.1, 0.6] }", "deadly"));
    assert!(err.contains("line 13: design: target: ") && err.contains("not a label of the book"), "{err}");
    let err = refuse(
        "pool.yaml",
        &small_design(10_000).replace(
            "../monsters/orc.json, ../monsters/goblin.json] }",
            "../monsters/orc.json, ../monsters/goblin.json], cr: [5, 9] }",
        ),
    );
    assert!(err.contains("line 14: design: pool: ") && err.contains("leave no monster"), "{err}");
    let err = refuse(
        "filled.yaml",
        &small_design(10_000)
            .replace("monsters: { zone: B }", "monsters: { zone: B, combatants: [../monsters/orc.json] }"),
    );
    assert!(err.contains("list no combatant there"), "{err}");
    assert!(!db.exists(), "nothing was written");
}
