//! Defensive options: prone, total defense, fighting defensively, aid another
//! (CRB "Actions in Combat").

use crate::effects::ConditionId;
use crate::rng::Dice;

use super::action::{Action, AidMode, Reason};
use super::attack::{DEFENSIVE_AC, DEFENSIVE_PENALTY, TOTAL_DEFENSE_AC};
use super::engine::Engine;
use super::event::{CombatEvent, Event};
use super::log::emit;

/// Bonus granted by a successful aid another, and the AC to beat.
const AID_BONUS: i32 = 2;
const AID_DC: i32 = 10;

impl<R: Dice> Engine<'_, '_, R> {
    /// Stand up (move action): provokes from every enemy threatening the
    /// creature, resolved while it is still prone.
    pub(crate) fn stand_up(&mut self, i: usize) -> Result<(), Reason> {
        if !self.st.is_prone(i) {
            return Err(Reason::NotProne);
        }
        self.provoke_in_place(i);
        if self.st.is_active(i) {
            self.clear_condition(i, ConditionId::Prone);
            emit!(self, Event::StandsUp { who: i });
        }
        Ok(())
    }

    /// Drop prone (free action).
    pub(crate) fn drop_prone(&mut self, i: usize) -> Result<(), Reason> {
        if self.st.is_prone(i) {
            return Err(Reason::AlreadyProne);
        }
        self.set_condition(i, ConditionId::Prone);
        emit!(self, Event::DropsProne { who: i });
        Ok(())
    }

    /// Total defense (standard action): +4 dodge AC until its next turn, and
    /// no attacks of opportunity meanwhile.
    pub(crate) fn total_defense(&mut self, i: usize) -> Result<(), Reason> {
        self.st.fighters[i].turn.total_defense = true;
        emit!(self, Event::TotalDefense { who: i, ac: TOTAL_DEFENSE_AC });
        Ok(())
    }

    /// Fight defensively (free declaration): −4 on attack rolls and +2 dodge
    /// AC until its next turn (a dodge bonus: it stacks with total defense's).
    pub(crate) fn fight_defensively(&mut self, i: usize) -> Result<(), Reason> {
        self.st.fighters[i].turn.defensive = true;
        emit!(self, Event::FightsDefensively { who: i, attack: -DEFENSIVE_PENALTY, ac: DEFENSIVE_AC });
        Ok(())
    }

    /// Aid another (standard action): an attack roll with the first usable
    /// melee attack against AC 10; on a success the aided creature gets +2
    /// (stacking) on its next attack roll or to its AC against the next attack.
    pub(crate) fn aid_another(&mut self, i: usize, action: Action) -> Result<(), Reason> {
        let t = match action.target {
            Some(t) if t < self.st.len() && t != i && self.st.is_active(t) => t,
            _ => return Err(Reason::MissingTarget),
        };
        let attacks = &self.st.prep.fighters[i].offense.attacks;
        let w = (0..attacks.len())
            .find(|&w| attacks[w].melee && attacks[w].reach_max > 0 && self.st.is_usable(i, w))
            .ok_or(Reason::NoWeapon)?;
        let bonus = attacks[w].bonus;
        let d20 = self.rng.roll(20) as i32;
        let total = d20 + bonus;
        let ok = d20 != 1 && (d20 == 20 || total >= AID_DC);
        if ok {
            let f = &mut self.st.fighters[t];
            match action.aid {
                AidMode::Attack => f.turn.aid_attack += AID_BONUS,
                AidMode::Ac => f.turn.aid_ac += AID_BONUS,
            }
        }
        emit!(
            self,
            Event::Combat {
                who: i,
                what: CombatEvent::AidAnother {
                    target: t,
                    attack: matches!(action.aid, AidMode::Attack),
                    d20,
                    bonus,
                    dc: AID_DC,
                    given: if ok { AID_BONUS } else { 0 }
                }
            }
        );
        Ok(())
    }
}
