//! Exact merging of shard results into cell results, and their reports.

use pf1e_engine::day::tally::DayTally;
use pf1e_engine::summary::Summary;
use pf1e_wire::results::{CellReport, CombatantReport, HpLost};
use pf1e_wire::shard::{PackedRuns, ShardResult};

use crate::cell::CellSpec;
use crate::rows::CellRows;
use crate::spill::Spill;
use pf1e_engine::objectives::RunRow;

/// The merged result of a cell: the [`ShardResult`] of all its runs (the
/// same integer sums and per-run records, its shards appended in run
/// order, or their totals summed when its shards reported totals), built
/// only by [`CellResult::merge`]. It reads as that shard result, but for
/// packed rows spilled as its shards arrived (the second field, then the
/// first's `packed` has no rows): [`CellResult::packed_chunks`] reads them
/// wherever they are; and for a day cell's days, tallied as its shards
/// arrive and their records dropped (the third field, then the first's
/// `days` is empty): [`CellResult::day_tally`] reads them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CellResult(pub(crate) ShardResult, pub(crate) Option<CellRows>, pub(crate) Option<DayTally>);

#[cfg(test)]
impl CellResult {
    /// A cell of per-run records between sides `a` and `b`, each run
    /// `rounds` long (the planners' tests build their cells with it).
    pub(crate) fn of_records(
        summary: Summary,
        winner: Vec<i32>,
        rounds: u32,
        final_hp: Vec<i32>,
        dead: Vec<bool>,
        combatants: Vec<pf1e_wire::shard::CombatantInfo>,
    ) -> Self {
        CellResult(
            ShardResult {
                summary,
                rounds: vec![rounds; winner.len()],
                winner,
                final_hp,
                dead,
                fled: Vec::new(),
                sides: vec!["a".into(), "b".into()],
                combatants,
                days: Vec::new(),
                day_plays: 0,
                totals: None,
                packed: None,
            },
            None,
            None,
        )
    }
}

impl std::ops::Deref for CellResult {
    type Target = ShardResult;

    fn deref(&self) -> &ShardResult {
        &self.0
    }
}

/// Why shard results do not form a cell (a bug or a corrupt cache: the
/// sweep fails with this message).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    /// No shard result at all.
    #[error("cannot merge shard results: no shard")]
    NoShard,
    /// The run ranges leave a gap or overlap.
    #[error("cannot merge shard results: expected a shard starting at run {expected}, got {got}")]
    Gap {
        /// The next run the merge needed.
        expected: u64,
        /// Where the next shard starts.
        got: u64,
    },
    /// Two shards describe different encounters.
    #[error("cannot merge shard results: shards disagree on the encounter")]
    Encounter,
    /// The planner failed reading the merged cell (it panicked: a spill
    /// file of per-run outcomes that cannot be read back).
    #[error("planning failed: {0}")]
    Planner(String),
    /// The cell's packed rows, spilled as its shards arrived, cannot be
    /// read back (the disk failed).
    #[error("{0}")]
    Spill(String),
    /// The shards do not cover the cell's runs.
    #[error("cannot merge shard results: shards cover {covered} runs of {runs}")]
    Coverage {
        /// Runs covered.
        covered: u64,
        /// Runs of the cell.
        runs: u64,
    },
}

/// A cell's result before its first shard: `first`'s encounter, no run.
fn empty_like(first: &ShardResult) -> ShardResult {
    ShardResult {
        summary: Summary::new(first.sides.len(), first.combatants.len()),
        winner: Vec::new(),
        rounds: Vec::new(),
        final_hp: Vec::new(),
        dead: Vec::new(),
        fled: Vec::new(),
        sides: first.sides.clone(),
        combatants: first.combatants.clone(),
        days: Vec::new(),
        day_plays: first.day_plays,
        totals: first.totals.as_ref().map(|_| Default::default()),
        packed: first.packed.as_ref().map(|p| PackedRuns { party: p.party, ..Default::default() }),
    }
}

/// Whether `r` is a shard of the same encounter, reporting the same way.
fn same_encounter(out: &ShardResult, r: &ShardResult) -> bool {
    r.sides == out.sides
        && r.day_plays == out.day_plays
        && r.combatants == out.combatants
        && r.totals.is_some() == out.totals.is_some()
        && r.packed.as_ref().map(|p| p.party) == out.packed.as_ref().map(|p| p.party)
}

/// Adds the runs of `r`, which follow those of `out` (a day shard's days
/// to `days`, not to `out`: a cell keeps their tally, not their records).
fn absorb(out: &mut ShardResult, days: &mut Option<DayTally>, r: &ShardResult) {
    if let (Some(total), Some(t)) = (out.totals.as_mut(), r.totals.as_ref()) {
        total.merge(t);
    }
    if let (Some(rows), Some(p)) = (out.packed.as_mut(), r.packed.as_ref()) {
        rows.append(p);
    }
    out.summary.merge(&r.summary);
    out.winner.extend_from_slice(&r.winner);
    out.rounds.extend_from_slice(&r.rounds);
    // Who fled: a table only where some shard has one (the others' runs: nobody).
    if !r.fled.is_empty() || !out.fled.is_empty() {
        out.fled.resize(out.final_hp.len(), false);
        out.fled.extend_from_slice(&r.fled);
        out.fled.resize(out.final_hp.len() + r.final_hp.len(), false);
    }
    out.final_hp.extend_from_slice(&r.final_hp);
    out.dead.extend_from_slice(&r.dead);
    if r.is_days() {
        days.get_or_insert_with(DayTally::default).add_runs(&r.days, r.day_plays.max(1) as usize);
    }
}

/// The merge of a cell's shards of totals (no per-run record; their packed
/// rows taken out, `rows::RowSpill::take`), or of a day cell's shards (their
/// days tallied), as they arrive, in any order: what they add are integer
/// sums, so the result is [`CellResult::merge`]'s whatever the order, and
/// what a cell waiting for its last shard holds is one shard result's
/// size, whatever its runs. The caller gives each shard once (its slots
/// tile the cell's runs).
#[derive(Debug, Default)]
pub(crate) struct CellFold {
    acc: Option<ShardResult>,
    days: Option<DayTally>,
    covered: u64,
    /// The first shard that did not fit (the cell fails with it when complete).
    error: Option<MergeError>,
}

impl CellFold {
    /// Adds a shard's totals.
    pub(crate) fn add(&mut self, r: &ShardResult) {
        if self.error.is_some() {
            return;
        }
        let acc = self.acc.get_or_insert_with(|| empty_like(r));
        let records = !(r.winner.is_empty()
            && r.rounds.is_empty()
            && r.final_hp.is_empty()
            && r.dead.is_empty()
            && r.fled.is_empty()
            && r.packed.as_ref().is_none_or(|p| p.rows.is_empty()));
        // Per-run records (or rows) would need the run order: a shard of
        // totals has none (`ShardResult::check` refuses them). A day
        // shard's days are tallied, which needs no order, and its cell
        // folds only day shards.
        let fits = if r.is_days() {
            r.totals.is_none() && (self.covered == 0 || self.days.is_some())
        } else {
            r.totals.is_some() && self.days.is_none()
        };
        if records || !fits || !same_encounter(acc, r) {
            self.error = Some(MergeError::Encounter);
            return;
        }
        absorb(acc, &mut self.days, r);
        self.covered += r.runs();
    }

    /// The cell's result once every shard of its `runs` runs is in.
    pub(crate) fn finish(self, runs: u64) -> Result<CellResult, MergeError> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let Some(out) = self.acc else { return Err(MergeError::NoShard) };
        if self.covered != runs || out.summary.runs != runs {
            return Err(MergeError::Coverage { covered: self.covered, runs });
        }
        Ok(CellResult(out, None, self.days))
    }
}

impl CellResult {
    /// Merges the shard results of a cell, given with their first run index.
    /// Shards are ordered by run range first, so the result does not depend
    /// on arrival order; ranges must tile `0..runs` exactly.
    pub fn merge(mut parts: Vec<(u64, &ShardResult)>, runs: u64) -> Result<Self, MergeError> {
        parts.sort_by_key(|(start, _)| *start);
        let Some((_, first)) = parts.first() else {
            return Err(MergeError::NoShard);
        };
        let mut out = empty_like(first);
        let mut days = None;
        let mut next = 0u64;
        for (start, r) in &parts {
            if *start != next {
                return Err(MergeError::Gap { expected: next, got: *start });
            }
            if !same_encounter(&out, r) {
                return Err(MergeError::Encounter);
            }
            // Days and battles do not mix in one cell.
            if next > 0 && r.is_days() != days.is_some() {
                return Err(MergeError::Encounter);
            }
            absorb(&mut out, &mut days, r);
            next += r.runs();
        }
        if next != runs || out.summary.runs != runs {
            return Err(MergeError::Coverage { covered: next, runs });
        }
        Ok(CellResult(out, None, days))
    }

    /// This merged result with its packed rows in `rows` (in run order):
    /// for a cell whose shards' rows were taken out as they arrived
    /// (`rows::RowSpill::take`), so that its merged `packed` has none. They
    /// must cover its runs, for the same party.
    pub(crate) fn with_rows(mut self, rows: CellRows) -> Result<Self, MergeError> {
        match &self.0.packed {
            Some(p) if p.party == rows.party() && p.rows.is_empty() => {}
            _ => return Err(MergeError::Encounter),
        }
        if rows.runs() != self.0.summary.runs {
            return Err(MergeError::Coverage { covered: rows.runs(), runs: self.0.summary.runs });
        }
        self.1 = Some(rows);
        Ok(self)
    }

    /// Calls `f` with the packed rows of the party (side `party`) and of
    /// the other sides by chunks of at most `chunk` runs, in run order,
    /// wherever they are (merged in memory, or spilled and read back one
    /// shard at a time). `None` when the cell has no packed rows for that
    /// party, or they do not unpack or cannot be read back
    /// ([`read_error`](Self::read_error) says which).
    pub(crate) fn packed_chunks(
        &self,
        party: usize,
        chunk: usize,
        f: impl FnMut(&[RunRow], &[RunRow]),
    ) -> Option<()> {
        if let Some(rows) = &self.1 {
            return if rows.party() as usize == party { rows.unpack_chunks(chunk, f) } else { None };
        }
        self.0.packed.as_ref().filter(|p| p.party as usize == party)?.unpack_chunks(chunk, f)
    }

    /// The rows of the party (side `party`) and of the other sides, run by
    /// run: `ShardResult::run_rows`, spilled rows read back.
    pub fn rows_of(&self, party: usize) -> (Vec<RunRow>, Vec<RunRow>) {
        if self.1.is_some() {
            let (mut ours, mut theirs) = (Vec::new(), Vec::new());
            // Every row is collected anyway: a chunk is a shard's.
            let read = self.packed_chunks(party, usize::MAX, |o, t| {
                ours.extend_from_slice(o);
                theirs.extend_from_slice(t);
            });
            if read.is_some() {
                return (ours, theirs);
            }
        }
        self.0.run_rows(party)
    }

    /// Why its spilled rows could not be read back, if they could not.
    pub(crate) fn read_error(&self) -> Option<&str> {
        self.1.as_ref().and_then(CellRows::read_error)
    }

    /// Its job's spill, when its rows were spilled (its planner writes its
    /// outcomes in the same file).
    pub(crate) fn spill(&self) -> Option<&Spill> {
        self.1.as_ref().map(CellRows::spill)
    }

    /// Bytes of packed rows it holds in memory: the merged ones, or those
    /// of shards whose spill failed.
    #[cfg(test)]
    pub(crate) fn packed_bytes_in_memory(&self) -> usize {
        self.1.as_ref().map_or(0, CellRows::bytes_in_memory)
            + self.0.packed.as_ref().map_or(0, |p| p.rows.len())
    }

    /// Whether its runs are days: [`ShardResult::is_days`] of the merged
    /// cell, whose days are in its tally, not in its `days`.
    pub fn is_days(&self) -> bool {
        self.2.is_some()
    }

    /// A day cell's days, every play tallied (`None` for a battle cell).
    pub fn day_tally(&self) -> Option<&DayTally> {
        self.2.as_ref()
    }

    /// The report of a day cell (its day as written, not its plans): a day
    /// counts as a win when completed;
    /// deaths, members down and hit points lost are the party's at the end
    /// of the day (against its hit points as it entered its first fight);
    /// rounds are the day's.
    fn day_report(&self, index: usize, cell: &CellSpec, days: &DayTally) -> CellReport {
        let runs = self.summary.runs;
        let none = Default::default();
        let t = days.plays.first().unwrap_or(&none);
        let completed = t.completed;
        let (lo, hi) = pf1e_engine::metrics::win_rate_band(completed, runs);
        let per_run = |x: f64| if runs == 0 { 0.0 } else { x / runs as f64 };
        CellReport {
            index: index as u64,
            party_strategy: cell.party_strategy.as_str().to_string(),
            adversary_strategy: cell.adversary_strategy.as_str().to_string(),
            hp: cell.hp.iter().map(|(s, f)| (s.clone(), f.as_f64())).collect(),
            seed: cell.seed,
            runs,
            wins: [(cell.party.clone(), completed)].into_iter().collect(),
            draws: 0,
            party_win_rate: pf1e_engine::metrics::win_rate(completed, runs),
            party_win_band: [lo, hi],
            party_all_down_rate: per_run(t.all_down as f64),
            party_death_rate: per_run(t.some_death as f64),
            // A day's withdrawals between fights are the day report's own (`DayEnd::Fled`).
            party_fled_rate: 0.0,
            mean_rounds: per_run(t.rounds() as f64),
            party_hp_lost: HpLost {
                mean: per_run(t.hp_lost_sum() as f64),
                p50: t.hp_lost_quantile(50),
                p90: t.hp_lost_quantile(90),
                max: t.hp_lost_max(),
            },
            combatants: Vec::new(),
        }
    }

    /// The report of the cell (part of the job's results).
    pub fn report(&self, index: usize, cell: &CellSpec) -> CellReport {
        if let Some(days) = self.day_tally() {
            return self.day_report(index, cell, days);
        }
        let runs = self.summary.runs;
        let party = self.sides.iter().position(|s| s == &cell.party).unwrap_or(0);
        let party_wins = self.summary.wins.get(party).copied().unwrap_or(0);
        let (lo, hi) = pf1e_engine::metrics::win_rate_band(party_wins, runs);
        // The same totals whether the shards reported runs or their totals.
        let totals = self.totals(party);
        let per_run = |x: f64| if runs == 0 { 0.0 } else { x / runs as f64 };
        CellReport {
            index: index as u64,
            party_strategy: cell.party_strategy.as_str().to_string(),
            adversary_strategy: cell.adversary_strategy.as_str().to_string(),
            hp: cell.hp.iter().map(|(s, f)| (s.clone(), f.as_f64())).collect(),
            seed: cell.seed,
            runs,
            wins: self.sides.iter().cloned().zip(self.summary.wins.iter().copied()).collect(),
            draws: self.summary.draws,
            party_win_rate: pf1e_engine::metrics::win_rate(party_wins, runs),
            party_win_band: [lo, hi],
            party_all_down_rate: per_run(totals.party_all_down as f64),
            party_death_rate: per_run(totals.party_deaths as f64),
            party_fled_rate: per_run(totals.party_fled as f64),
            mean_rounds: per_run(self.summary.rounds as f64),
            party_hp_lost: HpLost {
                mean: per_run(totals.hp_lost_sum() as f64),
                p50: totals.hp_lost_quantile(50),
                p90: totals.hp_lost_quantile(90),
                max: totals.hp_lost_max(),
            },
            combatants: self
                .combatants
                .iter()
                .zip(&self.summary.combatants)
                .enumerate()
                .map(|(i, (c, t))| {
                    let hp_sum = totals.final_hp.get(i).copied().unwrap_or(0);
                    CombatantReport {
                        id: c.id.clone(),
                        side: self.sides.get(c.side).cloned().unwrap_or_default(),
                        hp_max: c.hp_max,
                        start_hp: c.start_hp,
                        mean_final_hp: per_run(hp_sum as f64),
                        deaths: t.deaths,
                        hits: t.hits,
                        crits: t.crits,
                        damage_dealt: t.damage_dealt,
                        damage_taken: t.damage_taken,
                        healing_given: t.healing_given,
                        slots_spent: t.slots_spent,
                        uses_spent: t.uses_spent,
                        items_spent: t.items_spent,
                    }
                })
                .collect(),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use pf1e_wire::shard::CombatantInfo;

    /// A fake shard result: run `i` is won by side `(seed + i) % 2`, lasts `i % 5 + 1` rounds.
    pub(crate) fn fake_result(seed: u64, range: std::ops::Range<u64>) -> ShardResult {
        let mut r = ShardResult {
            summary: Summary::new(2, 2),
            winner: Vec::new(),
            rounds: Vec::new(),
            final_hp: Vec::new(),
            dead: Vec::new(),
            fled: Vec::new(),
            sides: vec!["a".into(), "b".into()],
            combatants: vec![
                CombatantInfo { id: "x".into(), side: 0, hp_max: 10, start_hp: 10 },
                CombatantInfo { id: "y".into(), side: 1, hp_max: 8, start_hp: 8 },
            ],
            days: Vec::new(),
            day_plays: 0,
            totals: None,
            packed: None,
        };
        for i in range {
            let w = ((seed + i) % 2) as u32;
            let o = pf1e_engine::combat::RunOutcome {
                winner: Some(w),
                rounds: (i % 5 + 1) as u32,
                combatants: vec![
                    pf1e_engine::combat::CombatantOutcome {
                        final_hp: if w == 0 { 3 } else { -1 },
                        dead: w == 1,
                        damage_taken: (i % 7) as u32,
                        ..Default::default()
                    },
                    pf1e_engine::combat::CombatantOutcome {
                        final_hp: if w == 1 { 2 } else { 0 },
                        dead: w == 0,
                        ..Default::default()
                    },
                ],
                summons: Vec::new(),
            };
            r.summary.add(&o);
            r.winner.push(w as i32);
            r.rounds.push(o.rounds);
            r.final_hp.extend(o.combatants.iter().map(|c| c.final_hp));
            r.dead.extend(o.combatants.iter().map(|c| c.dead));
        }
        r
    }

    /// A battle cell of side "a" against "b", seed 5.
    fn cell_of(runs: u64) -> crate::cell::CellSpec {
        crate::cell::CellSpec {
            hp: Default::default(),
            party: "a".into(),
            party_strategy: crate::cell::StrategySpec::default_spec(),
            adversary_strategy: crate::cell::StrategySpec::default_spec(),
            seed: 5,
            runs,
            extra: Default::default(),
            day: None,
        }
    }

    #[test]
    fn merge_is_exact_whatever_the_sharding_and_order() {
        let whole = fake_result(5, 0..20);
        let reference = CellResult::merge(vec![(0, &whole)], 20).unwrap();
        for size in [1, 3, 7, 20] {
            let parts: Vec<_> =
                crate::shard::split(20, size).into_iter().map(|r| (r.start, fake_result(5, r))).collect();
            let mut refs: Vec<_> = parts.iter().map(|(s, r)| (*s, r)).collect();
            refs.reverse();
            assert_eq!(CellResult::merge(refs, 20).unwrap(), reference, "shard size {size}");
        }
    }

    #[test]
    fn a_cell_of_totals_reports_what_its_runs_report() {
        let cell = cell_of(20);
        let whole = fake_result(5, 0..20);
        let reference = CellResult::merge(vec![(0, &whole)], 20).unwrap().report(0, &cell);
        for size in [1, 3, 7, 20] {
            let parts: Vec<_> = crate::shard::split(20, size)
                .into_iter()
                .map(|r| (r.start, fake_result(5, r).into_totals("a")))
                .collect();
            let refs: Vec<_> = parts.iter().map(|(s, r)| (*s, r)).collect();
            let merged = CellResult::merge(refs, 20).unwrap();
            assert!(merged.winner.is_empty(), "no per-run record is kept");
            // Bit for bit, floats included.
            assert_eq!(
                format!("{:?}", merged.report(0, &cell)),
                format!("{reference:?}"),
                "shard size {size}"
            );
        }
        // Totals and runs do not mix in one cell.
        let a = fake_result(5, 0..10).into_totals("a");
        let b = fake_result(5, 10..20);
        assert_eq!(CellResult::merge(vec![(0, &a), (10, &b)], 20), Err(MergeError::Encounter));
    }

    /// Runs `range` of a cell of three combatants (two of the party "a",
    /// one foe) with every kind of outcome: wins both ways, draws, deaths,
    /// members dying and at 0, healing above the start.
    pub(crate) fn varied_result(range: std::ops::Range<u64>) -> ShardResult {
        let enc_sides = vec!["a".to_string(), "b".to_string()];
        let combatants = vec![
            CombatantInfo { id: "x".into(), side: 0, hp_max: 12, start_hp: 12 },
            CombatantInfo { id: "y".into(), side: 1, hp_max: 9, start_hp: 9 },
            CombatantInfo { id: "z".into(), side: 0, hp_max: 7, start_hp: 5 },
        ];
        let mut r = ShardResult {
            summary: Summary::new(2, 3),
            winner: Vec::new(),
            rounds: Vec::new(),
            final_hp: Vec::new(),
            dead: Vec::new(),
            fled: Vec::new(),
            sides: enc_sides,
            combatants,
            days: Vec::new(),
            day_plays: 0,
            totals: None,
            packed: None,
        };
        for i in range {
            let h = i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40;
            let winner = match h % 7 {
                0 => None,
                1..=3 => Some(0),
                _ => Some(1),
            };
            let hp = |k: u64, max: i64| (((h >> k) % 30) as i64 - 14).min(max) as i32;
            let combatants = [(hp(3, 12), 0), (hp(8, 9), 1), (hp(13, 7), 2)]
                .into_iter()
                .map(|(final_hp, _)| pf1e_engine::combat::CombatantOutcome {
                    final_hp,
                    dead: final_hp <= -10,
                    ..Default::default()
                })
                .collect();
            let o = pf1e_engine::combat::RunOutcome {
                winner,
                rounds: (h % 9 + 1) as u32,
                combatants,
                summons: Vec::new(),
            };
            r.summary.add(&o);
            r.winner.push(o.winner.map_or(-1, |w| w as i32));
            r.rounds.push(o.rounds);
            r.final_hp.extend(o.combatants.iter().map(|c| c.final_hp));
            r.dead.extend(o.combatants.iter().map(|c| c.dead));
        }
        r
    }

    /// An analysis cell's shards send totals and packed runs instead of
    /// per-run records: its metrics and per-run outcomes (what the paired
    /// comparisons read) are those of the records, bit for bit, whatever
    /// the sharding; its report too.
    #[test]
    fn packed_runs_give_the_metrics_of_the_records() {
        use crate::jobs::metrics::CellMetrics;
        let conf = pf1e_engine::metrics::Confidence::default();
        let whole = varied_result(0..203);
        let reference = CellResult::merge(vec![(0, &whole)], 203).unwrap();
        let expected = CellMetrics::from_result(&reference, "a", conf);
        assert!(expected.party.draws > 0 && expected.party.p_any_death > 0.0 && expected.party.p_tpk > 0.0);
        let cell = cell_of(203);
        for size in [1, 10, 100, 203] {
            let parts: Vec<_> = crate::shard::split(203, size)
                .into_iter()
                .map(|r| (r.start, varied_result(r).into_compact("a", true)))
                .collect();
            for (s, p) in &parts {
                let runs = p.runs();
                assert_eq!(p.check(runs), Ok(()), "shard at {s}");
                assert!(p.winner.is_empty() && p.packed.as_ref().unwrap().rows.len() as u64 <= runs * 16);
            }
            let mut refs: Vec<_> = parts.iter().map(|(s, r)| (*s, r)).collect();
            refs.reverse();
            let merged = CellResult::merge(refs, 203).unwrap();
            let got = CellMetrics::from_result(&merged, "a", conf);
            assert_eq!(got, expected, "shard size {size}");
            assert_eq!(got.party_runs, expected.party_runs, "shard size {size}: the runs pair exactly");
            // Streamed by chunks into a spill file: the same figures, bit for bit.
            let mut keeper = crate::jobs::runs::RunKeeper::default();
            let kept = CellMetrics::from_result_kept(&merged, "a", conf, &mut keeper);
            assert_eq!(
                format!("{kept:?}").split("party_runs").next(),
                format!("{expected:?}").split("party_runs").next()
            );
            assert_eq!(kept.party_runs, expected.party_runs);
            assert_eq!(kept.party_runs.bytes_in_memory(), 0);
            assert_eq!(format!("{:?}", merged.report(0, &cell)), format!("{:?}", reference.report(0, &cell)));
        }
        // Packed and unpacked shards do not mix in one cell.
        let a = varied_result(0..10).into_compact("a", true);
        let b = varied_result(10..20).into_totals("a");
        assert_eq!(CellResult::merge(vec![(0, &a), (10, &b)], 20), Err(MergeError::Encounter));
    }

    /// Shards of totals folded as they arrive, in any order: the merge in
    /// run order; a shard of another encounter, one with per-run records,
    /// or a missing one fail the cell.
    #[test]
    fn a_fold_of_totals_in_any_order_is_the_merge() {
        let parts: Vec<_> = crate::shard::split(50, 7)
            .into_iter()
            .map(|r| (r.start, varied_result(r).into_totals("a")))
            .collect();
        let refs: Vec<_> = parts.iter().map(|(s, r)| (*s, r)).collect();
        let expected = CellResult::merge(refs, 50).unwrap();
        let mut fold = CellFold::default();
        for i in [3, 0, 6, 1, 5, 2, 4, 7] {
            fold.add(&parts[i].1);
        }
        assert_eq!(fold.finish(50).unwrap(), expected);
        let mut short = CellFold::default();
        short.add(&parts[0].1);
        assert_eq!(short.finish(50), Err(MergeError::Coverage { covered: 7, runs: 50 }));
        assert_eq!(CellFold::default().finish(50), Err(MergeError::NoShard));
        for odd in [fake_result(5, 7..14).into_totals("a"), varied_result(7..14)] {
            let mut fold = CellFold::default();
            fold.add(&parts[0].1);
            fold.add(&odd);
            assert_eq!(fold.finish(14), Err(MergeError::Encounter));
        }
    }

    /// Runs `range` of a day cell of `plays` plays (the day as written,
    /// then plans): ends of every kind, deaths, members down, fights
    /// reached or not, varying run by run.
    fn day_result(range: std::ops::Range<u64>, plays: u32) -> ShardResult {
        use pf1e_engine::combat::Tending;
        use pf1e_engine::day::{DayEnd, DayRecord, FightRecord, MemberEnd, Resources};
        let mut days = Vec::new();
        for i in range {
            for p in 0..u64::from(plays) {
                let h = (i * 7 + p).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 33;
                let fought = (h % 3 + 1) as usize;
                let fights = (0..fought)
                    .map(|e| FightRecord {
                        encounter: e,
                        won: e + 1 < fought || h % 5 != 0,
                        rounds: ((h >> (e * 4)) % 9 + 1) as u32,
                        before: Resources {
                            hp: (60 - 10 * e as u64 - (h >> 7) % 20) as u32,
                            hp_max: 60,
                            slots: (6 - e) as u32,
                            uses: 2,
                            standing: 3,
                        },
                        deaths: u32::from((h >> (e + 11)) % 6 == 0),
                        aid: Tending { healed: ((h >> 3) % 12) as u32, ..Tending::default() },
                    })
                    .collect();
                let end = match h % 5 {
                    0 => DayEnd::Defeated { encounter: fought - 1 },
                    1 => DayEnd::Fled { step: fought },
                    _ => DayEnd::Completed,
                };
                let members = (0..3)
                    .map(|m| MemberEnd {
                        hp: ((h >> (m * 5 + 13)) % 25) as i32 - 5,
                        dead: (h >> (m + 20)) % 7 == 0,
                    })
                    .collect();
                days.push(DayRecord { end, fights, members, rests: Tending::default() });
            }
        }
        ShardResult::from_days(days, plays)
    }

    /// A day cell's report as it was computed from its records (the
    /// oracle of the tallied one).
    fn day_report_of_records(r: &ShardResult, runs: u64) -> (u64, u64, u64, u64, i64, [i64; 3]) {
        use pf1e_engine::day::DayEnd;
        let completed = r.days_of(0).filter(|d| d.end == DayEnd::Completed).count() as u64;
        let mut lost: Vec<i64> = r
            .days_of(0)
            .map(|d| {
                let start = d.fights.first().map_or(0, |f| i64::from(f.before.hp));
                let end: i64 = d.members.iter().filter(|m| !m.dead).map(|m| i64::from(m.hp.max(0))).sum();
                (start - end).max(0)
            })
            .collect();
        let lost_sum: i64 = lost.iter().sum();
        lost.sort_unstable();
        let quantile = |q: u64| lost[((q * lost.len() as u64).div_ceil(100).max(1) as usize) - 1];
        let all_down = r.days_of(0).filter(|d| d.members.iter().all(|m| m.dead || m.hp < 0)).count() as u64;
        let some_death = r.days_of(0).filter(|d| d.dead() > 0).count() as u64;
        let rounds: u64 = r.days_of(0).flat_map(|d| &d.fights).map(|f| u64::from(f.rounds)).sum();
        assert_eq!(r.days_of(0).count() as u64, runs);
        (
            completed,
            all_down,
            some_death,
            rounds,
            lost_sum,
            [quantile(50), quantile(90), *lost.last().unwrap()],
        )
    }

    /// A day cell merged from many shards, in any order, folded as they
    /// arrive or merged at the end, holds no day record, only its tally:
    /// the tally of one shard of all its runs, and the report of its
    /// records.
    #[test]
    fn a_day_cell_keeps_a_tally_of_its_days_not_their_records() {
        use pf1e_engine::day::tally::DayTally;
        let (runs, plays) = (1000, 3);
        let whole = day_result(0..runs, plays);
        let one = CellResult::merge(vec![(0, &whole)], runs).unwrap();
        assert!(one.days.is_empty(), "the merged cell holds no day record");
        assert!(one.is_days());
        let mut expected = DayTally::default();
        expected.add_runs(&whole.days, plays as usize);
        assert_eq!(one.day_tally(), Some(&expected));
        assert_eq!(expected.runs(), runs);
        let mut cell = cell_of(runs);
        cell.party = "party".into();
        let report = one.report(0, &cell);
        let (completed, all_down, some_death, rounds, lost_sum, [p50, p90, max]) =
            day_report_of_records(&whole, runs);
        assert_eq!(report.wins.get("party"), Some(&completed));
        assert_eq!(report.runs, runs);
        assert_eq!(report.party_all_down_rate, all_down as f64 / runs as f64);
        assert_eq!(report.party_death_rate, some_death as f64 / runs as f64);
        assert_eq!(report.mean_rounds, rounds as f64 / runs as f64);
        assert_eq!(report.party_hp_lost.mean, lost_sum as f64 / runs as f64);
        assert_eq!(
            [report.party_hp_lost.p50, report.party_hp_lost.p90, report.party_hp_lost.max],
            [p50, p90, max]
        );
        assert!(completed > 0 && all_down > 0 && some_death > 0 && p50 < p90);
        for size in [1, 7, 100, 999] {
            let parts: Vec<_> = crate::shard::split(runs, size)
                .into_iter()
                .map(|r| (r.start, day_result(r, plays)))
                .collect();
            let mut refs: Vec<_> = parts.iter().map(|(s, r)| (*s, r)).collect();
            refs.reverse();
            let merged = CellResult::merge(refs, runs).unwrap();
            assert_eq!(merged, one, "shard size {size}");
            // Folded as they arrive, in another order: the same.
            let mut fold = CellFold::default();
            for i in (0..parts.len()).rev().step_by(2).chain((0..parts.len()).rev().skip(1).step_by(2)) {
                fold.add(&parts[i].1);
            }
            let folded = fold.finish(runs).unwrap();
            assert!(folded.days.is_empty());
            assert_eq!(folded, one, "shard size {size}");
            assert_eq!(format!("{:?}", folded.report(0, &cell)), format!("{report:?}"));
        }
        // Days and battles do not mix in one cell, nor days of other plays.
        let battle = fake_result(5, 10..20).into_totals("a");
        let days = day_result(0..10, plays);
        assert_eq!(CellResult::merge(vec![(0, &days), (10, &battle)], 20), Err(MergeError::Encounter));
        let mut fold = CellFold::default();
        fold.add(&days);
        fold.add(&battle);
        assert_eq!(fold.finish(20), Err(MergeError::Encounter));
        let mut fold = CellFold::default();
        fold.add(&battle);
        fold.add(&days);
        assert_eq!(fold.finish(20), Err(MergeError::Encounter));
        let other = day_result(10..20, 2);
        assert_eq!(CellResult::merge(vec![(0, &days), (10, &other)], 20), Err(MergeError::Encounter));
    }

    #[test]
    fn merge_refuses_gaps() {
        let a = fake_result(5, 0..4);
        let b = fake_result(5, 5..8);
        assert!(CellResult::merge(vec![(0, &a), (5, &b)], 8).is_err());
        assert!(CellResult::merge(vec![(0, &a)], 8).is_err());
    }
}
