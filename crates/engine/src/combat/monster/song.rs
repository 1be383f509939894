//! A harpy's captivating song (Bestiary, Harpy, "Captivating Song (Su)";
//! a siren's captivation "functions exactly like" it).
//!
//! - Singing is a standard action (CRB "Supernatural Abilities": a standard
//!   action unless the ability says otherwise; the harpy's text names
//!   none), taken again each round the song goes on.
//! - Each enemy within the spread that is able to fight, not captivated by
//!   this singer already and not immune makes a Will save against the
//!   printed DC, or is captivated. A success makes it immune to this
//!   singer's song for 24 hours: the battle. The effect is sonic,
//!   mind-affecting and a charm (its `descriptors`): a creature immune to
//!   one of them is unaffected, and save bonuses against them apply; a
//!   deafened creature does not hear it.
//! - A captivated creature takes no action but to move toward the singer
//!   by the most direct route (two move actions, along the cheapest path to
//!   a square beside it; beneath it, when the singer is aloft). Beside the
//!   singer it stands. It makes no attack of opportunity (it "can take no
//!   actions other than to defend [itself]").
//! - Within 5 ft of the singer it "offers no resistance to the harpy's
//!   attacks": the singer's attacks treat it as helpless (+4 on melee
//!   attack rolls, its Dexterity 0). *Simplification*: not a coup de
//!   grâce (the text gives no more than the attacks).
//! - The effect lasts while the singer sings and 1 round thereafter: at the
//!   start of the singer's turn, when it did not sing in the previous
//!   round, its captives are free; a singer that cannot take its turn (it
//!   died) frees them at the start of their own turns once that round has
//!   passed. A later song captivates them again on a failed save.
//! - *Simplification*: "if the path leads them into a dangerous area [...]
//!   a second saving throw" is not played: the maps have no fire or cliff,
//!   and walking past an enemy is not such a danger.

use crate::effects::{Behaviour, Behaviours, Compulsion, Context, Duration, Effect, SaveKind};
use crate::grid::{Access, footprint_distance_ft};
use crate::map::Pos;
use crate::rng::Dice;

use super::super::action::{Action, ActionKind, Reason};
use super::super::engine::Engine;
use super::super::event::{AfflictionEvent, EffectEnd, Event};
use super::super::log::emit;
use super::super::state::BattleState;

impl BattleState<'_> {
    /// The singer that holds `t` captivated, if any.
    pub fn captor(&self, t: usize) -> Option<usize> {
        if !Behaviours(self.fighters[t].fx).has(Behaviours::COMPEL) {
            return None;
        }
        self.fighters[t].effects.iter().flat_map(|e| e.effect.behaviours.iter()).find_map(|b| match b {
            Behaviour::Compel { what: Compulsion::Captivated, caster, .. } => Some(*caster),
            _ => None,
        })
    }

    /// Whether `t` offers no resistance to `a`'s attacks: captivated by `a`
    /// and within 5 ft of it.
    #[inline]
    pub fn captive_of(&self, t: usize, a: usize) -> bool {
        self.captor(t) == Some(a) && self.distance(a, t) <= 5
    }

    /// Whether `t` would hear `i`'s song now and save against it: an enemy
    /// able to fight within its spread, not its captive, not one that saved.
    pub(crate) fn hears_song(&self, i: usize, t: usize) -> bool {
        let Some(song) = self.prep.fighters[i].monster.as_deref().and_then(|m| m.song.as_ref()) else {
            return false;
        };
        self.are_enemies(i, t)
            && self.is_active(t)
            && !self.is_swallowed(t)
            && self.distance(i, t) <= song.range_ft
            && self.captor(t) != Some(i)
            && !self.fighters[t].monster.songs_resisted.contains(&i)
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// The song (`ActionKind::Sing`): every enemy that hears it saves or is captivated.
    pub(crate) fn sing_action(&mut self, i: usize) -> Result<(), Reason> {
        let prep = self.st.prep;
        let song =
            prep.fighters[i].monster.as_deref().and_then(|m| m.song.as_ref()).ok_or(Reason::NoAbility)?;
        self.st.fighters[i].monster.sang_round = self.st.round;
        emit!(
            self,
            Event::Affliction { who: i, what: AfflictionEvent::Sings { ability: song.name.clone() } }
        );
        for t in 0..self.st.len() {
            if !self.st.hears_song(i, t) {
                continue;
            }
            let immune = &prep.fighters[t].defense.immune;
            let heard = self.st.hears(i, t);
            if immune.descriptors.0 & song.descriptors.0 != 0 || !heard {
                // Immune for good (deafness and silence may pass: heard again then).
                if heard {
                    self.st.fighters[t].monster.songs_resisted.push(i);
                }
                let ability = song.name.clone();
                emit!(self, Event::Affliction { who: t, what: AfflictionEvent::Immune { ability } });
                continue;
            }
            let ctx = Context {
                descriptors: song.descriptors,
                other_alignment: prep.fighters[i].nature.alignment,
                ..Context::default()
            };
            if self.roll_save(t, SaveKind::Will, song.dc, &ctx) {
                self.st.fighters[t].monster.songs_resisted.push(i);
                continue;
            }
            let ability = song.name.clone();
            emit!(self, Event::Affliction { who: t, what: AfflictionEvent::Captivated { ability, by: i } });
            let fx =
                Effect::new(&song.name, Duration::UntilRemoved).with_behaviours(vec![Behaviour::Compel {
                    what: Compulsion::Captivated,
                    caster: i,
                    ends_when_threatened: false,
                }]);
            self.apply_effect(t, fx, Some(i));
        }
        Ok(())
    }

    /// The start of `i`'s turn: a singer that did not sing last round frees
    /// its captives; a captive whose singer cannot take its turn is free once
    /// the round after the last song has passed.
    pub(crate) fn song_turn_start(&mut self, i: usize) {
        let round = self.st.round;
        let sang = |st: &BattleState<'_>, s: usize| st.fighters[s].monster.sang_round;
        let singer = self.st.prep.fighters[i].monster.as_deref().is_some_and(|m| m.song.is_some());
        if singer && sang(&self.st, i) + 1 < round {
            for t in 0..self.st.len() {
                if self.st.captor(t) == Some(i) {
                    self.free_captive(t, i);
                }
            }
        }
        if let Some(c) = self.st.captor(i)
            && !self.st.is_active(c)
            && sang(&self.st, c) + 1 < round
        {
            self.free_captive(i, c);
        }
    }

    /// `t` is no longer captivated by `singer`.
    fn free_captive(&mut self, t: usize, singer: usize) {
        while let Some(k) = self.st.fighters[t].effects.iter().position(|e| {
            e.source == Some(singer)
                && e.effect
                    .behaviours
                    .iter()
                    .any(|b| matches!(b, Behaviour::Compel { what: Compulsion::Captivated, .. }))
        }) {
            self.remove_effect_at(t, k, EffectEnd::Ends);
        }
    }

    /// The turn of `i`, captivated by `singer`: two moves toward it by the
    /// cheapest path to a square beside it (beneath it when it is aloft), or
    /// standing there.
    pub(crate) fn captive_plan(&mut self, i: usize, singer: usize, out: &mut Vec<Action>) {
        if self.st.fighters[singer].dead {
            out.push(Action::new(ActionKind::Wait));
            return;
        }
        let beside = self.st.distance(i, singer) <= 5;
        emit!(self, Event::Affliction { who: i, what: AfflictionEvent::Captive { by: singer, beside } });
        if beside || self.st.flags(i).has(crate::effects::Flags::CANT_MOVE) {
            out.push(Action::new(ActionKind::Wait));
            return;
        }
        let budget = self.st.move_budget(i);
        let legs = self.captive_legs(i, singer, budget);
        if legs.is_empty() {
            out.push(Action::new(ActionKind::Wait));
        }
        for q in legs {
            out.push(Action::new(ActionKind::Move).with_destination(q));
        }
    }

    /// The ends of `i`'s two moves of `budget` feet along the cheapest path
    /// to the nearest open square beside `singer` (horizontally); empty when
    /// it stands there already or none is reachable.
    fn captive_legs(&mut self, i: usize, singer: usize, budget: u32) -> Vec<Pos> {
        let st = &self.st;
        let map = st.map();
        let start = st.fighters[i].pos;
        let (si, ss, to) = (st.space(i), st.space(singer), st.fighters[singer].pos);
        let pf = self.pf.get_or_insert_with(|| st.prep.pathfinder.clone());
        pf.run_as(map, start, None, &|p| st.access(i, p), st.move_mode(i));
        let near = |q: Pos| footprint_distance_ft(q, si, to, ss) <= 5;
        let mut best: Option<(u32, Pos)> = None;
        for row in 0..map.height {
            for col in 0..map.width {
                let q = Pos::new(row, col);
                let Some(c) = pf.cost(q) else { continue };
                if best.is_some_and(|(b, _)| b <= c) || !near(q) || st.access(i, q) != Access::Open {
                    continue;
                }
                best = Some((c, q));
            }
        }
        let Some((_, dest)) = best else { return Vec::new() };
        if dest == start {
            return Vec::new();
        }
        let mut path = Vec::new();
        pf.path_to(dest, &mut path);
        // The farthest square a leg ends on: open, passable, within the budget.
        let ends = |p: Pos| {
            st.access(i, p) == Access::Open && crate::grid::footprint(p, si).all(|c| map.passable(c))
        };
        let mut legs: Vec<Pos> = Vec::new();
        let mut limit = budget;
        for _ in 0..2 {
            let last =
                path.iter().copied().rev().find(|&p| pf.cost(p).is_some_and(|c| c <= limit) && ends(p));
            let Some(p) = last.filter(|p| legs.last() != Some(p)) else { break };
            legs.push(p);
            // The second move starts where the first ended.
            limit = pf.cost(p).unwrap_or(0) + budget;
        }
        legs
    }
}
