//! Full-round movement: withdraw and run (CRB "Full-Round Actions").

use crate::effects::Flags;
use crate::grid::{Access, Line, step_cost};
use crate::map::Pos;
use crate::rng::Dice;

use super::action::{Action, Reason};
use super::engine::Engine;
use super::event::{Event, MoveKind, NoMove, TurnEvent};
use super::log::emit;
use super::state::LifeState;

/// Rounds of rest after running to the limit (CRB "Run": 1 minute).
const RUN_REST_ROUNDS: u32 = 10;
/// Run feat bonus on the endurance Constitution checks.
const RUN_FEAT_BONUS: i32 = 4;

impl<R: Dice> Engine<'_, '_, R> {
    /// Withdraw: up to twice the speed away from the nearest enemy, the
    /// starting square not threatened. A staggered (disabled) creature makes a
    /// restricted withdraw as a standard action, up to its speed.
    pub(crate) fn withdraw_action(&mut self, i: usize, action: Action) -> Result<(), Reason> {
        let f = &self.st.fighters[i];
        if f.turn.moved || f.turn.stepped {
            return Err(Reason::CannotCombine);
        }
        if self.st.flags(i).has(Flags::CANT_MOVE) {
            return Err(Reason::CannotMove);
        }
        let speed = self.st.speed(i);
        let restricted = self.st.life(i) == LifeState::Disabled;
        let budget = if restricted { speed } else { 2 * speed };
        let start = self.st.fighters[i].pos;
        let dest = match action.destination {
            Some(d) => {
                self.path.clear();
                self.searched_route(i, Some(d), None, budget)?
            }
            None => self.flee_square(i, budget).ok_or(Reason::UnreachableDestination)?,
        };
        if dest == start {
            emit!(self, Event::NoMove { who: i, why: NoMove::NowhereFarther, at: start });
            self.st.fighters[i].turn.moved = true;
            return Ok(());
        }
        let kind = if restricted { MoveKind::RestrictedWithdraw } else { MoveKind::Withdraw };
        emit!(self, Event::Move { who: i, kind, from: start, path: self.path.clone() });
        self.st.fighters[i].turn.moved = true;
        self.walk(i, true, true);
        Ok(())
    }

    /// The reachable square (within `budget`) farthest from the nearest enemy
    /// able to fight; ties: cheapest, then row-major. Fills `self.path`.
    fn flee_square(&mut self, i: usize, budget: u32) -> Option<Pos> {
        let start = self.st.fighters[i].pos;
        let st = &self.st;
        let map = st.map();
        let pf = self.pf.get_or_insert_with(|| st.prep.pathfinder.clone());
        pf.run_as(map, start, Some(budget), &|p| st.access(i, p), st.move_mode(i));
        let enemies: Vec<usize> =
            (0..st.len()).filter(|&j| st.are_enemies(i, j) && st.is_active(j)).collect();
        let nearest = |p: Pos| {
            enemies
                .iter()
                .map(|&j| crate::grid::footprint_distance_ft(p, st.space(i), st.pos(j), st.space(j)))
                .min()
                .unwrap_or(0)
        };
        let mut best: Option<((u32, std::cmp::Reverse<u32>), Pos)> = None;
        for row in 0..map.height {
            for col in 0..map.width {
                let q = Pos::new(row, col);
                let Some(c) = pf.cost(q) else { continue };
                if st.access(i, q) != Access::Open {
                    continue;
                }
                let key = (nearest(q), std::cmp::Reverse(c));
                if best.is_none_or(|(bk, _)| key > bk) {
                    best = Some((key, q));
                }
            }
        }
        let (_, dest) = best?;
        self.path.clear();
        pf.path_to(dest, &mut self.path);
        Some(dest)
    }

    /// Run: up to four times the speed in a straight line, toward the target
    /// (stopping before the first obstacle: difficult or impassable terrain, a
    /// corner, a creature in the way) or to an explicit destination that the
    /// line must reach. Provokes as it goes; the runner loses its Dexterity
    /// bonus to AC until its next turn unless it has Run. Past its
    /// Constitution score in consecutive rounds, it must pass a Constitution
    /// check (DC 10 + 1 per earlier check) to go on; a failure stops it and
    /// forces 10 rounds of rest.
    pub(crate) fn run_action(&mut self, i: usize, action: Action) -> Result<(), Reason> {
        let f = &self.st.fighters[i];
        if f.turn.moved || f.turn.stepped {
            return Err(Reason::CannotCombine);
        }
        if f.run.run_rest > 0 {
            return Err(Reason::Resting);
        }
        let flags = self.st.flags(i);
        if flags.has(Flags::CANT_MOVE) {
            return Err(Reason::CannotMove);
        }
        if flags.has(Flags::NO_RUN_CHARGE) {
            return Err(Reason::CannotRunOrCharge);
        }
        let goal = match action.destination {
            Some(d) => d,
            None => self.st.pos(self.enemy_target(i, action)?),
        };
        let budget = 4 * self.st.speed(i);
        let start = self.st.fighters[i].pos;
        self.run_line(i, start, goal, budget);
        if action.destination.is_some() && self.path.last() != Some(&goal) {
            return Err(Reason::UnreachableDestination);
        }
        if !self.endurance(i) {
            return Err(Reason::RunStopped);
        }
        let f = &mut self.st.fighters[i];
        f.turn.moved = true;
        f.run.running = true;
        if self.path.is_empty() {
            emit!(self, Event::NoMove { who: i, why: NoMove::RunBlocked, at: start });
            return Ok(());
        }
        emit!(self, Event::Move { who: i, kind: MoveKind::Run, from: start, path: self.path.clone() });
        self.walk(i, true, false);
        Ok(())
    }

    /// Fills `self.path` with the straight-line run from `start` toward
    /// `goal`, cut before the first obstacle and back to a square the runner
    /// may end on.
    fn run_line(&mut self, i: usize, start: Pos, goal: Pos, budget: u32) {
        self.path.clear();
        let map = self.st.map();
        let s = self.st.space(i);
        let (mut prev, mut parity, mut cost) = (start, 0u8, 0u32);
        for p in Line::new(start, goal) {
            let diagonal = prev.row != p.row && prev.col != p.col;
            let base = if diagonal && parity == 1 { 10 } else { 5 };
            let clear = step_cost(map, prev, p, parity) == Some(base)
                && (s == 1 || crate::grid::footprint(p, s).all(|c| map.terrain(c).move_cost == Some(1)))
                && self.st.access(i, p) != Access::Blocked
                && !self.st.zone_difficult(p, s);
            if !clear || cost + base > budget {
                break;
            }
            cost += base;
            parity ^= u8::from(diagonal);
            prev = p;
            self.path.push(p);
        }
        while self.path.last().is_some_and(|&p| self.st.access(i, p) != Access::Open) {
            self.path.pop();
        }
    }

    /// The endurance rule of running; whether the runner may run this round.
    fn endurance(&mut self, i: usize) -> bool {
        let spec = &self.st.prep.fighters[i];
        let Some(con) = spec.scores.con_score else { return true };
        let f = &self.st.fighters[i];
        let rounds = f.run.run_rounds;
        if rounds < con.max(0) as u32 {
            self.st.fighters[i].run.run_rounds += 1;
            return true;
        }
        let dc = 10 + f.run.run_checks as i32;
        // Run and Endurance each give +4 (CRB; an untyped bonus from two feats).
        let bonus = spec.scores.con_mod
            + if spec.feats.run_feat { RUN_FEAT_BONUS } else { 0 }
            + if spec.feats.endurance { RUN_FEAT_BONUS } else { 0 };
        let d20 = self.rng.roll(20) as i32;
        let ok = d20 + bonus >= dc;
        let f = &mut self.st.fighters[i];
        f.run.run_checks += 1;
        emit!(self, Event::Turn { who: i, what: TurnEvent::RunEndurance { d20, bonus, dc, ok } });
        let f = &mut self.st.fighters[i];
        if ok {
            f.run.run_rounds += 1;
        } else {
            f.run.run_rounds = 0;
            f.run.run_checks = 0;
            f.run.run_rest = RUN_REST_ROUNDS;
        }
        ok
    }
}
