//! The ranger's hunter's bond, the companions' (CRB "Ranger", "Hunter's
//! Bond"): closed-form rules (half the favored enemy bonus, to the allies
//! within 30 ft, against the bond's foe only, for the Wisdom modifier in
//! rounds, not stacking with an ally's own favored enemy), the load errors,
//! and the default policy's use over many seeds.

use std::sync::Arc;

use serde_json::json;

use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind, Reason};
use crate::combat::engine::Engine;
use crate::combat::event::{AttackNote, Event, ModSource};
use crate::combat::odds::Swing;
use crate::rng::ScriptedRng;

type E<'a, 'p> = Engine<'a, 'p, ScriptedRng>;

fn attack(e: &E<'_, '_>, a: usize, t: usize) -> i32 {
    e.st.situation(a, 0, t, Swing::default()).attack
}

fn damage(e: &E<'_, '_>, a: usize, t: usize) -> i32 {
    let s = e.st.situation(a, 0, t, Swing::default());
    e.st.damage_bonus(a, 0, t, &s, Swing::default())
}

/// Attack and damage bonus of `a` against `t`.
fn rolls(e: &E<'_, '_>, a: usize, t: usize) -> (i32, i32) {
    (attack(e, a, t), damage(e, a, t))
}

/// A ranger of `level` with Wisdom `wis`, `favored` as its favored enemy
/// feature and the companions' bond.
fn ranger(level: u32, wis: i32, favored: &str) -> crate::model::Combatant {
    creature(
        "Ranger",
        json!({ "level": level, "hp_max": 40, "bab": level,
                "abilities": { "str_score": 14, "dex_score": 16, "con_score": 12, "int_score": 10,
                               "wis_score": wis, "cha_score": 10 },
                "features": [favored, "Hunter's Bond (companions)"],
                "attacks": [melee("longsword", 6, "1d8+2")] }),
    )
}

/// An ally with a sword (+5, 1d8+2) and these features.
fn ally(name: &str, features: serde_json::Value) -> crate::model::Combatant {
    creature(name, json!({ "hp_max": 30, "features": features, "attacks": [melee("sword", 5, "1d8+2")] }))
}

fn foe(name: &str, ctype: &str) -> crate::model::Combatant {
    creature(name, json!({ "hp_max": 60, "creature_type": ctype, "attacks": [melee("claw", 5, "1d6")] }))
}

#[test]
fn a_bond_gives_the_allies_within_30_ft_half_the_bonus_against_its_foe_only() {
    // Ranger (1,1); Near 20 ft away; Far 35 ft away; the ghoul, another
    // undead and an orc beyond them.
    let prep = prepare(
        arena(6, 12),
        vec![
            ("a", ranger(4, 10, "Favored Enemy (undead +2)"), at(1, 1)),
            ("a", ally("Near", json!([])), at(1, 5)),
            ("a", ally("Far", json!([])), at(1, 8)),
            ("b", foe("Ghoul", "undead"), at(2, 6)),
            ("b", foe("Zombie", "undead"), at(4, 6)),
            ("b", foe("Orc", "humanoid"), at(3, 9)),
        ],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let before: Vec<(i32, i32)> =
        [(1, 3), (1, 4), (1, 5), (2, 3), (0, 3)].iter().map(|&(a, t)| rolls(&e, a, t)).collect();
    turn(&mut e, 0, vec![Action::at(ActionKind::HuntersBond, 3)]);
    assert!(e.st.last_results(0)[0].ok, "{:?}", e.st.last_results(0));
    let after: Vec<(i32, i32)> =
        [(1, 3), (1, 4), (1, 5), (2, 3), (0, 3)].iter().map(|&(a, t)| rolls(&e, a, t)).collect();
    // +2 halved: +1 on attack and damage, against the ghoul only, for Near only.
    assert_eq!(after[0], (before[0].0 + 1, before[0].1 + 1), "Near against the bond's foe");
    assert_eq!(after[1], before[1], "another undead is not the bond's foe");
    assert_eq!(after[2], before[2], "nor is the orc");
    assert_eq!(after[3], before[3], "Far was 35 ft away when it was granted");
    assert_eq!(after[4], before[4], "the ranger keeps his own +2, no more");
    // Who was within 30 ft when it was granted keeps it after walking away.
    e.st.relocate(1, at(5, 11));
    assert_eq!(rolls(&e, 1, 3), after[0]);
    // A bond against a foe of no favored type is refused, and the one in force stays.
    turn(&mut e, 0, vec![Action::at(ActionKind::HuntersBond, 5)]);
    assert_eq!(e.st.last_results(0)[0].reason, Some(Reason::NoAbility));
    drop(e);
    assert!(b.events.iter().any(|r| matches!(
        r.event,
        Event::HuntersBond { who: 0, target: 3, bonus: 1, allies: 1, rounds: 1 }
    )));
    let lines = b.lines();
    assert!(
        lines
            .iter()
            .any(|l| l
                .contains("hunter's bond against ghoul: +1 attack and damage to 1 ally(ies) for 1 round(s)")),
        "{lines:#?}"
    );
}

#[test]
fn a_plus_four_gives_two_for_the_wisdom_modifier_in_rounds_and_a_new_bond_replaces_the_last() {
    // Wisdom 14: +2, two rounds counted on the ranger's turns.
    let prep = prepare(
        arena(6, 12),
        vec![
            ("a", ranger(6, 14, "Favored Enemy (undead +4)"), at(1, 1)),
            ("a", ally("Near", json!([])), at(1, 3)),
            ("b", foe("Ghoul", "undead"), at(1, 4)),
            ("b", foe("Zombie", "undead"), at(2, 4)),
        ],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let (ghoul, zombie) = (rolls(&e, 1, 2), rolls(&e, 1, 3));
    turn(&mut e, 0, vec![Action::at(ActionKind::HuntersBond, 2)]);
    assert_eq!(rolls(&e, 1, 2), (ghoul.0 + 2, ghoul.1 + 2));
    turn(&mut e, 0, vec![]);
    assert_eq!(rolls(&e, 1, 2), (ghoul.0 + 2, ghoul.1 + 2), "the second round");
    turn(&mut e, 0, vec![]);
    assert_eq!(rolls(&e, 1, 2), ghoul, "lapsed after two rounds");
    // One bond at a time: the bond on the zombie ends the one on the ghoul.
    turn(&mut e, 0, vec![Action::at(ActionKind::HuntersBond, 2)]);
    turn(&mut e, 0, vec![Action::at(ActionKind::HuntersBond, 3)]);
    assert_eq!((rolls(&e, 1, 2), rolls(&e, 1, 3)), (ghoul, (zombie.0 + 2, zombie.1 + 2)));
}

#[test]
fn a_bond_lasts_one_round_at_the_least_and_the_ranger_s_death_ends_it() {
    // Wisdom 8: −1, one round all the same.
    let prep = prepare(
        arena(6, 12),
        vec![
            ("a", ranger(4, 8, "Favored Enemy (undead +2)"), at(1, 1)),
            ("a", ally("Near", json!([])), at(1, 3)),
            ("b", foe("Ghoul", "undead"), at(1, 4)),
        ],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let base = rolls(&e, 1, 2);
    turn(&mut e, 0, vec![Action::at(ActionKind::HuntersBond, 2)]);
    assert_eq!(rolls(&e, 1, 2), (base.0 + 1, base.1 + 1));
    turn(&mut e, 0, vec![]);
    assert_eq!(rolls(&e, 1, 2), base, "one round");
    turn(&mut e, 0, vec![Action::at(ActionKind::HuntersBond, 2)]);
    e.st.fighters[0].dead = true;
    assert_eq!(rolls(&e, 1, 2), base, "a dead ranger's turns no longer count its rounds");
}

#[test]
fn an_ally_s_own_favored_enemy_does_not_stack_with_the_bond_the_higher_counts() {
    // The bond gives +2 (half of +4). Low has its own +2 (no better: stays
    // +2); High its own +4 (keeps +4); None gains +2.
    let prep = prepare(
        arena(6, 12),
        vec![
            ("a", ranger(6, 10, "Favored Enemy (undead +4)"), at(1, 1)),
            ("a", ally("Low", json!(["Favored Enemy (undead +2)"])), at(1, 3)),
            ("a", ally("High", json!(["Favored Enemy (undead +4)"])), at(2, 3)),
            ("a", ally("None", json!([])), at(3, 3)),
            ("b", foe("Ghoul", "undead"), at(2, 4)),
        ],
    );
    let mut b = Bench::new(&[12, 5]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let before = [rolls(&e, 1, 4), rolls(&e, 2, 4), rolls(&e, 3, 4)];
    turn(&mut e, 0, vec![Action::at(ActionKind::HuntersBond, 4)]);
    assert_eq!(rolls(&e, 1, 4), before[0], "own +2 = the bond's +2: no stacking");
    assert_eq!(rolls(&e, 2, 4), before[1], "own +4 beats the bond's +2");
    assert_eq!(rolls(&e, 3, 4), (before[2].0 + 2, before[2].1 + 2));
    // The attack's breakdown names the bond where it counts.
    turn(&mut e, 3, vec![Action::at(ActionKind::Attack, 4)]);
    drop(e);
    let lines = b.lines();
    assert!(lines.iter().any(|l| l.contains("hunter's bond +2")), "{lines:#?}");
}

/// A ranger file (`parse_combatant`) with `level` and `features`: its load error, if any.
fn load(level: u32, features: serde_json::Value) -> Result<crate::model::Combatant, String> {
    let text = json!({
        "name": "R", "level": level,
        "abilities": { "str_score": 10, "dex_score": 10, "con_score": 10, "int_score": 10,
                       "wis_score": 10, "cha_score": 10 },
        "hp_max": 5, "ac": { "total": 10, "touch": 10, "flat_footed": 10 }, "bab": 0, "initiative_mod": 0,
        "speed_land_ft": 30, "saves": { "fort": 0, "ref": 0, "will": 0 }, "attacks": [], "features": features
    });
    crate::model::parse_combatant(&text.to_string(), "r.json").map_err(|e| e.to_string())
}

#[test]
fn a_bond_below_4th_level_without_a_favored_enemy_or_of_no_known_kind_is_one_error() {
    for (level, features, says) in [
        (3, json!(["Favored Enemy (undead +2)", "Hunter's Bond (companions)"]), "level 4 or more"),
        (4, json!(["Hunter's Bond (companions)"]), "this combatant has no"),
        (4, json!(["Favored Enemy (undead +2)", "Hunter's Bond (friends)"]), "write the bond chosen"),
        (4, json!(["Favored Enemy (undead +2)", "Hunter's Bond"]), "write the bond chosen"),
    ] {
        let err = load(level, features.clone()).expect_err(&features.to_string());
        assert!(err.contains("$.features["), "{err}");
        assert!(err.contains(says), "{features}: {err}");
    }
    let c = load(4, json!(["Favored Enemy (undead +2)", "Hunter's Bond (Companions)"])).expect("the bond");
    let resolved = crate::feats::resolve(&c, crate::feats::FeatCatalog::builtin().expect("catalogue"))
        .expect("resolves");
    assert!(resolved.rules.class.hunters_bond);
    // The animal companion is a combatant file of its own: the feature does nothing.
    let c = load(4, json!(["Hunter's Bond (animal companion)"])).expect("an animal companion");
    let resolved = crate::feats::resolve(&c, crate::feats::FeatCatalog::builtin().expect("catalogue"))
        .expect("resolves");
    assert!(!resolved.rules.class.hunters_bond);
    assert!(resolved.trace()[0].contains("no-op"), "{:?}", resolved.trace());
}

// ---- the default policy ----

/// The reference ranger 4 (an archer; favored enemy undead +2, Wisdom 10:
/// one-round bonds) and the reference fighter against `monsters` on the
/// field map, deployed as `pf1e sim` does.
fn ranger_and_fighter_on_field(monsters: &[&str]) -> crate::combat::PreparedEncounter {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data");
    let map = Arc::new(crate::map::Map::load(&root.join("maps/field.yaml")).expect("field map"));
    let load = |rel: &str| Arc::new(data_combatant(&format!("data/{rel}.json")));
    let encounter = crate::encounter::Encounter::build(
        map,
        vec![
            crate::encounter::SideSpec {
                name: "players".into(),
                combatants: vec![load("pcs/ranger4"), load("pcs/fighter")],
            },
            crate::encounter::SideSpec {
                name: "monsters".into(),
                combatants: monsters.iter().map(|m| load(&format!("monsters/{m}"))).collect(),
            },
        ],
    )
    .expect("encounter");
    crate::combat::PreparedEncounter::new(&encounter).expect("prepared")
}

/// Over `runs` seeds: the battles in which the ranger (combatant 0) bonds,
/// and those in which an ally's attack counts the bond.
fn bond_battles(prep: &crate::combat::PreparedEncounter, runs: u64) -> (usize, usize) {
    let (mut bonded, mut boosted) = (0, 0);
    for run in 0..runs {
        let events = policy_battle(prep, 47, run);
        bonded += usize::from(events.iter().any(|r| matches!(r.event, Event::HuntersBond { who: 0, .. })));
        boosted += usize::from(events.iter().any(|r| {
            matches!(&r.event, Event::Attack(a) if a.notes.iter().any(|n| matches!(n,
                AttackNote::Modifier { source: ModSource::HuntersBond, value: 1 })))
        }));
    }
    (bonded, boosted)
}

/// The reference ranger 4 with her longsword only (one attack at base
/// attack bonus +4: a full attack gives up nothing for the bond's move
/// action) and the reference fighter with his longsword only, side by side,
/// against two `monster`s 50 ft away on an open arena.
fn swords_against(monster: &str) -> crate::combat::PreparedEncounter {
    let melee_only = |rel: &str| {
        let mut c = data_combatant(rel);
        c.attacks.retain(|a| a.kind == crate::model::AttackKind::Melee);
        c
    };
    let ranger = melee_only("data/pcs/ranger4.json");
    let foe = || data_combatant(&format!("data/monsters/{monster}.json"));
    prepare(
        arena(8, 16),
        vec![
            ("a", ranger, at(3, 2)),
            ("a", melee_only("data/pcs/fighter.json"), at(4, 2)),
            ("b", foe(), at(3, 12)),
            ("b", foe(), at(4, 12)),
        ],
    )
}

#[test]
fn over_many_seeds_a_sword_ranger_bonds_against_skeletons_and_the_fighter_s_attacks_count_it() {
    let (bonded, boosted) = bond_battles(&swords_against("skeleton"), 30);
    assert!(bonded >= 20, "bonded in {bonded} of 30 battles");
    assert!(boosted >= 15, "a boosted attack in {boosted} of 30 battles");
}

#[test]
fn over_many_seeds_the_ranger_never_bonds_against_foes_of_no_favored_type() {
    assert_eq!(bond_battles(&swords_against("orc"), 30), (0, 0));
}

#[test]
fn over_many_seeds_the_archer_ranger_keeps_her_rapid_shot_full_attack_rather_than_bond() {
    // Her second arrow is worth some 7 damage, a one-round +1 to the
    // fighter about 1; and the fighter, with his crossbow, is seldom within
    // 30 ft of her when her move action is spare (measured: no bond in 30).
    let prep = ranger_and_fighter_on_field(&["ghoul", "ghoul"]);
    assert_eq!(bond_battles(&prep, 30), (0, 0));
}
