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
//! report in batches, so the commit rate stays far below the shard rate.

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

const SHARDS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("shard_results");
const LLM: TableDefinition<&[u8], &[u8]> = TableDefinition::new("llm_responses");
const SWEEP_BUNDLES: TableDefinition<u64, &[u8]> = TableDefinition::new("sweep_bundles");
const SWEEP_STATE: TableDefinition<u64, &str> = TableDefinition::new("sweep_state");
/// Results of sweeps finished before results were stored as proto (JSON text, read only).
const SWEEP_RESULTS_JSON: TableDefinition<u64, &str> = TableDefinition::new("sweep_results");
/// Results of finished sweeps: `proto::SweepResults`, so floats come back bit for bit.
const SWEEP_RESULTS: TableDefinition<u64, &[u8]> = TableDefinition::new("sweep_results_pb");
const META: TableDefinition<&str, u64> = TableDefinition::new("meta");

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

/// The redb database.
pub struct Store {
    db: Arc<Database>,
    path: String,
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

impl Store {
    /// Opens (or creates) the database file, creating its directory.
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        let name = path.display().to_string();
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).ctx(&name, "open")?;
        }
        let db = Database::create(path).ctx(&name, "open")?;
        Self::init(db, name)
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
        {
            txn.open_table(SHARDS).ctx(&path, "create tables")?;
            txn.open_table(LLM).ctx(&path, "create tables")?;
            txn.open_table(SWEEP_BUNDLES).ctx(&path, "create tables")?;
            txn.open_table(SWEEP_STATE).ctx(&path, "create tables")?;
            txn.open_table(SWEEP_RESULTS).ctx(&path, "create tables")?;
            txn.open_table(SWEEP_RESULTS_JSON).ctx(&path, "create tables")?;
            txn.open_table(META).ctx(&path, "create tables")?;
        }
        txn.commit().ctx(&path, "create tables")?;
        Ok(Self { db: Arc::new(db), path })
    }

    /// The database's path (for messages).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Looks up many shard results in one read transaction.
    pub fn get_shards(&self, keys: &[ShardKey]) -> Result<Vec<Option<ShardResult>>, StoreError> {
        let p = &self.path;
        let txn = self.db.begin_read().ctx(p, "read shards")?;
        let table = txn.open_table(SHARDS).ctx(p, "read shards")?;
        let mut out = Vec::with_capacity(keys.len());
        for k in keys {
            let v = table.get(k.as_slice()).ctx(p, "read shards")?;
            out.push(match v {
                Some(g) => Some(
                    ShardResult::try_from(proto::ShardResult::decode(g.value()).ctx(p, "read shards")?)
                        .ctx(p, "read shards")?,
                ),
                None => None,
            });
        }
        Ok(out)
    }

    /// Stores shard results, all in one transaction.
    pub fn put_shards(&mut self, results: &[(ShardKey, &ShardResult)]) -> Result<(), StoreError> {
        if results.is_empty() {
            return Ok(());
        }
        let p = self.path.clone();
        let txn = self.db.begin_write().ctx(&p, "write shards")?;
        {
            let mut table = txn.open_table(SHARDS).ctx(&p, "write shards")?;
            for (k, r) in results {
                table
                    .insert(k.as_slice(), proto::ShardResult::from(*r).encode_to_vec().as_slice())
                    .ctx(&p, "write shards")?;
            }
        }
        txn.commit().ctx(&p, "write shards")?;
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

    /// Number of cached shard results.
    pub fn shard_count(&self) -> Result<u64, StoreError> {
        let p = &self.path;
        let txn = self.db.begin_read().ctx(p, "count shards")?;
        txn.open_table(SHARDS).ctx(p, "count shards")?.len().ctx(p, "count shards")
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
            txn.open_table(SWEEP_BUNDLES)
                .ctx(&p, "journal a new sweep")?
                .insert(id, bundle.encode_to_vec().as_slice())
                .ctx(&p, "journal a new sweep")?;
            let json = serde_json::to_string(state).ctx(&p, "journal a new sweep")?;
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
            let json = serde_json::to_string(state).ctx(&p, "journal a sweep")?;
            txn.open_table(SWEEP_STATE)
                .ctx(&p, "journal a sweep")?
                .insert(id, json.as_str())
                .ctx(&p, "journal a sweep")?;
            if let Some(r) = results {
                let bytes = proto::SweepResults::from(r).encode_to_vec();
                txn.open_table(SWEEP_RESULTS)
                    .ctx(&p, "journal a sweep")?
                    .insert(id, bytes.as_slice())
                    .ctx(&p, "journal a sweep")?;
            }
        }
        txn.commit().ctx(&p, "journal a sweep")?;
        Ok(())
    }

    /// Every journaled sweep: id, bundle and state.
    pub fn sweeps(&self) -> Result<Vec<(u64, proto::SweepBundle, JournalState)>, StoreError> {
        let p = &self.path;
        let txn = self.db.begin_read().ctx(p, "read the journal")?;
        let bundles = txn.open_table(SWEEP_BUNDLES).ctx(p, "read the journal")?;
        let states = txn.open_table(SWEEP_STATE).ctx(p, "read the journal")?;
        let mut out = Vec::new();
        for entry in states.iter().ctx(p, "read the journal")? {
            let (k, v) = entry.ctx(p, "read the journal")?;
            let id = k.value();
            let state: JournalState = serde_json::from_str(v.value()).ctx(p, "read the journal")?;
            let bundle = match bundles.get(id).ctx(p, "read the journal")? {
                Some(b) => proto::SweepBundle::decode(b.value()).ctx(p, "read the journal")?,
                None => continue,
            };
            out.push((id, bundle, state));
        }
        Ok(out)
    }

    /// Removes journaled sweeps (bundle, state and results) in one
    /// transaction; returns how many were there. Cached shards stay: they
    /// are keyed by content and serve any sweep.
    pub fn remove_sweeps(&mut self, ids: &[u64]) -> Result<u64, StoreError> {
        let p = self.path.clone();
        let p = &p;
        let txn = self.db.begin_write().ctx(p, "remove sweeps")?;
        let mut removed = 0;
        {
            let mut bundles = txn.open_table(SWEEP_BUNDLES).ctx(p, "remove sweeps")?;
            let mut states = txn.open_table(SWEEP_STATE).ctx(p, "remove sweeps")?;
            let mut results = txn.open_table(SWEEP_RESULTS).ctx(p, "remove sweeps")?;
            let mut results_json = txn.open_table(SWEEP_RESULTS_JSON).ctx(p, "remove sweeps")?;
            for &id in ids {
                let had = states.remove(id).ctx(p, "remove sweeps")?.is_some();
                bundles.remove(id).ctx(p, "remove sweeps")?;
                results.remove(id).ctx(p, "remove sweeps")?;
                results_json.remove(id).ctx(p, "remove sweeps")?;
                removed += u64::from(had);
            }
        }
        txn.commit().ctx(p, "remove sweeps")?;
        Ok(removed)
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
            let message = proto::SweepResults::decode(bytes.value()).ctx(p, "read sweep results")?;
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
        Ok(table.get(key.digest().as_slice()).ctx(p, "read LLM response")?.map(|g| g.value().to_vec()))
    }

    fn write(&self, key: &CacheKey, value: &[u8]) -> Result<(), StoreError> {
        let p = &self.path;
        let txn = self.db.begin_write().ctx(p, "write LLM response")?;
        txn.open_table(LLM)
            .ctx(p, "write LLM response")?
            .insert(key.digest().as_slice(), value)
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

    #[test]
    fn shards_journal_and_llm_survive_reopening() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/cache.redb");
        let r = crate::merge::tests::fake_result(1, 0..3);
        let bundle =
            proto::SweepBundle { sweep_path: "s.yaml".into(), sweep_yaml: "x".into(), files: vec![] };
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
        assert_eq!(s.remove_sweeps(&[1, 7]).unwrap(), 1);
        assert_eq!(s.sweeps().unwrap().len(), 1);
        assert_eq!(s.shard_count().unwrap(), 1);
    }
}
