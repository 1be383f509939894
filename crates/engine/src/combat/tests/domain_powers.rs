//! Domain, school and bloodline powers as actions (`domain_power`; CRB
//! "Evil/Chaos/Death/Trickery Domain", "Necromancy School"): every number
//! (uses a day, rounds, hit and effect) rule by rule, the shipped files'
//! numbers in closed form, and the default policy over many seeds.

use serde_json::json;

use super::monsters::records;
use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind, Reason};
use crate::combat::event::{ClassAbilityEvent, EffectEnd, Event};
use crate::effects::{Behaviour, ConditionId};

/// A cleric of `level` (Wis 18: +4, BAB ¾ level) with these powers.
fn cleric(level: u32, powers: &[&str]) -> crate::model::Combatant {
    creature(
        "Cleric",
        json!({ "level": level, "hp_max": 60, "bab": level * 3 / 4, "alignment": "LE",
                "abilities": { "str_score": 10, "dex_score": 10, "con_score": 12, "int_score": 10,
                               "wis_score": 18, "cha_score": 10 },
                "features": powers,
                "attacks": [melee("mace", 0, "1d8")] }),
    )
}

fn fighter() -> crate::model::Combatant {
    creature(
        "Fighter",
        json!({ "hp_max": 200, "level": 4, "ac": { "total": 18, "touch": 10, "flat_footed": 18 },
                "attacks": [melee("sword", 6, "1d10+4")] }),
    )
}

fn effect_rounds(
    e: &crate::combat::engine::Engine<'_, '_, crate::rng::ScriptedRng>,
    t: usize,
    name: &str,
) -> Option<u32> {
    e.st.fighters[t].effects.iter().find(|x| &*x.effect.name == name).and_then(|x| x.rounds_left)
}

#[test]
fn uses_a_day_are_three_plus_the_ability_modifier_or_the_files_resources() {
    let prep = prepare(
        arena(3, 6),
        vec![("a", cleric(6, &["touch of evil", "Copycat"]), at(1, 1)), ("b", fighter(), at(1, 2))],
    );
    let a = prep.fighters[0].abilities.as_deref().expect("powers");
    // 3 + Wis 4 = 7 each; sickened ½ × 6 = 3 rounds; copycat 6 rounds.
    assert_eq!(prep.fighters[0].pools.powers, [7, 7, 0, 0]);
    assert_eq!(
        a.powers.iter().map(|p| (&*p.name, p.rounds)).collect::<Vec<_>>(),
        [("touch of evil", 3), ("copycat", 6)]
    );
    // The shipped files: uses and rounds from their levels and abilities.
    let shipped = |file: &str| {
        let prep = prepare_magic(
            arena(3, 6),
            vec![("a", data_combatant(file), at(1, 1)), ("b", fighter(), at(1, 4))],
        );
        let a = prep.fighters[0].abilities.as_deref().expect("powers");
        let powers: Vec<(String, u32)> = a.powers.iter().map(|p| (p.name.to_string(), p.rounds)).collect();
        (powers, prep.fighters[0].pools.powers)
    };
    let s = |n: &str, r: u32| (n.to_string(), r);
    // Thrune agent: cleric 6, Wis 18 (+4).
    assert_eq!(
        shipped("data/monsters/thrune_agent.json"),
        (vec![s("touch of evil", 3), s("copycat", 6)], [7, 7, 0, 0])
    );
    // Drow noble: cleric 3, Wis 17 (+3): 6 a day; bleed ½ × 3 = 1 round; chaos 1 round.
    assert_eq!(
        shipped("data/monsters/drow_noble.json"),
        (vec![s("bleeding touch", 1), s("touch of chaos", 1)], [6, 6, 0, 0])
    );
    // Lich: wizard 11, Int 22 (+6): 9 a day, shaken ½ × 11 = 5 rounds.
    assert_eq!(shipped("data/monsters/lich.json"), (vec![s("grave touch", 5)], [9, 0, 0, 0]));
    // Vampire: sorcerer 8, Cha 26 (+8): resources.grave_touch 11; 4 rounds.
    assert_eq!(shipped("data/monsters/vampire.json"), (vec![s("grave touch", 4)], [11, 0, 0, 0]));
}

#[test]
fn touch_of_evil_is_a_melee_touch_that_sickens_for_half_the_cleric_level() {
    let prep = prepare(
        arena(3, 8),
        vec![
            ("a", cleric(6, &["touch of evil"]), at(1, 1)),
            ("b", fighter(), at(1, 2)),
            ("b", fighter(), at(1, 5)),
        ],
    );
    // d20 9 + BAB 4 = 13 vs touch AC 10: a hit; then 5 + 4 = 9: a miss.
    let mut b = Bench::new(&[9, 5]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let touch = |t: usize| Action::at(ActionKind::DomainPower, t).with_option(0);
    turn(&mut e, 0, vec![touch(2)]);
    assert_eq!(e.st.last_results(0)[0].reason, Some(Reason::OutOfRange), "20 ft away");
    assert_eq!(e.st.fighters[0].class.pools.powers[0], 7, "refused: nothing spent");
    turn(&mut e, 0, vec![touch(0)]);
    assert_eq!(e.st.last_results(0)[0].reason, Some(Reason::MissingTarget), "not on itself");
    turn(&mut e, 0, vec![touch(1)]);
    assert!(e.st.has_condition(1, ConditionId::Sickened));
    assert_eq!((effect_rounds(&e, 1, "touch of evil"), e.st.fighters[0].class.pools.powers[0]), (Some(3), 6));
    e.remove_effects_named(1, "touch of evil");
    turn(&mut e, 0, vec![touch(1)]);
    assert!(!e.st.has_condition(1, ConditionId::Sickened), "missed");
    assert_eq!(e.st.fighters[0].class.pools.powers[0], 5, "a miss spends the use");
    e.st.fighters[0].class.pools.powers[0] = 0;
    turn(&mut e, 0, vec![touch(1)]);
    assert_eq!(e.st.last_results(0)[0].reason, Some(Reason::NoAbility), "no use left");
    drop(e);
    let lines = b.lines();
    assert!(lines.iter().any(|l| l.contains("cleric: uses touch of evil on fighter (6 left)")), "{lines:#?}");
}

#[test]
fn touch_of_chaos_bleeding_touch_and_grave_touch_carry_their_effects() {
    let undead = creature("Bones", json!({ "hp_max": 30, "creature_type": "undead" }));
    let prep = prepare(
        arena(3, 8),
        vec![
            ("a", cleric(3, &["touch of chaos", "bleeding touch", "grave touch"]), at(1, 1)),
            ("b", fighter(), at(1, 2)),
            ("b", undead, at(2, 1)),
        ],
    );
    let mut b = Bench::new(&[15, 15, 4, 15, 15, 15]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let power = |k: u8, t: usize| Action::at(ActionKind::DomainPower, t).with_option(k);
    // Touch of chaos: d20s twice, the worse kept, for 1 round.
    turn(&mut e, 0, vec![power(0, 1)]);
    let chaos = e.st.fighters[1].effects.iter().find(|x| &*x.effect.name == "touch of chaos").expect("chaos");
    assert!(chaos.effect.behaviours.iter().any(|b| matches!(b, Behaviour::TakeWorse)));
    assert_eq!(chaos.rounds_left, Some(1));
    // Bleeding touch: refused on an undead (living only), nothing spent.
    turn(&mut e, 0, vec![power(1, 2)]);
    assert_eq!(e.st.last_results(0)[0].reason, Some(Reason::MissingTarget));
    // 3 + Wis 4 for the domains (one chaos spent); grave touch, a school
    // power, counts Intelligence: 3 + 0.
    assert_eq!(e.st.fighters[0].class.pools.powers[..3], [6, 7, 3]);
    // On the fighter: 1d6 at the start of its turns, ½ × 3 = 1 round.
    turn(&mut e, 0, vec![power(1, 1)]);
    assert_eq!(effect_rounds(&e, 1, "bleeding touch"), Some(1));
    assert!(e.st.has_condition(1, ConditionId::Bleeding));
    let hp = e.st.hp(1);
    e.start_of_turn_effects(1);
    assert_eq!(e.st.hp(1), hp - 4, "the 1d6 rolled 4");
    // Any healing stops it.
    e.heal(1, 1);
    assert!(!e.st.has_condition(1, ConditionId::Bleeding));
    assert_eq!(effect_rounds(&e, 1, "bleeding touch"), None);
    // Grave touch: shaken for ½ × 3 = 1 round; the fighter's 4 HD are not
    // fewer than the cleric's level 3: never frightened.
    turn(&mut e, 0, vec![power(2, 1)]);
    assert_eq!(effect_rounds(&e, 1, "grave touch"), Some(1));
    assert!(e.st.has_condition(1, ConditionId::Shaken));
    turn(&mut e, 0, vec![power(2, 1)]);
    assert!(!e.st.has_condition(1, ConditionId::Frightened), "4 HD is not fewer than level 3");
}

#[test]
fn grave_touch_frightens_a_shaken_creature_of_fewer_hit_dice_for_one_round() {
    let prep =
        prepare(arena(3, 8), vec![("a", cleric(11, &["grave touch"]), at(1, 1)), ("b", fighter(), at(1, 2))]);
    let mut b = Bench::new(&[15, 15]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let touch = Action::at(ActionKind::DomainPower, 1).with_option(0);
    turn(&mut e, 0, vec![touch]);
    assert_eq!(effect_rounds(&e, 1, "grave touch"), Some(5), "½ × 11");
    turn(&mut e, 0, vec![touch]);
    assert!(e.st.has_condition(1, ConditionId::Frightened), "shaken, 4 HD < 11");
    assert_eq!(effect_rounds(&e, 1, "grave touch"), Some(1), "frightened for 1 round");
}

#[test]
fn copycat_is_a_move_action_giving_one_image_for_the_cleric_level_in_rounds() {
    let prep =
        prepare(arena(3, 8), vec![("a", cleric(6, &["copycat"]), at(1, 1)), ("b", fighter(), at(1, 2))]);
    let mut b = Bench::new(&[15, 15, 15]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let copycat = Action::new(ActionKind::DomainPower);
    assert_eq!(e.st.data_slot(0, &copycat), Some(crate::combat::action::Slot::Move));
    turn(&mut e, 0, vec![copycat, Action::at(ActionKind::Attack, 1)]);
    let image = e.st.fighters[0].effects.iter().find(|x| &*x.effect.name == "copycat").expect("copycat");
    assert_eq!((image.effect.pool, image.rounds_left), (1, Some(6)));
    assert_eq!(e.st.fighters[0].class.pools.powers[0], 6);
    assert!(e.st.last_results(0).iter().all(|r| r.reason.is_none()), "move + standard: both taken");
    turn(&mut e, 0, vec![copycat]);
    assert_eq!(e.st.last_results(0)[0].reason, Some(Reason::NoAbility), "one copycat at a time");
    assert_eq!(e.st.fighters[0].class.pools.powers[0], 6);
}

/// The default policy: a cleric with touch of evil (no spells) beside a
/// fighter touches it on its first turn, then fights with its mace while
/// the fighter is sickened; the sickness lasts exactly 3 rounds of the
/// cleric (from its turn to its turn).
#[test]
fn the_policy_touches_an_adjacent_fighter_and_the_sickness_lasts_three_rounds() {
    let prep = prepare(
        arena(4, 6),
        vec![("a", cleric(6, &["touch of evil"]), at(1, 1)), ("b", fighter(), at(1, 2))],
    );
    let runs = records(&prep, 20, 200);
    let (mut first_turn_touch, mut worn_off) = (0, 0);
    for events in &runs {
        let first_action = events.iter().find_map(|r| match &r.event {
            Event::ClassAbility { who: 0, what: ClassAbilityEvent::UsesPower { target, power, .. } } => {
                Some((r.round, *target, power.clone()))
            }
            _ => None,
        });
        if let Some((1, 1, p)) = &first_action {
            assert_eq!(p, "touch of evil");
            first_turn_touch += 1;
        }
        let mut gained: Option<u32> = None;
        for r in events {
            match &r.event {
                Event::EffectGained { who: 1, effect, rounds } if effect == "touch of evil" => {
                    assert_eq!(*rounds, Some(3));
                    gained = Some(r.round);
                }
                Event::EffectEnds { who: 1, effect, why: EffectEnd::WearsOff }
                    if effect == "touch of evil" =>
                {
                    assert_eq!(r.round - gained.expect("gained first"), 3, "3 rounds of the cleric");
                    worn_off += 1;
                    gained = None;
                }
                // Never touched again while the sickness lasts.
                Event::ClassAbility { who: 0, what: ClassAbilityEvent::UsesPower { .. } } => {
                    assert!(gained.is_none(), "touched a fighter already sickened");
                }
                _ => {}
            }
        }
    }
    // The cleric acts first half the time (initiative): it touches on round 1
    // unless the fighter downs it first, which 200 hp of cleric do not allow.
    assert!(first_turn_touch >= 190, "{first_turn_touch} of 200");
    assert!(worn_off >= 150, "{worn_off} of 200");
}

/// Copycat and the default policy: the Thrune agent, a foe within 30 ft,
/// takes its image with the move action its turn leaves unused.
#[test]
fn the_policy_takes_copycat_with_an_unused_move_action_near_a_foe() {
    let agent = data_combatant("data/monsters/thrune_agent.json");
    let prep = prepare_magic(arena(6, 8), vec![("a", agent, at(2, 2)), ("b", fighter(), at(2, 4))]);
    let runs = records(&prep, 21, 100);
    let used = runs
        .iter()
        .filter(|events| {
            events.iter().any(|r| {
                matches!(&r.event, Event::ClassAbility { who: 0, what: ClassAbilityEvent::UsesPower { power, .. } } if power == "copycat")
            })
        })
        .count();
    assert!(used >= 90, "{used} of 100");
}
