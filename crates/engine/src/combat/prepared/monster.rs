//! The data of the monster rules (`combat::monster`): the prepared form of
//! a combatant's played special abilities (`MonsterSpec`, built from its
//! `special_abilities` when the encounter is prepared) and what of them
//! changes in a battle (`MonsterState`). Data floor: no rule module.

use crate::dice::DiceExpr;
use crate::effects::{ConditionId, Descriptor, Descriptors, SaveKind};
use crate::model::{
    BreathShape, Combatant, HitEffect, PhysicalAbility, SaveName, SmiteAgainst, SpecialAbility,
};

use super::{AttackProfile, norm};

/// The played special abilities of one combatant, prepared.
#[derive(Clone, Debug, Default)]
pub(crate) struct MonsterSpec {
    pub breath: Option<Breath>,
    /// Regeneration: hit points a round and the damage types that stop it.
    pub regeneration: Option<(u32, Vec<String>)>,
    pub fast_healing: u32,
    pub riders: Vec<Rider>,
    pub pounce: bool,
    pub rend: Option<Rend>,
    pub incorporeal: bool,
    pub gaze: Option<Gaze>,
    /// Channel resistance: the bonus on saves against channeled energy.
    pub channel_resistance: i32,
    pub auras: Vec<Aura>,
    pub staggered: bool,
    /// Ferocity: conscious and fighting below 0 hit points (`BattleState::life`).
    pub ferocity: bool,
    /// Smite evil or good (the celestial and fiendish templates).
    pub smite: Option<Smite>,
    /// Rage (a wolverine's): +4 Str and Con, −2 AC once wounded.
    pub rage: bool,
}

/// An aura: a condition for enemies that start their turn in it and fail a save.
#[derive(Clone, Debug)]
pub(crate) struct Aura {
    pub name: String,
    pub range_ft: u32,
    pub save: SaveKind,
    pub dc: i32,
    pub condition: ConditionId,
    pub rounds: Option<DiceExpr>,
    pub descriptors: Descriptors,
}

/// A breath weapon.
#[derive(Clone, Debug)]
pub(crate) struct Breath {
    pub name: String,
    pub shape: BreathShape,
    pub range_ft: u32,
    pub damage: DiceExpr,
    pub types: Vec<String>,
    pub dc: i32,
    pub recharge: DiceExpr,
}

/// An effect of a hit with some attacks.
#[derive(Clone, Debug)]
pub(crate) struct Rider {
    pub name: String,
    /// The attacks that carry it (bit k: attack k).
    pub attacks: u64,
    pub save: Option<SaveKind>,
    pub dc: i32,
    pub effect: Effect,
    /// Features that make a target immune, normalized.
    pub immune_features: Vec<String>,
}

/// Rend: two hits of one attack on a foe in a round.
#[derive(Clone, Debug)]
pub(crate) struct Rend {
    pub name: String,
    pub attack: usize,
    pub damage: DiceExpr,
    pub types: Vec<String>,
}

/// A gaze attack.
#[derive(Clone, Debug)]
pub(crate) struct Gaze {
    pub name: String,
    pub range_ft: u32,
    pub save: SaveKind,
    pub dc: i32,
    pub effect: Effect,
}

/// What a failed save (or a won maneuver) does, dice parsed.
#[derive(Clone, Debug)]
pub(crate) enum Effect {
    Paralysis(Option<DiceExpr>),
    Petrification,
    AbilityDamage(PhysicalAbility, DiceExpr),
    AbilityDrain(PhysicalAbility, DiceExpr, u32),
    EnergyDrain(u32),
    Poison { ability: PhysicalAbility, amount: DiceExpr, rounds: u32, cure: u32 },
    Trip,
    Grab(Option<DiceExpr>),
}

/// What changes of a fighter's monster abilities during a battle.
#[derive(Clone, Debug, Default)]
pub(crate) struct MonsterState {
    /// Round from which its breath weapon is usable again.
    pub breath_ready: u32,
    /// Round through which its regeneration is stopped (0: never).
    pub regen_off_through: u32,
    /// Round of the last rend, and the hits of the rending attack on each foe this round.
    pub rend_round: u32,
    pub rend_hits: Vec<(usize, u32)>,
    /// Negative levels it has (energy drain).
    pub negative_levels: u32,
    /// Ability damage taken (Str, Dex, Con).
    pub ability_damage: [i32; 3],
    /// Poisons running in it.
    pub poisons: Vec<Poisoned>,
    /// (aura owner, aura index) pairs it has already met: one save per aura
    /// and battle (a success makes it immune for a day, a failure's effect
    /// runs its course).
    pub auras_met: Vec<(usize, usize)>,
    /// The foe of its smite while it lasts (until that foe dies).
    pub smiting: Option<usize>,
    /// Whether it rages (for the rest of the battle).
    pub raging: bool,
}

/// A poison running in a creature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Poisoned {
    /// Who poisoned it, and which of its riders.
    pub from: usize,
    pub rider: usize,
    /// Saves left (one a round at the start of its turn).
    pub rounds_left: u32,
    /// Current DC (raised by extra doses).
    pub dc: i32,
    /// Consecutive successful saves so far.
    pub successes: u32,
}

fn save_kind(s: SaveName) -> SaveKind {
    match s {
        SaveName::Fort => SaveKind::Fort,
        SaveName::Ref => SaveKind::Ref,
        SaveName::Will => SaveKind::Will,
    }
}

/// Parses dice the model already checked (`model::special::check`); a
/// failure (impossible after validation) yields a die that rolls 0.
fn dice(text: &str) -> DiceExpr {
    DiceExpr::parse(text).unwrap_or_default()
}

fn effect(e: &HitEffect) -> Effect {
    match e {
        HitEffect::Paralysis { rounds } => Effect::Paralysis(rounds.as_deref().map(dice)),
        HitEffect::Petrification {} => Effect::Petrification,
        HitEffect::AbilityDamage { ability, amount } => Effect::AbilityDamage(*ability, dice(amount)),
        HitEffect::AbilityDrain { ability, amount, attacker_temp_hp } => {
            Effect::AbilityDrain(*ability, dice(amount), *attacker_temp_hp)
        }
        HitEffect::EnergyDrain { levels } => Effect::EnergyDrain(*levels),
        HitEffect::Poison { ability, amount, rounds, cure } => {
            Effect::Poison { ability: *ability, amount: dice(amount), rounds: *rounds, cure: (*cure).max(1) }
        }
        HitEffect::Trip {} => Effect::Trip,
        HitEffect::Grab { constrict } => Effect::Grab(constrict.as_deref().map(dice)),
    }
}

impl MonsterSpec {
    /// The played abilities of `c` (whose prepared attacks are `attacks`), if any.
    pub(crate) fn of(c: &Combatant, attacks: &[AttackProfile]) -> Option<Box<MonsterSpec>> {
        if c.special_abilities.is_empty() {
            return None;
        }
        let index = |name: &str| {
            c.attacks.iter().position(|a| a.name == name || a.weapon_id() == name).filter(|&k| k < 64)
        };
        let mut m = MonsterSpec::default();
        for a in &c.special_abilities {
            match a {
                SpecialAbility::BreathWeapon { name, shape, range_ft, damage, types, dc, recharge } => {
                    m.breath = Some(Breath {
                        name: name.clone(),
                        shape: *shape,
                        range_ft: *range_ft,
                        damage: dice(damage),
                        types: types.iter().map(|t| norm(t)).collect(),
                        dc: *dc,
                        recharge: dice(recharge),
                    });
                }
                SpecialAbility::Regeneration { amount, stopped_by, .. } => {
                    m.regeneration = Some((*amount, stopped_by.iter().map(|t| norm(t)).collect()));
                }
                SpecialAbility::FastHealing { amount, .. } => m.fast_healing += amount,
                SpecialAbility::OnHit { name, attacks: names, save, dc, effect: e, immune_features } => {
                    let mask = if names.is_empty() {
                        attacks
                            .iter()
                            .enumerate()
                            .filter(|(k, x)| x.natural && *k < 64)
                            .fold(0, |m, (k, _)| m | 1 << k)
                    } else {
                        names.iter().filter_map(|n| index(n)).fold(0u64, |m, k| m | 1 << k)
                    };
                    m.riders.push(Rider {
                        name: name.clone(),
                        attacks: mask,
                        save: save.map(save_kind),
                        dc: *dc,
                        effect: effect(e),
                        immune_features: immune_features.iter().map(|f| norm(f)).collect(),
                    });
                }
                SpecialAbility::Pounce { .. } => m.pounce = true,
                SpecialAbility::Rend { name, attack, damage, types } => {
                    if let Some(k) = index(attack) {
                        m.rend = Some(Rend {
                            name: name.clone(),
                            attack: k,
                            damage: dice(damage),
                            types: types.iter().map(|t| norm(t)).collect(),
                        });
                    }
                }
                SpecialAbility::Incorporeal { .. } => m.incorporeal = true,
                // A defense of every attack and spell, prepared with the others
                // (`prepared::vulnerable_amount`).
                SpecialAbility::Vulnerability { .. } => {}
                SpecialAbility::ChannelResistance { bonus, .. } => m.channel_resistance += bonus,
                SpecialAbility::Aura { name, range_ft, save, dc, condition, rounds, descriptors } => {
                    // Names checked on load (`model::special::check`).
                    if let Some(condition) = ConditionId::from_name(condition) {
                        let list: Vec<Descriptor> =
                            descriptors.iter().filter_map(|d| Descriptor::from_name(d)).collect();
                        m.auras.push(Aura {
                            name: name.clone(),
                            range_ft: *range_ft,
                            save: save_kind(*save),
                            dc: *dc,
                            condition,
                            rounds: rounds.as_deref().map(dice),
                            descriptors: Descriptors::of(&list),
                        });
                    }
                }
                SpecialAbility::Staggered { .. } => m.staggered = true,
                SpecialAbility::Ferocity { .. } => m.ferocity = true,
                SpecialAbility::Rage { .. } => m.rage = true,
                SpecialAbility::Smite { against, .. } => {
                    let against = match against {
                        SmiteAgainst::Evil => crate::effects::Alignment::EVIL,
                        SmiteAgainst::Good => crate::effects::Alignment::GOOD,
                    };
                    m.smite = Some(Smite::new(
                        against,
                        c.level,
                        crate::dice::ability_modifier(c.abilities.cha_score),
                    ));
                }
                SpecialAbility::Gaze { name, range_ft, save, dc, effect: e } => {
                    m.gaze = Some(Gaze {
                        name: name.clone(),
                        range_ft: *range_ft,
                        save: save_kind(*save),
                        dc: *dc,
                        effect: effect(e),
                    });
                }
            }
        }
        Some(Box::new(m))
    }
}

/// A prepared smite: which alignment it punishes and its numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Smite {
    /// `Alignment::EVIL` (smite evil) or `Alignment::GOOD` (smite good).
    pub against: u8,
    /// Bonus on attack rolls against the foe (Charisma bonus, at least 0).
    pub attack: i32,
    /// Bonus on damage rolls against the foe (Hit Dice).
    pub damage: i32,
    /// Deflection bonus to AC against the foe's attacks (Charisma bonus, at least 0).
    pub ac: i32,
}

impl Smite {
    /// The smite of a creature with `hd` Hit Dice and Charisma modifier `cha_mod`.
    pub(crate) fn new(against: u8, hd: u32, cha_mod: i32) -> Self {
        let cha = cha_mod.max(0);
        Smite { against, attack: cha, damage: hd as i32, ac: cha }
    }
}
