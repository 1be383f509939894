//! Scenario variants: per-side changes of the base encounter (starting hit
//! points, awareness, extra copies of a combatant), and how they apply.

use std::sync::Arc;

use pf1e_engine::encounter::{Encounter, EncounterError, SideSpec};
use serde::Deserialize;

use crate::proto;

/// A starting-HP fraction in (0, 1], kept as millionths so hashing and
/// rounding are exact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HpFraction(pub u32);

impl HpFraction {
    /// Full hit points.
    pub const FULL: HpFraction = HpFraction(1_000_000);

    /// The fraction as a float, for display.
    pub fn as_f64(self) -> f64 {
        f64::from(self.0) / 1e6
    }

    /// `max(1, ceil(hp_max * f))`, computed in integers.
    pub fn start_hp(self, hp_max: i32) -> i32 {
        let scaled = i64::from(hp_max.max(0)) * i64::from(self.0);
        let hp = (scaled + 999_999) / 1_000_000;
        i32::try_from(hp).unwrap_or(i32::MAX).max(1)
    }

    /// Whether the fraction lies in (0, 1].
    pub fn is_valid(self) -> bool {
        self.0 > 0 && self.0 <= Self::FULL.0
    }
}

impl<'de> Deserialize<'de> for HpFraction {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let f = f64::deserialize(d)?;
        if !(f > 0.0 && f <= 1.0) {
            return Err(serde::de::Error::custom(format!("HP fraction must be in (0, 1], got {f}")));
        }
        Ok(HpFraction((f * 1e6).round() as u32))
    }
}

/// The change of one side in a variant.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SideVariant {
    /// Side name.
    pub side: String,
    /// Starting hit points of every member, as a fraction of its maximum.
    pub hp: HpFraction,
    /// Awareness of every member at the start, when overridden (`None`: as in the files).
    pub aware: Option<bool>,
    /// Ids of base combatants of this side to add one more copy of (an id repeated adds more).
    pub copies: Vec<String>,
    /// Ids of base combatants of this side to leave out (the contribution
    /// job: the fight without one of them).
    pub removed: Vec<String>,
    /// When not empty, the side's members: ids of its base combatants, an id
    /// repeated for several copies, placed afresh on the side's zone in this
    /// order (the design job: a candidate group drawn from a pool).
    pub roster: Vec<String>,
}

/// Why a variant cannot be applied or decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VariantError {
    /// An extra copy names a combatant the side does not have.
    #[error("side {side:?} has no combatant {id:?} to copy")]
    UnknownCopy {
        /// The side.
        side: String,
        /// The id asked for.
        id: String,
    },
    /// A removal names a combatant the side does not have.
    #[error("side {side:?} has no combatant {id:?} to leave out")]
    UnknownRemoved {
        /// The side.
        side: String,
        /// The id asked for.
        id: String,
    },
    /// A roster names a combatant the side does not have.
    #[error("side {side:?} has no combatant {id:?} for its roster")]
    UnknownRoster {
        /// The side.
        side: String,
        /// The id asked for.
        id: String,
    },
    /// A removal would leave a side without combatants.
    #[error("side {0:?} would have no combatant left")]
    RemovedAll(String),
    /// The extra copies do not fit the map.
    #[error("extra copies: {0}")]
    Copies(#[source] EncounterError),
    /// A wire variant has an HP fraction outside (0, 1].
    #[error("side {side:?}: HP fraction {ppm} ppm is outside (0, 1]")]
    HpFraction {
        /// The side.
        side: String,
        /// The fraction in millionths.
        ppm: u32,
    },
    /// A wire variant has an awareness value this version does not know.
    #[error("side {side:?}: unknown awareness value {value}")]
    Awareness {
        /// The side.
        side: String,
        /// The value received.
        value: i32,
    },
}

impl From<&SideVariant> for proto::SideVariant {
    fn from(v: &SideVariant) -> Self {
        let aware = match v.aware {
            None => proto::Awareness::AsInFiles,
            Some(true) => proto::Awareness::Aware,
            Some(false) => proto::Awareness::Unaware,
        };
        proto::SideVariant {
            side: v.side.clone(),
            hp_ppm: v.hp.0,
            aware: aware as i32,
            copies: v.copies.clone(),
            removed: v.removed.clone(),
            roster: v.roster.clone(),
        }
    }
}

impl TryFrom<&proto::SideVariant> for SideVariant {
    type Error = VariantError;

    fn try_from(v: &proto::SideVariant) -> Result<Self, Self::Error> {
        let hp = HpFraction(v.hp_ppm);
        if !hp.is_valid() {
            return Err(VariantError::HpFraction { side: v.side.clone(), ppm: v.hp_ppm });
        }
        let aware = match proto::Awareness::try_from(v.aware) {
            Ok(proto::Awareness::AsInFiles) => None,
            Ok(proto::Awareness::Aware) => Some(true),
            Ok(proto::Awareness::Unaware) => Some(false),
            Err(_) => return Err(VariantError::Awareness { side: v.side.clone(), value: v.aware }),
        };
        Ok(SideVariant {
            side: v.side.clone(),
            hp,
            aware,
            copies: v.copies.clone(),
            removed: v.removed.clone(),
            roster: v.roster.clone(),
        })
    }
}

/// Leaves out the combatants each side's `removed` lists: everyone else
/// keeps its square and id ([`Encounter::without`]).
fn remove(enc: &mut Encounter, variant: &[SideVariant]) -> Result<(), VariantError> {
    for v in variant {
        for id in &v.removed {
            let i = enc
                .combatants
                .iter()
                .position(|d| &d.id == id && enc.sides[d.side] == v.side)
                .ok_or_else(|| VariantError::UnknownRemoved { side: v.side.clone(), id: id.clone() })?;
            *enc = enc.without(i).ok_or_else(|| VariantError::RemovedAll(v.side.clone()))?;
        }
    }
    Ok(())
}

/// Sets the starting hit points of every side the variant lists: a side at
/// fraction `f` starts each member at `max(1, ceil(hp_max * f))` hit points.
/// Sides not listed keep full hit points.
pub fn apply_hp(encounter: &mut Encounter, variant: &[SideVariant]) {
    for d in &mut encounter.combatants {
        let side = &encounter.sides[d.side];
        if let Some(v) = variant.iter().find(|v| &v.side == side) {
            d.start_hp = v.hp.start_hp(d.spec.hp_max);
        }
    }
}

/// The encounter of a variant: `base` with each side's roster (when one is
/// given: exactly those members, in its order) and extra copies (appended
/// to their side), placed again on the map, then the removals, the HP
/// fractions and the awareness overrides. Fails when an id is unknown or a
/// zone is full. A rebuilt encounter keeps the base's library (the spells
/// and creatures its casters and summoners need).
pub fn variant_encounter(base: &Encounter, variant: &[SideVariant]) -> Result<Encounter, VariantError> {
    let mut enc = if variant.iter().all(|v| v.copies.is_empty() && v.roster.is_empty()) {
        base.clone()
    } else {
        let spec_of = |side: &str, id: &str| {
            base.combatants
                .iter()
                .find(|d| d.id == id && base.sides[d.side] == side)
                .map(|d| Arc::clone(&d.spec))
        };
        let mut sides: Vec<SideSpec> = Vec::with_capacity(base.sides.len());
        for (i, name) in base.sides.iter().enumerate() {
            let combatants = match variant.iter().find(|v| &v.side == name && !v.roster.is_empty()) {
                Some(v) => v
                    .roster
                    .iter()
                    .map(|id| {
                        spec_of(name, id)
                            .ok_or_else(|| VariantError::UnknownRoster { side: name.clone(), id: id.clone() })
                    })
                    .collect::<Result<Vec<_>, _>>()?,
                None => base.combatants.iter().filter(|d| d.side == i).map(|d| Arc::clone(&d.spec)).collect(),
            };
            sides.push(SideSpec { name: name.clone(), combatants });
        }
        for v in variant {
            for id in &v.copies {
                let spec = spec_of(&v.side, id)
                    .ok_or_else(|| VariantError::UnknownCopy { side: v.side.clone(), id: id.clone() })?;
                if let Some(side) = sides.iter_mut().find(|s| s.name == v.side) {
                    side.combatants.push(spec);
                }
            }
        }
        Encounter::build(Arc::clone(&base.map), sides)
            .map_err(VariantError::Copies)?
            .with_library(Arc::clone(&base.library))
    };
    remove(&mut enc, variant)?;
    apply_hp(&mut enc, variant);
    for d in &mut enc.combatants {
        if let Some(aware) = variant.iter().find(|v| v.side == enc.sides[d.side]).and_then(|v| v.aware) {
            d.aware = aware;
        }
    }
    Ok(enc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_hp_rounds_up_and_never_below_one() {
        assert_eq!(HpFraction(500_000).start_hp(7), 4);
        assert_eq!(HpFraction(700_000).start_hp(10), 7);
        assert_eq!(HpFraction(1).start_hp(5), 1);
        assert_eq!(HpFraction::FULL.start_hp(13), 13);
    }

    #[test]
    fn wire_variants_round_trip_and_bad_ones_are_refused() {
        let v = SideVariant {
            side: "a".into(),
            hp: HpFraction(250_000),
            aware: Some(false),
            copies: vec!["x".into()],
            removed: vec!["y".into()],
            roster: vec!["z".into(), "z".into()],
        };
        let p = proto::SideVariant::from(&v);
        assert_eq!(SideVariant::try_from(&p), Ok(v));
        let zero = proto::SideVariant { hp_ppm: 0, ..p.clone() };
        assert!(matches!(SideVariant::try_from(&zero), Err(VariantError::HpFraction { .. })));
        let odd = proto::SideVariant { aware: 7, ..p };
        assert!(matches!(SideVariant::try_from(&odd), Err(VariantError::Awareness { value: 7, .. })));
    }
}
