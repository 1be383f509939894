//! A spell's enhancement bonus to an ability score on a creature whose
//! printed score already holds a worn item's (`ability_enhancements`: a belt
//! of giant strength +2 in a printed Strength 20): enhancement bonuses do not
//! stack, only the highest applies (CRB "Bonus Types"), so Bull's Strength's
//! +4 raises that Strength by 2, and the score is the printed one again when
//! the spell ends. Bonuses of other types (rage's morale bonus) stack as
//! before (issue #22).

use serde_json::json;

use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind};
use crate::combat::engine::Engine;
use crate::combat::event::EffectEnd;
use crate::combat::odds::Swing;
use crate::effects::{Maneuver, ModTarget};
use crate::rng::ScriptedRng;

type E<'a, 'p> = Engine<'a, 'p, ScriptedRng>;

/// A cleric 5 who casts the buffs (Wisdom casting, `support::caster`).
fn cleric() -> crate::model::Combatant {
    caster(
        "Cleric",
        &["Bull's Strength", "Bear's Endurance"],
        json!({ "spell_list": "cleric", "creature_type": "humanoid", "attacks": [] }),
    )
}

/// A fighter 5: Str 20 (+5), Con 14, BAB 5, a longsword +10 1d8+5; `belt`
/// is the enhancement bonus its printed Strength and Constitution hold
/// (none: the file has no `ability_enhancements`); `extra` adds fields.
fn fighter(belt: Option<i32>, extra: serde_json::Value) -> crate::model::Combatant {
    let mut base = json!({
        "level": 5, "creature_type": "humanoid", "hp_max": 50, "bab": 5,
        "abilities": { "str_score": 20, "dex_score": 10, "con_score": 14,
                       "int_score": 10, "wis_score": 10, "cha_score": 10 },
        "attacks": [melee("longsword", 10, "1d8+5")]
    });
    if let Some(belt) = belt {
        base["ability_enhancements"] = json!({ "str": belt, "con": belt });
    }
    if let (serde_json::Value::Object(b), serde_json::Value::Object(o)) = (&mut base, extra) {
        b.extend(o);
    }
    creature("Fighter", base)
}

fn dummy() -> crate::model::Combatant {
    creature("Dummy", json!({ "creature_type": "humanoid", "hp_max": 200 }))
}

/// The cleric (0), the fighter (1) beside it, a dummy foe (2) in front of the fighter.
fn party(fighter: crate::model::Combatant) -> crate::combat::PreparedEncounter {
    prepare_magic(
        arena(4, 8),
        vec![("a", cleric(), at(1, 1)), ("a", fighter, at(1, 2)), ("b", dummy(), at(1, 3))],
    )
}

/// The fighter's Strength score now, its attack bonus against the dummy,
/// what its hits add to the printed 1d8+5, its trip CMB and CMD.
fn numbers(e: &E<'_, '_>) -> [i32; 5] {
    let s = e.st.situation(1, 0, 2, Swing::default());
    [
        20 + e.st.score_modifier(1, ModTarget::Str),
        s.attack,
        e.st.damage_bonus(1, 0, 2, &s, Swing::default()),
        e.st.cmb(1, Maneuver::Trip, 2),
        e.st.cmd(1, Maneuver::Trip, 2),
    ]
}

/// The cleric casts `spell` on the fighter (harmless: no save rolled).
fn buff(e: &mut E<'_, '_>, spell: &str) {
    let k = e.st.prep.spell_index(spell).unwrap();
    turn(e, 0, vec![Action::cast(k, Some(1))]);
    assert!(e.st.fighters[1].effects.iter().any(|x| x.effect.name.as_ref() == spell), "{spell} landed");
}

fn end(e: &mut E<'_, '_>, spell: &str) {
    let k = e.st.fighters[1].effects.iter().position(|x| x.effect.name.as_ref() == spell).unwrap();
    e.remove_effect_at(1, k, EffectEnd::Ends);
}

#[test]
fn bulls_strength_on_a_belted_strength_adds_only_what_exceeds_the_belt() {
    let prep = party(fighter(Some(2), json!({})));
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let before = numbers(&e);
    // Printed: Str 20, +10 to hit, 1d8+5 and nothing more, CMB 5 + 5, CMD 10 + 5 + 5 + 0.
    assert_eq!(before, [20, 10, 0, 10, 20]);
    buff(&mut e, "Bull's Strength");
    // +4 enhancement against the belt's +2: Str 22 (not 24), +1 (not +2).
    assert_eq!(numbers(&e), [22, 11, 1, 11, 21]);
    end(&mut e, "Bull's Strength");
    assert_eq!(numbers(&e), before, "back to the printed Strength");
}

#[test]
fn without_a_printed_enhancement_bulls_strength_adds_its_whole_bonus() {
    let prep = party(fighter(None, json!({})));
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    assert_eq!(numbers(&e), [20, 10, 0, 10, 20]);
    buff(&mut e, "Bull's Strength");
    assert_eq!(numbers(&e), [24, 12, 2, 12, 22]);
}

#[test]
fn a_belt_as_large_as_the_spell_leaves_nothing_to_add_and_nothing_to_take() {
    let prep = party(fighter(Some(4), json!({})));
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let before = numbers(&e);
    buff(&mut e, "Bull's Strength");
    assert_eq!(numbers(&e), before);
}

#[test]
fn rages_morale_bonus_stacks_with_the_belt_and_the_spell() {
    let barbarian = fighter(Some(2), json!({ "features": ["Rage"], "resources": { "rage_rounds": 5 } }));
    let prep = party(barbarian);
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 1, vec![Action::new(ActionKind::Rage)]);
    // Rage: +4 morale, Str 24, +2 to hit (−2 AC does not touch the attack).
    let raging = numbers(&e);
    assert_eq!(raging[..3], [24, 12, 2]);
    buff(&mut e, "Bull's Strength");
    // The spell's enhancement still adds only its excess over the belt: Str 26.
    assert_eq!(numbers(&e)[..3], [26, 13, 3]);
    end(&mut e, "Bull's Strength");
    assert_eq!(numbers(&e), raging);
}

#[test]
fn bears_endurance_on_a_belted_constitution_gives_the_hit_points_of_the_excess() {
    // Con 14 holding a +2 belt: +4 enhancement makes it 16, +1 hit point per Hit Die.
    let prep = party(fighter(Some(2), json!({})));
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    buff(&mut e, "Bear's Endurance");
    assert_eq!(e.st.score_modifier(1, ModTarget::Con), 2);
    assert_eq!(e.st.temp_hp(1), 5);
    // Without the belt: Con 18, +2 per Hit Die.
    let prep = party(fighter(None, json!({})));
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    buff(&mut e, "Bear's Endurance");
    assert_eq!(e.st.temp_hp(1), 10);
}
