//! A completing analysis cell's packed rows (`PackedRuns`, about 10 bytes
//! a run), spilled to its job's spill file ([`crate::spill`]) as its shards
//! arrive instead of held until its last one, and read back shard by shard
//! in run order when it completes. Shards arrive in any order; the rows are
//! read in the order of their runs, so the metrics and outcomes streamed
//! from them are those of the rows merged in memory, bit for bit.
//!
//! What a completing cell then holds in memory is one shard's packed rows
//! at a time (what a shard's result already takes when it arrives) and a
//! chunk of unpacked rows, whatever the runs of the cell. When the spill
//! file cannot be created or written, the rows stay in memory as before
//! (the job's one warning, [`Spill::fail`]); when it cannot be read back,
//! the read error is recorded ([`CellRows::read_error`]) and the sweep
//! fails with it. A leaf but for [`crate::spill`].

use std::sync::{Arc, OnceLock};

use pf1e_engine::objectives::RunRow;
use pf1e_wire::shard::{PackedRuns, ShardResult};

use crate::spill::Spill;

/// Where the packed rows of one shard are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ShardRows {
    /// `len` bytes at `offset` of the job's spill file, `runs` rows.
    File {
        /// Offset of the first byte.
        offset: u64,
        /// Bytes.
        len: usize,
        /// Rows.
        runs: u64,
    },
    /// In memory: the spill failed.
    Memory(PackedRuns),
}

impl ShardRows {
    fn runs(&self) -> u64 {
        match self {
            Self::File { runs, .. } => *runs,
            Self::Memory(p) => p.runs,
        }
    }
}

/// Takes the packed rows out of shard results as they arrive and spills
/// them: one per job, sharing the job's spill file with its planner.
#[derive(Debug, Default)]
pub(crate) struct RowSpill {
    spill: Spill,
}

impl RowSpill {
    /// A spill whose file goes in `dir` (tests).
    #[cfg(test)]
    pub(crate) fn in_dir(dir: std::path::PathBuf) -> Self {
        Self { spill: Spill::in_dir(dir) }
    }

    /// `result` without its packed rows, and where they went: the job's
    /// spill file, or memory when it cannot be written. A result without
    /// packed rows comes back as it is.
    pub(crate) fn take(&mut self, result: Arc<ShardResult>) -> (Arc<ShardResult>, Option<ShardRows>) {
        let Some(packed) = &result.packed else { return (result, None) };
        let (party, runs) = (packed.party, packed.runs);
        let spilled = self.spill.file().and_then(|file| match file.append(&packed.rows) {
            Ok(offset) => Some(ShardRows::File { offset, len: packed.rows.len(), runs }),
            Err(e) => {
                self.spill.fail(&e);
                None
            }
        });
        let (mut stripped, rows) = match Arc::try_unwrap(result) {
            Ok(mut owned) => {
                let rows = owned.packed.take().map(ShardRows::Memory);
                (owned, rows)
            }
            // Shared with other waiters (or the caller): copy all but the rows.
            Err(shared) => {
                let rows = shared.packed.clone().map(ShardRows::Memory);
                (without_rows(&shared), rows)
            }
        };
        stripped.packed = Some(PackedRuns { party, runs, rows: Vec::new() });
        (Arc::new(stripped), spilled.or(rows))
    }

    /// The rows of a cell whose shards' rows are `parts`, in run order.
    pub(crate) fn cell(&self, party: u32, parts: Vec<ShardRows>) -> CellRows {
        CellRows { party, parts, spill: self.spill.clone(), error: OnceLock::new() }
    }
}

/// `r` without its packed rows (`packed: None`).
fn without_rows(r: &ShardResult) -> ShardResult {
    ShardResult {
        summary: r.summary.clone(),
        winner: r.winner.clone(),
        rounds: r.rounds.clone(),
        final_hp: r.final_hp.clone(),
        dead: r.dead.clone(),
        fled: r.fled.clone(),
        sides: r.sides.clone(),
        combatants: r.combatants.clone(),
        days: r.days.clone(),
        day_plays: r.day_plays,
        totals: r.totals.clone(),
        packed: None,
    }
}

/// The packed rows of a completed cell, in run order, wherever its shards'
/// rows went.
#[derive(Debug, Clone)]
pub struct CellRows {
    party: u32,
    parts: Vec<ShardRows>,
    /// The job's spill (its file, or its failure), for the planner to share.
    spill: Spill,
    /// The first read-back failure.
    error: OnceLock<String>,
}

impl PartialEq for CellRows {
    /// The same rows in the same places (tests).
    fn eq(&self, other: &Self) -> bool {
        self.party == other.party && self.parts == other.parts
    }
}

impl Eq for CellRows {}

impl CellRows {
    /// The party's side index.
    pub(crate) fn party(&self) -> u32 {
        self.party
    }

    /// Rows.
    pub(crate) fn runs(&self) -> u64 {
        self.parts.iter().map(ShardRows::runs).sum()
    }

    /// Bytes of packed rows held in memory (0 when every shard's rows are
    /// in the spill file).
    #[cfg(test)]
    pub(crate) fn bytes_in_memory(&self) -> usize {
        self.parts
            .iter()
            .map(|p| match p {
                ShardRows::File { .. } => 0,
                ShardRows::Memory(p) => p.rows.len(),
            })
            .sum()
    }

    /// The job's spill, for its planner's outcomes.
    pub(crate) fn spill(&self) -> &Spill {
        &self.spill
    }

    /// [`PackedRuns::unpack_chunks`] of the cell's rows: `f` gets the rows
    /// of the party and of the other sides by chunks of at most `chunk`
    /// runs, in run order, read back one shard at a time. `None` (after
    /// some chunks maybe) when a shard's bytes are not its rows, or cannot
    /// be read back (then [`read_error`](Self::read_error) says why).
    pub(crate) fn unpack_chunks(&self, chunk: usize, mut f: impl FnMut(&[RunRow], &[RunRow])) -> Option<()> {
        for part in &self.parts {
            match part {
                ShardRows::Memory(p) => p.unpack_chunks(chunk, &mut f)?,
                ShardRows::File { offset, len, runs } => {
                    let read = self.spill.made().map(|file| file.read_at(*offset, *len));
                    let rows = match read {
                        Some(Ok(rows)) => rows,
                        Some(Err(e)) => return self.failed(&e.to_string()),
                        None => return self.failed("the spill file is gone"),
                    };
                    PackedRuns { party: self.party, runs: *runs, rows }.unpack_chunks(chunk, &mut f)?;
                }
            }
        }
        Some(())
    }

    fn failed(&self, error: &str) -> Option<()> {
        let _ = self.error.set(format!("a completing cell's spilled rows cannot be read back: {error}"));
        None
    }

    /// Why the rows could not be read back, if they could not.
    pub(crate) fn read_error(&self) -> Option<&str> {
        self.error.get().map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jobs::metrics::CellMetrics;
    use crate::jobs::runs::RunKeeper;
    use crate::merge::tests::varied_result;
    use crate::merge::{CellFold, CellResult};
    use pf1e_engine::metrics::Confidence;
    use pf1e_engine::objectives::DangerMetrics;

    /// Every figure of `m`, floats as their bits.
    fn bits(m: &DangerMetrics) -> Vec<u64> {
        let pairs = [m.win_band, m.p_survives_ci, m.p_tpk_ci, m.p_any_death_ci];
        let floats = [
            m.p_survives,
            m.p_tpk,
            m.p_any_death,
            m.p_fled,
            m.expected_hp_lost,
            m.hp_lost_sd,
            m.expected_rounds,
            m.worst_decile_hp,
            m.win_rate,
            m.confidence,
            m.hp_lost_se,
            m.rounds_se,
        ];
        [m.runs, m.wins, m.draws]
            .into_iter()
            .chain(floats.iter().map(|f| f.to_bits()))
            .chain(pairs.iter().flat_map(|(a, b)| [a.to_bits(), b.to_bits()]))
            .collect()
    }

    /// The shards of a cell of `runs` runs by `size`, packed as an analysis
    /// cell's shards report them: (first run, result).
    fn shards(runs: u64, size: u64) -> Vec<(u64, ShardResult)> {
        crate::shard::split(runs, size)
            .into_iter()
            .map(|r| (r.start, varied_result(r).into_compact("a", true)))
            .collect()
    }

    /// The cell merged as the scheduler merges it when its shards' rows go
    /// to `spill` as they arrive in the order `order` (indices of
    /// `shards`): the results without rows folded as they come, the rows
    /// put back in run order at the end.
    fn arrive(spill: &mut RowSpill, shards: &[(u64, ShardResult)], order: &[usize], runs: u64) -> CellResult {
        let mut slots: Vec<Option<(Arc<ShardResult>, Option<ShardRows>)>> = vec![None; shards.len()];
        for &i in order {
            // Shared, as a result handed to several waiters is.
            let shared = Arc::new(shards[i].1.clone());
            let _other_waiter = Arc::clone(&shared);
            slots[i] = Some(spill.take(shared));
        }
        let slots: Vec<_> = slots.into_iter().map(Option::unwrap).collect();
        for (result, _) in &slots {
            assert!(result.packed.as_ref().unwrap().rows.is_empty(), "a waiting cell holds no row");
        }
        // Folded as they arrive, as the scheduler does: the merge in run order.
        let mut fold = CellFold::default();
        for &i in order {
            fold.add(&slots[i].0);
        }
        let folded = fold.finish(runs).unwrap();
        let parts: Vec<(u64, &ShardResult)> = order.iter().map(|&i| (shards[i].0, &*slots[i].0)).collect();
        assert_eq!(folded, CellResult::merge(parts, runs).unwrap());
        let rows: Vec<ShardRows> = slots.iter().filter_map(|(_, r)| r.clone()).collect();
        let party = slots[0].0.packed.as_ref().unwrap().party;
        folded.with_rows(spill.cell(party, rows)).unwrap()
    }

    /// A permutation of `0..n` (deterministic, far from sorted).
    fn shuffled(n: usize, salt: u64) -> Vec<usize> {
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| (i as u64 ^ salt).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29));
        order
    }

    /// The metrics and outcomes of a cell whose shards' rows were spilled
    /// as they arrived, in order or shuffled, are those of the rows merged
    /// in memory, bit for bit (over chunk boundaries: 40,000 runs by
    /// shards of 1,000 and of 7,777 runs).
    #[test]
    fn spilled_rows_give_the_in_memory_figures_bit_for_bit_whatever_the_arrival_order() {
        let conf = Confidence::default();
        let runs = 40_000;
        for size in [1_000, 7_777, 40_000] {
            let shards = shards(runs, size);
            let refs: Vec<_> = shards.iter().map(|(s, r)| (*s, r)).collect();
            let memory = CellResult::merge(refs, runs).unwrap();
            assert!(memory.packed_bytes_in_memory() >= 6 * runs as usize);
            let expected = CellMetrics::from_result_kept(&memory, "a", conf, &mut RunKeeper::default());
            let unkept = CellMetrics::from_result(&memory, "a", conf);
            assert_eq!(bits(&expected.party), bits(&unkept.party));
            assert!(expected.party.draws > 0 && expected.party.p_tpk > 0.0);
            let n = shards.len();
            for order in [(0..n).collect::<Vec<_>>(), (0..n).rev().collect(), shuffled(n, 3), shuffled(n, 11)]
            {
                let mut spill = RowSpill::default();
                let merged = arrive(&mut spill, &shards, &order, runs);
                assert_eq!(merged.packed_bytes_in_memory(), 0, "size {size}: every row is on disk");
                let mut keeper = RunKeeper::default();
                let got = CellMetrics::from_result_kept(&merged, "a", conf, &mut keeper);
                assert_eq!(
                    bits(&got.party),
                    bits(&expected.party),
                    "size {size}, order {:?}",
                    &order[..3.min(n)]
                );
                assert_eq!(bits(&got.adversary), bits(&expected.adversary), "size {size}");
                assert_eq!(got.party_runs, expected.party_runs, "size {size}: the outcomes, run by run");
                assert_eq!(got.party_runs.bytes_in_memory(), 0, "the outcomes go to the same file");
                assert_eq!(bits(&CellMetrics::from_result(&merged, "a", conf).party), bits(&expected.party));
                assert_eq!(merged.read_error(), None);
            }
        }
    }

    /// What a completing cell holds of its runs does not grow with them:
    /// at 200 and at 20,000 runs, its shards' results keep no packed row
    /// once their rows are spilled, nor does the merged cell; without a
    /// spill file (a directory that does not exist) they are all in memory
    /// (the count can fail), and the figures are the same, bit for bit.
    #[test]
    fn a_completing_cell_keeps_no_run_in_memory_and_falls_back_to_memory() {
        let conf = Confidence::default();
        let missing = std::env::temp_dir().join("pf1e-no-such-dir").join("spill");
        for runs in [200u64, 20_000] {
            let shards = shards(runs, 100);
            let packed: usize = shards.iter().map(|(_, r)| r.packed.as_ref().unwrap().rows.len()).sum();
            let order = shuffled(shards.len(), 5);
            let mut spilled = RowSpill::default();
            let on_disk = arrive(&mut spilled, &shards, &order, runs);
            assert_eq!(on_disk.packed_bytes_in_memory(), 0, "{runs} runs");
            let mut fallback = RowSpill::in_dir(missing.clone());
            let in_memory = arrive(&mut fallback, &shards, &order, runs);
            assert_eq!(in_memory.packed_bytes_in_memory(), packed, "{runs} runs: the rows stay in memory");
            let a = CellMetrics::from_result_kept(&on_disk, "a", conf, &mut RunKeeper::default());
            let b = CellMetrics::from_result_kept(&in_memory, "a", conf, &mut RunKeeper::default());
            assert_eq!((bits(&a.party), bits(&a.adversary)), (bits(&b.party), bits(&b.adversary)));
            assert_eq!(a.party_runs, b.party_runs);
            // The planner shares the job's failure: its outcomes stay in memory too.
            assert_eq!(b.party_runs.bytes_in_memory(), runs as usize * 11);
            assert_eq!(a.party_runs.bytes_in_memory(), 0);
        }
    }

    /// A spill file that fails to read back leaves the cell's read error
    /// (the sweep fails with it), without a panic.
    #[test]
    fn rows_that_cannot_be_read_back_say_so() {
        let shards = shards(300, 100);
        let mut spill = RowSpill::default();
        let merged = arrive(&mut spill, &shards, &[2, 0, 1], 300);
        spill.spill.made().unwrap().truncate();
        let _ = CellMetrics::from_result_kept(&merged, "a", Confidence::default(), &mut RunKeeper::default());
        let error = merged.read_error().unwrap();
        assert!(error.starts_with("a completing cell's spilled rows cannot be read back"), "{error}");
    }
}
