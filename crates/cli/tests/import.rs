//! `pf1e import foundry`: the real binary on a hand-made Foundry sheet and on
//! broken ones.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const SHEET: &str = "crates/import/tests/fixtures/cleric.foundry.json";

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn pf1e<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pf1e")).current_dir(repo()).args(args).output().expect("run pf1e")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).to_string()
}

#[test]
fn a_sheet_becomes_a_combatant_on_stdout_and_what_is_not_mapped_goes_to_stderr() {
    let out = pf1e(&["import", "foundry", SHEET]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout.clone()).expect("utf-8");
    let combatant =
        pf1e_engine::model::parse_combatant(&text, "stdout").expect("a combatant the engine loads");
    assert_eq!((combatant.name.as_str(), combatant.hp_max, combatant.ac.total), ("Oni", 35, 19));
    let err = stderr(&out);
    let mut lines = err.lines();
    let summary = lines.next().expect("a summary line");
    assert!(summary.contains("Oni (pc, level 4)") && summary.contains("not mapped:"), "{summary}");
    let rest: Vec<&str> = lines.collect();
    assert!(rest.iter().all(|l| l.starts_with("  not mapped: $.")), "{err}");
    assert!(rest.iter().any(|l| l.contains("buff \"Bless\": inactive at export")), "{err}");
}

#[test]
fn out_writes_the_file_and_prints_nothing_on_stdout() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("oni.json");
    let out =
        pf1e(&["import".as_ref(), "foundry".as_ref(), SHEET.as_ref(), "--out".as_ref(), file.as_os_str()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    let c = pf1e_engine::model::load_combatant(&file).expect("the written file loads");
    assert_eq!(c.spell_slots.get("2"), Some(&3));
}

#[test]
fn a_broken_sheet_is_one_line_naming_the_file_and_the_json_path_with_exit_2() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bad = dir.path().join("bad.json");
    let mut sheet: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(repo().join(SHEET)).expect("fixture")).expect("JSON");
    sheet["items"][1]["system"]["level"] = serde_json::json!(true);
    std::fs::write(&bad, sheet.to_string()).expect("write");
    let out = pf1e(&["import".as_ref(), "foundry".as_ref(), bad.as_os_str()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: ")
            && err.contains("bad.json: $.items[1].system.level: expected a whole number"),
        "{err}"
    );

    let missing = pf1e(&["import", "foundry", "no/such/sheet.json"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr(&missing).starts_with("error: no/such/sheet.json: cannot read"));
    let no_spells = pf1e(&["import", "foundry", SHEET, "--spells", "no/such/dir"]);
    assert_eq!(no_spells.status.code(), Some(2));
    assert!(stderr(&no_spells).contains("--spells DIR"), "{}", stderr(&no_spells));
}
