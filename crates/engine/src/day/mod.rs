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
pub mod tally;

use std::sync::Arc;

use rayon::prelude::*;

use crate::combat::event::Transcript;
use crate::combat::{
    Action, BattleState, Carried, DefaultPolicy, Party, Policy, PreparedEncounter, RestSpending, Roster,
    SimOptions, StrategyPolicy, Tending, run_carried,
};
use crate::model::Combatant;
use crate::rng::SeededRng;
use crate::strategy::{SpellPolicy, StrategySpec};

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
    /// This many rounds pass (the walk after a fight, a wait): the effects
    /// the party carries count them down.
    Pass(u32),
    /// A choice made only when the condition holds.
    Branch(Condition, Choice),
    /// From here on the party's spellcasters cast no spell in its fights
    /// (`true`), or cast again (`false`): a plan's `save_slots_for`.
    HoldSpells(bool),
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
    let mut progress = Progress::start(day, seed, run);
    for (index, &step) in day.steps.iter().enumerate() {
        if progress.end.is_some() {
            break;
        }
        progress.step(day, options, index, step, watch.as_deref_mut());
    }
    progress.finish()
}

/// Where one day stands after some of its steps: everything the steps after
/// them read, the dice included. The state after a list of steps is a
/// function of those steps (and the day's fights, seed and run), so days
/// that share their first steps share this state (`play_many`).
#[derive(Clone, Debug)]
struct Progress {
    seed: u64,
    run: u64,
    states: Vec<Carried>,
    fights: Vec<FightRecord>,
    rests: Tending,
    /// The encounter whose statistics the between-battle steps use: the
    /// last one fought (the first before any).
    last: usize,
    /// Dice of the steps after the last fight (before the first: a stream
    /// no fight uses).
    after: SeededRng,
    /// How the day ended, once it has.
    end: Option<DayEnd>,
    /// The party's casters hold their spells in its fights ([`Step::HoldSpells`]).
    hold: bool,
}

impl Progress {
    /// The party fresh, before the first step.
    fn start(day: &Day, seed: u64, run: u64) -> Self {
        let first = &day.encounters[0];
        Progress {
            seed,
            run,
            states: first.members.iter().map(|&i| Carried::fresh(&first.prepared, i)).collect(),
            fights: Vec::new(),
            rests: Tending::default(),
            last: 0,
            after: SeededRng::for_run(stream_seed(seed, u64::MAX), run),
            end: None,
            hold: false,
        }
    }

    fn rest(&mut self, day: &Day, choice: Choice) {
        let files: Vec<&Combatant> = day.party.iter().map(|c| c.as_ref()).collect();
        let party = day.party_at(self.last, &files);
        match choice {
            Choice::ShortRest(spending) => {
                add(&mut self.rests, party.short_rest(&mut self.states, spending, &mut self.after))
            }
            Choice::LongRest => party.long_rest(&mut self.states),
            Choice::Flee => {}
        }
    }

    /// Plays step `index` of the day, `step`.
    fn step(
        &mut self,
        day: &Day,
        options: &SimOptions,
        index: usize,
        step: Step,
        watch: Option<&mut Vec<Transcript>>,
    ) {
        match step {
            Step::Encounter(e) => self.fight(day, options, e, watch),
            Step::ShortRest(spending) => self.rest(day, Choice::ShortRest(spending)),
            Step::LongRest => self.rest(day, Choice::LongRest),
            Step::Pass(rounds) => self.states.iter_mut().for_each(|s| s.pass(rounds)),
            Step::HoldSpells(hold) => self.hold = hold,
            Step::Branch(cond, choice) => {
                if holds(day, self.last, cond, &self.states) {
                    if choice == Choice::Flee {
                        self.end = Some(DayEnd::Fled { step: index });
                    } else {
                        self.rest(day, choice);
                    }
                }
            }
        }
    }

    fn fight(&mut self, day: &Day, options: &SimOptions, e: usize, watch: Option<&mut Vec<Transcript>>) {
        let (seed, run) = (self.seed, self.run);
        let k = self.fights.len() as u64;
        let enc = &day.encounters[e];
        let before = resources(day, e, &self.states);
        let mut start = vec![None; enc.prepared.deployed()];
        for (m, &i) in enc.members.iter().enumerate() {
            start[i] = Some(self.states[m].clone());
        }
        let mut dice = SeededRng::for_run(stream_seed(seed, 2 * k), run);
        let mut transcript = watch.as_ref().map(|_| Transcript::for_encounter(&enc.prepared));
        let events = transcript.as_mut().map(|t| &mut t.events);
        let party_side = enc.prepared.side(enc.members[0]);
        let (outcome, carried) = if self.hold {
            let mut policy = PartyHolds::new(&enc.prepared, party_side);
            run_carried(&enc.prepared, options, &mut dice, events, &mut policy, &start)
        } else {
            run_carried(&enc.prepared, options, &mut dice, events, &mut DefaultPolicy, &start)
        };
        if let (Some(w), Some(t)) = (watch, transcript) {
            w.push(t);
        }
        let dead_before = self.states.iter().filter(|s| s.dead).count() as u32;
        for (m, &i) in enc.members.iter().enumerate() {
            self.states[m] = carried[i].clone();
        }
        let won = outcome.winner == Some(party_side as u32);
        self.after = SeededRng::for_run(stream_seed(seed, 2 * k + 1), run);
        let aid = if won {
            let files: Vec<&Combatant> = day.party.iter().map(|c| c.as_ref()).collect();
            day.party_at(e, &files).first_aid(&mut self.states, &mut self.after)
        } else {
            Tending::default()
        };
        let deaths = self.states.iter().filter(|s| s.dead).count() as u32 - dead_before;
        self.fights.push(FightRecord { encounter: e, won, rounds: outcome.rounds, before, deaths, aid });
        self.last = e;
        if !won {
            self.end = Some(DayEnd::Defeated { encounter: e });
        }
    }

    fn finish(self) -> DayOutcome {
        DayOutcome {
            end: self.end.unwrap_or(DayEnd::Completed),
            fights: self.fights,
            members: self.states,
            rests: self.rests,
        }
    }
}

/// The policy of a fight the party plays holding its spells: the party's
/// side plays `spell_policy=none`, every other side the default policy.
struct PartyHolds {
    side: usize,
    party: StrategyPolicy,
}

impl PartyHolds {
    fn new(prepared: &PreparedEncounter, side: usize) -> Self {
        let holding = StrategySpec { spell_policy: SpellPolicy::None, ..StrategySpec::default() };
        PartyHolds { side, party: StrategyPolicy::new(holding, Arc::new(Roster::of_prepared(prepared))) }
    }
}

impl Policy for PartyHolds {
    fn plan(&mut self, battle: &BattleState<'_>, actor: usize, out: &mut Vec<Action>) {
        if battle.side(actor) == self.side {
            self.party.plan(battle, actor, out);
        } else {
            DefaultPolicy.plan(battle, actor, out);
        }
    }
}

/// Run `run` of several days that share `day`'s fights and differ in their
/// steps (`plays`: the day as written and its plans), each as [`play`] would
/// play it, with the steps they share at their start played once: a play
/// starts from the state of the earlier play with which it shares the most
/// first steps. Also returns how many steps were played (for the cost).
pub fn play_many(
    day: &Day,
    plays: &[Vec<Step>],
    options: &SimOptions,
    seed: u64,
    run: u64,
) -> (Vec<DayOutcome>, usize) {
    // snapshots[p][k]: play p after its first k steps (kept only while a
    // later play may start from it).
    let mut snapshots: Vec<Vec<Progress>> = Vec::with_capacity(plays.len());
    let mut outcomes = Vec::with_capacity(plays.len());
    let mut played = 0usize;
    for (p, steps) in plays.iter().enumerate() {
        let shared = |q: usize| plays[q].iter().zip(steps).take_while(|(a, b)| a == b).count();
        let from = (0..p).map(|q| (shared(q), q)).max_by_key(|&(k, q)| (k, std::cmp::Reverse(q)));
        let keep = p + 1 < plays.len();
        let mut snaps = Vec::new();
        let (mut progress, k0) = match from {
            Some((k, q)) if k > 0 => {
                if keep {
                    snaps.extend(snapshots[q][..=k].iter().cloned());
                }
                (snapshots[q][k].clone(), k)
            }
            _ => {
                let fresh = Progress::start(day, seed, run);
                if keep {
                    snaps.push(fresh.clone());
                }
                (fresh, 0)
            }
        };
        for (index, &step) in steps.iter().enumerate().skip(k0) {
            if progress.end.is_none() {
                progress.step(day, options, index, step, None);
                played += 1;
            }
            if keep {
                snaps.push(progress.clone());
            }
        }
        snapshots.push(snaps);
        outcomes.push(progress.finish());
    }
    (outcomes, played)
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

/// [`play_many`] over runs `runs` on the current rayon pool: per play, its
/// days as [`DayRecord`]s in run order (what [`record_batch`] gives for each
/// play alone), and the steps played in all.
pub fn record_many(
    day: &Day,
    plays: &[Vec<Step>],
    options: &SimOptions,
    seed: u64,
    runs: std::ops::Range<u64>,
) -> (Vec<Vec<DayRecord>>, usize) {
    let per_run: Vec<(Vec<DayOutcome>, usize)> =
        runs.into_par_iter().map(|run| play_many(day, plays, options, seed, run)).collect();
    let mut out: Vec<Vec<DayRecord>> = vec![Vec::with_capacity(per_run.len()); plays.len()];
    let mut played = 0;
    for (outcomes, n) in per_run {
        played += n;
        for (p, o) in outcomes.iter().enumerate() {
            out[p].push(o.record());
        }
    }
    (out, played)
}
