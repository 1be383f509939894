//! The Foundry sheet parser never panics: random JSON, and valid sheets with
//! one value replaced by random JSON, give a combatant or one error.
//! `PROPTEST_CASES=100000 cargo test -p pf1e-import --test sheet_fuzz`
//! runs it for longer.

use std::path::Path;

use pf1e_engine::spell::SpellBook;
use pf1e_import::ClassTable;
use pf1e_import::foundry::convert;
use proptest::prelude::*;
use serde_json::Value;

fn json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        (-1e12f64..1e12).prop_map(Value::from),
        "[a-z0-9@(), ]{0,12}".prop_map(Value::String),
        prop::sample::select(vec![
            "class",
            "weapon",
            "attack",
            "feat",
            "spell",
            "buff",
            "equipment",
            "race",
            "npc",
            "character",
            "sizeRoll(1, 8, @size)",
            "high",
            "med",
            "2h",
            "natural",
            "mwak",
            "rwak"
        ])
        .prop_map(|s| Value::String(s.into())),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(
                prop::sample::select(vec![
                    "name",
                    "type",
                    "system",
                    "items",
                    "level",
                    "actions",
                    "damage",
                    "parts",
                    "formula",
                    "abilities",
                    "value",
                    "changes",
                    "target",
                    "spellbooks",
                    "hp",
                    "bab",
                    "subType",
                    "equipped",
                    "armor"
                ]),
                inner,
                0..6,
            )
            .prop_map(|m| Value::Object(m.into_iter().map(|(k, v)| (k.to_string(), v)).collect())),
        ]
    })
}

fn sheets() -> Vec<Value> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    ["cleric", "witch", "magus", "gunslinger", "fighter", "cavalier", "npc-warrior"]
        .iter()
        .map(|n| {
            let text = std::fs::read_to_string(dir.join(format!("{n}.foundry.json"))).expect("fixture");
            serde_json::from_str(&text).expect("fixture JSON")
        })
        .collect()
}

/// Every path to a value of `v`.
fn paths(v: &Value, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    out.push(prefix.clone());
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                prefix.push(k.clone());
                paths(x, prefix, out);
                prefix.pop();
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                prefix.push(i.to_string());
                paths(x, prefix, out);
                prefix.pop();
            }
        }
        _ => {}
    }
}

fn replace(v: &mut Value, path: &[String], with: Value) {
    let mut cur = v;
    for key in path {
        cur = match cur {
            Value::Object(m) => m.get_mut(key).expect("path"),
            Value::Array(a) => &mut a[key.parse::<usize>().expect("index")],
            _ => unreachable!("paths only go through containers"),
        };
    }
    *cur = with;
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_json_never_panics(v in json()) {
        let _ = convert(&v.to_string(), "fuzz.json", ClassTable::builtin().unwrap(), &SpellBook::default());
    }

    #[test]
    fn a_sheet_with_one_value_replaced_never_panics(sheet in 0usize..7, pick in any::<prop::sample::Index>(), with in json()) {
        let mut v = sheets().swap_remove(sheet);
        let mut all = Vec::new();
        paths(&v, &mut Vec::new(), &mut all);
        let path = pick.get(&all).clone();
        replace(&mut v, &path, with);
        let _ = convert(&v.to_string(), "fuzz.json", ClassTable::builtin().unwrap(), &SpellBook::default());
    }

    #[test]
    fn truncated_text_never_panics(sheet in 0usize..7, cut in any::<prop::sample::Index>()) {
        let text = sheets().swap_remove(sheet).to_string();
        let at = cut.index(text.len());
        let text: String = text.chars().take(at).collect();
        let _ = convert(&text, "fuzz.json", ClassTable::builtin().unwrap(), &SpellBook::default());
    }
}
