//! Globe of Invulnerability (`spells::globe`, `policy::globe`; CRB "Globe
//! of Invulnerability"): an immobile 10-ft sphere around the caster that
//! spells of 4th level or lower cannot get into: they fail on a creature
//! inside, their areas leave it out, a spell of 5th level or higher and a
//! heightened one of 5th go through, an area already in effect is not
//! affected. The default policy raises it when the foes' spells it would
//! stop outweigh the caster's own best this round.

use serde_json::json;

use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::Action;
use crate::combat::decide::Policy;
use crate::combat::engine::Engine;
use crate::combat::event::{Event, Record, SpellEvent};
use crate::combat::spells::{Cast, Metamagic};
use crate::rng::SeededRng;

const GLOBE: &str = "Globe of Invulnerability";

/// A wizard of `level` who knows `spells`, AC 10, many hit points.
fn wizard(name: &str, level: u32, spells: &[&str]) -> crate::model::Combatant {
    caster(
        name,
        spells,
        json!({ "spell_list": "wizard", "level": level, "hp_max": 1000,
                "abilities": { "str_score": 10, "dex_score": 10, "con_score": 12,
                               "int_score": 16, "wis_score": 10, "cha_score": 10 },
                "casting_ability": "int",
                "ac": { "total": 10, "touch": 10, "flat_footed": 10 }, "attacks": [melee("dagger", 0, "1d4")] }),
    )
}

/// The globe's caster (0) at (5, 5), a foe mage (1) 20 ft east of it, and
/// an ally of the caster (2) 15 ft west of it, outside the globe.
fn setting() -> crate::combat::PreparedEncounter {
    prepare_magic(
        arena(11, 11),
        vec![
            ("a", wizard("Lich", 11, &[GLOBE]), at(5, 5)),
            (
                "b",
                wizard("Mage", 11, &["Magic Missile", "Fireball", "Cone of Cold", "Stinking Cloud"]),
                at(5, 9),
            ),
            ("a", club_ogre(json!({ "hp_max": 1000 })), at(5, 2)),
        ],
    )
}

fn cast(prep: &crate::combat::PreparedEncounter, spell: &str, target: Option<usize>) -> Action {
    Action::cast(prep.spell_index(spell).expect("the spell"), target)
}

/// The caster raises its globe (`globe`: first) and the mage casts `then`.
fn play(
    prep: &crate::combat::PreparedEncounter,
    globe_first: bool,
    then: Vec<Action>,
) -> (Vec<Record>, Vec<i32>) {
    let mut rng = SeededRng::for_run(97, 0);
    let mut events = Vec::new();
    let mut e = started(prep, &mut rng, Some(&mut events));
    if globe_first {
        let r = e.execute_for_test(0, cast(prep, GLOBE, None));
        assert!(r.ok, "{:?}", r.reason);
    }
    for a in then {
        let r = e.execute_for_test(1, a);
        assert!(r.ok, "{:?}", r.reason);
        e.start_round();
    }
    let hp = (0..3).map(|k| e.st.hp(k)).collect();
    drop(e);
    (events, hp)
}

fn kept_out(events: &[Record], who: usize) -> usize {
    events
        .iter()
        .filter(|r| matches!(&r.event, Event::Spell { who: w, what: SpellEvent::KeptOut, .. } if *w == who))
        .count()
}

#[test]
fn a_spell_of_4th_level_or_lower_fails_on_the_creature_inside_and_a_5th_level_one_does_not() {
    let prep = setting();
    let (events, hp) = play(&prep, true, vec![cast(&prep, "Magic Missile", Some(0))]);
    assert_eq!(kept_out(&events, 0), 1);
    assert_eq!(hp[0], 1000, "no missile gets in");
    // Without the globe the missiles strike.
    let (events, hp) = play(&prep, false, vec![cast(&prep, "Magic Missile", Some(0))]);
    assert_eq!(kept_out(&events, 0), 0);
    assert!(hp[0] < 1000);
    // Cone of Cold (5th level) goes through: the cone from the mage covers the caster.
    let mut cone = cast(&prep, "Cone of Cold", None);
    cone.destination = Some(at(5, 5));
    let (events, hp) = play(&prep, true, vec![cone]);
    assert_eq!(kept_out(&events, 0), 0);
    assert!(hp[0] < 1000, "{events:?}");
}

#[test]
fn an_area_leaves_the_globe_out_and_takes_those_outside() {
    let prep = setting();
    // A fireball at (5, 4): the caster (5 ft away, inside its globe) and
    // the ogre (10 ft away, outside) are both in the burst.
    let mut fireball = cast(&prep, "Fireball", None);
    fireball.destination = Some(at(5, 4));
    let (events, hp) = play(&prep, true, vec![fireball]);
    assert_eq!(kept_out(&events, 0), 1);
    assert_eq!(hp[0], 1000);
    assert!(hp[2] < 1000, "the ogre outside burns");
    let (_, hp) = play(&prep, false, vec![fireball]);
    assert!(hp[0] < 1000);
}

#[test]
fn an_area_already_in_effect_when_the_globe_rises_is_not_affected() {
    let prep = setting();
    let mut rng = SeededRng::for_run(97, 1);
    let mut e = started(&prep, &mut rng, None);
    // The first cloud away from the caster (a nauseated caster casts nothing).
    let mut cloud = cast(&prep, "Stinking Cloud", None);
    cloud.destination = Some(at(8, 1));
    let r = e.execute_for_test(1, cloud);
    assert!(r.ok, "{:?}", r.reason);
    assert!(e.execute_for_test(0, cast(&prep, GLOBE, None)).ok);
    e.start_round();
    cloud.destination = Some(at(5, 5));
    let r = e.execute_for_test(1, cloud);
    assert!(r.ok, "{:?}", r.reason);
    // Zones in the order they were opened: the first cloud, the globe, the second cloud.
    assert_eq!(e.st.zones.len(), 3);
    assert!(!e.st.globe_excludes(0, 3, Some(0)), "the first cloud was there before the globe");
    assert!(!e.st.globe_excludes(0, 3, Some(1)), "the globe does not keep itself out");
    assert!(e.st.globe_excludes(0, 3, Some(2)), "the second is kept out");
    assert!(e.st.globe_excludes(0, 4, None));
    assert!(!e.st.globe_excludes(0, 5, None));
    assert!(!e.st.globe_excludes(2, 1, None), "the ogre stands outside");
}

#[test]
fn heighten_raises_the_level_the_globe_sees_and_other_metamagic_does_not() {
    let prep = setting();
    let mut rng = SeededRng::for_run(97, 2);
    let e = Engine::new(&prep, &SimOptions::default(), &mut rng, None);
    let spell = prep.spell_index("Fireball").expect("the spell");
    let at_slot = |slot: u8, metamagic: Metamagic| Cast {
        caster: 1,
        spell,
        slot,
        metamagic,
        target: None,
        point: None,
        option: 0,
        dc: 15,
        cl: 11,
        weapon: None,
        extract: false,
    };
    assert_eq!(e.st.cast_level(&at_slot(3, Metamagic::NONE)), 3);
    // Heightened by one level (slot 4): a 4th-level spell.
    assert_eq!(e.st.cast_level(&at_slot(4, Metamagic::HEIGHTEN)), 4);
    // Empowered (slot 5) and maximized (slot 6): still 3rd level.
    assert_eq!(e.st.cast_level(&at_slot(5, Metamagic::EMPOWER)), 3);
    assert_eq!(e.st.cast_level(&at_slot(6, Metamagic::MAXIMIZE)), 3);
    // Without a slot (a spell-like ability, an item): its level for the caster.
    assert_eq!(e.st.cast_level(&at_slot(0, Metamagic::NONE)), 3);
}

/// A lich-like wizard (0) who knows the globe and Cone of Cold, facing `foes` 40 ft away.
fn facing(foes: Vec<crate::model::Combatant>) -> crate::combat::PreparedEncounter {
    let mut placed = vec![("a", wizard("Lich", 11, &[GLOBE, "Cone of Cold"]), at(5, 1))];
    for (k, f) in foes.into_iter().enumerate() {
        placed.push(("b", f, at(2 + 2 * k as i32, 9)));
    }
    prepare_magic(arena(11, 11), placed)
}

#[test]
fn the_caster_raises_its_globe_against_casters_and_not_against_fighters() {
    let mages = || {
        (0..3)
            .map(|k| wizard(&format!("Mage{k}"), 7, &["Magic Missile", "Scorching Ray", "Fireball"]))
            .collect::<Vec<_>>()
    };
    let prep = facing(mages());
    let globe = prep.spell_index(GLOBE).expect("the spell");
    let plan = opening_plan(&prep, 5);
    assert!(plan.iter().any(|a| a.spell == Some(globe)), "{plan:?}");
    let ogres = (0..3).map(|_| club_ogre(json!({}))).collect();
    let plan = opening_plan(&facing(ogres), 5);
    assert!(plan.iter().all(|a| a.spell != Some(globe)), "{plan:?}");
}

#[test]
fn a_foe_caster_throws_no_spell_the_globe_stops_at_the_creature_inside() {
    let prep = setting();
    let mut rng = SeededRng::for_run(97, 3);
    let mut e = started(&prep, &mut rng, None);
    assert!(e.execute_for_test(0, cast(&prep, GLOBE, None)).ok);
    let mut out = Vec::new();
    crate::combat::policy::DefaultPolicy.plan(&e.st, 1, &mut out);
    let stopped = ["Magic Missile", "Fireball", "Stinking Cloud"].map(|s| prep.spell_index(s));
    for a in &out {
        let at_caster =
            a.target == Some(0) || a.destination.is_some_and(|p| crate::grid::distance_ft(p, at(5, 5)) <= 10);
        assert!(!(stopped.contains(&a.spell) && at_caster), "{out:?}");
    }
}

/// The plan of a caster (0) who raised its globe on (5, 5) and stands at
/// its edge on (5, 7), an ogre (1) inside the globe beside it on (5, 6):
/// every square a 5-foot step takes out of the ogre's reach, column 8,
/// lies outside the globe. Two foe mages (2, 3), 50 ft east and more,
/// know `foe_spells`; the caster's Fireball is for them.
fn edge_plan(foe_spells: &[&str]) -> Vec<Action> {
    let prep = prepare_magic(
        arena(11, 20),
        vec![
            ("a", wizard("Lich", 11, &[GLOBE, "Fireball"]), at(5, 5)),
            ("b", club_ogre(json!({})), at(5, 3)),
            ("b", wizard("Mage", 11, foe_spells), at(5, 17)),
            ("b", wizard("Apprentice", 11, foe_spells), at(5, 18)),
        ],
    );
    let mut rng = SeededRng::for_run(61, 0);
    let mut e = started(&prep, &mut rng, None);
    assert!(e.execute_for_test(0, cast(&prep, GLOBE, None)).ok);
    e.start_round();
    e.st.relocate(0, at(5, 7));
    e.st.relocate(1, at(5, 6));
    assert!(e.st.is_threatened(0));
    let mut plan = Vec::new();
    crate::combat::policy::DefaultPolicy.plan(&e.st, 0, &mut plan);
    plan
}

#[test]
fn a_caster_does_not_step_out_of_its_globe_while_a_foe_has_spells_it_stops() {
    let fireball =
        |plan: &[Action]| plan.iter().any(|a| a.kind == crate::combat::action::ActionKind::CastSpell);
    let plan = edge_plan(&["Magic Missile", "Fireball"]);
    assert!(fireball(&plan), "{plan:?}");
    assert!(
        plan.iter().all(|a| a.kind != crate::combat::action::ActionKind::FiveFootStep),
        "it should stay inside and cast: {plan:?}"
    );
    // With nothing the globe stops (foes with 5th-level spells only), the
    // globe is worth nothing and the step out of reach comes back.
    let plan = edge_plan(&["Cone of Cold"]);
    assert!(fireball(&plan), "{plan:?}");
    assert!(
        plan.iter().any(|a| a.kind == crate::combat::action::ActionKind::FiveFootStep
            && a.destination.is_some_and(|q| q.col == 8)),
        "it should step out of the ogre's reach: {plan:?}"
    );
}
