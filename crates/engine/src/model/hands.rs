//! A combatant's hands: what its weapons and its shield hold, so that a
//! two-handed weapon and a shield's AC do not both count, and the loadouts
//! no one can wield are refused when the file is loaded.
//!
//! The data says how each attack is held: `two_handed` (both hands),
//! `off_hand` (the weapon of the other hand, used by a two-weapon full
//! attack), or neither (one hand); `light` marks a light weapon. A `shield`
//! names the shield whose bonus the printed AC holds. The engine then plays
//! (CRB "Shields", "Two-Weapon Fighting"; docs/rules/combat.md "Hands"):
//! - an attack with a two-handed weapon lets go of the shield: its AC bonus
//!   is lost until the start of the wielder's next turn (a buckler's too:
//!   CRB "Buckler": "if you use a weapon in your off hand… you lose the
//!   buckler's AC bonus until your next turn");
//! - an off-hand weapon is never the weapon of a single attack: it joins a
//!   full attack by the two-weapon rules (`combat::martial`).

use serde::{Deserialize, Serialize};

use super::path::{index_path, key_path};
use super::{AttackKind, Combatant};

/// The kind of shield (CRB Table 6-6), which decides what the shield hand can do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShieldKind {
    /// Strapped to the forearm: the hand stays free to hold a two-handed weapon.
    Buckler,
    /// A light shield: the hand can carry an item but wields no weapon.
    Light,
    /// A heavy shield: the hand holds the shield.
    Heavy,
    /// A tower shield: the hand holds the shield.
    Tower,
}

/// The shield a combatant carries.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shield {
    /// Its name, as printed (`heavy steel shield`).
    pub name: String,
    /// Its kind.
    pub kind: ShieldKind,
    /// Its bonus to AC (enhancement included), which the printed `ac.total`
    /// and `ac.flat_footed` hold and `ac.touch` does not.
    pub ac_bonus: i32,
    /// Made of metal (steel, mithral…): a rust monster's antennae corrode
    /// it (`combat::monster::rust`). False for wood and hide.
    #[serde(default, skip_serializing_if = "is_false")]
    pub metal: bool,
    /// Its enhancement bonus (a +1 shield: 1), included in `ac_bonus`: a
    /// magic item's own save bonus comes from its caster level, three times it.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub enhancement: u32,
}

/// The armor a combatant wears, as far as a battle can change it (a rust
/// monster's rust): the printed AC already holds its bonus.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Armor {
    /// Its name, as printed (`+1 breastplate`).
    pub name: String,
    /// Its armor bonus to AC (enhancement included), which the printed
    /// `ac.total` and `ac.flat_footed` hold and `ac.touch` does not.
    pub ac_bonus: i32,
    /// Made of metal (steel, mithral, adamantine…). False for leather, hide, wood.
    #[serde(default, skip_serializing_if = "is_false")]
    pub metal: bool,
    /// Its enhancement bonus (a +1 breastplate: 1), included in `ac_bonus`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub enhancement: u32,
}

#[allow(clippy::trivially_copy_pass_by_ref, reason = "serde's skip_serializing_if passes a reference")]
fn is_false(b: &bool) -> bool {
    !*b
}

#[allow(clippy::trivially_copy_pass_by_ref, reason = "serde's skip_serializing_if passes a reference")]
fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A loadout no one can wield: (JSON path, reason).
type Failure = (String, String);

/// Checks the hands of `c`: every off-hand weapon is a one-handed melee
/// manufactured weapon held beside a main-hand weapon and no shield (a shield
/// bash is not modelled), is in no full-attack routine; a two-handed weapon
/// is not light; the shield's bonus is one the printed AC can hold.
pub fn check(c: &Combatant) -> Result<(), Failure> {
    for (i, a) in c.attacks.iter().enumerate() {
        let path = index_path("$.attacks", i);
        if a.light && a.two_handed {
            return Err((key_path(&path, "light"), "a two-handed weapon cannot be light".into()));
        }
        if !a.off_hand {
            continue;
        }
        let at = key_path(&path, "off_hand");
        let why = if a.two_handed {
            Some("a two-handed weapon takes both hands and cannot be the off-hand weapon".to_string())
        } else if a.natural {
            Some("a natural attack is not an off-hand weapon (mark it secondary instead)".to_string())
        } else if a.kind != AttackKind::Melee {
            Some("an off-hand weapon must be a melee weapon (two-weapon fighting with thrown or ranged weapons is not modelled)".to_string())
        } else if let Some(s) = c.shield.as_ref().filter(|s| s.kind != ShieldKind::Buckler) {
            Some(format!(
                "the off hand holds the {} (a {} shield); a shield bash is not modelled: drop one of them",
                s.name,
                match s.kind {
                    ShieldKind::Light => "light",
                    ShieldKind::Tower => "tower",
                    _ => "heavy",
                }
            ))
        } else if !c
            .attacks
            .iter()
            .any(|m| m.kind == AttackKind::Melee && !m.natural && !m.off_hand && !m.two_handed)
        {
            Some("an off-hand weapon needs a one-handed melee weapon in the main hand (an attack without off_hand)".to_string())
        } else {
            c.full_attack.iter().flatten().any(|id| id == a.weapon_id()).then(|| {
                "an off-hand weapon joins a full attack by the two-weapon rules, not by a full_attack routine".to_string()
            })
        };
        if let Some(why) = why {
            return Err((at, why));
        }
    }
    if let Some(s) = &c.shield {
        if s.name.trim().is_empty() {
            return Err(("$.shield.name".into(), "the shield's name must not be empty".into()));
        }
        if s.ac_bonus < 1 {
            return Err((
                "$.shield.ac_bonus".into(),
                format!("a shield's AC bonus is at least 1, got {}", s.ac_bonus),
            ));
        }
        let room = c.ac.total - c.ac.touch;
        if s.ac_bonus > room {
            return Err((
                "$.shield.ac_bonus".into(),
                format!(
                    "the printed AC holds at most {room} of bonuses that touch AC leaves out (ac.total {} - ac.touch {}), less than the shield's {}",
                    c.ac.total, c.ac.touch, s.ac_bonus
                ),
            ));
        }
        if s.enhancement as i32 > s.ac_bonus {
            return Err((
                "$.shield.enhancement".into(),
                format!("the enhancement bonus is part of ac_bonus ({}), not {}", s.ac_bonus, s.enhancement),
            ));
        }
    }
    if let Some(a) = &c.armor {
        if a.name.trim().is_empty() {
            return Err(("$.armor.name".into(), "the armor's name must not be empty".into()));
        }
        if a.ac_bonus < 1 {
            return Err((
                "$.armor.ac_bonus".into(),
                format!("an armor's AC bonus is at least 1, got {}", a.ac_bonus),
            ));
        }
        let room = c.ac.total - c.ac.touch;
        let shield = c.shield.as_ref().map_or(0, |s| s.ac_bonus);
        if a.ac_bonus + shield > room {
            return Err((
                "$.armor.ac_bonus".into(),
                format!(
                    "the printed AC holds at most {room} of bonuses that touch AC leaves out (ac.total {} - ac.touch {}), less than the armor's {} and the shield's {shield}",
                    c.ac.total, c.ac.touch, a.ac_bonus
                ),
            ));
        }
        if a.enhancement as i32 > a.ac_bonus {
            return Err((
                "$.armor.enhancement".into(),
                format!("the enhancement bonus is part of ac_bonus ({}), not {}", a.ac_bonus, a.enhancement),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::model::parse_combatant;

    fn with(attacks: &str, extra: &str) -> String {
        format!(
            r#"{{"name":"X","level":1,"abilities":{{"str_score":14,"dex_score":12,"con_score":12,"int_score":10,"wis_score":10,"cha_score":10}},
            "hp_max":10,"ac":{{"total":18,"touch":11,"flat_footed":17}},"bab":1,"initiative_mod":1,"speed_land_ft":30,
            "saves":{{"fort":2,"ref":1,"will":0}},"attacks":{attacks}{extra}}}"#
        )
    }

    const SWORD: &str =
        r#"{"name":"longsword","kind":"melee","attack_bonus":3,"damage":[{"formula":"1d8+2"}]}"#;

    fn error(text: &str) -> String {
        parse_combatant(text, "x.json").unwrap_err().to_string()
    }

    #[test]
    fn impossible_loadouts_are_refused_with_their_place() {
        let short = r#"{"name":"short sword","kind":"melee","attack_bonus":3,"damage":[{"formula":"1d6+1"}],"off_hand":true,"light":true}"#;
        let cases = [
            (
                with(&format!("[{SWORD},{}]", short.replace("\"light\":true", "\"two_handed\":true")), ""),
                "x.json: $.attacks[1].off_hand: a two-handed weapon takes both hands",
            ),
            (
                with(&format!("[{short}]"), ""),
                "x.json: $.attacks[0].off_hand: an off-hand weapon needs a one-handed melee weapon",
            ),
            (
                with(
                    &format!("[{SWORD},{short}]"),
                    r#","shield":{"name":"heavy steel shield","kind":"heavy","ac_bonus":2}"#,
                ),
                "x.json: $.attacks[1].off_hand: the off hand holds the heavy steel shield",
            ),
            (
                with(&format!("[{SWORD},{short}]"), r#","full_attack":[["longsword","short sword"]]"#),
                "x.json: $.attacks[1].off_hand: an off-hand weapon joins a full attack by the two-weapon rules",
            ),
            (
                with(
                    &format!("[{SWORD}]"),
                    r#","shield":{"name":"tower shield","kind":"tower","ac_bonus":8}"#,
                ),
                "x.json: $.shield.ac_bonus: the printed AC holds at most 7",
            ),
            (
                with(
                    &format!("[{SWORD}]"),
                    r#","shield":{"name":"heavy steel shield","kind":"heavy","ac_bonus":2},"armor":{"name":"full plate","ac_bonus":9,"metal":true}"#,
                ),
                "x.json: $.armor.ac_bonus: the printed AC holds at most 7 of bonuses that touch AC leaves out (ac.total 18 - ac.touch 11), less than the armor's 9 and the shield's 2",
            ),
            (
                with(
                    &format!("[{SWORD}]"),
                    r#","armor":{"name":"+1 chain shirt","ac_bonus":5,"enhancement":6}"#,
                ),
                "x.json: $.armor.enhancement: the enhancement bonus is part of ac_bonus (5), not 6",
            ),
            (
                with(&format!("[{SWORD}]"), r#","armor":{"name":"chain shirt","ac_bonus":4,"rusty":true}"#),
                "x.json: $.armor.rusty: unknown field `rusty`",
            ),
            (
                with(&format!("[{}]", SWORD.replace("}]}", "}],\"two_handed\":true,\"light\":true}")), ""),
                "x.json: $.attacks[0].light: a two-handed weapon cannot be light",
            ),
        ];
        for (text, expected) in cases {
            let e = error(&text);
            assert!(e.starts_with(expected), "{e}\nexpected: {expected}");
            assert!(!e.contains('\n'), "one line: {e}");
        }
    }

    #[test]
    fn a_weapon_and_an_off_hand_weapon_or_a_buckler_load() {
        let short = r#"{"name":"short sword","kind":"melee","attack_bonus":3,"damage":[{"formula":"1d6+1"}],"off_hand":true,"light":true}"#;
        let text = with(
            &format!("[{SWORD},{short}]"),
            r#","shield":{"name":"buckler","kind":"buckler","ac_bonus":1}"#,
        );
        parse_combatant(&text, "x.json").expect("loads");
    }
}
