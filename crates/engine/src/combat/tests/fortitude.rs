//! The shambling mound's electric fortitude (`combat::monster::fortitude`;
//! Bestiary, Shambling Mound: "take no damage from electricity. Instead,
//! any electricity attack used against a shambling mound temporarily
//! increases its Constitution score by 1d4 points"): with scripted dice
//! against its closed form, and the load errors of a bad entry. (The
//! party's policy casts no electricity at a creature immune to it: the
//! ability is a defense against areas and shock weapons.)

use serde_json::json;

use super::holds::special_error;
use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind};
use crate::effects::{Context, SaveKind};

fn mound() -> crate::model::Combatant {
    data_combatant("data/monsters/shambling_mound.json")
}

#[test]
fn electricity_raises_the_mounds_constitution_by_1d4_its_fortitude_and_hit_points_instead_of_harming_it() {
    let wizard =
        caster("Wizard", &["Shocking Grasp"], json!({ "casting_ability": "int", "spell_list": "wizard" }));
    let prep = prepare_magic(arena(4, 8), vec![("a", wizard, at(1, 1)), ("b", mound(), at(1, 2))]);
    let sg = prep.spell_index("Shocking Grasp").unwrap();
    // Shocking grasp: a touch (d20 15); its electricity meets the immunity
    // (no damage rolled), then the mound's 1d4 = 3: Con 17 → 20, modifier
    // +3 → +5: +2 Fortitude, +2 × 9 HD hit points.
    // Again: 1d4 = 1: Con 21, modifier +5 still: nothing more.
    let mut b = Bench::new(&[15, 3, 15, 1]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.st.fighters[1].turn.aoo_left = 0;
    let fort = e.st.save_bonus(1, SaveKind::Fort, &Context::default());
    e.st.fighters[1].hp = 50;
    turn(&mut e, 0, vec![Action::cast(sg, Some(1))]);
    assert_eq!(e.st.hp(1), 50 + 18, "no electricity damage, and 2 × 9 hit points of Constitution");
    assert_eq!(e.st.fighters[1].monster.fortitude_con, 3);
    assert_eq!(e.st.save_bonus(1, SaveKind::Fort, &Context::default()), fort + 2);
    turn(&mut e, 0, vec![Action::cast(sg, Some(1))]);
    assert_eq!(e.st.hp(1), 68, "Con 21 keeps the +5 modifier");
    assert_eq!(e.st.fighters[1].monster.fortitude_con, 4, "the gains add up");
    assert_eq!(e.st.save_bonus(1, SaveKind::Fort, &Context::default()), fort + 2);
    assert_eq!(
        e.st.fighters[1].effects.iter().filter(|x| &*x.effect.name == "electric fortitude").count(),
        1
    );
    drop(e);
    let lines = b.lines();
    assert!(lines.iter().any(|l| l.contains("electric fortitude")), "{lines:#?}");
}

#[test]
fn fire_or_a_plain_weapon_does_not_feed_it() {
    let wizard =
        caster("Wizard", &["Burning Hands"], json!({ "casting_ability": "int", "spell_list": "wizard" }));
    let prep = prepare_magic(arena(4, 8), vec![("a", wizard, at(1, 1)), ("b", mound(), at(1, 2))]);
    let bh = prep.spell_index("Burning Hands").unwrap();
    // Burning hands: fire (resist 10) wounds it and gives nothing.
    let mut b = Bench::new(&[4, 4, 4, 4, 4, 4, 1]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.st.fighters[1].turn.aoo_left = 0;
    turn(&mut e, 0, vec![Action::cast(bh, Some(1))]);
    assert!(e.st.hp(1) < 67);
    assert_eq!(e.st.fighters[1].monster.fortitude_con, 0);
}

#[test]
fn a_shocking_weapon_hit_feeds_it_too() {
    let knight = creature(
        "Knight",
        json!({ "attacks": [{ "name": "shock sword", "kind": "melee", "attack_bonus": 10,
            "damage": [{ "formula": "1d8", "types": ["slashing"] }, { "formula": "1d6", "types": ["electricity"] }] }] }),
    );
    let prep = prepare(arena(4, 8), vec![("a", knight, at(1, 1)), ("b", mound(), at(1, 2))]);
    // d20 15 hits AC 19 (+10); 1d8 = 5 slashing, 1d6 = 6 electricity (none), then 1d4 = 4:
    // Con 21, +2 modifier × 9.
    let mut b = Bench::new(&[15, 5, 6, 4]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    assert_eq!(e.st.hp(1), 67 - 5 + 18);
    assert_eq!(e.st.fighters[1].monster.fortitude_con, 4);
}

#[test]
fn an_energy_fortitude_without_its_immunity_or_with_a_bad_type_is_one_error_naming_the_field() {
    let slam = json!([{ "name": "slam", "kind": "melee", "attack_bonus": 0, "natural": true,
        "damage": [{ "formula": "1d4", "types": ["bludgeoning"] }] }]);
    let e = special_error(
        json!([{ "kind": "energy_fortitude", "name": "electric fortitude", "types": ["electricity"], "con": "1d4" }]),
        slam.clone(),
    );
    assert!(e.contains("special_abilities[0].types") && e.contains("immunities"), "{e}");
    let e = special_error(
        json!([{ "kind": "energy_fortitude", "name": "electric fortitude", "types": ["slashing"], "con": "1d4" }]),
        slam.clone(),
    );
    assert!(e.contains("special_abilities[0].types") && e.contains("not an energy type"), "{e}");
    let e = special_error(
        json!([{ "kind": "energy_fortitude", "name": "electric fortitude", "types": ["electricity"], "con": "1q4" }]),
        slam,
    );
    assert!(e.contains("special_abilities[0].con"), "{e}");
}
