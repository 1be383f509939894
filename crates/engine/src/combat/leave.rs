//! Leaving the battle from an exit square (`docs/rules/movement.md`,
//! "Leaving the battle"): the last 5 feet of movement, off the map. Who
//! leaves is out of the fight alive, with the hit points it has.

use crate::effects::Flags;
use crate::rng::Dice;

use super::action::{Action, Reason};
use super::engine::Engine;
use super::event::{Event, MoveKind};
use super::log::emit;

/// The feet of the step off the map.
const STEP_OFF_FT: u32 = 5;

impl<R: Dice> Engine<'_, '_, R> {
    /// Leave the battle. Without a destination, a move action from the exit
    /// square it stands on: stepping off provokes from the foes threatening
    /// that square, as leaving any square does (CRB "Attacks of
    /// Opportunity"). With a destination (an exit square), a withdraw (CRB
    /// "Withdraw"): up to twice its speed to the exit, the first square not
    /// provoking, then off the map with the last 5 feet; from the exit
    /// square it stands on, it steps off without provoking. Never after a
    /// 5-foot step (CRB "Take 5-Foot Step"); not while grappling or grappled,
    /// riding or ridden, or unable to move.
    pub(crate) fn leave_action(&mut self, i: usize, action: Action) -> Result<(), Reason> {
        let f = &self.st.fighters[i];
        let withdraw = action.destination.is_some();
        if f.turn.stepped || (withdraw && f.turn.moved) {
            return Err(Reason::CannotCombine);
        }
        let held = f.grappled_with.is_some() || f.mobility.riding.is_some() || f.mobility.ridden_by.is_some();
        if held || self.st.flags(i).has(Flags::CANT_MOVE) || self.st.speed(i) < STEP_OFF_FT {
            return Err(Reason::CannotMove);
        }
        let start = self.st.fighters[i].pos;
        if let Some(exit) = action.destination.filter(|&d| d != start) {
            if !self.st.is_exit_for(i, exit) {
                return Err(Reason::NotOnExit);
            }
            // Staggered or disabled: a restricted withdraw, up to its speed (a standard action).
            let restricted = self.st.turn_limits(i).staggered;
            let speed = self.st.speed(i);
            let budget = if restricted { speed } else { 2 * speed };
            self.path.clear();
            self.searched_route(i, Some(exit), None, budget - STEP_OFF_FT)?;
            let kind = if restricted { MoveKind::RestrictedWithdraw } else { MoveKind::Withdraw };
            emit!(self, Event::Move { who: i, kind, from: start, path: self.path.clone() });
            self.st.fighters[i].turn.moved = true;
            self.walk(i, true, true);
            if !self.st.is_active(i) || self.st.fighters[i].pos != exit {
                return Ok(());
            }
        }
        let here = self.st.fighters[i].pos;
        if !self.st.is_exit_for(i, here) {
            return Err(Reason::NotOnExit);
        }
        self.st.fighters[i].turn.moved = true;
        // Stepping off leaves `here`: it provokes, unless it is a withdraw's first square.
        if !(withdraw && here == start) {
            self.provoke_leave(i, here);
            if !self.st.is_active(i) {
                return Ok(());
            }
        }
        self.leave(i);
        Ok(())
    }

    /// `i` leaves the battlefield alive: off the grid, out of every count of
    /// who can still fight, and out of reach (it is `gone`, as a dismissed
    /// summon is, and marked `left`).
    fn leave(&mut self, i: usize) {
        emit!(self, Event::LeavesBattle { who: i, at: self.st.fighters[i].pos, hp: self.st.fighters[i].hp });
        self.st.take_off_field(i);
        self.st.fighters[i].mobility.left = true;
        self.end_challenges_on(i);
        self.st.refresh_status(i);
    }
}
