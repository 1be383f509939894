//! Whom a spell reaches (CRB "Aiming a Spell"): range, line of effect and
//! the target's filter; the creatures a multi-target spell adds; the
//! squares of an area (burst, spread, cone, line) on the grid and the
//! creatures standing in them.
//!
//! Geometry on the grid (simplified, see `docs/rules/magic.md`): a sphere
//! is centred on a square and holds every square within its radius by the
//! 5-10-5 distance; a burst keeps the squares with line of effect from its
//! centre, a spread the squares its radius reaches walking around walls; a
//! cone is the quarter circle (90°) of its length aimed from the caster's
//! square; a line runs 5 ft wide from the caster along the Bresenham line
//! toward its aim, stopping at a wall.

use std::collections::VecDeque;

use crate::grid::{NEIGHBOURS, distance_ft, footprint, natural_reach_ft};
use crate::map::Pos;
use crate::rng::Dice;
use crate::spell::Spell;
use crate::spell::effect::EffectKind;
use crate::spell::model::{Area, Filter, Origin, Range, Shape, Side, Spread, TargetKind};

use super::super::action::Reason;
use super::super::engine::Engine;
use super::super::state::BattleState;
use super::casting::Cast;

/// The squares an area fills, and the square it starts from (for line of
/// effect and cover on Reflex saves).
#[derive(Clone, Debug, Default)]
pub(crate) struct Template {
    /// The origin square.
    pub origin: Pos,
    /// The squares, without repeats.
    pub squares: Vec<Pos>,
}

impl BattleState<'_> {
    /// The spell's range in feet at caster level `cl` (`None`: unlimited).
    pub(crate) fn spell_range(&self, i: usize, spell: &Spell, cl: u32) -> Option<u32> {
        match spell.range {
            // A spectral hand carries it further (`hand`).
            Range::Touch => Some(self.hand_for(i, spell).map_or(0, |h| h.range_ft).max(self.touch_reach(i))),
            r => r.feet_at(cl),
        }
    }

    /// How far `i` touches: its natural reach, at least 5 ft.
    pub(crate) fn touch_reach(&self, i: usize) -> u32 {
        natural_reach_ft(self.size(i)).max(5)
    }

    /// Whether `i` can touch `t` from where it stands.
    pub fn touch_reaches(&self, i: usize, t: usize) -> bool {
        i == t || (self.distance(i, t) <= self.touch_reach(i) && self.line_of_effect_from(i, self.pos(i), t))
    }

    /// Whether `t` passes `filter` as seen from caster `i`.
    pub(crate) fn passes(&self, i: usize, t: usize, filter: &Filter) -> bool {
        if filter.is_empty() {
            return true;
        }
        let spec = &self.prep.fighters[t];
        let f = &self.fighters[t];
        let ctype = spec.nature.ctype;
        if !filter.creature_types.is_empty() && !ctype.is_some_and(|c| filter.creature_types.contains(&c)) {
            return false;
        }
        if ctype.is_some_and(|c| filter.not_creature_types.contains(&c)) {
            return false;
        }
        let bit = |a: crate::spell::model::AlignmentComponent| {
            use crate::effects::Alignment as A;
            use crate::spell::model::AlignmentComponent as C;
            match a {
                C::Good => A::GOOD,
                C::Evil => A::EVIL,
                C::Lawful => A::LAWFUL,
                C::Chaotic => A::CHAOTIC,
            }
        };
        if !filter.alignments.is_empty()
            && !filter.alignments.iter().any(|&a| spec.nature.alignment & bit(a) != 0)
        {
            return false;
        }
        if filter.not_alignments.iter().any(|&a| spec.nature.alignment & bit(a) != 0) {
            return false;
        }
        if filter.living && spec.defense.immune.drain {
            return false;
        }
        if filter.min_hd.is_some_and(|m| spec.nature.hd < m)
            || filter.max_hd.is_some_and(|m| spec.nature.hd > m)
        {
            return false;
        }
        if let Some(min) = filter.min_int
            && spec.scores.int_score.is_none_or(|s| s < min as i32)
        {
            return false;
        }
        let flags = f.summary.flags;
        if filter.can_see && flags.has(crate::effects::Flags::BLIND) {
            return false;
        }
        if filter.can_hear && !self.hears(i, t) {
            return false;
        }
        if filter.negative_hp && f.hp >= 0 {
            return false;
        }
        match filter.side {
            Some(Side::Allies) if self.are_enemies(i, t) => return false,
            Some(Side::Enemies) if !self.are_enemies(i, t) => return false,
            _ => {}
        }
        // An enemy is never willing.
        !(filter.willing && self.are_enemies(i, t))
    }

    /// Whether `t` is on the battlefield and can be the target of a spell:
    /// able to act, or (for spells on the fallen) alive below 0.
    pub(crate) fn targetable(&self, t: usize, spell: &Spell) -> bool {
        let f = &self.fighters[t];
        if f.dead || f.gone {
            return false;
        }
        let fallen_ok = spell.target.as_ref().is_some_and(|tg| tg.filter.negative_hp)
            || spell.effects.iter().any(|e| matches!(e.kind, EffectKind::Heal(_) | EffectKind::Stabilize(_)));
        fallen_ok || self.is_active(t)
    }

    /// Whether caster `i` reaches creature `t` with `spell` at caster level
    /// `cl`: range and line of effect.
    pub(crate) fn spell_reaches(&self, i: usize, t: usize, spell: &Spell, cl: u32) -> Result<(), Reason> {
        if i == t {
            return Ok(());
        }
        if spell.range == Range::Personal {
            return Err(Reason::OutOfRange);
        }
        if let Some(r) = self.spell_range(i, spell, cl)
            && self.distance(i, t) > r
        {
            return Err(Reason::OutOfRange);
        }
        if !self.line_of_effect_from(i, self.pos(i), t) {
            return Err(Reason::NoLineOfEffect);
        }
        Ok(())
    }

    /// The point an area is aimed at, when it is aimed at one.
    fn aim(&self, cast: &Cast) -> Option<Pos> {
        cast.point.or_else(|| cast.target.map(|t| self.pos(t)))
    }

    /// The squares of `area` for `cast`, at caster level `cl`.
    pub(crate) fn template(&self, cast: &Cast, area: &Area) -> Option<Template> {
        let i = cast.caster;
        let origin = match area.origin {
            Origin::Caster => self.pos(i),
            Origin::Target => self.pos(cast.target?),
            Origin::Point => self.aim(cast)?,
        };
        let map = self.map();
        let feet = |s: &Option<crate::spell::Scaled>| {
            s.as_ref().and_then(|v| v.fixed_at(cast.cl)).unwrap_or(0).max(0) as u32
        };
        let mut squares: Vec<Pos> = Vec::new();
        match area.shape {
            Shape::Sphere | Shape::Cylinder | Shape::Square => {
                let radius = match area.shape {
                    Shape::Square => area.side_ft.unwrap_or(5) / 2,
                    _ => feet(&area.radius_ft),
                };
                if area.spread == Spread::Spread {
                    spread(map, origin, radius, &mut squares);
                } else {
                    let k = (radius / 5) as i32 + 1;
                    for row in (origin.row - k).max(0)..=(origin.row + k).min(map.height - 1) {
                        for col in (origin.col - k).max(0)..=(origin.col + k).min(map.width - 1) {
                            let q = Pos::new(row, col);
                            let inside = match area.shape {
                                Shape::Square => {
                                    (q.row - origin.row).abs() * 5 <= radius as i32
                                        && (q.col - origin.col).abs() * 5 <= radius as i32
                                }
                                _ => distance_ft(origin, q) <= radius,
                            };
                            if inside && !map.blocks_los(q) && self.prep.line_of_effect(origin, q) {
                                squares.push(q);
                            }
                        }
                    }
                }
            }
            Shape::Cone => {
                let aim = self.aim(cast)?;
                if !self.cone_squares(origin, aim, feet(&area.length_ft), &mut squares) {
                    return None;
                }
            }
            Shape::Line => {
                let aim = self.aim(cast)?;
                if !self.line_squares(origin, aim, feet(&area.length_ft), &mut squares) {
                    return None;
                }
            }
            Shape::Wall => return None,
        }
        Some(Template { origin, squares })
    }

    /// The squares of a cone of `length` ft from `origin` aimed at `aim`: the
    /// quarter circle within 45° of the aim, with line of effect from the
    /// origin. False when the aim is the origin (no direction).
    pub(crate) fn cone_squares(&self, origin: Pos, aim: Pos, length: u32, squares: &mut Vec<Pos>) -> bool {
        let map = self.map();
        let (dr, dc) = (i64::from(aim.row - origin.row), i64::from(aim.col - origin.col));
        if dr == 0 && dc == 0 {
            return false;
        }
        let k = (length / 5) as i32;
        for row in (origin.row - k).max(0)..=(origin.row + k).min(map.height - 1) {
            for col in (origin.col - k).max(0)..=(origin.col + k).min(map.width - 1) {
                let q = Pos::new(row, col);
                if q == origin || distance_ft(origin, q) > length {
                    continue;
                }
                let (vr, vc) = (i64::from(q.row - origin.row), i64::from(q.col - origin.col));
                let dot = vr * dr + vc * dc;
                // Within 45° of the aim: cos² ≥ 1/2.
                let within = dot > 0 && 2 * dot * dot >= (vr * vr + vc * vc) * (dr * dr + dc * dc);
                if within && !map.blocks_los(q) && self.prep.line_of_effect(origin, q) {
                    squares.push(q);
                }
            }
        }
        true
    }

    /// The squares of a line of `length` ft from `origin` toward `aim`,
    /// extended to its full length, stopped by a square that blocks line of
    /// effect. False when the aim is the origin.
    pub(crate) fn line_squares(&self, origin: Pos, aim: Pos, length: u32, squares: &mut Vec<Pos>) -> bool {
        let map = self.map();
        if aim == origin {
            return false;
        }
        // Extend the aim to the full length along the same direction.
        let (dr, dc) = (aim.row - origin.row, aim.col - origin.col);
        let steps = dr.abs().max(dc.abs()).max(1);
        let reach = (length / 5) as i32;
        let far = Pos::new(origin.row + dr * reach / steps, origin.col + dc * reach / steps);
        for q in crate::grid::Line::new(origin, far) {
            if !map.in_bounds(q) || distance_ft(origin, q) > length || map.blocks_los(q) {
                break;
            }
            squares.push(q);
        }
        true
    }

    /// The creatures standing in `template` (any square of their space),
    /// in encounter order, that pass the spell's filters.
    pub(crate) fn in_template(&self, cast: &Cast, spell: &Spell, template: &Template, out: &mut Vec<usize>) {
        out.clear();
        let map = self.map();
        for t in 0..self.len() {
            let f = &self.fighters[t];
            if f.dead || f.gone || !self.targetable(t, spell) {
                continue;
            }
            let inside =
                footprint(f.pos, self.space(t)).any(|c| map.in_bounds(c) && template.squares.contains(&c));
            if !inside {
                continue;
            }
            let area_filter = spell.area.as_ref().map(|a| &a.filter);
            let target_filter = spell.target.as_ref().map(|tg| &tg.filter);
            if area_filter.is_some_and(|fl| !self.passes(cast.caster, t, fl))
                || target_filter.is_some_and(|fl| !self.passes(cast.caster, t, fl))
            {
                continue;
            }
            out.push(t);
        }
    }
}

/// The squares a spread of `radius` reaches from `origin`, walking around
/// squares that block line of effect (5-10-5 distances).
fn spread(map: &crate::map::Map, origin: Pos, radius: u32, out: &mut Vec<Pos>) {
    let cells = (map.width.max(0) * map.height.max(0)) as usize;
    let mut best = vec![u32::MAX; cells * 2];
    let mut queue: VecDeque<(Pos, u32, u8)> = VecDeque::new();
    best[map.index(origin) * 2] = 0;
    queue.push_back((origin, 0, 0));
    out.push(origin);
    while let Some((p, cost, parity)) = queue.pop_front() {
        for &(dr, dc) in NEIGHBOURS.iter() {
            let q = Pos::new(p.row + dr, p.col + dc);
            if !map.in_bounds(q) || map.blocks_los(q) {
                continue;
            }
            let diagonal = dr != 0 && dc != 0;
            if diagonal
                && (map.blocks_los(Pos::new(p.row + dr, p.col))
                    || map.blocks_los(Pos::new(p.row, p.col + dc)))
            {
                continue;
            }
            let step = if diagonal { if parity == 1 { 10 } else { 5 } } else { 5 };
            let c = cost + step;
            if c > radius {
                continue;
            }
            let np = if diagonal { parity ^ 1 } else { parity };
            let cell = map.index(q) * 2;
            let k = cell + usize::from(np);
            if c < best[k] {
                // A square enters `out` the first time it is reached, by either parity.
                if best[cell] == u32::MAX && best[cell + 1] == u32::MAX {
                    out.push(q);
                }
                best[k] = c;
                queue.push_back((q, c, np));
            }
        }
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// Checks a casting's aim before anything is spent (see
    /// [`BattleState::check_cast_targets`]).
    pub(crate) fn check_cast_targets(&self, cast: &Cast) -> Result<(), Reason> {
        self.st.check_cast_targets(cast)
    }
}

impl BattleState<'_> {
    /// Checks a casting's aim before anything is spent: the target exists,
    /// passes the spell's filter, and is within range with line of effect;
    /// an area's point is on the map, within range and in line of effect.
    /// (A state method, so that the observation's candidates use the same check.)
    pub(crate) fn check_cast_targets(&self, cast: &Cast) -> Result<(), Reason> {
        let st = self;
        let i = cast.caster;
        let spell = &st.prep.spells[usize::from(cast.spell)].spell;
        // An alchemist's extract affects only its drinker (APG "Alchemy").
        let self_only = cast.extract
            || spell.range == Range::Personal
            || spell.target.as_ref().is_some_and(|t| t.kind == TargetKind::Caster);
        if self_only {
            return match cast.target {
                Some(t) if t != i => Err(Reason::MissingTarget),
                // A teleportation names where it goes (`teleport.rs`).
                _ if super::teleport::teleport_effect(spell).is_some() && !cast.extract => {
                    st.check_arrival(cast, spell)
                }
                _ => Ok(()),
            };
        }
        if let Some(tg) = &spell.target {
            // A targeted dispel aimed at a square names the lasting area there.
            if let (None, Some(p)) = (cast.target, cast.point)
                && super::dispel::targeted_dispel(spell).is_some()
            {
                return st.check_area_dispel(cast, spell, p);
            }
            let t = cast.target.filter(|&t| t < st.len()).ok_or(Reason::MissingTarget)?;
            if !st.targetable(t, spell) || !st.passes(i, t, &tg.filter) {
                return Err(Reason::MissingTarget);
            }
            return st.spell_reaches(i, t, spell, cast.cl);
        }
        if let Some(area) = &spell.area {
            if matches!(area.origin, Origin::Caster) && !matches!(area.shape, Shape::Cone | Shape::Line) {
                return Ok(());
            }
            let aim = cast.point.or_else(|| cast.target.map(|t| st.pos(t))).ok_or(Reason::MissingTarget)?;
            let map = st.map();
            if !map.in_bounds(aim) || map.blocks_los(aim) {
                return Err(Reason::InvalidDestination);
            }
            if matches!(area.origin, Origin::Point) {
                if let Some(r) = st.spell_range(i, spell, cast.cl)
                    && distance_ft(st.pos(i), aim) > r
                {
                    return Err(Reason::OutOfRange);
                }
                if !st.prep.line_of_effect(st.pos(i), aim) {
                    return Err(Reason::NoLineOfEffect);
                }
            }
            if aim == st.pos(i) && matches!(area.shape, Shape::Cone | Shape::Line) {
                return Err(Reason::InvalidDestination);
            }
            return Ok(());
        }
        // A construct strikes the creature it is aimed at (`construct.rs`).
        if super::construct::construct_effect(spell).is_some() {
            let t = cast.target.filter(|&t| t < st.len() && t != i).ok_or(Reason::MissingTarget)?;
            if !st.is_active(t) {
                return Err(Reason::MissingTarget);
            }
            return st.spell_reaches(i, t, spell, cast.cl);
        }
        // A summons or a spell without target or area: the caster is in charge.
        Ok(())
    }
}
