//! Breaking free (`combat::bonds`): a creature held in place by bonds
//! (Entangle's plants, Web's strands) tries to break free when that pays,
//! as a table would.
//!
//! - Bonds broken with a move action (Entangle): a caster breaks free, then
//!   casts what its magic would cast from here (a free caster makes no
//!   concentration check); a creature whose weapons reach its foe from here
//!   keeps its full attack; any other breaks free and moves toward its foe.
//! - Bonds that take a standard or full-round action (Web, a spider's web):
//!   a creature that can attack or cast from here does so; one that cannot
//!   breaks free (and moves toward its foe when the action leaves a move).
//! - A creature that can still move (entangled by a thrown web, at half
//!   speed) does not spend its actions on the bonds, nor does one that
//!   cannot succeed.
//!
//! A creature with an entangling throw (a spider's web, an erinyes' rope;
//! `combat::monster::web`) throws it at its foe when that foe is not bound
//! yet and no melee attack reaches it from here: it webs the foe it closes
//! on (then moves toward it), or ropes the foe it would shoot.

use crate::effects::{EscapeAction, Flags};

use super::super::action::{Action, ActionKind, Slot};
use super::super::state::BattleState;
use super::magic::{Magic, has_magic, plan_magic};

/// Plans breaking free for `actor` (foe `t`); whether it planned the turn.
pub(super) fn plan(battle: &BattleState<'_>, actor: usize, t: usize, out: &mut Vec<Action>) -> bool {
    let Some((_, bonds)) = battle.bond(actor) else { return false };
    if !battle.flags(actor).has(Flags::CANT_MOVE) || battle.escape_chance(actor, &bonds) <= 0.0 {
        return false;
    }
    let reaches = battle.weapon_for(actor, t, battle.pos(actor)).is_ok();
    let mut magic = Vec::new();
    let casts = has_magic(battle, actor)
        && plan_magic(battle, actor, t, Magic::DEFAULT, &mut magic)
        && magic.iter().all(|a| {
            let slot = a.slot.or_else(|| battle.data_slot(actor, a)).unwrap_or_else(|| a.kind.slot());
            matches!(slot, Slot::Standard | Slot::Swift | Slot::Free)
                && !matches!(a.kind, ActionKind::FiveFootStep | ActionKind::Move)
        });
    let free = Action::new(ActionKind::BreakFree);
    match bonds.action {
        EscapeAction::Move if casts => {
            out.push(free);
            out.extend(magic);
        }
        EscapeAction::Move if !reaches => {
            out.push(free);
            out.push(Action::at(ActionKind::Move, t));
        }
        EscapeAction::Standard if !casts && !reaches => {
            out.push(free);
            out.push(Action::at(ActionKind::Move, t));
        }
        EscapeAction::FullRound if !casts && !reaches => out.push(free),
        _ => return false,
    }
    true
}

/// Plans an entangling throw at `t` for `actor`; whether it planned the turn.
pub(super) fn plan_throw(battle: &BattleState<'_>, actor: usize, t: usize, out: &mut Vec<Action>) -> bool {
    if battle.prep.fighters[actor].monster.as_deref().is_none_or(|m| m.entangle.is_none())
        || battle.entangle_throw(actor, t).is_err()
        || battle.bond(t).is_some()
    {
        return false;
    }
    let melee = battle
        .weapon_for(actor, t, battle.pos(actor))
        .is_ok_and(|w| battle.prep.fighters[actor].offense.attacks[w].melee);
    if melee {
        return false;
    }
    out.push(Action::at(ActionKind::Entangle, t));
    if battle.weapon_for(actor, t, battle.pos(actor)).is_err() {
        out.push(Action::at(ActionKind::Move, t));
    }
    true
}
