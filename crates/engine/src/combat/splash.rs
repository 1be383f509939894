//! Splash weapons (CRB "Splash Weapons"; rules and simplifications in
//! `docs/rules/items.md`, "Splash weapons").
//!
//! A hit deals the weapon's damage to its target and its splash damage to
//! every other creature within 5 feet of it (of one square of a Large or
//! larger target: the thrower's choice, the one that splashes the fewest of
//! its allies, then the most of its foes). A miss lands off target: 1d8
//! for the direction (1 falls short, toward the thrower; 2 to 8 go round
//! clockwise), as many squares from the target as the throw's range
//! increments; every creature within 5 feet of that square takes the
//! splash. Alchemist's fire's target burns again on the next round (the
//! attack's `lingering` damage, recurring damage for one round).

use crate::effects::effect::{Duration, Effect};
use crate::effects::{Context, SaveKind};
use crate::feats::Evasion;
use crate::map::Pos;
use crate::rng::Dice;

use super::damage::{Extra, roll_damage};
use super::engine::Engine;
use super::event::Event;
use super::log::emit;
use super::state::BattleState;

/// The eight directions of a missed throw, clockwise from north (rows grow
/// southward).
const CLOCKWISE: [(i32, i32); 8] = [(-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1)];

impl BattleState<'_> {
    /// Whether combatant `j` stands within 5 feet of square `p` (some square
    /// of its space adjacent to or on it) at about the same height.
    pub(crate) fn within_splash(&self, j: usize, p: Pos, alt: u32) -> bool {
        self.fighters[j].mobility.alt.abs_diff(alt) <= 5
            && self.cells(j).any(|q| (q.row - p.row).abs() <= 1 && (q.col - p.col).abs() <= 1)
    }

    /// The square of `t`'s space a splash weapon of `a` bursts on: the only
    /// one up to Medium; for a larger target, the one whose splash catches
    /// the fewest of `a`'s allies (itself included), then the most foes
    /// (first in row order on a tie).
    pub(crate) fn splash_square(&self, a: usize, t: usize) -> Pos {
        if self.space(t) == 1 {
            return self.fighters[t].pos;
        }
        let alt = self.fighters[t].mobility.alt;
        let score = |p: Pos| {
            let (mut allies, mut foes) = (0u32, 0u32);
            for j in (0..self.len()).filter(|&j| {
                j != t && self.is_present(j) && !self.is_swallowed(j) && self.within_splash(j, p, alt)
            }) {
                if self.are_enemies(a, j) {
                    foes += 1;
                } else {
                    allies += 1;
                }
            }
            (allies, std::cmp::Reverse(foes))
        };
        self.cells(t).min_by_key(|&p| score(p)).unwrap_or(self.fighters[t].pos)
    }
}

/// Where a missed throw lands: `squares` from `origin` in the direction of
/// the d8 (1: toward `thrower`, then clockwise).
pub(crate) fn misdirected(origin: Pos, thrower: Pos, d8: u32, squares: u32) -> Pos {
    let toward = ((thrower.row - origin.row).signum(), (thrower.col - origin.col).signum());
    // A thrower on the target's own square: "short" is north.
    let start = CLOCKWISE.iter().position(|&d| d == toward).unwrap_or(0);
    let (dr, dc) = CLOCKWISE[(start + d8.clamp(1, 8) as usize - 1) % 8];
    let n = squares as i32;
    Pos::new(origin.row + dr * n, origin.col + dc * n)
}

impl<R: Dice> Engine<'_, '_, R> {
    /// After a hit of splash weapon `w` of `a` on `t`: the splash on the
    /// creatures around `t`, and the lingering damage on `t`.
    pub(crate) fn splash_hit(&mut self, a: usize, w: usize, t: usize) {
        let atk = &self.st.prep.fighters[a].offense.attacks[w];
        if let Some(rec) = atk.lingering.clone() {
            let mut burn = Effect::new(&atk.name, Duration::Rounds(1));
            burn.recurring = Some(rec);
            self.apply_effect(t, burn, Some(a));
        }
        let p = self.st.splash_square(a, t);
        let alt = self.st.fighters[t].mobility.alt;
        self.splash_around(a, w, p, alt, Some(t));
    }

    /// After a miss of splash weapon `w` of `a` at `t`: where it lands, and
    /// the splash there.
    pub(crate) fn splash_miss(&mut self, a: usize, w: usize, t: usize) {
        let origin = self.st.splash_square(a, t);
        let increment = self.st.prep.fighters[a].offense.attacks[w].increment.max(5);
        let squares = self.st.distance(a, t).max(1).div_ceil(increment);
        let d8 = self.rng.roll(8);
        let at = misdirected(origin, self.st.fighters[a].pos, d8, squares);
        let weapon = self.st.prep.fighters[a].offense.attacks[w].name.clone();
        emit!(self, Event::Misdirected { who: a, weapon, d8, squares, at });
        let alt = self.st.fighters[t].mobility.alt;
        self.splash_around(a, w, at, alt, None);
    }

    /// The splash of weapon `w` of `a` on every creature within 5 feet of
    /// `p` but `spared` (the target of a direct hit).
    fn splash_around(&mut self, a: usize, w: usize, p: Pos, alt: u32, spared: Option<usize>) {
        let prep = self.st.prep;
        let Some(splash) = prep.fighters[a].offense.attacks[w].splash.as_deref() else { return };
        for j in 0..self.st.len() {
            // A creature immune to all of it (holy water on the living) is not splashed at all.
            if Some(j) == spared
                || !self.st.is_present(j)
                || !self.st.within_splash(j, p, alt)
                || splash.vs[j].comps.iter().all(|c| c.immune)
            {
                continue;
            }
            // A bomb's splash: a Reflex save for half; evasion saves all of
            // it, improved evasion half on a failure (APG "Bomb", CRB "Evasion").
            let mut half = false;
            if let Some(dc) = prep.fighters[a].offense.attacks[w].splash_dc {
                let saved = self.roll_save(j, SaveKind::Ref, dc, &Context::default());
                let evasion =
                    if self.st.is_helpless(j) { Evasion::None } else { prep.fighters[j].feats.evasion };
                match (saved, evasion) {
                    (true, Evasion::None) | (false, Evasion::Improved) => half = true,
                    (true, _) => continue,
                    (false, _) => {}
                }
            }
            let shielded =
                self.st.energy_shielded(j).then(|| self.st.energy_defense(splash, j, splash.vs[j].clone()));
            let def = shielded.as_ref().unwrap_or(&splash.vs[j]);
            let mut dmg = roll_damage(splash, def, false, Extra { half, ..Extra::default() }, self.rng);
            if dmg.absorbable != [0; 5] {
                self.absorb_energy(j, &mut dmg);
            }
            if prep.fighters[j].monster.is_some() {
                dmg = self.monster_damage(a, w, j, dmg);
            }
            let hp = self.st.fighters[j].hp;
            emit!(self, Event::Splash { who: j, by: a, weapon: splash.name.clone(), dealt: dmg.dealt, hp });
            if self.st.are_enemies(a, j) {
                self.st.fighters[a].out.damage_dealt += dmg.dealt;
            }
            self.st.fighters[j].out.damage_taken += dmg.dealt;
            self.wound(j, dmg.dealt);
            if dmg.splits {
                self.split(j);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missed_throw_falls_short_on_a_one_and_goes_round_clockwise() {
        let target = Pos::new(5, 5);
        let thrower = Pos::new(5, 1);
        // 1: toward the thrower (west), one square per range increment.
        assert_eq!(misdirected(target, thrower, 1, 1), Pos::new(5, 4));
        assert_eq!(misdirected(target, thrower, 1, 3), Pos::new(5, 2));
        // Then clockwise: north-west, north, north-east, east (beyond), …
        assert_eq!(misdirected(target, thrower, 2, 1), Pos::new(4, 4));
        assert_eq!(misdirected(target, thrower, 3, 1), Pos::new(4, 5));
        assert_eq!(misdirected(target, thrower, 5, 2), Pos::new(5, 7));
        assert_eq!(misdirected(target, thrower, 8, 1), Pos::new(6, 4));
        // A diagonal thrower: short is the diagonal toward it.
        assert_eq!(misdirected(target, Pos::new(9, 9), 1, 1), Pos::new(6, 6));
    }
}
