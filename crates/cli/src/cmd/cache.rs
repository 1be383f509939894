//! The cache of `pf1e run`: where it is, opening it when another pf1e has
//! it, and `pf1e cache` (path, size, sweeps; `gc` of old journals; `clear`;
//! `verify` of every record's checksum).
//!
//! redb lets one process at a time open a file. A second `pf1e run` on the
//! same cache waits for it, saying which process holds it (from the owner
//! note `<cache>.owner` that pf1e writes beside the file while it has it
//! open) and how to run alongside (`--db FILE`, `--no-cache`).

use std::path::{Path, PathBuf};
use std::time::Duration;

use pf1e_coordinator::scheduler::past_newest;
use pf1e_coordinator::store::{Removed, Store};
use serde::Serialize;

use crate::GlobalArgs;
use crate::error::{CliError, CliResult};
use crate::i18n::{Lang, T};
use crate::output;
use crate::render::table::{self, Align};

/// Arguments of `pf1e cache`.
#[derive(Debug, Clone, clap::Args)]
pub struct CacheArgs {
    /// What to do (default: show the cache).
    #[command(subcommand)]
    pub action: Option<CacheAction>,
    /// The cache database (default: the one `pf1e run` uses).
    #[arg(long, global = true, value_name = "FILE")]
    pub db: Option<PathBuf>,
    /// Print one JSON document.
    #[arg(long, global = true)]
    pub json: bool,
}

/// The `cache` subcommands.
#[derive(Debug, Clone, clap::Subcommand)]
pub enum CacheAction {
    /// Show the path, size, cached shards and journaled sweeps (the default).
    Info,
    /// Remove old sweep journals (their bundles and results); cached shards stay.
    Gc {
        /// Finished sweeps to keep, newest first.
        #[arg(long, default_value_t = 10, value_name = "N")]
        keep: u64,
        /// Also remove sweeps left running by an interrupted `pf1e run` (never
        /// on a coordinator's database that will resume them).
        #[arg(long)]
        interrupted: bool,
    },
    /// Delete the cache file: everything is computed again next time.
    Clear,
    /// Check the checksum of every record; exit 1 when some fail.
    Verify {
        /// Remove the records that fail (they are computed again when next
        /// needed; a sweep whose journal fails is removed whole).
        #[arg(long)]
        repair: bool,
    },
}

/// The default cache file: `$PF1E_CACHE`, else `$XDG_CACHE_HOME/pf1e/cache.redb`,
/// else `~/.cache/pf1e/cache.redb`.
pub fn default_db() -> PathBuf {
    if let Some(p) = std::env::var_os("PF1E_CACHE") {
        return PathBuf::from(p);
    }
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(|| PathBuf::from("."));
    base.join("pf1e").join("cache.redb")
}

/// The owner note beside a cache file.
fn owner_path(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(".owner");
    PathBuf::from(name)
}

/// Who holds the cache, from its owner note when that process still lives.
fn holder(db: &Path, lang: Lang) -> String {
    let note = std::fs::read_to_string(owner_path(db)).unwrap_or_default();
    let mut lines = note.lines();
    let pid = lines.next().and_then(|l| l.trim().parse::<u32>().ok());
    let command = lines.next().unwrap_or("pf1e").to_string();
    match pid {
        Some(pid) if Path::new(&format!("/proc/{pid}")).exists() || !Path::new("/proc").exists() => {
            lang.f(T::ProcessN, &[&pid, &command])
        }
        _ => lang.t(T::AnotherProcess).to_string(),
    }
}

/// An open cache and its owner note.
pub struct Cache {
    /// The store.
    pub store: Store,
    /// The owner note, removed when dropped.
    pub owner: OwnerNote,
}

/// The owner note beside an open cache (`<cache>.owner`: pid, command line);
/// removed when dropped if it is still this process's.
pub struct OwnerNote(Option<PathBuf>);

impl Drop for OwnerNote {
    fn drop(&mut self) {
        if let Some(note) = &self.0 {
            let mine = std::fs::read_to_string(note)
                .is_ok_and(|t| t.lines().next() == Some(std::process::id().to_string().as_str()));
            if mine {
                let _ = std::fs::remove_file(note);
            }
        }
    }
}

/// Opens the cache at `db`; while another process has it, waits, saying so
/// once on stderr (unless `quiet`).
pub fn open_waiting(db: &Path, lang: Lang, quiet: bool) -> Result<Cache, CliError> {
    let mut told = false;
    loop {
        match Store::open(db) {
            Ok(store) => {
                let note = owner_path(db);
                let command: Vec<String> = std::env::args().collect();
                let text = format!("{}\n{}\n", std::process::id(), command.join(" "));
                let owner = OwnerNote(std::fs::write(&note, text).ok().map(|()| note));
                return Ok(Cache { store, owner });
            }
            Err(e) if e.is_in_use() => {
                if !told && !quiet {
                    output::note(&lang.f(T::CacheWaiting, &[&db.display(), &holder(db, lang)]));
                }
                told = true;
                tracing::debug!(cache = %db.display(), "cache in use; waiting");
                std::thread::sleep(Duration::from_millis(200));
            }
            Err(e) => return Err(e.into()),
        }
    }
}

/// One journaled sweep in `pf1e cache --json`.
#[derive(Debug, Serialize)]
struct SweepEntry {
    id: u64,
    name: String,
    status: String,
    finished: bool,
}

/// `pf1e cache --json`.
#[derive(Debug, Serialize)]
struct CacheDocument {
    path: String,
    exists: bool,
    size_bytes: u64,
    shards: u64,
    sweeps: Vec<SweepEntry>,
}

pub(crate) fn size_text(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["B", "KiB", "MiB", "GiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 { format!("{bytes} B") } else { format!("{value:.1} {}", UNITS[unit]) }
}

/// Runs `pf1e cache`.
pub fn run(args: &CacheArgs, global: &GlobalArgs) -> CliResult {
    let lang = global.lang();
    let db = args.db.clone().unwrap_or_else(default_db);
    match args.action.clone().unwrap_or(CacheAction::Info) {
        CacheAction::Info => info(&db, args.json, lang, global.quiet),
        CacheAction::Gc { keep, interrupted } => gc(&db, keep, interrupted, args.json, lang, global.quiet),
        CacheAction::Clear => clear(&db, args.json, lang, global.quiet),
        CacheAction::Verify { repair } => verify(&db, repair, args.json, lang, global.quiet),
    }
}

fn verify(db: &Path, repair: bool, json: bool, lang: Lang, quiet: bool) -> CliResult {
    if !db.is_file() {
        return Err(CliError::input(format!("{}: no such cache file", db.display())));
    }
    let mut cache = open_waiting(db, lang, quiet)?;
    let report = cache.store.verify(repair)?;
    let failed = !report.bad.is_empty() && !repair;
    if json {
        output::json(&report)?;
    } else {
        let mut out = lang.f(T::CacheVerified, &[&report.checked, &report.bad.len()]) + "\n";
        for bad in &report.bad {
            out += &format!("  {bad}\n");
        }
        if repair && report.removed > 0 {
            out += &(lang.f(T::CacheRepaired, &[&report.removed]) + "\n");
        } else if failed {
            out += &(lang.t(T::CacheRepairHint).to_string() + "\n");
        }
        output::print(&out)?;
    }
    if failed {
        return Err(CliError::environment(format!(
            "{}: {} records failed their checksum",
            db.display(),
            report.bad.len()
        )));
    }
    Ok(())
}

fn info(db: &Path, json: bool, lang: Lang, quiet: bool) -> CliResult {
    let exists = db.is_file();
    let mut doc = CacheDocument {
        path: db.display().to_string(),
        exists,
        size_bytes: std::fs::metadata(db).map(|m| m.len()).unwrap_or(0),
        shards: 0,
        sweeps: Vec::new(),
    };
    if exists {
        let cache = open_waiting(db, lang, quiet)?;
        doc.shards = cache.store.shard_count()?;
        for (id, _, state) in cache.store.sweeps()? {
            doc.sweeps.push(SweepEntry {
                id,
                name: state.name,
                status: state.status.to_string(),
                finished: state.status.is_terminal(),
            });
        }
    }
    if json {
        return output::json(&doc);
    }
    let mut out = lang.label(T::CachePath, &doc.path) + "\n";
    if !exists {
        out += lang.t(T::CacheMissing);
        out += "\n";
        return output::print(&out);
    }
    out += &(lang.label(T::CacheSize, size_text(doc.size_bytes)) + "\n");
    out += &(lang.label(T::CacheShards, doc.shards) + "\n");
    out += &(lang.label(T::CacheSweeps, doc.sweeps.len()) + "\n");
    if !doc.sweeps.is_empty() {
        out += "\n";
        let headers = [T::ColId, T::ColStatus, T::ColName].map(|t| lang.t(t));
        let rows: Vec<Vec<String>> =
            doc.sweeps.iter().map(|s| vec![s.id.to_string(), s.status.clone(), s.name.clone()]).collect();
        out += &table::render(&headers, &[Align::Right, Align::Left, Align::Left], &rows);
    }
    output::print(&out)
}

fn gc(db: &Path, keep: u64, interrupted: bool, json: bool, lang: Lang, quiet: bool) -> CliResult {
    let mut removed = Removed::default();
    if db.is_file() {
        let mut cache = open_waiting(db, lang, quiet)?;
        let sweeps = cache.store.sweeps()?;
        let finished = sweeps.iter().filter(|(_, _, s)| s.status.is_terminal()).map(|(id, ..)| *id);
        let mut old = past_newest(finished, keep);
        if interrupted {
            old.extend(sweeps.iter().filter(|(_, _, s)| !s.status.is_terminal()).map(|(id, ..)| *id));
        }
        removed = cache.store.remove_sweeps(&old)?;
        tracing::info!(removed = removed.sweeps, bytes = removed.bytes, cache = %db.display(), "removed old sweep journals");
    }
    if json {
        return output::json(&serde_json::json!({
            "path": db.display().to_string(), "removed": removed.sweeps, "bytes": removed.bytes,
        }));
    }
    output::println(&lang.f(T::CacheRemoved, &[&removed.sweeps]))
}

fn clear(db: &Path, json: bool, lang: Lang, quiet: bool) -> CliResult {
    let existed = db.is_file();
    if existed {
        // Wait for any process using it, then delete it while nobody has it open.
        drop(open_waiting(db, lang, quiet)?);
        std::fs::remove_file(db)
            .map_err(|e| CliError::environment(format!("{}: cannot remove: {e}", db.display())))?;
    }
    if json {
        return output::json(&serde_json::json!({ "path": db.display().to_string(), "removed": existed }));
    }
    output::println(&lang.f(T::CacheCleared, &[&db.display()]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_in_binary_units() {
        assert_eq!(size_text(512), "512 B");
        assert_eq!(size_text(1536), "1.5 KiB");
        assert_eq!(size_text(3 * 1024 * 1024), "3.0 MiB");
    }
}
