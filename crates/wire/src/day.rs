//! An adventuring day on the wire (`docs/days.md`): what a day cell asks a
//! worker to play (its fights by scenario hash and its steps), the per-day
//! records a shard sends back, and the one path from scenarios to a
//! playable [`Day`].
//!
//! A day is a pure function of (day, seed, run index), so its runs shard
//! like a battle's: a shard plays days `runs` of the cell and returns one
//! [`DayRecord`] each; records of consecutive shards concatenate exactly.

use std::sync::Arc;

use pf1e_engine::combat::{RestSpending, Tending};
use pf1e_engine::day::{
    Choice, Condition, Day, DayEnd, DayError, DayRecord, FightRecord, MemberEnd, Resources, Step,
};

use crate::canon::{Canon, ContentHash, hex, parse_hex};
use crate::error::WireError;
use crate::proto;
use crate::scenario::{Scenario, ScenarioError, ScenarioHash};

/// A day as a cell plays it: its fights' scenarios, in the order the steps
/// index them, and the steps of each of its plays (the day as written, then
/// each plan applied), played on the same dice with their shared first
/// steps played once (`pf1e_engine::day::play_many`). Its identity is its
/// content hash, which is what enters the shard keys: two cells that play
/// the same fights in the same steps are the same day.
#[derive(Debug, Clone)]
pub struct DayPlay {
    encounters: Vec<ScenarioHash>,
    plays: Vec<Vec<Step>>,
    hash: ContentHash,
}

impl PartialEq for DayPlay {
    fn eq(&self, other: &Self) -> bool {
        self.hash == other.hash
    }
}

impl Eq for DayPlay {}

impl PartialOrd for DayPlay {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for DayPlay {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.hash.cmp(&other.hash)
    }
}

fn spending_code(s: RestSpending) -> u64 {
    match s {
        RestSpending::All => 0,
        RestSpending::Channels => 1,
        RestSpending::Nothing => 2,
    }
}

fn hash_steps(c: &mut Canon, steps: &[Step]) {
    c.u64(steps.len() as u64);
    for s in steps {
        match *s {
            Step::Encounter(e) => c.u64(0).u64(e as u64),
            Step::ShortRest(spend) => c.u64(1).u64(spending_code(spend)),
            Step::LongRest => c.u64(2),
            Step::HoldSpells(hold) => c.u64(4).u64(u64::from(hold)),
            Step::Pass(rounds) => c.u64(5).u64(u64::from(rounds)),
            Step::Branch(cond, choice) => {
                let (kind, fraction) = match cond {
                    Condition::PartyHpBelow(f) => (0, f),
                    Condition::AnyoneDown => (1, 0.0),
                    Condition::SlotsBelow(f) => (2, f),
                };
                let choice = match choice {
                    Choice::ShortRest(spend) => spending_code(spend),
                    Choice::LongRest => 10,
                    Choice::Flee => 11,
                };
                // The fraction's bits: a day is the same day only with the same number.
                c.u64(3).u64(kind).u64(fraction.to_bits()).u64(choice)
            }
        };
    }
}

impl DayPlay {
    /// The day of `steps` over the fights `encounters`.
    pub fn new(encounters: Vec<ScenarioHash>, steps: Vec<Step>) -> Self {
        Self::with_plans(encounters, vec![steps])
    }

    /// The days of `plays` (at least one: the day as written, then its
    /// plans) over the fights `encounters`.
    pub fn with_plans(encounters: Vec<ScenarioHash>, plays: Vec<Vec<Step>>) -> Self {
        let mut c = Canon::new("pf1e-day-v1");
        c.u64(encounters.len() as u64);
        for e in &encounters {
            c.bytes(e);
        }
        // One play hashes as the single day always did; more add their count.
        for (k, steps) in plays.iter().enumerate() {
            if k == 1 {
                c.bytes(b"plans").u64(plays.len() as u64 - 1);
            }
            hash_steps(&mut c, steps);
        }
        let hash = c.finish();
        DayPlay { encounters, plays, hash }
    }

    /// The fights' scenarios.
    pub fn encounters(&self) -> &[ScenarioHash] {
        &self.encounters
    }

    /// The steps of the day as written.
    pub fn steps(&self) -> &[Step] {
        self.plays.first().map_or(&[], Vec::as_slice)
    }

    /// The steps of every play: the day as written, then its plans.
    pub fn plays(&self) -> &[Vec<Step>] {
        &self.plays
    }

    /// The content hash (part of the shard keys).
    pub fn hash(&self) -> &ContentHash {
        &self.hash
    }
}

/// Why scenarios do not make a day.
#[derive(Debug, thiserror::Error)]
pub enum DayBuildError {
    /// A fight's scenario does not build.
    #[error(transparent)]
    Scenario(#[from] ScenarioError),
    /// The fights and steps do not make a day.
    #[error(transparent)]
    Day(#[from] DayError),
}

/// The day named `name` of `steps` over the fights `fights` (name,
/// scenario), the party on side `party` of each: every fight built and
/// prepared as `pf1e sim` prepares one, the party's files those of the first
/// fight. `pf1e day` and the workers build their days here.
pub fn assemble(
    name: String,
    fights: &[(String, Arc<Scenario>)],
    party: &str,
    steps: Vec<Step>,
) -> Result<Day, DayBuildError> {
    let mut prepared = Vec::with_capacity(fights.len());
    let mut members = None;
    for (fight, scenario) in fights {
        let playable = scenario.prepare(scenario.encounter()?)?;
        if members.is_none() {
            let e = &playable.encounter;
            members = Some(
                e.combatants
                    .iter()
                    .filter(|d| e.sides[d.side] == party)
                    .map(|d| Arc::clone(&d.spec))
                    .collect(),
            );
        }
        prepared.push((fight.clone(), Arc::new(playable.prepared)));
    }
    Ok(Day::new(name, members.unwrap_or_default(), prepared, party, steps)?)
}

fn spending_to_proto(s: RestSpending) -> proto::RestSpending {
    match s {
        RestSpending::All => proto::RestSpending::All,
        RestSpending::Channels => proto::RestSpending::Channels,
        RestSpending::Nothing => proto::RestSpending::Nothing,
    }
}

fn spending_from_proto(v: i32) -> Result<RestSpending, WireError> {
    match proto::RestSpending::try_from(v) {
        Ok(proto::RestSpending::All) => Ok(RestSpending::All),
        Ok(proto::RestSpending::Channels) => Ok(RestSpending::Channels),
        Ok(proto::RestSpending::Nothing) => Ok(RestSpending::Nothing),
        Err(_) => Err(WireError::invalid("DayStep.spending", format!("unknown rest spending {v}"))),
    }
}

impl From<&DayPlay> for proto::DaySpec {
    fn from(d: &DayPlay) -> Self {
        proto::DaySpec {
            encounters: d.encounters.iter().map(|h| hex(h)).collect(),
            steps: steps_to_proto(d.steps()),
            plans: d.plays.iter().skip(1).map(|p| proto::DayPlan { steps: steps_to_proto(p) }).collect(),
        }
    }
}

fn steps_to_proto(steps: &[Step]) -> Vec<proto::DayStep> {
    use proto::day_step::Step as P;
    steps
        .iter()
        .map(|s| proto::DayStep {
            step: Some(match *s {
                Step::Encounter(e) => P::Encounter(e as u32),
                Step::ShortRest(spend) => P::ShortRest(spending_to_proto(spend) as i32),
                Step::LongRest => P::LongRest(true),
                Step::HoldSpells(hold) => P::HoldSpells(hold),
                Step::Pass(rounds) => P::PassRounds(rounds),
                Step::Branch(cond, choice) => {
                    let (condition, fraction) = match cond {
                        Condition::PartyHpBelow(f) => (proto::DayCondition::PartyHpBelow, f),
                        Condition::AnyoneDown => (proto::DayCondition::AnyoneDown, 0.0),
                        Condition::SlotsBelow(f) => (proto::DayCondition::SlotsBelow, f),
                    };
                    let (choice, spending) = match choice {
                        Choice::ShortRest(spend) => (proto::DayChoice::ShortRest, spend),
                        Choice::LongRest => (proto::DayChoice::LongRest, RestSpending::All),
                        Choice::Flee => (proto::DayChoice::Flee, RestSpending::All),
                    };
                    P::Branch(proto::DayBranch {
                        condition: condition as i32,
                        fraction,
                        choice: choice as i32,
                        spending: spending_to_proto(spending) as i32,
                    })
                }
            }),
        })
        .collect()
}

impl TryFrom<&proto::DaySpec> for DayPlay {
    type Error = WireError;

    fn try_from(d: &proto::DaySpec) -> Result<Self, Self::Error> {
        let encounters = d
            .encounters
            .iter()
            .map(|h| {
                parse_hex(h).ok_or_else(|| WireError::Hash { field: "DaySpec.encounters", value: h.clone() })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut plays = vec![steps_from_proto(&d.steps, encounters.len())?];
        for plan in &d.plans {
            plays.push(steps_from_proto(&plan.steps, encounters.len())?);
        }
        Ok(DayPlay::with_plans(encounters, plays))
    }
}

fn steps_from_proto(list: &[proto::DayStep], encounters: usize) -> Result<Vec<Step>, WireError> {
    use proto::day_step::Step as P;
    let mut steps = Vec::with_capacity(list.len());
    for s in list {
        steps.push(match s.step.as_ref().ok_or(WireError::Missing("DayStep.step"))? {
            P::Encounter(e) if (*e as usize) < encounters => Step::Encounter(*e as usize),
            P::Encounter(e) => {
                return Err(WireError::invalid("DayStep.encounter", format!("no encounter {e}")));
            }
            P::ShortRest(v) => Step::ShortRest(spending_from_proto(*v)?),
            P::LongRest(_) => Step::LongRest,
            P::HoldSpells(hold) => Step::HoldSpells(*hold),
            P::PassRounds(rounds) => Step::Pass(*rounds),
            P::Branch(b) => {
                let fraction = b.fraction;
                if !(0.0..=1.0).contains(&fraction) {
                    return Err(WireError::invalid(
                        "DayBranch.fraction",
                        format!("{fraction} is not a fraction"),
                    ));
                }
                let cond = match proto::DayCondition::try_from(b.condition) {
                    Ok(proto::DayCondition::PartyHpBelow) => Condition::PartyHpBelow(fraction),
                    Ok(proto::DayCondition::AnyoneDown) => Condition::AnyoneDown,
                    Ok(proto::DayCondition::SlotsBelow) => Condition::SlotsBelow(fraction),
                    _ => {
                        return Err(WireError::invalid(
                            "DayBranch.condition",
                            format!("unknown condition {}", b.condition),
                        ));
                    }
                };
                let choice = match proto::DayChoice::try_from(b.choice) {
                    Ok(proto::DayChoice::ShortRest) => Choice::ShortRest(spending_from_proto(b.spending)?),
                    Ok(proto::DayChoice::LongRest) => Choice::LongRest,
                    Ok(proto::DayChoice::Flee) => Choice::Flee,
                    _ => {
                        return Err(WireError::invalid(
                            "DayBranch.choice",
                            format!("unknown choice {}", b.choice),
                        ));
                    }
                };
                Step::Branch(cond, choice)
            }
        });
    }
    Ok(steps)
}

fn tending_to_proto(t: &Tending) -> proto::DayTending {
    proto::DayTending {
        healed: t.healed,
        slots_spent: t.slots_spent,
        channels_spent: t.channels_spent,
        charges_spent: t.charges_spent,
        stabilized: t.stabilized,
        died: t.died,
    }
}

fn tending_from_proto(t: Option<&proto::DayTending>) -> Tending {
    let d = proto::DayTending::default();
    let t = t.unwrap_or(&d);
    Tending {
        healed: t.healed,
        slots_spent: t.slots_spent,
        channels_spent: t.channels_spent,
        charges_spent: t.charges_spent,
        stabilized: t.stabilized,
        died: t.died,
    }
}

impl From<&DayRecord> for proto::DayRecord {
    fn from(r: &DayRecord) -> Self {
        let (end, end_at) = match r.end {
            DayEnd::Completed => (proto::DayEnd::Completed, 0),
            DayEnd::Fled { step } => (proto::DayEnd::Fled, step as u32),
            DayEnd::Defeated { encounter } => (proto::DayEnd::Defeated, encounter as u32),
        };
        proto::DayRecord {
            end: end as i32,
            end_at,
            fights: r
                .fights
                .iter()
                .map(|f| proto::DayFight {
                    encounter: f.encounter as u32,
                    won: f.won,
                    rounds: f.rounds,
                    before: Some(proto::DayResources {
                        hp: f.before.hp,
                        hp_max: f.before.hp_max,
                        slots: f.before.slots,
                        uses: f.before.uses,
                        standing: f.before.standing,
                    }),
                    deaths: f.deaths,
                    aid: Some(tending_to_proto(&f.aid)),
                })
                .collect(),
            member_hp: r.members.iter().map(|m| m.hp).collect(),
            member_dead: r.members.iter().map(|m| m.dead).collect(),
            rests: Some(tending_to_proto(&r.rests)),
        }
    }
}

impl TryFrom<&proto::DayRecord> for DayRecord {
    type Error = WireError;

    fn try_from(r: &proto::DayRecord) -> Result<Self, Self::Error> {
        let end = match proto::DayEnd::try_from(r.end) {
            Ok(proto::DayEnd::Completed) => DayEnd::Completed,
            Ok(proto::DayEnd::Fled) => DayEnd::Fled { step: r.end_at as usize },
            Ok(proto::DayEnd::Defeated) => DayEnd::Defeated { encounter: r.end_at as usize },
            _ => return Err(WireError::invalid("DayRecord.end", format!("unknown end {}", r.end))),
        };
        if r.member_hp.len() != r.member_dead.len() {
            return Err(WireError::invalid("DayRecord.member_dead", "not one entry per member"));
        }
        let fights = r
            .fights
            .iter()
            .map(|f| {
                let b = f.before.unwrap_or_default();
                FightRecord {
                    encounter: f.encounter as usize,
                    won: f.won,
                    rounds: f.rounds,
                    before: Resources {
                        hp: b.hp,
                        hp_max: b.hp_max,
                        slots: b.slots,
                        uses: b.uses,
                        standing: b.standing,
                    },
                    deaths: f.deaths,
                    aid: tending_from_proto(f.aid.as_ref()),
                }
            })
            .collect();
        Ok(DayRecord {
            end,
            fights,
            members: r
                .member_hp
                .iter()
                .zip(&r.member_dead)
                .map(|(&hp, &dead)| MemberEnd { hp, dead })
                .collect(),
            rests: tending_from_proto(r.rests.as_ref()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_day_round_trips_and_its_hash_is_its_content() {
        let steps = vec![
            Step::Encounter(0),
            Step::ShortRest(RestSpending::Channels),
            Step::Branch(Condition::PartyHpBelow(0.34), Choice::ShortRest(RestSpending::Nothing)),
            Step::Branch(Condition::AnyoneDown, Choice::Flee),
            Step::LongRest,
            Step::HoldSpells(true),
            Step::Pass(10),
            Step::Encounter(1),
        ];
        let day = DayPlay::new(vec![[1; 32], [2; 32]], steps.clone());
        let back = DayPlay::try_from(&proto::DaySpec::from(&day)).unwrap();
        assert_eq!(back.steps(), &steps[..]);
        assert_eq!(back.hash(), day.hash());
        let mut other = steps.clone();
        other[2] = Step::Branch(Condition::PartyHpBelow(0.35), Choice::ShortRest(RestSpending::Nothing));
        assert_ne!(DayPlay::new(vec![[1; 32], [2; 32]], other).hash(), day.hash(), "the fraction counts");
        let mut released = steps.clone();
        released[5] = Step::HoldSpells(false);
        assert_ne!(DayPlay::new(vec![[1; 32], [2; 32]], released).hash(), day.hash(), "holding counts");
        let mut longer = steps.clone();
        longer[6] = Step::Pass(11);
        assert_ne!(DayPlay::new(vec![[1; 32], [2; 32]], longer).hash(), day.hash(), "the time counts");
        assert_ne!(DayPlay::new(vec![[2; 32], [1; 32]], steps).hash(), day.hash(), "the fights count");
        let mut bad = proto::DaySpec::from(&day);
        bad.steps[0].step = Some(proto::day_step::Step::Encounter(2));
        assert!(DayPlay::try_from(&bad).is_err(), "a step that names no fight");
    }

    #[test]
    fn a_day_with_its_plans_round_trips_and_one_play_hashes_as_the_day_alone() {
        let written = vec![Step::Encounter(0), Step::ShortRest(RestSpending::All), Step::Encounter(1)];
        let plan =
            vec![Step::HoldSpells(true), Step::Encounter(0), Step::HoldSpells(false), Step::Encounter(1)];
        let both = DayPlay::with_plans(vec![[1; 32], [2; 32]], vec![written.clone(), plan.clone()]);
        let back = DayPlay::try_from(&proto::DaySpec::from(&both)).unwrap();
        assert_eq!(back.plays(), both.plays());
        assert_eq!(back.hash(), both.hash());
        assert_eq!(back.steps(), &written[..]);
        let alone = DayPlay::new(vec![[1; 32], [2; 32]], written.clone());
        assert_eq!(DayPlay::with_plans(vec![[1; 32], [2; 32]], vec![written.clone()]).hash(), alone.hash());
        assert_ne!(alone.hash(), both.hash(), "the plans count");
        let swapped = DayPlay::with_plans(vec![[1; 32], [2; 32]], vec![plan, written]);
        assert_ne!(swapped.hash(), both.hash(), "the order of the plays counts");
        let mut bad = proto::DaySpec::from(&both);
        bad.plans[0].steps[1].step = Some(proto::day_step::Step::Encounter(7));
        assert!(DayPlay::try_from(&bad).is_err(), "a plan's step that names no fight");
    }

    #[test]
    fn a_record_round_trips() {
        let r = DayRecord {
            end: DayEnd::Defeated { encounter: 1 },
            fights: vec![FightRecord {
                encounter: 1,
                won: false,
                rounds: 7,
                before: Resources { hp: 30, hp_max: 40, slots: 3, uses: 2, standing: 4 },
                deaths: 2,
                aid: Tending { healed: 3, ..Default::default() },
            }],
            members: vec![MemberEnd { hp: -3, dead: true }, MemberEnd { hp: 9, dead: false }],
            rests: Tending { charges_spent: 2, ..Default::default() },
        };
        assert_eq!(DayRecord::try_from(&proto::DayRecord::from(&r)).unwrap(), r);
        let mut bad = proto::DayRecord::from(&r);
        bad.member_dead.pop();
        assert!(DayRecord::try_from(&bad).is_err());
    }
}
