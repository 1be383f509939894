//! `pf1e design`: the flags make a design sweep, run as `pf1e run` runs it;
//! the printed sweep plays to the same answer; bad flags are one line, exit 2.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn pf1e(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pf1e"))
        .current_dir(repo())
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env_remove("RUST_LOG")
        .env("LANG", "C.UTF-8")
        .args(args)
        .output()
        .expect("run pf1e")
}

/// A small search: the level-4 party against undead of CR 1 to 3.
fn design_args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "design",
        "--party",
        "data/pcs/esha.json",
        "data/pcs/harvie.json",
        "data/pcs/oni.json",
        "data/pcs/nairda.json",
        "--pool",
        "data/monsters",
        "--type",
        "undead",
        "--cr",
        "1",
        "3",
        "--target",
        "p_some_pc_dies=0.0..0.5",
        "--target",
        "p_tpk<0.05",
        "--map",
        "data/maps/field.yaml",
        "--candidates",
        "3",
        "--race-rounds",
        "1",
        "--refine",
        "0",
        "--runs",
        "20",
        "--seed",
        "5",
    ];
    args.extend_from_slice(extra);
    args
}

fn json(out: &Output) -> Value {
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}\n{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

#[test]
fn the_printed_sweep_plays_to_the_same_answer_as_the_command() {
    let direct = json(&pf1e(&design_args(&["--no-cache", "--json", "-q"])));
    let design = &direct["results"]["jobs"][0];
    assert_eq!(design["kind"], "design", "{direct}");
    let candidates = design["result"]["candidates"].as_array().map_or(0, Vec::len);
    assert_eq!(candidates, 3, "three candidates measured: {direct}");

    let printed = pf1e(&design_args(&["--print-sweep"]));
    assert!(printed.status.success(), "{}", String::from_utf8_lossy(&printed.stderr));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("design.yaml");
    std::fs::write(&file, &printed.stdout).unwrap();
    let via_run = json(&pf1e(&["run", file.to_str().unwrap(), "--no-cache", "--json", "-q"]));
    assert_eq!(via_run["results"], direct["results"], "pf1e run on the printed sweep differs");
}

#[test]
fn bad_flags_are_one_line_and_exit_2() {
    for (extra, needle) in [
        (vec!["--target", "p_tpk=0.1"], "--target"),
        (vec!["--target", "hard"], "not both"),
        (vec!["--map", "data/maps/nowhere.yaml"], "--map"),
        (vec!["--type", "un dead"], "--type"),
    ] {
        let mut args = design_args(&[]);
        if extra[0] == "--map" {
            let i = args.iter().position(|a| *a == "data/maps/field.yaml").unwrap();
            args[i] = extra[1];
        } else {
            args.extend_from_slice(&extra);
        }
        let out = pf1e(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {err}");
        assert!(err.contains(needle), "{extra:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{extra:?}: one line: {err}");
    }
    // A label the book does not have: the job's own error, still exit 2.
    let mut args: Vec<&str> = design_args(&[]);
    let t = args.iter().position(|a| *a == "p_some_pc_dies=0.0..0.5").unwrap();
    args[t] = "deadly";
    args.retain(|a| *a != "p_tpk<0.05");
    let i = args.iter().rposition(|a| *a == "--target").unwrap();
    args.remove(i);
    let out = pf1e(&args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("deadly"), "{err}");
}
