//! When a control spell beats the weapon (`policy::magic`,
//! `docs/strategy.md`): a wizard with Glitterdust prepared opens on two
//! foes who stand together rather than plinking with its crossbow.

use serde_json::json;

use super::support::*;
use crate::combat::event::{Event, Record};
use crate::combat::prepared::PreparedEncounter;

/// A sighted brute: a greataxe (+8, 1d12+6), 60 hit points, AC 16, Will +1.
fn brute(name: &str) -> crate::model::Combatant {
    creature(
        name,
        json!({ "hp_max": 60, "ac": { "total": 16, "touch": 10, "flat_footed": 14 },
                "saves": { "fort": 6, "ref": 2, "will": 1 },
                "attacks": [melee("greataxe", 8, "1d12+6")] }),
    )
}

/// A wizard (Intelligence 18) with these spells and a light crossbow.
fn wizard(spells: &[&str]) -> crate::model::Combatant {
    caster(
        "Wizard",
        spells,
        json!({ "spell_list": "wizard", "casting_ability": "int", "hp_max": 30,
                "abilities": { "str_score": 10, "dex_score": 14, "con_score": 12,
                               "int_score": 18, "wis_score": 10, "cha_score": 10 },
                "attacks": [ranged("light crossbow", 4, "1d8", 80)] }),
    )
}

/// The first spell `who` casts in `events`, and its round.
fn first_spell(events: &[Record], who: usize) -> Option<(u32, String)> {
    events.iter().find_map(|r| match &r.event {
        Event::Casts { who: w, spell, .. } if *w == who => Some((r.round, spell.clone())),
        _ => None,
    })
}

fn opening(prep: &PreparedEncounter, stream: u64) -> Vec<Option<(u32, String)>> {
    (0..30).map(|seed| first_spell(&policy_battle(prep, stream, seed), 0)).collect()
}

#[test]
fn glitterdust_blinds_two_brutes_who_stand_together() {
    let prep = prepare_magic(
        arena(10, 24),
        vec![
            ("a", wizard(&["Glitterdust"]), at(4, 1)),
            ("b", brute("Brute A"), at(4, 15)),
            ("b", brute("Brute B"), at(5, 15)),
        ],
    );
    let got = opening(&prep, 71);
    let round_one = got.iter().filter(|o| matches!(o, Some((1, s)) if s == "Glitterdust")).count();
    assert!(round_one >= 27, "Glitterdust opened {round_one} battles of 30: {got:?}");
}

/// The level-4 party against one bestiary monster on the field map.
fn party_against(monster: &str) -> PreparedEncounter {
    PreparedEncounter::new(&party_on_field(monster)).expect("prepared")
}

/// The rounds in which Nairda (row 3) casts Glitterdust, per battle.
fn nairdas_glitterdust(prep: &PreparedEncounter, seeds: u64) -> Vec<Vec<u32>> {
    (0..seeds)
        .map(|seed| {
            policy_battle(prep, 1, seed)
                .iter()
                .filter_map(|r| match &r.event {
                    Event::Casts { who: 3, spell, .. } if spell == "Glitterdust" => Some(r.round),
                    _ => None,
                })
                .collect()
        })
        .collect()
}

#[test]
fn the_witch_opens_on_the_dragon_with_her_glitterdust_instead_of_her_crossbow() {
    // Issue 20: Nairda shot her crossbow at the dragon all battle with
    // Glitterdust prepared, because an area needed two enemies in it.
    let casts = nairdas_glitterdust(&party_against("young_black_dragon"), 30);
    let early = casts.iter().filter(|c| c.first().is_some_and(|&r| r <= 2)).count();
    assert!(early >= 24, "Glitterdust in her first two rounds in {early} battles of 30: {casts:?}");
}

#[test]
fn the_witch_never_wastes_glitterdust_on_a_blind_ooze() {
    // The ochre jelly is immune to visual effects (ooze traits): the
    // Glitterdust that opens on the dragon is kept against it.
    let casts = nairdas_glitterdust(&party_against("ochre_jelly"), 30);
    assert!(casts.iter().all(Vec::is_empty), "{casts:?}");
}

#[test]
fn an_ooze_is_immune_to_glitterdust_and_to_a_gaze() {
    use crate::combat::SimOptions;
    use crate::effects::ConditionId;
    let prep = prepare_magic(
        arena(6, 12),
        vec![
            ("a", wizard(&["Glitterdust"]), at(1, 1)),
            ("b", data_combatant("data/monsters/ochre_jelly.json"), at(3, 8)),
            ("b", brute("Brute"), at(4, 10)),
        ],
    );
    let mut cast = crate::combat::action::Action::cast(prep.spell_index("Glitterdust").expect("spell"), None);
    cast.destination = Some(at(4, 9));
    // Both fail their Will saves (1s): the brute is blinded, the jelly not.
    let mut b = Bench::new(&[1, 1, 1, 1]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![cast]);
    assert!(e.st.has_condition(2, ConditionId::Blinded), "the brute is blinded");
    assert!(!e.st.has_condition(1, ConditionId::Blinded), "visual effects do nothing to an ooze");
    drop(e);
    // A basilisk's gaze (d100 60: met, Fort 3: fails) petrifies a brute, not the jelly.
    let basilisk = super::monsters::monster(
        "Basilisk",
        json!([{ "kind": "gaze", "name": "gaze", "range_ft": 30, "save": "fort", "dc": 15,
                 "effect": { "petrification": {} } }]),
        json!({}),
    );
    for (label, who, petrified) in
        [("jelly", data_combatant("data/monsters/ochre_jelly.json"), false), ("brute", brute("Brute"), true)]
    {
        let prep =
            prepare(arena(3, 12), vec![("players", who, at(1, 1)), ("monsters", basilisk.clone(), at(1, 4))]);
        let mut b = Bench::new(&[60, 3]);
        let mut e = b.engine(&prep, &SimOptions::default());
        turn(&mut e, 0, vec![]);
        assert_eq!(e.st.fighters[0].dead, petrified, "gaze on the {label}");
    }
}
