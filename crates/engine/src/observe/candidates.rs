//! Plausible actions for a combatant's turn, listed from the engine's own
//! checks (reach and line of effect, charge lanes, 5-foot steps, conditions,
//! feats): a menu for a model, never a second rules engine. An action left
//! off the list may still be asked for, and one on it may still fail when
//! played; the engine decides when it plays it.
//!
//! The list is built by [`SOURCES`], one [`CandidateSource`] per family of
//! action kinds, in priority order; a new kind of action (a spell, a class
//! ability) adds its source to the table and nothing else changes. The list
//! is capped at [`MAX_CANDIDATES`] entries.

use crate::combat::{Action, ActionKind, BattleState, LifeState, ReadyTrigger};
use crate::effects::{ConditionId, Flags, Maneuver};

/// Most candidates listed for one turn.
pub const MAX_CANDIDATES: usize = 32;

/// One family of candidate actions.
#[derive(Clone, Copy, Debug)]
pub struct CandidateSource {
    /// What it proposes (for documentation and tests).
    pub name: &'static str,
    /// Appends the family's plausible actions for combatant `i`.
    pub generate: fn(&BattleState<'_>, usize, &mut Vec<Action>),
}

/// Every source, in priority order: attacks first, then class abilities and
/// spells, then movement, maneuvers and defence, waiting last.
pub const SOURCES: &[CandidateSource] = &[
    CandidateSource { name: "full_attack", generate: full_attacks },
    CandidateSource { name: "attack", generate: attacks },
    CandidateSource { name: "charge", generate: charges },
    CandidateSource { name: "class_ability", generate: super::magic::class_abilities },
    CandidateSource { name: "spell", generate: super::magic::spells },
    CandidateSource { name: "5foot_step", generate: steps },
    CandidateSource { name: "move", generate: moves },
    CandidateSource { name: "maneuver", generate: maneuvers },
    CandidateSource { name: "recovery", generate: recovery },
    CandidateSource { name: "activate_power_attack", generate: power_attack },
    CandidateSource { name: "declare", generate: declarations },
    CandidateSource { name: "defense", generate: defense },
    CandidateSource { name: "timing", generate: timing },
];

/// The plausible actions of combatant `i` now, at most [`MAX_CANDIDATES`];
/// `wait` when nothing else is.
pub fn candidate_actions(battle: &BattleState<'_>, i: usize) -> Vec<Action> {
    let mut out = Vec::new();
    for source in SOURCES {
        (source.generate)(battle, i, &mut out);
        if out.len() >= MAX_CANDIDATES {
            break;
        }
    }
    out.truncate(MAX_CANDIDATES);
    if out.is_empty() {
        out.push(Action::new(ActionKind::Wait));
    }
    out
}

/// Enemies of `i` able to fight, in encounter order.
fn enemies<'a>(b: &'a BattleState<'_>, i: usize) -> impl Iterator<Item = usize> + 'a {
    (0..b.len()).filter(move |&j| b.are_enemies(i, j) && b.is_active(j))
}

fn can_attack(b: &BattleState<'_>, i: usize) -> bool {
    !b.flags(i).has(Flags::NO_ATTACK)
}

fn can_move(b: &BattleState<'_>, i: usize) -> bool {
    b.speed(i) > 0 && !b.flags(i).has(Flags::CANT_MOVE) && b.fighters[i].grappled_with.is_none()
}

/// Staggered or disabled: no full-round action.
fn staggered(b: &BattleState<'_>, i: usize) -> bool {
    b.turn_limits(i).staggered
}

fn in_reach(b: &BattleState<'_>, i: usize, j: usize) -> bool {
    b.weapon_for(i, j, b.pos(i)).is_ok()
}

fn full_attacks(b: &BattleState<'_>, i: usize, out: &mut Vec<Action>) {
    if can_attack(b, i) && !staggered(b, i) {
        out.extend(
            enemies(b, i).filter(|&j| in_reach(b, i, j)).map(|j| Action::at(ActionKind::FullAttack, j)),
        );
    }
}

fn attacks(b: &BattleState<'_>, i: usize, out: &mut Vec<Action>) {
    if can_attack(b, i) {
        out.extend(enemies(b, i).filter(|&j| in_reach(b, i, j)).map(|j| Action::at(ActionKind::Attack, j)));
    }
}

fn charges(b: &BattleState<'_>, i: usize, out: &mut Vec<Action>) {
    let may = can_attack(b, i)
        && can_move(b, i)
        && !staggered(b, i)
        && b.life(i) != LifeState::Disabled
        && !b.flags(i).has(Flags::NO_RUN_CHARGE);
    if may {
        out.extend(
            enemies(b, i).filter(|&j| b.charge_end(i, j).is_ok()).map(|j| Action::at(ActionKind::Charge, j)),
        );
    }
}

fn steps(b: &BattleState<'_>, i: usize, out: &mut Vec<Action>) {
    if !can_attack(b, i) {
        return;
    }
    for j in enemies(b, i).filter(|&j| !in_reach(b, i, j)) {
        if let Some(q) = b.step_to_attack(i, j) {
            out.push(Action::at(ActionKind::FiveFootStep, j).with_destination(q));
        }
    }
}

fn moves(b: &BattleState<'_>, i: usize, out: &mut Vec<Action>) {
    if can_move(b, i) {
        out.extend(enemies(b, i).filter(|&j| !in_reach(b, i, j)).map(|j| Action::at(ActionKind::Move, j)));
    }
}

/// Trip and disarm, where the engine's maneuver rules allow them against
/// an enemy in melee reach (the maneuvers the strategies use).
fn maneuvers(b: &BattleState<'_>, i: usize, out: &mut Vec<Action>) {
    if !can_attack(b, i) {
        return;
    }
    for j in enemies(b, i) {
        if b.melee_weapon_from(i, j, b.pos(i)).is_none() {
            continue;
        }
        if !b.is_prone(j) && (b.size(j) as u8) < b.size(i) as u8 + 2 {
            out.push(Action::maneuver(Maneuver::Trip, j));
        }
        if b.held_weapon(j).is_some() {
            out.push(Action::maneuver(Maneuver::Disarm, j));
        }
    }
}

fn recovery(b: &BattleState<'_>, i: usize, out: &mut Vec<Action>) {
    let f = &b.fighters[i];
    if f.conds.has(ConditionId::Prone) {
        out.push(Action::new(ActionKind::StandUp));
    }
    if f.gear.dropped != 0 {
        out.push(Action::new(ActionKind::RetrieveWeapon));
    }
    if (0..b.prep.fighters[i].offense.attacks.len()).any(|w| b.sundered(i, w)) {
        out.push(Action::new(ActionKind::RepairWeapon));
    }
}

fn power_attack(b: &BattleState<'_>, i: usize, out: &mut Vec<Action>) {
    let melee_target = enemies(b, i).any(|j| b.melee_weapon_from(i, j, b.pos(i)).is_some())
        || enemies(b, i).any(|j| b.charge_end(i, j).is_ok());
    if b.prep.fighters[i].feats.power_attack
        && !b.fighters[i].turn.power_attack
        && can_attack(b, i)
        && melee_target
    {
        out.push(Action::new(ActionKind::PowerAttack));
    }
}

/// The martial options `i` may declare and has not declared yet, while it can attack.
fn declarations(b: &BattleState<'_>, i: usize, out: &mut Vec<Action>) {
    if !can_attack(b, i) {
        return;
    }
    for &s in crate::combat::Style::ALL {
        if b.may_declare(i, s) && !b.declared(i, s) {
            out.push(Action::declare(s));
        }
    }
}

fn defense(b: &BattleState<'_>, i: usize, out: &mut Vec<Action>) {
    out.push(Action::new(ActionKind::TotalDefense));
    if can_attack(b, i) && enemies(b, i).any(|j| in_reach(b, i, j)) {
        out.push(Action::new(ActionKind::FightDefensively));
    }
    if can_move(b, i) && !staggered(b, i) && enemies(b, i).any(|j| b.threatens(j, i)) {
        out.push(Action::new(ActionKind::Withdraw));
    }
}

fn timing(b: &BattleState<'_>, i: usize, out: &mut Vec<Action>) {
    if can_attack(b, i) && b.prep.fighters[i].offense.attacks.iter().any(|a| a.melee) {
        out.push(Action::new(ActionKind::Ready).with_trigger(ReadyTrigger::EnemyEntersReach));
    }
    if b.fighters[i].turn.delayed_in != b.round() {
        out.push(Action::new(ActionKind::Delay));
    }
}
