//! Power Attack (CRB feat; seed conformance A6, B16): a free action,
//! `activate_power_attack`, declared for the turn and lasting until the
//! combatant's next turn. With X = BAB / 4 + 1: −X on melee attack rolls
//! (melee touch included, confirmation included) and on combat maneuver
//! checks; +2X damage with melee weapons and natural attacks (not touch
//! attacks), +3X with a two-handed attack, +X with a secondary natural attack.

use crate::rng::Dice;

use super::action::Reason;
use super::engine::Engine;
use super::event::{CombatEvent, Event};
use super::log::emit;
use super::odds::hit_chance;
use super::prepared::AttackProfile;
use super::state::BattleState;

/// The step X of Power Attack at base attack bonus `bab`.
pub(crate) const fn step(bab: i32) -> i32 {
    if bab < 0 { 1 } else { bab / 4 + 1 }
}

/// The damage Power Attack adds to a hit of `atk` at step `x`.
pub(crate) const fn damage(x: i32, atk: &AttackProfile) -> i32 {
    if !atk.weapon_damage || !atk.melee {
        0
    } else if atk.two_handed {
        3 * x
    } else if atk.secondary || atk.off_hand {
        // CRB "Power Attack": halved with an off-hand weapon or a secondary natural attack.
        x
    } else {
        2 * x
    }
}

impl BattleState<'_> {
    /// Whether Power Attack raises the expected damage of `i`'s first usable
    /// melee attack against `t`'s armor class (hit chance × average damage;
    /// criticals and the target's reductions aside). The `auto` setting of
    /// the `power_attack` lever and the default policy use it.
    pub fn power_attack_pays(&self, i: usize, t: usize) -> bool {
        let spec = &self.prep.fighters[i];
        if !spec.feats.power_attack {
            return false;
        }
        let Some(w) =
            (0..spec.offense.attacks.len()).find(|&w| spec.offense.attacks[w].melee && self.is_usable(i, w))
        else {
            return false;
        };
        let atk = &spec.offense.attacks[w];
        let x = step(spec.offense.bab);
        let ac = if atk.vs_touch {
            self.prep.fighters[t].defense.ac.touch
        } else {
            self.prep.fighters[t].defense.ac.total
        };
        let without = hit_chance(atk.bonus, ac) * atk.mean_damage;
        let with = hit_chance(atk.bonus - x, ac) * (atk.mean_damage + f64::from(damage(x, atk)));
        with > without
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// `activate_power_attack` (free action): on until the start of its next turn.
    pub(crate) fn activate_power_attack(&mut self, i: usize) -> Result<(), Reason> {
        let spec = &self.st.prep.fighters[i];
        if !spec.feats.power_attack {
            return Err(Reason::MissingFeat);
        }
        let x = step(spec.offense.bab);
        self.st.fighters[i].turn.power_attack = true;
        emit!(self, Event::Combat { who: i, what: CombatEvent::PowerAttack { penalty: x, damage: 2 * x } });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_step_grows_every_four_points_of_bab() {
        assert_eq!([0, 1, 3, 4, 7, 8, 11, 12, 20].map(step), [1, 1, 1, 2, 2, 3, 3, 4, 6]);
    }
}
