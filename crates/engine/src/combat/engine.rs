//! The battle engine: the state of one battle plus what it needs to play
//! (dice, transcript, reusable buffers).
//!
//! Only the struct and its constructor live here; the rules are `impl`
//! blocks in the sibling modules (`turn` plays rounds and turns, `attack`,
//! `movement`, `aoo`…), each importing this module and nothing of each other.

use crate::effects::{ActiveEffect, Duration};
use crate::grid::Pathfinder;
use crate::map::Pos;
use crate::rng::Dice;

use super::SimOptions;
use super::action::Action;
use super::decide::Reactions;
use super::economy::Planned;
use super::event::Event;
use super::log::{Log, emit};
use super::prepared::PreparedEncounter;
use super::state::BattleState;

/// The state of a battle plus what it needs to play: dice, transcript, buffers.
pub(crate) struct Engine<'a, 'p, R: Dice> {
    pub st: BattleState<'p>,
    pub rng: &'a mut R,
    pub log: Log<'a>,
    /// Creature-aware search, cloned from the prepared one on first use.
    pub pf: Option<Pathfinder>,
    /// Path buffer reused by every movement.
    pub path: Vec<Pos>,
    pub requested: Vec<Action>,
    pub plan: Vec<Planned>,
    /// Initiative key of each combatant: doubled total (so that delay and
    /// ready can take a half step), modifier, roll-off rank; sorted descending,
    /// then encounter order.
    pub init_keys: Vec<(i64, i32, u32)>,
    /// Turns still to play this round: (combatant, resumed after a delay).
    pub queue: Vec<(usize, bool)>,
    /// A readied action or reaction is being resolved: no cascade.
    pub reacting: bool,
    /// The combatant whose turn is being played.
    pub current: Option<usize>,
    /// Number of combatants with a readied action (fast skip of the checks).
    pub readied_count: usize,
    /// The optional reaction policy (immediate actions out of turn).
    pub reactions: Option<&'a mut dyn Reactions>,
    /// Damage rolled once for every creature an area spell catches: (effect
    /// address, roll), cleared when a casting resolves.
    pub area_rolls: Vec<(usize, i32)>,
}

impl<'a, 'p, R: Dice> Engine<'a, 'p, R> {
    /// A fresh battle on `prep`.
    pub fn new(
        prep: &'p PreparedEncounter,
        options: &SimOptions,
        rng: &'a mut R,
        transcript: Option<&'a mut Vec<super::event::Record>>,
    ) -> Self {
        Self::carried_in(prep, options, rng, transcript, &[])
    }

    /// A battle of an adventuring day on `prep`: combatants enter as
    /// `start` says (`BattleState::carried_in`).
    pub fn carried_in(
        prep: &'p PreparedEncounter,
        options: &SimOptions,
        rng: &'a mut R,
        transcript: Option<&'a mut Vec<super::event::Record>>,
        start: &[Option<super::carry::Carried>],
    ) -> Self {
        let mut engine = Self {
            st: BattleState::carried_in(prep, options, start),
            rng,
            log: Log::new(transcript),
            pf: None,
            path: Vec::new(),
            requested: Vec::new(),
            plan: Vec::new(),
            init_keys: Vec::new(),
            queue: Vec::new(),
            reacting: false,
            current: None,
            reactions: None,
            readied_count: 0,
            area_rolls: Vec::new(),
        };
        // What a day carries as effects: the penalties of its drains.
        for (t, c) in start.iter().enumerate() {
            if c.as_ref().is_some_and(|c| c.negative_levels > 0 || c.ability_damage.iter().any(|&d| d > 0)) {
                engine.carry_afflictions(t);
            }
        }
        // The effects that outlasted an earlier fight of the day.
        for (t, c) in start.iter().enumerate() {
            if let Some(c) = c.as_ref().filter(|c| !c.dead && !c.effects.is_empty()) {
                engine.carry_effects(t, &c.effects);
            }
        }
        engine
    }

    /// Puts back on `t` the effects it carries from an earlier fight of its
    /// day, each for the rounds it has left, counted on `t`'s own turns (its
    /// source stayed behind); its spell is found again by name among this
    /// encounter's spells.
    fn carry_effects(&mut self, t: usize, effects: &[super::carry::CarriedEffect]) {
        let prep = self.st.prep;
        for c in effects {
            let mut effect = c.effect.clone();
            effect.spell = c
                .spell
                .as_deref()
                .and_then(|name| prep.spells.iter().position(|p| p.spell.name == name))
                .and_then(|k| u16::try_from(k).ok());
            effect.duration = c.rounds.map_or(Duration::UntilRemoved, Duration::Rounds);
            let name = effect.name.clone();
            let temp = effect.temp_hp as i32;
            if c.rounds.is_some() {
                self.st.timed_effects += 1;
            }
            let f = &mut self.st.fighters[t];
            f.effects.push(ActiveEffect { effect, source: None, rounds_left: c.rounds, since: 0 });
            if temp > f.temp_hp {
                f.temp_hp = temp;
                f.temp_hp_from = Some(name.clone());
            }
            emit!(self, Event::CarriedEffect { who: t, effect: name.to_string(), rounds: c.rounds });
        }
        self.st.refresh_status(t);
    }
}
