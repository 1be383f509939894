//! Resolving a combatant's features against the catalogue: every name
//! becomes modifiers, a rule, or a traced no-op; an unknown name is an error.
//!
//! **Final values and feats.** A data file's `attack_bonus`, `damage`, `ac`,
//! `saves`, `initiative_mod`, `hp_max`, `speed_land_ft`, ability scores,
//! `spell_resistance` and (when given) `cmb` / `cmd` are the printed numbers,
//! every static feat already included. So a feat modifier is split in two:
//! - *included in final values*: an unconditioned modifier on a number the
//!   file prints (Weapon Focus `+1 attack` with its weapon, Iron Will `+2
//!   will`, Dodge `+1 dodge AC`, Improved Initiative). The engine never adds
//!   it during play; [`super::derive`] applies it when recomputing the printed
//!   numbers from base values, which is how a test proves the data right;
//! - *in play*: everything else — a conditioned modifier (Point-Blank Shot
//!   within 30 ft, `+2 vs fear`), or one on a number the engine computes
//!   itself (CMB and CMD when the file does not print them, concentration,
//!   skills, critical confirmation). The engine applies it through the
//!   stacking resolver.
//!
//! Rules (Power Attack, Combat Reflexes…) act in play, except those whose
//! whole effect is a printed number (Improved Critical's threat range,
//! Multiattack's −2, Weapon Finesse, Toughness), used by `derive` only.

use crate::effects::{Maneuver, ModTarget, Modifier};
use crate::model::Combatant;

use super::catalog::{FeatCatalog, Parameter, Rule, normalize, parse_d6};

/// How sneak attack dice are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SneakDice {
    /// (level + 1) / 2 d6 (a rogue: 1d6 at level 1, 2d6 at 3…).
    ByLevel,
    /// A fixed number of d6 (`Sneak Attack +2d6`).
    Fixed(u32),
}

/// The engine rules a combatant's features switch on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rules {
    /// Power Attack.
    pub power_attack: bool,
    /// Combat Reflexes.
    pub combat_reflexes: bool,
    /// Uncanny Dodge.
    pub uncanny_dodge: bool,
    /// Precise Shot.
    pub precise_shot: bool,
    /// Run.
    pub run: bool,
    /// Improved Critical: the weapon filter of each (`None`: every weapon).
    pub improved_critical: Vec<Option<String>>,
    /// Multiattack.
    pub multiattack: bool,
    /// Weapon Finesse.
    pub weapon_finesse: bool,
    /// Toughness.
    pub toughness: bool,
    /// Sneak attack dice.
    pub sneak_attack: Option<SneakDice>,
    /// Maneuvers that do not provoke (bit = `Maneuver as usize`).
    pub no_aoo_maneuvers: u16,
    /// Agile Maneuvers.
    pub agile_maneuvers: bool,
    /// Defensive Combat Training.
    pub defensive_combat_training: bool,
    /// Far Shot.
    pub far_shot: bool,
    /// Endurance.
    pub endurance: bool,
    /// Blind-Fight.
    pub blind_fight: bool,
    /// Evasion or Improved Evasion.
    pub evasion: Evasion,
    /// Improved Precise Shot.
    pub improved_precise_shot: bool,
    /// Outflank (a teamwork feat).
    pub outflank: bool,
    /// Class abilities and spellcasting feats.
    pub class: ClassRules,
    /// The martial feats that decide damage.
    pub martial: super::martial::Martial,
}

/// What a successful or failed Reflex save does to damage a save halves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Evasion {
    /// The usual rule: half on a success, all on a failure.
    #[default]
    None,
    /// Evasion: nothing on a success.
    Evasion,
    /// Improved Evasion: nothing on a success, half on a failure.
    Improved,
}

/// The paladin level that gives channel positive energy (CRB "Paladin").
pub const PALADIN_CHANNEL_LEVEL: u32 = 4;

/// The ranger level of Hunter's Bond (CRB "Ranger": "At 4th level, a ranger forms a bond with his hunting companions").
pub const HUNTERS_BOND_LEVEL: u32 = 4;

/// Channel energy as a feature gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChannelRule {
    /// Positive energy (`Some(true)`), negative (`Some(false)`), or by the
    /// combatant's alignment (`None`: negative for an evil one, positive otherwise).
    pub positive: Option<bool>,
    /// Dice of d6 when written (`Channel Energy (positive, 3d6)`); otherwise (level + 1) / 2.
    pub dice: Option<u32>,
}

crate::named_enum! {
    /// The physical score an alchemist's mutagen raises (APG "Mutagen"); the
    /// matching mental score takes the penalty.
    MutagenScore {
        /// Strength (Intelligence −2).
        Strength => "strength",
        /// Dexterity (Wisdom −2).
        Dexterity => "dexterity",
        /// Constitution (Charisma −2).
        Constitution => "constitution",
    }
}

crate::named_enum! {
    /// The witch hexes the engine plays.
    Hex {
        /// Evil eye.
        EvilEye => "evil_eye",
        /// Slumber.
        Slumber => "slumber",
        /// Cackle.
        Cackle => "cackle",
        /// Misfortune.
        Misfortune => "misfortune",
        /// Fortune.
        Fortune => "fortune",
        /// Healing.
        Healing => "healing",
        /// Ward.
        Ward => "ward",
    }
}

crate::named_enum! {
    /// The gunslinger deeds the engine plays.
    Deed {
        /// Deadeye.
        Deadeye => "deadeye",
        /// Gunslinger's dodge.
        GunslingersDodge => "gunslingers_dodge",
        /// Pistol-whip.
        PistolWhip => "pistol_whip",
        /// Quick clear.
        QuickClear => "quick_clear",
        /// Up close and deadly (pistolero).
        UpCloseAndDeadly => "up_close_and_deadly",
    }
}

/// The most domain, school and bloodline powers one combatant plays (a
/// cleric's two domains, with room for a multiclass character).
pub const MAX_POWERS: usize = 4;

/// The class abilities and spellcasting feats a combatant's features switch on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClassRules {
    /// Channel energy.
    pub channel: Option<ChannelRule>,
    /// Selective Channeling.
    pub selective_channeling: bool,
    /// Hexes, in feature order.
    pub hexes: Vec<Hex>,
    /// Deeds, in feature order.
    pub deeds: Vec<Deed>,
    /// Bardic performance: inspire courage.
    pub inspire_courage: bool,
    /// Magus spell combat.
    pub spell_combat: bool,
    /// Magus spellstrike.
    pub spellstrike: bool,
    /// Magus arcane pool (weapon enhancement).
    pub arcane_pool: bool,
    /// The lich's fear aura.
    pub lich_fear_aura: bool,
    /// The lich's paralyzing touch.
    pub lich_paralyzing_touch: bool,
    /// Bonus on caster level checks against spell resistance (Spell Penetration +2, Greater +2).
    pub spell_penetration: i32,
    /// Save DC bonus per school (Spell Focus +1, Greater Spell Focus +1).
    pub spell_focus: Vec<(crate::spell::model::School, i32)>,
    /// Augment Summoning.
    pub augment_summoning: bool,
    /// Cavalier challenge.
    pub challenge: bool,
    /// Order of the lion (the challenge's dodge bonus).
    pub order_of_the_lion: bool,
    /// Cavalier tactician.
    pub tactician: bool,
    /// Order of the lion: lion's call.
    pub lions_call: bool,
    /// Sun domain: Sun's Blessing (channel energy against undead).
    pub suns_blessing: bool,
    /// Healing domain: Rebuke Death.
    pub rebuke_death: bool,
    /// Domain, school and bloodline powers: the catalogue entry's name and
    /// power, in feature order (at most [`MAX_POWERS`]).
    pub powers: Vec<(String, super::power::PowerSpec)>,
    /// Magus arcana: Arcane Accuracy.
    pub arcane_accuracy: bool,
    /// Barbarian rage.
    pub rage: bool,
    /// Paladin smite evil.
    pub smite_evil: bool,
    /// Paladin lay on hands.
    pub lay_on_hands: bool,
    /// Paladin mercies (checked against the level when resolved).
    pub mercies: super::mercy::Mercies,
    /// Paladin channel positive energy: `channel` is paid with two uses of
    /// lay on hands instead of a use of `resources.channel_energy`.
    pub channel_from_hands: bool,
    /// Ranger favored enemies: creature type and bonus, in feature order.
    pub favored_enemies: Vec<(crate::spell::model::CreatureType, i32)>,
    /// Ranger hunter's bond, the companions' bond (checked against the level
    /// and the favored enemies when resolved).
    pub hunters_bond: bool,
    /// Monk flurry of blows.
    pub flurry_of_blows: bool,
    /// Stunning Fist.
    pub stunning_fist: bool,
    /// Monk ki pool.
    pub ki_pool: bool,
    /// Monk AC bonus (Wisdom and level, lost while helpless).
    pub monk_ac_bonus: bool,
    /// Paladin aura of courage.
    pub aura_of_courage: bool,
    /// Rage power Superstition.
    pub superstition: bool,
    /// Rage power Quick Reflexes.
    pub quick_reflexes: bool,
    /// An alchemist's mutagen and the score it raises.
    pub mutagen: Option<MutagenScore>,
    /// An alchemist's extracts (APG "Alchemy"): its spells affect only
    /// itself and are drunk, not cast (a spellcasting rule, not an ability).
    pub alchemy: bool,
}

impl ClassRules {
    /// Whether any class ability the engine plays is switched on (spellcasting feats aside).
    pub fn any_ability(&self) -> bool {
        self.channel.is_some()
            || !self.hexes.is_empty()
            || !self.deeds.is_empty()
            || self.inspire_courage
            || self.spell_combat
            || self.spellstrike
            || self.arcane_pool
            || self.lich_fear_aura
            || self.lich_paralyzing_touch
            || self.challenge
            || self.tactician
            || self.lions_call
            || self.rage
            || self.smite_evil
            || self.lay_on_hands
            || self.rebuke_death
            || !self.powers.is_empty()
            || self.arcane_accuracy
            || !self.favored_enemies.is_empty()
            || self.hunters_bond
            || self.flurry_of_blows
            || self.stunning_fist
            || self.ki_pool
            || self.monk_ac_bonus
            || self.aura_of_courage
            || self.mutagen.is_some()
    }

    /// The save DC bonus of Spell Focus and Greater Spell Focus for `school`.
    pub fn focus(&self, school: crate::spell::model::School) -> i32 {
        self.spell_focus.iter().filter(|(s, _)| *s == school).map(|(_, v)| v).sum()
    }
}

impl Rules {
    /// Whether `m` is made without provoking (Improved <Maneuver>).
    pub fn maneuver_without_aoo(&self, m: Maneuver) -> bool {
        self.no_aoo_maneuvers >> m as u16 & 1 == 1
    }
}

/// What one feature of a combatant became.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResolvedFeature {
    /// The name as written in the combatant's file.
    pub written: String,
    /// The catalogue entry's name.
    pub entry: String,
    /// The parameter written with it (`falchion`), if any.
    pub parameter: Option<String>,
    /// Its rule, if any.
    pub rule: Option<Rule>,
    /// Modifiers already in the file's final values (recorded, not applied in play).
    pub in_final_values: Vec<Modifier>,
    /// Modifiers the engine applies during play.
    pub in_play: Vec<Modifier>,
    /// The no-op reason, if it does nothing.
    pub noop: Option<String>,
    /// What the engine leaves out of it, if partly modelled.
    pub partial: Option<String>,
}

/// Every feature of a combatant, resolved.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ResolvedFeatures {
    /// One per feature, in file order.
    pub features: Vec<ResolvedFeature>,
    /// The rules they switch on.
    pub rules: Rules,
}

impl ResolvedFeatures {
    /// Every modifier applied during play.
    pub fn in_play(&self) -> impl Iterator<Item = &Modifier> {
        self.features.iter().flat_map(|f| &f.in_play)
    }

    /// Every modifier included in the final values.
    pub fn in_final_values(&self) -> impl Iterator<Item = &Modifier> {
        self.features.iter().flat_map(|f| &f.in_final_values)
    }

    /// One transcript-style line per feature: how it acts.
    pub fn trace(&self) -> Vec<String> {
        self.features
            .iter()
            .map(|f| {
                let how = match (&f.noop, f.rule) {
                    (Some(reason), _) => format!("no-op: {reason}"),
                    (None, Some(rule)) => format!("rule {}", rule.name()),
                    (None, None) => String::from("modifiers"),
                };
                let mut parts = vec![how];
                if !f.in_final_values.is_empty() {
                    parts.push(format!("{} in final values", f.in_final_values.len()));
                }
                if !f.in_play.is_empty() {
                    parts.push(format!("{} in play", f.in_play.len()));
                }
                if let Some(p) = &f.partial {
                    parts.push(format!("not modelled: {p}"));
                }
                format!("{}: {}", f.written, parts.join("; "))
            })
            .collect()
    }
}

/// Why a feature does not resolve.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct FeatureError {
    /// Index of the feature in the combatant's `features`.
    pub index: usize,
    /// What is wrong.
    pub message: String,
}

/// Whether a modifier on `target` changes a number the combatant's file
/// prints as a final value.
pub fn printed(target: ModTarget, c: &Combatant) -> bool {
    use ModTarget as T;
    match target {
        T::Attack
        | T::MeleeAttack
        | T::RangedAttack
        | T::Damage
        | T::MeleeDamage
        | T::RangedDamage
        | T::Ac
        | T::Fort
        | T::Ref
        | T::Will
        | T::Saves
        | T::Initiative
        | T::Str
        | T::Dex
        | T::Con
        | T::Int
        | T::Wis
        | T::Cha
        | T::Speed
        | T::SpellResistance => true,
        T::Cmb => c.cmb.is_some(),
        T::Cmd => c.cmd.is_some(),
        T::Concentration
        | T::Skills
        | T::DexSkills
        | T::StrSkills
        | T::AbilityChecks
        | T::StrChecks
        | T::CasterLevel
        | T::CritConfirm => false,
    }
}

/// Whether a modifier is included in the final values of `c`'s file.
fn in_final_values(m: &Modifier, c: &Combatant) -> bool {
    m.condition.is_none() && printed(m.target, c)
}

/// Resolves every feature of `c` against `catalog`.
pub fn resolve(c: &Combatant, catalog: &FeatCatalog) -> Result<ResolvedFeatures, FeatureError> {
    let mut out = ResolvedFeatures::default();
    let mut last_mercy = None;
    let mut hands_channel = None;
    let mut bond = None;
    for (index, feature) in c.features.iter().enumerate() {
        let written = feature.name();
        let fail = |message: String| FeatureError { index, message };
        let Some(found) = catalog.lookup(written) else {
            return Err(fail(format!(
                "unknown feature {written:?}: {} lists every feature the engine knows; add it there (its modifiers or rule, or a no-op with its reason)",
                catalog.origin()
            )));
        };
        let entry = found.entry;
        let parameter = found.parameter.map(str::to_string);
        if entry.parameter == Some(Parameter::Weapon) && parameter.is_none() {
            return Err(fail(format!(
                "{written:?} needs its weapon in parentheses, as printed: \"{} (longsword)\"",
                entry.name
            )));
        }
        let mut resolved = ResolvedFeature {
            written: written.to_string(),
            entry: entry.name.clone(),
            parameter: parameter.clone(),
            rule: entry.rule,
            in_final_values: Vec::new(),
            in_play: Vec::new(),
            noop: entry.noop.clone(),
            partial: entry.partial.clone(),
        };
        for m in &entry.modifiers {
            let mut m = m.clone();
            if entry.parameter == Some(Parameter::Weapon) {
                m.weapon.clone_from(&parameter);
            }
            if in_final_values(&m, c) {
                resolved.in_final_values.push(m);
            } else {
                resolved.in_play.push(m);
            }
        }
        let rules = &mut out.rules;
        match entry.rule {
            Some(Rule::PowerAttack) => rules.power_attack = true,
            Some(Rule::CombatReflexes) => rules.combat_reflexes = true,
            Some(Rule::UncannyDodge) => rules.uncanny_dodge = true,
            Some(Rule::PreciseShot) => rules.precise_shot = true,
            Some(Rule::Run) => rules.run = true,
            Some(Rule::ImprovedCritical) => rules.improved_critical.push(parameter.clone()),
            Some(Rule::Multiattack) => rules.multiattack = true,
            Some(Rule::WeaponFinesse) => rules.weapon_finesse = true,
            Some(Rule::Toughness) => rules.toughness = true,
            Some(Rule::SneakAttack) => {
                let dice = match parameter.as_deref() {
                    None => SneakDice::ByLevel,
                    Some(p) => SneakDice::Fixed(parse_d6(p).ok_or_else(|| {
                        fail(format!(
                            "{written:?}: sneak attack dice must be written Nd6 (\"Sneak Attack +2d6\")"
                        ))
                    })?),
                };
                // Several sources of sneak attack add up (CRB: "the extra damage stacks").
                rules.sneak_attack = Some(match (rules.sneak_attack, dice) {
                    (None, d) => d,
                    (Some(SneakDice::Fixed(a)), SneakDice::Fixed(b)) => SneakDice::Fixed(a + b),
                    (Some(a), _) => a,
                });
            }
            Some(Rule::ManeuverWithoutAoo) => {
                if let Some(m) = entry.maneuver {
                    rules.no_aoo_maneuvers |= 1 << m as u16;
                }
            }
            Some(Rule::AgileManeuvers) => rules.agile_maneuvers = true,
            Some(Rule::DefensiveCombatTraining) => rules.defensive_combat_training = true,
            Some(Rule::FarShot) => rules.far_shot = true,
            Some(Rule::Endurance) => rules.endurance = true,
            Some(Rule::BlindFight) => rules.blind_fight = true,
            Some(Rule::Evasion) => rules.evasion = rules.evasion.max(Evasion::Evasion),
            Some(Rule::ImprovedEvasion) => rules.evasion = Evasion::Improved,
            Some(Rule::ImprovedPreciseShot) => rules.improved_precise_shot = true,
            Some(Rule::ChannelEnergy) => {
                rules.class.channel =
                    Some(channel_rule(parameter.as_deref()).map_err(|m| fail(format!("{written:?}: {m}")))?);
            }
            Some(Rule::SelectiveChanneling) => rules.class.selective_channeling = true,
            Some(Rule::HexEvilEye) => rules.class.hexes.push(Hex::EvilEye),
            Some(Rule::HexSlumber) => rules.class.hexes.push(Hex::Slumber),
            Some(Rule::HexCackle) => rules.class.hexes.push(Hex::Cackle),
            Some(Rule::HexMisfortune) => rules.class.hexes.push(Hex::Misfortune),
            Some(Rule::HexFortune) => rules.class.hexes.push(Hex::Fortune),
            Some(Rule::HexHealing) => rules.class.hexes.push(Hex::Healing),
            Some(Rule::HexWard) => rules.class.hexes.push(Hex::Ward),
            Some(Rule::DeedDeadeye) => rules.class.deeds.push(Deed::Deadeye),
            Some(Rule::DeedGunslingersDodge) => rules.class.deeds.push(Deed::GunslingersDodge),
            Some(Rule::DeedPistolWhip) => rules.class.deeds.push(Deed::PistolWhip),
            Some(Rule::DeedQuickClear) => rules.class.deeds.push(Deed::QuickClear),
            Some(Rule::DeedUpCloseAndDeadly) => rules.class.deeds.push(Deed::UpCloseAndDeadly),
            Some(Rule::InspireCourage) => rules.class.inspire_courage = true,
            Some(Rule::SpellCombat) => rules.class.spell_combat = true,
            Some(Rule::Spellstrike) => rules.class.spellstrike = true,
            Some(Rule::ArcanePool) => rules.class.arcane_pool = true,
            Some(Rule::LichFearAura) => rules.class.lich_fear_aura = true,
            Some(Rule::LichParalyzingTouch) => rules.class.lich_paralyzing_touch = true,
            Some(Rule::SpellPenetration | Rule::GreaterSpellPenetration) => {
                rules.class.spell_penetration += 2
            }
            Some(Rule::SpellFocus | Rule::GreaterSpellFocus) => {
                let school = parameter.as_deref().and_then(school_named).ok_or_else(|| {
                    fail(format!(
                        "{written:?} needs its school in parentheses: \"{} (evocation)\" (abjuration, conjuration, divination, enchantment, evocation, illusion, necromancy, transmutation)",
                        entry.name
                    ))
                })?;
                rules.class.spell_focus.push((school, 1));
            }
            Some(Rule::AugmentSummoning) => rules.class.augment_summoning = true,
            Some(Rule::Challenge) => rules.class.challenge = true,
            Some(Rule::OrderOfTheLion) => rules.class.order_of_the_lion = true,
            Some(Rule::Tactician) => rules.class.tactician = true,
            Some(Rule::LionsCall) => rules.class.lions_call = true,
            Some(Rule::Outflank) => rules.outflank = true,
            Some(Rule::SunsBlessing) => rules.class.suns_blessing = true,
            Some(Rule::RebukeDeath) => rules.class.rebuke_death = true,
            Some(Rule::DomainPower) => {
                if let Some(power) = entry.power {
                    if rules.class.powers.iter().any(|(n, _)| *n == entry.name) {
                        return Err(fail(format!("{written:?} is listed twice")));
                    }
                    if rules.class.powers.len() == MAX_POWERS {
                        return Err(fail(format!(
                            "{written:?}: at most {MAX_POWERS} domain, school or bloodline powers per combatant"
                        )));
                    }
                    rules.class.powers.push((entry.name.clone(), power));
                }
            }
            Some(Rule::ArcaneAccuracy) => rules.class.arcane_accuracy = true,
            Some(Rule::Rage) => rules.class.rage = true,
            Some(Rule::FlurryOfBlows) => rules.class.flurry_of_blows = true,
            Some(Rule::StunningFist) => rules.class.stunning_fist = true,
            Some(Rule::KiPool) => rules.class.ki_pool = true,
            Some(Rule::MonkAcBonus) => rules.class.monk_ac_bonus = true,
            Some(Rule::AuraOfCourage) => rules.class.aura_of_courage = true,
            Some(Rule::Superstition) => rules.class.superstition = true,
            Some(Rule::QuickReflexes) => rules.class.quick_reflexes = true,
            Some(Rule::SmiteEvil) => rules.class.smite_evil = true,
            Some(Rule::LayOnHands) => rules.class.lay_on_hands = true,
            Some(Rule::ChannelPositiveEnergy) => {
                if hands_channel.is_some() {
                    return Err(fail(format!("{written:?} is listed twice")));
                }
                if c.level < PALADIN_CHANNEL_LEVEL {
                    return Err(fail(format!(
                        "{written:?} is a paladin ability of level {PALADIN_CHANNEL_LEVEL} or more; this combatant is level {}",
                        c.level
                    )));
                }
                hands_channel = Some(index);
            }
            Some(Rule::Mercy) => {
                let mercy = parameter.as_deref().and_then(super::mercy::Mercy::from_name).ok_or_else(|| {
                    fail(format!(
                        "{written:?} names no mercy of the Core Rulebook: write \"Mercy (sickened)\" with one of {}",
                        super::mercy::Mercy::names()
                    ))
                })?;
                if rules.class.mercies.has(mercy) {
                    return Err(fail(format!("{written:?} is listed twice")));
                }
                if c.level < mercy.level() {
                    return Err(fail(format!(
                        "{written:?} is a mercy of paladin level {} or more; this combatant is level {}",
                        mercy.level(),
                        c.level
                    )));
                }
                rules.class.mercies = rules.class.mercies.with(mercy);
                last_mercy = Some(index);
            }
            Some(Rule::FavoredEnemy) => {
                let enemy =
                    favored_enemy(parameter.as_deref()).map_err(|m| fail(format!("{written:?}: {m}")))?;
                rules.class.favored_enemies.push(enemy);
            }
            Some(Rule::HuntersBond) => {
                let kind = parameter.as_deref().map(|p| p.trim().to_lowercase());
                match kind.as_deref() {
                    Some("companions") => {
                        if bond.is_some() {
                            return Err(fail(format!("{written:?} is listed twice")));
                        }
                        if c.level < HUNTERS_BOND_LEVEL {
                            return Err(fail(format!(
                                "{written:?} is a ranger ability of level {HUNTERS_BOND_LEVEL} or more; this combatant is level {}",
                                c.level
                            )));
                        }
                        rules.class.hunters_bond = true;
                        bond = Some(index);
                    }
                    // The other bond is a creature: its own combatant file
                    // plays it, so the feature itself does nothing here.
                    Some("animal companion") => {
                        resolved.rule = None;
                        resolved.noop =
                            Some(String::from("the animal companion is a combatant file of its own"));
                    }
                    _ => {
                        return Err(fail(format!(
                            "{written:?}: write the bond chosen in parentheses: \"Hunter's Bond (companions)\" or \"Hunter's Bond (animal companion)\""
                        )));
                    }
                }
            }
            Some(Rule::Martial(m)) => rules.martial.set(m),
            // Read with the weapon it names when the attacks are prepared (`combat::reload`).
            Some(Rule::RapidReload) => {}
            // Played through the bomb attack's data (`combat::splash`).
            Some(Rule::Bomb) => {}
            Some(Rule::Mutagen) => {
                let score = parameter.as_deref().and_then(mutagen_score).ok_or_else(|| {
                    fail(format!(
                        "{written:?} needs the score it raises in parentheses: \"Mutagen (Dexterity)\" (Strength, Dexterity or Constitution)"
                    ))
                })?;
                rules.class.mutagen = Some(score);
            }
            Some(Rule::Alchemy) => rules.class.alchemy = true,
            None => {}
        }
        out.features.push(resolved);
    }
    // A paladin's channel once every feature is known (Lay On Hands may come after it).
    if let Some(index) = hands_channel {
        let fail = |message: String| FeatureError { index, message };
        let class = &mut out.rules.class;
        if !class.lay_on_hands {
            return Err(fail(String::from(
                "\"Channel Positive Energy\" is the paladin's: each use spends two uses of lay on hands, and this combatant has no \"Lay On Hands\"",
            )));
        }
        if class.channel.is_some() {
            return Err(fail(String::from(
                "\"Channel Positive Energy\" and \"Channel Energy\" on one combatant: the engine plays one channel per combatant (a cleric/paladin is not played)",
            )));
        }
        // The cleric's channel at the paladin's level (CRB: "like a cleric"); a paladin's energy is positive.
        class.channel = Some(ChannelRule { positive: Some(true), dice: None });
        class.channel_from_hands = true;
    }
    // The bond shares a favored enemy bonus: without one it has nothing to share.
    if let Some(index) = bond
        && out.rules.class.favored_enemies.is_empty()
    {
        return Err(FeatureError {
            index,
            message: String::from(
                "\"Hunter's Bond (companions)\" grants half the ranger's favored enemy bonus, and this combatant has no \"Favored Enemy (undead +2)\"",
            ),
        });
    }
    // Prerequisites and count once every mercy and Extra Mercy is known.
    if let Some(index) = last_mercy {
        let extra = out.features.iter().filter(|f| normalize(&f.entry) == "extra mercy").count() as u32;
        out.rules.class.mercies.check(c.level, extra).map_err(|message| FeatureError { index, message })?;
    }
    Ok(out)
}

/// Reads the parameter of `Favored Enemy (undead +2)`: a creature type of
/// the Bestiary and the bonus (+2 when omitted, the 1st-level choice).
fn favored_enemy(parameter: Option<&str>) -> Result<(crate::spell::model::CreatureType, i32), String> {
    const HOW: &str = "write the creature type and the bonus in parentheses: \"Favored Enemy (undead +2)\"";
    let text = parameter.ok_or_else(|| HOW.to_string())?;
    let (kind, bonus) = match text.trim().rsplit_once(' ') {
        Some((kind, bonus)) if bonus.starts_with('+') => (kind, bonus),
        _ => (text.trim(), "+2"),
    };
    let name = kind.trim().to_lowercase().replace([' ', '-'], "_");
    let kind: crate::spell::model::CreatureType = serde_json::from_value(serde_json::Value::String(name))
        .map_err(|_| format!("{kind:?} is not a creature type of the Bestiary (aberration, animal, construct, dragon, fey, humanoid, magical_beast, monstrous_humanoid, ooze, outsider, plant, undead, vermin); {HOW}"))?;
    match bonus[1..].parse::<i32>() {
        Ok(b) if b >= 2 && b % 2 == 0 && b <= 10 => Ok((kind, b)),
        _ => Err(format!("the bonus {bonus:?} must be +2, +4, +6, +8 or +10; {HOW}")),
    }
}

/// The school called `name` (case-insensitive).
fn school_named(name: &str) -> Option<crate::spell::model::School> {
    serde_json::from_value(serde_json::Value::String(name.trim().to_lowercase())).ok()
}

/// The score of `Mutagen (Dexterity)` (`str`, `dex`, `con` too; any case).
fn mutagen_score(parameter: &str) -> Option<MutagenScore> {
    match parameter.trim().to_lowercase().as_str() {
        "strength" | "str" => Some(MutagenScore::Strength),
        "dexterity" | "dex" => Some(MutagenScore::Dexterity),
        "constitution" | "con" => Some(MutagenScore::Constitution),
        _ => None,
    }
}

/// Reads the parameter of `Channel Energy (positive, 3d6)`: the energy, the dice, or both.
fn channel_rule(parameter: Option<&str>) -> Result<ChannelRule, String> {
    let mut rule = ChannelRule { positive: None, dice: None };
    for part in parameter.unwrap_or("").split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match part.to_lowercase().as_str() {
            "positive" => rule.positive = Some(true),
            "negative" => rule.positive = Some(false),
            other => {
                rule.dice = Some(parse_d6(other).ok_or_else(|| {
                    format!(
                        "channel energy takes `positive` or `negative` and its dice (`3d6`), got {part:?}"
                    )
                })?);
            }
        }
    }
    Ok(rule)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalog() -> FeatCatalog {
        FeatCatalog::parse(
            r#"[
 {"name":"Weapon Focus","parameter":"weapon","modifiers":[{"target":"attack","value":1}],"source":"CRB"},
 {"name":"Point-Blank Shot","modifiers":[{"target":"ranged_attack","value":1,"condition":"ranged_within_30ft"},{"target":"ranged_damage","value":1,"condition":"ranged_within_30ft"}],"source":"CRB"},
 {"name":"Dodge","modifiers":[{"target":"ac","value":1,"type":"dodge"}],"source":"CRB"},
 {"name":"Improved Trip","rule":"maneuver_without_aoo","maneuver":"trip","modifiers":[{"target":"cmb","value":2,"condition":"trip"},{"target":"cmd","value":2,"condition":"trip"}],"source":"CRB"},
 {"name":"Agile Maneuvers","modifiers":[{"target":"cmb","value":2}],"source":"APG"},
 {"name":"Alertness","noop":"skills","source":"CRB"},
 {"name":"Sneak Attack","parameter":"dice","rule":"sneak_attack","source":"CRB"}
]"#,
            "cat.json",
        )
        .unwrap()
    }

    fn combatant(features: &[&str], cmb: Option<i32>) -> Combatant {
        let mut c = crate::model::parse_combatant(
            r#"{"name":"T","abilities":{"str_score":10,"dex_score":10,"con_score":10,"int_score":10,"wis_score":10,"cha_score":10},
               "hp_max":5,"ac":{"total":10,"touch":10,"flat_footed":10},"bab":0,"initiative_mod":0,"speed_land_ft":30,
               "saves":{"fort":0,"ref":0,"will":0},"attacks":[]}"#,
            "t.json",
        )
        .unwrap();
        c.features = features.iter().map(|f| crate::model::Feature::Name(f.to_string())).collect();
        c.cmb = cmb;
        c
    }

    #[test]
    fn static_printed_modifiers_are_final_values_and_the_rest_acts_in_play() {
        let r = resolve(
            &combatant(&["Weapon Focus (falchion)", "Point-Blank Shot", "Dodge", "Improved Trip"], None),
            &catalog(),
        )
        .unwrap();
        let wf = &r.features[0];
        assert_eq!(wf.in_final_values.len(), 1);
        assert_eq!(wf.in_final_values[0].weapon.as_deref(), Some("falchion"));
        assert!(wf.in_play.is_empty(), "Weapon Focus is in the printed attack bonus");
        assert_eq!((r.features[1].in_play.len(), r.features[1].in_final_values.len()), (2, 0));
        assert_eq!((r.features[2].in_play.len(), r.features[2].in_final_values.len()), (0, 1));
        assert_eq!(r.features[3].in_play.len(), 2, "conditioned CMB and CMD act in play");
        assert!(r.rules.maneuver_without_aoo(Maneuver::Trip));
        assert!(!r.rules.maneuver_without_aoo(Maneuver::Disarm));
    }

    #[test]
    fn a_printed_cmb_already_holds_static_cmb_feats() {
        let cat = catalog();
        let computed = resolve(&combatant(&["Agile Maneuvers"], None), &cat).unwrap();
        assert_eq!(computed.in_play().count(), 1);
        let printed = resolve(&combatant(&["Agile Maneuvers"], Some(5)), &cat).unwrap();
        assert_eq!((printed.in_play().count(), printed.in_final_values().count()), (0, 1));
    }

    #[test]
    fn no_ops_are_traced_and_unknown_names_refused() {
        let cat = catalog();
        let r = resolve(&combatant(&["Alertness"], None), &cat).unwrap();
        assert_eq!(r.features[0].noop.as_deref(), Some("skills"));
        assert!(r.trace()[0].contains("no-op: skills"), "{:?}", r.trace());
        let e = resolve(&combatant(&["Dodge", "Flyby Attack"], None), &cat).unwrap_err();
        assert_eq!(e.index, 1);
        assert!(
            e.message.contains("unknown feature \"Flyby Attack\"") && e.message.contains("cat.json"),
            "{e}"
        );
        let e = resolve(&combatant(&["Weapon Focus"], None), &cat).unwrap_err();
        assert!(e.message.contains("needs its weapon"), "{e}");
    }

    #[test]
    fn sneak_attack_dice_by_level_or_written() {
        let cat = catalog();
        assert_eq!(
            resolve(&combatant(&["Sneak Attack"], None), &cat).unwrap().rules.sneak_attack,
            Some(SneakDice::ByLevel)
        );
        assert_eq!(
            resolve(&combatant(&["Sneak Attack +2d6", "sneak attack (1d6)"], None), &cat)
                .unwrap()
                .rules
                .sneak_attack,
            Some(SneakDice::Fixed(3))
        );
        assert!(resolve(&combatant(&["Sneak Attack (2d8)"], None), &cat).is_err());
    }
}
