//! A day's plans: what the party may decide about the day itself (rest
//! before a fight, how much it spends between fights, skip an optional
//! fight), compared on the same dice.
//!
//! A plan rewrites the day's steps; fights keep their dice streams, keyed
//! by the order they are fought in (`day` module), so two plans that play
//! the same first fights play them on the same dice, and their difference
//! is paired run by run. Skipping a fight shifts the streams of the fights
//! after it: those are compared on independent dice.

use serde::{Deserialize, Serialize};

use super::summary::{DaySummary, Rate};
use super::tally::{PairTally, PlayTally};
use super::{Day, Step};
use crate::combat::RestSpending;
use crate::metrics::{Confidence, Paired, Sign};

/// A change to the day as written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    /// Its name in reports.
    pub name: String,
    /// Encounters (indices into [`Day::encounters`]) before which the party
    /// takes a night's rest.
    pub long_rest_before: Vec<usize>,
    /// What every short rest spends, when the plan says.
    pub spend: Option<RestSpending>,
    /// Encounters the party avoids.
    pub skip: Vec<usize>,
    /// Encounters the party saves its spells for: in every fight before the
    /// first of them, its spellcasters cast nothing (`spell_policy=none`).
    pub save_slots_for: Vec<usize>,
}

impl Day {
    /// The day as `plan` plays it.
    pub fn planned(&self, plan: &Plan) -> Day {
        Day {
            name: self.name.clone(),
            party: self.party.clone(),
            encounters: self.encounters.clone(),
            steps: planned_steps(&self.steps, plan),
        }
    }
}

/// The steps `steps` as `plan` rewrites them (what [`Day::planned`] plays;
/// the coordinator's day cells carry them).
pub fn planned_steps(steps: &[Step], plan: &Plan) -> Vec<Step> {
    let mut out = Vec::with_capacity(steps.len() + plan.long_rest_before.len() + 2);
    // Holding from the start until the first fight it saves the spells for.
    let mut holding = !plan.save_slots_for.is_empty();
    if holding {
        out.push(Step::HoldSpells(true));
    }
    // The time after a skipped fight is not spent either.
    let mut skipped = false;
    for s in steps {
        let after_skipped = std::mem::take(&mut skipped);
        match *s {
            Step::Encounter(e) if plan.skip.contains(&e) => skipped = true,
            Step::Pass(_) if after_skipped => skipped = true,
            Step::Pass(r) => out.push(Step::Pass(r)),
            Step::Encounter(e) => {
                if holding && plan.save_slots_for.contains(&e) {
                    out.push(Step::HoldSpells(false));
                    holding = false;
                }
                if plan.long_rest_before.contains(&e) {
                    out.push(Step::LongRest);
                }
                out.push(Step::Encounter(e));
            }
            Step::ShortRest(spend) => out.push(Step::ShortRest(plan.spend.unwrap_or(spend))),
            Step::LongRest => out.push(Step::LongRest),
            Step::Branch(c, choice) => out.push(Step::Branch(c, choice)),
            Step::HoldSpells(h) => {
                holding = h;
                out.push(Step::HoldSpells(h));
            }
        }
    }
    out
}

/// One plan's figures and its difference with the day as written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlanResult {
    /// The plan's name.
    pub name: String,
    /// Days completed.
    pub completed: Rate,
    /// Days in which some member died.
    pub some_death: Rate,
    /// P(completed) of this plan minus the day as written's (paired).
    pub completed_change: f64,
    /// P(some member dies) of this plan minus the day as written's (paired).
    pub death_change: f64,
    /// Whether either change is told apart from none (paired, at the
    /// summary's confidence, Bonferroni over the plans).
    pub significant: bool,
}

/// The plans, each against the first (the day as written), best first: the
/// most days completed, then the fewest deaths. `tallies[p]` tallies play
/// `p`'s days, paired run by run with the day as written (`tallies[0]`):
/// the differences are of 0/1 outcomes, so their counts are all they need.
pub fn compare(
    names: &[String],
    summaries: &[DaySummary],
    tallies: &[PlayTally],
    c: Confidence,
) -> Vec<PlanResult> {
    let z = c.bonferroni_z(names.len().saturating_sub(1).max(1) as u64 * 2);
    let mut out: Vec<PlanResult> = names
        .iter()
        .zip(summaries)
        .zip(tallies)
        .map(|((name, s), t)| {
            let paired = |p: &PairTally| Paired::of_counts(p.gained, p.lost, p.runs);
            PlanResult::of(name, s, paired(&t.done_vs_base), paired(&t.died_vs_base), z)
        })
        .collect();
    best_first(&mut out);
    out
}

impl PlanResult {
    /// Plan `name` (its summary `s`) against the day as written: `done` and
    /// `died` are the paired changes of completing and of losing a member;
    /// `z` the critical value they are told apart from none at.
    fn of(name: &str, s: &DaySummary, done: Paired, died: Paired, z: f64) -> Self {
        PlanResult {
            name: name.to_string(),
            completed: s.completed,
            some_death: s.some_death,
            completed_change: done.mean,
            death_change: died.mean,
            significant: done.sign(z) != Sign::Tied || died.sign(z) != Sign::Tied,
        }
    }
}

/// The most days completed first, then the fewest deaths.
fn best_first(plans: &mut [PlanResult]) {
    plans.sort_by(|x, y| {
        y.completed.rate.total_cmp(&x.completed.rate).then(x.some_death.rate.total_cmp(&y.some_death.rate))
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::day::{Choice, Condition, DayEnd, DayRecord};
    use crate::metrics::Paired;

    #[test]
    fn saving_the_spells_holds_them_from_the_start_to_the_first_fight_saved_for() {
        let steps = [
            Step::Encounter(0),
            Step::ShortRest(RestSpending::All),
            Step::Encounter(1),
            Step::Branch(Condition::AnyoneDown, Choice::LongRest),
            Step::Encounter(2),
            Step::Encounter(3),
        ];
        let plan = Plan {
            name: "save".into(),
            save_slots_for: vec![2, 3],
            long_rest_before: vec![2],
            ..Plan::default()
        };
        assert_eq!(
            planned_steps(&steps, &plan),
            vec![
                Step::HoldSpells(true),
                Step::Encounter(0),
                Step::ShortRest(RestSpending::All),
                Step::Encounter(1),
                Step::Branch(Condition::AnyoneDown, Choice::LongRest),
                Step::HoldSpells(false),
                Step::LongRest,
                Step::Encounter(2),
                Step::Encounter(3),
            ]
        );
        // The time after a skipped fight goes with it.
        let walked =
            [Step::Encounter(0), Step::Pass(10), Step::Encounter(1), Step::Pass(10), Step::Encounter(2)];
        let skip = Plan { name: "skip".into(), skip: vec![1], ..Plan::default() };
        assert_eq!(
            planned_steps(&walked, &skip),
            vec![Step::Encounter(0), Step::Pass(10), Step::Encounter(2)]
        );
        // Without it, nothing is held.
        assert!(!planned_steps(&steps, &Plan::default()).iter().any(|s| matches!(s, Step::HoldSpells(_))));
    }

    /// The comparison as it was computed before tallies, from the records.
    fn oracle(
        names: &[String],
        summaries: &[DaySummary],
        outcomes: &[Vec<DayRecord>],
        c: Confidence,
    ) -> (Vec<PlanResult>, Vec<(Paired, Paired)>) {
        let indicator = |o: &[DayRecord], f: &dyn Fn(&DayRecord) -> bool| -> Vec<f64> {
            o.iter().map(|d| if f(d) { 1.0 } else { 0.0 }).collect()
        };
        let done = |d: &DayRecord| d.end == DayEnd::Completed;
        let died = |d: &DayRecord| d.dead() > 0;
        let z = c.bonferroni_z(names.len().saturating_sub(1).max(1) as u64 * 2);
        let base_done = indicator(&outcomes[0], &done);
        let base_died = indicator(&outcomes[0], &died);
        let mut paired = Vec::new();
        let mut out: Vec<PlanResult> = names
            .iter()
            .zip(summaries)
            .zip(outcomes)
            .map(|((name, s), o)| {
                let a = Paired::of(&indicator(o, &done), &base_done);
                let b = Paired::of(&indicator(o, &died), &base_died);
                paired.push((a, b));
                PlanResult::of(name, s, a, b, z)
            })
            .collect();
        best_first(&mut out);
        (out, paired)
    }

    /// The plans compared from tallies: the records' comparison bit for
    /// bit (the changes are exact; the spread to the last bits, which the
    /// significance reads with room to spare), whatever the sharding.
    #[test]
    fn the_tallies_compare_the_plans_as_the_records_do() {
        use crate::day::summary::tests::{random_days, shape};
        use crate::day::tally::DayTally;
        let c = Confidence::default();
        for (seed, n) in [(10, 0), (11, 1), (12, 9), (13, 400), (14, 3000)] {
            let plays: Vec<Vec<DayRecord>> = (0..4).map(|p| random_days(seed * 7 + p, n, 3, 4)).collect();
            // A plan equal to the day as written on most days: a small, paired difference.
            let mut close = plays[0].clone();
            for d in close.iter_mut().step_by(17) {
                d.end = DayEnd::Completed;
            }
            let plays: Vec<Vec<DayRecord>> = plays.into_iter().chain([close]).collect();
            let names: Vec<String> = (0..plays.len()).map(|p| format!("p{p}")).collect();
            let summaries: Vec<DaySummary> =
                plays.iter().map(|o| DaySummary::of(&shape(3, 4), o, c)).collect();
            let (want, paired) = oracle(&names, &summaries, &plays, c);
            let tally = DayTally::of_plays(&plays);
            assert_eq!(compare(&names, &summaries, &tally.plays, c), want, "seed {seed}");
            for (t, (a, b)) in tally.plays.iter().zip(&paired) {
                for (p, o) in [(&t.done_vs_base, a), (&t.died_vs_base, b)] {
                    let got = Paired::of_counts(p.gained, p.lost, p.runs);
                    assert_eq!((got.n, got.mean.to_bits()), (o.n, o.mean.to_bits()));
                    assert!((got.se - o.se).abs() <= 1e-12 * o.se.max(1e-300), "{} vs {}", got.se, o.se);
                }
            }
            // Run by run, in shards of any size and order: the same tally.
            let mut runs: Vec<DayRecord> = Vec::new();
            for i in 0..n {
                runs.extend(plays.iter().map(|p| p[i].clone()));
            }
            let k = plays.len();
            let mut sharded = DayTally::default();
            for chunk in runs.chunks(7 * k).rev() {
                let mut part = DayTally::default();
                part.add_runs(chunk, k);
                sharded.merge(&part);
            }
            if n > 0 {
                assert_eq!(sharded, tally);
            }
        }
    }
}
