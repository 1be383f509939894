//! Where a planner keeps the party's per-run outcomes of the cells it
//! compares: in a spill file of its own, not in memory, so what a sweep
//! holds for its paired comparisons does not grow with its runs.
//!
//! Why a file and not running sums: a paired comparison needs, for each
//! pair of cells, the sum of the products of their per-run values, and the
//! planners decide which cells to compare (and emit new ones: a challenger
//! against an incumbent measured long before) only after the first ones
//! are in. The runs of a cell measured earlier must then be read again;
//! the file is where they wait. Reading them back is sequential, by chunks
//! of [`CHUNK`] runs, and the two passes of [`Paired::from_fn`] (the mean,
//! then the spread around it) are made over the same chunks in run order:
//! the figures are those of the per-run vectors, bit for bit.
//!
//! The file is the job's one spill file ([`crate::spill`]), shared with
//! its completing cells' packed rows. When it cannot be created or
//! written, the outcomes stay in memory as before, with one warning: the
//! results are the same either way.

use std::sync::Arc;

use pf1e_engine::metrics::Paired;
use pf1e_engine::objectives::{Criterion, Outcomes};

pub use crate::spill::set_spill_dir;
use crate::spill::{Spill, SpillFile};

/// Runs read back at once: the memory a comparison holds is two chunks
/// (a few hundred KiB), whatever the runs of its cells.
pub const CHUNK: usize = 16_384;

/// Bytes of one run in a spill file: a flag byte (won, survived, TPK) and
/// the hit points lost as 8 bytes, little-endian.
const RECORD: usize = 9;

/// Writes the runs of `o` from byte `offset` of `file` on, by chunks.
fn write_outcomes(file: &SpillFile, offset: u64, o: &Outcomes) -> std::io::Result<()> {
    let mut buf = Vec::with_capacity(CHUNK.min(o.len()) * RECORD);
    for start in (0..o.len()).step_by(CHUNK) {
        buf.clear();
        for i in start..(start + CHUNK).min(o.len()) {
            let flags = u8::from(o.won[i]) | (u8::from(o.survived[i]) << 1) | (u8::from(o.tpk[i]) << 2);
            buf.push(flags);
            buf.extend_from_slice(&o.hp_lost[i].to_le_bytes());
        }
        file.write_at(offset + (start * RECORD) as u64, &buf)?;
    }
    Ok(())
}

/// The runs `range` of the cell at `offset` of `file`.
fn read_outcomes(file: &SpillFile, offset: u64, range: std::ops::Range<usize>) -> std::io::Result<Outcomes> {
    let buf = file.read_at(offset + (range.start * RECORD) as u64, range.len() * RECORD)?;
    let mut o = Outcomes::default();
    for rec in buf.chunks_exact(RECORD) {
        o.won.push(rec[0] & 1 != 0);
        o.survived.push(rec[0] & 2 != 0);
        o.tpk.push(rec[0] & 4 != 0);
        let mut lost = [0u8; 8];
        lost.copy_from_slice(&rec[1..]);
        o.hp_lost.push(i64::from_le_bytes(lost));
    }
    Ok(o)
}

#[derive(Clone, Debug)]
enum Repr {
    Memory(Arc<Held>),
    Spilled { file: Arc<SpillFile>, offset: u64, runs: usize },
}

/// Outcomes held in memory. In tests, the runs held by the live ones are
/// counted per thread ([`runs_in_memory`]): what a planner driven on the
/// test's thread keeps shows there.
#[derive(Debug, Default)]
struct Held(Outcomes);

#[cfg(test)]
thread_local! {
    static HELD: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

impl Held {
    fn new(o: Outcomes) -> Self {
        #[cfg(test)]
        HELD.with(|h| h.set(h.get() + o.len()));
        Self(o)
    }
}

#[cfg(test)]
impl Drop for Held {
    fn drop(&mut self) {
        let _ = HELD.try_with(|h| h.set(h.get() - self.0.len()));
    }
}

/// Runs of per-run outcomes held in memory by the live [`RunOutcomes`]
/// made on this thread (tests only).
#[cfg(test)]
pub(crate) fn runs_in_memory() -> usize {
    HELD.with(std::cell::Cell::get)
}

/// The party's per-run outcomes of one cell, in run order: in memory
/// (tests, a spill that failed) or in its planner's spill file. Cloning
/// shares them.
#[derive(Clone, Debug)]
pub struct RunOutcomes(Repr);

impl Default for RunOutcomes {
    fn default() -> Self {
        Self(Repr::Memory(Arc::new(Held::default())))
    }
}

impl From<Outcomes> for RunOutcomes {
    fn from(o: Outcomes) -> Self {
        Self(Repr::Memory(Arc::new(Held::new(o))))
    }
}

impl PartialEq for RunOutcomes {
    /// The same runs with the same outcomes, wherever they are kept.
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len()
            && (0..self.len()).step_by(CHUNK).all(|s| {
                let r = s..(s + CHUNK).min(self.len());
                self.chunk(r.clone()) == other.chunk(r)
            })
    }
}

impl RunOutcomes {
    /// Runs recorded.
    pub fn len(&self) -> usize {
        match &self.0 {
            Repr::Memory(o) => o.0.len(),
            Repr::Spilled { runs, .. } => *runs,
        }
    }

    /// Whether no run is recorded.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes of per-run data these outcomes hold in memory (0 when spilled).
    pub fn bytes_in_memory(&self) -> usize {
        match &self.0 {
            Repr::Memory(o) => o.0.len() * (3 + std::mem::size_of::<i64>()),
            Repr::Spilled { .. } => 0,
        }
    }

    /// The outcomes of runs `range` (within `0..len`).
    ///
    /// # Panics
    /// When the spill file, written by this process and unlinked, cannot
    /// be read back (an I/O error of the disk): the planner cannot go on
    /// without the runs it compares, and the sweep fails with this message
    /// (`SweepRun::complete` catches it).
    pub fn chunk(&self, range: std::ops::Range<usize>) -> Outcomes {
        match &self.0 {
            Repr::Memory(held) => Outcomes {
                won: held.0.won[range.clone()].to_vec(),
                survived: held.0.survived[range.clone()].to_vec(),
                tpk: held.0.tpk[range.clone()].to_vec(),
                hp_lost: held.0.hp_lost[range].to_vec(),
            },
            Repr::Spilled { file, offset, .. } => match read_outcomes(file, *offset, range) {
                Ok(o) => o,
                Err(e) => panic!("the planner's spill file of per-run outcomes cannot be read back: {e}"),
            },
        }
    }

    /// Calls `f` with the outcomes of the first `n` runs of `self` and of
    /// `other`, chunk by chunk in run order (the same ranges for both).
    pub fn zip_chunks(&self, other: &Self, n: usize, mut f: impl FnMut(&Outcomes, &Outcomes)) {
        for start in (0..n).step_by(CHUNK) {
            let r = start..(start + CHUNK).min(n);
            f(&self.chunk(r.clone()), &other.chunk(r));
        }
    }

    /// Calls `f` with every chunk of the runs, in run order, and the index
    /// of its first run.
    pub fn for_each_chunk(&self, mut f: impl FnMut(usize, &Outcomes)) {
        for start in (0..self.len()).step_by(CHUNK) {
            f(start, &self.chunk(start..(start + CHUNK).min(self.len())));
        }
    }
}

/// The paired differences `value(a, i) − value(b, i)` over the first runs
/// both measured, streamed by chunks: [`Paired::from_fn`]'s two passes
/// (the mean, then the squares around it), each summed in run order, so
/// the result is that of the per-run vectors bit for bit.
pub fn paired(a: &RunOutcomes, b: &RunOutcomes, value: impl Fn(&Outcomes, usize) -> f64) -> Paired {
    let n = a.len().min(b.len());
    if n == 0 {
        return Paired::from_fn(0, |_| 0.0);
    }
    // The same fold as `Iterator::sum` for f64 (its neutral element is −0.0).
    let mut sum = -0.0f64;
    a.zip_chunks(b, n, |x, y| {
        for i in 0..x.len() {
            sum += value(x, i) - value(y, i);
        }
    });
    let mean = sum / n as f64;
    let mut ss = -0.0f64;
    a.zip_chunks(b, n, |x, y| {
        for i in 0..x.len() {
            ss += (value(x, i) - value(y, i) - mean).powi(2);
        }
    });
    let se = if n < 2 { 0.0 } else { (ss / (n - 1) as f64).sqrt() / (n as f64).sqrt() };
    Paired { n: n as u64, mean, se }
}

/// [`paired`] on a criterion's per-run values.
pub fn paired_on(a: &RunOutcomes, b: &RunOutcomes, c: Criterion) -> Paired {
    paired(a, b, |o, i| o.value(c, i))
}

/// Keeps the outcomes of the cells of one planner: in its job's spill
/// file, made when the first cell comes (or shared with the cells' rows,
/// [`RunKeeper::share`]).
#[derive(Debug, Default)]
pub struct RunKeeper {
    spill: Spill,
}

impl RunKeeper {
    /// Writes in `spill`'s file (or keeps in memory when it failed) from
    /// now on, unless this keeper already has a file: the planner's
    /// outcomes go where its job's completing cells spilled their rows,
    /// one file per job.
    pub(crate) fn share(&mut self, spill: &Spill) {
        self.spill.share(spill);
    }

    /// Where `o` is kept from now on.
    pub fn keep(&mut self, o: Outcomes) -> RunOutcomes {
        if o.is_empty() {
            return o.into();
        }
        let Some(file) = self.spill.file() else { return o.into() };
        let offset = file.end();
        match write_outcomes(&file, offset, &o) {
            Ok(()) => {
                file.set_end(offset + (o.len() * RECORD) as u64);
                RunOutcomes(Repr::Spilled { file, offset, runs: o.len() })
            }
            Err(e) => {
                self.spill.fail(&e);
                o.into()
            }
        }
    }

    /// Where the outcomes that `pass` gives, chunk by chunk in run order,
    /// are kept from now on: written to the spill file as they come, so
    /// that the outcomes of many runs are never held at once. `pass` is
    /// called again (to collect them in memory) when the file fails.
    pub fn keep_stream(&mut self, mut pass: impl FnMut(&mut dyn FnMut(&Outcomes))) -> RunOutcomes {
        if let Some(file) = self.spill.file() {
            let offset = file.end();
            let (mut runs, mut error) = (0usize, None);
            pass(&mut |o| {
                if error.is_none() {
                    match write_outcomes(&file, offset + (runs * RECORD) as u64, o) {
                        Ok(()) => runs += o.len(),
                        Err(e) => error = Some(e),
                    }
                }
            });
            match error {
                None => {
                    file.set_end(offset + (runs * RECORD) as u64);
                    return RunOutcomes(Repr::Spilled { file, offset, runs });
                }
                Some(e) => self.spill.fail(&e),
            }
        }
        let mut all = Outcomes::default();
        pass(&mut |o| {
            all.won.extend_from_slice(&o.won);
            all.survived.extend_from_slice(&o.survived);
            all.tpk.extend_from_slice(&o.tpk);
            all.hp_lost.extend_from_slice(&o.hp_lost);
        });
        all.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Outcomes of `n` runs with losses of every size and all flag patterns.
    fn outcomes(n: usize, salt: u64) -> Outcomes {
        let mut o = Outcomes::default();
        for i in 0..n as u64 {
            let h = (i ^ salt).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 20;
            o.won.push(h & 1 != 0);
            o.survived.push(h & 2 != 0);
            o.tpk.push(h & 12 == 12);
            o.hp_lost.push(((h >> 4) % 97) as i64);
        }
        o
    }

    #[test]
    fn spilled_outcomes_read_back_as_written() {
        let mut keeper = RunKeeper::default();
        let a = outcomes(CHUNK * 2 + 17, 1);
        let b = outcomes(5, 2);
        let ka = keeper.keep(a.clone());
        let kb = keeper.keep(b.clone());
        assert!(matches!(ka.0, Repr::Spilled { .. }) && matches!(kb.0, Repr::Spilled { .. }));
        assert_eq!((ka.bytes_in_memory(), kb.bytes_in_memory()), (0, 0));
        assert_eq!(ka.chunk(0..a.len()), a);
        assert_eq!(kb.chunk(0..5), b, "the second cell follows the first in the file");
        assert_eq!(ka, RunOutcomes::from(a.clone()));
        assert_ne!(ka, RunOutcomes::from(outcomes(CHUNK * 2 + 17, 3)));
        assert_eq!(RunOutcomes::from(a).bytes_in_memory(), (CHUNK * 2 + 17) * 11);
    }

    /// What a planner keeps of its cells does not grow with their runs:
    /// driven over cells of 200 and of 20,000 runs, the sensitivity job
    /// (through the metric adapter, as optimize, minmax, danger map and
    /// frontier are) and the contribution job hold no per-run outcome in
    /// memory once a cell is consumed, while the metrics of one cell, not
    /// yet kept, hold its every run (the count can fail).
    #[test]
    fn a_planner_keeps_no_run_in_memory_whatever_the_runs() {
        use crate::jobs::contribution::{Contribution, ContributionJob};
        use crate::jobs::metrics::{CellMetrics, MetricAdapter, testing::ctx};
        use crate::jobs::sensitivity::{Sensitivity, SensitivityJob};
        use crate::merge::{CellResult, tests::fake_result};
        use crate::plan::{Planner, Step};
        use pf1e_engine::metrics::Confidence;
        let cell_result = |c: &crate::cell::CellSpec| {
            // Packed runs, as the shards of an analysis cell send them.
            let r = fake_result(c.seed, 0..c.runs).into_compact("a", true);
            let merged = CellResult::merge(vec![(0, &r)], c.runs).unwrap();
            assert!(merged.winner.is_empty() && merged.packed.is_some());
            merged
        };
        for runs in [200u64, 20_000] {
            let before = runs_in_memory();
            let one = CellMetrics::from_result(
                &cell_result(&ctx().cell(
                    &crate::cell::StrategySpec::default_spec(),
                    &crate::cell::StrategySpec::default_spec(),
                    crate::cell::HpFraction::FULL,
                    crate::cell::HpFraction::FULL,
                    runs,
                )),
                "a",
                Confidence::default(),
            );
            assert_eq!(runs_in_memory() - before, runs as usize, "unkept metrics hold their runs");
            let kept = one.kept(&mut RunKeeper::default());
            assert_eq!(runs_in_memory(), before, "kept metrics hold none");
            drop(kept);
            let strategy = crate::cell::StrategySpec::default_spec();
            let planners: Vec<Box<dyn Planner>> = vec![
                Box::new(MetricAdapter::new(
                    "a",
                    Confidence::default(),
                    Sensitivity::new(
                        ctx(),
                        SensitivityJob {
                            runs,
                            max_total_runs: None,
                            party: strategy.clone(),
                            criterion: Criterion::ExpectedHpLost,
                        },
                    ),
                )),
                Box::new(Contribution::new(
                    ctx(),
                    ContributionJob {
                        runs,
                        max_total_runs: None,
                        party: strategy.clone(),
                        adversary: strategy,
                    },
                )),
            ];
            for mut p in planners {
                let mut consumed = 0;
                loop {
                    match p.step() {
                        Step::Emit(cells) => {
                            for c in cells {
                                assert_eq!(c.runs, runs);
                                p.consume(consumed, &cell_result(&c));
                                consumed += 1;
                                assert_eq!(runs_in_memory(), before, "{}: after cell {consumed}", p.kind());
                            }
                        }
                        Step::Wait => panic!("fed synchronously, {} never waits", p.kind()),
                        Step::Done => break,
                    }
                }
                assert!(consumed >= 3, "{} compared cells", p.kind());
                // Its result reads the runs back (paired comparisons) and keeps none.
                let _ = p.result();
                assert_eq!(runs_in_memory(), before, "{}", p.kind());
            }
        }
    }

    /// The streamed paired statistics are those of the per-run vectors
    /// (`Paired::from_fn`, what the comparisons computed before), bit for
    /// bit, on every criterion, over chunk boundaries and unequal lengths.
    #[test]
    fn streamed_paired_statistics_are_the_per_run_ones_bit_for_bit() {
        let mut keeper = RunKeeper::default();
        for (na, nb) in [(1, 1), (2, 3), (CHUNK - 1, CHUNK), (CHUNK * 3 + 5, CHUNK * 2 + 700), (1000, 0)] {
            let (a, b) = (outcomes(na, 7), outcomes(nb, 8));
            let (sa, sb) = (keeper.keep(a.clone()), keeper.keep(b.clone()));
            let (ma, mb) = (RunOutcomes::from(a.clone()), RunOutcomes::from(b.clone()));
            for c in Criterion::ALL {
                let expected = Paired::from_fn(na.min(nb), |i| a.value(*c, i) - b.value(*c, i));
                for got in [paired_on(&sa, &sb, *c), paired_on(&ma, &mb, *c), paired_on(&sa, &mb, *c)] {
                    assert_eq!(got.n, expected.n);
                    assert_eq!(got.mean.to_bits(), expected.mean.to_bits(), "{c:?} {na}/{nb}");
                    assert_eq!(got.se.to_bits(), expected.se.to_bits(), "{c:?} {na}/{nb}");
                }
            }
        }
    }
}
