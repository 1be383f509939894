//! A job's one spill file: an unlinked file in the spill directory where
//! what the job would otherwise hold per run waits on disk (its completing
//! cells' packed rows, `rows`; its planner's per-run outcomes,
//! `jobs::runs`), so what a sweep holds in memory does not grow with its
//! runs. A leaf: it imports nothing from the rest of the crate.
//!
//! The file is created (unlinked at once, so it is gone with the process)
//! when the job first needs it, in the directory set by [`set_spill_dir`]
//! (the cache database's, or the system's temporary directory). When it
//! cannot be created or written, the job keeps what it spilled in memory
//! from then on, with one warning: the results are the same either way.

use std::io::{Read, Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

static SPILL_DIR: OnceLock<PathBuf> = OnceLock::new();

/// Sets the directory of the jobs' spill files (once per process; later
/// calls are ignored). Without it, the system's temporary directory.
pub fn set_spill_dir(dir: PathBuf) {
    let _ = SPILL_DIR.set(dir);
}

fn spill_dir() -> PathBuf {
    SPILL_DIR.get().cloned().unwrap_or_else(std::env::temp_dir)
}

/// An unlinked file of bytes written one block after the other, with the
/// offset of its end (where the next block goes).
#[derive(Debug)]
pub(crate) struct SpillFile {
    file: Mutex<(std::fs::File, u64)>,
}

impl SpillFile {
    fn lock(&self) -> std::sync::MutexGuard<'_, (std::fs::File, u64)> {
        // A panic while writing leaves at worst a block past `end`, which
        // the next write overwrites: the file stays usable.
        self.file.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Where the next block goes.
    pub(crate) fn end(&self) -> u64 {
        self.lock().1
    }

    /// Marks the bytes up to `end` as written.
    pub(crate) fn set_end(&self, end: u64) {
        self.lock().1 = end;
    }

    /// Writes `bytes` from byte `offset` on.
    pub(crate) fn write_at(&self, offset: u64, bytes: &[u8]) -> std::io::Result<()> {
        let mut guard = self.lock();
        let (file, _) = &mut *guard;
        file.seek(SeekFrom::Start(offset))?;
        file.write_all(bytes)
    }

    /// Appends `bytes`; the offset of their first byte.
    pub(crate) fn append(&self, bytes: &[u8]) -> std::io::Result<u64> {
        let mut guard = self.lock();
        let (file, end) = &mut *guard;
        let offset = *end;
        file.seek(SeekFrom::Start(offset))?;
        file.write_all(bytes)?;
        *end = offset + bytes.len() as u64;
        Ok(offset)
    }

    /// Loses everything written (tests: a disk that fails to read back).
    #[cfg(test)]
    pub(crate) fn truncate(&self) {
        let _ = self.lock().0.set_len(0);
    }

    /// The `len` bytes from byte `offset` on.
    pub(crate) fn read_at(&self, offset: u64, len: usize) -> std::io::Result<Vec<u8>> {
        let mut buf = vec![0u8; len];
        let mut guard = self.lock();
        let (file, _) = &mut *guard;
        file.seek(SeekFrom::Start(offset))?;
        file.read_exact(&mut buf)?;
        Ok(buf)
    }
}

/// A job's spill file, made when first asked for; once it failed, the job
/// keeps everything in memory without trying again. Cloning shares the
/// file (and the failure).
#[derive(Debug, Default, Clone)]
pub(crate) struct Spill {
    file: Option<Arc<SpillFile>>,
    failed: bool,
    /// Another directory than the process's (tests: one that cannot be
    /// written).
    dir: Option<PathBuf>,
}

impl Spill {
    /// A spill whose file goes in `dir` (tests).
    #[cfg(test)]
    pub(crate) fn in_dir(dir: PathBuf) -> Self {
        Self { dir: Some(dir), ..Self::default() }
    }

    /// The file, created on the first call; `None` once the spill failed.
    pub(crate) fn file(&mut self) -> Option<Arc<SpillFile>> {
        if self.failed {
            return None;
        }
        if let Some(f) = &self.file {
            return Some(f.clone());
        }
        let dir = self.dir.clone().unwrap_or_else(spill_dir);
        match tempfile::tempfile_in(&dir) {
            Ok(f) => {
                let f = Arc::new(SpillFile { file: Mutex::new((f, 0)) });
                self.file = Some(f.clone());
                Some(f)
            }
            Err(e) => {
                self.fail(&e);
                None
            }
        }
    }

    /// The file cannot be created or written: from now on the job keeps
    /// what it would spill in memory (the one warning).
    pub(crate) fn fail(&mut self, e: &std::io::Error) {
        if !self.failed {
            self.failed = true;
            let dir = self.dir.clone().unwrap_or_else(spill_dir);
            tracing::warn!(dir = %dir.display(), error = %e,
                "per-run data cannot be spilled to a file: this job keeps it in memory");
        }
    }

    /// Uses `other`'s file, or its failure, when this spill has neither
    /// yet: a job's planner writes in the file its cells' rows came in.
    pub(crate) fn share(&mut self, other: &Spill) {
        if self.file.is_none() && !self.failed {
            self.file.clone_from(&other.file);
            self.failed = other.failed;
        }
    }

    /// The file, if it was made (even if a later write failed: what was
    /// written before can still be read).
    pub(crate) fn made(&self) -> Option<&Arc<SpillFile>> {
        self.file.as_ref()
    }
}
