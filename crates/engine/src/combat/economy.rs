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

/// What a creature's state leaves of a turn (CRB "Conditions").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TurnLimits {
    /// Staggered (the condition, or disabled at 0 hit points): a single move
    /// or standard action, no full-round action.
    pub staggered: bool,
    /// A single move action and nothing else (nauseated, pinned), with the
    /// reason code for what is dropped.
    pub single_move: Option<Reason>,
    /// No attack, charge or maneuver (panicked).
    pub no_attack: bool,
}

impl TurnLimits {
    /// Only the staggered limit.
    pub const fn staggered(staggered: bool) -> Self {
        Self { staggered, single_move: None, no_attack: false }
    }
}

/// Whether `kind` is a real move action (CRB "Nauseated": "a single move action").
const fn is_move_action(kind: ActionKind) -> bool {
    matches!(
        kind,
        ActionKind::Move | ActionKind::StandUp | ActionKind::RetrieveWeapon | ActionKind::RepairWeapon
    )
}

/// Whether `action` attacks (an attack roll or a maneuver against a foe).
fn is_attack(action: &Action) -> bool {
    match action.kind {
        ActionKind::Attack | ActionKind::FullAttack | ActionKind::Charge => true,
        ActionKind::Maneuver => action.maneuver != Some(crate::effects::Maneuver::Escape),
        _ => false,
    }
}

/// Applies the action budget to `requested`, in order, into `out` (cleared first).
///
/// Deterministic greedy pass: each action is kept while its slot is free,
/// excess actions stay in place with `downgraded:action_economy`. Then the
/// creature's limits: when `staggered` (CRB "Staggered"), only the first
/// standard or move action survives, a full attack is played as a single
/// attack, and other full-round actions are dropped (`downgraded:staggered`);
/// swift and free actions are unaffected. A `single_move` creature keeps its
/// first real move action (a pinned one may instead try to escape) and
/// `wait`; `no_attack` drops attacks, charges and maneuvers (`cannot_attack`).
pub fn apply_budget(requested: &[Action], limits: TurnLimits, out: &mut Vec<Planned>) {
    out.clear();
    let mut standard = false;
    let mut movement = false;
    let mut swift = false;
    for &action in requested {
        let fits = match action.slot() {
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
    if limits.staggered {
        apply_staggered(out);
    }
    if let Some(reason) = limits.single_move {
        apply_single_move(out, reason);
    }
    if limits.no_attack {
        for p in out.iter_mut().filter(|p| p.dropped.is_none() && is_attack(&p.action)) {
            p.dropped = Some(Reason::CannotAttack);
        }
    }
}

fn apply_single_move(plan: &mut [Planned], reason: Reason) {
    let mut used = false;
    let pinned = reason == Reason::DowngradedPinned;
    for p in plan.iter_mut().filter(|p| p.dropped.is_none()) {
        let escape = pinned
            && p.action.kind == ActionKind::Maneuver
            && p.action.maneuver == Some(crate::effects::Maneuver::Escape);
        match p.action.kind {
            ActionKind::Wait => {}
            kind if (is_move_action(kind) || escape) && !used => used = true,
            _ => p.dropped = Some(reason),
        }
    }
}

fn apply_staggered(plan: &mut [Planned]) {
    let mut used = false;
    for p in plan.iter_mut().filter(|p| p.dropped.is_none()) {
        match p.action.slot() {
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
        kept_with(kinds, TurnLimits::staggered(staggered))
    }

    fn kept_with(kinds: &[ActionKind], limits: TurnLimits) -> Vec<(ActionKind, Option<Reason>)> {
        let actions: Vec<Action> = kinds.iter().map(|&k| Action::new(k)).collect();
        let mut out = Vec::new();
        apply_budget(&actions, limits, &mut out);
        out.iter().map(|p| (p.action.kind, p.dropped)).collect()
    }

    #[test]
    fn a_nauseated_creature_keeps_one_real_move_action() {
        const NAU: Option<Reason> = Some(Reason::DowngradedNauseated);
        let limits = TurnLimits { single_move: NAU, ..TurnLimits::default() };
        assert_eq!(
            kept_with(&[FiveFootStep, Attack, Move, Move, DropProne, Wait], limits),
            [(FiveFootStep, NAU), (Attack, NAU), (Move, None), (Move, ECO), (DropProne, NAU), (Wait, None)]
        );
        assert_eq!(kept_with(&[Charge], limits), [(Charge, NAU)]);
        assert_eq!(kept_with(&[Move, Move], limits), [(Move, None), (Move, NAU)]);
        assert_eq!(kept_with(&[RetrieveWeapon, StandUp], limits), [(RetrieveWeapon, None), (StandUp, NAU)]);
    }

    #[test]
    fn a_pinned_creature_may_try_to_escape_and_a_panicked_one_never_attacks() {
        const PIN: Option<Reason> = Some(Reason::DowngradedPinned);
        let pinned = TurnLimits { single_move: PIN, ..TurnLimits::default() };
        let escape = Action::maneuver(crate::effects::Maneuver::Escape, 1);
        let trip = Action::maneuver(crate::effects::Maneuver::Trip, 1);
        let mut out = Vec::new();
        apply_budget(&[escape, Action::new(Move)], pinned, &mut out);
        assert_eq!(out.iter().map(|p| p.dropped).collect::<Vec<_>>(), [None, PIN]);
        let panicked = TurnLimits { no_attack: true, ..TurnLimits::default() };
        apply_budget(&[Action::new(FullAttack)], panicked, &mut out);
        assert_eq!(out[0].dropped, Some(Reason::CannotAttack));
        apply_budget(&[trip, Action::new(Move)], panicked, &mut out);
        assert_eq!(out.iter().map(|p| p.dropped).collect::<Vec<_>>(), [Some(Reason::CannotAttack), None]);
        apply_budget(&[escape], panicked, &mut out);
        assert_eq!(out[0].dropped, None, "escaping is not attacking");
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
