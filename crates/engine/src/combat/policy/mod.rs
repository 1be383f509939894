//! Policies decide what a combatant does on its turn; the default policy.

use std::sync::Arc;

use crate::effects::{ConditionId, Flags, Maneuver};
use crate::encounter::Encounter;
use crate::grid::{Access, Pathfinder, distance_ft};
use crate::map::Pos;
use crate::strategy::{ManeuverUse, PowerAttackUse, StrategySpec, TargetPriority};

use super::action::{Action, ActionKind};
use super::decide::{Policy, ReactionEvent, Reactions};
use super::odds::Swing;
use super::prepared::PreparedEncounter;
use super::state::{BattleState, LifeState};
#[cfg(test)]
pub(crate) use monster::engulf_chance;

mod alchemist;
mod areas;
mod barbarian;
mod bonds;
mod cast_from;
mod cavalier;
mod construct;
mod consumables;
mod coup;
mod dispel;
mod domain;
mod escape;
mod flank;
mod flight;
mod fragile;
mod futile;
mod globe;
mod hand;
mod harmless;
mod heal;
mod magic;
mod martial;
mod monk;
mod monster;
mod mounted;
mod paladin;
mod ranged;
mod ranger;
mod recipient;
mod reload;
mod spare;
mod splash;
mod strike_back;
mod true_strike;
mod worth;

use magic::{Magic, has_magic, plan_magic};

/// The default tactics: close in on the nearest enemy and hit it.
///
/// Target: the nearest enemy able to fight (5-10-5 distance, ties by
/// encounter order). A creature that must flee (frightened, panicked)
/// withdraws. A prone one stands up first, one whose weapon lies on the
/// ground picks it up, one whose weapon was sundered repairs it. With the
/// Power Attack feat it declares it when that raises its expected damage
/// against the target. Then the first that applies: a full attack when a
/// weapon reaches it from here; a charge when a clear straight line exists;
/// a 5-foot step and a full attack when one step suffices; otherwise a move
/// toward the closest square from which to attack, and an attack. A disabled
/// combatant does not charge (it cannot take full-round actions). A
/// creature with played special abilities breathes and picks helpless
/// victims first (`policy::monster`). One that starts its turn inside a
/// harmful lasting area moves out of it first (`policy::areas`).
#[derive(Clone, Copy, Debug, Default)]
pub struct DefaultPolicy;

impl Policy for DefaultPolicy {
    fn plan(&mut self, battle: &BattleState<'_>, actor: usize, out: &mut Vec<Action>) {
        let way_out = areas::way_out(battle, actor);
        plan_default(battle, actor, out);
        // Out of a harmful lasting area first (`policy::areas`).
        if let Some(way) = way_out {
            areas::leave(battle, actor, way, out);
        }
        // An idle spiritual weapon is redirected with a spare move action.
        if !battle.constructs.is_empty() {
            construct::plan_redirect(battle, actor, out);
        }
        // A ranger's hunter's bond takes a spare move action, or a full attack worth less.
        if battle.prep.fighters[actor].abilities.is_some() {
            ranger::plan_bond(battle, actor, out);
        }
        // Copycat takes the move action the planned turn leaves unused.
        if battle.prep.fighters[actor].abilities.is_some() {
            domain::plan_copycat(battle, actor, out);
        }
    }
}

/// The default policy's turn (`DefaultPolicy`), copycat aside.
fn plan_default(battle: &BattleState<'_>, actor: usize, out: &mut Vec<Action>) {
    {
        let Some(mut t) = battle.nearest_enemy(actor) else { return };
        if plan_escape_pin(battle, actor, out) {
            return;
        }
        if mounted::plan_mount(battle, actor, out) {
            return;
        }
        t = mounted::target(battle, t);
        let abilities = battle.prep.fighters[actor].abilities.is_some();
        if coup::plan(battle, actor, out)
            || (abilities && domain::plan_rebuke(battle, actor, true, out))
            || alchemist::plan_extract_heal(battle, actor, Magic::DEFAULT, out)
            || consumables::plan(battle, actor, out)
            || bonds::plan(battle, actor, t, out)
        {
            return;
        }
        if abilities
            && (paladin::plan_channel(battle, actor, t, out)
                || paladin::plan_aid(battle, actor, out)
                || domain::plan_rebuke(battle, actor, false, out)
                || paladin::plan_mercy(battle, actor, out))
        {
            return;
        }
        if flight::plan_from_above(battle, actor, t, out) {
            return;
        }
        if battle.prep.fighters[actor].monster.is_some() {
            if monster::plan_breath(battle, actor, out).is_some()
                || monster::plan_breath_after_move(battle, actor, out)
                || monster::plan_song(battle, actor, out)
                || monster::plan_dominate(battle, actor, out)
                || monster::plan_engulf(battle, actor, out)
            {
                return;
            }
            t = monster::target(battle, actor, t);
            if monster::plan_trample(battle, actor, t, out) || bonds::plan_throw(battle, actor, t, out) {
                return;
            }
        }
        if (abilities && alchemist::plan_mutagen(battle, actor, out))
            || alchemist::plan_extract_buff(battle, actor, t, Magic::DEFAULT, out)
        {
            return;
        }
        if has_magic(battle, actor) && plan_magic(battle, actor, t, Magic::DEFAULT, out) {
            return;
        }
        if battle.prep.fighters[actor].monster.is_some() && monster::plan_grapple(battle, actor, t, out) {
            return;
        }
        if fragile::plan(battle, actor, out) {
            return;
        }
        let t = flight::reachable_target(battle, actor, harmable_target(battle, actor, t));
        let t = areas::reachable_foe(battle, actor, t);
        if (abilities && paladin::plan_harm(battle, actor, t, out))
            || harmless::plan(battle, actor, t, out)
            || splash::plan(battle, actor, t, out)
            // A bomb at a foe beside the thrower: step back first when it can.
            || (splash::throws_splash(battle, actor, t)
                && ranged::step_out(battle, actor, t).is_none()
                && splash::plan_guard(battle, actor, t, out))
            || reload::plan_reload(battle, actor, t, out)
            || flight::plan_below(battle, actor, t, out)
            || areas::plan_wait(battle, actor, t, out)
            || flight::plan_climb(battle, actor, t, out)
        {
            return;
        }
        let t = class_features(battle, actor, t, out);
        monster::plan_smite(battle, actor, t, out);
        if ranged::plan_step_out(battle, actor, t, out) {
            // Rapid Shot, Deadly Aim: the step's full attack declares them too.
            martial::declare(battle, actor, t, out);
        } else if !(out.is_empty() && ranged::plan(battle, actor, t, out)) {
            plan_turn(battle, actor, t, Tactics::DEFAULT, out);
        }
        reload::fire_and_reload(battle, actor, out);
        flight::dive(battle, actor, out);
    }
}

/// A pinned creature tries to escape (CRB "Pinned": it "can always attempt
/// to free itself"; nothing else but verbal and mental actions is left to it).
fn plan_escape_pin(battle: &BattleState<'_>, actor: usize, out: &mut Vec<Action>) -> bool {
    let f = &battle.fighters[actor];
    if f.grappled_with.is_none() || !f.conds.has(ConditionId::Pinned) {
        return false;
    }
    out.push(Action::maneuver(Maneuver::Escape, actor));
    true
}

/// The class features played before the attack ladder: a barbarian's rage
/// (`policy::barbarian`), a paladin's lay on hands on itself and smite evil
/// (`policy::paladin`). Returns the foe to fight (a smite may choose it).
fn class_features(battle: &BattleState<'_>, actor: usize, t: usize, out: &mut Vec<Action>) -> usize {
    if battle.prep.fighters[actor].abilities.is_none() {
        return t;
    }
    barbarian::plan(battle, actor, out);
    paladin::plan(battle, actor, t, out)
}

/// `t`, unless none of `actor`'s attacks is of use against it (a
/// nonmagical weapon against an incorporeal foe, a bolt that damage
/// reduction swallows, an attack that hits only on a natural 20:
/// `policy::futile`) while one is against another foe: then the nearest
/// such foe; when none is, the nearest foe one of its weapons can hurt at
/// all, else `t`. A table does not swing for no damage.
fn harmable_target(battle: &BattleState<'_>, actor: usize, t: usize) -> usize {
    let attacks = battle.prep.fighters[actor].offense.attacks.len();
    if attacks == 0 || futile::any_useful(battle, actor, t) {
        return t;
    }
    let foes = || {
        (0..battle.len())
            .filter(|&e| battle.are_enemies(actor, e) && battle.is_active(e) && !battle.is_swallowed(e))
    };
    let harms =
        |e: usize| (0..attacks).any(|w| battle.is_usable(actor, w) && battle.weapon_harms(actor, w, e));
    foes()
        .filter(|&e| futile::any_useful(battle, actor, e))
        .min_by_key(|&e| (battle.distance(actor, e), e))
        .or_else(|| {
            if harms(t) {
                return None;
            }
            foes().filter(|&e| harms(e)).min_by_key(|&e| (battle.distance(actor, e), e))
        })
        .unwrap_or(t)
}

/// The choices of the attack ladder a strategy can change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Tactics {
    charges: bool,
    power_attack: PowerAttackUse,
    maneuver: ManeuverUse,
    /// Class abilities joined to the attack (a monk's ki and Stunning Fist).
    abilities: bool,
}

impl Tactics {
    const DEFAULT: Tactics = Tactics {
        charges: true,
        power_attack: PowerAttackUse::Auto,
        maneuver: ManeuverUse::None,
        abilities: true,
    };
}

/// A turn against target `t`: fleeing when a condition says so, standing up,
/// recovering a weapon, Power Attack, a maneuver, then the attack ladder.
fn plan_turn(battle: &BattleState<'_>, actor: usize, t: usize, tactics: Tactics, out: &mut Vec<Action>) {
    let f = &battle.fighters[actor];
    let flags = f.summary.flags;
    if flags.0 != 0 && flags.has(Flags::MUST_FLEE) {
        if flags.has(Flags::CANT_MOVE) {
            if flags.has(Flags::NO_ATTACK) {
                out.push(Action::new(ActionKind::TotalDefense));
                return;
            }
        } else {
            out.push(Action::new(ActionKind::Withdraw));
            return;
        }
    }
    if f.conds.has(ConditionId::Prone) {
        out.push(Action::new(ActionKind::StandUp));
        after_move_action(battle, actor, t, out);
        return;
    }
    let sundered = || f.gear.wear.iter().any(|&d| d >= super::state::WEAPON_DURABILITY);
    if f.gear.dropped != 0 || (f.gear.broken != 0 && sundered()) {
        let kind = if f.gear.dropped != 0 { ActionKind::RetrieveWeapon } else { ActionKind::RepairWeapon };
        out.push(Action::new(kind));
        out.push(Action::at(ActionKind::Attack, t));
        return;
    }
    let spec = &battle.prep.fighters[actor];
    if spec.feats.power_attack && melee_this_turn(battle, actor, t, tactics.charges) {
        let declare = match tactics.power_attack {
            PowerAttackUse::Never => false,
            PowerAttackUse::Always => true,
            PowerAttackUse::Auto => battle.power_attack_pays(actor, t),
        };
        if declare {
            out.push(Action::new(ActionKind::PowerAttack));
        }
    }
    if tactics.maneuver != ManeuverUse::None
        && let Some(m) = maneuver_worth_it(battle, actor, t, tactics.maneuver)
    {
        out.push(Action::maneuver(m, t));
        return;
    }
    strike(battle, actor, t, tactics.charges, out);
    martial::declare(battle, actor, t, out);
    if tactics.abilities && spec.abilities.is_some() {
        monk::declare(battle, actor, t, out);
    }
}

/// Whether the attack ladder will strike `t` in melee this turn: a melee
/// attack reaches it from here, or it will charge.
fn melee_this_turn(battle: &BattleState<'_>, actor: usize, t: usize, charges: bool) -> bool {
    match battle.weapon_for(actor, t, battle.pos(actor)) {
        Ok(w) => battle.prep.fighters[actor].offense.attacks[w].melee,
        Err(_) => {
            charges
                && battle.life(actor) != LifeState::Disabled
                && !battle.flags(actor).has(Flags::NO_RUN_CHARGE)
                && battle.charge_end(actor, t).is_ok_and(|(q, _)| !battle.charge_enters_shunned(actor, q))
        }
    }
}

/// After a move action (standing up): an attack when the target is in reach
/// (with a 5-foot step if one suffices), else a second move toward it.
fn after_move_action(battle: &BattleState<'_>, actor: usize, t: usize, out: &mut Vec<Action>) {
    if battle.weapon_for(actor, t, battle.pos(actor)).is_ok() {
        out.push(Action::at(ActionKind::Attack, t));
    } else if let Some(q) = battle.step_to_attack(actor, t) {
        out.push(Action::at(ActionKind::FiveFootStep, t).with_destination(q));
        out.push(Action::at(ActionKind::Attack, t));
    } else {
        out.push(Action::at(ActionKind::Move, t));
    }
}

/// The maneuver to try on `t` instead of attacking, if any: one the lever
/// allows, legal against `t` from here, whose chance of success is at least
/// the chance to hit with the attack `actor` would make.
fn maneuver_worth_it(
    battle: &BattleState<'_>,
    actor: usize,
    t: usize,
    lever: ManeuverUse,
) -> Option<Maneuver> {
    let here = battle.pos(actor);
    let w = battle.weapon_for(actor, t, here).ok()?;
    if !battle.prep.fighters[actor].offense.attacks[w].melee {
        return None;
    }
    let s = battle.situation(actor, w, t, Swing::default());
    let hit = super::odds::hit_chance(s.attack, s.ac);
    let candidates: &[Maneuver] = match lever {
        ManeuverUse::None => &[],
        ManeuverUse::Trip => &[Maneuver::Trip],
        ManeuverUse::Disarm => &[Maneuver::Disarm],
        ManeuverUse::Auto => &[Maneuver::Trip, Maneuver::Disarm],
    };
    candidates
        .iter()
        .copied()
        .filter(|&m| match m {
            Maneuver::Trip => !battle.is_prone(t) && (battle.size(t) as u8) < battle.size(actor) as u8 + 2,
            Maneuver::Disarm => battle.held_weapon(t).is_some(),
            _ => false,
        })
        .map(|m| (m, super::odds::hit_chance(battle.cmb(actor, m, t), battle.cmd(t, m, actor))))
        .filter(|&(_, p)| p >= hit)
        // The best chance; on a tie the first listed (trip before disarm).
        .fold(
            None,
            |best: Option<(Maneuver, f64)>, x| if best.is_none_or(|b| x.1 > b.1) { Some(x) } else { best },
        )
        .map(|(m, _)| m)
}

/// The default policy's attack ladder against target `t`; the charge rung
/// only when `charges` (and the creature may charge).
fn strike(battle: &BattleState<'_>, actor: usize, t: usize, charges: bool, out: &mut Vec<Action>) {
    let may_charge = charges
        && battle.life(actor) != LifeState::Disabled
        && !battle.flags(actor).has(Flags::NO_RUN_CHARGE);
    if battle.weapon_for(actor, t, battle.pos(actor)).is_ok() {
        // A bite reaching 10 ft while the claws reach 5: step in first;
        // else a step to the far side of the foe from an ally (+2 a blow).
        if let Some(q) =
            monster::fuller_step(battle, actor, t).or_else(|| flank::flank_step(battle, actor, t))
        {
            out.push(Action::at(ActionKind::FiveFootStep, t).with_destination(q));
        }
        out.push(Action::at(ActionKind::FullAttack, t));
    } else if battle.step_to_attack(actor, t).is_none()
        && !(may_charge && battle.prep.fighters[actor].monster.as_deref().is_some_and(|m| m.pounce))
        && let Some(q) = flank::flank_square(battle, actor, t)
    {
        // A move that ends flanking with an ally: +2 on the attack (+4 with
        // Outflank on both), as good as a charge's +2 without its −2 AC, and
        // the ally gains it too; a pouncer's charge (every attack) is worth more.
        out.push(Action::at(ActionKind::Move, t).with_destination(q));
        out.push(Action::at(ActionKind::Attack, t));
    } else if may_charge
        && battle.charge_end(actor, t).is_ok_and(|(q, _)| !battle.charge_enters_shunned(actor, q))
    {
        out.push(Action::at(ActionKind::Charge, t));
    } else if let Some(q) = battle.step_to_attack(actor, t) {
        out.push(Action::at(ActionKind::FiveFootStep, t).with_destination(q));
        out.push(Action::at(ActionKind::FullAttack, t));
    } else {
        out.push(Action::at(ActionKind::Move, t));
        // An attack after a move that cannot end within reach is lost: a
        // table moves twice instead (PRD, "Move Actions": a double move).
        // A move of B feet shortens the distance by at most B (movement and
        // distance share the 5-10-5 metric), so this never gives up an
        // attack one move could reach; walls may still make the move fall
        // short, and then the attack fails as before.
        let longest = battle.longest_reach(actor);
        // A disabled creature has one action a turn: it moves, or attacks.
        let far = battle.life(actor) != LifeState::Disabled
            && longest.is_some_and(|r| battle.distance(actor, t) > battle.move_budget(actor) + r);
        // A rider with a lance keeps its distance for next round's mounted
        // charge (CRB "Mounted Combat": double damage with a lance): it moves
        // once and guards rather than closing to where no charge lane is left.
        let lance =
            || (0..battle.prep.fighters[actor].offense.attacks.len()).any(|w| battle.is_lance(actor, w));
        if far && battle.riding(actor).is_some() && lance() {
            out.push(Action::new(ActionKind::TotalDefense));
        } else {
            out.push(Action::at(if far { ActionKind::Move } else { ActionKind::Attack }, t));
        }
    }
}

/// What a strategy needs to know of each combatant that the battle state
/// does not expose: armor class and whether it casts spells. Rows of
/// summoned creatures (beyond the encounter's combatants) are read from the
/// battle state.
#[derive(Clone, Debug, Default)]
pub struct Roster {
    ac: Vec<i32>,
    caster: Vec<bool>,
}

impl Roster {
    /// The roster of an encounter, in combatant order.
    pub fn new(encounter: &Encounter) -> Self {
        Self {
            ac: encounter.combatants.iter().map(|d| d.spec.ac.total).collect(),
            caster: encounter.combatants.iter().map(|d| !d.spec.spells.is_empty()).collect(),
        }
    }

    /// The roster of a prepared encounter: the same figures, read from its
    /// fighters (a day's fights keep only their prepared form).
    pub fn of_prepared(prepared: &PreparedEncounter) -> Self {
        let deployed = &prepared.fighters[..prepared.deployed];
        Self {
            ac: deployed.iter().map(|f| f.defense.ac.total).collect(),
            caster: deployed.iter().map(|f| f.caster.as_ref().is_some_and(|c| !c.known.is_empty())).collect(),
        }
    }
}

/// A policy compiled from a [`StrategySpec`].
///
/// The all-default spec plays exactly as [`DefaultPolicy`]. Otherwise: the
/// target is chosen by the spec's priority among enemies able to fight
/// (ties: fewer hit points, then encounter order); below the retreat
/// threshold, or once its side is routed (`routed`), a combatant heads for
/// the nearest reachable exit and leaves the battle (`toward_exit`); with no
/// exit in reach, one below the threshold that can get farther from every
/// enemy withdraws (the engine picks the square farthest from the nearest
/// enemy); without
/// charges the ladder skips the charge; `power_attack` and `maneuver` choose
/// when to declare Power Attack and which maneuver to try instead of
/// attacking. Spell policy and class abilities are inert until the engine
/// plays spells and class abilities.
#[derive(Clone, Debug)]
pub struct StrategyPolicy {
    spec: StrategySpec,
    roster: Arc<Roster>,
    pf: Option<Pathfinder>,
}

impl StrategyPolicy {
    /// The policy of `spec` for the combatants of `roster`.
    pub fn new(spec: StrategySpec, roster: Arc<Roster>) -> Self {
        Self { spec, roster, pf: None }
    }

    fn target(&self, b: &BattleState<'_>, actor: usize) -> Option<usize> {
        let caster = |j: usize| b.prep.fighters[j].caster.is_some();
        let focus = self.spec.focus_casters
            && (0..b.len()).any(|j| b.are_enemies(actor, j) && b.is_active(j) && caster(j));
        let enemies = (0..b.len()).filter(|&j| {
            b.are_enemies(actor, j) && b.is_active(j) && !b.is_swallowed(j) && (!focus || caster(j))
        });
        let ac = |j: usize| self.roster.ac.get(j).copied().unwrap_or(0);
        match self.spec.target {
            TargetPriority::Nearest if !focus => b.nearest_enemy(actor),
            TargetPriority::Nearest => enemies.min_by_key(|&j| (b.distance(actor, j), j)),
            TargetPriority::WeakestAc => {
                let ac =
                    |j: usize| self.roster.ac.get(j).copied().unwrap_or(b.prep.fighters[j].defense.ac.total);
                enemies.min_by_key(|&j| (ac(j), b.hp(j), j))
            }
            TargetPriority::LowestHp => enemies.min_by_key(|&j| (b.hp(j), j)),
            TargetPriority::Healer => {
                let caster = |j: usize| self.roster.caster.get(j).copied().unwrap_or(false);
                enemies.min_by_key(|&j| (!caster(j), ac(j), b.hp(j), j))
            }
        }
    }

    /// Where `actor` retreats to: the reachable square (one move) farthest
    /// from its nearest enemy, if farther than where it stands.
    fn retreat_square(&mut self, b: &BattleState<'_>, actor: usize) -> Option<Pos> {
        let map = b.map();
        let nearest = |p: Pos| {
            (0..b.len())
                .filter(|&j| b.are_enemies(actor, j) && b.is_active(j))
                .map(|j| distance_ft(p, b.pos(j)))
                .min()
                .unwrap_or(u32::MAX)
        };
        let start = b.pos(actor);
        let budget = b.move_budget(actor);
        let pf = self.pf.get_or_insert_with(|| b.prepared().pathfinder.clone());
        pf.run(map, start, Some(budget), &|p| b.access(actor, p));
        let mut best: Option<((u32, std::cmp::Reverse<u32>), Pos)> = None;
        for row in 0..map.height {
            for col in 0..map.width {
                let q = Pos::new(row, col);
                let Some(cost) = pf.cost(q) else { continue };
                if cost > budget || b.access(actor, q) != Access::Open {
                    continue;
                }
                let key = (nearest(q), std::cmp::Reverse(cost));
                if best.is_none_or(|(k, _)| key > k) {
                    best = Some((key, q));
                }
            }
        }
        best.filter(|((d, _), q)| *d > nearest(start) && *q != start).map(|(_, q)| q)
    }
}

impl StrategyPolicy {
    /// The way out of `actor` (`docs/rules/movement.md`, "Leaving the
    /// battle"): on an exit square, leave by a withdraw (no attack of
    /// opportunity); within a withdraw of the nearest reachable exit (by path
    /// cost, then row-major), withdraw there and leave; farther, withdraw
    /// along the path toward it. `None` when no exit can be reached.
    fn toward_exit(&mut self, b: &BattleState<'_>, actor: usize) -> Option<Action> {
        let start = b.pos(actor);
        let to = |kind: ActionKind, d: Pos| Action { destination: Some(d), ..Action::new(kind) };
        if b.is_exit_for(actor, start) {
            return Some(to(ActionKind::LeaveBattle, start));
        }
        let map = b.map();
        let pf = self.pf.get_or_insert_with(|| b.prepared().pathfinder.clone());
        pf.run(map, start, None, &|p| b.access(actor, p));
        let mut exit: Option<(u32, Pos)> = None;
        for row in 0..map.height {
            for col in 0..map.width {
                let q = Pos::new(row, col);
                let Some(cost) = pf.cost(q) else { continue };
                if exit.is_some_and(|(c, _)| c <= cost)
                    || b.access(actor, q) != Access::Open
                    || !b.is_exit_for(actor, q)
                {
                    continue;
                }
                exit = Some((cost, q));
            }
        }
        let (cost, exit) = exit?;
        let speed = b.speed(actor);
        let budget = if b.turn_limits(actor).staggered { speed } else { 2 * speed };
        if cost + 5 <= budget {
            return Some(to(ActionKind::LeaveBattle, exit));
        }
        let mut path = Vec::new();
        pf.path_to(exit, &mut path);
        let stop = path
            .iter()
            .rev()
            .find(|&&p| pf.cost(p).is_some_and(|c| c <= budget) && b.access(actor, p) == Access::Open)?;
        Some(to(ActionKind::Withdraw, *stop))
    }
}

/// Whether `actor`'s side is routed under a retreat threshold of
/// `retreat_milli` thousandths: the hit points of its members still able to
/// fight are below that share of the side's maximum (members down, dead or
/// gone count 0; summoned creatures do not count).
fn routed(b: &BattleState<'_>, actor: usize, retreat_milli: u16) -> bool {
    let side = b.side(actor);
    let (mut standing, mut max) = (0i64, 0i64);
    for j in (0..b.prep.deployed).filter(|&j| b.side(j) == side) {
        max += i64::from(b.hp_max(j));
        if b.is_active(j) {
            standing += i64::from(b.hp(j).max(0));
        }
    }
    standing * 1000 < i64::from(retreat_milli) * max
}

impl Policy for StrategyPolicy {
    fn plan(&mut self, battle: &BattleState<'_>, actor: usize, out: &mut Vec<Action>) {
        if self.spec.is_default() {
            return DefaultPolicy.plan(battle, actor, out);
        }
        let way_out = areas::way_out(battle, actor);
        self.plan_spec(battle, actor, out);
        // Out of a harmful lasting area first (`policy::areas`).
        if let Some(way) = way_out {
            areas::leave(battle, actor, way, out);
        }
    }
}

impl StrategyPolicy {
    /// The turn of a spec other than the default one, a harmful lasting
    /// area aside.
    fn plan_spec(&mut self, battle: &BattleState<'_>, actor: usize, out: &mut Vec<Action>) {
        let Some(t) = self.target(battle, actor) else { return };
        if plan_escape_pin(battle, actor, out) {
            return;
        }
        if mounted::plan_mount(battle, actor, out) {
            return;
        }
        if self.spec.retreat_milli > 0 {
            let hp = i64::from(battle.hp(actor));
            let threshold = i64::from(self.spec.retreat_milli) * i64::from(battle.hp_max(actor));
            let below = hp * 1000 < threshold;
            // Below the threshold, or the side routed: head for the nearest exit and leave.
            if (below || routed(battle, actor, self.spec.retreat_milli))
                && let Some(leave) = self.toward_exit(battle, actor)
            {
                out.push(leave);
                return;
            }
            if below && self.retreat_square(battle, actor).is_some() {
                // No way out: retreat by withdrawing (CRB "Withdraw"): up to
                // twice the speed away from the nearest enemy, and leaving the
                // first square does not provoke; the engine picks the farthest
                // square itself.
                out.push(Action::new(ActionKind::Withdraw));
                return;
            }
        }
        let abilities = self.spec.use_class_abilities && battle.prep.fighters[actor].abilities.is_some();
        let items = !self.spec.save_consumables;
        // An alchemist's healing extract before a potion (`policy::alchemist`).
        let spells = Magic { spells: self.spec.spell_policy, ..Magic::DEFAULT };
        if coup::plan(battle, actor, out)
            || (abilities && domain::plan_rebuke(battle, actor, true, out))
            || alchemist::plan_extract_heal(battle, actor, spells, out)
            || (items && consumables::plan(battle, actor, out))
            || bonds::plan(battle, actor, t, out)
        {
            return;
        }
        if abilities
            && (paladin::plan_channel(battle, actor, t, out)
                || paladin::plan_aid(battle, actor, out)
                || domain::plan_rebuke(battle, actor, false, out)
                || paladin::plan_mercy(battle, actor, out))
        {
            return;
        }
        let tactics = Tactics {
            charges: self.spec.use_charges,
            power_attack: self.spec.power_attack,
            maneuver: self.spec.maneuver,
            abilities: self.spec.use_class_abilities,
        };
        let magic = Magic {
            spells: self.spec.spell_policy,
            abilities: self.spec.use_class_abilities,
            open_with_buffs: self.spec.open_with_buffs,
            save_heals: self.spec.save_heals,
            area_min: self.spec.area_min,
            items,
        };
        if flight::plan_from_above(battle, actor, t, out) {
            return;
        }
        if battle.prep.fighters[actor].monster.is_some()
            && (monster::plan_breath(battle, actor, out).is_some()
                || monster::plan_breath_after_move(battle, actor, out)
                || monster::plan_song(battle, actor, out)
                || monster::plan_dominate(battle, actor, out)
                || monster::plan_engulf(battle, actor, out)
                || monster::plan_trample(battle, actor, t, out))
        {
            return;
        }
        if (abilities && alchemist::plan_mutagen(battle, actor, out))
            || alchemist::plan_extract_buff(battle, actor, t, magic, out)
        {
            return;
        }
        if has_magic(battle, actor) && plan_magic(battle, actor, t, magic, out) {
            return;
        }
        if battle.prep.fighters[actor].monster.is_some() && monster::plan_grapple(battle, actor, t, out) {
            return;
        }
        if fragile::plan(battle, actor, out) {
            return;
        }
        if (abilities && paladin::plan_harm(battle, actor, t, out))
            || (items && splash::plan(battle, actor, t, out))
            || (splash::throws_splash(battle, actor, t)
                && ranged::step_out(battle, actor, t).is_none()
                && splash::plan_guard(battle, actor, t, out))
            || reload::plan_reload(battle, actor, t, out)
        {
            return;
        }
        let t = if abilities { class_features(battle, actor, t, out) } else { t };
        monster::plan_smite(battle, actor, t, out);
        if ranged::plan_step_out(battle, actor, t, out) {
            // Rapid Shot, Deadly Aim: the step's full attack declares them too.
            martial::declare(battle, actor, t, out);
        } else if !(out.is_empty() && ranged::plan(battle, actor, t, out)) {
            plan_turn(battle, actor, t, tactics, out);
        }
        reload::fire_and_reload(battle, actor, out);
        flight::dive(battle, actor, out);
    }
}

/// The policies of a matchup: the party side plays the party spec, every
/// other side the adversary spec.
#[derive(Clone, Debug)]
pub struct MatchupPolicy {
    party_side: usize,
    party: StrategyPolicy,
    adversary: StrategyPolicy,
}

impl MatchupPolicy {
    /// Compiles `party` for side `party_side` and `adversary` for the others.
    pub fn new(
        encounter: &Encounter,
        party_side: usize,
        party: &StrategySpec,
        adversary: &StrategySpec,
    ) -> Self {
        let roster = Arc::new(Roster::new(encounter));
        Self {
            party_side,
            party: StrategyPolicy::new(party.clone(), Arc::clone(&roster)),
            adversary: StrategyPolicy::new(adversary.clone(), roster),
        }
    }
}

impl Policy for MatchupPolicy {
    fn plan(&mut self, battle: &BattleState<'_>, actor: usize, out: &mut Vec<Action>) {
        if battle.side(actor) == self.party_side {
            self.party.plan(battle, actor, out);
        } else {
            self.adversary.plan(battle, actor, out);
        }
    }
}

/// One policy per side: the turn of a combatant of side `s` is planned by `self.0[s]`.
pub struct SidePolicies<'a>(pub Vec<&'a mut dyn Policy>);

impl Policy for SidePolicies<'_> {
    fn plan(&mut self, battle: &BattleState<'_>, actor: usize, out: &mut Vec<Action>) {
        if let Some(policy) = self.0.get_mut(battle.side(actor)) {
            policy.plan(battle, actor, out);
        }
    }
}

/// No reactions at all.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoReactions;

impl Reactions for NoReactions {
    fn react(&mut self, _: &BattleState<'_>, _: usize, _: ReactionEvent) -> Option<Action> {
        None
    }
}
