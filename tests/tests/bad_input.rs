//! Bad input gets one clear line, exit status 2, and writes nothing.

use pf1e_e2e::{Fixture, ctl, json_of, pf1e, run, start_coordinator};

fn refused(out: &std::process::Output, expect: &[&str]) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "expected exit 2, got {}: {stderr}", out.status);
    assert_eq!(stderr.trim().lines().count(), 1, "expected one stderr line: {stderr:?}");
    for e in expect {
        assert!(stderr.contains(e), "{stderr:?} does not mention {e:?}");
    }
}

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
