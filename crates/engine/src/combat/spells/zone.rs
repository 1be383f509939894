//! Lasting areas (CRB "Aiming a Spell: Area", "Duration"; the zone spells'
//! SRD entries): a spell with a `zone` effect leaves its area on the map for
//! its duration. Its `on_appear` effects meet the creatures in the area when
//! it is cast (through `affect`, as any area spell), its `each_round` effects
//! meet those inside on the caster's turn, its `on_enter` effects a creature
//! that moves into it; it gives concealment to attacks into, out of or
//! inside it and makes its squares difficult terrain.
//!
//! A battle without zones pays one `is_empty` test per hook.

use crate::grid::footprint;
use crate::map::Pos;
use crate::rng::Dice;
use crate::spell::effect::{
    CheckDc, EffectKind, MovementCheckKind, RoundTiming, SpellEffect, ZoneConcealment, ZoneEffect,
};
use crate::spell::model::DurationUnit;

use super::super::action::{Action, Reason};
use super::super::engine::Engine;
use super::super::event::{EffectEnd, EscapeSkill, Event, SpellEvent};
use super::super::log::emit;
use super::super::state::BattleState;
use super::book::zone_effect;
use super::casting::{Cast, Drift, Meeting, Zone};
use super::target::Template;

/// The name suffix of a condition lasting while its bearer is in the area.
pub(crate) const IN_AREA_LABEL: &str = "in the area";

/// The AC bonus of cover (CRB "Cover": +4).
const COVER_AC: u8 = 4;

/// Miss chance of partial concealment (CRB "Concealment": 20 %).
const PARTIAL_CONCEALMENT: u8 = 20;

impl Zone {
    /// Whether square `p` is in the area: within the radius of a square of
    /// its creature, with line of effect, for an area centred on one.
    #[inline]
    pub(super) fn covers(&self, st: &BattleState<'_>, p: Pos) -> bool {
        let map = st.map();
        if let Some((a, radius)) = self.anchor {
            return map.in_bounds(p)
                && footprint(st.pos(a), st.space(a))
                    .any(|c| crate::grid::distance_ft(c, p) <= radius && st.prep.line_of_effect(c, p));
        }
        map.in_bounds(p) && self.mask[map.index(p)]
    }
}

impl BattleState<'_> {
    /// The zone's rules.
    pub(super) fn zone_rules(&self, z: &Zone) -> &ZoneEffect {
        let spell = &self.prep.spells[usize::from(z.cast.spell)].spell;
        match &spell.effects[z.effect].kind {
            EffectKind::Zone(rules) => rules,
            // `open_zone` only records the index of a zone effect.
            _ => unreachable!("a zone records the index of its zone effect"),
        }
    }

    /// Whether combatant `i` stands (any of its squares) in zone `z`.
    pub(super) fn stands_in(&self, z: &Zone, i: usize) -> bool {
        footprint(self.fighters[i].pos, self.space(i)).any(|c| z.covers(self, c))
    }

    /// Whether `i` stands in a magical silence (CRB "Silence"): it casts no
    /// spell with a verbal component, and no sonic or language-dependent
    /// spell reaches it.
    pub(crate) fn silenced(&self, i: usize) -> bool {
        self.zones.iter().any(|z| self.zone_rules(z).silence && self.stands_in(z, i))
    }

    /// Whether zone `k` is a magical silence (for the policies).
    pub(crate) fn zone_silences(&self, k: usize) -> bool {
        self.zone_rules(&self.zones[k]).silence
    }

    /// Whether `j` hears a sound `from` makes: not deafened, and neither in
    /// a magical silence (CRB "Silence": no sound passes into or out of it).
    pub(crate) fn hears(&self, from: usize, j: usize) -> bool {
        !self.has_condition(j, crate::effects::ConditionId::Deafened)
            && (self.zones.is_empty() || (!self.silenced(j) && !self.silenced(from)))
    }

    /// Whether `i` stands in an area of `spell` (for the policies: a second
    /// area of one spell does not stack on it).
    pub(crate) fn in_area_of(&self, i: usize, spell: u16) -> bool {
        self.zones.iter().any(|z| z.cast.spell == spell && self.stands_in(z, i))
    }

    /// The creatures present that zone `k` meets or holds: those standing
    /// in it and those a bond of its spell holds (for the policies).
    pub(crate) fn zone_catches(&self, k: usize) -> impl Iterator<Item = usize> + '_ {
        let z = &self.zones[k];
        (0..self.len())
            .filter(move |&t| self.is_present(t) && (self.stands_in(z, t) || self.bound_by(t, z.cast.spell)))
    }

    /// The lasting area a targeted dispel by `i` aimed at square `p` names
    /// (CRB "Dispel Magic": "one spell affecting an area (such as a wall
    /// of fire). You must name the specific spell effect"): among the
    /// areas covering `p`, a foe's before a friend's, then the one of the
    /// highest spell level, then the one opened last, as a table names the
    /// spell it most wants gone.
    pub(crate) fn zone_to_dispel_at(&self, i: usize, p: Pos) -> Option<usize> {
        (0..self.zones.len()).filter(|&k| self.zones[k].covers(self, p)).max_by_key(|&k| {
            let z = &self.zones[k];
            (self.are_enemies(i, z.cast.caster), self.cast_level(&z.cast), k)
        })
    }

    /// Whether zone `k` does something to the creatures in it beyond
    /// concealment and difficult terrain: effects each round or on
    /// entering, a check to move, or bonds (for the policies).
    pub(crate) fn zone_hinders(&self, k: usize) -> bool {
        let r = self.zone_rules(&self.zones[k]);
        !r.each_round.is_empty() || !r.on_enter.is_empty() || r.movement_check.is_some()
    }

    /// The lasting areas a mover `i` keeps out of when another way serves,
    /// of those it does not stand in already (leaving one is no detour):
    /// those of its own side (its allies know where they are; itself
    /// included) that harm or hold a creature in them (`zone_hinders`:
    /// Stinking Cloud, Cloudkill, Black Tentacles, Web, Entangle, Grease),
    /// and, unless it is mindless, those of its foes that would harm or hold
    /// it (`zone_harms`): the vapours, the strands and the grasping tentacles
    /// are there to see, and a thinking creature does not walk back into the
    /// cloud it just left to reach the wizard behind it. A mindless one
    /// (no Intelligence score) walks on; an undead walks through a Stinking
    /// Cloud that cannot touch it.
    pub(crate) fn shunned_zones(&self, i: usize) -> Vec<usize> {
        if self.zones.is_empty() {
            return Vec::new();
        }
        let thinks = self.prep.fighters[i].scores.int_score.is_some();
        (0..self.zones.len())
            .filter(|&k| {
                let z = &self.zones[k];
                if self.stands_in(z, i) {
                    return false;
                }
                if self.are_enemies(i, z.cast.caster) {
                    thinks && self.zone_harms(k, i)
                } else {
                    self.zone_hinders(k)
                }
            })
            .collect()
    }

    /// The lasting areas that harm or hold `i` (`zone_harms`, whoever cast
    /// them) which it stands in (for the policies: a creature gets out).
    pub(crate) fn hindering_zones_on(&self, i: usize) -> Vec<usize> {
        (0..self.zones.len())
            .filter(|&k| self.stands_in(&self.zones[k], i) && self.zone_harms(k, i))
            .collect()
    }

    /// Whether zone `k` can do something to `i` beyond concealment and
    /// difficult terrain: a check to move in it, or an effect each round or
    /// on entering whose filter `i` passes, of a spell none of whose
    /// descriptors `i` is immune to (Cloudkill is nothing to an undead:
    /// living creatures only, and poison).
    fn zone_harms(&self, k: usize, i: usize) -> bool {
        let z = &self.zones[k];
        let rules = self.zone_rules(z);
        if rules.movement_check.is_some() {
            return true;
        }
        let descriptors = self.prep.spells[usize::from(z.cast.spell)].descriptors;
        let immune = &self.prep.fighters[i].defense.immune;
        if crate::effects::Descriptor::ALL.iter().any(|&d| descriptors.has(d) && immune.descriptors.has(d)) {
            return false;
        }
        rules.each_round.iter().chain(&rules.on_enter).any(|e| self.passes(z.cast.caster, i, &e.only))
    }

    /// Whether leaving zone `k` asks `i` for something first: a check to
    /// move in it (Web, Grease), or bonds of its spell holding `i`
    /// (Entangle's plants, Black Tentacles' grapple).
    pub(crate) fn zone_keeps(&self, k: usize, i: usize) -> bool {
        let z = &self.zones[k];
        self.zone_rules(z).movement_check.is_some() || self.bound_by(i, z.cast.spell)
    }

    /// Whether a creature of space `s` with its top-left square on `p`
    /// would stand in any lasting area that harms or holds (`zone_hinders`).
    pub(crate) fn in_hindering(&self, p: Pos, s: i32) -> bool {
        (0..self.zones.len())
            .any(|k| self.zone_hinders(k) && footprint(p, s).any(|c| self.zones[k].covers(self, c)))
    }

    /// Whether a creature of space `s` with its top-left square on `p`
    /// would stand in one of the zones `shunned` (from `shunned_zones`).
    #[inline]
    pub(crate) fn in_shunned(&self, shunned: &[usize], p: Pos, s: i32) -> bool {
        shunned.iter().any(|&k| footprint(p, s).any(|c| self.zones[k].covers(self, c)))
    }

    /// Whether `t` is held by bonds of `spell` (Entangle's each-round
    /// saves are for those it does not hold yet).
    fn bound_by(&self, t: usize, spell: u16) -> bool {
        self.bond_of_spell(t, spell).is_some()
    }

    /// The miss chance zones give an attack by `a` on `t`: a fog gives
    /// concealment at 5 ft and total concealment beyond when either stands
    /// in it; partial and total concealment zones give theirs the same way.
    #[cold]
    pub(crate) fn zone_miss_chance(&self, a: usize, t: usize) -> u8 {
        let mut m = 0;
        for z in &self.zones {
            let Some(c) = self.zone_rules(z).concealment else { continue };
            if !self.stands_in(z, a) && !self.stands_in(z, t) {
                continue;
            }
            let chance = match c {
                ZoneConcealment::Partial => PARTIAL_CONCEALMENT,
                ZoneConcealment::Total => super::super::concealment::TOTAL_CONCEALMENT,
                ZoneConcealment::Fog if self.distance(a, t) <= 5 => PARTIAL_CONCEALMENT,
                ZoneConcealment::Fog => super::super::concealment::TOTAL_CONCEALMENT,
            };
            m = m.max(chance);
        }
        m
    }

    /// The cover bonus to AC lasting areas give `t` against an attack from
    /// `from` (Web: cover, +4, with at least `cover_ft` of the area on the
    /// line between them, both squares counted).
    #[cold]
    pub(crate) fn zone_cover(&self, from: Pos, t: usize) -> u8 {
        let to = self.fighters[t].pos;
        let (dr, dc) = (to.row - from.row, to.col - from.col);
        let n = dr.abs().max(dc.abs());
        let mut best = 0;
        for z in &self.zones {
            let Some(c) = &self.zone_rules(z).cover else { continue };
            let feet: u32 = (0..=n)
                .map(|k| {
                    let p = if n == 0 {
                        from
                    } else {
                        Pos::new(
                            from.row + (2 * k * dr + n).div_euclid(2 * n),
                            from.col + (2 * k * dc + n).div_euclid(2 * n),
                        )
                    };
                    u32::from(z.covers(self, p)) * 5
                })
                .sum();
            if feet >= c.cover_ft {
                best = COVER_AC;
            }
        }
        best
    }

    /// Whether a creature of space `s` on `p` stands on difficult terrain
    /// made by a zone (any of its squares).
    #[inline]
    pub(crate) fn zone_difficult(&self, p: Pos, s: i32) -> bool {
        !self.zones.is_empty()
            && self.zones.iter().any(|z| {
                let rules = self.zone_rules(z);
                // Grease's half speed costs as difficult terrain does.
                let slow =
                    rules.difficult_terrain || rules.movement_check.as_ref().is_some_and(|m| m.half_speed);
                slow && footprint(p, s).any(|c| z.covers(self, c))
            })
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// Leaves the area of `cast` on the map (its `zone` effect, if any).
    pub(crate) fn open_zone(&mut self, cast: &Cast, template: &Template) {
        let prep = self.st.prep;
        let spell = &prep.spells[usize::from(cast.spell)].spell;
        let Some((effect, _)) = zone_effect(&spell.effects) else { return };
        let map = self.st.map();
        let mut mask = vec![false; (map.width.max(0) * map.height.max(0)) as usize];
        for &p in &template.squares {
            if map.in_bounds(p) {
                mask[map.index(p)] = true;
            }
        }
        let ends = self.spell_ends(cast);
        let opened = self.st.round;
        let origin = template.origin;
        let from = self.st.pos(cast.caster);
        // Away from the caster: along the line from its square to the point of
        // origin; cast on its own square the area has no direction and stays.
        let drift = match &spell.effects[effect].kind {
            crate::spell::effect::EffectKind::Zone(z) => z.moves.as_ref().map(|m| Drift {
                dir: (origin.row - from.row, origin.col - from.col),
                ft: m.ft_per_round,
                moved: 0,
                stuck: origin == from,
            }),
            _ => None,
        };
        self.st.zones.push(Zone { cast: *cast, effect, mask, ends, opened, origin, drift, anchor: None });
    }

    /// Opens the lasting area of `cast` centred on creature `t`, an
    /// emanation that moves as `t` moves (CRB "Silence": "centered on a
    /// creature, ... the effect then radiates from the creature and moves
    /// as it moves"), for the spell's duration.
    pub(crate) fn open_anchored_zone(&mut self, cast: &Cast, t: usize) {
        let prep = self.st.prep;
        let spell = &prep.spells[usize::from(cast.spell)].spell;
        let Some((effect, _)) = zone_effect(&spell.effects) else { return };
        let Some(radius) = spell.area.as_ref().and_then(|a| a.radius_ft.as_ref()) else { return };
        let radius = self.roll_scaled(cast, radius).max(0) as u32;
        let ends = self.spell_ends(cast);
        let (opened, origin) = (self.st.round, self.st.pos(t));
        let zone = Zone {
            cast: *cast,
            effect,
            mask: Vec::new(),
            ends,
            opened,
            origin,
            drift: None,
            anchor: Some((t, radius)),
        };
        self.st.zones.push(zone);
    }

    /// The round at the start of whose caster's turn what `cast` leaves on
    /// the battlefield ends (an area, a construct), said in a `lasts` event:
    /// its duration in rounds (doubled by Extend Spell); `None` for a minute
    /// or more, which outlasts the battle as every other spell does.
    pub(crate) fn spell_ends(&mut self, cast: &Cast) -> Option<u32> {
        let spell = &self.st.prep.spells[usize::from(cast.spell)].spell;
        let ends = match spell.duration.unit {
            DurationUnit::Rounds => {
                let n = spell.duration.amount.as_ref().map_or(1, |a| self.roll_scaled(cast, a)).max(1) as u32;
                let n = if cast.metamagic.has(super::book::Metamagic::EXTEND) { 2 * n } else { n };
                Some(self.st.round + n)
            }
            _ => None,
        };
        emit!(
            self,
            Event::Spell {
                who: cast.caster,
                spell: spell.name.to_string(),
                what: SpellEvent::Lasts { until: ends }
            }
        );
        ends
    }

    /// The start of `i`'s turn with zones on the map: the zones of `i`
    /// (or of a caster who is gone) whose duration ran out end.
    pub(crate) fn zones_expire(&mut self, i: usize) {
        let round = self.st.round;
        let mut k = 0;
        while k < self.st.zones.len() {
            let z = &self.st.zones[k];
            let owner = z.cast.caster;
            let expired = z.ends.is_some_and(|e| round >= e);
            if expired && (owner == i || !self.st.is_present(owner)) {
                self.end_zone(k);
            } else {
                k += 1;
            }
        }
    }

    /// `i` dismisses its areas of `action.spell` (a standard action; CRB
    /// "Duration": "(D)" the caster can dismiss the spell at will): each of
    /// them ends as when its duration runs out.
    pub(crate) fn dismiss_action(&mut self, i: usize, action: Action) -> Result<(), Reason> {
        let spell = action.spell.ok_or(Reason::UnknownSpell)?;
        let prep = self.st.prep;
        let dismissible = prep.spells.get(usize::from(spell)).is_some_and(|p| p.spell.duration.dismissible);
        let mine = |z: &Zone| z.cast.caster == i && z.cast.spell == spell;
        if !dismissible || !self.st.zones.iter().any(mine) {
            return Err(Reason::NothingToDismiss);
        }
        let name = prep.spells[usize::from(spell)].spell.name.to_string();
        emit!(self, Event::Spell { who: i, spell: name, what: SpellEvent::Dismissed });
        while let Some(k) = self.st.zones.iter().position(mine) {
            self.end_zone(k);
        }
        Ok(())
    }

    /// Zone `k` ends (its duration ran out, or its caster dismissed it):
    /// what lasts while in the area lingers or ends, and the bonds it made
    /// let go (Black Tentacles' grapple, Web's strands, Entangle's plants:
    /// the area that holds is gone), unless another area of the same spell
    /// by the same caster still covers the creature.
    pub(crate) fn end_zone(&mut self, k: usize) {
        let z = &self.st.zones[k];
        let owner = z.cast.caster;
        let name = &self.st.prep.spells[usize::from(z.cast.spell)].spell.name;
        emit!(self, Event::Spell { who: owner, spell: name.to_string(), what: SpellEvent::ZoneEnds });
        let gone = self.st.zones.remove(k);
        let spell = gone.cast.spell;
        for t in 0..self.st.len() {
            self.leave_area(t, spell, true);
            let still = self
                .st
                .zones
                .iter()
                .any(|z| z.cast.spell == spell && z.cast.caster == owner && self.st.stands_in(z, t));
            if still {
                continue;
            }
            while let Some(b) = self.st.bond_of_spell(t, spell)
                && self.st.fighters[t].effects[b].source == Some(owner)
            {
                self.remove_effect_at(t, b, EffectEnd::Ends);
            }
        }
    }

    /// The start of `i`'s turn, once the effects ending then have ended:
    /// the zones of `i` timed for the start of its turn meet the creatures inside.
    pub(crate) fn zones_each_round_start(&mut self, i: usize) {
        self.zones_drift(i);
        self.zones_each_round(i, RoundTiming::StartOfCasterTurn);
    }

    /// The start of `i`'s turn: its moving areas cast in an earlier round
    /// move (CRB *Cloudkill*: "moves away from you at 10 feet per round
    /// [...] Figure out the cloud's new spread each round based on its new
    /// point of origin"). The new origin lies `ft` × the rounds moved from
    /// the first one, along the line from the caster's square at the cast
    /// through it, rounded to the nearest square; an origin off the map or
    /// on a wall stops the area where it is. The area's squares are those
    /// of the template from the new origin; a creature the area moves onto
    /// meets its `on_enter` effects.
    fn zones_drift(&mut self, i: usize) {
        let prep = self.st.prep;
        for k in 0..self.st.zones.len() {
            let z = &self.st.zones[k];
            let Some(d) = z.drift else { continue };
            if z.cast.caster != i || d.stuck || z.opened == self.st.round {
                continue;
            }
            let moved = d.moved + 1;
            let (dr, dc) = (f64::from(d.dir.0), f64::from(d.dir.1));
            let squares = f64::from(d.ft * moved) / 5.0 / dr.hypot(dc);
            let to = Pos::new(
                z.origin.row + (dr * squares).round() as i32,
                z.origin.col + (dc * squares).round() as i32,
            );
            let map = self.st.map();
            let spell = &prep.spells[usize::from(z.cast.spell)].spell;
            let mut cast = z.cast;
            cast.point = Some(to);
            cast.target = None;
            let template = spell
                .area
                .as_ref()
                .filter(|_| map.in_bounds(to) && !map.blocks_los(to))
                .and_then(|a| self.st.template(&cast, a));
            let Some(template) = template else {
                if let Some(d) = self.st.zones[k].drift.as_mut() {
                    d.stuck = true;
                }
                continue;
            };
            let before: Vec<bool> =
                (0..self.st.len()).map(|t| self.st.stands_in(&self.st.zones[k], t)).collect();
            let z = &mut self.st.zones[k];
            z.mask.iter_mut().for_each(|m| *m = false);
            for &p in &template.squares {
                if map.in_bounds(p) {
                    z.mask[map.index(p)] = true;
                }
            }
            z.drift = Some(Drift { moved, ..d });
            emit!(
                self,
                Event::Spell { who: i, spell: spell.name.to_string(), what: SpellEvent::ZoneMoves { to } }
            );
            let Some((_, rules)) = zone_effect(&spell.effects) else { continue };
            if rules.on_enter.is_empty() {
                continue;
            }
            for (t, was) in before.into_iter().enumerate() {
                if was || !self.st.is_present(t) || !self.st.stands_in(&self.st.zones[k], t) {
                    continue;
                }
                self.area_rolls.clear();
                self.zone_meets(k, t, &rules.on_enter);
            }
        }
    }

    /// The end of `i`'s turn with zones on the map: those of `i` timed for
    /// the end of its turn meet the creatures inside.
    pub(crate) fn zones_end_of_turn(&mut self, i: usize) {
        self.zones_each_round(i, RoundTiming::EndOfCasterTurn);
        let spells: Vec<u16> = self.st.fighters[i].effects.iter().filter_map(|e| e.effect.spell).collect();
        for spell in spells {
            self.leave_area(i, spell, false);
        }
    }

    /// The conditions of `spell` that last while `t` is in its area, once
    /// `t` is out of every area of `spell` (or the area ended: `ended`):
    /// they last their `amount` of rounds more (Stinking Cloud: 1d4+1), or
    /// end at once without one.
    fn leave_area(&mut self, t: usize, spell: u16, ended: bool) {
        let prep = self.st.prep;
        let s = &prep.spells[usize::from(spell)].spell;
        let label = format!("{} ({IN_AREA_LABEL})", s.name);
        let Some(k) = self.st.fighters[t].effects.iter().position(|e| {
            e.rounds_left.is_none() && e.effect.spell == Some(spell) && *e.effect.name == *label
        }) else {
            return;
        };
        let inside = !ended
            && self.st.is_present(t)
            && self.st.zones.iter().any(|z| z.cast.spell == spell && self.st.stands_in(z, t));
        if inside {
            return;
        }
        let amount = zone_effect(&s.effects).and_then(|(_, z)| {
            z.on_appear.iter().chain(&z.on_enter).chain(&z.each_round).find_map(|e| {
                e.duration.as_ref().filter(|d| d.unit == DurationUnit::InArea).and_then(|d| d.amount.clone())
            })
        });
        let cl = u32::from(self.st.fighters[t].effects[k].effect.caster_level);
        let rounds = amount.map_or(0, |a| a.roll_with(cl, self.rng, false, false).max(0) as u32);
        if rounds == 0 {
            self.remove_effect_at(t, k, EffectEnd::OutOfArea);
            return;
        }
        let f = &mut self.st.fighters[t];
        f.effects[k].rounds_left = Some(rounds);
        f.effects[k].effect.duration = crate::effects::Duration::Rounds(rounds);
        self.st.timed_effects += 1;
        emit!(self, Event::EffectLingers { who: t, effect: label.to_string(), rounds });
    }

    /// The `each_round` effects of `i`'s zones timed `when`, on every creature inside.
    fn zones_each_round(&mut self, i: usize, when: RoundTiming) {
        let prep = self.st.prep;
        let round = self.st.round;
        // Areas of one spell overlapping do not stack (CRB "Combining
        // Magic Effects"): a creature in two of them meets one a round.
        self.st.zone_met.retain(|m| m.2 == round);
        for k in 0..self.st.zones.len() {
            let z = &self.st.zones[k];
            if z.cast.caster != i {
                continue;
            }
            let rules = self.st.zone_rules(z);
            if rules.each_round.is_empty()
                || rules.each_round_timing != when
                || (when == RoundTiming::EndOfCasterTurn && z.opened == self.st.round)
            {
                continue;
            }
            let cast = z.cast;
            // A grapple (Black Tentacles) checks those it holds too, to keep its hold.
            let grasps = rules.each_round.iter().any(|e| matches!(e.kind, EffectKind::Maneuver(_)));
            let inside: Vec<usize> = (0..self.st.len())
                .filter(|&t| {
                    self.st.is_present(t)
                        && self.st.stands_in(&self.st.zones[k], t)
                        && (grasps || !self.st.bound_by(t, cast.spell))
                })
                .collect();
            let spell = &prep.spells[usize::from(cast.spell)].spell;
            let Some((_, rules)) = zone_effect(&spell.effects) else { continue };
            // What is rolled once for all is rolled anew each round.
            self.area_rolls.clear();
            for t in inside {
                if self.st.zone_met.contains(&(cast.spell, t, round)) {
                    continue;
                }
                self.st.zone_met.push((cast.spell, t, round));
                self.zone_meets(k, t, &rules.each_round);
            }
        }
    }

    /// `i` stepped from `from` onto `to`: the `on_enter` effects of every
    /// zone it was not in and is now.
    pub(crate) fn zones_entered(&mut self, i: usize, from: Pos, to: Pos) {
        let prep = self.st.prep;
        let s = self.st.space(i);
        for k in 0..self.st.zones.len() {
            let z = &self.st.zones[k];
            let rules = self.st.zone_rules(z);
            if rules.on_enter.is_empty() {
                continue;
            }
            let was = footprint(from, s).any(|c| z.covers(&self.st, c));
            let is = footprint(to, s).any(|c| z.covers(&self.st, c));
            if was || !is {
                continue;
            }
            let cast = z.cast;
            if self.st.bound_by(i, cast.spell) {
                continue;
            }
            let spell = &prep.spells[usize::from(cast.spell)].spell;
            let Some((_, rules)) = zone_effect(&spell.effects) else { continue };
            // A creature entering meets rolls of its own.
            self.area_rolls.clear();
            self.zone_meets(k, i, &rules.on_enter);
            if !self.st.is_active(i) {
                return;
            }
        }
    }

    /// `i` steps from `from` onto `to` in a move (`checked`: it already made
    /// this move's check): a zone with a check to move through it (Web) on
    /// either square asks for one, once a move, the best of its checks
    /// against the spell's DC; failure applies `on_failure` (Web: grappled
    /// in that square) and the mover loses the rest of its movement.
    pub(crate) fn zones_moved(&mut self, i: usize, from: Pos, to: Pos, checked: &mut bool) -> bool {
        if *checked {
            return false;
        }
        let prep = self.st.prep;
        let s = self.st.space(i);
        for k in 0..self.st.zones.len() {
            let z = &self.st.zones[k];
            let Some(m) = &self.st.zone_rules(z).movement_check else { continue };
            let inside = footprint(from, s).chain(footprint(to, s)).any(|c| z.covers(&self.st, c));
            if !inside {
                continue;
            }
            *checked = true;
            let cast = z.cast;
            let dc = match m.dc {
                CheckDc::SpellDc => cast.dc,
                CheckDc::Fixed(d) => d as i32,
            };
            let skills: Vec<EscapeSkill> = m
                .checks
                .iter()
                .map(|c| match c {
                    MovementCheckKind::EscapeArtist => EscapeSkill::EscapeArtist,
                    MovementCheckKind::Cmb => EscapeSkill::Cmb,
                    MovementCheckKind::Acrobatics => EscapeSkill::Acrobatics,
                })
                .collect();
            let Some(bonus) =
                skills.iter().map(|&sk| (self.st.escape_check_bonus(i, sk), sk)).max_by_key(|x| x.0)
            else {
                return false;
            };
            let spell = &prep.spells[usize::from(cast.spell)].spell;
            let d20 = self.rng.roll(20) as i32;
            let ok = d20 + bonus.0 >= dc;
            emit!(
                self,
                Event::EscapeCheck {
                    who: i,
                    bond: spell.name.to_string(),
                    skill: bonus.1,
                    moving: true,
                    d20,
                    bonus: bonus.0,
                    total: d20 + bonus.0,
                    dc,
                    ok,
                    stopped_at: (!ok).then_some(to)
                }
            );
            if !ok {
                let Some((_, rules)) = zone_effect(&spell.effects) else { return true };
                let Some(m) = &rules.movement_check else { return true };
                // Grease: failing by 5 or more falls; a lesser failure saves or falls.
                let effects = if dc - (d20 + bonus.0) >= 5 && !m.on_failure_by_5.is_empty() {
                    &m.on_failure_by_5
                } else {
                    &m.on_failure
                };
                self.zone_meets(k, i, effects);
            }
            // A failure loses the rest of the movement where it is.
            return !ok;
        }
        false
    }

    /// `effects` of zone `k` meet `t`: a globe raised before the zone,
    /// spell resistance and immunities as for any casting, then the
    /// effects with their saves.
    fn zone_meets(&mut self, k: usize, t: usize, effects: &[SpellEffect]) {
        let cast = self.st.zones[k].cast;
        let spell = &self.st.prep.spells[usize::from(cast.spell)].spell;
        if !self.st.targetable(t, spell) {
            return;
        }
        if self.st.globe_excludes(t, self.st.cast_level(&cast), Some(k)) {
            emit!(self, Event::Spell { who: t, spell: spell.name.to_string(), what: SpellEvent::KeptOut });
            return;
        }
        let mut meeting = Meeting { past_globes: true, ..Meeting::default() };
        if !self.passes_defenses(&cast, t, &mut meeting) {
            return;
        }
        self.affect_with(&cast, t, effects, &mut meeting);
    }
}
