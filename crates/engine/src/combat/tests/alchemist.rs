//! The alchemist's mutagen (APG "Mutagen"), rule by rule on the reference
//! alchemist (`data/pcs/alchemist4.json`, a Dexterity mutagen), and the
//! default policy's use of it over many seeds.

use serde_json::json;

use super::monsters::records;
use super::support::*;
use crate::combat::SimOptions;
use crate::combat::abilities::{MUTAGEN_BONUS, MUTAGEN_NATURAL_ARMOR};
use crate::combat::action::{Action, ActionKind, Reason};
use crate::combat::engine::Engine;
use crate::combat::event::{ClassAbilityEvent, Event};
use crate::combat::odds::Swing;
use crate::effects::{Context, SaveKind};
use crate::rng::ScriptedRng;

type E<'a, 'p> = Engine<'a, 'p, ScriptedRng>;

/// The reference alchemist without its extracts (the mutagen's rules and
/// policy, whose tests need no spell library).
fn alchemist() -> crate::model::Combatant {
    let mut c = data_combatant("data/pcs/alchemist4.json");
    c.spells.clear();
    c.prepared.clear();
    c.spell_slots.clear();
    c.casting_ability = None;
    c.spell_list = None;
    c
}

fn save(e: &E<'_, '_>, i: usize, kind: SaveKind) -> i32 {
    e.st.save_bonus(i, kind, &Context::default())
}

/// (bomb attack, normal AC, touch AC, Reflex, Will, Fortitude) of the
/// alchemist (0) against the ogre (1).
fn numbers(e: &E<'_, '_>) -> (i32, i32, i32, i32, i32, i32) {
    let bomb = e.st.situation(0, 0, 1, Swing::default()).attack;
    let ac = e.st.situation(1, 0, 0, Swing::default()).ac;
    let touch = e.st.armor_class(1, 0, true, true, false, false, 0);
    (bomb, ac, touch, save(e, 0, SaveKind::Ref), save(e, 0, SaveKind::Will), save(e, 0, SaveKind::Fort))
}

#[test]
fn a_dexterity_mutagen_gives_two_on_bombs_four_ac_two_reflex_and_costs_one_will_for_forty_minutes() {
    let prep =
        prepare(arena(4, 10), vec![("a", alchemist(), at(1, 1)), ("b", club_ogre(json!({})), at(1, 6))]);
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let before = numbers(&e);
    assert_eq!(e.st.fighters[0].class.pools.mutagen, 1, "one dose a day when the file does not say");
    turn(&mut e, 0, vec![Action::new(ActionKind::Mutagen)]);
    // Dex 14 -> 18 (+2 modifier), Wis 10 -> 8 (-1), +2 natural armor (not against touch).
    let after = numbers(&e);
    assert_eq!((MUTAGEN_BONUS, MUTAGEN_NATURAL_ARMOR), (4, 2));
    assert_eq!(
        after,
        (before.0 + 2, before.1 + 4, before.2 + 2, before.3 + 2, before.4 - 1, before.5),
        "bomb, AC, touch AC, Reflex, Will, Fortitude"
    );
    let effect = e.st.fighters[0].effects.iter().find(|x| &*x.effect.name == "mutagen").expect("drunk");
    assert_eq!(effect.rounds_left, Some(400), "10 minutes a level, 4th level");
    assert_eq!(e.st.fighters[0].class.pools.mutagen, 0);
    // No dose left: refused.
    turn(&mut e, 0, vec![Action::new(ActionKind::Mutagen)]);
    assert_eq!(e.st.last_results(0)[0].reason, Some(Reason::NoAbility));
    assert_eq!(numbers(&e), after);
}

#[test]
fn a_strength_mutagen_adds_two_on_melee_attacks_and_a_constitution_one_two_on_fortitude() {
    for (score, melee_delta, fort_delta) in [("Strength", 2, 0), ("Constitution", 0, 2)] {
        let mut c = alchemist();
        c.features.retain(|f| !f.name().starts_with("Mutagen"));
        c.features.push(crate::model::Feature::Name(format!("Mutagen ({score})")));
        c.resources.insert("mutagen".into(), 2);
        let prep = prepare(arena(4, 10), vec![("a", c, at(1, 1)), ("b", club_ogre(json!({})), at(1, 2))]);
        // A natural 1 on the attack of opportunity the drink provokes next to the ogre.
        let mut b = Bench::new(&[1, 1]);
        let mut e = b.engine(&prep, &SimOptions::default());
        let melee = |e: &E<'_, '_>| e.st.situation(0, 2, 1, Swing::default()).attack;
        let (m, fort) = (melee(&e), save(&e, 0, SaveKind::Fort));
        assert_eq!(e.st.fighters[0].class.pools.mutagen, 2, "resources.mutagen counts");
        turn(&mut e, 0, vec![Action::new(ActionKind::Mutagen)]);
        assert_eq!((melee(&e) - m, save(&e, 0, SaveKind::Fort) - fort), (melee_delta, fort_delta), "{score}");
    }
}

#[test]
fn drinking_a_mutagen_next_to_a_foe_provokes() {
    let prep =
        prepare(arena(4, 10), vec![("a", alchemist(), at(1, 1)), ("b", club_ogre(json!({})), at(1, 2))]);
    let mut b = Bench::new(&[1, 1]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.st.fighters[1].turn.aoo_left = 1;
    turn(&mut e, 0, vec![Action::new(ActionKind::Mutagen)]);
    assert_eq!(e.st.fighters[1].turn.aoo_left, 0, "the ogre's attack of opportunity");
    // A foe that is not next to it: no attack of opportunity.
    let prep =
        prepare(arena(4, 10), vec![("a", alchemist(), at(1, 1)), ("b", club_ogre(json!({})), at(1, 4))]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.st.fighters[1].turn.aoo_left = 1;
    turn(&mut e, 0, vec![Action::new(ActionKind::Mutagen)]);
    assert_eq!(e.st.fighters[1].turn.aoo_left, 1);
}

#[test]
fn a_mutagen_without_its_score_or_with_a_mental_one_is_refused_with_a_clear_message() {
    for written in ["Mutagen", "Mutagen (Wisdom)"] {
        let mut c = alchemist();
        c.features.retain(|f| !f.name().starts_with("Mutagen"));
        c.features.push(crate::model::Feature::Name(written.into()));
        let err = crate::feats::resolve(&c, crate::feats::FeatCatalog::builtin().expect("catalogue"))
            .expect_err(written);
        assert!(err.to_string().contains("Strength, Dexterity or Constitution"), "{written}: {err}");
    }
}

/// The round of each of the alchemist's doses and of its first bomb, per battle.
fn doses_and_first_bomb(prep: &crate::combat::PreparedEncounter, runs: u64) -> Vec<(Vec<u32>, Option<u32>)> {
    records(prep, 17, runs)
        .iter()
        .map(|events| {
            let doses = events
                .iter()
                .filter(|r| {
                    matches!(&r.event, Event::ClassAbility { who: 0, what: ClassAbilityEvent::UsesPower { power, target: 0, .. } } if power == "mutagen (dexterity)")
                })
                .map(|r| r.round)
                .collect();
            let bomb = events.iter().find_map(|r| match &r.event {
                Event::Attack(a) if a.who == 0 && a.weapon == "bomb" => Some(r.round),
                _ => None,
            });
            (doses, bomb)
        })
        .collect()
}

#[test]
fn the_policy_drinks_the_mutagen_once_in_the_first_round_before_its_first_bomb() {
    // The ogre 130 ft away: two double moves before it reaches the alchemist.
    let prep = prepare(
        arena(12, 30),
        vec![("players", alchemist(), at(5, 1)), ("monsters", club_ogre(json!({})), at(5, 27))],
    );
    let runs = doses_and_first_bomb(&prep, 100);
    for (doses, bomb) in &runs {
        assert_eq!(doses, &vec![1], "one dose, in round 1: {runs:?}");
        assert!(bomb.is_none_or(|b| b > 1), "the bomb comes after the drink: {runs:?}");
    }
    assert!(runs.iter().filter(|(_, b)| b.is_some()).count() >= 80, "then it bombs: {runs:?}");
}

#[test]
fn the_policy_does_not_drink_next_to_a_foe_nor_late_in_a_fight() {
    // An ogre adjacent from the start: drinking would provoke.
    let prep = prepare(
        arena(12, 16),
        vec![("players", alchemist(), at(5, 1)), ("monsters", club_ogre(json!({})), at(5, 2))],
    );
    let mut provoked_drinks = 0;
    for events in records(&prep, 18, 100) {
        for (k, r) in events.iter().enumerate() {
            if matches!(&r.event, Event::ClassAbility { who: 0, what: ClassAbilityEvent::UsesPower { .. } }) {
                assert!(r.round <= 2, "early only");
                // A drink is never followed by an attack of opportunity on the alchemist.
                if events[k + 1..]
                    .iter()
                    .take(3)
                    .any(|x| matches!(&x.event, Event::Attack(a) if a.aoo && a.target == 0))
                {
                    provoked_drinks += 1;
                }
            }
        }
    }
    assert_eq!(provoked_drinks, 0);
}

/// The reference alchemist brewing a Constitution mutagen, with `doses` a day.
fn con_alchemist(doses: u16) -> crate::model::Combatant {
    let mut c = alchemist();
    c.features.retain(|f| !f.name().starts_with("Mutagen"));
    c.features.push(crate::model::Feature::Name("Mutagen (Constitution)".into()));
    c.resources.insert("mutagen".into(), doses.into());
    c
}

#[test]
fn a_constitution_mutagen_adds_two_hit_points_a_level_while_it_lasts_and_takes_them_when_it_ends() {
    // Con 14 -> 18: the modifier rises by 2, times 4 Hit Dice = 8 hit points (CRB
    // "Ability Score Bonuses"), on current and maximum hit points alike.
    let prep =
        prepare(arena(4, 10), vec![("a", con_alchemist(2), at(1, 1)), ("b", club_ogre(json!({})), at(1, 6))]);
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    assert_eq!((e.st.hp(0), e.st.hp_max(0)), (35, 35));
    e.st.fighters[0].hp = 30;
    turn(&mut e, 0, vec![Action::new(ActionKind::Mutagen)]);
    assert_eq!((e.st.hp(0), e.st.hp_max(0)), (38, 43), "+8 on both");
    // A second dose ends the first (APG): the hit points are not doubled.
    turn(&mut e, 0, vec![Action::new(ActionKind::Mutagen)]);
    assert_eq!((e.st.hp(0), e.st.hp_max(0)), (38, 43), "one mutagen at a time");
    assert_eq!(e.st.fighters[0].effects.iter().filter(|x| &*x.effect.name == "mutagen").count(), 1);
    // Wears off (its last round): the 8 hit points go from both.
    let k = e.st.fighters[0].effects.iter().position(|x| &*x.effect.name == "mutagen").unwrap();
    e.st.fighters[0].effects[k].rounds_left = Some(1);
    e.tick_effects(0);
    assert_eq!((e.st.hp(0), e.st.hp_max(0)), (30, 35));
}

#[test]
fn the_end_of_a_constitution_mutagen_can_leave_its_drinker_dying_or_dead() {
    let prep =
        prepare(arena(4, 10), vec![("a", con_alchemist(1), at(1, 1)), ("b", club_ogre(json!({})), at(1, 6))]);
    // (hit points when it ends, after, dead): at 5 it falls to -3, dying; at -6 to -14 = -Con 14, dead.
    for (at_end, after, dead) in [(5, -3, false), (-6, -14, true)] {
        let mut b = Bench::new(&[]);
        let mut e = b.engine(&prep, &SimOptions::default());
        turn(&mut e, 0, vec![Action::new(ActionKind::Mutagen)]);
        e.st.fighters[0].hp = at_end;
        let k = e.st.fighters[0].effects.iter().position(|x| &*x.effect.name == "mutagen").unwrap();
        e.remove_effect_at(0, k, crate::combat::event::EffectEnd::Ends);
        assert_eq!((e.st.hp(0), e.st.fighters[0].dead), (after, dead), "at {at_end}");
    }
}

#[test]
fn a_constitution_mutagen_carried_out_of_a_battle_keeps_its_hit_points_until_its_minutes_run_out() {
    let prep =
        prepare(arena(4, 10), vec![("a", con_alchemist(1), at(1, 1)), ("b", club_ogre(json!({})), at(1, 6))]);
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::new(ActionKind::Mutagen)]);
    e.st.fighters[0].hp = 20;
    let mut carried = e.st.carry_out(0);
    drop(e);
    assert_eq!(carried.hp, 20);
    assert_eq!(carried.hp_cap(&prep.fighters[0]), 43, "healing between battles fills the 8 too");
    // The next battle: the same maximum, no second helping of hit points.
    let options = SimOptions::default();
    let mut rng = ScriptedRng::new(vec![]);
    let start = [Some(carried.clone()), None];
    let next = Engine::carried_in(&prep, &options, &mut rng, None, &start);
    assert_eq!((next.st.hp(0), next.st.hp_max(0)), (20, 43));
    drop(next);
    // 40 minutes (400 rounds) after the drink it ends between battles: 8 hit points go.
    let left = carried.effects[0].rounds.expect("timed");
    carried.pass(left - 1);
    assert_eq!(carried.hp, 20);
    carried.pass(1);
    assert!(carried.effects.is_empty());
    assert_eq!((carried.hp, carried.hp_cap(&prep.fighters[0])), (12, 35));
}
