//! What a combatant does when none of its weapons can hurt the foe in
//! front of it (a nonmagical blade against an incorporeal wraith, UMR
//! "Incorporeal"; a crossbow bolt against a clay golem's damage reduction)
//! or hit it but on a natural 20 (`policy::futile`), and no other foe is
//! worth a swing: a table does not swing for nothing, it helps
//! (`docs/strategy.md`, "No swing for nothing", "No attack that cannot
//! hit").
//!
//! From where it stands, reaching that foe in melee: Aid Another (CRB:
//! an attack roll against AC 10 that gives +2) on the attack of an ally
//! who threatens the foe and whose attack is of use against it; else +2
//! AC to an ally the foe threatens; else, when the foe threatens it, a
//! withdrawal for one that fights from the back (a ranged attack or
//! spells) and total defense for another. Out of reach, a melee creature
//! walks up (one move, no charge nor swing) to help once there; one that
//! fights from the back does not walk into the foe's reach: it withdraws
//! when a foe threatens it, shoots when its shot hurts on a natural 20
//! (a lottery ticket that costs nothing out of reach), and otherwise
//! withdraws from a foe that could reach it by its next turn or takes
//! total defense. When only a natural 20 is missing (its attack could
//! hurt the foe), or when it fights from the back, all this only while an
//! ally still has an attack of use: when none has, it is alone, and it
//! fights as it can (a natural 20 is the side's only hope; a caster that
//! ran from a golem forever would turn every lost battle into a draw).

use crate::effects::{ConditionId, Flags};

use super::super::action::{Action, ActionKind, AidMode};
use super::super::state::BattleState;
use super::futile;

/// Whether some usable weapon of `a` can hurt `t`.
fn harms(b: &BattleState<'_>, a: usize, t: usize) -> bool {
    (0..b.prep.fighters[a].offense.attacks.len()).any(|w| b.is_usable(a, w) && b.weapon_harms(a, w, t))
}

/// Whether `i` fights from the back: it has a ranged attack, or spells.
fn back_liner(b: &BattleState<'_>, i: usize) -> bool {
    let spec = &b.prep.fighters[i];
    spec.caster.is_some() || spec.offense.attacks.iter().any(|p| !p.melee)
}

/// Plans the turn of `actor` none of whose attacks is of use against `t`
/// (`t` is then the best foe there is: `harmable_target`); whether it did.
pub(super) fn plan(b: &BattleState<'_>, actor: usize, t: usize, out: &mut Vec<Action>) -> bool {
    let f = &b.fighters[actor];
    // Fleeing and standing up come first (`plan_turn`).
    if f.summary.flags.has(Flags::MUST_FLEE) || f.conds.has(ConditionId::Prone) {
        return false;
    }
    if b.prep.fighters[actor].offense.attacks.is_empty() || futile::any_useful(b, actor, t) {
        return false;
    }
    // Its attacks could hurt `t` and only the natural 20 is missing: it
    // helps only while an ally still fights with an attack of use.
    let hurts = harms(b, actor, t)
        && (0..b.prep.fighters[actor].offense.attacks.len())
            .any(|w| b.is_usable(actor, w) && futile::most_damage(b, actor, w, t) > 0);
    let back = back_liner(b, actor);
    if (hurts || back) && !futile::ally_fights(b, actor) {
        return false;
    }
    let mobile = !b.flags(actor).has(Flags::CANT_MOVE);
    if !b.threatens(actor, t) {
        if back {
            return keep_back(b, actor, t, hurts, mobile, out);
        }
        // Walk up to help next turn; no charge, no swing.
        if !mobile {
            return false;
        }
        out.push(Action::at(ActionKind::Move, t));
        return true;
    }
    let allies = || (0..b.len()).filter(|&a| a != actor && !b.are_enemies(actor, a) && b.is_active(a));
    let striker = allies()
        .filter(|&a| b.threatens(a, t) && futile::any_useful(b, a, t))
        .min_by_key(|&a| (b.distance(actor, a), a));
    if let Some(a) = striker {
        out.push(Action::at(ActionKind::AidAnother, a));
        return true;
    }
    let guarded = allies().filter(|&a| b.threatens(t, a)).min_by_key(|&a| (b.hp(a), a));
    if let Some(a) = guarded {
        let mut aid = Action::at(ActionKind::AidAnother, a);
        aid.aid = AidMode::Ac;
        out.push(aid);
        return true;
    }
    if b.threatens(t, actor) {
        let kind = if back && mobile { ActionKind::Withdraw } else { ActionKind::TotalDefense };
        out.push(Action::new(kind));
        return true;
    }
    false
}

/// The turn of a combatant that fights from the back, out of `t`'s reach,
/// with no attack of use: it withdraws when a foe threatens it; shoots
/// (`false`: the attack ladder plays) when a shot reaching `t` from here
/// hurts it on a natural 20 (`hurts`); otherwise withdraws from a foe that
/// could reach it by its next turn (a double move and its reach), or takes
/// total defense.
fn keep_back(
    b: &BattleState<'_>,
    actor: usize,
    t: usize,
    hurts: bool,
    mobile: bool,
    out: &mut Vec<Action>,
) -> bool {
    if b.is_threatened(actor) {
        out.push(Action::new(if mobile { ActionKind::Withdraw } else { ActionKind::TotalDefense }));
        return true;
    }
    let here = b.pos(actor);
    let attacks = &b.prep.fighters[actor].offense.attacks;
    let shot = (0..attacks.len()).any(|w| {
        !attacks[w].melee
            && b.is_usable(actor, w)
            && b.weapon_reaches(actor, w, t, here)
            && futile::most_damage(b, actor, w, t) > 0
    });
    if hurts && shot {
        return false;
    }
    let danger = (0..b.len()).any(|e| {
        b.are_enemies(actor, e)
            && b.is_active(e)
            && b.longest_reach(e).is_some_and(|r| b.distance(e, actor) <= 2 * b.move_budget(e) + r)
    });
    out.push(Action::new(if danger && mobile { ActionKind::Withdraw } else { ActionKind::TotalDefense }));
    true
}
