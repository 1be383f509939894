//! A combatant's own flight as prepared (`FlySpec`): its fly speed and its
//! bonus on Fly checks. The rules of flight are in `combat::flight`. Data
//! floor: no rule module.

use crate::model::{Combatant, Maneuverability, Size};

/// A combatant's own (natural) flight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FlySpec {
    /// Fly speed in feet.
    pub speed_ft: u32,
    /// Total bonus on Fly checks.
    pub bonus: i32,
    /// Hover (UMR): stays aloft without moving, no Fly check.
    pub hover: bool,
}

impl FlySpec {
    /// The natural flight of `c`, if it has a fly speed: its Fly bonus as
    /// printed, else Dexterity, maneuverability and size.
    pub(crate) fn of(c: &Combatant) -> Option<Self> {
        let speed_ft = c.speed_fly_ft.filter(|&s| s > 0)?;
        let printed = c.skills.iter().find(|(k, _)| k.eq_ignore_ascii_case("fly")).and_then(|(_, s)| s.bonus);
        let maneuverability = c.fly_maneuverability.unwrap_or(Maneuverability::Average);
        let bonus = printed.unwrap_or_else(|| fly_bonus(c.abilities.dex_score, maneuverability, c.size));
        let hover = c.features.iter().any(|f| f.name().eq_ignore_ascii_case("hover"));
        Some(Self { speed_ft, bonus, hover })
    }
}

/// Fly bonus from Dexterity, maneuverability and size (no ranks).
pub(crate) fn fly_bonus(dex: i32, m: Maneuverability, size: Size) -> i32 {
    crate::dice::ability_modifier(dex) + m.fly_modifier() + size_fly_modifier(size)
}

/// The size modifier on Fly checks.
pub(crate) const fn size_fly_modifier(size: Size) -> i32 {
    match size {
        Size::Fine => 8,
        Size::Diminutive => 6,
        Size::Tiny => 4,
        Size::Small => 2,
        Size::Medium => 0,
        Size::Large => -2,
        Size::Huge => -4,
        Size::Gargantuan => -6,
        Size::Colossal => -8,
    }
}
