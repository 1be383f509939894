//! `pf1e ctl` as a user meets it, against a real coordinator on loopback:
//! options anywhere on the line, tables with headers and words for empty
//! lists, `--json` on every subcommand, a warning when no worker can play a
//! submitted sweep, `results` of a running sweep pointing at `watch`, and
//! the gRPC health service.

use pf1e_e2e::{Fixture, json_of, pf1e, refused, run, start_coordinator, start_worker, wait_for};

/// `pf1e ARGS...` with `--coordinator URL` at the end of the line.
fn ctl_last(url: &str, args: &[&str]) -> std::process::Output {
    let mut cmd = pf1e();
    cmd.arg("ctl").args(args).args(["--coordinator", url]);
    run(cmd)
}

fn text(out: &std::process::Output) -> String {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).unwrap()
}

#[test]
fn ctl_reads_as_a_person_expects_and_scripts_as_a_script_expects() {
    let fx = Fixture::new("ctl", 40, 10);
    let c = start_coordinator(&fx.path("c.redb"), "127.0.0.1:0", &[], &[]);

    // Health: the standard gRPC health service answers, without a token.
    assert_eq!(text(&ctl_last(&c.url, &["health"])), "SERVING\n");
    let h = json_of(&ctl_last(&c.url, &["health", "--service", "pf1e.v1.ControlService", "--json"]));
    assert_eq!(h["status"], "SERVING");

    // Empty lists say so; --coordinator anywhere on the line.
    let status = text(&ctl_last(&c.url, &["status"]));
    assert!(status.starts_with("coordinator: 0 workers, "), "{status}");
    assert!(status.ends_with("\nno sweeps\n"), "{status}");
    assert_eq!(text(&ctl_last(&c.url, &["workers"])), "no workers\n");
    assert_eq!(json_of(&ctl_last(&c.url, &["workers", "--json"])), serde_json::json!([]));

    // Submitting with no worker connected: the id, and a warning that says what to do.
    let out = ctl_last(&c.url, &["submit", fx.sweep().to_str().unwrap()]);
    let id = text(&out).trim().to_string();
    let warning = String::from_utf8_lossy(&out.stderr);
    assert!(
        warning.contains("warning: no worker is connected") && warning.contains("pf1e worker --coordinator"),
        "{warning}"
    );

    // Results of a running sweep point at `watch`.
    let early = ctl_last(&c.url, &["results", &id]);
    let err = String::from_utf8_lossy(&early.stderr);
    assert_eq!(early.status.code(), Some(1), "{err}");
    assert!(err.contains(&format!("`pf1e ctl watch {id}`")) && err.lines().count() == 1, "{err}");

    // Tables have headers; `submit --json` and `cancel --json` print documents.
    let table = text(&ctl_last(&c.url, &["status"]));
    let header = table.lines().nth(1).unwrap();
    assert!(header.starts_with("Id  Status   Name") && header.contains("Cells"), "{table}");
    let second: serde_json::Value =
        json_of(&ctl_last(&c.url, &["submit", fx.sweep().to_str().unwrap(), "--json", "-q"]));
    let second_id = second["id"].as_u64().expect("an id");
    let cancelled = json_of(&ctl_last(&c.url, &["cancel", &second_id.to_string(), "--json"]));
    assert_eq!(cancelled["status"], "cancelled");

    // A worker: the workers table, and the first sweep finishes.
    let _w = start_worker(&c.url, &["--threads", "1", "--name", "ctl-test"], &[]);
    wait_for(&c.url, &id, "the sweep to finish", |s| s["status"] == "done");
    let workers = text(&ctl_last(&c.url, &["workers"]));
    assert!(
        workers.starts_with("Id ") && workers.contains("Threads") && workers.contains("ctl-test"),
        "{workers}"
    );
    let watched = json_of(&ctl_last(&c.url, &["watch", &id, "--json"]));
    assert_eq!(watched["status"], "done");
    let results = text(&ctl_last(&c.url, &["results", &id]));
    assert!(results.starts_with(&format!("sweep {id} (e2e): done\n")), "{results}");

    // French under a French locale, French typography included.
    let mut fr = pf1e();
    fr.env("LANG", "fr_FR.UTF-8").args(["ctl", "status", &id, "--coordinator", &c.url]);
    let fr = text(&run(fr));
    assert!(fr.starts_with(&format!("sweep {id} (e2e) : done\n  cases : ")), "{fr}");
}

/// `pf1e ctl ARGS` with `token` as the client token.
fn ctl_as(url: &str, token: &str, args: &[&str]) -> std::process::Output {
    let mut cmd = pf1e();
    cmd.args(["ctl", "--coordinator", url]).args(args).env("PF1E_TOKEN", token);
    run(cmd)
}

/// `ctl gc` on a running coordinator: the journals of old ended sweeps
/// go, a running sweep is never touched (before and while a worker plays
/// it) and its results stay those of the embedded mode; the client token
/// only (and workers only the workers' token); bad input refused in one
/// line with exit 2.
#[test]
fn ctl_gc_removes_old_journals_online_and_never_touches_a_running_sweep() {
    let fx = Fixture::new("ctl-gc", 12, 3);
    let big = Fixture::new("ctl-gc-running", 150, 1);
    let reference = big.embedded_results();
    let (client, worker) = ("client-token-gc", "worker-token-gc");
    let env = [("PF1E_TOKEN", client), ("PF1E_WORKER_TOKEN", worker)];
    let c = start_coordinator(&fx.path("c.redb"), "127.0.0.1:0", &["--metrics-listen", "127.0.0.1:0"], &env);
    let as_client = |args: &[&str]| ctl_as(&c.url, client, args);

    // Three ended sweeps (ids 1 to 3), then one that waits for a worker.
    let w = start_worker(&c.url, &["--threads", "1"], &[("PF1E_TOKEN", worker)]);
    let sweep = fx.sweep();
    for _ in 0..3 {
        let done = json_of(&as_client(&["submit", sweep.to_str().unwrap(), "--watch", "--json", "-q"]));
        assert_eq!(done["status"], "done", "{done}");
    }
    drop(w);
    let running = json_of(&as_client(&["submit", big.sweep().to_str().unwrap(), "--json", "-q"]));
    let running = running["id"].as_u64().expect("an id").to_string();

    // The metrics port answers a scrape without the token (the autoscaler's
    // queue depth: the waiting sweep's 300 shards), and holds no data.
    let scrape = |path: &str| {
        use std::io::{Read, Write};
        let mut sock = std::net::TcpStream::connect(c.metrics.as_deref().unwrap()).unwrap();
        write!(sock, "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").unwrap();
        let mut text = String::new();
        sock.read_to_string(&mut text).unwrap();
        text
    };
    let metrics = scrape("/metrics");
    assert!(metrics.starts_with("HTTP/1.1 200"), "{metrics}");
    assert!(metrics.contains("\npf1e_shards_pending 300\n"), "{metrics}");
    assert!(scrape(&format!("/api/sweeps/{running}")).starts_with("HTTP/1.1 404"));

    // Bad input: one line, exit 2, nothing removed.
    refused(&as_client(&["gc", "--keep", "1000001"]), &["--keep"]);
    refused(&as_client(&["gc", "--keep=-1"]), &["--keep"]);
    refused(&ctl_as(&c.url, "not-the-token", &["gc", "--keep", "0"]), &["token"]);
    refused(&ctl_as(&c.url, worker, &["gc", "--keep", "0"]), &["token"]);
    // Separate credentials: the workers' token opens no control call, and a
    // worker holding the clients' token is refused by the worker service.
    let mut stray = pf1e();
    stray.args(["worker", "--coordinator", &c.url, "--threads", "1"]).env("PF1E_TOKEN", client);
    refused(&run(stray), &["wrong token"]);
    let mut same = pf1e();
    same.args(["coordinator", "--listen", "127.0.0.1:0", "--db"]).arg(fx.path("same.redb"));
    same.env("PF1E_TOKEN", client).env("PF1E_WORKER_TOKEN", client);
    refused(&run(same), &["must differ"]);
    let listed = |out: std::process::Output| json_of(&out)["sweeps"].as_array().expect("sweeps").len();
    assert_eq!(listed(as_client(&["status", "--json"])), 4, "a refused gc removed something");

    // Keep the newest ended sweep: the two older go, the running one stays.
    let gc = json_of(&as_client(&["gc", "--keep", "1", "--json"]));
    assert_eq!(
        (gc["removed"].as_u64(), gc["kept"].as_u64(), gc["running"].as_u64()),
        (Some(2), Some(1), Some(1))
    );
    assert!(gc["bytes"].as_u64().is_some_and(|b| b > 0), "{gc}");
    let status = json_of(&as_client(&["status", "--json"]));
    let ids: Vec<u64> =
        status["sweeps"].as_array().unwrap().iter().map(|s| s["id"].as_u64().unwrap()).collect();
    assert_eq!(ids, vec![3, running.parse().unwrap()], "{status}");
    refused(&as_client(&["status", "1"]), &["no sweep with id 1"]);
    assert_eq!(json_of(&as_client(&["results", "3", "--json"]))["status"], "done");
    let again = json_of(&as_client(&["gc", "--keep", "1", "--json"]));
    assert_eq!(again["removed"], 0, "{again}");

    // While a worker plays the running sweep: keep nothing ended.
    let _w = start_worker(&c.url, &["--threads", "1", "--max-batch", "1"], &[("PF1E_TOKEN", worker)]);
    let start = std::time::Instant::now();
    while json_of(&as_client(&["status", &running, "--json"]))["stats"]["shards_computed"].as_u64() < Some(2)
    {
        assert!(start.elapsed() < pf1e_e2e::TIMEOUT, "the running sweep does not progress");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let during = json_of(&as_client(&["gc", "--keep", "0", "--json"]));
    assert_eq!(during["removed"], 1, "{during}");
    let text = String::from_utf8(as_client(&["gc", "--keep", "0"]).stdout).unwrap();
    assert!(text.starts_with("removed 0 journaled sweeps (0 B); kept 0 ended, "), "{text}");

    // The running sweep ends with the embedded mode's results, every shard accounted for.
    let watched = json_of(&as_client(&["watch", &running, "--json"]));
    assert_eq!(watched["status"], "done", "{watched}");
    let doc = json_of(&as_client(&["results", &running, "--json"]));
    assert_eq!(doc["results"], reference, "a gc changed a running sweep's results");
    let stats = &doc["stats"];
    assert_eq!(
        stats["shards_computed"].as_u64().unwrap() + stats["shards_from_cache"].as_u64().unwrap(),
        300,
        "{stats}"
    );
}
