//! The binary's usage errors: one line naming the problem, exit status 2.

use std::process::Command;

fn worker() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_pf1e-worker"));
    c.env_remove("PF1E_COORDINATOR").env_remove("PF1E_TOKEN");
    c
}

#[test]
fn no_coordinator_is_a_usage_error() {
    let out = worker().output().expect("run pf1e-worker");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("PF1E_COORDINATOR"), "{err}");
}

#[test]
fn a_malformed_url_and_a_missing_token_file_are_usage_errors() {
    let out = worker().args(["--coordinator", "ftp://h:1"]).output().expect("run pf1e-worker");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unsupported scheme"));
    let out = worker()
        .args(["--coordinator", "http://127.0.0.1:1", "--token-file", "/nonexistent/token"])
        .output()
        .expect("run pf1e-worker");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/token: cannot read token file"));
}

#[test]
fn zero_threads_is_refused_by_the_parser() {
    let out = worker().args(["--coordinator", "http://127.0.0.1:1", "--threads", "0"]).output().expect("run");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--threads"));
}
