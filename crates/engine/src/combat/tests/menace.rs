//! The archons' aura of menace (an `aura` entry with a penalty that ends on
//! a hit) and the hound archon's constant magic circle against evil (a
//! feature catalogue rule), against their closed forms.

use serde_json::json;

use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind};
use crate::effects::{Context, SaveKind};

fn archon() -> crate::model::Combatant {
    creature(
        "Archon",
        json!({ "hp_max": 40, "ac": { "total": 12, "touch": 12, "flat_footed": 12 },
                "features": [{ "name": "aura of menace", "category": "special" }],
                "special_abilities": [{ "kind": "aura", "name": "aura of menace", "range_ft": 20, "save": "will",
                                        "dc": 16, "penalty": 2, "until_hit": true }] }),
    )
}

/// The Will save bonus of combatant 1 against an effect with no alignment.
fn will(st: &crate::combat::state::BattleState<'_>) -> i32 {
    st.save_bonus(1, SaveKind::Will, &Context::default())
}

#[test]
fn a_failed_save_against_the_aura_of_menace_costs_two_on_attacks_ac_and_saves_until_a_hit_on_the_archon() {
    let prep = prepare(
        arena(3, 12),
        vec![
            ("monsters", archon(), at(1, 1)),
            ("players", creature("Foe", json!({ "hp_max": 30 })), at(1, 2)),
        ],
    );
    // Turn 1: Will save d20 5 fails (DC 16).
    // Turn 2: no save again; sword d20 13 - 2 = 11 misses AC 12 - 0.
    // Turn 3: d20 14 - 2 = 12 hits, 1d6 = 3: the penalty ends.
    let mut b = Bench::new(&[5, 13, 14, 3]);
    let mut e = b.engine(&prep, &SimOptions::default());
    assert_eq!(will(&e.st), 0);
    let ac_before = e.st.armor_class(0, 1, true, false, false, false, 0);
    turn(&mut e, 1, vec![]);
    assert_eq!(will(&e.st), -2);
    assert_eq!(e.st.armor_class(0, 1, true, false, false, false, 0), ac_before - 2);
    e.start_round();
    turn(&mut e, 1, vec![Action::at(ActionKind::Attack, 0)]);
    assert_eq!((e.st.hp(0), will(&e.st)), (40, -2), "a miss does not end it");
    e.start_round();
    turn(&mut e, 1, vec![Action::at(ActionKind::Attack, 0)]);
    assert_eq!((e.st.hp(0), will(&e.st)), (37, 0), "the hit ends it");
    assert_eq!(e.st.armor_class(0, 1, true, false, false, false, 0), ac_before);
    e.start_round();
    turn(&mut e, 1, vec![]);
    assert_eq!(will(&e.st), 0, "once resisted or broken, the same archon's aura does not return");
}

#[test]
fn a_successful_save_or_a_foe_beyond_twenty_feet_is_not_menaced() {
    let prep = prepare(
        arena(3, 12),
        vec![
            ("monsters", archon(), at(1, 1)),
            ("players", creature("Near", json!({})), at(1, 2)),
            ("players", creature("Far", json!({})), at(1, 7)),
        ],
    );
    let mut b = Bench::new(&[16]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 1, vec![]);
    turn(&mut e, 2, vec![]);
    for i in [1, 2] {
        assert_eq!(e.st.save_bonus(i, SaveKind::Will, &Context::default()), 0);
    }
}

#[test]
fn the_hound_archons_magic_circle_adds_two_to_ac_and_saves_against_evil_creatures_only() {
    let prep = prepare(
        arena(3, 12),
        vec![
            ("monsters", data_combatant("data/monsters/hound_archon.json"), at(1, 1)),
            ("players", creature("Evil", json!({ "alignment": "CE" })), at(1, 3)),
            ("players", creature("Neutral", json!({ "alignment": "N" })), at(1, 4)),
        ],
    );
    let b = &mut Bench::new(&[]);
    let e = b.engine(&prep, &SimOptions::default());
    let ac = |a: usize| e.st.armor_class(a, 0, true, false, false, false, 0);
    assert_eq!(ac(1), ac(2) + 2);
    assert_eq!(ac(2), 19, "the printed AC against a neutral attacker");
    let save = |a: usize| {
        let ctx = Context { other_alignment: prep.fighters[a].nature.alignment, ..Context::default() };
        e.st.save_bonus(0, SaveKind::Will, &ctx)
    };
    assert_eq!(save(1), save(2) + 2);
}
