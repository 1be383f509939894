//! Monster special abilities (Bestiary, Universal Monster Rules) as a few
//! reusable primitives read from `Combatant::special_abilities`
//! (`model::special`): one file per family, each written once for every
//! file that names it.
//!
//! - `breath`: breath weapons (an area, a Reflex save for half, a recharge);
//! - `healing`: regeneration and fast healing;
//! - `afflictions`: what a hit or a gaze does (paralysis, petrification,
//!   ability damage and drain, energy drain, poison, trip, grab);
//! - `gaze`: gaze attacks met at the start of a turn;
//! - `aura`: auras met at the start of a turn (despair, stench, fear
//!   aura), and the zombie's permanent staggered condition;
//! - `natural`: pounce and rend;
//! - `hold`: a grab's hold on later turns (maintained with constrict, or
//!   let go), rake and powerful charge;
//! - `incorporeal`: damage an incorporeal creature takes;
//! - `smite`: smite evil and smite good of the celestial and fiendish
//!   templates (a swift action, bonuses against one foe);
//! - `rage`: a wolverine's rage once wounded;
//! - `spell_like`: a spell's effect used as a supernatural ability, a free
//!   action at the start of a turn (a stone golem's slow, a clay golem's haste);
//! - `swallow`: swallow whole (and an engulf that functions as it): a held
//!   foe swallowed, its damage inside, cutting out or escaping;
//! - `engulf`: engulf by movement (a gelatinous cube's): a standard action
//!   moving over foes, each saving or engulfed, pinned inside (kept as
//!   `swallow` keeps its swallowed foes);
//! - `trample`: trample (an elephant's): a full-round move over smaller
//!   foes, each attacking at −4 or saving for half its damage;
//! - `web`: a thrown web or rope that entangles (`combat::bonds` breaks it);
//! - `song`: a harpy's captivating song (a standard action; its captives
//!   walk to the singer and stand defenseless beside it);
//! - `split`: an ochre jelly's split (a slashing or piercing weapon or
//!   electricity splits it in two instead of harming it; a copy appears);
//! - `golem`: the golems' exceptions to their immunity to magic (energy
//!   that heals or slows them), berserk and the clay golem's cursed wound;
//! - `dominate`: a vampire's dominate (a standard action; its subject
//!   fights on the vampire's side);
//! - `fortitude`: a shambling mound's electric fortitude (electricity
//!   deals it nothing and raises its Constitution instead);
//! - `rust`: a rust monster's rust (the metal armor or shield its
//!   antennae touch is broken, then destroyed: AC lost);
//! - `spittle`: a ranged touch as a free action each round, with an
//!   effect on a failed save (a gibbering mouther's blinding spittle);
//! - channel resistance is a save bonus (`BattleState::save_bonus`, with
//!   `Context::channel`).
//!
//! The rest of the engine calls in through the hooks at the end of this
//! file (start of a turn, a hit's damage, after a hit), the wound rule
//! (`regenerating`), the charge (`pounces`) and the breath action.
//!
//! The prepared form (`MonsterSpec`) is per combatant; the battle state of a
//! fighter keeps what changes (`MonsterState`, poisons running, negative levels).

mod afflictions;
// The day's carried state caps healing by the hit points negative levels take.
mod aura;
mod breath;
mod dominate;
mod engulf;
mod fortitude;
mod gaze;
mod golem;
mod healing;
mod hold;
mod incorporeal;
mod natural;
mod rage;
pub(crate) mod rust;
mod smite;
mod song;
mod spell_like;
mod spittle;
mod split;
mod swallow;
mod trample;
mod web;

pub(crate) use rage::{RAGE_BONUS, RAGE_EFFECT, rage_effect};

use crate::rng::Dice;

use super::damage::Damage;
use super::engine::Engine;
use super::event::{AfflictionEvent, Event};
use super::log::emit;
use super::prepared::norm;

/// Whether the combatant of `spec` has a feature whose normalized name is `name`.
fn has_feature(spec: &super::prepared::FighterSpec, name: &str) -> bool {
    spec.features.features.iter().any(|f| norm(&f.written) == name || norm(&f.entry) == name)
}

impl<R: Dice> Engine<'_, '_, R> {
    /// The start of `i`'s turn: regeneration and fast healing, the poisons
    /// running in it, the gazes it meets.
    pub(crate) fn monster_turn_start(&mut self, i: usize) {
        if let Some(m) = self.st.prep.fighters[i].monster.as_deref() {
            if m.staggered {
                self.stay_staggered(i);
            }
            if m.rage {
                self.rage_turn(i);
            }
            self.monster_healing(i);
            if (m.swallow.is_some() || m.engulf.is_some()) && self.st.fighters[i].monster.swallowing > 0 {
                self.digest(i);
            }
            if m.hold.is_some() {
                self.keep_holds(i);
            }
            if !m.spell_effects.is_empty() {
                self.spell_effects_turn(i);
            }
            if m.berserk.is_some() {
                self.berserk_turn_start(i);
            }
            if m.spittle.is_some() {
                self.spittle_turn(i);
            }
        }
        if !self.st.fighters[i].monster.poisons.is_empty() {
            self.poison_turn(i);
        }
        if self.st.fighters[i].fx & crate::effects::Behaviours::COMPEL != 0 {
            self.dominated_turn_start(i);
        }
        let (mut gazes, mut auras, mut songs) = (false, false, false);
        for m in self.st.prep.fighters.iter().filter_map(|f| f.monster.as_deref()) {
            gazes |= m.gaze.is_some();
            auras |= !m.auras.is_empty();
            songs |= m.song.is_some();
        }
        if songs {
            self.song_turn_start(i);
        }
        if gazes {
            self.meet_gazes(i);
        }
        if auras {
            self.meet_auras(i);
        }
    }

    /// The damage of a hit of attack `w` of `a` on monster `t`, before it
    /// lands: incorporeal defenses, and its types against regeneration.
    pub(crate) fn monster_damage(&mut self, a: usize, w: usize, t: usize, dmg: Damage) -> Damage {
        if self.st.prep.fighters[t].monster.as_deref().is_some_and(|m| m.menace) {
            self.hit_ends_auras(a, t);
        }
        let dmg = self.incorporeal_hit(a, w, t, dmg);
        let dmg = self.split_hit(a, w, t, dmg);
        if dmg.dealt > 0
            && self.st.prep.fighters[a].offense.attacks[w].vs[t].comps.iter().any(|c| c.stops_regen)
        {
            self.stop_regeneration(t, &[]);
        }
        dmg
    }

    /// After the damage of a hit of attack `w` of `a` on `t` landed: its
    /// nonlethal point, negative energy healing an undead, the attacker's
    /// riders and rend.
    pub(crate) fn after_hit_damage(&mut self, a: usize, w: usize, t: usize, dmg: &Damage) {
        if dmg.nonlethal > 0 {
            self.deal_nonlethal(t, dmg.nonlethal);
        }
        if dmg.healed > 0 {
            let n = self.heal(t, dmg.healed);
            emit!(
                self,
                Event::Affliction { who: t, what: AfflictionEvent::NegativeEnergyHeals { amount: n } }
            );
        }
        if self.st.prep.fighters[a].monster.is_some() {
            if dmg.dealt > 0 {
                self.curse_wound(a, t);
            }
            self.hit_riders(a, w, t);
            self.rend_hit(a, w, t);
        }
    }
}
