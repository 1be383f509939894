//! Golden reports: the whole text a game master reads, byte for byte, in
//! English and French — `pf1e sim`'s verdict, difficulty lines and who
//! carries the fight, and a sweep in which no plan survives (its terminal
//! answer and its report.md). The figures come from the engine, so a rule
//! change that moves an outcome changes these files: look at the
//! difference, then write them again with
//! `UPDATE_GOLDEN=1 cargo test -p pf1e-cli --test golden`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// `pf1e args` from the repository root with no locale, cache or log settings of the caller's.
fn pf1e(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pf1e"))
        .current_dir(repo())
        .args(args)
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env_remove("RUST_LOG")
        .env_remove("COLUMNS")
        .env_remove("PF1E_CACHE")
        .env_remove("PF1E_COORDINATOR")
        .env("LANG", "C.UTF-8")
        .stdin(Stdio::null())
        .output()
        .expect("run pf1e")
}

fn stdout(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(0), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).expect("utf-8 stdout")
}

/// Compares `actual` with the golden file `name`, or writes it when
/// `UPDATE_GOLDEN` is set. A mismatch names the first line that differs.
fn check(name: &str, actual: &str) {
    let path = golden_dir().join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, actual).expect("write the golden file");
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (UPDATE_GOLDEN=1 writes it)", path.display()));
    if expected == actual {
        return;
    }
    let first = expected.lines().zip(actual.lines()).position(|(e, a)| e != a);
    let line = first.unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
    panic!(
        "{} differs from the output at line {}:\n  golden: {:?}\n  output: {:?}\n(the whole output:)\n{actual}",
        path.display(),
        line + 1,
        expected.lines().nth(line),
        actual.lines().nth(line),
    );
}

const SIM: &[&str] = &[
    "sim",
    "--map",
    "data/maps/sample_arena.yaml",
    "--side",
    "players",
    "data/monsters/goblin.json",
    "data/monsters/goblin.json",
    "data/monsters/goblin.json",
    "--side",
    "monsters",
    "data/monsters/orc.json",
    "data/monsters/orc.json",
    "--runs",
    "300",
    "--seed",
    "1",
    "--contribution",
];

#[test]
fn pf1e_sim_reads_as_its_golden_report_in_english_and_in_french() {
    for lang in ["en", "fr"] {
        let mut args = SIM.to_vec();
        args.extend(["--lang", lang]);
        check(&format!("sim.{lang}.txt"), &stdout(&pf1e(&args)));
    }
}

#[test]
fn a_sweep_in_which_no_plan_survives_reads_as_its_golden_report_in_english_and_in_french() {
    let sweep = golden_dir().join("none_survives.yaml");
    for lang in ["en", "fr"] {
        let out = tempfile::tempdir().expect("a temporary directory");
        let args = [
            "run",
            sweep.to_str().expect("a UTF-8 path"),
            "--no-cache",
            "-q",
            "--lang",
            lang,
            "--out",
            out.path().to_str().expect("a UTF-8 path"),
        ];
        let text = stdout(&pf1e(&args));
        check(&format!("none_survives.{lang}.txt"), &text);
        let md = std::fs::read_to_string(out.path().join("report.md")).expect("report.md");
        check(&format!("none_survives.{lang}.md"), &md);
    }
}
