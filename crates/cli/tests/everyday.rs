//! The command line where people live every day, through the real binary:
//! pipes into `head`, mistyped commands, `--help` examples, completions and
//! man pages, one JSON convention, the cache, logs, and the reports that
//! lead with their answer.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

const MAP: &str = "data/maps/sample_arena.yaml";
const GOBLIN: &str = "data/monsters/goblin.json";
const ORC: &str = "data/monsters/orc.json";

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `pf1e` from the repository root, in an English locale, logs at their default.
fn command() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_pf1e"));
    c.current_dir(repo())
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env_remove("RUST_LOG")
        .env_remove("COLUMNS")
        .env_remove("PF1E_CACHE")
        .env_remove("PF1E_COORDINATOR")
        .env("LANG", "C.UTF-8")
        .stdin(Stdio::null());
    c
}

fn pf1e(args: &[&str]) -> Output {
    command().args(args).output().expect("run pf1e")
}

fn ok(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(0), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).expect("utf-8 stdout")
}

fn one_error_line(out: &Output, code: i32) -> String {
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(code), "stderr: {err}");
    assert!(err.starts_with("error: ") && err.lines().count() == 1, "not one line: {err:?}");
    err
}

const SIM: &[&str] =
    &["sim", "--map", MAP, "--side", "players", GOBLIN, GOBLIN, GOBLIN, "--side", "monsters", ORC, ORC];

/// Runs `args` with stdout connected to a pipe whose reader has already
/// gone, as `pf1e … | head` becomes once `head` has its lines.
fn into_closed_pipe(args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let mut child = command().args(args).stdout(writer).stderr(Stdio::piped()).spawn().expect("spawn pf1e");
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    let status = child.wait().unwrap();
    Output { status, stdout: Vec::new(), stderr: err.into_bytes() }
}

#[test]
fn a_closed_pipe_is_a_quiet_success_everywhere() {
    let sweep = repo().join("data/sweeps/goblins-vs-orcs.yaml");
    let sweep = sweep.to_str().unwrap();
    let mut sim: Vec<&str> = SIM.to_vec();
    sim.extend(["--runs", "20", "--transcript"]);
    let mut sim_json = sim.clone();
    sim_json.push("--json");
    for args in [
        sim,
        sim_json,
        vec!["run", sweep, "--no-cache", "-q"],
        vec!["run", sweep, "--no-cache", "-q", "--json"],
        vec!["bench", "--runs", "3"],
        vec!["completions", "bash"],
        vec!["man"],
        vec!["--help"],
        vec!["cache", "--db", "/nonexistent/pf1e-test/cache.redb"],
    ] {
        let out = into_closed_pipe(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
        assert!(err.is_empty(), "{args:?} said something: {err}");
    }
}

#[test]
fn a_mistyped_command_keeps_clap_suggestion_on_one_line() {
    let err = one_error_line(&pf1e(&["simm"]), 2);
    assert!(err.contains("a similar subcommand exists: 'sim'"), "{err}");
    let err = one_error_line(&pf1e(&["sim", "--map", MAP, "--rusn", "3"]), 2);
    assert!(err.contains("a similar argument exists: '--runs'"), "{err}");
    // The usage names the required options.
    let err = one_error_line(&pf1e(&["sim", "--map", MAP]), 2);
    assert!(err.contains("usage: pf1e sim --map <FILE> --side <NAME> <FILE>..."), "{err}");
    let help = ok(&pf1e(&["sim", "--help"]));
    assert!(help.contains("Usage: pf1e sim [OPTIONS] --map <FILE> --side <NAME> <FILE>..."), "{help}");
}

#[test]
fn every_help_has_examples() {
    let commands: &[&[&str]] = &[
        &[],
        &["sim"],
        &["bench"],
        &["run"],
        &["coordinator"],
        &["worker"],
        &["ctl"],
        &["ctl", "submit"],
        &["ctl", "watch"],
        &["ctl", "status"],
        &["ctl", "results"],
        &["ctl", "cancel"],
        &["ctl", "workers"],
        &["ctl", "health"],
        &["bench-service"],
        &["cache"],
        &["completions"],
        &["man"],
    ];
    for c in commands {
        let mut args = c.to_vec();
        args.push("--help");
        let help = ok(&pf1e(&args));
        let examples =
            help.find("\nExamples:\n  pf1e ").unwrap_or_else(|| panic!("{c:?}: no examples in\n{help}"));
        let first = help[examples + 12..].lines().next().unwrap();
        assert!(first.contains(&format!("pf1e {}", c.join(" ")).trim().to_string()), "{c:?}: {first}");
    }
}

#[test]
fn completions_and_man_pages_come_from_the_command_line_definition() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = ok(&pf1e(&["completions", shell]));
        assert!(script.contains("pf1e") && script.contains("bench-service"), "{shell}: {script}");
    }
    let err = one_error_line(&pf1e(&["completions", "tcsh"]), 2);
    assert!(err.contains("tcsh"), "{err}");
    let page = ok(&pf1e(&["man"]));
    assert!(page.contains(".TH pf1e 1") && page.contains("Examples:"), "{page}");
    let dir = tempfile::tempdir().unwrap();
    ok(&pf1e(&["man", "--out", dir.path().to_str().unwrap()]));
    for page in ["pf1e.1", "pf1e-sim.1", "pf1e-ctl-submit.1", "pf1e-cache.1"] {
        let text = std::fs::read_to_string(dir.path().join(page)).unwrap_or_else(|e| panic!("{page}: {e}"));
        assert!(text.contains(".TH"), "{page}");
    }
}

#[test]
fn json_is_one_line_when_piped_and_format_cannot_conflict() {
    let bench = ok(&pf1e(&["bench", "--runs", "3", "--json"]));
    assert_eq!(bench.lines().count(), 1, "compact when piped: {bench}");
    let v: Value = serde_json::from_str(&bench).unwrap();
    let names: Vec<&str> = v.as_array().unwrap().iter().map(|m| m["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["reference", "large", "tactics", "spellcasting", "monsters"]);
    assert!(v[0]["combats_per_second"].as_f64().unwrap() > 0.0);
    let mut args: Vec<&str> = SIM.to_vec();
    args.extend(["--runs", "5", "--json"]);
    assert_eq!(ok(&pf1e(&args)).lines().count(), 1);

    let sweep = repo().join("data/sweeps/goblins-vs-orcs.yaml");
    let err = one_error_line(&pf1e(&["run", sweep.to_str().unwrap(), "--json", "--format", "md"]), 2);
    assert!(err.contains("--json") && err.contains("--format"), "{err}");
    let doc = ok(&pf1e(&["run", sweep.to_str().unwrap(), "--format", "json", "--no-cache", "-q"]));
    let doc: Value = serde_json::from_str(&doc).unwrap();
    assert_eq!(doc["status"], "done");
}

#[test]
fn a_coordinator_url_without_an_http_scheme_is_a_usage_error() {
    let err = one_error_line(&pf1e(&["ctl", "status", "--coordinator", "ftp://127.0.0.1:7070"]), 2);
    assert!(err.contains("unsupported scheme \"ftp\"") && err.contains("http://HOST:PORT"), "{err}");
}

/// One battle of a fighter and a wolf against an orc and a goblin, with its transcript.
const ONE_TRANSCRIPT: [&str; 16] = [
    "sim",
    "--map",
    MAP,
    "--side",
    "players",
    "data/pcs/fighter.json",
    "data/monsters/wolf.json",
    "--side",
    "monsters",
    ORC,
    GOBLIN,
    "--runs",
    "1",
    // A battle in which a move falls short behind a wall: the attack
    // fails out of range (one move cannot reach less often since
    // creatures double-move when the distance says so).
    "--seed",
    "1",
    "--transcript",
];

#[test]
fn transcripts_say_reason_codes_in_words() {
    let out = ok(&pf1e(&ONE_TRANSCRIPT));
    assert!(out.contains("attack failed (out of range)"), "{out}");
    assert!(!out.contains("out_of_range"), "{out}");
    let mut c = command();
    c.env("LANG", "fr_FR.UTF-8").args(ONE_TRANSCRIPT);
    let fr = ok(&c.output().unwrap());
    assert!(fr.contains("attack échoue (hors de portée)"), "{fr}");
}

/// A fixture copy of the optimize example with small run counts.
fn small_optimize(dir: &Path) -> PathBuf {
    for sub in ["maps", "monsters", "sweeps"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    for f in ["maps/sample_arena.yaml", "monsters/goblin.json", "monsters/orc.json"] {
        std::fs::copy(repo().join("data").join(f), dir.join(f)).unwrap();
    }
    let sweep = dir.join("sweeps/optimize.yaml");
    std::fs::write(
        &sweep,
        "name: small-optimize\nseed: 3\nruns: 40\nparty: players\nshard_size: 20\nscenario:\n  map: ../maps/sample_arena.yaml\n  sides:\n    players: { zone: A, combatants: [../monsters/goblin.json, ../monsters/goblin.json, ../monsters/goblin.json] }\n    monsters: { zone: B, combatants: [../monsters/orc.json, ../monsters/orc.json] }\njobs:\n  - optimize: { max_total_runs: 6000, adversary: lowest_hp }\n  - danger_map: { runs: 20, fractions: [0.5, 1.0], criterion: p_any_death, threshold: 0.1, aware: { players: [true, false] } }\n",
    )
    .unwrap();
    sweep
}

#[test]
fn reports_lead_with_the_answer_and_keep_to_the_width() {
    let dir = tempfile::tempdir().unwrap();
    let sweep = small_optimize(dir.path());
    let out = dir.path().join("report");
    let mut c = command();
    c.env("COLUMNS", "80").arg("run").arg(&sweep).args(["--no-cache", "-q", "--top", "1", "--out"]).arg(&out);
    let text = ok(&c.output().unwrap());
    let job = text.find("job 1 (optimize)\n================\n").expect("the optimize job");
    let answer = text[job..].lines().nth(2).unwrap();
    assert!(answer.starts_with("best plan: "), "{text}");
    assert!(
        answer.contains(" — P(no PC dies) ")
            && (answer.contains("; the levers that matter (significant differences): ")
                || answer.contains("; no lever made a significant difference")),
        "{answer}"
    );
    assert!(answer.contains(", P(win) "), "the win rate is always said: {answer}");
    // The report opens with its verdict and the difficulty by the book.
    assert!(
        text.contains("\nVerdict: Arène d'essai: players (3 goblin) against 2 orc; by the book "),
        "{text}"
    );
    assert!(
        text.contains("\nDifficulty by the book: average — encounter CR 1/2 (270 XP) against APL 0"),
        "{text}"
    );
    assert!(answer.contains("tied at 3σ with ") || answer.contains("no other plan tied"), "{answer}");
    // The note under the answer takes two lines when the adversary in words does not fit one.
    let table: Vec<&str> = text[job..]
        .lines()
        .skip_while(|l| !l.starts_with("Rank  Strategy"))
        .take_while(|l| !l.starts_with("showing"))
        .collect();
    assert!(table.first().is_some_and(|l| l.starts_with("Rank  Strategy")), "{text}");
    assert!(
        text.contains("\nadversary focus the most wounded (`lowest_hp`)\n14 strategies measured in "),
        "{text}"
    );
    let section = &text[job..text.find("job 2 (danger_map)").unwrap()];
    for l in section.lines().filter(|l| !l.starts_with("best plan")) {
        assert!(l.chars().count() <= 80, "wider than COLUMNS=80: {l:?}");
    }
    // Two distinct results at least (the default and the healer play apart).
    assert!(text.contains("showing the top 1 of "), "{text}");
    let ranks: Vec<&str> = table[2..]
        .iter()
        .filter(|l| !l.starts_with(' '))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(ranks.len(), 1, "{text}");
    // Rank 1 never rests on fewer runs than a row below it.
    let doc: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    let playbook = doc["results"]["jobs"][0]["result"]["playbook"].as_array().unwrap();
    let most = playbook.iter().map(|e| e["runs"].as_u64().unwrap()).max().unwrap();
    assert_eq!(playbook[0]["runs"].as_u64().unwrap(), most);
    // The images: a forest plot beside the danger maps, linked in report.md without JSON.
    for f in ["playbook_1.svg", "pareto_1.svg", "importance_1.svg", "danger_map_2.svg", "danger_map_2_2.svg"]
    {
        assert!(out.join(f).is_file(), "{f}");
    }
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        md.contains("![P(no PC dies) of the top strategies with 3σ bars (job 1)](playbook_1.svg)"),
        "{md}"
    );
    assert!(md.contains("**Verdict.** Arène d'essai: players (3 goblin) against 2 orc"), "{md}");
    assert!(md.contains("(danger_map_2_2.svg)") && md.contains("players unaware"), "{md}");
    assert!(!md.contains("{}") && !md.contains("[]"), "{md}");
    assert!(md.contains("![Pareto front of job 1](pareto_1.svg)"), "{md}");
    // Lever importance over the grid's cells, as bars, beside them.
    assert!(md.contains("![lever importance of job 1](importance_1.svg)"), "{md}");
    let bars = std::fs::read_to_string(out.join("importance_1.svg")).unwrap();
    assert!(bars.contains("Lever importance: ") && bars.contains("\ntarget"), "{bars}");
    let front = std::fs::read_to_string(out.join("pareto_1.svg")).unwrap();
    assert!(front.contains("Pareto front: ") && front.contains("<circle"), "{front}");
    let forest = std::fs::read_to_string(out.join("playbook_1.svg")).unwrap();
    assert!(forest.contains("<circle") && forest.contains("\n100%\n"), "{forest}");
    let map = std::fs::read_to_string(out.join("danger_map_2.svg")).unwrap();
    // A colour bar fitted to the values from 0, with the 10% threshold marked.
    assert!(map.contains("\n0%\n") && map.contains("\n10.0%\n"), "{map}");
}

#[test]
fn the_cache_command_shows_tidies_and_clears() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("c/cache.redb");
    let db_arg = db.to_str().unwrap();
    let missing: Value = serde_json::from_str(&ok(&pf1e(&["cache", "--db", db_arg, "--json"]))).unwrap();
    assert_eq!(missing["exists"], false);
    let sweep = repo().join("data/sweeps/goblins-vs-orcs.yaml");
    for _ in 0..3 {
        ok(&pf1e(&["run", sweep.to_str().unwrap(), "--db", db_arg, "-q"]));
    }
    let info = ok(&pf1e(&["cache", "--db", db_arg]));
    assert!(info.starts_with(&format!("path: {db_arg}\nsize: ")), "{info}");
    assert!(info.contains("\njournaled sweeps: 3\n") && info.contains("Id  Status  Name"), "{info}");
    let doc: Value = serde_json::from_str(&ok(&pf1e(&["cache", "--db", db_arg, "--json"]))).unwrap();
    assert!(doc["shards"].as_u64().unwrap() > 0 && doc["size_bytes"].as_u64().unwrap() > 0, "{doc}");
    assert_eq!(ok(&pf1e(&["cache", "gc", "--keep", "1", "--db", db_arg])), "removed 2 journaled sweeps\n");
    let doc: Value = serde_json::from_str(&ok(&pf1e(&["cache", "--json", "--db", db_arg]))).unwrap();
    assert_eq!(doc["sweeps"].as_array().unwrap().len(), 1);
    assert!(doc["shards"].as_u64().unwrap() > 0, "shards stay: {doc}");
    ok(&pf1e(&["cache", "clear", "--db", db_arg]));
    assert!(!db.exists());
    let mut fr = command();
    fr.env("LANG", "fr_FR.UTF-8").args(["cache", "--db", db_arg]);
    assert_eq!(ok(&fr.output().unwrap()), format!("chemin : {db_arg}\npas encore de cache\n"));
}

#[test]
fn a_busy_cache_is_waited_for_and_its_holder_named() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("cache.redb");
    // This test holds the cache as another pf1e would, owner note included.
    let held = pf1e_coordinator::store::Store::open(&db).unwrap();
    std::fs::write(
        dir.path().join("cache.redb.owner"),
        format!("{}\npf1e run other.yaml\n", std::process::id()),
    )
    .unwrap();
    let sweep = repo().join("data/sweeps/goblins-vs-orcs.yaml");
    let mut child = command()
        .arg("run")
        .arg(&sweep)
        .arg("--db")
        .arg(&db)
        .arg("--json")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    err.read_line(&mut line).unwrap();
    assert!(
        line.starts_with(&format!(
            "waiting for the cache {}, in use by process {} (pf1e run other.yaml)",
            db.display(),
            std::process::id()
        )),
        "{line}"
    );
    assert!(line.contains("--db FILE or --no-cache"), "{line}");
    // It is still waiting, then finishes once the cache is free.
    std::thread::sleep(Duration::from_millis(300));
    assert!(child.try_wait().unwrap().is_none(), "it waits rather than fails");
    drop(held);
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(start.elapsed() < Duration::from_secs(120), "still waiting");
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut out = String::new();
    child.stdout.take().unwrap().read_to_string(&mut out).unwrap();
    assert!(status.success(), "{out}");
    assert_eq!(serde_json::from_str::<Value>(&out).unwrap()["status"], "done");
}

#[test]
fn logs_follow_verbosity_and_format_without_colours_in_a_pipe() {
    let sweep = repo().join("data/sweeps/goblins-vs-orcs.yaml");
    let out = pf1e(&["run", sweep.to_str().unwrap(), "--no-cache", "-vv", "--log-format", "json"]);
    ok(&out);
    let err = String::from_utf8(out.stderr).unwrap();
    let events: Vec<Value> = err
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert!(!events.is_empty(), "{err}");
    let messages: Vec<String> =
        events.iter().filter_map(|e| e["fields"]["message"].as_str().map(String::from)).collect();
    for needle in ["planner step", "cache lookup", "shard played"] {
        assert!(messages.iter().any(|m| m.contains(needle)), "no {needle:?} event in {messages:?}");
    }
    assert!(events.iter().any(|e| e["span"]["name"] == "sweep"), "events carry the sweep span");
    let text = pf1e(&["run", sweep.to_str().unwrap(), "--no-cache", "-vv"]);
    let err = String::from_utf8(text.stderr).unwrap();
    assert!(err.contains("DEBUG") && !err.contains('\u{1b}'), "no ANSI escapes in a pipe: {err:?}");
    let quiet = pf1e(&["run", sweep.to_str().unwrap(), "--no-cache", "-q"]);
    assert!(quiet.stderr.is_empty(), "{}", String::from_utf8_lossy(&quiet.stderr));
}
