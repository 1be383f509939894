//! Dispel Magic's targeted use (`spells::dispel`, `policy::dispel`; CRB
//! "Dispel Magic"): one dispel check, d20 + caster level (at most 10),
//! against 11 + each spell's caster level in turn; on a lasting area
//! ("one spell affecting an area") the area ends whole and its bonds let
//! go; a spell of the dispeller's own ends without fail; the default
//! policy dispels a foe's area that holds its friends.

use serde_json::json;

use super::support::*;
use crate::combat::action::{Action, Reason};
use crate::combat::decide::Policy;
use crate::combat::engine::Engine;
use crate::combat::event::{Event, Record, SpellEvent};
use crate::combat::policy::DefaultPolicy;
use crate::map::Pos;
use crate::rng::SeededRng;

/// The abjurer (0, caster level 7) at (1, 1); the weaver (1, caster level
/// 5) far to the south-east; two ogres of the abjurer's side (2, 3) on
/// (5, 5) and (5, 6), where the web goes.
fn setting(abjurer_spells: &[&str]) -> crate::combat::PreparedEncounter {
    prepare_magic(
        arena(12, 14),
        vec![
            (
                "a",
                caster(
                    "Abjurer",
                    abjurer_spells,
                    json!({ "spell_list": "wizard", "level": 7, "hp_max": 500 }),
                ),
                at(1, 1),
            ),
            ("b", caster("Weaver", &["Web"], json!({ "spell_list": "wizard", "hp_max": 500 })), at(11, 13)),
            ("a", club_ogre(json!({ "hp_max": 500 })), at(5, 5)),
            ("a", club_ogre(json!({ "hp_max": 500 })), at(5, 6)),
        ],
    )
}

fn cast_at(prep: &crate::combat::PreparedEncounter, spell: &str, p: Pos) -> Action {
    let mut a = Action::cast(prep.spell_index(spell).expect("the spell"), None);
    a.destination = Some(p);
    a
}

/// The engine after `weaver` webbed the ogres' squares.
fn webbed<'a, 'p>(
    prep: &'p crate::combat::PreparedEncounter,
    weaver: usize,
    rng: &'a mut SeededRng,
    events: &'a mut Vec<Record>,
) -> Engine<'a, 'p, SeededRng> {
    let mut e = started(prep, rng, Some(events));
    let r = e.execute_for_test(weaver, cast_at(prep, "Web", at(5, 5)));
    assert!(r.ok, "{:?}", r.reason);
    assert_eq!(e.st.zones.len(), 1);
    e.start_round();
    e
}

/// The dispel checks of `events`: (d20, bonus, dc, dispelled).
fn checks(events: &[Record]) -> Vec<(i32, i32, i32, bool)> {
    events
        .iter()
        .filter_map(|r| match r.event {
            Event::Spell { what: SpellEvent::Dispel { d20, bonus, dc, dispelled }, .. } => {
                Some((d20, bonus, dc, dispelled))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn an_area_dispel_ends_the_web_on_d20_plus_caster_level_against_eleven_plus_its_own() {
    let prep = setting(&["Dispel Magic"]);
    let web = prep.spell_index("Web").expect("the spell");
    let (mut ended, runs) = (0u32, 400u64);
    for seed in 0..runs {
        let (mut rng, mut events) = (SeededRng::for_run(81, seed), Vec::new());
        let mut e = webbed(&prep, 1, &mut rng, &mut events);
        let r = e.execute_for_test(0, cast_at(&prep, "Dispel Magic", at(5, 6)));
        assert!(r.ok, "{:?}", r.reason);
        let zones = e.st.zones.len();
        let held = [2, 3].iter().filter(|&&t| e.st.in_area_of(t, web)).count();
        drop(e);
        let c = checks(&events);
        assert_eq!(c.len(), 1, "seed {seed}: one check for the one area");
        let (d20, bonus, dc, dispelled) = c[0];
        assert_eq!((bonus, dc), (7, 16), "caster level 7 against 11 + 5");
        assert_eq!(dispelled, d20 + bonus >= dc, "seed {seed}");
        assert_eq!(zones, usize::from(!dispelled), "seed {seed}: the web ends whole on a success");
        if dispelled {
            ended += 1;
            assert_eq!(held, 0);
            assert!(
                events.iter().any(|r| matches!(r.event, Event::Spell { what: SpellEvent::ZoneEnds, .. })),
                "seed {seed}"
            );
        }
    }
    // 9 or better on the d20: 12 chances in 20.
    let (n, p) = (runs as f64, 0.6);
    let sigma = (n * p * (1.0 - p)).sqrt();
    assert!((f64::from(ended) - n * p).abs() < 5.0 * sigma, "{ended} of {runs}");
}

#[test]
fn a_web_of_the_dispeller_s_own_ends_without_fail() {
    let prep = setting(&["Dispel Magic", "Web"]);
    for seed in 0..40 {
        let (mut rng, mut events) = (SeededRng::for_run(82, seed), Vec::new());
        let mut e = webbed(&prep, 0, &mut rng, &mut events);
        let r = e.execute_for_test(0, cast_at(&prep, "Dispel Magic", at(5, 5)));
        assert!(r.ok, "{:?}", r.reason);
        assert!(e.st.zones.is_empty(), "seed {seed}");
        drop(e);
        assert!(checks(&events).iter().all(|c| c.3), "seed {seed}");
    }
}

#[test]
fn an_area_dispel_needs_an_area_in_range_and_in_line_of_effect() {
    let prep = setting(&["Dispel Magic"]);
    let (mut rng, mut events) = (SeededRng::for_run(83, 0), Vec::new());
    let e = webbed(&prep, 1, &mut rng, &mut events);
    let dispel = prep.spell_index("Dispel Magic").expect("the spell");
    let cast = |p: Pos| {
        let mut a = Action::cast(dispel, None);
        a.destination = Some(p);
        e.st.check_cast_targets(&e.st.casting(0, &a).expect("castable"))
    };
    assert_eq!(cast(at(5, 5)), Ok(()));
    // No area there.
    assert_eq!(cast(at(0, 13)), Err(Reason::MissingTarget));
    // Off the map.
    assert_eq!(cast(at(40, 40)), Err(Reason::InvalidDestination));
}

#[test]
fn a_targeted_dispel_on_a_creature_compares_one_d20_with_each_spell_in_turn() {
    // The weaver wears two spells of its own caster level; the abjurer,
    // capped at 3 by a weak dispel here (caster level 3), needs 13 on the
    // d20 against both: a failure names both spells with the same d20.
    let prep = prepare_magic(
        arena(12, 14),
        vec![
            (
                "a",
                caster("Abjurer", &["Dispel Magic"], json!({ "spell_list": "wizard", "level": 5 })),
                at(1, 1),
            ),
            (
                "b",
                caster("Warded", &["Shield", "Mage Armor"], json!({ "spell_list": "wizard", "hp_max": 500 })),
                at(6, 6),
            ),
        ],
    );
    let dispel = prep.spell_index("Dispel Magic").expect("the spell");
    let mut twice = 0;
    for seed in 0..60 {
        let (mut rng, mut events) = (SeededRng::for_run(84, seed), Vec::new());
        let mut e = started(&prep, &mut rng, Some(&mut events));
        for spell in ["Shield", "Mage Armor"] {
            let r = e.execute_for_test(1, Action::cast(prep.spell_index(spell).expect("the spell"), Some(1)));
            assert!(r.ok, "{:?}", r.reason);
        }
        e.start_round();
        let r = e.execute_for_test(0, Action::cast(dispel, Some(1)));
        assert!(r.ok, "{:?}", r.reason);
        drop(e);
        let c = checks(&events);
        assert!(!c.is_empty() && c.len() <= 2, "seed {seed}: {c:?}");
        assert!(c.iter().all(|x| x.0 == c[0].0), "seed {seed}: one d20 for every spell: {c:?}");
        assert!(c.iter().all(|x| x.3 == (x.0 + x.1 >= x.2)), "seed {seed}");
        if c.len() == 2 {
            twice += 1;
            assert!(!c[0].3, "the second spell is weighed only after a failure");
        }
    }
    assert!(twice > 10, "failures against the first spell: {twice}");
}

/// What the default policy has the abjurer do, the web cast by `weaver`.
fn abjurer_plan(prep: &crate::combat::PreparedEncounter, weaver: usize, seed: u64) -> Vec<Action> {
    let (mut rng, mut events) = (SeededRng::for_run(85, seed), Vec::new());
    let e = webbed(prep, weaver, &mut rng, &mut events);
    let mut out = Vec::new();
    DefaultPolicy.plan(&e.st, 0, &mut out);
    out
}

#[test]
fn the_default_policy_dispels_a_foe_s_web_holding_two_friends() {
    let prep = setting(&["Dispel Magic"]);
    let dispel = prep.spell_index("Dispel Magic").expect("the spell");
    for seed in 0..20 {
        let plan = abjurer_plan(&prep, 1, seed);
        let cast = plan.iter().find(|a| a.spell == Some(dispel));
        let p = cast.and_then(|a| a.destination);
        assert!(
            matches!(p, Some(q) if q == at(5, 5) || q == at(5, 6)),
            "seed {seed}: it should dispel the web on its friends: {plan:?}"
        );
    }
}

#[test]
fn the_default_policy_leaves_a_web_that_holds_only_foes() {
    // The same web, cast by the weaver on the abjurer's side's foes: the
    // ogres now stand on the weaver's side.
    let prep = prepare_magic(
        arena(12, 14),
        vec![
            (
                "a",
                caster("Abjurer", &["Dispel Magic"], json!({ "spell_list": "wizard", "level": 7 })),
                at(1, 1),
            ),
            ("a", caster("Weaver", &["Web"], json!({ "spell_list": "wizard", "hp_max": 500 })), at(11, 13)),
            ("b", club_ogre(json!({ "hp_max": 500 })), at(5, 5)),
            ("b", club_ogre(json!({ "hp_max": 500 })), at(5, 6)),
        ],
    );
    let dispel = prep.spell_index("Dispel Magic").expect("the spell");
    for seed in 0..10 {
        let plan = abjurer_plan(&prep, 1, seed);
        assert!(plan.iter().all(|a| a.spell != Some(dispel)), "seed {seed}: {plan:?}");
    }
}

/// The abjurer (0, caster level 7, Dispel Magic), a foe cleric (1,
/// caster level 5) who knows Hold Person, and the abjurer's ogre (2); the
/// engine after the cleric's Hold Person held the ogre (`None` when the
/// ogre saved).
fn held<'a, 'p>(
    prep: &'p crate::combat::PreparedEncounter,
    rng: &'a mut SeededRng,
) -> Option<Engine<'a, 'p, SeededRng>> {
    let mut e = started(prep, rng, None);
    let hold = prep.spell_index("Hold Person").expect("the spell");
    assert!(e.execute_for_test(1, Action::cast(hold, Some(2))).ok);
    e.start_round();
    e.st.flags(2).has(crate::effects::Flags::CANT_ACT).then_some(e)
}

fn hold_setting() -> crate::combat::PreparedEncounter {
    prepare_magic(
        arena(12, 14),
        vec![
            (
                "a",
                caster("Abjurer", &["Dispel Magic"], json!({ "spell_list": "wizard", "level": 7 })),
                at(1, 1),
            ),
            (
                "b",
                caster("Priest", &["Hold Person", "Bane"], json!({ "spell_list": "cleric", "hp_max": 500 })),
                at(11, 13),
            ),
            (
                "a",
                creature(
                    "Guard",
                    json!({ "hp_max": 60, "creature_type": "humanoid", "saves": { "fort": 2, "ref": 0, "will": -5 } }),
                ),
                at(5, 5),
            ),
        ],
    )
}

#[test]
fn the_odds_of_a_targeted_dispel_follow_one_d20_down_the_spells() {
    // Hold Person at caster level 5 on the guard (DC 16) and nothing else:
    // caster level 7 needs 9 on the d20, 12 in 20; caster level 3 needs 13.
    let prep = hold_setting();
    for seed in 0..20 {
        let mut rng = SeededRng::for_run(86, seed);
        let Some(e) = held(&prep, &mut rng) else { continue };
        let hold = prep.spell_index("Hold Person").expect("the spell");
        assert_eq!(e.st.dispel_odds(0, 2, 7), vec![(hold, 0.6)]);
        assert_eq!(e.st.dispel_odds(0, 2, 3), vec![(hold, 0.4)]);
        // The priest's dispel on the guard weighs the guard's own side's
        // spells only: none.
        assert!(e.st.dispel_odds(1, 2, 0).is_empty());
        return;
    }
    panic!("the guard never failed its save");
}

#[test]
fn the_default_policy_dispels_the_hold_on_a_friend() {
    let prep = hold_setting();
    let dispel = prep.spell_index("Dispel Magic").expect("the spell");
    let mut seen = 0;
    for seed in 0..30 {
        let mut rng = SeededRng::for_run(87, seed);
        let Some(e) = held(&prep, &mut rng) else { continue };
        seen += 1;
        let mut plan = Vec::new();
        DefaultPolicy.plan(&e.st, 0, &mut plan);
        assert!(
            plan.iter().any(|a| a.spell == Some(dispel) && a.target == Some(2)),
            "seed {seed}: the held guard should be freed: {plan:?}"
        );
    }
    assert!(seen > 5, "held only {seen} times");
}
