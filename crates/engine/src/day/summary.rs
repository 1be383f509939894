//! The figures of many days: how often the party completes the day, who
//! dies and where, what it has left before each fight, where the day breaks.

use serde::{Deserialize, Serialize};

use super::{DayEnd, DayRecord, DayShape};
use crate::metrics::{Confidence, proportion_interval};

/// The confidence of a day's report: three standard deviations.
pub const REPORT_CONFIDENCE: f64 = 0.9973;

/// A proportion with its interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rate {
    /// Days counted.
    pub count: u64,
    /// Days it is out of.
    pub of: u64,
    /// `count / of` (0 when `of` is 0).
    pub rate: f64,
    /// Score interval at the summary's confidence.
    pub low: f64,
    /// Upper end.
    pub high: f64,
}

impl Rate {
    fn new(count: u64, of: u64, c: Confidence) -> Self {
        let (low, high) = if of == 0 { (0.0, 1.0) } else { proportion_interval(count, of, c) };
        Rate { count, of, rate: if of == 0 { 0.0 } else { count as f64 / of as f64 }, low, high }
    }
}

/// One fight of the day, over all days.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FightSummary {
    /// Its name.
    pub name: String,
    /// Days that reached it.
    pub reached: u64,
    /// Of those, days in which the party won it.
    pub won: Rate,
    /// Of those, days in which a member died in it (or of its wounds after it).
    pub deaths: Rate,
    /// Of all days, days that ended here (lost or drawn).
    pub broke_here: Rate,
    /// Mean fraction of the party's hit points as it entered (days that reached it).
    pub hp_before: f64,
    /// Mean spell slots left as it entered.
    pub slots_before: f64,
    /// Mean class ability uses left as it entered.
    pub uses_before: f64,
    /// Mean members standing as it entered.
    pub standing_before: f64,
    /// Mean rounds.
    pub rounds: f64,
}

/// One member of the party, over all days.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MemberSummary {
    /// Its name.
    pub name: String,
    /// Days at whose end it is dead.
    pub dead: Rate,
    /// Mean hit points at the end of the day (the dead counted at 0).
    pub hp_end: f64,
}

/// The figures of many days.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DaySummary {
    /// The day's name.
    pub name: String,
    /// Days played.
    pub runs: u64,
    /// The confidence of the intervals.
    pub confidence: f64,
    /// Days completed (every fight won, no flight).
    pub completed: Rate,
    /// Days in which some member died.
    pub some_death: Rate,
    /// Days the party withdrew.
    pub fled: Rate,
    /// Per fight, in the order of the day's encounters.
    pub fights: Vec<FightSummary>,
    /// Per member, in party order.
    pub members: Vec<MemberSummary>,
    /// The fight that most often ends the day or kills someone: index into
    /// `fights`, `None` when no day broke and nobody died.
    pub breaking_point: Option<usize>,
    /// Hit points restored between fights, per day (mean).
    pub healed_between: f64,
    /// Spell slots spent healing between fights, per day (mean).
    pub slots_spent_between: f64,
    /// Wand charges spent healing between fights, per day (mean).
    pub charges_spent_between: f64,
}

impl DaySummary {
    /// The figures of `outcomes`, days of the day shaped `day`.
    pub fn of(day: &DayShape, outcomes: &[DayRecord], c: Confidence) -> Self {
        let n = outcomes.len() as u64;
        let count = |f: &dyn Fn(&DayRecord) -> bool| outcomes.iter().filter(|o| f(o)).count() as u64;
        let mut fights = Vec::with_capacity(day.encounters.len());
        for (e, name) in day.encounters.iter().enumerate() {
            let records: Vec<_> =
                outcomes.iter().flat_map(|o| o.fights.iter().filter(move |f| f.encounter == e)).collect();
            let reached = records.len() as u64;
            let mean = |f: &dyn Fn(&super::FightRecord) -> f64| {
                if reached == 0 { 0.0 } else { records.iter().map(|r| f(r)).sum::<f64>() / reached as f64 }
            };
            let won = records.iter().filter(|r| r.won).count() as u64;
            let deaths = records.iter().filter(|r| r.deaths > 0).count() as u64;
            let broke = count(&|o| o.end == DayEnd::Defeated { encounter: e });
            fights.push(FightSummary {
                name: name.clone(),
                reached,
                won: Rate::new(won, reached, c),
                deaths: Rate::new(deaths, reached, c),
                broke_here: Rate::new(broke, n, c),
                hp_before: mean(&|r| f64::from(r.before.hp) / f64::from(r.before.hp_max.max(1))),
                slots_before: mean(&|r| f64::from(r.before.slots)),
                uses_before: mean(&|r| f64::from(r.before.uses)),
                standing_before: mean(&|r| f64::from(r.before.standing)),
                rounds: mean(&|r| f64::from(r.rounds)),
            });
        }
        let members = day
            .members
            .iter()
            .enumerate()
            .map(|(m, name)| MemberSummary {
                name: name.clone(),
                dead: Rate::new(count(&|o| o.members[m].dead), n, c),
                hp_end: if n == 0 {
                    0.0
                } else {
                    outcomes
                        .iter()
                        .map(|o| if o.members[m].dead { 0.0 } else { f64::from(o.members[m].hp.max(0)) })
                        .sum::<f64>()
                        / n as f64
                },
            })
            .collect();
        let breaking_point = (0..fights.len())
            .map(|e| {
                let k = outcomes
                    .iter()
                    .filter(|o| {
                        o.end == DayEnd::Defeated { encounter: e }
                            || o.fights.iter().any(|f| f.encounter == e && f.deaths > 0)
                    })
                    .count();
                (k, e)
            })
            .filter(|&(k, _)| k > 0)
            .max_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)))
            .map(|(_, e)| e);
        let per_day = |f: &dyn Fn(&DayRecord) -> f64| {
            if n == 0 { 0.0 } else { outcomes.iter().map(f).sum::<f64>() / n as f64 }
        };
        DaySummary {
            name: day.name.clone(),
            runs: n,
            confidence: c.level(),
            completed: Rate::new(count(&|o| o.end == DayEnd::Completed), n, c),
            some_death: Rate::new(count(&|o| o.dead() > 0), n, c),
            fled: Rate::new(count(&|o| matches!(o.end, DayEnd::Fled { .. })), n, c),
            fights,
            members,
            breaking_point,
            healed_between: per_day(&|o| {
                f64::from(o.rests.healed) + o.fights.iter().map(|f| f64::from(f.aid.healed)).sum::<f64>()
            }),
            slots_spent_between: per_day(&|o| {
                f64::from(o.rests.slots_spent)
                    + o.fights.iter().map(|f| f64::from(f.aid.slots_spent)).sum::<f64>()
            }),
            charges_spent_between: per_day(&|o| {
                f64::from(o.rests.charges_spent)
                    + o.fights.iter().map(|f| f64::from(f.aid.charges_spent)).sum::<f64>()
            }),
        }
    }
}
