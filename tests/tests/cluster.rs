//! A coordinator and real workers: results equal the embedded mode's,
//! whatever dies on the way; a resubmitted sweep comes from the cache.

use pf1e_e2e::{
    Fixture, ctl, json_of, pf1e, run, start_coordinator, start_worker, start_worker_bin, status, wait_for,
};

fn submit(url: &str, sweep: &std::path::Path, watch: bool) -> String {
    let path = sweep.to_str().expect("utf-8 path");
    let mut args = vec!["submit", path, "-q"];
    if watch {
        args.push("--watch");
    }
    let out = ctl(url, &args);
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "submit failed: {stdout}\\n{}", String::from_utf8_lossy(&out.stderr));
    let id = stdout.lines().last().expect("an id line").trim().to_string();
    assert!(id.parse::<u64>().is_ok(), "the last line is not an id: {stdout:?}");
    id
}

fn results(url: &str, id: &str) -> serde_json::Value {
    json_of(&ctl(url, &["results", id, "--json"]))
}

fn stat(doc: &serde_json::Value, name: &str) -> u64 {
    doc["stats"][name].as_u64().unwrap_or_else(|| panic!("no stats.{name} in {doc}"))
}

#[test]
fn two_workers_match_the_embedded_mode_and_a_resubmission_comes_from_the_cache() {
    let fx = Fixture::new("cluster", 12, 3);
    let reference = fx.embedded_results();
    // A small page cache changes memory, never results.
    let c = start_coordinator(&fx.path("c.redb"), "127.0.0.1:0", &["--db-cache-mb", "16"], &[]);
    // One worker of the all-in-one binary, one of the worker image's own binary.
    let _w1 = start_worker(&c.url, &["--threads", "1"], &[]);
    let _w2 = start_worker_bin(&c.url, &["--threads", "1", "--name", "standalone"]);

    let id = submit(&c.url, &fx.sweep(), true);
    let doc = results(&c.url, &id);
    assert_eq!(doc["results"], reference, "cluster and embedded results differ");
    assert_eq!(doc["status"], "done");
    // The reports themselves, byte for byte (a grid: its shards reported totals on the fleet too).
    let mut embedded = pf1e();
    embedded.arg("run").arg(fx.sweep()).args(["--format", "md", "--no-cache", "-q"]);
    let embedded = run(embedded);
    let fleet = ctl(&c.url, &["results", &id, "--format", "md"]);
    assert!(embedded.status.success() && fleet.status.success());
    assert!(!embedded.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&fleet.stdout),
        String::from_utf8_lossy(&embedded.stdout),
        "the fleet's report is not the embedded one byte for byte"
    );
    let workers = json_of(&ctl(&c.url, &["workers", "--json"]));
    let standalone = workers.as_array().and_then(|ws| ws.iter().find(|w| w["name"] == "standalone"));
    assert_eq!(
        standalone.map(|w| w["threads"].clone()),
        Some(1.into()),
        "the pf1e-worker binary registered: {workers}"
    );
    assert_eq!(
        (stat(&doc, "shards_total"), stat(&doc, "shards_computed"), stat(&doc, "shards_from_cache")),
        (8, 8, 0)
    );

    // d. The same sweep again: every shard from the cache, same results.
    let again = submit(&c.url, &fx.sweep(), true);
    assert_ne!(again, id);
    let doc = results(&c.url, &again);
    assert_eq!(doc["results"], reference);
    assert_eq!((stat(&doc, "shards_computed"), stat(&doc, "shards_from_cache")), (0, 8));
    let s = status(&c.url, &again);
    assert_eq!(s["stats"], doc["stats"], "status carries the same stats");
}

#[test]
fn a_worker_killed_mid_sweep_loses_nothing() {
    let fx = Fixture::new("killworker", 150, 1);
    let reference = fx.embedded_results();
    let c = start_coordinator(&fx.path("c.redb"), "127.0.0.1:0", &["--lease-ttl-ms", "800"], &[]);
    let mut doomed = start_worker(&c.url, &["--threads", "1", "--max-batch", "1"], &[]);
    let id = submit(&c.url, &fx.sweep(), false);
    let before = wait_for(&c.url, &id, "two computed shards", |s| stat(s, "shards_computed") >= 2);
    doomed.kill9();
    assert!(
        stat(&before, "shards_computed") < stat(&before, "shards_total"),
        "the sweep ended before the kill"
    );

    let _rescuer = start_worker(&c.url, &["--threads", "1"], &[]);
    let out = ctl(&c.url, &["watch", &id]);
    assert!(out.status.success(), "watch: {}", String::from_utf8_lossy(&out.stderr));
    let doc = results(&c.url, &id);
    assert_eq!(doc["results"], reference);
    assert_eq!(stat(&doc, "shards_computed") + stat(&doc, "shards_from_cache"), 300);
}

#[test]
fn a_coordinator_killed_mid_sweep_resumes_without_recomputing() {
    let fx = Fixture::new("killcoord", 150, 1);
    let reference = fx.embedded_results();
    let db = fx.path("c.redb");
    let mut first = start_coordinator(&db, "127.0.0.1:0", &["--lease-ttl-ms", "800"], &[]);
    let url = first.url.clone();
    let _worker = start_worker(&url, &["--threads", "1", "--max-batch", "1"], &[]);
    let id = submit(&url, &fx.sweep(), false);
    let before = wait_for(&url, &id, "three computed shards", |s| stat(s, "shards_computed") >= 3);
    first.proc.kill9();
    let done_before = stat(&before, "shards_computed");
    assert!(done_before < stat(&before, "shards_total"), "the sweep ended before the kill");

    // Same database, same address: the worker reconnects by itself.
    let second = start_coordinator(&db, &first.addr, &["--lease-ttl-ms", "800"], &[]);
    let after = wait_for(&second.url, &id, "the resumed sweep to finish", |s| s["status"] != "running");
    assert_eq!(after["status"], "done", "{after}");
    let total = stat(&after, "shards_total");
    assert_eq!(total, 300);
    assert!(
        stat(&after, "shards_from_cache") >= done_before,
        "shards finished before the kill were recomputed: {after} (before: {before})"
    );
    assert_eq!(stat(&after, "shards_from_cache") + stat(&after, "shards_computed"), total);
    assert_eq!(results(&second.url, &id)["results"], reference);
}

#[test]
fn sigterm_drains_a_worker_and_stops_the_coordinator_which_resumes_on_restart() {
    let fx = Fixture::new("sigterm", 150, 1);
    let reference = fx.embedded_results();
    let db = fx.path("c.redb");
    let mut first = start_coordinator(&db, "127.0.0.1:0", &[], &[]);
    let mut worker = start_worker(&first.url, &["--threads", "1", "--max-batch", "1"], &[]);
    let id = submit(&first.url, &fx.sweep(), false);
    wait_for(&first.url, &id, "two computed shards", |s| stat(s, "shards_computed") >= 2);

    let exit = worker.terminate().expect("the worker stops after SIGTERM");
    assert!(exit.success(), "worker exit: {exit}");
    let workers = json_of(&ctl(&first.url, &["workers", "--json"]));
    assert_eq!(workers, serde_json::json!([]), "the worker did not drain");
    let before = status(&first.url, &id);
    assert_eq!(stat(&before, "shards_leased"), 0, "a drained worker holds no lease: {before}");

    let exit = first.proc.terminate().expect("the coordinator stops after SIGTERM");
    assert!(exit.success(), "coordinator exit: {exit}");

    let second = start_coordinator(&db, "127.0.0.1:0", &[], &[]);
    let resumed = status(&second.url, &id);
    assert_eq!(resumed["status"], "running");
    assert!(stat(&resumed, "shards_from_cache") >= stat(&before, "shards_computed"), "{resumed} vs {before}");
    let _w = start_worker(&second.url, &["--threads", "1"], &[]);
    let out = ctl(&second.url, &["watch", &id]);
    assert!(out.status.success(), "watch: {}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(results(&second.url, &id)["results"], reference);
}

/// Waits (bounded) for a process to exit on its own; its status.
fn exit_of(p: &mut pf1e_e2e::Proc) -> std::process::ExitStatus {
    let start = std::time::Instant::now();
    while start.elapsed() < std::time::Duration::from_secs(30) {
        if let Ok(Some(s)) = p.child.try_wait() {
            return s;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    panic!("{} did not exit", p.name);
}

#[test]
fn synthetic_workers_serve_only_a_synthetic_coordinator_whose_file_nothing_else_opens() {
    let fx = Fixture::new("synthetic", 40, 10);
    let db = fx.path("synthetic.redb");
    let c = start_coordinator(&db, "127.0.0.1:0", &["--synthetic-workers", "--no-http"], &[]);
    // A real worker is refused by a coordinator of synthetic workers…
    let mut real = start_worker(&c.url, &["--threads", "1"], &[]);
    assert!(!exit_of(&mut real).success(), "a real worker served a synthetic coordinator");
    // …which a synthetic one serves: made-up results, same shape, deterministic.
    let _w = start_worker(&c.url, &["--threads", "4", "--synthetic-battle-us", "50"], &[]);
    let id = submit(&c.url, &fx.sweep(), true);
    let doc = results(&c.url, &id);
    assert_eq!(doc["status"], "done");
    let again = results(&c.url, &submit(&c.url, &fx.sweep(), true));
    assert_eq!(again["results"], doc["results"]);
    let reference = fx.embedded_results();
    assert_ne!(doc["results"], reference, "synthetic results are made up");
    let cells = doc["results"]["jobs"][0]["cells"].as_array().expect("cells");
    assert_eq!(cells.len(), reference["jobs"][0]["cells"].as_array().expect("cells").len());
    for cell in cells {
        assert_eq!(cell["runs"], 40);
    }
    drop(c);

    // Nothing else opens the file of made-up results.
    let out = pf1e_e2e::run({
        let mut cmd = pf1e_e2e::pf1e();
        cmd.args(["run", "--db"]).arg(&db).arg(fx.sweep());
        cmd
    });
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("made-up"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // A real coordinator refuses a synthetic worker.
    let real = start_coordinator(&fx.path("real.redb"), "127.0.0.1:0", &["--no-http"], &[]);
    let mut fake = pf1e_e2e::pf1e();
    fake.args(["worker", "--coordinator", &real.url, "--synthetic-battle-us", "1"]);
    let out = pf1e_e2e::run(fake);
    assert!(!out.status.success(), "a real coordinator took a synthetic worker");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("only a coordinator started with --synthetic-workers"), "{err}");
}

/// The shards leased to every sweep by the time sweep `i` got its last one,
/// were the workers shared exactly by weight among the sweeps still
/// waiting (generalised processor sharing): sweep `i` ends at virtual time
/// `S_i / w_i`, when each sweep `j` has had `min(S_j, S_i w_j / w_i)` shards.
fn fair_share_end(sizes: &[(u64, u64)], i: usize) -> f64 {
    let (s_i, w_i) = sizes[i];
    let v = s_i as f64 / w_i as f64;
    sizes.iter().map(|&(s, w)| (s as f64).min(v * w as f64)).sum()
}

#[test]
fn twenty_concurrent_sweeps_each_end_within_one_and_a_half_fair_shares() {
    let fx = Fixture::new("fairness", 1, 1);
    let c = start_coordinator(&fx.path("f.redb"), "127.0.0.1:0", &["--synthetic-workers", "--no-http"], &[]);
    // Twenty sweeps of 3 to 39 one-run shards and weights 1 to 3, all queued before any worker.
    let mut sizes = Vec::new();
    let mut ids = Vec::new();
    for i in 0..20u64 {
        let shards = 3 + (i * 7) % 37;
        let weight = 1 + i % 3;
        let text = fixture_sweep_with(shards, 100 + i);
        let path = fx.write_sweep(&format!("s{i}.yaml"), &text);
        let out =
            ctl(&c.url, &["submit", path.to_str().expect("utf-8"), "--weight", &weight.to_string(), "-q"]);
        assert!(out.status.success(), "submit: {}", String::from_utf8_lossy(&out.stderr));
        ids.push(String::from_utf8_lossy(&out.stdout).lines().last().expect("an id").trim().to_string());
        sizes.push((shards, weight));
    }
    // One worker leasing one shard at a time: each lease is one step of the fair share.
    let _w = start_worker(&c.url, &["--threads", "1", "--max-batch", "1", "--synthetic-battle-us", "1"], &[]);
    for id in &ids {
        let out = ctl(&c.url, &["watch", id, "--json"]);
        assert!(out.status.success(), "sweep {id}: {}", String::from_utf8_lossy(&out.stderr));
    }
    let total: u64 = sizes.iter().map(|(s, _)| s).sum();
    let mut worst = 0f64;
    for (i, id) in ids.iter().enumerate() {
        let s = status(&c.url, id);
        let end = s["stats"]["leases_at_end"].as_u64().unwrap_or_else(|| panic!("no leases_at_end in {s}"));
        assert!(end >= sizes[i].0 && end <= total, "sweep {id}: {end} of {total} shards");
        let fair = fair_share_end(&sizes, i);
        worst = worst.max(end as f64 / fair);
        assert!(
            end as f64 <= 1.5 * fair,
            "sweep {id} ({} shards, weight {}) ended after {end} shards leased, its fair share {fair:.1}",
            sizes[i].0,
            sizes[i].1
        );
    }
    // Not the order of submission: the last sweep submitted did not wait for the nineteen before it.
    let last = status(&c.url, &ids[19]);
    assert!(last["stats"]["leases_at_end"].as_u64().unwrap_or(0) < total, "{last}");
    eprintln!("worst end / fair share: {worst:.3}");
}

/// The fixture's sweep at full HP only: `runs` one-run shards, seed `seed`.
fn fixture_sweep_with(runs: u64, seed: u64) -> String {
    Fixture::sweep_text(runs as u32, 1)
        .replace("seed: 11", &format!("seed: {seed}"))
        .replace("players: [0.5, 1.0]", "players: [1.0]")
}

#[test]
fn a_weight_out_of_range_is_refused_before_any_connection() {
    let fx = Fixture::new("weight", 1, 1);
    let path = fx.sweep();
    for bad in ["0", "101", "x"] {
        let out = ctl("http://127.0.0.1:9", &["submit", path.to_str().expect("utf-8"), "--weight", bad]);
        assert!(!out.status.success(), "weight {bad} accepted");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--weight"), "{err}");
    }
}
