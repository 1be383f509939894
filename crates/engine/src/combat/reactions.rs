//! Immediate actions out of turn through an optional reaction policy
//! (CRB "Immediate Actions"); the policy side (`Reactions`) is in `policy`.

use crate::rng::Dice;

use super::action::{ActionKind, Reason};
use super::decide::ReactionEvent;
use super::engine::Engine;
use super::event::{Event, TurnEvent};
use super::log::emit;

impl<R: Dice> Engine<'_, '_, R> {
    /// Whether `i` may take an immediate action now: able to act, not
    /// flat-footed (it has had a turn in this battle), its swift action not
    /// spent: on its own turn the current turn's swift action, out of turn
    /// the next one (spent until its next turn), and no other immediate
    /// action this round.
    pub(crate) fn can_take_immediate(&self, i: usize) -> bool {
        let f = &self.st.fighters[i];
        self.st.is_active(i)
            && f.turn.has_acted
            && f.turn.immediate_round != self.st.round
            && if self.current == Some(i) { !f.turn.swift_used } else { !f.turn.immediate_used }
    }

    /// Plays an immediate action of `i`: it has no effect of its own in this
    /// engine yet (no spell is cast), but spends the swift action.
    pub(crate) fn immediate(&mut self, i: usize) -> Result<(), Reason> {
        if !self.can_take_immediate(i) {
            return Err(Reason::DowngradedImmediateSwift);
        }
        let own_turn = self.current == Some(i);
        let round = self.st.round;
        let f = &mut self.st.fighters[i];
        f.turn.immediate_round = round;
        if own_turn {
            f.turn.swift_used = true;
        } else {
            f.turn.immediate_used = true;
        }
        emit!(self, Event::Turn { who: i, what: TurnEvent::ImmediateAction });
        Ok(())
    }

    /// Offers `event` to the reaction policy, if there is one.
    pub(crate) fn check_reactions(&mut self, event: ReactionEvent) {
        if self.reacting {
            return;
        }
        let Some(reactions) = self.reactions.take() else { return };
        self.reacting = true;
        for r in 0..self.st.len() {
            if !self.can_take_immediate(r) {
                continue;
            }
            let answer = reactions.react(&self.st, r, event);
            if answer.is_some_and(|a| a.kind == ActionKind::Immediate) {
                // `can_take_immediate` was just checked: this cannot fail.
                let _ = self.immediate(r);
            }
        }
        self.reacting = false;
        self.reactions = Some(reactions);
    }
}
