//! Shards: what a worker is asked to play (runs of one cell), what it
//! returns (integer sums, and per-run records or exact totals of them), and
//! their wire forms.

use std::ops::Range;
use std::sync::Arc;

use pf1e_engine::combat::RunOutcome;
use pf1e_engine::encounter::Encounter;
use pf1e_engine::objectives::{Records, RunRow};
use pf1e_engine::strategy::StrategySpec;
use pf1e_engine::summary::{CombatantTotals, Summary};

use pf1e_engine::day::DayRecord;

use crate::canon::{ContentHash, hex, parse_hex};
use crate::day::DayPlay;
use crate::error::WireError;
use crate::proto;
use crate::scenario::ScenarioHash;
use crate::variant::SideVariant;
use prost::Message;

/// Content key of a shard (blake3; computed by the coordinator).
pub type ShardKey = ContentHash;

/// What one shard asks a worker to play: runs `runs` of a cell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardSpec {
    /// The scenario (a worker fetches its content by hash).
    pub scenario: ScenarioHash,
    /// The per-side changes, one entry per side.
    pub variant: Vec<SideVariant>,
    /// The measured side.
    pub party: String,
    /// Levers of the party side.
    pub party_strategy: StrategySpec,
    /// Levers of every other side.
    pub adversary_strategy: StrategySpec,
    /// Seed of the cell: run `i` uses the stream derived from (seed, i).
    pub seed: u64,
    /// The run indices to play.
    pub runs: Range<u64>,
    /// Set when the cell is an adventuring day: the runs are days of it
    /// (`scenario` is its first fight's; the variant and strategies are the
    /// defaults).
    pub day: Option<DayPlay>,
    /// Report [`ShardTotals`] instead of per-run records (a battle cell).
    pub totals: bool,
    /// Report [`PackedRuns`] beside the totals (a battle cell whose job
    /// compares runs one by one: the analysis jobs').
    pub packed: bool,
}

impl ShardSpec {
    /// Every scenario the shard plays: its own, and a day's fights.
    pub fn scenarios(&self) -> Vec<ScenarioHash> {
        let mut out = vec![self.scenario];
        if let Some(d) = &self.day {
            out.extend(d.encounters().iter().filter(|h| **h != self.scenario));
        }
        out.dedup();
        out
    }
}

impl From<&ShardSpec> for proto::ShardSpec {
    fn from(s: &ShardSpec) -> Self {
        proto::ShardSpec {
            scenario_hash: hex(&s.scenario),
            variant: s.variant.iter().map(proto::SideVariant::from).collect(),
            party: s.party.clone(),
            party_strategy: s.party_strategy.name(),
            adversary_strategy: s.adversary_strategy.name(),
            seed: s.seed,
            run_start: s.runs.start,
            run_end: s.runs.end,
            day: s.day.as_ref().map(proto::DaySpec::from),
            totals: s.totals,
            packed: s.packed,
        }
    }
}

impl TryFrom<&proto::ShardSpec> for ShardSpec {
    type Error = WireError;

    fn try_from(s: &proto::ShardSpec) -> Result<Self, Self::Error> {
        let scenario = parse_hex(&s.scenario_hash).ok_or_else(|| WireError::Hash {
            field: "ShardSpec.scenario_hash",
            value: s.scenario_hash.clone(),
        })?;
        if s.run_end < s.run_start {
            return Err(WireError::invalid(
                "ShardSpec.run_end",
                format!("{} is before run_start {}", s.run_end, s.run_start),
            ));
        }
        Ok(ShardSpec {
            scenario,
            variant: s.variant.iter().map(SideVariant::try_from).collect::<Result<_, _>>()?,
            party: s.party.clone(),
            party_strategy: StrategySpec::parse(&s.party_strategy)?,
            adversary_strategy: StrategySpec::parse(&s.adversary_strategy)?,
            seed: s.seed,
            runs: s.run_start..s.run_end,
            day: s.day.as_ref().map(DayPlay::try_from).transpose()?,
            totals: s.totals,
            packed: s.packed,
        })
    }
}

/// A combatant as deployed in a cell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CombatantInfo {
    /// Unique id in the encounter.
    pub id: String,
    /// Index of its side.
    pub side: usize,
    /// Maximum hit points.
    pub hp_max: i32,
    /// Hit points at the start of each run.
    pub start_hp: i32,
}

/// What a cell report needs of some runs, summed exactly: a shard asked
/// for totals reports these instead of its per-run records, so its size and
/// the coordinator's work on it do not depend on its number of runs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ShardTotals {
    /// Σ final hit points of each combatant, in encounter order.
    pub final_hp: Vec<i64>,
    /// Runs in which every member of the party is down: dying (below 0 hit
    /// points) or dead; at 0 a member is disabled, still up.
    pub party_all_down: u64,
    /// Runs in which a member of the party is dead.
    pub party_deaths: u64,
    /// Runs the party fled (`pf1e_engine::party::party_fled`).
    pub party_fled: u64,
    /// Histogram of the party's hit points lost per run, Σ (start_hp −
    /// max(final_hp, 0)) over its members: (value, runs), by increasing
    /// value, no empty bin.
    pub hp_lost: Vec<(i64, u64)>,
}

impl ShardTotals {
    /// Adds the totals of other runs of the same cell.
    pub fn merge(&mut self, other: &ShardTotals) {
        if self.final_hp.len() < other.final_hp.len() {
            self.final_hp.resize(other.final_hp.len(), 0);
        }
        for (a, b) in self.final_hp.iter_mut().zip(&other.final_hp) {
            *a += b;
        }
        self.party_all_down += other.party_all_down;
        self.party_deaths += other.party_deaths;
        self.party_fled += other.party_fled;
        let (x, y) = (&self.hp_lost, &other.hp_lost);
        let mut merged = Vec::with_capacity(x.len() + y.len());
        let (mut i, mut j) = (0, 0);
        while i < x.len() || j < y.len() {
            let bin = match (x.get(i), y.get(j)) {
                (Some(&(v, n)), Some(&(w, m))) if v == w => {
                    (i, j) = (i + 1, j + 1);
                    (v, n + m)
                }
                (Some(&a), Some(&b)) if a.0 < b.0 => {
                    i += 1;
                    a
                }
                (_, Some(&b)) => {
                    j += 1;
                    b
                }
                (Some(&a), None) => {
                    i += 1;
                    a
                }
                (None, None) => break,
            };
            merged.push(bin);
        }
        self.hp_lost = merged;
    }

    /// Runs counted by the histogram.
    pub fn runs(&self) -> u64 {
        self.hp_lost.iter().map(|(_, n)| n).sum()
    }

    /// Σ of the party's hit points lost over the runs.
    pub fn hp_lost_sum(&self) -> i64 {
        self.hp_lost.iter().map(|&(v, n)| v * n as i64).sum()
    }

    /// The nearest-rank `q`th percentile of the hit points lost: the
    /// smallest value with at least `q`% of the runs at or below it (0
    /// without runs).
    pub fn hp_lost_quantile(&self, q: u64) -> i64 {
        let rank = (q * self.runs()).div_ceil(100).max(1);
        let mut seen = 0u64;
        for &(v, n) in &self.hp_lost {
            seen += n;
            if seen >= rank {
                return v;
            }
        }
        0
    }

    /// The most hit points lost in a run (0 without runs).
    pub fn hp_lost_max(&self) -> i64 {
        self.hp_lost.last().map_or(0, |&(v, _)| v)
    }
}

/// The result of some runs of one cell: integer sums plus compact per-run
/// records (or, when the shard was asked for totals, exact [`ShardTotals`]
/// of them), so results of consecutive run ranges merge exactly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardResult {
    /// Integer sums over the runs.
    pub summary: Summary,
    /// Winner side index per run, −1 for a draw.
    pub winner: Vec<i32>,
    /// Rounds played per run.
    pub rounds: Vec<u32>,
    /// Final hit points, run-major: `final_hp[run * combatants + c]`.
    pub final_hp: Vec<i32>,
    /// Dead at the end, run-major like `final_hp`.
    pub dead: Vec<bool>,
    /// Left the battle alive (`CombatantOutcome::fled`), run-major like
    /// `final_hp`; empty when no combatant of these runs left.
    pub fled: Vec<bool>,
    /// Side names, in encounter order.
    pub sides: Vec<String>,
    /// Combatants, in encounter order.
    pub combatants: Vec<CombatantInfo>,
    /// A day cell's shard: one record per day, the battle tables above
    /// empty (and the summary counting only the runs).
    pub days: Vec<DayRecord>,
    /// Days played per run: `days` holds, run after run, one record per
    /// play (the day as written, then each plan); 0 for battles.
    pub day_plays: u32,
    /// Set for a shard asked for totals: the per-run tables are empty.
    pub totals: Option<ShardTotals>,
    /// Set for a shard asked for packed runs (beside its totals).
    pub packed: Option<PackedRuns>,
}

/// The per-run outcomes the analysis jobs read, of the party and of every
/// other side together ([`RunRow`]), packed in a few bytes a run (the
/// layout is `proto::PackedRuns`'s). Run `i` of every cell of a sweep plays
/// the same dice, so two cells' rows pair run by run; a cell's rows are its
/// shards' concatenated in run order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PackedRuns {
    /// The party's side index.
    pub party: u32,
    /// Runs packed.
    pub runs: u64,
    /// The rows.
    pub rows: Vec<u8>,
}

fn put_varint(out: &mut Vec<u8>, v: i64) {
    let mut z = ((v << 1) ^ (v >> 63)) as u64;
    while z >= 0x80 {
        out.push((z as u8) | 0x80);
        z >>= 7;
    }
    out.push(z as u8);
}

fn get_varint(bytes: &[u8], at: &mut usize) -> Option<i64> {
    let mut z = 0u64;
    for shift in (0..64).step_by(7) {
        let b = *bytes.get(*at)?;
        *at += 1;
        z |= u64::from(b & 0x7f) << shift;
        if b < 0x80 {
            return Some(((z >> 1) as i64) ^ -((z & 1) as i64));
        }
    }
    None
}

impl PackedRuns {
    /// Packs the rows of the party (side `party`) and of the other sides,
    /// run by run (the two lists have one row per run).
    pub fn pack(party: usize, ours: &[RunRow], theirs: &[RunRow]) -> Self {
        let mut rows = Vec::with_capacity(ours.len() * 6);
        for (p, o) in ours.iter().zip(theirs) {
            let flags = u8::from(p.won)
                | u8::from(o.won) << 1
                | u8::from(p.draw) << 2
                | u8::from(p.dead) << 3
                | u8::from(p.all_down) << 4
                | u8::from(o.dead) << 5
                | u8::from(o.all_down) << 6;
            let fled = u8::from(p.fled) | u8::from(o.fled) << 1;
            if fled == 0 {
                rows.push(flags);
            } else {
                rows.extend([flags | 0x80, fled]);
            }
            for v in [i64::from(p.rounds), p.lost, p.remaining, o.lost, o.remaining] {
                put_varint(&mut rows, v);
            }
        }
        PackedRuns { party: u32::try_from(party).unwrap_or(u32::MAX), runs: ours.len() as u64, rows }
    }

    /// The rows of the party and of the other sides, run by run; `None`
    /// when the bytes are not `runs` rows.
    pub fn unpack(&self) -> Option<(Vec<RunRow>, Vec<RunRow>)> {
        let n = usize::try_from(self.runs).ok()?;
        let (mut ours, mut theirs) = (Vec::with_capacity(n), Vec::with_capacity(n));
        self.unpack_chunks(n.max(1), |o, t| {
            ours.extend_from_slice(o);
            theirs.extend_from_slice(t);
        })?;
        Some((ours, theirs))
    }

    /// [`unpack`](Self::unpack) by chunks of at most `chunk` runs: `f`
    /// gets the rows of the party and of the other sides of each chunk in
    /// run order, so the rows of many runs need not be held at once.
    /// `None` (after some chunks maybe) when the bytes are not `runs` rows.
    pub fn unpack_chunks(&self, chunk: usize, mut f: impl FnMut(&[RunRow], &[RunRow])) -> Option<()> {
        let n = usize::try_from(self.runs).ok()?;
        // A row takes six bytes at least: a count past that is a lie.
        if n > self.rows.len() / 6 {
            return None;
        }
        let chunk = chunk.clamp(1, n.max(1));
        let (mut ours, mut theirs) = (Vec::with_capacity(chunk), Vec::with_capacity(chunk));
        let mut at = 0;
        for run in 0..n {
            let flags = *self.rows.get(at)?;
            at += 1;
            // A second flag byte: who fled.
            let fled = if flags & 0x80 != 0 {
                at += 1;
                match *self.rows.get(at - 1)? {
                    0 | 4.. => return None,
                    f => f,
                }
            } else {
                0
            };
            let mut v = [0i64; 5];
            for x in &mut v {
                *x = get_varint(&self.rows, &mut at)?;
            }
            let bit = |i: u8| flags & (1 << i) != 0;
            let draw = bit(2);
            if u8::from(bit(0)) + u8::from(bit(1)) + u8::from(draw) > 1 {
                return None;
            }
            let rounds = u32::try_from(v[0]).ok()?;
            if v[1..].iter().any(|&x| x < 0) {
                return None;
            }
            ours.push(RunRow {
                won: bit(0),
                draw,
                rounds,
                dead: bit(3),
                all_down: bit(4),
                fled: fled & 1 != 0,
                lost: v[1],
                remaining: v[2],
            });
            theirs.push(RunRow {
                won: bit(1),
                draw,
                rounds,
                dead: bit(5),
                all_down: bit(6),
                fled: fled & 2 != 0,
                lost: v[3],
                remaining: v[4],
            });
            // The last chunk waits for the check that every byte was read.
            if ours.len() == chunk && run + 1 < n {
                f(&ours, &theirs);
                ours.clear();
                theirs.clear();
            }
        }
        if at != self.rows.len() {
            return None;
        }
        if !ours.is_empty() {
            f(&ours, &theirs);
        }
        Some(())
    }

    /// Appends the rows of the runs that follow.
    pub fn append(&mut self, other: &PackedRuns) {
        self.runs += other.runs;
        self.rows.extend_from_slice(&other.rows);
    }
}

impl ShardResult {
    /// Packs the records of consecutive days, `plays` per run (run after
    /// run, one record per play).
    pub fn from_days(days: Vec<DayRecord>, plays: u32) -> Self {
        let plays = plays.max(1);
        let mut summary = Summary::new(0, 0);
        summary.runs = days.len() as u64 / u64::from(plays);
        ShardResult {
            summary,
            winner: Vec::new(),
            rounds: Vec::new(),
            final_hp: Vec::new(),
            dead: Vec::new(),
            fled: Vec::new(),
            sides: Vec::new(),
            combatants: Vec::new(),
            days,
            day_plays: plays,
            totals: None,
            packed: None,
        }
    }

    /// The records of play `p` (0: the day as written), in run order.
    pub fn days_of(&self, p: usize) -> impl Iterator<Item = &DayRecord> {
        self.days.iter().skip(p).step_by(self.day_plays.max(1) as usize)
    }

    /// Whether its runs are days.
    pub fn is_days(&self) -> bool {
        !self.days.is_empty()
    }

    /// Packs the outcomes of consecutive runs of `encounter`.
    pub fn from_outcomes(encounter: &Encounter, outcomes: &[RunOutcome]) -> Self {
        let summary = Summary::from_outcomes(encounter.sides.len(), encounter.combatants.len(), outcomes);
        let mut r = ShardResult {
            summary,
            winner: Vec::with_capacity(outcomes.len()),
            rounds: Vec::with_capacity(outcomes.len()),
            final_hp: Vec::with_capacity(outcomes.len() * encounter.combatants.len()),
            dead: Vec::with_capacity(outcomes.len() * encounter.combatants.len()),
            fled: Vec::new(),
            sides: encounter.sides.clone(),
            combatants: encounter
                .combatants
                .iter()
                .map(|d| CombatantInfo {
                    id: d.id.clone(),
                    side: d.side,
                    hp_max: d.spec.hp_max,
                    start_hp: d.start_hp,
                })
                .collect(),
            days: Vec::new(),
            day_plays: 0,
            totals: None,
            packed: None,
        };
        for o in outcomes {
            r.winner.push(o.winner.map_or(-1, |w| w as i32));
            r.rounds.push(o.rounds);
            r.final_hp.extend(o.combatants.iter().map(|c| c.final_hp));
            r.dead.extend(o.combatants.iter().map(|c| c.dead));
        }
        if outcomes.iter().flat_map(|o| &o.combatants).any(|c| c.fled) {
            r.fled = outcomes.iter().flat_map(|o| o.combatants.iter().map(|c| c.fled)).collect();
        }
        r
    }

    /// Number of runs (battles, or days).
    pub fn runs(&self) -> u64 {
        match &self.totals {
            _ if self.is_days() => self.days.len() as u64 / u64::from(self.day_plays.max(1)),
            Some(_) => self.summary.runs,
            None => self.winner.len() as u64,
        }
    }

    /// The totals of the runs, the party being side `party` (the report's
    /// figures): summed from the per-run records, or the reported totals.
    pub fn totals(&self, party: usize) -> ShardTotals {
        if let Some(t) = &self.totals {
            return t.clone();
        }
        let n = self.combatants.len();
        let runs = self.winner.len();
        let members: Vec<(usize, i32)> = self
            .combatants
            .iter()
            .enumerate()
            .filter(|(_, c)| c.side == party)
            .map(|(i, c)| (i, c.start_hp))
            .collect();
        let mut t = ShardTotals { final_hp: vec![0; n], ..ShardTotals::default() };
        let mut lost = Vec::with_capacity(runs);
        for run in 0..runs {
            let row = run * n;
            let hp = |i: usize| self.final_hp.get(row + i).copied().unwrap_or(0);
            let dead = |i: usize| self.dead.get(row + i).copied().unwrap_or(false);
            let left = members.iter().any(|&(i, _)| self.fled.get(row + i).copied().unwrap_or(false));
            let winner = usize::try_from(self.winner[run]).ok();
            t.party_fled += u64::from(pf1e_engine::party::party_fled(winner, party, left));
            for (i, sum) in t.final_hp.iter_mut().enumerate() {
                *sum += i64::from(hp(i));
            }
            t.party_all_down += u64::from(members.iter().all(|&(i, _)| hp(i) < 0 || dead(i)));
            t.party_deaths += u64::from(members.iter().any(|&(i, _)| dead(i)));
            lost.push(
                members.iter().map(|&(i, start)| i64::from(start) - i64::from(hp(i).max(0))).sum::<i64>(),
            );
        }
        lost.sort_unstable();
        for v in lost {
            match t.hp_lost.last_mut() {
                Some((last, n)) if *last == v => *n += 1,
                _ => t.hp_lost.push((v, 1)),
            }
        }
        t
    }

    /// This result with its per-run records replaced by their totals, the
    /// party being the side named `party` (the first side if none is).
    pub fn into_totals(self, party: &str) -> Self {
        self.into_compact(party, false)
    }

    /// The per-run outcomes the analysis jobs read, packed, the party being
    /// side `party` (from the per-run records: empty once they are gone).
    pub fn packed_runs(&self, party: usize) -> PackedRuns {
        let (ours, theirs) = self.run_rows(party);
        PackedRuns::pack(party, &ours, &theirs)
    }

    /// The rows of the party (side `party`) and of the other sides, run by
    /// run: from the packed runs when the shard sent them for that party,
    /// else from the per-run records.
    pub fn run_rows(&self, party: usize) -> (Vec<RunRow>, Vec<RunRow>) {
        if let Some(rows) =
            self.packed.as_ref().filter(|p| p.party as usize == party).and_then(|p| p.unpack())
        {
            return rows;
        }
        let side_of: Vec<usize> = self.combatants.iter().map(|c| c.side).collect();
        let start_hp: Vec<i32> = self.combatants.iter().map(|c| c.start_hp).collect();
        let rec = Records {
            side_of: &side_of,
            start_hp: &start_hp,
            winner: &self.winner,
            rounds: &self.rounds,
            final_hp: &self.final_hp,
            dead: &self.dead,
            fled: &self.fled,
        };
        (rec.rows(&|s| s == party), rec.rows(&|s| s != party))
    }

    /// This result with its per-run records replaced by their totals and,
    /// when `packed`, the packed per-run outcomes, the party being the
    /// side named `party` (the first side if none is): what a shard asked
    /// for them reports (`ShardSpec::totals`, `ShardSpec::packed`).
    pub fn into_compact(mut self, party: &str, packed: bool) -> Self {
        if self.is_days() || self.totals.is_some() {
            return self;
        }
        let side = self.sides.iter().position(|s| s == party).unwrap_or(0);
        self.totals = Some(self.totals(side));
        if packed {
            self.packed = Some(self.packed_runs(side));
        }
        self.winner = Vec::new();
        self.rounds = Vec::new();
        self.final_hp = Vec::new();
        self.dead = Vec::new();
        self.fled = Vec::new();
        self
    }

    /// Checks that the tables have the shape of `runs` runs and that the
    /// summary's sums are those of the per-run records: a report that does
    /// not check out is refused before it reaches the cache.
    pub fn check(&self, runs: u64) -> Result<(), ShapeError> {
        let bad = |what: String| Err(ShapeError(what));
        if self.is_days() {
            let plays = u64::from(self.day_plays.max(1));
            if self.days.len() as u64 != runs * plays || self.summary.runs != runs {
                return bad(format!(
                    "{runs} days of {plays} plays expected, got {} records",
                    self.days.len()
                ));
            }
            if !self.winner.is_empty() || !self.sides.is_empty() || !self.combatants.is_empty() {
                return bad("a day shard carries battle tables".into());
            }
            let members = self.days[0].members.len();
            if self.days.iter().any(|d| d.members.len() != members) {
                return bad("the days do not have the same members".into());
            }
            return Ok(());
        }
        if let Some(t) = &self.totals {
            return self.check_totals(t, runs);
        }
        if self.packed.is_some() {
            return bad("packed runs without totals".into());
        }
        let n = self.combatants.len() as u64;
        let sides = self.sides.len();
        if self.runs() != runs || self.summary.runs != runs || self.rounds.len() as u64 != runs {
            return bad(format!(
                "{runs} runs expected, got {} winners, {} round counts and a summary of {} runs",
                self.winner.len(),
                self.rounds.len(),
                self.summary.runs
            ));
        }
        if self.final_hp.len() as u64 != runs.saturating_mul(n)
            || self.dead.len() as u64 != runs.saturating_mul(n)
            || !(self.fled.is_empty() || self.fled.len() == self.dead.len())
        {
            return bad(format!("per-run records of {} combatants do not cover {runs} runs", n));
        }
        if self.combatants.iter().any(|c| c.side >= sides) {
            return bad("a combatant belongs to no side".into());
        }
        if self.summary.wins.len() != sides || self.summary.combatants.len() as u64 != n {
            return bad("the summary's tables do not match the sides and combatants".into());
        }
        let mut wins = vec![0u64; sides];
        let mut draws = 0u64;
        for &w in &self.winner {
            match usize::try_from(w) {
                Ok(side) if side < sides => wins[side] += 1,
                _ if w == -1 => draws += 1,
                _ => return bad(format!("winner {w} is no side")),
            }
        }
        if wins != self.summary.wins || draws != self.summary.draws {
            return bad("the summary's wins and draws are not those of the runs".into());
        }
        if self.rounds.iter().map(|&r| u64::from(r)).sum::<u64>() != self.summary.rounds {
            return bad("the summary's rounds are not those of the runs".into());
        }
        for (c, totals) in self.summary.combatants.iter().enumerate() {
            let deaths = self.dead.iter().skip(c).step_by(n.max(1) as usize).filter(|&&d| d).count() as u64;
            if deaths != totals.deaths {
                return bad(format!("combatant {c}'s deaths are not those of the runs"));
            }
        }
        Ok(())
    }

    /// [`check`](Self::check) of a result reporting totals: what can be
    /// checked without the runs (every count within the runs, the wins
    /// and draws adding up to them, one sum per combatant).
    fn check_totals(&self, t: &ShardTotals, runs: u64) -> Result<(), ShapeError> {
        let bad = |what: String| Err(ShapeError(what));
        let sides = self.sides.len();
        if !self.winner.is_empty()
            || !self.rounds.is_empty()
            || !self.final_hp.is_empty()
            || !self.dead.is_empty()
            || !self.fled.is_empty()
        {
            return bad("a shard of totals carries per-run records".into());
        }
        if self.summary.runs != runs || t.runs() != runs {
            return bad(format!(
                "{runs} runs expected, got a summary of {} runs and a histogram of {}",
                self.summary.runs,
                t.runs()
            ));
        }
        if self.summary.wins.len() != sides
            || self.summary.combatants.len() != self.combatants.len()
            || t.final_hp.len() != self.combatants.len()
            || self.combatants.iter().any(|c| c.side >= sides)
        {
            return bad("the totals' tables do not match the sides and combatants".into());
        }
        if self.summary.wins.iter().sum::<u64>() + self.summary.draws != runs {
            return bad("the summary's wins and draws do not add up to the runs".into());
        }
        if t.party_all_down > runs
            || t.party_deaths > runs
            || t.party_fled > runs
            || self.summary.combatants.iter().any(|c| c.deaths > runs)
        {
            return bad("a count of runs exceeds the runs".into());
        }
        if t.hp_lost.iter().any(|&(_, n)| n == 0) || t.hp_lost.windows(2).any(|w| w[0].0 >= w[1].0) {
            return bad("the hit points lost are not a histogram by increasing value".into());
        }
        if let Some(p) = &self.packed {
            self.check_packed(p, t, runs)?;
        }
        Ok(())
    }

    /// The packed runs of a shard of totals: one row per run, whose wins,
    /// draws, rounds and party deaths are the summary's and the totals'.
    fn check_packed(&self, p: &PackedRuns, t: &ShardTotals, runs: u64) -> Result<(), ShapeError> {
        let bad = |what: &str| Err(ShapeError(what.to_string()));
        if p.runs != runs {
            return bad("the packed runs are not the shard's runs");
        }
        let Some((ours, theirs)) = p.unpack() else { return bad("the packed runs do not unpack") };
        let party = p.party as usize;
        let Some(&party_wins) = self.summary.wins.get(party) else {
            return bad("the packed runs' party is no side");
        };
        let count =
            |rows: &[RunRow], f: &dyn Fn(&RunRow) -> bool| rows.iter().filter(|r| f(r)).count() as u64;
        let others: u64 = self.summary.wins.iter().sum::<u64>() - party_wins;
        if count(&ours, &|r| r.won) != party_wins
            || count(&theirs, &|r| r.won) != others
            || count(&ours, &|r| r.draw) != self.summary.draws
        {
            return bad("the packed runs' wins and draws are not the summary's");
        }
        if ours.iter().map(|r| u64::from(r.rounds)).sum::<u64>() != self.summary.rounds {
            return bad("the packed runs' rounds are not the summary's");
        }
        if count(&ours, &|r| r.dead) != t.party_deaths || count(&ours, &|r| r.fled) != t.party_fled {
            return bad("the packed runs' party deaths or flights are not the totals'");
        }
        Ok(())
    }
}

/// Why a shard result's tables do not check out.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("inconsistent shard result: {0}")]
pub struct ShapeError(pub String);

fn totals_to_proto(c: &CombatantTotals) -> proto::CombatantTotals {
    proto::CombatantTotals {
        hits: c.hits,
        crits: c.crits,
        damage_dealt: c.damage_dealt,
        damage_taken: c.damage_taken,
        healing_given: c.healing_given,
        deaths: c.deaths,
        conditions_inflicted: c.conditions_inflicted,
        slots_spent: c.slots_spent,
        uses_spent: c.uses_spent,
        items_spent: c.items_spent,
    }
}

fn totals_from_proto(c: &proto::CombatantTotals) -> CombatantTotals {
    CombatantTotals {
        hits: c.hits,
        crits: c.crits,
        damage_dealt: c.damage_dealt,
        damage_taken: c.damage_taken,
        healing_given: c.healing_given,
        deaths: c.deaths,
        conditions_inflicted: c.conditions_inflicted,
        slots_spent: c.slots_spent,
        uses_spent: c.uses_spent,
        items_spent: c.items_spent,
    }
}

impl From<&Summary> for proto::Summary {
    fn from(s: &Summary) -> Self {
        proto::Summary {
            runs: s.runs,
            wins: s.wins.clone(),
            draws: s.draws,
            rounds: s.rounds,
            combatants: s.combatants.iter().map(totals_to_proto).collect(),
            summons: s.summons.iter().map(totals_to_proto).collect(),
        }
    }
}

impl From<proto::Summary> for Summary {
    /// As [`From<&proto::Summary>`], keeping the message's tables (a
    /// decoded report's: no copy).
    fn from(s: proto::Summary) -> Self {
        Summary {
            runs: s.runs,
            wins: s.wins,
            draws: s.draws,
            rounds: s.rounds,
            combatants: s.combatants.into_iter().map(|c| totals_from_proto(&c)).collect(),
            summons: s.summons.into_iter().map(|c| totals_from_proto(&c)).collect(),
        }
    }
}

impl From<&proto::Summary> for Summary {
    fn from(s: &proto::Summary) -> Self {
        Summary {
            runs: s.runs,
            wins: s.wins.clone(),
            draws: s.draws,
            rounds: s.rounds,
            combatants: s.combatants.iter().map(totals_from_proto).collect(),
            summons: s.summons.iter().map(totals_from_proto).collect(),
        }
    }
}

impl From<&ShardResult> for proto::ShardResult {
    fn from(r: &ShardResult) -> Self {
        proto::ShardResult {
            summary: Some(proto::Summary::from(&r.summary)),
            winner: r.winner.clone(),
            rounds: r.rounds.clone(),
            final_hp: r.final_hp.clone(),
            sides: r.sides.clone(),
            combatants: r
                .combatants
                .iter()
                .map(|c| proto::CombatantInfo {
                    id: c.id.clone(),
                    side: u32::try_from(c.side).unwrap_or(u32::MAX),
                    hp_max: c.hp_max,
                    start_hp: c.start_hp,
                })
                .collect(),
            dead: r.dead.clone(),
            fled: r.fled.clone(),
            days: r.days.iter().map(proto::DayRecord::from).collect(),
            day_plays: r.day_plays,
            totals: r.totals.as_ref().map(|t| proto::ShardTotals {
                final_hp: t.final_hp.clone(),
                party_all_down: t.party_all_down,
                party_deaths: t.party_deaths,
                party_fled: t.party_fled,
                hp_lost_values: t.hp_lost.iter().map(|(v, _)| *v).collect(),
                hp_lost_runs: t.hp_lost.iter().map(|(_, n)| *n).collect(),
            }),
            packed: r.packed.as_ref().map(|p| proto::PackedRuns {
                party: p.party,
                runs: p.runs,
                rows: p.rows.clone(),
            }),
        }
    }
}

impl TryFrom<proto::ShardResult> for ShardResult {
    type Error = WireError;

    /// Decodes a result and checks that its tables agree with each other.
    fn try_from(mut r: proto::ShardResult) -> Result<Self, Self::Error> {
        let summary = Summary::from(r.summary.take().ok_or(WireError::Missing("ShardResult.summary"))?);
        if !r.days.is_empty() {
            let days = r.days.iter().map(DayRecord::try_from).collect::<Result<Vec<_>, _>>()?;
            let plays = u64::from(r.day_plays.max(1));
            if summary.runs * plays != days.len() as u64 || !r.winner.is_empty() || !r.combatants.is_empty() {
                return Err(WireError::invalid(
                    "ShardResult.days",
                    format!(
                        "{} runs summed, {} days of {plays} plays, and battle tables beside them",
                        summary.runs,
                        days.len()
                    ),
                ));
            }
            let mut out = ShardResult::from_days(days, r.day_plays);
            out.summary = summary;
            return Ok(out);
        }
        let totals = match r.totals {
            Some(t) => {
                if t.hp_lost_values.len() != t.hp_lost_runs.len() {
                    return Err(WireError::invalid(
                        "ShardResult.totals.hp_lost_runs",
                        "not one count per value of hp_lost_values",
                    ));
                }
                Some(ShardTotals {
                    final_hp: t.final_hp,
                    party_all_down: t.party_all_down,
                    party_deaths: t.party_deaths,
                    party_fled: t.party_fled,
                    hp_lost: t.hp_lost_values.into_iter().zip(t.hp_lost_runs).collect(),
                })
            }
            None => None,
        };
        let runs = if totals.is_some() { summary.runs } else { r.winner.len() as u64 };
        let n = r.combatants.len() as u64;
        let tables = if totals.is_some() { 0 } else { runs };
        if summary.runs != runs || r.rounds.len() as u64 != tables || r.winner.len() as u64 != tables {
            return Err(WireError::invalid(
                "ShardResult.summary",
                format!("{} runs summed, {runs} winners, {} round counts", summary.runs, r.rounds.len()),
            ));
        }
        if r.final_hp.len() as u64 != tables * n
            || r.dead.len() != r.final_hp.len()
            || !(r.fled.is_empty() || r.fled.len() == r.final_hp.len())
        {
            return Err(WireError::invalid(
                "ShardResult.final_hp",
                "the final_hp, dead or fled table is not runs × combatants",
            ));
        }
        if summary.wins.len() != r.sides.len()
            || summary.combatants.len() != r.combatants.len()
            || r.combatants.iter().any(|c| c.side as usize >= r.sides.len())
        {
            return Err(WireError::invalid(
                "ShardResult.combatants",
                "sides and combatants do not match the sums",
            ));
        }
        Ok(ShardResult {
            summary,
            winner: r.winner,
            rounds: r.rounds,
            final_hp: r.final_hp,
            dead: r.dead,
            fled: r.fled,
            sides: r.sides,
            combatants: r
                .combatants
                .into_iter()
                .map(|c| CombatantInfo {
                    id: c.id,
                    side: c.side as usize,
                    hp_max: c.hp_max,
                    start_hp: c.start_hp,
                })
                .collect(),
            days: Vec::new(),
            day_plays: 0,
            totals,
            packed: r.packed.map(|p| PackedRuns { party: p.party, runs: p.runs, rows: p.rows }),
        })
    }
}

/// A shard leased to a worker until its deadline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lease {
    /// Lease id (send it back with the report).
    pub id: u64,
    /// Content key of the shard.
    pub key: ShardKey,
    /// What to play (shared: the coordinator's queue hands out the spec
    /// it holds, without a copy per lease).
    pub spec: Arc<ShardSpec>,
}

fn key_of(bytes: &[u8], field: &'static str) -> Result<ShardKey, WireError> {
    ShardKey::try_from(bytes).map_err(|_| WireError::Hash { field, value: hex(bytes) })
}

/// Whether two specs are one cell's: equal but for their run ranges.
fn same_cell(a: &ShardSpec, b: &ShardSpec) -> bool {
    // Destructured: a new field must be weighed here.
    let ShardSpec {
        scenario,
        variant,
        party,
        party_strategy,
        adversary_strategy,
        seed,
        runs: _,
        day,
        totals,
        packed,
    } = a;
    *scenario == b.scenario
        && *seed == b.seed
        && *totals == b.totals
        && *packed == b.packed
        && *party == b.party
        && *variant == b.variant
        && *party_strategy == b.party_strategy
        && *adversary_strategy == b.adversary_strategy
        && *day == b.day
}

/// A lease answer's leases and their specs (protocol 7): consecutive
/// leases of one cell (specs equal but for their runs, as a cell's shards
/// leave the queue) share one entry of the specs, so a spec's strings are
/// built and sent once per cell rather than once per shard.
pub fn encode_leases(leases: &[Lease]) -> (Vec<proto::Lease>, Vec<proto::ShardSpec>) {
    let mut specs: Vec<proto::ShardSpec> = Vec::new();
    let mut out = Vec::with_capacity(leases.len());
    let mut last: Option<&ShardSpec> = None;
    for l in leases {
        if !last.is_some_and(|s| same_cell(s, &l.spec)) {
            specs.push(proto::ShardSpec::from(&*l.spec));
            last = Some(&*l.spec);
        }
        out.push(proto::Lease {
            lease_id: l.id,
            shard_key: l.key.to_vec(),
            spec: u32::try_from(specs.len() - 1).unwrap_or(u32::MAX),
            run_start: l.spec.runs.start,
            run_end: l.spec.runs.end,
        });
    }
    (out, specs)
}

/// A lease the worker cannot read: its id, its key (when it is one) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnreadableLease {
    /// The lease id.
    pub id: u64,
    /// The shard's key, when the lease carries a well-formed one.
    pub key: Option<ShardKey>,
    /// What is wrong.
    pub error: WireError,
}

/// The leases of a lease answer ([`encode_leases`]), each spec decoded once.
pub fn decode_leases(resp: &proto::LeaseResponse) -> Vec<Result<Lease, UnreadableLease>> {
    let specs: Vec<Result<ShardSpec, WireError>> = resp.specs.iter().map(ShardSpec::try_from).collect();
    resp.leases
        .iter()
        .map(|l| {
            let key = key_of(&l.shard_key, "Lease.shard_key");
            let unreadable = |error| UnreadableLease { id: l.lease_id, key: key.clone().ok(), error };
            let key = key.clone().map_err(unreadable)?;
            let spec = match specs.get(l.spec as usize) {
                Some(Ok(spec)) => spec,
                Some(Err(e)) => return Err(unreadable(e.clone())),
                None => {
                    return Err(unreadable(WireError::invalid(
                        "Lease.spec",
                        format!("{} is not one of the answer's {} specs", l.spec, specs.len()),
                    )));
                }
            };
            if l.run_end < l.run_start {
                return Err(unreadable(WireError::invalid(
                    "Lease.run_end",
                    format!("{} is before run_start {}", l.run_end, l.run_start),
                )));
            }
            let mut spec = spec.clone();
            spec.runs = l.run_start..l.run_end;
            Ok(Lease { id: l.lease_id, key, spec: Arc::new(spec) })
        })
        .collect()
}

/// Why a worker could not play a shard, in the worker's words (it travels
/// as text; it fails the sweep with this message).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ShardFailure(pub String);

/// A worker's report on one leased shard: its result, or why it could not be
/// played (which fails the sweep).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardReport {
    /// The lease.
    pub lease: u64,
    /// Content key of the shard.
    pub key: ShardKey,
    /// The result, or why there is none.
    pub outcome: Result<ShardResult, ShardFailure>,
}

impl From<&ShardReport> for proto::ShardReport {
    fn from(r: &ShardReport) -> Self {
        let (result, error) = match &r.outcome {
            Ok(result) => (proto::ShardResult::from(result).encode_to_vec(), String::new()),
            Err(e) => (Vec::new(), e.0.clone()),
        };
        proto::ShardReport { lease_id: r.lease, shard_key: r.key.to_vec(), result, error }
    }
}

impl ShardReport {
    /// Decodes a report and keeps the bytes of its result as they came
    /// (`None` for a failure), for the store: a coordinator need not encode
    /// again what it has just decoded and checked.
    pub fn decode_keeping(r: proto::ShardReport) -> Result<(Self, Option<Vec<u8>>), WireError> {
        let key = key_of(&r.shard_key, "ShardReport.shard_key")?;
        if !r.error.is_empty() {
            return Ok((ShardReport { lease: r.lease_id, key, outcome: Err(ShardFailure(r.error)) }, None));
        }
        if r.result.is_empty() {
            return Err(WireError::Missing("ShardReport.result"));
        }
        let message = proto::ShardResult::decode(r.result.as_slice())
            .map_err(|e| WireError::invalid("ShardReport.result", e.to_string()))?;
        let result = ShardResult::try_from(message)?;
        Ok((ShardReport { lease: r.lease_id, key, outcome: Ok(result) }, Some(r.result)))
    }
}

impl TryFrom<proto::ShardReport> for ShardReport {
    type Error = WireError;

    fn try_from(r: proto::ShardReport) -> Result<Self, Self::Error> {
        Self::decode_keeping(r).map(|(report, _)| report)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::HpFraction;

    #[test]
    fn a_day_shard_holds_one_record_per_play_and_run_and_says_how_many() {
        use pf1e_engine::combat::Tending;
        use pf1e_engine::day::{DayEnd, MemberEnd};
        let day = |end| DayRecord {
            end,
            fights: Vec::new(),
            members: vec![MemberEnd { hp: 5, dead: false }],
            rests: Tending::default(),
        };
        // Three runs of two plays, run after run.
        let records: Vec<DayRecord> =
            (0..3).flat_map(|run| [day(DayEnd::Completed), day(DayEnd::Fled { step: run })]).collect();
        let r = ShardResult::from_days(records, 2);
        assert_eq!(r.runs(), 3);
        assert_eq!(r.summary.runs, 3);
        assert!(r.check(3).is_ok());
        assert!(r.check(6).is_err(), "six runs of two plays would be twelve records");
        assert!(r.days_of(0).all(|d| d.end == DayEnd::Completed));
        assert_eq!(
            r.days_of(1).map(|d| d.end).collect::<Vec<_>>(),
            (0..3).map(|step| DayEnd::Fled { step }).collect::<Vec<_>>()
        );
        let back = ShardResult::try_from(proto::ShardResult::from(&r)).unwrap();
        assert_eq!(back.day_plays, 2);
        assert_eq!(back.days, r.days);
        let mut odd = proto::ShardResult::from(&r);
        odd.days.pop();
        assert!(ShardResult::try_from(odd).is_err(), "five records are not whole runs of two plays");
    }

    fn spec() -> ShardSpec {
        ShardSpec {
            scenario: [7; 32],
            variant: vec![SideVariant {
                side: "a".into(),
                hp: HpFraction(500_000),
                aware: None,
                copies: vec![],
                removed: vec![],
                roster: vec![],
            }],
            party: "a".into(),
            party_strategy: StrategySpec::parse("lowest_hp, retreat=0.5").unwrap(),
            adversary_strategy: StrategySpec::default_spec(),
            seed: 3,
            runs: 4..9,
            day: None,
            totals: false,
            packed: false,
        }
    }

    #[test]
    fn specs_and_leases_round_trip() {
        let lease = Lease { id: 12, key: [1; 32], spec: Arc::new(spec()) };
        let p = proto::ShardSpec::from(&*lease.spec);
        assert_eq!(p.party_strategy, "lowest_hp, retreat=0.5");
        assert_eq!(ShardSpec::try_from(&p), Ok(spec()));
        let answer = |leases: &[Lease]| {
            let (leases, specs) = encode_leases(leases);
            proto::LeaseResponse { leases, specs, ..Default::default() }
        };
        let good = answer(std::slice::from_ref(&lease));
        assert_eq!(decode_leases(&good), vec![Ok(lease.clone())]);
        let mut bad = good.clone();
        bad.leases[0].shard_key.pop();
        let e = decode_leases(&bad).remove(0).unwrap_err();
        assert!(matches!(e.error, WireError::Hash { .. }) && e.key.is_none() && e.id == 12, "{e:?}");
        let mut bad = good.clone();
        bad.specs[0].party_strategy = "cautious".into();
        let e = decode_leases(&bad).remove(0).unwrap_err();
        assert!(e.error.to_string().contains("cautious") && e.key == Some([1; 32]), "{e:?}");
        let mut bad = good.clone();
        bad.leases[0].spec = 1;
        assert!(decode_leases(&bad)[0].as_ref().unwrap_err().error.to_string().contains("Lease.spec"));
        let mut bad = good;
        bad.leases[0].run_end = 3;
        assert!(decode_leases(&bad)[0].as_ref().unwrap_err().error.to_string().contains("run_end"));
    }

    /// A cell's consecutive shards share one spec in the answer; another
    /// cell's (another seed, another strategy) gets its own, and each lease
    /// comes back with its own runs.
    #[test]
    fn a_cells_leases_share_one_spec() {
        let shard = |id: u64, runs: std::ops::Range<u64>, seed: u64| {
            let mut spec = spec();
            spec.runs = runs;
            spec.seed = seed;
            Lease { id, key: [id as u8; 32], spec: Arc::new(spec) }
        };
        let mut other = shard(5, 0..4, 3);
        Arc::make_mut(&mut other.spec).adversary_strategy = StrategySpec::parse("lowest_hp").unwrap();
        let leases = vec![
            shard(1, 0..4, 3),
            shard(2, 4..8, 3),
            shard(3, 8..9, 3),
            shard(4, 0..4, 9),
            other,
            shard(6, 4..8, 3),
        ];
        let (encoded, specs) = encode_leases(&leases);
        assert_eq!(specs.len(), 4);
        assert_eq!(encoded.iter().map(|l| l.spec).collect::<Vec<_>>(), vec![0, 0, 0, 1, 2, 3]);
        let resp = proto::LeaseResponse { leases: encoded, specs, ..Default::default() };
        let decoded: Vec<Lease> = decode_leases(&resp).into_iter().map(Result::unwrap).collect();
        assert_eq!(decoded, leases);
    }

    #[test]
    fn results_round_trip_and_inconsistent_tables_are_refused() {
        let result = ShardResult {
            summary: Summary {
                runs: 2,
                wins: vec![1, 0],
                draws: 1,
                rounds: 5,
                combatants: vec![Default::default()],
                summons: Vec::new(),
            },
            winner: vec![0, -1],
            rounds: vec![2, 3],
            final_hp: vec![4, 5],
            dead: vec![false, false],
            fled: Vec::new(),
            sides: vec!["a".into(), "b".into()],
            combatants: vec![CombatantInfo { id: "x".into(), side: 0, hp_max: 6, start_hp: 6 }],
            days: Vec::new(),
            day_plays: 0,
            totals: None,
            packed: None,
        };
        let report = ShardReport { lease: 1, key: [2; 32], outcome: Ok(result.clone()) };
        assert_eq!(ShardReport::try_from(proto::ShardReport::from(&report)), Ok(report.clone()));
        // The result's bytes are kept as they came, for the store.
        let (decoded, kept) = ShardReport::decode_keeping(proto::ShardReport::from(&report)).unwrap();
        assert_eq!(decoded, report);
        assert_eq!(kept, Some(proto::ShardResult::from(&result).encode_to_vec()));
        let mut garbage = proto::ShardReport::from(&report);
        garbage.result = vec![0xff; 3];
        let e = ShardReport::try_from(garbage).unwrap_err();
        assert!(e.to_string().contains("ShardReport.result"), "{e}");
        let mut empty = proto::ShardReport::from(&report);
        empty.result.clear();
        assert_eq!(ShardReport::try_from(empty), Err(WireError::Missing("ShardReport.result")));
        let mut short = proto::ShardResult::from(&result);
        short.dead.pop();
        assert!(ShardResult::try_from(short).is_err());
        let mut lying = proto::ShardResult::from(&result);
        lying.summary.as_mut().unwrap().runs = 3;
        assert!(ShardResult::try_from(lying).is_err());
        let failed = ShardReport { lease: 1, key: [2; 32], outcome: Err(ShardFailure("engine bug".into())) };
        assert_eq!(ShardReport::try_from(proto::ShardReport::from(&failed)), Ok(failed));
    }

    #[test]
    fn totals_are_those_of_the_runs_and_merge_exactly() {
        // Party "a": x (start 6) and z (start 4); foe y. Run 0: x at 3, z dying (−2);
        // run 1: x dead at −7, z at 4; run 2: x at 0 (disabled), z dead; run 3: unhurt.
        let result = ShardResult {
            summary: Summary {
                runs: 4,
                wins: vec![2, 1],
                draws: 1,
                rounds: 9,
                combatants: vec![
                    CombatantTotals { deaths: 1, ..Default::default() },
                    CombatantTotals::default(),
                    CombatantTotals { deaths: 1, ..Default::default() },
                ],
                summons: Vec::new(),
            },
            winner: vec![0, 1, 0, -1],
            rounds: vec![2, 3, 3, 1],
            final_hp: vec![3, 5, -2, -7, 1, 4, 0, 2, -11, 6, 8, 4],
            dead: vec![false, false, false, true, false, false, false, false, true, false, false, false],
            fled: Vec::new(),
            sides: vec!["a".into(), "b".into()],
            combatants: vec![
                CombatantInfo { id: "x".into(), side: 0, hp_max: 6, start_hp: 6 },
                CombatantInfo { id: "y".into(), side: 1, hp_max: 8, start_hp: 8 },
                CombatantInfo { id: "z".into(), side: 0, hp_max: 4, start_hp: 4 },
            ],
            days: Vec::new(),
            day_plays: 0,
            totals: None,
            packed: None,
        };
        assert_eq!(result.check(4), Ok(()));
        let t = result.totals(0);
        // Losses: 3 + 4 = 7, 6 + 0 = 6, 6 + 4 = 10, 0.
        assert_eq!(t.hp_lost, vec![(0, 1), (6, 1), (7, 1), (10, 1)]);
        assert_eq!(
            (t.party_all_down, t.party_deaths),
            (0, 2),
            "run 0: z dying but x up; run 2: x at 0 is up"
        );
        assert_eq!(t.final_hp, vec![2, 16, -5]);
        assert_eq!(
            (t.hp_lost_sum(), t.hp_lost_quantile(50), t.hp_lost_quantile(90), t.hp_lost_max()),
            (23, 6, 10, 10)
        );
        let compact = result.clone().into_totals("a");
        assert!(compact.winner.is_empty() && compact.final_hp.is_empty());
        assert_eq!(compact.runs(), 4);
        assert_eq!(compact.check(4), Ok(()));
        assert!(compact.check(5).is_err());
        let report = ShardReport { lease: 1, key: [2; 32], outcome: Ok(compact.clone()) };
        assert_eq!(ShardReport::try_from(proto::ShardReport::from(&report)), Ok(report));
        // Merging totals is merging histograms: exact.
        let mut a = ShardTotals {
            final_hp: vec![1, 2],
            party_all_down: 1,
            party_deaths: 0,
            party_fled: 0,
            hp_lost: vec![(0, 2), (5, 1)],
        };
        let b = ShardTotals {
            final_hp: vec![3, -4],
            party_all_down: 0,
            party_deaths: 2,
            party_fled: 0,
            hp_lost: vec![(-1, 1), (5, 2), (9, 1)],
        };
        a.merge(&b);
        assert_eq!(
            a,
            ShardTotals {
                final_hp: vec![4, -2],
                party_all_down: 1,
                party_deaths: 2,
                party_fled: 0,
                hp_lost: vec![(-1, 1), (0, 2), (5, 3), (9, 1)]
            }
        );
        // Forged totals do not check out.
        let forge = |f: &dyn Fn(&mut ShardResult)| {
            let mut r = compact.clone();
            f(&mut r);
            r.check(4).unwrap_err()
        };
        forge(&|r| r.summary.wins = vec![3, 1]);
        forge(&|r| r.totals.as_mut().unwrap().hp_lost = vec![(6, 1), (0, 3)]);
        forge(&|r| r.totals.as_mut().unwrap().hp_lost.push((11, 0)));
        forge(&|r| r.totals.as_mut().unwrap().party_deaths = 5);
        forge(&|r| {
            r.totals.as_mut().unwrap().final_hp.pop();
        });
        forge(&|r| r.winner.push(0));
    }

    #[test]
    fn packed_runs_round_trip_and_forged_ones_do_not_check_out() {
        let rows = |won: bool, draw: bool, lost: i64| RunRow {
            won,
            draw,
            rounds: 3,
            dead: lost > 5,
            all_down: lost > 8,
            fled: false,
            lost,
            remaining: 10 - lost.min(10),
        };
        let ours = vec![rows(true, false, 0), rows(false, true, 300), rows(false, false, 9)];
        let theirs = vec![rows(false, false, 4), rows(false, true, 0), rows(true, false, 1)];
        let p = PackedRuns::pack(1, &ours, &theirs);
        assert_eq!(p.unpack(), Some((ours.clone(), theirs.clone())));
        assert!(p.rows.len() <= 3 * 8, "a few bytes a run: {}", p.rows.len());
        let mut q = p.clone();
        q.append(&p);
        assert_eq!(q.unpack().unwrap().0.len(), 6);
        let mut cut = p.clone();
        cut.rows.pop();
        assert_eq!(cut.unpack(), None);
        let mut more = p.clone();
        more.runs = 2;
        assert_eq!(more.unpack(), None, "bytes left over");
        let mut both = p.clone();
        both.rows[0] |= 0b11;
        assert_eq!(both.unpack(), None, "two winners");
        // In a shard: the wins, draws, rounds and deaths are checked against the sums.
        let result = ShardResult {
            summary: Summary {
                runs: 3,
                wins: vec![1, 1],
                draws: 1,
                rounds: 9,
                combatants: vec![CombatantTotals::default()],
                summons: Vec::new(),
            },
            winner: Vec::new(),
            rounds: Vec::new(),
            final_hp: Vec::new(),
            dead: Vec::new(),
            fled: Vec::new(),
            sides: vec!["a".into(), "b".into()],
            combatants: vec![CombatantInfo { id: "x".into(), side: 1, hp_max: 10, start_hp: 10 }],
            days: Vec::new(),
            day_plays: 0,
            totals: Some(ShardTotals {
                final_hp: vec![11],
                party_all_down: 1,
                party_deaths: 2,
                party_fled: 0,
                hp_lost: vec![(0, 1), (9, 2)],
            }),
            packed: Some(p),
        };
        assert_eq!(result.check(3), Ok(()));
        let report = ShardReport { lease: 1, key: [2; 32], outcome: Ok(result.clone()) };
        assert_eq!(ShardReport::try_from(proto::ShardReport::from(&report)), Ok(report));
        let forge = |f: &dyn Fn(&mut PackedRuns)| {
            let mut r = result.clone();
            f(r.packed.as_mut().unwrap());
            r.check(3).unwrap_err()
        };
        forge(&|p| p.party = 2);
        forge(&|p| *p = PackedRuns::pack(1, &ours[..2], &theirs[..2]));
        forge(&|p| {
            *p = PackedRuns::pack(1, &[ours[1], ours[0], ours[1]], &[theirs[1], theirs[0], theirs[1]])
        });
        forge(&|p| p.rows[1] = 4);
        let mut no_totals = result.clone();
        no_totals.totals = None;
        assert!(no_totals.check(3).is_err());
    }

    #[test]
    fn who_fled_is_packed_in_a_second_flag_byte_only_when_someone_did() {
        let row = |won: bool, fled: bool| RunRow { won, rounds: 2, fled, lost: 3, ..RunRow::default() };
        let (ours, theirs) =
            (vec![row(false, false), row(false, true)], vec![row(true, false), row(true, false)]);
        let p = PackedRuns::pack(0, &ours, &theirs);
        assert_eq!(p.unpack(), Some((ours.clone(), theirs.clone())));
        // Run 0 takes a flag byte and five varints; run 1 one byte more.
        assert_eq!(p.rows.len(), 6 + 7);
        assert_eq!((p.rows[0] & 0x80, p.rows[6] & 0x80, p.rows[7]), (0, 0x80, 1));
        let them = PackedRuns::pack(0, &[row(true, false)], &[row(false, true)]);
        assert!(them.unpack().unwrap().1[0].fled);
        let mut bad = p.clone();
        bad.rows[7] = 4;
        assert_eq!(bad.unpack(), None, "an unknown bit of the second byte");
        let mut none = p;
        none.rows[7] = 0;
        assert_eq!(none.unpack(), None, "a second byte that says nothing");
    }

    /// Two goblins against an orc on the sample arena.
    #[cfg(feature = "yaml")]
    fn encounter() -> Encounter {
        use std::sync::Arc;
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let load = |f: &str| Arc::new(pf1e_engine::model::load_combatant(&root.join(f)).unwrap());
        let (g, o) = (load("data/monsters/goblin.json"), load("data/monsters/orc.json"));
        let map = Arc::new(pf1e_engine::map::Map::load(&root.join("data/maps/sample_arena.yaml")).unwrap());
        let side =
            |name: &str, combatants| pf1e_engine::encounter::SideSpec { name: name.into(), combatants };
        Encounter::build(map, vec![side("players", vec![g.clone(), g]), side("monsters", vec![o])]).unwrap()
    }

    #[cfg(feature = "yaml")]
    #[test]
    fn a_party_that_fled_is_counted_in_the_totals_and_the_records_survive_the_wire() {
        use pf1e_engine::combat::{CombatantOutcome, RunOutcome};
        let enc = encounter();
        let n = enc.combatants.len();
        let party = enc.combatants[0].side;
        let out = |winner: Option<u32>, fled: bool| {
            let mut combatants = vec![CombatantOutcome { final_hp: 5, ..Default::default() }; n];
            combatants[0].fled = fled;
            RunOutcome { winner, rounds: 2, combatants, summons: Vec::new() }
        };
        let other = 1 - party as u32;
        let runs =
            [out(Some(other), true), out(Some(party as u32), true), out(Some(other), false), out(None, true)];
        let r = ShardResult::from_outcomes(&enc, &runs);
        assert_eq!(r.fled.len(), 4 * n);
        assert_eq!(r.check(4), Ok(()));
        // Only run 0: another side won and a member got out.
        assert_eq!(r.totals(party).party_fled, 1);
        assert_eq!(
            r.run_rows(party).0.iter().map(|x| x.fled).collect::<Vec<_>>(),
            [true, false, false, false]
        );
        let back = ShardResult::try_from(proto::ShardResult::from(&r)).unwrap();
        assert_eq!(back, r);
        let compact = r.clone().into_compact(&enc.sides[party], true);
        assert_eq!(compact.check(4), Ok(()));
        assert_eq!(compact.totals.as_ref().unwrap().party_fled, 1);
        assert_eq!(compact.run_rows(party).0, r.run_rows(party).0, "packed or not, the same rows");
        // Nobody fled: no table, as before the field.
        let calm = ShardResult::from_outcomes(&enc, &[out(Some(other), false)]);
        assert!(calm.fled.is_empty());
        let mut ragged = r;
        ragged.fled.pop();
        assert!(ragged.check(4).is_err());
    }

    #[test]
    fn a_result_whose_sums_are_not_those_of_its_runs_does_not_check_out() {
        let result = ShardResult {
            summary: Summary {
                runs: 2,
                wins: vec![1, 0],
                draws: 1,
                rounds: 5,
                combatants: vec![CombatantTotals { deaths: 1, ..Default::default() }],
                summons: Vec::new(),
            },
            winner: vec![0, -1],
            rounds: vec![2, 3],
            final_hp: vec![4, -5],
            dead: vec![false, true],
            fled: Vec::new(),
            sides: vec!["a".into(), "b".into()],
            combatants: vec![CombatantInfo { id: "x".into(), side: 0, hp_max: 6, start_hp: 6 }],
            days: Vec::new(),
            day_plays: 0,
            totals: None,
            packed: None,
        };
        assert_eq!(result.check(2), Ok(()));
        assert!(result.check(3).is_err(), "another run count");
        let forge = |f: &dyn Fn(&mut ShardResult)| {
            let mut r = result.clone();
            f(&mut r);
            r.check(2).unwrap_err()
        };
        // A win rate of 1.000 claimed over runs that say otherwise.
        let e = forge(&|r| r.summary.wins = vec![2, 0]);
        assert!(e.to_string().contains("wins"), "{e}");
        forge(&|r| r.winner = vec![0, 0]);
        forge(&|r| r.winner = vec![0, 7]);
        forge(&|r| r.summary.rounds = 9);
        forge(&|r| r.summary.combatants[0].deaths = 0);
        forge(&|r| r.combatants[0].side = 2);
        forge(&|r| r.summary.wins = vec![1]);
        forge(&|r| r.final_hp.push(1));
    }
}
