//! What a carried item is for (CRB "Magic Items": potions, wands, scrolls),
//! read from its name: `potion of cure light wounds`, `wand of cure light
//! wounds`. The engine plays wands, potions and scrolls of spells (`combat::items`)
//! and splash weapons (thrown as attacks, [`SplashWeapon::attack`]); every
//! other item is carried without a use in play, and `docs/rules/items.md`
//! lists why.

use super::{AttackKind, AttackSpec, Combatant, DamageComponent, ReloadTime};
use crate::dice::ability_modifier;

/// Charges of a new wand (CRB "Wands": "a newly created wand has 50 charges").
pub const WAND_CHARGES: u32 = 50;

/// What an item named this way does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ItemUse {
    /// A wand of the named spell (spell trigger; charges).
    Wand(String),
    /// A potion of the named spell (drunk, or given to a helpless ally).
    Potion(String),
    /// A scroll of the named spell (spell completion, read once).
    Scroll(String),
    /// A splash weapon's flasks (alchemist's fire, acid, holy water).
    Splash(SplashWeapon),
    /// Anything else (ammunition, oil, gear).
    Other,
}

/// The splash weapons of the Core Rulebook (Table 6-9 "Special
/// Substances and Items", "Splash Weapons").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SplashWeapon {
    /// 1d6 fire, 1 fire splash, 1d6 fire again the next round.
    AlchemistsFire,
    /// 1d6 acid, 1 acid splash.
    Acid,
    /// 2d4 to undead and evil outsiders, 1 splash to them.
    HolyWater,
}

/// Range increment of a thrown splash weapon (CRB Table 6-9: 10 ft).
pub const SPLASH_RANGE_INCREMENT_FT: u32 = 10;

impl SplashWeapon {
    /// The splash weapon an item's name designates, if any (`flask of acid`,
    /// `alchemist's fire`, `holy water`, any case).
    fn of(lower: &str) -> Option<SplashWeapon> {
        let name =
            lower.strip_prefix("flask of ").or_else(|| lower.strip_prefix("vial of ")).unwrap_or(lower);
        match name.replace(['\u{2019}', '\''], "").as_str() {
            "alchemists fire" => Some(SplashWeapon::AlchemistsFire),
            "acid" | "acid flask" => Some(SplashWeapon::Acid),
            "holy water" => Some(SplashWeapon::HolyWater),
            _ => None,
        }
    }

    /// The attack's name.
    pub const fn name(self) -> &'static str {
        match self {
            SplashWeapon::AlchemistsFire => "alchemist's fire",
            SplashWeapon::Acid => "acid flask",
            SplashWeapon::HolyWater => "holy water",
        }
    }

    /// The attack `count` flasks of it give `thrower`: a ranged touch attack
    /// at its base attack bonus, Dexterity and size (thrown splash weapons
    /// need no proficiency, CRB "Splash Weapons"), range increment 10 ft, no
    /// Strength to damage, one flask a throw; drawing the next flask is the
    /// weapon's reload, a move action (CRB Table 8-2, "Retrieve a stored
    /// item"; Quick Draw does not apply to alchemical items).
    pub fn attack(self, thrower: &Combatant, count: u32) -> AttackSpec {
        let component = |formula: &str, types: &[&str], harms: &[&str]| DamageComponent {
            formula: formula.to_string(),
            types: types.iter().map(|t| t.to_string()).collect(),
            precision: false,
            harms: harms.iter().map(|t| t.to_string()).collect(),
            spares: Vec::new(),
        };
        let (damage, splash, lingering) = match self {
            SplashWeapon::AlchemistsFire => (
                component("1d6", &["fire"], &[]),
                component("1", &["fire"], &[]),
                Some(component("1d6", &["fire"], &[])),
            ),
            SplashWeapon::Acid => (component("1d6", &["acid"], &[]), component("1", &["acid"], &[]), None),
            SplashWeapon::HolyWater => {
                let harms = ["undead", "evil outsider"];
                (component("2d4", &["untyped"], &harms), component("1", &["untyped"], &harms), None)
            }
        };
        AttackSpec {
            id: None,
            name: self.name().to_string(),
            kind: AttackKind::Touch,
            attack_bonus: thrower.bab
                + ability_modifier(thrower.abilities.dex_score)
                + thrower.size.modifier(),
            damage: vec![damage],
            damage_bonus: 0,
            crit_range: 20,
            crit_mult: 2,
            range_increment_ft: Some(SPLASH_RANGE_INCREMENT_FT),
            reach_ft: None,
            natural: false,
            secondary: false,
            firearm: false,
            two_handed: false,
            reach_weapon: false,
            light: false,
            off_hand: false,
            count: 1,
            splash: vec![splash],
            splash_dc: None,
            standard_action: false,
            lingering,
            qualities: Vec::new(),
            reload: Some(ReloadTime::Move),
            ammunition: Some(count.max(1)),
            notes: Some("A carried splash weapon, thrown.".into()),
        }
    }
}

impl ItemUse {
    /// Reads an item's name: `<kind> of <spell>`, any case.
    pub fn of(name: &str) -> ItemUse {
        let lower = name.trim().to_ascii_lowercase();
        let spell =
            |prefix: &str| lower.strip_prefix(prefix).map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
        if let Some(s) = spell("wand of ") {
            ItemUse::Wand(s)
        } else if let Some(s) = spell("potion of ") {
            ItemUse::Potion(s)
        } else if let Some(s) = spell("scroll of ") {
            ItemUse::Scroll(s)
        } else if let Some(w) = SplashWeapon::of(&lower) {
            ItemUse::Splash(w)
        } else {
            ItemUse::Other
        }
    }

    /// The spell a wand, potion or scroll holds.
    pub fn spell(&self) -> Option<&str> {
        match self {
            ItemUse::Wand(s) | ItemUse::Potion(s) | ItemUse::Scroll(s) => Some(s),
            ItemUse::Splash(_) | ItemUse::Other => None,
        }
    }
}

/// `c`'s attacks with one more per splash weapon it carries and does not
/// already list as an attack of the same name.
pub fn with_thrown_items(c: &Combatant) -> Option<Combatant> {
    let extra: Vec<AttackSpec> = c
        .carried_items
        .iter()
        .filter_map(|item| match ItemUse::of(item.name()) {
            ItemUse::Splash(w) if item.quantity() > 0 => Some(w.attack(c, item.quantity())),
            _ => None,
        })
        .filter(|a| !c.attacks.iter().any(|b| b.weapon_id().eq_ignore_ascii_case(&a.name)))
        .collect();
    if extra.is_empty() {
        return None;
    }
    let mut out = c.clone();
    out.attacks.extend(extra);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_item_s_use_is_read_from_its_name() {
        assert_eq!(ItemUse::of("Wand of Cure Light Wounds"), ItemUse::Wand("cure light wounds".into()));
        assert_eq!(ItemUse::of(" potion of cure light wounds"), ItemUse::Potion("cure light wounds".into()));
        assert_eq!(ItemUse::of("scroll of bless"), ItemUse::Scroll("bless".into()));
        assert_eq!(ItemUse::of("holy water"), ItemUse::Splash(SplashWeapon::HolyWater));
        assert_eq!(ItemUse::of("Alchemist’s Fire"), ItemUse::Splash(SplashWeapon::AlchemistsFire));
        assert_eq!(ItemUse::of("flask of acid"), ItemUse::Splash(SplashWeapon::Acid));
        assert_eq!(ItemUse::of("oil"), ItemUse::Other);
        assert_eq!(ItemUse::of("wand of "), ItemUse::Other);
        assert_eq!(ItemUse::of("arrows").spell(), None);
    }
}
