//! The rules a spell file must follow beyond its JSON shape. Each failure
//! names the JSON path of the offending value.

use super::Spell;
use super::effect::{
    ControlledEffect, DamageEffect, EffectKind, EffectSave, GrantedAttackEffect, ModifiersEffect,
    SpellEffect, SummonOption, ZoneEffect,
};
use super::model::{
    Area, AttackKind, CLASSES, Component, DurationUnit, Filter, Origin, Range, SaveOutcome, Shape,
    SpellDuration, TargetKind,
};
use super::scaled::Scaled;
use crate::dice::Term;
use crate::effects::ModCondition;
use crate::model::validate::{
    DAMAGE_TYPES, DR_BYPASSES, ENERGY_TYPES, WEAPON_QUALITIES, index_path, key_path,
};

/// A failed rule: (JSON path, reason).
pub(crate) type Failure = (String, String);

fn fail<T>(path: impl Into<String>, message: impl Into<String>) -> Result<T, Failure> {
    Err((path.into(), message.into()))
}

/// The identifier of a spell name: lower case, apostrophes dropped, every
/// other run of non-alphanumeric characters made one underscore
/// (`"Bull's Strength"` → `bulls_strength`, `"Blindness/Deafness"` →
/// `blindness_deafness`). A spell file is named `<id>.json`.
pub fn spell_id(name: &str) -> String {
    let mut id = String::with_capacity(name.len());
    let mut gap = false;
    for c in name.chars() {
        if c == '\'' || c == '’' {
            continue;
        }
        if c.is_ascii_alphanumeric() {
            if gap && !id.is_empty() {
                id.push('_');
            }
            gap = false;
            id.push(c.to_ascii_lowercase());
        } else {
            gap = true;
        }
    }
    id
}

/// Whether `id` is a valid identifier (what [`spell_id`] produces).
pub fn is_id(id: &str) -> bool {
    !id.is_empty() && spell_id(id) == id
}

pub(crate) fn check_spell(spell: &Spell) -> Result<(), Failure> {
    if spell.name.trim().is_empty() {
        return fail("$.name", "name must not be empty");
    }
    if spell_id(&spell.name).is_empty() {
        return fail("$.name", "name must contain a letter or digit");
    }
    for (i, alias) in spell.aliases.iter().enumerate() {
        if spell_id(alias).is_empty() {
            return fail(index_path("$.aliases", i), "alias must contain a letter or digit");
        }
    }
    one_line("$.source", &spell.source, 200)?;
    if let Some(summary) = &spell.summary {
        one_line("$.summary", summary, 200)?;
    }
    check_levels(spell)?;
    check_components(spell)?;
    if let Range::Feet(ft) = spell.range
        && !ft.is_multiple_of(5)
    {
        return fail("$.range.feet", format!("a fixed range must be a multiple of 5 ft, got {ft}"));
    }
    check_target(spell)?;
    if let Some(area) = &spell.area {
        check_area("$.area", area, spell.target.is_some())?;
    }
    if spell.range == Range::Personal
        && let Some(target) = &spell.target
        && target.kind != TargetKind::Caster
    {
        return fail("$.target.kind", "a personal spell can only target the caster (\"self\")");
    }
    if let Some(attack) = &spell.attack {
        match &spell.target {
            Some(t)
                if matches!(
                    t.kind,
                    TargetKind::Creature | TargetKind::Creatures | TargetKind::PrimaryAndSecondary
                ) => {}
            _ => {
                return fail(
                    "$.attack",
                    "an attack roll needs a target creature (target.kind creature or creatures)",
                );
            }
        }
        if attack.kind == AttackKind::MeleeTouch && spell.range != Range::Touch {
            return fail("$.attack.kind", "a melee touch attack needs range \"touch\"");
        }
        if attack.kind != AttackKind::MeleeTouch && spell.range == Range::Touch {
            return fail("$.attack.kind", "a touch-range spell is delivered by a melee touch attack");
        }
        if let Some(charges) = &attack.charges {
            check_scaled("$.attack.charges", charges)?;
        }
    }
    check_duration("$.duration", &spell.duration)?;
    if let Some(after) = &spell.immunity_after {
        check_duration("$.immunity_after", after)?;
    }
    if spell.harmless && spell.saving_throw.is_none() && !spell.spell_resistance {
        return fail("$.harmless", "harmless needs a saving throw or spell resistance to waive");
    }
    if let Some(save) = &spell.saving_throw {
        for (i, bonus) in save.bonuses.iter().enumerate() {
            if bonus.value == 0 {
                return fail(
                    key_path(&index_path("$.saving_throw.bonuses", i), "value"),
                    "a save bonus must not be 0",
                );
            }
        }
    }
    for (i, id) in spell.dispels.iter().enumerate() {
        check_id(&index_path("$.dispels", i), id)?;
    }
    if spell.effects.is_empty() && spell.simplifications.is_empty() {
        return fail(
            "$.effects",
            "a spell without effects must say in `simplifications` why it does nothing in a fight",
        );
    }
    let context = Context { spell };
    for (i, effect) in spell.effects.iter().enumerate() {
        context.effect(&index_path("$.effects", i), effect)?;
    }
    for (i, text) in spell.simplifications.iter().enumerate() {
        one_line(&index_path("$.simplifications", i), text, 400)?;
    }
    Ok(())
}

fn one_line(path: &str, text: &str, max_chars: usize) -> Result<(), Failure> {
    if text.trim().is_empty() {
        return fail(path, "must not be empty");
    }
    if text.contains('\n') {
        return fail(path, "must be one line");
    }
    let n = text.chars().count();
    if n > max_chars {
        return fail(path, format!("must be at most {max_chars} characters, got {n}"));
    }
    Ok(())
}

fn check_id(path: &str, id: &str) -> Result<(), Failure> {
    if !is_id(id) {
        return fail(
            path,
            format!(
                "{id:?} is not a file name: expected lower case words joined by `_` (like {:?})",
                spell_id(id)
            ),
        );
    }
    Ok(())
}

fn check_levels(spell: &Spell) -> Result<(), Failure> {
    if spell.levels.is_empty() {
        return fail("$.levels", "a spell needs at least one class level");
    }
    for (class, level) in &spell.levels {
        let path = key_path("$.levels", class);
        if !CLASSES.contains(&class.as_str()) {
            return fail(path, format!("unknown class {class:?} (known: {})", CLASSES.join(", ")));
        }
        if *level > 9 {
            return fail(path, format!("spell level must be 0 to 9, got {level}"));
        }
    }
    Ok(())
}

fn check_components(spell: &Spell) -> Result<(), Failure> {
    if spell.components.is_empty() {
        return fail("$.components", "a spell needs at least one component");
    }
    for (i, c) in spell.components.iter().enumerate() {
        if spell.components[..i].contains(c) {
            return fail(index_path("$.components", i), "component listed twice");
        }
    }
    if spell.material_cost_gp.is_some()
        && !spell
            .components
            .iter()
            .any(|c| matches!(c, Component::Material | Component::MaterialOrDivineFocus))
    {
        return fail("$.material_cost_gp", "a material cost needs an M or M/DF component");
    }
    Ok(())
}

fn check_target(spell: &Spell) -> Result<(), Failure> {
    let Some(target) = &spell.target else { return Ok(()) };
    let counted = matches!(target.kind, TargetKind::Creatures | TargetKind::PrimaryAndSecondary);
    match (&target.count, counted) {
        (Some(count), true) => check_scaled("$.target.count", count)?,
        (None, true) => return fail("$.target", "missing: `count` (how many creatures)"),
        (Some(_), false) => {
            return fail("$.target.count", "`count` is only for kinds creatures and primary_and_secondary");
        }
        (None, false) => {}
    }
    if let Some(ft) = target.within_ft {
        if !counted {
            return fail(
                "$.target.within_ft",
                "`within_ft` is only for kinds creatures and primary_and_secondary",
            );
        }
        if ft == 0 || !ft.is_multiple_of(5) {
            return fail("$.target.within_ft", format!("must be a positive multiple of 5 ft, got {ft}"));
        }
    }
    if target.secondary_dc_adjust != 0 && target.kind != TargetKind::PrimaryAndSecondary {
        return fail("$.target.secondary_dc_adjust", "only for kind primary_and_secondary");
    }
    check_filter("$.target.filter", &target.filter)
}

fn check_area(path: &str, area: &Area, has_target: bool) -> Result<(), Failure> {
    let field = |name: &str| key_path(path, name);
    let present = |name: &str| match name {
        "radius_ft" => area.radius_ft.is_some(),
        "length_ft" => area.length_ft.is_some(),
        "width_ft" => area.width_ft.is_some(),
        "height_ft" => area.height_ft.is_some(),
        "side_ft" => area.side_ft.is_some(),
        _ => false,
    };
    let (required, allowed): (&[&str], &[&str]) = match area.shape {
        Shape::Sphere => (&["radius_ft"], &["radius_ft", "height_ft"]),
        Shape::Cone => (&["length_ft"], &["length_ft"]),
        Shape::Line => (&["length_ft"], &["length_ft", "width_ft"]),
        Shape::Cylinder => (&["radius_ft", "height_ft"], &["radius_ft", "height_ft"]),
        Shape::Square => (&["side_ft"], &["side_ft"]),
        Shape::Wall => (&["length_ft", "height_ft"], &["length_ft", "height_ft"]),
    };
    let shape = serde_json::to_value(area.shape)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default();
    for name in required {
        if !present(name) {
            return fail(path, format!("missing: `{name}` (a {shape} needs it)"));
        }
    }
    for name in ["radius_ft", "length_ft", "width_ft", "height_ft", "side_ft"] {
        if present(name) && !allowed.contains(&name) {
            return fail(field(name), format!("a {shape} has no {name}"));
        }
    }
    for (name, value) in
        [("radius_ft", &area.radius_ft), ("length_ft", &area.length_ft), ("height_ft", &area.height_ft)]
    {
        if let Some(v) = value {
            check_scaled(&field(name), v)?;
            if !v.is_constant_at_every_level() {
                return fail(field(name), "a size must not roll dice");
            }
        }
    }
    for (name, value) in [("width_ft", area.width_ft), ("side_ft", area.side_ft)] {
        if let Some(ft) = value
            && (ft == 0 || !ft.is_multiple_of(5))
        {
            return fail(field(name), format!("must be a positive multiple of 5 ft, got {ft}"));
        }
    }
    if matches!(area.shape, Shape::Cone | Shape::Line) && area.origin != Origin::Caster {
        return fail(
            field("origin"),
            format!("a {shape} starts at the caster: write \"origin\": \"caster\""),
        );
    }
    if area.origin == Origin::Target && !has_target {
        return fail(field("origin"), "an area centred on the target needs a `target`");
    }
    if let Some(pool) = &area.hit_dice_pool {
        check_scaled(&field("hit_dice_pool"), pool)?;
    }
    check_filter(&field("filter"), &area.filter)
}

fn check_filter(path: &str, f: &Filter) -> Result<(), Failure> {
    if let (Some(lo), Some(hi)) = (f.min_hd, f.max_hd)
        && lo > hi
    {
        return fail(key_path(path, "min_hd"), format!("min_hd {lo} is above max_hd {hi}"));
    }
    for t in &f.creature_types {
        if f.not_creature_types.contains(t) {
            return fail(
                key_path(path, "not_creature_types"),
                format!("{} is both required and excluded", t.name()),
            );
        }
    }
    Ok(())
}

fn check_scaled(path: &str, s: &Scaled) -> Result<(), Failure> {
    let terms = s.per_step.expr().terms();
    if terms.len() != 1 {
        return fail(
            key_path(path, "per_step"),
            format!(
                "per_step must be one term (a die like \"1d6\" or a number), got {:?}",
                s.per_step.text()
            ),
        );
    }
    if s.per_levels == 0 {
        return fail(key_path(path, "per_levels"), "per_levels must be at least 1");
    }
    if s.max_steps == Some(0) {
        return fail(key_path(path, "max_steps"), "max_steps must be at least 1 (omit it for no maximum)");
    }
    if s.is_level_independent() && (s.max_steps.is_some() || s.from_level != 0 || s.per_levels != 1) {
        return fail(path, "per_levels, from_level and max_steps need a per_step");
    }
    Ok(())
}

fn check_duration(path: &str, d: &SpellDuration) -> Result<(), Failure> {
    let needs_amount = matches!(
        d.unit,
        DurationUnit::Rounds | DurationUnit::Minutes | DurationUnit::Hours | DurationUnit::Days
    );
    let allows_amount = needs_amount || matches!(d.unit, DurationUnit::Concentration | DurationUnit::InArea);
    match &d.amount {
        None if needs_amount => return fail(path, "missing: `amount` (how many units)"),
        Some(_) if !allows_amount => return fail(key_path(path, "amount"), "this unit takes no amount"),
        Some(a) => check_scaled(&key_path(path, "amount"), a)?,
        None => {}
    }
    if let Some(after) = &d.after_concentration {
        if d.unit != DurationUnit::Concentration {
            return fail(key_path(path, "after_concentration"), "only for unit concentration");
        }
        check_scaled(&key_path(path, "after_concentration"), after)?;
    }
    Ok(())
}

fn check_damage_types(path: &str, types: &[String], allowed: &[&str], what: &str) -> Result<(), Failure> {
    for (i, t) in types.iter().enumerate() {
        if !allowed.iter().any(|k| k.eq_ignore_ascii_case(t)) {
            return fail(
                index_path(path, i),
                format!("unknown {what} {t:?} (known: {})", allowed.join(", ")),
            );
        }
    }
    Ok(())
}

/// Walks the effects with the spell around them.
struct Context<'a> {
    spell: &'a Spell,
}

impl Context<'_> {
    fn effect(&self, path: &str, e: &SpellEffect) -> Result<(), Failure> {
        check_filter(&key_path(path, "only"), &e.only)?;
        if let Some(d) = &e.duration {
            check_duration(&key_path(path, "duration"), d)?;
        }
        self.save(path, e)?;
        for (i, inner) in e.on_success.iter().enumerate() {
            self.effect(&index_path(&key_path(path, "on_success"), i), inner)?;
        }
        let kpath = key_path(path, e.kind.name());
        let field = |name: &str| key_path(&kpath, name);
        match &e.kind {
            EffectKind::Damage(d) => self.damage(&kpath, d)?,
            EffectKind::Heal(h) => check_scaled(&field("amount"), &h.amount)?,
            EffectKind::TempHp(t) => check_scaled(&field("amount"), &t.amount)?,
            EffectKind::Condition(c) => {
                if c.conditions.is_empty() {
                    return fail(field("conditions"), "name at least one condition");
                }
                if !c.then.is_empty() {
                    self.effects(&field("then"), &c.then)?;
                }
                if let Some(d) = &c.duration_on_critical {
                    if self.spell.attack.is_none() {
                        return fail(
                            field("duration_on_critical"),
                            "only a spell with an attack roll can score a critical hit",
                        );
                    }
                    check_duration(&field("duration_on_critical"), d)?;
                }
            }
            EffectKind::Modifiers(m) => self.modifiers(&kpath, m)?,
            EffectKind::OneShot(o) => {
                if o.applies_to.is_empty() {
                    return fail(field("applies_to"), "name at least one roll");
                }
            }
            EffectKind::AbilityDamage(a) => check_scaled(&field("amount"), &a.amount)?,
            EffectKind::NegativeLevels(n) => check_scaled(&field("amount"), &n.amount)?,
            EffectKind::RemoveConditions(r) => {
                if let Some(a) = &r.ability_damage {
                    check_scaled(&field("ability_damage"), a)?;
                }
            }
            EffectKind::Summon(s) => {
                if s.options.is_empty() {
                    return fail(field("options"), "name at least one option");
                }
                for (i, option) in s.options.iter().enumerate() {
                    summon_option(&index_path(&field("options"), i), option)?;
                }
            }
            EffectKind::MirrorImages(m) => check_scaled(&field("count"), &m.count)?,
            EffectKind::SizeChange(s) => {
                if s.steps == 0 {
                    return fail(field("steps"), "steps must not be 0");
                }
            }
            EffectKind::SpeedChange(s) => {
                if s.bonus_ft % 5 != 0 {
                    return fail(field("bonus_ft"), "must be a multiple of 5 ft");
                }
            }
            EffectKind::Fly(f) => {
                if let Some(b) = &f.skill_bonus {
                    check_scaled(&field("skill_bonus"), b)?;
                }
            }
            EffectKind::Outline(o) => {
                if o.negates.is_empty() && !o.darkness {
                    return fail(kpath, "an outline must negate something");
                }
            }
            EffectKind::Immunity(im) => {
                check_damage_types(&field("damage_types"), &im.damage_types, DAMAGE_TYPES, "damage type")?;
                for (i, id) in im.spells.iter().enumerate() {
                    check_id(&index_path(&field("spells"), i), id)?;
                }
            }
            EffectKind::EnergyResistance(r) => {
                check_energy(&field("types"), &r.types, r.choose_one)?;
                check_scaled(&field("amount"), &r.amount)?;
            }
            EffectKind::EnergyAbsorption(a) => {
                check_energy(&field("types"), &a.types, a.choose_one)?;
                check_scaled(&field("total"), &a.total)?;
            }
            EffectKind::EnergyWard(w) => check_energy(&field("types"), &w.types, false)?,
            EffectKind::DamageReduction(dr) => {
                if dr.amount == 0 {
                    return fail(field("amount"), "must be at least 1");
                }
                check_damage_types(&field("bypass"), &dr.bypass, DR_BYPASSES, "DR bypass")?;
                if let Some(a) = &dr.absorbs {
                    check_scaled(&field("absorbs"), a)?;
                }
            }
            EffectKind::Retaliation(r) => self.effects(&field("effects"), &r.effects)?,
            EffectKind::Zone(z) => self.zone(&kpath, z)?,
            EffectKind::Controlled(c) => self.controlled(&kpath, c)?,
            EffectKind::GrantedAttack(g) => self.granted(&kpath, g)?,
            EffectKind::Maneuver(m) => {
                check_scaled(&field("cmb"), &m.cmb)?;
                self.effects(&field("effects"), &m.effects)?;
            }
            EffectKind::Push(p) => check_scaled(&field("distance_ft"), &p.distance_ft)?,
            EffectKind::Teleport(t) => check_scaled(&field("passengers"), &t.passengers)?,
            EffectKind::Dispel(d) => {
                if d.modes.is_empty() {
                    return fail(field("modes"), "name at least one mode");
                }
            }
            EffectKind::Reroll(r) => check_scaled(&field("rolls"), &r.rolls)?,
            EffectKind::ActionLoss(a) => {
                if !(1..=100).contains(&a.chance_percent) {
                    return fail(field("chance_percent"), "must be 1 to 100");
                }
            }
            EffectKind::Choice(c) => {
                if c.options.len() < 2 {
                    return fail(field("options"), "a choice needs at least two options");
                }
                for (i, option) in c.options.iter().enumerate() {
                    let opath = index_path(&field("options"), i);
                    if !is_id(&option.name) {
                        return fail(
                            key_path(&opath, "name"),
                            "option names are lower case words joined by `_`",
                        );
                    }
                    if c.options[..i].iter().any(|o| o.name == option.name) {
                        return fail(
                            key_path(&opath, "name"),
                            format!("option {:?} is listed twice", option.name),
                        );
                    }
                    self.effects(&key_path(&opath, "effects"), &option.effects)?;
                }
            }
            EffectKind::TouchDelivery(t) => check_scaled(&field("caster_hp_cost"), &t.caster_hp_cost)?,
            EffectKind::Dash(d) => {
                if d.distance_ft == 0 || !d.distance_ft.is_multiple_of(5) {
                    return fail(field("distance_ft"), "must be a positive multiple of 5 ft");
                }
            }
            EffectKind::WeaponQualities(w) => {
                check_damage_types(&field("add"), &w.add, WEAPON_QUALITIES, "weapon quality")?
            }
            EffectKind::Death(_)
            | EffectKind::Stabilize(_)
            | EffectKind::ResumeDying(_)
            | EffectKind::ExtraAttack(_)
            | EffectKind::SeeInvisibility(_)
            | EffectKind::Compel(_)
            | EffectKind::AlignmentWard(_)
            | EffectKind::MovementProvokesNoAoo(_)
            | EffectKind::Sanctuary(_)
            | EffectKind::Keen(_)
            | EffectKind::RageRestrictions(_) => {}
        }
        Ok(())
    }

    fn effects(&self, path: &str, effects: &[SpellEffect]) -> Result<(), Failure> {
        if effects.is_empty() {
            return fail(path, "name at least one effect");
        }
        for (i, e) in effects.iter().enumerate() {
            self.effect(&index_path(path, i), e)?;
        }
        Ok(())
    }

    /// The save an effect answers to must be clear: given, or taken from a
    /// spell whose saving throw negates or halves.
    fn save(&self, path: &str, e: &SpellEffect) -> Result<(), Failure> {
        let container = matches!(
            e.kind,
            EffectKind::Zone(_)
                | EffectKind::Controlled(_)
                | EffectKind::GrantedAttack(_)
                | EffectKind::Summon(_)
                | EffectKind::Choice(_)
                | EffectKind::Retaliation(_)
                | EffectKind::Teleport(_)
                | EffectKind::Dispel(_)
                | EffectKind::Maneuver(_)
        );
        if container {
            if e.save.is_some() || e.save_kind.is_some() || !e.on_success.is_empty() {
                return fail(
                    path,
                    format!(
                        "a {} effect is not saved against itself: put save fields on the effects inside it",
                        e.kind.name()
                    ),
                );
            }
            return Ok(());
        }
        let halvable = matches!(
            e.kind,
            EffectKind::Damage(_)
                | EffectKind::Heal(_)
                | EffectKind::Modifiers(_)
                | EffectKind::AbilityDamage(_)
                | EffectKind::TempHp(_)
        );
        if e.save == Some(EffectSave::Half) && !halvable {
            return fail(key_path(path, "save"), format!("a {} effect cannot be halved", e.kind.name()));
        }
        if !e.on_success.is_empty() && e.save != Some(EffectSave::Negates) {
            return fail(
                key_path(path, "on_success"),
                "on_success replaces the effect on a successful save: write \"save\": \"negates\"",
            );
        }
        let spell_save = self.spell.saving_throw.as_ref();
        if e.save.is_some_and(|s| s != EffectSave::None) && spell_save.is_none() && e.save_kind.is_none() {
            return fail(key_path(path, "save"), "the spell has no saving throw: give `save_kind`");
        }
        if e.save.is_none() && e.save_kind.is_some() {
            return fail(key_path(path, "save_kind"), "say what the save does: `save` negates, half or none");
        }
        if e.save.is_none()
            && let Some(s) = spell_save
        {
            let explicit = match s.outcome {
                SaveOutcome::Negates => s.see_text,
                SaveOutcome::Half => s.see_text || !halvable,
                SaveOutcome::Partial => true,
                SaveOutcome::Disbelief => false,
            };
            if explicit {
                return fail(
                    path,
                    "missing: `save` (the spell's saving throw is partial, \"see text\" or cannot halve this effect: say what a success does here: negates, half or none)",
                );
            }
        }
        Ok(())
    }

    fn damage(&self, path: &str, d: &DamageEffect) -> Result<(), Failure> {
        let field = |name: &str| key_path(path, name);
        check_scaled(&field("amount"), &d.amount)?;
        check_damage_types(&field("types"), &d.types, DAMAGE_TYPES, "damage type")?;
        let base: Vec<u32> = d.amount.base.die_sides().collect();
        let step: Vec<u32> = d.amount.per_step.die_sides().collect();
        if let (Some(b), Some(s)) = (base.first(), step.first())
            && b != s
        {
            return fail(
                key_path(&field("amount"), "per_step"),
                format!("the per-level die (d{s}) must match the base die (d{b})"),
            );
        }
        if let Some(p) = &d.projectiles {
            check_scaled(&field("projectiles"), p)?;
            if !p.is_constant_at_every_level() {
                return fail(field("projectiles"), "the number of projectiles must not roll dice");
            }
        }
        if let Some(s) = &d.secondary_amount {
            check_scaled(&field("secondary_amount"), s)?;
            if self.spell.target.as_ref().is_none_or(|t| t.kind != TargetKind::PrimaryAndSecondary) {
                return fail(field("secondary_amount"), "needs target kind primary_and_secondary");
            }
        }
        for (i, vs) in d.vs.iter().enumerate() {
            let vpath = index_path(&field("vs"), i);
            match (&vs.amount, vs.multiplier) {
                (Some(a), None) => check_scaled(&key_path(&vpath, "amount"), a)?,
                (None, Some(m)) if m >= 2 => {}
                (None, Some(m)) => {
                    return fail(key_path(&vpath, "multiplier"), format!("must be at least 2, got {m}"));
                }
                _ => return fail(vpath, "give exactly one of `amount` and `multiplier`"),
            }
        }
        if let Some(r) = &d.recurring {
            check_scaled(&key_path(&field("recurring"), "amount"), &r.amount)?;
            check_scaled(&key_path(&field("recurring"), "rounds"), &r.rounds)?;
            check_damage_types(
                &key_path(&field("recurring"), "types"),
                &r.types,
                DAMAGE_TYPES,
                "damage type",
            )?;
        }
        if let Some(t) = &d.caster_temp_hp {
            check_duration(&field("caster_temp_hp"), t)?;
        }
        Ok(())
    }

    fn modifiers(&self, path: &str, m: &ModifiersEffect) -> Result<(), Failure> {
        let list = key_path(path, "modifiers");
        if m.modifiers.is_empty() {
            return fail(list, "name at least one modifier");
        }
        for (i, modifier) in m.modifiers.iter().enumerate() {
            let mpath = index_path(&list, i);
            check_scaled(&key_path(&mpath, "value"), &modifier.value)?;
            if modifier.value.fixed_at(20) == Some(0) && modifier.value.is_level_independent() {
                return fail(key_path(&mpath, "value"), "a modifier of 0 does nothing");
            }
            match modifier.condition {
                Some(ModCondition::SaveVsDescriptor) if modifier.descriptor.is_none() => {
                    return fail(mpath, "missing: `descriptor` (the condition save_vs_descriptor tests it)");
                }
                Some(ModCondition::VsCreatureType) if modifier.creature_type.is_none() => {
                    return fail(mpath, "missing: `creature_type` (the condition vs_creature_type tests it)");
                }
                _ => {}
            }
            if modifier.descriptor.is_some() && modifier.condition != Some(ModCondition::SaveVsDescriptor) {
                return fail(
                    key_path(&mpath, "descriptor"),
                    "a descriptor needs the condition save_vs_descriptor",
                );
            }
            if modifier.creature_type.is_some() && modifier.condition != Some(ModCondition::VsCreatureType) {
                return fail(
                    key_path(&mpath, "creature_type"),
                    "a creature type needs the condition vs_creature_type",
                );
            }
        }
        Ok(())
    }

    fn zone(&self, path: &str, z: &ZoneEffect) -> Result<(), Failure> {
        let field = |name: &str| key_path(path, name);
        if self.spell.area.is_none() {
            return fail(path, "a zone fills the spell's area: the spell needs an `area`");
        }
        if *z == ZoneEffect::default() {
            return fail(path, "an empty zone does nothing");
        }
        for (name, list) in [
            ("on_appear", &z.on_appear),
            ("on_enter", &z.on_enter),
            ("each_round", &z.each_round),
            ("on_pass_through", &z.on_pass_through),
        ] {
            if !list.is_empty() {
                self.effects(&field(name), list)?;
            }
        }
        for (i, r) in z.radiates.iter().enumerate() {
            let rpath = index_path(&field("radiates"), i);
            if r.within_ft == 0 || !r.within_ft.is_multiple_of(5) {
                return fail(key_path(&rpath, "within_ft"), "must be a positive multiple of 5 ft");
            }
            self.effects(&key_path(&rpath, "effects"), &r.effects)?;
        }
        if let Some(m) = &z.movement_check {
            let mpath = field("movement_check");
            if m.checks.is_empty() {
                return fail(key_path(&mpath, "checks"), "name at least one check");
            }
            if !m.on_failure.is_empty() {
                self.effects(&key_path(&mpath, "on_failure"), &m.on_failure)?;
            }
            if !m.on_failure_by_5.is_empty() {
                self.effects(&key_path(&mpath, "on_failure_by_5"), &m.on_failure_by_5)?;
            }
        }
        if let Some(m) = &z.moves
            && (m.ft_per_round == 0 || !m.ft_per_round.is_multiple_of(5))
        {
            return fail(key_path(&field("moves"), "ft_per_round"), "must be a positive multiple of 5 ft");
        }
        for (name, value) in [("hp_per_section", &z.hp_per_section), ("break_dc", &z.break_dc)] {
            if let Some(v) = value {
                check_scaled(&field(name), v)?;
            }
        }
        Ok(())
    }

    fn controlled(&self, path: &str, c: &ControlledEffect) -> Result<(), Failure> {
        let field = |name: &str| key_path(path, name);
        if let Some(u) = &c.uses {
            check_scaled(&field("uses"), u)?;
        }
        if let Some(area) = &c.area {
            check_area(&field("area"), area, false)?;
        }
        if let Some(a) = &c.attack {
            if !(2..=20).contains(&a.crit_range) {
                return fail(key_path(&field("attack"), "crit_range"), "must be 2 to 20");
            }
            if !(2..=6).contains(&a.crit_mult) {
                return fail(key_path(&field("attack"), "crit_mult"), "must be 2 to 6");
            }
        }
        if let Some(ft) = c.moves_ft
            && (ft == 0 || !ft.is_multiple_of(5))
        {
            return fail(field("moves_ft"), "must be a positive multiple of 5 ft");
        }
        self.effects(&field("effects"), &c.effects)
    }

    fn granted(&self, path: &str, g: &GrantedAttackEffect) -> Result<(), Failure> {
        let field = |name: &str| key_path(path, name);
        if g.kinds.is_empty() {
            return fail(field("kinds"), "name at least one attack kind");
        }
        let ranged = g.kinds.iter().any(|k| *k != AttackKind::MeleeTouch);
        if ranged != g.range.is_some() {
            return fail(field("range"), "a ranged use needs a `range`, and only a ranged use has one");
        }
        if let Some(u) = &g.uses {
            check_scaled(&field("uses"), u)?;
        }
        self.effects(&field("effects"), &g.effects)
    }
}

fn check_energy(path: &str, types: &[String], choose_one: bool) -> Result<(), Failure> {
    if types.is_empty() {
        return fail(path, "name at least one energy type");
    }
    check_damage_types(path, types, ENERGY_TYPES, "energy type")?;
    if choose_one && types.len() < 2 {
        return fail(path, "choose_one needs at least two types");
    }
    Ok(())
}

fn summon_option(path: &str, o: &SummonOption) -> Result<(), Failure> {
    match (&o.monster, &o.from_spell) {
        (Some(id), None) => check_id(&key_path(path, "monster"), id)?,
        (None, Some(id)) => check_id(&key_path(path, "from_spell"), id)?,
        _ => return fail(path, "give exactly one of `monster` and `from_spell`"),
    }
    check_scaled(&key_path(path, "count"), &o.count)?;
    if o.count.bounds_at(1).0 < 1 {
        return fail(key_path(path, "count"), "at least one creature must come");
    }
    if o.count.per_step.expr().terms().iter().any(|t| !matches!(t, Term::Flat(0))) {
        return fail(key_path(path, "count"), "the number of creatures does not grow with caster level");
    }
    Ok(())
}
