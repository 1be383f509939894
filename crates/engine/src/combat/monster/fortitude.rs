//! Energy fortitude (Bestiary, Shambling Mound, "Electric Fortitude (Ex)":
//! "Shambling mounds take no damage from electricity. Instead, any
//! electricity attack used against a shambling mound temporarily increases
//! its Constitution score by 1d4 points. The shambling mound loses these
//! temporary points at the rate of 1 per hour.").
//!
//! - The "no damage" is its energy immunity (the file lists the type in
//!   `immunities`; loading refuses an `energy_fortitude` without it).
//! - Each weapon hit with a component of the type, each spell with damage
//!   of the type that reaches it (its electricity descriptor meets the
//!   immunity before any damage is rolled), and each other damage of the
//!   type on it (rolled above 0, whatever its save), raises its
//!   Constitution by the rolled `con` (1d4) for the rest of the battle (an
//!   hour is 600 rounds): the gains add up, carried by one effect named
//!   after the ability (`EffectGained` on the event stream). Its Fortitude
//!   saves follow the score (`BattleState::save_bonus`), and its hit points
//!   rise at once by the modifier's change times its Hit Dice, as a
//!   wolverine's rage adds them (`monster::rage`).
//! - *Simplification*: an attack that deals no electricity damage roll at
//!   all (a missed touch spell) gives nothing: only what reaches it counts.

use crate::dice::ability_modifier;
use crate::effects::{BonusType, Duration, Effect, Mod, ModTarget};
use crate::rng::Dice;
use crate::spell::effect::EffectKind;

use super::super::engine::Engine;
use super::super::prepared::monster::energy_bits;
use super::super::state::BattleState;

impl BattleState<'_> {
    /// Whether damage of `types` on `t` feeds its energy fortitude.
    pub(crate) fn fortified_by(&self, t: usize, types: &[String]) -> bool {
        self.prep.fighters[t]
            .monster
            .as_deref()
            .and_then(|m| m.fortitude.as_ref())
            .is_some_and(|(_, _, bits)| bits & energy_bits(types) != 0)
    }
}

impl BattleState<'_> {
    /// Whether spell `spell` deals damage of a type that feeds `t`'s
    /// energy fortitude (its descriptor immunity stops the spell before
    /// any damage is rolled: `Engine::passes_defenses` calls in).
    pub(crate) fn spell_fortifies(&self, t: usize, spell: u16) -> bool {
        self.prep.spells[usize::from(spell)]
            .spell
            .effects
            .iter()
            .any(|e| matches!(&e.kind, EffectKind::Damage(d) if self.fortified_by(t, &d.types)))
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// An attack of its fortitude's types reached `t`: it gains the rolled
    /// Constitution (and the hit points of the higher modifier).
    pub(crate) fn energy_fortitude(&mut self, t: usize) {
        let prep = self.st.prep;
        let Some((name, con, _)) = prep.fighters[t].monster.as_deref().and_then(|m| m.fortitude.as_ref())
        else {
            return;
        };
        let Some(score) = prep.fighters[t].scores.con_score else { return };
        if self.st.fighters[t].dead {
            return;
        }
        let n = con.roll(self.rng).max(1);
        let before = self.st.fighters[t].monster.fortitude_con;
        let after = before + n;
        self.st.fighters[t].monster.fortitude_con = after;
        let hd = prep.fighters[t].nature.hd.max(1) as i32;
        let gain = (ability_modifier(score + after) - ability_modifier(score + before)) * hd;
        self.st.fighters[t].hp += gain.max(0);
        // One effect carries the running total (a new one of the same name replaces it).
        let fx = Effect::new(name.as_str(), Duration::UntilRemoved).with_mods(vec![Mod::new(
            ModTarget::Con,
            after,
            BonusType::Untyped,
        )]);
        self.apply_effect(t, fx, None);
        self.st.refresh_status(t);
    }
}
