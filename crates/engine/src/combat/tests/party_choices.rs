//! Choices of the level-4 campaign party a table would make, on the typed
//! event stream over many seeds: a caster summons when none of its
//! creatures is still fighting (a new casting would only replace it), only
//! when the creature is worth the round, and nobody spends a cure on a
//! creature that leaves in a few rounds; nobody swings a weapon that cannot
//! hurt its target while another foe can be hurt.

use std::collections::BTreeSet;
use std::sync::Arc;

use serde_json::json;

use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::ActionKind;
use crate::combat::decide::Policy;
use crate::combat::event::{Event, LifeChange};
use crate::encounter::{Encounter, SideSpec};

/// Esha, Harvie, Oni and Nairda against `monsters` on the open field.
fn party_against(monsters: &[&str]) -> Encounter {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data");
    let map = Arc::new(crate::map::Map::load(&root.join("maps/field.yaml")).expect("field"));
    let load = |rel: &str| Arc::new(data_combatant(&format!("data/{rel}.json")));
    let party = ["esha", "harvie", "oni", "nairda"].iter().map(|p| load(&format!("pcs/{p}"))).collect();
    let foes = monsters.iter().map(|m| load(&format!("monsters/{m}"))).collect();
    Encounter::build(
        map,
        vec![
            SideSpec { name: "players".into(), combatants: party },
            SideSpec { name: "monsters".into(), combatants: foes },
        ],
    )
    .expect("encounter")
    .with_library(library())
}

/// Plays `runs` battles; returns how many summoning spells were cast in all,
/// after checking each battle: no summoning while one of the caster's
/// creatures fights, no cure spell on a summoned creature.
fn check_summons(encounter: &Encounter, runs: u64) -> usize {
    let prep = crate::combat::PreparedEncounter::new(encounter).expect("prepared");
    let caster_of = |r: usize| prep.summon_groups.iter().find(|g| g.rows.contains(&r)).map(|g| g.caster);
    let mut summonings = 0;
    for run in 0..runs {
        let (_, transcript) = crate::runner::run_with_transcript(encounter, &SimOptions::default(), 5, run);
        let mut present: BTreeSet<usize> = BTreeSet::new();
        for r in &transcript.events {
            match &r.event {
                Event::Summoned { who, .. } => {
                    present.insert(*who);
                }
                Event::SummonEnds { who }
                | Event::Life {
                    who,
                    change: LifeChange::Dies | LifeChange::Destroyed | LifeChange::Dying,
                    ..
                } => {
                    present.remove(who);
                }
                Event::Casts { who, spell, target, point, dc, .. } => {
                    if spell.starts_with("Summon") {
                        summonings += 1;
                        // A summons aims at nobody and allows no save: the
                        // line reads "casts Summon Monster II (level 2
                        // slot)", not "on young_black_dragon (…, DC 16)".
                        assert!(
                            target.is_none() && point.is_none() && dc.is_none(),
                            "run {run} round {}: {} casts {spell} with {target:?} {point:?} {dc:?}",
                            r.round,
                            transcript.id(*who)
                        );
                        let out: Vec<usize> =
                            present.iter().copied().filter(|&s| caster_of(s) == Some(*who)).collect();
                        assert!(
                            out.is_empty(),
                            "run {run} round {}: {} summons again while {out:?} still fight",
                            r.round,
                            transcript.id(*who)
                        );
                    }
                    if spell == "Sound Burst" {
                        // Oni's: 10 + 2 (level) + 4 (Wisdom 18).
                        assert_eq!(*dc, Some(16), "run {run}: Oni's Sound Burst");
                    }
                    if spell.starts_with("Cure")
                        && let Some(t) = target
                    {
                        assert!(
                            prep.fighters[*t].reserve.is_none(),
                            "run {run} round {}: {} cures the summoned {}",
                            r.round,
                            transcript.id(*who),
                            transcript.id(*t)
                        );
                    }
                }
                _ => {}
            }
        }
    }
    summonings
}

#[test]
fn a_caster_summons_only_when_none_of_its_creatures_still_fights_and_never_cures_one() {
    let goblins = check_summons(&party_against(&["goblin", "goblin", "goblin", "goblin"]), 40);
    let dragon = check_summons(&party_against(&["young_black_dragon"]), 40);
    // Oni summons in these fights (the checks above are not vacuous), at most
    // a few times a battle.
    assert!(goblins + dragon >= 20, "{goblins} + {dragon} summonings in 80 battles");
    assert!(goblins + dragon <= 160, "{goblins} + {dragon} summonings in 80 battles");
}

/// A foe with 200 hit points and no attack, with `overrides`.
fn target_dummy(overrides: serde_json::Value) -> crate::model::Combatant {
    let mut base = json!({ "hp_max": 200, "attacks": [] });
    if let (serde_json::Value::Object(b), serde_json::Value::Object(o)) = (&mut base, overrides) {
        b.extend(o);
    }
    creature("Foe", base)
}

/// What the default policy has a level-1 cleric knowing only Summon Monster
/// I (and a mace) do first against a foe 30 ft away with `foe` overrides.
fn first_choice(foe: serde_json::Value) -> Option<String> {
    let cleric = caster(
        "Cleric",
        &["Summon Monster I"],
        json!({ "spell_list": "cleric", "alignment": "NG", "level": 1, "attacks": [melee("mace", 0, "1d8")] }),
    );
    let prep = prepare_magic(arena(6, 12), vec![("a", cleric, at(1, 1)), ("b", target_dummy(foe), at(1, 7))]);
    let mut plan = Vec::new();
    let mut rng = crate::rng::SeededRng::for_run(3, 0);
    let e = crate::combat::engine::Engine::new(&prep, &SimOptions::default(), &mut rng, None);
    crate::combat::policy::DefaultPolicy.plan(&e.st, 0, &mut plan);
    plan.first().map(|a| match a.spell {
        Some(s) => prep.spells[usize::from(s)].spell.name.clone(),
        None => a.kind.name().to_string(),
    })
}

#[test]
fn a_summon_that_cannot_hurt_the_foe_is_not_worth_the_round() {
    // A celestial creature of Summon Monster I hits AC 10 about half the
    // time: worth three rounds of its bite, more than the cleric's own
    // walk toward the foe.
    assert_eq!(first_choice(json!({})).as_deref(), Some("Summon Monster I"));
    // Against AC 40 and DR 10/— it can do nothing: the cleric does not spend
    // the round (and the slot) on it.
    let armoured = json!({ "ac": { "total": 40, "touch": 40, "flat_footed": 40 }, "dr": { "amount": 10 } });
    assert_ne!(first_choice(armoured).as_deref(), Some("Summon Monster I"));
}

#[test]
fn nobody_swings_a_weapon_that_cannot_hurt_an_incorporeal_foe_while_another_foe_can_be_hurt() {
    // The wraith is incorporeal: the party's nonmagical weapons deal it
    // nothing (UMR "Incorporeal"). While the orc stands, every weapon
    // attack (attacks of opportunity aside) goes to the orc.
    let encounter = party_against(&["wraith", "orc"]);
    let ids: Vec<String> = encounter.combatants.iter().map(|c| c.id.clone()).collect();
    let (wraith, orc) =
        (ids.iter().position(|i| i == "wraith").unwrap(), ids.iter().position(|i| i == "orc").unwrap());
    let prep = crate::combat::PreparedEncounter::new(&encounter).expect("prepared");
    let mut on_orc = 0;
    for run in 0..30 {
        let (_, transcript) = crate::runner::run_with_transcript(&encounter, &SimOptions::default(), 8, run);
        let mut orc_up = true;
        for r in &transcript.events {
            match &r.event {
                Event::Life { who, .. } if *who == orc => orc_up = false,
                // (A spiritual weapon's force attack is the spell's, not a weapon's.)
                Event::Attack(a)
                    if !a.aoo
                        && prep.fighters[a.who].side == 0
                        && orc_up
                        && prep.fighters[a.who].offense.attacks.iter().any(|w| w.name == a.weapon) =>
                {
                    let harmless = prep.fighters[a.who].offense.attacks.iter().all(|w| {
                        !w.carried.iter().any(|q| q == "magic" || q == "ghost_touch" || q == "force")
                    });
                    assert!(
                        !(a.target == wraith && harmless),
                        "run {run} round {}: {} swings its {} at the wraith",
                        r.round,
                        ids[a.who],
                        a.weapon
                    );
                    on_orc += usize::from(a.target == orc);
                }
                _ => {}
            }
        }
    }
    assert!(on_orc >= 30, "{on_orc} attacks on the orc in 30 battles");
}

#[test]
fn esha_challenges_the_troll_before_her_first_blow_rallies_only_when_she_cannot_strike_and_spends_no_use_twice()
 {
    // Esha (cavalier 4, order of the lion): challenge 2 a day, tactician once.
    let encounter = party_against(&["troll"]);
    let ids: Vec<String> = encounter.combatants.iter().map(|c| c.id.clone()).collect();
    let (esha, troll) =
        (ids.iter().position(|i| i == "esha").unwrap(), ids.iter().position(|i| i == "troll").unwrap());
    let (mut challenged, mut struck, mut rallies) = (0, 0, 0);
    for run in 0..40 {
        let (_, transcript) = crate::runner::run_with_transcript(&encounter, &SimOptions::default(), 11, run);
        let mut challenge_round = None;
        let mut rally_round = None;
        let mut tacticians = 0;
        let mut first_blow = None;
        for r in &transcript.events {
            match &r.event {
                Event::Challenges { who, target, damage, dodge, .. } if *who == esha => {
                    assert_eq!((*target, *damage, *dodge), (troll, 4, 2), "run {run}");
                    assert!(challenge_round.is_none(), "run {run}: a second challenge on the lone troll");
                    challenge_round = Some(r.round);
                }
                Event::Tactician { who, feat, .. } if *who == esha => {
                    assert_eq!(feat, "Outflank");
                    tacticians += 1;
                    rally_round = Some(r.round);
                }
                Event::LionsCall { who, .. } if *who == esha => rally_round = Some(r.round),
                Event::Attack(a) if a.who == esha && !a.aoo => {
                    assert_ne!(
                        rally_round,
                        Some(r.round),
                        "run {run}: she rallied on a turn she could strike"
                    );
                    if a.target == troll && first_blow.is_none() {
                        first_blow = Some(r.round);
                    }
                }
                _ => {}
            }
        }
        assert!(tacticians <= 1, "run {run}: tactician is once a day");
        if let Some(blow) = first_blow {
            struck += 1;
            // The challenge comes with her first melee blow at the latest.
            if challenge_round.is_some_and(|c| c <= blow) {
                challenged += 1;
            }
        }
        rallies += usize::from(rally_round.is_some());
    }
    assert!(struck >= 20, "Esha strikes the troll in {struck} of 40 battles");
    assert!(
        challenged * 10 >= struck * 9,
        "challenged before the first blow in {challenged} of {struck} battles"
    );
    assert!(rallies >= 1, "she never rallied in 40 battles");
}

/// What the default policy has Esha do first against an adjacent troll
/// left with `hp` hit points.
fn esha_first_choice(hp: i32) -> Vec<ActionKind> {
    let esha = data_combatant("data/pcs/esha.json");
    let troll = data_combatant("data/monsters/troll.json");
    let prep = prepare(arena(6, 12), vec![("a", esha, at(2, 2)), ("b", troll, at(2, 3))]);
    let mut plan = Vec::new();
    let mut rng = crate::rng::SeededRng::for_run(3, 0);
    let mut e = crate::combat::engine::Engine::new(&prep, &SimOptions::default(), &mut rng, None);
    e.st.fighters[1].hp = hp;
    crate::combat::policy::DefaultPolicy.plan(&e.st, 0, &mut plan);
    plan.iter().map(|a| a.kind).collect()
}

#[test]
fn esha_does_not_spend_a_challenge_on_a_foe_about_to_fall() {
    // Her longsword averages 9.5 a hit: with the challenge's +4, two hits are 27.
    assert_eq!(esha_first_choice(60).first(), Some(&ActionKind::Challenge));
    assert!(!esha_first_choice(20).contains(&ActionKind::Challenge));
}

/// A creature paralyzed during its own turn (a ghoul's claw as an attack of
/// opportunity while it moves) does nothing more that turn: over many
/// seeds, nobody attacks while under a ghoul's paralysis.
#[test]
fn nobody_acts_on_while_paralyzed_mid_turn() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data");
    let map = Arc::new(crate::map::Map::load(&root.join("maps/field.yaml")).expect("field"));
    let load = |rel: &str| Arc::new(data_combatant(&format!("data/{rel}.json")));
    let party = ["fighter", "misty", "nairda", "oni"].iter().map(|p| load(&format!("pcs/{p}"))).collect();
    let foes = ["dire_wolf", "ghoul", "ettercap", "owlbear"]
        .iter()
        .map(|m| load(&format!("monsters/{m}")))
        .collect();
    let encounter = Encounter::build(
        map,
        vec![
            SideSpec { name: "players".into(), combatants: party },
            SideSpec { name: "monsters".into(), combatants: foes },
        ],
    )
    .expect("encounter")
    .with_library(library());
    let mut paralyses = 0;
    for run in 0..40 {
        let (_, t) = crate::runner::run_with_transcript(&encounter, &SimOptions::default(), 1, run);
        let mut paralyzed = BTreeSet::new();
        for r in &t.events {
            match &r.event {
                Event::EffectGained { who, effect, .. } if effect.as_str() == "paralysis" => {
                    paralyzed.insert(*who);
                    paralyses += 1;
                }
                Event::EffectEnds { who, effect, .. } if effect.as_str() == "paralysis" => {
                    paralyzed.remove(who);
                }
                // A summoned row is reused by the next creature summoned.
                Event::SummonEnds { who } | Event::Summoned { who, .. } => {
                    paralyzed.remove(who);
                }
                Event::Attack(a) if !a.aoo => {
                    assert!(
                        !paralyzed.contains(&a.who),
                        "run {run} round {}: {} attacks while paralyzed",
                        r.round,
                        t.id(a.who)
                    );
                }
                _ => {}
            }
        }
    }
    assert!(paralyses > 5, "ghouls paralyzed someone in {paralyses} cases");
}

#[test]
fn against_a_lone_incorporeal_foe_a_mundane_blade_aids_the_magic_one_instead_of_swinging_for_nothing() {
    // A fighter with a plain sword and one with a magic sword against a
    // wraith (incorporeal: the plain sword deals it nothing, UMR
    // "Incorporeal"), 30 battles: the plain sword never attacks it; it aids
    // its companion (Aid Another) once both stand next to the wraith.
    let plain = creature("Plain", json!({ "hp_max": 40, "attacks": [melee("sword", 6, "1d8+3")] }));
    let mut magic_sword = melee("sword", 6, "1d8+3");
    magic_sword["qualities"] = json!(["magic"]);
    let magic = creature("Magic", json!({ "hp_max": 40, "attacks": [magic_sword] }));
    let wraith = data_combatant("data/monsters/wraith.json");
    let encounter = crate::combat::tests::support::encounter(
        crate::combat::tests::support::arena(8, 12),
        vec![("a", plain, at(3, 2)), ("a", magic, at(4, 2)), ("b", wraith, at(3, 9))],
    )
    .with_library(library());
    let (mut aids, mut magic_hits) = (0, 0);
    for run in 0..30 {
        let (_, transcript) = crate::runner::run_with_transcript(&encounter, &SimOptions::default(), 4, run);
        for r in &transcript.events {
            match &r.event {
                Event::Attack(a) if a.who == 0 && !a.aoo => {
                    panic!("run {run} round {}: the plain sword swings at the wraith", r.round)
                }
                Event::Attack(a) if a.who == 1 => magic_hits += 1,
                Event::Combat {
                    who: 0,
                    what: crate::combat::event::CombatEvent::AidAnother { target: 1, attack: true, .. },
                } => aids += 1,
                _ => {}
            }
        }
    }
    assert!(aids >= 30 && magic_hits >= 30, "{aids} aids, {magic_hits} magic attacks in 30 battles");
}
