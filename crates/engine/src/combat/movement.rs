//! Movement: move along the true shortest path, the 5-foot step, the charge.

use crate::effects::Flags;
use crate::grid::{Access, Line, MoveMode, NEIGHBOURS, Pathfinder, distance_ft, step_cost, step_cost_as};
use crate::map::Pos;
use crate::rng::Dice;

use super::action::{Action, Reason};
use super::engine::Engine;
use super::event::{Event, MoveKind, NoMove, TurnEvent};
use super::log::emit;
use super::odds::Swing;
use super::state::{BattleState, LifeState};

fn is_diagonal(a: Pos, b: Pos) -> bool {
    a.row != b.row && a.col != b.col
}

/// The cheapest square (ties: see `straightness`) reached by the last run of
/// `pf` where `i` may stop and can attack `t`.
fn attack_square(st: &BattleState<'_>, pf: &Pathfinder, i: usize, t: usize) -> Option<Pos> {
    let map = st.map();
    let start = st.fighters[i].pos;
    let mut best: Option<((u32, i32), Pos)> = None;
    for row in 0..map.height {
        for col in 0..map.width {
            let q = Pos::new(row, col);
            let Some(c) = pf.cost(q) else { continue };
            let key = (c, straightness(start, q));
            if best.is_some_and(|(bk, _)| bk <= key) || st.access(i, q) != Access::Open {
                continue;
            }
            if st.weapon_for(i, t, q).is_ok() {
                best = Some((key, q));
            }
        }
    }
    best.map(|(_, q)| q)
}

/// The integers of `lo..=hi` in order of distance from `center` (nearest
/// first; equally near ones below first).
fn outward(lo: i32, hi: i32, center: i32) -> impl Iterator<Item = i32> {
    let c = center.clamp(lo, hi);
    let (mut down, mut up) = (c, c + 1);
    std::iter::from_fn(move || {
        let take_down = down >= lo && (up > hi || center - down <= up - center);
        if take_down {
            down -= 1;
            Some(down + 1)
        } else if up <= hi {
            up += 1;
            Some(up - 1)
        } else {
            None
        }
    })
}

/// Tie-break between equally cheap destinations: the one most directly
/// ahead (squared Euclidean distance from the mover), then row-major order.
fn straightness(from: Pos, q: Pos) -> i32 {
    (q.row - from.row).pow(2) + (q.col - from.col).pow(2)
}

impl BattleState<'_> {
    /// How mover `i` may use square `p` as the top-left square of its space:
    /// enemies able to fight block it, allies and fallen creatures can be
    /// passed but not ended on, and so can an enemy three or more size
    /// categories apart; a Tiny or smaller creature and a larger one may
    /// share a square (CRB "Moving Through a Square", "Big and Little Creatures").
    #[inline(always)]
    pub fn access(&self, i: usize, p: Pos) -> Access {
        let s = self.space(i);
        if s == 1 {
            return self.cell_access(i, p);
        }
        self.space_access(i, p, s)
    }

    /// `access` for a mover larger than one square.
    #[cold]
    #[inline(never)]
    fn space_access(&self, i: usize, p: Pos, s: i32) -> Access {
        let map = self.map();
        let mut worst = Access::Open;
        for c in crate::grid::footprint(p, s) {
            if !map.passable(c) {
                return Access::Blocked;
            }
            match self.cell_access(i, c) {
                Access::Blocked => return Access::Blocked,
                Access::PassOnly => worst = Access::PassOnly,
                Access::Open | Access::EndOnly => {}
            }
        }
        worst
    }

    /// How mover `i` may use one square (creatures only; terrain aside).
    #[inline]
    fn cell_access(&self, i: usize, p: Pos) -> Access {
        let small = self.is_small(i);
        // A Tiny mover shares the square of a larger creature, and the other way round.
        let other = if small { self.small_occupant(p) } else { self.large_occupant(p) };
        match other {
            None => Access::Open,
            Some(j) if self.is_self(i, j) => Access::Open,
            Some(j) if !self.are_enemies(i, j) || !self.is_active(j) => Access::PassOnly,
            Some(j) => self.enemy_square(i, j),
        }
    }

    /// The feet a move action of `i` may cover: its speed (conditions and
    /// effects included), halved when disabled.
    pub fn move_budget(&self, i: usize) -> u32 {
        let speed = self.speed(i);
        if self.life(i) == LifeState::Disabled { speed / 2 } else { speed }
    }

    /// How `i` moves now: flying while aloft (over terrain, CRB "Fly"),
    /// walking on the ground.
    pub fn move_mode(&self, i: usize) -> MoveMode {
        if self.fighters[i].mobility.alt > 0 { MoveMode::Fly } else { MoveMode::Ground }
    }

    /// Whether `i` may take a 5-foot step to `to` now: an adjacent free square,
    /// entered at normal cost (no difficult terrain, no climbing, corner rule),
    /// and no other movement this turn.
    pub fn can_step(&self, i: usize, to: Pos) -> bool {
        let f = &self.fighters[i];
        let from = f.pos;
        let adjacent = (to.row - from.row).abs() <= 1 && (to.col - from.col).abs() <= 1 && to != from;
        let map = self.map();
        let s = self.space(i);
        adjacent
            && !f.turn.moved
            && !f.turn.stepped
            && self.speed(i) > 0
            && map.passable(to)
            && self.access(i, to) == Access::Open
            && step_cost(map, from, to, 0) == Some(5)
            && (s == 1 || crate::grid::footprint(to, s).all(|c| map.terrain(c).move_cost == Some(1)))
            && !self.zone_difficult(to, s)
    }

    /// The first square (neighbour order) a 5-foot step can reach from which
    /// `i` can attack `t`.
    /// A square inside one of its own side's harmful lasting areas is not
    /// stepped to (`shunned_zones`).
    pub fn step_to_attack(&self, i: usize, t: usize) -> Option<Pos> {
        let from = self.fighters[i].pos;
        let shunned = self.shunned_zones(i);
        let s = self.space(i);
        NEIGHBOURS.iter().map(|&(dr, dc)| Pos::new(from.row + dr, from.col + dc)).find(|&q| {
            self.within_range(i, t, q)
                && self.can_step(i, q)
                && !self.in_shunned(&shunned, q, s)
                && self.weapon_for(i, t, q).is_ok()
        })
    }

    /// Whether a charge of `i` ending on `end` would cross or end in one
    /// of its own side's harmful lasting areas (`shunned_zones`): the
    /// default policy does not charge through its friends' Stinking Cloud.
    pub(crate) fn charge_enters_shunned(&self, i: usize, end: Pos) -> bool {
        if self.zones.is_empty() {
            return false;
        }
        let shunned = self.shunned_zones(i);
        let s = self.space(i);
        !shunned.is_empty() && Line::new(self.fighters[i].pos, end).any(|p| self.in_shunned(&shunned, p, s))
    }

    /// Whether some attack of `i` standing on `from` reaches `t`'s distance,
    /// line of effect aside: a cheap filter before `weapon_for`.
    #[inline]
    fn within_range(&self, i: usize, t: usize, from: Pos) -> bool {
        let dist = self.distance_from(i, from, t);
        (0..self.prep.fighters[i].offense.attacks.len()).any(|w| self.reaches(i, w, dist))
    }

    /// Where a charge of `i` against `t` would end, and the melee attack it
    /// would make: the closest square from which `i` can attack `t` in melee,
    /// reached by a clear straight line of 10 ft to twice its speed
    /// (CRB "Charge"). Squares are the top-left squares of the charger's space.
    pub fn charge_end(&self, i: usize, t: usize) -> Result<(Pos, usize), Reason> {
        let spec = &self.prep.fighters[i];
        let reach = (0..spec.offense.attacks.len())
            .filter(|&w| spec.offense.attacks[w].melee)
            .map(|w| self.reach(i, w).1)
            .max()
            .ok_or(Reason::NoWeapon)?;
        let (from, to) = (self.fighters[i].pos, self.fighters[t].pos);
        if !self.line_of_effect_from(i, from, t) {
            return Err(Reason::NoLineOfEffect);
        }
        let map = self.map();
        let (si, st) = (self.space(i), self.space(t));
        let k = (reach / 5) as i32;
        let small = self.is_small(i);
        let fits = move |q: Pos| {
            if si == 1 && st == 1 {
                return (small || q != to) && map.passable(q);
            }
            (small || crate::grid::footprint_distance_ft(q, si, to, st) > 0)
                && crate::grid::footprint(q, si).all(|c| map.passable(c))
        };
        let reaches = |q: Pos| {
            let dist = self.distance_from(i, q, t);
            (0..spec.offense.attacks.len()).any(|w| spec.offense.attacks[w].melee && self.reaches(i, w, dist))
        };
        // Among equally close squares, the one most directly ahead (Euclidean), then row-major.
        let key = |q: Pos| ((q.row - from.row).pow(2) + (q.col - from.col).pow(2), q);
        // One pass keeps the distance of the closest squares from which a melee
        // attack reaches, and the best of them that is free with a clear line
        // (forgotten when a closer square turns up). Squares are visited from
        // the charger outward, so the first ones found bound the rest. A clear
        // line costs exactly the 5-10-5 distance, so squares farther than twice
        // the speed can be skipped: if every such square is farther, no charge
        // is possible either way.
        // A rider charges at its mount's speed (`combat::mounted`).
        let longest =
            2 * self.riding(i).map_or(spec.speed_ft, |m| self.prep.fighters[m].speed_ft.max(self.speed(m)));
        let (rows, cols) =
            ((to.row - k - (si - 1), to.row + st - 1 + k), (to.col - k - (si - 1), to.col + st - 1 + k));
        let nearest_col = from.col.clamp(cols.0, cols.1);
        let mut closest = u32::MAX;
        let mut best: Option<((i32, Pos), usize)> = None;
        for row in outward(rows.0, rows.1, from.row) {
            if distance_ft(from, Pos::new(row, nearest_col)) > closest.min(longest) {
                break;
            }
            for col in outward(cols.0, cols.1, from.col) {
                let q = Pos::new(row, col);
                let d = distance_ft(from, q);
                if d > closest.min(longest) {
                    break;
                }
                if d == closest && best.is_some_and(|(b, _)| b <= key(q)) {
                    continue;
                }
                if !reaches(q) || !fits(q) {
                    continue;
                }
                let Some(w) = self.melee_weapon_from(i, t, q) else { continue };
                if d < closest {
                    closest = d;
                    best = None;
                }
                if q != from && self.access(i, q) == Access::Open && self.charge_line_clear(i, t, from, q) {
                    best = Some((key(q), w));
                }
            }
        }
        best.map(|((_, q), w)| (q, w)).ok_or(Reason::NoChargePath)
    }

    /// A charge line: every square of the charger's space passable at normal
    /// cost, no creature able to act on it (helpless ones do not stop a
    /// charge; a Tiny charger may end in its target's square), no corner cut,
    /// and 10 ft to twice the speed long.
    pub(crate) fn charge_line_clear(&self, i: usize, t: usize, from: Pos, to: Pos) -> bool {
        let map = self.map();
        let s = self.space(i);
        let (mut prev, mut parity, mut cost) = (from, 0u8, 0u32);
        for p in Line::new(from, to) {
            let blocked = |c: Pos| {
                self.occupant(c).is_some_and(|j| !self.is_self(i, j) && j != t && self.is_active(j))
                    || (self.large_occupant(c) == Some(t) && !self.is_small(i))
            };
            if s == 1 {
                if blocked(p) {
                    return false;
                }
            } else if crate::grid::footprint(p, s).any(|c| blocked(c) || map.terrain(c).move_cost != Some(1))
            {
                return false;
            }
            let diagonal = is_diagonal(prev, p);
            let base = if diagonal && parity == 1 { 10 } else { 5 };
            if step_cost(map, prev, p, parity) != Some(base) || self.zone_difficult(p, s) {
                return false;
            }
            cost += base;
            parity ^= u8::from(diagonal);
            prev = p;
        }
        (10..=2 * self.speed(i)).contains(&cost)
    }
}

impl BattleState<'_> {
    /// The feet of one step of a mover of space `s` moving as `mode`, from
    /// `prev` to `p` (`parity`: diagonals so far, odd or even): the map's
    /// cost, doubled by a zone's difficult terrain unless the map's already
    /// is; `None` when the step cannot be taken.
    #[inline]
    fn move_step(&self, s: i32, mode: MoveMode, prev: Pos, p: Pos, parity: u8) -> Option<u32> {
        let map = self.map();
        let step = step_cost_as(map, prev, p, parity, mode)?;
        let doubled = self.zone_difficult(p, s)
            && crate::grid::footprint(p, s).all(|c| map.terrain(c).move_cost == Some(1));
        Some(if doubled { 2 * step } else { step })
    }

    /// The feet a move of `i` from `start` along `path` costs, counted as
    /// a move counts them (`move_step`); `None` when a step cannot be taken.
    pub(crate) fn path_feet(&self, i: usize, start: Pos, path: &[Pos]) -> Option<u32> {
        let (s, mode) = (self.space(i), self.move_mode(i));
        let (mut prev, mut parity, mut cost) = (start, 0u8, 0u32);
        for &p in path {
            cost += self.move_step(s, mode, prev, p, parity)?;
            parity ^= u8::from(is_diagonal(prev, p));
            prev = p;
        }
        Some(cost)
    }

    /// An able enemy's square: blocking, unless three or more size categories apart.
    #[cold]
    fn enemy_square(&self, i: usize, j: usize) -> Access {
        if size_gap(self.size(i), self.size(j)) >= 3 { Access::PassOnly } else { Access::Blocked }
    }
}

/// Number of size categories between `a` and `b`.
fn size_gap(a: crate::model::Size, b: crate::model::Size) -> u8 {
    (a as u8).abs_diff(b as u8)
}

impl<R: Dice> Engine<'_, '_, R> {
    /// The move action: toward an explicit destination, or along the shortest
    /// path toward the closest square from which the mover can attack its target.
    pub(crate) fn move_action(&mut self, i: usize, action: Action) -> Result<(), Reason> {
        if self.st.fighters[i].turn.stepped {
            return Err(Reason::CannotCombine);
        }
        if self.st.flags(i).has(Flags::CANT_MOVE) {
            return Err(Reason::CannotMove);
        }
        let target = match action.destination {
            Some(_) => None,
            None => Some(self.enemy_target(i, action)?),
        };
        let start = self.st.fighters[i].pos;
        let mut budget = self.st.move_budget(i);
        // A flier climbs or dives first, then moves across at its new altitude.
        if let Some(alt) = action.altitude.filter(|&a| a != self.st.fighters[i].mobility.alt) {
            if alt > 0 && self.st.fly_speed(i) == 0 {
                return Err(Reason::CannotMove);
            }
            budget -= self.fly_to(i, alt, budget).min(budget);
            self.st.fighters[i].turn.moved = true;
            if action.destination == Some(start) || !self.st.is_active(i) {
                return Ok(());
            }
        }
        let dest = match self.route(i, action.destination, target, budget) {
            Ok(dest) => dest,
            // Nothing reaches across the altitudes: toward the square it would
            // attack from were both on the ground (beneath a flier, or above a foe).
            Err(e) => match target {
                Some(t) if self.st.fighters[i].mobility.alt | self.st.fighters[t].mobility.alt != 0 => {
                    let alts = (self.st.fighters[i].mobility.alt, self.st.fighters[t].mobility.alt);
                    (self.st.fighters[i].mobility.alt, self.st.fighters[t].mobility.alt) = (0, 0);
                    let ground = self.route(i, None, Some(t), budget);
                    (self.st.fighters[i].mobility.alt, self.st.fighters[t].mobility.alt) = alts;
                    ground.map_err(|_| e)?
                }
                _ => return Err(e),
            },
        };
        if dest == start {
            emit!(self, Event::NoMove { who: i, why: NoMove::AlreadyInPosition, at: start });
            return Ok(());
        }
        let across = self.trim_path(i, start, budget);
        if self.path.is_empty() {
            emit!(self, Event::NoMove { who: i, why: NoMove::CannotProgress, at: start });
            return Ok(());
        }
        self.st.fighters[i].mobility.flown += across;
        emit!(self, Event::Move { who: i, kind: MoveKind::Move, from: start, path: self.path.clone() });
        self.walk(i, true, false);
        self.st.fighters[i].turn.moved = true;
        Ok(())
    }

    /// The route of a move (fills `self.path`): to `destination`, or toward
    /// the closest square from which `i` can attack `target`.
    fn route(
        &mut self,
        i: usize,
        destination: Option<Pos>,
        target: Option<usize>,
        budget: u32,
    ) -> Result<Pos, Reason> {
        self.path.clear();
        // The stored paths are walkers' paths.
        let walking = self.st.move_mode(i) == MoveMode::Ground;
        let dest = match target.filter(|_| walking).and_then(|t| self.static_route(i, t)) {
            Some(dest) => dest,
            None => self.searched_route(i, destination, target, budget)?,
        };
        if destination.is_some() {
            self.unprovoking_route(i, dest, budget);
        }
        if !self.st.zones.is_empty()
            && let Some(around) = self.around_zones(i, destination, target, budget)
        {
            return Ok(around);
        }
        Ok(dest)
    }

    /// A route to the explicit square `dest` that leaves no square a foe
    /// threatens (the start aside: any route leaves it), when the route in
    /// `self.path` does and such a route lies within `budget`: a table
    /// walking to a chosen square (around a foe to flank it) takes the way
    /// that provokes nothing when there is one. Replaces `self.path`.
    fn unprovoking_route(&mut self, i: usize, dest: Pos, budget: u32) {
        let st = &self.st;
        let (s, alt) = (st.space(i), st.fighters[i].mobility.alt);
        let foes: Vec<usize> = (0..st.len()).filter(|&e| st.are_enemies(i, e) && st.is_active(e)).collect();
        if foes.is_empty() {
            return;
        }
        let threatened = |p: Pos| foes.iter().any(|&e| st.threat_weapon_on(e, p, s, alt).is_some());
        if !self.path.iter().rev().skip(1).any(|&p| threatened(p)) {
            return;
        }
        let pf = self.pf.get_or_insert_with(|| st.prep.pathfinder.clone());
        let access = |p: Pos| if p != dest && threatened(p) { Access::Blocked } else { st.access(i, p) };
        pf.run_as(st.map(), st.fighters[i].pos, Some(budget), &access, st.move_mode(i));
        let mut safe = Vec::new();
        if pf.cost(dest).is_some_and(|c| c <= budget) && pf.path_to(dest, &mut safe) {
            self.path = safe;
        }
    }

    /// A route that keeps `i` out of its own side's harmful lasting areas
    /// (`BattleState::shunned_zones`) when the route in `self.path` enters
    /// one and another way serves: to the same `destination` within
    /// `budget`, or to the closest square, outside them, from which to
    /// attack `target`, or, when every such square lies inside, along the
    /// route up to the area's edge. Replaces `self.path` and returns the
    /// new end; `None` leaves the path as it is (an explicit destination
    /// with no way around: the mover walks in and pays the area's price).
    fn around_zones(
        &mut self,
        i: usize,
        destination: Option<Pos>,
        target: Option<usize>,
        budget: u32,
    ) -> Option<Pos> {
        let st = &self.st;
        let shunned = st.shunned_zones(i);
        let s = st.space(i);
        if shunned.is_empty() || !self.path.iter().any(|&p| st.in_shunned(&shunned, p, s)) {
            return None;
        }
        let map = st.map();
        let start = st.fighters[i].pos;
        let pf = self.pf.get_or_insert_with(|| st.prep.pathfinder.clone());
        let access = |p: Pos| if st.in_shunned(&shunned, p, s) { Access::Blocked } else { st.access(i, p) };
        pf.run_as(map, start, None, &access, st.move_mode(i));
        let dest = match (destination, target) {
            (Some(d), _) => {
                let ok = map.in_bounds(d)
                    && st.access(i, d) == Access::Open
                    && pf.cost(d).is_some_and(|c| c <= budget);
                ok.then_some(d)?
            }
            (None, Some(t)) => match attack_square(st, pf, i, t) {
                Some(q) => q,
                // Every square to attack from lies in the area: up to its edge,
                // to strike whoever comes out (no creature walks into its
                // friends' cloud or web to reach a foe caught there).
                None => {
                    let keep = self.path.iter().position(|&p| st.in_shunned(&shunned, p, s));
                    self.path.truncate(keep.unwrap_or(self.path.len()));
                    return Some(self.path.last().copied().unwrap_or(start));
                }
            },
            (None, None) => return None,
        };
        let mut path = std::mem::take(&mut self.path);
        pf.path_to(dest, &mut path);
        self.path = path;
        Some(dest)
    }

    /// The route to the closest square from which `i` can attack `t`, taken
    /// from the creature-free paths of its space when no enemy stands on the
    /// best one: then it is the path the full search would find (`paths.rs`).
    /// Fills `self.path`.
    pub(crate) fn static_route(&mut self, i: usize, t: usize) -> Option<Pos> {
        let st = &self.st;
        let paths = st.prep.paths.for_space(st.space(i))?;
        let map = st.map();
        let start = st.fighters[i].pos;
        let s = map.index(start);
        // Only squares within the longest reach or range of the target can do:
        // the mover's top-left square lies up to its space - 1 further up or left.
        let to = st.fighters[t].pos;
        let k = st.longest_reach(i)? as i32 / 5;
        let mut best: Option<((u32, i32), Pos)> = None;
        let (lead, ext) = (st.space(i) - 1, st.space(t) - 1);
        for row in (to.row - k - lead).max(0)..=(to.row + ext + k).min(map.height - 1) {
            for col in (to.col - k - lead).max(0)..=(to.col + ext + k).min(map.width - 1) {
                let q = Pos::new(row, col);
                let Some(c) = paths.cost(s, map.index(q)) else { continue };
                let key = (c, straightness(start, q));
                if best.is_some_and(|(bk, _)| bk <= key) || !st.within_range(i, t, q) {
                    continue;
                }
                if st.access(i, q) == Access::Open && st.weapon_for(i, t, q).is_ok() {
                    best = Some((key, q));
                }
            }
        }
        let (_, dest) = best?;
        if paths.path(s, map.index(dest)).any(|p| st.access(i, p) == Access::Blocked) {
            return None;
        }
        self.path.extend(paths.path(s, map.index(dest)));
        Some(dest)
    }

    /// The route found by a full creature-aware search: to `destination`
    /// (within `budget`) or to the closest square from which to attack
    /// `target`. Fills `self.path`.
    pub(crate) fn searched_route(
        &mut self,
        i: usize,
        destination: Option<Pos>,
        target: Option<usize>,
        budget: u32,
    ) -> Result<Pos, Reason> {
        let start = self.st.fighters[i].pos;
        let st = &self.st;
        let map = st.map();
        let pf = self.pf.get_or_insert_with(|| st.prep.pathfinder.clone());
        pf.run_as(map, start, None, &|p| st.access(i, p), st.move_mode(i));
        let dest = match (destination, target) {
            (Some(d), _) => {
                let ok = map.in_bounds(d)
                    && st.access(i, d) == Access::Open
                    && pf.cost(d).is_some_and(|c| c <= budget);
                if !ok {
                    return Err(Reason::UnreachableDestination);
                }
                d
            }
            (None, Some(t)) => attack_square(st, pf, i, t).ok_or(Reason::UnreachableDestination)?,
            (None, None) => return Err(Reason::MissingTarget),
        };
        pf.path_to(dest, &mut self.path);
        Ok(dest)
    }

    /// Cuts the path to what the budget pays for, then back to a square the
    /// mover may end on; returns the feet the kept path costs.
    fn trim_path(&mut self, i: usize, start: Pos, budget: u32) -> u32 {
        let map = self.st.map();
        let s = self.st.space(i);
        let mode = self.st.move_mode(i);
        let (mut prev, mut parity, mut cost, mut keep) = (start, 0u8, 0u32, 0usize);
        for &p in &self.path {
            let Some(step) = self.st.move_step(s, mode, prev, p, parity) else { break };
            if cost + step > budget {
                break;
            }
            cost += step;
            parity ^= u8::from(is_diagonal(prev, p));
            prev = p;
            keep += 1;
        }
        self.path.truncate(keep);
        // A flier passes over impassable ground but does not end its move there.
        let ends = |p: Pos| {
            self.st.access(i, p) == Access::Open && crate::grid::footprint(p, s).all(|c| map.passable(c))
        };
        while self.path.last().is_some_and(|&p| !ends(p)) {
            self.path.pop();
        }
        // The feet of what is kept (squares given back cost 5 ft each, an estimate).
        cost.saturating_sub(5 * (keep - self.path.len()) as u32)
    }

    /// Walks `i` along `self.path`, square by square. When `provoke`, leaving
    /// each square gives threatening enemies their attack of opportunity; a
    /// mover that falls stops where it is (or on the last free square of its
    /// path if it fell while passing through someone's square). When
    /// `spare_start` (withdraw), leaving the first square does not provoke.
    pub(crate) fn walk(&mut self, i: usize, provoke: bool, spare_start: bool) {
        let start = self.st.fighters[i].pos;
        let mut reached = 0;
        let mut checked = false;
        for k in 0..self.path.len() {
            if provoke && !(spare_start && k == 0) {
                let here = self.st.fighters[i].pos;
                self.provoke_leave(i, here);
                if !self.st.is_active(i) {
                    break;
                }
            }
            let before = self.st.fighters[i].pos;
            self.st.fighters[i].pos = self.path[k];
            reached = k + 1;
            // Entering someone's space (a larger mover's squares may overlap several).
            let entered = self.st.space(i) > 1 || self.st.occupant(self.path[k]).is_some_and(|j| j != i);
            if provoke && entered {
                self.provoke_enter(i, before);
                if !self.st.is_active(i) {
                    break;
                }
            }
            if !self.st.zones.is_empty() {
                if self.zones_moved(i, before, self.path[k], &mut checked) {
                    break;
                }
                self.zones_entered(i, before, self.path[k]);
                if !self.st.is_active(i) || self.st.flags(i).has(Flags::CANT_MOVE) {
                    break;
                }
            }
            if self.readied_count > 0 || self.reactions.is_some() {
                self.after_step(i);
                if !self.st.is_active(i) {
                    break;
                }
            }
        }
        let mut end = self.st.fighters[i].pos;
        self.st.fighters[i].pos = start;
        if self.st.fighters[i].dead {
            self.st.vacate(i);
            self.st.fighters[i].pos = end;
            return;
        }
        if self.st.access(i, end) != Access::Open {
            end = self.path[..reached.saturating_sub(1)]
                .iter()
                .rev()
                .copied()
                .find(|&p| self.st.access(i, p) == Access::Open)
                .unwrap_or(start);
            emit!(self, Event::FallsBack { who: i, to: end });
        }
        self.st.relocate(i, end);
    }

    /// The 5-foot step: to an explicit adjacent square, or to the first one
    /// from which the target can be attacked. Never provokes.
    pub(crate) fn step_action(&mut self, i: usize, action: Action) -> Result<(), Reason> {
        let f = &self.st.fighters[i];
        if f.turn.moved || f.turn.stepped {
            return Err(Reason::CannotCombine);
        }
        if self.st.flags(i).has(Flags::CANT_MOVE) {
            return Err(Reason::CannotMove);
        }
        let dest = match action.destination {
            Some(d) => d,
            None => {
                let t = self.enemy_target(i, action)?;
                self.st.step_to_attack(i, t).ok_or(Reason::UnreachableDestination)?
            }
        };
        if !self.st.can_step(i, dest) {
            return Err(Reason::UnreachableDestination);
        }
        let start = self.st.fighters[i].pos;
        emit!(self, Event::Step { who: i, from: start, to: dest });
        self.st.relocate(i, dest);
        self.st.fighters[i].turn.stepped = true;
        self.st.fighters[i].mobility.flown += 5;
        if !self.st.zones.is_empty() {
            let mut checked = false;
            if !self.zones_moved(i, start, dest, &mut checked) {
                self.zones_entered(i, start, dest);
            }
        }
        Ok(())
    }

    /// The charge: a straight line to the closest square from which to
    /// attack, then one melee attack at +2 (a full attack with pounce, and
    /// its rakes; the powerful charge's attack when it has one); −2 AC until
    /// the next turn.
    pub(crate) fn charge_action(&mut self, i: usize, action: Action) -> Result<(), Reason> {
        let t = self.enemy_target(i, action)?;
        if self.st.fighters[i].turn.stepped {
            return Err(Reason::CannotCombine);
        }
        let flags = self.st.flags(i);
        if flags.has(Flags::CANT_MOVE) {
            return Err(Reason::CannotMove);
        }
        if flags.has(Flags::NO_RUN_CHARGE) {
            return Err(Reason::CannotRunOrCharge);
        }
        let (end, auto) = self.st.charge_end(i, t)?;
        let w = match action.weapon {
            None => auto,
            Some(w) => {
                let dist = self.st.distance_from(i, end, t);
                let attacks = &self.st.prep.fighters[i].offense.attacks;
                let usable = attacks.get(w).is_some_and(|a| a.melee) && self.st.reaches(i, w, dist);
                if !usable || !self.st.line_of_effect_from(i, end, t) {
                    return Err(Reason::WeaponUnavailable);
                }
                w
            }
        };
        let start = self.st.fighters[i].pos;
        self.path.clear();
        self.path.extend(Line::new(start, end));
        emit!(self, Event::Move { who: i, kind: MoveKind::Charge, from: start, path: self.path.clone() });
        self.st.fighters[i].turn.charged = true;
        self.st.fighters[i].turn.moved = true;
        if self.st.riding(i).is_some() {
            self.mounted_charge(i, w, t);
        }
        self.walk(i, true, false);
        if self.st.is_active(i) && self.st.is_active(t) && self.st.fighters[i].pos == end {
            if self.pounces(i) {
                emit!(self, Event::Turn { who: i, what: TurnEvent::Pounces });
                self.attack_routine(i, w, t, true, true);
                if self.st.is_active(t) {
                    self.rake(i, t);
                }
            } else if let Some((w, swing)) = self.powerful_charge(i, t) {
                self.strike(i, w, t, swing);
            } else {
                self.strike(i, w, t, Swing { charge: true, ..Swing::default() });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outward_visits_a_range_nearest_first() {
        assert_eq!(outward(2, 6, 4).collect::<Vec<_>>(), [4, 3, 5, 2, 6]);
        assert_eq!(outward(2, 6, 0).collect::<Vec<_>>(), [2, 3, 4, 5, 6]);
        assert_eq!(outward(2, 6, 9).collect::<Vec<_>>(), [6, 5, 4, 3, 2]);
        assert_eq!(outward(3, 3, 3).collect::<Vec<_>>(), [3]);
    }

    #[test]
    fn bresenham_lines() {
        let line: Vec<Pos> = Line::new(Pos::new(0, 0), Pos::new(0, 3)).collect();
        assert_eq!(line, [Pos::new(0, 1), Pos::new(0, 2), Pos::new(0, 3)]);
        let line: Vec<Pos> = Line::new(Pos::new(2, 2), Pos::new(0, 0)).collect();
        assert_eq!(line, [Pos::new(1, 1), Pos::new(0, 0)]);
        let line: Vec<Pos> = Line::new(Pos::new(0, 0), Pos::new(1, 4)).collect();
        assert_eq!(line.len(), 4);
        assert_eq!(line.last(), Some(&Pos::new(1, 4)));
        assert!(Line::new(Pos::new(3, 3), Pos::new(3, 3)).next().is_none());
    }
}
