//! Domain and school powers as data (CRB "Cleric: Domains", "Wizard: Arcane
//! Schools", "Sorcerer: Bloodlines"): a catalogue entry with `"rule":
//! "domain_power"` carries a [`PowerSpec`] saying how the power is used
//! (a melee touch or on itself), which ability sets its uses a day (3 +
//! that modifier), how long its effect lasts, and what the effect is. One
//! entry serves every monster and PC file that names the feature; the
//! engine plays them all with one action (`combat::abilities::domain`).

use serde::{Deserialize, Serialize};

use crate::effects::ConditionId;

/// How the power is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PowerUse {
    /// A standard action: a melee touch attack against a creature within
    /// the user's touch; the effect on a hit (a spell-like touch).
    MeleeTouch,
    /// A move action on the user itself (no attack roll).
    SelfMove,
}

/// The ability whose modifier adds to 3 for the uses a day.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PowerAbility {
    /// Wisdom (a cleric's domain powers).
    Wis,
    /// Intelligence (a wizard's school powers).
    Int,
    /// Charisma (a sorcerer's bloodline powers).
    Cha,
}

/// How many rounds the effect lasts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PowerRounds {
    /// Half the class level, rounded down, at least 1.
    HalfLevel,
    /// The class level (at least 1).
    Level,
    /// One round (touch of chaos: "for the next round").
    One,
}

/// What the power does to the creature it touches (or to its user).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PowerEffect {
    /// The creature has the condition for the duration (touch of evil: sickened).
    Condition(ConditionId),
    /// Every d20 it rolls is rolled twice and the worse kept (touch of chaos).
    TakeWorse,
    /// It takes this many d6 at the start of each of its turns for the
    /// duration, until healed (bleeding touch).
    BleedD6(u32),
    /// Shaken for the duration; a creature already shaken with fewer Hit
    /// Dice than the user's class level is frightened for 1 round instead
    /// (grave touch).
    ShakenOrFrightened,
    /// This many mirror images on the user (copycat: one).
    MirrorImages(u32),
}

/// A domain or school power as the catalogue writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PowerSpec {
    /// How it is used.
    #[serde(rename = "use")]
    pub how: PowerUse,
    /// The ability of its uses a day (3 + its modifier).
    pub ability: PowerAbility,
    /// Its duration.
    pub rounds: PowerRounds,
    /// Its effect.
    pub effect: PowerEffect,
    /// Only a living creature (not undead, not a construct) is affected.
    #[serde(default)]
    pub living_only: bool,
    /// The effect is mind-affecting fear (a creature immune to fear or
    /// mind-affecting effects ignores it).
    #[serde(default)]
    pub fear: bool,
}

impl PowerSpec {
    /// The effect's rounds for a user of class level `level`.
    pub const fn rounds_at(&self, level: u32) -> u32 {
        let n = match self.rounds {
            PowerRounds::HalfLevel => level / 2,
            PowerRounds::Level => level,
            PowerRounds::One => 1,
        };
        if n == 0 { 1 } else { n }
    }

    /// Uses a day for an ability modifier `modifier` (3 + it, not below 0).
    pub const fn uses_for(modifier: i32) -> u32 {
        let n = 3 + modifier;
        if n < 0 { 0 } else { n as u32 }
    }

    /// Whether the catalogue entry is consistent: a touch has a target's
    /// effect, a power on itself has mirror images.
    pub fn check(&self) -> Result<(), String> {
        match (self.how, self.effect) {
            (PowerUse::SelfMove, PowerEffect::MirrorImages(n)) if n > 0 => Ok(()),
            (PowerUse::SelfMove, _) => {
                Err("a power on itself (self_move) plays only mirror_images (1 or more)".into())
            }
            (PowerUse::MeleeTouch, PowerEffect::MirrorImages(_)) => {
                Err("mirror_images is a power on itself: use self_move".into())
            }
            (PowerUse::MeleeTouch, PowerEffect::BleedD6(0)) => Err("bleed_d6 must be 1 or more".into()),
            (PowerUse::MeleeTouch, _) => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_are_half_the_level_or_the_level_at_least_one() {
        let touch = PowerSpec {
            how: PowerUse::MeleeTouch,
            ability: PowerAbility::Wis,
            rounds: PowerRounds::HalfLevel,
            effect: PowerEffect::Condition(ConditionId::Sickened),
            living_only: false,
            fear: false,
        };
        assert_eq!([1, 2, 3, 6, 11].map(|l| touch.rounds_at(l)), [1, 1, 1, 3, 5]);
        let copycat = PowerSpec {
            how: PowerUse::SelfMove,
            rounds: PowerRounds::Level,
            effect: PowerEffect::MirrorImages(1),
            ..touch
        };
        assert_eq!([1, 6].map(|l| copycat.rounds_at(l)), [1, 6]);
        let chaos = PowerSpec { rounds: PowerRounds::One, effect: PowerEffect::TakeWorse, ..touch };
        assert_eq!([1, 3, 12].map(|l| chaos.rounds_at(l)), [1, 1, 1]);
        assert_eq!([-4, -1, 0, 3, 4, 6].map(PowerSpec::uses_for), [0, 2, 3, 6, 7, 9]);
        assert!(copycat.check().is_ok() && touch.check().is_ok());
        assert!(PowerSpec { how: PowerUse::SelfMove, ..touch }.check().is_err());
        assert!(PowerSpec { effect: PowerEffect::MirrorImages(1), ..touch }.check().is_err());
        assert_eq!(crate::feats::catalog::power_resource_key("Touch of Evil"), "touch_of_evil");
    }
}
