//! The redb file: shard result cache, LLM response cache and sweep journal.
//!
//! LLM completions are stored by [`LlmCache`], the run's
//! [`pf1e_llm::ResponseCache`]: table key `CacheKey::digest()` (the
//! composite key: model, sampling, prompt version, schema version, hash of
//! the rendered prompt), value `CachedCompletion::to_bytes()`.
//!
//! The coordinator is the only writer and every logical write is one
//! transaction, so a crash at any point leaves the file consistent: a shard
//! result is either entirely present or absent, a sweep record is either
//! submitted with its bundle or not at all.
//!
//! Every commit is durable: a shard that a status call reports as computed
//! is on disk, so a restarted coordinator never computes it again. Workers
//! report in batches, and the service commits the reports that arrive
//! together in one transaction (`service::GroupCommit`), so the commit rate
//! stays far below the shard rate.

use std::borrow::Cow;
use std::path::Path;
use std::sync::Arc;

use prost::Message;
use redb::{Database, Durability, ReadableDatabase, ReadableTable, ReadableTableMetadata, TableDefinition};
use serde::{Deserialize, Serialize};

use pf1e_llm::{CacheError, CacheKey, CachedCompletion, ResponseCache};
use pf1e_wire::proto;
use pf1e_wire::results::{LlmDecisions, SweepResults};
use pf1e_wire::shard::{ShardKey, ShardResult};
pub use pf1e_wire::status::{Stats, SweepStatus};

use crate::plan::PlannerState;
use crate::seal;

const SHARDS_NAME: &str = "shard_results";
const BATCHES_NAME: &str = "shard_batches";
const INDEX_NAME: &str = "shard_index_settled";
/// The index of the previous format (every shard's entry in one table
/// keyed by hash, written at every commit): a file that has it is migrated
/// when opened ([`Store::migrate`]).
const OLD_INDEX_NAME: &str = "shard_index";
const KEYS_NAME: &str = "shard_batch_keys";
const LLM_NAME: &str = "llm_responses";
const BUNDLES_NAME: &str = "sweep_bundles";
const STATE_NAME: &str = "sweep_state";
const RESULTS_NAME: &str = "sweep_results_pb";
const SHARDS: TableDefinition<&[u8], &[u8]> = TableDefinition::new(SHARDS_NAME);
/// Shard results written together (one group commit, without a size
/// limit): one sealed record per write, `(key ‖ length ‖ result)*`, under
/// a sequence number. A write then adds one record at the end of this
/// table and one small index entry per shard, instead of one record per
/// shard scattered by its hash over the pages of `SHARDS`.
const SHARD_BATCHES: TableDefinition<u64, &[u8]> = TableDefinition::new(BATCHES_NAME);
/// Which batch holds each shard's result, for the batches merged so far
/// (see `SHARD_BATCH_KEYS`); a shard found here or there is not looked up
/// in `SHARDS`.
///
/// Why two tables: a shard key is a blake3 hash of the whole shard (cell
/// and run range, `crate::shard::shard_key`) and the store is only ever
/// given that key (a worker's report and a lookup carry nothing else), so
/// an index keyed by it puts the ~470 entries of one commit at random
/// places: the commit rewrote every leaf page they fell in (~170 page
/// writes a commit, 41 % of the coordinator's CPU per shard in redb). A
/// cell-first key would need the cell's identity carried through reports
/// and lookups, and would still scatter a commit over its tens of cells.
/// So a commit writes its keys as one record under its batch number (the
/// next number: at the end of `SHARD_BATCH_KEYS`, a few adjacent pages),
/// and the keys of the batches written since the last merge are held in
/// memory ([`Fresh`], rebuilt from that table on opening). Once they pass
/// [`merge_at`] of the merged index's size, one write moves them all into
/// this table in key order (or, into a large index, one slice of key
/// space a write: [`MERGE_SLICE`]), so each leaf page is rewritten once
/// per merge rather than once per commit (an LSM tree of two levels).
const SHARD_INDEX: TableDefinition<&[u8], u64> = TableDefinition::new(INDEX_NAME);
/// The previous format's index (read once, by the migration).
const OLD_SHARD_INDEX: TableDefinition<&[u8], u64> = TableDefinition::new(OLD_INDEX_NAME);
/// The keys of each batch not merged into `SHARD_INDEX` yet: sealed,
/// 32 bytes a distinct key, in key order. A merge empties it.
const SHARD_BATCH_KEYS: TableDefinition<u64, &[u8]> = TableDefinition::new(KEYS_NAME);
/// Fewest and most keys of unmerged batches before a merge (see
/// [`merge_at`]).
const MERGE_MIN: u64 = 1 << 16;
const MERGE_MAX: u64 = 1 << 18;
/// Merged entries a write of a merge covers: a merge into a larger index
/// is done in slices of key space ([`Slice`]), one a write. A merge costs
/// 0.4–0.5 µs per entry of the index (every leaf page is rewritten once
/// the entries outnumber the pages), and the reports of the merging write,
/// and those arriving meanwhile, wait for all of it: one write merging
/// 262,144 entries into 2.2 million took 1.0–1.3 s, into 4.5 million
/// 1.8–2.5 s (`benches/store_merge.rs`, docs/service.md). With slices of
/// this size the longest write took 0.2–0.35 s up to 3.2 million (up to
/// 0.6 s at 4.5 million), and each leaf page is still rewritten once per
/// merge.
const MERGE_SLICE: u64 = 1 << 19;
/// How many index entries name each batch: a batch none names any more
/// (its shards all written again since) is removed. An entry of
/// `SHARD_INDEX` written again in an unmerged batch still counts for its
/// old batch until the merge replaces it.
const SHARD_BATCH_LIVE: TableDefinition<u64, u64> = TableDefinition::new("shard_batch_live");
/// The key of `META` holding the next batch's number.
const NEXT_BATCH: &str = "next_shard_batch";
const LLM: TableDefinition<&[u8], &[u8]> = TableDefinition::new(LLM_NAME);
const SWEEP_BUNDLES: TableDefinition<u64, &[u8]> = TableDefinition::new(BUNDLES_NAME);
const SWEEP_STATE: TableDefinition<u64, &str> = TableDefinition::new(STATE_NAME);
/// Results of sweeps finished before results were stored as proto (JSON text, read only).
const SWEEP_RESULTS_JSON: TableDefinition<u64, &str> = TableDefinition::new("sweep_results");
/// Results of finished sweeps: `proto::SweepResults`, so floats come back bit for bit.
const SWEEP_RESULTS: TableDefinition<u64, &[u8]> = TableDefinition::new(RESULTS_NAME);
const META: TableDefinition<&str, u64> = TableDefinition::new("meta");
/// With a size limit: the last use (store or read) of each cached shard, a tick of `META`'s `SHARD_TICK`.
const SHARD_TICKS: TableDefinition<&[u8], u64> = TableDefinition::new("shard_ticks");
/// The same, by tick: the coldest shard first.
const SHARD_COLD: TableDefinition<u64, &[u8]> = TableDefinition::new("shard_cold");
/// The key of `META` holding the next tick.
const SHARD_TICK: &str = "shard_tick";
/// The key of `META` holding the bytes of the cached shards (keys and records), kept with a size limit.
const SHARD_BYTES: &str = "shard_bytes";
/// Evicting, the cache goes down to this share of its limit (per cent), so
/// that not every write evicts.
const EVICT_TO_PERCENT: u64 = 90;
/// Reads remembered for the next write's ticks, at most (more are dropped:
/// those shards only look colder than they are).
const MAX_TOUCHED: usize = 1 << 20;
/// The key of `META` set on a database of synthetic results (benchmarks).
const SYNTHETIC_MARK: &str = "synthetic";

/// A storage failure: the database file and what failed, with its cause.
#[derive(Debug, thiserror::Error)]
#[error("cache database {path}: {what}: {source}")]
pub struct StoreError {
    /// The database file (`<memory>` for `--no-cache`).
    pub path: String,
    /// The operation that failed (`open`, `read shards`, `journal sweep`…).
    pub what: &'static str,
    /// The cause (redb, I/O, a record that does not decode).
    pub source: Box<dyn std::error::Error + Send + Sync>,
}

impl StoreError {
    /// Whether the file could not be opened because another process has it
    /// open (redb allows one process per file).
    pub fn is_in_use(&self) -> bool {
        matches!(
            self.source.downcast_ref::<redb::DatabaseError>(),
            Some(redb::DatabaseError::DatabaseAlreadyOpen)
        )
    }
}

/// What [`Store::remove_sweeps`] removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Removed {
    /// Journaled sweeps removed.
    pub sweeps: u64,
    /// Bytes their records held (keys aside); the pages are reused by
    /// later writes, the file does not shrink.
    pub bytes: u64,
}

/// What [`Store::verify`] found.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct VerifyReport {
    /// Records checked.
    pub checked: u64,
    /// The records that failed their checksum, as `table/key`.
    pub bad: Vec<String>,
    /// Records removed (with `repair`).
    pub removed: u64,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A record that failed its checksum where no recomputation is possible.
#[derive(Debug, thiserror::Error)]
#[error("the record failed its checksum (the file is corrupted)")]
struct Corrupt;

/// Runs a storage operation, turning a panic inside redb (it panics on some
/// corrupted pages) into an error: a corrupted file never brings a process
/// down.
fn guard<T>(
    path: &str,
    what: &'static str,
    f: impl FnOnce() -> Result<T, StoreError>,
) -> Result<T, StoreError> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|panic| {
        let text = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        Err(StoreError {
            path: path.to_string(),
            what,
            source: format!(
                "the database panicked (corrupted file?): {}",
                text.chars().take(300).collect::<String>()
            )
            .into(),
        })
    })
}

/// A shard record's result, when it opens and decodes.
fn decode_shard(key: &ShardKey, value: &[u8]) -> Option<ShardResult> {
    let payload = seal::open(SHARDS_NAME, key, value)?;
    decode_result(payload)
}

fn decode_result(payload: &[u8]) -> Option<ShardResult> {
    ShardResult::try_from(proto::ShardResult::decode(payload).ok()?).ok()
}

/// The payload of a batch record: every result after its key and length.
fn batch_payload(results: &[(ShardKey, Cow<'_, [u8]>)]) -> Vec<u8> {
    let size: usize = results.iter().map(|(_, b)| 36 + b.len()).sum();
    let mut out = Vec::with_capacity(size);
    for (k, bytes) in results {
        out.extend_from_slice(k);
        out.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
        out.extend_from_slice(bytes);
    }
    out
}

/// A shard result as the store keeps it (and as a worker reports it): its
/// `proto::ShardResult` encoding.
pub fn encode_result(r: &ShardResult) -> Vec<u8> {
    proto::ShardResult::from(r).encode_to_vec()
}

/// The entries of a batch record's payload: each shard's key and the
/// bytes of its result (`None`: the payload is cut short).
fn batch_entries(payload: &[u8]) -> Option<Vec<(ShardKey, &[u8])>> {
    let mut out = Vec::new();
    let mut rest = payload;
    while !rest.is_empty() {
        let key = ShardKey::try_from(rest.get(..32)?).ok()?;
        let len = u32::from_le_bytes(rest.get(32..36)?.try_into().ok()?) as usize;
        let end = 36usize.checked_add(len)?;
        out.push((key, rest.get(36..end)?));
        rest = &rest[end..];
    }
    Some(out)
}

/// A batch record's results (encoded) by shard key.
type Batch = std::collections::HashMap<ShardKey, Vec<u8>>;

/// The results of the batch record `value` stored under `id`, by shard
/// key (`None`: it fails its checksum or does not parse).
fn open_batch(id: u64, value: &[u8]) -> Option<Batch> {
    let payload = seal::open(BATCHES_NAME, &id.to_le_bytes(), value)?;
    Some(batch_entries(payload)?.into_iter().map(|(k, v)| (k, v.to_vec())).collect())
}

/// The index entries of the batches not merged yet: each shard's newest
/// batch. Shared by a store's clones; changed only after the write that
/// made the change has committed (a reader never waits for a commit's
/// `fsync`), by one writer at a time (`Store::writer`). Hashed as the
/// scheduler's maps are (a key is a hash already): SipHash made adding a
/// commit's entries 3 % of the coordinator's CPU.
type Fresh =
    std::collections::HashMap<ShardKey, u64, std::hash::BuildHasherDefault<crate::scheduler::KeyHasher>>;

/// How many unmerged entries make the next write merge them: an eighth of
/// the merged index, so that a merge of keys spread by hash rewrites each
/// of its leaf pages for several entries, within bounds (`floor`,
/// [`MERGE_MIN`] but in tests: below it a merge would rewrite a small
/// index too often; above [`MERGE_MAX`] the entries held in memory, 40 to
/// 80 bytes each with the hash map's slack, would grow with the cache: at
/// most ~21 MiB).
fn merge_at(merged: u64, floor: u64) -> u64 {
    (merged / 8).clamp(floor, MERGE_MAX.max(floor))
}

/// A part of key space, `index` of `of` equal parts in key order: the
/// part of a merge done by one write. A key is a hash, so each part holds
/// about as many entries, on its own run of the index's leaf pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Slice {
    index: u64,
    of: u64,
}

impl Slice {
    /// Whether `key` falls in this part: its first 8 bytes, read as a
    /// number in key order, scaled to the number of parts.
    fn holds(self, key: &ShardKey) -> bool {
        let mut head = [0u8; 8];
        head.copy_from_slice(&key[..8]);
        let part = (u128::from(u64::from_be_bytes(head)) * u128::from(self.of)) >> 64;
        part == u128::from(self.index)
    }
}

/// A merge in progress (done in slices): the next slice to merge.
type MergeCursor = Option<Slice>;

/// The keys of a batch's key list record stored under `id` (`None`: it
/// fails its checksum or is not a whole number of keys).
fn open_key_list(id: u64, value: &[u8]) -> Option<Vec<ShardKey>> {
    let payload = seal::open(KEYS_NAME, &id.to_le_bytes(), value)?;
    if payload.len() % 32 != 0 {
        return None;
    }
    payload.chunks_exact(32).map(|c| ShardKey::try_from(c).ok()).collect()
}

/// The unmerged entries, from the key lists (in the caller's transaction),
/// oldest batch first so that a shard's newest batch wins. A list that
/// does not open is left out: its shards are misses until
/// `verify --repair` removes it with its batch.
fn read_fresh(lists: &impl ReadableTable<u64, &'static [u8]>) -> Result<(Fresh, u64), redb::StorageError> {
    let mut fresh = Fresh::default();
    let mut bad = 0;
    for entry in lists.iter()? {
        let (id, v) = entry?;
        match open_key_list(id.value(), v.value()) {
            Some(keys) => fresh.extend(keys.into_iter().map(|k| (k, id.value()))),
            None => bad += 1,
        }
    }
    Ok((fresh, bad))
}

/// Takes `n` index entries off each batch of `released`; a batch that none
/// names any more is removed, with its key list.
fn release(
    live: &mut redb::Table<'_, u64, u64>,
    batches: &mut redb::Table<'_, u64, &'static [u8]>,
    lists: &mut redb::Table<'_, u64, &'static [u8]>,
    released: std::collections::BTreeMap<u64, u64>,
) -> Result<(), redb::StorageError> {
    for (old, n) in released {
        let left = live.get(old)?.map_or(0, |g| g.value()).saturating_sub(n);
        if left == 0 {
            live.remove(old)?;
            batches.remove(old)?;
            lists.remove(old)?;
        } else {
            live.insert(old, left)?;
        }
    }
    Ok(())
}

/// Moves the unmerged entries (one a shard) into `SHARD_INDEX` (in the caller's
/// transaction), in key order so that consecutive inserts share leaf
/// pages, and empties the key lists. An entry it replaces is taken off its
/// batch's count.
fn merge_fresh(txn: &redb::WriteTransaction, entries: Vec<(ShardKey, u64)>) -> Result<(), redb::Error> {
    merge_entries(txn, entries, None)
}

/// [`merge_fresh`] of the entries in `slice` only (`None`: all of them):
/// the key lists keep the keys of the other slices.
fn merge_entries(
    txn: &redb::WriteTransaction,
    mut entries: Vec<(ShardKey, u64)>,
    slice: Option<Slice>,
) -> Result<(), redb::Error> {
    if let Some(slice) = slice {
        entries.retain(|(k, _)| slice.holds(k));
    }
    entries.sort_unstable();
    let mut index = txn.open_table(SHARD_INDEX)?;
    let mut released = std::collections::BTreeMap::new();
    for (k, id) in entries {
        if let Some(old) = index.insert(k.as_slice(), id)? {
            let old = old.value();
            if old != id {
                *released.entry(old).or_insert(0) += 1;
            }
        }
    }
    let mut lists = txn.open_table(SHARD_BATCH_KEYS)?;
    match slice {
        None => lists.retain(|_, _| false)?,
        Some(slice) => trim_lists(&mut lists, slice)?,
    }
    let mut live = txn.open_table(SHARD_BATCH_LIVE)?;
    let mut batches = txn.open_table(SHARD_BATCHES)?;
    release(&mut live, &mut batches, &mut lists, released)?;
    Ok(())
}

/// Takes the keys of `slice` (merged) off every key list, in the same
/// sealed format; a list left empty goes. A list that does not open is
/// left as it is: its shards are misses until `verify --repair` removes it.
fn trim_lists(lists: &mut redb::Table<'_, u64, &'static [u8]>, slice: Slice) -> Result<(), redb::Error> {
    let mut changed = Vec::new();
    for entry in lists.iter()? {
        let (id, v) = entry?;
        let id = id.value();
        let Some(keys) = open_key_list(id, v.value()) else { continue };
        let kept: Vec<ShardKey> = keys.iter().filter(|k| !slice.holds(k)).copied().collect();
        if kept.len() != keys.len() {
            changed.push((id, kept));
        }
    }
    for (id, kept) in changed {
        if kept.is_empty() {
            lists.remove(id)?;
        } else {
            lists.insert(id, seal::seal(KEYS_NAME, &id.to_le_bytes(), &kept.concat()).as_slice())?;
        }
    }
    Ok(())
}

/// What a write did to the unmerged entries, applied to [`Fresh`] once it
/// has committed.
enum FreshChange {
    /// A batch's keys were added.
    Added(u64, Vec<ShardKey>),
    /// Every entry was merged (or moved out by `unbatch`).
    Cleared,
    /// A batch's keys were added and every entry of a slice merged.
    Sliced(u64, Vec<ShardKey>, Slice),
}

impl FreshChange {
    fn apply(self, fresh: &std::sync::RwLock<Fresh>) {
        let mut fresh = fresh.write().unwrap_or_else(|e| e.into_inner());
        match self {
            FreshChange::Added(id, keys) => fresh.extend(keys.into_iter().map(|k| (k, id))),
            FreshChange::Cleared => fresh.clear(),
            FreshChange::Sliced(id, keys, slice) => {
                fresh.extend(keys.into_iter().map(|k| (k, id)));
                fresh.retain(|k, _| !slice.holds(k));
            }
        }
    }
}

/// The journaled state of a sweep.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JournalState {
    /// Sweep name.
    pub name: String,
    /// Status.
    pub status: SweepStatus,
    /// Error message of a failed sweep.
    #[serde(default)]
    pub error: String,
    /// How far every job's planner had gone.
    #[serde(default)]
    pub planners: Vec<PlannerState>,
    /// Counters at the last journal write (none before the first).
    #[serde(default)]
    pub stats: Option<Stats>,
    /// What the LLM decided before planning: a resumed sweep applies it
    /// again and calls no model.
    #[serde(default, skip_serializing_if = "LlmDecisions::is_empty")]
    pub llm: LlmDecisions,
}

/// The redb database. Clones share it (a group committer writes shard
/// results with its own clone while the scheduler journals with another;
/// redb runs their write transactions one at a time).
#[derive(Clone)]
pub struct Store {
    db: Arc<Database>,
    path: String,
    /// Whether a record that failed its checksum was already reported: the
    /// warning is said once per opening, not once per record.
    warned: Arc<std::sync::atomic::AtomicBool>,
    /// The size limit of the cached shards, when one is set.
    limit: Option<Arc<ShardLimit>>,
    /// The index entries of the batches not merged yet.
    fresh: Arc<std::sync::RwLock<Fresh>>,
    /// Held by a write that changes [`Fresh`] from its transaction's
    /// start until the change is applied, so that the entries it read are
    /// still the current ones when it applies its own (redb runs write
    /// transactions one at a time anyway). It holds the slice of a merge
    /// in progress that the next write merges (lost with the process: the
    /// entries not merged yet then wait for the next merge).
    writer: Arc<std::sync::Mutex<MergeCursor>>,
    /// [`MERGE_MIN`], lowered by tests to merge after a few shards.
    merge_floor: u64,
    /// [`MERGE_SLICE`], lowered by tests to merge in slices a small index.
    merge_slice: u64,
}

/// A size limit of the cached shards: past it, the coldest (least recently
/// stored or read) are removed, in the transaction that stores new ones.
struct ShardLimit {
    max_bytes: u64,
    /// Shards read since the last write: their use is recorded with it.
    touched: std::sync::Mutex<Vec<ShardKey>>,
}

/// Where an eviction stops: 90 % of the limit once past it, else nothing to do.
fn evict_target(bytes: u64, max_bytes: u64) -> u64 {
    if bytes > max_bytes { max_bytes / 100 * EVICT_TO_PERCENT } else { bytes }
}

/// A record's weight against the size limit: its key and its sealed value.
fn record_bytes(value: &[u8]) -> u64 {
    32 + value.len() as u64
}

/// Records a use of shard `key` at the next tick.
fn touch(
    ticks: &mut redb::Table<'_, &'static [u8], u64>,
    cold: &mut redb::Table<'_, u64, &'static [u8]>,
    next: &mut u64,
    key: &[u8],
) -> Result<(), redb::StorageError> {
    if let Some(old) = ticks.insert(key, *next)? {
        cold.remove(old.value())?;
    }
    cold.insert(*next, key)?;
    *next += 1;
    Ok(())
}

/// Removes the coldest shards until `bytes` is at most `target`; returns the bytes left and the shards removed.
fn evict(
    shards: &mut redb::Table<'_, &'static [u8], &'static [u8]>,
    ticks: &mut redb::Table<'_, &'static [u8], u64>,
    cold: &mut redb::Table<'_, u64, &'static [u8]>,
    mut bytes: u64,
    target: u64,
) -> Result<(u64, u64), redb::StorageError> {
    let mut removed = 0;
    while bytes > target {
        let Some((_, key)) = cold.pop_first()? else { break };
        let key = key.value().to_vec();
        ticks.remove(key.as_slice())?;
        if let Some(v) = shards.remove(key.as_slice())? {
            bytes = bytes.saturating_sub(record_bytes(v.value()));
            removed += 1;
        }
    }
    Ok((bytes, removed))
}

/// Attaches the database and the operation to any error.
trait Ctx<T> {
    fn ctx(self, path: &str, what: &'static str) -> Result<T, StoreError>;
}

impl<T, E: Into<Box<dyn std::error::Error + Send + Sync>>> Ctx<T> for Result<T, E> {
    fn ctx(self, path: &str, what: &'static str) -> Result<T, StoreError> {
        self.map_err(|e| StoreError { path: path.to_string(), what, source: e.into() })
    }
}

/// The page cache of a store opened without a size: 256 MiB.
pub const DEFAULT_CACHE_BYTES: usize = 256 * 1024 * 1024;

impl Store {
    /// Opens (or creates) the database file, creating its directory, with
    /// a page cache of [`DEFAULT_CACHE_BYTES`].
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        Self::open_with_cache(path, DEFAULT_CACHE_BYTES)
    }

    /// Opens (or creates) the database file with a page cache of at most
    /// `cache_bytes` (the coordinator's `--db-cache-mb`): the cache is most
    /// of the store's resident memory, and redb's own default is 1 GiB.
    pub fn open_with_cache(path: &Path, cache_bytes: usize) -> Result<Self, StoreError> {
        let name = path.display().to_string();
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).ctx(&name, "open")?;
        }
        let store = guard(&name, "open", || {
            let db = Database::builder().set_cache_size(cache_bytes).create(path).ctx(&name, "open")?;
            Self::init(db, name.clone())
        })?;
        if store.is_synthetic()? {
            return Err(StoreError {
                path: name,
                what: "open",
                source: "the file holds a benchmark's made-up results (a coordinator run with --synthetic-workers): delete it".into(),
            });
        }
        Ok(store)
    }

    /// Opens (or creates) a database for a coordinator of synthetic workers
    /// (benchmarks): the file must be new, or one opened so before, and it
    /// is marked, so that [`Store::open`] refuses it ever after: its
    /// made-up results can never be read as real ones.
    pub fn open_synthetic(path: &Path, cache_bytes: usize) -> Result<Self, StoreError> {
        let name = path.display().to_string();
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).ctx(&name, "open")?;
        }
        let mut store = guard(&name, "open", || {
            let db = Database::builder().set_cache_size(cache_bytes).create(path).ctx(&name, "open")?;
            Self::init(db, name.clone())
        })?;
        if !store.is_synthetic()? {
            if store.shard_count()? > 0 || !store.sweeps()?.is_empty() {
                return Err(StoreError {
                    path: name,
                    what: "open",
                    source: "--synthetic-workers needs a new database file: this one holds real results"
                        .into(),
                });
            }
            store.mark_synthetic()?;
        }
        Ok(store)
    }

    /// Whether the file was opened for synthetic workers.
    pub fn is_synthetic(&self) -> Result<bool, StoreError> {
        let p = &self.path;
        let txn = self.db.begin_read().ctx(p, "read meta")?;
        let meta = txn.open_table(META).ctx(p, "read meta")?;
        Ok(meta.get(SYNTHETIC_MARK).ctx(p, "read meta")?.is_some_and(|g| g.value() == 1))
    }

    fn mark_synthetic(&mut self) -> Result<(), StoreError> {
        let p = self.path.clone();
        let txn = self.db.begin_write().ctx(&p, "mark synthetic")?;
        txn.open_table(META)
            .ctx(&p, "mark synthetic")?
            .insert(SYNTHETIC_MARK, 1)
            .ctx(&p, "mark synthetic")?;
        txn.commit().ctx(&p, "mark synthetic")
    }

    /// A database in memory (`--no-cache`).
    pub fn in_memory() -> Result<Self, StoreError> {
        let db = Database::builder()
            .create_with_backend(redb::backends::InMemoryBackend::new())
            .ctx("<memory>", "open")?;
        Self::init(db, "<memory>".into())
    }

    fn init(db: Database, path: String) -> Result<Self, StoreError> {
        let txn = db.begin_write().ctx(&path, "create tables")?;
        let old_format = txn
            .list_tables()
            .ctx(&path, "create tables")?
            .any(|t| redb::TableHandle::name(&t) == OLD_INDEX_NAME);
        {
            txn.open_table(SHARDS).ctx(&path, "create tables")?;
            txn.open_table(SHARD_BATCHES).ctx(&path, "create tables")?;
            txn.open_table(SHARD_INDEX).ctx(&path, "create tables")?;
            txn.open_table(SHARD_BATCH_KEYS).ctx(&path, "create tables")?;
            txn.open_table(SHARD_BATCH_LIVE).ctx(&path, "create tables")?;
            txn.open_table(LLM).ctx(&path, "create tables")?;
            txn.open_table(SWEEP_BUNDLES).ctx(&path, "create tables")?;
            txn.open_table(SWEEP_STATE).ctx(&path, "create tables")?;
            txn.open_table(SWEEP_RESULTS).ctx(&path, "create tables")?;
            txn.open_table(SWEEP_RESULTS_JSON).ctx(&path, "create tables")?;
            txn.open_table(META).ctx(&path, "create tables")?;
        }
        if old_format {
            Self::migrate(&txn).ctx(&path, "migrate the shard index")?;
        }
        // The tables and the migration are one transaction: a file is
        // either still in the old format or wholly in the new one.
        txn.commit().ctx(&path, "create tables")?;
        let fresh = {
            let txn = db.begin_read().ctx(&path, "read the shard index")?;
            let lists = txn.open_table(SHARD_BATCH_KEYS).ctx(&path, "read the shard index")?;
            let (fresh, bad) = read_fresh(&lists).ctx(&path, "read the shard index")?;
            if bad > 0 {
                tracing::warn!(
                    cache = %path,
                    records = bad,
                    "key lists of cached shard batches failed their checksum: their shards will be computed again (`pf1e cache verify --repair` removes them)"
                );
            }
            fresh
        };
        Ok(Self {
            db: Arc::new(db),
            path,
            warned: Arc::default(),
            limit: None,
            fresh: Arc::new(std::sync::RwLock::new(fresh)),
            writer: Arc::default(),
            merge_floor: MERGE_MIN,
            merge_slice: MERGE_SLICE,
        })
    }

    /// Moves the previous format's index (`shard_index`: every shard's
    /// entry, keyed by hash) into `SHARD_INDEX` and deletes it, in the
    /// caller's transaction. Its entries keep their batch numbers, and so
    /// the batches' counts hold. Unmerged entries of this format, if the
    /// file went through both (an older build writes `shard_index` again
    /// into a file of this format), are older than the old table's and
    /// are merged first.
    fn migrate(txn: &redb::WriteTransaction) -> Result<(), redb::Error> {
        let (fresh, _) = read_fresh(&txn.open_table(SHARD_BATCH_KEYS)?)?;
        merge_fresh(txn, fresh.into_iter().collect())?;
        let mut released = std::collections::BTreeMap::new();
        {
            let old = txn.open_table(OLD_SHARD_INDEX)?;
            let mut index = txn.open_table(SHARD_INDEX)?;
            // In key order: the merged index of a file of the old format is
            // empty, so these are appends.
            for entry in old.iter()? {
                let (k, id) = entry?;
                let id = id.value();
                if let Some(prev) = index.insert(k.value(), id)? {
                    let prev = prev.value();
                    if prev != id {
                        *released.entry(prev).or_insert(0) += 1;
                    }
                }
            }
        }
        txn.delete_table(OLD_SHARD_INDEX)?;
        let mut live = txn.open_table(SHARD_BATCH_LIVE)?;
        let mut batches = txn.open_table(SHARD_BATCHES)?;
        let mut lists = txn.open_table(SHARD_BATCH_KEYS)?;
        release(&mut live, &mut batches, &mut lists, released)?;
        Ok(())
    }

    /// Limits the cached shard results to `max_bytes` (keys and records;
    /// the coordinator's `--cache-max-mb`): from now on, a write that
    /// takes them past it removes the coldest (least recently stored or
    /// read) in its own transaction, down to 90 % of the limit, so the
    /// file never holds half of a write or of an eviction. The use of the
    /// shards already there is unknown the first time: they count as colder
    /// than any shard stored or read later, in key order. Call it before
    /// cloning the store (clones share the limit). Returns the shards
    /// removed now.
    pub fn set_shard_limit(&mut self, max_bytes: u64) -> Result<u64, StoreError> {
        let p = self.path.clone();
        let p = &p;
        self.limit = Some(Arc::new(ShardLimit { max_bytes, touched: std::sync::Mutex::default() }));
        let mut cursor = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        // Every entry leaves the index below: no merge is left to finish.
        *cursor = None;
        let removed = guard(p, "limit shards", || {
            let txn = self.db.begin_write().ctx(p, "limit shards")?;
            {
                let fresh = self.fresh.read().unwrap_or_else(|e| e.into_inner());
                Self::unbatch(&txn, &fresh).ctx(p, "limit shards")?;
            }
            let removed;
            {
                let mut shards = txn.open_table(SHARDS).ctx(p, "limit shards")?;
                let mut ticks = txn.open_table(SHARD_TICKS).ctx(p, "limit shards")?;
                let mut cold = txn.open_table(SHARD_COLD).ctx(p, "limit shards")?;
                let mut meta = txn.open_table(META).ctx(p, "limit shards")?;
                let mut next = meta.get(SHARD_TICK).ctx(p, "limit shards")?.map_or(0, |g| g.value());
                // Reconcile: the bytes of what is there, a tick for every
                // shard written without a limit, none for a shard gone.
                let mut bytes = 0u64;
                let mut untracked = Vec::new();
                for entry in shards.iter().ctx(p, "limit shards")? {
                    let (k, v) = entry.ctx(p, "limit shards")?;
                    bytes += record_bytes(v.value());
                    if ticks.get(k.value()).ctx(p, "limit shards")?.is_none() {
                        untracked.push(k.value().to_vec());
                    }
                }
                let mut gone = Vec::new();
                for entry in ticks.iter().ctx(p, "limit shards")? {
                    let (k, t) = entry.ctx(p, "limit shards")?;
                    if shards.get(k.value()).ctx(p, "limit shards")?.is_none() {
                        gone.push((k.value().to_vec(), t.value()));
                    }
                }
                for (k, t) in gone {
                    ticks.remove(k.as_slice()).ctx(p, "limit shards")?;
                    cold.remove(t).ctx(p, "limit shards")?;
                }
                if !untracked.is_empty() {
                    // Shards written without a limit are older than every
                    // tracked one: number them first, the tracked after, in order.
                    let mut tracked = Vec::new();
                    for entry in cold.iter().ctx(p, "limit shards")? {
                        tracked.push(entry.ctx(p, "limit shards")?.1.value().to_vec());
                    }
                    while cold.pop_first().ctx(p, "limit shards")?.is_some() {}
                    next = 0;
                    for k in untracked.iter().chain(&tracked) {
                        touch(&mut ticks, &mut cold, &mut next, k).ctx(p, "limit shards")?;
                    }
                }
                let (left, n) =
                    evict(&mut shards, &mut ticks, &mut cold, bytes, evict_target(bytes, max_bytes))
                        .ctx(p, "limit shards")?;
                removed = n;
                meta.insert(SHARD_TICK, next).ctx(p, "limit shards")?;
                meta.insert(SHARD_BYTES, left).ctx(p, "limit shards")?;
            }
            txn.commit().ctx(p, "limit shards")?;
            Ok(removed)
        })?;
        FreshChange::Cleared.apply(&self.fresh);
        Ok(removed)
    }

    /// The bytes of the cached shards as the size limit counts them (0
    /// when no limit was ever set on this file).
    pub fn shard_bytes(&self) -> Result<u64, StoreError> {
        let p = &self.path;
        let txn = self.db.begin_read().ctx(p, "read meta")?;
        let meta = txn.open_table(META).ctx(p, "read meta")?;
        Ok(meta.get(SHARD_BYTES).ctx(p, "read meta")?.map_or(0, |g| g.value()))
    }

    /// The database's path (for messages).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Looks up many shard results in one read transaction. A record that
    /// fails its checksum (or does not decode) is a miss: the shard is
    /// computed again and overwrites it; the first such record is reported.
    pub fn get_shards(&self, keys: &[ShardKey]) -> Result<Vec<Option<ShardResult>>, StoreError> {
        let p = &self.path;
        // The unmerged entries are read before the transaction begins: a
        // merge applies its change after its commit, so a transaction that
        // begins later finds in `SHARD_INDEX` whatever was cleared here.
        let fresh: Vec<Option<u64>> = {
            let fresh = self.fresh.read().unwrap_or_else(|e| e.into_inner());
            if fresh.is_empty() {
                vec![None; keys.len()]
            } else {
                keys.iter().map(|k| fresh.get(k).copied()).collect()
            }
        };
        let (out, bad) = guard(p, "read shards", || {
            let txn = self.db.begin_read().ctx(p, "read shards")?;
            let table = txn.open_table(SHARDS).ctx(p, "read shards")?;
            let index = txn.open_table(SHARD_INDEX).ctx(p, "read shards")?;
            let batches = txn.open_table(SHARD_BATCHES).ctx(p, "read shards")?;
            // Batches opened so far (many keys share one).
            let mut opened: std::collections::HashMap<
                u64,
                Option<std::collections::HashMap<ShardKey, Vec<u8>>>,
            > = std::collections::HashMap::new();
            let mut out = Vec::with_capacity(keys.len());
            let mut bad = 0u64;
            for (k, fresh) in keys.iter().zip(fresh.iter().copied()) {
                // An unmerged batch gone from this transaction's view (all
                // its shards written again since the entries were read):
                // the merged index may still name an older one.
                let fresh = match fresh {
                    Some(id)
                        if !opened.contains_key(&id) && batches.get(id).ctx(p, "read shards")?.is_none() =>
                    {
                        None
                    }
                    f => f,
                };
                let id = match fresh {
                    Some(id) => Some(id),
                    None => index.get(k.as_slice()).ctx(p, "read shards")?.map(|g| g.value()),
                };
                let result = if let Some(id) = id {
                    if let std::collections::hash_map::Entry::Vacant(e) = opened.entry(id) {
                        let batch = batches.get(id).ctx(p, "read shards")?;
                        e.insert(batch.and_then(|g| open_batch(id, g.value())));
                    }
                    let r = opened.get(&id).and_then(|b| b.as_ref()?.get(k)).and_then(|v| decode_result(v));
                    bad += u64::from(r.is_none());
                    r
                } else {
                    let v = table.get(k.as_slice()).ctx(p, "read shards")?;
                    v.and_then(|g| {
                        let r = decode_shard(k, g.value());
                        bad += u64::from(r.is_none());
                        r
                    })
                };
                out.push(result);
            }
            Ok((out, bad))
        })?;
        if let Some(limit) = &self.limit {
            // A read is a use: recorded with the next write.
            let mut touched = limit.touched.lock().unwrap_or_else(|e| e.into_inner());
            let room = MAX_TOUCHED.saturating_sub(touched.len());
            touched.extend(keys.iter().zip(&out).filter(|(_, r)| r.is_some()).map(|(k, _)| *k).take(room));
        }
        if bad > 0 && !self.warned.swap(true, std::sync::atomic::Ordering::Relaxed) {
            tracing::warn!(
                cache = %p,
                records = bad,
                "cached shard records failed their checksum: computing them again (`pf1e cache verify --repair` removes them)"
            );
        }
        Ok(out)
    }

    /// Stores shard results, all in one transaction.
    pub fn put_shards(&mut self, results: &[(ShardKey, &ShardResult)]) -> Result<(), StoreError> {
        let encoded: Vec<(ShardKey, Cow<'_, [u8]>)> =
            results.iter().map(|(k, r)| (*k, Cow::Owned(encode_result(r)))).collect();
        self.put_encoded(&encoded)
    }

    /// [`put_shards`](Self::put_shards) of results already encoded
    /// ([`encode_result`]: a worker's report as it came), stored as they are.
    pub fn put_encoded(&mut self, results: &[(ShardKey, Cow<'_, [u8]>)]) -> Result<(), StoreError> {
        if results.is_empty() {
            return Ok(());
        }
        let p = self.path.clone();
        if self.limit.is_none() {
            return self.put_batch(results);
        }
        // Sealed before the transaction, which holds the database's only writer.
        let sealed: Vec<Vec<u8>> = results.iter().map(|(k, b)| seal::seal(SHARDS_NAME, k, b)).collect();
        let touched = self
            .limit
            .as_ref()
            .map(|l| std::mem::take(&mut *l.touched.lock().unwrap_or_else(|e| e.into_inner())));
        guard(&p, "write shards", || {
            let txn = self.db.begin_write().ctx(&p, "write shards")?;
            {
                let mut table = txn.open_table(SHARDS).ctx(&p, "write shards")?;
                match &self.limit {
                    None => {
                        for ((k, _), sealed) in results.iter().zip(&sealed) {
                            table.insert(k.as_slice(), sealed.as_slice()).ctx(&p, "write shards")?;
                        }
                    }
                    Some(limit) => {
                        let touched = touched.unwrap_or_default();
                        Self::write_limited(&txn, &mut table, results, &sealed, &touched, limit.max_bytes)
                            .ctx(&p, "write shards")?;
                    }
                }
            }
            txn.commit().ctx(&p, "write shards")
        })
    }

    /// [`put_shards`](Self::put_shards) without a size limit: one batch
    /// record for all of them and one record of their keys, in one
    /// transaction (a record of one of these shards in `SHARDS`, from an
    /// older write, is removed with it). Their index entries are held in
    /// memory until enough have gathered, then merged into `SHARD_INDEX`
    /// by the write that passes [`merge_at`], in that write's transaction
    /// (into a large index, one slice of key space by it and each of the
    /// next writes: [`MERGE_SLICE`]).
    fn put_batch(&mut self, results: &[(ShardKey, Cow<'_, [u8]>)]) -> Result<(), StoreError> {
        let p = self.path.clone();
        let payload = batch_payload(results);
        // Distinct keys (a group may hold one shard twice): the count of
        // index entries naming the batch.
        let mut keys: Vec<ShardKey> = results.iter().map(|(k, _)| *k).collect();
        keys.sort_unstable();
        keys.dedup();
        let list = keys.concat();
        let mut cursor = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        // The batch's number, and what this write merged: nothing, every
        // entry (`Some(None)`), or a slice of them.
        let (id, merged) = guard(&p, "write shards", || {
            let txn = self.db.begin_write().ctx(&p, "write shards")?;
            let id;
            let merge;
            {
                let mut meta = txn.open_table(META).ctx(&p, "write shards")?;
                id = meta.get(NEXT_BATCH).ctx(&p, "write shards")?.map_or(0, |g| g.value());
                meta.insert(NEXT_BATCH, id + 1).ctx(&p, "write shards")?;
                // Sealed inside: the sums cover the batch's number.
                let sealed = seal::seal(BATCHES_NAME, &id.to_le_bytes(), &payload);
                let mut batches = txn.open_table(SHARD_BATCHES).ctx(&p, "write shards")?;
                batches.insert(id, sealed.as_slice()).ctx(&p, "write shards")?;
                let mut lists = txn.open_table(SHARD_BATCH_KEYS).ctx(&p, "write shards")?;
                lists
                    .insert(id, seal::seal(KEYS_NAME, &id.to_le_bytes(), &list).as_slice())
                    .ctx(&p, "write shards")?;
                let mut live = txn.open_table(SHARD_BATCH_LIVE).ctx(&p, "write shards")?;
                live.insert(id, keys.len() as u64).ctx(&p, "write shards")?;
                let mut shards = txn.open_table(SHARDS).ctx(&p, "write shards")?;
                if !shards.is_empty().ctx(&p, "write shards")? {
                    for k in &keys {
                        shards.remove(k.as_slice()).ctx(&p, "write shards")?;
                    }
                }
                // An unmerged entry written again is taken off its batch
                // now (a batch whose every shard was written again since
                // goes); a merged one, when the merge replaces it.
                let fresh = self.fresh.read().unwrap_or_else(|e| e.into_inner());
                let mut released = std::collections::BTreeMap::new();
                for k in &keys {
                    if let Some(&old) = fresh.get(k) {
                        *released.entry(old).or_insert(0) += 1;
                    }
                }
                let unmerged = (fresh.len() + keys.len()) as u64 - released.values().sum::<u64>();
                release(&mut live, &mut batches, &mut lists, released).ctx(&p, "write shards")?;
                let merged =
                    txn.open_table(SHARD_INDEX).ctx(&p, "write shards")?.len().ctx(&p, "write shards")?;
                // The next slice of a merge in progress, else a new merge
                // once there are enough entries: in slices if the index is
                // large ([`MERGE_SLICE`]).
                let step = match *cursor {
                    Some(slice) => Some(Some(slice)),
                    None if unmerged >= merge_at(merged, self.merge_floor) => {
                        let of = merged.div_ceil(self.merge_slice.max(1)).max(1);
                        Some((of > 1).then_some(Slice { index: 0, of }))
                    }
                    None => None,
                };
                // (`keys` is sorted: the entries it replaces are found by search.)
                merge = step.map(|slice| {
                    let older = fresh.iter().filter(|(k, _)| keys.binary_search(k).is_err());
                    let mut all: Vec<(ShardKey, u64)> = older.map(|(k, id)| (*k, *id)).collect();
                    all.extend(keys.iter().map(|k| (*k, id)));
                    (all, slice)
                });
            }
            let step = merge.as_ref().map(|(_, slice)| *slice);
            if let Some((all, slice)) = merge {
                merge_entries(&txn, all, slice).ctx(&p, "write shards")?;
            }
            txn.commit().ctx(&p, "write shards")?;
            Ok((id, step))
        })?;
        // Applied once committed, as the cursor moves.
        match merged {
            None => FreshChange::Added(id, keys),
            Some(None) => FreshChange::Cleared,
            Some(Some(slice)) => {
                let next = slice.index + 1;
                *cursor = (next < slice.of).then_some(Slice { index: next, of: slice.of });
                FreshChange::Sliced(id, keys, slice)
            }
        }
        .apply(&self.fresh);
        Ok(())
    }

    /// Moves every batched shard result to a record of its own in
    /// `SHARDS` (in the caller's transaction): a size limit counts, ticks
    /// and evicts shards one by one. A batch that fails its checksum is
    /// dropped (its shards are computed again when needed). Returns the
    /// shards moved.
    fn unbatch(txn: &redb::WriteTransaction, fresh: &Fresh) -> Result<u64, redb::Error> {
        let mut index = txn.open_table(SHARD_INDEX)?;
        let mut batches = txn.open_table(SHARD_BATCHES)?;
        let mut shards = txn.open_table(SHARDS)?;
        let mut moved = 0;
        let mut opened: std::collections::HashMap<u64, Option<Batch>> = std::collections::HashMap::new();
        // Each shard's newest batch: its unmerged entry, else its merged one.
        let mut entries = Vec::new();
        for entry in index.iter()? {
            let (k, id) = entry?;
            let newer = ShardKey::try_from(k.value()).ok().and_then(|key| fresh.get(&key));
            if newer.is_none() {
                entries.push((k.value().to_vec(), id.value()));
            }
        }
        entries.extend(fresh.iter().map(|(k, id)| (k.to_vec(), *id)));
        for (k, id) in entries {
            if let std::collections::hash_map::Entry::Vacant(e) = opened.entry(id) {
                e.insert(batches.get(id)?.and_then(|g| open_batch(id, g.value())));
            }
            let Ok(key) = ShardKey::try_from(k.as_slice()) else { continue };
            if let Some(v) = opened.get(&id).and_then(|b| b.as_ref()?.get(&key)) {
                shards.insert(k.as_slice(), seal::seal(SHARDS_NAME, &key, v).as_slice())?;
                moved += 1;
            }
        }
        while index.pop_first()?.is_some() {}
        while batches.pop_first()?.is_some() {}
        let mut live = txn.open_table(SHARD_BATCH_LIVE)?;
        while live.pop_first()?.is_some() {}
        txn.open_table(SHARD_BATCH_KEYS)?.retain(|_, _| false)?;
        Ok(moved)
    }

    /// The writes of [`put_shards`](Self::put_shards) under a size limit:
    /// the records, their ticks and those of the shards read since, and the
    /// eviction, all in the caller's transaction.
    fn write_limited(
        txn: &redb::WriteTransaction,
        shards: &mut redb::Table<'_, &'static [u8], &'static [u8]>,
        results: &[(ShardKey, Cow<'_, [u8]>)],
        sealed: &[Vec<u8>],
        touched: &[ShardKey],
        max_bytes: u64,
    ) -> Result<(), redb::Error> {
        let mut ticks = txn.open_table(SHARD_TICKS)?;
        let mut cold = txn.open_table(SHARD_COLD)?;
        let mut meta = txn.open_table(META)?;
        let mut next = meta.get(SHARD_TICK)?.map_or(0, |g| g.value());
        let mut bytes = meta.get(SHARD_BYTES)?.map_or(0, |g| g.value());
        for k in touched {
            if shards.get(k.as_slice())?.is_some() {
                touch(&mut ticks, &mut cold, &mut next, k)?;
            }
        }
        for ((k, _), sealed) in results.iter().zip(sealed) {
            if let Some(old) = shards.insert(k.as_slice(), sealed.as_slice())? {
                bytes = bytes.saturating_sub(record_bytes(old.value()));
            }
            bytes += record_bytes(sealed);
            touch(&mut ticks, &mut cold, &mut next, k)?;
        }
        if bytes > max_bytes {
            bytes = evict(shards, &mut ticks, &mut cold, bytes, evict_target(bytes, max_bytes))?.0;
        }
        meta.insert(SHARD_TICK, next)?;
        meta.insert(SHARD_BYTES, bytes)?;
        Ok(())
    }

    /// Makes every earlier commit durable (they already are; kept for shutdown paths).
    pub fn flush(&mut self) -> Result<(), StoreError> {
        let p = self.path.clone();
        let mut txn = self.db.begin_write().ctx(&p, "flush")?;
        txn.set_durability(Durability::Immediate).ctx(&p, "flush")?;
        txn.commit().ctx(&p, "flush")?;
        Ok(())
    }

    /// The index entries of the batches not merged yet (held in memory until
    /// enough gather for a merge): zero right after a write that merged them. Only a
    /// benchmark needs it (`benches/store_merge.rs` tells the merging write
    /// from the others by it, without copying the merge rule).
    pub fn unmerged_entries(&self) -> usize {
        self.fresh.read().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// Number of cached shard results.
    pub fn shard_count(&self) -> Result<u64, StoreError> {
        let p = &self.path;
        let fresh: Vec<ShardKey> =
            self.fresh.read().unwrap_or_else(|e| e.into_inner()).keys().copied().collect();
        let txn = self.db.begin_read().ctx(p, "count shards")?;
        let own = txn.open_table(SHARDS).ctx(p, "count shards")?.len().ctx(p, "count shards")?;
        let index = txn.open_table(SHARD_INDEX).ctx(p, "count shards")?;
        let mut batched = index.len().ctx(p, "count shards")?;
        // An unmerged entry counts unless it replaces a merged one.
        for k in &fresh {
            batched += u64::from(index.get(k.as_slice()).ctx(p, "count shards")?.is_none());
        }
        Ok(own + batched)
    }

    /// The LLM response cache of this database (shares the file).
    pub fn llm_cache(&self) -> LlmCache {
        LlmCache { db: Arc::clone(&self.db), path: self.path.clone() }
    }

    /// Journals a new sweep (bundle and initial state) and returns its id, in one transaction.
    pub fn create_sweep(
        &mut self,
        bundle: &proto::SweepBundle,
        state: &JournalState,
    ) -> Result<u64, StoreError> {
        let p = self.path.clone();
        let txn = self.db.begin_write().ctx(&p, "journal a new sweep")?;
        let id;
        {
            let mut meta = txn.open_table(META).ctx(&p, "journal a new sweep")?;
            id = meta.get("next_sweep_id").ctx(&p, "journal a new sweep")?.map_or(1, |g| g.value());
            meta.insert("next_sweep_id", id + 1).ctx(&p, "journal a new sweep")?;
            let sealed = seal::seal(BUNDLES_NAME, &id.to_le_bytes(), &bundle.encode_to_vec());
            txn.open_table(SWEEP_BUNDLES)
                .ctx(&p, "journal a new sweep")?
                .insert(id, sealed.as_slice())
                .ctx(&p, "journal a new sweep")?;
            let json = seal::seal_text(
                STATE_NAME,
                &id.to_le_bytes(),
                &serde_json::to_string(state).ctx(&p, "journal a new sweep")?,
            );
            txn.open_table(SWEEP_STATE)
                .ctx(&p, "journal a new sweep")?
                .insert(id, json.as_str())
                .ctx(&p, "journal a new sweep")?;
        }
        txn.commit().ctx(&p, "journal a new sweep")?;
        Ok(id)
    }

    /// Updates a sweep's state, with its results when given, in one transaction.
    pub fn update_sweep(
        &mut self,
        id: u64,
        state: &JournalState,
        results: Option<&SweepResults>,
    ) -> Result<(), StoreError> {
        let p = self.path.clone();
        let txn = self.db.begin_write().ctx(&p, "journal a sweep")?;
        {
            let json = seal::seal_text(
                STATE_NAME,
                &id.to_le_bytes(),
                &serde_json::to_string(state).ctx(&p, "journal a sweep")?,
            );
            txn.open_table(SWEEP_STATE)
                .ctx(&p, "journal a sweep")?
                .insert(id, json.as_str())
                .ctx(&p, "journal a sweep")?;
            if let Some(r) = results {
                let bytes = seal::seal(
                    RESULTS_NAME,
                    &id.to_le_bytes(),
                    &proto::SweepResults::from(r).encode_to_vec(),
                );
                txn.open_table(SWEEP_RESULTS)
                    .ctx(&p, "journal a sweep")?
                    .insert(id, bytes.as_slice())
                    .ctx(&p, "journal a sweep")?;
            }
        }
        txn.commit().ctx(&p, "journal a sweep")?;
        Ok(())
    }

    /// Every journaled sweep: id, bundle and state. A sweep whose bundle or
    /// state fails its checksum is left out, with a warning naming it
    /// (`pf1e cache verify --repair` removes it).
    pub fn sweeps(&self) -> Result<Vec<(u64, proto::SweepBundle, JournalState)>, StoreError> {
        let p = &self.path;
        guard(p, "read the journal", || {
            let txn = self.db.begin_read().ctx(p, "read the journal")?;
            let bundles = txn.open_table(SWEEP_BUNDLES).ctx(p, "read the journal")?;
            let states = txn.open_table(SWEEP_STATE).ctx(p, "read the journal")?;
            let mut out = Vec::new();
            for entry in states.iter().ctx(p, "read the journal")? {
                let (k, v) = entry.ctx(p, "read the journal")?;
                let id = k.value();
                let key = id.to_le_bytes();
                let state = seal::open_text(STATE_NAME, &key, v.value())
                    .and_then(|text| serde_json::from_str::<JournalState>(text).ok());
                let Some(b) = bundles.get(id).ctx(p, "read the journal")? else { continue };
                let bundle = seal::open(BUNDLES_NAME, &key, b.value())
                    .and_then(|bytes| proto::SweepBundle::decode(bytes).ok());
                match (bundle, state) {
                    (Some(bundle), Some(state)) => out.push((id, bundle, state)),
                    _ => tracing::warn!(
                        cache = %p,
                        sweep = id,
                        "a journaled sweep failed its checksum and is skipped (`pf1e cache verify --repair` removes it)"
                    ),
                }
            }
            Ok(out)
        })
    }

    /// Removes journaled sweeps (bundle, state and results) in one
    /// transaction; says how many were there and the bytes their records
    /// held. Cached shards stay: they are keyed by content and serve any
    /// sweep.
    pub fn remove_sweeps(&mut self, ids: &[u64]) -> Result<Removed, StoreError> {
        let p = self.path.clone();
        let p = &p;
        let txn = self.db.begin_write().ctx(p, "remove sweeps")?;
        let mut removed = Removed::default();
        {
            let mut bundles = txn.open_table(SWEEP_BUNDLES).ctx(p, "remove sweeps")?;
            let mut states = txn.open_table(SWEEP_STATE).ctx(p, "remove sweeps")?;
            let mut results = txn.open_table(SWEEP_RESULTS).ctx(p, "remove sweeps")?;
            let mut results_json = txn.open_table(SWEEP_RESULTS_JSON).ctx(p, "remove sweeps")?;
            for &id in ids {
                let state = states.remove(id).ctx(p, "remove sweeps")?.map(|v| v.value().len());
                let bytes = [
                    state,
                    bundles.remove(id).ctx(p, "remove sweeps")?.map(|v| v.value().len()),
                    results.remove(id).ctx(p, "remove sweeps")?.map(|v| v.value().len()),
                    results_json.remove(id).ctx(p, "remove sweeps")?.map(|v| v.value().len()),
                ];
                removed.sweeps += u64::from(state.is_some());
                removed.bytes += bytes.iter().flatten().map(|&n| n as u64).sum::<u64>();
            }
        }
        txn.commit().ctx(p, "remove sweeps")?;
        Ok(removed)
    }

    /// Checks the checksum of every record; with `repair`, removes the bad
    /// ones (a shard or an LLM answer is computed again when next needed; a
    /// sweep whose bundle or state is bad is removed whole).
    pub fn verify(&mut self, repair: bool) -> Result<VerifyReport, StoreError> {
        let p = self.path.clone();
        let p = &p;
        // The key lists checked (and repaired) are those the unmerged
        // entries are read from afterwards: no write in between.
        let writer = Arc::clone(&self.writer);
        let _writer = writer.lock().unwrap_or_else(|e| e.into_inner());
        guard(p, "verify", || {
            let mut report = VerifyReport::default();
            let mut bad_keys: Vec<(&'static str, Vec<u8>)> = Vec::new();
            let mut bad_sweeps: Vec<u64> = Vec::new();
            let (mut bad_batches, mut bad_index): (Vec<u64>, Vec<Vec<u8>>) = (Vec::new(), Vec::new());
            {
                let txn = self.db.begin_read().ctx(p, "verify")?;
                for (name, def) in [(SHARDS_NAME, SHARDS), (LLM_NAME, LLM)] {
                    let table = txn.open_table(def).ctx(p, "verify")?;
                    for entry in table.iter().ctx(p, "verify")? {
                        let (k, v) = entry.ctx(p, "verify")?;
                        report.checked += 1;
                        let ok = if name == SHARDS_NAME {
                            <[u8; 32]>::try_from(k.value())
                                .ok()
                                .and_then(|key| decode_shard(&key, v.value()))
                                .is_some()
                        } else {
                            seal::open(name, k.value(), v.value()).is_some()
                        };
                        if !ok {
                            report.bad.push(format!("{name}/{}", hex(k.value())));
                            bad_keys.push((name, k.value().to_vec()));
                        }
                    }
                }
                // The three journal tables differ only in their value type
                // (bytes or text), hence a macro rather than a generic helper.
                macro_rules! verify_journal {
                    ($table:expr, $name:expr, $open:path) => {
                        let table = txn.open_table($table).ctx(p, "verify")?;
                        for entry in table.iter().ctx(p, "verify")? {
                            let (k, v) = entry.ctx(p, "verify")?;
                            report.checked += 1;
                            if $open($name, &k.value().to_le_bytes(), v.value()).is_none() {
                                report.bad.push(format!("{}/{}", $name, k.value()));
                                bad_sweeps.push(k.value());
                            }
                        }
                    };
                }
                // A batch is checked whole, every result in it decoded; an
                // index entry must name a batch that holds its shard.
                let batches = txn.open_table(SHARD_BATCHES).ctx(p, "verify")?;
                let mut good: std::collections::HashMap<u64, std::collections::HashSet<ShardKey>> =
                    std::collections::HashMap::new();
                for entry in batches.iter().ctx(p, "verify")? {
                    let (k, v) = entry.ctx(p, "verify")?;
                    report.checked += 1;
                    let id = k.value();
                    let keys =
                        open_batch(id, v.value()).filter(|b| b.values().all(|r| decode_result(r).is_some()));
                    match keys {
                        Some(b) => {
                            good.insert(id, b.into_keys().collect());
                        }
                        None => {
                            report.bad.push(format!("{BATCHES_NAME}/{id}"));
                            bad_batches.push(id);
                        }
                    }
                }
                // A key list must open and name only shards its batch
                // holds; a bad one goes with its batch (its entries cannot
                // be trusted, and the batch is unreachable without them).
                let lists = txn.open_table(SHARD_BATCH_KEYS).ctx(p, "verify")?;
                for entry in lists.iter().ctx(p, "verify")? {
                    let (k, v) = entry.ctx(p, "verify")?;
                    report.checked += 1;
                    let id = k.value();
                    if bad_batches.contains(&id) {
                        continue;
                    }
                    let ok = open_key_list(id, v.value()).is_some_and(|keys| {
                        good.get(&id).is_some_and(|b| keys.iter().all(|k| b.contains(k)))
                    });
                    if !ok {
                        report.bad.push(format!("{KEYS_NAME}/{id}"));
                        bad_batches.push(id);
                    }
                }
                let index = txn.open_table(SHARD_INDEX).ctx(p, "verify")?;
                for entry in index.iter().ctx(p, "verify")? {
                    let (k, id) = entry.ctx(p, "verify")?;
                    report.checked += 1;
                    let held = <[u8; 32]>::try_from(k.value())
                        .ok()
                        .is_some_and(|key| good.get(&id.value()).is_some_and(|b| b.contains(&key)));
                    if !held {
                        bad_index.push(k.value().to_vec());
                        if !bad_batches.contains(&id.value()) {
                            report.bad.push(format!("{INDEX_NAME}/{}", hex(k.value())));
                        }
                    }
                }
                verify_journal!(SWEEP_BUNDLES, BUNDLES_NAME, seal::open);
                verify_journal!(SWEEP_STATE, STATE_NAME, seal::open_text);
                verify_journal!(SWEEP_RESULTS, RESULTS_NAME, seal::open);
            }
            if repair && !report.bad.is_empty() {
                let txn = self.db.begin_write().ctx(p, "repair")?;
                {
                    let mut shards = txn.open_table(SHARDS).ctx(p, "repair")?;
                    let mut llm = txn.open_table(LLM).ctx(p, "repair")?;
                    for (name, key) in &bad_keys {
                        let table = if *name == SHARDS_NAME { &mut shards } else { &mut llm };
                        table.remove(key.as_slice()).ctx(p, "repair")?;
                    }
                    let mut batches = txn.open_table(SHARD_BATCHES).ctx(p, "repair")?;
                    let mut live = txn.open_table(SHARD_BATCH_LIVE).ctx(p, "repair")?;
                    let mut lists = txn.open_table(SHARD_BATCH_KEYS).ctx(p, "repair")?;
                    for id in &bad_batches {
                        batches.remove(*id).ctx(p, "repair")?;
                        live.remove(*id).ctx(p, "repair")?;
                        lists.remove(*id).ctx(p, "repair")?;
                    }
                    let mut index = txn.open_table(SHARD_INDEX).ctx(p, "repair")?;
                    for key in &bad_index {
                        index.remove(key.as_slice()).ctx(p, "repair")?;
                    }
                }
                txn.commit().ctx(p, "repair")?;
                let fresh = {
                    let txn = self.db.begin_read().ctx(p, "repair")?;
                    read_fresh(&txn.open_table(SHARD_BATCH_KEYS).ctx(p, "repair")?).ctx(p, "repair")?.0
                };
                *self.fresh.write().unwrap_or_else(|e| e.into_inner()) = fresh;
                bad_sweeps.sort_unstable();
                bad_sweeps.dedup();
                self.remove_sweeps(&bad_sweeps)?;
                report.removed = report.bad.len() as u64;
            }
            Ok(report)
        })
    }

    /// The results of a finished sweep.
    pub fn sweep_results(&self, id: u64) -> Result<Option<SweepResults>, StoreError> {
        let p = &self.path;
        let txn = self.db.begin_read().ctx(p, "read sweep results")?;
        if let Some(bytes) = txn
            .open_table(SWEEP_RESULTS)
            .ctx(p, "read sweep results")?
            .get(id)
            .ctx(p, "read sweep results")?
        {
            let payload = seal::open(RESULTS_NAME, &id.to_le_bytes(), bytes.value())
                .ok_or(Corrupt)
                .ctx(p, "read sweep results")?;
            let message = proto::SweepResults::decode(payload).ctx(p, "read sweep results")?;
            return Ok(Some(SweepResults::try_from(&message).ctx(p, "read sweep results")?));
        }
        let table = txn.open_table(SWEEP_RESULTS_JSON).ctx(p, "read sweep results")?;
        let Some(text) = table.get(id).ctx(p, "read sweep results")? else { return Ok(None) };
        Ok(Some(serde_json::from_str(text.value()).ctx(p, "read sweep results")?))
    }
}

/// The LLM responses of a [`Store`]'s file: every completion of the run,
/// under its composite key. Each `put` is one durable transaction; this
/// process stays the file's only writer.
#[derive(Clone)]
pub struct LlmCache {
    db: Arc<Database>,
    path: String,
}

impl LlmCache {
    /// Number of cached responses.
    pub fn len(&self) -> Result<u64, StoreError> {
        let p = &self.path;
        let txn = self.db.begin_read().ctx(p, "count LLM responses")?;
        txn.open_table(LLM).ctx(p, "count LLM responses")?.len().ctx(p, "count LLM responses")
    }

    /// Whether no response is cached.
    pub fn is_empty(&self) -> Result<bool, StoreError> {
        self.len().map(|n| n == 0)
    }

    fn read(&self, key: &CacheKey) -> Result<Option<Vec<u8>>, StoreError> {
        let p = &self.path;
        let txn = self.db.begin_read().ctx(p, "read LLM response")?;
        let table = txn.open_table(LLM).ctx(p, "read LLM response")?;
        let digest = key.digest();
        let value = table.get(digest.as_slice()).ctx(p, "read LLM response")?;
        // A response that fails its checksum is asked again (and overwritten).
        Ok(value.and_then(|g| seal::open(LLM_NAME, &digest, g.value()).map(<[u8]>::to_vec)))
    }

    fn write(&self, key: &CacheKey, value: &[u8]) -> Result<(), StoreError> {
        let p = &self.path;
        let txn = self.db.begin_write().ctx(p, "write LLM response")?;
        let digest = key.digest();
        txn.open_table(LLM)
            .ctx(p, "write LLM response")?
            .insert(digest.as_slice(), seal::seal(LLM_NAME, &digest, value).as_slice())
            .ctx(p, "write LLM response")?;
        txn.commit().ctx(p, "write LLM response")?;
        Ok(())
    }
}

impl std::fmt::Debug for LlmCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LlmCache").field("path", &self.path).finish()
    }
}

fn cache_error(e: StoreError) -> CacheError {
    CacheError::new("the LLM response cache failed", e)
}

impl ResponseCache for LlmCache {
    fn get(&self, key: &CacheKey) -> Result<Option<CachedCompletion>, CacheError> {
        match self.read(key).map_err(cache_error)? {
            Some(bytes) => CachedCompletion::from_bytes(&bytes).map(Some),
            None => Ok(None),
        }
    }

    fn put(&self, key: &CacheKey, value: &CachedCompletion) -> Result<(), CacheError> {
        self.write(key, &value.to_bytes()).map_err(cache_error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes batches of shards as the previous format did (every entry in
    /// `shard_index`, keyed by hash, at each write; a batch none names any
    /// more removed), straight into a new redb file.
    fn put_old_format(path: &Path, writes: &[Vec<(ShardKey, &ShardResult)>]) {
        let db = Database::create(path).unwrap();
        let txn = db.begin_write().unwrap();
        {
            let mut meta = txn.open_table(META).unwrap();
            let mut batches = txn.open_table(SHARD_BATCHES).unwrap();
            let mut index = txn.open_table(OLD_SHARD_INDEX).unwrap();
            let mut live = txn.open_table(SHARD_BATCH_LIVE).unwrap();
            txn.open_table(SHARDS).unwrap();
            for (id, write) in (0u64..).zip(writes) {
                let encoded: Vec<(ShardKey, Cow<'_, [u8]>)> =
                    write.iter().map(|(k, r)| (*k, Cow::Owned(encode_result(r)))).collect();
                let sealed = seal::seal(BATCHES_NAME, &id.to_le_bytes(), &batch_payload(&encoded));
                batches.insert(id, sealed.as_slice()).unwrap();
                live.insert(id, write.len() as u64).unwrap();
                for (k, _) in write {
                    let old = index.insert(k.as_slice(), id).unwrap().map(|g| g.value());
                    if let Some(old) = old {
                        let left = live.get(old).unwrap().unwrap().value() - 1;
                        if left == 0 {
                            live.remove(old).unwrap();
                            batches.remove(old).unwrap();
                        } else {
                            live.insert(old, left).unwrap();
                        }
                    }
                }
                meta.insert(NEXT_BATCH, id + 1).unwrap();
            }
        }
        txn.commit().unwrap();
    }

    fn batch_ids(s: &Store) -> Vec<u64> {
        let txn = s.db.begin_read().unwrap();
        let t = txn.open_table(SHARD_BATCHES).unwrap();
        t.iter().unwrap().map(|e| e.unwrap().0.value()).collect()
    }

    fn table_names(s: &Store) -> Vec<String> {
        let txn = s.db.begin_read().unwrap();
        txn.list_tables().unwrap().map(|t| redb::TableHandle::name(&t).to_string()).collect()
    }

    fn len_of(s: &Store, def: TableDefinition<u64, &[u8]>) -> u64 {
        s.db.begin_read().unwrap().open_table(def).unwrap().len().unwrap()
    }

    /// The results read back, each as the bytes the store keeps.
    fn read_encoded(s: &Store, keys: &[ShardKey]) -> Vec<Option<Vec<u8>>> {
        s.get_shards(keys).unwrap().iter().map(|r| r.as_ref().map(encode_result)).collect()
    }

    /// A file written by the previous format opens: its index moves to the
    /// new table in the opening's transaction, the old table goes, every
    /// result reads back bit for bit, and the batches' counts still remove
    /// a batch once every shard of it is written again.
    #[test]
    fn a_file_of_the_old_format_is_migrated_on_opening() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.redb");
        let (a, b, c) = (
            crate::merge::tests::fake_result(1, 0..10),
            crate::merge::tests::fake_result(2, 0..5),
            crate::merge::tests::fake_result(3, 0..7),
        );
        put_old_format(
            &path,
            &[
                vec![([1; 32], &a), ([2; 32], &b), ([3; 32], &a)],
                vec![([3; 32], &b)],
                vec![([4; 32], &c)],
                vec![([4; 32], &a)],
            ],
        );
        let keys = [[1; 32], [2; 32], [3; 32], [4; 32], [5; 32]];
        let want: Vec<Option<Vec<u8>>> =
            [Some(&a), Some(&b), Some(&b), Some(&a), None].iter().map(|r| r.map(encode_result)).collect();
        let mut s = Store::open(&path).unwrap();
        assert!(!table_names(&s).contains(&OLD_INDEX_NAME.to_string()), "{:?}", table_names(&s));
        assert_eq!(read_encoded(&s, &keys), want);
        assert_eq!(s.get_shards(&keys[..1]).unwrap(), vec![Some(a.clone())]);
        assert_eq!(s.shard_count().unwrap(), 4);
        assert_eq!(batch_ids(&s), vec![0, 1, 3], "batch 2 was gone before");
        assert_eq!(len_of(&s, SHARD_BATCH_KEYS), 0, "migrated entries are merged ones");
        assert!(s.verify(false).unwrap().bad.is_empty());
        drop(s);
        // Opened again: nothing left to migrate, the same results.
        let mut s = Store::open(&path).unwrap();
        assert_eq!(read_encoded(&s, &keys), want);
        // Shards 1, 2 and 3 written again, merged at once: batches 0 and 1
        // are named no more and go; the next batch number follows the old.
        s.merge_floor = 1;
        s.put_shards(&[([1; 32], &c), ([2; 32], &c), ([3; 32], &c)]).unwrap();
        assert_eq!(batch_ids(&s), vec![3, 4]);
        assert_eq!(
            s.get_shards(&keys).unwrap(),
            vec![Some(c.clone()), Some(c.clone()), Some(c.clone()), Some(a), None]
        );
        assert!(s.verify(false).unwrap().bad.is_empty());
    }

    /// The new layout: entries held as key lists until a write passes the
    /// merge size, merged then; the newest write of a shard is read before
    /// and after merges and reopening; a batch is removed once nothing
    /// names it, whether the entries replacing its own were merged or
    /// not; a size limit moves out the newest result of each shard.
    #[test]
    fn unmerged_and_merged_entries_read_back_and_free_their_batches() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cache.redb");
        let (a, b, c) = (
            crate::merge::tests::fake_result(1, 0..10),
            crate::merge::tests::fake_result(2, 0..5),
            crate::merge::tests::fake_result(3, 0..7),
        );
        let keys = [[1; 32], [2; 32], [3; 32], [4; 32], [5; 32]];
        let mut s = Store::open(&path).unwrap();
        s.merge_floor = 3;
        s.put_shards(&[([1; 32], &a), ([2; 32], &b)]).unwrap();
        assert_eq!(len_of(&s, SHARD_BATCH_KEYS), 1, "one key list, not merged");
        assert_eq!(s.shard_count().unwrap(), 2);
        s.put_shards(&[([3; 32], &a)]).unwrap();
        assert_eq!(len_of(&s, SHARD_BATCH_KEYS), 0, "three entries: merged");
        s.put_shards(&[([1; 32], &b)]).unwrap();
        assert_eq!(s.shard_count().unwrap(), 3, "an unmerged entry over a merged one counts once");
        let want = vec![Some(b.clone()), Some(b.clone()), Some(a.clone()), None, None];
        assert_eq!(s.get_shards(&keys).unwrap(), want);
        drop(s);
        let mut s = Store::open(&path).unwrap();
        s.merge_floor = 3;
        assert_eq!(s.get_shards(&keys).unwrap(), want, "unmerged entries read again from their lists");
        assert_eq!(batch_ids(&s), vec![0, 1, 2]);
        // An unmerged entry written again: its batch goes at once.
        s.put_shards(&[([5; 32], &a)]).unwrap();
        s.put_shards(&[([5; 32], &c)]).unwrap();
        assert_eq!(batch_ids(&s), vec![0, 1, 2, 4]);
        assert!(s.verify(false).unwrap().bad.is_empty());
        // The merge replaces shards 1 and 2 of batch 0: it goes.
        s.put_shards(&[([2; 32], &a), ([4; 32], &c)]).unwrap();
        assert_eq!(len_of(&s, SHARD_BATCH_KEYS), 0);
        assert_eq!(batch_ids(&s), vec![1, 2, 4, 5]);
        let want = vec![Some(b.clone()), Some(a.clone()), Some(a.clone()), Some(c.clone()), Some(c.clone())];
        assert_eq!(s.get_shards(&keys).unwrap(), want);
        assert_eq!(s.shard_count().unwrap(), 5);
        assert!(s.verify(false).unwrap().bad.is_empty());
        // One unmerged over a merged entry, then a size limit: each shard's
        // newest result becomes its own record.
        s.put_shards(&[([3; 32], &c)]).unwrap();
        let want = vec![Some(b), Some(a.clone()), Some(c.clone()), Some(c.clone()), Some(c)];
        assert_eq!(s.get_shards(&keys).unwrap(), want);
        assert_eq!(s.set_shard_limit(u64::MAX).unwrap(), 0);
        assert_eq!(s.get_shards(&keys).unwrap(), want);
        assert_eq!(s.shard_count().unwrap(), 5);
        assert!(batch_ids(&s).is_empty());
        assert!(s.verify(false).unwrap().bad.is_empty());
        drop(s);
        let s = Store::open(&path).unwrap();
        assert_eq!(s.get_shards(&keys).unwrap(), want);
    }

    /// Each key falls in exactly one slice, and the slices follow key
    /// order (a slice's entries are a run of the index's leaf pages).
    #[test]
    fn slices_split_key_space_in_key_order() {
        let mut keys: Vec<ShardKey> =
            (0..200u64).map(|i| *blake3::hash(&i.to_le_bytes()).as_bytes()).collect();
        keys.extend([[0; 32], [255; 32], [128; 32]]);
        keys.sort_unstable();
        for of in 1..=9 {
            let parts: Vec<u64> = keys
                .iter()
                .map(|k| {
                    let mut holding = (0..of).filter(|&index| Slice { index, of }.holds(k));
                    let part = holding.next().unwrap();
                    assert_eq!(holding.next(), None, "{k:?} in two of {of} slices");
                    part
                })
                .collect();
            assert!(parts.windows(2).all(|w| w[0] <= w[1]), "out of key order in {of} slices");
            assert_eq!((parts[0], parts[parts.len() - 1]), (0, of - 1));
        }
    }

    /// A merge into a large index goes in slices of key space, one a
    /// write: every shard reads back as from a store that merges at once,
    /// through the slices, shards written again, and a reopening in the
    /// middle of a merge (the rest waits for the next one); the key lists
    /// always hold exactly the unmerged entries, and `verify` finds
    /// nothing wrong.
    #[test]
    fn a_merge_in_slices_reads_back_as_a_merge_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cache.redb");
        let results: Vec<ShardResult> = (0..5).map(|i| crate::merge::tests::fake_result(i, 0..3)).collect();
        let mut whole = Store::in_memory().unwrap();
        whole.merge_floor = 8;
        whole.merge_slice = u64::MAX;
        let open = || {
            let mut s = Store::open(&path).unwrap();
            s.merge_floor = 8;
            s.merge_slice = 10;
            s
        };
        let mut sliced = open();
        let key = |i: u64| *blake3::hash(&i.to_le_bytes()).as_bytes();
        let keys: Vec<ShardKey> = (0..170).map(key).collect();
        let (mut slices, mut reopened) = (0, false);
        for w in 0..80u64 {
            // Two new shards and one written again, with another result.
            let write: Vec<(ShardKey, &ShardResult)> = [2 * w, 2 * w + 1, w / 2]
                .into_iter()
                .map(|i| (key(i), &results[((i + w) % 5) as usize]))
                .collect();
            whole.put_shards(&write).unwrap();
            sliced.put_shards(&write).unwrap();
            assert_eq!(read_encoded(&sliced, &keys), read_encoded(&whole, &keys), "after write {w}");
            {
                let txn = sliced.db.begin_read().unwrap();
                let (listed, bad) = read_fresh(&txn.open_table(SHARD_BATCH_KEYS).unwrap()).unwrap();
                assert_eq!((&listed, bad), (&*sliced.fresh.read().unwrap(), 0), "key lists after write {w}");
            }
            let in_progress = sliced.writer.lock().unwrap().is_some();
            slices += u32::from(in_progress);
            if in_progress && w > 40 && !reopened {
                drop(sliced);
                sliced = open();
                reopened = true;
                assert_eq!(read_encoded(&sliced, &keys), read_encoded(&whole, &keys), "reopened after {w}");
            }
        }
        assert!(slices > 10 && reopened, "{slices} writes of a merge in slices");
        assert_eq!(sliced.shard_count().unwrap(), whole.shard_count().unwrap());
        assert!(sliced.verify(false).unwrap().bad.is_empty());
        drop(sliced);
        let sliced = open();
        assert_eq!(read_encoded(&sliced, &keys), read_encoded(&whole, &keys), "reopened at the end");
    }

    /// A clone reading while another writes and merges (whole or in
    /// slices): a shard whose write has returned is found, with its
    /// result, whatever the merges in between (the unmerged entries are
    /// read before the transaction, and a merge clears them only after its
    /// commit).
    #[test]
    fn a_reading_clone_finds_every_shard_written_through_merges() {
        let dir = tempfile::tempdir().unwrap();
        let results: Vec<ShardResult> = (0..4).map(|i| crate::merge::tests::fake_result(i, 0..3)).collect();
        let mut writer = Store::open(&dir.path().join("cache.redb")).unwrap();
        writer.merge_floor = 5;
        // Merges of more than 20 merged entries go in slices.
        writer.merge_slice = 20;
        let reader = writer.clone();
        let key = |i: u32| {
            let mut k = [0u8; 32];
            k[..4].copy_from_slice(&i.to_be_bytes());
            k[31] = 1;
            k
        };
        let written = Arc::new(std::sync::atomic::AtomicU32::new(0));
        let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let check = {
            let (written, done, results) = (Arc::clone(&written), Arc::clone(&done), results.clone());
            std::thread::spawn(move || {
                let mut reads = 0;
                while !done.load(std::sync::atomic::Ordering::Acquire) || reads == 0 {
                    let n = written.load(std::sync::atomic::Ordering::Acquire);
                    let keys: Vec<ShardKey> = (0..n).map(key).collect();
                    for (i, got) in reader.get_shards(&keys).unwrap().into_iter().enumerate() {
                        assert_eq!(got.as_ref(), Some(&results[i % 4]), "shard {i} of {n}");
                    }
                    reads += 1;
                }
                reads
            })
        };
        for start in (0..200u32).step_by(3) {
            let batch: Vec<(ShardKey, &ShardResult)> =
                (start..start + 3).map(|i| (key(i), &results[i as usize % 4])).collect();
            writer.put_shards(&batch).unwrap();
            written.store(start + 3, std::sync::atomic::Ordering::Release);
        }
        done.store(true, std::sync::atomic::Ordering::Release);
        assert!(check.join().unwrap() > 0);
        assert_eq!(writer.shard_count().unwrap(), 201);
        assert!(writer.verify(false).unwrap().bad.is_empty());
    }

    /// A key list that fails its checksum: the file still opens, its
    /// batch's shards are misses, `verify` names the list and `--repair`
    /// removes it with its batch.
    #[test]
    fn a_corrupted_key_list_is_a_miss_and_repaired() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cache.redb");
        let a = crate::merge::tests::fake_result(1, 0..10);
        let mut s = Store::open(&path).unwrap();
        s.put_shards(&[([1; 32], &a), ([2; 32], &a)]).unwrap();
        s.put_shards(&[([3; 32], &a)]).unwrap();
        {
            let txn = s.db.begin_write().unwrap();
            {
                let mut t = txn.open_table(SHARD_BATCH_KEYS).unwrap();
                let mut v = t.get(0).unwrap().unwrap().value().to_vec();
                let last = v.len() - 1;
                v[last] ^= 1;
                t.insert(0, v.as_slice()).unwrap();
                // And a list of no batch, sealed but cut short.
                t.insert(9, seal::seal(KEYS_NAME, &9u64.to_le_bytes(), &[7; 31]).as_slice()).unwrap();
            }
            txn.commit().unwrap();
        }
        drop(s);
        let mut s = Store::open(&path).unwrap();
        let keys = [[1; 32], [2; 32], [3; 32]];
        assert_eq!(s.get_shards(&keys).unwrap(), vec![None, None, Some(a.clone())]);
        let report = s.verify(true).unwrap();
        assert_eq!(report.bad, vec![format!("{KEYS_NAME}/0"), format!("{KEYS_NAME}/9")]);
        assert_eq!(batch_ids(&s), vec![1]);
        assert_eq!(s.shard_count().unwrap(), 1);
        assert!(s.verify(false).unwrap().bad.is_empty());
        s.put_shards(&[([1; 32], &a)]).unwrap();
        assert_eq!(s.get_shards(&keys).unwrap(), vec![Some(a.clone()), None, Some(a)]);
    }

    #[test]
    fn a_size_limit_evicts_the_coldest_shards_with_the_write_that_passes_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cache.redb");
        let r = crate::merge::tests::fake_result(1, 0..10);
        let key = |i: u8| [i; 32];
        let present = |s: &Store, ids: std::ops::Range<u8>| -> Vec<u8> {
            let keys: Vec<ShardKey> = ids.clone().map(key).collect();
            let got = s.get_shards(&keys).unwrap();
            ids.zip(got).filter(|(_, g)| g.is_some()).map(|(i, _)| i).collect()
        };
        // Ten shards written without a limit.
        let mut s = Store::open(&path).unwrap();
        for i in 0..10 {
            s.put_shards(&[(key(i), &r)]).unwrap();
        }
        let record = {
            let mut probe = Store::in_memory().unwrap();
            probe.set_shard_limit(u64::MAX).unwrap();
            probe.put_shards(&[(key(0), &r)]).unwrap();
            probe.shard_bytes().unwrap()
        };
        drop(s);
        // A limit of 5.5 records on reopening: the oldest go, down to 90 % of it (4 records).
        let mut s = Store::open(&path).unwrap();
        let removed = s.set_shard_limit(record * 11 / 2).unwrap();
        assert_eq!(removed, 6);
        assert_eq!(s.shard_count().unwrap(), 4);
        assert_eq!(s.shard_bytes().unwrap(), 4 * record);
        // Untracked shards count in key order: 6 to 9 stay.
        assert_eq!(present(&s, 0..10), vec![6, 7, 8, 9]);
        // Shard 6 is read (a use): the next eviction takes 7 and 8 first.
        assert_eq!(present(&s, 6..7), vec![6]);
        s.put_shards(&[(key(10), &r)]).unwrap();
        assert_eq!(s.shard_count().unwrap(), 5, "under the limit: nothing removed");
        s.put_shards(&[(key(11), &r)]).unwrap();
        assert_eq!(present(&s, 0..12), vec![6, 9, 10, 11]);
        assert!(s.shard_bytes().unwrap() <= record * 11 / 2);
        // Every record left is whole, and the accounting survives reopening.
        assert!(s.verify(false).unwrap().bad.is_empty());
        drop(s);
        let mut s = Store::open(&path).unwrap();
        assert_eq!(s.set_shard_limit(record * 11 / 2).unwrap(), 0);
        assert_eq!(s.shard_bytes().unwrap(), 4 * record);
        assert_eq!(s.get_shards(&[key(6)]).unwrap()[0].as_ref(), Some(&r));
    }

    /// Shards written together share one batch record; the newest write
    /// of a shard is the one read; a batch that fails its checksum is a
    /// miss for each of its shards, and `verify` finds and removes it.
    #[test]
    fn batched_shards_read_back_and_a_corrupted_batch_is_a_miss() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cache.redb");
        let (a, b) = (crate::merge::tests::fake_result(1, 0..10), crate::merge::tests::fake_result(2, 0..5));
        let mut s = Store::open(&path).unwrap();
        s.put_shards(&[([1; 32], &a), ([2; 32], &b), ([3; 32], &a)]).unwrap();
        s.put_shards(&[([3; 32], &b)]).unwrap();
        assert_eq!(s.shard_count().unwrap(), 3);
        // A batch whose shards were all written again goes.
        s.put_shards(&[([5; 32], &a)]).unwrap();
        s.put_shards(&[([5; 32], &b)]).unwrap();
        let batches =
            |s: &Store| s.db.begin_read().unwrap().open_table(SHARD_BATCHES).unwrap().len().unwrap();
        assert_eq!(batches(&s), 3, "batches 0, 1 and 3; 2 is gone");
        s.put_shards(&[([5; 32], &a)]).unwrap();
        assert_eq!(batches(&s), 3);
        s.put_shards(&[([3; 32], &b)]).unwrap();
        assert_eq!(batches(&s), 3, "batch 1 went, 5 came");
        assert_eq!(s.shard_count().unwrap(), 4);
        s.put_shards(&[([3; 32], &b)]).unwrap();
        let keys = [[1; 32], [2; 32], [3; 32], [4; 32]];
        let want = vec![Some(a.clone()), Some(b.clone()), Some(b.clone()), None];
        let keys = [keys[0], keys[1], keys[2], keys[3]];
        assert_eq!(s.get_shards(&keys).unwrap(), want);
        assert!(s.verify(false).unwrap().bad.is_empty());
        drop(s);
        let mut s = Store::open(&path).unwrap();
        assert_eq!(s.get_shards(&keys).unwrap(), want, "after reopening");
        // One byte of the first batch flipped.
        {
            let txn = s.db.begin_write().unwrap();
            {
                let mut t = txn.open_table(SHARD_BATCHES).unwrap();
                let mut v = t.get(0).unwrap().unwrap().value().to_vec();
                let last = v.len() - 1;
                v[last] ^= 1;
                t.insert(0, v.as_slice()).unwrap();
            }
            txn.commit().unwrap();
        }
        assert_eq!(s.get_shards(&keys).unwrap(), vec![None, None, Some(b.clone()), None]);
        let report = s.verify(true).unwrap();
        assert_eq!(report.bad, vec![format!("{BATCHES_NAME}/0")]);
        assert_eq!(s.shard_count().unwrap(), 2, "the index entries of the bad batch went with it");
        assert!(s.verify(false).unwrap().bad.is_empty());
        // Written again, they read back.
        s.put_shards(&[([1; 32], &a)]).unwrap();
        assert_eq!(s.get_shards(&keys[..1]).unwrap(), vec![Some(a)]);
    }

    #[test]
    fn shards_journal_and_llm_survive_reopening() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/cache.redb");
        let r = crate::merge::tests::fake_result(1, 0..3);
        let bundle =
            proto::SweepBundle { sweep_path: "s.yaml".into(), sweep_yaml: "x".into(), ..Default::default() };
        let results = SweepResults {
            name: "s".into(),
            seed: 1,
            party: "a".into(),
            rules_version: "r".into(),
            scenario: "00".into(),
            jobs: vec![],
            llm: LlmDecisions::default(),
            difficulty: None,
            map: String::new(),
            simulated: None,
        };
        let state = JournalState {
            name: "s".into(),
            status: SweepStatus::Running,
            error: String::new(),
            planners: vec![],
            stats: None,
            llm: LlmDecisions::default(),
        };
        let key = CacheKey {
            model: "m".into(),
            sampling: "t=0".into(),
            prompt_version: "1:p:0123456789ab".into(),
            schema_version: 2,
            request_sha256: [9; 32],
        };
        let answer = CachedCompletion {
            text: "answer".into(),
            prompt_tokens: 3,
            completion_tokens: 1,
            usage_estimated: false,
            finish_reason: Some("stop".into()),
        };
        {
            let mut s = Store::open(&path).unwrap();
            s.put_shards(&[([1; 32], &r)]).unwrap();
            assert_eq!(s.create_sweep(&bundle, &state).unwrap(), 1);
            assert_eq!(s.create_sweep(&bundle, &state).unwrap(), 2);
            let mut done = state.clone();
            done.status = SweepStatus::Done;
            s.update_sweep(2, &done, Some(&results)).unwrap();
            s.llm_cache().put(&key, &answer).unwrap();
            s.flush().unwrap();
        }
        let s = Store::open(&path).unwrap();
        assert_eq!(s.get_shards(&[[1; 32], [2; 32]]).unwrap(), vec![Some(r), None]);
        let sweeps = s.sweeps().unwrap();
        assert_eq!(sweeps.len(), 2);
        assert_eq!(sweeps[1].2.status, SweepStatus::Done);
        assert_eq!(s.sweep_results(2).unwrap(), Some(results));
        assert_eq!(s.sweep_results(1).unwrap(), None);
        let cache = s.llm_cache();
        assert_eq!(cache.get(&key).unwrap(), Some(answer));
        assert_eq!(cache.len().unwrap(), 1);
        let mut other = key.clone();
        other.schema_version = 3;
        assert_eq!(cache.get(&other).unwrap(), None);
        drop(cache);
        drop(s);

        // A second opener is told the file is in use; removing a sweep keeps the shards.
        let s = Store::open(&path).unwrap();
        let busy = Store::open(&path).err().expect("one process per file");
        assert!(busy.is_in_use(), "{busy}");
        drop(s);
        let mut s = Store::open(&path).unwrap();
        let removed = s.remove_sweeps(&[1, 7]).unwrap();
        assert_eq!(removed.sweeps, 1);
        assert!(removed.bytes > 0, "{removed:?}");
        assert_eq!(s.sweeps().unwrap().len(), 1);
        assert_eq!(s.shard_count().unwrap(), 1);
    }
}
