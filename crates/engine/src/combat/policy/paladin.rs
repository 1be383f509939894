//! A paladin's smite evil and lay on hands in the default policy.
//!
//! - **Lay on hands on an ally**: an ally who is dying (below 0 hit points,
//!   not stable) and whom it touches from here or after one move gets it
//!   (a standard action); the turn is planned.
//! - **Lay on hands for its mercies**: with no ally dying, an ally
//!   (conscious, not dying) it touches from here or after one move whose
//!   conditions its mercies end gets it when that pays (`mercy_pays`): a
//!   condition that costs a turn's worth or more (staggered, dazed,
//!   nauseated…, lasting past the next round), or a lighter one
//!   (sickened, fatigued, shaken) on an ally missing at least the healing's
//!   mean; the worst-afflicted first, then the nearest.
//! - **Lay on hands on itself**: the swift action of a turn that starts
//!   with it under half its hit points, or with a condition its mercies
//!   end that pays as above.
//! - **Lay on hands to harm undead**: an undead foe it touches from here
//!   or after one move, when the touch's expected damage (hit chance
//!   against touch AC × the dice's mean, halved on an incorporeal foe)
//!   beats its weapons' this turn against the foe it would fight; it
//!   keeps one use for healing and does not give up a smite in progress.
//! - **Channel positive energy** (4th level, two uses of lay on hands),
//!   weighed by the cleric's measure of a channel (`heal::channel_scope`)
//!   before any lay on hands: it heals when two or more allies in the
//!   30-ft burst are under half their hit points (itself included) and
//!   the burst's expected healing, less what it gives the foes it
//!   catches, beats one lay on hands on the worst-hurt ally, unless a
//!   dying ally lies outside the burst (a lay on hands saves it first);
//!   it harms when two or more undead foes stand in the burst and the
//!   expected damage beats both a harming touch on one of them and its
//!   weapons this turn, keeping one use for healing as the touch does.
//! - **Smite evil**: while its smite lasts it fights the smitten foe when it
//!   reaches it this turn; otherwise, with a use and the swift action left,
//!   it smites the most dangerous evil foe it reaches this turn (the
//!   highest expected damage of a full attack, then the nearest) whose hit
//!   points outlast one of its hits with the smite's damage, and fights it.

use super::super::abilities::{CHANNEL_RADIUS_FT, HANDS_PER_CHANNEL};
use super::super::action::{Action, ActionKind};
use super::super::odds::hit_chance;
use super::super::state::{BattleState, LifeState};

/// The weight (`worth::severity`) of the conditions a lay on hands must
/// end to pay on its own: staggered's and worse.
const HEAVY: f64 = 0.6;
/// Uses of lay on hands kept for healing when harming undead.
const KEPT_FOR_HEALING: u16 = 1;

/// Plans a paladin's channel positive energy when it beats a lay on hands
/// (see the module's documentation), `t` being the foe it would fight;
/// `true` when the turn is planned.
pub(super) fn plan_channel(b: &BattleState<'_>, i: usize, t: usize, out: &mut Vec<Action>) -> bool {
    let Some(a) = b.prep.fighters[i].abilities.as_deref() else { return false };
    let Some(ch) = b.channel_ready(i).filter(|c| c.from_hands) else { return false };
    let Some(l) = a.lay_on_hands else { return false };
    let scope = super::heal::channel_scope(b, i, ch, a.selective);
    if scope.wounded >= 2 {
        let in_burst =
            |j: usize| b.distance(i, j) <= CHANNEL_RADIUS_FT && b.line_of_effect_from(i, b.pos(i), j);
        let dying_outside = super::heal::nearest_dying(b, i).is_some_and(|j| !in_burst(j));
        // One lay on hands on the most urgent patient: what it restores.
        let lay = super::heal::patients(b, i).first().map_or(0.0, |&j| {
            let missing = f64::from(b.hp_max(j) - b.hp(j));
            (3.5 * f64::from(l.dice)).min(missing) * b.healing_odds(j, b.prep.fighters[i].nature.hd)
        });
        if !dying_outside && scope.heal_worth > lay {
            out.push(Action::new(ActionKind::ChannelEnergy).with_option(0));
            return true;
        }
    }
    if scope.foes_harmed >= 2
        && b.fighters[i].class.pools.lay_on_hands >= HANDS_PER_CHANNEL + KEPT_FOR_HEALING
    {
        let touch = (0..b.len())
            .filter(|&e| b.are_enemies(i, e) && b.is_active(e))
            .filter(|&e| b.prep.fighters[e].nature.ctype == Some(crate::spell::model::CreatureType::Undead))
            .map(|e| harm_value(b, i, e))
            .fold(0.0, f64::max);
        let weapons = if b.is_active(t) { super::splash::weapons_value(b, i, t) } else { 0.0 };
        if scope.harm_worth > touch.max(weapons) {
            out.push(Action::new(ActionKind::ChannelEnergy).with_option(1));
            return true;
        }
    }
    false
}

/// Plans a lay on hands on a dying ally; `true` when the turn is planned.
pub(super) fn plan_aid(b: &BattleState<'_>, i: usize, out: &mut Vec<Action>) -> bool {
    let Some(patient) = super::heal::nearest_dying(b, i) else { return false };
    // A clay golem's cursed wound the paladin's level cannot overcome.
    if b.healing_odds(patient, b.prep.fighters[i].nature.hd) <= 0.0 {
        return false;
    }
    if b.fighters[i].class.pools.lay_on_hands == 0
        || b.prep.fighters[i].abilities.as_deref().is_none_or(|a| a.lay_on_hands.is_none())
    {
        return false;
    }
    super::heal::touch_aid(b, i, patient, ActionKind::LayOnHands, b.can_lay_on_hands(i, patient), out)
}

/// Whether `i`'s lay on hands on `j` pays for its mercies: the lasting
/// conditions they end weigh `HEAVY` or more, or some weigh less and `j`
/// misses at least the healing's mean.
fn mercy_pays(b: &BattleState<'_>, i: usize, j: usize) -> bool {
    let Some(l) = b.lay_on_hands_ready(i) else { return false };
    let ends = b.mercy_lasting(i, j);
    if ends.is_empty() {
        return false;
    }
    let weight: f64 = ends.iter().map(super::worth::severity).sum();
    weight >= HEAVY || f64::from(b.hp_max(j) - b.hp(j)) >= 3.5 * f64::from(l.dice)
}

/// Plans a lay on hands on an ally whose conditions its mercies end when
/// it pays (`mercy_pays`): the heaviest conditions first, then the
/// nearest; from here or after one move. `true` when the turn is planned.
pub(super) fn plan_mercy(b: &BattleState<'_>, i: usize, out: &mut Vec<Action>) -> bool {
    if b.lay_on_hands_ready(i).is_none() {
        return false;
    }
    let weight = |j: usize| -> f64 { b.mercy_lasting(i, j).iter().map(super::worth::severity).sum() };
    let mut patients: Vec<usize> = (0..b.len())
        .filter(|&j| j != i && !b.are_enemies(i, j) && b.is_present(j))
        .filter(|&j| matches!(b.life(j), LifeState::Fighting | LifeState::Disabled))
        .filter(|&j| b.prep.fighters[j].reserve.is_none() && mercy_pays(b, i, j))
        .collect();
    patients.sort_by(|&x, &y| weight(y).total_cmp(&weight(x)).then(b.distance(i, x).cmp(&b.distance(i, y))));
    patients
        .into_iter()
        .any(|j| super::heal::touch_aid(b, i, j, ActionKind::LayOnHands, b.can_lay_on_hands(i, j), out))
}

/// Expected damage of `i`'s lay on hands harming undead `e` from here:
/// its touch attack's hit chance times the dice's mean, halved on an
/// incorporeal foe (as positive energy is, `monster::incorporeal`).
fn harm_value(b: &BattleState<'_>, i: usize, e: usize) -> f64 {
    let Some(l) = b.lay_on_hands_ready(i) else { return 0.0 };
    let s = b.touch_situation(i, e, true);
    let mean = 3.5 * f64::from(l.dice);
    hit_chance(s.attack, s.ac) * if b.incorporeal(e) { mean / 2.0 } else { mean }
}

/// Plans a lay on hands harming an undead foe (see the module's
/// documentation) instead of fighting `t`; `true` when the turn is planned.
pub(super) fn plan_harm(b: &BattleState<'_>, i: usize, t: usize, out: &mut Vec<Action>) -> bool {
    if b.lay_on_hands_ready(i).is_none()
        || b.fighters[i].class.pools.lay_on_hands <= KEPT_FOR_HEALING
        || b.smiting(i).is_some_and(|s| b.is_active(s))
    {
        return false;
    }
    let mut foes: Vec<(f64, usize)> = (0..b.len())
        .filter(|&e| b.are_enemies(i, e) && b.is_active(e) && !b.is_swallowed(e))
        .filter(|&e| b.prep.fighters[e].nature.ctype == Some(crate::spell::model::CreatureType::Undead))
        .map(|e| (harm_value(b, i, e), e))
        .collect();
    // The weapons' measure is weighed only when an undead foe stands (it runs every turn).
    if foes.is_empty() {
        return false;
    }
    let weapons = super::splash::weapons_value(b, i, t);
    foes.retain(|&(v, _)| v > weapons);
    foes.sort_by(|x, y| y.0.total_cmp(&x.0).then(b.distance(i, x.1).cmp(&b.distance(i, y.1))));
    foes.into_iter().any(|(_, e)| {
        super::heal::touch_aid(b, i, e, ActionKind::LayOnHands, b.can_harm_with_hands(i, e), out)
    })
}

/// Plans the paladin's swift action (lay on hands on itself, or smite
/// evil) and returns the foe to fight this turn (`t` unless the smite says otherwise).
pub(super) fn plan(b: &BattleState<'_>, i: usize, t: usize, out: &mut Vec<Action>) -> usize {
    let Some(a) = b.prep.fighters[i].abilities.as_deref() else { return t };
    if b.fighters[i].turn.swift_used {
        return t;
    }
    if a.lay_on_hands.is_some()
        && (2 * b.hp(i) < b.hp_max(i) || mercy_pays(b, i, i))
        && b.can_lay_on_hands(i, i)
        && b.healing_odds(i, b.prep.fighters[i].nature.hd) > 0.0
    {
        out.push(Action::new(ActionKind::LayOnHands));
        return keep_smitten(b, i, t);
    }
    let Some(smite) = a.smite else { return t };
    if let Some(s) = b.smiting(i).filter(|&s| b.is_active(s)) {
        return if reaches_this_turn(b, i, s) { s } else { t };
    }
    if b.smites_left(i) == 0 {
        return t;
    }
    let hit = b.prep.fighters[i].best_melee_mean_damage();
    let danger = |e: usize| -> f64 {
        b.prep.fighters[e].offense.attacks.iter().map(|w| w.mean_damage * f64::from(w.count.max(1))).sum()
    };
    let best = (0..b.len())
        .filter(|&e| b.are_enemies(i, e) && b.is_active(e) && b.smitable(i, e))
        .filter(|&e| f64::from(b.hp(e)) > hit + f64::from(smite.damage) && reaches_this_turn(b, i, e))
        .max_by(|&x, &y| danger(x).total_cmp(&danger(y)).then(b.distance(i, y).cmp(&b.distance(i, x))));
    match best {
        Some(e) => {
            out.push(Action::at(ActionKind::Smite, e));
            e
        }
        None => t,
    }
}

/// The smitten foe when it still stands and `i` reaches it this turn, else `t`.
fn keep_smitten(b: &BattleState<'_>, i: usize, t: usize) -> usize {
    b.smiting(i).filter(|&s| b.is_active(s) && reaches_this_turn(b, i, s)).unwrap_or(t)
}

/// Whether `i` can attack `e` in melee this turn: from here, after a
/// 5-foot step, by a charge, or after one move.
fn reaches_this_turn(b: &BattleState<'_>, i: usize, e: usize) -> bool {
    let reach =
        b.prep.fighters[i].offense.attacks.iter().filter(|w| w.melee).map(|w| w.reach_max).max().unwrap_or(0);
    reach > 0
        && (super::melee_this_turn(b, i, e, true)
            || b.step_to_attack(i, e).is_some()
            || b.distance(i, e) <= b.move_budget(i) + reach)
}
