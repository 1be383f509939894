//! Combat maneuvers (CRB "Combat Maneuvers", APG; seed "Manœuvres de
//! combat"): trip, disarm, bull rush, sunder, grapple, escape, overrun,
//! dirty trick, steal, reposition and drag.
//!
//! One attempt is a standard action: d20 + CMB against the target's CMD; the
//! roll is an attack roll (a natural 20 succeeds, a natural 1 fails).
//! Every maneuver but escape provokes an attack of opportunity from its
//! target, resolved before the roll, unless the matching Improved feat; the
//! damage of that attack is a penalty on the roll, and an attacker it drops
//! loses the maneuver. Trip, bull rush, overrun, reposition and drag are
//! refused against a creature two or more sizes larger.

use crate::effects::conditions::DIRTY_TRICK_CONDITIONS;
use crate::effects::stacking::{counts_for_cmd, kept_when_denied_dex};
use crate::effects::{BonusType, ConditionId, Context, Flags, Maneuver, ModTarget, Tally, Targets};
use crate::grid::natural_reach_ft;
use crate::map::Pos;
use crate::rng::Dice;

use super::action::{Action, Reason};
use super::attack::{DEFENSIVE_AC, TOTAL_DEFENSE_AC};
use super::engine::Engine;
use super::event::{Event, ManeuverOutcome};
use super::log::emit;
use super::state::BattleState;

/// Flanking and high ground on a maneuver, as on a melee attack.
const FLANK_BONUS: i32 = 2;

/// Whether `m` is refused against a target two or more sizes larger (CRB
/// "Trip", "Bull Rush", "Overrun"; APG "Reposition", "Drag").
pub const fn size_limited(m: Maneuver) -> bool {
    matches!(
        m,
        Maneuver::Trip | Maneuver::BullRush | Maneuver::Overrun | Maneuver::Reposition | Maneuver::Drag
    )
}

/// The outcome of one maneuver roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ManeuverRoll {
    pub d20: i32,
    /// CMB with every modifier, minus the provoked attack's damage.
    pub bonus: i32,
    pub cmd: i32,
    /// Roll total (floored at 0) minus the CMD.
    pub margin: i32,
    pub success: bool,
}

impl BattleState<'_> {
    /// `a`'s combat maneuver bonus for `m` against `t`: the printed (or
    /// computed) CMB with the modifiers of an attack roll — flanking, high
    /// ground, fighting defensively, Power Attack, conditions, effects and
    /// features reading `attack`, `melee_attack` or `cmb` — and the
    /// maneuver's own (`+2 cmb` on trips…). The grappled condition's penalty
    /// does not apply to grapple and escape checks (CRB "Grappled").
    pub fn cmb(&self, a: usize, m: Maneuver, t: usize) -> i32 {
        let spec = &self.prep.fighters[a];
        let me = &self.fighters[a];
        let mut roll = Tally::new();
        if m != Maneuver::Escape {
            if self.flanked(a, t) {
                roll.untyped(FLANK_BONUS);
            }
            if self.map().elevation(me.pos) > self.map().elevation(self.fighters[t].pos) {
                roll.untyped(1);
            }
            if me.turn.power_attack {
                roll.untyped(-super::power_attack::step(spec.offense.bab));
            }
            if me.turn.martial.has(super::style::Style::CombatExpertise) {
                roll.untyped(-super::martial::step(spec.offense.bab));
            }
        }
        if me.turn.defensive {
            roll.untyped(-4);
        }
        let ctx = Context {
            melee: true,
            maneuver: Some(m),
            other_type: self.prep.fighters[t].nature.creature_type,
            ..Context::default()
        };
        self.collect_mods(a, Targets::CMB, &ctx, &mut roll);
        if matches!(m, Maneuver::Grapple | Maneuver::Escape) && me.conds.has(ConditionId::Grappled) {
            // Undo the grappled condition's −2 on attack rolls for these checks.
            roll.untyped(2);
        }
        if me.mod_targets.meets(Targets::STR_DEX) {
            let (str_delta, dex_delta) = self.ability_deltas(a);
            roll.untyped(if self.size(a) <= crate::model::Size::Tiny { dex_delta } else { str_delta });
        }
        if me.summary.flags.has(Flags::INVISIBLE) {
            roll.untyped(2);
        }
        // The special size modifier moves opposite to the attack one.
        spec.offense.cmb - self.size_modifier_change(a) + roll.total()
    }

    /// `t`'s combat maneuver defense against `m` by `a`: the printed (or
    /// computed) CMD, without its Dexterity bonus and dodge bonuses when
    /// denied its Dexterity (effective Dexterity 0 when helpless), plus the
    /// AC bonuses of the eight CMD types and every AC penalty (CRB "Combat
    /// Maneuver Defense"), and modifiers to CMD.
    pub fn cmd(&self, t: usize, m: Maneuver, a: usize) -> i32 {
        self.cmd_against(t, m, Some(a))
    }

    /// `t`'s CMD against `m` by `a`, or by an effect that is no creature
    /// (`None`: Black Tentacles' grasp), which neither sees nor is seen.
    pub(crate) fn cmd_against(&self, t: usize, m: Maneuver, a: Option<usize>) -> i32 {
        let spec = &self.prep.fighters[t];
        let them = &self.fighters[t];
        let denied = self.denied_dex(t, a);
        let mut cmd = spec.defense.cmd - self.size_modifier_change(t);
        if denied {
            cmd -= spec.scores.dex_mod.max(0) + spec.defense.printed_dodge;
        }
        if self.is_helpless(t) {
            cmd += -5 - spec.scores.dex_mod.min(0);
        }
        let mut ac = Tally::new();
        if them.turn.total_defense {
            ac.add(BonusType::Dodge, TOTAL_DEFENSE_AC);
        }
        if them.turn.defensive {
            ac.add(BonusType::Dodge, DEFENSIVE_AC);
        }
        if them.turn.charged {
            ac.untyped(-super::attack::CHARGE_BONUS);
        }
        let ctx = Context {
            melee: true,
            maneuver: Some(m),
            other_type: a.and_then(|a| self.prep.fighters[a].nature.creature_type),
            ..Context::default()
        };
        self.collect_mods(t, Targets::of(ModTarget::Ac), &ctx, &mut ac);
        cmd += ac.total_where(|ty| counts_for_cmd(ty) && (!denied || kept_when_denied_dex(ty)));
        cmd += self.modifier(t, Targets::of(ModTarget::Cmd), &ctx);
        if them.mod_targets.meets(Targets::STR_DEX) {
            let (str_delta, dex_delta) = self.ability_deltas(t);
            let dex = spec.scores.dex_mod;
            cmd += str_delta + if denied { (dex + dex_delta).min(0) - dex.min(0) } else { dex_delta };
        }
        cmd
    }

    /// How far `a` reaches for a maneuver: its usable melee attacks' reach,
    /// or its natural reach by size when it has none.
    fn maneuver_reach(&self, a: usize) -> u32 {
        let attacks = &self.prep.fighters[a].offense.attacks;
        (0..attacks.len())
            .filter(|&w| attacks[w].melee && self.is_usable(a, w))
            .map(|w| self.reach(a, w).1)
            .max()
            .unwrap_or_else(|| natural_reach_ft(self.size(a)))
    }

    /// The free square adjacent to `i` nearest where `t` stands (5-10-5
    /// from it; ties: the closer in a straight line, then row and column),
    /// where `t`'s whole space fits.
    pub(crate) fn square_beside(&self, i: usize, t: usize) -> Option<Pos> {
        let from = self.pos(t);
        let (si, st) = (self.space(i), self.space(t));
        let pi = self.pos(i);
        let reach = st + si;
        let mut best: Option<(u32, i32, Pos)> = None;
        for row in pi.row - reach..=pi.row + reach {
            for col in pi.col - reach..=pi.col + reach {
                let q = Pos::new(row, col);
                let adjacent = crate::grid::footprint_distance_ft(pi, si, q, st) == 5;
                if !adjacent || !self.can_stand(t, q) {
                    continue;
                }
                let straight = (q.row - from.row).pow(2) + (q.col - from.col).pow(2);
                let key = (crate::grid::distance_ft(from, q), straight, q);
                if best.is_none_or(|b| key < b) {
                    best = Some(key);
                }
            }
        }
        best.map(|(_, _, q)| q)
    }

    /// `i`'s bonus to escape `g`'s grapple: the better of its CMB and its
    /// Escape Artist (CRB "Grapple").
    pub(crate) fn escape_bonus(&self, i: usize, g: usize) -> i32 {
        let cmb = self.cmb(i, Maneuver::Escape, g);
        match self.prep.fighters[i].defense.escape_artist {
            Some(skill) => {
                let ctx = Context { maneuver: Some(Maneuver::Escape), ..Context::default() };
                let skill = skill + self.modifier(i, Targets::skill(true, false), &ctx);
                skill.max(cmb)
            }
            None => cmb,
        }
    }

    /// Whether `i` may stand with its top-left square on `p`.
    pub(crate) fn can_stand(&self, i: usize, p: Pos) -> bool {
        let map = self.map();
        let s = self.space(i);
        crate::grid::footprint(p, s).all(|c| map.passable(c))
            && self.access(i, p) == crate::grid::Access::Open
    }

    /// The unit step from `a` toward `t` (anchor squares; east when they share one).
    fn direction(&self, a: usize, t: usize) -> (i32, i32) {
        let (from, to) = (self.fighters[a].pos, self.fighters[t].pos);
        let d = ((to.row - from.row).signum(), (to.col - from.col).signum());
        if d == (0, 0) { (0, 1) } else { d }
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// The maneuver action.
    pub(crate) fn maneuver_action(&mut self, i: usize, action: Action) -> Result<(), Reason> {
        let m = action.maneuver.ok_or(Reason::MissingManeuver)?;
        if m == Maneuver::Escape {
            return self.escape(i);
        }
        let t = self.enemy_target(i, action)?;
        let dist = self.st.distance(i, t);
        let here = self.st.pos(i);
        if dist > self.st.maneuver_reach(i) || !self.st.line_of_effect_from(i, here, t) {
            return Err(Reason::OutOfRange);
        }
        if m == Maneuver::Overrun && dist > 5 {
            return Err(Reason::OutOfRange);
        }
        if size_limited(m) && self.st.size(t) as u8 >= self.st.size(i) as u8 + 2 {
            emit!(
                self,
                Event::Maneuver { who: i, outcome: ManeuverOutcome::TooLarge { maneuver: m, target: t } }
            );
            return Err(Reason::TargetTooLarge);
        }
        let trick = action.trick.unwrap_or(ConditionId::Dazzled);
        match m {
            Maneuver::Disarm | Maneuver::Sunder if self.st.held_weapon(t).is_none() => {
                return Err(Reason::NothingToTake);
            }
            Maneuver::Steal
                if self.st.fighters[t].gear.stolen_items >= self.st.prep.fighters[t].carried_items =>
            {
                return Err(Reason::NothingToTake);
            }
            Maneuver::DirtyTrick if !DIRTY_TRICK_CONDITIONS.contains(&trick) => {
                emit!(
                    self,
                    Event::Maneuver { who: i, outcome: ManeuverOutcome::NotATrick { condition: trick } }
                );
                return Err(Reason::InvalidTrickCondition);
            }
            _ => {}
        }
        // The target's attack of opportunity, before the roll.
        let penalty = if self.st.prep.fighters[i].offense.no_aoo_maneuvers >> m as u16 & 1 == 1 {
            0
        } else {
            self.provoke_from(i, t)
        };
        if !self.st.can_act(i) {
            emit!(self, Event::Maneuver { who: i, outcome: ManeuverOutcome::LostToAoo { maneuver: m } });
            return Ok(());
        }
        if !self.st.is_active(t) {
            return Ok(());
        }
        let bonus = self.st.cmb(i, m, t);
        let roll = self.maneuver_roll(i, m, t, bonus, penalty as i32);
        self.maneuver_outcome(i, m, t, &roll, action);
        self.after_attack(i, t, false);
        Ok(())
    }

    /// d20 + `bonus` (minus the provoked attack's damage `penalty`) against
    /// `t`'s CMD, logged.
    pub(crate) fn maneuver_roll(
        &mut self,
        i: usize,
        m: Maneuver,
        t: usize,
        bonus: i32,
        penalty: i32,
    ) -> ManeuverRoll {
        let bonus = bonus - penalty;
        let cmd = self.st.cmd(t, m, i);
        let d20 = self.rng.roll(20) as i32;
        let total = (d20 + bonus).max(0);
        let success = d20 != 1 && (d20 == 20 || total >= cmd);
        emit!(
            self,
            Event::ManeuverRoll {
                who: i,
                target: t,
                maneuver: m,
                d20,
                bonus,
                total,
                cmd,
                aoo_damage: penalty.max(0),
                success
            }
        );
        ManeuverRoll { d20, bonus, cmd, margin: total - cmd, success }
    }

    /// What a maneuver roll does.
    fn maneuver_outcome(&mut self, i: usize, m: Maneuver, t: usize, roll: &ManeuverRoll, action: Action) {
        // Extra squares or rounds: one per 5 points over the CMD (a natural 20 below it: none).
        let extra = (roll.margin.max(0) / 5) as u32;
        match (m, roll.success) {
            (Maneuver::Trip, true) => {
                self.set_condition(t, ConditionId::Prone);
                emit!(self, Event::Maneuver { who: t, outcome: ManeuverOutcome::Tripped });
            }
            (Maneuver::Trip, false) if roll.margin <= -10 => {
                self.set_condition(i, ConditionId::Prone);
                emit!(self, Event::Maneuver { who: i, outcome: ManeuverOutcome::FailsAndFalls });
            }
            (Maneuver::Disarm, true) => {
                if let Some(w) = self.st.held_weapon(t) {
                    self.drop_weapon(t, w);
                    emit!(
                        self,
                        Event::Maneuver {
                            who: t,
                            outcome: ManeuverOutcome::Drops {
                                weapon: self.st.prep.fighters[t].offense.attacks[w].name.clone()
                            }
                        }
                    );
                }
            }
            (Maneuver::Disarm, false) if roll.margin <= -10 => {
                if let Some(w) = self.st.held_weapon(i) {
                    self.drop_weapon(i, w);
                    emit!(
                        self,
                        Event::Maneuver {
                            who: i,
                            outcome: ManeuverOutcome::FailsAndDrops {
                                weapon: self.st.prep.fighters[i].offense.attacks[w].name.clone()
                            }
                        }
                    );
                }
            }
            (Maneuver::Sunder, true) => {
                if let Some(w) = self.st.held_weapon(t) {
                    let str_mod = self.st.prep.fighters[i].scores.str_mod + self.st.ability_deltas(i).0;
                    let damage = (str_mod + 2).clamp(0, i32::from(u8::MAX)) as u8;
                    let broke = self.sunder_weapon(t, w, damage);
                    let weapon = &self.st.prep.fighters[t].offense.attacks[w].name;
                    emit!(
                        self,
                        Event::Maneuver {
                            who: t,
                            outcome: ManeuverOutcome::Sundered {
                                weapon: weapon.clone(),
                                damage: u32::from(damage),
                                broken: broke
                            }
                        }
                    );
                }
            }
            (Maneuver::BullRush, true) => {
                let dir = action
                    .direction
                    .map_or_else(|| self.st.direction(i, t), |(r, c)| (i32::from(r), i32::from(c)));
                let moved = self.shove(t, dir, 1 + extra, None);
                emit!(self, Event::Maneuver { who: t, outcome: ManeuverOutcome::Pushed { feet: 5 * moved } });
            }
            (Maneuver::Reposition, true) => {
                let reach = self.st.maneuver_reach(i);
                let dir = match action.direction {
                    Some((r, c)) => Some((i32::from(r), i32::from(c))),
                    None => self.reposition_direction(i, t, reach),
                };
                let moved = dir.map_or(0, |d| self.shove(t, d, 1 + extra, Some((i, reach))));
                emit!(
                    self,
                    Event::Maneuver { who: t, outcome: ManeuverOutcome::Repositioned { feet: 5 * moved } }
                );
            }
            (Maneuver::Drag, true) => {
                let moved = self.drag(i, t, 1 + extra);
                emit!(
                    self,
                    Event::Maneuver { who: t, outcome: ManeuverOutcome::Dragged { feet: 5 * moved } }
                );
            }
            (Maneuver::Grapple, true) => self.grapple(i, t),
            (Maneuver::Overrun, true) => self.overrun(i, t, roll.margin),
            (Maneuver::DirtyTrick, true) => {
                let c = action.trick.unwrap_or(ConditionId::Dazzled);
                self.condition_for(t, c, 1 + extra, Some(i));
            }
            (Maneuver::Steal, true) => {
                self.st.fighters[t].gear.stolen_items += 1;
                emit!(self, Event::Maneuver { who: i, outcome: ManeuverOutcome::Steals { from: t } });
            }
            _ => {}
        }
        if matches!(m, Maneuver::BullRush | Maneuver::Reposition | Maneuver::Drag) {
            self.check_grapples();
        }
    }

    /// Moves `t` up to `squares` squares along `dir`, stopping before the
    /// first square it cannot stand on (or, when `within` is given, that
    /// leaves the reach of that creature). Forced movement provokes nothing.
    fn shove(&mut self, t: usize, dir: (i32, i32), squares: u32, within: Option<(usize, u32)>) -> u32 {
        let mut moved = 0;
        for _ in 0..squares {
            let p = self.st.pos(t);
            let next = Pos::new(p.row + dir.0, p.col + dir.1);
            let keeps_reach = within.is_none_or(|(a, reach)| {
                let (sa, st) = (self.st.space(a), self.st.space(t));
                crate::grid::footprint_distance_ft(self.st.pos(a), sa, next, st) <= reach
            });
            if !keeps_reach || !self.st.can_stand(t, next) {
                break;
            }
            self.st.relocate(t, next);
            moved += 1;
        }
        moved
    }

    /// The first direction (neighbour order) in which `t` can be moved one
    /// square and stay within `reach` of `i` (APG "Reposition").
    fn reposition_direction(&self, i: usize, t: usize, reach: u32) -> Option<(i32, i32)> {
        let p = self.st.pos(t);
        crate::grid::NEIGHBOURS.iter().copied().find(|&(dr, dc)| {
            let next = Pos::new(p.row + dr, p.col + dc);
            crate::grid::footprint_distance_ft(self.st.pos(i), self.st.space(i), next, self.st.space(t))
                <= reach
                && self.st.can_stand(t, next)
        })
    }

    /// Drag (APG): `i` steps back, directly away from `t`, and `t` follows
    /// into the square `i` left, `squares` times or until `i` cannot step back.
    fn drag(&mut self, i: usize, t: usize, squares: u32) -> u32 {
        let away = {
            let (r, c) = self.st.direction(i, t);
            (-r, -c)
        };
        let mut moved = 0;
        for _ in 0..squares {
            let (pi, pt) = (self.st.pos(i), self.st.pos(t));
            let back = Pos::new(pi.row + away.0, pi.col + away.1);
            if !self.st.can_stand(i, back) {
                break;
            }
            self.st.relocate(i, back);
            let follow = Pos::new(pt.row + away.0, pt.col + away.1);
            if !self.st.can_stand(t, follow) {
                break;
            }
            self.st.relocate(t, follow);
            moved += 1;
        }
        moved
    }

    /// A successful grapple: a target out of reach of an adjacent square is
    /// pulled to the nearest free square adjacent to `i` (5-10-5 from where
    /// it stands; ties: the closer in a straight line, then row and column);
    /// without one the grapple fails.
    pub(crate) fn grapple(&mut self, i: usize, t: usize) {
        if self.st.distance(i, t) > 5 {
            let Some(q) = self.st.square_beside(i, t) else {
                emit!(self, Event::Maneuver { who: i, outcome: ManeuverOutcome::GrappleNoRoom });
                return;
            };
            self.st.relocate(t, q);
            emit!(
                self,
                Event::Maneuver { who: i, outcome: ManeuverOutcome::GrapplePulls { target: t, to: q } }
            );
        }
        self.set_condition(t, ConditionId::Grappled);
        self.st.fighters[t].grappled_with = Some(i);
        emit!(self, Event::Maneuver { who: t, outcome: ManeuverOutcome::Grappled { by: i } });
    }

    /// A successful overrun: `i` moves through `t` to the square beyond it
    /// (when free); beating the CMD by 5 or more knocks `t` prone (CRB "Overrun").
    fn overrun(&mut self, i: usize, t: usize, margin: i32) {
        let (dr, dc) = self.st.direction(i, t);
        let beyond = {
            let p = self.st.pos(t);
            let s = self.st.space(t);
            // The square just past the target's far edge along the line of approach.
            let row = if dr > 0 {
                p.row + s
            } else if dr < 0 {
                p.row - self.st.space(i)
            } else {
                self.st.pos(i).row
            };
            let col = if dc > 0 {
                p.col + s
            } else if dc < 0 {
                p.col - self.st.space(i)
            } else {
                self.st.pos(i).col
            };
            Pos::new(row, col)
        };
        if self.st.can_stand(i, beyond) {
            self.st.relocate(i, beyond);
            emit!(
                self,
                Event::Maneuver {
                    who: i,
                    outcome: ManeuverOutcome::Overruns { target: t, to: Some(beyond) }
                }
            );
        } else {
            emit!(
                self,
                Event::Maneuver { who: i, outcome: ManeuverOutcome::Overruns { target: t, to: None } }
            );
        }
        if margin >= 5 {
            self.set_condition(t, ConditionId::Prone);
            emit!(self, Event::Maneuver { who: t, outcome: ManeuverOutcome::KnockedProne });
        }
        self.check_grapples();
    }

    /// Escape a grapple (standard action, no attack of opportunity): the
    /// better of CMB and Escape Artist against the grappler's CMD; a
    /// natural 20 succeeds (a grapple is not bonds).
    fn escape(&mut self, i: usize) -> Result<(), Reason> {
        let Some(g) =
            self.st.fighters[i].grappled_with.filter(|_| self.st.has_condition(i, ConditionId::Grappled))
        else {
            return Err(Reason::NotGrappled);
        };
        let bonus = self.st.escape_bonus(i, g);
        let roll = self.maneuver_roll(i, Maneuver::Escape, g, bonus, 0);
        if roll.success {
            self.release(i);
            emit!(self, Event::Maneuver { who: i, outcome: ManeuverOutcome::Escapes });
        }
        Ok(())
    }

    /// Ends the grapple holding `i`.
    pub(crate) fn release(&mut self, i: usize) {
        self.st.fighters[i].grappled_with = None;
        self.clear_condition(i, ConditionId::Grappled);
        // A pin is a grapple's (CRB "Grapple"): it ends with it.
        if self.st.has_condition(i, ConditionId::Pinned) {
            self.clear_condition(i, ConditionId::Pinned);
        }
    }

    /// Ends every grapple whose grappler can no longer hold its target
    /// (down, or no longer adjacent after forced movement).
    pub(crate) fn check_grapples(&mut self) {
        for j in 0..self.st.len() {
            if let Some(g) = self.st.fighters[j].monster.swallowed_by {
                // Inside a swallower (`monster::swallow`): out when it falls or dies there.
                if !self.st.is_active(g) || self.st.fighters[j].dead {
                    self.out_of_a_fallen_swallower(j, g);
                }
                continue;
            }
            let Some(g) = self.st.fighters[j].grappled_with else { continue };
            if !self.st.is_active(g) || self.st.distance(j, g) > 5 || self.st.fighters[j].dead {
                self.release(j);
                emit!(self, Event::Maneuver { who: j, outcome: ManeuverOutcome::NoLongerGrappled });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_size_limit_covers_five_maneuvers() {
        let limited: Vec<&str> =
            Maneuver::ALL.iter().filter(|&&m| size_limited(m)).map(|m| m.name()).collect();
        assert_eq!(limited, ["trip", "bull_rush", "overrun", "reposition", "drag"]);
    }
}
