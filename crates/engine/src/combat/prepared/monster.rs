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
use crate::model::AttackSpec;

/// The bonus of a grab on its grapple checks (UMR "Grab").
pub(crate) const GRAB_BONUS: i32 = 4;

/// The attack bonus a charge adds (CRB "Charge"), already in a powerful
/// charge's printed bonus.
const CHARGE_BONUS: i32 = 2;

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
    /// Blindsight: its range, and whether it notices only living creatures.
    pub blindsight: Option<(u32, bool)>,
    /// Channel resistance: the bonus on saves against channeled energy.
    pub channel_resistance: i32,
    pub auras: Vec<Aura>,
    /// Whether one of its auras ends on a creature that hits it (aura of menace).
    pub menace: bool,
    pub staggered: bool,
    /// Ferocity: conscious and fighting below 0 hit points (`BattleState::life`).
    pub ferocity: bool,
    /// Smite evil or good (the celestial and fiendish templates).
    pub smite: Option<Smite>,
    /// Rage (a wolverine's): +4 Str and Con, −2 AC once wounded.
    pub rage: bool,
    /// What a grab's hold does on later turns (from its `grab` rider).
    pub hold: Option<Hold>,
    /// Rake: extra attacks against a held foe (and at the end of a pounce).
    pub rake: Option<Variant>,
    /// Powerful charge: the attack made at the end of a charge.
    pub powerful_charge: Option<Variant>,
    /// What its grab's hold does to the held foe each round it is maintained
    /// (paralytic tentacles, blood drain).
    pub holding: Vec<Holding>,
    /// Swallow whole (or an engulf that functions as it).
    pub swallow: Option<Swallow>,
    /// Engulf by movement (a gelatinous cube's).
    pub engulf: Option<Engulf>,
    /// Trample (an elephant's).
    pub trample: Option<Trample>,
    /// Spells used as supernatural abilities (a stone golem's slow).
    pub spell_effects: Vec<SpellFx>,
    /// A thrown web or rope that entangles.
    pub entangle: Option<Entangler>,
    /// A captivating song (a harpy's).
    pub song: Option<Song>,
    /// A vampire's dominate.
    pub dominate: Option<Dominate>,
    /// Split (an ochre jelly's).
    pub split: Option<Split>,
    /// The exceptions to a golem's immunity to magic (`monster::golem`).
    pub magic_energy: Option<MagicEnergy>,
    /// A golem's berserk: its name and the chance it adds each round, in percent.
    pub berserk: Option<(String, u32)>,
    /// A clay golem's cursed wound: its name and the caster level check's DC.
    pub cursed_wound: Option<(String, i32)>,
    /// A shambling mound's electric fortitude: its name and the
    /// Constitution each attack of its types gives (`monster::fortitude`).
    /// Its energy types are `energy_bits`.
    pub fortitude: Option<(String, DiceExpr, u8)>,
    /// A ranged touch made as a free action each round (a mouther's spittle).
    pub spittle: Option<Spittle>,
    /// The prepared attacks of `rake` and `powerful_charge` (`Variant::strike`),
    /// each a copy of its base attack with the printed bonus and dice.
    pub strikes: Vec<AttackProfile>,
}

/// A grab's hold on the creature's later turns (UMR "Grab", CRB "Grapple"),
/// or the hold of a grapple action of its own (a `grapple` entry).
/// A thrown web or rope that entangles (UMR "Web"; an erinyes' rope).
#[derive(Clone, Debug)]
pub(crate) struct Entangler {
    pub name: String,
    pub range_ft: u32,
    /// Range increment (−2 per increment beyond the first); 0: no range penalty.
    pub increment_ft: u32,
    pub uses: u32,
    /// Reflex save DC after a hit, if any.
    pub save_dc: Option<i32>,
    /// How its bonds break.
    pub bonds: crate::effects::Bonds,
    /// Sizes larger than the thrower it holds (`u8::MAX`: any).
    pub larger_sizes: u8,
    pub one_at_a_time: bool,
}

/// A grab's hold on the creature's later turns (UMR "Grab", CRB "Grapple").
#[derive(Clone, Debug)]
pub(crate) struct Hold {
    /// The first attack the grab rides (its damage is dealt by a maintained
    /// hold when the creature does not constrict); none: a grapple action
    /// of its own, whose maintained check deals no damage.
    pub attack: Option<usize>,
    /// The bonus on its checks to start and maintain the grapple (a grab's +4).
    pub bonus: i32,
    /// It starts grapples as an action of its own (`grapple` entry): it
    /// maintains each hold while that pays (`BattleState::grapple_pays`).
    pub own: bool,
    /// A won maintenance check pins the foe.
    pub pins: bool,
    /// Constrict (its name and damage), dealt on each grapple check won.
    pub constrict: Option<(String, DiceExpr)>,
    /// The constriction's further damage (an ochre jelly's 1d4 acid).
    pub constrict_plus: Vec<PlusDamage>,
    /// What the constriction carries against damage reduction: bludgeoning
    /// (UMR "Constrict": "dealing bludgeoning damage") and the qualities
    /// of the grabbing attack (magic, alignment, material), normalized.
    pub constrict_carried: Vec<String>,
    /// Whether it maintains the hold (else it lets go at the start of its
    /// turn and attacks): see `maintains`.
    pub maintains: bool,
}

/// A further damage component of a constriction, with its own types.
#[derive(Clone, Debug)]
pub(crate) struct PlusDamage {
    pub dice: DiceExpr,
    /// Its damage types, normalized.
    pub types: Vec<String>,
    /// The creature types (normalized) it does not harm; `incorporeal`
    /// for incorporeal creatures (`DamageComponent::spares`).
    pub spares: Vec<String>,
}

/// An effect on a held foe each round the hold is maintained.
#[derive(Clone, Debug)]
pub(crate) struct Holding {
    pub name: String,
    /// Damage dealt without a roll, and its types.
    pub damage: Option<DiceExpr>,
    pub types: Vec<String>,
    /// The save against `effect` (none: it always applies).
    pub save: Option<SaveKind>,
    pub dc: i32,
    pub effect: Option<Effect>,
    /// Hit points the holder heals (temporary ones at full hit points).
    pub heals: u32,
}

/// Swallow whole (UMR "Swallow Whole"), prepared.
#[derive(Clone, Debug)]
pub(crate) struct Swallow {
    pub name: String,
    /// The mouth: the attack whose damage a swallowed foe takes on the way in.
    pub attack: usize,
    /// Damage each round inside, and its types.
    pub damage: DiceExpr,
    pub types: Vec<String>,
    /// What being inside also does each round (no save).
    pub effect: Option<Effect>,
    /// Armor Class of the interior, and the cutting damage that frees a foe.
    pub ac: i32,
    pub hp: u32,
    /// Size categories a foe must be below the creature's.
    pub smaller: u8,
    /// Creatures inside at once (`u32::MAX`: no limit).
    pub capacity: u32,
    /// It can swallow again after a foe cut its way out.
    pub reforms: bool,
}

/// Engulf by movement (UMR "Engulf"), prepared.
#[derive(Clone, Debug)]
pub(crate) struct Engulf {
    pub name: String,
    /// The Reflex save DC.
    pub dc: i32,
    /// Damage when caught and each round inside, and its types.
    pub damage: DiceExpr,
    pub types: Vec<String>,
    /// Indices in `MonsterSpec::riders` of the `on_hit` entries an engulfed foe meets.
    pub riders: Vec<usize>,
    /// Size categories a foe must be below the creature's.
    pub smaller: u8,
}

/// Trample (UMR "Trample"), prepared.
#[derive(Clone, Debug)]
pub(crate) struct Trample {
    pub name: String,
    /// The Reflex save DC (half damage on a success).
    pub dc: i32,
    /// Damage to each foe it goes over, and its types (normalized).
    pub damage: DiceExpr,
    pub types: Vec<String>,
    /// Size categories a foe must be below the creature's.
    pub smaller: u8,
}

/// An engulf's straight route (`BattleState::engulf_route`), with its scratch space.
#[derive(Default)]
pub(crate) struct EngulfRoute {
    /// The squares after the start, in order.
    pub path: Vec<crate::map::Pos>,
    /// The creatures its space covers on the way, in the order met.
    pub over: Vec<usize>,
    pub squares: Vec<crate::map::Pos>,
    pub caught: Vec<usize>,
}

/// A spell's effect used as a supernatural ability (`SpecialAbility::SpellEffect`).
#[derive(Clone, Debug)]
pub(crate) struct SpellFx {
    pub name: String,
    /// The spell's name, and its index in the encounter's spells (set when
    /// the encounter is prepared).
    pub spell_name: String,
    pub spell: u16,
    /// Burst radius; 0: on itself.
    pub burst_ft: u32,
    pub dc: i32,
    /// Caster level (its duration in rounds).
    pub rounds: u32,
    pub every: u32,
    /// Uses a battle (`u32::MAX`: no limit).
    pub uses: u32,
    pub after_rounds: u32,
}

/// An attack made with other numbers than its base attack's (rake, powerful charge).
#[derive(Clone, Debug)]
pub(crate) struct Variant {
    /// The attack entry it is made like (reach, riders, defenses).
    pub base: usize,
    /// Its prepared profile: `MonsterSpec::strikes[strike]`.
    pub strike: usize,
    /// Attacks it makes (rake: 2).
    pub count: u32,
}

/// A captivating song (Bestiary, Harpy): sung as a standard action, a
/// Will save or captivated.
#[derive(Clone, Debug)]
pub(crate) struct Song {
    pub name: String,
    pub range_ft: u32,
    pub dc: i32,
    pub descriptors: Descriptors,
}

/// A vampire's dominate (Bestiary, Vampire): a standard action against one
/// creature of `types` within range, a Will save or dominated.
#[derive(Clone, Debug)]
pub(crate) struct Dominate {
    pub name: String,
    pub range_ft: u32,
    pub dc: i32,
    /// The creature types it affects; empty: any.
    pub types: Vec<crate::spell::model::CreatureType>,
    pub descriptors: Descriptors,
}

/// Split (UMR "Split"): the damage types that split the creature instead
/// of harming it, and the hit points at or below which it no longer splits.
#[derive(Clone, Debug)]
pub(crate) struct Split {
    pub name: String,
    /// Damage types that split it, normalized.
    pub types: Vec<String>,
    pub min_hp: i32,
}

/// The exceptions to a golem's immunity to magic (`SpecialAbility::MagicEnergy`).
#[derive(Clone, Debug)]
pub(crate) struct MagicEnergy {
    pub name: String,
    /// Energy types (bits of `spells::energy_index`) that heal it.
    pub heals: u8,
    pub heal_per: u32,
    /// Energy types that put `spell` on it.
    pub spell_types: u8,
    /// The spell's name, and its index in the encounter's spells (set when
    /// the encounter is prepared; `u16::MAX`: none).
    pub spell_name: Option<String>,
    pub spell: u16,
    pub rounds: Option<DiceExpr>,
    pub heal_ends_spell: bool,
}

/// The energy bits (`effects::effect::ENERGY` indices) of a list of damage
/// types: what a golem's immunity to magic compares (`monster::golem`).
pub(crate) fn energy_bits(types: &[String]) -> u8 {
    types
        .iter()
        .filter_map(|x| crate::effects::effect::ENERGY.iter().position(|e| *e == x.trim().to_lowercase()))
        .fold(0u8, |acc, k| acc | 1 << k)
}

/// The copies a creature of `hp` hit points that splits above `min_hp` can
/// become at most (each split halves, rounded down): its rows, itself included.
pub(crate) fn split_copies(hp: i32, min_hp: i32) -> usize {
    if hp <= min_hp || hp < 2 { 1 } else { 2 * split_copies(hp / 2, min_hp) }
}

/// An aura: a condition for enemies that start their turn in it and fail a save.
#[derive(Clone, Debug)]
pub(crate) struct Aura {
    pub name: String,
    pub range_ft: u32,
    pub save: SaveKind,
    pub dc: i32,
    /// The condition it gives, or (none) its penalty.
    pub condition: Option<ConditionId>,
    /// −penalty on attack rolls, AC and saves (aura of menace), 0: none.
    pub penalty: i32,
    /// The effect ends when the creature hits the aura's owner.
    pub until_hit: bool,
    /// A failed save is met again on the creature's next turn (gibbering).
    pub repeats: bool,
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

/// A ranged touch made as a free action each round (a gibbering mouther's spittle).
#[derive(Clone, Debug)]
pub(crate) struct Spittle {
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
    /// Asleep for the rolled rounds (none: the battle), until wounded.
    Sleep(Option<DiceExpr>),
    AbilityDamage(PhysicalAbility, DiceExpr),
    AbilityDrain(PhysicalAbility, DiceExpr, u32),
    EnergyDrain(u32),
    Poison {
        ability: PhysicalAbility,
        amount: DiceExpr,
        rounds: u32,
        cure: u32,
    },
    /// Bleed: the rolled hit points at the start of each of its turns.
    Bleed(DiceExpr),
    /// Burn: fire damage on the hit, then catches fire for the rolled rounds.
    Burn {
        damage: DiceExpr,
        rounds: DiceExpr,
    },
    /// A condition for the rolled rounds (none: the battle).
    Condition(ConditionId, Option<DiceExpr>),
    /// Rust: the metal armor or shield touched is broken, then destroyed.
    Rust,
    Trip,
    /// A grab (its constrict dice are the `Hold`'s).
    Grab,
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
    /// Ability damage taken (Str, Dex, Con, Int, Wis, Cha).
    pub ability_damage: [i32; 6],
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
    /// Constitution its energy fortitude has given it so far.
    pub fortitude_con: i32,
    /// The round in which it maintained a grab's hold (its standard action), 0: never.
    pub held_round: u32,
    /// The creature that swallowed it, while it is inside (swallow whole).
    pub swallowed_by: Option<usize>,
    /// Cutting damage dealt so far from inside.
    pub cut: u32,
    /// Creatures it holds inside.
    pub swallowing: u32,
    /// A foe cut its way out: it cannot swallow again (unless it reforms).
    pub holed: bool,
    /// It is inside `swallowed_by` engulfed (pinned in its body), not swallowed.
    pub engulfed: bool,
    /// Per spell effect: the round from which it is usable again, and its uses so far.
    pub spell_next: Vec<u32>,
    pub spell_used: Vec<u32>,
    /// Throws of its entangling web or rope made this battle.
    pub entangles_thrown: u32,
    /// The last round in which it sang its captivating song (0: never).
    pub sang_round: u32,
    /// Singers whose song it saved against (immune for 24 hours: the battle).
    pub songs_resisted: Vec<usize>,
    /// Dominated, it has yet to make the new save an order against its
    /// nature gives (`monster::dominate`).
    pub against_nature_due: bool,
    /// A golem's berserk: its chance so far (percent), and whether it has
    /// gone berserk (`monster::golem`).
    pub berserk_chance: u32,
    pub berserk: bool,
    /// The clay golem whose cursed wound it bears (`monster::golem`).
    pub cursed_by: Option<usize>,
    /// What rust did to its armor and its shield (`monster::rust`): 0
    /// intact, 1 broken, 2 destroyed.
    pub rusted: [u8; 2],
    /// The last round in which it spat (0: never): once a round.
    pub spat_round: u32,
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
        HitEffect::Sleep { rounds } => Effect::Sleep(rounds.as_deref().map(dice)),
        HitEffect::AbilityDamage { ability, amount } => Effect::AbilityDamage(*ability, dice(amount)),
        HitEffect::AbilityDrain { ability, amount, attacker_temp_hp } => {
            Effect::AbilityDrain(*ability, dice(amount), *attacker_temp_hp)
        }
        HitEffect::EnergyDrain { levels } => Effect::EnergyDrain(*levels),
        HitEffect::Poison { ability, amount, rounds, cure } => {
            Effect::Poison { ability: *ability, amount: dice(amount), rounds: *rounds, cure: (*cure).max(1) }
        }
        HitEffect::Bleed { amount } => Effect::Bleed(dice(amount)),
        HitEffect::Burn { damage, rounds } => Effect::Burn { damage: dice(damage), rounds: dice(rounds) },
        HitEffect::Condition { condition, rounds } => Effect::Condition(
            // Checked on load (`model::special::check`).
            ConditionId::from_name(condition).unwrap_or(ConditionId::Dazzled),
            rounds.as_deref().map(dice),
        ),
        HitEffect::Rust {} => Effect::Rust,
        HitEffect::Trip {} => Effect::Trip,
        HitEffect::Grab {} => Effect::Grab,
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
        let mut engulf_riders: &[String] = &[];
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
                    if let HitEffect::Grab {} = e
                        && m.hold.is_none()
                        && mask != 0
                    {
                        let constrict = c.special_abilities.iter().find_map(|x| match x {
                            SpecialAbility::Constrict { name, damage, .. } => {
                                Some((name.clone(), dice(damage)))
                            }
                            _ => None,
                        });
                        let constrict_plus = c
                            .special_abilities
                            .iter()
                            .find_map(|x| match x {
                                SpecialAbility::Constrict { plus, .. } => Some(plus),
                                _ => None,
                            })
                            .into_iter()
                            .flatten()
                            .map(|p| PlusDamage {
                                dice: dice(&p.formula),
                                types: p.types.iter().map(|t| norm(t)).collect(),
                                spares: p.spares.iter().map(|t| norm(t)).collect(),
                            })
                            .collect();
                        let grabbing = mask.trailing_zeros() as usize;
                        let mut constrict_carried: Vec<String> = attacks
                            .get(grabbing)
                            .map(|p| {
                                p.carried
                                    .iter()
                                    .filter(|x| {
                                        !matches!(x.as_str(), "bludgeoning" | "piercing" | "slashing")
                                    })
                                    .cloned()
                                    .collect()
                            })
                            .unwrap_or_default();
                        constrict_carried.push("bludgeoning".into());
                        m.hold = Some(Hold {
                            attack: Some(grabbing),
                            bonus: GRAB_BONUS,
                            own: false,
                            pins: false,
                            constrict,
                            constrict_plus,
                            constrict_carried,
                            maintains: false,
                        });
                    }
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
                // Its types are read as `CompDefense::fortifies` and by `spell_damage`.
                SpecialAbility::EnergyFortitude { name, con, types } => {
                    m.fortitude = Some((name.clone(), dice(con), energy_bits(types)));
                }
                SpecialAbility::ChannelResistance { bonus, .. } => m.channel_resistance += bonus,
                SpecialAbility::Aura {
                    name,
                    range_ft,
                    save,
                    dc,
                    condition,
                    penalty,
                    until_hit,
                    rounds,
                    repeats,
                    descriptors,
                } => {
                    // Names checked on load (`model::special::check`).
                    let list: Vec<Descriptor> =
                        descriptors.iter().filter_map(|d| Descriptor::from_name(d)).collect();
                    m.auras.push(Aura {
                        name: name.clone(),
                        range_ft: *range_ft,
                        save: save_kind(*save),
                        dc: *dc,
                        condition: condition.as_deref().and_then(ConditionId::from_name),
                        penalty: penalty.unwrap_or(0).max(0),
                        until_hit: *until_hit,
                        repeats: *repeats,
                        rounds: rounds.as_deref().map(dice),
                        descriptors: Descriptors::of(&list),
                    });
                }
                SpecialAbility::Staggered { .. } => m.staggered = true,
                SpecialAbility::Entangle {
                    name,
                    range_ft,
                    range_increment_ft,
                    uses,
                    save_dc,
                    escape_dc,
                    burst_dc,
                    escape_action,
                    larger_sizes,
                    one_at_a_time,
                } => {
                    use crate::effects::EscapeAction;
                    m.entangle = Some(Entangler {
                        name: name.clone(),
                        range_ft: *range_ft,
                        increment_ft: range_increment_ft.unwrap_or(0),
                        uses: *uses,
                        save_dc: *save_dc,
                        bonds: crate::effects::Bonds {
                            escape_artist: Some(*escape_dc),
                            strength: *burst_dc,
                            cmb: None,
                            // A thrown web or rope is not tied down: half speed, not held in place.
                            anchored: false,
                            action: match escape_action {
                                crate::model::EscapeActionName::Move => EscapeAction::Move,
                                crate::model::EscapeActionName::Standard => EscapeAction::Standard,
                                crate::model::EscapeActionName::FullRound => EscapeAction::FullRound,
                            },
                        },
                        larger_sizes: larger_sizes.unwrap_or(u8::MAX),
                        one_at_a_time: *one_at_a_time,
                    });
                }
                // Prepared with their attacks (`prepare_strikes`).
                SpecialAbility::Rake { .. } | SpecialAbility::PowerfulCharge { .. } => {}
                // Read with its grab (`Hold`).
                SpecialAbility::Constrict { .. } => {}
                SpecialAbility::WhileHolding {
                    name,
                    damage,
                    types,
                    save,
                    dc,
                    effect: e,
                    heals,
                    grapples,
                    pins,
                } => {
                    // A grapple of its own (a creature with grab holds by it: checked on load).
                    if *grapples {
                        let pins = *pins || m.hold.as_ref().is_some_and(|h| h.pins);
                        m.hold = Some(Hold {
                            attack: None,
                            bonus: 0,
                            own: true,
                            pins,
                            constrict: None,
                            constrict_plus: Vec::new(),
                            constrict_carried: Vec::new(),
                            maintains: true,
                        });
                    }
                    m.holding.push(Holding {
                        name: name.clone(),
                        damage: damage.as_deref().map(dice),
                        types: types.iter().map(|t| norm(t)).collect(),
                        save: save.map(save_kind),
                        dc: *dc,
                        effect: e.as_ref().map(effect),
                        heals: *heals,
                    });
                }
                SpecialAbility::SwallowWhole {
                    name,
                    attack,
                    damage,
                    types,
                    effect: e,
                    ac,
                    hp,
                    smaller,
                    capacity,
                    reforms,
                } => {
                    if let Some(k) = index(attack) {
                        m.swallow = Some(Swallow {
                            name: name.clone(),
                            attack: k,
                            damage: dice(damage),
                            types: types.iter().map(|t| norm(t)).collect(),
                            effect: e.as_ref().map(effect),
                            ac: *ac,
                            hp: *hp,
                            smaller: *smaller,
                            capacity: capacity.unwrap_or(u32::MAX),
                            reforms: *reforms,
                        });
                    }
                }
                SpecialAbility::Engulf { name, dc, damage, types, riders, smaller } => {
                    // Rider names checked on load (`model::special::check`),
                    // resolved once every `on_hit` entry is read (below).
                    m.engulf = Some(Engulf {
                        name: name.clone(),
                        dc: *dc,
                        damage: dice(damage),
                        types: types.iter().map(|t| norm(t)).collect(),
                        riders: Vec::new(),
                        smaller: *smaller,
                    });
                    engulf_riders = riders.as_slice();
                }
                SpecialAbility::Trample { name, damage, types, dc, smaller } => {
                    m.trample = Some(Trample {
                        name: name.clone(),
                        dc: *dc,
                        damage: dice(damage),
                        types: types.iter().map(|t| norm(t)).collect(),
                        smaller: *smaller,
                    });
                }
                SpecialAbility::SpellEffect {
                    name,
                    spell,
                    burst_ft,
                    dc,
                    rounds,
                    every,
                    uses,
                    after_rounds,
                } => {
                    m.spell_effects.push(SpellFx {
                        name: name.clone(),
                        spell_name: spell.clone(),
                        spell: u16::MAX,
                        burst_ft: *burst_ft,
                        dc: *dc,
                        rounds: *rounds,
                        every: (*every).max(1),
                        uses: uses.unwrap_or(u32::MAX),
                        after_rounds: *after_rounds,
                    });
                }
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
                SpecialAbility::CaptivatingSong { name, range_ft, dc, descriptors } => {
                    // Names checked on load (`model::special::check`).
                    let list: Vec<Descriptor> =
                        descriptors.iter().filter_map(|d| Descriptor::from_name(d)).collect();
                    m.song = Some(Song {
                        name: name.clone(),
                        range_ft: *range_ft,
                        dc: *dc,
                        descriptors: Descriptors::of(&list),
                    });
                }
                SpecialAbility::Dominate { name, range_ft, dc, creature_types, descriptors } => {
                    // Names checked on load (`model::special::check`).
                    let list: Vec<Descriptor> =
                        descriptors.iter().filter_map(|d| Descriptor::from_name(d)).collect();
                    m.dominate = Some(Dominate {
                        name: name.clone(),
                        range_ft: *range_ft,
                        dc: *dc,
                        types: creature_types.clone(),
                        descriptors: Descriptors::of(&list),
                    });
                }
                SpecialAbility::Split { name, types, min_hp } => {
                    // A weapon's components read them as `CompDefense::splits`; a spell's damage here.
                    m.split = Some(Split {
                        name: name.clone(),
                        types: types.iter().map(|t| norm(t)).collect(),
                        min_hp: *min_hp,
                    });
                }
                SpecialAbility::MagicEnergy {
                    name,
                    heals,
                    heal_per,
                    spell_types,
                    spell,
                    rounds,
                    heal_ends_spell,
                } => {
                    let bits = |list: &[String]| {
                        list.iter()
                            .filter_map(|t| crate::effects::effect::ENERGY.iter().position(|e| *e == norm(t)))
                            .fold(0u8, |acc, k| acc | 1 << k)
                    };
                    m.magic_energy = Some(MagicEnergy {
                        name: name.clone(),
                        heals: bits(heals),
                        heal_per: (*heal_per).max(1),
                        spell_types: bits(spell_types),
                        spell_name: spell.clone(),
                        spell: u16::MAX,
                        rounds: rounds.as_deref().and_then(|r| DiceExpr::parse(r).ok()),
                        heal_ends_spell: *heal_ends_spell,
                    });
                }
                SpecialAbility::Berserk { name, percent } => m.berserk = Some((name.clone(), *percent)),
                SpecialAbility::CursedWound { name, dc } => m.cursed_wound = Some((name.clone(), *dc)),
                // Read by the attack it limits (`prepared::prepare_attack`).
                SpecialAbility::Supply { .. } => {}
                SpecialAbility::Blindsight { range_ft, living_only, .. } => {
                    m.blindsight = Some((*range_ft, *living_only))
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
                SpecialAbility::Spittle { name, range_ft, save, dc, effect: e } => {
                    m.spittle = Some(Spittle {
                        name: name.clone(),
                        range_ft: *range_ft,
                        save: save_kind(*save),
                        dc: *dc,
                        effect: effect(e),
                    });
                }
            }
        }
        m.menace = m.auras.iter().any(|a| a.until_hit);
        if let Some(e) = m.engulf.as_mut() {
            e.riders =
                engulf_riders.iter().filter_map(|n| m.riders.iter().position(|r| r.name == *n)).collect();
        }
        Some(Box::new(m))
    }
}

impl MonsterSpec {
    /// Prepares the rake and powerful charge attacks of `c` with `prepare`
    /// (the engine's attack preparation), then decides whether its grab's
    /// hold is maintained. An error names the attack that failed.
    pub(crate) fn prepare_strikes(
        &mut self,
        c: &Combatant,
        attacks: &[AttackProfile],
        mut prepare: impl FnMut(&AttackSpec) -> Result<AttackProfile, String>,
    ) -> Result<(), String> {
        let index = |name: &str| c.attacks.iter().position(|a| a.name == name || a.weapon_id() == name);
        for a in &c.special_abilities {
            let (name, attack, bonus, damage, count, charge) = match a {
                SpecialAbility::Rake { name, attack, attack_bonus, damage, count } => {
                    (name, attack, *attack_bonus, damage, *count, false)
                }
                SpecialAbility::PowerfulCharge { name, attack, attack_bonus, damage } => {
                    (name, attack, *attack_bonus - CHARGE_BONUS, damage, 1, true)
                }
                _ => continue,
            };
            let Some(base) = index(attack) else { continue };
            let mut spec = c.attacks[base].clone();
            spec.name = name.clone();
            spec.id = Some(name.clone());
            spec.attack_bonus = bonus;
            spec.count = count;
            spec.damage_bonus = 0;
            spec.secondary = false;
            // The printed dice replace the weapon's own damage; other components stay.
            match spec.damage.iter_mut().find(|d| !d.precision) {
                Some(d) => d.formula = damage.clone(),
                None => return Err(format!("{name}: its attack {attack:?} has no damage to replace")),
            }
            let profile = prepare(&spec).map_err(|e| format!("{name}: {e}"))?;
            let variant = Variant { base, strike: self.strikes.len(), count };
            self.strikes.push(profile);
            if charge {
                self.powerful_charge = Some(variant);
            } else {
                self.rake = Some(variant);
            }
        }
        let rake =
            self.rake.as_ref().map_or(0.0, |r| f64::from(r.count) * self.strikes[r.strike].mean_damage);
        let holding: f64 = self.holding.iter().filter_map(|h| h.damage.as_ref()).map(DiceExpr::mean).sum();
        let swallows = self.swallow.is_some();
        if let Some(hold) = self.hold.as_mut().filter(|h| !h.own) {
            // A swallower keeps its hold to swallow (UMR "Swallow Whole").
            hold.maintains = swallows || maintains(hold, attacks, rake, holding);
        }
        Ok(())
    }
}

/// Whether a creature keeps its grab's hold (see `docs/rules/monsters.md`
/// "Maintained grapple"): maintaining is its standard action, so it keeps
/// the hold when what a won check deals — its constrict damage, or the
/// grabbing attack's damage without constrict, plus half its rakes (an
/// attack roll that hits about half the time), plus the damage its
/// `while_holding` entries deal without a roll (`holding_mean`) — is at
/// least half of its natural full attack (every natural attack counted at
/// the same half).
pub(crate) fn maintains(hold: &Hold, attacks: &[AttackProfile], rake_mean: f64, holding_mean: f64) -> bool {
    let sure = match &hold.constrict {
        Some((_, d)) => d.mean() + hold.constrict_plus.iter().map(|p| p.dice.mean()).sum::<f64>(),
        None => hold.attack.and_then(|k| attacks.get(k)).map_or(0.0, |a| a.mean_damage),
    };
    let full: f64 = attacks.iter().filter(|a| a.natural).map(|a| f64::from(a.count) * a.mean_damage).sum();
    sure + holding_mean + rake_mean / 2.0 >= full / 2.0
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
