//! Golden reports: the whole text a game master reads, byte for byte, in
//! English and French — `pf1e sim`'s verdict, difficulty lines and who
//! carries the fight, and a sweep in which no plan survives (its terminal
//! answer and its report.md) — and the README's example outputs, which must
//! be what the tool prints. The figures come from the engine, so a rule
//! change that moves an outcome changes these files: look at the
//! difference, then write them again with
//! `UPDATE_GOLDEN=1 cargo test -p pf1e-cli --test golden` (the README's
//! examples are pasted by hand).

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

/// The fenced block that follows `marker` in the README.
fn readme_block(marker: &str) -> String {
    let readme = std::fs::read_to_string(repo().join("README.md")).expect("README.md");
    let at = readme.find(marker).unwrap_or_else(|| panic!("README.md no longer says {marker:?}"));
    let open = at + readme[at..].find("```\n").expect("a code block after the marker") + 4;
    let close = open + readme[open..].find("```").expect("the block's end");
    readme[open..close].to_string()
}

#[test]
fn the_readme_s_examples_are_what_pf1e_prints() {
    // `pf1e sim` of the quick start: the whole English report, and the
    // French one from its title on.
    let sim = &SIM[..12];
    let en = stdout(&pf1e(&[sim, &["--lang", "en"]].concat()));
    assert_eq!(readme_block("prints the verdict, then the balance report of 1,000 battles:"), en);
    let fr = stdout(&pf1e(&[sim, &["--lang", "fr"]].concat()));
    let report = &fr[fr.find("=== Rapport").expect("the French report's title")..];
    assert_eq!(readme_block("## Reading the report"), report);
    // The main job of the quick start: its answer, verdict first, up to the
    // block's ellipsis.
    let out = tempfile::tempdir().expect("a temporary directory");
    let run = stdout(&pf1e(&[
        "run",
        "data/sweeps/full_analysis.yaml",
        "--no-cache",
        "-q",
        "--lang",
        "en",
        "--out",
        out.path().to_str().expect("a UTF-8 path"),
    ]));
    let answer = &run[run.find("Verdict: ").expect("the verdict")..];
    let block = readme_block("The first command answers first");
    let shown = block.strip_suffix("…\n").expect("the block ends with an ellipsis");
    assert!(answer.starts_with(shown), "README.md's quick start block:\n{shown}\nthe tool's:\n{answer}");
}
