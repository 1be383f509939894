//! The martial feats that decide damage, in play (CRB feats;
//! docs/rules/feats.md §6): the options a combatant declares for its turn
//! (`declare`, a free action: Rapid Shot, Deadly Aim, Combat Expertise,
//! two-weapon fighting, Cleave), what they change in a full attack (the
//! extra shot, Manyshot's second arrow, the off-hand attacks) and in the
//! attack action (Vital Strike's dice, Cleave's chain), and their arithmetic.
//! Declarations last until the start of the combatant's next turn, like
//! Power Attack.

use crate::effects::{BonusType, Tally};
use crate::rng::Dice;

use super::action::{Action, Reason};
use super::damage::{Damage, Extra, roll_damage};
use super::engine::Engine;
use super::event::Event;
use super::event::{Attack as AttackEvent, AttackStep};
use super::log::emit;
use super::odds::{Situation, Swing, hit_chance, iterations};
use super::state::BattleState;
use super::style::{CLEAVE_AC_PENALTY, MartialState, RAPID_SHOT_PENALTY, Style, two_weapon_penalties};

impl Action {
    /// Declaring `style` for the turn.
    pub const fn declare(style: Style) -> Self {
        Action::new(super::action::ActionKind::Declare).with_option(style.option())
    }
}

/// The step X of Deadly Aim and Combat Expertise at `bab`: 1, +1 per 4 points.
pub(crate) const fn step(bab: i32) -> i32 {
    super::power_attack::step(bab)
}

/// The off-hand attacks of a two-weapon full attack: one, two with
/// Improved Two-Weapon Fighting (at −5), three with Greater (at −10).
pub(crate) const fn off_hand_attacks(level: u8) -> i32 {
    if level <= 1 { 1 } else { level as i32 }
}

/// The damage Double Slice adds to an off-hand hit: the half of the
/// Strength bonus the printed off-hand damage leaves out (CRB "Double Slice").
pub(crate) const fn double_slice_bonus(str_mod: i32) -> i32 {
    if str_mod > 0 { str_mod - str_mod / 2 } else { 0 }
}

/// The mean of the dice of `d`, its flat part left out.
fn dice_mean(d: &crate::dice::DiceExpr) -> f64 {
    let flat: i32 = d.terms().iter().map(|t| if let crate::dice::Term::Flat(v) = t { *v } else { 0 }).sum();
    d.mean() - f64::from(flat)
}

/// Expected hits of attack rolls at `bonuses` against `ac`.
fn expected_hits(bonuses: impl Iterator<Item = i32>, ac: i32) -> f64 {
    bonuses.map(|b| hit_chance(b, ac)).sum()
}

impl BattleState<'_> {
    /// Whether `i` may declare `style` now: it has the feat (two-weapon
    /// fighting needs an off-hand weapon, not the feat).
    pub fn may_declare(&self, i: usize, style: Style) -> bool {
        let spec = &self.prep.fighters[i];
        let m = &spec.features.rules.martial;
        match style {
            Style::RapidShot => m.rapid_shot,
            Style::DeadlyAim => m.deadly_aim,
            Style::CombatExpertise => m.combat_expertise,
            Style::TwoWeapon => spec.offense.attacks.iter().any(|a| a.off_hand),
            Style::Cleave => m.cleave > 0,
            Style::Flurry => self.may_flurry(i),
        }
    }

    /// Whether `i` declared `style` for this turn.
    pub fn declared(&self, i: usize, style: Style) -> bool {
        self.fighters[i].turn.martial.has(style)
    }

    /// The off-hand weapon of `i` able to hit `t` from where `i` stands.
    pub(crate) fn off_hand_weapon(&self, i: usize, t: usize) -> Option<usize> {
        let attacks = &self.prep.fighters[i].offense.attacks;
        let from = self.fighters[i].pos;
        (0..attacks.len()).find(|&w| attacks[w].off_hand && self.weapon_reaches(i, w, t, from))
    }

    /// The iterative penalties of a full attack with attack `w` of `i` (0, 5, 10…).
    fn iterative_penalties(&self, i: usize, w: usize) -> impl Iterator<Item = i32> {
        let spec = &self.prep.fighters[i];
        let atk = &spec.offense.attacks[w];
        let iters = if atk.iterates { iterations(spec.offense.bab) } else { 1 };
        (0..iters).flat_map(move |j| std::iter::repeat_n(5 * j, atk.count as usize))
    }

    /// Whether Rapid Shot raises the expected hits of a full attack by `i`
    /// with ranged attack `w` on `t`: one more roll at −2 on every roll.
    pub(crate) fn rapid_shot_pays(&self, i: usize, w: usize, t: usize) -> bool {
        let s = self.situation(i, w, t, Swing::default());
        let without = expected_hits(self.iterative_penalties(i, w).map(|p| s.attack - p), s.ac);
        let with = expected_hits(
            std::iter::once(0)
                .chain(self.iterative_penalties(i, w))
                .map(|p| s.attack - p - RAPID_SHOT_PENALTY),
            s.ac,
        );
        with > without
    }

    /// Whether Deadly Aim raises the expected damage of `i`'s attacks with
    /// ranged attack `w` on `t` (`full`: a full attack; `rapid`: with Rapid Shot).
    pub(crate) fn deadly_aim_pays(&self, i: usize, w: usize, t: usize, full: bool, rapid: bool) -> bool {
        let spec = &self.prep.fighters[i];
        let atk = &spec.offense.attacks[w];
        if !atk.weapon_damage || atk.melee {
            return false;
        }
        let x = step(spec.offense.bab);
        let s = self.situation(i, w, t, Swing::default());
        let rapid = full && rapid;
        let base = s.attack - if rapid { RAPID_SHOT_PENALTY } else { 0 };
        let rolls: Vec<i32> = if full {
            std::iter::once(0)
                .filter(|_| rapid)
                .chain(self.iterative_penalties(i, w))
                .map(|p| base - p)
                .collect()
        } else {
            vec![base]
        };
        let without = expected_hits(rolls.iter().copied(), s.ac) * atk.mean_damage;
        let with = expected_hits(rolls.iter().map(|b| b - x), s.ac) * (atk.mean_damage + f64::from(2 * x));
        with > without
    }

    /// Whether Cleave with melee attack `w` on `t` raises the expected
    /// damage over the attack `i` would make instead: its full attack with
    /// `w` alone (`full`), else the attack action with Vital Strike's dice.
    /// A full attack of several weapons or natural attacks is never traded.
    pub(crate) fn cleave_pays(&self, i: usize, w: usize, t: usize, full: bool) -> bool {
        let spec = &self.prep.fighters[i];
        let atk = &spec.offense.attacks[w];
        let bit = if w < 64 { 1u64 << w } else { 0 };
        if !atk.melee || (full && self.routine(i, w) != bit) {
            return false;
        }
        let Some(next) = self.cleave_candidates(i, w, t).next() else { return false };
        let s = self.situation(i, w, t, Swing::default());
        let s2 = self.situation(i, w, next, Swing::default());
        let p = hit_chance(s.attack, s.ac);
        let cleave = p * atk.mean_damage * (1.0 + hit_chance(s2.attack, s2.ac));
        let instead = if full {
            expected_hits(self.iterative_penalties(i, w).map(|q| s.attack - q), s.ac) * atk.mean_damage
        } else {
            let dice = atk.bonus_component.map_or(0.0, |k| dice_mean(&atk.components[k].dice));
            p * (atk.mean_damage + f64::from(spec.features.rules.martial.vital_strike) * dice)
        };
        cleave > instead
    }

    /// Whether fighting with two weapons raises the expected damage of a
    /// full attack by `i` with melee attack `w` on `t`.
    pub(crate) fn two_weapon_pays(&self, i: usize, w: usize, t: usize) -> bool {
        let spec = &self.prep.fighters[i];
        let atk = &spec.offense.attacks[w];
        let Some(o) = self.off_hand_weapon(i, t) else { return false };
        if !atk.melee || atk.natural || atk.two_handed || atk.off_hand {
            return false;
        }
        let level = spec.features.rules.martial.two_weapon;
        let (main, off) = two_weapon_penalties(level > 0, spec.offense.attacks[o].light);
        let s = self.situation(i, w, t, Swing::default());
        let so = self.situation(i, o, t, Swing::default());
        let without =
            expected_hits(self.iterative_penalties(i, w).map(|p| s.attack - p), s.ac) * atk.mean_damage;
        let with = expected_hits(self.iterative_penalties(i, w).map(|p| s.attack - p - main), s.ac)
            * atk.mean_damage
            + expected_hits((0..off_hand_attacks(level)).map(|k| so.attack - off - 5 * k), so.ac)
                * spec.offense.attacks[o].mean_damage;
        with > without
    }

    /// The foes a Cleave by `i` with melee attack `w` could go on to after
    /// hitting `t`: enemies able to fight, adjacent to `t`, within reach.
    pub(crate) fn cleave_candidates(&self, i: usize, w: usize, t: usize) -> impl Iterator<Item = usize> + '_ {
        let from = self.fighters[i].pos;
        (0..self.len()).filter(move |&j| {
            j != t
                && self.are_enemies(i, j)
                && self.is_active(j)
                && self.distance(j, t) <= 5
                && self.weapon_reaches(i, w, j, from)
        })
    }
}

impl BattleState<'_> {
    /// Combat Expertise's dodge bonus to `t`'s AC, 0 when not declared.
    pub(crate) fn expertise_ac(&self, t: usize) -> i32 {
        if self.fighters[t].turn.martial.has(Style::CombatExpertise) {
            step(self.prep.fighters[t].offense.bab)
        } else {
            0
        }
    }

    /// The attack-roll side of the declarations and of the swing: Deadly Aim
    /// (ranged), Combat Expertise (melee), Rapid Shot, two-weapon penalties.
    #[inline]
    pub(crate) fn martial_attack(
        &self,
        a: usize,
        w: usize,
        swing: Swing,
        s: &mut Situation,
        roll: &mut Tally,
    ) {
        let m = self.fighters[a].turn.martial;
        if m.styles == 0 && swing.two_weapon == 0 {
            return;
        }
        let spec = &self.prep.fighters[a];
        if spec.offense.attacks[w].melee {
            if m.has(Style::CombatExpertise) {
                s.expertise = step(spec.offense.bab);
                roll.untyped(-s.expertise);
            }
        } else if m.has(Style::DeadlyAim) {
            s.deadly_aim = step(spec.offense.bab);
            roll.untyped(-s.deadly_aim);
        }
        if swing.rapid {
            roll.untyped(-RAPID_SHOT_PENALTY);
        }
        roll.untyped(-swing.two_weapon);
    }

    /// The AC side of `t`'s declarations and hands: Combat Expertise's dodge
    /// bonus, Cleave's −2, and the shield let go for a two-handed weapon
    /// (not a touch AC bonus, so not against a touch attack).
    #[inline]
    pub(crate) fn martial_ac(&self, t: usize, touch: bool, guard: &mut Tally) {
        let m = self.fighters[t].turn.martial;
        if m == MartialState::default() {
            return;
        }
        if m.has(Style::CombatExpertise) {
            guard.add(BonusType::Dodge, step(self.prep.fighters[t].offense.bab));
        }
        if m.has(Style::Cleave) {
            guard.untyped(-CLEAVE_AC_PENALTY);
        }
        if m.shield_off && !touch {
            guard.untyped(-self.prep.fighters[t].defense.shield_ac);
        }
    }

    /// The damage side: Deadly Aim's +2X on a ranged weapon hit (not a
    /// touch attack), Double Slice on an off-hand hit.
    #[inline]
    pub(crate) fn martial_damage(&self, a: usize, w: usize, s: &Situation, swing: Swing) -> i32 {
        let spec = &self.prep.fighters[a];
        let atk = &spec.offense.attacks[w];
        let mut bonus = 0;
        if s.deadly_aim > 0 && atk.weapon_damage && !atk.melee {
            bonus += 2 * s.deadly_aim;
        }
        if swing.off_hand && spec.features.rules.martial.double_slice {
            bonus += double_slice_bonus(spec.scores.str_mod);
        }
        bonus
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// Manyshot's second arrow, added to the first's damage `dmg`: the
    /// weapon's damage and the flat bonuses again, never multiplied and
    /// without precision damage; damage reduction and resistances apply to
    /// each arrow (CRB "Manyshot").
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn second_arrow(
        &mut self,
        a: usize,
        w: usize,
        t: usize,
        flat: i32,
        magic: bool,
        mut dmg: Damage,
        ev: &mut Option<Box<AttackEvent>>,
    ) -> Damage {
        let atk = &self.st.prep.fighters[a].offense.attacks[w];
        let defense = if magic { self.st.defense_now(a, w, t, atk) } else { None };
        let extra = Extra { flat, resize: self.st.resize_of(a), ..Extra::default() };
        let mut second = roll_damage(atk, defense.as_ref().unwrap_or(&atk.vs[t]), false, extra, self.rng);
        if second.absorbable != [0; 5] {
            self.absorb_energy(t, &mut second);
        }
        if magic && second.physical > 0 {
            second.dealt -= self.spell_dr(a, w, t, second.physical);
        }
        if let Some(ev) = ev.as_mut() {
            ev.steps.push(AttackStep::Manyshot { dealt: second.dealt });
        }
        dmg.rolled += second.rolled;
        dmg.dealt += second.dealt;
        dmg.physical += second.physical;
        dmg.bleed += second.bleed;
        dmg.healed += second.healed;
        dmg.nonlethal = dmg.nonlethal.max(second.nonlethal);
        dmg
    }

    /// `declare` (free action): the style of `action.option` until the start
    /// of the next turn.
    pub(crate) fn declare(&mut self, i: usize, action: Action) -> Result<(), Reason> {
        let style = Style::from_option(action.option).ok_or(Reason::UnsupportedKind)?;
        if !self.st.may_declare(i, style) {
            return Err(if style == Style::TwoWeapon { Reason::NoWeapon } else { Reason::MissingFeat });
        }
        let spec = &self.st.prep.fighters[i];
        let x = step(spec.offense.bab);
        let (attack, off_hand, damage, ac) = match style {
            Style::RapidShot => (-RAPID_SHOT_PENALTY, 0, 0, 0),
            Style::DeadlyAim => (-x, 0, 2 * x, 0),
            Style::CombatExpertise => (-x, 0, 0, x),
            Style::TwoWeapon => {
                let light = spec.offense.attacks.iter().find(|a| a.off_hand).is_some_and(|a| a.light);
                let (main, off) = two_weapon_penalties(spec.features.rules.martial.two_weapon > 0, light);
                (-main, -off, 0, 0)
            }
            Style::Cleave => (0, 0, 0, -CLEAVE_AC_PENALTY),
            Style::Flurry => (self.st.flurry_attack(i), 0, 0, 0),
        };
        self.st.fighters[i].turn.martial.styles |= style.bit();
        emit!(self, Event::Declares { who: i, style, attack, off_hand, damage, ac });
        Ok(())
    }

    /// The off-hand attacks of a two-weapon full attack by `i` on `t`, after
    /// those of the main hand (CRB "Two-Weapon Fighting").
    pub(crate) fn off_hand_attacks(&mut self, i: usize, t: usize) {
        let Some(o) = self.st.off_hand_weapon(i, t) else { return };
        let spec = &self.st.prep.fighters[i];
        let level = spec.features.rules.martial.two_weapon;
        let (_, off) = two_weapon_penalties(level > 0, spec.offense.attacks[o].light);
        for k in 0..off_hand_attacks(level) {
            if !self.st.is_active(t) || !self.st.is_active(i) {
                break;
            }
            let swing = Swing { penalty: 5 * k, two_weapon: off, off_hand: true, ..Swing::default() };
            self.strike(i, o, t, swing);
        }
    }

    /// The attack action of `i` with attack `w` on `t` (a standard action):
    /// Cleave when declared with a melee weapon, else one attack with
    /// Vital Strike's dice when `i` has the feat (CRB "Vital Strike": "when
    /// you use the attack action").
    pub(crate) fn attack_action_single(&mut self, i: usize, w: usize, t: usize) {
        let spec = &self.st.prep.fighters[i];
        let atk = &spec.offense.attacks[w];
        let m = spec.features.rules.martial;
        if atk.melee && m.cleave > 0 && self.st.declared(i, Style::Cleave) {
            self.cleave(i, w, t, m.cleave > 1);
            return;
        }
        let vital = if atk.weapon_damage { m.vital_strike } else { 0 };
        self.weapon_attacks(i, w, t, false, false, Swing { vital, ..Swing::default() });
    }

    /// Cleave (and Great Cleave, `great`): after a hit, one more attack at
    /// the same bonus on a foe adjacent to the one just hit and within
    /// reach; Great Cleave goes on while the attacks hit, never on the same
    /// foe twice (CRB "Cleave", "Great Cleave").
    fn cleave(&mut self, i: usize, w: usize, t: usize, great: bool) {
        let (mut hit, _) = self.strike(i, w, t, Swing::default());
        let mut struck = vec![t];
        let mut last = t;
        while hit && self.st.is_active(i) && (great || struck.len() < 2) {
            let Some(next) = self.st.cleave_candidates(i, w, last).find(|j| !struck.contains(j)) else {
                break;
            };
            hit = self.strike(i, w, next, Swing::default()).0;
            struck.push(next);
            last = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_weapon_penalties_follow_table_8_7() {
        assert_eq!(two_weapon_penalties(false, false), (6, 10));
        assert_eq!(two_weapon_penalties(false, true), (4, 8));
        assert_eq!(two_weapon_penalties(true, false), (4, 4));
        assert_eq!(two_weapon_penalties(true, true), (2, 2));
    }

    #[test]
    fn off_hand_attacks_grow_with_improved_and_greater() {
        assert_eq!([0, 1, 2, 3].map(off_hand_attacks), [1, 1, 2, 3]);
    }

    #[test]
    fn deadly_aim_and_expertise_step_every_four_points_of_bab() {
        assert_eq!([1, 3, 4, 8, 12].map(step), [1, 1, 2, 3, 4]);
    }

    #[test]
    fn double_slice_adds_the_half_of_strength_the_off_hand_lacks() {
        assert_eq!([-1, 0, 1, 3, 4, 5].map(double_slice_bonus), [0, 0, 1, 2, 2, 3]);
    }

    #[test]
    fn styles_round_trip_through_their_option() {
        for &s in Style::ALL {
            assert_eq!(Style::from_option(s.option()), Some(s));
        }
        assert_eq!(Style::from_option(9), None);
    }
}
