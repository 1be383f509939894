//! The corruption fuzzer: single bytes flipped in a finished cache file,
//! each followed by a rerun from that file. Whatever the byte, no process
//! dies of a panic, and a rerun that exits 0 prints the reference numbers:
//! a corrupted record is a cache miss computed again (or a clean error),
//! never other numbers. `pf1e cache verify` finds what the checksums catch.

use pf1e_e2e::{Fixture, json_of, pf1e, run};

/// Trials: bounded, so the test takes seconds (each is one short `pf1e run`).
const TRIALS: u64 = 48;

/// A small deterministic generator (splitmix64): the trials are the same on
/// every machine.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[test]
fn flipped_bytes_in_a_cache_file_never_panic_and_never_change_the_numbers() {
    let fx = Fixture::new("corruption", 12, 2);
    let reference = fx.embedded_results();
    let db = fx.path("cache.redb");
    let mut cmd = pf1e();
    cmd.arg("run").arg(fx.sweep()).arg("--db").arg(&db).args(["--json", "-q"]);
    let first = json_of(&run(cmd));
    assert_eq!(first["results"], reference);
    let pristine = std::fs::read(&db).unwrap();
    // Past the first page (the header: its corruption is redb's own clean error).
    let start = 4096.min(pristine.len() / 2);
    let mut state = 2026;
    let (mut same, mut errors, mut recomputed) = (0, 0, 0);
    for trial in 0..TRIALS {
        let mut bytes = pristine.clone();
        let at = start + (next(&mut state) as usize) % (bytes.len() - start);
        bytes[at] ^= 1 << (next(&mut state) % 8);
        let copy = fx.path(&format!("trial-{trial}.redb"));
        std::fs::write(&copy, &bytes).unwrap();
        let mut cmd = pf1e();
        cmd.arg("run").arg(fx.sweep()).arg("--db").arg(&copy).args(["--json", "-q"]);
        let out = run(cmd);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_ne!(out.status.code(), Some(101), "trial {trial} (byte {at}) panicked: {stderr}");
        assert!(out.status.code().is_some(), "trial {trial} (byte {at}) died of a signal: {stderr}");
        if out.status.success() {
            let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(doc["results"], reference, "trial {trial} (byte {at}): other numbers with exit 0");
            same += 1;
            if doc["stats"]["shards_computed"].as_u64().unwrap_or(0) > 0 {
                recomputed += 1;
            }
        } else {
            assert!(
                stderr.lines().any(|l| l.starts_with("error:")),
                "trial {trial}: no error line: {stderr}"
            );
            errors += 1;
        }
        std::fs::remove_file(&copy).unwrap();
    }
    eprintln!(
        "{TRIALS} trials: {same} same results ({recomputed} recomputed a corrupted shard), {errors} clean errors"
    );
    assert_eq!(same + errors, TRIALS);
}

#[test]
fn cache_verify_reports_a_corrupted_record_and_repair_removes_it() {
    let fx = Fixture::new("verify", 4, 2);
    let db = fx.path("cache.redb");
    let mut cmd = pf1e();
    cmd.arg("run").arg(fx.sweep()).arg("--db").arg(&db).args(["--json", "-q"]);
    let first = json_of(&run(cmd));
    let verify = |extra: &[&str]| {
        let mut cmd = pf1e();
        cmd.args(["cache", "verify", "--json", "--db"]).arg(&db).args(extra);
        run(cmd)
    };
    let clean = verify(&[]);
    assert!(clean.status.success(), "{}", String::from_utf8_lossy(&clean.stderr));
    let doc = json_of(&clean);
    assert!(doc["checked"].as_u64().unwrap() >= 4 + 2, "{doc}");
    assert_eq!(doc["bad"], serde_json::json!([]));

    // Flip one byte inside a stored shard result: a sealed record's payload
    // (after its magic and checksum), tried record by record until the one
    // found bad is a shard.
    let pristine = std::fs::read(&db).unwrap();
    let sealed: Vec<usize> =
        pristine.windows(4).enumerate().filter(|(_, w)| *w == b"pfs1").map(|(i, _)| i).collect();
    let mut corrupted = None;
    for at in sealed {
        let mut bytes = pristine.clone();
        bytes[at + 4 + 16 + 3] ^= 0x20;
        std::fs::write(&db, &bytes).unwrap();
        let found = verify(&[]);
        if found.status.success() {
            continue; // a stale copy in a freed page: not a live record
        }
        assert_eq!(found.status.code(), Some(1), "{}", String::from_utf8_lossy(&found.stderr));
        let doc: serde_json::Value = serde_json::from_slice(&found.stdout).unwrap();
        let bad = doc["bad"].as_array().unwrap().clone();
        assert_eq!(bad.len(), 1, "{doc}");
        // Shards written together are one batch record.
        let name = bad[0].as_str().unwrap();
        if name.starts_with("shard_results/") || name.starts_with("shard_batches/") {
            corrupted = Some(bytes);
            break;
        }
    }
    let corrupted = corrupted.expect("a shard record among the sealed ones");

    // A rerun recomputes the shards of that record (one, or a batch's),
    // says so once, and prints the same numbers.
    let mut cmd = pf1e();
    cmd.arg("run").arg(fx.sweep()).arg("--db").arg(&db).arg("--json").env("RUST_LOG", "warn");
    let out = run(cmd);
    let doc = json_of(&out);
    assert_eq!(doc["results"], first["results"]);
    let computed = doc["stats"]["shards_computed"].as_u64().unwrap();
    assert!((1..=doc["stats"]["shards_total"].as_u64().unwrap()).contains(&computed), "{doc}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.matches("failed their checksum").count(), 1, "{stderr}");
    assert!(verify(&[]).status.success(), "the recomputed record replaced the bad one");

    // `--repair` removes a bad record.
    std::fs::write(&db, &corrupted).unwrap();
    let repaired = verify(&["--repair"]);
    assert!(repaired.status.success(), "{}", String::from_utf8_lossy(&repaired.stderr));
    assert_eq!(json_of(&repaired)["removed"], 1);
    let again = verify(&[]);
    assert!(again.status.success());
    assert_eq!(json_of(&again)["bad"], serde_json::json!([]));
}
