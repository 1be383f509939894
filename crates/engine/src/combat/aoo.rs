//! Threatened squares and attacks of opportunity (CRB "Attacks of Opportunity").

use crate::grid::{footprint, footprint_distance_ft};
use crate::map::Pos;
use crate::rng::Dice;

use super::engine::Engine;
use super::event::{CombatEvent, Event};
use super::log::emit;
use super::odds::Swing;
use super::state::BattleState;

impl BattleState<'_> {
    /// The melee attack with which `a` threatens square `sq`, if it does: `a`
    /// can act and has a melee attack (file order) whose reach covers `sq`
    /// with line of effect. A reach of 0 (Tiny and smaller) threatens nothing.
    pub fn threat_weapon(&self, a: usize, sq: Pos) -> Option<usize> {
        self.threat_weapon_on(a, sq, 1, 0)
    }

    /// Whether an enemy threatens `i` where it stands.
    pub(crate) fn is_threatened(&self, i: usize) -> bool {
        (0..self.len()).any(|e| self.are_enemies(e, i) && self.threatens(e, i))
    }

    /// Whether an enemy of `i` threatens square `q` for `i` (its space and altitude).
    pub(crate) fn threatened_at(&self, i: usize, q: Pos) -> bool {
        (0..self.len()).any(|e| {
            self.are_enemies(e, i)
                && self.threat_weapon_on(e, q, self.space(i), self.fighters[i].mobility.alt).is_some()
        })
    }

    /// Whether `a` threatens any square of the space of `t` (CRB "Threatened Squares").
    pub fn threatens(&self, a: usize, t: usize) -> bool {
        self.threat_weapon_on(a, self.fighters[t].pos, self.space(t), self.fighters[t].mobility.alt).is_some()
    }

    /// The melee attack with which `a` threatens some square of the footprint
    /// of side `s` whose top-left square is `anchor`, at altitude `alt`.
    pub(crate) fn threat_weapon_on(&self, a: usize, anchor: Pos, s: i32, alt: u32) -> Option<usize> {
        if !self.is_active(a) || self.is_swallowed(a) {
            return None;
        }
        let from = self.fighters[a].pos;
        let sa = self.space(a);
        let one = sa == 1 && s == 1;
        let mut dist = if one {
            crate::grid::distance_ft(from, anchor)
        } else {
            footprint_distance_ft(from, sa, anchor, s)
        };
        let own = self.fighters[a].mobility.alt;
        if own | alt != 0 {
            dist = super::flight::lift(dist, super::flight::vertical_gap(own, sa, alt, s));
        }
        let attacks = &self.prep.fighters[a].offense.attacks;
        let unusable = self.unusable(a);
        let w = (0..attacks.len()).find(|&k| {
            let atk = &attacks[k];
            atk.melee && self.reach(a, k).1 > 0 && self.reaches(a, k, dist) && unusable >> k & 1 == 0
        })?;
        let loe = if one {
            self.prep.line_of_effect(from, anchor)
        } else {
            self.line_of_effect_spaces(from, sa, anchor, s)
        };
        loe.then_some(w)
    }

    /// Whether `target` has cover against `attacker`'s melee: no attack of
    /// opportunity is possible then (CRB "Cover").
    fn covered_from(&self, attacker: usize, target: usize) -> bool {
        self.terrain_cover_from(attacker, self.fighters[attacker].pos, target, true) > 0
    }

    /// The attack `e` would make as an attack of opportunity against `target`
    /// whose space starts on `sq`, if it may make one now: the threatening
    /// melee attack with the highest bonus (file order on ties).
    ///
    /// This is `threat_weapon_on` and the choice of attack in one pass: it
    /// runs for every enemy on every step of every move, so the distance is
    /// computed once and line of effect only checked when some attack reaches;
    /// inlined, as the call itself cost as much as the checks.
    #[inline(always)]
    pub(crate) fn aoo_weapon(&self, e: usize, target: usize, sq: Pos) -> Option<usize> {
        self.aoo_weapon_seen(e, target, sq, true)
    }

    /// `aoo_weapon`, with the total-concealment rule only when `concealment`.
    #[inline(always)]
    fn aoo_weapon_seen(&self, e: usize, target: usize, sq: Pos, concealment: bool) -> Option<usize> {
        let f = &self.fighters[e];
        if !self.are_enemies(e, target)
            || f.turn.aoo_left == 0
            || f.turn.total_defense
            || f.no_aoo
            || !self.is_active(e)
        {
            return None;
        }
        let (s, se) = (self.space(target), self.space(e));
        let one = se == 1 && s == 1;
        let h =
            if one { crate::grid::distance_ft(f.pos, sq) } else { footprint_distance_ft(f.pos, se, sq, s) };
        let dist = if f.mobility.alt | self.fighters[target].mobility.alt == 0 {
            h
        } else {
            self.lifted(e, target, h)
        };
        let attacks = &self.prep.fighters[e].offense.attacks;
        let unusable = f.gear.broken | f.gear.dropped;
        let w = (0..attacks.len())
            .filter(|&k| {
                attacks[k].melee
                    && self.reach(e, k).1 > 0
                    && self.reaches(e, k, dist)
                    && unusable >> k & 1 == 0
            })
            .max_by_key(|&k| (attacks[k].bonus, usize::MAX - k))?;
        let loe = if one {
            self.prep.line_of_effect(f.pos, sq)
        } else {
            self.line_of_effect_spaces(f.pos, se, sq, s)
        };
        (loe && !self.covered_from(e, target) && !(concealment && self.totally_concealed_from(e, target)))
            .then_some(w)
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
            } else if self.log.on() {
                self.note_concealed(e, mover, from);
            }
        }
    }

    /// Transcript only: `e` would have had an attack of opportunity on
    /// `target` but for total concealment.
    #[cold]
    fn note_concealed(&mut self, e: usize, target: usize, sq: Pos) {
        if self.st.aoo_weapon_seen(e, target, sq, false).is_some() {
            emit!(self, Event::Combat { who: e, what: CombatEvent::AooSuppressed { target } });
        }
    }

    /// `mover` has just entered the space it now stands on, coming from
    /// `before`: an enemy whose square it moves through (three or more size
    /// categories apart) gets an attack of opportunity, once per fresh entry
    /// (CRB "Moving Through a Square").
    pub(crate) fn provoke_enter(&mut self, mover: usize, before: Pos) {
        let s = self.st.space(mover);
        let here = self.st.fighters[mover].pos;
        let small = self.st.is_small(mover);
        if s == 1 {
            let occupant = if small { self.st.small_occupant(here) } else { self.st.large_occupant(here) };
            if occupant.is_none_or(|j| j == mover || !self.st.are_enemies(mover, j)) {
                return;
            }
        }
        for c in footprint(here, s) {
            let occupant = if small { self.st.small_occupant(c) } else { self.st.large_occupant(c) };
            let Some(j) = occupant else { continue };
            if j == mover || !self.st.are_enemies(mover, j) || !self.st.is_active(j) {
                continue;
            }
            let seen = footprint(before, s).any(|b| {
                (if small { self.st.small_occupant(b) } else { self.st.large_occupant(b) }) == Some(j)
            });
            if seen {
                continue;
            }
            if let Some(w) = self.st.aoo_weapon(j, mover, here) {
                emit!(self, Event::Combat { who: j, what: CombatEvent::AooMovesThrough { target: mover } });
                self.attack_of_opportunity(j, w, mover);
            }
            if !self.st.is_active(mover) {
                return;
            }
        }
    }

    /// `shooter` is about to make a ranged attack: every enemy threatening its
    /// square gets an attack of opportunity.
    pub(crate) fn provoke_shot(&mut self, shooter: usize) {
        let sq = self.st.fighters[shooter].pos;
        for e in 0..self.st.len() {
            if !self.st.can_act(shooter) {
                return;
            }
            if let Some(w) = self.st.aoo_weapon(e, shooter, sq) {
                self.attack_of_opportunity(e, w, shooter);
            } else if self.log.on() {
                self.note_concealed(e, shooter, sq);
            }
        }
    }

    /// `i` does something that provokes where it stands (standing up; the
    /// hook for casting): every enemy threatening it gets an attack of
    /// opportunity.
    pub(crate) fn provoke_in_place(&mut self, i: usize) {
        self.provoke_shot(i);
    }

    /// `i` does something that provokes from `e` only (a combat maneuver
    /// provokes its target): `e`'s attack of opportunity, if it can make
    /// one; the damage `i` took from it.
    pub(crate) fn provoke_from(&mut self, i: usize, e: usize) -> u32 {
        let sq = self.st.fighters[i].pos;
        let Some(w) = self.st.aoo_weapon(e, i, sq) else {
            if self.log.on() {
                self.note_concealed(e, i, sq);
            }
            return 0;
        };
        let before = self.st.fighters[i].hp + self.st.fighters[i].temp_hp;
        self.attack_of_opportunity(e, w, i);
        let f = &self.st.fighters[i];
        (before - f.hp - f.temp_hp).max(0) as u32
    }

    /// One melee attack at full bonus.
    fn attack_of_opportunity(&mut self, e: usize, w: usize, target: usize) {
        self.st.fighters[e].turn.aoo_left -= 1;
        self.strike(e, w, target, Swing { aoo: true, ..Swing::default() });
    }
}
