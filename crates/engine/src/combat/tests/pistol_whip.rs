//! The gunslinger's pistol-whip deed (UC "Deeds", 3rd level): the melee
//! bash with a firearm, its die by handedness and size, its critical hit,
//! its grit, its free trip, and the policy that swings it instead of
//! shooting into a brute's reach.

use serde_json::json;

use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind, ClassAbilityUse, Reason};
use crate::combat::event::Event;
use crate::feats::Deed;

/// A 4th-level gunslinger, BAB +4, Str 14 (+2): the whip's attack bonus is
/// +6 and its damage die + 2 (+3 two-handed).
fn gunslinger(grit: u32, two_handed: bool, size: &str) -> crate::model::Combatant {
    creature(
        "Gunslinger",
        json!({ "level": 4, "bab": 4, "size": size, "hp_max": 30,
                "abilities": { "str_score": 14, "dex_score": 16, "con_score": 12,
                               "int_score": 10, "wis_score": 14, "cha_score": 10 },
                "features": ["Deed (Pistol-Whip)"], "resources": { "grit": grit },
                "attacks": [{ "name": if two_handed { "musket" } else { "pistol" }, "kind": "ranged",
                              "attack_bonus": 8, "firearm": true, "two_handed": two_handed,
                              "range_increment_ft": 20, "crit_mult": 4,
                              "damage": [{ "formula": "1d8", "types": ["piercing"] }], "reload": "free" }] }),
    )
}

/// A foe of 50 hp, AC 10 and CMD 11 (BAB +1, Str 10).
fn foe() -> crate::model::Combatant {
    creature("Foe", json!({ "hp_max": 50 }))
}

fn whip(t: usize) -> Action {
    Action::at(ActionKind::Deed, t).with_ability(ClassAbilityUse::Deed(Deed::PistolWhip))
}

/// One pistol-whip of a fresh gunslinger on the foe beside it, with `faces`.
fn one_whip(grit: u32, two_handed: bool, size: &str, faces: &[u32]) -> (i32, u16, bool, Option<Reason>) {
    let prep = prepare(
        arena(3, 6),
        vec![("a", gunslinger(grit, two_handed, size), at(1, 1)), ("b", foe(), at(1, 2))],
    );
    let mut b = Bench::new(faces);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![whip(1)]);
    let reason = e.st.last_results(0).first().and_then(|r| r.reason);
    (e.st.hp(1), e.st.fighters[0].class.pools.grit, e.st.is_prone(1), reason)
}

#[test]
fn the_whip_attacks_at_bab_plus_strength_and_spends_a_grit_point() {
    // d20 4 + 6 = 10 meets AC 10; 1d6 = 5 + Str 2; the trip's natural 1 fails.
    assert_eq!(one_whip(2, false, "Medium", &[4, 5, 1]), (50 - 7, 1, false, None));
    // d20 3 + 6 = 9 misses, and the grit is spent all the same.
    assert_eq!(one_whip(2, false, "Medium", &[3]), (50, 1, false, None));
}

#[test]
fn the_die_follows_the_firearms_hands_and_the_wielders_size() {
    // Rolled faces at the die's top: 1d6 / 1d10 Medium, 1d4 / 1d8 Small.
    assert_eq!(one_whip(1, false, "Medium", &[15, 6, 1]).0, 50 - 6 - 2);
    assert_eq!(one_whip(1, true, "Medium", &[15, 10, 1]).0, 50 - 10 - 3, "two-handed: 1½ × Str");
    assert_eq!(one_whip(1, false, "Small", &[15, 4, 1]).0, 50 - 4 - 2);
    assert_eq!(one_whip(1, true, "Small", &[15, 8, 1]).0, 50 - 8 - 3);
}

#[test]
fn only_a_natural_twenty_threatens_and_the_critical_hit_doubles() {
    // A 19 hits without a confirmation roll: the 6 is the damage die.
    assert_eq!(one_whip(1, false, "Medium", &[19, 6, 1]).0, 50 - 8);
    // A 20, confirmed by 15: two rolls of 1d6 + 2, not the pistol's ×4.
    assert_eq!(one_whip(1, false, "Medium", &[20, 15, 3, 4, 1]).0, 50 - (3 + 2) - (4 + 2));
}

#[test]
fn a_hit_trips_for_free_and_a_miss_does_not_try() {
    // Hit, then the trip check: 20 succeeds.
    assert_eq!(one_whip(1, false, "Medium", &[15, 1, 20]), (50 - 3, 0, true, None));
    // CMB +6 against CMD 11: a 5 trips, a 4 does not, and a failure never trips her.
    assert!(one_whip(1, false, "Medium", &[15, 1, 5]).2);
    assert!(!one_whip(1, false, "Medium", &[15, 1, 4]).2);
    // A miss: the next face would trip, but no check is made.
    assert!(!one_whip(1, false, "Medium", &[2, 20, 20]).2);
}

#[test]
fn no_grit_no_firearm_or_no_foe_beside_refuses_the_whip() {
    assert_eq!(one_whip(0, false, "Medium", &[20, 20, 6, 6, 20]), (50, 0, false, Some(Reason::NoAbility)));
    let swordsman = creature(
        "Swordsman",
        json!({ "features": ["Deed (Pistol-Whip)"], "resources": { "grit": 2 }, "attacks": [melee("sword", 3, "1d8")] }),
    );
    let prep = prepare(arena(3, 6), vec![("a", swordsman, at(1, 1)), ("b", foe(), at(1, 2))]);
    let mut b = Bench::new(&[20]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![whip(1)]);
    assert_eq!(e.st.last_results(0)[0].reason, Some(Reason::NoWeapon));
    assert_eq!(e.st.fighters[0].class.pools.grit, 2);
    let prep =
        prepare(arena(3, 6), vec![("a", gunslinger(2, false, "Medium"), at(1, 1)), ("b", foe(), at(1, 4))]);
    let mut b = Bench::new(&[20]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![whip(1)]);
    assert_eq!(e.st.last_results(0)[0].reason, Some(Reason::OutOfRange));
    assert_eq!(e.st.fighters[0].class.pools.grit, 2);
}

#[test]
fn tammara_beside_a_brute_whips_it_rather_than_shoot_into_its_reach() {
    let tammara = data_combatant("data/pcs/tammara.json");
    let brute = creature(
        "Brute",
        json!({ "hp_max": 80, "bab": 6, "ac": { "total": 14, "touch": 10, "flat_footed": 14 },
                "abilities": { "str_score": 18, "dex_score": 10, "con_score": 14,
                               "int_score": 6, "wis_score": 10, "cha_score": 8 },
                "attacks": [melee("greataxe", 10, "1d12+6")] }),
    );
    let prep = prepare(arena(3, 6), vec![("a", tammara, at(1, 1)), ("b", brute, at(1, 2))]);
    let mut whipped = 0;
    for seed in 0..24 {
        let events = policy_battle(&prep, 91, seed);
        // Tammara's first attack of the fight, the brute still beside her.
        let first = events.iter().find_map(|r| match &r.event {
            Event::Attack(a) if a.who == 0 => Some(a.weapon.clone()),
            _ => None,
        });
        if first.is_some_and(|w| w.starts_with("pistol-whip")) {
            whipped += 1;
        }
    }
    assert!(whipped >= 20, "{whipped} of 24 fights opened with a pistol-whip");
}
