//! Who carries the fight: what each combatant did per battle (damage per
//! round, healing, conditions put on foes) and how the party fares when the
//! same encounter is played without it.
//!
//! The per-combatant figures are the battle's own counters
//! (`CombatantOutcome`, summed in `Summary`), so an unwatched battle builds
//! no transcript for them. "Without" replays the encounter with the
//! combatant removed ([`Encounter::without`]: everyone else keeps its
//! square) on the same seed, so run `i` of both batches starts from the
//! same dice and the change is measured run by run (a paired difference,
//! `docs/statistics.md`). Removal is exact integers and per-run booleans:
//! the result does not depend on threads or sharding.

use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::combat::{RunOutcome, SimOptions};
use crate::encounter::Encounter;
use crate::metrics::{Paired, Sign, win_rate};
use crate::party::PartyTally;
use crate::summary::Summary;

/// What one combatant did, and the party's fate without it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Contribution {
    /// The combatant's id.
    pub id: String,
    /// Its side's name.
    pub side: String,
    /// Damage it dealt per round of battle (after reductions).
    pub damage_per_round: f64,
    /// Hit points it restored to others per battle.
    pub healing: f64,
    /// Timed conditions it put on foes per battle.
    pub conditions: f64,
    /// The party without it (`None`: not measured, or it is the last of
    /// its side so there is no battle without it).
    pub without: Option<Without>,
}

/// The party's figures in the encounter without one combatant, against
/// the full encounter on the same dice.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Without {
    /// Runs measured.
    pub runs: u64,
    /// P(the party wins) without it.
    pub p_win: f64,
    /// P(some party member dies) without it.
    pub p_pc_dies: f64,
    /// `p_win` without minus with it (paired run by run).
    pub win_change: f64,
    /// Its interval at the comparison's quantile.
    pub win_interval: [f64; 2],
    /// `p_pc_dies` without minus with it.
    pub death_change: f64,
    /// Its interval.
    pub death_interval: [f64; 2],
    /// Whether either change is told apart from 0 at the quantile.
    pub significant: bool,
}

impl Without {
    /// Whether the change of the win rate alone is told apart from 0: its
    /// interval excludes 0 (what `Paired::sign` decided when it was
    /// measured; read from the interval so that a result decoded from the
    /// wire or a JSON file answers the same).
    pub fn win_told_apart(&self) -> bool {
        excludes_zero(self.win_interval)
    }

    /// Whether the change of P(a PC dies) alone is told apart from 0.
    pub fn death_told_apart(&self) -> bool {
        excludes_zero(self.death_interval)
    }
}

/// An interval that lies wholly on one side of 0.
fn excludes_zero([low, high]: [f64; 2]) -> bool {
    low > 0.0 || high < 0.0
}

/// The party's outcome of each run, in run order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PartyRuns {
    /// The party won.
    pub won: Vec<bool>,
    /// Some party member died.
    pub died: Vec<bool>,
}

impl PartyRuns {
    /// Adds the runs of `outcomes` (in run order) of `encounter`, the party
    /// being `tally`'s side.
    pub fn extend(&mut self, tally: &PartyTally, encounter: &Encounter, outcomes: &[RunOutcome]) {
        for o in outcomes {
            let b = tally.battle(encounter, o, 0);
            self.won.push(b.won);
            self.died.push(b.some_death);
        }
    }

    /// Runs recorded.
    pub fn len(&self) -> usize {
        self.won.len()
    }

    /// Whether no run is recorded.
    pub fn is_empty(&self) -> bool {
        self.won.is_empty()
    }
}

/// Each combatant's own figures from the sums of the full encounter, in
/// encounter order, `without` left empty.
pub fn figures(encounter: &Encounter, summary: &Summary) -> Vec<Contribution> {
    let who: Vec<(&str, &str)> =
        encounter.combatants.iter().map(|d| (d.id.as_str(), encounter.sides[d.side].as_str())).collect();
    figures_of(&who, summary)
}

/// [`figures`] of combatants given as (id, side name), in the order of
/// `summary`'s rows.
pub fn figures_of(who: &[(&str, &str)], summary: &Summary) -> Vec<Contribution> {
    let per = |sum: u64, n: u64| if n == 0 { 0.0 } else { sum as f64 / n as f64 };
    who.iter()
        .zip(&summary.combatants)
        .map(|((id, side), t)| Contribution {
            id: (*id).to_string(),
            side: (*side).to_string(),
            damage_per_round: per(t.damage_dealt, summary.rounds),
            healing: per(t.healing_given, summary.runs),
            conditions: per(t.conditions_inflicted, summary.runs),
            without: None,
        })
        .collect()
}

/// The party without a combatant (`without`) against the full encounter
/// (`with`), paired over their common runs, intervals at quantile `z`.
pub fn compare(with: &PartyRuns, without: &PartyRuns, z: f64) -> Without {
    let n = with.len().min(without.len());
    let flag = |v: &[bool], i: usize| f64::from(u8::from(v[i]));
    let win = Paired::from_fn(n, |i| flag(&without.won, i) - flag(&with.won, i));
    let death = Paired::from_fn(n, |i| flag(&without.died, i) - flag(&with.died, i));
    let count = |v: &[bool]| v.iter().filter(|&&b| b).count() as u64;
    let (wl, wh) = win.interval(z);
    let (dl, dh) = death.interval(z);
    Without {
        runs: without.len() as u64,
        p_win: win_rate(count(&without.won), without.len() as u64),
        p_pc_dies: win_rate(count(&without.died), without.len() as u64),
        win_change: win.mean,
        win_interval: [wl, wh],
        death_change: death.mean,
        death_interval: [dl, dh],
        significant: win.sign(z) != Sign::Tied || death.sign(z) != Sign::Tied,
    }
}

/// Plays runs `runs` of `encounter` (seed `seed`) by chunks through `play`
/// and records the party's outcome of each. `play` must return the
/// outcomes of the range it is given, in run order.
pub fn party_runs(
    encounter: &Encounter,
    party_side: usize,
    runs: Range<u64>,
    chunk: u64,
    play: &mut dyn FnMut(&Encounter, Range<u64>) -> Vec<RunOutcome>,
) -> PartyRuns {
    let tally = PartyTally::new(encounter, party_side);
    let mut out = PartyRuns::default();
    let mut start = runs.start;
    while start < runs.end {
        let end = runs.end.min(start.saturating_add(chunk.max(1)));
        out.extend(&tally, encounter, &play(encounter, start..end));
        start = end;
    }
    out
}

/// Every combatant's contribution: its figures from `summary` (the full
/// encounter's sums) and, for each one that is not the last of its side,
/// the party's fate in `runs` played without it, paired with `with` (the
/// full encounter's party runs on the same seed). `play` plays a range of
/// runs of an encounter (on whatever pool the caller chose); `z` is the
/// comparison's quantile (Bonferroni over the combatants, say).
pub fn measure(
    encounter: &Encounter,
    summary: &Summary,
    party_side: usize,
    with: &PartyRuns,
    z: f64,
    play: &mut dyn FnMut(&Encounter, Range<u64>) -> Vec<RunOutcome>,
) -> Vec<Contribution> {
    let mut out = figures(encounter, summary);
    let runs = with.len() as u64;
    for (i, c) in out.iter_mut().enumerate() {
        if let Some(less) = encounter.without(i) {
            let side = party_side.min(less.sides.len().saturating_sub(1));
            let runs = party_runs(&less, side, 0..runs, 4096, play);
            c.without = Some(compare(with, &runs, z));
        }
    }
    out
}

/// `measure` with the engine's own batch runner (the current rayon pool).
pub fn measure_default(
    encounter: &Encounter,
    options: &SimOptions,
    seed: u64,
    summary: &Summary,
    party_side: usize,
    with: &PartyRuns,
    z: f64,
) -> Vec<Contribution> {
    measure(encounter, summary, party_side, with, z, &mut |e, r| {
        crate::runner::run_batch(e, options, seed, r)
    })
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::encounter::SideSpec;
    use crate::map::Map;
    use crate::model::load_combatant;
    use crate::runner;

    fn encounter() -> Encounter {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data");
        let map = Arc::new(Map::load(&root.join("maps/sample_arena.yaml")).unwrap());
        let c = |p: &str| Arc::new(load_combatant(&root.join(p)).unwrap());
        let sides = vec![
            SideSpec {
                name: "players".into(),
                combatants: vec![c("monsters/orc.json"), c("monsters/goblin.json")],
            },
            SideSpec {
                name: "monsters".into(),
                combatants: vec![
                    c("monsters/goblin.json"),
                    c("monsters/goblin.json"),
                    c("monsters/goblin.json"),
                ],
            },
        ];
        Encounter::build(map, sides).unwrap()
    }

    #[test]
    fn compare_pairs_runs_and_says_when_a_change_is_told_apart() {
        let with = PartyRuns { won: vec![true; 40], died: vec![false; 40] };
        let mut without = with.clone();
        for i in 0..20 {
            without.won[i] = false;
            without.died[i] = true;
        }
        let w = compare(&with, &without, 1.96);
        assert_eq!((w.runs, w.p_win, w.p_pc_dies), (40, 0.5, 0.5));
        assert_eq!((w.win_change, w.death_change), (-0.5, 0.5));
        assert!(w.significant);
        assert!(w.win_interval[0] < -0.5 && w.win_interval[1] > -0.5 && w.win_interval[1] < 0.0);
        assert!(w.win_told_apart() && w.death_told_apart());
        // A win change told apart beside a death change that is not: each
        // change carries its own mark, `significant` is either.
        let mut mixed = with.clone();
        for i in 0..20 {
            mixed.won[i] = false;
        }
        mixed.died[0] = true;
        let m = compare(&with, &mixed, 1.96);
        assert!(m.significant && m.win_told_apart() && !m.death_told_apart(), "{m:?}");
        let same = compare(&with, &with, 1.96);
        assert!(!same.win_told_apart() && !same.death_told_apart());
        assert_eq!((same.win_change, same.death_change, same.significant), (0.0, 0.0, false));
    }

    #[test]
    fn the_figures_are_per_round_and_per_battle_and_the_last_of_a_side_is_not_removed() {
        let enc = encounter();
        let opts = SimOptions::default();
        let outcomes = runner::run_batch(&enc, &opts, 7, 0..60);
        let summary = Summary::from_outcomes(2, enc.combatants.len(), &outcomes);
        let tally = PartyTally::new(&enc, 0);
        let mut with = PartyRuns::default();
        with.extend(&tally, &enc, &outcomes);
        let c = measure_default(&enc, &opts, 7, &summary, 0, &with, 2.5);
        assert_eq!(c.len(), 5);
        let dealt: u64 = summary.combatants[0].damage_dealt;
        assert_eq!(c[0].damage_per_round, dealt as f64 / summary.rounds as f64);
        // Everyone has a side-mate, so every removal is measured, on 60 runs.
        assert!(c.iter().all(|c| c.without.as_ref().is_some_and(|w| w.runs == 60)));
        // The orc carries the players: without it they win less often.
        let orc = c[0].without.as_ref().unwrap();
        assert!(orc.win_change < 0.0, "{orc:?}");
        // Removing a goblin foe helps the players.
        let foe = c[2].without.as_ref().unwrap();
        assert!(foe.win_change >= 0.0, "{foe:?}");
        // Determinism: the same again.
        assert_eq!(measure_default(&enc, &opts, 7, &summary, 0, &with, 2.5), c);
        // The last of a side has no battle without it.
        let one = enc.without(0).unwrap().without(0);
        assert!(one.is_none());
    }
}
