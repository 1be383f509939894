//! Bonds a creature breaks with a check (CRB "Entangled"; the spells
//! Entangle and Web; Bestiary, Universal Monster Rules "Web"; an erinyes'
//! rope as *animate rope*): one primitive for every source.
//!
//! A bond is an effect carrying `Behaviour::Bound`: its conditions (entangled,
//! or grappled for Web) and the checks that end it, each with its DC, the
//! action an attempt takes, and whether it holds the bearer in place
//! (`anchored`: it cannot move at all, `refresh_status` folds it as
//! `CANT_MOVE`). An unanchored entangled creature moves at half speed (the
//! condition). The bearer breaks free with `break_free` (`ActionKind::BreakFree`):
//! the best of the checks it may make, d20 + bonus against that check's DC;
//! success ends the bond.

use crate::dice::ability_modifier;
use crate::effects::{Behaviour, Bonds, Context, EscapeAction, Maneuver, Targets};
use crate::rng::Dice;

use super::action::{Reason, Slot};
use super::engine::Engine;
use super::event::{EffectEnd, Event};
use super::event_kinds::EscapeSkill;
use super::log::emit;
use super::state::BattleState;

impl BattleState<'_> {
    /// The first bond on `i`: its index among `i`'s effects and its rules.
    pub fn bond(&self, i: usize) -> Option<(usize, Bonds)> {
        if !crate::effects::Behaviours(self.fighters[i].fx).has(crate::effects::Behaviours::BOUND) {
            return None;
        }
        self.fighters[i].effects.iter().enumerate().find_map(|(k, e)| {
            e.effect.behaviours.iter().find_map(|b| match b {
                Behaviour::Bound(bonds) => Some((k, *bonds)),
                _ => None,
            })
        })
    }

    /// Whether one of `i`'s bonds holds it in place.
    pub(crate) fn anchored(&self, i: usize) -> bool {
        self.fighters[i].effects.iter().any(|e| {
            e.effect.behaviours.iter().any(|b| matches!(b, Behaviour::Bound(bonds) if bonds.anchored))
        })
    }

    /// `i`'s bonus on a check of `skill`: Escape Artist (its printed bonus,
    /// else untrained: its Dexterity modifier), a Strength check, its CMB.
    pub fn escape_check_bonus(&self, i: usize, skill: EscapeSkill) -> i32 {
        let spec = &self.prep.fighters[i];
        let (ds, dd) = self.ability_deltas(i);
        match skill {
            EscapeSkill::EscapeArtist => {
                let ctx = Context { maneuver: Some(Maneuver::Escape), ..Context::default() };
                let base = spec.defense.escape_artist.unwrap_or(spec.scores.dex_mod);
                base + dd + self.modifier(i, Targets::skill(true, false), &ctx)
            }
            EscapeSkill::Strength => ability_modifier(spec.scores.str_score) + ds,
            EscapeSkill::Cmb => self.cmb(i, Maneuver::Escape, i),
            // Untrained (no file gives an Acrobatics bonus the engine reads): Dexterity.
            EscapeSkill::Acrobatics => {
                spec.scores.dex_mod + dd + self.modifier(i, Targets::skill(true, false), &Context::default())
            }
        }
    }

    /// The check `i` makes against `bonds`: the one with the best odds
    /// (bonus − DC; the first of Escape Artist, Strength, CMB on a tie), its
    /// bonus and DC.
    pub fn best_escape(&self, i: usize, bonds: &Bonds) -> Option<(EscapeSkill, i32, i32)> {
        let options = [
            (EscapeSkill::EscapeArtist, bonds.escape_artist),
            (EscapeSkill::Strength, bonds.strength),
            (EscapeSkill::Cmb, bonds.cmb),
        ];
        let mut best: Option<(EscapeSkill, i32, i32)> = None;
        for (skill, dc) in options {
            let Some(dc) = dc else { continue };
            let bonus = self.escape_check_bonus(i, skill);
            if best.is_none_or(|(_, b, d)| bonus - dc > b - d) {
                best = Some((skill, bonus, dc));
            }
        }
        best
    }

    /// The chance `i` breaks `bonds` with one attempt: P(d20 + bonus ≥ DC)
    /// (a skill check: no automatic success or failure).
    pub fn escape_chance(&self, i: usize, bonds: &Bonds) -> f64 {
        self.best_escape(i, bonds)
            .map_or(0.0, |(_, bonus, dc)| f64::from((21 - (dc - bonus)).clamp(0, 20)) / 20.0)
    }

    /// The budget slot an attempt to break `i`'s bond takes (a move action without one).
    pub(crate) fn break_free_slot(&self, i: usize) -> Slot {
        match self.bond(i).map(|(_, b)| b.action) {
            Some(EscapeAction::Standard) => Slot::Standard,
            Some(EscapeAction::FullRound) => Slot::FullRound,
            Some(EscapeAction::Move) | None => Slot::Move,
        }
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// `i` tries to break its first bond: d20 + the best check's bonus
    /// against its DC; success ends the bond.
    pub(crate) fn break_free(&mut self, i: usize) -> Result<(), Reason> {
        let Some((k, bonds)) = self.st.bond(i) else { return Err(Reason::NotBound) };
        let Some((skill, bonus, dc)) = self.st.best_escape(i, &bonds) else { return Err(Reason::NotBound) };
        let d20 = self.rng.roll(20) as i32;
        let ok = d20 + bonus >= dc;
        let bond = self.st.fighters[i].effects[k].effect.name.to_string();
        emit!(
            self,
            Event::EscapeCheck {
                who: i,
                bond,
                skill,
                moving: false,
                d20,
                bonus,
                total: d20 + bonus,
                dc,
                ok,
                stopped_at: None
            }
        );
        if ok {
            self.remove_effect_at(i, k, EffectEnd::BrokenFree);
        }
        Ok(())
    }
}
