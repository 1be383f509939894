//! The figures of many days: how often the party completes the day, who
//! dies and where, what it has left before each fight, where the day breaks.

use serde::{Deserialize, Serialize};

use super::tally::{FightTally, PlayTally};
use super::{DayRecord, DayShape};
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
    pub(crate) fn new(count: u64, of: u64, c: Confidence) -> Self {
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
        Self::of_tally(day, &PlayTally::of(outcomes), c)
    }

    /// The figures of the days tallied in `t`, days of the day shaped `day`.
    /// Means are sums of integers over counts: the same figures whatever
    /// the order the days were tallied in.
    pub fn of_tally(day: &DayShape, t: &PlayTally, c: Confidence) -> Self {
        let n = t.runs;
        let none = FightTally::default();
        let per = |sum: f64, of: u64| if of == 0 { 0.0 } else { sum / of as f64 };
        let fights: Vec<FightSummary> = day
            .encounters
            .iter()
            .enumerate()
            .map(|(e, name)| {
                let f = t.fights.get(e).unwrap_or(&none);
                let reached = f.reached;
                let hp: f64 = f.hp_before.iter().map(|(&max, &hp)| hp as f64 / f64::from(max)).sum();
                FightSummary {
                    name: name.clone(),
                    reached,
                    won: Rate::new(f.won, reached, c),
                    deaths: Rate::new(f.deaths, reached, c),
                    broke_here: Rate::new(f.broke_here, n, c),
                    hp_before: per(hp, reached),
                    slots_before: per(f.slots_before as f64, reached),
                    uses_before: per(f.uses_before as f64, reached),
                    standing_before: per(f.standing_before as f64, reached),
                    rounds: per(f.rounds as f64, reached),
                }
            })
            .collect();
        let members = day
            .members
            .iter()
            .enumerate()
            .map(|(m, name)| {
                let (dead, hp) = t.members.get(m).map_or((0, 0), |m| (m.dead, m.hp_end));
                MemberSummary { name: name.clone(), dead: Rate::new(dead, n, c), hp_end: per(hp as f64, n) }
            })
            .collect();
        // The most days broken (ended, or someone died), the first such fight on a tie.
        let breaking_point = (0..fights.len())
            .map(|e| (t.fights.get(e).map_or(0, |f| f.breaking), e))
            .filter(|&(k, _)| k > 0)
            .max_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)))
            .map(|(_, e)| e);
        DaySummary {
            name: day.name.clone(),
            runs: n,
            confidence: c.level(),
            completed: Rate::new(t.completed, n, c),
            some_death: Rate::new(t.some_death, n, c),
            fled: Rate::new(t.fled, n, c),
            fights,
            members,
            breaking_point,
            healed_between: per(t.healed as f64, n),
            slots_spent_between: per(t.slots_spent as f64, n),
            charges_spent_between: per(t.charges_spent as f64, n),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::combat::Tending;
    use crate::day::{DayEnd, FightRecord, MemberEnd, Resources};

    /// The figures as they were computed before tallies, record by record
    /// in run order: the oracle the tallies are checked against.
    pub(crate) fn oracle(day: &DayShape, outcomes: &[DayRecord], c: Confidence) -> DaySummary {
        let n = outcomes.len() as u64;
        let count = |f: &dyn Fn(&DayRecord) -> bool| outcomes.iter().filter(|o| f(o)).count() as u64;
        let mut fights = Vec::with_capacity(day.encounters.len());
        for (e, name) in day.encounters.iter().enumerate() {
            let records: Vec<_> =
                outcomes.iter().flat_map(|o| o.fights.iter().filter(move |f| f.encounter == e)).collect();
            let reached = records.len() as u64;
            let mean = |f: &dyn Fn(&crate::day::FightRecord) -> f64| {
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

    /// `n` pseudo-random days of a day of `encounters` fights and
    /// `members` members, every kind of end, death and aid among them.
    pub(crate) fn random_days(seed: u64, n: usize, encounters: usize, members: usize) -> Vec<DayRecord> {
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut next = move |m: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % m.max(1)
        };
        (0..n)
            .map(|_| {
                let fought = 1 + next(encounters as u64 + 1) as usize;
                let fights: Vec<FightRecord> = (0..fought)
                    .map(|k| {
                        // A day may fight an encounter twice, or skip one.
                        let encounter =
                            if next(5) == 0 { next(encounters as u64) as usize } else { k % encounters };
                        let hp_max = 40 + 7 * encounter as u32 + next(2) as u32;
                        FightRecord {
                            encounter,
                            won: next(4) != 0,
                            rounds: 1 + next(12) as u32,
                            before: Resources {
                                hp: next(u64::from(hp_max) + 1) as u32,
                                hp_max,
                                slots: next(9) as u32,
                                uses: next(5) as u32,
                                standing: next(members as u64 + 1) as u32,
                            },
                            deaths: if next(6) == 0 { 1 + next(2) as u32 } else { 0 },
                            aid: Tending {
                                healed: next(30) as u32,
                                slots_spent: next(3) as u32,
                                charges_spent: next(4) as u32,
                                ..Tending::default()
                            },
                        }
                    })
                    .collect();
                let end = match next(4) {
                    0 => DayEnd::Fled { step: next(6) as usize },
                    1 => DayEnd::Defeated { encounter: fights[fights.len() - 1].encounter },
                    _ => DayEnd::Completed,
                };
                DayRecord {
                    end,
                    fights,
                    members: (0..members)
                        .map(|_| MemberEnd { hp: next(40) as i32 - 12, dead: next(7) == 0 })
                        .collect(),
                    rests: Tending {
                        healed: next(20) as u32,
                        slots_spent: next(2) as u32,
                        ..Tending::default()
                    },
                }
            })
            .collect()
    }

    pub(crate) fn shape(encounters: usize, members: usize) -> DayShape {
        DayShape {
            name: "d".into(),
            encounters: (0..encounters).map(|e| format!("e{e}")).collect(),
            members: (0..members).map(|m| format!("m{m}")).collect(),
        }
    }

    /// The tallies give the records' figures: every count, rate and
    /// interval bit for bit; the means of integers bit for bit; the mean
    /// fraction of hit points before a fight to the last bits only (the
    /// records summed its fractions in run order, the tallies sum its
    /// numerators per denominator and divide once), and the same whatever
    /// the order the days are tallied in.
    #[test]
    fn the_tallies_give_the_figures_of_the_records() {
        let c = Confidence::default();
        for (seed, n) in [(1, 0), (2, 1), (3, 7), (4, 300), (5, 2000)] {
            let (e, m) = (3, 4);
            let days = random_days(seed, n, e, m);
            let got = DaySummary::of(&shape(e, m), &days, c);
            let mut want = oracle(&shape(e, m), &days, c);
            for (g, w) in got.fights.iter().zip(&mut want.fights) {
                assert!((g.hp_before - w.hp_before).abs() <= 1e-12, "{} vs {}", g.hp_before, w.hp_before);
                w.hp_before = g.hp_before;
            }
            assert_eq!(format!("{got:?}"), format!("{want:?}"), "seed {seed}");
            // In any order, in any pieces: the same bits.
            let mut reversed: Vec<_> = days.clone();
            reversed.reverse();
            let mut t = PlayTally::of(&reversed[..n / 3]);
            t.merge(&PlayTally::of(&reversed[n / 3..]));
            assert_eq!(format!("{:?}", DaySummary::of_tally(&shape(e, m), &t, c)), format!("{got:?}"));
        }
    }
}
