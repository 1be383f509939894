//! The static data of one combatant, grouped by what the rules ask of it:
//! scores, defenses, offense, the rules its feats switch on, its nature and
//! its riding.

use super::{AttackProfile, Dr};
use crate::combat::spells::CasterSpec;
use crate::effects::{Mod, Targets};
use crate::feats::ResolvedFeatures;
use crate::map::Pos;
use crate::model::{ArmorClass, Saves, Size};

/// Static data of one combatant.
#[derive(Debug)]
pub(crate) struct FighterSpec {
    pub id: String,
    pub side: usize,
    pub start: Pos,
    pub hp_max: i32,
    /// Hit points at the start of the battle (a scenario variant may lower them).
    pub start_hp: i32,
    pub init_mod: i32,
    pub speed_ft: u32,
    /// Its own flight (a fly speed), if any (`combat::flight`).
    pub fly: Option<super::flight::FlySpec>,
    pub is_pc: bool,
    /// Whether it acts in a surprise round.
    pub aware: bool,
    /// Feature modifiers applied during play, compiled for this combatant.
    pub mods: Box<[Mod]>,
    /// The targets `mods` change.
    pub mod_targets: Targets,
    /// Carried items a steal can take (total quantity).
    pub carried_items: u32,
    /// What each feature became (for the trace).
    pub features: ResolvedFeatures,
    /// Its spellcasting, if it casts.
    pub caster: Option<Box<CasterSpec>>,
    /// Its class abilities, if it has any the engine plays.
    pub abilities: Option<Box<crate::combat::abilities::AbilitySpec>>,
    /// Its limited-use pools at the start of the battle.
    pub pools: crate::combat::abilities::Pools,
    /// A row reserved for a summoned creature: the group it belongs to.
    pub reserve: Option<u16>,
    /// Its wands and potions (`combat::items`).
    pub items: Vec<crate::combat::items::PreparedItem>,
    /// Its played monster special abilities (`combat::monster`), if any.
    pub monster: Option<Box<super::monster::MonsterSpec>>,
    /// Its ability scores and modifiers (`None` scores: the creature has none).
    pub scores: AbilityScores,
    /// What stands between it and harm: AC, saves, CMD, damage reduction, resistances, immunities.
    pub defense: Defenses,
    /// How it attacks: BAB, CMB, attack profiles and routines, attacks of opportunity, sneak attack.
    pub offense: Offense,
    /// The rules its feats and class features switch on.
    pub feats: FeatRules,
    /// What kind of creature it is: size, space, Hit Dice, type, alignment.
    pub nature: Nature,
    /// Its mount and riding skill (`combat::mounted`).
    pub rider: RiderSpec,
}

/// Its ability scores and modifiers (`None` scores: the creature has none).
#[derive(Debug)]
pub(crate) struct AbilityScores {
    /// Strength and Dexterity scores (conditions that lower them change derived numbers).
    pub str_score: i32,
    pub dex_score: i32,
    pub str_mod: i32,
    /// Dexterity modifier (lost to AC while running).
    pub dex_mod: i32,
    /// Constitution score; `None` for creatures without one.
    pub con_score: Option<i32>,
    pub con_mod: i32,
    /// Intelligence score (`None`: mindless).
    pub int_score: Option<i32>,
    /// Intelligence and Charisma modifiers (hexes, channel energy, auras).
    pub int_mod: i32,
    /// Wisdom score (Will saves under Wisdom changes).
    pub wis_score: i32,
    /// Charisma score (what Charisma damage counts down).
    pub cha_score: i32,
    pub cha_mod: i32,
    /// The enhancement bonus worn items already put in each printed score
    /// (Str, Dex, Con, Int, Wis, Cha order; the file's `ability_enhancements`).
    pub item_enhancement: [i32; 6],
}

impl AbilityScores {
    /// The enhancement bonus a worn item already gives the score `target`
    /// reads (0 for a target that is no ability score).
    pub fn item_enhancement(&self, target: crate::effects::ModTarget) -> i32 {
        use crate::effects::ModTarget as T;
        let k = match target {
            T::Str => 0,
            T::Dex => 1,
            T::Con => 2,
            T::Int => 3,
            T::Wis => 4,
            T::Cha => 5,
            _ => return 0,
        };
        self.item_enhancement[k]
    }
}

/// What stands between it and harm: AC, saves, CMD, damage reduction, resistances, immunities.
#[derive(Debug)]
pub(crate) struct Defenses {
    pub ac: ArmorClass,
    /// Final saves.
    pub saves: Saves,
    pub cmd: i32,
    /// Dodge bonuses that feats put in the printed AC and touch AC (lost when denied Dexterity).
    pub printed_dodge: i32,
    /// The AC bonus of its shield (0: none), lost after a two-handed attack (`model::hands`).
    pub shield_ac: i32,
    /// Its metal armor and metal shield, what rust can corrode (`monster::rust`).
    pub metal: [Option<MetalGear>; 2],
    /// Its damage reduction, if any.
    pub dr: Option<Dr>,
    /// Energy resistance per type (`effects::effect::ENERGY` order), immunities
    /// and vulnerabilities (bit per type).
    pub energy_resist: [u32; 5],
    pub energy_immune: u8,
    pub energy_vulnerable: u8,
    /// Spell resistance (0: none).
    pub spell_resistance: u32,
    /// What spells and abilities cannot do to it.
    pub immune: crate::combat::spells::Immune,
    /// Undead and constructs: immune to precision damage (sneak attack).
    pub precision_immune: bool,
    /// Printed Escape Artist bonus, if any.
    pub escape_artist: Option<i32>,
}

/// A metal armor or shield (`model::hands`), as rust sees it.
#[derive(Clone, Debug)]
pub(crate) struct MetalGear {
    pub name: String,
    /// Its bonus to AC, enhancement included.
    pub ac_bonus: i32,
    /// Its enhancement bonus (its caster level is three times it).
    pub enhancement: u32,
}

/// How it attacks: BAB, CMB, attack profiles and routines, attacks of opportunity, sneak attack.
#[derive(Debug)]
pub(crate) struct Offense {
    pub bab: i32,
    /// Combat maneuver bonus and defense before situational modifiers
    /// (printed, or computed from BAB, abilities, size and the AC bonuses of
    /// the eight CMD types that feats put in the printed AC).
    pub cmb: i32,
    pub attacks: Vec<AttackProfile>,
    /// Full-attack routines (bit k: attack k), and its natural attacks.
    pub routines: Vec<u64>,
    pub natural_mask: u64,
    pub aoo_per_round: u32,
    /// Sneak attack d6 (0: none).
    pub sneak_dice: u32,
    /// Maneuvers made without provoking (bit = `Maneuver as usize`).
    pub no_aoo_maneuvers: u16,
}

/// The rules its feats and class features switch on.
#[derive(Debug)]
pub(crate) struct FeatRules {
    /// Rules its features switch on.
    pub power_attack: bool,
    pub combat_reflexes: bool,
    /// Uncanny Dodge: never flat-footed at the start of a battle (`flat_footed`).
    pub uncanny_dodge: bool,
    pub far_shot: bool,
    pub endurance: bool,
    pub blind_fight: bool,
    /// Evasion or Improved Evasion (Reflex saves against damage a save halves).
    pub evasion: crate::feats::Evasion,
    pub improved_precise_shot: bool,
    /// Precise Shot: no penalty for shooting into melee.
    pub precise_shot: bool,
    /// Outflank, its own (a teamwork feat; a tactician may lend it for a while).
    pub outflank: bool,
    /// Run feat: keeps its Dexterity bonus while running, +4 on endurance checks.
    pub run_feat: bool,
}

/// What kind of creature it is: size, space, Hit Dice, type, alignment.
#[derive(Debug)]
pub(crate) struct Nature {
    /// Size category.
    pub size: Size,
    /// Side of the square space it takes up, in squares (Large 2…).
    pub space: i32,
    /// Hit Dice (its `level`).
    pub hd: u32,
    /// Creature type, when it is one of the Bestiary's.
    pub ctype: Option<crate::spell::model::CreatureType>,
    /// Index of its creature type in `PreparedEncounter::creature_types`.
    pub creature_type: Option<u16>,
    /// Alignment components (`effects::Alignment` bits).
    pub alignment: u8,
    /// Undead, constructs and creatures without Constitution: destroyed at 0 hp.
    pub destroyed_at_zero: bool,
}

/// Its mount and riding skill (`combat::mounted`).
#[derive(Debug)]
pub(crate) struct RiderSpec {
    /// The combatant it rides at the start of the battle (`combat::mounted`).
    pub mount: Option<usize>,
    /// Its Ride bonus (the sheet's, else ranks, +3 trained, Dexterity, armor check penalty).
    pub ride: i32,
    /// Rides in a military saddle (`model::mount`).
    pub military_saddle: bool,
}

impl FighterSpec {
    /// The mean damage of its best melee attack (0 without one): what a
    /// policy weighs a challenge or a smite against.
    pub(crate) fn best_melee_mean_damage(&self) -> f64 {
        self.offense.attacks.iter().filter(|w| w.melee).map(|w| w.mean_damage).fold(0.0, f64::max)
    }
}
