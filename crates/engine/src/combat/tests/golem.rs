//! The golems' rules (`combat::monster::golem`): the exceptions to their
//! immunity to magic, berserk and the clay golem's cursed wound, rule by
//! rule with scripted dice, then on the event stream of the shipped files
//! over many seeds.

use serde_json::json;

use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind};
use crate::combat::event::{AfflictionEvent, Event, Record};
use crate::effects::ConditionId as C;

fn golem(stem: &str) -> crate::model::Combatant {
    data_combatant(&format!("data/monsters/{stem}.json"))
}

fn wizard(spells: &[&str]) -> crate::model::Combatant {
    caster("Wizard", spells, json!({ "casting_ability": "int", "spell_list": "wizard" }))
}

#[test]
fn fire_slows_a_flesh_golem_for_2d6_rounds_without_harming_it_and_electricity_heals_it_and_ends_the_slow() {
    let prep = prepare_magic(
        arena(4, 8),
        vec![
            ("a", wizard(&["Burning Hands", "Shocking Grasp"]), at(1, 1)),
            ("b", golem("flesh_golem"), at(1, 2)),
        ],
    );
    let bh = prep.spell_index("Burning Hands").unwrap();
    let sg = prep.spell_index("Shocking Grasp").unwrap();
    // Burning hands (SR yes): immune to the spell, but its fire slows:
    // 2d6 = 3 + 4 = 7 rounds, no save (no other die).
    let mut b = Bench::new(&[3, 4]);
    let mut e = b.engine(&prep, &SimOptions::default());
    // No attack of opportunity from the golem beside the caster.
    e.st.fighters[1].turn.aoo_left = 0;
    turn(&mut e, 0, vec![Action::cast(bh, Some(1))]);
    assert_eq!(e.st.hp(1), 79, "no fire damage");
    assert!(e.st.has_condition(1, C::Staggered), "slowed");
    let slow = e.st.fighters[1].effects.iter().find(|x| &*x.effect.name == "Slow").expect("slow");
    assert!(matches!(slow.effect.duration, crate::effects::Duration::Rounds(7)));
    // Shocking grasp at CL 5: 5d6 electricity, a touch (d20 15), all 6s =
    // 30: heals 30 / 3 = 10; at 75 of 79 hp, 4 hp and 6 temporary.
    e.st.fighters[1].hp = 75;
    drop(e);
    let lines = b.lines();
    assert!(lines.iter().any(|l| l.contains("slows it for 7 rounds")), "{lines:#?}");
    let mut b = Bench::new(&[3, 4, 15, 6, 6, 6, 6, 6]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.st.fighters[1].turn.aoo_left = 0;
    turn(&mut e, 0, vec![Action::cast(bh, Some(1))]);
    e.st.fighters[1].hp = 75;
    turn(&mut e, 0, vec![Action::cast(sg, Some(1))]);
    assert_eq!(e.st.hp(1), 79);
    assert_eq!(e.st.fighters[1].temp_hp, 6);
    assert!(!e.st.has_condition(1, C::Staggered), "the slow ended");
    drop(e);
    let lines = b.lines();
    assert!(
        lines
            .iter()
            .any(|l| l
                .contains("30 electricity damage heals 4 and gives 6 temporary hit points, ending its slow")),
        "{lines:#?}"
    );
}

#[test]
fn acid_heals_a_clay_golem_one_hit_point_per_three_even_from_a_spell_without_spell_resistance() {
    let prep = prepare_magic(
        arena(4, 8),
        vec![("a", wizard(&["Acid Splash"]), at(1, 1)), ("b", golem("clay_golem"), at(1, 4))],
    );
    let splash = prep.spell_index("Acid Splash").unwrap();
    // Acid splash (SR no): a ranged touch (d20 15), 1d3 = 3 acid: heals 1.
    let mut b = Bench::new(&[15, 3]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.st.fighters[1].hp = 90;
    turn(&mut e, 0, vec![Action::cast(splash, Some(1))]);
    assert_eq!(e.st.hp(1), 91);
    drop(e);
    let lines = b.lines();
    assert!(lines.iter().any(|l| l.contains("3 acid damage heals 1")), "{lines:#?}");
}

#[test]
fn a_flesh_golem_is_still_immune_to_other_spells_and_a_caster_does_not_heal_it() {
    let prep = prepare_magic(
        arena(4, 8),
        vec![
            ("a", wizard(&["Magic Missile", "Shocking Grasp"]), at(1, 1)),
            ("b", golem("flesh_golem"), at(1, 2)),
        ],
    );
    let mm = prep.spell_index("Magic Missile").unwrap();
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.st.fighters[1].turn.aoo_left = 0;
    turn(&mut e, 0, vec![Action::cast(mm, Some(1))]);
    assert_eq!(e.st.hp(1), 79);
    drop(e);
    assert!(b.lines().iter().any(|l| l.contains("immune")), "{:#?}", b.lines());
    // The default policy never casts shocking grasp at it, over many battles.
    for seed in 0..20 {
        let events = policy_battle(&prep, 41, seed);
        assert!(
            !events.iter().any(|r| matches!(
                &r.event,
                Event::Affliction { what: AfflictionEvent::MagicHeals { .. }, .. }
            )),
            "seed {seed}: the wizard healed the golem"
        );
    }
}

#[test]
fn healing_a_creature_a_clay_golem_wounded_needs_a_dc_26_caster_level_check() {
    let cleric = |level: u32| {
        caster("Cleric", &["Cure Light Wounds"], json!({ "level": level, "spell_list": "cleric" }))
    };
    let foe = creature("Fighter", json!({ "level": 5, "hp_max": 60 }));
    for (level, d20, works) in [(5, 20, false), (10, 16, true), (10, 15, false)] {
        let prep = prepare_magic(
            arena(4, 10),
            vec![
                ("a", cleric(level), at(1, 1)),
                ("a", foe.clone(), at(1, 2)),
                ("b", golem("clay_golem"), at(1, 4)),
            ],
        );
        let clw = prep.spell_index("Cure Light Wounds").unwrap();
        // The cure's 1d8 = 5 (+ CL, at most 5), then the check's d20.
        let mut b = Bench::new(&[5, d20]);
        let mut e = b.engine(&prep, &SimOptions::default());
        e.curse_wound(2, 1);
        e.st.fighters[1].hp = 30;
        turn(&mut e, 0, vec![Action::cast(clw, Some(1))]);
        let cl = level.min(5) as i32;
        assert_eq!(e.st.hp(1), if works { 30 + 5 + cl } else { 30 }, "CL {level}, d20 {d20}");
        drop(e);
        let lines = b.lines();
        let verdict = if works { "the healing works" } else { "the healing has no effect" };
        assert!(
            lines
                .iter()
                .any(|l| l
                    .contains(&format!("check {d20}+{level} = {} against DC 26: {verdict}", d20 + level))),
            "{lines:#?}"
        );
    }
    // Without the curse, no check: the first die is the cure's.
    let prep = prepare_magic(
        arena(4, 10),
        vec![("a", cleric(5), at(1, 1)), ("a", foe, at(1, 2)), ("b", golem("clay_golem"), at(1, 4))],
    );
    let clw = prep.spell_index("Cure Light Wounds").unwrap();
    let mut b = Bench::new(&[5]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.st.fighters[1].hp = 30;
    turn(&mut e, 0, vec![Action::cast(clw, Some(1))]);
    assert_eq!(e.st.hp(1), 40);
}

/// Battles of the shipped golem `stem` and an ally (a second golem) against
/// plain foes that last (200 hp, they cannot hurt it), over `runs` seeds.
fn berserk_battles(stem: &str, runs: u64) -> (crate::combat::PreparedEncounter, Vec<Vec<Record>>) {
    let foe = || creature("Foe", json!({ "level": 5, "hp_max": 400, "attacks": [] }));
    let placed = vec![
        ("monsters", golem(stem), at(2, 2)),
        ("monsters", golem(stem), at(2, 5)),
        ("players", foe(), at(6, 2)),
        ("players", foe(), at(6, 6)),
    ];
    let prep = prepare_magic(arena(10, 10), placed);
    let records = super::monsters::records(&prep, 29, runs);
    (prep, records)
}

#[test]
fn a_golem_goes_berserk_with_a_cumulative_one_percent_a_round_and_then_attacks_the_nearest_creature() {
    let (_prep, battles) = berserk_battles("flesh_golem", 300);
    let (mut berserk, mut on_ally) = (0u32, 0u32);
    for events in &battles {
        // Before either goes berserk, the golems never strike each other.
        let first = events
            .iter()
            .find(|r| matches!(&r.event, Event::Affliction { what: AfflictionEvent::Berserk { .. }, .. }))
            .map_or(u32::MAX, |r| r.round);
        assert!(
            !events
                .iter()
                .filter(|r| r.round < first)
                .any(|r| matches!(&r.event, Event::Attack(a) if a.who < 2 && a.target < 2))
        );
        for g in 0..2usize {
            let went = events.iter().find_map(|r| match &r.event {
                Event::Affliction { who, what: AfflictionEvent::Berserk { chance, d100, .. } }
                    if *who == g =>
                {
                    Some((r.round, *chance, *d100))
                }
                _ => None,
            });
            let Some((round, chance, d100)) = went else { continue };
            berserk += 1;
            assert!(d100 <= chance, "{d100} within {chance}");
            assert!(chance <= round, "1 % a round: {chance} % by round {round}");
            // After it, its ally beside it is the nearest creature.
            on_ally += events
                .iter()
                .filter(|r| r.round > round)
                .filter(|r| matches!(&r.event, Event::Attack(a) if a.who == g && a.target == 1 - g))
                .count() as u32;
        }
    }
    assert!(berserk > 0, "some golem goes berserk in 600 golem-battles");
    assert!(on_ally > 0, "a berserk golem attacks its ally beside it");
}

#[test]
fn the_berserk_chance_matches_the_cumulative_table() {
    // Over 2,000 twelve-round battles, the share of golems berserk by the
    // end of round 12 is 1 - prod_{k=1..12} (1 - k/100) = 0.5496…
    let foe = || {
        creature(
            "Foe",
            json!({ "level": 5, "hp_max": 10_000, "ac": { "total": 60, "touch": 60, "flat_footed": 60 }, "attacks": [] }),
        )
    };
    let prep = prepare_magic(
        arena(6, 8),
        vec![("monsters", golem("clay_golem"), at(1, 1)), ("players", foe(), at(1, 4))],
    );
    let runs = 2000u64;
    let mut by_12 = 0u32;
    for seed in 0..runs {
        let mut rng = crate::rng::SeededRng::for_run(31, seed);
        let mut events = Vec::new();
        let options = SimOptions { round_cap: 12, ..SimOptions::default() };
        let mut e = crate::combat::engine::Engine::new(&prep, &options, &mut rng, Some(&mut events));
        e.run(&mut crate::combat::DefaultPolicy);
        drop(e);
        by_12 += u32::from(events.iter().any(|r| {
            matches!(&r.event, Event::Affliction { who: 0, what: AfflictionEvent::Berserk { .. } })
        }));
    }
    let p: f64 = 1.0 - (1..=12).map(|k| 1.0 - f64::from(k) / 100.0).product::<f64>();
    let got = f64::from(by_12) / runs as f64;
    let sigma = (p * (1.0 - p) / runs as f64).sqrt();
    assert!((got - p).abs() < 4.0 * sigma, "{by_12} of {runs}: {got} against {p}");
}

#[test]
fn the_manticore_looses_six_volleys_a_day_and_none_beyond_180_feet() {
    let manticore = data_combatant("data/monsters/manticore.json");
    let foe = creature(
        "Foe",
        json!({ "level": 5, "hp_max": 10_000, "ac": { "total": 60, "touch": 60, "flat_footed": 60 }, "attacks": [] }),
    );
    let prep = prepare_magic(arena(3, 60), vec![("m", manticore, at(1, 1)), ("p", foe, at(1, 30))]);
    let w = prep.fighters[0].offense.attacks.iter().position(|a| a.name == "spikes").unwrap();
    assert_eq!(prep.fighters[0].offense.attacks[w].max_range_ft, 180);
    assert_eq!(prep.fighters[0].offense.attacks[w].ammo, 24);
    let mut b = Bench::new(&[10; 200]);
    let mut e = b.engine(&prep, &SimOptions::default());
    for _ in 0..7 {
        turn(&mut e, 0, vec![Action::at(ActionKind::FullAttack, 1).with_weapon(w)]);
    }
    assert_eq!(e.st.ammunition_left(0, w), Some(0));
    drop(e);
    let volleys = b.events.iter().filter(|r| matches!(&r.event, Event::Attack(a) if a.who == 0)).count();
    assert_eq!(volleys, 24, "24 spikes, then none");
    // 185 ft. away: out of range.
    let prep2 = prepare_magic(
        arena(3, 60),
        vec![
            ("m", data_combatant("data/monsters/manticore.json"), at(1, 1)),
            ("p", creature("Foe", json!({ "level": 5, "hp_max": 100, "attacks": [] })), at(1, 39)),
        ],
    );
    let mut b = Bench::new(&[10; 10]);
    let mut e = b.engine(&prep2, &SimOptions::default());
    assert_eq!(e.st.distance(0, 1), 185);
    assert!(!prep2.fighters[0].offense.attacks[w].reaches(185));
    assert!(prep2.fighters[0].offense.attacks[w].reaches(180));
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1).with_weapon(w)]);
    drop(e);
    assert!(!b.events.iter().any(|r| matches!(&r.event, Event::Attack(_))));
}

#[test]
fn the_odds_of_healing_a_cursed_wound_are_those_of_the_caster_level_check() {
    let prep = prepare_magic(
        arena(4, 10),
        vec![
            ("a", creature("Fighter", json!({ "hp_max": 60 })), at(1, 2)),
            ("b", golem("clay_golem"), at(1, 4)),
        ],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    assert_eq!(e.st.healing_odds(0, 1), 1.0, "no curse, no check");
    e.curse_wound(1, 0);
    // DC 26: d20 + CL ≥ 26; a natural 20 is no success by itself (a check).
    for (cl, odds) in [(4, 0.0), (5, 0.0), (6, 0.05), (10, 0.25), (20, 0.75), (25, 1.0), (30, 1.0)] {
        assert_eq!(e.st.healing_odds(0, cl), odds, "CL {cl}");
    }
}

/// The default policy's plan for a cleric of `level` with Cure Light
/// Wounds beside a fighter at 20 of 60 hit points whom a clay golem (far
/// off) has wounded, and, when `other`, a second fighter at 25 of 60.
fn cleric_plan(level: u32, other: bool) -> (Vec<Action>, u16) {
    let cleric = caster(
        "Cleric",
        &["Cure Light Wounds"],
        json!({ "level": level, "spell_list": "cleric", "attacks": [] }),
    );
    let fighter = creature("Fighter", json!({ "level": 5, "hp_max": 60 }));
    let mut placed = vec![
        ("a", cleric, at(1, 1)),
        ("a", fighter.clone(), at(1, 2)),
        ("b", golem("clay_golem"), at(1, 12)),
    ];
    if other {
        placed.push(("a", fighter, at(2, 1)));
    }
    let prep = prepare_magic(arena(4, 14), placed);
    let clw = prep.spell_index("Cure Light Wounds").unwrap();
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.curse_wound(2, 1);
    e.st.fighters[1].hp = 20;
    if other {
        e.st.fighters[3].hp = 25;
    }
    let mut out = Vec::new();
    crate::combat::decide::Policy::plan(&mut crate::combat::policy::DefaultPolicy, &e.st, 0, &mut out);
    (out, clw)
}

#[test]
fn a_healer_whose_caster_level_cannot_beat_the_cursed_wound_cures_another_patient_or_nobody() {
    let cures = |out: &[Action], clw: u16, t: usize| {
        out.iter().any(|a| a.kind == ActionKind::CastSpell && a.spell == Some(clw) && a.target == Some(t))
    };
    // CL 4: d20 + 4 is at most 24 < 26: no cure on the cursed fighter.
    let (out, clw) = cleric_plan(4, false);
    assert!(!out.iter().any(|a| a.kind == ActionKind::CastSpell), "CL 4 casts no cure: {out:?}");
    // ... but on the other wounded fighter, though less hurt.
    let (out, clw2) = cleric_plan(4, true);
    assert!(cures(&out, clw2, 3), "CL 4 cures the fighter it can: {out:?}");
    let _ = clw;
    // CL 10: a 25 % chance: it still tries on the most hurt.
    let (out, clw) = cleric_plan(10, false);
    assert!(cures(&out, clw, 1), "CL 10 tries: {out:?}");
}

/// The four-PC party (a CL 4 cleric, a witch with cures, potions) against
/// the shipped clay golem over many seeds: no caster level check that
/// cannot succeed is ever rolled against its cursed wound.
#[test]
fn the_party_spends_no_healing_on_a_cursed_wound_it_cannot_overcome() {
    let pcs = ["esha", "harvie", "oni", "nairda"];
    let mut placed = vec![("monsters", golem("clay_golem"), at(2, 2))];
    for (k, pc) in (0..).zip(pcs) {
        placed.push(("players", data_combatant(&format!("data/pcs/{pc}.json")), at(2 + 2 * k, 8)));
    }
    let prep = prepare_magic(arena(12, 16), placed);
    let runs = super::monsters::records(&prep, 31, 40);
    let (mut hopeless, mut cursed) = (0, 0);
    let mut first: Option<String> = None;
    for events in &runs {
        // A channel's burst heals every ally it catches, a cursed one too:
        // its checks are not a cure spent on that one (the channel is
        // counted for the others).
        let mut burst = false;
        for r in events {
            match &r.event {
                Event::ChannelsEnergy { .. } => burst = true,
                Event::Affliction { what: AfflictionEvent::CursedWound { bonus, dc, .. }, .. } => {
                    cursed += 1;
                    if bonus + 20 < *dc && !burst {
                        hopeless += 1;
                        if first.is_none() {
                            let lines = english(&prep, events);
                            let k = lines.iter().position(|l| l.contains("cursed wound")).unwrap_or(0);
                            first = Some(lines[k.saturating_sub(8)..=k].join("\n"));
                        }
                    }
                }
                Event::Healed { .. } | Event::Life { .. } => {}
                _ => burst = false,
            }
        }
    }
    assert_eq!(
        hopeless,
        0,
        "{cursed} checks, {hopeless} that could not succeed; first:\n{}",
        first.unwrap_or_default()
    );
}
