//! The adventuring day (`docs/days.md`): a chain of encounters fought by the
//! same party, with hit points, spells and pools carried from one to the
//! next, first aid after each win, and rests in between.
//!
//! A day is a pure function of (day, options, seed, run index), like a
//! battle. Its dice come in streams keyed by what happened before, never by
//! the step's position in the file: encounter `k` (the `k`-th fought,
//! counting from 0) rolls the stream `(stream_seed(seed, 2k), run)`, and
//! what the party does after it rolls `(stream_seed(seed, 2k + 1), run)`.
//! Since `stream_seed(seed, 0) == seed`, a day of one encounter plays that
//! battle exactly as `pf1e sim` does; and two days that differ only from
//! their `k`-th encounter on play their first `k` encounters on the same
//! dice (common random numbers), so their states at that point are equal
//! run by run and the difference of their results is measured on the
//! encounters that differ.

#[cfg(feature = "yaml")]
pub mod file;
pub mod plan;
pub mod summary;

use std::sync::Arc;

use rayon::prelude::*;

use crate::combat::event::Transcript;
use crate::combat::{
    Carried, DefaultPolicy, Party, PreparedEncounter, RestSpending, SimOptions, Tending, run_carried,
};
use crate::model::Combatant;
use crate::rng::SeededRng;

/// One fight of the day.
#[derive(Clone, Debug)]
pub struct DayEncounter {
    /// Its name in reports (`the guards`).
    pub name: String,
    /// The encounter, the party on side `party_side`.
    pub prepared: Arc<PreparedEncounter>,
    /// Combatant index of each party member in `prepared`, in party order.
    pub members: Vec<usize>,
}

/// When a branch of the day applies.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Condition {
    /// The party's hit points (the living, counted at 0 when below) are
    /// under this fraction of their maximum.
    PartyHpBelow(f64),
    /// A member is dead, dying or unconscious.
    AnyoneDown,
    /// The party's spell slots left are under this fraction of a full day's.
    SlotsBelow(f64),
}

/// What the party does when a branch applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// A short rest.
    ShortRest(RestSpending),
    /// A night's rest.
    LongRest,
    /// The party withdraws: the day ends, not completed, with no more deaths.
    Flee,
}

/// One step of the day.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Step {
    /// A fight: index into [`Day::encounters`].
    Encounter(usize),
    /// A short rest: healing by what the party chooses to spend.
    ShortRest(RestSpending),
    /// A night's rest.
    LongRest,
    /// A choice made only when the condition holds.
    Branch(Condition, Choice),
}

/// An adventuring day, ready to play.
#[derive(Debug)]
pub struct Day {
    /// Its name in reports.
    pub name: String,
    /// The party's files, in order.
    pub party: Vec<Arc<Combatant>>,
    /// The fights, in the order the steps meet them.
    pub encounters: Vec<DayEncounter>,
    /// The steps, in order.
    pub steps: Vec<Step>,
}

/// Why a day cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DayError {
    /// The day has no encounter.
    #[error("the day has no encounter")]
    NoEncounter,
    /// An encounter does not field exactly the party on its party side.
    #[error("encounter {encounter:?}: the party side has {found} combatants, the party {expected}")]
    PartyMismatch {
        /// The encounter.
        encounter: String,
        /// Members of the party.
        expected: usize,
        /// Combatants on its party side.
        found: usize,
    },
    /// A step names an encounter that does not exist.
    #[error("step {step}: no encounter {index}")]
    UnknownEncounter {
        /// The step (0-based).
        step: usize,
        /// The encounter index.
        index: usize,
    },
}

impl Day {
    /// A day from its fights and steps; `party_side` names the party's side
    /// in every encounter, whose combatants must be the party, in order.
    pub fn new(
        name: String,
        party: Vec<Arc<Combatant>>,
        fights: Vec<(String, Arc<PreparedEncounter>)>,
        party_side: &str,
        steps: Vec<Step>,
    ) -> Result<Self, DayError> {
        if fights.is_empty() {
            return Err(DayError::NoEncounter);
        }
        let mut encounters = Vec::with_capacity(fights.len());
        for (name, prepared) in fights {
            let side = prepared.sides().iter().position(|s| s == party_side);
            let members: Vec<usize> =
                (0..prepared.deployed()).filter(|&i| Some(prepared.side(i)) == side).collect();
            if members.len() != party.len() {
                return Err(DayError::PartyMismatch {
                    encounter: name,
                    expected: party.len(),
                    found: members.len(),
                });
            }
            encounters.push(DayEncounter { name, prepared, members });
        }
        for (step, s) in steps.iter().enumerate() {
            if let Step::Encounter(index) = *s
                && index >= encounters.len()
            {
                return Err(DayError::UnknownEncounter { step, index });
            }
        }
        Ok(Day { name, party, encounters, steps })
    }

    /// The party between battles, with the statistics of encounter `e`.
    fn party_at<'a>(&'a self, e: usize, files: &'a [&'a Combatant]) -> Party<'a> {
        let enc = &self.encounters[e];
        Party { prep: &enc.prepared, members: &enc.members, files }
    }
}

/// The resources of the party at one moment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Resources {
    /// Hit points of the living members (below 0 counted as 0).
    pub hp: u32,
    /// The party's maximum hit points (every member, the dead included).
    pub hp_max: u32,
    /// Spell slots left, levels 1 to 9.
    pub slots: u32,
    /// Uses left in class ability pools.
    pub uses: u32,
    /// Members standing (alive, above 0 hit points and conscious).
    pub standing: u32,
}

/// One fight of one day as it went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FightRecord {
    /// Index into [`Day::encounters`].
    pub encounter: usize,
    /// The party won it.
    pub won: bool,
    /// Rounds played.
    pub rounds: u32,
    /// The party as it entered the fight.
    pub before: Resources,
    /// Members who died in it or of their wounds after it.
    pub deaths: u32,
    /// First aid after it (when won).
    pub aid: Tending,
}

/// How a day ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DayEnd {
    /// Every step played, every fight won.
    Completed,
    /// The party withdrew at step `step` (a branch said flee).
    Fled {
        /// The step (0-based).
        step: usize,
    },
    /// A fight was lost or drawn: index into [`Day::encounters`].
    Defeated {
        /// The encounter.
        encounter: usize,
    },
}

/// One day as it went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DayOutcome {
    /// How it ended.
    pub end: DayEnd,
    /// The fights played, in order.
    pub fights: Vec<FightRecord>,
    /// Each member at the end of the day.
    pub members: Vec<Carried>,
    /// Healing during the rests (short rests and branches).
    pub rests: Tending,
}

impl DayOutcome {
    /// Members dead at the end of the day.
    pub fn dead(&self) -> u32 {
        self.members.iter().filter(|m| m.dead).count() as u32
    }

    /// What the figures of many days need of this one (what a shard of a
    /// day cell sends back).
    pub fn record(&self) -> DayRecord {
        DayRecord {
            end: self.end,
            fights: self.fights.clone(),
            members: self.members.iter().map(|m| MemberEnd { hp: m.hp, dead: m.dead }).collect(),
            rests: self.rests,
        }
    }
}

/// A member at the end of a day.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemberEnd {
    /// Hit points.
    pub hp: i32,
    /// Dead.
    pub dead: bool,
}

/// One day as the figures see it ([`DayOutcome::record`]): how it ended,
/// its fights, each member's end and the healing of its rests. Records of
/// consecutive runs concatenate, so days shard and merge exactly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DayRecord {
    /// How it ended.
    pub end: DayEnd,
    /// The fights played, in order.
    pub fights: Vec<FightRecord>,
    /// Each member at the end of the day, in party order.
    pub members: Vec<MemberEnd>,
    /// Healing during the rests (short rests and branches).
    pub rests: Tending,
}

impl DayRecord {
    /// Members dead at the end of the day.
    pub fn dead(&self) -> u32 {
        self.members.iter().filter(|m| m.dead).count() as u32
    }
}

/// The names a day's figures are reported under: the day's, its fights' (in
/// the order of [`Day::encounters`]) and its members' (in party order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DayShape {
    /// The day's name.
    pub name: String,
    /// The fights' names.
    pub encounters: Vec<String>,
    /// The members' names.
    pub members: Vec<String>,
}

impl Day {
    /// The names its figures are reported under.
    pub fn shape(&self) -> DayShape {
        DayShape {
            name: self.name.clone(),
            encounters: self.encounters.iter().map(|e| e.name.clone()).collect(),
            members: self.party.iter().map(|c| c.name.clone()).collect(),
        }
    }
}

/// The seed of dice stream `k` of a day seeded with `seed`: `seed` itself
/// for stream 0 (so a day of one fight is that battle), a SplitMix64 mix
/// otherwise.
pub fn stream_seed(seed: u64, k: u64) -> u64 {
    if k == 0 {
        return seed;
    }
    let mut z = seed ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The party's resources in `states`, against the full ones of encounter `e`.
fn resources(day: &Day, e: usize, states: &[Carried]) -> Resources {
    let enc = &day.encounters[e];
    let mut r = Resources::default();
    for (m, s) in states.iter().enumerate() {
        let fresh = Carried::fresh(&enc.prepared, enc.members[m]);
        r.hp_max += fresh.hp.max(0) as u32;
        if !s.dead {
            r.hp += s.hp.max(0) as u32;
        }
        r.slots += s.slots_left();
        r.uses += s.uses_left();
        if !s.dead && s.hp > 0 && s.nonlethal < s.hp {
            r.standing += 1;
        }
    }
    r
}

/// Whether `cond` holds for the party in `states` (statistics of encounter `e`).
fn holds(day: &Day, e: usize, cond: Condition, states: &[Carried]) -> bool {
    let r = resources(day, e, states);
    match cond {
        Condition::PartyHpBelow(f) => f64::from(r.hp) < f * f64::from(r.hp_max),
        Condition::AnyoneDown => r.standing < states.len() as u32,
        Condition::SlotsBelow(f) => {
            let enc = &day.encounters[e];
            let full: u32 = enc.members.iter().map(|&i| Carried::fresh(&enc.prepared, i).slots_left()).sum();
            f64::from(r.slots) < f * f64::from(full)
        }
    }
}

/// Plays run `run` of `day` seeded with `seed`, every fight with the default policy.
pub fn play(day: &Day, options: &SimOptions, seed: u64, run: u64) -> DayOutcome {
    play_inner(day, options, seed, run, None)
}

/// [`play`], with the transcript of every fight played (the same day: the
/// events are only recorded).
pub fn play_watched(day: &Day, options: &SimOptions, seed: u64, run: u64) -> (DayOutcome, Vec<Transcript>) {
    let mut transcripts = Vec::new();
    let outcome = play_inner(day, options, seed, run, Some(&mut transcripts));
    (outcome, transcripts)
}

fn play_inner(
    day: &Day,
    options: &SimOptions,
    seed: u64,
    run: u64,
    mut watch: Option<&mut Vec<Transcript>>,
) -> DayOutcome {
    let files: Vec<&Combatant> = day.party.iter().map(|c| c.as_ref()).collect();
    let first = &day.encounters[0];
    let mut states: Vec<Carried> =
        first.members.iter().map(|&i| Carried::fresh(&first.prepared, i)).collect();
    let mut fights: Vec<FightRecord> = Vec::new();
    let mut rests = Tending::default();
    // The encounter whose statistics the between-battle steps use: the last
    // one fought (the first before any).
    let mut last = 0usize;
    // Dice of the steps before the first fight (a stream no fight uses).
    let mut after = SeededRng::for_run(stream_seed(seed, u64::MAX), run);
    let rest =
        |states: &mut Vec<Carried>, choice: Choice, last: usize, rng: &mut SeededRng, rests: &mut Tending| {
            let party = day.party_at(last, &files);
            match choice {
                Choice::ShortRest(spending) => add(rests, party.short_rest(states, spending, rng)),
                Choice::LongRest => party.long_rest(states),
                Choice::Flee => {}
            }
        };
    for (step, s) in day.steps.iter().enumerate() {
        match *s {
            Step::Encounter(e) => {
                let k = fights.len() as u64;
                let enc = &day.encounters[e];
                let before = resources(day, e, &states);
                let mut start = vec![None; enc.prepared.deployed()];
                for (m, &i) in enc.members.iter().enumerate() {
                    start[i] = Some(states[m].clone());
                }
                let mut dice = SeededRng::for_run(stream_seed(seed, 2 * k), run);
                let mut transcript = watch.as_ref().map(|_| Transcript::for_encounter(&enc.prepared));
                let events = transcript.as_mut().map(|t| &mut t.events);
                let (outcome, carried) =
                    run_carried(&enc.prepared, options, &mut dice, events, &mut DefaultPolicy, &start);
                if let (Some(w), Some(t)) = (watch.as_deref_mut(), transcript) {
                    w.push(t);
                }
                let dead_before = states.iter().filter(|s| s.dead).count() as u32;
                for (m, &i) in enc.members.iter().enumerate() {
                    states[m] = carried[i].clone();
                }
                let party_side = enc.prepared.side(enc.members[0]) as u32;
                let won = outcome.winner == Some(party_side);
                after = SeededRng::for_run(stream_seed(seed, 2 * k + 1), run);
                let aid = if won {
                    day.party_at(e, &files).first_aid(&mut states, &mut after)
                } else {
                    Tending::default()
                };
                let deaths = states.iter().filter(|s| s.dead).count() as u32 - dead_before;
                fights.push(FightRecord { encounter: e, won, rounds: outcome.rounds, before, deaths, aid });
                last = e;
                if !won {
                    return DayOutcome {
                        end: DayEnd::Defeated { encounter: e },
                        fights,
                        members: states,
                        rests,
                    };
                }
            }
            Step::ShortRest(spending) => {
                rest(&mut states, Choice::ShortRest(spending), last, &mut after, &mut rests)
            }
            Step::LongRest => rest(&mut states, Choice::LongRest, last, &mut after, &mut rests),
            Step::Branch(cond, choice) => {
                if holds(day, last, cond, &states) {
                    if choice == Choice::Flee {
                        return DayOutcome { end: DayEnd::Fled { step }, fights, members: states, rests };
                    }
                    rest(&mut states, choice, last, &mut after, &mut rests);
                }
            }
        }
    }
    DayOutcome { end: DayEnd::Completed, fights, members: states, rests }
}

/// Adds `b`'s counts to `a`.
fn add(a: &mut Tending, b: Tending) {
    a.healed += b.healed;
    a.slots_spent += b.slots_spent;
    a.channels_spent += b.channels_spent;
    a.charges_spent += b.charges_spent;
    a.stabilized += b.stabilized;
    a.died += b.died;
}

/// Plays runs `runs` of `day` on the current rayon pool, in run order; the
/// result does not depend on the number of threads.
pub fn play_batch(day: &Day, options: &SimOptions, seed: u64, runs: std::ops::Range<u64>) -> Vec<DayOutcome> {
    runs.into_par_iter().map(|run| play(day, options, seed, run)).collect()
}

/// [`play_batch`], each day as its [`DayRecord`] (what a shard returns).
pub fn record_batch(
    day: &Day,
    options: &SimOptions,
    seed: u64,
    runs: std::ops::Range<u64>,
) -> Vec<DayRecord> {
    runs.into_par_iter().map(|run| play(day, options, seed, run).record()).collect()
}
