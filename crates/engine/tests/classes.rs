//! A battle per class of the reference PCs (issue 22): the shipped
//! barbarian, paladin, ranger and monk of `data/pcs/`, and the campaign's
//! cleric Oni (Rebuke Death), use their class features
//! against Bestiary foes, as the typed event stream shows.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use pf1e_engine::combat::event::{AttackNote, ClassAbilityEvent, Event, ModSource, Record};
use pf1e_engine::combat::{DefaultPolicy, PreparedEncounter, SimOptions, run_prepared};
use pf1e_engine::encounter::{Encounter, SideSpec};
use pf1e_engine::library::load_library;
use pf1e_engine::map::Map;
use pf1e_engine::model::load_combatant;
use pf1e_engine::rng::SeededRng;

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data")
}

/// `runs` battles of `pc` against `foes` on the field map, their events.
fn battles(pc: &str, foes: &[&str], runs: u64) -> (PreparedEncounter, Vec<Vec<Record>>) {
    party_battles(&[pc], foes, runs)
}

/// `runs` battles of the party `pcs` against `foes` on the field map, their events.
fn party_battles(pcs: &[&str], foes: &[&str], runs: u64) -> (PreparedEncounter, Vec<Vec<Record>>) {
    let file = |p: &str| Arc::new(load_combatant(&data().join(p)).unwrap());
    let map = Arc::new(Map::load(&data().join("maps/field.yaml")).unwrap());
    let sides = vec![
        SideSpec { name: "players".into(), combatants: pcs.iter().map(|p| file(p)).collect() },
        SideSpec { name: "monsters".into(), combatants: foes.iter().map(|p| file(p)).collect() },
    ];
    let library = Arc::new(load_library(&data().join("spells"), &data().join("monsters")).unwrap());
    let prep = PreparedEncounter::new(&Encounter::build(map, sides).unwrap().with_library(library)).unwrap();
    let logs = (0..runs)
        .map(|run| {
            let mut events = Vec::new();
            let mut rng = SeededRng::for_run(22, run);
            run_prepared(&prep, &SimOptions::default(), &mut rng, Some(&mut events), &mut DefaultPolicy);
            events
        })
        .collect();
    (prep, logs)
}

fn count(log: &[Record], pred: impl Fn(&Event) -> bool) -> usize {
    log.iter().filter(|r| pred(&r.event)).count()
}

#[test]
fn the_reference_barbarian_rages_before_it_strikes_and_the_rage_ends_by_the_rules() {
    let (_, logs) = battles("pcs/barbarian4.json", &["monsters/orc.json", "monsters/orc.json"], 20);
    for log in &logs {
        let rage = log.iter().position(|r| matches!(r.event, Event::Rages { who: 0, hp: 8, will: 2, .. }));
        let swing = log.iter().position(|r| matches!(&r.event, Event::Attack(a) if a.who == 0));
        let (Some(rage), Some(swing)) = (rage, swing) else { panic!("rage and a swing: {log:#?}") };
        assert!(rage < swing, "it rages before its first swing");
        assert_eq!(count(log, |e| matches!(e, Event::Rages { .. })), 1);
        // An end, if any, comes with its fatigue: twice the rounds raged.
        for r in log {
            if let Event::RageEnds { rounds, fatigued, hp, .. } = r.event {
                assert_eq!((fatigued, hp), (2 * rounds, 8));
            }
        }
    }
}

#[test]
fn the_reference_paladin_smites_the_ogre_not_the_skeleton_and_lays_on_hands() {
    let (_, logs) = battles("pcs/paladin4.json", &["monsters/ogre.json", "monsters/skeleton.json"], 20);
    let ogre = 1;
    let mut smote = 0;
    let mut healed = 0;
    for log in &logs {
        let mut first = true;
        for r in log {
            match r.event {
                // The ogre's greatclub (2d8+7) outdamages the skeleton's scimitar or claws.
                Event::Smites { who: 0, target, evil: true, attack: 2, damage: 4, ac: 2, .. } => {
                    if first {
                        assert_eq!(target, ogre, "the first smite of a battle on the most dangerous foe");
                        first = false;
                    }
                    smote += 1;
                }
                Event::Smites { who: 0, .. } => panic!("a smite with other numbers: {r:?}"),
                Event::LaysOnHands { who: 0, target: 0, dice: 2, .. } => healed += 1,
                _ => {}
            }
        }
    }
    assert!(smote >= 20, "every battle smites: {smote}");
    assert!(healed > 0, "a hurt paladin lays on hands in some battle");
}

#[test]
fn the_reference_ranger_shoots_skeletons_with_its_favored_enemy_bonus() {
    let (_, logs) = battles("pcs/ranger4.json", &["monsters/skeleton.json", "monsters/skeleton.json"], 10);
    for log in &logs {
        let favored = count(log, |e| {
            matches!(e, Event::Attack(a) if a.who == 0 && a.notes.iter().any(|n| matches!(n,
                AttackNote::Modifier { source: ModSource::FavoredEnemy, value: 2 })))
        });
        let shots = count(log, |e| matches!(e, Event::Attack(a) if a.who == 0));
        assert!(shots > 0 && favored == shots, "every attack on an undead: {favored} of {shots}");
    }
}

#[test]
fn the_reference_monk_flurries_spends_ki_and_stuns_the_ogre_never_the_skeleton() {
    let (_, logs) = battles("pcs/monk4.json", &["monsters/ogre.json", "monsters/skeleton.json"], 20);
    let (ogre, skeleton) = (1, 2);
    let (mut flurry_attacks, mut ki, mut stunned) = (0, 0, 0);
    for log in &logs {
        for r in log {
            match &r.event {
                // Flurry at 4th level: monk level 4 in place of BAB 3, −2: +7 printed is +6.
                Event::Attack(a) if a.who == 0 => {
                    let flurry = a.notes.iter().find_map(|n| match n {
                        AttackNote::Modifier { source: ModSource::Flurry, value } => Some(*value),
                        _ => None,
                    });
                    if let Some(v) = flurry {
                        assert_eq!(v, -1);
                        flurry_attacks += 1;
                    }
                }
                Event::Ki { who: 0, .. } => ki += 1,
                Event::StunningFist { who: 0, target, dc, outcome, .. } => {
                    assert_eq!(*dc, 15, "10 + 2 + Wis 3");
                    assert_ne!(*target, skeleton, "an undead is never worth a Stunning Fist");
                    assert_eq!(*target, ogre);
                    stunned += usize::from(*outcome == pf1e_engine::combat::event::StunOutcome::Stunned);
                }
                _ => {}
            }
        }
        // Never more Stunning Fists than the four uses, nor ki than its five points.
        assert!(count(log, |e| matches!(e, Event::StunningFist { who: 0, .. })) <= 4);
        assert!(count(log, |e| matches!(e, Event::Ki { who: 0, .. })) <= 5);
    }
    assert!(flurry_attacks >= 40, "two or three flurry attacks a turn: {flurry_attacks}");
    assert!(ki >= 20 && stunned > 0, "ki {ki}, stuns {stunned}");
}

#[test]
fn oni_rebukes_death_on_a_dying_ally_with_one_d4_plus_two_and_saves_her_cures_for_deep_wounds() {
    // Oni (cleric 4, Healing domain) and the fighter against two ogres: the
    // fighter goes down in many battles, and Oni brings him back.
    let (_, logs) = party_battles(
        &["pcs/oni.json", "pcs/fighter.json"],
        &["monsters/ogre.json", "monsters/ogre.json"],
        60,
    );
    let (mut rebukes, mut up) = (0, 0);
    for log in &logs {
        let mut left = 7;
        for r in log {
            if let Event::RebukesDeath { who, target, rolled, bonus, healed, hp, left: l } = r.event {
                assert_eq!((who, target, bonus), (0, 1, 2), "Oni on the fighter, 1d4 + 2: {r:?}");
                assert!((1..=4).contains(&rolled) && healed == rolled + bonus, "{r:?}");
                assert!(hp - (healed as i32) < 0, "only below 0 hit points: {r:?}");
                assert_eq!(l, left - 1, "one use each");
                left = l;
                rebukes += 1;
                up += usize::from(hp >= 0);
            }
        }
    }
    assert!(rebukes >= 5, "the fighter falls and is rebuked in several battles: {rebukes}");
    assert!(up * 2 >= rebukes, "most touches bring him back up: {up} of {rebukes}");
}

#[test]
fn misty_enhances_her_blade_then_spends_arcane_accuracy_on_her_melee_turns() {
    let (_, logs) = battles("pcs/misty.json", &["monsters/orc.json", "monsters/orc.json"], 30);
    let (mut accurate, mut battles_with) = (0, 0);
    for log in &logs {
        let enhance = log.iter().position(|r| {
            matches!(&r.event, Event::ClassAbility { who: 0, what: ClassAbilityEvent::Enhances { .. } })
        });
        let mut pool = 5;
        let mut first = None;
        for (k, r) in log.iter().enumerate() {
            match &r.event {
                Event::ClassAbility { who: 0, what: ClassAbilityEvent::Enhances { pool: p, .. } } => {
                    pool = *p
                }
                Event::ClassAbility { who: 0, what: ClassAbilityEvent::Accuracy { bonus, pool: p } } => {
                    // Int 18: +4; one point each.
                    assert_eq!((*bonus, *p), (4, pool - 1), "{r:?}");
                    pool = *p;
                    accurate += 1;
                    first.get_or_insert(k);
                }
                _ => {}
            }
        }
        if let Some(k) = first {
            assert!(enhance.is_some_and(|e| e < k), "the enhancement first");
            battles_with += 1;
        }
    }
    assert!(battles_with >= 10 && accurate >= battles_with, "{battles_with} battles, {accurate} uses");
}

#[test]
fn oni_casts_a_cure_from_his_domain_slots_and_nothing_else_from_them() {
    // Oni (cleric 4: {1: 4, 2: 3} and a Healing domain slot of each level)
    // and the fighter against two ogres: a long fight in which he spends
    // his slots; a domain slot holds only cure light or moderate wounds.
    let (prep, logs) = party_battles(
        &["pcs/oni.json", "pcs/fighter.json"],
        &["monsters/ogre.json", "monsters/ogre.json"],
        60,
    );
    let _ = prep;
    // Ordinary slots {1: 4, 2: 3}; one domain slot of each level.
    let ordinary = [0, 4, 3];
    let mut domain_slot_used = 0;
    for log in &logs {
        let mut per_slot = [(0, 0); 3];
        for r in log {
            if let Event::Casts { who: 0, spell, slot, .. } = &r.event
                && (1..=2).contains(slot)
            {
                let domain = matches!(spell.as_str(), "Cure Light Wounds" | "Cure Moderate Wounds");
                let (all, other) = &mut per_slot[usize::from(*slot)];
                *all += 1;
                *other += usize::from(!domain);
            }
        }
        for level in 1..=2 {
            let (all, other) = per_slot[level];
            assert!(
                other <= ordinary[level],
                "level {level}: {other} other spells from {} slots",
                ordinary[level]
            );
            assert!(all <= ordinary[level] + 1, "level {level}: {all} spells, one domain slot");
            domain_slot_used += usize::from(all == ordinary[level] + 1);
        }
    }
    assert!(domain_slot_used >= 5, "battles in which Oni casts from a domain slot: {domain_slot_used}");
}

#[test]
fn the_reference_alchemist_throws_bombs_whose_splash_allows_a_reflex_save_for_half() {
    // The alchemist (2d6+4 fire, splash 6, Reflex DC 16 for half, 8 a day)
    // and the fighter against four orcs.
    let foes = ["monsters/orc.json"; 4];
    let (prep, logs) = party_battles(&["pcs/alchemist4.json", "pcs/fighter.json"], &foes, 40);
    let _ = prep;
    let (mut thrown, mut splashed, mut halved) = (0, 0, 0);
    for log in &logs {
        let mut per_round = std::collections::BTreeMap::new();
        let mut last_save: Option<(usize, bool)> = None;
        let mut battle = 0;
        for r in log {
            match &r.event {
                Event::Attack(a) if a.who == 0 && a.weapon == "bomb" => {
                    assert!(!a.aoo, "a bomb is a standard action, never an attack of opportunity");
                    assert_eq!(a.ac_kind, pf1e_engine::combat::event::AcKind::Touch, "a ranged touch attack");
                    *per_round.entry(r.round).or_insert(0) += 1;
                    battle += 1;
                }
                Event::Save { who, kind: pf1e_engine::effects::SaveKind::Ref, dc: 16, success, .. } => {
                    last_save = Some((*who, *success));
                }
                Event::Splash { who, by: 0, weapon, dealt, .. } if weapon == "bomb" => {
                    let Some((saver, saved)) = last_save.take() else { panic!("no save before {r:?}") };
                    assert_eq!(saver, *who, "the splashed creature saves");
                    assert_eq!(*dealt, if saved { 3 } else { 6 }, "splash 6, halved by a save: {r:?}");
                    splashed += 1;
                    halved += usize::from(saved);
                }
                _ => {}
            }
        }
        assert!(per_round.values().all(|&n| n == 1), "one bomb a round: {per_round:?}");
        assert!(battle <= 8, "8 bombs a day: {battle}");
        thrown += battle;
    }
    assert!(thrown >= 40, "the alchemist bombs in every battle: {thrown}");
    assert!(splashed >= 10 && halved > 0 && halved < splashed, "{splashed} splashed, {halved} halved");
}
