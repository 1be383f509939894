//! Resolving a casting on the creatures it reaches (CRB "Spell
//! Resistance", "Saving Throw", "Aiming a Spell"): the touch or ray attack
//! rolls (with critical hits), the creatures an area holds, spell
//! resistance per creature, immunities, and the saving throws each effect
//! calls for (one roll per kind of save and creature, harmless spells
//! forgone by willing allies, cover on Reflex saves against an area).

use crate::effects::{Behaviour, Behaviours, Context, Descriptor, SaveKind, Targets};
use crate::rng::Dice;
use crate::spell::effect::{EffectKind, EffectSave};
use crate::spell::model::{AttackKind, SaveBonusWhen, SaveOutcome, TargetKind};

use super::super::engine::Engine;
use super::super::event::{AcKind, Attack, AttackStep, EffectEnd, Event, SpellEvent, TouchKind};
use super::super::log::emit;
use super::casting::{Cast, Meeting};

fn save_index(kind: SaveKind) -> usize {
    match kind {
        SaveKind::Fort => 0,
        SaveKind::Ref => 1,
        SaveKind::Will => 2,
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// Resolves `cast` (a touch spell on a foe goes through `resolve_touch`):
    /// summons, or every creature reached, with attack rolls for rays and
    /// ranged touch spells.
    pub(crate) fn resolve(&mut self, cast: Cast) {
        let prep = self.st.prep;
        let prepared = &prep.spells[usize::from(cast.spell)];
        let spell = &prepared.spell;
        if prepared.role.summon {
            self.summon(cast);
            return;
        }
        let i = cast.caster;
        // A hostile spell cast ends the caster's invisibility and sanctuary.
        if !spell.harmless && !prepared.role.buff && !prepared.role.heal {
            self.bearer_attacks(i);
        }
        if prepared.role.construct {
            self.conjure(cast);
            return;
        }
        if let (None, Some(p)) = (cast.target, cast.point)
            && let Some(d) = super::dispel::targeted_dispel(spell)
        {
            self.dispel_area(&cast, p, d.max_caster_level);
            return;
        }
        self.area_rolls.clear();
        let mut targets: Vec<usize> = Vec::new();
        let mut reflex_cover: Vec<i32> = Vec::new();
        if let Some(area) = spell.area.as_ref().filter(|_| spell.target.is_none()) {
            let Some(template) = self.st.template(&cast, area) else {
                emit!(self, Event::Spell { who: i, spell: spell.name.to_string(), what: SpellEvent::NoArea });
                return;
            };
            if super::book::zone_effect(&spell.effects).is_some() {
                self.open_zone(&cast, &template);
            }
            self.st.in_template(&cast, spell, &template, &mut targets);
            // A swallowed creature is inside its swallower (`monster::swallow`).
            targets.retain(|&t| !self.st.is_swallowed(t));
            if let Some(pool) = &area.hit_dice_pool {
                let mut pool = pool.roll_with(cast.cl, self.rng, false, false);
                let origin = template.origin;
                targets.sort_by_key(|&t| {
                    (self.st.prep.fighters[t].nature.hd, crate::grid::distance_ft(origin, self.st.pos(t)), t)
                });
                targets.retain(|&t| {
                    let hd = self.st.prep.fighters[t].nature.hd as i32;
                    if hd <= pool {
                        pool -= hd;
                        true
                    } else {
                        false
                    }
                });
            }
            for &t in &targets {
                let cover = self.st.prep.terrain_cover(template.origin, self.st.pos(t), false);
                reflex_cover.push(i32::from(cover) / 2);
            }
            emit!(
                self,
                Event::Spell {
                    who: i,
                    spell: spell.name.to_string(),
                    what: SpellEvent::Covers {
                        squares: template.squares.len() as u32,
                        creatures: targets.clone()
                    }
                }
            );
        } else {
            self.gather_targets(&cast, &mut targets);
            reflex_cover.resize(targets.len(), 0);
        }
        let ranged_attack =
            spell.attack.as_ref().filter(|a| a.kind != AttackKind::MeleeTouch).map(|a| a.kind);
        let projectiles = spell.effects.iter().find_map(|e| match &e.kind {
            EffectKind::Damage(d) => d.projectiles.as_ref(),
            _ => None,
        });
        let secondaries = spell.target.as_ref().is_some_and(|t| t.kind == TargetKind::PrimaryAndSecondary);
        for (k, &t) in targets.iter().enumerate() {
            if !self.st.targetable(t, spell) {
                continue;
            }
            let mut meeting = Meeting {
                // CRB "Voluntarily Giving up a Saving Throw": an ally accepts a spell that helps it.
                willing: (spell.harmless || prepared.role.buff) && !self.st.are_enemies(i, t),
                secondary: secondaries && k > 0,
                reflex_cover: reflex_cover.get(k).copied().unwrap_or(0),
                ..Meeting::default()
            };
            if !self.passes_defenses(&cast, t, &mut meeting) {
                continue;
            }
            match (ranged_attack, projectiles) {
                // Each projectile (a ray) makes its own attack roll.
                (Some(kind), Some(n)) => {
                    let n = n.fixed_at(cast.cl).unwrap_or(1).max(1);
                    for _ in 0..n {
                        if !self.st.targetable(t, spell) {
                            break;
                        }
                        let ray = kind == AttackKind::Ray;
                        let (hit, crit) = self.touch_attack(i, t, false, ray, spell_deals_damage(spell), 0);
                        if hit {
                            let mut m = meeting.clone();
                            m.crit = crit;
                            self.affect(&cast, t, &mut m, Some(1));
                        }
                    }
                }
                (Some(kind), None) => {
                    let (hit, crit) =
                        self.touch_attack(i, t, false, kind == AttackKind::Ray, spell_deals_damage(spell), 0);
                    if hit {
                        meeting.crit = crit;
                        self.affect(&cast, t, &mut meeting, None);
                    }
                }
                (None, _) => self.affect(&cast, t, &mut meeting, None),
            }
        }
    }

    /// A melee touch attack delivering `cast` to its target: whether it hit
    /// (an ally willing to be touched needs no roll).
    pub(crate) fn resolve_touch(&mut self, cast: Cast) -> bool {
        let prep = self.st.prep;
        let spell = &prep.spells[usize::from(cast.spell)].spell;
        let i = cast.caster;
        let Some(t) = cast.target else { return false };
        if !self.st.are_enemies(i, t) || !self.st.is_active(t) {
            self.resolve(cast);
            return true;
        }
        if !spell.harmless {
            self.bearer_attacks(i);
        }
        let hand = if cast.weapon.is_none() { self.st.hand_for(i, spell) } else { None };
        let (hit, crit) = match (cast.weapon, hand) {
            (Some(w), _) => self.spellstrike_hit(i, w, t),
            // The hand carries it: +2, and no flanking (`hand.rs`).
            (None, Some(h)) => {
                emit!(
                    self,
                    Event::Spell {
                        who: i,
                        spell: spell.name.clone(),
                        what: SpellEvent::ByHand { target: t }
                    }
                );
                let penalty = self.st.flank_bonus(i, t) - h.bonus;
                self.touch_attack_by(i, t, true, false, spell_deals_damage(spell), penalty, true)
            }
            (None, None) => self.touch_attack(i, t, true, false, spell_deals_damage(spell), 0),
        };
        if !hit {
            return false;
        }
        let mut meeting = Meeting { crit, ..Meeting::default() };
        if self.passes_defenses(&cast, t, &mut meeting) {
            self.affect(&cast, t, &mut meeting, None);
        }
        true
    }

    /// The creatures a targeted spell reaches: its target, then for
    /// `creatures` the nearest others of the same side (as many as `count`,
    /// within `within_ft` of the target), for `primary_and_secondary` the
    /// nearest enemies within `within_ft`. A spell with projectiles puts them
    /// all on its target.
    fn gather_targets(&self, cast: &Cast, out: &mut Vec<usize>) {
        let st = &self.st;
        let spell = &st.prep.spells[usize::from(cast.spell)].spell;
        let i = cast.caster;
        // An extract: its drinker alone, whatever the spell could reach.
        let Some(tg) = spell.target.as_ref().filter(|_| !cast.extract) else {
            out.push(i);
            return;
        };
        let primary = match tg.kind {
            TargetKind::Caster => i,
            _ => match cast.target {
                Some(t) => t,
                None => return,
            },
        };
        out.push(primary);
        let projectiles =
            spell.effects.iter().any(|e| matches!(&e.kind, EffectKind::Damage(d) if d.projectiles.is_some()));
        let extra = match tg.kind {
            TargetKind::Creatures if !projectiles => {
                tg.count.as_ref().and_then(|c| c.fixed_at(cast.cl)).unwrap_or(1).max(1) as usize - 1
            }
            TargetKind::PrimaryAndSecondary => {
                tg.count.as_ref().and_then(|c| c.fixed_at(cast.cl)).unwrap_or(0).max(0) as usize
            }
            _ => 0,
        };
        if extra == 0 {
            return;
        }
        let within = tg.within_ft.unwrap_or(u32::MAX);
        let enemy = st.are_enemies(i, primary);
        let mut others: Vec<usize> = (0..st.len())
            .filter(|&j| {
                j != primary
                    && st.targetable(j, spell)
                    && st.are_enemies(i, j) == enemy
                    && st.distance(primary, j) <= within
                    && st.passes(i, j, &tg.filter)
                    && st.spell_reaches(i, j, spell, cast.cl).is_ok()
            })
            .collect();
        others.sort_by_key(|&j| (st.distance(primary, j), j));
        out.extend(others.into_iter().take(extra));
    }

    /// A touch attack or ray of `a` at `t` (melee or ranged touch AC, no range
    /// penalty for a spell; `penalty` off the roll: a thrown web's range
    /// increments): whether it hits, and whether it is a confirmed critical
    /// hit (a damaging spell threatens on a natural 20).
    pub(crate) fn touch_attack(
        &mut self,
        a: usize,
        t: usize,
        melee: bool,
        ray: bool,
        can_crit: bool,
        penalty: i32,
    ) -> (bool, bool) {
        self.touch_attack_by(a, t, melee, ray, can_crit, penalty, false)
    }

    /// [`Self::touch_attack`], made by `a`'s spectral hand when `by_hand`
    /// (`hand.rs`): the hand's body is not `a`'s, so nothing strikes back.
    #[allow(clippy::too_many_arguments)]
    fn touch_attack_by(
        &mut self,
        a: usize,
        t: usize,
        melee: bool,
        ray: bool,
        can_crit: bool,
        penalty: i32,
        by_hand: bool,
    ) -> (bool, bool) {
        if !self.sanctuary_allows(a, t) {
            return (false, false);
        }
        let mut s = self.st.touch_situation(a, t, melee);
        s.attack -= penalty;
        let d20 = self.rng.roll(20) as i32;
        let total = d20 + s.attack;
        let mut hit = d20 != 1 && (d20 == 20 || total >= s.ac);
        let kind = if melee {
            TouchKind::Touch
        } else if ray {
            TouchKind::Ray
        } else {
            TouchKind::RangedTouch
        };
        // The event is an `Attack` for its steps (threat, miss chance, image); emitted as a `TouchAttack`.
        let mut ev = self.log.on().then(|| {
            Box::new(Attack {
                who: a,
                target: t,
                weapon: String::new(),
                aoo: false,
                d20,
                bonus: s.attack,
                total,
                ac_kind: AcKind::Touch,
                ac: s.ac,
                notes: Vec::new(),
                steps: Vec::new(),
            })
        });
        let ctx = Context { melee, ranged: !melee, ..Context::default() };
        let true_strike = Behaviours(self.st.fighters[a].fx).has(Behaviours::TRUE_STRIKE);
        self.spend_one_shots(a, if melee { Targets::MELEE_ATTACK } else { Targets::RANGED_ATTACK }, &ctx);
        let mut crit = false;
        if hit && can_crit && d20 == 20 {
            let c20 = self.rng.roll(20) as i32;
            crit = c20 != 1 && (c20 == 20 || c20 + s.attack >= s.ac);
            if let Some(ev) = ev.as_mut() {
                let crit_mult = crit.then_some(2);
                ev.steps.push(AttackStep::Threat {
                    d20: c20,
                    bonus: s.attack,
                    total: c20 + s.attack,
                    crit_mult,
                });
            }
        }
        if hit {
            let miss_chance = if true_strike { 0 } else { self.st.miss_chance(a, t, melee) };
            if miss_chance > 0 {
                let d100 = self.rng.roll(100);
                if d100 <= u32::from(miss_chance) {
                    hit = false;
                    crit = false;
                    if let Some(ev) = ev.as_mut() {
                        let step = AttackStep::MissChance {
                            blinded: false,
                            chance: miss_chance,
                            d100,
                            missed: true,
                        };
                        ev.steps.push(step);
                    }
                }
            }
        }
        if hit && self.image_takes_hit(a, t, s.attack, d20, &mut ev) {
            hit = false;
            crit = false;
        }
        if hit {
            let out = &mut self.st.fighters[a].out;
            out.hits += 1;
            out.crits += u32::from(crit);
        }
        if let Some(ev) = ev {
            let Attack { d20, bonus, total, ac, steps, .. } = *ev;
            let event = Event::TouchAttack { who: a, target: t, kind, d20, bonus, total, ac, steps, hit };
            self.log.push(self.st.round, event);
        }
        if hit && melee && !by_hand {
            // A hand that touches a Fire Shield burns (`retaliation.rs`).
            self.retaliate(a, None, t);
        }
        self.after_attack(a, t, false);
        (hit, crit)
    }

    /// Spell resistance, the dispels of the spell, and immunities: whether
    /// the casting affects `t` at all.
    pub(crate) fn passes_defenses(&mut self, cast: &Cast, t: usize, meeting: &mut Meeting) -> bool {
        let prep = self.st.prep;
        let prepared = &prep.spells[usize::from(cast.spell)];
        let spell = &prepared.spell;
        let i = cast.caster;
        let spec = &prep.fighters[t];
        if !meeting.past_globes && !self.st.zones.is_empty() {
            let level = self.st.cast_level(cast);
            if self.st.globe_excludes(t, level, None) {
                emit!(
                    self,
                    Event::Spell { who: t, spell: spell.name.to_string(), what: SpellEvent::KeptOut }
                );
                return false;
            }
        }
        // No sonic or language-dependent spell gets into a magical silence (CRB "Silence").
        if (prepared.descriptors.has(Descriptor::Sonic)
            || prepared.descriptors.has(Descriptor::LanguageDependent))
            && !self.st.zones.is_empty()
            && self.st.silenced(t)
        {
            emit!(self, Event::Spell { who: t, spell: spell.name.to_string(), what: SpellEvent::Unheard });
            return false;
        }
        let immune = &spec.defense.immune;
        let descriptors = prepared.descriptors;
        // Immunity to an energy keeps its damage out, not a helpful spell of
        // its descriptor: a lich immune to cold still raises a Fire Shield.
        let energy = |d: Descriptor| {
            matches!(
                d,
                Descriptor::Acid
                    | Descriptor::Cold
                    | Descriptor::Electricity
                    | Descriptor::Fire
                    | Descriptor::Sonic
            )
        };
        let immune_desc = Descriptor::ALL
            .iter()
            .any(|&d| descriptors.has(d) && immune.descriptors.has(d) && !(meeting.willing && energy(d)))
            || (!meeting.willing && self.effect_immune_to(t, cast.spell, descriptors));
        let fortitude = spell.saving_throw.as_ref().is_some_and(|s| s.kind == SaveKind::Fort);
        let nonliving_fort = immune.fortitude && fortitude && !spell.harmless;
        if immune_desc
            || immune.subschool(prepared.subschool)
            || (immune.magic && spell.spell_resistance)
            || nonliving_fort
        {
            // Energy that heals or slows a golem anyway (`monster::golem`).
            let exception = immune.magic
                && spell.spell_resistance
                && !immune_desc
                && prep.fighters[t].monster.as_deref().is_some_and(|m| m.magic_energy.is_some())
                && self.magic_immunity_exception(cast, t);
            if !exception {
                emit!(self, Event::Spell { who: t, spell: spell.name.to_string(), what: SpellEvent::Immune });
            }
            // Electricity on a shambling mound: no damage, Constitution instead (`monster::fortitude`).
            if immune_desc && self.st.spell_fortifies(t, cast.spell) {
                self.energy_fortitude(t);
            }
            return false;
        }
        if spell.spell_resistance && !meeting.willing && t != i && !self.overcomes_resistance(cast, t) {
            return false;
        }
        if !spell.dispels.is_empty() {
            for other in &spell.dispels {
                if let Some(k) = prep.spells.iter().position(|p| &p.id == other) {
                    self.end_spell_on(t, k as u16, EffectEnd::Dispelled);
                }
            }
        }
        true
    }

    /// The spell resistance check of `cast` against `t` (caster level +
    /// spell penetration against its SR): whether the casting gets through
    /// (always, without spell resistance).
    pub(crate) fn overcomes_resistance(&mut self, cast: &Cast, t: usize) -> bool {
        let prep = self.st.prep;
        let sr = prep.fighters[t].defense.spell_resistance as i32;
        if sr <= 0 {
            return true;
        }
        let pen = prep.fighters[cast.caster].caster.as_deref().map_or(0, |c| c.penetration);
        let bonus = cast.cl as i32 + pen;
        let d20 = self.rng.roll(20) as i32;
        let ok = d20 + bonus >= sr;
        emit!(
            self,
            Event::Spell {
                who: t,
                spell: prep.spells[usize::from(cast.spell)].spell.name.to_string(),
                what: SpellEvent::Resistance { sr, d20, bonus, overcome: ok }
            }
        );
        ok
    }

    /// Whether an effect on `t` makes it immune to this spell or its descriptors.
    fn effect_immune_to(&self, t: usize, spell: u16, descriptors: crate::effects::Descriptors) -> bool {
        let f = &self.st.fighters[t];
        if !Behaviours(f.fx).has(Behaviours::IMMUNITY) {
            return false;
        }
        f.effects.iter().flat_map(|e| e.effect.behaviours.iter()).any(|b| match b {
            Behaviour::Immunity { descriptors: d, spells, .. } => {
                spells.contains(&spell) || Descriptor::ALL.iter().any(|&x| d.has(x) && descriptors.has(x))
            }
            _ => false,
        })
    }

    /// Ends every effect of spell `spell` on `t`.
    pub(crate) fn end_spell_on(&mut self, t: usize, spell: u16, why: EffectEnd) {
        while let Some(k) = self.st.fighters[t].effects.iter().position(|e| e.effect.spell == Some(spell)) {
            self.remove_effect_at(t, k, why);
        }
    }

    /// Whether effect `e` of the casting succeeds its save on `t` (rolling
    /// the save of its kind once): `None` when no save applies.
    pub(crate) fn effect_save(
        &mut self,
        cast: &Cast,
        t: usize,
        save: Option<EffectSave>,
        save_kind: Option<SaveKind>,
        meeting: &mut Meeting,
    ) -> Option<(bool, EffectSave)> {
        let prep = self.st.prep;
        let prepared = &prep.spells[usize::from(cast.spell)];
        let spell = &prepared.spell;
        let st = spell.saving_throw.as_ref()?;
        let how = match save {
            Some(s) => s,
            None => match st.outcome {
                SaveOutcome::Negates | SaveOutcome::Disbelief => EffectSave::Negates,
                SaveOutcome::Half => EffectSave::Half,
                SaveOutcome::Partial => EffectSave::None,
            },
        };
        if how == EffectSave::None || meeting.willing {
            return None;
        }
        let kind = save_kind.unwrap_or(st.kind);
        let k = save_index(kind);
        if let Some(ok) = meeting.saves[k] {
            return Some((ok, how));
        }
        let i = cast.caster;
        let mut dc = cast.dc;
        if meeting.secondary {
            dc += spell.target.as_ref().map_or(0, |tg| tg.secondary_dc_adjust);
        }
        let mut bonus_extra = 0;
        for b in &st.bonuses {
            let applies = match b.when {
                SaveBonusWhen::DifferentCreatureType => {
                    prep.fighters[i].nature.ctype != prep.fighters[t].nature.ctype
                }
                SaveBonusWhen::ThreatenedByCasterSide => (0..self.st.len()).any(|j| {
                    !self.st.are_enemies(i, j) && self.st.are_enemies(j, t) && self.st.threatens(j, t)
                }),
            };
            if applies {
                bonus_extra += b.value;
            }
        }
        if kind == SaveKind::Ref {
            bonus_extra += meeting.reflex_cover;
        }
        let ctx = Context {
            descriptors: prepared.descriptors,
            spell: true,
            other_alignment: prep.fighters[i].nature.alignment,
            other_type: prep.fighters[i].nature.creature_type,
            ..Context::default()
        };
        let ok = self.roll_save(t, kind, dc - bonus_extra, &ctx);
        meeting.saves[k] = Some(ok);
        Some((ok, how))
    }
}

/// Whether the spell deals hit point damage (its attack can be a critical hit).
fn spell_deals_damage(spell: &crate::spell::Spell) -> bool {
    spell.effects.iter().any(|e| matches!(e.kind, EffectKind::Damage(_)))
}
