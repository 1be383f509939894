//! How long the writes that merge the unmerged shard index entries into a
//! large merged index take (issue #28), and so how long the reports
//! waiting behind them are held.
//!
//! It fills a real on-disk store (redb, in a temporary directory, the
//! coordinator's default page cache) through `Store::put_encoded`, the
//! call the group committer makes, with groups of distinct shard keys
//! (blake3 hashes, spread like real ones) until the store holds
//! `PF1E_MERGE_BENCH_SHARDS` shards, and times every write. The merges
//! happen where the store's own rule puts them, so the merges it reports
//! are those a coordinator makes: 65,536 entries at a time up to an index
//! of 524,288, then an eighth of the index, then 262,144 into an index of
//! 2,097,152 or more; past 524,288, in slices of key space, one a write
//! (`MERGE_SLICE` in `store.rs`). Each merge is reported with the index it
//! merged into, its writes (the longest and their sum), the ordinary
//! writes just before it, and the write after it (the group of reports
//! that arrived during the merge would be that one, larger than here,
//! since this bench does not wait for reports).
//!
//! This is not a criterion benchmark: a merge is a one-time event of a
//! store's history (the next needs as many new entries again), so it is
//! measured where it happens, once per index size, rather than repeated.
//!
//! Run with `cargo bench -p pf1e-coordinator --bench store_merge`.
//! Environment (all optional): `PF1E_MERGE_BENCH_SHARDS` (default
//! 5,000,000: about a minute and a 4 GiB file), `PF1E_MERGE_BENCH_GROUP`
//! (shards a write, default 470, the service's typical group),
//! `PF1E_MERGE_BENCH_RESULT_BYTES` (bytes of each made-up result, default
//! 512), `PF1E_MERGE_BENCH_DIR` (where the temporary directory goes,
//! default the system's).

// A benchmark's output is what it measured.
#![allow(clippy::print_stdout, missing_docs)]

use std::borrow::Cow;
use std::time::{Duration, Instant};

use pf1e_coordinator::store::Store;
use pf1e_wire::shard::ShardKey;

/// An optional numeric setting from the environment.
fn setting(name: &str, default: usize) -> Result<usize, String> {
    match std::env::var(name) {
        Ok(v) => v.replace(['_', ','], "").parse().map_err(|e| format!("{name}={v}: {e}")),
        Err(_) => Ok(default),
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn cpu_ms(d: Option<Duration>) -> String {
    d.map_or_else(|| "?".into(), |d| format!("{:.0} ms", ms(d)))
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort_unstable();
    v.get(v.len() / 2).copied().unwrap_or_default()
}

/// The resident memory high-water mark of this process, from `/proc`.
fn peak_rss_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

/// This process's CPU time (user and system) so far, from `/proc` (in
/// ticks of 10 ms: enough for writes of a tenth of a second or more). It
/// tells a merge's own work from its waiting (for the disk, or for a core
/// the machine's other work holds).
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command's closing parenthesis: utime and stime
    // are the 12th and 13th of them.
    let rest = stat.rsplit_once(')')?.1;
    let mut fields = rest.split_whitespace().skip(11);
    let user: u64 = fields.next()?.parse().ok()?;
    let system: u64 = fields.next()?.parse().ok()?;
    Some(Duration::from_millis((user + system) * 10))
}

/// One merge: a write, or the consecutive writes of a merge in slices.
struct Merge {
    /// Entries in the merged index before the merge.
    index: u64,
    /// Entries merged (the unmerged ones and the merging writes' own).
    entries: u64,
    /// Each merging write's wall time (commit included).
    writes: Vec<Duration>,
    /// CPU time of the merging writes.
    cpu: Option<Duration>,
    /// Median of the ordinary writes just before.
    before: Duration,
    /// The write just after.
    after: Option<Duration>,
}

impl Merge {
    fn longest(&self) -> Duration {
        self.writes.iter().copied().max().unwrap_or_default()
    }

    fn total(&self) -> Duration {
        self.writes.iter().sum()
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let total = setting("PF1E_MERGE_BENCH_SHARDS", 5_000_000)?;
    let group = setting("PF1E_MERGE_BENCH_GROUP", 470)?.max(1);
    let result_bytes = setting("PF1E_MERGE_BENCH_RESULT_BYTES", 512)?;
    let dir = match std::env::var_os("PF1E_MERGE_BENCH_DIR") {
        Some(d) => tempfile::tempdir_in(d)?,
        None => tempfile::tempdir()?,
    };
    let path = dir.path().join("merge.redb");
    let mut store = Store::open(&path)?;
    println!(
        "store_merge: {total} shards in writes of {group}, results of {result_bytes} bytes, {}",
        path.display()
    );

    // The bytes of each made-up result: stored as they are, never decoded
    // here (the store does not decode on writing).
    let filler = vec![0x5au8; result_bytes];
    let started = Instant::now();
    let mut written: u64 = 0;
    let mut recent: Vec<Duration> = Vec::new();
    let mut ordinary: Vec<Duration> = Vec::new();
    let mut merges: Vec<Merge> = Vec::new();
    // Whether the last write merged (the next one may go on with its merge).
    let mut merging = false;
    let mut next = 0u64;
    let report = |m: &Merge, number: usize, at: Duration| {
        println!(
            "merge {number:>2}: {:>7} entries into {:>9} in {} write(s): longest {:>7.1} ms, all {:>7.1} ms, CPU {} (ordinary writes before it: {:.1} ms) [{:.0} s]",
            m.entries,
            m.index,
            m.writes.len(),
            ms(m.longest()),
            ms(m.total()),
            cpu_ms(m.cpu),
            ms(m.before),
            at.as_secs_f64()
        );
    };
    while (written as usize) < total {
        let n = group.min(total - written as usize);
        let keys: Vec<ShardKey> =
            (next..next + n as u64).map(|i| *blake3::hash(&i.to_le_bytes()).as_bytes()).collect();
        next += n as u64;
        let results: Vec<(ShardKey, Cow<'_, [u8]>)> =
            keys.iter().map(|k| (*k, Cow::Borrowed(filler.as_slice()))).collect();
        let unmerged = store.unmerged_entries() as u64;
        let cpu = cpu_time();
        let t = Instant::now();
        store.put_encoded(&results)?;
        let took = t.elapsed();
        let cpu = cpu.zip(cpu_time()).map(|(a, b)| b.saturating_sub(a));
        written += n as u64;
        // Every key is new, so the entries this write merged are those
        // that are no longer unmerged.
        let merged_now = (unmerged + n as u64).saturating_sub(store.unmerged_entries() as u64);
        if merged_now == 0 {
            let number = merges.len();
            if merging && let Some(m) = merges.last_mut() {
                m.after = Some(took);
                report(m, number, started.elapsed());
            }
            merging = false;
            recent.push(took);
            if recent.len() > 200 {
                recent.remove(0);
            }
            ordinary.push(took);
            continue;
        }
        match merges.last_mut().filter(|_| merging) {
            Some(m) => {
                m.entries += merged_now;
                m.writes.push(took);
                m.cpu = m.cpu.zip(cpu).map(|(a, b)| a + b);
            }
            None => merges.push(Merge {
                index: written - n as u64 - unmerged,
                entries: merged_now,
                writes: vec![took],
                cpu,
                before: median(std::mem::take(&mut recent)),
                after: None,
            }),
        }
        merging = true;
    }
    let elapsed = started.elapsed();

    println!();
    println!(
        "| merged index | entries merged | writes | longest write | all of them | their CPU | write after | ordinary writes before |"
    );
    println!("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for m in &merges {
        println!(
            "| {} | {} | {} | {:.0} ms | {:.0} ms | {} | {} | {:.1} ms |",
            m.index,
            m.entries,
            m.writes.len(),
            ms(m.longest()),
            ms(m.total()),
            cpu_ms(m.cpu),
            m.after.map_or_else(|| "-".into(), |a| format!("{:.1} ms", ms(a))),
            ms(m.before)
        );
    }
    println!();
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    println!(
        "{} writes ({} merging) in {:.0} s; ordinary write median {:.1} ms; file {:.0} MiB; peak RSS {}",
        ordinary.len() + merges.iter().map(|m| m.writes.len()).sum::<usize>(),
        merges.iter().map(|m| m.writes.len()).sum::<usize>(),
        elapsed.as_secs_f64(),
        ms(median(ordinary)),
        size as f64 / (1024.0 * 1024.0),
        peak_rss_mib().map_or_else(|| "?".into(), |r| format!("{r:.0} MiB"))
    );
    Ok(())
}
