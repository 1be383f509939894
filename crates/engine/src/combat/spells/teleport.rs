//! Teleportation (CRB "Dimension Door"): "you instantly transfer yourself
//! from your current location to any other spot within range".
//!
//! - The casting names the square it arrives on (`Action::destination`):
//!   on the map, within the spell's range of the caster (long: 400 ft +
//!   40 ft per level), every square of the caster's space passable and
//!   free of creatures, not where it stands. No line of effect is needed
//!   (the caster visualizes or states the spot). A bad spot is refused
//!   before anything is spent (`invalid_destination`, `out_of_range`).
//! - The caster vanishes and appears: no movement, so nothing provokes and
//!   nothing on the way is crossed; a lasting area it arrives in acts as
//!   when a creature enters it. A grapple that held it, or that it held,
//!   ends: the creatures are no longer adjacent.
//! - `ends_turn`: "after using this spell, you can't take any other
//!   actions until your next turn"; what it planned after fails
//!   `turn_ended`.
//! - Passengers ("one other willing creature ... per three caster
//!   levels") are not taken: the caster goes alone (the file's
//!   simplification).

use crate::grid::{Access, distance_ft, footprint};
use crate::map::Pos;
use crate::rng::Dice;
use crate::spell::Spell;
use crate::spell::effect::{EffectKind, TeleportEffect};

use super::super::action::Reason;
use super::super::engine::Engine;
use super::super::event::{Event, SpellEvent};
use super::super::log::emit;
use super::super::state::BattleState;
use super::casting::Cast;

/// The teleportation of `spell`, if it teleports its caster.
pub(crate) fn teleport_effect(spell: &Spell) -> Option<&TeleportEffect> {
    spell.effects.iter().find_map(|e| match &e.kind {
        EffectKind::Teleport(t) => Some(t),
        _ => None,
    })
}

impl BattleState<'_> {
    /// Whether `i` can appear with its space at `to`: on the map, every
    /// square passable and free of other creatures, not where it stands.
    pub(crate) fn can_arrive(&self, i: usize, to: Pos) -> bool {
        let map = self.map();
        to != self.pos(i)
            && footprint(to, self.space(i)).all(|c| map.in_bounds(c) && map.passable(c))
            && self.access(i, to) == Access::Open
    }

    /// Checks the spot a teleporting `cast` arrives on.
    pub(crate) fn check_arrival(&self, cast: &Cast, spell: &Spell) -> Result<(), Reason> {
        let i = cast.caster;
        let to = cast.point.ok_or(Reason::InvalidDestination)?;
        if !self.map().in_bounds(to) {
            return Err(Reason::InvalidDestination);
        }
        if let Some(r) = spell.range.feet_at(cast.cl)
            && distance_ft(self.pos(i), to) > r
        {
            return Err(Reason::OutOfRange);
        }
        if !self.can_arrive(i, to) {
            return Err(Reason::InvalidDestination);
        }
        Ok(())
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// `cast` takes its caster to the spot it names.
    pub(crate) fn teleport(&mut self, cast: &Cast, te: &TeleportEffect) {
        let i = cast.caster;
        let Some(to) = cast.point else { return };
        let spell = &self.st.prep.spells[usize::from(cast.spell)].spell;
        // Checked at the casting; a creature that came there since (none
        // moves during a standard action but by attacks of opportunity) is
        // a spot it cannot take: the spell is spent for nothing.
        if !self.st.can_arrive(i, to) {
            emit!(self, Event::Spell { who: i, spell: spell.name.to_string(), what: SpellEvent::NoArrival });
            return;
        }
        let from = self.st.pos(i);
        self.st.relocate(i, to);
        emit!(
            self,
            Event::Spell { who: i, spell: spell.name.to_string(), what: SpellEvent::Teleports { from, to } }
        );
        self.check_grapples();
        if !self.st.zones.is_empty() {
            self.zones_entered(i, from, to);
        }
        if te.ends_turn {
            self.st.fighters[i].turn.ended = true;
        }
    }
}
