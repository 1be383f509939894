//! Loading combatant JSON with errors that name the file, the JSON path and the reason.
//!
//! Two stages: serde (syntax, unknown fields, wrong types — located with
//! `serde_path_to_error`), then the semantic rules of `Combatant::validate`.
//! Every error is one line: `FILE: $.json.path: reason`.

use std::collections::BTreeMap;

use super::Ability;
pub(crate) use super::path::{index_path, json_path, key_path};
use super::{AttackKind, AttackSpec, Combatant, DamageComponent};
use crate::dice::DiceExpr;

/// Why a combatant file was refused.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// The file could not be read.
    #[error("{file}: cannot read: {source}")]
    Io {
        /// The file.
        file: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The feature catalogue the names are checked against is itself invalid.
    #[error(transparent)]
    Catalog(#[from] crate::feats::CatalogError),
    /// The JSON is malformed, a field is unknown or has the wrong type, or a value breaks a rule.
    #[error("{file}: {path}: {message}")]
    Invalid {
        /// The file.
        file: String,
        /// JSON path of the offending value (`$.attacks[0].damage[0].formula`).
        path: String,
        /// What is wrong.
        message: String,
    },
}

/// Damage types an attack component may carry (compared case-insensitively).
pub const DAMAGE_TYPES: &[&str] = &[
    "bludgeoning",
    "piercing",
    "slashing",
    "acid",
    "cold",
    "electricity",
    "fire",
    "sonic",
    "force",
    "positive",
    "negative",
    "untyped",
    "bleed",
];

/// Energy types: the only valid keys of `resistances` (defined beside the
/// special abilities that name them: vulnerability, breath, immunity).
pub use super::special::ENERGY_TYPES;

/// Weapon qualities that matter to damage reduction (`qualities` of an attack).
pub const WEAPON_QUALITIES: &[&str] =
    &["magic", "silver", "cold_iron", "adamantine", "good", "evil", "lawful", "chaotic", "epic"];

/// What a damage reduction may require to be bypassed: physical types and weapon qualities.
pub const DR_BYPASSES: &[&str] = &[
    "bludgeoning",
    "piercing",
    "slashing",
    "magic",
    "silver",
    "cold_iron",
    "adamantine",
    "good",
    "evil",
    "lawful",
    "chaotic",
    "epic",
];

/// The nine alignment codes.
pub const ALIGNMENTS: &[&str] = &["LG", "NG", "CG", "LN", "N", "CN", "LE", "NE", "CE"];

/// Highest ability score accepted (well above any published creature).
const MAX_ABILITY: i32 = 60;
/// The largest enhancement bonus an item gives an ability score (a belt or
/// headband +6, CRB "Magic Items").
const MAX_ITEM_ENHANCEMENT: i32 = 6;

/// Largest magnitude of any number in a combatant file but `xp`: far above
/// any published figure (the largest bonus, hit points or speed of a
/// creature is in the thousands), and small enough that no sum or product
/// of a battle overflows.
pub const MAX_MAGNITUDE: f64 = 1_000_000.0;

/// Reads and validates a combatant file.
pub fn load_combatant(path: &std::path::Path) -> Result<Combatant, ModelError> {
    let file = path.display().to_string();
    let text =
        std::fs::read_to_string(path).map_err(|source| ModelError::Io { file: file.clone(), source })?;
    parse_combatant(&text, &file)
}

/// Parses and validates combatant JSON; `file` names the origin in errors.
pub fn parse_combatant(text: &str, file: &str) -> Result<Combatant, ModelError> {
    let mut de = serde_json::Deserializer::from_str(text);
    let combatant: Combatant =
        serde_path_to_error::deserialize(&mut de).map_err(|e| ModelError::Invalid {
            file: file.to_string(),
            path: json_path(e.path()),
            message: e.inner().to_string(),
        })?;
    de.end().map_err(|e| ModelError::Invalid {
        file: file.to_string(),
        path: "$".to_string(),
        message: e.to_string(),
    })?;
    // The text parsed as a combatant, so it parses as JSON.
    if let Ok(value) = serde_json::from_str::<serde_json::Value>(text) {
        check_magnitudes(&value, "$").map_err(|(path, message)| ModelError::Invalid {
            file: file.to_string(),
            path,
            message,
        })?;
    }
    combatant.validate(file)?;
    Ok(combatant)
}

/// Refuses any number beyond [`MAX_MAGNITUDE`] (`xp` aside: it never enters a battle).
fn check_magnitudes(value: &serde_json::Value, path: &str) -> Result<(), Failure> {
    match value {
        serde_json::Value::Number(n) => {
            let x = n.as_f64().unwrap_or(f64::INFINITY);
            if path != "$.xp" && x.abs() > MAX_MAGNITUDE {
                return fail(path, format!("{n} is out of range (at most {MAX_MAGNITUDE} in magnitude)"));
            }
            Ok(())
        }
        serde_json::Value::Array(items) => {
            items.iter().enumerate().try_for_each(|(i, v)| check_magnitudes(v, &format!("{path}[{i}]")))
        }
        serde_json::Value::Object(fields) => fields.iter().try_for_each(|(k, v)| {
            let simple = k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            let child = if simple { format!("{path}.{k}") } else { format!("{path}['{k}']") };
            check_magnitudes(v, &child)
        }),
        _ => Ok(()),
    }
}

impl Combatant {
    /// Checks the semantic rules of the format, and that every feature is
    /// in the engine's feature catalogue; `file` names the origin in errors.
    pub fn validate(&self, file: &str) -> Result<(), ModelError> {
        let invalid =
            |path: String, message: String| ModelError::Invalid { file: file.to_string(), path, message };
        check(self).map_err(|(path, message)| invalid(path, message))?;
        let catalog = crate::feats::FeatCatalog::builtin().map_err(|e| ModelError::Catalog(e.clone()))?;
        crate::feats::resolve(self, catalog)
            .map_err(|e| invalid(index_path("$.features", e.index), e.message))?;
        Ok(())
    }
}

/// A failed rule: (JSON path, reason).
type Failure = (String, String);

fn fail<T>(path: impl Into<String>, message: impl Into<String>) -> Result<T, Failure> {
    Err((path.into(), message.into()))
}

fn is_one_of(value: &str, list: &[&str]) -> bool {
    list.iter().any(|known| known.eq_ignore_ascii_case(value))
}

fn check(c: &Combatant) -> Result<(), Failure> {
    if c.name.trim().is_empty() {
        return fail("$.name", "name must not be empty");
    }
    if c.level < 1 {
        return fail("$.level", format!("level must be at least 1, got {}", c.level));
    }
    if let Some(cr) = &c.cr {
        check_cr(cr)?;
    }
    if !ALIGNMENTS.contains(&c.alignment.as_str()) {
        return fail(
            "$.alignment",
            format!("unknown alignment {:?} (expected one of {})", c.alignment, ALIGNMENTS.join(", ")),
        );
    }
    check_abilities(c)?;
    if c.hp_max < 1 {
        return fail("$.hp_max", format!("hp_max must be at least 1, got {}", c.hp_max));
    }
    for (field, value) in [("total", c.ac.total), ("touch", c.ac.touch), ("flat_footed", c.ac.flat_footed)] {
        if value < 0 {
            return fail(format!("$.ac.{field}"), format!("AC must not be negative, got {value}"));
        }
    }
    check_speed("$.speed_land_ft", c.speed_land_ft)?;
    if let Some(fly) = c.speed_fly_ft {
        check_speed("$.speed_fly_ft", fly)?;
    }
    if c.fly_maneuverability.is_some() && c.speed_fly_ft.is_none() {
        return fail(
            "$.fly_maneuverability",
            "a maneuverability needs a fly speed (speed_fly_ft)".to_string(),
        );
    }
    check_attacks(&c.attacks)?;
    super::hands::check(c)?;
    super::mount::check(c)?;
    check_special_components(c)?;
    super::special::check(c)?;
    check_defenses(c)?;
    check_spellcasting(c)?;
    check_lists(c)
}

fn check_cr(cr: &str) -> Result<(), Failure> {
    let whole = |s: &str| {
        !s.is_empty() && !s.starts_with('0') && s.bytes().all(|b| b.is_ascii_digit()) && s.len() <= 2
    };
    let ok = match cr.split_once('/') {
        Some(("1", den)) => matches!(den, "2" | "3" | "4" | "6" | "8"),
        Some(_) => false,
        None => whole(cr),
    };
    if ok {
        Ok(())
    } else {
        fail(
            "$.cr",
            format!("cr must be a whole number like \"3\" or one of 1/2, 1/3, 1/4, 1/6, 1/8, got {cr:?}"),
        )
    }
}

fn check_abilities(c: &Combatant) -> Result<(), Failure> {
    let a = &c.abilities;
    let scores = [
        ("str_score", Some(a.str_score)),
        ("dex_score", Some(a.dex_score)),
        ("con_score", a.con_score),
        ("int_score", a.int_score),
        ("wis_score", Some(a.wis_score)),
        ("cha_score", Some(a.cha_score)),
    ];
    for (field, score) in scores {
        if let Some(score) = score
            && !(0..=MAX_ABILITY).contains(&score)
        {
            return fail(
                format!("$.abilities.{field}"),
                format!("ability score must be in 0..={MAX_ABILITY}, got {score}"),
            );
        }
    }
    if a.con_score.is_none() && !c.destroyed_at_zero() {
        let kind = match &c.creature_type {
            Some(t) => format!("creature_type is {t:?}"),
            None => "creature_type is not set".to_string(),
        };
        return fail(
            "$.abilities.con_score",
            format!("con_score may be null only for an undead or construct creature_type ({kind})"),
        );
    }
    for (&ability, &value) in &c.ability_enhancements {
        let path = format!("$.ability_enhancements.{}", ability.name());
        if !(1..=MAX_ITEM_ENHANCEMENT).contains(&value) {
            return fail(
                path,
                format!("an item's enhancement bonus must be in 1..={MAX_ITEM_ENHANCEMENT}, got {value}"),
            );
        }
        let score = match ability {
            Ability::Str => Some(a.str_score),
            Ability::Dex => Some(a.dex_score),
            Ability::Con => a.con_score,
            Ability::Int => a.int_score,
            Ability::Wis => Some(a.wis_score),
            Ability::Cha => Some(a.cha_score),
        };
        match score {
            None => return fail(path, "the score is null: no item can enhance it".to_string()),
            Some(s) if s < value => {
                return fail(path, format!("the printed score {s} cannot hold a +{value} enhancement"));
            }
            Some(_) => {}
        }
    }
    Ok(())
}

fn check_speed(path: &str, feet: u32) -> Result<(), Failure> {
    if !feet.is_multiple_of(5) {
        return fail(path, format!("speed must be a multiple of 5 ft, got {feet}"));
    }
    Ok(())
}

fn check_attacks(attacks: &[AttackSpec]) -> Result<(), Failure> {
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, attack) in attacks.iter().enumerate() {
        let path = index_path("$.attacks", i);
        check_attack(&path, attack)?;
        let id_field = if attack.id.is_some() { "id" } else { "name" };
        if let Some(first) = seen.insert(attack.weapon_id(), i) {
            return fail(
                key_path(&path, id_field),
                format!(
                    "attack id {:?} is already used by $.attacks[{first}] (give each attack a distinct id or name)",
                    attack.weapon_id()
                ),
            );
        }
    }
    Ok(())
}

fn check_attack(path: &str, a: &AttackSpec) -> Result<(), Failure> {
    if a.name.trim().is_empty() {
        return fail(key_path(path, "name"), "attack name must not be empty");
    }
    if a.id.as_deref().is_some_and(|id| id.trim().is_empty()) {
        return fail(key_path(path, "id"), "attack id must not be empty (omit it to use the name)");
    }
    // A touch attack may deal no damage of its own: its effect is a rider
    // (a lamia's Wisdom-draining touch).
    if a.damage.is_empty() && a.kind != AttackKind::Touch {
        return fail(key_path(path, "damage"), "an attack needs at least one damage component");
    }
    check_components(&key_path(path, "damage"), &a.damage)?;
    check_components(&key_path(path, "splash"), &a.splash)?;
    if a.splash_dc.is_some() && a.splash.is_empty() {
        return fail(key_path(path, "splash_dc"), "a save against the splash needs a splash");
    }
    if let Some(c) = &a.lingering {
        check_component(&key_path(path, "lingering"), c)?;
    }
    if !(2..=20).contains(&a.crit_range) {
        return fail(
            key_path(path, "crit_range"),
            format!("crit_range must be in 2..=20, got {}", a.crit_range),
        );
    }
    if !(2..=6).contains(&a.crit_mult) {
        return fail(key_path(path, "crit_mult"), format!("crit_mult must be in 2..=6, got {}", a.crit_mult));
    }
    // A ranged weapon, or a thrown ranged touch weapon (a splash weapon's flasks).
    if a.kind == AttackKind::Melee || (a.kind == AttackKind::Touch && a.range_increment_ft.is_none()) {
        for (field, set) in [("reload", a.reload.is_some()), ("ammunition", a.ammunition.is_some())] {
            if set {
                return fail(key_path(path, field), format!("only a ranged weapon has {field}"));
            }
        }
    }
    if a.ammunition == Some(0) {
        return fail(key_path(path, "ammunition"), "ammunition must be at least 1 (omit it for unlimited)");
    }
    let range_path = key_path(path, "range_increment_ft");
    match (a.kind, a.range_increment_ft) {
        (_, Some(ft)) if ft == 0 || !ft.is_multiple_of(5) => {
            return fail(
                range_path,
                format!("range_increment_ft must be a positive multiple of 5 ft, got {ft}"),
            );
        }
        (AttackKind::Melee, Some(_)) => {
            return fail(
                range_path,
                "a melee attack cannot have range_increment_ft (use kind \"ranged\", or \"touch\" for a ranged touch)",
            );
        }
        (AttackKind::Ranged, None) => {
            return fail(range_path, "missing: a ranged attack needs range_increment_ft");
        }
        _ => {}
    }
    if a.firearm && a.range_increment_ft.is_none() {
        return fail(range_path, "missing: a firearm needs range_increment_ft");
    }
    if a.secondary && !a.natural {
        return fail(
            key_path(path, "secondary"),
            "secondary is only allowed on a natural attack (natural: true)",
        );
    }
    if a.count < 1 {
        return fail(key_path(path, "count"), "count must be at least 1");
    }
    if let Some(reach) = a.reach_ft
        && !reach.is_multiple_of(5)
    {
        return fail(key_path(path, "reach_ft"), format!("reach_ft must be a multiple of 5 ft, got {reach}"));
    }
    for (q, quality) in a.qualities.iter().enumerate() {
        if !is_one_of(quality, WEAPON_QUALITIES) {
            return fail(
                index_path(&key_path(path, "qualities"), q),
                format!("unknown weapon quality {quality:?} (known: {})", WEAPON_QUALITIES.join(", ")),
            );
        }
    }
    Ok(())
}

fn check_components(path: &str, components: &[DamageComponent]) -> Result<(), Failure> {
    for (i, component) in components.iter().enumerate() {
        check_component(&index_path(path, i), component)?;
    }
    Ok(())
}

/// The damage components special abilities carry (a constriction's
/// `plus`), checked as any attack's.
fn check_special_components(c: &Combatant) -> Result<(), Failure> {
    for (k, a) in c.special_abilities.iter().enumerate() {
        if let super::special::SpecialAbility::Constrict { plus, .. } = a {
            check_components(&format!("$.special_abilities[{k}].plus"), plus)?;
        }
    }
    Ok(())
}

fn check_component(path: &str, component: &DamageComponent) -> Result<(), Failure> {
    if let Err(e) = DiceExpr::parse(&component.formula) {
        return fail(key_path(path, "formula"), e.to_string());
    }
    for (t, kind) in component.types.iter().enumerate() {
        if !is_one_of(kind, DAMAGE_TYPES) {
            return fail(
                index_path(&key_path(path, "types"), t),
                format!("unknown damage type {kind:?} (known: {})", DAMAGE_TYPES.join(", ")),
            );
        }
    }
    if let Some((k, message)) = component.bad_harm() {
        return fail(index_path(&key_path(path, "harms"), k), message);
    }
    if let Some((k, message)) = component.bad_spare() {
        return fail(index_path(&key_path(path, "spares"), k), message);
    }
    Ok(())
}

fn check_defenses(c: &Combatant) -> Result<(), Failure> {
    if let Some(dr) = &c.dr {
        if dr.amount < 1 {
            return fail("$.dr.amount", "DR amount must be at least 1 (omit dr for none)");
        }
        for (field, list) in [("$.dr.bypass", &dr.bypass), ("$.dr.bypass_any", &dr.bypass_any)] {
            for (i, bypass) in list.iter().enumerate() {
                if !is_one_of(bypass, DR_BYPASSES) {
                    return fail(
                        index_path(field, i),
                        format!("unknown DR bypass {bypass:?} (known: {})", DR_BYPASSES.join(", ")),
                    );
                }
            }
        }
        if !dr.bypass.is_empty() && !dr.bypass_any.is_empty() {
            return fail(
                "$.dr.bypass_any",
                "a DR is bypassed by every component of `bypass` or by any one of `bypass_any`, not both",
            );
        }
    }
    for (kind, amount) in &c.resistances {
        let path = key_path("$.resistances", kind);
        if !is_one_of(kind, ENERGY_TYPES) {
            return fail(
                path,
                format!("resistance must name an energy type ({}), got {kind:?}", ENERGY_TYPES.join(", ")),
            );
        }
        if *amount < 1 {
            return fail(path, "resistance amount must be at least 1");
        }
    }
    for (i, immunity) in c.immunities.iter().enumerate() {
        if immunity.trim().is_empty() {
            return fail(index_path("$.immunities", i), "immunity must not be empty");
        }
    }
    Ok(())
}

fn check_spellcasting(c: &Combatant) -> Result<(), Failure> {
    for level in c.spell_slots.keys() {
        if !matches!(level.as_str(), "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9") {
            return fail(
                key_path("$.spell_slots", level),
                format!("spell level must be \"0\" to \"9\", got {level:?}"),
            );
        }
    }
    for (i, spell) in c.spells.iter().enumerate() {
        if spell.trim().is_empty() {
            return fail(index_path("$.spells", i), "spell name must not be empty");
        }
    }
    for (level, &n) in &c.domain_slots {
        if !matches!(level.as_str(), "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9") {
            return fail(
                key_path("$.domain_slots", level),
                format!("a domain slot's spell level must be \"1\" to \"9\", got {level:?}"),
            );
        }
        if n > 1 {
            return fail(
                key_path("$.domain_slots", level),
                format!("one domain slot per spell level, got {n}"),
            );
        }
    }
    let listed = |name: &str| c.spells.iter().any(|s| s.trim().eq_ignore_ascii_case(name.trim()));
    for (i, name) in c.domain_spells.iter().enumerate() {
        if !listed(name) {
            return fail(
                index_path("$.domain_spells", i),
                format!("domain spell {name:?} is not one of the combatant's spells"),
            );
        }
    }
    if !c.domain_slots.is_empty() && c.domain_spells.is_empty() {
        return fail("$.domain_spells", "missing: domain slots need the domain spells that fill them");
    }
    if c.casting_ability.is_none() && (!c.spell_slots.is_empty() || !c.spells.is_empty()) {
        return fail(
            "$.casting_ability",
            "missing: casting_ability is required when spell_slots or spells are given",
        );
    }
    if let Some(list) = &c.spell_list
        && !crate::spell::CLASSES.contains(&list.as_str())
    {
        return fail(
            "$.spell_list",
            format!("unknown class list {list:?} (known: {})", crate::spell::CLASSES.join(", ")),
        );
    }
    if c.caster_level == Some(0) {
        return fail("$.caster_level", "caster_level must be at least 1");
    }
    for (i, feat) in c.metamagic_feats.iter().enumerate() {
        if !METAMAGIC_FEATS.iter().any(|m| m.eq_ignore_ascii_case(feat.trim())) && !feat.trim().is_empty() {
            return fail(
                index_path("$.metamagic_feats", i),
                format!("unknown metamagic feat {feat:?} (known: {})", METAMAGIC_FEATS.join(", ")),
            );
        }
    }
    check_prepared(c)?;
    for key in c.resources.keys() {
        if !RESOURCES.contains(&key.as_str()) && !is_power_resource(key) {
            return fail(
                key_path("$.resources", key),
                format!(
                    "unknown resource {key:?} (known: {}, and a domain or school power's name in snake_case: touch_of_evil…)",
                    RESOURCES.join(", ")
                ),
            );
        }
    }
    for (r, routine) in c.full_attack.iter().enumerate() {
        let path = index_path("$.full_attack", r);
        if routine.is_empty() {
            return fail(path, "a full-attack routine lists at least one attack id");
        }
        for (k, id) in routine.iter().enumerate() {
            if !c.attacks.iter().any(|a| a.weapon_id() == id) {
                return fail(index_path(&path, k), format!("no attack has the id {id:?}"));
            }
            if routine[..k].contains(id) {
                return fail(index_path(&path, k), format!("attack {id:?} is listed twice in the routine"));
            }
        }
    }
    Ok(())
}

/// A prepared caster's list: each entry names one of its spells, with
/// metamagic feats it knows and the engine plays, at least once; a
/// spontaneous conversion names one of its spells and needs a prepared list.
fn check_prepared(c: &Combatant) -> Result<(), Failure> {
    let listed = |name: &str| c.spells.iter().any(|s| s.trim().eq_ignore_ascii_case(name.trim()));
    for (i, entry) in c.prepared.iter().enumerate() {
        let path = index_path("$.prepared", i);
        if !listed(&entry.spell) {
            return fail(
                key_path(&path, "spell"),
                format!("prepared spell {:?} is not one of the combatant's spells", entry.spell),
            );
        }
        if entry.count < 1 {
            return fail(key_path(&path, "count"), "count must be at least 1");
        }
        if entry.domain && !c.domain_spells.iter().any(|s| s.trim().eq_ignore_ascii_case(entry.spell.trim()))
        {
            return fail(
                key_path(&path, "domain"),
                format!("{:?} fills a domain slot but is not one of domain_spells", entry.spell),
            );
        }
        for (k, feat) in entry.metamagic.iter().enumerate() {
            let at = index_path(&key_path(&path, "metamagic"), k);
            if !is_one_of(feat.trim(), PLAYED_METAMAGIC) {
                return fail(
                    at,
                    format!(
                        "metamagic feat {feat:?} is not played (played: {})",
                        PLAYED_METAMAGIC.join(", ")
                    ),
                );
            }
            if !c.metamagic_feats.iter().any(|m| m.trim().eq_ignore_ascii_case(feat.trim())) {
                return fail(at, format!("metamagic feat {feat:?} is not in metamagic_feats"));
            }
        }
    }
    for (i, name) in c.spontaneous.iter().enumerate() {
        let path = index_path("$.spontaneous", i);
        if c.prepared.is_empty() {
            return fail(path, "spontaneous conversion needs a prepared list (prepared)");
        }
        if !listed(name) {
            return fail(path, format!("spontaneous spell {name:?} is not one of the combatant's spells"));
        }
    }
    Ok(())
}

/// The metamagic feats a file may list (the spell rules play Empower,
/// Maximize, Extend, Heighten and Quicken; the others are known and never applied).
pub const METAMAGIC_FEATS: &[&str] = &[
    "Empower Spell",
    "Maximize Spell",
    "Extend Spell",
    "Heighten Spell",
    "Quicken Spell",
    "Enlarge Spell",
    "Silent Spell",
    "Still Spell",
    "Widen Spell",
];

/// The metamagic feats the spell rules apply: the first five of [`METAMAGIC_FEATS`].
pub const PLAYED_METAMAGIC: &[&str] =
    &["Empower Spell", "Maximize Spell", "Extend Spell", "Heighten Spell", "Quicken Spell"];

/// The resource pools class abilities spend.
pub const RESOURCES: &[&str] = &[
    "channel_energy",
    "hexes",
    "grit",
    "arcane_pool",
    "bardic_rounds",
    "smite_evil",
    "smite_good",
    "challenge",
    "tactician",
    "rage_rounds",
    "lay_on_hands",
    "ki_pool",
    "stunning_fist",
    "rebuke_death",
    "mutagen",
];

/// Whether `key` is the uses pool of a domain, school or bloodline power
/// of the shipped catalogue (`touch_of_evil`).
fn is_power_resource(key: &str) -> bool {
    crate::feats::FeatCatalog::builtin().is_ok_and(|cat| {
        cat.entries()
            .iter()
            .any(|e| e.power.is_some() && crate::feats::catalog::power_resource_key(&e.name) == key)
    })
}

fn check_lists(c: &Combatant) -> Result<(), Failure> {
    for (i, feature) in c.features.iter().enumerate() {
        if feature.name().trim().is_empty() {
            return fail(index_path("$.features", i), "feature name must not be empty");
        }
    }
    for (i, feat) in c.metamagic_feats.iter().enumerate() {
        if feat.trim().is_empty() {
            return fail(index_path("$.metamagic_feats", i), "metamagic feat name must not be empty");
        }
    }
    for (i, item) in c.carried_items.iter().enumerate() {
        let path = index_path("$.carried_items", i);
        if item.name().trim().is_empty() {
            return fail(path, "item name must not be empty");
        }
        if item.quantity() < 1 {
            return fail(key_path(&path, "quantity"), "quantity must be at least 1");
        }
        if let Some(charges) = item.charges() {
            let wand = matches!(super::items::ItemUse::of(item.name()), super::items::ItemUse::Wand(_));
            if !wand {
                return fail(key_path(&path, "charges"), "only a wand has charges (\"wand of ...\")");
            }
            if !(1..=super::items::WAND_CHARGES).contains(&charges) {
                return fail(
                    key_path(&path, "charges"),
                    format!("a wand holds 1 to {} charges, not {charges}", super::items::WAND_CHARGES),
                );
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod magnitude_tests {
    use super::*;

    #[test]
    fn numbers_beyond_any_published_creature_are_refused_with_their_path() {
        let v: serde_json::Value =
            serde_json::from_str(r#"{"xp": 9830400, "attacks": [{"attack_bonus": 2147483647}]}"#).unwrap();
        let (path, message) = check_magnitudes(&v, "$").unwrap_err();
        assert_eq!(path, "$.attacks[0].attack_bonus");
        assert!(message.contains("2147483647 is out of range"), "{message}");
        let ok: serde_json::Value =
            serde_json::from_str(r#"{"xp": 9830400, "skills": {"Know (arcana)": {"bonus": 40}}}"#).unwrap();
        assert!(check_magnitudes(&ok, "$").is_ok());
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;
    use crate::model::{CarriedItem, CombatantRole, Feature};

    const FILE: &str = "monsters/test.json";

    fn base() -> Value {
        json!({
            "name": "Goblin",
            "size": "Small",
            "abilities": {
                "str_score": 11, "dex_score": 15, "con_score": 12,
                "int_score": 10, "wis_score": 9, "cha_score": 6
            },
            "hp_max": 6,
            "ac": { "total": 16, "touch": 13, "flat_footed": 14 },
            "bab": 1,
            "initiative_mod": 6,
            "speed_land_ft": 30,
            "saves": { "fort": 3, "ref": 2, "will": -1 },
            "attacks": [
                {
                    "name": "short sword", "kind": "melee", "attack_bonus": 2,
                    "damage": [{ "formula": "1d4", "types": ["slashing"] }],
                    "crit_range": 19
                },
                {
                    "name": "short bow", "kind": "ranged", "attack_bonus": 4,
                    "damage": [{ "formula": "1d4", "types": ["piercing"] }],
                    "crit_mult": 3, "range_increment_ft": 60
                }
            ]
        })
    }

    /// The error message of `base()` after `mutate`.
    fn error_of(mutate: impl FnOnce(&mut Value)) -> String {
        let mut value = base();
        mutate(&mut value);
        error_of_text(&value.to_string())
    }

    fn error_of_text(text: &str) -> String {
        match parse_combatant(text, FILE) {
            Ok(c) => panic!("expected an error, parsed {c:?}"),
            Err(e) => e.to_string(),
        }
    }

    /// The message names the file, then the JSON path, then contains the reason.
    fn assert_error(message: &str, path: &str, reason: &str) {
        let prefix = format!("{FILE}: {path}: ");
        assert!(message.starts_with(&prefix), "expected prefix {prefix:?} in {message:?}");
        assert!(message.contains(reason), "expected {reason:?} in {message:?}");
        assert!(!message.contains('\n'), "error must be one line: {message:?}");
    }

    fn attack(value: &mut Value, i: usize) -> &mut Value {
        &mut value["attacks"][i]
    }

    #[test]
    fn base_is_valid() {
        let c = parse_combatant(&base().to_string(), FILE).unwrap();
        assert_eq!(c.attacks[0].crit_range, 19);
        assert_eq!(c.attacks[1].crit_mult, 3);
        assert_eq!(c.alignment, "N");
        assert_eq!(c.role, CombatantRole::Monster);
    }

    // ---- serde stage: syntax, unknown fields, wrong types ----

    #[test]
    fn syntax_error_names_line_and_column() {
        let msg = error_of_text("{\n  \"name\": \"Goblin\",\n  \"hp_max\": ,\n}");
        assert_error(&msg, "$.hp_max", "expected value at line 3 column 13");
    }

    #[test]
    fn empty_file_is_refused_at_root() {
        assert_error(&error_of_text(""), "$", "EOF while parsing a value");
    }

    #[test]
    fn trailing_content_is_refused() {
        let text = format!("{} {{}}", base());
        assert_error(&error_of_text(&text), "$", "trailing characters");
    }

    #[test]
    fn unknown_top_level_field() {
        let msg = error_of(|v| v["hit_points"] = json!(6));
        assert_error(&msg, "$.hit_points", "unknown field `hit_points`");
    }

    #[test]
    fn unknown_attack_field() {
        let msg = error_of(|v| attack(v, 1)["rng"] = json!(60));
        assert_error(&msg, "$.attacks[1].rng", "unknown field `rng`");
    }

    #[test]
    fn missing_required_field() {
        let msg = error_of(|v| {
            v.as_object_mut().unwrap().remove("hp_max");
        });
        assert_error(&msg, "$", "missing field `hp_max`");
    }

    #[test]
    fn wrong_type_names_the_path() {
        let msg = error_of(|v| v["abilities"]["str_score"] = json!("eleven"));
        assert_error(&msg, "$.abilities.str_score", "invalid type: string \"eleven\", expected i32");
    }

    #[test]
    fn ability_enhancements_name_the_score_and_hold_an_items_bonus() {
        let ok = parse_combatant(
            &{
                let mut v = base();
                v["ability_enhancements"] = json!({ "str": 2, "wis": 6 });
                v
            }
            .to_string(),
            FILE,
        );
        let c = ok.expect("a belt +2 and a headband +6 are valid");
        assert_eq!(c.ability_enhancements.get(&Ability::Str), Some(&2));
        let msg = error_of(|v| v["ability_enhancements"] = json!({ "strength": 2 }));
        // A bad key is reported at the map (serde cannot name a key it failed to read).
        assert_error(&msg, "$.ability_enhancements.?", "unknown variant `strength`, expected one of `str`");
        let msg = error_of(|v| v["ability_enhancements"] = json!({ "str": 0 }));
        assert_error(&msg, "$.ability_enhancements.str", "must be in 1..=6, got 0");
        let msg = error_of(|v| v["ability_enhancements"] = json!({ "dex": 8 }));
        assert_error(&msg, "$.ability_enhancements.dex", "must be in 1..=6, got 8");
        let msg = error_of(|v| {
            v["abilities"]["int_score"] = json!(null);
            v["ability_enhancements"] = json!({ "int": 2 });
        });
        assert_error(&msg, "$.ability_enhancements.int", "the score is null");
        let msg = error_of(|v| {
            v["abilities"]["cha_score"] = json!(3);
            v["ability_enhancements"] = json!({ "cha": 4 });
        });
        assert_error(&msg, "$.ability_enhancements.cha", "cannot hold a +4 enhancement");
    }

    #[test]
    fn unknown_attack_kind() {
        let msg = error_of(|v| attack(v, 0)["kind"] = json!("melle"));
        assert_error(&msg, "$.attacks[0].kind", "unknown variant `melle`");
    }

    #[test]
    fn unknown_field_in_detailed_feature() {
        let msg = error_of(|v| v["features"] = json!(["Power Attack", { "name": "Dodge", "kind": "feat" }]));
        assert_error(&msg, "$.features[1].kind", "unknown field `kind`");
    }

    #[test]
    fn wrong_type_as_feature() {
        let msg = error_of(|v| v["features"] = json!(["Power Attack", 3]));
        assert_error(&msg, "$.features[1]", "expected a feature name or an object with a `name`");
    }

    #[test]
    fn unknown_field_in_detailed_carried_item() {
        let msg = error_of(|v| v["carried_items"] = json!([{ "name": "potion", "qty": 2 }]));
        assert_error(&msg, "$.carried_items[0].qty", "unknown field `qty`");
    }

    #[test]
    fn wrong_type_in_detailed_carried_item() {
        let msg = error_of(|v| v["carried_items"] = json!([{ "name": "potion", "quantity": "two" }]));
        assert_error(&msg, "$.carried_items[0].quantity", "invalid type: string \"two\"");
    }

    #[test]
    fn map_keys_that_are_not_identifiers_use_brackets() {
        let msg = error_of(|v| v["skills"] = json!({ "Knowledge (arcana)": { "rank": "x" } }));
        assert_error(&msg, "$.skills['Knowledge (arcana)'].rank", "invalid type");
    }

    // ---- semantic stage ----

    #[test]
    fn empty_name() {
        assert_error(&error_of(|v| v["name"] = json!("  ")), "$.name", "name must not be empty");
    }

    #[test]
    fn hp_max_at_least_one() {
        assert_error(&error_of(|v| v["hp_max"] = json!(0)), "$.hp_max", "hp_max must be at least 1, got 0");
    }

    #[test]
    fn level_at_least_one() {
        assert_error(&error_of(|v| v["level"] = json!(0)), "$.level", "level must be at least 1");
    }

    #[test]
    fn ability_score_out_of_range() {
        let msg = error_of(|v| v["abilities"]["dex_score"] = json!(61));
        assert_error(&msg, "$.abilities.dex_score", "ability score must be in 0..=60, got 61");
        let msg = error_of(|v| v["abilities"]["int_score"] = json!(-1));
        assert_error(&msg, "$.abilities.int_score", "got -1");
    }

    #[test]
    fn null_con_needs_undead_or_construct() {
        let msg = error_of(|v| v["abilities"]["con_score"] = Value::Null);
        assert_error(
            &msg,
            "$.abilities.con_score",
            "undead or construct creature_type (creature_type is not set)",
        );
        let msg = error_of(|v| {
            v["abilities"]["con_score"] = Value::Null;
            v["creature_type"] = json!("humanoid");
        });
        assert_error(&msg, "$.abilities.con_score", "(creature_type is \"humanoid\")");
        for kind in ["undead", "Construct"] {
            let mut v = base();
            v["abilities"]["con_score"] = Value::Null;
            v["creature_type"] = json!(kind);
            parse_combatant(&v.to_string(), FILE).unwrap();
        }
    }

    #[test]
    fn negative_ac() {
        let msg = error_of(|v| v["ac"]["flat_footed"] = json!(-1));
        assert_error(&msg, "$.ac.flat_footed", "AC must not be negative");
    }

    #[test]
    fn touch_above_total_is_accepted() {
        // Touch AC can exceed normal AC in PF1e (e.g. a high dodge bonus with a size penalty).
        let mut v = base();
        v["ac"] = json!({ "total": 12, "touch": 14, "flat_footed": 15 });
        parse_combatant(&v.to_string(), FILE).unwrap();
    }

    #[test]
    fn speeds_are_multiples_of_five() {
        let msg = error_of(|v| v["speed_land_ft"] = json!(32));
        assert_error(&msg, "$.speed_land_ft", "speed must be a multiple of 5 ft, got 32");
        let msg = error_of(|v| v["speed_fly_ft"] = json!(42));
        assert_error(&msg, "$.speed_fly_ft", "multiple of 5 ft, got 42");
        let msg = error_of(|v| v["attacks"][0]["reload"] = json!("move"));
        assert_error(&msg, "$.attacks[0].reload", "only a ranged weapon has reload");
        let msg = error_of(|v| {
            v["attacks"][0] = json!({ "name": "light crossbow", "kind": "ranged", "attack_bonus": 0,
                "range_increment_ft": 80, "damage": [{ "formula": "1d8", "types": ["piercing"] }], "ammunition": 0 });
        });
        assert_error(&msg, "$.attacks[0].ammunition", "at least 1");
        let msg = error_of(|v| {
            v["attacks"][0] = json!({ "name": "light crossbow", "kind": "ranged", "attack_bonus": 0,
                "range_increment_ft": 80, "damage": [{ "formula": "1d8", "types": ["piercing"] }], "reload": "slow" });
        });
        assert_error(&msg, "$.attacks[0].reload", "unknown variant");
        let msg = error_of(|v| v["fly_maneuverability"] = json!("good"));
        assert_error(&msg, "$.fly_maneuverability", "needs a fly speed");
        let msg = error_of(|v| {
            v["speed_fly_ft"] = json!(60);
            v["fly_maneuverability"] = json!("nimble");
        });
        assert_error(&msg, "$.fly_maneuverability", "unknown variant");
    }

    #[test]
    fn malformed_damage_formulas_carry_the_dice_error() {
        for bad in ["ld8", "2d", "d0", "1d6++1"] {
            let msg = error_of(|v| attack(v, 0)["damage"][0]["formula"] = json!(bad));
            assert_error(&msg, "$.attacks[0].damage[0].formula", &format!("invalid dice notation {bad:?}: "));
        }
    }

    #[test]
    fn malformed_splash_formula() {
        let msg = error_of(|v| attack(v, 1)["splash"] = json!([{ "formula": "2d", "types": ["fire"] }]));
        assert_error(&msg, "$.attacks[1].splash[0].formula", "invalid dice notation \"2d\"");
    }

    #[test]
    fn attack_needs_damage() {
        let msg = error_of(|v| attack(v, 0)["damage"] = json!([]));
        assert_error(&msg, "$.attacks[0].damage", "an attack needs at least one damage component");
    }

    #[test]
    fn unknown_damage_type() {
        let msg = error_of(|v| attack(v, 0)["damage"][0]["types"] = json!(["Slashing", "holy"]));
        assert_error(&msg, "$.attacks[0].damage[0].types[1]", "unknown damage type \"holy\"");
    }

    #[test]
    fn damage_types_are_case_insensitive_and_kept_as_given() {
        let mut v = base();
        attack(&mut v, 0)["damage"][0]["types"] = json!(["Slashing"]);
        let c = parse_combatant(&v.to_string(), FILE).unwrap();
        assert_eq!(c.attacks[0].damage[0].types, vec!["Slashing".to_string()]);
    }

    #[test]
    fn crit_range_bounds() {
        let msg = error_of(|v| attack(v, 0)["crit_range"] = json!(1));
        assert_error(&msg, "$.attacks[0].crit_range", "crit_range must be in 2..=20, got 1");
        let msg = error_of(|v| attack(v, 0)["crit_range"] = json!(21));
        assert_error(&msg, "$.attacks[0].crit_range", "got 21");
    }

    #[test]
    fn crit_mult_bounds() {
        let msg = error_of(|v| attack(v, 1)["crit_mult"] = json!(1));
        assert_error(&msg, "$.attacks[1].crit_mult", "crit_mult must be in 2..=6, got 1");
        let msg = error_of(|v| attack(v, 1)["crit_mult"] = json!(7));
        assert_error(&msg, "$.attacks[1].crit_mult", "got 7");
    }

    #[test]
    fn range_increment_positive_multiple_of_five() {
        let msg = error_of(|v| attack(v, 1)["range_increment_ft"] = json!(0));
        assert_error(&msg, "$.attacks[1].range_increment_ft", "positive multiple of 5 ft, got 0");
        let msg = error_of(|v| attack(v, 1)["range_increment_ft"] = json!(62));
        assert_error(&msg, "$.attacks[1].range_increment_ft", "got 62");
    }

    #[test]
    fn ranged_needs_range_increment() {
        let msg = error_of(|v| {
            attack(v, 1).as_object_mut().unwrap().remove("range_increment_ft");
        });
        assert_error(&msg, "$.attacks[1].range_increment_ft", "a ranged attack needs range_increment_ft");
    }

    #[test]
    fn melee_forbids_range_increment() {
        let msg = error_of(|v| attack(v, 0)["range_increment_ft"] = json!(10));
        assert_error(
            &msg,
            "$.attacks[0].range_increment_ft",
            "a melee attack cannot have range_increment_ft",
        );
    }

    #[test]
    fn touch_may_have_a_range_increment_or_not() {
        let mut v = base();
        attack(&mut v, 0)["kind"] = json!("touch");
        attack(&mut v, 1)["kind"] = json!("touch");
        parse_combatant(&v.to_string(), FILE).unwrap();
    }

    #[test]
    fn secondary_only_with_natural() {
        let msg = error_of(|v| attack(v, 0)["secondary"] = json!(true));
        assert_error(&msg, "$.attacks[0].secondary", "secondary is only allowed on a natural attack");
    }

    #[test]
    fn firearm_needs_range_increment() {
        let msg = error_of(|v| {
            attack(v, 0)["kind"] = json!("touch");
            attack(v, 0)["firearm"] = json!(true);
        });
        assert_error(&msg, "$.attacks[0].range_increment_ft", "a firearm needs range_increment_ft");
    }

    #[test]
    fn count_at_least_one() {
        let msg = error_of(|v| attack(v, 0)["count"] = json!(0));
        assert_error(&msg, "$.attacks[0].count", "count must be at least 1");
    }

    #[test]
    fn reach_multiple_of_five() {
        let msg = error_of(|v| attack(v, 0)["reach_ft"] = json!(7));
        assert_error(&msg, "$.attacks[0].reach_ft", "reach_ft must be a multiple of 5 ft, got 7");
        // Tiny creatures have 0 ft reach.
        let mut v = base();
        attack(&mut v, 0)["reach_ft"] = json!(0);
        parse_combatant(&v.to_string(), FILE).unwrap();
    }

    #[test]
    fn unknown_weapon_quality() {
        let msg = error_of(|v| attack(v, 0)["qualities"] = json!(["magic", "mithral"]));
        assert_error(&msg, "$.attacks[0].qualities[1]", "unknown weapon quality \"mithral\"");
    }

    #[test]
    fn empty_attack_name_or_id() {
        let msg = error_of(|v| attack(v, 0)["name"] = json!(""));
        assert_error(&msg, "$.attacks[0].name", "attack name must not be empty");
        let msg = error_of(|v| attack(v, 0)["id"] = json!(" "));
        assert_error(&msg, "$.attacks[0].id", "attack id must not be empty");
    }

    #[test]
    fn attack_ids_are_unique() {
        let msg = error_of(|v| attack(v, 1)["name"] = json!("short sword"));
        assert_error(&msg, "$.attacks[1].name", "attack id \"short sword\" is already used by $.attacks[0]");
        let msg = error_of(|v| {
            attack(v, 0)["id"] = json!("main");
            attack(v, 1)["id"] = json!("main");
        });
        assert_error(&msg, "$.attacks[1].id", "\"main\" is already used");
        // The same display name with distinct ids is fine.
        let mut v = base();
        attack(&mut v, 0)["id"] = json!("sword-a");
        attack(&mut v, 1)["name"] = json!("short sword");
        let c = parse_combatant(&v.to_string(), FILE).unwrap();
        assert_eq!(c.attacks[0].weapon_id(), "sword-a");
        assert_eq!(c.attacks[1].weapon_id(), "short sword");
    }

    #[test]
    fn alignment_codes() {
        let msg = error_of(|v| v["alignment"] = json!("CG?"));
        assert_error(&msg, "$.alignment", "unknown alignment \"CG?\" (expected one of LG, NG, CG");
        let msg = error_of(|v| v["alignment"] = json!("ce"));
        assert_error(&msg, "$.alignment", "unknown alignment \"ce\"");
    }

    #[test]
    fn spell_slot_levels() {
        let msg = error_of(|v| {
            v["casting_ability"] = json!("int");
            v["spell_slots"] = json!({ "1": 3, "10": 1 });
        });
        assert_error(&msg, "$.spell_slots['10']", "spell level must be \"0\" to \"9\", got \"10\"");
    }

    #[test]
    fn casting_ability_required_for_spellcasters() {
        let msg = error_of(|v| v["spell_slots"] = json!({ "1": 3 }));
        assert_error(&msg, "$.casting_ability", "casting_ability is required when spell_slots or spells");
        let msg = error_of(|v| v["spells"] = json!(["Magic Missile"]));
        assert_error(&msg, "$.casting_ability", "casting_ability is required");
    }

    #[test]
    fn resistance_keys_are_energy_types() {
        let msg = error_of(|v| v["resistances"] = json!({ "fire": 5, "poison": 5 }));
        assert_error(&msg, "$.resistances.poison", "resistance must name an energy type");
        let msg = error_of(|v| v["resistances"] = json!({ "cold": 0 }));
        assert_error(&msg, "$.resistances.cold", "resistance amount must be at least 1");
    }

    #[test]
    fn dr_amount_at_least_one() {
        let msg = error_of(|v| v["dr"] = json!({ "amount": 0, "bypass": ["magic"] }));
        assert_error(&msg, "$.dr.amount", "DR amount must be at least 1");
    }

    #[test]
    fn unknown_dr_bypass() {
        let msg = error_of(|v| v["dr"] = json!({ "amount": 5, "bypass": ["bludgeon"] }));
        assert_error(&msg, "$.dr.bypass[0]", "unknown DR bypass \"bludgeon\"");
    }

    #[test]
    fn challenge_rating_format() {
        for good in ["1/8", "1/6", "1/4", "1/3", "1/2", "1", "3", "20"] {
            let mut v = base();
            v["cr"] = json!(good);
            parse_combatant(&v.to_string(), FILE).unwrap_or_else(|e| panic!("{good}: {e}"));
        }
        for bad in ["0.5", "2/3", "1/5", "0", "03", "", "one", "1/3 ", "100"] {
            let msg = error_of(|v| v["cr"] = json!(bad));
            assert_error(&msg, "$.cr", &format!("got {bad:?}"));
        }
    }

    #[test]
    fn empty_list_entries() {
        let msg = error_of(|v| v["features"] = json!(["Dodge", { "name": "" }]));
        assert_error(&msg, "$.features[1]", "feature name must not be empty");
        let msg = error_of(|v| v["carried_items"] = json!([{ "name": "potion", "quantity": 0 }]));
        assert_error(&msg, "$.carried_items[0].quantity", "quantity must be at least 1");
        let msg = error_of(|v| v["immunities"] = json!([""]));
        assert_error(&msg, "$.immunities[0]", "immunity must not be empty");
        let msg = error_of(|v| v["dr"] = json!({"amount": 5, "bypass_any": ["good", "silverr"]}));
        assert_error(&msg, "$.dr.bypass_any[1]", "unknown DR bypass \"silverr\"");
        let msg = error_of(|v| v["dr"] = json!({"amount": 5, "bypass": ["magic"], "bypass_any": ["good"]}));
        assert_error(&msg, "$.dr.bypass_any", "not both");
    }

    #[test]
    fn load_combatant_reports_missing_file() {
        let e = load_combatant(std::path::Path::new("/nonexistent/pf1e/none.json")).unwrap_err();
        let msg = e.to_string();
        assert!(msg.starts_with("/nonexistent/pf1e/none.json: cannot read: "), "{msg}");
    }

    // ---- shipped data ----

    fn data_dir(sub: &str) -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data").join(sub)
    }

    fn load_dir(sub: &str) -> BTreeMap<String, Combatant> {
        let mut out = BTreeMap::new();
        for entry in std::fs::read_dir(data_dir(sub)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "json") {
                let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
                let c = load_combatant(&path).unwrap_or_else(|e| panic!("{e}"));
                out.insert(stem, c);
            }
        }
        out
    }

    #[test]
    fn every_shipped_monster_loads() {
        let monsters = load_dir("monsters");
        for name in ["goblin", "orc", "skeleton", "wolf"] {
            assert!(monsters.contains_key(name), "data/monsters/{name}.json is missing");
        }
        for (name, c) in &monsters {
            assert!(!c.is_pc(), "{name} is a monster and must not carry role pc");
            assert!(c.source.is_some(), "{name} must name its source");
        }
        let orc = &monsters["orc"];
        assert_eq!(orc.attacks[0].damage[0].formula, "2d4+4");
        assert_eq!((orc.attacks[0].crit_range, orc.attacks[0].crit_mult), (18, 2));
        assert!(orc.attacks[0].two_handed);
        let skeleton = &monsters["skeleton"];
        assert!(skeleton.destroyed_at_zero());
        assert_eq!(skeleton.abilities.con_score, None);
    }

    #[test]
    fn every_shipped_pc_loads() {
        let pcs = load_dir("pcs");
        assert!(pcs.contains_key("fighter"), "data/pcs/fighter.json is missing");
        for (name, c) in &pcs {
            assert!(c.is_pc(), "{name} is in data/pcs and must carry role pc");
        }
    }

    #[test]
    fn goblin_is_the_reference_goblin() {
        let goblin = load_combatant(&data_dir("monsters").join("goblin.json")).unwrap();
        let mut expected = base();
        expected["level"] = json!(1);
        expected["cr"] = json!("1/3");
        expected["xp"] = json!(135);
        expected["source"] = json!("Bestiary > Goblin");
        expected["attacks"][0]["crit_mult"] = json!(2);
        assert_eq!(goblin, parse_combatant(&expected.to_string(), FILE).unwrap());
    }

    // ---- round trip ----

    fn everything() -> Value {
        json!({
            "role": "pc",
            "name": "Test Everything",
            "level": 7,
            "size": "Large",
            "cr": "1/2",
            "xp": 200,
            "source": "unit test",
            "creature_type": "undead",
            "alignment": "LE",
            "abilities": {
                "str_score": 18, "dex_score": 12, "con_score": null,
                "int_score": null, "wis_score": 14, "cha_score": 16
            },
            "hp_max": 55,
            "ac": { "total": 19, "touch": 10, "flat_footed": 18 },
            "bab": 5,
            "initiative_mod": 1,
            "speed_land_ft": 40,
            "speed_fly_ft": 60,
            "saves": { "fort": 5, "ref": 3, "will": 7 },
            "attacks": [
                {
                    "id": "glaive-1", "name": "glaive", "kind": "melee", "attack_bonus": 10,
                    "damage": [
                        { "formula": "1d10+6", "types": ["slashing"] },
                        { "formula": "1d6", "types": ["fire"] },
                        { "formula": "2d6", "types": ["untyped"], "precision": true }
                    ],
                    "damage_bonus": 2, "crit_range": 20, "crit_mult": 3,
                    "reach_ft": 10, "two_handed": true, "reach_weapon": true, "count": 1,
                    "qualities": ["magic", "cold_iron"], "notes": "flaming"
                },
                {
                    "name": "bite", "kind": "melee", "attack_bonus": 4,
                    "damage": [{ "formula": "1d6+2", "types": ["bludgeoning", "piercing", "slashing"] }],
                    "damage_bonus": 1, "crit_range": 20, "crit_mult": 2,
                    "natural": true, "secondary": true, "count": 2, "reach_ft": 10
                },
                {
                    "name": "pistol", "kind": "touch", "attack_bonus": 6,
                    "damage": [{ "formula": "1d8", "types": ["bludgeoning", "piercing"] }],
                    "damage_bonus": 0, "crit_range": 20, "crit_mult": 4, "count": 1,
                    "range_increment_ft": 20, "firearm": true
                },
                {
                    "name": "alchemist's fire", "kind": "ranged", "attack_bonus": 5,
                    "damage": [{ "formula": "1d6", "types": ["fire"] }],
                    "damage_bonus": 0, "crit_range": 20, "crit_mult": 2, "count": 1,
                    "range_increment_ft": 10,
                    "splash": [{ "formula": "1", "types": ["fire"] }]
                }
            ],
            "features": [
                "Power Attack",
                { "name": "Channel Energy", "category": "class", "source_detail": "cleric 1", "notes": "3d6" }
            ],
            "metamagic_feats": ["Empower Spell"],
            "dr": { "amount": 10, "bypass": ["bludgeoning", "magic"] },
            "resistances": { "cold": 10, "fire": 5 },
            "immunities": ["cold", "mind_affecting"],
            "spell_resistance": 16,
            "aware": false,
            "spell_slots": { "0": 4, "1": 4, "2": 3 },
            "spells": ["Magic Missile", "Scorching Ray"],
            "casting_ability": "cha",
            "resources": { "channel_energy": 3 },
            "skills": {
                "Perception": { "rank": 7, "class_skill": true, "armor_penalty": -1, "bonus": 12 }
            },
            "carried_items": ["rope", { "name": "potion of cure light wounds", "quantity": 2, "notes": "CL 1" }],
            "notes": "every optional field set",
            "cmb": 3,
            "cmd": 15
        })
    }

    #[test]
    fn an_unknown_feature_names_the_file_the_place_and_the_catalogue() {
        let msg =
            error_of(|v| v["features"] = json!(["Power Attack", "Weapon Focus (falchion)", "Flying Kick"]));
        assert_error(&msg, "$.features[2]", "unknown feature \"Flying Kick\"");
        assert!(msg.contains("data/feats.json"), "{msg}");
        let msg = error_of(|v| v["features"] = json!([{ "name": "Weapon Focus" }]));
        assert_error(&msg, "$.features[0]", "needs its weapon in parentheses");
    }

    #[test]
    fn round_trip_keeps_every_field() {
        let original = everything();
        let c = parse_combatant(&original.to_string(), FILE).unwrap();
        assert!(c.is_pc());
        assert!(matches!(&c.features[0], Feature::Name(n) if n == "Power Attack"));
        assert!(matches!(&c.features[1], Feature::Detailed(d) if d.category.as_deref() == Some("class")));
        assert!(matches!(&c.carried_items[0], CarriedItem::Name(n) if n == "rope"));
        assert_eq!(c.carried_items[1].quantity(), 2);
        // Serializing gives back exactly the input (which spells out every default the
        // serializer writes): no field dropped, none invented.
        let back = serde_json::to_value(&c).unwrap();
        assert_eq!(back, original);
        let again = parse_combatant(&serde_json::to_string_pretty(&c).unwrap(), FILE).unwrap();
        assert_eq!(again, c);
    }

    #[test]
    fn round_trip_of_minimal_file_keeps_defaults() {
        let c = parse_combatant(&base().to_string(), FILE).unwrap();
        let again = parse_combatant(&serde_json::to_string(&c).unwrap(), FILE).unwrap();
        assert_eq!(again, c);
    }
}
