//! Dispelling (CRB "Dispel Magic", targeted use): one dispel check,
//! d20 + caster level (capped by the spell), against 11 + the caster level
//! of each spell in turn, on a creature (its spells, highest caster level
//! first, until one ends) or on a lasting area (the one named, which ends
//! whole). A spell the dispeller cast itself ends without a check.

use crate::map::Pos;
use crate::rng::Dice;
use crate::spell::Spell;
use crate::spell::effect::{DispelEffect, DispelMode, EffectKind};

use super::super::action::Reason;
use super::super::engine::Engine;
use super::super::event::{EffectEnd, Event, SpellEvent};
use super::super::log::emit;
use super::super::state::BattleState;
use super::casting::Cast;

/// The spell's targeted dispel, if it has one.
pub(crate) fn targeted_dispel(spell: &Spell) -> Option<&DispelEffect> {
    spell.effects.iter().find_map(|e| match &e.kind {
        EffectKind::Dispel(d) if d.modes.contains(&DispelMode::Targeted) => Some(d),
        _ => None,
    })
}

/// The DC to dispel a spell of caster level `cl`.
fn dispel_dc(cl: u32) -> i32 {
    11 + cl as i32
}

/// One spell a targeted dispel weighs: its caster level, the spell, and
/// who cast it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DispelCandidate {
    pub(crate) cl: u32,
    pub(crate) spell: u16,
    pub(crate) source: usize,
}

impl BattleState<'_> {
    /// The spells a targeted dispel by `i` on creature `t` weighs, in the
    /// order it weighs them: those worth ending (on a foe, the spells of
    /// its own side; on a friend, a foe's), highest caster level first,
    /// each spell once.
    pub(crate) fn dispel_candidates(&self, i: usize, t: usize) -> Vec<DispelCandidate> {
        let hostile = self.are_enemies(i, t);
        let mut candidates: Vec<DispelCandidate> = self.fighters[t]
            .effects
            .iter()
            .filter_map(|e| {
                let spell = e.effect.spell?;
                let source = e.source?;
                let from_foe = self.are_enemies(source, t);
                (hostile != from_foe).then_some(DispelCandidate {
                    cl: u32::from(e.effect.caster_level),
                    spell,
                    source,
                })
            })
            .collect();
        candidates.sort_by_key(|c| std::cmp::Reverse(c.cl));
        candidates.dedup_by_key(|c| c.spell);
        candidates
    }

    /// The chance that a targeted dispel by `i` on `t` with check bonus
    /// `bonus` ends each of its candidates (`dispel_candidates`, same
    /// order): one d20 for all, the first spell it beats ends (for the
    /// policies).
    pub(crate) fn dispel_odds(&self, i: usize, t: usize, bonus: u32) -> Vec<(u16, f64)> {
        let candidates = self.dispel_candidates(i, t);
        // How many of the 20 faces end each candidate.
        let mut faces = vec![0u32; candidates.len()];
        for d20 in 1..=20 {
            let roll = d20 + bonus as i32;
            if let Some(k) = candidates.iter().position(|c| c.source == i || roll >= dispel_dc(c.cl)) {
                faces[k] += 1;
            }
        }
        candidates.iter().zip(faces).map(|(c, n)| (c.spell, f64::from(n) / 20.0)).collect()
    }

    /// Whether `cast`, a targeted dispel aimed at square `p` rather than a
    /// creature, names a lasting area: `p` on the map, within range and in
    /// line of effect, covered by an area.
    pub(crate) fn check_area_dispel(&self, cast: &Cast, spell: &Spell, p: Pos) -> Result<(), Reason> {
        let i = cast.caster;
        if !self.map().in_bounds(p) {
            return Err(Reason::InvalidDestination);
        }
        if self.spell_range(i, spell, cast.cl).is_some_and(|r| crate::grid::distance_ft(self.pos(i), p) > r) {
            return Err(Reason::OutOfRange);
        }
        if !self.prep.line_of_effect(self.pos(i), p) {
            return Err(Reason::NoLineOfEffect);
        }
        self.zone_to_dispel_at(i, p).map(|_| ()).ok_or(Reason::MissingTarget)
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// Targeted dispel on a creature `t`: against each spell effect on it
    /// worth ending (an enemy's buffs, a friend's afflictions), highest
    /// caster level first, the same check against 11 + the effect's caster
    /// level, until one ends (CRB: "If not, compare the same result to the
    /// spell with the next highest caster level").
    pub(super) fn dispel(&mut self, cast: &Cast, t: usize, max_cl: u32) {
        let candidates = self.st.dispel_candidates(cast.caster, t);
        if candidates.is_empty() {
            return;
        }
        let bonus = cast.cl.min(max_cl) as i32;
        let d20 = self.rng.roll(20) as i32;
        for c in candidates {
            if self.dispel_check(cast.caster, c.spell, d20, bonus, c.cl, c.source) {
                self.end_spell_on(t, c.spell, EffectEnd::Dispelled);
                return;
            }
        }
    }

    /// Targeted dispel on the lasting area at `p` (`zone_to_dispel_at`):
    /// its casting ends whole on a success, as when its duration runs out.
    pub(super) fn dispel_area(&mut self, cast: &Cast, p: Pos, max_cl: u32) {
        let Some(k) = self.st.zone_to_dispel_at(cast.caster, p) else { return };
        let z = self.st.zones[k].cast;
        let opened = self.st.zones[k].opened;
        let bonus = cast.cl.min(max_cl) as i32;
        let d20 = self.rng.roll(20) as i32;
        if !self.dispel_check(cast.caster, z.spell, d20, bonus, z.cl, z.caster) {
            return;
        }
        let same = |x: &super::casting::Zone| {
            x.cast.caster == z.caster && x.cast.spell == z.spell && x.opened == opened
        };
        while let Some(k) = self.st.zones.iter().position(same) {
            self.end_zone(k);
        }
    }

    /// One comparison of a dispel check (`d20 + bonus`) against a spell of
    /// caster level `cl` cast by `source`, and its event: whether it ends.
    fn dispel_check(&mut self, by: usize, spell: u16, d20: i32, bonus: i32, cl: u32, source: usize) -> bool {
        let dc = dispel_dc(cl);
        // CRB: "You automatically succeed on your dispel check against any
        // spell that you cast yourself."
        let ok = source == by || d20 + bonus >= dc;
        let name = self.st.prep.spells[usize::from(spell)].spell.name.clone();
        emit!(
            self,
            Event::Spell { who: by, spell: name, what: SpellEvent::Dispel { d20, bonus, dc, dispelled: ok } }
        );
        ok
    }
}
