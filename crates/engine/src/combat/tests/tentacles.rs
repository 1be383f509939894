//! Black Tentacles (CRB pg. 248; `combat/spells/grasp.rs`): the grapple's
//! numbers in closed form (CMB = caster level + 5, +5 against a creature it
//! holds, the escape CMD = 10 + CMB, 1d6+4 per success, one d20 for all,
//! 1 round per level), its release on a failed check, a creature walking
//! in, concentration while held, the creatures it cannot grapple, and on
//! the event stream of whole battles: every check's verdict, the success
//! and escape rates against their closed forms, the damage, and the
//! default policy's choice (a cluster of foes, never an ally).

use serde_json::json;

use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind, Slot};
use crate::combat::event::{EffectEnd, EscapeSkill, Event, Record, SpellEffectEvent, SpellEvent};
use crate::combat::prepared::PreparedEncounter;
use crate::effects::{ConditionId as C, Maneuver};
use crate::map::Pos;

const SPELL: &str = "Black Tentacles";

/// A 7th-level wizard (caster level 7: the tentacles' CMB is 7 + 4 + 1 = 12).
fn wizard() -> crate::model::Combatant {
    caster("Wizard", &[SPELL], json!({ "spell_list": "wizard", "level": 7, "hp_max": 60 }))
}

/// A foe with a printed CMD, CMB +2 and Dexterity 10, no Escape Artist.
fn foe(name: &str, cmd: i32) -> crate::model::Combatant {
    creature(
        name,
        json!({ "hp_max": 200, "cmb": 2, "cmd": cmd,
                "attacks": [melee("club", 5, "1d6+3")] }),
    )
}

fn cast_at(prep: &PreparedEncounter, p: Pos) -> Action {
    let mut a = Action::cast(prep.spell_index(SPELL).expect("spell"), None);
    a.destination = Some(p);
    a
}

/// The tentacles' checks in `events`: (round, target, the check's fields).
fn checks(events: &[Record]) -> Vec<(u32, usize, i32, i32, i32, bool, bool)> {
    events
        .iter()
        .filter_map(|r| match r.event {
            Event::SpellEffect {
                who,
                what: SpellEffectEvent::Maneuver { maneuver, d20, bonus, total, cmd, holding, success },
            } => {
                assert_eq!(maneuver, Maneuver::Grapple);
                assert_eq!(total, (d20 + bonus).max(0));
                Some((r.round, who, d20, bonus, cmd, holding, success))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn the_tentacles_grapple_with_caster_level_plus_five_one_d20_for_all_and_deal_1d6_plus_4() {
    let prep = prepare_magic(
        arena(10, 30),
        vec![
            ("a", wizard(), at(1, 1)),
            ("b", foe("A", 20), at(4, 12)),
            ("b", foe("B", 23), at(4, 13)),
            ("b", foe("C", 21), at(5, 12)),
            ("b", foe("Far", 10), at(4, 26)),
        ],
    );
    // One d20 (10) for the three foes inside, one damage die (3) for those it grapples.
    let mut b = Bench::new(&[10, 3]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![cast_at(&prep, at(4, 12))]);
    for t in [1, 3] {
        assert!(e.st.has_condition(t, C::Grappled));
        let (_, bonds) = e.st.bond(t).expect("held");
        // The escape CMD is 10 + the CMB (12), without the +5 of a held foe.
        assert_eq!((bonds.cmb, bonds.escape_artist, bonds.strength), (Some(22), Some(22), None));
        assert_eq!(e.st.data_slot(t, &Action::new(ActionKind::BreakFree)), Some(Slot::Standard));
        // CMB +2 (its grappled −2 undone for escaping) beats untrained Escape Artist (Dex 10 − 4: −2).
        assert_eq!(e.st.best_escape(t, &bonds), Some((EscapeSkill::Cmb, 2, 22)));
    }
    assert!(!e.st.has_condition(2, C::Grappled));
    assert!(!e.st.has_condition(4, C::Grappled));
    // The area is difficult terrain.
    assert!(e.st.zone_difficult(at(4, 14), 1));
    drop(e);
    let got = checks(&b.events);
    // 10 + 12 = 22: A (CMD 20) and C (21) are grappled, B (23) is not; Far is outside.
    assert_eq!(
        got,
        [(1, 1, 10, 12, 20, false, true), (1, 2, 10, 12, 23, false, false), (1, 3, 10, 12, 21, false, true)]
    );
    let dealt: Vec<(usize, u32)> = b
        .events
        .iter()
        .filter_map(|r| match r.event {
            Event::SpellDamage { target, dealt, .. } => Some((target, dealt)),
            _ => None,
        })
        .collect();
    assert_eq!(dealt, [(1, 7), (3, 7)], "1d6 (3) + 4, rolled once for all");
    // 1 round per level: cast in round 1 at caster level 7, it ends at the start of round 8.
    let lasts = b.events.iter().find_map(|r| match &r.event {
        Event::Spell { what: SpellEvent::Lasts { until }, .. } => Some(*until),
        _ => None,
    });
    assert_eq!(lasts, Some(Some(8)));
}

#[test]
fn a_held_foe_faces_plus_five_each_round_takes_the_damage_again_and_is_released_by_a_failed_check() {
    let prep = prepare_magic(arena(10, 30), vec![("a", wizard(), at(1, 1)), ("b", foe("A", 20), at(4, 12))]);
    // Round 1: 8 + 12 = 20 ≥ 20, 1d6 = 1. Round 2: 3 + 17 = 20 against CMD 18 (grappled: −4 Dex, −2 CMD),
    // 1d6 = 6. Round 3: a natural 1 fails: released.
    let mut b = Bench::new(&[8, 1, 3, 6, 1]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![cast_at(&prep, at(4, 12))]);
    assert!(e.st.has_condition(1, C::Grappled));
    let hp = e.st.hp(1);
    assert_eq!(hp, 200 - 5);
    e.start_round();
    turn(&mut e, 0, vec![]);
    assert_eq!(e.st.hp(1), hp - 10, "1d6 (6) + 4 again");
    assert!(e.st.has_condition(1, C::Grappled), "held still");
    assert_eq!(e.st.fighters[1].effects.iter().filter(|f| f.effect.spell.is_some()).count(), 1, "one bond");
    e.start_round();
    turn(&mut e, 0, vec![]);
    assert!(!e.st.has_condition(1, C::Grappled), "a failed check releases it");
    drop(e);
    let got = checks(&b.events);
    assert_eq!(
        got,
        [(1, 1, 8, 12, 20, false, true), (2, 1, 3, 17, 18, true, true), (3, 1, 1, 17, 18, true, false)]
    );
    assert!(
        b.events
            .iter()
            .any(|r| matches!(&r.event, Event::EffectEnds { who: 1, why: EffectEnd::Released, .. }))
    );
}

#[test]
fn a_creature_walking_in_is_grappled_on_a_roll_of_its_own_and_stops_there() {
    let prep = prepare_magic(
        arena(10, 30),
        vec![
            ("a", wizard(), at(4, 1)),
            ("b", foe("Inside", 30), at(4, 12)),
            ("b", foe("Walker", 20), at(4, 19)),
        ],
    );
    // Appear: 2 + 12 against CMD 30 fails. The walker enters: 15 + 12 ≥ 20, 1d6 = 2.
    let mut b = Bench::new(&[2, 15, 2]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![cast_at(&prep, at(4, 12))]);
    assert!(!e.st.has_condition(1, C::Grappled));
    turn(&mut e, 2, vec![Action::new(ActionKind::Move).with_destination(at(4, 15))]);
    assert!(e.st.has_condition(2, C::Grappled));
    assert_eq!(e.st.pos(2), at(4, 16), "stopped on the first square of the area");
    drop(e);
    assert_eq!(checks(&b.events), [(1, 1, 2, 12, 30, false, false), (1, 2, 15, 12, 20, false, true)]);
}

#[test]
fn a_held_caster_concentrates_against_ten_plus_the_tentacles_cmb_plus_the_spell_level() {
    let held = caster("Held", &["Magic Missile"], json!({ "spell_list": "wizard", "cmd": 12 }));
    let prep = prepare_magic(arena(10, 30), vec![("a", wizard(), at(1, 1)), ("b", held, at(4, 12))]);
    let mut b = Bench::new(&[10, 1, 10]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![cast_at(&prep, at(4, 12))]);
    assert!(e.st.has_condition(1, C::Grappled));
    let mm = prep.spell_index("Magic Missile").unwrap();
    turn(&mut e, 1, vec![Action::cast(mm, Some(0))]);
    drop(e);
    let dc = b.events.iter().find_map(|r| match r.event {
        Event::Concentration { who: 1, dc, .. } => Some(dc),
        _ => None,
    });
    assert_eq!(dc, Some(10 + 12 + 1), "CRB Grappled: DC 10 + the grappler's CMB + the spell level");
}

#[test]
fn incorporeal_creatures_and_freedom_of_movement_are_never_checked() {
    let ghost = data_combatant("data/monsters/wraith.json");
    let free = caster("Free", &["Freedom of Movement"], json!({ "spell_list": "cleric", "level": 7 }));
    let prep = prepare_magic(
        arena(10, 30),
        vec![
            ("a", wizard(), at(1, 1)),
            ("b", ghost, at(4, 12)),
            ("b", free, at(4, 13)),
            ("b", foe("C", 10), at(5, 12)),
        ],
    );
    assert!(prep.fighters[1].monster.as_deref().is_some_and(|m| m.incorporeal), "the wraith is incorporeal");
    let fom = prep.spell_index("Freedom of Movement").unwrap();
    let mut b = Bench::new(&[10, 3]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 2, vec![Action::cast(fom, Some(2))]);
    turn(&mut e, 0, vec![cast_at(&prep, at(4, 12))]);
    drop(e);
    let who: Vec<usize> = checks(&b.events).iter().map(|c| c.1).collect();
    assert_eq!(who, [3], "only the corporeal foe without freedom of movement");
}

/// A battle of the wizard (one casting) against three clustered foes (CMD
/// 22) `far` squares away, with the default policy on both sides.
fn cluster(far: i32, ally: bool) -> PreparedEncounter {
    // One 4th-level slot: one casting, whose duration the checks measure.
    let once = caster(
        "Wizard",
        &[SPELL],
        json!({ "spell_list": "wizard", "level": 7, "hp_max": 60, "spell_slots": { "4": 1 } }),
    );
    let mut placed = vec![
        ("a", once, at(5, 1)),
        ("b", foe("A", 22), at(5, far)),
        ("b", foe("B", 22), at(5, far + 1)),
        ("b", foe("C", 22), at(6, far)),
    ];
    if ally {
        placed.push((
            "a",
            creature("Guard", json!({ "hp_max": 200, "attacks": [melee("sword", 5, "1d8+3")] })),
            at(6, far - 1),
        ));
    }
    prepare_magic(arena(12, 40), placed)
}

fn battle(prep: &PreparedEncounter, seed: u64) -> Vec<Record> {
    policy_battle(prep, 41, seed)
}

/// `observed` successes against the closed form: the sum of the events'
/// chances, within 5 standard deviations.
fn near(observed: u32, chances: &[f64], what: &str) {
    let mean: f64 = chances.iter().sum();
    let sigma = chances.iter().map(|p| p * (1.0 - p)).sum::<f64>().sqrt();
    assert!(chances.len() > 500, "{what}: only {} events", chances.len());
    assert!(
        (f64::from(observed) - mean).abs() < 5.0 * sigma.max(1.0),
        "{what}: {observed} against {mean:.1} ± {sigma:.1}"
    );
}

/// P(d20 + bonus ≥ dc), a natural 20 succeeding and a natural 1 failing when `maneuver`.
fn chance(bonus: i32, dc: i32, maneuver: bool) -> f64 {
    let need = dc - bonus;
    let (lo, hi) = if maneuver { (1, 19) } else { (0, 20) };
    f64::from((21 - need).clamp(lo, hi)) / 20.0
}

#[test]
fn over_many_battles_every_check_escape_and_damage_follows_its_closed_form() {
    let prep = cluster(30, false);
    let (mut grabs, mut grab_p, mut escapes, mut escape_p) = (0u32, Vec::new(), 0u32, Vec::new());
    let (mut damage, mut hits, mut cast_battles) = (0u64, 0u64, 0u32);
    let mut rounds_checked_max = 0usize;
    for seed in 0..400u64 {
        let events = battle(&prep, seed);
        let cast_round = events.iter().find_map(|r| match &r.event {
            Event::Casts { who: 0, spell, .. } if spell == SPELL => Some(r.round),
            _ => None,
        });
        let Some(cast_round) = cast_round else { continue };
        cast_battles += 1;
        let got = checks(&events);
        let mut rounds: Vec<u32> = got.iter().map(|c| c.0).collect();
        rounds.dedup();
        // Checks to keep a hold come on the caster's turns after the cast, while the
        // spell lasts (1 round per level: through round cast + 6); a creature
        // walking in may be checked until the caster's turn of round cast + 7.
        let mut holding: Vec<u32> = got.iter().filter(|c| c.5).map(|c| c.0).collect();
        holding.dedup();
        rounds_checked_max = rounds_checked_max.max(holding.len() + 1);
        assert!(
            holding.iter().all(|&r| r > cast_round && r <= cast_round + 6),
            "{holding:?} from {cast_round}"
        );
        assert!(
            rounds.iter().all(|&r| r >= cast_round && r <= cast_round + 7),
            "{rounds:?} from {cast_round}"
        );
        for &(round, who, d20, bonus, cmd, holding, success) in &got {
            assert_eq!(bonus, if holding { 17 } else { 12 }, "CL 7 + 5, +5 when holding");
            assert_eq!(success, d20 != 1 && (d20 == 20 || d20 + bonus >= cmd), "round {round}, {who}");
            grabs += u32::from(success);
            grab_p.push(chance(bonus, cmd, true));
        }
        // The checks to keep a hold are made together on the caster's turn: one d20 a round.
        for round in rounds {
            let mut d20s: Vec<i32> = got.iter().filter(|c| c.0 == round && c.5).map(|c| c.2).collect();
            d20s.dedup();
            assert!(d20s.len() <= 1, "round {round}: {d20s:?}");
        }
        for r in &events {
            match &r.event {
                Event::EscapeCheck { bond, skill, bonus, dc, d20, ok, moving: false, .. }
                    if bond.starts_with(SPELL) =>
                {
                    assert_eq!(*dc, 22, "10 + CMB 12");
                    assert_eq!(*skill, EscapeSkill::Cmb);
                    assert_eq!(*ok, d20 + bonus >= *dc);
                    escapes += u32::from(*ok);
                    escape_p.push(chance(*bonus, *dc, false));
                }
                Event::SpellDamage { who: 0, dealt, rolled, types, .. } if types == &["bludgeoning"] => {
                    assert!((5..=10).contains(rolled), "1d6+4: {rolled}");
                    assert_eq!(dealt, rolled);
                    damage += u64::from(*rolled);
                    hits += 1;
                }
                _ => {}
            }
        }
    }
    // Not cast: foes acting first broke up the cluster before the wizard's turn.
    assert!(cast_battles > 250, "the wizard casts it at the cluster: {cast_battles} battles of 400");
    assert_eq!(rounds_checked_max, 7, "1 round per level: the cast's checks and six more rounds");
    near(grabs, &grab_p, "grapple checks");
    near(escapes, &escape_p, "escapes");
    // Damage rolled once for all in a timing: the mean is still 7.5 per check that held.
    let mean = damage as f64 / hits as f64;
    assert!(hits > 500 && (mean - 7.5).abs() < 0.35, "mean damage {mean:.3} over {hits}");
}

#[test]
fn the_default_policy_throws_the_tentacles_on_a_cluster_of_foes_and_never_on_an_ally() {
    let first_cast = |prep: &PreparedEncounter, seed: u64| {
        battle(prep, seed).into_iter().find_map(|r| match r.event {
            Event::Spell { who: 0, spell, what: SpellEvent::Covers { creatures, .. } } if spell == SPELL => {
                Some(creatures)
            }
            _ => None,
        })
    };
    // Acting first, the wizard throws them on the three foes in round 1, every time.
    let alone = cluster(30, false);
    let mut first = 0;
    for seed in 0..200 {
        let events = battle(&alone, seed);
        let order: Vec<usize> = events
            .iter()
            .filter_map(|r| match r.event {
                Event::Initiative { who, .. } => Some(who),
                _ => None,
            })
            .collect();
        if order.first() != Some(&0) {
            continue;
        }
        first += 1;
        let cast = events.iter().find_map(|r| match &r.event {
            Event::Spell { who: 0, spell, what: SpellEvent::Covers { creatures, .. } } if spell == SPELL => {
                Some((r.round, creatures.clone()))
            }
            _ => None,
        });
        assert_eq!(cast, Some((1, vec![1, 2, 3])), "seed {seed}");
    }
    assert!(first > 30, "{first} battles with the wizard first");
    // A guard beside the foes: the tentacles would catch it.
    let guarded = cluster(30, true);
    for seed in 0..100 {
        if let Some(caught) = first_cast(&guarded, seed) {
            assert!(!caught.contains(&4), "seed {seed}: the guard is caught: {caught:?}");
        }
    }
}

/// The first casting of the tentacles in round 1 by the wizard acting
/// first: the creatures it covers (`None`: the wizard did not act first).
fn first_round_cover(prep: &PreparedEncounter, seed: u64) -> Option<Option<Vec<usize>>> {
    let events = battle(prep, seed);
    let first = events.iter().find_map(|r| match r.event {
        Event::Initiative { who, .. } => Some(who),
        _ => None,
    });
    if first != Some(0) {
        return None;
    }
    Some(events.iter().find_map(|r| match &r.event {
        Event::Spell { who: 0, spell, what: SpellEvent::Covers { creatures, .. } }
            if spell == SPELL && r.round == 1 =>
        {
            Some(creatures.clone())
        }
        _ => None,
    }))
}

#[test]
fn the_default_policy_aims_the_tentacles_at_the_cluster_not_at_the_lone_nearest_foe() {
    // A lone foe 35 ft from the wizard (the nearest, the policy's target),
    // the cluster of three 145 ft away: aimed at the lone foe the area
    // would catch one foe (fewer than `area_min`, 2) and was never cast.
    let once = caster(
        "Wizard",
        &[SPELL],
        json!({ "spell_list": "wizard", "level": 7, "hp_max": 60, "spell_slots": { "4": 1 } }),
    );
    let prep = prepare_magic(
        arena(12, 40),
        vec![
            ("a", once, at(5, 1)),
            ("b", foe("Lone", 22), at(5, 8)),
            ("b", foe("A", 22), at(5, 30)),
            ("b", foe("B", 22), at(5, 31)),
            ("b", foe("C", 22), at(6, 30)),
        ],
    );
    let mut first = 0;
    for seed in 0..150 {
        let Some(cover) = first_round_cover(&prep, seed) else { continue };
        first += 1;
        assert_eq!(cover, Some(vec![2, 3, 4]), "seed {seed}");
    }
    assert!(first > 20, "{first} battles with the wizard first");
}

#[test]
fn two_foes_too_far_apart_for_either_square_are_caught_from_the_square_halfway() {
    // 35 ft apart: an area on either foe misses the other (20-ft radius);
    // from the square halfway (column 23) they are 15 and 20 ft away.
    let once = caster(
        "Wizard",
        &[SPELL],
        json!({ "spell_list": "wizard", "level": 7, "hp_max": 60, "spell_slots": { "4": 1 } }),
    );
    let prep = prepare_magic(
        arena(12, 40),
        vec![("a", once, at(5, 1)), ("b", foe("A", 22), at(5, 20)), ("b", foe("B", 22), at(5, 27))],
    );
    let mut first = 0;
    for seed in 0..150 {
        let Some(cover) = first_round_cover(&prep, seed) else { continue };
        first += 1;
        assert_eq!(cover, Some(vec![1, 2]), "seed {seed}");
    }
    assert!(first > 20, "{first} battles with the wizard first");
}

fn dismiss(prep: &PreparedEncounter) -> Action {
    let mut a = Action::new(ActionKind::DismissSpell);
    a.spell = prep.spell_index(SPELL);
    a
}

#[test]
fn dismissing_the_tentacles_ends_the_area_and_releases_every_creature_they_hold() {
    let prep = prepare_magic(arena(10, 30), vec![("a", wizard(), at(1, 1)), ("b", foe("A", 20), at(4, 12))]);
    // 10 + 12 ≥ 20: held; 1d6 = 3. Round 2: the round's check comes first
    // (10 + 17 ≥ 18, 1d6 = 3), then the dismissal.
    let mut b = Bench::new(&[10, 3, 10, 3]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![cast_at(&prep, at(4, 12))]);
    assert!(e.st.has_condition(1, C::Grappled));
    e.start_round();
    turn(&mut e, 0, vec![dismiss(&prep)]);
    assert!(!e.st.has_condition(1, C::Grappled), "released with the area");
    assert!(e.st.zones.is_empty());
    assert!(!e.st.zone_difficult(at(4, 12), 1), "no difficult terrain left");
    // Nothing left to dismiss.
    e.start_round();
    turn(&mut e, 0, vec![dismiss(&prep)]);
    drop(e);
    let tail: Vec<String> = b
        .events
        .iter()
        .filter(|r| r.round >= 2)
        .filter_map(|r| match &r.event {
            Event::Spell { what: SpellEvent::Dismissed, .. } => Some("dismissed".into()),
            Event::Spell { what: SpellEvent::ZoneEnds, .. } => Some("ends".into()),
            Event::EffectEnds { who: 1, why, .. } => Some(format!("{why:?}")),
            Event::ActionFailed { who: 0, action, reason, .. } => Some(format!("{action}: {reason}")),
            _ => None,
        })
        .collect();
    assert_eq!(tail, ["dismissed", "ends", "Ends", "dismiss_spell: nothing_to_dismiss"]);
}

#[test]
fn when_the_tentacles_run_out_the_creatures_they_hold_are_released() {
    let prep = prepare_magic(arena(10, 30), vec![("a", wizard(), at(1, 1)), ("b", foe("A", 20), at(4, 12))]);
    // The cast (10, 3), then rounds 2 to 7: a check kept (10 + 17 ≥ 18) and 1d6 = 3.
    let mut faces = vec![10, 3];
    for _ in 2..=7 {
        faces.extend([10, 3]);
    }
    let mut b = Bench::new(&faces);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![cast_at(&prep, at(4, 12))]);
    for round in 2..=7 {
        e.start_round();
        turn(&mut e, 0, vec![]);
        assert!(e.st.has_condition(1, C::Grappled), "round {round}");
    }
    // Caster level 7: 7 rounds, it ends at the start of round 8.
    e.start_round();
    turn(&mut e, 0, vec![]);
    assert!(e.st.zones.is_empty());
    assert!(!e.st.has_condition(1, C::Grappled), "the tentacles are gone");
    assert_eq!(e.st.hp(1), 200 - 7 * 7, "seven checks held, 1d6 (3) + 4 each");
    drop(e);
    assert!(
        b.events
            .iter()
            .any(|r| r.round == 8
                && matches!(&r.event, Event::EffectEnds { who: 1, why: EffectEnd::Ends, .. }))
    );
}

/// The wizard's policy turn in round 2 after the tentacles caught `caught`
/// (foes CMD 20, and a guard of its side, CMD 15): whether it dismisses them.
fn dismisses_with(foes: usize) -> bool {
    let guard =
        creature("Guard", json!({ "hp_max": 200, "cmd": 15, "attacks": [melee("sword", 5, "1d8+3")] }));
    let mut placed = vec![("a", wizard(), at(1, 1)), ("a", guard, at(4, 11))];
    for k in 0..foes {
        placed.push(("b", foe("F", 20), at(4 + k as i32, 13)));
    }
    let prep = prepare_magic(arena(10, 30), placed);
    // Every check holds (10 + 12 vs CMD 20 and 15; 10 + 17 against those held).
    let mut faces = vec![10, 3, 10, 3];
    faces.extend(std::iter::repeat_n(1, 200));
    let mut b = Bench::new(&faces);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![cast_at(&prep, at(4, 12))]);
    assert!(e.st.has_condition(1, C::Grappled), "the guard is held");
    e.start_round();
    e.take_turn(0, &mut crate::combat::policy::DefaultPolicy);
    drop(e);
    b.events.iter().any(|r| matches!(&r.event, Event::Spell { who: 0, what: SpellEvent::Dismissed, .. }))
}

#[test]
fn the_default_policy_dismisses_the_tentacles_when_they_hold_as_many_allies_as_foes() {
    assert!(dismisses_with(1), "one ally and one foe held: dismissed");
    assert!(!dismisses_with(2), "one ally and two foes held: kept");
}
