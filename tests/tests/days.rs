//! An adventuring day on a coordinator: played by two workers over gRPC,
//! its figures equal `pf1e day`'s played in one process, bit for bit; a
//! resubmission comes from the cache; a coordinator killed mid-day resumes
//! without recomputing and gives the same figures.

use std::path::PathBuf;

use pf1e_e2e::{
    ctl, data_dir, json_of, pf1e, run, start_coordinator, start_worker, start_worker_bin, wait_for,
};

/// A temporary directory holding a day over the shipped level-4 party: two
/// fights, a short rest between them, a plan; 40 days in shards of 4.
struct DayFixture {
    dir: tempfile::TempDir,
}

impl DayFixture {
    fn new(tag: &str) -> Self {
        let dir = tempfile::Builder::new().prefix(&format!("pf1e-e2e-{tag}-")).tempdir().expect("temp dir");
        let data = data_dir().canonicalize().expect("data dir");
        let d = |p: &str| data.join(p).display().to_string();
        let text = format!(
            "name: e2e day\nseed: 5\nruns: 40\nshard_size: 4\nround_cap: 30\nparty:\n  combatants: [{}, {}, {}, {}]\nsteps:\n  - encounter: {{ name: the gnolls, map: {}, combatants: [{}, {}] }}\n  - short_rest: {{ spend: all }}\n  - encounter: {{ name: the owlbear, map: {}, combatants: [{}] }}\nplans:\n  - {{ name: rested, long_rest_before: [the owlbear] }}\n",
            d("pcs/esha.json"),
            d("pcs/harvie.json"),
            d("pcs/oni.json"),
            d("pcs/nairda.json"),
            d("maps/field.yaml"),
            d("monsters/gnoll.json"),
            d("monsters/gnoll.json"),
            d("maps/field.yaml"),
            d("monsters/owlbear.json"),
        );
        std::fs::write(dir.path().join("day.yaml"), text).expect("write the day");
        DayFixture { dir }
    }

    fn day(&self) -> PathBuf {
        self.dir.path().join("day.yaml")
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    /// `pf1e day FILE --json` with `extra` arguments.
    fn figures(&self, extra: &[&str]) -> serde_json::Value {
        let mut cmd = pf1e();
        cmd.arg("day").arg(self.day()).args(["--json", "-q"]).args(extra);
        json_of(&run(cmd))
    }
}

fn stat(doc: &serde_json::Value, name: &str) -> u64 {
    doc["stats"][name].as_u64().unwrap_or_else(|| panic!("no stats.{name} in {doc}"))
}

/// The figures of a day job's results (`ctl results --json`), as `pf1e day --json` prints them.
fn day_of(results: &serde_json::Value) -> serde_json::Value {
    let mut day = results["results"]["jobs"][0]["result"].clone();
    assert_eq!(results["results"]["jobs"][0]["kind"], "day", "{results}");
    day.as_object_mut().expect("a day result").remove("seed");
    day
}

#[test]
fn a_day_on_two_workers_equals_the_day_played_in_one_process_and_comes_back_from_the_cache() {
    let fx = DayFixture::new("day-cluster");
    let reference = fx.figures(&[]);
    assert_eq!(reference["runs"], 40);
    assert_eq!(reference["plans"].as_array().map(Vec::len), Some(2), "{reference}");
    // Days are played: the party spends hit points and slots before the owlbear.
    assert!(
        reference["fights"][1]["slots_before"].as_f64() < reference["fights"][0]["slots_before"].as_f64()
    );

    let c = start_coordinator(&fx.path("c.redb"), "127.0.0.1:0", &[], &[]);
    let _w1 = start_worker(&c.url, &["--threads", "1"], &[]);
    let _w2 = start_worker_bin(&c.url, &["--threads", "1", "--name", "standalone"]);
    let remote = fx.figures(&["--coordinator", &c.url]);
    assert_eq!(remote, reference, "a day on the coordinator differs from the day played here");

    // The same day again: every shard from the cache (one cell, the day and
    // its plan played together, 10 shards of 4 days).
    let out = ctl(&c.url, &["submit", fx.day().to_str().expect("utf-8"), "--watch", "--json", "-q"]);
    let doc = json_of(&out);
    assert_eq!((stat(&doc, "shards_total"), stat(&doc, "shards_from_cache")), (10, 10), "{doc}");
    let id = doc["id"].to_string();
    assert_eq!(day_of(&json_of(&ctl(&c.url, &["results", &id, "--json"]))), reference);

    // And `pf1e run` of the day file, embedded through the same scheduler.
    let mut cmd = pf1e();
    cmd.arg("run").arg(fx.day()).args(["--json", "--no-cache", "-q"]);
    assert_eq!(day_of(&json_of(&run(cmd))), reference);
}

#[test]
fn a_coordinator_killed_mid_day_resumes_without_recomputing_and_gives_the_same_figures() {
    let fx = DayFixture::new("day-killcoord");
    let reference = fx.figures(&[]);
    let db = fx.path("c.redb");
    let mut first = start_coordinator(&db, "127.0.0.1:0", &["--lease-ttl-ms", "800"], &[]);
    let url = first.url.clone();
    let _worker = start_worker(&url, &["--threads", "1", "--max-batch", "1"], &[]);
    let out = ctl(&url, &["submit", fx.day().to_str().expect("utf-8"), "-q"]);
    assert!(out.status.success(), "submit: {}", String::from_utf8_lossy(&out.stderr));
    let id = String::from_utf8_lossy(&out.stdout).lines().last().expect("an id").trim().to_string();
    let before = wait_for(&url, &id, "three computed shards", |s| stat(s, "shards_computed") >= 3);
    first.proc.kill9();
    let done_before = stat(&before, "shards_computed");
    assert!(done_before < stat(&before, "shards_total"), "the day ended before the kill");

    let second = start_coordinator(&db, &first.addr, &["--lease-ttl-ms", "800"], &[]);
    let after = wait_for(&second.url, &id, "the resumed day to finish", |s| s["status"] != "running");
    assert_eq!(after["status"], "done", "{after}");
    assert!(stat(&after, "shards_from_cache") >= done_before, "{after} (before: {before})");
    assert_eq!(stat(&after, "shards_from_cache") + stat(&after, "shards_computed"), 10);
    assert_eq!(day_of(&json_of(&ctl(&second.url, &["results", &id, "--json"]))), reference);
}
