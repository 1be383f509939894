//! Class abilities in battle: resource pools, channel energy, hexes, deeds,
//! bardic performance, the magus's spell combat, spellstrike and arcane
//! pool, the lich's aura and touch. Each ability is an `impl Engine` block
//! in its own file; [`AbilitySpec`] is what a combatant's features switch on,
//! compiled once per encounter.

mod alchemist;
mod barbarian;
mod cavalier;
mod channel;
mod deed;
mod domain;
mod hex;
mod lich;
mod magus;
mod monk;
mod paladin;
mod performance;
mod ranger;

pub(crate) use alchemist::Mutagen;
#[cfg(test)]
pub(crate) use alchemist::{MUTAGEN_BONUS, MUTAGEN_NATURAL_ARMOR};
#[cfg(test)]
pub(crate) use barbarian::RAGE_WILL_BONUS;
pub(crate) use barbarian::Rage;

/// The effect that fatigues a barbarian after its rage (the rule is in
/// `barbarian`; the battle state carries it out of a battle, so it lives on
/// the data floor).
pub(crate) const RAGE_FATIGUE_EFFECT: &str = "fatigued after rage";

/// A rage under way (the battle state's; the rules are in `barbarian`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Raging {
    /// Rounds raged so far (the round it started included).
    pub rounds: u32,
    /// Hit points it gave (lost when it ends).
    pub hp: i32,
}
pub(crate) use cavalier::OUTFLANK_BONUS;
pub(crate) use deed::{DEADEYE, UP_CLOSE};
pub(crate) use domain::{DomainPower, RebukeDeath};
pub(crate) use monk::flurry_extra_attacks;

/// The effect name of Arcane Accuracy (the rule is in `magus`; the policy
/// reads it, so it lives on the data floor).
pub(crate) const ARCANE_ACCURACY: &str = "arcane accuracy";

pub(crate) use paladin::{COURAGE_BONUS, LayOnHands};

/// A ranger's hunter's bond in force (the battle state's; the rules are in
/// `ranger`): the foe it was granted against and the allies' bonus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct HuntersBond {
    /// The foe of the bond.
    pub target: usize,
    /// Half the ranger's favored enemy bonus against it, on attack and damage rolls.
    pub bonus: i32,
}

/// A monk's class abilities as compiled (CRB "Monk"; the rules are in `monk`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Monk {
    /// Monk level: the base attack bonus of a flurry (the combatant's level).
    pub level: u32,
    /// Flurry of blows.
    pub flurry: bool,
    /// The ki pool's powers (one more flurry attack, +4 dodge AC).
    pub ki: bool,
    /// Its AC bonus (Wisdom bonus + 1 per four monk levels), in the printed
    /// AC and lost while it is helpless; 0 without the feature.
    pub ac_bonus: i32,
}

/// What a monk's declarations left for the rest of its turn (the battle state's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct MonkState {
    /// Stunning Fist declared for its next unarmed attack this turn.
    pub stunning_armed: bool,
    /// The round of its last Stunning Fist (once per round).
    pub stunning_round: Option<u32>,
    /// A ki point spent for one more attack in this turn's flurry.
    pub ki_attack: bool,
}

use crate::feats::{ChannelRule, ClassRules, Deed, Hex, MAX_POWERS};
use crate::model::{Combatant, SpecialAbility};
use crate::spell::model::CreatureType;

use super::prepared::monster::Smite;

/// The radius of a channel burst, in feet.
pub(crate) const CHANNEL_RADIUS_FT: u32 = 30;

/// The range of a hex, in feet.
pub(crate) const HEX_RANGE_FT: u32 = 30;

/// Mark kinds (`Fighter::marks`) of the once-a-battle hexes.
pub(crate) const fn hex_mark(h: Hex) -> u16 {
    0x8000 | h as u16
}

/// A combatant's limited-use pools (its file's `resources`), per encounter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pools {
    /// Uses of channel energy.
    pub channel_energy: u16,
    /// Uses of hexes (`None`: unlimited, the APG's rule).
    pub hexes: Option<u16>,
    /// Grit points.
    pub grit: u16,
    /// Arcane pool points.
    pub arcane_pool: u16,
    /// Rounds of bardic performance.
    pub bardic_rounds: u16,
    /// Uses of smite evil.
    pub smite_evil: u16,
    /// Uses of smite good.
    pub smite_good: u16,
    /// Uses of a cavalier's challenge.
    pub challenge: u16,
    /// Uses of a cavalier's tactician.
    pub tactician: u16,
    /// Rounds of a barbarian's rage.
    pub rage_rounds: u16,
    /// Uses of a paladin's lay on hands.
    pub lay_on_hands: u16,
    /// Points of a monk's ki pool.
    pub ki_pool: u16,
    /// Uses of Stunning Fist.
    pub stunning_fist: u16,
    /// Uses of the Healing domain's Rebuke Death.
    pub rebuke_death: u16,
    /// Doses of an alchemist's mutagen (set when the encounter is prepared:
    /// `resources.mutagen`, else 1 for an alchemist with the feature).
    pub mutagen: u16,
    /// Uses of each domain, school or bloodline power, in the order of
    /// `AbilitySpec::powers` (set when the encounter is prepared).
    pub powers: [u16; MAX_POWERS],
}

impl Pools {
    /// The pools of `c`'s file.
    pub fn of(c: &Combatant) -> Self {
        let get = |k: &str| c.resources.get(k).map(|&v| v.min(u32::from(u16::MAX)) as u16);
        Pools {
            channel_energy: get("channel_energy").unwrap_or(0),
            hexes: get("hexes"),
            grit: get("grit").unwrap_or(0),
            arcane_pool: get("arcane_pool").unwrap_or(0),
            bardic_rounds: get("bardic_rounds").unwrap_or(0),
            smite_evil: get("smite_evil").unwrap_or(0),
            smite_good: get("smite_good").unwrap_or(0),
            challenge: get("challenge").unwrap_or(0),
            tactician: get("tactician").unwrap_or(0),
            rage_rounds: get("rage_rounds").unwrap_or(0),
            lay_on_hands: get("lay_on_hands").unwrap_or(0),
            ki_pool: get("ki_pool").unwrap_or(0),
            stunning_fist: get("stunning_fist").unwrap_or(0),
            rebuke_death: get("rebuke_death").unwrap_or(0),
            mutagen: get("mutagen").unwrap_or(0),
            powers: [0; MAX_POWERS],
        }
    }

    /// Every counted pool (unlimited hexes count 0), for the uses left and spent.
    pub fn counted(&self) -> [u16; 15 + MAX_POWERS] {
        let p = self.powers;
        [
            self.channel_energy,
            self.hexes.unwrap_or(0),
            self.grit,
            self.arcane_pool,
            self.bardic_rounds,
            self.smite_evil,
            self.smite_good,
            self.challenge,
            self.tactician,
            self.rage_rounds,
            self.lay_on_hands,
            self.ki_pool,
            self.stunning_fist,
            self.rebuke_death,
            self.mutagen,
            p[0],
            p[1],
            p[2],
            p[3],
        ]
    }
}

/// The class abilities a combatant plays, compiled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct AbilitySpec {
    /// Channel energy: positive energy, dice of d6, Will DC.
    pub channel: Option<Channel>,
    /// Selective Channeling.
    pub selective: bool,
    /// Hexes, and their DC.
    pub hexes: Vec<Hex>,
    pub hex_dc: i32,
    /// Deeds.
    pub deeds: Vec<Deed>,
    /// Inspire courage bonus (0: none).
    pub inspire_courage: i32,
    /// Magus.
    pub spell_combat: bool,
    pub spellstrike: bool,
    /// Arcane pool enhancement bonus (0: none).
    pub arcane_enhancement: i32,
    /// Arcane Accuracy's insight bonus on attack rolls (the Intelligence
    /// bonus; 0: none).
    pub arcane_accuracy: i32,
    /// Lich fear aura and paralyzing touch DC (10 + ½ HD + Charisma modifier).
    pub lich_aura: bool,
    pub lich_touch: bool,
    pub lich_dc: i32,
    /// Augment Summoning (for the creatures it summons).
    pub augment_summoning: bool,
    /// A cavalier's challenge, if it has one.
    pub challenge: Option<Challenge>,
    /// Tactician: rounds the granted teamwork feats last (0: no tactician).
    pub tactician_rounds: u32,
    /// Lion's call, if it has it.
    pub lions_call: Option<LionsCall>,
    /// A barbarian's rage, if it has one (a creature with a rage of its
    /// `special_abilities`, the wolverine's, plays that one instead).
    pub rage: Option<Rage>,
    /// A paladin's smite evil (`combat::monster::smite` plays it, with the
    /// paladin's doubled first hit); `None` when the creature has a
    /// template's smite of its `special_abilities`.
    pub smite: Option<Smite>,
    /// A paladin's lay on hands.
    pub lay_on_hands: Option<LayOnHands>,
    /// The Healing domain's Rebuke Death.
    pub rebuke_death: Option<RebukeDeath>,
    /// Domain, school and bloodline powers (touch of evil, grave touch,
    /// copycat…), in feature order; `Pools::powers` holds their uses.
    pub powers: Vec<DomainPower>,
    /// A ranger's favored enemies: creature type and bonus on attack and damage rolls.
    pub favored_enemies: Vec<(CreatureType, i32)>,
    /// Hunter's bond (the companions'): rounds a bond lasts, the Wisdom
    /// modifier with a minimum of 1 (0: no bond).
    pub hunters_bond_rounds: u32,
    /// A monk's flurry, ki pool and AC bonus.
    pub monk: Option<Monk>,
    /// Stunning Fist's Fortitude DC (10 + ½ level + Wisdom modifier), if it has the feat.
    pub stunning_fist_dc: Option<i32>,
    /// A paladin's aura of courage (immune to fear; +4 morale on allies' saves against fear within 10 ft).
    pub aura_of_courage: bool,
    /// An alchemist's mutagen.
    pub mutagen: Option<Mutagen>,
}

/// Whether one of `c`'s special abilities is `what`.
fn special(c: &Combatant, what: impl Fn(&SpecialAbility) -> bool) -> bool {
    c.special_abilities.iter().any(what)
}

/// A cavalier's challenge as compiled (APG "Cavalier": Challenge, and the order's bonus).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Challenge {
    /// Extra damage of its melee attacks against the challenged foe (the cavalier level).
    pub damage: i32,
    /// The order of the lion's dodge bonus to AC against the challenged foe (0: another order).
    pub dodge: i32,
}

/// Lion's call as compiled (APG "Order of the Lion").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LionsCall {
    /// Competence bonus on attack rolls.
    pub attack: i32,
    /// Competence bonus on saves against fear (the Charisma modifier).
    pub fear_saves: i32,
    /// Rounds (the cavalier level).
    pub rounds: u32,
}

/// Channel energy as compiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Channel {
    /// Positive (heals the living, harms undead) or negative energy.
    pub positive: bool,
    /// Number of d6.
    pub dice: u32,
    /// Will save DC for half.
    pub dc: i32,
    /// Sun's Blessing: extra damage when positive energy harms undead (the
    /// cleric level; 0 without it), which also ignores their channel resistance.
    pub sun: i32,
    /// A paladin's channel positive energy: each use spends
    /// [`HANDS_PER_CHANNEL`] uses of lay on hands, not one of channel energy.
    pub from_hands: bool,
}

/// Uses of lay on hands a paladin's channel spends (CRB "Paladin": "Using
/// this ability consumes two uses of her lay on hands ability").
pub(crate) const HANDS_PER_CHANNEL: u16 = 2;

impl AbilitySpec {
    /// The abilities `class` switches on for `c`, if any.
    pub fn of(c: &Combatant, class: &ClassRules) -> Option<Self> {
        if !class.any_ability() && !class.augment_summoning {
            return None;
        }
        let level = c.level as i32;
        let cha = crate::dice::ability_modifier(c.abilities.cha_score);
        let int = c.abilities.int_score.map_or(0, crate::dice::ability_modifier);
        let wis = crate::dice::ability_modifier(c.abilities.wis_score);
        let channel = class.channel.map(|ChannelRule { positive, dice }| Channel {
            positive: positive.unwrap_or(!c.alignment.ends_with('E')),
            dice: dice.unwrap_or(c.level.div_ceil(2)),
            dc: 10 + level / 2 + cha,
            sun: if class.suns_blessing && positive.unwrap_or(!c.alignment.ends_with('E')) {
                level
            } else {
                0
            },
            from_hands: class.channel_from_hands,
        });
        let inspire_courage = if class.inspire_courage {
            match c.level {
                0..=4 => 1,
                5..=10 => 2,
                11..=16 => 3,
                _ => 4,
            }
        } else {
            0
        };
        Some(Self {
            channel,
            selective: class.selective_channeling,
            hexes: class.hexes.clone(),
            hex_dc: 10 + level / 2 + int,
            deeds: class.deeds.clone(),
            inspire_courage,
            spell_combat: class.spell_combat,
            spellstrike: class.spellstrike,
            arcane_accuracy: if class.arcane_accuracy { int.max(0) } else { 0 },
            arcane_enhancement: if class.arcane_pool { if c.level >= 5 { 2 } else { 1 } } else { 0 },
            lich_aura: class.lich_fear_aura,
            lich_touch: class.lich_paralyzing_touch,
            lich_dc: 10 + level / 2 + cha,
            augment_summoning: class.augment_summoning,
            challenge: class.challenge.then_some(Challenge {
                damage: level,
                dodge: if class.order_of_the_lion { 1 + level / 4 } else { 0 },
            }),
            tactician_rounds: if class.tactician { 3 + c.level / 2 } else { 0 },
            lions_call: class.lions_call.then_some(LionsCall {
                attack: 1,
                fear_saves: cha.max(0),
                rounds: c.level,
            }),
            rage: (class.rage && !special(c, |a| matches!(a, SpecialAbility::Rage { .. })))
                .then(|| Rage::of(c.level).with_powers(c.level, class.superstition, class.quick_reflexes)),
            smite: (class.smite_evil && !special(c, |a| matches!(a, SpecialAbility::Smite { .. })))
                .then(|| Smite::new(crate::effects::Alignment::EVIL, c.level, cha)),
            lay_on_hands: class.lay_on_hands.then(|| LayOnHands::of(c.level, class.mercies)),
            rebuke_death: class.rebuke_death.then(|| RebukeDeath::of(c.level)),
            powers: class
                .powers
                .iter()
                .map(|(name, spec)| {
                    let modifier = match spec.ability {
                        crate::feats::PowerAbility::Wis => wis,
                        crate::feats::PowerAbility::Int => int,
                        crate::feats::PowerAbility::Cha => cha,
                    };
                    DomainPower::of(c, name, *spec, modifier)
                })
                .collect(),
            favored_enemies: class.favored_enemies.clone(),
            hunters_bond_rounds: if class.hunters_bond { wis.max(1) as u32 } else { 0 },
            monk: (class.flurry_of_blows || class.ki_pool || class.monk_ac_bonus).then_some(Monk {
                level: c.level,
                flurry: class.flurry_of_blows,
                ki: class.ki_pool,
                ac_bonus: if class.monk_ac_bonus { wis.max(0) + level / 4 } else { 0 },
            }),
            stunning_fist_dc: class.stunning_fist.then_some(10 + level / 2 + wis),
            aura_of_courage: class.aura_of_courage,
            mutagen: class.mutagen.map(|score| Mutagen::of(score, c.level)),
        })
    }

    /// The bonus of its favored enemy against a creature of type `t` (0: none).
    pub fn favored_enemy(&self, t: Option<CreatureType>) -> i32 {
        let Some(t) = t else { return 0 };
        // Several entries for one type: the highest counts (CRB: the bonuses do not stack).
        self.favored_enemies.iter().filter(|(k, _)| *k == t).map(|(_, b)| *b).max().unwrap_or(0)
    }

    /// Whether it has hex `h`.
    pub fn has_hex(&self, h: Hex) -> bool {
        self.hexes.contains(&h)
    }

    /// Whether it has deed `d`.
    pub fn has_deed(&self, d: Deed) -> bool {
        self.deeds.contains(&d)
    }
}
