//! The cavalier rule by rule (APG "Cavalier"): challenge and the order of
//! the lion's bonus, tactician lending Outflank, lion's call.

use serde_json::json;

use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind, Reason};
use crate::combat::event::Event;
use crate::combat::odds::Swing;
use crate::effects::{Context, Descriptor, Descriptors, SaveKind};

/// A cavalier 4 (Cha 14) with `features`, two challenges and one tactician.
fn cavalier(features: serde_json::Value) -> crate::model::Combatant {
    creature(
        "Cav",
        json!({ "level": 4, "hp_max": 40, "bab": 4,
                "ac": { "total": 20, "touch": 10, "flat_footed": 20 },
                "abilities": { "str_score": 16, "dex_score": 10, "con_score": 12, "int_score": 10,
                               "wis_score": 10, "cha_score": 14 },
                "features": features, "resources": { "challenge": 2, "tactician": 1 },
                "attacks": [melee("longsword", 8, "1d8+3")] }),
    )
}

fn foe(name: &str, hp: i32) -> crate::model::Combatant {
    creature(name, json!({ "hp_max": hp, "attacks": [melee("claw", 5, "1d6")] }))
}

#[test]
fn a_lion_s_challenge_adds_level_damage_and_two_dodge_ac_against_its_foe_and_costs_two_ac_against_the_others()
{
    let prep = prepare(
        arena(4, 8),
        vec![
            ("a", cavalier(json!(["Challenge", "Order of the Lion"])), at(1, 1)),
            ("b", foe("Foe", 30), at(1, 2)),
            ("b", foe("Other", 30), at(2, 1)),
        ],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let ac =
        |e: &crate::combat::engine::Engine<'_, '_, _>, a: usize| e.st.situation(a, 0, 0, Swing::default()).ac;
    let damage = |e: &crate::combat::engine::Engine<'_, '_, _>, t: usize| {
        let s = e.st.situation(0, 0, t, Swing::default());
        e.st.damage_bonus(0, 0, t, &s, Swing::default())
    };
    assert_eq!((ac(&e, 1), ac(&e, 2), damage(&e, 1), damage(&e, 2)), (20, 20, 0, 0));
    turn(&mut e, 0, vec![Action::at(ActionKind::Challenge, 1)]);
    // Level 4: +4 damage on the foe; lion: +1 + 4/4 = +2 dodge AC against it; −2 AC against the other.
    assert_eq!((ac(&e, 1), ac(&e, 2), damage(&e, 1), damage(&e, 2)), (22, 18, 4, 0));
    assert_eq!(e.st.fighters[0].class.pools.challenge, 1);
    // One challenge at a time.
    turn(&mut e, 0, vec![Action::at(ActionKind::Challenge, 2)]);
    assert_eq!(e.st.last_results(0)[0].reason, Some(Reason::NoAbility));
    // The challenge ends when its foe falls unconscious.
    e.wound(1, 31);
    assert_eq!((ac(&e, 2), e.st.fighters[0].class.challenged), (20, None));
    assert!(b.events.iter().any(|r| matches!(r.event, Event::ChallengeEnds { who: 0, target: 1 })));
    let lines = b.lines();
    assert!(
        lines.iter().any(|l| l.contains("challenges foe (+4 damage, +2 dodge AC against it; 1 left)")),
        "{lines:#?}"
    );
}

#[test]
fn a_challenge_without_the_lion_gives_no_dodge_bonus_and_an_empty_pool_refuses() {
    let mut c = cavalier(json!(["Challenge"]));
    c.resources.insert("challenge".into(), 1);
    let prep = prepare(
        arena(4, 8),
        vec![("a", c, at(1, 1)), ("b", foe("Foe", 30), at(1, 2)), ("b", foe("Other", 30), at(1, 5))],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Challenge, 1)]);
    assert_eq!(e.st.situation(1, 0, 0, Swing::default()).ac, 20);
    e.wound(1, 40);
    turn(&mut e, 0, vec![Action::at(ActionKind::Challenge, 2)]);
    assert_eq!(e.st.last_results(0)[0].reason, Some(Reason::NoAbility), "one use");
}

#[test]
fn outflank_lent_by_tactician_raises_the_flanking_bonus_to_four_for_five_rounds() {
    let prep = prepare(
        arena(4, 16),
        vec![
            ("a", cavalier(json!(["Tactician", "Outflank"])), at(1, 1)),
            ("b", foe("Foe", 30), at(1, 2)),
            ("a", creature("Ally", json!({})), at(1, 3)),
            ("a", creature("Far", json!({})), at(1, 12)),
        ],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let flank =
        |e: &crate::combat::engine::Engine<'_, '_, _>| (e.st.flank_bonus(0, 1), e.st.flank_bonus(2, 1));
    assert_eq!(flank(&e), (2, 2), "the ally lacks Outflank");
    turn(&mut e, 0, vec![Action::new(ActionKind::Tactician)]);
    assert_eq!(flank(&e), (4, 4));
    assert!(!e.st.has_outflank(3), "60 ft away");
    assert_eq!(e.st.fighters[0].class.pools.tactician, 0);
    // 3 + 4/2 = 5 rounds, counted on the cavalier's turns.
    for _ in 0..4 {
        turn(&mut e, 0, vec![]);
    }
    assert_eq!(flank(&e), (4, 4));
    turn(&mut e, 0, vec![]);
    assert_eq!(flank(&e), (2, 2));
    turn(&mut e, 0, vec![Action::new(ActionKind::Tactician)]);
    assert_eq!(e.st.last_results(0)[0].reason, Some(Reason::NoAbility), "once a day at 4th level");
    drop(e);
    assert!(b.events.iter().any(|r| matches!(&r.event, Event::Tactician { allies: 1, rounds: 5, .. })));
}

#[test]
fn tactician_without_a_teamwork_feat_does_nothing() {
    let prep = prepare(
        arena(4, 8),
        vec![("a", cavalier(json!(["Tactician"])), at(1, 1)), ("b", foe("Foe", 30), at(1, 4))],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::new(ActionKind::Tactician)]);
    assert_eq!(e.st.last_results(0)[0].reason, Some(Reason::NoAbility));
}

#[test]
fn lion_s_call_gives_allies_in_60_ft_one_competence_on_attacks_and_charisma_on_fear_saves() {
    let prep = prepare(
        arena(4, 20),
        vec![
            ("a", cavalier(json!(["Lion's Call"])), at(1, 1)),
            ("a", creature("Ally", json!({})), at(1, 12)),
            ("a", creature("Far", json!({})), at(1, 19)),
            ("b", foe("Foe", 30), at(2, 12)),
        ],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let attack = |e: &crate::combat::engine::Engine<'_, '_, _>, a: usize| {
        e.st.situation(a, 0, 3, Swing::default()).attack
    };
    let before = (attack(&e, 1), attack(&e, 2));
    turn(&mut e, 0, vec![Action::new(ActionKind::LionsCall)]);
    assert_eq!((attack(&e, 1), attack(&e, 2)), (before.0 + 1, before.1), "55 ft and 90 ft away");
    let fear = Context { descriptors: Descriptors::of(&[Descriptor::Fear]), ..Context::default() };
    assert_eq!(e.st.save_bonus(1, SaveKind::Will, &fear), 2, "Cha 14");
    assert_eq!(e.st.save_bonus(1, SaveKind::Will, &Context::default()), 0);
    // Cavalier level 4 rounds.
    for _ in 0..4 {
        turn(&mut e, 0, vec![]);
    }
    assert_eq!(attack(&e, 1), before.0);
}

// ---- when the default policy lends Outflank (tactician) ----

/// A cavalier 4 with tactician and Outflank, speed 20 (heavy armor): from
/// 45 ft or more she can neither strike nor charge, a rally turn.
fn slow_cavalier() -> crate::model::Combatant {
    let mut c = cavalier(json!(["Tactician", "Outflank"]));
    c.speed_land_ft = 20;
    c
}

/// A melee ally (hp 30, sword +5), with Outflank of its own when `outflank`.
fn swordsman(name: &str, outflank: bool) -> crate::model::Combatant {
    let features = if outflank { json!(["Outflank"]) } else { json!([]) };
    creature(name, json!({ "hp_max": 30, "features": features, "attacks": [melee("sword", 5, "1d8+2")] }))
}

/// A tough foe that hits softly: fights last long enough to see the flanks.
fn brute() -> crate::model::Combatant {
    creature(
        "Brute",
        json!({ "hp_max": 200, "ac": { "total": 14, "touch": 10, "flat_footed": 14 },
                              "attacks": [melee("claw", 3, "1d4")] }),
    )
}

/// What the default policy has combatant 0 do first.
fn first_choice(prep: &crate::combat::PreparedEncounter) -> Vec<ActionKind> {
    opening_plan(prep, 3).iter().map(|a| a.kind).collect()
}

/// A corridor one square wide, 16 squares long.
fn corridor() -> std::sync::Arc<crate::map::Map> {
    map(&["##################", "#................#", "##################"])
}

#[test]
fn tactician_is_lent_when_two_melee_allies_can_stand_on_opposite_sides_of_a_foe() {
    // The allies 25 ft from her; the brute 50 ft away: each ally reaches a
    // side of it within one move ((5,6) → (5,10), (4,6) → (5,12)).
    let prep = prepare(
        arena(9, 16),
        vec![
            ("a", slow_cavalier(), at(5, 1)),
            ("a", swordsman("Left", false), at(5, 6)),
            ("a", swordsman("Right", false), at(4, 6)),
            ("b", brute(), at(5, 11)),
        ],
    );
    assert_eq!(first_choice(&prep), vec![ActionKind::Tactician, ActionKind::Move]);
}

#[test]
fn tactician_is_kept_in_a_corridor_one_square_wide() {
    // The square behind the brute cannot be reached: nobody can flank it.
    let prep = prepare(
        corridor(),
        vec![
            ("a", slow_cavalier(), at(1, 1)),
            ("a", swordsman("Left", false), at(1, 5)),
            ("a", swordsman("Right", false), at(1, 6)),
            ("b", brute(), at(1, 11)),
        ],
    );
    assert_eq!(first_choice(&prep), vec![ActionKind::Move, ActionKind::Move]);
}

#[test]
fn tactician_is_kept_while_the_allies_are_more_than_a_move_from_every_foe() {
    // (5,3) → (5,13) is 50 ft, more than the allies' 30.
    let prep = prepare(
        arena(9, 16),
        vec![
            ("a", slow_cavalier(), at(5, 1)),
            ("a", swordsman("Left", false), at(5, 3)),
            ("a", swordsman("Right", false), at(4, 3)),
            ("b", brute(), at(5, 14)),
        ],
    );
    assert_eq!(first_choice(&prep), vec![ActionKind::Move, ActionKind::Move]);
}

#[test]
fn an_archer_is_no_flanking_partner_but_an_ally_with_its_own_outflank_is() {
    let with = |partner: crate::model::Combatant| {
        prepare(
            arena(9, 16),
            vec![
                ("a", slow_cavalier(), at(5, 1)),
                ("a", swordsman("Left", false), at(5, 6)),
                ("a", partner, at(4, 6)),
                ("b", brute(), at(5, 11)),
            ],
        )
    };
    let archer = creature("Archer", json!({ "hp_max": 30, "attacks": [ranged("bow", 5, "1d8", 100)] }));
    assert_eq!(first_choice(&with(archer)), vec![ActionKind::Move, ActionKind::Move]);
    assert_eq!(
        first_choice(&with(swordsman("Flanker", true))),
        vec![ActionKind::Tactician, ActionKind::Move]
    );
}

#[test]
fn with_outflank_an_ally_moves_to_the_side_opposite_a_partner_who_has_it() {
    // The partner threatens the brute from the west; the mover, 25 ft away,
    // ends its move east of it ((5,12), on the opposite border), not on the
    // nearest attack square.
    let placed = |mover: crate::model::Combatant| {
        vec![("a", mover, at(2, 8)), ("a", swordsman("Partner", true), at(5, 10)), ("b", brute(), at(5, 11))]
    };
    let plan = |prep: &crate::combat::PreparedEncounter| {
        opening_plan(prep, 3).iter().map(|a| (a.kind, a.destination)).collect::<Vec<_>>()
    };
    let prep = prepare(arena(9, 16), placed(swordsman("Mover", true)));
    let p = plan(&prep);
    assert_eq!(p[0].0, ActionKind::Move);
    let q = p[0].1.expect("a chosen square");
    assert!(crate::combat::odds::opposite_sides(q, at(5, 10), at(5, 11)), "{q:?} does not flank");
    assert_eq!(p[1].0, ActionKind::Attack);
    // Without Outflank the mover flanks too (+2, `policy::flank`): the brute's
    // claw on the way (+3, 1d4) costs less than the flank is worth.
    let prep = prepare(arena(9, 16), placed(swordsman("Mover", false)));
    assert_eq!(plan(&prep)[0], (ActionKind::Move, Some(q)));
}

/// Battles of `prep` (the cavalier is combatant 0) over `runs` seeds: how
/// many saw tactician, and how many saw an attack with the +4 of Outflank.
fn tactician_battles(prep: &crate::combat::PreparedEncounter, runs: u64) -> (usize, usize) {
    let (mut lent, mut outflanked) = (0, 0);
    for run in 0..runs {
        let events = policy_battle(prep, 41, run);
        lent += usize::from(events.iter().any(|r| matches!(r.event, Event::Tactician { who: 0, .. })));
        outflanked += usize::from(events.iter().any(|r| {
            matches!(&r.event, Event::Attack(a) if a.notes.iter().any(|n| matches!(n,
                crate::combat::event::AttackNote::Modifier {
                    source: crate::combat::event::ModSource::Flanking, value: 4 })))
        }));
    }
    (lent, outflanked)
}

#[test]
fn over_many_seeds_the_cavalier_lends_outflank_where_allies_can_flank_and_they_use_it() {
    // She acts first (the allies would otherwise leave her 30 ft first).
    let mut cav = slow_cavalier();
    cav.initiative_mod = 30;
    let prep = prepare(
        arena(9, 16),
        vec![
            ("a", cav, at(5, 1)),
            ("a", swordsman("Left", false), at(5, 6)),
            ("a", swordsman("Right", false), at(4, 6)),
            ("b", brute(), at(5, 11)),
        ],
    );
    let (lent, outflanked) = tactician_battles(&prep, 30);
    assert_eq!(lent, 30, "lent in {lent} of 30 battles");
    // Measured: 15 of 30 (the second ally to close in takes the far side;
    // when the brute comes to them first, both fight from where they stand).
    assert!(outflanked >= 10, "a +4 flank in {outflanked} of 30 battles");
}

#[test]
fn over_many_seeds_the_cavalier_never_lends_outflank_in_a_corridor_one_square_wide() {
    let prep = prepare(
        corridor(),
        vec![
            ("a", slow_cavalier(), at(1, 1)),
            ("a", swordsman("Left", false), at(1, 5)),
            ("a", swordsman("Right", false), at(1, 6)),
            ("b", brute(), at(1, 11)),
        ],
    );
    assert_eq!(tactician_battles(&prep, 30), (0, 0));
}

// ---- when the default policy calls (lion's call) ----

#[test]
fn over_many_seeds_the_cavalier_never_calls_again_while_her_call_still_runs() {
    // Two allies beside her, two more 100 ft behind who walk past her later
    // (lacking the bonus), and a foe that never moves, 200 ft away: every
    // turn of hers is a rally turn. She calls at once (two allies lack the
    // bonus); when the latecomers come within 60 ft her first call still
    // runs on the first two: no second call until it is over (4 rounds).
    let mut cav = cavalier(json!(["Lion's Call"]));
    cav.speed_land_ft = 20;
    cav.initiative_mod = 30;
    let post =
        || creature("Post", json!({ "hp_max": 150, "speed_land_ft": 0, "attacks": [melee("claw", 0, "1")] }));
    let prep = prepare(
        arena(5, 62),
        vec![
            ("a", cav, at(2, 20)),
            ("a", swordsman("Near1", false), at(1, 22)),
            ("a", swordsman("Near2", false), at(3, 22)),
            ("a", swordsman("Late1", false), at(1, 0)),
            ("a", swordsman("Late2", false), at(3, 0)),
            ("b", post(), at(2, 60)),
        ],
    );
    let mut again = 0;
    for run in 0..30 {
        let events = policy_battle(&prep, 43, run);
        let calls: Vec<u32> = events
            .iter()
            .filter(|r| matches!(r.event, Event::LionsCall { who: 0, .. }))
            .map(|r| r.round)
            .collect();
        assert_eq!(calls.first(), Some(&1), "run {run}: the first call on round 1 ({calls:?})");
        for w in calls.windows(2) {
            assert!(w[1] >= w[0] + 4, "run {run}: called again while the call ran: {calls:?}");
        }
        again += usize::from(calls.len() > 1);
    }
    // Once the call is over, she calls again while her turns are still rally turns.
    assert!(again > 0, "never a second call once the first was over");
}
