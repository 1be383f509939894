//! The barbarian's rage, the paladin's smite evil and lay on hands, the
//! ranger's favored enemy, rule by rule (CRB "Barbarian", "Paladin",
//! "Ranger"), and the default policy's use of each over many seeds.

use serde_json::json;

use super::monsters::battles;
use super::support::*;
use crate::combat::SimOptions;
use crate::combat::abilities::{RAGE_FATIGUE_EFFECT, RAGE_WILL_BONUS};
use crate::combat::action::{Action, ActionKind, Reason};
use crate::combat::engine::Engine;
use crate::combat::event::Event;
use crate::combat::odds::Swing;
use crate::effects::{ConditionId, Context, SaveKind};
use crate::rng::ScriptedRng;

type E<'a, 'p> = Engine<'a, 'p, ScriptedRng>;

fn attack(e: &E<'_, '_>, a: usize, t: usize) -> i32 {
    e.st.situation(a, 0, t, Swing::default()).attack
}

/// The AC `t` shows to an attack by `a`.
fn ac(e: &E<'_, '_>, a: usize, t: usize) -> i32 {
    e.st.situation(a, 0, t, Swing::default()).ac
}

fn damage(e: &E<'_, '_>, a: usize, t: usize) -> i32 {
    let s = e.st.situation(a, 0, t, Swing::default());
    e.st.damage_bonus(a, 0, t, &s, Swing::default())
}

fn save(e: &E<'_, '_>, i: usize, kind: SaveKind) -> i32 {
    e.st.save_bonus(i, kind, &Context::default())
}

fn foe(name: &str, overrides: serde_json::Value) -> crate::model::Combatant {
    let mut base = json!({ "hp_max": 60, "alignment": "N", "attacks": [melee("claw", 5, "1d6")] });
    if let (serde_json::Value::Object(b), serde_json::Value::Object(o)) = (&mut base, overrides) {
        b.extend(o);
    }
    creature(name, base)
}

// ---- barbarian ----

/// A barbarian 4 (Str 16, Con 14), `rounds` of rage, a greataxe in two hands.
fn barbarian(rounds: u32) -> crate::model::Combatant {
    creature(
        "Barb",
        json!({ "level": 4, "hp_max": 40, "bab": 4,
                "ac": { "total": 16, "touch": 11, "flat_footed": 15 },
                "abilities": { "str_score": 16, "dex_score": 12, "con_score": 14, "int_score": 10,
                               "wis_score": 10, "cha_score": 8 },
                "saves": { "fort": 6, "ref": 2, "will": 1 },
                "features": ["Rage"], "resources": { "rage_rounds": rounds },
                "attacks": [{ "name": "greataxe", "kind": "melee", "attack_bonus": 7, "two_handed": true,
                              "damage": [{ "formula": "1d12+4", "types": ["slashing"] }], "crit_mult": 3 }] }),
    )
}

#[test]
fn rage_gives_four_strength_and_constitution_two_will_minus_two_ac_and_two_hit_points_a_level() {
    let prep =
        prepare(arena(4, 8), vec![("a", barbarian(3), at(1, 1)), ("b", foe("Foe", json!({})), at(1, 2))]);
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let before = (attack(&e, 0, 1), damage(&e, 0, 1), ac(&e, 1, 0), save(&e, 0, SaveKind::Fort));
    let (will, hp) = (save(&e, 0, SaveKind::Will), e.st.hp(0));
    turn(&mut e, 0, vec![Action::new(ActionKind::Rage)]);
    // Str 16 -> 20: +2 to hit, +3 damage two-handed (1½ × 2); Con 14 -> 18: +2 Fort, +2 hp × 4 levels.
    assert_eq!(
        (attack(&e, 0, 1), damage(&e, 0, 1), ac(&e, 1, 0), save(&e, 0, SaveKind::Fort)),
        (before.0 + 2, before.1 + 3, before.2 - 2, before.3 + 2)
    );
    assert_eq!((save(&e, 0, SaveKind::Will), RAGE_WILL_BONUS), (will + 2, 2));
    assert_eq!((e.st.hp(0), e.st.hp_max(0)), (hp + 8, 48));
    assert_eq!(e.st.fighters[0].class.pools.rage_rounds, 2, "the first round is spent");
    // Already raging: refused.
    turn(&mut e, 0, vec![Action::new(ActionKind::Rage)]);
    assert_eq!(e.st.last_results(0)[0].reason, Some(Reason::NoAbility));
    assert_eq!(e.st.fighters[0].class.pools.rage_rounds, 1, "one round a turn");
    turn(&mut e, 0, vec![]);
    assert_eq!(e.st.fighters[0].class.pools.rage_rounds, 0);
    assert!(e.st.fighters[0].class.rage.is_some());
    // Out of rounds: it ends at the start of the next turn, 3 rounds raged.
    turn(&mut e, 0, vec![]);
    assert!(e.st.fighters[0].class.rage.is_none());
    // Fatigued: Str -2 (-1 to hit), Dex -2 (-1 AC).
    assert_eq!(
        (attack(&e, 0, 1) - before.0, ac(&e, 1, 0), e.st.hp(0), e.st.hp_max(0)),
        (-1, before.2 - 1, hp, 40)
    );
    assert!(e.st.has_condition(0, ConditionId::Fatigued));
    drop(e);
    assert!(
        b.events.iter().any(|r| matches!(r.event, Event::RageEnds { who: 0, rounds: 3, hp: 8, fatigued: 6 }))
    );
    let lines = b.lines();
    assert!(
        lines.iter().any(|l| l.contains("rages (+4 Str, +4 Con: +8 hp, +2 Will, -2 AC; 2 rounds left)")),
        "{lines:#?}"
    );
}

#[test]
fn fatigue_lasts_twice_the_rounds_raged_and_forbids_a_new_rage() {
    let prep =
        prepare(arena(4, 8), vec![("a", barbarian(10), at(1, 1)), ("b", foe("Foe", json!({})), at(1, 5))]);
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::new(ActionKind::Rage)]);
    // Falls unconscious: the rage ends at once, its 8 hit points go (from 48 - 49 = -1 to -9).
    e.wound(0, 49);
    assert!(e.st.fighters[0].class.rage.is_none());
    assert_eq!(e.st.hp(0), -9);
    let fatigue = e.st.fighters[0].effects.iter().find(|x| &*x.effect.name == RAGE_FATIGUE_EFFECT);
    assert!(fatigue.is_some(), "fatigued for 2 rounds");
    e.st.fighters[0].hp = 10;
    turn(&mut e, 0, vec![Action::new(ActionKind::Rage)]);
    assert_eq!(e.st.last_results(0)[0].reason, Some(Reason::NoAbility), "fatigued");
    turn(&mut e, 0, vec![]);
    turn(&mut e, 0, vec![Action::new(ActionKind::Rage)]);
    assert!(e.st.fighters[0].class.rage.is_some(), "fatigue over after 2 rounds");
}

#[test]
fn the_lost_rage_hit_points_can_kill_and_a_battle_s_end_takes_them_back() {
    let prep =
        prepare(arena(4, 8), vec![("a", barbarian(10), at(1, 1)), ("b", foe("Foe", json!({})), at(1, 5))]);
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::new(ActionKind::Rage)]);
    assert_eq!(e.st.carry_out(0).hp, 40, "48 raging, 40 after");
    // 48 - 54 = -6, then -8 more: -14 at Con 14 is dead.
    e.wound(0, 54);
    assert!(e.st.fighters[0].dead);
}

#[test]
fn a_rage_that_ends_with_the_battle_leaves_twice_its_rounds_of_fatigue_for_the_next_fight() {
    let prep =
        prepare(arena(4, 8), vec![("a", barbarian(10), at(1, 1)), ("b", foe("Foe", json!({})), at(1, 5))]);
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    assert!(e.st.carry_out(0).effects.is_empty(), "no rage, no fatigue");
    turn(&mut e, 0, vec![Action::new(ActionKind::Rage)]);
    let fatigue = |e: &E<'_, '_>| {
        let carried = e.st.carry_out(0);
        let found = carried.effects.iter().find(|c| &*c.effect.name == RAGE_FATIGUE_EFFECT).cloned();
        found.map(|c| (c.rounds, c.effect.conditions.has(ConditionId::Fatigued)))
    };
    assert_eq!(fatigue(&e), Some((Some(2), true)), "one round raged: fatigued 2 rounds");
    turn(&mut e, 0, vec![]);
    turn(&mut e, 0, vec![]);
    assert_eq!(e.st.fighters[0].class.rage.map(|r| r.rounds), Some(3), "still raging");
    assert_eq!(fatigue(&e), Some((Some(6), true)), "three rounds raged: fatigued 6 rounds");
}

#[test]
fn a_raging_barbarian_casts_no_spell() {
    let mut c = caster(
        "Rager",
        &["Cure Light Wounds"],
        json!({ "features": ["Rage"], "resources": { "rage_rounds": 5 } }),
    );
    c.level = 5;
    let prep = prepare_magic(arena(4, 8), vec![("a", c, at(1, 1)), ("b", foe("Foe", json!({})), at(1, 5))]);
    let spell = prep.spell_index("Cure Light Wounds").expect("known");
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::new(ActionKind::Rage), Action::cast(spell, Some(0))]);
    assert_eq!(e.st.last_results(0)[1].reason, Some(Reason::CannotCast));
}

#[test]
fn the_policy_rages_once_a_foe_is_within_a_move_or_a_charge_and_keeps_raging() {
    let logs = battles(
        || vec![("players", barbarian(8), at(2, 1)), ("monsters", foe("Ogre", json!({})), at(2, 15))],
        12,
    );
    for log in &logs {
        let rage = log.iter().position(|l| l.contains("barb: rages")).expect("it rages");
        let first_swing = log.iter().position(|l| l.contains("barb: ") && l.contains("greataxe"));
        assert!(first_swing.is_some_and(|s| s > rage), "rage before the first swing: {log:#?}");
        assert_eq!(
            log.iter().filter(|l| l.contains("barb: rages")).count(),
            1,
            "one rage a battle: {log:#?}"
        );
        // Kept while the foe stands: no end before the battle is over, unless out of rounds.
        let end = log.iter().position(|l| l.contains("barb: rage ends"));
        let over = log.iter().position(|l| l.contains("battle over")).expect("a result");
        assert!(end.is_none_or(|k| k > over || log[k].contains("after 8 round")), "{log:#?}");
    }
}

#[test]
fn superstition_adds_its_morale_bonus_on_saves_against_spells_and_quick_reflexes_an_attack_of_opportunity() {
    let mut barb = barbarian(10);
    for power in ["Rage Power (Superstition)", "Rage Power (Quick Reflexes)"] {
        barb.features.push(crate::model::Feature::Name(power.into()));
    }
    let prep = prepare(arena(4, 8), vec![("a", barb, at(1, 1)), ("b", foe("Foe", json!({})), at(1, 5))]);
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let spell = Context { spell: true, ..Context::default() };
    let vs = |e: &E<'_, '_>, kind: SaveKind| e.st.save_bonus(0, kind, &spell) - save(e, 0, kind);
    assert_eq!((vs(&e, SaveKind::Fort), vs(&e, SaveKind::Will)), (0, 0), "not raging");
    let aoo = e.st.fighters[0].turn.aoo_left;
    turn(&mut e, 0, vec![Action::new(ActionKind::Rage)]);
    // Level 4: +3 morale against spells; on Will the rage's +2 morale does not stack with it.
    assert_eq!((vs(&e, SaveKind::Fort), vs(&e, SaveKind::Will)), (3, 1));
    assert_eq!(e.st.fighters[0].turn.aoo_left, aoo + 1);
    e.start_round();
    assert_eq!(e.st.fighters[0].turn.aoo_left, e.st.prep.fighters[0].offense.aoo_per_round + 1);
}

// ---- paladin ----

/// A paladin 4 (Cha 14: +2), two smites, four lays on hands, a longsword.
fn paladin() -> crate::model::Combatant {
    creature(
        "Pal",
        json!({ "level": 4, "hp_max": 40, "bab": 4, "alignment": "LG",
                "ac": { "total": 20, "touch": 10, "flat_footed": 20 },
                "abilities": { "str_score": 16, "dex_score": 10, "con_score": 12, "int_score": 10,
                               "wis_score": 10, "cha_score": 14 },
                "features": ["Smite Evil", "Lay On Hands", "Divine Grace"],
                "resources": { "smite_evil": 2, "lay_on_hands": 4 },
                "attacks": [melee("longsword", 8, "1d8+3")] }),
    )
}

#[test]
fn smite_evil_adds_charisma_to_hit_level_to_damage_doubled_on_the_first_hit_on_undead_and_deflection() {
    let skeleton = foe("Skel", json!({ "alignment": "NE", "creature_type": "undead" }));
    let prep = prepare(
        arena(4, 8),
        vec![
            ("a", paladin(), at(1, 1)),
            ("b", skeleton, at(1, 2)),
            ("b", foe("Other", json!({ "alignment": "CE" })), at(2, 1)),
        ],
    );
    // d20 15 hits AC 10, then 1d8 = 5.
    let mut b = Bench::new(&[15, 5, 15, 5]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let before = (attack(&e, 0, 1), damage(&e, 0, 1), ac(&e, 1, 0), ac(&e, 2, 0));
    turn(&mut e, 0, vec![Action::at(ActionKind::Smite, 1)]);
    // Cha +2 to hit, level 4 to damage, +4 more before the first hit on an undead; +2 deflection against it only.
    assert_eq!(
        (attack(&e, 0, 1), damage(&e, 0, 1), ac(&e, 1, 0), ac(&e, 2, 0)),
        (before.0 + 2, before.1 + 8, before.2 + 2, before.3)
    );
    assert_eq!(e.st.fighters[0].class.pools.smite_evil, 1);
    let hp = e.st.hp(1);
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    // 5 + 3 (printed) + 8.
    assert_eq!(hp - e.st.hp(1), 16);
    assert_eq!(damage(&e, 0, 1), before.1 + 4, "the second hit: level only");
    let hp = e.st.hp(1);
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    assert_eq!(hp - e.st.hp(1), 12);
}

#[test]
fn a_paladin_s_first_hit_is_not_doubled_on_an_evil_humanoid_nor_its_smite_on_a_neutral_foe() {
    let prep = prepare(
        arena(4, 8),
        vec![
            ("a", paladin(), at(1, 1)),
            ("b", foe("Orc", json!({ "alignment": "CE", "creature_type": "humanoid" })), at(1, 2)),
            ("b", foe("Beast", json!({ "alignment": "N", "creature_type": "animal" })), at(2, 1)),
            ("b", foe("Fiend", json!({ "alignment": "LE", "creature_type": "outsider" })), at(2, 2)),
        ],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let plain = damage(&e, 0, 1);
    turn(&mut e, 0, vec![Action::at(ActionKind::Smite, 1)]);
    assert_eq!(damage(&e, 0, 1), plain + 4);
    e.wound(1, 100);
    turn(&mut e, 0, vec![Action::at(ActionKind::Smite, 2)]);
    assert_eq!((damage(&e, 0, 2), e.st.smiting(0)), (plain, None), "wasted on a neutral foe");
    assert!(e.st.smite_doubles_on(3), "an evil outsider");
}

#[test]
fn lay_on_hands_heals_half_level_d6_swift_on_itself_standard_on_an_ally_it_touches() {
    let prep = prepare(
        arena(4, 8),
        vec![
            ("a", paladin(), at(1, 1)),
            ("a", creature("Ally", json!({ "hp_max": 30 })), at(1, 2)),
            ("a", creature("Far", json!({ "hp_max": 30 })), at(1, 6)),
            ("b", foe("Foe", json!({})), at(3, 7)),
        ],
    );
    let mut b = Bench::new(&[4, 6, 1, 2]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.st.fighters[0].hp = 10;
    e.st.fighters[1].hp = -3;
    e.st.fighters[2].hp = 5;
    // Level 4: 2d6. Swift on itself, standard on the ally: both in one turn.
    turn(&mut e, 0, vec![Action::new(ActionKind::LayOnHands), Action::at(ActionKind::LayOnHands, 1)]);
    assert_eq!((e.st.hp(0), e.st.hp(1)), (20, 0));
    assert_eq!(e.st.fighters[0].class.pools.lay_on_hands, 2);
    turn(&mut e, 0, vec![Action::at(ActionKind::LayOnHands, 2)]);
    assert_eq!(e.st.last_results(0)[0].reason, Some(Reason::OutOfRange), "25 ft away");
    turn(&mut e, 0, vec![Action::at(ActionKind::LayOnHands, 3)]);
    assert_eq!(e.st.last_results(0)[0].reason, Some(Reason::NoAbility), "not on a foe");
    assert_eq!(e.st.fighters[0].class.pools.lay_on_hands, 2);
    drop(e);
    let lines = b.lines();
    assert!(lines.iter().any(|l| l.contains("pal: lays on hands: 2d6=10, heals 10 (3 left)")), "{lines:#?}");
    assert!(
        lines.iter().any(|l| l.contains("pal: lays on hands on ally: 2d6=3, heals 3 (2 left)")),
        "{lines:#?}"
    );
}

#[test]
fn the_policy_smites_the_most_dangerous_evil_foe_and_lays_on_hands_when_hurt() {
    let placed = || {
        vec![
            ("players", paladin(), at(2, 2)),
            ("monsters", foe("Imp", json!({ "alignment": "LE", "hp_max": 30 })), at(2, 5)),
            (
                "monsters",
                foe(
                    "Brute",
                    json!({ "alignment": "CE", "hp_max": 40,
                "attacks": [melee("slam", 6, "2d6+4")] }),
                ),
                at(4, 5),
            ),
            (
                "monsters",
                foe(
                    "Beast",
                    json!({ "alignment": "N", "hp_max": 40,
                "attacks": [melee("bite", 6, "3d6+4")] }),
                ),
                at(3, 5),
            ),
        ]
    };
    let logs = battles(placed, 12);
    let (mut healed, mut smote) = (0, 0);
    for log in &logs {
        let smites: Vec<&String> = log.iter().filter(|l| l.contains("pal: smites evil")).collect();
        // Flanked by two of them from the first round (`policy::flank`), she
        // may spend every swift action on her own wounds.
        let Some(first) = smites.first() else { continue };
        smote += 1;
        assert!(first.contains("smites evil brute"), "the slam outdamages the claw: {log:#?}");
        assert!(log.iter().all(|l| !l.contains("smites evil beast")), "never a neutral foe");
        healed += log.iter().filter(|l| l.contains("pal: lays on hands")).count();
    }
    assert!(healed > 0, "hurt below half in some battle, it heals itself");
    assert!(smote >= 8, "she smites in {smote} of 12 battles");
}

#[test]
fn the_policy_lays_on_hands_on_a_dying_ally() {
    let prep = prepare(
        arena(4, 10),
        vec![
            ("a", paladin(), at(1, 1)),
            ("a", creature("Ally", json!({ "hp_max": 30 })), at(1, 4)),
            ("b", foe("Foe", json!({})), at(3, 9)),
        ],
    );
    let mut b = Bench::new(&[3, 3]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.st.fighters[1].hp = -2;
    e.take_turn(0, &mut crate::combat::policy::DefaultPolicy);
    assert_eq!(e.st.hp(1), 4, "moved next to it and healed 2d6 = 6");
}

#[test]
fn aura_of_courage_makes_the_paladin_immune_to_fear_and_gives_allies_within_ten_feet_four_morale_against_it()
{
    use crate::effects::{BonusType, Descriptor, Descriptors, Duration, Effect, Mod, ModTarget, When};
    let mut pal = paladin();
    pal.features.push(crate::model::Feature::Name("Aura of Courage".into()));
    let prep = prepare(
        arena(4, 8),
        vec![
            ("a", pal, at(1, 1)),
            ("a", creature("Near", json!({})), at(1, 3)),
            ("a", creature("Far", json!({})), at(1, 4)),
            ("b", foe("Foe", json!({})), at(3, 7)),
            ("b", foe("Foe2", json!({})), at(1, 2)),
        ],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    assert!(e.st.prep.fighters[0].defense.immune.descriptors.has(Descriptor::Fear));
    assert!(!e.st.prep.fighters[1].defense.immune.descriptors.has(Descriptor::Fear));
    let fear = Context { descriptors: Descriptors::of(&[Descriptor::Fear]), ..Context::default() };
    let will = |e: &E<'_, '_>, i: usize, ctx: &Context| e.st.save_bonus(i, SaveKind::Will, ctx);
    // 10 ft away: +4 morale against fear only; 15 ft: nothing; a foe beside it: nothing.
    assert_eq!(will(&e, 1, &fear), will(&e, 1, &Context::default()) + 4);
    assert_eq!(will(&e, 2, &fear), will(&e, 2, &Context::default()));
    assert_eq!(will(&e, 4, &fear), will(&e, 4, &Context::default()));
    // Another morale bonus against fear does not stack: the higher counts.
    let courage = Effect::new("courage", Duration::UntilRemoved).with_mods(vec![
        Mod::new(ModTarget::Saves, 2, BonusType::Morale).when(When::Descriptor(Descriptor::Fear)),
    ]);
    e.apply_effect(1, courage, None);
    assert_eq!(will(&e, 1, &fear), will(&e, 1, &Context::default()) + 4);
    // An unconscious paladin gives nothing.
    e.st.fighters[0].hp = -1;
    assert_eq!(will(&e, 1, &fear), will(&e, 1, &Context::default()) + 2);
}

// ---- ranger ----

#[test]
fn favored_enemy_adds_its_bonus_to_attack_and_damage_against_its_creature_types_only() {
    let ranger = creature(
        "Ranger",
        json!({ "level": 6, "features": ["Favored Enemy (undead +4)", "Favored Enemy (humanoid)"],
                "attacks": [melee("longsword", 6, "1d8+2")] }),
    );
    let prep = prepare(
        arena(4, 8),
        vec![
            ("a", ranger, at(1, 1)),
            ("b", foe("Skel", json!({ "creature_type": "undead" })), at(1, 2)),
            ("b", foe("Orc", json!({ "creature_type": "humanoid" })), at(2, 1)),
            ("b", foe("Wolf", json!({ "creature_type": "animal" })), at(2, 2)),
        ],
    );
    let mut b = Bench::new(&[12, 5]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let (a0, d0) = (attack(&e, 0, 3), damage(&e, 0, 3));
    assert_eq!((attack(&e, 0, 1) - a0, damage(&e, 0, 1) - d0), (4, 4));
    assert_eq!((attack(&e, 0, 2) - a0, damage(&e, 0, 2) - d0), (2, 2), "+2 when the bonus is not written");
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    drop(e);
    let lines = b.lines();
    assert!(lines.iter().any(|l| l.contains("favored enemy +4")), "{lines:#?}");
}

#[test]
fn a_favored_enemy_without_a_known_type_or_with_an_odd_bonus_is_one_error() {
    for (feature, says) in [
        ("Favored Enemy (goblins +2)", "not a creature type"),
        ("Favored Enemy (undead +3)", "must be +2"),
        ("Favored Enemy", "creature type and the bonus"),
    ] {
        let text = json!({
            "name": "R", "abilities": { "str_score": 10, "dex_score": 10, "con_score": 10, "int_score": 10,
                                        "wis_score": 10, "cha_score": 10 },
            "hp_max": 5, "ac": { "total": 10, "touch": 10, "flat_footed": 10 }, "bab": 0, "initiative_mod": 0,
            "speed_land_ft": 30, "saves": { "fort": 0, "ref": 0, "will": 0 }, "attacks": [], "features": [feature]
        });
        let err = crate::model::parse_combatant(&text.to_string(), "r.json").expect_err(feature).to_string();
        assert!(err.contains("$.features[0]"), "{err}");
        assert!(err.contains(says), "{feature}: {err}");
    }
}

// ---- cleric domains ----

/// A cleric 4 of the Healing domain: Rebuke Death 7 a day, Cure Light
/// Wounds in its spells unless `cures` is false.
fn healer(cures: bool) -> crate::model::Combatant {
    let spells: &[&str] = if cures { &["Cure Light Wounds"] } else { &["Bless"] };
    let mut c = caster(
        "Healer",
        spells,
        json!({ "spell_list": "cleric", "features": ["Rebuke Death"], "resources": { "rebuke_death": 7 } }),
    );
    c.level = 4;
    c
}

#[test]
fn rebuke_death_heals_one_d4_plus_half_the_cleric_level_to_an_ally_below_zero_it_touches() {
    let skeleton = creature("Bones", json!({ "hp_max": 20, "creature_type": "undead" }));
    let prep = prepare_magic(
        arena(4, 8),
        vec![
            ("a", healer(true), at(1, 1)),
            ("a", creature("Ally", json!({ "hp_max": 30 })), at(1, 2)),
            ("a", creature("Far", json!({ "hp_max": 30 })), at(1, 6)),
            ("a", creature("Hurt", json!({ "hp_max": 30 })), at(2, 1)),
            ("a", skeleton, at(2, 2)),
            ("b", foe("Foe", json!({})), at(3, 7)),
        ],
    );
    assert_eq!(prep.fighters[0].abilities.as_deref().and_then(|a| a.rebuke_death).map(|r| r.bonus), Some(2));
    let mut b = Bench::new(&[3, 4]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.st.fighters[1].hp = -4;
    e.st.fighters[2].hp = -4;
    e.st.fighters[3].hp = 5;
    e.st.fighters[4].hp = -1;
    // 1d4 = 3, + 2 (level 4): -4 + 5 = 1.
    turn(&mut e, 0, vec![Action::at(ActionKind::RebukeDeath, 1)]);
    assert_eq!((e.st.hp(1), e.st.fighters[0].class.pools.rebuke_death), (1, 6));
    turn(&mut e, 0, vec![Action::at(ActionKind::RebukeDeath, 2)]);
    assert_eq!(e.st.last_results(0)[0].reason, Some(Reason::OutOfRange), "25 ft away");
    turn(&mut e, 0, vec![Action::at(ActionKind::RebukeDeath, 3)]);
    assert_eq!(e.st.last_results(0)[0].reason, Some(Reason::NoAbility), "5 hp: not below 0");
    turn(&mut e, 0, vec![Action::at(ActionKind::RebukeDeath, 4)]);
    assert_eq!(e.st.last_results(0)[0].reason, Some(Reason::NoAbility), "not a living creature");
    turn(&mut e, 0, vec![Action::at(ActionKind::RebukeDeath, 5)]);
    assert_eq!(e.st.last_results(0)[0].reason, Some(Reason::NoAbility), "not on a foe");
    assert_eq!(e.st.fighters[0].class.pools.rebuke_death, 6, "refused uses are not spent");
    e.st.fighters[0].class.pools.rebuke_death = 0;
    e.st.fighters[1].hp = -2;
    turn(&mut e, 0, vec![Action::at(ActionKind::RebukeDeath, 1)]);
    assert_eq!((e.st.last_results(0)[0].reason, e.st.hp(1)), (Some(Reason::NoAbility), -2), "no use left");
    drop(e);
    let lines = b.lines();
    assert!(
        lines.iter().any(|l| l.contains("healer: rebukes death on ally: 1d4+2=5, heals 5 to 1 hp (6 left)")),
        "{lines:#?}"
    );
}

#[test]
fn the_policy_rebukes_death_when_it_brings_the_ally_up_and_otherwise_keeps_to_its_cures() {
    // Ally at -2: 2.5 + 2 brings it to 1 or more on average; rebuke, no slot spent.
    // Ally at -6: a cure (1d8+4) is worth the slot. Without a cure: rebuke anyway.
    let play = |cures: bool, hp: i32| {
        let prep = prepare_magic(
            arena(4, 10),
            vec![
                ("a", healer(cures), at(1, 1)),
                ("a", creature("Ally", json!({ "hp_max": 30 })), at(1, 4)),
                ("b", foe("Foe", json!({})), at(3, 9)),
            ],
        );
        let mut b = Bench::new(&[2, 2, 2, 2]);
        let mut e = b.engine(&prep, &SimOptions::default());
        e.st.fighters[1].hp = hp;
        e.take_turn(0, &mut crate::combat::policy::DefaultPolicy);
        let used = 7 - e.st.fighters[0].class.pools.rebuke_death;
        (used, e.st.hp(1))
    };
    assert_eq!(play(true, -2), (1, 2), "moved next to it: -2 + 1d4 (2) + 2");
    let (used, hp) = play(true, -6);
    assert_eq!((used, hp), (0, 0), "cure light wounds: 1d8 (2) + 4");
    assert_eq!(play(false, -6), (1, -2), "no cure at hand: -6 + 4");
}
