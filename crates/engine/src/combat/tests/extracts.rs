//! An alchemist's extracts (APG "Alchemy"), rule by rule on the reference
//! alchemist (`data/pcs/alchemist4.json`), and the default policy's use of
//! them over many seeds: drunk as a standard action that provokes, no
//! concentration, only ever on the drinker.

use serde_json::json;

use super::monsters::records;
use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind, Reason};
use crate::combat::decide::Policy;
use crate::combat::engine::Engine;
use crate::combat::event::{Event, Record};
use crate::combat::odds::Swing;
use crate::combat::prepared::{PrepareError, PreparedEncounter};
use crate::rng::ScriptedRng;

type E<'a, 'p> = Engine<'a, 'p, ScriptedRng>;

fn alchemist() -> crate::model::Combatant {
    data_combatant("data/pcs/alchemist4.json")
}

fn fighter() -> crate::model::Combatant {
    creature(
        "Fighter",
        json!({ "hp_max": 40, "level": 4, "bab": 4,
                "ac": { "total": 18, "touch": 11, "flat_footed": 17 },
                "attacks": [melee("longsword", 8, "1d8+4")] }),
    )
}

/// The encounter index of the spell called `name`.
fn spell(prep: &PreparedEncounter, name: &str) -> u16 {
    prep.spells.iter().position(|p| p.spell.name == name).unwrap_or_else(|| panic!("{name} compiled")) as u16
}

/// The alchemist's AC against the ogre's club.
fn ac(e: &E<'_, '_>) -> i32 {
    e.st.situation(1, 0, 0, Swing::default()).ac
}

#[test]
fn the_reference_alchemist_prepares_its_extracts_of_the_day_at_caster_level_four() {
    // APG Table 2-1, 4th level: 3 extracts of 1st level and 1 of 2nd; Int 19
    // (+4) adds one bonus extract of each (CRB Table 1-3), so {1: 4, 2: 2}.
    let prep = prepare_magic(
        arena(4, 10),
        vec![("a", alchemist(), at(1, 1)), ("b", club_ogre(json!({})), at(1, 6))],
    );
    let caster = prep.fighters[0].caster.as_deref().expect("an alchemist drinks extracts");
    assert!(caster.extracts);
    assert_eq!(caster.cl, 4, "the alchemist's level is the caster level");
    assert_eq!(&caster.slots[..3], &[0, 4, 2]);
    let levels: Vec<(String, u8, i32)> = caster
        .known
        .iter()
        .map(|k| (prep.spells[usize::from(k.spell)].spell.name.clone(), k.level, k.dc))
        .collect();
    // DC 10 + extract level + Int 4 (APG "Alchemy").
    assert_eq!(
        levels,
        [
            ("Shield".to_string(), 1, 15),
            ("Cure Light Wounds".to_string(), 1, 15),
            ("Cat's Grace".to_string(), 2, 16),
            ("Cure Moderate Wounds".to_string(), 2, 16)
        ]
    );
    // The ogre casts nothing: its spells are not extracts.
    assert!(prep.fighters[1].caster.is_none());
}

#[test]
fn an_extract_is_a_standard_action_that_provokes_and_needs_no_concentration() {
    let prep = prepare_magic(
        arena(4, 10),
        vec![("a", alchemist(), at(1, 1)), ("b", club_ogre(json!({})), at(1, 2))],
    );
    // The ogre's attack of opportunity hits (19) for 5 + 4.
    let mut b = Bench::new(&[19, 5, 10, 10, 10]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let shield = spell(&prep, "Shield");
    assert_eq!(e.st.cast_slot(0, &Action::cast(shield, Some(0))), crate::combat::action::Slot::Standard);
    // Enlarge Person takes a round to cast, its extract a standard action to drink.
    e.st.fighters[1].turn.aoo_left = 1;
    let before = ac(&e);
    turn(&mut e, 0, vec![Action::cast(shield, None)]);
    assert!(e.st.last_results(0)[0].ok, "{:?}", e.st.last_results(0));
    assert_eq!(e.st.fighters[1].turn.aoo_left, 0, "drinking provokes");
    assert_eq!(e.st.hp(0), 35 - 9, "the blow landed");
    assert_eq!(ac(&e), before + 4, "the shield works all the same: no concentration check");
    assert_eq!(e.st.fighters[0].casting.slots[1], 3, "one 1st-level extract drunk");
    drop(e);
    assert!(!b.events.iter().any(|r| matches!(r.event, Event::Concentration { .. })));
    assert!(b.events.iter().any(|r| matches!(
        &r.event,
        Event::Casts { who: 0, spell, target: Some(0), extract: true, .. } if spell == "Shield"
    )));
    assert!(
        b.lines().iter().any(|l| l.contains("drinks an extract of Shield (level 1 extract)")),
        "{:?}",
        b.lines()
    );
    // Drunk away from any foe: no attack of opportunity.
    let prep = prepare_magic(
        arena(4, 10),
        vec![("a", alchemist(), at(1, 1)), ("b", club_ogre(json!({})), at(1, 4))],
    );
    let mut b = Bench::new(&[10, 10]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.st.fighters[1].turn.aoo_left = 1;
    turn(&mut e, 0, vec![Action::cast(shield, None)]);
    assert_eq!(e.st.fighters[1].turn.aoo_left, 1);
}

#[test]
fn an_extract_affects_only_its_drinker_and_is_refused_for_an_ally() {
    let prep = prepare_magic(
        arena(4, 10),
        vec![("a", alchemist(), at(1, 1)), ("a", fighter(), at(1, 2)), ("b", club_ogre(json!({})), at(1, 8))],
    );
    let mut b = Bench::new(&[10, 10, 10]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let grace = spell(&prep, "Cat's Grace");
    // A touch spell of the list on the fighter next to it: refused, nothing spent.
    turn(&mut e, 0, vec![Action::cast(grace, Some(1))]);
    assert_eq!(e.st.last_results(0)[0].reason, Some(Reason::MissingTarget));
    assert_eq!(e.st.fighters[0].casting.slots[2], 2);
    assert!(e.st.fighters[1].effects.is_empty());
    // On itself: +4 Dexterity, +2 on the bomb's ranged touch attack.
    let bomb = |e: &E<'_, '_>| e.st.situation(0, 0, 2, Swing::default()).attack;
    let before = bomb(&e);
    turn(&mut e, 0, vec![Action::cast(grace, Some(0))]);
    assert!(e.st.last_results(0)[0].ok);
    assert_eq!(bomb(&e), before + 2);
    assert_eq!(e.st.fighters[0].casting.slots[2], 1);
    assert!(e.st.fighters[1].effects.is_empty(), "the fighter gets nothing");
}

#[test]
fn a_healing_extract_heals_the_drinker() {
    let prep = prepare_magic(
        arena(4, 10),
        vec![("a", alchemist(), at(1, 1)), ("b", club_ogre(json!({})), at(1, 6))],
    );
    // 1d8 rolls 5: 5 + caster level 4.
    let mut b = Bench::new(&[5, 10, 10]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.st.fighters[0].hp = 10;
    turn(&mut e, 0, vec![Action::cast(spell(&prep, "Cure Light Wounds"), None)]);
    assert!(e.st.last_results(0)[0].ok);
    assert_eq!(e.st.hp(0), 19);
}

#[test]
fn a_spell_that_harms_fills_an_area_or_hinders_cannot_be_an_extract() {
    for (name, why) in [
        ("Burning Hands", "it deals damage"),
        ("Bless", "it fills an area"),
        ("Reduce Person", "it hinders its target"),
        ("Summon Monster I", "it summons creatures"),
    ] {
        let mut c = alchemist();
        c.prepared.clear();
        c.spell_slots.clear();
        c.spell_list = None;
        c.spells = vec!["Shield".into(), name.into()];
        let enc = encounter(arena(4, 10), vec![("a", c, at(1, 1)), ("b", club_ogre(json!({})), at(1, 6))]);
        match PreparedEncounter::new(&enc.with_library(library())) {
            Err(PrepareError::BadSpell { path, message, .. }) => {
                assert_eq!(path, "$.spells[1]", "{name}");
                assert!(
                    message.contains("cannot be an extract") && message.contains(why),
                    "{name}: {message}"
                );
            }
            other => panic!("{name}: {:?}", other.map(|_| ())),
        }
    }
    // Without the Alchemy feature the same file casts Burning Hands as a spell.
    let mut c = alchemist();
    c.features.retain(|f| f.name() != "Alchemy");
    c.prepared.clear();
    c.spell_slots.clear();
    c.spell_list = None;
    c.spells = vec!["Shield".into(), "Burning Hands".into()];
    let enc = encounter(arena(4, 10), vec![("a", c, at(1, 1)), ("b", club_ogre(json!({})), at(1, 6))]);
    let prep = PreparedEncounter::new(&enc.with_library(library())).expect("a wizard's spells");
    assert!(!prep.fighters[0].caster.as_deref().expect("a caster").extracts);
}

/// The default policy's plan for the alchemist (row 0) at the start of its turn.
fn plan(e: &mut E<'_, '_>) -> Vec<Action> {
    assert!(e.begin_turn(0));
    let mut out = Vec::new();
    crate::combat::policy::DefaultPolicy.plan(&e.st, 0, &mut out);
    out
}

#[test]
fn the_policy_drinks_its_best_healing_extract_under_half_its_hit_points_out_of_reach() {
    // A foe 25 ft away; at 10 of 35 hit points (25 missing) cure moderate
    // wounds (2d8 + 4, 13 on average) covers more than cure light wounds.
    let prep = prepare_magic(
        arena(5, 10),
        vec![("a", alchemist(), at(2, 1)), ("b", club_ogre(json!({})), at(2, 6))],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.st.fighters[0].hp = 10;
    let cure = spell(&prep, "Cure Moderate Wounds");
    let p = plan(&mut e);
    assert_eq!(p.len(), 1, "{p:?}");
    assert_eq!((p[0].kind, p[0].spell, p[0].target), (ActionKind::CastSpell, Some(cure), Some(0)));
    // Above half its hit points: no cure.
    e.st.fighters[0].hp = 20;
    assert!(!plan(&mut e).iter().any(|a| a.kind == ActionKind::CastSpell && a.spell == Some(cure)));
    drop(e);
    // Next to the ogre: a 5-foot step out of its reach first, then the drink.
    let prep = prepare_magic(
        arena(5, 10),
        vec![("a", alchemist(), at(2, 2)), ("b", club_ogre(json!({})), at(2, 3))],
    );
    let mut e = b.engine(&prep, &SimOptions::default());
    e.st.fighters[0].hp = 10;
    let p = plan(&mut e);
    assert_eq!(p.len(), 2, "{p:?}");
    assert_eq!(p[0].kind, ActionKind::FiveFootStep);
    let q = p[0].destination.expect("a square");
    assert!(crate::grid::distance_ft(q, at(2, 3)) > 5, "out of the ogre's reach: {q:?}");
    assert_eq!((p[1].kind, p[1].target), (ActionKind::CastSpell, Some(0)));
    drop(e);
    // Cornered (walls around, no square to step to): it does not drink where
    // the ogre threatens it.
    let prep =
        prepare_magic(arena(1, 4), vec![("a", alchemist(), at(1, 1)), ("b", club_ogre(json!({})), at(1, 2))]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.st.fighters[0].hp = 10;
    let p = plan(&mut e);
    assert!(!p.iter().any(|a| a.kind == ActionKind::CastSpell), "{p:?}");
}

/// Every extract the alchemist (row 0) drank in `events`: (round, spell, target).
fn drinks(events: &[Record]) -> Vec<(u32, String, Option<usize>)> {
    events
        .iter()
        .filter_map(|r| match &r.event {
            Event::Casts { who: 0, spell, target, extract, .. } => {
                assert!(extract, "an alchemist's spells are extracts");
                Some((r.round, spell.clone(), *target))
            }
            _ => None,
        })
        .collect()
}

/// How many of the alchemist's drinks an attack of opportunity on it follows.
fn provoked(events: &[Record]) -> usize {
    events
        .iter()
        .enumerate()
        .filter(|(_, r)| matches!(r.event, Event::Casts { who: 0, .. }))
        .filter(|(k, _)| {
            events[k + 1..]
                .iter()
                .take(3)
                .any(|x| matches!(&x.event, Event::Attack(a) if a.aoo && a.target == 0))
        })
        .count()
}

/// The reference alchemist with its bomb and morningstar only (no crossbow
/// to reach a far foe with).
fn bomber_alchemist() -> crate::model::Combatant {
    let mut c = alchemist();
    c.attacks.retain(|a| a.name != "light crossbow");
    c
}

#[test]
fn the_policy_drinks_cats_grace_while_its_bombs_reach_no_foe_and_only_on_itself() {
    // The ogre 170 ft away (a double move of 60 ft a round), a fighter beside
    // the alchemist: the mutagen first, then, the ogre still beyond the
    // bomb's 100 ft, the highest-level buff extract (cat's grace) on the
    // alchemist itself; then bombs.
    let prep = prepare_magic(
        arena(12, 36),
        vec![
            ("players", bomber_alchemist(), at(5, 1)),
            ("players", fighter(), at(6, 1)),
            ("monsters", club_ogre(json!({})), at(5, 35)),
        ],
    );
    let runs = records(&prep, 23, 100);
    let mut grace = 0;
    for events in &runs {
        let d = drinks(events);
        assert!(d.iter().all(|(_, _, t)| *t == Some(0)), "never on the fighter: {d:?}");
        if d.first().is_some_and(|(round, s, _)| *round <= 2 && s == "Cat's Grace") {
            grace += 1;
        }
        assert_eq!(provoked(events), 0);
        // A buff only before its first bomb.
        let bomb = events.iter().find_map(|r| match &r.event {
            Event::Attack(a) if a.who == 0 && a.weapon == "bomb" => Some(r.round),
            _ => None,
        });
        assert!(
            d.iter().all(|(round, s, _)| s.starts_with("Cure") || bomb.is_none_or(|b| *round < b)),
            "{d:?}, first bomb {bomb:?}"
        );
    }
    // When the ogre acts before it in round 2 (about one battle in five), it
    // comes within 100 ft first and the bombs win.
    assert!(grace >= 70, "{grace} of 100");
}

#[test]
fn the_policy_throws_bombs_rather_than_drink_a_buff_when_they_reach() {
    // The ogre 80 ft away: in the bomb's range from the first round. The
    // mutagen in round 1, then bombs: no buff extract.
    let prep = prepare_magic(
        arena(12, 30),
        vec![
            ("players", alchemist(), at(5, 1)),
            ("players", fighter(), at(6, 1)),
            ("monsters", club_ogre(json!({})), at(5, 17)),
        ],
    );
    for events in records(&prep, 25, 100) {
        let d = drinks(&events);
        assert!(d.iter().all(|(_, s, t)| s.starts_with("Cure") && *t == Some(0)), "{d:?}");
    }
}

#[test]
fn the_policy_never_drinks_in_a_threatened_square() {
    // An ogre next to the alchemist from the start, a fighter on its other side.
    let prep = prepare_magic(
        arena(12, 16),
        vec![
            ("players", alchemist(), at(5, 2)),
            ("players", fighter(), at(5, 4)),
            ("monsters", club_ogre(json!({})), at(5, 3)),
        ],
    );
    let mut acted = 0;
    for events in records(&prep, 24, 100) {
        assert_eq!(provoked(&events), 0, "a drink is never followed by an attack of opportunity on it");
        // A step away, then a drink or a shot (`ranged::plan_step_out`; a
        // bomb at the ogre would splash the fighter beyond it).
        let stepped_then_shot = events.windows(2).any(|w| {
            matches!(w[0].event, Event::Step { who: 0, .. })
                && matches!(&w[1].event, Event::Attack(a) if a.who == 0 && !a.aoo)
        });
        acted += usize::from(!drinks(&events).is_empty() || stepped_then_shot);
    }
    // It steps away and drinks or shoots, or fights: not only the latter.
    assert!(acted > 0);
}
