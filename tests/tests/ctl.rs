//! `pf1e ctl` as a user meets it, against a real coordinator on loopback:
//! options anywhere on the line, tables with headers and words for empty
//! lists, `--json` on every subcommand, a warning when no worker can play a
//! submitted sweep, `results` of a running sweep pointing at `watch`, and
//! the gRPC health service.

use pf1e_e2e::{Fixture, json_of, pf1e, run, start_coordinator, start_worker, wait_for};

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
