//! The reload time of a ranged attack (`reload_time`), fixed when the
//! encounter is prepared. The reloading rules are in `combat::reload`. Data
//! floor: no rule module.

use crate::model::{AttackKind, AttackSpec, Combatant, ReloadTime};

/// Which reloading rule a weapon follows, from its name and grip.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Family {
    /// Hand and light crossbows: a move action, free with Rapid Reload.
    LightCrossbow,
    /// Heavy crossbows: a full round, a move action with Rapid Reload.
    HeavyCrossbow,
    /// One-handed firearms: a standard action, a move action with Rapid Reload.
    OneHandedFirearm,
    /// Two-handed firearms: a full round, a standard action with Rapid Reload.
    TwoHandedFirearm,
}

impl Family {
    fn of(a: &AttackSpec) -> Option<Self> {
        let name = a.name.to_ascii_lowercase();
        match () {
            _ if a.firearm && a.two_handed => Some(Self::TwoHandedFirearm),
            _ if a.firearm => Some(Self::OneHandedFirearm),
            _ if name.contains("heavy crossbow") => Some(Self::HeavyCrossbow),
            _ if name.contains("hand crossbow") || name.contains("light crossbow") => {
                Some(Self::LightCrossbow)
            }
            _ => None,
        }
    }

    const fn time(self, rapid: bool) -> ReloadTime {
        match (self, rapid) {
            (Self::LightCrossbow, false) => ReloadTime::Move,
            (Self::LightCrossbow, true) => ReloadTime::Free,
            (Self::HeavyCrossbow, false) | (Self::TwoHandedFirearm, false) => ReloadTime::FullRound,
            (Self::HeavyCrossbow, true) | (Self::OneHandedFirearm, true) => ReloadTime::Move,
            (Self::OneHandedFirearm, false) | (Self::TwoHandedFirearm, true) => ReloadTime::Standard,
        }
    }
}

/// The reload time of `owner`'s ranged attack `a`: the file's, else from the
/// weapon's family and a `Rapid Reload (…)` feature naming it (its
/// parenthesis is a word of the attack's name: `Rapid Reload (light
/// crossbow)`, `Rapid Reload (pistol)`); `None` when it needs no reloading.
pub(crate) fn reload_time(owner: &Combatant, a: &AttackSpec) -> Option<ReloadTime> {
    // A ranged touch weapon (a splash weapon's flasks) reloads only as its file says.
    let thrown_touch = a.kind == AttackKind::Touch && a.range_increment_ft.is_some();
    if a.kind != AttackKind::Ranged && !thrown_touch {
        return None;
    }
    if a.reload.is_some() || thrown_touch {
        return a.reload;
    }
    let family = Family::of(a)?;
    let name = a.name.to_ascii_lowercase();
    let rapid = owner.features.iter().any(|f| {
        let f = f.name().to_ascii_lowercase();
        f.strip_prefix("rapid reload (")
            .and_then(|rest| rest.strip_suffix(')'))
            .is_some_and(|choice| !choice.is_empty() && name.contains(choice))
    });
    Some(family.time(rapid))
}
