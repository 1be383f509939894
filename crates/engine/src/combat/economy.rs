//! The action budget of a turn: which requested actions are kept, in order.
//!
//! A turn gives one standard action and one move action (or one full-round
//! action instead of both), one swift action, and any number of free ones.
//! A second move action may take the place of the unused standard action.

use super::action::{Action, ActionKind, Reason, Slot};

/// A requested action after the budget: played when `dropped` is `None`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Planned {
    /// The action to play (a staggered full attack becomes an attack).
    pub action: Action,
    /// Why it will not be played, if so.
    pub dropped: Option<Reason>,
}

/// Applies the action budget to `requested`, in order, into `out` (cleared first).
///
/// Deterministic greedy pass: each action is kept while its slot is free,
/// excess actions stay in place with `downgraded:action_economy`. When
/// `staggered` (disabled at 0 hit points: CRB "Staggered"), only the first
/// standard or move action survives, a full attack is played as a single
/// attack, and other full-round actions are dropped (`downgraded:staggered`);
/// swift and free actions are unaffected.
pub fn apply_budget(requested: &[Action], staggered: bool, out: &mut Vec<Planned>) {
    out.clear();
    let mut standard = false;
    let mut movement = false;
    let mut swift = false;
    for &action in requested {
        let fits = match action.kind.slot() {
            Slot::Standard => {
                !standard && {
                    standard = true;
                    true
                }
            }
            Slot::Move => {
                if !movement {
                    movement = true;
                    true
                } else if !standard {
                    standard = true;
                    true
                } else {
                    false
                }
            }
            Slot::FullRound => {
                let free = !standard && !movement;
                if free {
                    standard = true;
                    movement = true;
                }
                free
            }
            Slot::Swift => {
                !swift && {
                    swift = true;
                    true
                }
            }
            Slot::Free => true,
        };
        let dropped = if fits { None } else { Some(Reason::DowngradedActionEconomy) };
        out.push(Planned { action, dropped });
    }
    if staggered {
        apply_staggered(out);
    }
}

fn apply_staggered(plan: &mut [Planned]) {
    let mut used = false;
    for p in plan.iter_mut().filter(|p| p.dropped.is_none()) {
        match p.action.kind.slot() {
            Slot::Swift | Slot::Free => {}
            Slot::Standard | Slot::Move if !used => used = true,
            Slot::FullRound if !used && p.action.kind == ActionKind::FullAttack => {
                used = true;
                p.action.kind = ActionKind::Attack;
            }
            // Restricted withdraw: a standard action at the creature's speed.
            Slot::FullRound if !used && p.action.kind == ActionKind::Withdraw => used = true,
            _ => p.dropped = Some(Reason::DowngradedStaggered),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ActionKind::*;

    fn kept(kinds: &[ActionKind], staggered: bool) -> Vec<(ActionKind, Option<Reason>)> {
        let actions: Vec<Action> = kinds.iter().map(|&k| Action::new(k)).collect();
        let mut out = Vec::new();
        apply_budget(&actions, staggered, &mut out);
        out.iter().map(|p| (p.action.kind, p.dropped)).collect()
    }

    const ECO: Option<Reason> = Some(Reason::DowngradedActionEconomy);
    const STAG: Option<Reason> = Some(Reason::DowngradedStaggered);

    #[test]
    fn seed_examples() {
        assert_eq!(kept(&[Attack, Attack], false), [(Attack, None), (Attack, ECO)]);
        assert_eq!(kept(&[Charge, Attack], false), [(Charge, None), (Attack, ECO)]);
        assert_eq!(
            kept(&[Attack, FullAttack, Move], false),
            [(Attack, None), (FullAttack, ECO), (Move, None)]
        );
        assert_eq!(kept(&[Move, Attack, Move], false), [(Move, None), (Attack, None), (Move, ECO)]);
        assert_eq!(
            kept(&[FullAttack, Swift, Swift], false),
            [(FullAttack, None), (Swift, None), (Swift, ECO)]
        );
    }

    #[test]
    fn second_move_takes_the_standard_action() {
        assert_eq!(kept(&[Move, Move], false), [(Move, None), (Move, None)]);
        assert_eq!(kept(&[Move, StandUp], false), [(Move, None), (StandUp, None)]);
        assert_eq!(kept(&[Move, Move, Attack], false), [(Move, None), (Move, None), (Attack, ECO)]);
        assert_eq!(kept(&[Move, Move, Move], false), [(Move, None), (Move, None), (Move, ECO)]);
    }

    #[test]
    fn full_round_needs_both_slots() {
        assert_eq!(kept(&[Move, FullAttack], false), [(Move, None), (FullAttack, ECO)]);
        assert_eq!(kept(&[FullAttack, Move], false), [(FullAttack, None), (Move, ECO)]);
        assert_eq!(kept(&[FullAttack, Charge], false), [(FullAttack, None), (Charge, ECO)]);
    }

    #[test]
    fn free_actions_are_never_counted() {
        assert_eq!(
            kept(&[FiveFootStep, FullAttack, Wait, DropProne], false),
            [(FiveFootStep, None), (FullAttack, None), (Wait, None), (DropProne, None)]
        );
    }

    #[test]
    fn staggered_keeps_one_standard_or_move() {
        assert_eq!(kept(&[Move, Attack], true), [(Move, None), (Attack, STAG)]);
        assert_eq!(kept(&[Attack, Move], true), [(Attack, None), (Move, STAG)]);
        assert_eq!(kept(&[FiveFootStep, FullAttack], true), [(FiveFootStep, None), (Attack, None)]);
        assert_eq!(kept(&[Charge], true), [(Charge, STAG)]);
        assert_eq!(kept(&[Move, Move, Swift], true), [(Move, None), (Move, STAG), (Swift, None)]);
        // The budget runs first: an excess action keeps its economy reason.
        assert_eq!(kept(&[Attack, Attack], true), [(Attack, None), (Attack, ECO)]);
    }
}
