//! What an adventuring day carries of the effects on its party
//! (`docs/days.md`): a spell of minutes or hours leaves a battle with its
//! duration by the SRD less the rounds since it was cast, the time between
//! battles counts it down, a night's rest ends it, and the next battle puts
//! it back with the rounds it has left.

use serde_json::json;

use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::Action;
use crate::combat::carry::{Carried, CarriedEffect, LONG_REST_ROUNDS, Party, SHORT_REST_ROUNDS};
use crate::combat::engine::Engine;
use crate::combat::event::Event;
use crate::effects::{ConditionId, ConditionSet, Duration, Effect};
use crate::rng::ScriptedRng;

fn dummy(name: &str) -> crate::model::Combatant {
    creature(name, json!({ "hp_max": 30, "saves": { "fort": 0, "ref": 0, "will": 0 }, "attacks": [] }))
}

fn rounds_of(c: &Carried, name: &str) -> Option<Option<u32>> {
    c.effects.iter().find(|e| &*e.effect.name == name).map(|e| e.rounds)
}

#[test]
fn a_bless_leaves_the_battle_with_its_minutes_less_the_rounds_since_it_was_cast() {
    // Caster level 5: Bless lasts 5 minutes, 50 rounds (CRB "Duration": 1 minute = 10 rounds).
    let cleric = caster("Cleric", &["Bless"], json!({ "spell_list": "cleric" }));
    let prep = prepare_magic(
        arena(3, 8),
        vec![("a", cleric, at(1, 1)), ("a", dummy("Ally"), at(1, 2)), ("b", dummy("Foe"), at(1, 7))],
    );
    let bless = prep.spell_index("Bless").unwrap();
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.st.round = 3;
    e.execute_for_test(0, Action::cast(bless, None));
    // The battle ends in its 7th round: rounds 3 to 7 are spent, 45 left.
    e.st.round = 7;
    let mut cleric = e.st.carry_out(0);
    let ally = e.st.carry_out(1);
    assert_eq!(rounds_of(&cleric, "Bless"), Some(Some(45)));
    assert_eq!(rounds_of(&ally, "Bless"), Some(Some(45)), "every ally in the burst");
    assert_eq!(cleric.effects[0].spell.as_deref(), Some("Bless"));
    assert_eq!(cleric.effects[0].effect.spell, None, "the index is the battle's");
    // A gap of G rounds leaves 45 - G, and uses it up at 45.
    let mut later = cleric.clone();
    later.pass(30);
    assert_eq!(rounds_of(&later, "Bless"), Some(Some(15)));
    later.pass(15);
    assert_eq!(rounds_of(&later, "Bless"), None, "used up by the gap");
    // A short rest is 10 minutes: 100 rounds.
    cleric.pass(SHORT_REST_ROUNDS);
    assert!(cleric.effects.is_empty());
    // A Bless cast in the battle's last round has its 50 rounds but the one spent.
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.st.round = 12;
    e.execute_for_test(0, Action::cast(bless, None));
    assert_eq!(rounds_of(&e.st.carry_out(0), "Bless"), Some(Some(49)));
    // A battle of 50 rounds or more since the cast leaves nothing.
    e.st.round = 61;
    assert_eq!(rounds_of(&e.st.carry_out(0), "Bless"), None);
}

#[test]
fn a_carried_mage_armor_gives_its_ac_in_the_next_battle_with_its_rounds_left_and_a_night_ends_it() {
    // Caster level 5: 5 hours, 3,000 rounds.
    let wizard =
        caster("Wizard", &["Mage Armor"], json!({ "spell_list": "wizard", "casting_ability": "int" }));
    let placed = || vec![("a", wizard.clone(), at(1, 1)), ("b", dummy("Foe"), at(1, 6))];
    let prep = prepare_magic(arena(3, 8), placed());
    let armor = prep.spell_index("Mage Armor").unwrap();
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.execute_for_test(0, Action::cast(armor, Some(0)));
    let ac_armored = e.st.armor_class(1, 0, true, false, false, false, 0);
    e.st.round = 4;
    let mut carried = e.st.carry_out(0);
    drop(e);
    assert_eq!(rounds_of(&carried, "Mage Armor"), Some(Some(2996)));
    // One minute after the fight, then a short rest: 110 rounds.
    carried.pass(10);
    carried.pass(SHORT_REST_ROUNDS);
    assert_eq!(rounds_of(&carried, "Mage Armor"), Some(Some(2886)));
    // The next battle: the same AC as armored, 4 more than fresh, and the event.
    let options = SimOptions::default();
    let mut rng = ScriptedRng::new(vec![]);
    let fresh =
        Engine::new(&prep, &options, &mut rng, None).st.armor_class(1, 0, true, false, false, false, 0);
    let mut events = Vec::new();
    let mut rng = ScriptedRng::new(vec![]);
    let start = [Some(carried.clone()), None];
    let e = Engine::carried_in(&prep, &options, &mut rng, Some(&mut events), &start);
    assert_eq!(e.st.armor_class(1, 0, true, false, false, false, 0), fresh + 4);
    assert_eq!(e.st.armor_class(1, 0, true, false, false, false, 0), ac_armored);
    let k = e.st.fighters[0].effects.iter().position(|x| &*x.effect.name == "Mage Armor").unwrap();
    assert_eq!(e.st.fighters[0].effects[k].rounds_left, Some(2886));
    assert_eq!(e.st.fighters[0].effects[k].effect.spell, Some(armor), "found again by name");
    drop(e);
    assert!(events.iter().any(|r| matches!(&r.event,
        Event::CarriedEffect { who: 0, effect, rounds: Some(2886) } if effect == "Mage Armor")));
    // A night's rest is 8 hours (4,800 rounds): more than 2,886.
    let files = [&wizard];
    let party = Party { prep: &prep, members: &[0], files: &files[..] };
    let mut states = [carried];
    party.long_rest(&mut states);
    assert!(states[0].effects.is_empty());
    assert_eq!(LONG_REST_ROUNDS, 4800);
}

#[test]
fn a_night_ends_fatigue_turns_exhaustion_into_fatigue_and_leaves_a_curse() {
    let wizard = caster("Wizard", &[], json!({}));
    let prep =
        prepare_magic(arena(3, 8), vec![("a", wizard.clone(), at(1, 1)), ("b", dummy("Foe"), at(1, 6))]);
    let lasting = |name: &str, c: ConditionId| CarriedEffect {
        effect: Effect::new(name, Duration::UntilRemoved).with_conditions(ConditionSet::of(c)),
        spell: None,
        rounds: None,
    };
    let mut state = Carried::fresh(&prep, 0);
    state.effects = vec![
        lasting("Waves of Fatigue", ConditionId::Fatigued),
        lasting("exhausted", ConditionId::Exhausted),
        lasting("Bestow Curse", ConditionId::Shaken),
    ];
    // Time alone ends none of them.
    state.pass(LONG_REST_ROUNDS);
    assert_eq!(state.effects.len(), 3);
    let files = [&wizard];
    let party = Party { prep: &prep, members: &[0], files: &files[..] };
    let mut states = [state];
    party.long_rest(&mut states);
    let names: Vec<&str> = states[0].effects.iter().map(|e| &*e.effect.name).collect();
    assert_eq!(names, ["exhausted", "Bestow Curse"]);
    assert!(states[0].effects[0].effect.conditions.has(ConditionId::Fatigued));
    assert!(!states[0].effects[0].effect.conditions.has(ConditionId::Exhausted));
    party.long_rest(&mut states);
    assert_eq!(states[0].effects.len(), 1, "a second night ends the fatigue left");
}

#[test]
fn what_belongs_to_its_battle_is_not_carried() {
    // Rounds-per-level effects carry only their rounds left; a dead member carries nothing.
    let cleric = caster("Cleric", &["Bless"], json!({ "spell_list": "cleric" }));
    let prep = prepare_magic(arena(3, 8), vec![("a", cleric, at(1, 1)), ("b", dummy("Foe"), at(1, 7))]);
    let bless = prep.spell_index("Bless").unwrap();
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.execute_for_test(0, Action::cast(bless, None));
    e.condition_for(0, ConditionId::Shaken, 3, Some(1));
    let c = e.st.carry_out(0);
    assert_eq!(rounds_of(&c, "shaken"), Some(Some(3)));
    e.st.fighters[0].dead = true;
    assert!(e.st.carry_out(0).effects.is_empty());
}
