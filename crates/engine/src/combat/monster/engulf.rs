//! Engulf by movement (Bestiary, Universal Monster Rules "Engulf"; the
//! gelatinous cube's "Engulf (Ex)"). A gibbering mouther's engulf, which
//! "functions as swallow whole", is `monster::swallow`'s.
//!
//! - The engulf is a standard action ("as part of a standard action"): the
//!   creature moves up to its speed in a straight line (the Bresenham line
//!   of its top-left square) to a destination, over the foes in its path,
//!   "affecting as many as it can cover". It makes no other attack that
//!   round (the action is its standard action). Its squares on the way may
//!   hold foes no more than `smaller` size categories below it (the cube:
//!   "Large or smaller", its own size); an ally, a larger foe, a mounted
//!   pair, impassable ground or more feet than its speed forbid the route.
//! - Leaving a square threatened by a creature it does not cover provokes as
//!   any move does; the creatures it covers get no attack of opportunity for
//!   the move itself, but each chooses when the creature reaches it: an
//!   attack of opportunity (then "not entitled to a saving throw": it is
//!   engulfed) or a Reflex save against the printed DC. *The choice*: a
//!   creature able to make an attack of opportunity makes it only when its
//!   save succeeds on a natural 20 alone; otherwise it saves. A helpless
//!   creature (paralyzed: "the cube can automatically engulf a paralyzed
//!   opponent") is engulfed without a save.
//! - A success pushes it "back or aside (target's choice)": a creature that
//!   saved and stands where the engulfer ends its move goes to the free
//!   square beside the engulfer nearest where it stood (one passed over
//!   stays where it is). *Simplification*: with no free square beside the
//!   engulfer, it is engulfed after all.
//! - An engulfed creature is off the map inside the engulfer (as a
//!   swallowed one: nobody reaches, targets or catches it in an area; it
//!   moves with the engulfer) and gains the pinned condition (with the
//!   grapple a pin belongs to). It takes the printed damage and meets the
//!   named `riders` (the cube's paralysis, Fort DC 20) when caught ("a
//!   target hit by a cube's melee or engulf attack") and at the start of
//!   each of the engulfer's turns.
//! - On its turn an engulfed creature able to act tries to escape the pin
//!   (its CMB or Escape Artist against the engulfer's CMD, CRB "Pinned"):
//!   a success puts it on the free square beside the engulfer nearest
//!   where it was, free ("trapped within its body until they are no longer
//!   pinned"). An engulfer that falls lets its foes out (`swallow`).
//! - *Not played*: suffocation (a creature holds its breath for twice its
//!   Constitution in rounds, one less per standard action, before its
//!   Constitution checks: 12 rounds or more for these PCs, longer than
//!   these battles; `docs/rules/monsters.md`), and the cube's
//!   transparency (an unnoticed cube engulfs who walks into it: battles
//!   start with both sides aware).

use crate::effects::{ConditionId, Context, Flags, Maneuver, SaveKind};
use crate::grid::{Line, footprint, step_cost_as};
use crate::map::Pos;
use crate::rng::Dice;

use super::super::action::{Action, Reason};
use super::super::engine::Engine;
use super::super::event::{AfflictionEvent, EngulfedHow, Event, MoveKind};
use super::super::log::emit;
use super::super::prepared::monster::EngulfRoute;
use super::super::state::BattleState;

/// What a move over creatures may go over (`BattleState::route_over`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct RouteRule {
    /// Sizes a foe must be below the mover (engulf: 0, its own size or smaller; trample: 1).
    pub smaller: u8,
    /// Allies on the way are passed (a trample); else they forbid it (an engulf).
    pub allies_pass: bool,
    /// The destination must be free for the mover to end on (a trample).
    pub stands_at_end: bool,
}

impl BattleState<'_> {
    /// The straight route of `i`'s engulf to `dest` (filled in `route`),
    /// with the feet it costs; none when `i` has no engulf or the route is
    /// not possible (see the module's text): an ally on the way forbids it.
    pub(crate) fn engulf_route(&self, i: usize, dest: Pos, route: &mut EngulfRoute) -> Option<u32> {
        let e = self.prep.fighters[i].monster.as_deref()?.engulf.as_ref()?;
        self.route_over(
            i,
            dest,
            RouteRule { smaller: e.smaller, allies_pass: false, stands_at_end: false },
            route,
        )
    }

    /// The straight route of a move over creatures (an engulf, a trample)
    /// of `i` to `dest` (filled in `route`, `over` the foes it goes over in
    /// the order met), with the feet it costs: the Bresenham line of its
    /// top-left square, within its speed, every square of its space on the
    /// map and passable. Foes aloft are passed beneath; a foe on the ground
    /// must be at least `rule.smaller` sizes below `i` and not part of a
    /// mounted pair; an ally is passed (`rule.allies_pass`) or forbids the
    /// route; `rule.stands_at_end`: `dest` must be free for `i` to end on.
    pub(crate) fn route_over(
        &self,
        i: usize,
        dest: Pos,
        rule: RouteRule,
        route: &mut EngulfRoute,
    ) -> Option<u32> {
        let map = self.map();
        let (s, mode, budget) = (self.space(i), self.move_mode(i), self.move_budget(i));
        route.path.clear();
        route.over.clear();
        let (mut prev, mut parity, mut feet) = (self.pos(i), 0u8, 0u32);
        if dest == prev || (rule.stands_at_end && !self.can_stand(i, dest)) {
            return None;
        }
        for p in Line::new(prev, dest) {
            feet += step_cost_as(map, prev, p, parity, mode)?;
            if feet > budget || !footprint(p, s).all(|c| map.in_bounds(c) && map.passable(c)) {
                return None;
            }
            route.squares.clear();
            route.squares.extend(footprint(p, s));
            self.caught(i, &route.squares, &mut route.caught);
            for &c in &route.caught {
                if route.over.contains(&c) || self.altitude(c) > 0 {
                    continue;
                }
                if !self.are_enemies(i, c) {
                    if rule.allies_pass {
                        continue;
                    }
                    return None;
                }
                let mobility = &self.fighters[c].mobility;
                if self.size(c) as u8 + rule.smaller > self.size(i) as u8
                    || mobility.riding.is_some()
                    || mobility.ridden_by.is_some()
                {
                    return None;
                }
                route.over.push(c);
            }
            parity ^= u8::from(p.row != prev.row && p.col != prev.col);
            prev = p;
            route.path.push(p);
        }
        Some(feet)
    }

    /// Whether `t`, covered by `i`'s engulf, makes an attack of opportunity
    /// rather than a Reflex save (see the module's text).
    pub(crate) fn engulf_attacks(&self, i: usize, t: usize, dc: i32) -> bool {
        let ctx = Context { other_alignment: self.prep.fighters[i].nature.alignment, ..Context::default() };
        dc - self.save_bonus(t, SaveKind::Ref, &ctx) >= 20 && self.aoo_weapon(t, i, self.pos(i)).is_some()
    }

    /// Whether `t`'s space overlaps `i`'s when `i` stands on `at`.
    pub(super) fn covers(&self, i: usize, at: Pos, t: usize) -> bool {
        let (si, st, pt) = (self.space(i), self.space(t), self.pos(t));
        footprint(at, si).any(|c| footprint(pt, st).any(|d| d == c))
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// The walk of a move over creatures (an engulf, a trample) along
    /// `route`: the move does not provoke from those it goes over (they
    /// choose for themselves, in `meet`), it provokes on leaving each square
    /// as any move does, and `meet` meets each creature of `route.over` once,
    /// on the first square where `i` covers it; the walk stops when `i` can
    /// no longer act. Returns where `i` started and whom it met, in order;
    /// `i` is left on the last square it reached, not yet placed there.
    pub(super) fn move_over(
        &mut self,
        i: usize,
        route: &EngulfRoute,
        kind: MoveKind,
        meet: &mut dyn FnMut(&mut Self, usize),
    ) -> (Pos, Vec<usize>) {
        let (n, round) = (self.st.len(), self.st.round);
        for &t in &route.over {
            self.st.move_aoo[t * n + i] = round;
        }
        let start = self.st.pos(i);
        self.st.fighters[i].turn.moved = true;
        emit!(self, Event::Move { who: i, kind, from: start, path: route.path.clone() });
        let mut met: Vec<usize> = Vec::with_capacity(route.over.len());
        for &p in &route.path {
            let here = self.st.fighters[i].pos;
            self.provoke_leave(i, here);
            if !self.st.is_active(i) {
                break;
            }
            self.st.fighters[i].pos = p;
            for &t in &route.over {
                if met.contains(&t) || !self.st.covers(i, p, t) {
                    continue;
                }
                met.push(t);
                meet(self, t);
                if !self.st.is_active(i) {
                    break;
                }
            }
            if !self.st.is_active(i) {
                break;
            }
        }
        (start, met)
    }

    /// The engulf (`ActionKind::Engulf`): the move to the action's
    /// destination over the foes in its path (see the module's text).
    pub(crate) fn engulf_action(&mut self, i: usize, action: Action) -> Result<(), Reason> {
        let prep = self.st.prep;
        let e =
            prep.fighters[i].monster.as_deref().and_then(|m| m.engulf.as_ref()).ok_or(Reason::NoAbility)?;
        let dest = action.destination.ok_or(Reason::InvalidDestination)?;
        if self.st.fighters[i].turn.stepped {
            return Err(Reason::CannotCombine);
        }
        if self.st.flags(i).has(Flags::CANT_MOVE) {
            return Err(Reason::CannotMove);
        }
        let mut route = EngulfRoute::default();
        self.st.engulf_route(i, dest, &mut route).ok_or(Reason::UnreachableDestination)?;
        let dc = e.dc;
        let (start, met) =
            self.move_over(i, &route, MoveKind::Engulf, &mut |engine, t| engine.meet_engulf(i, t, dc));
        let end = self.st.fighters[i].pos;
        self.st.fighters[i].pos = start;
        if self.st.fighters[i].dead {
            self.st.vacate(i);
            self.st.fighters[i].pos = end;
        } else {
            self.st.relocate(i, end);
            // Those it ends upon, not engulfed, are pushed aside.
            for t in met {
                if self.st.is_swallowed(t) || !self.st.is_present(t) || !self.st.covers(i, end, t) {
                    continue;
                }
                match self.st.square_beside(i, t) {
                    Some(q) => {
                        self.st.relocate(t, q);
                        emit!(
                            self,
                            Event::Affliction { who: t, what: AfflictionEvent::PushedAside { by: i, to: q } }
                        );
                    }
                    None => self.engulf(i, t, EngulfedHow::Save),
                }
            }
        }
        self.check_grapples();
        Ok(())
    }

    /// `t`, reached by `i`'s engulf: engulfed when helpless, after its
    /// attack of opportunity, or on a failed Reflex save.
    fn meet_engulf(&mut self, i: usize, t: usize, dc: i32) {
        if self.st.is_helpless(t) || !self.st.is_active(t) {
            self.engulf(i, t, EngulfedHow::Helpless);
            return;
        }
        if self.st.engulf_attacks(i, t, dc) {
            self.provoke_from(i, t);
            if self.st.is_active(i) {
                self.engulf(i, t, EngulfedHow::AttackOfOpportunity);
            }
            return;
        }
        let ctx =
            Context { other_alignment: self.st.prep.fighters[i].nature.alignment, ..Context::default() };
        if self.roll_save(t, SaveKind::Ref, dc, &ctx) {
            emit!(self, Event::Affliction { who: t, what: AfflictionEvent::AvoidsEngulf { by: i } });
        } else {
            self.engulf(i, t, EngulfedHow::Save);
        }
    }

    /// `t` is engulfed by `i`: inside it, pinned, and it meets the engulf's
    /// damage and riders.
    fn engulf(&mut self, i: usize, t: usize, how: EngulfedHow) {
        let Some(e) = self.st.prep.fighters[i].monster.as_deref().and_then(|m| m.engulf.as_ref()) else {
            return;
        };
        emit!(
            self,
            Event::Affliction {
                who: t,
                what: AfflictionEvent::Engulfed { ability: e.name.clone(), by: i, how }
            }
        );
        self.st.vacate(t);
        let at = self.st.pos(i);
        let f = &mut self.st.fighters[t];
        f.pos = at;
        f.monster.swallowed_by = Some(i);
        f.monster.engulfed = true;
        f.grappled_with = Some(i);
        self.st.fighters[i].monster.swallowing += 1;
        for c in [ConditionId::Grappled, ConditionId::Pinned] {
            if !self.st.has_condition(t, c) {
                self.set_condition(t, c);
            }
        }
        self.engulf_hits(i, t);
    }

    /// The engulf's damage and riders on `t` inside `i` (when caught, and
    /// at the start of each of `i`'s turns).
    pub(crate) fn engulf_hits(&mut self, i: usize, t: usize) {
        let prep = self.st.prep;
        let Some(e) = prep.fighters[i].monster.as_deref().and_then(|m| m.engulf.as_ref()) else { return };
        if self.st.fighters[t].dead {
            return;
        }
        self.strikes_inside(i, t, &e.name, &e.damage, &e.types);
        for &k in &e.riders {
            self.apply_rider(i, k, t);
        }
    }

    /// The turn of `t`, engulfed by `g`: it tries to escape the pin.
    pub(crate) fn engulfed_turn(&mut self, t: usize, g: usize) {
        let bonus = self.st.escape_bonus(t, g);
        if self.maneuver_roll(t, Maneuver::Escape, g, bonus, 0).success {
            self.leave_body(t, g);
            self.release(t);
            let at = self.st.pos(t);
            let to = (self.st.occupant(at) == Some(t)).then_some(at);
            emit!(self, Event::Affliction { who: t, what: AfflictionEvent::EscapesEngulf { from: g, to } });
        }
    }
}
