//! A running sweep: its planners, the cells they asked for, the shard slots
//! of each cell, its counters, and its results once every planner is done.
//! Pure bookkeeping: the scheduler does the storage and the queueing.

use std::ops::Range;
use std::sync::Arc;

use pf1e_wire::canon::hex;
use pf1e_wire::results::{CellReport, JobReport, JobResult, SweepResults};
use pf1e_wire::shard::{ShardKey, ShardResult, ShardSpec};
use pf1e_wire::status::{FinishedCell, Stats, SweepInfo, SweepStatus};

use crate::cell::CellSpec;
use crate::merge::{CellFold, MergeError};
use crate::plan::{Planner, Step};
use crate::rows::{RowSpill, ShardRows};
use crate::shard::{Report, shard_key, shard_spec, split};
use crate::store::JournalState;
use crate::sweep::Sweep;

struct ShardSlot {
    range: Range<u64>,
    key: ShardKey,
    /// Whether its result is in (folded into its cell's).
    filled: bool,
    /// Where its packed rows went (the job's spill file, or memory).
    rows: Option<ShardRows>,
}

struct CellRun {
    spec: CellSpec,
    /// Its shard slots, in run order, until it completes.
    shards: Vec<ShardSlot>,
    remaining: usize,
    /// Its shards merged as they arrive: totals summed, a day cell's days
    /// tallied (so it holds no day record but those of the shard in hand).
    fold: CellFold,
    /// Its report once complete: a fixed size whatever its runs (the
    /// merged per-run rows go to its planner, then are dropped).
    done: Option<CellReport>,
    /// What its shards report.
    report: Report,
}

struct JobRun {
    planner: Box<dyn Planner>,
    /// Its cells' packed rows, spilled as their shards arrive (the job's
    /// spill file, shared with its planner).
    rows: RowSpill,
    cells: Vec<CellRun>,
    done: bool,
}

/// Where a shard slot is: job, cell and shard indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Slot {
    pub job: usize,
    pub cell: usize,
    pub shard: usize,
}

/// What the planners of a sweep did when stepped.
pub(super) enum Planned {
    /// They asked for these new cells: (job, cell).
    Cells(Vec<(usize, usize)>),
    /// They wait for results.
    Waiting,
    /// Every one is done.
    Finished,
}

/// A sweep being measured (or just finished, until the process ends).
pub(super) struct SweepRun {
    sweep: Sweep,
    status: SweepStatus,
    error: String,
    jobs: Vec<JobRun>,
    /// Counters (queued and leased are the queue's, filled in when asked).
    stats: Stats,
    /// Reports of the cells in the order they finished.
    finished: Vec<FinishedCell>,
    results: Option<Arc<SweepResults>>,
}

impl SweepRun {
    /// A sweep about to be planned.
    pub fn new(sweep: Sweep) -> Self {
        let ctx = sweep.job_context();
        let runs_worst_case = crate::jobs::registry::planned_runs(&sweep.jobs);
        let jobs = sweep
            .jobs
            .iter()
            .map(|j| JobRun {
                planner: j.planner(&ctx),
                rows: RowSpill::default(),
                cells: Vec::new(),
                done: false,
            })
            .collect();
        Self {
            sweep,
            status: SweepStatus::Running,
            error: String::new(),
            jobs,
            stats: Stats { runs_worst_case, ..Stats::default() },
            finished: Vec::new(),
            results: None,
        }
    }

    /// Where it is in its lifecycle.
    pub fn status(&self) -> SweepStatus {
        self.status
    }

    /// The sweep it runs.
    pub fn sweep(&self) -> &Sweep {
        &self.sweep
    }

    /// Steps every unfinished planner once; new cells get their shard slots.
    pub fn plan(&mut self) -> Planned {
        let scenario = self.sweep.scenario.hash;
        let shard_size = self.sweep.shard_size;
        let mut new_cells = Vec::new();
        let mut all_done = true;
        for (j, job) in self.jobs.iter_mut().enumerate() {
            if job.done {
                continue;
            }
            let needs_runs = job.planner.needs_runs();
            match job.planner.step() {
                Step::Emit(cells) => {
                    all_done = false;
                    for spec in cells {
                        let report = Report::of(needs_runs, spec.day.is_some());
                        let shards: Vec<ShardSlot> = split(spec.runs, shard_size)
                            .into_iter()
                            .map(|range| ShardSlot {
                                key: shard_key(&scenario, &spec, &range, report),
                                range,
                                filled: false,
                                rows: None,
                            })
                            .collect();
                        self.stats.shards_total += shards.len() as u64;
                        self.stats.cells_total += 1;
                        self.stats.runs_total += spec.runs;
                        new_cells.push((j, job.cells.len()));
                        job.cells.push(CellRun {
                            remaining: shards.len(),
                            shards,
                            spec,
                            fold: CellFold::default(),
                            done: None,
                            report,
                        });
                    }
                }
                Step::Wait => all_done = false,
                Step::Done => job.done = true,
            }
        }
        match (new_cells.is_empty(), all_done) {
            (false, _) => Planned::Cells(new_cells),
            (true, true) => Planned::Finished,
            (true, false) => Planned::Waiting,
        }
    }

    /// The shard slots of `cells` and their content keys.
    pub fn slots(&self, cells: &[(usize, usize)]) -> Vec<(Slot, ShardKey)> {
        let mut out = Vec::new();
        for &(job, cell) in cells {
            for (shard, s) in self.jobs[job].cells[cell].shards.iter().enumerate() {
                out.push((Slot { job, cell, shard }, s.key));
            }
        }
        out
    }

    /// What a slot's shard asks a worker to play.
    pub fn shard_spec(&self, slot: Slot) -> ShardSpec {
        let cell = &self.jobs[slot.job].cells[slot.cell];
        shard_spec(&self.sweep.scenario.hash, &cell.spec, &cell.shards[slot.shard].range, cell.report)
    }

    /// Puts a shard result in its slot (once); true when that completes the cell.
    /// An analysis cell's shard gives its packed rows to the job's spill
    /// file at once, and a shard of totals its sums to its cell's fold: a
    /// cell waiting for its last shard holds none of its runs' rows, and
    /// one shard result's size of totals, whatever its runs.
    fn fill(&mut self, slot: Slot, result: Arc<ShardResult>) -> bool {
        let job = &mut self.jobs[slot.job];
        let cell = &mut job.cells[slot.cell];
        // A complete cell has no slot left: nothing waits for its shards.
        let Some(s) = cell.shards.get_mut(slot.shard) else { return false };
        if s.filled {
            return false;
        }
        s.filled = true;
        self.stats.runs_done += s.range.end - s.range.start;
        let (result, rows) = if cell.report.packed { job.rows.take(result) } else { (result, None) };
        s.rows = rows;
        cell.fold.add(&result);
        cell.remaining -= 1;
        cell.remaining == 0
    }

    /// Records where the sweep ended in the fair share (`Stats::leases_at_end`).
    pub fn set_leases_at_end(&mut self, leases: u64) {
        self.stats.leases_at_end = leases;
    }

    /// A slot served from the cache; true when that completes the cell.
    pub fn fill_from_cache(&mut self, slot: Slot, result: Arc<ShardResult>) -> bool {
        self.stats.shards_from_cache += 1;
        self.fill(slot, result)
    }

    /// A slot computed by a worker; true when that completes the cell.
    pub fn fill_computed(&mut self, slot: Slot, result: Arc<ShardResult>) -> bool {
        self.stats.shards_computed += 1;
        self.fill(slot, result)
    }

    /// Finishes a complete cell's fold and hands the result to its planner.
    pub fn complete(&mut self, job: usize, cell: usize) -> Result<(), MergeError> {
        let run = &mut self.jobs[job];
        let c = &mut run.cells[cell];
        let mut result = std::mem::take(&mut c.fold).finish(c.spec.runs)?;
        // The slots are in run order: so are their rows.
        let rows: Vec<ShardRows> = c.shards.iter_mut().filter_map(|s| s.rows.take()).collect();
        if let Some(party) = result.packed.as_ref().map(|p| p.party).filter(|_| !rows.is_empty()) {
            result = result.with_rows(run.rows.cell(party, rows))?;
        }
        let report = result.report(cell, &c.spec);
        self.finished.push(FinishedCell { job, cell: report.clone() });
        // A planner that cannot go on (its spill file unreadable) fails
        // this sweep, never the coordinator.
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run.planner.consume(cell, &result)))
            .map_err(|panic| MergeError::Planner(super::panic_text(panic.as_ref())))?;
        if let Some(e) = result.read_error() {
            return Err(MergeError::Spill(e.to_string()));
        }
        c.done = Some(report);
        // Its slots too: a sweep's cells done keep their report only, not a
        // place per shard (about 100 bytes each) for the sweep's life.
        c.shards = Vec::new();
        self.stats.cells_done += 1;
        Ok(())
    }

    /// Its journal record.
    pub fn journal_state(&self) -> JournalState {
        JournalState {
            name: self.sweep.name.clone(),
            status: self.status,
            error: self.error.clone(),
            planners: self.jobs.iter().map(|j| j.planner.state()).collect(),
            stats: Some(self.stats),
            llm: self.sweep.llm.clone(),
        }
    }

    /// Marks it done with its results (every planner is done, so every cell is measured).
    pub fn finish(&mut self) -> Arc<SweepResults> {
        let jobs = self
            .jobs
            .iter()
            .map(|job| JobReport {
                result: job.planner.result(),
                cells: job.cells.iter().filter_map(|c| c.done.clone()).collect(),
            })
            .collect();
        let sweep = &self.sweep;
        // By the book, from the party's side: the same encounter every cell varies.
        let encounter = sweep.scenario.encounter().ok();
        // A design sweep's scenario holds the whole pool: its difficulty is each
        // candidate's; a day's scenario is only its first fight.
        let design =
            sweep.jobs.iter().any(|j| matches!(j, crate::jobs::Job::Design(_) | crate::jobs::Job::Day(_)));
        let difficulty = encounter.as_ref().filter(|_| !design).and_then(|e| {
            let party = e.sides.iter().position(|s| *s == sweep.party)?;
            pf1e_engine::difficulty::assess(e, party)
        });
        let map = encounter.as_ref().map(|e| e.map.name.clone()).unwrap_or_default();
        let mut results = SweepResults {
            name: sweep.name.clone(),
            seed: sweep.seed,
            party: sweep.party.clone(),
            rules_version: pf1e_engine::RULES_VERSION.to_string(),
            scenario: hex(&sweep.scenario.hash),
            jobs,
            llm: sweep.llm.clone(),
            difficulty,
            map,
            simulated: None,
        };
        results.simulated = results.measure_baseline();
        let results = Arc::new(results);
        self.status = SweepStatus::Done;
        self.results = Some(Arc::clone(&results));
        // Its cells (specs, shard slots) are in the results now: only
        // the planners (progress) and the finished cells (watchers) stay.
        for job in &mut self.jobs {
            job.cells = Vec::new();
        }
        results
    }

    /// Stops it (failed or cancelled), unless it had already ended.
    pub fn stop(&mut self, status: SweepStatus, error: String) {
        if !self.status.is_terminal() {
            self.status = status;
            self.error = error;
        }
    }

    /// Its state; `stats` carries the queue's counts.
    pub fn info(&self, id: u64, (queued, leased): (u64, u64), with_results: bool) -> SweepInfo {
        SweepInfo {
            id,
            name: self.sweep.name.clone(),
            status: self.status,
            stats: Stats { shards_queued: queued, shards_leased: leased, ..self.stats },
            error: self.error.clone(),
            results: if with_results { self.results.clone() } else { None },
            progress: self.jobs.iter().filter_map(|j| j.planner.progress()).collect(),
        }
    }

    /// Every job's result so far, in the order of the sweep file (live views).
    pub fn job_results(&self) -> Vec<JobResult> {
        self.jobs.iter().map(|j| j.planner.result()).collect()
    }

    /// The cells finished after the first `from`.
    pub fn finished_cells(&self, from: usize) -> Vec<FinishedCell> {
        self.finished.get(from..).unwrap_or_default().to_vec()
    }
}
