//! The observation, its size against the raw snapshot, the candidates
//! against what the engine then plays, and actions by id.

use std::path::Path;
use std::sync::Arc;

use crate::combat::{
    Action, ActionKind, BattleState, DefaultPolicy, Policy, PreparedEncounter, Reason, SimOptions,
    run_prepared,
};
use crate::encounter::{Encounter, SideSpec};
use crate::map::Map;
use crate::model::load_combatant;
use crate::rng::SeededRng;

use super::*;

fn data() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data")
}

/// The sample arena with `a` against `b` (file names under data/).
fn encounter(a: &[&str], b: &[&str]) -> Encounter {
    let map = Arc::new(Map::load(&data().join("maps/sample_arena.yaml")).unwrap());
    let load = |p: &&str| Arc::new(load_combatant(&data().join(p)).unwrap());
    let names: Vec<String> = map.deployment.iter().map(|(n, _)| n.clone()).collect();
    let sides = vec![
        SideSpec { name: names[0].clone(), combatants: a.iter().map(load).collect() },
        SideSpec { name: names[1].clone(), combatants: b.iter().map(load).collect() },
    ];
    let library = crate::library::load_library(&data().join("spells"), &data().join("monsters")).unwrap();
    Encounter::build(map, sides).unwrap().with_library(Arc::new(library))
}

fn warband() -> Encounter {
    encounter(
        &[
            "pcs/fighter.json",
            "monsters/hobgoblin.json",
            "monsters/drow.json",
            "monsters/celestial_wolf.json",
        ],
        &["monsters/lich.json", "monsters/thrune_agent.json", "monsters/orc.json", "monsters/goblin.json"],
    )
}

/// A policy that records what `look` returns at every turn, then plays the default policy.
struct Spy<F> {
    look: F,
}

impl<F: FnMut(&BattleState<'_>, usize)> Policy for Spy<F> {
    fn plan(&mut self, battle: &BattleState<'_>, actor: usize, out: &mut Vec<Action>) {
        (self.look)(battle, actor);
        DefaultPolicy.plan(battle, actor, out);
    }
}

fn play(enc: &Encounter, seed: u64, policy: &mut dyn Policy) {
    let prep = PreparedEncounter::new(enc).unwrap();
    let options = SimOptions { round_cap: 20, ..SimOptions::default() };
    run_prepared(&prep, &options, &mut SeededRng::for_run(seed, 0), None, policy);
}

#[test]
fn an_observation_names_every_living_combatant_and_pairs_the_acting_one_with_the_others() {
    let enc = warband();
    let mut seen = Vec::new();
    play(&enc, 1, &mut Spy { look: |b: &BattleState<'_>, i| seen.push(observe(b, i)) });
    let first = &seen[0];
    assert_eq!(first.schema_version, OBSERVATION_SCHEMA_VERSION);
    assert_eq!(first.round, 1);
    assert_eq!(first.combatants.len(), 8);
    assert_eq!(first.pairs.len(), 7);
    assert!(first.pairs.iter().all(|p| p.other != first.acting));
    assert_eq!(first.initiative.len(), 8);
    assert!(first.map.terrain.iter().any(|t| t.kind == "wall" && t.move_cost.is_none()));
    assert!(
        !first.map.terrain.iter().any(|t| t.kind == "floor" && t.elevation == 0),
        "plain floor is left out"
    );
    let text = first.render();
    assert!(text.starts_with("schema_version=1\n"), "{text}");
    assert!(text.contains(&format!("acting={}", first.acting)));
    // The serde form round-trips (it is what a replay log stores).
    for o in &seen {
        let json = serde_json::to_string(o).unwrap();
        assert_eq!(&serde_json::from_str::<Observation>(&json).unwrap(), o);
    }
    // Later turns see the battle move on.
    assert!(seen.iter().any(|o| o.round > 1 && !o.last_results.is_empty()));
}

#[test]
fn the_compact_view_is_under_a_quarter_of_the_raw_snapshot() {
    for enc in [warband(), casters(), encounter(&["monsters/goblin.json"], &["monsters/orc.json"])] {
        let prep = PreparedEncounter::new(&enc).unwrap();
        let mut worst = 0.0f64;
        let mut policy = Spy {
            look: |b: &BattleState<'_>, i| {
                let view = observe(b, i).render().len() as f64;
                let raw = serde_json::to_string(&raw_snapshot(&enc, b, i)).unwrap().len() as f64;
                worst = worst.max(view / raw);
            },
        };
        run_prepared(
            &prep,
            &SimOptions { round_cap: 20, ..SimOptions::default() },
            &mut SeededRng::for_run(1, 0),
            None,
            &mut policy,
        );
        assert!(worst > 0.0 && worst < 0.25, "compact view / raw snapshot = {worst:.3}");
    }
}

/// Plays every turn with `pick` applied to the candidates; returns what
/// each played candidate became.
fn play_candidates(
    enc: &Encounter,
    seed: u64,
    pick: fn(&[Action]) -> Action,
) -> Vec<(Action, Vec<crate::combat::ActionResult>)> {
    let mut played: Vec<(usize, Action)> = Vec::new();
    let mut results = Vec::new();
    let mut policy = |b: &BattleState<'_>, i: usize, out: &mut Vec<Action>| {
        // What the previous pick of this combatant became.
        if let Some(k) = played.iter().rposition(|(who, _)| *who == i) {
            let (_, a) = played.remove(k);
            results.push((a, b.last_results(i).to_vec()));
        }
        let menu = candidate_actions(b, i);
        assert!(!menu.is_empty() && menu.len() <= MAX_CANDIDATES);
        for a in &menu {
            let spec = ActionSpec::from_action(b, a);
            assert_eq!(spec.to_action(b).as_ref(), Ok(a), "{spec:?}");
        }
        let a = pick(&menu);
        played.push((i, a));
        out.push(a);
    };
    play(enc, seed, &mut policy);
    results
}

#[test]
fn listed_attacks_charges_and_steps_are_ones_the_engine_plays() {
    let enc = warband();
    let mut checked = 0;
    for seed in 0..6 {
        for (action, results) in play_candidates(&enc, seed, |menu| menu[0]) {
            let Some(r) = results.first() else { continue };
            if matches!(
                action.kind,
                ActionKind::Attack
                    | ActionKind::FullAttack
                    | ActionKind::Charge
                    | ActionKind::FiveFootStep
                    | ActionKind::Move
            ) {
                checked += 1;
                assert!(
                    !matches!(
                        r.reason,
                        Some(
                            Reason::OutOfRange
                                | Reason::NoLineOfEffect
                                | Reason::NoChargePath
                                | Reason::MissingTarget
                                | Reason::NoWeapon
                                | Reason::UnreachableDestination
                        )
                    ),
                    "{action:?} listed but refused: {r:?}"
                );
            }
        }
    }
    assert!(checked > 20, "only {checked} actions checked");
}

#[test]
fn every_listed_action_converts_to_its_serializable_form_and_back() {
    // play_candidates checks the round trip of every menu entry.
    let results = play_candidates(&warband(), 3, |menu| *menu.last().unwrap());
    assert!(!results.is_empty());
}

#[test]
fn an_action_spec_with_an_unknown_name_is_refused() {
    let enc = warband();
    let prep = PreparedEncounter::new(&enc).unwrap();
    let b = BattleState::new(&prep, &SimOptions::default());
    let bad =
        |json: &str| serde_json::from_str::<ActionSpec>(json).unwrap().to_action(&b).unwrap_err().to_string();
    assert!(bad(r#"{"kind": "fireball"}"#).contains("unknown action kind"));
    assert!(bad(r#"{"kind": "attack", "target": "dragon"}"#).contains("no combatant"));
    assert!(bad(r#"{"kind": "maneuver", "maneuver": "suplex"}"#).contains("unknown maneuver"));
    assert!(bad(r#"{"kind": "ready", "trigger": "whenever"}"#).contains("unknown trigger"));
    assert!(bad(r#"{"kind": "maneuver", "direction": [2, 0]}"#).contains("direction"));
    assert!(bad(r#"{"kind": "cast_spell", "spell": "wish"}"#).starts_with("spell: no spell \"wish\""));
    let e = bad(r#"{"kind": "cast_spell", "spell": "fireball", "metamagic": ["supersize"]}"#);
    assert!(e.starts_with("metamagic: unknown metamagic feat \"supersize\""), "{e}");
    let e = bad(r#"{"kind": "hex", "ability": "deadeye", "target": "orc"}"#);
    assert_eq!(e, "ability: unknown hex \"deadeye\"");
    let e = bad(r#"{"kind": "channel_energy", "option": "sideways"}"#);
    assert_eq!(e, "option: \"sideways\" is not an option of this action (expected heal, harm)");
    let e = bad(r#"{"kind": "cast_spell", "spell": "fireball", "option": "north"}"#);
    assert!(e.starts_with("option: \"north\""), "{e}");
    assert!(serde_json::from_str::<ActionSpec>(r#"{"kind": "attack", "spel": "x"}"#).is_err());
    let ok: ActionSpec = serde_json::from_str(r#"{"kind": "attack", "target": "orc"}"#).unwrap();
    assert_eq!(ok.to_action(&b).unwrap().kind, ActionKind::Attack);
}

#[test]
fn a_spell_action_names_its_spell_metamagic_and_mode_and_round_trips() {
    let enc = warband();
    let prep = PreparedEncounter::new(&enc).unwrap();
    let b = BattleState::new(&prep, &SimOptions::default());
    let json = r#"{"kind": "cast_spell", "spell": "Fireball", "metamagic": ["maximize", "empower"], "destination": [3, 4], "defensive": true}"#;
    let a = serde_json::from_str::<ActionSpec>(json).unwrap().to_action(&b).unwrap();
    assert_eq!(a.kind, ActionKind::CastSpell);
    assert_eq!(a.spell, prep.spell_index("fireball"));
    assert!(a.metamagic.has(crate::combat::Metamagic::MAXIMIZE.with(crate::combat::Metamagic::EMPOWER)));
    assert!(a.defensive);
    let spec = ActionSpec::from_action(&b, &a);
    assert_eq!(spec.spell.as_deref(), Some("fireball"));
    assert_eq!(spec.metamagic, ["empower", "maximize"]);
    assert_eq!(spec.to_action(&b), Ok(a));
    let harm = serde_json::from_str::<ActionSpec>(r#"{"kind": "channel_energy", "option": "harm"}"#)
        .unwrap()
        .to_action(&b)
        .unwrap();
    assert_eq!(harm.option, 1);
    assert_eq!(ActionSpec::from_action(&b, &harm).option.as_deref(), Some("harm"));
    let eye = r#"{"kind": "hex", "ability": "evil_eye", "option": "saves", "target": "orc"}"#;
    let eye = serde_json::from_str::<ActionSpec>(eye).unwrap().to_action(&b).unwrap();
    assert_eq!(eye.ability, Some(crate::combat::ClassAbilityUse::Hex(crate::feats::Hex::EvilEye)));
    assert_eq!(eye.option, 2);
    assert_eq!(ActionSpec::from_action(&b, &eye).to_action(&b), Ok(eye));
}

/// The campaign's casters and gunslinger against the lich and its company.
fn casters() -> Encounter {
    encounter(
        &["pcs/oni.json", "pcs/nairda.json", "pcs/misty.json", "pcs/tammara.json"],
        &["monsters/lich.json", "monsters/thrune_agent.json", "monsters/orc.json", "monsters/goblin.json"],
    )
}

fn magical(kind: ActionKind) -> bool {
    matches!(
        kind,
        ActionKind::CastSpell
            | ActionKind::DischargeSpell
            | ActionKind::SpellCombat
            | ActionKind::ChannelEnergy
            | ActionKind::Hex
            | ActionKind::Deed
            | ActionKind::InspireCourage
            | ActionKind::ArcanePool
            | ActionKind::DomainPower
            | ActionKind::Mutagen
    )
}

#[test]
fn listed_spells_and_class_abilities_are_ones_the_engine_plays() {
    let enc = casters();
    let mut played: std::collections::BTreeMap<&'static str, usize> = Default::default();
    // Each turn a magical candidate (the first, a rare kind's, the last) when there is one.
    let picks: [fn(&[Action]) -> Action; 3] = [
        |menu| menu.iter().copied().find(|a| magical(a.kind)).unwrap_or(menu[0]),
        |menu| {
            let rare =
                [ActionKind::SpellCombat, ActionKind::DischargeSpell, ActionKind::Deed, ActionKind::Hex];
            let rare = rare.iter().find_map(|&k| menu.iter().copied().find(|a| a.kind == k));
            rare.or_else(|| menu.iter().copied().filter(|a| magical(a.kind)).nth(1)).unwrap_or(menu[0])
        },
        |menu| menu.iter().copied().rfind(|a| magical(a.kind)).unwrap_or(menu[0]),
    ];
    // The magus alone against an orc, closing in to fight with spell combat.
    let duel = encounter(&["pcs/misty.json"], &["monsters/orc.json"]);
    let close_in: fn(&[Action]) -> Action = |menu| {
        let order = [ActionKind::SpellCombat, ActionKind::Charge, ActionKind::Move];
        order.iter().find_map(|&k| menu.iter().copied().find(|a| a.kind == k)).unwrap_or(menu[0])
    };
    // The alchemist and the fighter against the clerics with domain powers.
    let powers = encounter(
        &["pcs/alchemist4.json", "pcs/fighter.json"],
        &["monsters/thrune_agent.json", "monsters/drow_noble.json"],
    );
    let use_powers: fn(&[Action]) -> Action = |menu| {
        let order = [ActionKind::Mutagen, ActionKind::DomainPower, ActionKind::Charge, ActionKind::Move];
        order.iter().find_map(|&k| menu.iter().copied().find(|a| a.kind == k)).unwrap_or(menu[0])
    };
    let games = (0..6u64)
        .map(|seed| (&enc, seed, picks[seed as usize % 3]))
        .chain((0..3).map(|seed| (&duel, seed, close_in)))
        .chain((0..3).map(|seed| (&powers, seed, use_powers)));
    for (enc, seed, pick) in games {
        for (action, results) in play_candidates(enc, seed, pick) {
            let Some(r) = results.first() else { continue };
            if !magical(action.kind) {
                continue;
            }
            *played.entry(action.kind.name()).or_default() += 1;
            if action.kind == ActionKind::CastSpell && action.destination.is_some() {
                *played.entry("cast_spell_at_a_point").or_default() += 1;
            }
            assert!(
                r.ok || !matches!(
                    r.reason,
                    Some(
                        Reason::OutOfRange
                            | Reason::NoLineOfEffect
                            | Reason::MissingTarget
                            | Reason::UnknownSpell
                            | Reason::SpellNotPlayable
                            | Reason::NoSlot
                            | Reason::DowngradedCastTime
                            | Reason::CannotCast
                            | Reason::SummonsPresent
                            | Reason::NothingHeld
                            | Reason::InvalidDestination
                            | Reason::NoAbility
                            | Reason::NothingToRepair
                            | Reason::NoWeapon
                            | Reason::MissingFeat
                            | Reason::UnsupportedKind
                    )
                ),
                "{action:?} listed but refused: {r:?}"
            );
        }
    }
    let kinds = [
        "cast_spell",
        "cast_spell_at_a_point",
        "channel_energy",
        "hex",
        "deed",
        "arcane_pool",
        "spell_combat",
        "domain_power",
        "drink_mutagen",
    ];
    for kind in kinds {
        assert!(played.get(kind).copied().unwrap_or(0) > 0, "no {kind} played: {played:?}");
    }
    assert!(played["cast_spell"] > 20, "{played:?}");
}

#[test]
fn a_caster_sees_its_spells_by_level_its_slots_and_pools_and_summons_appear_when_summoned() {
    let enc = casters();
    let mut seen: Vec<Observation> = Vec::new();
    play(&enc, 2, &mut Spy { look: |b: &BattleState<'_>, i| seen.push(observe(b, i)) });
    let oni: Vec<&Observation> = seen.iter().filter(|o| o.acting == "oni").collect();
    let first = oni[0].magic.as_ref().expect("the cleric's magic");
    assert_eq!(first.caster_level, 4);
    let orisons = &first.spell_levels[0];
    assert_eq!((orisons.level, orisons.slots_left), (0, None), "orisons at will");
    assert!(orisons.spells.iter().any(|s| s == "guidance"), "{orisons:?}");
    let level1 = first.spell_levels.iter().find(|l| l.level == 1).unwrap();
    assert!(level1.slots_left.unwrap() > 0 && level1.spells.iter().any(|s| s == "bless"), "{level1:?}");
    assert!(first.pools.iter().any(|p| p.name == "channel_energy" && p.left == 5), "{first:?}");
    assert!(first.abilities.iter().any(|a| a.starts_with("channel_positive_")), "{first:?}");
    let text = oni[0].render();
    assert!(text.contains("\nspells level=0 left=at_will known=guidance,"), "{text}");
    assert!(text.contains("pools=channel_energy:5"), "{text}");
    // Rows waiting for summoned creatures are not combatants; summoned ones are.
    assert!(seen[0].combatants.len() == 8 && seen[0].combatants.iter().all(|c| c.summoned.is_none()));
    // The cleric summons only when the creature is worth the round
    // (`policy::magic`): the first battle in which it does.
    let mut with_summons: Vec<Observation> = Vec::new();
    for seed in 2..40 {
        with_summons.clear();
        play(&enc, seed, &mut Spy { look: |b: &BattleState<'_>, i| with_summons.push(observe(b, i)) });
        if with_summons.iter().flat_map(|o| &o.combatants).any(|c| c.summoned.is_some()) {
            break;
        }
    }
    let summoned = with_summons.iter().flat_map(|o| &o.combatants).find(|c| c.summoned.is_some());
    let c = summoned.expect("the cleric summons in one of 38 battles");
    assert_eq!(c.summoned.as_ref().unwrap().by, "oni");
    assert!(with_summons.iter().any(|o| o.render().contains(" summoned_by=oni ")));
    // Slots go down as the battle goes on.
    let slots = |o: &Observation| -> u32 {
        o.magic.as_ref().unwrap().spell_levels.iter().filter_map(|l| l.slots_left).sum()
    };
    let oni_later: Vec<&Observation> = with_summons.iter().filter(|o| o.acting == "oni").collect();
    assert!(slots(oni_later.last().unwrap()) < slots(oni_later[0]), "the cleric spent no slot");
    // Others' spell effects are visible with their rounds left.
    assert!(
        seen.iter().flat_map(|o| &o.combatants).any(|c| c.effects.iter().any(|e| e.rounds_left.is_some())),
        "no timed effect seen"
    );
    let nairda = seen.iter().find(|o| o.acting == "nairda").unwrap().magic.as_ref().unwrap();
    assert!(nairda.abilities.iter().any(|a| a.starts_with("hex_")), "{nairda:?}");
    let tammara = seen.iter().find(|o| o.acting == "tammara").unwrap().magic.as_ref().unwrap();
    assert!(tammara.pools.iter().any(|p| p.name == "grit"), "{tammara:?}");
}
