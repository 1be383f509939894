//! The options a combatant declares for its turn (`Style`), what it
//! declared (`MartialState`) and the penalties they bring. Data floor: the
//! rules are in `martial`.

/// Rapid Shot's penalty on every attack roll of the full attack (CRB "Rapid Shot").
pub(crate) const RAPID_SHOT_PENALTY: i32 = 2;
/// Cleave's penalty to AC until the next turn (CRB "Cleave").
pub(crate) const CLEAVE_AC_PENALTY: i32 = 2;

crate::named_enum! {
    /// An option a combatant declares for its turn (`declare`, `Action::option`).
    Style {
        /// Rapid Shot: one more shot at the highest bonus on a ranged full attack, −2 on all.
        RapidShot => "rapid_shot",
        /// Deadly Aim: −X on ranged attacks, +2X damage.
        DeadlyAim => "deadly_aim",
        /// Combat Expertise: −X on melee attacks and CMB, +X dodge AC.
        CombatExpertise => "combat_expertise",
        /// Two-weapon fighting: the off-hand weapon joins a melee full attack.
        TwoWeapon => "two_weapon",
        /// Cleave: the attack action goes on to an adjacent foe after a hit; −2 AC.
        Cleave => "cleave",
        /// Flurry of blows (a monk): the monk level as base attack bonus on a
        /// full attack with unarmed strikes and monk weapons, one more attack
        /// (two from 8th level, three from 15th), −2 on every roll.
        Flurry => "flurry_of_blows",
    }
}

impl Style {
    /// The style of `Action::option`.
    pub fn from_option(option: u8) -> Option<Style> {
        Style::ALL.get(usize::from(option)).copied()
    }

    /// The `Action::option` of the style.
    pub const fn option(self) -> u8 {
        self as u8
    }

    pub(super) const fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// What a combatant's declarations and weapons changed until its next turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct MartialState {
    /// Declared styles (bit: `Style as u8`).
    pub(super) styles: u8,
    /// Attacked with a two-handed weapon: the shield's AC bonus is lost.
    pub shield_off: bool,
}

impl MartialState {
    /// Whether `style` is declared.
    pub const fn has(self, style: Style) -> bool {
        self.styles & style.bit() != 0
    }
}

/// The two-weapon penalties (main hand, off hand) on attack rolls (CRB
/// Table 8-7): −6/−10; −4/−8 with a light off-hand weapon; with
/// Two-Weapon Fighting −4/−4, and −2/−2 with a light off-hand weapon.
pub(crate) const fn two_weapon_penalties(feat: bool, light_off_hand: bool) -> (i32, i32) {
    match (feat, light_off_hand) {
        (false, false) => (6, 10),
        (false, true) => (4, 8),
        (true, false) => (4, 4),
        (true, true) => (2, 2),
    }
}
