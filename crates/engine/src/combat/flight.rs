//! Three-dimensional flight (CRB "Fly" skill, "Falling"): altitude,
//! climbing and diving, Fly checks to stay aloft, distance and reach in three
//! dimensions, falls. The rules and their simplifications are in
//! `docs/rules/flight.md`.
//!
//! Every combatant has an altitude in feet (0: on the ground); only a
//! creature able to fly leaves the ground. Its ground square stays its
//! square on the map (nobody stands beneath a flier). Distances between two
//! combatants add the vertical gap between the heights they take up to the
//! 5-10-5 distance on the ground, as a third axis ([`lift`]); reach, ranges,
//! threatened squares and attacks of opportunity use it.

use crate::effects::{Behaviour, Behaviours, ConditionId, Flags};
use crate::model::Maneuverability;
use crate::rng::Dice;

use super::engine::Engine;
use super::event::{Event, FallCause};
use super::log::emit;
use super::prepared::flight::fly_bonus;
use super::state::BattleState;

/// Fly DC to hover (move no horizontal distance) and stay aloft.
pub(crate) const HOVER_DC: i32 = 15;
/// Fly DC to move less than half its fly speed and stay aloft.
pub(crate) const SLOW_DC: i32 = 10;
/// Fly DC of a winged flier that takes damage, to keep its altitude.
pub(crate) const WOUNDED_DC: i32 = 10;
/// Fly DC of a falling creature able to fly, to negate the fall's damage.
pub(crate) const FALL_NEGATE_DC: i32 = 10;
/// A winged flier that fails a Fly check by this much or more plummets.
pub(crate) const PLUMMET_MARGIN: i32 = 5;
/// Feet lost by a flier that fails a check without plummeting.
pub(crate) const SINK_FT: u32 = 10;
/// Falling damage dice: 1d6 per 10 feet, at most 20d6.
pub(crate) const MAX_FALL_DICE: u32 = 20;
/// Feet a creature whose flight spell ends floats down per round, for 1d6 rounds.
pub(crate) const SPELL_DESCENT_FT: u32 = 60;
/// Maneuverability of a fly speed given by a spell (the Fly spell's).
const SPELL_MANEUVERABILITY: Maneuverability = Maneuverability::Good;

/// The distance between two creatures `h` feet apart on the ground and `v`
/// feet apart in height: the 5-10-5 count with the vertical gap as a third
/// axis (the longer of the two, plus 5 ft for every full 10 ft of the shorter:
/// every second diagonal step costs 10 ft).
#[inline]
pub(crate) const fn lift(h: u32, v: u32) -> u32 {
    let (long, short) = if h >= v { (h, v) } else { (v, h) };
    long + short / 10 * 5
}

/// The vertical gap in feet between a creature whose lowest 5-ft layer is at
/// altitude `a` and that is `sa` squares tall, and one at `b`, `sb` tall: 0
/// when the heights they take up overlap, 5 when the layers touch. A
/// creature is as tall as its space is wide.
#[inline]
pub(crate) const fn vertical_gap(a: u32, sa: i32, b: u32, sb: i32) -> u32 {
    let (lo_a, lo_b) = ((a / 5) as i32, (b / 5) as i32);
    let (hi_a, hi_b) = (lo_a + sa - 1, lo_b + sb - 1);
    if lo_b > hi_a {
        5 * (lo_b - hi_a) as u32
    } else if lo_a > hi_b {
        5 * (lo_a - hi_b) as u32
    } else {
        0
    }
}

/// Dice of damage of a fall of `feet`: 1d6 per full 10 feet, at most 20d6.
pub(crate) const fn fall_dice(feet: u32) -> u32 {
    let d = feet / 10;
    if d > MAX_FALL_DICE { MAX_FALL_DICE } else { d }
}

/// Movement feet an altitude change from `from` to `to` costs: climbing at
/// half speed (each foot up costs two), descending at normal speed.
pub(crate) const fn climb_cost(from: u32, to: u32) -> u32 {
    if to > from { 2 * (to - from) } else { from - to }
}

impl BattleState<'_> {
    /// Altitude of combatant `i` in feet above the ground (0: on the ground).
    #[inline]
    pub fn altitude(&self, i: usize) -> u32 {
        self.fighters[i].mobility.alt
    }

    /// The 3D distance from `i` to `t` whose distance on the ground is `h`.
    #[inline]
    pub(crate) fn lifted(&self, i: usize, t: usize, h: u32) -> u32 {
        let (a, b) = (self.fighters[i].mobility.alt, self.fighters[t].mobility.alt);
        if a == b && self.shape[i].0 == self.shape[t].0 {
            return h;
        }
        lift(h, vertical_gap(a, self.shape[i].0, b, self.shape[t].0))
    }

    /// Movement feet `i` spends climbing or diving to `to` feet.
    pub fn climb_feet(&self, i: usize, to: u32) -> u32 {
        climb_cost(self.fighters[i].mobility.alt, to)
    }

    /// The vertical gap in feet between `i` and `t`.
    pub fn vertical_gap(&self, i: usize, t: usize) -> u32 {
        vertical_gap(
            self.fighters[i].mobility.alt,
            self.shape[i].0,
            self.fighters[t].mobility.alt,
            self.shape[t].0,
        )
    }

    /// The fly speed `i` has now (its own or a spell's), 0 if none.
    pub fn fly_speed(&self, i: usize) -> u32 {
        let own = self.prep.fighters[i].fly.map_or(0, |f| f.speed_ft);
        let f = &self.fighters[i];
        if !Behaviours(f.fx).has(Behaviours::SPEED) {
            return own;
        }
        let spell = f
            .effects
            .iter()
            .flat_map(|e| e.effect.behaviours.iter())
            .filter_map(|b| match *b {
                Behaviour::Fly { speed_ft } => Some(speed_ft),
                _ => None,
            })
            .max()
            .unwrap_or(0);
        own.max(spell)
    }

    /// Whether `i` flies on its own wings (natural flight; a spell's flight
    /// is magic and does not plummet).
    fn winged(&self, i: usize) -> bool {
        self.prep.fighters[i].fly.is_some()
    }

    /// Whether `i` can hover without risking a plummet: it has Hover, flies
    /// by magic, or even a natural 1 on its Fly check to hover fails by less
    /// than 5.
    pub fn hovers_safely(&self, i: usize) -> bool {
        let own = self.prep.fighters[i].fly;
        own.is_none_or(|f| f.hover) || 1 + self.fly_check_bonus(i) > HOVER_DC - PLUMMET_MARGIN
    }

    /// `i`'s bonus on Fly checks: its own flight's, else a spell flier's
    /// (Dexterity, good maneuverability, size).
    pub(crate) fn fly_check_bonus(&self, i: usize) -> i32 {
        let spec = &self.prep.fighters[i];
        let now = fly_bonus(spec.scores.dex_score, SPELL_MANEUVERABILITY, self.size(i));
        // A size change moves a printed bonus by the change of its size modifier.
        spec.fly.map_or(now, |f| {
            f.bonus + now - fly_bonus(spec.scores.dex_score, SPELL_MANEUVERABILITY, spec.nature.size)
        })
    }

    /// The lowest altitude at which no enemy able to fight reaches `i` with
    /// a melee attack from any square around it: above the top of every
    /// such enemy by more than its longest reach.
    pub fn out_of_reach_altitude(&self, i: usize) -> u32 {
        (0..self.len())
            .filter(|&e| self.are_enemies(i, e) && self.is_active(e))
            .map(|e| {
                let attacks = &self.prep.fighters[e].offense.attacks;
                let reach =
                    (0..attacks.len()).filter(|&w| attacks[w].melee).map(|w| self.reach(e, w).1).max();
                let top = self.fighters[e].mobility.alt + 5 * self.space(e).max(1) as u32;
                reach.map_or(0, |r| top + r)
            })
            .max()
            .unwrap_or(0)
    }

    /// Why a flier aloft must fall now, if it must: it no longer flies (its
    /// spell ended), or it is helpless (unconscious, paralyzed…), dying or prone.
    fn must_fall(&self, i: usize) -> Option<FallCause> {
        let f = &self.fighters[i];
        if f.mobility.alt == 0 || f.dead || f.gone {
            return None;
        }
        if self.fly_speed(i) == 0 {
            return Some(FallCause::FlightEnded);
        }
        if !self.is_active(i) || f.summary.flags.has(Flags::HELPLESS) {
            return Some(FallCause::Helpless);
        }
        f.conds.has(ConditionId::Prone).then_some(FallCause::Prone)
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// A Fly check of `i` against `dc`: whether it succeeds, and by how much
    /// it failed (0 on a success).
    pub(crate) fn fly_check(&mut self, i: usize, dc: i32) -> (bool, i32) {
        let d20 = self.rng.roll(20) as i32;
        let bonus = self.st.fly_check_bonus(i);
        let total = d20 + bonus;
        let ok = total >= dc;
        emit!(self, Event::FlyCheck { who: i, d20, bonus, total, dc, ok });
        (ok, if ok { 0 } else { dc - total })
    }

    /// Sets `i`'s altitude, recording the change.
    pub(crate) fn set_altitude(&mut self, i: usize, to: u32) {
        let from = self.st.fighters[i].mobility.alt;
        if from != to {
            self.st.fighters[i].mobility.alt = to;
            emit!(self, Event::Altitude { who: i, from_ft: from, to_ft: to });
        }
    }

    /// The vertical part of a move: `i` climbs or dives toward `to` feet
    /// within `budget` feet of movement (climbing costs double). Leaving a
    /// threatened space provokes, as any movement out of it. Returns the
    /// movement feet spent.
    pub(crate) fn fly_to(&mut self, i: usize, to: u32, budget: u32) -> u32 {
        let from = self.st.fighters[i].mobility.alt;
        let target = if to > from { (from + budget / 2).min(to) / 5 * 5 } else { to };
        if target == from {
            return 0;
        }
        self.provoke_leave(i, self.st.fighters[i].pos);
        if !self.st.is_active(i) {
            return 0;
        }
        self.set_altitude(i, target);
        self.st.fighters[i].mobility.flown += from.abs_diff(target);
        climb_cost(from, target)
    }

    /// The end of `i`'s turn aloft: a flier that covered no more than half
    /// its fly speed makes a Fly check to stay aloft (DC 15 when it did not
    /// move, 10 otherwise; none with Hover). On a failure it sinks 10 ft, or
    /// plummets when it flies on wings and failed by 5 or more.
    pub(crate) fn stay_aloft(&mut self, i: usize) {
        let f = &self.st.fighters[i];
        if f.mobility.alt == 0 || f.dead || !self.st.is_active(i) {
            return;
        }
        let speed = self.st.fly_speed(i);
        // A run, a charge or a withdrawal covers more than half the speed.
        let covered = if f.turn.moved && f.mobility.flown == 0 { speed } else { f.mobility.flown };
        let hover = self.st.prep.fighters[i].fly.is_some_and(|s| s.hover);
        if speed == 0 || covered * 2 > speed || hover {
            return;
        }
        let dc = if covered == 0 { HOVER_DC } else { SLOW_DC };
        self.keep_altitude(i, dc);
    }

    /// A Fly check to keep `i`'s altitude: sinks 10 ft on a failure,
    /// plummets on wings when it fails by 5 or more.
    fn keep_altitude(&mut self, i: usize, dc: i32) {
        let (ok, by) = self.fly_check(i, dc);
        if ok {
            return;
        }
        if by >= PLUMMET_MARGIN && self.st.winged(i) {
            self.fall(i, FallCause::FailedCheck);
        } else {
            let alt = self.st.fighters[i].mobility.alt;
            self.set_altitude(i, alt.saturating_sub(SINK_FT));
        }
    }

    /// A winged flier aloft that took damage: a DC 10 Fly check or it loses
    /// 10 ft of altitude (no attack of opportunity, no movement spent).
    pub(crate) fn wounded_aloft(&mut self, i: usize) {
        if self.st.fighters[i].mobility.alt == 0 || !self.st.winged(i) || self.st.must_fall(i).is_some() {
            return;
        }
        let (ok, _) = self.fly_check(i, WOUNDED_DC);
        if !ok {
            let alt = self.st.fighters[i].mobility.alt;
            self.set_altitude(i, alt.saturating_sub(SINK_FT));
        }
    }

    /// Every flier aloft that must fall falls (after each action).
    pub(crate) fn settle_fliers(&mut self) {
        for i in 0..self.st.len() {
            if self.st.fighters[i].mobility.alt == 0 {
                continue;
            }
            if self.st.fighters[i].dead {
                // A dead flier drops; nothing is left to hurt.
                self.st.fighters[i].mobility.alt = 0;
                continue;
            }
            if let Some(cause) = self.st.must_fall(i) {
                self.fall(i, cause);
            }
        }
    }

    /// `i` falls from its altitude to the ground: 1d6 per 10 ft (at most
    /// 20d6). A creature whose flight spell ended floats down 60 ft a round
    /// for 1d6 rounds first; one that can still fly and act (knocked prone)
    /// negates the damage with a DC 10 Fly check.
    pub(crate) fn fall(&mut self, i: usize, cause: FallCause) {
        let height = self.st.fighters[i].mobility.alt;
        let feet = if cause == FallCause::FlightEnded {
            let floated = SPELL_DESCENT_FT * self.rng.roll(6);
            height.saturating_sub(floated)
        } else {
            height
        };
        self.st.fighters[i].mobility.alt = 0;
        let negated = cause == FallCause::Prone && feet >= 10 && self.fly_check(i, FALL_NEGATE_DC).0;
        let dice = if negated { 0 } else { fall_dice(feet) };
        let damage: u32 = (0..dice).map(|_| self.rng.roll(6)).sum();
        emit!(self, Event::Falls { who: i, from_ft: height, feet, cause, damage });
        if damage > 0 {
            self.st.fighters[i].out.damage_taken += damage;
            self.wound(i, damage);
        }
    }
}
