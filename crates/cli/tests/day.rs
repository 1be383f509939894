//! `pf1e day` on the bundled days and on broken day files.

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

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn the_apl_day_answers_first_then_a_row_per_fight_and_member() {
    let o = pf1e(&["day", "data/days/apl4.yaml", "--runs", "60"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = text(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "=== Adventuring day: apl4-four-encounters ===");
    assert!(lines[1].starts_with("The party completes the day in "), "{out}");
    for fight in ["the gnoll patrol", "the owlbear's den", "the crypt", "the ogre and its wolf"] {
        assert!(out.lines().any(|l| l.starts_with(fight)), "{fight} missing:\n{out}");
    }
    for member in ["Esha", "Harvie", "Oni", "Nairda"] {
        assert!(out.lines().any(|l| l.starts_with(member)), "{member} missing:\n{out}");
    }
    let fr = pf1e(&["day", "data/days/apl4.yaml", "--runs", "60", "--lang", "fr"]);
    assert!(text(&fr).starts_with("=== Journée d'aventure : apl4-four-encounters ==="));
}

#[test]
fn a_day_is_the_same_whatever_the_threads() {
    let one = pf1e(&["day", "data/days/tower.yaml", "--runs", "40", "--json", "--threads", "1"]);
    let two = pf1e(&["day", "data/days/tower.yaml", "--runs", "40", "--json", "--threads", "2"]);
    assert!(one.status.success(), "{}", String::from_utf8_lossy(&one.stderr));
    assert_eq!(one.stdout, two.stdout);
    let v: Value = serde_json::from_slice(&one.stdout).unwrap();
    assert_eq!(v["runs"], 40);
    assert_eq!(v["fights"].as_array().map(Vec::len), Some(3));
    // Every day reaches the first fight; reaching a later one needs winning the earlier.
    let fights = v["fights"].as_array().unwrap();
    assert_eq!(fights[0]["reached"], 40);
    for pair in fights.windows(2) {
        assert!(pair[1]["reached"].as_u64() <= pair[0]["won"]["count"].as_u64());
    }
    // The day as written and its three plans, best first.
    let plans = v["plans"].as_array().unwrap();
    assert_eq!(plans.len(), 4);
    let names: Vec<&str> = plans.iter().filter_map(|p| p["name"].as_str()).collect();
    assert!(names.contains(&"as written") && names.contains(&"sleep before the chamber"), "{names:?}");
    let rates: Vec<f64> = plans.iter().filter_map(|p| p["completed"]["rate"].as_f64()).collect();
    assert!(rates.windows(2).all(|w| w[0] >= w[1]), "{rates:?}");
}

#[test]
fn broken_day_files_get_one_line_and_status_2() {
    let dir = std::env::temp_dir().join(format!("pf1e-day-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        (
            "name: x\nparty: {combatants: [a.json]}\nsteps:\n  - short_rest: {spend: lots}\n",
            "line 4: steps[0].short_rest.spend: unknown variant `lots`",
        ),
        (
            "name: x\nparty: {combatants: [a.json]}\nsteps:\n  - long_rest: {}\n",
            "steps: the day has no encounter",
        ),
        (
            "name: x\nparty: {combatants: [a.json]}\nsteps:\n  - if: {anyone_down: true}\n",
            "steps[0]: a branch needs both if and then",
        ),
    ];
    for (i, (yaml, expected)) in cases.iter().enumerate() {
        let path = dir.join(format!("bad{i}.yaml"));
        std::fs::write(&path, yaml).unwrap();
        let o = pf1e(&["day", path.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(path.to_str().unwrap()) && err.contains(expected), "{err}");
    }
    let path = dir.join("missing-map.yaml");
    std::fs::write(
        &path,
        "name: x\nparty: {combatants: [../pcs/esha.json]}\nsteps:\n  - encounter: {name: a, map: nope.yaml, combatants: [o.json]}\n",
    )
    .unwrap();
    let o = pf1e(&["day", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("nope.yaml: cannot read"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_day_reads_fight_by_fight() {
    let o = pf1e(&["day", "data/days/apl4.yaml", "--runs", "5", "--transcript", "3"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = text(&o);
    assert!(
        out.starts_with("=== Day 3, fight by fight ===\n--- the gnoll patrol (the party enters with "),
        "{out}"
    );
    let fights = out.lines().filter(|l| l.starts_with("--- ")).count();
    assert!((1..=4).contains(&fights), "{out}");
    assert!(out.lines().any(|l| l.starts_with("End of the day: ")), "{out}");
    assert!(out.contains("=== Adventuring day: apl4-four-encounters ==="));
    let again = pf1e(&["day", "data/days/apl4.yaml", "--runs", "5", "--transcript", "3"]);
    assert_eq!(o.stdout, again.stdout, "the same day reads the same");
}
