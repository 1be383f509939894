//! Silence (`spells::zone` anchored areas, `policy::magic`; CRB
//! "Silence"): centred on a creature that fails its Will save, a 20-ft
//! emanation that moves as it moves; no spell with a verbal component is
//! cast inside, no sonic or language-dependent spell gets in; the default
//! policy silences a foe caster for the spells it would lose.

use serde_json::json;

use super::support::*;
use crate::combat::action::{Action, Reason};
use crate::combat::engine::Engine;
use crate::combat::event::{Event, Record, SpellEvent};
use crate::combat::spells::Metamagic;
use crate::rng::SeededRng;

/// A cleric of 5th level who knows `spells` (Wisdom 16), many hit points.
fn cleric(name: &str, spells: &[&str], will: i32) -> crate::model::Combatant {
    caster(
        name,
        spells,
        json!({ "hp_max": 1000, "saves": { "fort": 4, "ref": 1, "will": will },
                "ac": { "total": 10, "touch": 10, "flat_footed": 10 }, "attacks": [melee("mace", 0, "1d8")] }),
    )
}

/// The silencer (0) at (1, 1); its foe cleric (1) at (5, 5), who fails
/// every Will save; the foe's ally (2) at (5, 9), 20 ft east of it; a
/// bystander of the silencer's side (3) at (5, 10), 25 ft from the foe.
fn setting() -> crate::combat::PreparedEncounter {
    prepare_magic(
        arena(12, 14),
        vec![
            ("a", cleric("Drow", &["Silence", "Sound Burst", "Command"], 10), at(1, 1)),
            ("b", cleric("Priest", &["Cure Light Wounds", "Bless"], -30), at(5, 5)),
            ("b", cleric("Acolyte", &["Cure Light Wounds"], -30), at(5, 9)),
            ("a", club_ogre(json!({ "hp_max": 1000 })), at(5, 10)),
        ],
    )
}

fn silence_on_priest<'a, 'p>(
    prep: &'p crate::combat::PreparedEncounter,
    rng: &'a mut SeededRng,
    events: &'a mut Vec<Record>,
) -> Engine<'a, 'p, SeededRng> {
    let mut e = started(prep, rng, Some(events));
    let silence = prep.spell_index("Silence").expect("the spell");
    let r = e.execute_for_test(0, Action::cast(silence, Some(1)));
    assert!(r.ok, "{:?}", r.reason);
    // A one-round casting: it takes effect at the start of the caster's next turn.
    e.start_round();
    e.take_turn(0, &mut script(vec![]));
    e
}

#[test]
fn the_silenced_creature_and_those_within_20_ft_cast_no_verbal_spell() {
    let prep = setting();
    let (mut rng, mut events) = (SeededRng::for_run(5, 1), Vec::new());
    let e = silence_on_priest(&prep, &mut rng, &mut events);
    let n = e.st.zones.len();
    drop(e);
    assert_eq!(n, 1, "the priest failed its save: {events:#?}");
    let (mut rng, mut events) = (SeededRng::for_run(5, 1), Vec::new());
    let e = silence_on_priest(&prep, &mut rng, &mut events);
    let cure = prep.spell_index("Cure Light Wounds").expect("the spell");
    assert_eq!(e.st.can_cast(1, cure, Metamagic::NONE), Err(Reason::Silenced));
    // 20 ft away: inside; 25 ft: outside.
    assert_eq!(e.st.can_cast(2, cure, Metamagic::NONE), Err(Reason::Silenced));
    assert!(e.st.silenced(2));
    assert!(!e.st.silenced(3));
    assert!(!e.st.silenced(0));
}

#[test]
fn the_silence_moves_with_its_creature() {
    let prep = setting();
    let (mut rng, mut events) = (SeededRng::for_run(5, 1), Vec::new());
    let mut e = silence_on_priest(&prep, &mut rng, &mut events);
    // The priest walks 15 ft west: the acolyte is now 35 ft away.
    e.st.relocate(1, at(5, 2));
    assert!(e.st.silenced(1));
    assert!(!e.st.silenced(2));
    let cure = prep.spell_index("Cure Light Wounds").expect("the spell");
    assert!(e.st.can_cast(2, cure, Metamagic::NONE).is_ok());
    // The drow, 20 ft from the priest's new square, is in it now.
    assert!(e.st.silenced(0));
}

#[test]
fn no_sonic_or_language_dependent_spell_gets_into_the_silence() {
    let prep = setting();
    let unheard = |events: &[Record], who: usize| {
        events
            .iter()
            .filter(
                |r| matches!(&r.event, Event::Spell { who: w, what: SpellEvent::Unheard, .. } if *w == who),
            )
            .count()
    };
    let (mut rng, mut events) = (SeededRng::for_run(5, 1), Vec::new());
    let mut e = silence_on_priest(&prep, &mut rng, &mut events);
    // The drow casts from outside, 30 ft from the priest.
    e.st.relocate(0, at(0, 8));
    assert!(!e.st.silenced(0));
    e.start_round();
    let command = prep.spell_index("Command").expect("the spell");
    let r = e.execute_for_test(0, Action::cast(command, Some(1)));
    assert!(r.ok, "{:?}", r.reason);
    e.start_round();
    let mut burst = Action::cast(prep.spell_index("Sound Burst").expect("the spell"), None);
    burst.destination = Some(at(5, 7));
    let r = e.execute_for_test(0, burst);
    assert!(r.ok, "{:?}", r.reason);
    let hp = (e.st.hp(1), e.st.hp(2));
    drop(e);
    assert_eq!(unheard(&events, 1), 2, "the command and the burst on the priest");
    assert_eq!(unheard(&events, 2), 1, "the burst on the acolyte 20 ft from it");
    assert_eq!(hp, (1000, 1000));
}

#[test]
fn a_caster_silences_a_foe_caster_in_reach_and_not_a_fighter() {
    let wizard = caster(
        "Wizard",
        &["Fireball", "Scorching Ray", "Magic Missile"],
        json!({ "spell_list": "wizard", "level": 7, "hp_max": 40, "casting_ability": "int",
                "abilities": { "str_score": 10, "dex_score": 10, "con_score": 12,
                               "int_score": 16, "wis_score": 10, "cha_score": 10 },
                "saves": { "fort": 2, "ref": 2, "will": 5 } }),
    );
    let drow = || ("a", cleric("Drow", &["Silence"], 10), at(1, 1));
    let prep = prepare_magic(arena(12, 14), vec![drow(), ("b", wizard, at(10, 12))]);
    let silence = prep.spell_index("Silence").expect("the spell");
    let plan = opening_plan(&prep, 9);
    assert!(plan.iter().any(|a| a.spell == Some(silence) && a.target == Some(1)), "{plan:?}");
    // Against an ogre: nothing to silence.
    let prep = prepare_magic(arena(12, 14), vec![drow(), ("b", club_ogre(json!({})), at(8, 12))]);
    let plan = opening_plan(&prep, 9);
    assert!(plan.iter().all(|a| a.spell != Some(silence)), "{plan:?}");
}
