//! The feature catalogue: every feat (and feat-like class feature or racial
//! trait) the engine knows, each with its real effect or the reason it is a
//! no-op, read from JSON (`data/feats.json`, one entry per line).
//!
//! An entry is one of:
//! - **modifiers**: typed modifiers in the data form of `effects::Modifier`
//!   (`Iron Will`: `+2 will`), optionally per weapon: a fixed filter
//!   (`"weapon": "sling"`) or the weapon written with the name
//!   (`"parameter": "weapon"`: `Weapon Focus (falchion)`);
//! - a **rule** the engine implements in code (`power_attack`,
//!   `combat_reflexes`, `maneuver_without_aoo`…), possibly with modifiers;
//! - a **no-op** with its reason (`"noop": "skill checks are not rolled in
//!   combat"`), so that no name is ever silently ignored.
//!
//! The shipped catalogue is compiled into the engine ([`FeatCatalog::builtin`]):
//! it is part of the rules, like the code, so changing what an existing
//! entry does is a rules change (bump `RULES_VERSION`), while adding an
//! entry only makes a file that was refused loadable.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::effects::{Maneuver, Modifier};
use crate::model::path::json_path;

/// Where the shipped catalogue comes from (for messages).
pub const BUILTIN_ORIGIN: &str = "data/feats.json";

const BUILTIN_TEXT: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/feats.json"));

/// What the text in parentheses after a feature's name means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Parameter {
    /// A weapon (`Weapon Focus (falchion)`): every modifier of the entry
    /// applies to the bearer's attacks whose name or id contains it. Required.
    Weapon,
    /// Free text that does not change the effect (`Skill Focus (Perception)`).
    Text,
    /// A number of dice (`Sneak Attack +2d6`, `Sneak Attack (3d6)`); optional.
    Dice,
}

/// A rule implemented in the engine's code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// Power Attack: `activate_power_attack`, −X on melee attacks and CMB, +2X damage.
    PowerAttack,
    /// Combat Reflexes: 1 + Dexterity modifier attacks of opportunity per round.
    CombatReflexes,
    /// Precise Shot: no penalty for shooting into melee.
    PreciseShot,
    /// Run: keeps Dexterity to AC while running, +4 on running endurance checks.
    Run,
    /// Improved Critical: threat range doubled (already in the printed `crit_range`).
    ImprovedCritical,
    /// Multiattack: secondary natural attacks at −2 instead of −5 (already in the printed bonus).
    Multiattack,
    /// Weapon Finesse: Dexterity instead of Strength on attacks with light and
    /// finesse weapons (already in the printed bonus).
    WeaponFinesse,
    /// Toughness: +3 hit points, +1 per Hit Die above 3 (already in `hp_max`).
    Toughness,
    /// Sneak attack: precision d6 against a flanked foe or one denied its Dexterity.
    SneakAttack,
    /// The entry's `maneuver` does not provoke an attack of opportunity (Improved <Maneuver>).
    ManeuverWithoutAoo,
    /// Agile Maneuvers: Dexterity instead of Strength in a computed CMB.
    AgileManeuvers,
    /// Defensive Combat Training: Hit Dice (`level`) instead of BAB in a computed CMD.
    DefensiveCombatTraining,
    /// Far Shot: −1 instead of −2 per full range increment.
    FarShot,
    /// Endurance: +4 on the Constitution checks to keep running.
    Endurance,
    /// Blind-Fight: a melee attack that misses for concealment rerolls the miss chance once.
    BlindFight,
    /// Evasion: no damage on a successful Reflex save against damage that a save halves.
    Evasion,
    /// Improved Evasion: as Evasion, and half damage on a failed save.
    ImprovedEvasion,
    /// Improved Precise Shot: ranged attacks ignore cover short of total cover
    /// and concealment short of total concealment.
    ImprovedPreciseShot,
    /// Channel energy (cleric): a 30-ft burst of positive or negative energy
    /// (parameter: `positive` or `negative`, optionally `Nd6`), uses from `resources.channel_energy`.
    ChannelEnergy,
    /// Selective Channeling: up to Charisma-modifier creatures left out of a channel.
    SelectiveChanneling,
    /// Witch hex: evil eye (−2 on AC, attacks or saves; Will: 1 round).
    HexEvilEye,
    /// Witch hex: slumber (asleep for witch-level rounds, Will negates, once a day per creature).
    HexSlumber,
    /// Witch hex: cackle (move action: the witch's evil eye, misfortune and fortune last 1 round more).
    HexCackle,
    /// Witch hex: misfortune (rolls twice, worse kept, 1 round; Will negates; once a day per creature).
    HexMisfortune,
    /// Witch hex: fortune (an ally rerolls once, better kept, 1 round; once a day per creature).
    HexFortune,
    /// Witch hex: healing (cure light wounds by touch; cure moderate from 5th level; once a day per creature).
    HexHealing,
    /// Witch hex: ward (+2 deflection AC and +2 resistance on saves to an ally until hit or a failed save).
    HexWard,
    /// Gunslinger deed: deadeye (1 grit per increment beyond the first: against touch AC).
    DeedDeadeye,
    /// Gunslinger deed: gunslinger's dodge (immediate, 1 grit: +2 AC against a ranged attack).
    DeedGunslingersDodge,
    /// Gunslinger deed: pistol-whip (standard action, 1 grit: a melee bash with a firearm,
    /// 1d6/1d10 bludgeoning, ×2 on a natural 20, a free trip on a hit).
    DeedPistolWhip,
    /// Gunslinger deed: quick clear (removes the broken condition of a misfire).
    DeedQuickClear,
    /// Pistolero deed: up close and deadly (1 grit: +1d6 precision per 5 levels on a firearm hit; half on a miss).
    DeedUpCloseAndDeadly,
    /// Bardic performance: inspire courage (+1 competence on attack and weapon damage, +1 morale
    /// on saves against charm and fear, more from 5th level), rounds from `resources.bardic_rounds`.
    InspireCourage,
    /// Magus spell combat: a full-round action casting a spell and attacking at −2.
    SpellCombat,
    /// Magus spellstrike: a touch spell delivered by a melee weapon hit.
    Spellstrike,
    /// Magus arcane pool: a swift action and 1 point for a +1 enhancement bonus on the weapon.
    ArcanePool,
    /// Lich fear aura: 60 ft, Will (DC 10 + ½ HD + Charisma) or frightened (under 5 HD) or shaken for HD rounds.
    LichFearAura,
    /// Lich paralyzing touch: a living creature hit by the touch attack saves (Fortitude) or is paralyzed.
    LichParalyzingTouch,
    /// Spell Penetration: +2 on caster level checks against spell resistance.
    SpellPenetration,
    /// Greater Spell Penetration: +2 more on caster level checks against spell resistance.
    GreaterSpellPenetration,
    /// Spell Focus (school): +1 to the save DCs of the school's spells.
    SpellFocus,
    /// Greater Spell Focus (school): +1 more to the save DCs of the school's spells.
    GreaterSpellFocus,
    /// Augment Summoning: summoned creatures gain +4 Strength and Constitution.
    AugmentSummoning,
    /// Rapid Reload (weapon): the named crossbow or firearm reloads one step
    /// faster (`combat::reload`).
    RapidReload,
    /// Uncanny Dodge: not flat-footed before its first action (keeps its
    /// Dexterity bonus to AC, makes attacks of opportunity).
    UncannyDodge,
    /// Cavalier challenge: a swift action against one foe, +level damage on
    /// melee hits against it, −2 AC against everyone else; uses from `resources.challenge`.
    Challenge,
    /// Order of the lion: the challenge adds a dodge bonus to AC against the
    /// challenged foe (+1, +1 more per four cavalier levels).
    OrderOfTheLion,
    /// Cavalier tactician: a standard action granting the cavalier's teamwork
    /// feats to allies within 30 ft for 3 + ½ level rounds; uses from `resources.tactician`.
    Tactician,
    /// Order of the lion, 2nd level: lion's call (standard action, allies
    /// within 60 ft: +1 competence on attacks and + Charisma modifier
    /// competence on saves against fear for cavalier-level rounds).
    LionsCall,
    /// Outflank (teamwork): flanking with an ally who also has it, the
    /// flanking bonus is +4 instead of +2.
    Outflank,
    /// Sun domain, Sun's Blessing: positive energy channeled to harm undead
    /// deals + cleric level damage, and their channel resistance does not apply.
    SunsBlessing,
    /// Healing domain, Rebuke Death (CRB "Healing Domain"): a standard
    /// action touch healing 1d4 + ½ cleric level to a living creature below
    /// 0 hit points; uses from `resources.rebuke_death` (3 + Wisdom modifier).
    RebukeDeath,
    /// A domain, school or bloodline power used as an action of its own
    /// (touch of evil, grave touch, copycat…): the entry's `power` says
    /// how (`feats::power`, `combat::abilities::domain`); uses from
    /// `resources.<name>` or 3 + the power's ability modifier.
    DomainPower,
    /// Magus arcana Arcane Accuracy (UM "Magus Arcana"): a swift action
    /// and 1 arcane pool point, + Intelligence bonus insight on attack rolls
    /// until the end of the magus's turn.
    ArcaneAccuracy,
    /// Barbarian rage (CRB "Rage"): a free action on its turn, rounds from
    /// `resources.rage_rounds`: +4 morale Strength and Constitution, +2
    /// morale on Will saves, −2 AC; fatigued afterwards (`combat::abilities::barbarian`).
    Rage,
    /// Paladin smite evil (CRB "Smite Evil"): the template's smite
    /// (`combat::monster::smite`) with the paladin's doubled first hit
    /// against evil outsiders, evil dragons and undead; uses from `resources.smite_evil`.
    SmiteEvil,
    /// Paladin lay on hands (CRB "Lay On Hands"): (level / 2)d6 healing,
    /// swift on itself, standard on an ally; uses from `resources.lay_on_hands`.
    LayOnHands,
    /// Paladin channel positive energy (CRB "Paladin", 4th level): the
    /// cleric's positive channel at the paladin's level, each use paid with
    /// two uses of `resources.lay_on_hands`.
    ChannelPositiveEnergy,
    /// Paladin mercy (CRB "Mercy"), written `Mercy (sickened)`: each lay on
    /// hands that heals also ends the mercy's condition (`feats::mercy`).
    Mercy,
    /// Ranger favored enemy (CRB "Favored Enemy"): a bonus on attack and
    /// damage rolls against a creature type, written `Favored Enemy (undead +2)`.
    FavoredEnemy,
    /// Ranger hunter's bond (CRB "Hunter's Bond"), written `Hunter's Bond
    /// (companions)`: a move action granting half the favored enemy bonus
    /// against one foe to the allies within 30 ft for Wisdom-modifier rounds
    /// (minimum 1). `Hunter's Bond (animal companion)` is accepted and does
    /// nothing here: the companion is a combatant file of its own.
    HuntersBond,
    /// Monk flurry of blows (CRB "Monk"): a full attack with unarmed strikes
    /// and monk weapons at the monk level as base attack bonus, one more
    /// attack (two at 8th, three at 15th), −2 on every roll.
    FlurryOfBlows,
    /// Stunning Fist (CRB feat; a monk's bonus feat): a declared unarmed
    /// attack that stuns for a round on a failed Fortitude save.
    StunningFist,
    /// Monk ki pool (CRB "Monk", 4th level): one more flurry attack, or +4
    /// dodge AC for a round, for a point (a swift action).
    KiPool,
    /// Monk AC bonus (CRB "Monk"): in the printed AC; lost while helpless.
    MonkAcBonus,
    /// Paladin aura of courage (CRB "Paladin", 3rd level): immune to fear,
    /// +4 morale on saves against fear for allies within 10 ft.
    AuraOfCourage,
    /// Rage power Superstition (CRB): while raging, +2 morale (+1 per four
    /// barbarian levels) on saves against spells.
    Superstition,
    /// Rage power Quick Reflexes (CRB): one more attack of opportunity a round while raging.
    QuickReflexes,
    /// An alchemist's bombs (APG "Bomb"): played through its bomb attack
    /// (`splash`, `splash_dc`, `standard_action`, `ammunition`), whose
    /// numbers the build derives (`combat::splash`).
    Bomb,
    /// An alchemist's mutagen (APG "Mutagen"), written `Mutagen (Dexterity)`:
    /// a standard action drinking it gives +4 alchemical to the physical
    /// score, −2 to the matching mental one and +2 natural armor for 10
    /// minutes per level; doses from `resources.mutagen` (1: an alchemist
    /// keeps one dose) (`combat::abilities::alchemist`).
    Mutagen,
    /// An alchemist's extracts (APG "Alchemy"): its spells are extracts,
    /// each drunk as a standard action that provokes, affecting only the
    /// drinker (`combat::spells`, `CasterSpec::extracts`).
    Alchemy,
    /// A martial feat that decides damage (Rapid Shot, Vital Strike, Cleave…):
    /// `feats::martial`, played by `combat::martial`.
    #[serde(untagged)]
    Martial(super::martial::MartialFeat),
}

impl Rule {
    /// The rule's name in the catalogue.
    pub const fn name(self) -> &'static str {
        match self {
            Rule::PowerAttack => "power_attack",
            Rule::CombatReflexes => "combat_reflexes",
            Rule::PreciseShot => "precise_shot",
            Rule::Run => "run",
            Rule::ImprovedCritical => "improved_critical",
            Rule::Multiattack => "multiattack",
            Rule::WeaponFinesse => "weapon_finesse",
            Rule::Toughness => "toughness",
            Rule::SneakAttack => "sneak_attack",
            Rule::ManeuverWithoutAoo => "maneuver_without_aoo",
            Rule::AgileManeuvers => "agile_maneuvers",
            Rule::DefensiveCombatTraining => "defensive_combat_training",
            Rule::FarShot => "far_shot",
            Rule::Endurance => "endurance",
            Rule::BlindFight => "blind_fight",
            Rule::Evasion => "evasion",
            Rule::ImprovedEvasion => "improved_evasion",
            Rule::ImprovedPreciseShot => "improved_precise_shot",
            Rule::ChannelEnergy => "channel_energy",
            Rule::SelectiveChanneling => "selective_channeling",
            Rule::HexEvilEye => "hex_evil_eye",
            Rule::HexSlumber => "hex_slumber",
            Rule::HexCackle => "hex_cackle",
            Rule::HexMisfortune => "hex_misfortune",
            Rule::HexFortune => "hex_fortune",
            Rule::HexHealing => "hex_healing",
            Rule::HexWard => "hex_ward",
            Rule::DeedDeadeye => "deed_deadeye",
            Rule::DeedGunslingersDodge => "deed_gunslingers_dodge",
            Rule::DeedPistolWhip => "deed_pistol_whip",
            Rule::DeedQuickClear => "deed_quick_clear",
            Rule::DeedUpCloseAndDeadly => "deed_up_close_and_deadly",
            Rule::InspireCourage => "inspire_courage",
            Rule::SpellCombat => "spell_combat",
            Rule::Spellstrike => "spellstrike",
            Rule::ArcanePool => "arcane_pool",
            Rule::LichFearAura => "lich_fear_aura",
            Rule::LichParalyzingTouch => "lich_paralyzing_touch",
            Rule::SpellPenetration => "spell_penetration",
            Rule::GreaterSpellPenetration => "greater_spell_penetration",
            Rule::SpellFocus => "spell_focus",
            Rule::GreaterSpellFocus => "greater_spell_focus",
            Rule::AugmentSummoning => "augment_summoning",
            Rule::RapidReload => "rapid_reload",
            Rule::UncannyDodge => "uncanny_dodge",
            Rule::Challenge => "challenge",
            Rule::OrderOfTheLion => "order_of_the_lion",
            Rule::Tactician => "tactician",
            Rule::LionsCall => "lions_call",
            Rule::Outflank => "outflank",
            Rule::SunsBlessing => "suns_blessing",
            Rule::RebukeDeath => "rebuke_death",
            Rule::DomainPower => "domain_power",
            Rule::ArcaneAccuracy => "arcane_accuracy",
            Rule::Rage => "rage",
            Rule::SmiteEvil => "smite_evil",
            Rule::LayOnHands => "lay_on_hands",
            Rule::ChannelPositiveEnergy => "channel_positive_energy",
            Rule::Mercy => "mercy",
            Rule::FavoredEnemy => "favored_enemy",
            Rule::HuntersBond => "hunters_bond",
            Rule::FlurryOfBlows => "flurry_of_blows",
            Rule::StunningFist => "stunning_fist",
            Rule::KiPool => "ki_pool",
            Rule::MonkAcBonus => "monk_ac_bonus",
            Rule::AuraOfCourage => "aura_of_courage",
            Rule::Superstition => "superstition",
            Rule::QuickReflexes => "quick_reflexes",
            Rule::Bomb => "bomb",
            Rule::Mutagen => "mutagen",
            Rule::Alchemy => "alchemy",
            Rule::Martial(m) => m.name(),
        }
    }

    /// Every rule but the martial feats (`MartialFeat::ALL`), for messages.
    pub const ALL: [Rule; 71] = [
        Rule::PowerAttack,
        Rule::CombatReflexes,
        Rule::PreciseShot,
        Rule::Run,
        Rule::ImprovedCritical,
        Rule::Multiattack,
        Rule::WeaponFinesse,
        Rule::Toughness,
        Rule::SneakAttack,
        Rule::ManeuverWithoutAoo,
        Rule::AgileManeuvers,
        Rule::DefensiveCombatTraining,
        Rule::FarShot,
        Rule::Endurance,
        Rule::BlindFight,
        Rule::Evasion,
        Rule::ImprovedEvasion,
        Rule::ImprovedPreciseShot,
        Rule::ChannelEnergy,
        Rule::SelectiveChanneling,
        Rule::HexEvilEye,
        Rule::HexSlumber,
        Rule::HexCackle,
        Rule::HexMisfortune,
        Rule::HexFortune,
        Rule::HexHealing,
        Rule::HexWard,
        Rule::DeedDeadeye,
        Rule::DeedGunslingersDodge,
        Rule::DeedPistolWhip,
        Rule::DeedQuickClear,
        Rule::DeedUpCloseAndDeadly,
        Rule::InspireCourage,
        Rule::SpellCombat,
        Rule::Spellstrike,
        Rule::ArcanePool,
        Rule::LichFearAura,
        Rule::LichParalyzingTouch,
        Rule::SpellPenetration,
        Rule::GreaterSpellPenetration,
        Rule::SpellFocus,
        Rule::GreaterSpellFocus,
        Rule::AugmentSummoning,
        Rule::UncannyDodge,
        Rule::RapidReload,
        Rule::Challenge,
        Rule::OrderOfTheLion,
        Rule::Tactician,
        Rule::LionsCall,
        Rule::Outflank,
        Rule::SunsBlessing,
        Rule::RebukeDeath,
        Rule::DomainPower,
        Rule::ArcaneAccuracy,
        Rule::Rage,
        Rule::SmiteEvil,
        Rule::LayOnHands,
        Rule::ChannelPositiveEnergy,
        Rule::Mercy,
        Rule::FavoredEnemy,
        Rule::HuntersBond,
        Rule::FlurryOfBlows,
        Rule::StunningFist,
        Rule::KiPool,
        Rule::MonkAcBonus,
        Rule::AuraOfCourage,
        Rule::Superstition,
        Rule::QuickReflexes,
        Rule::Bomb,
        Rule::Mutagen,
        Rule::Alchemy,
    ];
}

/// One catalogue entry, as written in the file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FeatEntry {
    /// The name, as printed (matched case-insensitively).
    pub name: String,
    /// What the text in parentheses after the name means, if the feature takes one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameter: Option<Parameter>,
    /// Typed modifiers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modifiers: Vec<Modifier>,
    /// A rule of the engine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<Rule>,
    /// The maneuver of `maneuver_without_aoo`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub maneuver: Option<Maneuver>,
    /// The power of `domain_power` (`feats::power`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power: Option<super::power::PowerSpec>,
    /// Why the entry does nothing in the engine (a no-op).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub noop: Option<String>,
    /// What part of the feature the engine leaves out, when it models the rest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partial: Option<String>,
    /// Where the feature is defined (`CRB`, `APG`, `Bestiary`…).
    pub source: String,
}

/// Why a catalogue is refused: `ORIGIN: JSONPATH: reason`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{origin}: {path}: {message}")]
pub struct CatalogError {
    /// The catalogue's file.
    pub origin: String,
    /// JSON path of the offending value.
    pub path: String,
    /// What is wrong.
    pub message: String,
}

/// The feature catalogue, looked up by normalized name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeatCatalog {
    origin: String,
    entries: Vec<FeatEntry>,
    by_name: BTreeMap<String, usize>,
}

/// A feature name matched to an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Match<'c, 'n> {
    /// The entry.
    pub entry: &'c FeatEntry,
    /// The parameter written with the name (`falchion`, `2d6`), if any.
    pub parameter: Option<&'n str>,
}

/// Lower case, single spaces, no surrounding blanks.
pub fn normalize(name: &str) -> String {
    name.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}

/// The resource key of a domain or school power named `name` (`touch of
/// evil` → `touch_of_evil`).
pub fn power_resource_key(name: &str) -> String {
    normalize(name).replace([' ', '-', '\''], "_")
}

/// Splits `Name (param)` into the name and the parameter.
fn split_parenthesized(name: &str) -> Option<(&str, &str)> {
    let trimmed = name.trim();
    let inner = trimmed.strip_suffix(')')?;
    let open = inner.rfind('(')?;
    let param = inner[open + 1..].trim();
    (!param.is_empty()).then(|| (inner[..open].trim_end(), param))
}

/// Splits `Name +2d6` into the name and the dice.
fn split_dice(name: &str) -> Option<(&str, &str)> {
    let trimmed = name.trim();
    let (base, last) = trimmed.rsplit_once(' ')?;
    let dice = last.strip_prefix('+').unwrap_or(last);
    parse_d6(dice).map(|_| (base.trim_end(), dice))
}

/// The number of d6 in `Nd6`.
pub fn parse_d6(text: &str) -> Option<u32> {
    let text = text.trim();
    let text = text.strip_prefix('+').unwrap_or(text);
    let (n, die) = text.split_once(['d', 'D'])?;
    let n: u32 = n.parse().ok()?;
    (die == "6" && n > 0).then_some(n)
}

impl FeatCatalog {
    /// Parses and checks a catalogue; `origin` names it in errors.
    pub fn parse(text: &str, origin: &str) -> Result<Self, CatalogError> {
        let fail = |path: String, message: String| CatalogError { origin: origin.to_string(), path, message };
        let mut de = serde_json::Deserializer::from_str(text);
        let entries: Vec<FeatEntry> = serde_path_to_error::deserialize(&mut de)
            .map_err(|e| fail(json_path(e.path()), e.inner().to_string()))?;
        de.end().map_err(|e| fail("$".into(), e.to_string()))?;
        let mut by_name = BTreeMap::new();
        for (i, e) in entries.iter().enumerate() {
            let at = |field: &str| format!("$[{i}].{field}");
            let key = normalize(&e.name);
            if key.is_empty() {
                return Err(fail(at("name"), "name must not be empty".into()));
            }
            if e.source.trim().is_empty() {
                return Err(fail(at("source"), "source must not be empty".into()));
            }
            let effect = !e.modifiers.is_empty() || e.rule.is_some();
            match (&e.noop, effect) {
                (Some(reason), _) if reason.trim().is_empty() => {
                    return Err(fail(at("noop"), "a no-op needs its reason".into()));
                }
                (Some(_), true) => {
                    return Err(fail(
                        at("noop"),
                        format!("{:?} is a no-op but also lists modifiers or a rule: keep one", e.name),
                    ));
                }
                (None, false) => {
                    return Err(fail(
                        at("name"),
                        format!("{:?} has no modifiers, no rule and no noop reason", e.name),
                    ));
                }
                _ => {}
            }
            match (e.rule, e.maneuver) {
                (Some(Rule::ManeuverWithoutAoo), None) => {
                    return Err(fail(
                        at("maneuver"),
                        "missing: maneuver_without_aoo needs its maneuver".into(),
                    ));
                }
                (rule, Some(_)) if rule != Some(Rule::ManeuverWithoutAoo) => {
                    return Err(fail(at("maneuver"), "maneuver is only read by maneuver_without_aoo".into()));
                }
                _ => {}
            }
            match (e.rule, &e.power) {
                (Some(Rule::DomainPower), None) => {
                    return Err(fail(at("power"), "missing: domain_power needs its power".into()));
                }
                (Some(Rule::DomainPower), Some(p)) => p.check().map_err(|m| fail(at("power"), m))?,
                (_, Some(_)) => {
                    return Err(fail(at("power"), "power is only read by domain_power".into()));
                }
                _ => {}
            }
            if let Some(first) = by_name.insert(key, i) {
                return Err(fail(at("name"), format!("{:?} is already listed at $[{first}]", e.name)));
            }
        }
        Ok(Self { origin: origin.to_string(), entries, by_name })
    }

    /// The catalogue shipped with the engine (`data/feats.json`, compiled in).
    pub fn builtin() -> Result<&'static FeatCatalog, &'static CatalogError> {
        static BUILTIN: OnceLock<Result<FeatCatalog, CatalogError>> = OnceLock::new();
        BUILTIN.get_or_init(|| FeatCatalog::parse(BUILTIN_TEXT, BUILTIN_ORIGIN)).as_ref()
    }

    /// Where the catalogue comes from.
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// Every entry, in file order.
    pub fn entries(&self) -> &[FeatEntry] {
        &self.entries
    }

    /// The entry called exactly `name` (normalized), parameters not split.
    pub fn get(&self, name: &str) -> Option<&FeatEntry> {
        self.by_name.get(&normalize(name)).map(|&i| &self.entries[i])
    }

    /// Matches a feature name: the full name, else the name without its
    /// parenthesized parameter (`Weapon Focus (falchion)`), else without a
    /// trailing `+Nd6` (`Sneak Attack +2d6`), for entries that take a parameter.
    pub fn lookup<'n>(&self, name: &'n str) -> Option<Match<'_, 'n>> {
        if let Some(entry) = self.get(name) {
            return Some(Match { entry, parameter: None });
        }
        let split = split_parenthesized(name).or_else(|| split_dice(name))?;
        let entry = self.get(split.0).filter(|e| e.parameter.is_some())?;
        Some(Match { entry, parameter: Some(split.1) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<FeatCatalog, CatalogError> {
        FeatCatalog::parse(text, "feats.json")
    }

    #[test]
    fn the_builtin_catalogue_loads() {
        let c = FeatCatalog::builtin().expect("data/feats.json is valid");
        assert!(c.entries().len() > 100, "{}", c.entries().len());
        assert_eq!(c.origin(), BUILTIN_ORIGIN);
    }

    #[test]
    fn the_feats_document_lists_every_catalogue_entry() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/rules/feats.md");
        let doc = std::fs::read_to_string(path).expect("docs/rules/feats.md");
        let missing: Vec<&str> = FeatCatalog::builtin()
            .expect("catalogue")
            .entries()
            .iter()
            .map(|e| e.name.as_str())
            .filter(|name| !doc.contains(name))
            .collect();
        assert!(missing.is_empty(), "docs/rules/feats.md does not list {missing:?}");
    }

    #[test]
    fn names_match_case_insensitively_with_parameters() {
        let c = parse(
            r#"[{"name":"Weapon Focus","parameter":"weapon","modifiers":[{"target":"attack","value":1}],"source":"CRB"},
                {"name":"Sneak Attack","parameter":"dice","rule":"sneak_attack","source":"CRB"},
                {"name":"Iron Will","modifiers":[{"target":"will","value":2}],"source":"CRB"}]"#,
        )
        .unwrap();
        let m = c.lookup("weapon focus (Falchion)").unwrap();
        assert_eq!((m.entry.name.as_str(), m.parameter), ("Weapon Focus", Some("Falchion")));
        assert_eq!(c.lookup("  IRON   will ").unwrap().parameter, None);
        assert_eq!(c.lookup("Sneak Attack +2d6").unwrap().parameter, Some("2d6"));
        assert_eq!(c.lookup("Sneak Attack (3d6)").unwrap().parameter, Some("3d6"));
        assert!(c.lookup("Iron Will (strong)").is_none(), "no parameter on Iron Will");
        assert!(c.lookup("Toughness").is_none());
        assert_eq!(parse_d6("+4d6"), Some(4));
        assert_eq!(parse_d6("2d8"), None);
    }

    #[test]
    fn bad_entries_are_refused_with_their_path() {
        let cases = [
            (r#"[{"name":"X","source":"CRB"}]"#, "$[0].name"),
            (r#"[{"name":"X","noop":" ","source":"CRB"}]"#, "$[0].noop"),
            (r#"[{"name":"X","noop":"n","rule":"run","source":"CRB"}]"#, "$[0].noop"),
            (r#"[{"name":"X","rule":"maneuver_without_aoo","source":"CRB"}]"#, "$[0].maneuver"),
            (r#"[{"name":"X","rule":"run","maneuver":"trip","source":"CRB"}]"#, "$[0].maneuver"),
            (r#"[{"name":"X","rule":"fly","source":"CRB"}]"#, "$[0].rule"),
            (r#"[{"name":"X","rule":"domain_power","source":"CRB"}]"#, "$[0].power"),
            (
                r#"[{"name":"X","rule":"run","power":{"use":"melee_touch","ability":"wis","rounds":"half_level","effect":"take_worse"},"source":"CRB"}]"#,
                "$[0].power",
            ),
            (
                r#"[{"name":"X","rule":"domain_power","power":{"use":"self_move","ability":"wis","rounds":"level","effect":"take_worse"},"source":"CRB"}]"#,
                "$[0].power",
            ),
            (r#"[{"name":"X","noop":"n","source":"CRB","kind":1}]"#, "$[0].kind"),
            (
                r#"[{"name":"X","noop":"n","source":"CRB"},{"name":" x ","noop":"n","source":"CRB"}]"#,
                "$[1].name",
            ),
        ];
        for (text, path) in cases {
            let e = parse(text).unwrap_err();
            assert_eq!(e.path, path, "{text}: {e}");
            assert!(e.to_string().starts_with("feats.json: "), "{e}");
        }
    }
}
