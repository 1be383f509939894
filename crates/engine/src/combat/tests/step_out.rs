//! Step back, then shoot (`policy::ranged::plan_step_out`,
//! `docs/strategy.md`): a shooter or a bomber in a foe's reach takes a
//! 5-foot step to a square no foe threatens, then makes its full attack,
//! rather than provoke (or splash itself).

use serde_json::json;

use super::support::*;
use crate::combat::event::{Event, Record};
use crate::combat::prepared::PreparedEncounter;

/// An archer: a shortbow (+6, 1d6) first, 40 hit points.
fn archer() -> crate::model::Combatant {
    creature("Archer", json!({ "hp_max": 40, "bab": 4, "attacks": [ranged("shortbow", 6, "1d6", 60)] }))
}

/// A brute with a greataxe (+10, 1d12+6) and 80 hit points, `size` (its
/// reach follows), who acts first: a foe who has not acted yet threatens
/// nothing (flat-footed), so the shooter's first turn is in its reach.
fn brute(size: &str) -> crate::model::Combatant {
    creature(
        "Brute",
        json!({ "size": size, "hp_max": 80, "bab": 6, "initiative_mod": 40,
                "ac": { "total": 14, "touch": 10, "flat_footed": 14 },
                "attacks": [melee("greataxe", 10, "1d12+6")] }),
    )
}

/// Whether `e` is an act of combatant 0 on its own turn.
fn own_act(e: &Event) -> bool {
    match e {
        Event::Step { who, .. } | Event::Move { who, .. } | Event::TotalDefense { who, .. } => *who == 0,
        Event::Attack(a) => a.who == 0 && !a.aoo,
        _ => false,
    }
}

/// The acts of combatant 0 in the round of its first one.
fn first_turn(events: &[Record]) -> Vec<&Event> {
    let Some(round) = events.iter().find(|r| own_act(&r.event)).map(|r| r.round) else { return Vec::new() };
    events.iter().filter(|r| r.round == round && own_act(&r.event)).map(|r| &r.event).collect()
}

/// Attacks of opportunity on combatant 0 in the round of its first turn
/// (later, a bomber backed into a wall has no step left).
fn aoos_on_first(events: &[Record]) -> usize {
    let Some(round) = events.iter().find(|r| own_act(&r.event)).map(|r| r.round) else { return 0 };
    events
        .iter()
        .filter(|r| r.round == round && matches!(&r.event, Event::Attack(a) if a.aoo && a.target == 0))
        .count()
}

fn opens_with_a_step(events: &[Record]) -> bool {
    matches!(first_turn(events).first(), Some(Event::Step { who: 0, .. }))
}

/// A wizard (Int 18) with a dagger, `hp` hit points and `spell` in four
/// slots of `level`.
fn wizard(spell: &str, level: u8, hp: i32) -> crate::model::Combatant {
    caster(
        "Wizard",
        &[spell],
        json!({ "spell_list": "wizard", "casting_ability": "int", "hp_max": hp,
                "spell_slots": { level.to_string(): 4 },
                "abilities": { "str_score": 10, "dex_score": 14, "con_score": 12,
                               "int_score": 18, "wis_score": 10, "cha_score": 10 },
                "attacks": [melee("dagger", 2, "1d4")] }),
    )
}

fn duel(shooter: crate::model::Combatant, foe: crate::model::Combatant) -> PreparedEncounter {
    prepare_magic(arena(9, 12), vec![("a", shooter, at(5, 5)), ("b", foe, at(5, 6))])
}

#[test]
fn an_archer_beside_a_brute_steps_back_and_shoots_without_provoking() {
    let prep = duel(archer(), brute("Medium"));
    let (mut stepped, mut acted) = (0, 0);
    for seed in 0..30 {
        let events = policy_battle(&prep, 101, seed);
        assert_eq!(aoos_on_first(&events), 0, "seed {seed}: the archer provoked");
        let turn = first_turn(&events);
        if turn.is_empty() {
            continue; // Down before its first turn.
        }
        acted += 1;
        let shot = turn.iter().any(|e| matches!(e, Event::Attack(a) if a.who == 0));
        stepped += usize::from(opens_with_a_step(&events) && shot);
    }
    assert!(acted >= 20, "the archer acted in {acted} battles of 30");
    assert_eq!(stepped, acted, "each first turn opens with a 5-foot step, then a shot");
}

#[test]
fn no_step_where_every_neighbouring_square_is_in_the_foe_s_reach() {
    // A Large brute reaches 10 ft: a 5-foot step never leaves its reach.
    let prep = duel(archer(), brute("Large"));
    for seed in 0..20 {
        let events = policy_battle(&prep, 102, seed);
        assert!(!opens_with_a_step(&events), "seed {seed}");
    }
    // In a corner beside a Medium brute, the free neighbours are in its reach too.
    let prep = prepare_magic(arena(3, 6), vec![("a", archer(), at(1, 1)), ("b", brute("Medium"), at(1, 2))]);
    for seed in 0..20 {
        let events = policy_battle(&prep, 103, seed);
        assert!(!opens_with_a_step(&events), "seed {seed}");
    }
}

#[test]
fn a_bomber_beside_an_ogre_steps_back_and_bombs_instead_of_splashing_itself() {
    // Before, the splash on the thrower made the policy give the bomb up
    // (`splash::plan_guard`): the crossbow in melee, or total defense.
    let prep = duel(bomber(), club_ogre(json!({ "initiative_mod": 40 })));
    let (mut bombed, mut acted) = (0, 0);
    for seed in 0..30 {
        let events = policy_battle(&prep, 104, seed);
        let turn = first_turn(&events);
        if turn.is_empty() {
            continue;
        }
        acted += 1;
        let threw = matches!(turn.first(), Some(Event::Step { who: 0, .. }))
            && turn.iter().any(|e| matches!(e, Event::Attack(a) if a.who == 0 && a.weapon == "bomb"));
        bombed += usize::from(threw);
        assert_eq!(aoos_on_first(&events), 0, "seed {seed}: the bomber provoked");
    }
    assert!(acted >= 20 && bombed == acted, "a step then a bomb in {bombed} first turns of {acted}");
}

#[test]
fn tammara_in_the_open_steps_back_rather_than_pistol_whip() {
    // Cornered, she whips the brute (`pistol_whip.rs`); in the open a step
    // makes the shot as safe as the whip, and the pistol does more.
    let prep = duel(data_combatant("data/pcs/tammara.json"), brute("Medium"));
    let (mut stepped, mut acted) = (0, 0);
    for seed in 0..24 {
        let events = policy_battle(&prep, 105, seed);
        let turn = first_turn(&events);
        let whipped =
            turn.iter().any(|e| matches!(e, Event::Attack(a) if a.weapon.starts_with("pistol-whip")));
        assert!(!whipped, "seed {seed}: she whipped with a safe step at hand");
        assert_eq!(aoos_on_first(&events), 0, "seed {seed}: she provoked");
        if turn.is_empty() {
            continue;
        }
        acted += 1;
        // Then a shot, or a potion when the brute's full attack left her low.
        stepped += usize::from(opens_with_a_step(&events));
    }
    assert!(acted >= 20 && stepped == acted, "a step first in {stepped} first turns of {acted}");
}

#[test]
fn the_archer_ranger_steps_back_then_declares_rapid_shot_for_her_full_attack() {
    // The step's full attack is the ladder's: its declarations come with it.
    use crate::combat::style::Style;
    let prep = duel(data_combatant("data/pcs/ranger4.json"), brute("Medium"));
    let (mut rapid, mut acted) = (0, 0);
    for seed in 0..20 {
        let events = policy_battle(&prep, 106, seed);
        // Turns that shoot (a badly hurt ranger drinks a potion instead).
        if !first_turn(&events).iter().any(|e| matches!(e, Event::Attack(a) if a.who == 0)) {
            continue;
        }
        acted += 1;
        let round = events.iter().find(|r| own_act(&r.event)).map(|r| r.round);
        let declared = events.iter().any(|r| {
            Some(r.round) == round
                && matches!(r.event, Event::Declares { who: 0, style: Style::RapidShot, .. })
        });
        rapid += usize::from(opens_with_a_step(&events) && declared);
    }
    assert!(acted >= 12 && rapid == acted, "a step and Rapid Shot in {rapid} first shots of {acted}");
}

#[test]
fn a_wizard_beside_a_brute_steps_back_and_casts_without_a_concentration_check() {
    // Before, it cast Magic Missile defensively where it stood (a
    // concentration check, the spell lost on a failure).
    let wizard = wizard("Magic Missile", 1, 40);
    let prep = duel(wizard, brute("Medium"));
    let (mut clean, mut cast) = (0, 0);
    for seed in 0..24 {
        let events = policy_battle(&prep, 107, seed);
        let Some(round) =
            events.iter().find(|r| matches!(&r.event, Event::Casts { who: 0, .. })).map(|r| r.round)
        else {
            continue;
        };
        cast += 1;
        let this_round = || events.iter().filter(|r| r.round == round);
        let stepped = this_round().any(|r| matches!(r.event, Event::Step { who: 0, .. }));
        let checked = this_round().any(|r| matches!(r.event, Event::Concentration { who: 0, .. }));
        let provoked = this_round().any(|r| matches!(&r.event, Event::Attack(a) if a.aoo && a.target == 0));
        clean += usize::from(stepped && !checked && !provoked);
    }
    assert!(cast >= 15 && clean == cast, "a step and a clean casting in {clean} first castings of {cast}");
}

/// The round of combatant 0's first casting of a spell whose name starts
/// with `prefix` in `events`, and whether that round it stepped, made a
/// concentration check, drew an attack of opportunity.
fn first_casting(events: &[Record], prefix: &str) -> Option<(bool, bool, bool)> {
    let round = events
        .iter()
        .find(|r| matches!(&r.event, Event::Casts { who: 0, spell, .. } if spell.starts_with(prefix)))?
        .round;
    let this_round = || events.iter().filter(move |r| r.round == round);
    Some((
        this_round().any(|r| matches!(r.event, Event::Step { who: 0, .. })),
        this_round().any(|r| matches!(r.event, Event::Concentration { who: 0, .. })),
        this_round().any(|r| matches!(&r.event, Event::Attack(a) if a.aoo && a.target == 0)),
    ))
}

#[test]
fn a_cleric_beside_a_brute_steps_away_and_still_touches_the_hurt_friend_beside_her() {
    // The fighter (10 of 60 hp) stands on the cleric's other side: a step
    // diagonally back keeps him within touch and leaves the brute's reach.
    // Before, a cure was cast defensively where she stood.
    let cleric = caster(
        "Cleric",
        &["Cure Light Wounds"],
        json!({ "hp_max": 60, "spell_slots": { "1": 4 }, "attacks": [melee("mace", 3, "1d8")] }),
    );
    let fighter = creature("Fighter", json!({ "hp_max": 60, "attacks": [melee("sword", 5, "1d8+3")] }));
    let prep = prepare_magic(
        arena(9, 12),
        vec![("a", cleric, at(5, 5)), ("a", fighter, at(5, 4)), ("b", brute("Medium"), at(5, 6))],
    );
    let (mut cured, mut clean) = (0, 0);
    for seed in 0..24 {
        let mut rng = crate::rng::SeededRng::for_run(109, seed);
        let mut events: Vec<Record> = Vec::new();
        let mut e = crate::combat::engine::Engine::new(
            &prep,
            &crate::combat::SimOptions::default(),
            &mut rng,
            Some(&mut events),
        );
        e.st.fighters[1].hp = 10;
        e.run(&mut crate::combat::policy::DefaultPolicy);
        drop(e);
        if let Some((stepped, checked, provoked)) = first_casting(&events, "Cure") {
            cured += 1;
            clean += usize::from(stepped && !checked && !provoked);
        }
    }
    assert!(cured >= 20 && clean == cured, "a step and a clean cure in {clean} first cures of {cured}");
}

#[test]
fn a_wizard_beside_a_brute_steps_away_and_fireballs_the_archers_beyond_without_catching_itself() {
    // Two archers stand together 30 ft off; any burst on the brute would
    // catch the wizard. Before, the Fireball was cast defensively where it
    // stood; now a step out of reach first, and the wizard outside the burst.
    let wizard = wizard("Fireball", 3, 60);
    let archer = || {
        creature(
            "Archer",
            json!({ "hp_max": 40, "speed_land_ft": 5, "attacks": [ranged("shortbow", 2, "1d6", 60)] }),
        )
    };
    let prep = prepare_magic(
        arena(9, 12),
        vec![
            ("a", wizard, at(5, 5)),
            ("b", brute("Medium"), at(5, 6)),
            ("b", archer(), at(2, 11)),
            ("b", archer(), at(3, 11)),
        ],
    );
    let (mut cast, mut clean) = (0, 0);
    for seed in 0..24 {
        let events = policy_battle(&prep, 111, seed);
        let Some((stepped, checked, provoked)) = first_casting(&events, "Fireball") else { continue };
        cast += 1;
        let burnt = events.iter().any(|r| matches!(r.event, Event::SpellDamage { who: 0, target: 0, .. }));
        clean += usize::from(stepped && !checked && !provoked && !burnt);
    }
    assert!(cast >= 20 && clean == cast, "a step and a clean Fireball in {clean} first of {cast}");
}
