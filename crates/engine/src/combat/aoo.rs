//! Threatened squares and attacks of opportunity (CRB "Attacks of Opportunity").

use crate::grid::distance_ft;
use crate::map::Pos;
use crate::rng::Dice;

use super::attack::Swing;
use super::state::BattleState;
use super::turn::Engine;

impl BattleState<'_> {
    /// The melee attack with which `a` threatens square `sq`, if it does: `a`
    /// can act and has a melee attack (file order) whose reach covers `sq`
    /// with line of effect.
    pub fn threat_weapon(&self, a: usize, sq: Pos) -> Option<usize> {
        if !self.is_active(a) {
            return None;
        }
        let from = self.fighters[a].pos;
        let dist = distance_ft(from, sq);
        let w = self.prep.fighters[a].attacks.iter().position(|atk| atk.melee && atk.reaches(dist))?;
        self.prep.line_of_effect(from, sq).then_some(w)
    }

    /// Whether `target` has cover against `attacker`'s melee: no attack of
    /// opportunity is possible then (CRB "Cover").
    fn covered_from(&self, attacker: usize, target: usize) -> bool {
        let (from, to) = (self.fighters[attacker].pos, self.fighters[target].pos);
        self.prep.terrain_cover(from, to, distance_ft(from, to) == 5) > 0
    }

    /// The attack `e` would make as an attack of opportunity against `target`
    /// standing on `sq`, if it may make one now: the threatening melee attack
    /// with the highest bonus (file order on ties).
    fn aoo_weapon(&self, e: usize, target: usize, sq: Pos) -> Option<usize> {
        if !self.are_enemies(e, target) || self.fighters[e].aoo_left == 0 {
            return None;
        }
        self.threat_weapon(e, sq)?;
        if self.covered_from(e, target) {
            return None;
        }
        let dist = distance_ft(self.fighters[e].pos, sq);
        let attacks = &self.prep.fighters[e].attacks;
        (0..attacks.len())
            .filter(|&k| attacks[k].melee && attacks[k].reaches(dist))
            .max_by_key(|&k| (attacks[k].bonus, usize::MAX - k))
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// `mover` is about to leave `from`: every enemy threatening it gets an
    /// attack of opportunity, at most one per enemy per round for this
    /// mover's movement.
    pub(crate) fn provoke_leave(&mut self, mover: usize, from: Pos) {
        let n = self.st.len();
        for e in 0..n {
            if !self.st.is_active(mover) {
                return;
            }
            let mark = e * n + mover;
            if self.st.move_aoo[mark] == self.st.round {
                continue;
            }
            if let Some(w) = self.st.aoo_weapon(e, mover, from) {
                self.st.move_aoo[mark] = self.st.round;
                self.attack_of_opportunity(e, w, mover);
            }
        }
    }

    /// `shooter` is about to make a ranged attack: every enemy threatening its
    /// square gets an attack of opportunity.
    pub(crate) fn provoke_shot(&mut self, shooter: usize) {
        let sq = self.st.fighters[shooter].pos;
        for e in 0..self.st.len() {
            if !self.st.is_active(shooter) {
                return;
            }
            if let Some(w) = self.st.aoo_weapon(e, shooter, sq) {
                self.attack_of_opportunity(e, w, shooter);
            }
        }
    }

    /// One melee attack at full bonus.
    fn attack_of_opportunity(&mut self, e: usize, w: usize, target: usize) {
        self.st.fighters[e].aoo_left -= 1;
        self.strike(e, w, target, Swing { aoo: true, ..Swing::default() });
    }
}
