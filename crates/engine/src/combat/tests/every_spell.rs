//! Every spell file of `data/spells/` is cast once in a small battle: a
//! caster of the spell's class list and level, with slots and caster level
//! enough, aims it at a suitable creature (an ally for harmless spells, a
//! humanoid, an undead, an outsider or a construct enemy, a fallen creature
//! for spells on the dying) or square, and the cast must be carried out. A
//! spell the engine does not play must be refused with `spell_not_playable`,
//! and `docs/rules/magic.md` must name it with the engine's reason.

use std::path::{Path, PathBuf};

use serde_json::json;

use super::support::*;
use crate::combat::action::{Action, ActionResult, Reason};
use crate::combat::engine::Engine;
use crate::combat::prepared::PreparedEncounter;
use crate::map::Pos;
use crate::rng::SeededRng;
use crate::spell::Spell;
use crate::spell::effect::EffectKind;

/// Class lists tried in this order for a spell's caster: the campaign's
/// casters first, then the spell's own lists.
const PREFERRED_LISTS: [&str; 7] = ["wizard", "cleric", "witch", "magus", "bard", "druid", "sorcerer"];

/// Row indices of the test battle.
const CASTER: usize = 0;
const ALLY: usize = 1;
const HUMANOID: usize = 2;
const UNDEAD: usize = 3;
const OUTSIDER: usize = 4;
const CONSTRUCT: usize = 5;

fn spell_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/spells")
}

/// The class list and level a caster of `spell` uses.
fn list_and_level(spell: &Spell) -> (String, u8) {
    if let Some((list, level)) =
        PREFERRED_LISTS.iter().find_map(|l| spell.levels.get(*l).map(|&lv| (l.to_string(), lv)))
    {
        return (list, level);
    }
    let (list, level) = spell
        .levels
        .iter()
        .min_by_key(|(_, l)| **l)
        .unwrap_or_else(|| panic!("{} is on no class list", spell.name));
    (list.clone(), *level)
}

fn dummy(name: &str, extra: serde_json::Value) -> crate::model::Combatant {
    let mut base =
        json!({ "hp_max": 200, "level": 1, "saves": { "fort": 0, "ref": 0, "will": 0 }, "attacks": [] });
    if let (serde_json::Value::Object(b), serde_json::Value::Object(o)) = (&mut base, extra) {
        b.extend(o);
    }
    creature(name, base)
}

fn mindless(kind: &str) -> serde_json::Value {
    json!({ "creature_type": kind, "alignment": "NE", "abilities": { "str_score": 10, "dex_score": 10,
            "con_score": null, "int_score": null, "wis_score": 10, "cha_score": 10 } })
}

/// The battle for `spell`: the caster in the middle, its ally beside it,
/// four enemies (none armed, so casting provokes nothing) around it.
fn battle(spell: &Spell) -> PreparedEncounter {
    let (list, level) = list_and_level(spell);
    let cl = (2 * u32::from(level) + 1).min(20);
    let caster = caster(
        "Caster",
        &[spell.name.as_str()],
        json!({ "spell_list": list, "level": cl, "alignment": "NG", "hp_max": 60,
                "spell_slots": { "1": 3, "2": 3, "3": 3, "4": 3, "5": 3, "6": 3, "7": 3, "8": 3, "9": 3 } }),
    );
    let ally =
        dummy("Ally", json!({ "hp_max": 60, "alignment": "NG", "attacks": [melee("sword", 3, "1d8")] }));
    let humanoid = dummy("Bandit", json!({ "creature_type": "humanoid", "alignment": "CE" }));
    let outsider = dummy("Devil", json!({ "creature_type": "outsider", "alignment": "LE" }));
    prepare_magic(
        arena(7, 9),
        vec![
            ("a", caster, at(4, 4)),
            ("a", ally, at(4, 3)),
            ("b", humanoid, at(4, 5)),
            ("b", dummy("Zombie", mindless("undead")), at(3, 5)),
            ("b", outsider, at(5, 5)),
            ("b", dummy("Golem", mindless("construct")), at(3, 4)),
        ],
    )
}

/// Creatures to aim at, most fitting first.
fn target_order(spell: &Spell) -> Vec<Option<usize>> {
    let helps = spell.harmless;
    let mut order: Vec<Option<usize>> = if helps {
        vec![Some(ALLY), Some(CASTER), None, Some(HUMANOID), Some(UNDEAD), Some(OUTSIDER), Some(CONSTRUCT)]
    } else {
        vec![Some(HUMANOID), Some(UNDEAD), Some(OUTSIDER), Some(CONSTRUCT), None, Some(ALLY), Some(CASTER)]
    };
    if spell.target.as_ref().is_some_and(|t| t.filter.negative_hp) {
        order.insert(0, Some(ALLY));
    }
    order
}

/// Whether `spell` heals and so harms undead.
fn cure(spell: &Spell) -> bool {
    spell.effects.iter().any(|e| matches!(&e.kind, EffectKind::Heal(h) if h.harms_undead))
}

/// Squares to aim an area at: each creature's square, then none.
fn points(e: &Engine<'_, '_, SeededRng>) -> Vec<Option<Pos>> {
    let mut p: Vec<Option<Pos>> = (0..6).map(|i| Some(e.st.pos(i))).collect();
    p.insert(0, None);
    // Last, a free square the caster could stand on (a teleportation's spot).
    let map = e.st.map();
    let free = (0..map.height)
        .flat_map(|row| (0..map.width).map(move |col| Pos::new(row, col)))
        .find(|&q| e.st.can_arrive(CASTER, q));
    p.push(free);
    p
}

/// One refused aim: the creature, the square, and the engine's reason.
type Refusal = (Option<usize>, Option<Pos>, Option<Reason>);

/// Tries every aim in order; the first the engine carries out, or every refusal.
fn cast_somewhere(
    e: &mut Engine<'_, '_, SeededRng>,
    index: u16,
    targets: &[Option<usize>],
) -> Result<ActionResult, Vec<Refusal>> {
    let mut refusals = Vec::new();
    for &t in targets {
        for p in points(e) {
            let mut action = Action::cast(index, t);
            action.destination = p;
            let r = e.execute_for_test(CASTER, action);
            if r.ok {
                return Ok(r);
            }
            if r.reason == Some(Reason::SpellNotPlayable) {
                return Err(vec![(t, p, r.reason)]);
            }
            refusals.push((t, p, r.reason));
        }
    }
    Err(refusals)
}

#[test]
fn every_spell_file_is_cast_in_a_battle_or_refused_with_the_documented_reason() {
    let library = library();
    let magic_doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/rules/magic.md"))
            .expect("docs/rules/magic.md");
    let mut files: Vec<PathBuf> = std::fs::read_dir(spell_dir())
        .expect("data/spells")
        .map(|entry| entry.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert_eq!(files.len(), library.spells.len(), "every file is one spell of the library");
    let (mut cast, mut refused) = (0, 0);
    let mut failures = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("spell file");
        let value: serde_json::Value = serde_json::from_str(&text).expect("spell JSON");
        let name = value["name"].as_str().expect("spell name");
        let (_, spell) =
            library.spell(name).unwrap_or_else(|| panic!("{}: {name} is not in the library", file.display()));
        let prep = battle(spell);
        let index = prep.spell_index(name).expect("the caster's spell");
        let unplayable =
            prep.spell_list().nth(usize::from(index)).and_then(|(_, why)| why.map(str::to_string));
        let mut rng = SeededRng::for_run(7, 0);
        let mut e = started(&prep, &mut rng, None);
        if spell.target.as_ref().is_some_and(|t| t.filter.negative_hp) {
            e.st.fighters[ALLY].hp = -1;
            e.st.fighters[HUMANOID].hp = -1;
        }
        let outcome = cast_somewhere(&mut e, index, &target_order(spell));
        match (&unplayable, outcome) {
            (None, Ok(_)) => {
                cast += 1;
                // A one-round spell takes effect at the start of the caster's next turn.
                for i in 0..prep.deployed() {
                    e.take_turn(i, &mut script(vec![]));
                }
                if cure(spell) {
                    e.st.fighters[CASTER].casting.slots = [3; 10];
                    let r = e.execute_for_test(CASTER, Action::cast(index, Some(UNDEAD)));
                    if !r.ok {
                        failures.push(format!("{name}: not cast on the undead: {:?}", r.reason));
                    }
                }
            }
            (None, Err(refusals)) => failures.push(format!("{name}: every aim refused: {refusals:?}")),
            (Some(why), Err(r)) if r.len() == 1 && r[0].2 == Some(Reason::SpellNotPlayable) => {
                refused += 1;
                let listed =
                    magic_doc.lines().any(|l| l.contains(&format!("**{name}**")) && l.contains(why.as_str()));
                if !listed {
                    failures.push(format!("{name}: refused ({why}) but docs/rules/magic.md has no line `**{name}**` with that reason"));
                }
            }
            (Some(why), other) => {
                failures.push(format!("{name}: not playable ({why}) but answered {other:?}"))
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} spells failed:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
    assert_eq!(cast + refused, files.len());
    assert!(cast > refused, "{cast} cast, {refused} refused");
}
