//! Shards: what a worker is asked to play (runs of one cell), what it
//! returns (integer sums and compact per-run records), and their wire forms.

use std::ops::Range;

use pf1e_engine::combat::RunOutcome;
use pf1e_engine::encounter::Encounter;
use pf1e_engine::strategy::StrategySpec;
use pf1e_engine::summary::{CombatantTotals, Summary};

use pf1e_engine::day::DayRecord;

use crate::canon::{ContentHash, hex, parse_hex};
use crate::day::DayPlay;
use crate::error::WireError;
use crate::proto;
use crate::scenario::ScenarioHash;
use crate::variant::SideVariant;

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

/// The result of some runs of one cell: integer sums plus compact per-run
/// records, so results of consecutive run ranges merge exactly.
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
    /// Side names, in encounter order.
    pub sides: Vec<String>,
    /// Combatants, in encounter order.
    pub combatants: Vec<CombatantInfo>,
    /// A day cell's shard: one record per day, the battle tables above
    /// empty (and the summary counting only the runs).
    pub days: Vec<DayRecord>,
}

impl ShardResult {
    /// Packs the records of consecutive days.
    pub fn from_days(days: Vec<DayRecord>) -> Self {
        let mut summary = Summary::new(0, 0);
        summary.runs = days.len() as u64;
        ShardResult {
            summary,
            winner: Vec::new(),
            rounds: Vec::new(),
            final_hp: Vec::new(),
            dead: Vec::new(),
            sides: Vec::new(),
            combatants: Vec::new(),
            days,
        }
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
        };
        for o in outcomes {
            r.winner.push(o.winner.map_or(-1, |w| w as i32));
            r.rounds.push(o.rounds);
            r.final_hp.extend(o.combatants.iter().map(|c| c.final_hp));
            r.dead.extend(o.combatants.iter().map(|c| c.dead));
        }
        r
    }

    /// Number of runs (battles, or days).
    pub fn runs(&self) -> u64 {
        if self.is_days() { self.days.len() as u64 } else { self.winner.len() as u64 }
    }

    /// Checks that the tables have the shape of `runs` runs and that the
    /// summary's sums are those of the per-run records: a report that does
    /// not check out is refused before it reaches the cache.
    pub fn check(&self, runs: u64) -> Result<(), ShapeError> {
        let bad = |what: String| Err(ShapeError(what));
        if self.is_days() {
            if self.runs() != runs || self.summary.runs != runs {
                return bad(format!("{runs} days expected, got {} records", self.days.len()));
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
            days: r.days.iter().map(proto::DayRecord::from).collect(),
        }
    }
}

impl TryFrom<proto::ShardResult> for ShardResult {
    type Error = WireError;

    /// Decodes a result and checks that its tables agree with each other.
    fn try_from(r: proto::ShardResult) -> Result<Self, Self::Error> {
        let summary = Summary::from(r.summary.as_ref().ok_or(WireError::Missing("ShardResult.summary"))?);
        if !r.days.is_empty() {
            let days = r.days.iter().map(DayRecord::try_from).collect::<Result<Vec<_>, _>>()?;
            if summary.runs != days.len() as u64 || !r.winner.is_empty() || !r.combatants.is_empty() {
                return Err(WireError::invalid(
                    "ShardResult.days",
                    format!(
                        "{} runs summed, {} days, and battle tables beside them",
                        summary.runs,
                        days.len()
                    ),
                ));
            }
            let mut out = ShardResult::from_days(days);
            out.summary = summary;
            return Ok(out);
        }
        let runs = r.winner.len() as u64;
        let n = r.combatants.len() as u64;
        if summary.runs != runs || r.rounds.len() as u64 != runs {
            return Err(WireError::invalid(
                "ShardResult.summary",
                format!("{} runs summed, {runs} winners, {} round counts", summary.runs, r.rounds.len()),
            ));
        }
        if r.final_hp.len() as u64 != runs * n || r.dead.len() != r.final_hp.len() {
            return Err(WireError::invalid(
                "ShardResult.final_hp",
                "the final_hp or dead table is not runs × combatants",
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
    /// What to play.
    pub spec: ShardSpec,
}

fn key_of(bytes: &[u8], field: &'static str) -> Result<ShardKey, WireError> {
    ShardKey::try_from(bytes).map_err(|_| WireError::Hash { field, value: hex(bytes) })
}

impl From<&Lease> for proto::Lease {
    fn from(l: &Lease) -> Self {
        proto::Lease {
            lease_id: l.id,
            shard_key: l.key.to_vec(),
            spec: Some(proto::ShardSpec::from(&l.spec)),
        }
    }
}

impl TryFrom<&proto::Lease> for Lease {
    type Error = WireError;

    fn try_from(l: &proto::Lease) -> Result<Self, Self::Error> {
        Ok(Lease {
            id: l.lease_id,
            key: key_of(&l.shard_key, "Lease.shard_key")?,
            spec: ShardSpec::try_from(l.spec.as_ref().ok_or(WireError::Missing("Lease.spec"))?)?,
        })
    }
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
            Ok(result) => (Some(proto::ShardResult::from(result)), String::new()),
            Err(e) => (None, e.0.clone()),
        };
        proto::ShardReport { lease_id: r.lease, shard_key: r.key.to_vec(), result, error }
    }
}

impl TryFrom<proto::ShardReport> for ShardReport {
    type Error = WireError;

    fn try_from(r: proto::ShardReport) -> Result<Self, Self::Error> {
        let key = key_of(&r.shard_key, "ShardReport.shard_key")?;
        let outcome = if !r.error.is_empty() {
            Err(ShardFailure(r.error))
        } else {
            Ok(ShardResult::try_from(r.result.ok_or(WireError::Missing("ShardReport.result"))?)?)
        };
        Ok(ShardReport { lease: r.lease_id, key, outcome })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::HpFraction;

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
        }
    }

    #[test]
    fn specs_and_leases_round_trip() {
        let lease = Lease { id: 12, key: [1; 32], spec: spec() };
        let p = proto::Lease::from(&lease);
        assert_eq!(p.spec.as_ref().unwrap().party_strategy, "lowest_hp, retreat=0.5");
        assert_eq!(Lease::try_from(&p), Ok(lease));
        let mut bad = p.clone();
        bad.shard_key.pop();
        assert!(matches!(Lease::try_from(&bad), Err(WireError::Hash { .. })));
        let mut bad = p;
        bad.spec.as_mut().unwrap().party_strategy = "cautious".into();
        let e = Lease::try_from(&bad).unwrap_err();
        assert!(e.to_string().contains("cautious"), "{e}");
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
            sides: vec!["a".into(), "b".into()],
            combatants: vec![CombatantInfo { id: "x".into(), side: 0, hp_max: 6, start_hp: 6 }],
            days: Vec::new(),
        };
        let report = ShardReport { lease: 1, key: [2; 32], outcome: Ok(result.clone()) };
        assert_eq!(ShardReport::try_from(proto::ShardReport::from(&report)), Ok(report));
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
            sides: vec!["a".into(), "b".into()],
            combatants: vec![CombatantInfo { id: "x".into(), side: 0, hp_max: 6, start_hp: 6 }],
            days: Vec::new(),
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
