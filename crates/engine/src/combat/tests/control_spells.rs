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
