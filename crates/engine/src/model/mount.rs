//! What a rider's file says of the mount she rides (CRB "Mounted Combat"):
//! the name of the combatant she rides when both are on the same side of an
//! encounter, and her saddle. The rules are `combat::mounted`'s.

use serde::{Deserialize, Serialize};

use super::Combatant;

/// The mount a combatant rides when its side has it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mount {
    /// The mount's `name`, as its own file writes it (case aside): the
    /// first combatant of that name on the rider's side that no other rider
    /// takes.
    pub name: String,
    /// A military saddle: +2 circumstance on Ride checks to stay in the
    /// saddle, and a 75% chance (not 50%) to stay in it when knocked
    /// unconscious (CRB "Saddle, Military"; "Ride").
    #[serde(default)]
    pub military_saddle: bool,
}

/// Checks a rider's `mount`: a name that is not the rider's own.
pub(super) fn check(c: &Combatant) -> Result<(), (String, String)> {
    let Some(m) = &c.mount else { return Ok(()) };
    if m.name.trim().is_empty() {
        return Err(("$.mount.name".into(), "the mount's name must not be empty".into()));
    }
    if m.name.trim().eq_ignore_ascii_case(c.name.trim()) {
        return Err(("$.mount.name".into(), format!("{:?} cannot ride itself", c.name)));
    }
    Ok(())
}
