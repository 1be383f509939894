//! Decisions of creatures with played special abilities (`combat::monster`).
//!
//! - A breath weapon, when ready, is used from where the creature stands
//!   on the aim (an enemy's square) that catches the most enemies and no
//!   ally able to fight, if it catches at least [`BREATH_MIN_ENEMIES`]
//!   enemies, or at least one while no enemy is within reach of a full
//!   attack (a one-target breath is then worth more than a move and one
//!   attack). Ties: the first enemy in encounter order.
//! - A helpless enemy (a ghoul's paralyzed victim) within reach, or within
//!   one move, is attacked before the nearest enemy.
//! - A creature with several natural attacks whose full attack from here
//!   would leave some of them out of reach (a dragon's 10-ft bite against a
//!   foe 10 ft away, its claws and wings reaching 5 ft) takes a 5-foot step
//!   first when one brings more of them within reach (`fuller_step`).
//! - A celestial or fiendish creature smites (swift action, before its
//!   attacks) the foe it will strike in melee this turn when that foe is of
//!   the punished alignment, it has a use left and no smitten foe alive, and
//!   the foe is worth it: more hit points left than one hit of its best
//!   melee attack with the smite's damage (not a foe about to fall).
//! - A singer (a harpy's captivating song) sings while some enemy would
//!   hear its song (able to fight, in range, neither its captive nor one
//!   that saved) or some captive still walks toward it; once a captive
//!   stands beside it (within reach of its attacks from here), or when its
//!   captives stand beneath it aloft, it stops singing and attacks: the
//!   song holds them one round more (the Bestiary's "for 1 round
//!   thereafter"; the use the harpy's designers describe). Its captives are
//!   its targets before the nearest enemy. A singer that flies and hovers
//!   safely (the harpy: fly 80 ft., average, Fly +12) and that no foe
//!   threatens (climbing away would provoke) first climbs, in place, to
//!   the lowest altitude no foe's melee reach covers
//!   (`BattleState::out_of_reach_altitude`) and sings from there: its
//!   captives gather beneath it, the others cannot strike it in melee
//!   (harpies "rarely let creatures not yet captivated too near"); to
//!   attack its captives it dives (`policy::flight::dive`).
//! - A creature with a dominate (a vampire's) uses it (a standard action)
//!   on the foe it may target that is likeliest to fail the save (the
//!   worst Will against it; ties: the nearest, then encounter order), from
//!   here or after one move toward it when it stands beyond the range,
//!   when that chance is at least [`DOMINATE_MIN_CHANCE`]: a foe turned is
//!   one fewer against it and one more for it, worth more than a round of
//!   its attacks. Foes immune or warded count 0.
//! - A creature with a grapple of its own (a vampire's blood drain, a
//!   succubus's kiss) that holds nobody grapples its foe, from here, after
//!   a 5-foot step, or after a move, when that pays
//!   (`BattleState::grapple_pays`: a round of holding it, times the chances
//!   of starting and keeping the hold, against a round of its attacks).
//! - A creature with an engulf by movement (a gelatinous cube) engulfs
//!   whenever its straight route within its speed covers a foe able to
//!   fight: of the possible routes (`BattleState::engulf_route`), the one
//!   whose covered foes it expects to engulf most (a helpless foe, or one
//!   that will attack instead of saving, counts 1; another its chance to
//!   fail the Reflex save), so two foes before one and the weakest save
//!   before a stronger one; ties: the shortest route, then row-major
//!   order. Engulfing is worth more than its slam (it cannot slam that
//!   round): an engulfed foe is out of the fight and meets its damage and
//!   paralysis every round.
//! - A creature with trample (an elephant) tramples when a straight route
//!   within its speed goes over foes able to fight and the damage it
//!   expects to deal them (`BattleState::trample_expected`: each foe's
//!   mean damage less what its save spares it) is at least what its
//!   attacks are worth this round: a full attack on its target when one
//!   reaches it from here, else its best single attack (a move and an
//!   attack). Of the routes, the one it expects most from; ties: the
//!   shortest, then row-major order.

use super::super::action::{Action, ActionKind};
use super::super::prepared::monster::Breath;
use super::super::prepared::monster::EngulfRoute;
use super::super::state::BattleState;
use crate::effects::{Context, Flags, Maneuver, SaveKind};
use crate::grid::{Access, Line, MoveMode, NEIGHBOURS, distance_ft, footprint_distance_ft, step_cost_as};
use crate::map::Pos;

/// Enemies a breath must catch when some enemy is already in reach.
pub(crate) const BREATH_MIN_ENEMIES: usize = 2;

/// The breath weapon's action, if the creature should breathe now; the
/// number of enemies it catches.
pub(super) fn plan_breath(battle: &BattleState<'_>, actor: usize, out: &mut Vec<Action>) -> Option<usize> {
    let b = battle.breath_ready(actor)?;
    let mut scratch = BreathScratch::default();
    let here = battle.pos(actor);
    let (aim, enemies) = best_aim(battle, actor, b, here, battle.altitude(actor), &mut scratch)?;
    let in_reach = (0..battle.len()).any(|e| {
        battle.are_enemies(actor, e) && battle.is_active(e) && battle.weapon_for(actor, e, here).is_ok()
    });
    let enough =
        enemies >= BREATH_MIN_ENEMIES.min(standing_enemies(battle, actor)) || (!in_reach && enemies >= 1);
    if !enough {
        return None;
    }
    out.push(Action::at(ActionKind::BreathWeapon, aim));
    Some(enemies)
}

/// Enemies of `actor` able to fight.
fn standing_enemies(battle: &BattleState<'_>, actor: usize) -> usize {
    (0..battle.len()).filter(|&e| battle.are_enemies(actor, e) && battle.is_active(e)).count()
}

/// Buffers reused while weighing aims.
#[derive(Default)]
struct BreathScratch {
    squares: Vec<Pos>,
    caught: Vec<usize>,
}

/// The aim (an enemy able to fight) of breath `b` breathed from `origin` at
/// altitude `alt` that catches the most enemies able to fight and no ally
/// able to fight, with that count. Ties: the first enemy in encounter order.
fn best_aim(
    battle: &BattleState<'_>,
    actor: usize,
    b: &Breath,
    origin: Pos,
    alt: u32,
    scratch: &mut BreathScratch,
) -> Option<(usize, usize)> {
    let mut best: Option<(usize, usize)> = None;
    for aim in (0..battle.len()).filter(|&e| battle.are_enemies(actor, e) && battle.is_active(e)) {
        if !battle.breath_squares_from(origin, b, battle.pos(aim), &mut scratch.squares) {
            continue;
        }
        battle.breath_caught_at(actor, alt, b, &scratch.squares, &mut scratch.caught);
        let mut enemies = 0;
        let mut ally = false;
        for &c in &scratch.caught {
            if !battle.is_active(c) {
                continue;
            }
            if battle.are_enemies(actor, c) {
                enemies += 1;
            } else {
                ally = true;
            }
        }
        if !ally && best.is_none_or(|(_, n)| enemies > n) {
            best = Some((aim, enemies));
        }
    }
    best.filter(|&(_, n)| n > 0)
}

/// Where a breather whose breath is ready should move this turn to breathe
/// from: the free square `cost` reaches this turn (`Some(feet)`) from
/// which its breath, at altitude `alt`, catches the most enemies able to
/// fight and none of its allies, if it catches more than `from_here` (what
/// it catches from where it is). Ties: the shortest move, then row-major
/// order. Returns the square and the aim.
pub(super) fn breath_position(
    battle: &BattleState<'_>,
    actor: usize,
    alt: u32,
    cost: impl Fn(Pos) -> Option<u32>,
    from_here: usize,
) -> Option<(Pos, usize)> {
    let b = battle.breath_ready(actor)?;
    let map = battle.map();
    let foes: Vec<Pos> = (0..battle.len())
        .filter(|&e| battle.are_enemies(actor, e) && battle.is_active(e))
        .map(|e| battle.pos(e))
        .collect();
    let k = (battle.move_budget(actor) / 5) as i32;
    let here = battle.pos(actor);
    let mut scratch = BreathScratch::default();
    let mut best: Option<((usize, std::cmp::Reverse<u32>), Pos, usize)> = None;
    for row in (here.row - k).max(0)..=(here.row + k).min(map.height - 1) {
        for col in (here.col - k).max(0)..=(here.col + k).min(map.width - 1) {
            let q = Pos::new(row, col);
            // Only squares within the breath's length of some enemy can catch one.
            if !foes.iter().any(|&f| distance_ft(q, f) <= b.range_ft)
                || !map.passable(q)
                || battle.access(actor, q) != Access::Open
            {
                continue;
            }
            let Some(feet) = cost(q) else { continue };
            let Some((aim, n)) = best_aim(battle, actor, b, q, alt, &mut scratch) else { continue };
            let key = (n, std::cmp::Reverse(feet));
            if n > from_here && best.as_ref().is_none_or(|(k, _, _)| key > *k) {
                best = Some((key, q, aim));
            }
        }
    }
    best.map(|(_, q, aim)| (q, aim))
}

/// The feet of `actor`'s straight move to `q` in `mode` (the Bresenham
/// line, every square passable for it), if within `budget`: the engine's
/// route to `q` costs no more.
pub(super) fn straight_move(
    battle: &BattleState<'_>,
    actor: usize,
    mode: MoveMode,
    q: Pos,
    budget: u32,
) -> Option<u32> {
    let map = battle.map();
    let (mut prev, mut parity, mut feet) = (battle.pos(actor), 0u8, 0u32);
    for p in Line::new(prev, q) {
        feet += step_cost_as(map, prev, p, parity, mode)?;
        if feet > budget || battle.access(actor, p) == Access::Blocked {
            return None;
        }
        parity ^= u8::from(p.row != prev.row && p.col != prev.col);
        prev = p;
    }
    Some(feet)
}

/// A breather on the ground, out of every enemy's reach, whose breath is
/// ready but catches too few from here: it walks straight (one move) to the
/// square from which its breath catches [`BREATH_MIN_ENEMIES`] (or every
/// enemy left) and breathes. A threatened breather does not walk away to
/// breathe (it would provoke); a staggered one has one action, not both.
pub(super) fn plan_breath_after_move(battle: &BattleState<'_>, actor: usize, out: &mut Vec<Action>) -> bool {
    if battle.breath_ready(actor).is_none()
        || battle.altitude(actor) != 0
        || battle.is_threatened(actor)
        || battle.flags(actor).has(Flags::CANT_MOVE)
        || battle.fighters[actor].turn.moved
        || battle.turn_limits(actor).staggered
    {
        return false;
    }
    let budget = battle.move_budget(actor);
    let walk = |q: Pos| straight_move(battle, actor, MoveMode::Ground, q, budget);
    let need = BREATH_MIN_ENEMIES.min(standing_enemies(battle, actor));
    let Some((q, aim)) = breath_position(battle, actor, 0, walk, need.saturating_sub(1)) else {
        return false;
    };
    out.push(Action::new(ActionKind::Move).with_destination(q));
    out.push(Action::at(ActionKind::BreathWeapon, aim));
    true
}

/// Plans `actor`'s smite on `t` (see the module's text).
pub(super) fn plan_smite(battle: &BattleState<'_>, actor: usize, t: usize, out: &mut Vec<Action>) {
    let Some(smite) = battle.smite_of(actor) else { return };
    // A paladin's smite has its own choice (`policy::paladin`).
    if battle.prep.fighters[actor].abilities.as_deref().is_some_and(|a| a.smite.is_some()) {
        return;
    }
    if battle.smites_left(actor) == 0
        || battle.smiting(actor).is_some_and(|f| !battle.fighters[f].dead)
        || battle.fighters[actor].turn.swift_used
        || !battle.smitable(actor, t)
        || !super::melee_this_turn(battle, actor, t, true)
    {
        return;
    }
    let hit = battle.prep.fighters[actor].best_melee_mean_damage();
    if f64::from(battle.hp(t)) > hit + f64::from(smite.damage) {
        out.push(Action::at(ActionKind::Smite, t));
    }
}

/// The least chance to dominate a foe worth a standard action (else the
/// creature fights as it otherwise would).
pub(crate) const DOMINATE_MIN_CHANCE: f64 = 0.25;

/// Plans `actor`'s dominate (see the module's text).
pub(super) fn plan_dominate(battle: &BattleState<'_>, actor: usize, out: &mut Vec<Action>) -> bool {
    let Some(d) = battle.prep.fighters[actor].monster.as_deref().and_then(|m| m.dominate.as_ref()) else {
        return false;
    };
    let can_move = !battle.fighters[actor].turn.moved && !battle.flags(actor).has(Flags::CANT_MOVE);
    let reach = d.range_ft + if can_move { battle.move_budget(actor) } else { 0 };
    // Ranked by chance (thousandths), then nearer, then earlier in the encounter.
    type Rank = (u32, std::cmp::Reverse<u32>, std::cmp::Reverse<usize>);
    let mut best: Option<(Rank, usize)> = None;
    for t in 0..battle.len() {
        let here = battle.dominable(actor, t);
        // A foe beyond range, but within range after one move.
        let after_move = !here
            && can_move
            && battle.are_enemies(actor, t)
            && battle.is_active(t)
            && battle.dominator(t).is_none()
            && !battle.is_swallowed(t)
            && battle.distance(actor, t) <= reach
            && (d.types.is_empty()
                || battle.prep.fighters[t].nature.ctype.is_some_and(|c| d.types.contains(&c)));
        if !here && !after_move {
            continue;
        }
        let chance = battle.dominate_chance(actor, t);
        if chance < DOMINATE_MIN_CHANCE {
            continue;
        }
        let key = (
            (chance * 1000.0).round() as u32,
            std::cmp::Reverse(battle.distance(actor, t)),
            std::cmp::Reverse(t),
        );
        if best.is_none_or(|(b, _)| key > b) {
            best = Some((key, t));
        }
    }
    let Some((_, t)) = best else { return false };
    if !battle.dominable(actor, t) {
        out.push(Action::at(ActionKind::Move, t));
    }
    out.push(Action::at(ActionKind::Dominate, t));
    true
}

/// Plans `actor`'s captivating song (see the module's text).
pub(super) fn plan_song(battle: &BattleState<'_>, actor: usize, out: &mut Vec<Action>) -> bool {
    if battle.prep.fighters[actor].monster.as_deref().is_none_or(|m| m.song.is_none()) {
        return false;
    }
    let here = battle.pos(actor);
    let (mut beside, mut walking) = (false, false);
    for c in (0..battle.len()).filter(|&c| battle.is_active(c) && battle.captor(c) == Some(actor)) {
        let below = footprint_distance_ft(battle.pos(c), battle.space(c), here, battle.space(actor)) <= 5;
        beside |= battle.weapon_for(actor, c, here).is_ok() || below;
        walking |= !below;
    }
    if beside {
        return false;
    }
    if walking || (0..battle.len()).any(|t| battle.hears_song(actor, t)) {
        // A flier that hovers safely sings from above every foe's melee reach.
        let safe = battle.out_of_reach_altitude(actor);
        if battle.fly_speed(actor) > 0
            && battle.hovers_safely(actor)
            && !battle.flags(actor).has(Flags::CANT_MOVE)
            && !battle.fighters[actor].turn.moved
            && !battle.is_threatened(actor)
            && battle.altitude(actor) < safe
        {
            out.push(Action::new(ActionKind::Move).with_destination(here).with_altitude(safe));
        }
        out.push(Action::new(ActionKind::Sing));
        return true;
    }
    false
}

/// The target of a creature with special abilities: the closest helpless
/// enemy (or captive of its song) it can reach this turn, else `nearest`.
pub(super) fn target(battle: &BattleState<'_>, actor: usize, nearest: usize) -> usize {
    let defenseless = |e: usize| battle.is_helpless(e) || battle.captor(e) == Some(actor);
    if defenseless(nearest) {
        return nearest;
    }
    let here = battle.pos(actor);
    let speed = battle.prep.fighters[actor].speed_ft;
    (0..battle.len())
        .filter(|&e| {
            battle.are_enemies(actor, e) && battle.is_active(e) && defenseless(e) && !battle.is_swallowed(e)
        })
        .filter(|&e| battle.weapon_for(actor, e, here).is_ok() || battle.distance(actor, e) <= speed)
        .min_by_key(|&e| (battle.distance(actor, e), e))
        .unwrap_or(nearest)
}

/// A 5-foot step from which more attacks of `actor`'s natural routine reach
/// `t` than from here (each entry counted `count` times), if one exists and
/// some already reach from here. Fliers aloft do not step.
pub(super) fn fuller_step(battle: &BattleState<'_>, actor: usize, t: usize) -> Option<Pos> {
    let spec = &battle.prep.fighters[actor];
    if spec.offense.natural_mask.count_ones() < 2 || battle.altitude(actor) != 0 {
        return None;
    }
    let natural =
        || (0..spec.offense.attacks.len().min(64)).filter(|&w| spec.offense.natural_mask >> w & 1 == 1);
    let reaching = |q: Pos| -> u32 {
        natural()
            .filter(|&w| battle.weapon_reaches(actor, w, t, q))
            .map(|w| spec.offense.attacks[w].count.max(1))
            .sum()
    };
    let from = battle.pos(actor);
    let here = reaching(from);
    let all: u32 = natural().map(|w| spec.offense.attacks[w].count.max(1)).sum();
    if here == 0 || here == all {
        return None;
    }
    let mut best: Option<(Pos, u32)> = None;
    for &(dr, dc) in &NEIGHBOURS {
        let q = Pos::new(from.row + dr, from.col + dc);
        if !battle.can_step(actor, q) {
            continue;
        }
        let n = reaching(q);
        if n > best.map_or(here, |(_, b)| b) {
            best = Some((q, n));
        }
    }
    best.map(|(q, _)| q)
}

/// Plans `actor`'s grapple of its own on `t` (see the module's text).
pub(super) fn plan_grapple(battle: &BattleState<'_>, actor: usize, t: usize, out: &mut Vec<Action>) -> bool {
    let own =
        battle.prep.fighters[actor].monster.as_deref().and_then(|m| m.hold.as_ref()).is_some_and(|h| h.own);
    if !own
        || (0..battle.len()).any(|j| battle.fighters[j].grappled_with == Some(actor))
        || battle.fighters[actor].monster.held_round == battle.round
        || battle.fighters[t].grappled_with.is_some()
        || battle.is_swallowed(t)
        || battle.size(t) as u8 > battle.size(actor) as u8 + 1
        || !battle.grapple_pays(actor, t)
    {
        return false;
    }
    let here = battle.pos(actor);
    let grapple = Action::maneuver(Maneuver::Grapple, t);
    if battle.weapon_for(actor, t, here).is_ok_and(|w| battle.prep.fighters[actor].offense.attacks[w].melee) {
        out.push(grapple);
    } else if let Some(q) = battle.step_to_attack(actor, t) {
        out.push(Action::at(ActionKind::FiveFootStep, t).with_destination(q));
        out.push(grapple);
    } else if !battle.fighters[actor].turn.moved
        && !battle.flags(actor).has(Flags::CANT_MOVE)
        && battle.distance(actor, t) <= battle.move_budget(actor) + 5
    {
        out.push(Action::at(ActionKind::Move, t));
        out.push(grapple);
    } else {
        return false;
    }
    true
}

/// Plans `actor`'s engulf (see the module's text).
pub(super) fn plan_engulf(battle: &BattleState<'_>, actor: usize, out: &mut Vec<Action>) -> bool {
    let Some(e) = battle.prep.fighters[actor].monster.as_deref().and_then(|m| m.engulf.as_ref()) else {
        return false;
    };
    if battle.altitude(actor) != 0
        || battle.flags(actor).has(Flags::CANT_MOVE)
        || battle.fighters[actor].turn.stepped
    {
        return false;
    }
    let worth = |t: usize| engulf_chance(battle, actor, t, e.dc);
    let Some((_, q)) = best_route(battle, actor, |q, r| battle.engulf_route(actor, q, r), worth) else {
        return false;
    };
    out.push(Action::new(ActionKind::Engulf).with_destination(q));
    true
}

/// The chance that `t`, covered by `actor`'s engulf of save DC `dc`, is
/// engulfed: 1 when helpless or when it will attack instead of saving,
/// else its chance to fail the Reflex save (a natural 1 fails, a natural 20 succeeds).
pub(crate) fn engulf_chance(battle: &BattleState<'_>, actor: usize, t: usize, dc: i32) -> f64 {
    if battle.is_helpless(t) || battle.engulf_attacks(actor, t, dc) {
        return 1.0;
    }
    let ctx = Context { other_alignment: battle.prep.fighters[actor].nature.alignment, ..Context::default() };
    let bonus = battle.save_bonus(t, SaveKind::Ref, &ctx);
    (f64::from(dc - bonus - 1) / 20.0).clamp(0.05, 0.95)
}

/// The best destination of a move over creatures (an engulf, a trample)
/// within `actor`'s move: of the squares `route` reaches (filling the
/// route, with its feet), the one whose foes able to fight are worth most
/// in sum (`worth` of each, in thousandths), more than 0; ties: the
/// shortest route, then row-major order. Returns that sum and the square.
fn best_route(
    battle: &BattleState<'_>,
    actor: usize,
    route: impl Fn(Pos, &mut EngulfRoute) -> Option<u32>,
    worth: impl Fn(usize) -> f64,
) -> Option<(f64, Pos)> {
    let map = battle.map();
    let k = (battle.move_budget(actor) / 5) as i32;
    let here = battle.pos(actor);
    let mut r = EngulfRoute::default();
    let mut best: Option<((u32, std::cmp::Reverse<u32>), Pos)> = None;
    for row in (here.row - k).max(0)..=(here.row + k).min(map.height - 1) {
        for col in (here.col - k).max(0)..=(here.col + k).min(map.width - 1) {
            let q = Pos::new(row, col);
            let Some(feet) = route(q, &mut r) else { continue };
            let sum: f64 = r.over.iter().filter(|&&c| battle.is_active(c)).map(|&c| worth(c)).sum();
            let key = ((sum * 1000.0).round() as u32, std::cmp::Reverse(feet));
            if key.0 > 0 && best.is_none_or(|(b, _)| key > b) {
                best = Some((key, q));
            }
        }
    }
    best.map(|((sum, _), q)| (f64::from(sum) / 1000.0, q))
}

/// Plans `actor`'s trample (see the module's text); `t` is its target.
pub(super) fn plan_trample(battle: &BattleState<'_>, actor: usize, t: usize, out: &mut Vec<Action>) -> bool {
    if battle.prep.fighters[actor].monster.as_deref().and_then(|m| m.trample.as_ref()).is_none()
        || battle.altitude(actor) != 0
        || battle.flags(actor).has(Flags::CANT_MOVE)
        || battle.fighters[actor].turn.stepped
        || battle.fighters[actor].turn.moved
    {
        return false;
    }
    let here = battle.pos(actor);
    let worth = |c: usize| battle.trample_expected(actor, c);
    let Some((expected, q)) = best_route(battle, actor, |q, r| battle.trample_route(actor, q, r), worth)
    else {
        return false;
    };
    let attacks = if battle.weapon_for(actor, t, here).is_ok() {
        battle.attack_worth(actor, t)
    } else {
        best_single_attack(battle, actor, t)
    };
    if expected < attacks {
        return false;
    }
    out.push(Action::new(ActionKind::Trample).with_destination(q));
    true
}

/// Hit points `actor`'s best single melee attack is worth against `t`
/// (its chance to hit times its mean damage).
fn best_single_attack(battle: &BattleState<'_>, actor: usize, t: usize) -> f64 {
    let attacks = &battle.prep.fighters[actor].offense.attacks;
    (0..attacks.len())
        .filter(|&w| attacks[w].melee && battle.is_usable(actor, w))
        .map(|w| {
            let s = battle.situation(actor, w, t, super::super::odds::Swing::default());
            super::super::odds::hit_chance(s.attack, s.ac) * attacks[w].mean_damage
        })
        .fold(0.0, f64::max)
}
