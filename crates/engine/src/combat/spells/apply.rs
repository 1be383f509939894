//! What each effect kind does to a creature the casting reached, once its
//! saves are known: damage and healing now, lasting parts (modifiers,
//! conditions, behaviours, temporary hit points) gathered by duration into
//! effects of the shared effects layer, so that the stacking rule counts
//! nothing twice and durations, dispelling and the same-spell rule apply.

use std::sync::Arc;

use crate::dice::{DiceExpr, ability_modifier};
use crate::effects::effect::ENERGY;
use crate::effects::{
    Behaviour, BonusType, Compulsion, ConditionId, ConditionSet, Descriptors, Duration, Effect, Mod,
    ModTarget, Recurring, Retry, SaveKind, energy_bits,
};
use crate::feats::Evasion;
use crate::rng::Dice;
use crate::spell::Scaled;
use crate::spell::effect::{
    Behaviour as CompelBehaviour, DamageEffect, EffectKind, EffectSave, EscapeDc, HealEffect, RerollMode,
    SaveAgain, SpellEffect,
};
use crate::spell::model::{CreatureType, DurationUnit, SaveOutcome, SpellDuration};

use super::super::engine::Engine;
use super::super::event::{EffectEnd, Event, SpellEffectEvent, SpellEvent};
use super::super::log::emit;
use super::super::riders::EnergyShield;
use super::book::{Metamagic, lasts_the_battle};
use super::casting::{Cast, Meeting};

/// One lasting part of a casting on a creature, for one duration.
#[derive(Debug, Default)]
pub(crate) struct Part {
    /// Rounds (`None`: for the rest of the battle).
    pub rounds: Option<u32>,
    pub mods: Vec<Mod>,
    pub conditions: ConditionSet,
    pub behaviours: Vec<Behaviour>,
    pub temp_hp: u32,
    pub pool: i32,
    pub recurring: Option<Recurring>,
    pub one_shot: bool,
    /// A suffix for its name (`ability damage`), when it must stay apart.
    pub label: Option<&'static str>,
}

/// The lasting parts of a casting on one creature.
#[derive(Debug, Default)]
pub(crate) struct Pack {
    pub parts: Vec<Part>,
}

impl Pack {
    /// The part lasting `rounds` (shared by every effect of that duration).
    fn part(&mut self, rounds: Option<u32>) -> &mut Part {
        let k = match self.parts.iter().position(|p| p.rounds == rounds && !p.one_shot && p.label.is_none()) {
            Some(k) => k,
            None => {
                self.parts.push(Part { rounds, ..Part::default() });
                self.parts.len() - 1
            }
        };
        &mut self.parts[k]
    }

    /// A part of its own (one-shot bonuses, ability damage).
    fn separate(&mut self, rounds: Option<u32>, label: Option<&'static str>) -> &mut Part {
        self.parts.push(Part { rounds, label, ..Part::default() });
        let k = self.parts.len() - 1;
        &mut self.parts[k]
    }
}

/// How long an effect lasts: not at all (`None`, instantaneous), for the
/// battle (`Some(None)`), or a number of rounds.
type Lasting = Option<Option<u32>>;

/// The energy index of a damage type (`fire` → 3), if it is an energy.
pub(crate) fn energy_index(t: &str) -> Option<usize> {
    let t = t.trim().to_lowercase();
    ENERGY.iter().position(|e| *e == t)
}

impl<R: Dice> Engine<'_, '_, R> {
    /// Every effect of `cast` on `t`, its saves rolled as the effects ask.
    /// `single`: one projectile of a spell whose projectiles roll their own
    /// attacks (a ray of Scorching Ray that hit).
    pub(crate) fn affect(&mut self, cast: &Cast, t: usize, m: &mut Meeting, single: Option<u32>) {
        let prep = self.st.prep;
        let spell = &prep.spells[usize::from(cast.spell)].spell;
        if let Some(st) = &spell.saving_throw
            && st.outcome == SaveOutcome::Disbelief
            && !m.willing
            && let Some((true, _)) = self.effect_save(cast, t, Some(EffectSave::Negates), Some(st.kind), m)
        {
            emit!(
                self,
                Event::Spell { who: t, spell: spell.name.to_string(), what: SpellEvent::Disbelieves }
            );
            return;
        }
        if spell.immunity_after.is_some() && self.st.fighters[t].marks.contains(&(usize::MAX, cast.spell)) {
            // "Immune to this spell for 1 minute" (Daze): within a battle, for good.
            emit!(
                self,
                Event::Spell { who: t, spell: spell.name.to_string(), what: SpellEvent::ImmuneAlready }
            );
            return;
        }
        let mut pack = Pack::default();
        let size_before = self.st.size(t);
        for e in &spell.effects {
            if !self.st.is_present(t) {
                break;
            }
            self.apply_one(cast, t, e, m, &mut pack, single);
        }
        self.commit(cast, t, pack);
        if self.st.size(t) != size_before {
            emit!(
                self,
                Event::SpellEffect { who: t, what: SpellEffectEvent::Resized { size: self.st.size(t) } }
            );
        }
        if let Some(after) = &spell.immunity_after
            && self.st.is_present(t)
            && !lasts_the_battle(after.unit)
        {
            // Shorter immunities (none in the data set) still outlast a round or two: kept for the battle.
        }
        if spell.immunity_after.is_some() {
            self.st.fighters[t].marks.push((usize::MAX, cast.spell));
        }
    }

    /// Some effects of `cast` on `t` (a zone's `each_round` or `on_enter`),
    /// their saves rolled as they ask.
    pub(crate) fn affect_with(&mut self, cast: &Cast, t: usize, effects: &[SpellEffect], m: &mut Meeting) {
        let mut pack = Pack::default();
        for e in effects {
            if !self.st.is_present(t) {
                break;
            }
            self.apply_one(cast, t, e, m, &mut pack, None);
        }
        self.commit(cast, t, pack);
    }

    /// Gives `t` the lasting parts of a casting, as effects named after the spell.
    fn commit(&mut self, cast: &Cast, t: usize, pack: Pack) {
        if !self.st.is_present(t) {
            return;
        }
        let name = &self.st.prep.spells[usize::from(cast.spell)].spell.name;
        let mut plain = 0;
        for part in pack.parts {
            if part.mods.is_empty()
                && part.conditions.is_empty()
                && part.behaviours.is_empty()
                && part.temp_hp == 0
                && part.recurring.is_none()
            {
                continue;
            }
            let label = match part.label {
                Some(l) => format!("{name} ({l})"),
                None if part.one_shot => format!("{name} (one use)"),
                None => {
                    plain += 1;
                    if plain == 1 { name.clone() } else { format!("{name} ({plain})") }
                }
            };
            let duration = part.rounds.map_or(Duration::UntilRemoved, Duration::Rounds);
            let mut effect = Effect::new(&label, duration)
                .with_mods(part.mods)
                .with_conditions(part.conditions)
                .with_behaviours(part.behaviours);
            effect.temp_hp = part.temp_hp;
            effect.recurring = part.recurring;
            effect.one_shot = part.one_shot;
            effect.spell = Some(cast.spell);
            effect.caster_level = cast.cl.min(255) as u8;
            effect.pool = part.pool;
            self.apply_effect(t, effect, Some(cast.caster));
        }
    }

    /// How long effect `e` of `cast` lasts (its own duration, else the spell's; Extend doubles rounds).
    fn lasting(&mut self, cast: &Cast, d: &SpellDuration) -> Lasting {
        match d.unit {
            DurationUnit::Instantaneous => None,
            DurationUnit::EndOfTurn => Some(Some(1)),
            DurationUnit::Rounds => {
                let amount = d.amount.as_ref().map_or(1, |a| self.roll_scaled(cast, a));
                let n = amount.max(1) as u32;
                Some(Some(if cast.metamagic.has(Metamagic::EXTEND) { 2 * n } else { n }))
            }
            _ => Some(None),
        }
    }

    /// Rolls a level-scaled value of `cast` (Empower and Maximize apply).
    pub(crate) fn roll_scaled(&mut self, cast: &Cast, v: &Scaled) -> i32 {
        let empower = cast.metamagic.has(Metamagic::EMPOWER);
        let maximize = cast.metamagic.has(Metamagic::MAXIMIZE);
        v.roll_with(cast.cl, self.rng, empower, maximize)
    }

    /// One effect of `cast` on `t`: its filter, its save, then its kind.
    pub(super) fn apply_one(
        &mut self,
        cast: &Cast,
        t: usize,
        e: &SpellEffect,
        m: &mut Meeting,
        pack: &mut Pack,
        single: Option<u32>,
    ) {
        let prep = self.st.prep;
        let spell = &prep.spells[usize::from(cast.spell)].spell;
        if !self.st.passes(cast.caster, t, &e.only) {
            return;
        }
        let mut half = false;
        let saved = self.effect_save(cast, t, e.save, e.save_kind, m);
        match saved {
            Some((true, EffectSave::Negates)) => {
                for child in &e.on_success {
                    self.apply_one(cast, t, child, m, pack, single);
                }
                return;
            }
            Some((true, EffectSave::Half)) => half = true,
            _ => {}
        }
        // Evasion (CRB, rogue 2nd level): a Reflex save against damage the
        // save halves; never while helpless.
        if let (EffectKind::Damage(_), Some((ok, EffectSave::Half))) = (&e.kind, saved)
            && prep.fighters[t].feats.evasion != Evasion::None
            && e.save_kind.or(spell.saving_throw.as_ref().map(|st| st.kind)) == Some(SaveKind::Ref)
            && !self.st.is_helpless(t)
        {
            match (prep.fighters[t].feats.evasion, ok) {
                (_, true) => {
                    emit!(self, Event::SpellEffect { who: t, what: SpellEffectEvent::Evades });
                    return;
                }
                (Evasion::Improved, false) => half = true,
                _ => {}
            }
        }
        // An energy ward (Fire Shield): no damage of its energy when a
        // Reflex save for half succeeds.
        if let (EffectKind::Damage(d), Some((true, EffectSave::Half))) = (&e.kind, saved)
            && e.save_kind.or(spell.saving_throw.as_ref().map(|st| st.kind)) == Some(SaveKind::Ref)
            && self.energy_warded(t, &d.types)
        {
            emit!(self, Event::SpellEffect { who: t, what: SpellEffectEvent::WardedOff });
            return;
        }
        let duration = e.duration.as_ref().unwrap_or(&spell.duration);
        match &e.kind {
            EffectKind::Damage(d) => self.damage_effect(cast, t, d, m, pack, half, single),
            EffectKind::Heal(h) => self.heal_effect(cast, t, h, half),
            EffectKind::TempHp(v) => {
                let n = self.roll_scaled(cast, &v.amount).max(0);
                let n = if half { n / 2 } else { n };
                if let Some(rounds) = self.lasting(cast, duration) {
                    pack.part(rounds).temp_hp += n as u32;
                }
            }
            EffectKind::Condition(c) => {
                let lasting = match (&c.duration_on_critical, m.crit) {
                    (Some(d), true) => self.lasting(cast, d),
                    _ => self.lasting(cast, duration),
                };
                let conds = self.allowed_conditions(t, &c.conditions, c.escalates);
                if conds.is_empty() {
                    return;
                }
                let Some(rounds) = lasting else {
                    // Instantaneous: the condition follows its own rules (a prone creature stands up).
                    for k in conds.iter() {
                        self.set_condition(t, k);
                    }
                    emit!(
                        self,
                        Event::SpellEffect {
                            who: t,
                            what: SpellEffectEvent::Conditions { conditions: conds.iter().collect() }
                        }
                    );
                    return;
                };
                let mut behaviours = Vec::new();
                if let Some(again) = c.save_again
                    && let Some(st) = &spell.saving_throw
                {
                    let when = match again {
                        SaveAgain::EachTurnFullRound => Retry::EachTurn,
                        SaveAgain::EachTurnEnd => Retry::EachTurnEnd,
                        SaveAgain::NextTurnFullRound => Retry::NextTurn,
                    };
                    let kind = e.save_kind.unwrap_or(st.kind);
                    let descriptors = prep.spells[usize::from(cast.spell)].descriptors;
                    behaviours.push(Behaviour::SaveAgain { kind, dc: cast.dc, when, descriptors });
                }
                if c.ends_when_subject_attacks {
                    behaviours.push(Behaviour::EndsWhenBearerAttacks);
                }
                if c.ends_without_nonlethal {
                    behaviours.push(Behaviour::EndsWithoutNonlethal);
                }
                if let Some(escape) = &c.escape {
                    let dc = match escape.dc {
                        EscapeDc::SpellDc => cast.dc,
                        // `playable` allows it only under a maneuver, which sets it.
                        EscapeDc::ManeuverCmd => m.maneuver_cmd.unwrap_or(cast.dc),
                    };
                    behaviours.push(Behaviour::Bound(spell_bonds(escape, c.anchored, dc)));
                }
                if conds.has(ConditionId::Asleep) {
                    behaviours.push(Behaviour::EndsOnDamage);
                }
                if let Some(next) = self.stage(cast, t, &c.then) {
                    behaviours.push(Behaviour::Then { next: Box::new(next) });
                }
                if duration.unit == DurationUnit::InArea {
                    // Kept apart: it turns into a count of rounds when its bearer leaves the area.
                    let part = pack.separate(rounds, Some(super::zone::IN_AREA_LABEL));
                    part.conditions = conds;
                    part.behaviours = behaviours;
                } else if !c.then.is_empty() || !behaviours.is_empty() {
                    // Staged or self-ending conditions stay apart from the other effects of the spell.
                    let part = pack.separate(rounds, Some("condition"));
                    part.conditions = conds;
                    part.behaviours = behaviours;
                } else {
                    let part = pack.part(rounds);
                    part.conditions = part.conditions.union(conds);
                }
            }
            EffectKind::Modifiers(mm) => {
                let Some(rounds) = self.lasting(cast, duration) else { return };
                let mut rolled: Vec<(&Scaled, i32)> = Vec::new();
                let mut mods = Vec::with_capacity(mm.modifiers.len());
                let mut con_bonus = 0;
                for sm in &mm.modifiers {
                    if m.cramped && sm.bonus_type == BonusType::Size {
                        continue;
                    }
                    let v = match rolled.iter().find(|(s, _)| **s == sm.value) {
                        Some(&(_, v)) => v,
                        None => {
                            let v = self.roll_scaled(cast, &sm.value);
                            rolled.push((&sm.value, v));
                            v
                        }
                    };
                    let v = if half { v / 2 } else { v };
                    if v == 0 {
                        continue;
                    }
                    if sm.target == ModTarget::Con && v > 0 {
                        // An item's enhancement already in the printed score is
                        // not stacked with (CRB "Bonus Types"): only the excess counts.
                        let held = if sm.bonus_type == BonusType::Enhancement {
                            prep.fighters[t].scores.item_enhancement(ModTarget::Con)
                        } else {
                            0
                        };
                        con_bonus = con_bonus.max(v - held);
                    }
                    mods.push(prep.compile_modifier(t, &sm.resolve(v)));
                }
                let part = pack.part(rounds);
                part.mods.extend(mods);
                if con_bonus > 0 {
                    // A Constitution bonus raises hit points by the modifier's change per Hit Die.
                    let con = prep.fighters[t].scores.con_score.unwrap_or(10);
                    let gain = (ability_modifier(con + con_bonus) - ability_modifier(con))
                        * prep.fighters[t].nature.hd as i32;
                    part.temp_hp += gain.max(0) as u32;
                }
            }
            EffectKind::OneShot(o) => {
                let Some(rounds) = self.lasting(cast, duration) else { return };
                let part = pack.separate(rounds, None);
                part.one_shot = true;
                for &target in &o.applies_to {
                    part.mods.push(Mod::new(target, o.value, o.bonus_type));
                }
                if o.ignores_miss_chance {
                    part.behaviours.push(Behaviour::IgnoresMissChance);
                }
            }
            EffectKind::AbilityDamage(a) => {
                use crate::spell::model::Ability;
                let spec = &prep.fighters[t];
                let physical = matches!(a.ability, Ability::Str | Ability::Dex | Ability::Con);
                if spec.defense.immune.drain && physical {
                    return;
                }
                let n = self.roll_scaled(cast, &a.amount).max(0);
                let n = if half { n / 2 } else { n };
                if n == 0 {
                    return;
                }
                let target = match a.ability {
                    Ability::Str => ModTarget::Str,
                    Ability::Dex => ModTarget::Dex,
                    Ability::Con => ModTarget::Con,
                    Ability::Int => ModTarget::Int,
                    Ability::Wis => ModTarget::Wis,
                    Ability::Cha => ModTarget::Cha,
                };
                pack.separate(None, Some("ability damage")).mods.push(Mod::new(
                    target,
                    -n,
                    BonusType::Untyped,
                ));
                emit!(
                    self,
                    Event::SpellEffect {
                        who: t,
                        what: SpellEffectEvent::AbilityDamage {
                            amount: n,
                            ability: target.name().to_string()
                        }
                    }
                );
                if a.ability == Ability::Con {
                    let con = spec.scores.con_score.unwrap_or(10);
                    let loss = (ability_modifier(con) - ability_modifier(con - n)) * spec.nature.hd as i32;
                    self.spell_wound(cast.caster, t, loss.max(0) as u32);
                }
            }
            EffectKind::NegativeLevels(nl) => {
                let spec = &prep.fighters[t];
                let n = self.roll_scaled(cast, &nl.amount).max(0);
                let n = if half { n / 2 } else { n };
                if n == 0 {
                    return;
                }
                if spec.nature.ctype == Some(CreatureType::Undead) {
                    if let Some(per) = nl.undead_temp_hp_per_level {
                        let part = pack.separate(
                            Some(if cast.metamagic.has(Metamagic::EXTEND) { 2 * 600 } else { 600 }),
                            Some("temporary hit points"),
                        );
                        part.rounds = None;
                        part.temp_hp = per * n as u32;
                    }
                    return;
                }
                if spec.defense.immune.drain || self.immune_to_negative_levels(t) {
                    emit!(
                        self,
                        Event::SpellEffect { who: t, what: SpellEffectEvent::ImmuneToNegativeLevels }
                    );
                    return;
                }
                let part = pack.separate(None, Some("negative levels"));
                for target in ModTarget::NEGATIVE_LEVEL {
                    part.mods.push(Mod::new(target, -n, BonusType::Untyped));
                }
                emit!(
                    self,
                    Event::SpellEffect { who: t, what: SpellEffectEvent::NegativeLevels { levels: n } }
                );
                self.spell_wound(cast.caster, t, 5 * n as u32);
            }
            EffectKind::Death(_) => {
                if self.st.prep.fighters[t].defense.immune.descriptors.has(crate::effects::Descriptor::Death)
                {
                    return;
                }
                emit!(self, Event::Spell { who: t, spell: spell.name.to_string(), what: SpellEvent::Slain });
                self.slay(t);
            }
            EffectKind::Stabilize(_) if self.st.life(t) == super::super::state::LifeState::Dying => {
                self.st.fighters[t].stable = true;
                emit!(self, Event::SpellEffect { who: t, what: SpellEffectEvent::Stabilized });
            }
            EffectKind::ResumeDying(_) => match self.st.life(t) {
                super::super::state::LifeState::Stable => {
                    self.st.fighters[t].stable = false;
                    emit!(self, Event::SpellEffect { who: t, what: SpellEffectEvent::ResumesDying });
                }
                super::super::state::LifeState::Dying => self.spell_wound(cast.caster, t, 1),
                _ => {}
            },
            EffectKind::RemoveConditions(r) => {
                for &k in &r.conditions {
                    if self.st.has_condition(t, k) {
                        self.clear_condition(t, k);
                    }
                }
                if r.exhausted_to_fatigued && self.st.has_condition(t, ConditionId::Exhausted) {
                    self.clear_condition(t, ConditionId::Exhausted);
                    self.set_condition(t, ConditionId::Fatigued);
                }
                if r.all_ability_damage || r.ability_damage.is_some() {
                    let all = r.all_ability_damage;
                    while let Some(k) = self.st.fighters[t]
                        .effects
                        .iter()
                        .position(|x| x.effect.name.ends_with("(ability damage)"))
                    {
                        self.remove_effect_at(t, k, EffectEnd::Healed);
                        if !all {
                            break;
                        }
                    }
                }
            }
            EffectKind::MirrorImages(mi) => {
                let Some(rounds) = self.lasting(cast, duration) else { return };
                let n = self.roll_scaled(cast, &mi.count).max(0);
                let part = pack.separate(rounds, Some("images"));
                part.behaviours.push(Behaviour::MirrorImages);
                part.pool = n;
                emit!(
                    self,
                    Event::SpellEffect {
                        who: t,
                        what: SpellEffectEvent::MirrorImages { images: n.max(0) as u32 }
                    }
                );
            }
            EffectKind::SpeedChange(sc) => {
                let Some(rounds) = self.lasting(cast, duration) else { return };
                let part = pack.part(rounds);
                if sc.bonus_ft != 0 {
                    part.mods.push(Mod::new(ModTarget::Speed, sc.bonus_ft, sc.bonus_type));
                }
                if sc.percent != 100 || sc.max_factor.is_some() {
                    part.behaviours.push(Behaviour::SpeedFactor {
                        percent: sc.percent.min(255) as u8,
                        max_factor: sc.max_factor.unwrap_or(0).min(255) as u8,
                    });
                }
            }
            EffectKind::SizeChange(sc) => {
                let Some(rounds) = self.lasting(cast, duration) else { return };
                let want = self.st.size(t).shifted(i32::from(sc.steps));
                if self.st.room_for(t, want).is_none() {
                    // CRB Enlarge Person: "the creature attains the maximum possible size".
                    m.cramped = true;
                    emit!(self, Event::SpellEffect { who: t, what: SpellEffectEvent::NoRoomToGrow });
                    return;
                }
                pack.part(rounds).behaviours.push(Behaviour::SizeChange { steps: sc.steps });
            }
            EffectKind::Fly(f) => {
                let Some(rounds) = self.lasting(cast, duration) else { return };
                pack.part(rounds).behaviours.push(Behaviour::Fly { speed_ft: f.speed_ft });
            }
            EffectKind::Outline(o) => {
                let Some(rounds) = self.lasting(cast, duration) else { return };
                let negates = o.negates.iter().fold(ConditionSet::EMPTY, |s, &k| s.with(k));
                pack.part(rounds).behaviours.push(Behaviour::Outline { negates });
            }
            EffectKind::Immunity(im) => {
                let Some(rounds) = self.lasting(cast, duration) else { return };
                let conditions = im.conditions.iter().fold(ConditionSet::EMPTY, |s, &k| s.with(k));
                let energy =
                    im.damage_types.iter().filter_map(|d| energy_index(d)).fold(0u8, |a, k| a | 1 << k);
                let spells: Vec<u16> = im
                    .spells
                    .iter()
                    .filter_map(|id| prep.spells.iter().position(|p| &p.id == id).map(|k| k as u16))
                    .collect();
                pack.part(rounds).behaviours.push(Behaviour::Immunity {
                    conditions,
                    descriptors: Descriptors::of(&im.descriptors),
                    energy,
                    negative_levels: im.negative_levels,
                    grapple: im.grapple,
                    spells: Arc::from(spells),
                });
                for k in conditions.iter() {
                    if self.st.has_condition(t, k) {
                        self.clear_condition(t, k);
                    }
                }
            }
            EffectKind::EnergyResistance(er) => {
                let Some(rounds) = self.lasting(cast, duration) else { return };
                let types = self.energy_choice(t, &er.types, er.choose_one);
                let amount = self.roll_scaled(cast, &er.amount).max(0) as u32;
                pack.part(rounds).behaviours.push(Behaviour::EnergyResist { types, amount });
            }
            EffectKind::EnergyWard(w) => {
                let types = self.energy_choice(t, &w.types, false);
                self.behaviour_for(cast, duration, pack, Behaviour::EnergyWard { types });
            }
            EffectKind::Retaliation(_) => {
                let b = Behaviour::Retaliation {
                    caster: cast.caster,
                    spell: cast.spell,
                    option: cast.option,
                    metamagic: cast.metamagic.0,
                    dc: cast.dc,
                };
                self.behaviour_for(cast, duration, pack, b);
            }
            // The caster goes; passengers are not taken (`teleport.rs`).
            EffectKind::Teleport(te) if t == cast.caster => self.teleport(cast, te),
            EffectKind::TouchDelivery(td) => {
                // The hand is the caster's own: it forms once, on the caster.
                let Some(rounds) = self.lasting(cast, duration) else { return };
                if t == cast.caster {
                    let b = self.form_hand(cast, td);
                    pack.part(rounds).behaviours.push(b);
                }
            }
            EffectKind::EnergyAbsorption(ea) => {
                let Some(rounds) = self.lasting(cast, duration) else { return };
                let types = self.energy_choice(t, &ea.types, ea.choose_one);
                let total = self.roll_scaled(cast, &ea.total).max(0);
                let part = pack.separate(rounds, Some("absorption"));
                part.behaviours.push(Behaviour::EnergyAbsorb { types });
                part.pool = total;
            }
            EffectKind::DamageReduction(dr) => {
                let Some(rounds) = self.lasting(cast, duration) else { return };
                let pool = dr.absorbs.as_ref().map_or(0, |a| self.roll_scaled(cast, a).max(0));
                let bypass: Vec<String> = dr.bypass.iter().map(|b| super::super::prepared::norm(b)).collect();
                let part = pack.separate(rounds, Some("damage reduction"));
                part.behaviours.push(Behaviour::DamageReduction {
                    amount: dr.amount,
                    bypass: Arc::from(bypass),
                    absorbs: dr.absorbs.is_some(),
                });
                part.pool = pool;
            }
            EffectKind::Compel(c) => {
                let Some(rounds) = self.lasting(cast, duration) else { return };
                if self.mental_control_blocked(t, cast.caster, cast.spell) {
                    emit!(
                        self,
                        Event::Spell { who: t, spell: spell.name.to_string(), what: SpellEvent::Warded }
                    );
                    return;
                }
                let what = match c.behaviour {
                    CompelBehaviour::ApproachCaster => Compulsion::Approach,
                    CompelBehaviour::FleeCaster => Compulsion::Flee,
                    CompelBehaviour::DropHeldItems => Compulsion::Drop,
                    CompelBehaviour::FriendlyToCaster => Compulsion::Friendly,
                    CompelBehaviour::LeaveBattle => Compulsion::Leave,
                };
                if what == Compulsion::Drop {
                    self.drop_held_weapons(t);
                    return;
                }
                pack.separate(rounds, Some("compulsion")).behaviours.push(Behaviour::Compel {
                    what,
                    caster: cast.caster,
                    ends_when_threatened: c.ends_when_threatened,
                });
            }
            EffectKind::Reroll(r) => {
                let Some(rounds) = self.lasting(cast, duration) else { return };
                if r.mode == RerollMode::TakeWorse {
                    let n = self.roll_scaled(cast, &r.rolls).max(1);
                    let part = pack.separate(rounds, Some("misfortune"));
                    part.behaviours.push(Behaviour::TakeWorse);
                    part.pool = n;
                }
            }
            EffectKind::ActionLoss(a) => {
                let Some(rounds) = self.lasting(cast, duration) else { return };
                pack.part(rounds)
                    .behaviours
                    .push(Behaviour::ActionLoss { percent: a.chance_percent.min(100) as u8 });
            }
            EffectKind::Choice(c) => {
                let k = usize::from(cast.option).min(c.options.len().saturating_sub(1));
                if let Some(option) = c.options.get(k) {
                    for child in &option.effects {
                        self.apply_one(cast, t, child, m, pack, single);
                    }
                }
            }
            EffectKind::ExtraAttack(_) => self.behaviour_for(cast, duration, pack, Behaviour::ExtraAttack),
            EffectKind::SeeInvisibility(_) => {
                self.behaviour_for(cast, duration, pack, Behaviour::SeeInvisible)
            }
            EffectKind::MovementProvokesNoAoo(_) => {
                self.behaviour_for(cast, duration, pack, Behaviour::NoMovementAoo)
            }
            EffectKind::RageRestrictions(_) => {
                self.behaviour_for(cast, duration, pack, Behaviour::CannotCast)
            }
            EffectKind::Sanctuary(_) => {
                let Some(rounds) = self.lasting(cast, duration) else { return };
                let kind = spell.saving_throw.as_ref().map_or(SaveKind::Will, |s| s.kind);
                let part = pack.separate(rounds, Some("sanctuary"));
                part.behaviours.push(Behaviour::Sanctuary { kind, dc: cast.dc });
                part.behaviours.push(Behaviour::EndsWhenBearerAttacks);
            }
            EffectKind::AlignmentWard(w) => {
                use crate::effects::Alignment as A;
                use crate::spell::model::AlignmentComponent as C;
                let alignment = match w.alignment {
                    C::Good => A::GOOD,
                    C::Evil => A::EVIL,
                    C::Lawful => A::LAWFUL,
                    C::Chaotic => A::CHAOTIC,
                };
                self.behaviour_for(
                    cast,
                    duration,
                    pack,
                    Behaviour::AlignmentWard {
                        alignment,
                        summoned_contact: w.blocks_summoned_contact,
                        mental_control: w.blocks_mental_control,
                    },
                );
            }
            EffectKind::WeaponQualities(wq) => {
                let weapon = self.st.held_weapon(t);
                let qualities: Vec<String> = wq.add.iter().map(|q| super::super::prepared::norm(q)).collect();
                self.behaviour_for(
                    cast,
                    duration,
                    pack,
                    Behaviour::WeaponQualities { qualities: Arc::from(qualities), weapon },
                );
            }
            EffectKind::Keen(_) => {
                let weapon = self.st.held_weapon(t);
                self.behaviour_for(cast, duration, pack, Behaviour::Keen { weapon });
            }
            EffectKind::Dispel(d) => self.dispel(cast, t, d.max_caster_level),
            EffectKind::Maneuver(mv) => self.spell_maneuver(cast, t, mv, m, pack, single),
            // The area itself is left by `resolve`; its first effects meet `t` now.
            EffectKind::Zone(z) => {
                // A lasting area centred on a creature (Silence) opens on the target that failed its save.
                if prep.spells[usize::from(cast.spell)].spell.target.is_some() && cast.target == Some(t) {
                    self.open_anchored_zone(cast, t);
                }
                for child in &z.on_appear {
                    if !self.st.is_present(t) {
                        break;
                    }
                    self.apply_one(cast, t, child, m, pack, single);
                }
            }
            // Summons are resolved before any creature; the other kinds are
            // refused by `playable` and never reach this point.
            _ => {}
        }
    }

    /// Adds a behaviour for the effect's duration.
    fn behaviour_for(&mut self, cast: &Cast, d: &SpellDuration, pack: &mut Pack, b: Behaviour) {
        if let Some(rounds) = self.lasting(cast, d) {
            pack.part(rounds).behaviours.push(b);
        }
    }

    /// The next stage of a staged condition (Color Spray), rolled now.
    fn stage(&mut self, cast: &Cast, t: usize, then: &[SpellEffect]) -> Option<Effect> {
        let e = then.first()?;
        let EffectKind::Condition(c) = &e.kind else { return None };
        let spell = &self.st.prep.spells[usize::from(cast.spell)].spell;
        let d = e.duration.as_ref().unwrap_or(&spell.duration);
        let rounds = self.lasting(cast, d)?;
        let conds = self.allowed_conditions(t, &c.conditions, c.escalates);
        let mut next = Effect::new(
            &format!("{} (condition)", spell.name),
            rounds.map_or(Duration::UntilRemoved, Duration::Rounds),
        )
        .with_conditions(conds);
        if let Some(after) = self.stage(cast, t, &c.then) {
            next = next.with_behaviours(vec![Behaviour::Then { next: Box::new(after) }]);
        }
        next.spell = Some(cast.spell);
        next.caster_level = cast.cl.min(255) as u8;
        Some(next)
    }

    /// The conditions of `list` that `t` can get (immunities of its type and
    /// of its effects removed); fatigued on a fatigued creature that
    /// escalates becomes exhausted.
    pub(crate) fn allowed_conditions(&self, t: usize, list: &[ConditionId], escalates: bool) -> ConditionSet {
        let spec = &self.st.prep.fighters[t];
        let mut blocked = spec.defense.immune.conditions;
        for e in &self.st.fighters[t].effects {
            for b in e.effect.behaviours.iter() {
                if let Behaviour::Immunity { conditions, .. } = b {
                    blocked = blocked.union(*conditions);
                }
            }
        }
        let mut out = ConditionSet::EMPTY;
        for &k in list {
            let k =
                if escalates && k == ConditionId::Fatigued && self.st.has_condition(t, ConditionId::Fatigued)
                {
                    ConditionId::Exhausted
                } else {
                    k
                };
            if !blocked.has(k) {
                out = out.with(k);
            }
        }
        out
    }

    fn immune_to_negative_levels(&self, t: usize) -> bool {
        self.st.fighters[t]
            .effects
            .iter()
            .flat_map(|e| e.effect.behaviours.iter())
            .any(|b| matches!(b, Behaviour::Immunity { negative_levels: true, .. }))
    }

    /// The energy types an energy ward covers: all of `types`, or when the
    /// caster picks one, the type the enemies of `t` deal most in this
    /// encounter (first listed on a tie).
    fn energy_choice(&self, t: usize, types: &[String], choose_one: bool) -> u8 {
        let bits: Vec<usize> = types.iter().filter_map(|x| energy_index(x)).collect();
        if !choose_one {
            return bits.iter().fold(0, |a, &k| a | 1 << k);
        }
        // A foe's attacks carrying the energy (a flaming sword, a fire
        // elemental's burning slam) and its breath weapon count as its spells do.
        let foe_weapons = |j: usize, k: usize| -> usize {
            let spec = &self.st.prep.fighters[j];
            let attacks =
                spec.offense.attacks.iter().filter(|a| a.components.iter().any(|c| c.energy >> k & 1 == 1));
            let breath = spec.monster.as_deref().and_then(|m| m.breath.as_ref());
            attacks.count() + usize::from(breath.is_some_and(|b| energy_bits(&b.types) >> k & 1 == 1))
        };
        let threat = |k: usize| -> usize {
            let prep = self.st.prep;
            (0..self.st.len())
                .filter(|&j| self.st.are_enemies(t, j))
                .map(|j| {
                    prep.fighters[j].caster.as_deref().map_or(0, |c| {
                        c.known
                            .iter()
                            .filter(|kn| {
                                prep.spells[usize::from(kn.spell)].spell.effects.iter().any(|e| {
                                    match &e.kind {
                                        EffectKind::Damage(d) => {
                                            d.types.iter().any(|x| energy_index(x) == Some(k))
                                        }
                                        _ => false,
                                    }
                                })
                            })
                            .count()
                    }) + foe_weapons(j, k)
                })
                .sum()
        };
        let best = bits.iter().copied().fold(None, |acc: Option<(usize, usize)>, k| {
            let s = threat(k);
            if acc.is_none_or(|a| s > a.1) { Some((k, s)) } else { acc }
        });
        best.map_or(0, |(k, _)| 1 << k)
    }

    /// A damage effect on `t`: each projectile, critical hits, halving,
    /// damage against creature types, energy resistance per type, recurring
    /// damage, and what the damage does after (Harm's floor, Disintegrate,
    /// Vampiric Touch).
    #[allow(clippy::too_many_arguments)]
    fn damage_effect(
        &mut self,
        cast: &Cast,
        t: usize,
        d: &DamageEffect,
        m: &mut Meeting,
        pack: &mut Pack,
        half: bool,
        single: Option<u32>,
    ) {
        let prep = self.st.prep;
        let spec = &prep.fighters[t];
        let undead = spec.nature.ctype == Some(CreatureType::Undead);
        let amount = if m.secondary { d.secondary_amount.as_ref().unwrap_or(&d.amount) } else { &d.amount };
        let vs = d.vs.iter().find(|v| spec.nature.ctype == Some(v.creature_type));
        let amount = vs.and_then(|v| v.amount.as_ref()).unwrap_or(amount);
        let multiplier = vs.and_then(|v| v.multiplier).unwrap_or(1) as i32;
        let count = match single {
            Some(n) => n,
            None => d.projectiles.as_ref().and_then(|p| p.fixed_at(cast.cl)).unwrap_or(1).max(1) as u32,
        };
        for _ in 0..count {
            if !self.st.is_present(t) || (count > 1 && !self.st.is_active(t)) {
                break;
            }
            // An area's damage is rolled once for every creature it catches.
            let spell = &prep.spells[usize::from(cast.spell)].spell;
            let shared = spell.area.is_some() && spell.target.is_none() && count == 1;
            let key = amount as *const Scaled as usize;
            let roll = match self.area_rolls.iter().find(|(k, _)| shared && *k == key) {
                Some(&(_, v)) => v,
                None => {
                    let v = self.roll_scaled(cast, amount);
                    if shared {
                        self.area_rolls.push((key, v));
                    }
                    v
                }
            };
            let mut rolled = roll.max(0) * multiplier;
            if d.halved {
                rolled /= 2;
            }
            if d.critical && m.crit {
                rolled *= 2;
            }
            if half {
                rolled /= 2;
            }
            if d.heals_undead && undead {
                let healed = self.heal(t, rolled as u32);
                emit!(
                    self,
                    Event::SpellEffect {
                        who: t,
                        what: SpellEffectEvent::HealedByNegativeEnergy { amount: healed }
                    }
                );
                continue;
            }
            if d.nonlethal {
                // Nonlethal (Frostbite, Pain Strike): energy resistance applies, hit points are untouched.
                let dealt = self.after_energy(t, rolled as u32, &d.types);
                self.deal_nonlethal(t, dealt);
                m.damage += dealt;
                continue;
            }
            let dealt =
                self.spell_damage(cast.caster, t, rolled as u32, &d.types, d.untyped_half, d.min_hp_left);
            m.damage += dealt;
            if d.slays_at_zero_hp && self.st.fighters[t].hp <= 0 && !self.st.fighters[t].dead {
                emit!(self, Event::SpellEffect { who: t, what: SpellEffectEvent::Slain });
                self.slay(t);
            }
        }
        if let Some(rec) = &d.recurring
            && self.st.is_present(t)
        {
            let rounds = self.roll_scaled(cast, &rec.rounds).max(1) as u32;
            if let Ok(dice) = DiceExpr::parse(&rec.amount.describe_at(cast.cl)) {
                let energy = rec.types.iter().find_map(|x| energy_index(x)).map(|k| k as u8);
                let part = pack.separate(Some(rounds), Some("recurring damage"));
                part.recurring = Some(Recurring { dice, energy, nonlethal: d.nonlethal });
            }
        }
        if let Some(lasting) = &d.caster_temp_hp
            && m.damage > 0
        {
            let cap = self.st.fighters[t].hp.max(0) + spec.scores.con_score.unwrap_or(0);
            let gain = (m.damage as i32).min(cap + m.damage as i32).max(0) as u32;
            if let Some(rounds) = self.lasting(cast, lasting) {
                let name =
                    format!("{} (temporary hit points)", prep.spells[usize::from(cast.spell)].spell.name);
                let mut e = Effect::new(&name, rounds.map_or(Duration::UntilRemoved, Duration::Rounds));
                e.temp_hp = gain;
                e.spell = Some(cast.spell);
                self.apply_effect(cast.caster, e, Some(cast.caster));
            }
        }
    }

    /// A healing effect: living creatures heal, undead take it as damage when it harms undead.
    fn heal_effect(&mut self, cast: &Cast, t: usize, h: &HealEffect, half: bool) {
        let spec = &self.st.prep.fighters[t];
        let n = self.roll_scaled(cast, &h.amount).max(0);
        let n = if half { n / 2 } else { n };
        if h.harms_undead && spec.nature.ctype == Some(CreatureType::Undead) {
            self.spell_damage(cast.caster, t, n as u32, &["positive".to_string()], false, h.min_hp_left);
            return;
        }
        // A clay golem's cursed wound: a caster level check (`monster::golem`).
        if self.cursed_wound_stops(cast.caster, cast.cl, t) {
            return;
        }
        let before = self.st.fighters[t].hp;
        let healed = self.heal(t, n as u32);
        if t != cast.caster {
            self.st.fighters[cast.caster].out.healing_given += healed;
        }
        let (hp_before, hp_after) = (before, self.st.fighters[t].hp);
        emit!(self, Event::Healed { who: t, amount: healed, hp_before, hp_after });
    }

    /// Deals `rolled` spell damage of `types` from `by` to `t`: no damage
    /// reduction; energy immunity, absorption and resistance per type (the
    /// most favourable to `t` among the component's types); half of it
    /// untyped when `untyped_half`; never below `min_hp_left` hit points.
    /// Returns the damage dealt.
    pub(crate) fn spell_damage(
        &mut self,
        by: usize,
        t: usize,
        rolled: u32,
        types: &[String],
        untyped_half: bool,
        min_hp_left: Option<i32>,
    ) -> u32 {
        if rolled > 0 && self.st.fortified_by(t, types) {
            // A shambling mound's electric fortitude: Constitution instead of damage.
            self.energy_fortitude(t);
        }
        let (typed, untyped) = if untyped_half { (rolled - rolled / 2, rolled / 2) } else { (rolled, 0) };
        let mut dealt = untyped + self.after_energy(t, typed, types);
        if let Some(floor) = min_hp_left {
            let hp = self.st.fighters[t].hp;
            dealt = dealt.min((hp - floor).max(0) as u32);
        }
        if self.st.prep.fighters[t].monster.is_some() {
            dealt = self.monster_takes_spell_damage(t, dealt, types);
        }
        let hp = self.st.fighters[t].hp;
        emit!(
            self,
            Event::SpellDamage {
                who: by,
                target: t,
                dealt,
                rolled,
                types: types.to_vec(),
                hp_before: hp,
                hp_after: hp - dealt as i32
            }
        );
        self.st.fighters[by].out.damage_dealt += dealt;
        self.st.fighters[t].out.damage_taken += dealt;
        self.wound(t, dealt);
        dealt
    }

    /// Damage of `types` after `t`'s energy immunity, vulnerability (+50 %),
    /// then its energy spells (`EnergyShield`): an immunity, a ward's half,
    /// an absorbing pool in place of resistance, or else the highest
    /// resistance.
    pub(crate) fn after_energy(&mut self, t: usize, amount: u32, types: &[String]) -> u32 {
        let bits = energy_bits(types);
        if bits == 0 {
            return amount;
        }
        let energies = (0..ENERGY.len()).filter(|k| bits >> k & 1 == 1);
        let spec = &self.st.prep.fighters[t];
        if spec.defense.energy_immune & bits != 0 {
            return 0;
        }
        let mut amount = if spec.defense.energy_vulnerable & bits != 0 {
            super::super::prepared::vulnerable_amount(amount)
        } else {
            amount
        };
        let mut resist = energies.clone().map(|k| spec.defense.energy_resist[k]).max().unwrap_or(0);
        if self.st.energy_shielded(t) {
            let shield = EnergyShield::of(&self.st, t);
            if shield.immune & bits != 0 {
                return 0;
            }
            // An energy ward halves the damage before resistance and
            // absorption take their part of what is left (CRB "Fire Shield").
            if shield.warded & bits != 0 {
                amount /= 2;
            }
            if shield.absorbs & bits != 0 {
                return amount - self.draw_absorption(t, bits, amount);
            }
            resist = energies.map(|k| shield.resist[k]).fold(resist, u32::max);
        }
        amount.saturating_sub(resist)
    }

    /// Whether an energy ward on `t` (Fire Shield) covers one of `types`.
    pub(crate) fn energy_warded(&self, t: usize, types: &[String]) -> bool {
        let f = &self.st.fighters[t];
        if f.fx & crate::effects::Behaviours::ENERGY == 0 {
            return false;
        }
        let bits = energy_bits(types);
        f.effects
            .iter()
            .flat_map(|e| e.effect.behaviours.iter())
            .any(|b| matches!(b, Behaviour::EnergyWard { types } if types & bits != 0))
    }

    /// Hit points `t` loses to a spell without being "damage" of a type
    /// (negative levels, Constitution damage), counted as damage dealt.
    pub(crate) fn spell_wound(&mut self, by: usize, t: usize, n: u32) {
        if n == 0 {
            return;
        }
        self.st.fighters[by].out.damage_dealt += n;
        self.st.fighters[t].out.damage_taken += n;
        self.wound(t, n);
    }

    /// Kills `t` outright (a death effect).
    pub(crate) fn slay(&mut self, t: usize) {
        let f = &self.st.fighters[t];
        if f.dead {
            return;
        }
        let spec = &self.st.prep.fighters[t];
        let threshold = if self.st.dies_at_zero(t) { 0 } else { -spec.scores.con_score.unwrap_or(0) };
        let loss = (f.hp - threshold).max(0) as u32 + f.temp_hp.max(0) as u32;
        self.wound_lethal(t, loss.max(1));
    }

    /// Whether a ward against the caster's alignment blocks a charm or compulsion on `t`.
    fn mental_control_blocked(&self, t: usize, caster: usize, spell: u16) -> bool {
        let prepared = &self.st.prep.spells[usize::from(spell)];
        let mental = prepared.descriptors.has(crate::effects::Descriptor::Charm)
            || prepared.descriptors.has(crate::effects::Descriptor::Compulsion);
        if !mental {
            return false;
        }
        self.st.warded_from_control(t, caster)
    }

    /// `t` drops every weapon it holds (Command: drop).
    fn drop_held_weapons(&mut self, t: usize) {
        let prep = self.st.prep;
        for (w, a) in prep.fighters[t].offense.attacks.iter().enumerate() {
            if !a.natural && w < 64 {
                self.st.fighters[t].gear.dropped |= 1 << w;
            }
        }
        self.set_condition(t, ConditionId::Disarmed);
        emit!(self, Event::SpellEffect { who: t, what: SpellEffectEvent::DropsHeld });
    }
}

/// The bonds of a spell's condition (Entangle, Web, Black Tentacles): each
/// check it names against `dc` (the spell's DC, or its grapple's CMD), the
/// action it states.
fn spell_bonds(escape: &crate::spell::effect::Escape, anchored: bool, dc: i32) -> crate::effects::Bonds {
    use crate::effects::EscapeAction;
    use crate::spell::effect::{ActionCost, EscapeCheck};
    let has = |k: EscapeCheck| escape.checks.contains(&k).then_some(dc);
    crate::effects::Bonds {
        escape_artist: has(EscapeCheck::EscapeArtist),
        strength: has(EscapeCheck::Strength),
        cmb: has(EscapeCheck::Cmb),
        anchored,
        action: match escape.action {
            ActionCost::Free | ActionCost::Swift | ActionCost::Move => EscapeAction::Move,
            ActionCost::Standard => EscapeAction::Standard,
            ActionCost::FullRound => EscapeAction::FullRound,
        },
    }
}
