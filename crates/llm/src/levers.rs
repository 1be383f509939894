//! The strategy levers as the model sees them: a table built from the
//! engine's public API, the JSON schema generated from it, and the check of
//! an answer in the sweep file's map form (`{"target": "healer",
//! "retreat": 0.3}`) into an engine [`StrategySpec`].
//!
//! [`lever_table`] converts the engine's own lever table, so a lever added
//! to the engine reaches the prompts, the schema and the checks at once. Values are checked here for type and
//! range, then set through the engine's own parser ([`StrategySpec::set`]),
//! which stays the judge of what a lever accepts.

use pf1e_engine::strategy::{LEVERS, LeverKind, StrategySpec};
use serde_json::{Map, Value, json};

/// Version of the lever schema: part of the cache key of every answer
/// checked against it. Bump it when a lever changes meaning.
pub const LEVER_SCHEMA_VERSION: u32 = 1;

/// What values a lever takes.
#[derive(Clone, Debug, PartialEq)]
pub enum LeverValues {
    /// One of these names.
    OneOf(Vec<&'static str>),
    /// A number in [0, 1].
    Fraction,
    /// `true` or `false`.
    Flag,
}

/// One lever of a strategy.
#[derive(Clone, Debug, PartialEq)]
pub struct Lever {
    /// The key in the map form.
    pub key: &'static str,
    /// Its values.
    pub values: LeverValues,
    /// Its default value.
    pub default: Value,
    /// What it does (shown to the model).
    pub meaning: &'static str,
}

/// The levers of a [`StrategySpec`]: the engine's own table
/// ([`pf1e_engine::strategy::LEVERS`]) in the map form's types.
pub fn lever_table() -> Vec<Lever> {
    LEVERS
        .iter()
        .map(|l| {
            let (values, default) = match l.kind {
                LeverKind::Choice(names) => (LeverValues::OneOf(names.to_vec()), json!(l.default)),
                LeverKind::Fraction => {
                    (LeverValues::Fraction, json!(l.default.parse::<f64>().unwrap_or_default()))
                }
                LeverKind::Bool => (LeverValues::Flag, json!(l.default == "true")),
            };
            Lever { key: l.name, values, default, meaning: l.doc }
        })
        .collect()
}

/// The JSON schema of the map form: an object of optional levers, nothing
/// else (an omitted lever keeps its default).
pub fn spec_schema(table: &[Lever]) -> Value {
    let properties: Map<String, Value> = table
        .iter()
        .map(|lever| {
            let mut schema = match &lever.values {
                LeverValues::OneOf(names) => json!({"type": "string", "enum": names}),
                LeverValues::Fraction => json!({"type": "number", "minimum": 0, "maximum": 1}),
                LeverValues::Flag => json!({"type": "boolean"}),
            };
            schema["description"] = json!(format!("{} (default {})", lever.meaning, lever.default));
            (lever.key.to_string(), schema)
        })
        .collect();
    json!({"type": "object", "properties": properties, "additionalProperties": false})
}

/// The levers as text lines for a prompt: `- key: values (default …): meaning`.
pub fn describe_levers(table: &[Lever]) -> String {
    table
        .iter()
        .map(|lever| {
            let values = match &lever.values {
                LeverValues::OneOf(names) => format!("one of {}", names.join(" | ")),
                LeverValues::Fraction => "a number from 0 to 1".to_string(),
                LeverValues::Flag => "true or false".to_string(),
            };
            format!("- {}: {values} (default {}): {}", lever.key, lever.default, lever.meaning)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Reads a strategy in map form; every problem is listed with its place
/// (`at` prefixes each, e.g. `specs[2]`).
pub fn spec_from_levers(table: &[Lever], value: &Value, at: &str) -> Result<StrategySpec, Vec<String>> {
    let place = |key: &str| if at.is_empty() { key.to_string() } else { format!("{at}.{key}") };
    let Some(map) = value.as_object() else {
        let here = if at.is_empty() { "the answer" } else { at };
        return Err(vec![format!("{here}: expected a JSON object of levers, got {}", kind(value))]);
    };
    let mut spec = StrategySpec::default_spec();
    let mut problems = Vec::new();
    let keys: Vec<&str> = table.iter().map(|l| l.key).collect();
    for (key, v) in map {
        let Some(lever) = table.iter().find(|l| l.key == key) else {
            problems.push(format!("{}: unknown lever; the levers are {}", place(key), keys.join(", ")));
            continue;
        };
        let text = match (&lever.values, v) {
            (LeverValues::OneOf(names), Value::String(s)) if names.contains(&s.as_str()) => s.clone(),
            (LeverValues::OneOf(names), _) => {
                problems.push(format!("{}: expected one of {}, got {v}", place(key), names.join(", ")));
                continue;
            }
            (LeverValues::Fraction, Value::Number(n))
                if n.as_f64().is_some_and(|f| (0.0..=1.0).contains(&f)) =>
            {
                n.to_string()
            }
            (LeverValues::Fraction, _) => {
                problems
                    .push(format!("{}: expected a number from 0 to 1 (0.3 means 30 %), got {v}", place(key)));
                continue;
            }
            (LeverValues::Flag, Value::Bool(b)) => b.to_string(),
            (LeverValues::Flag, _) => {
                problems.push(format!("{}: expected true or false, got {v}", place(key)));
                continue;
            }
        };
        if let Err(message) = spec.set(key, Some(&text)) {
            problems.push(format!("{}: {message}", place(key)));
        }
    }
    if problems.is_empty() { Ok(spec) } else { Err(problems) }
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_covers_every_lever_of_the_engine_with_its_default() {
        let table = lever_table();
        let defaults: Map<String, Value> =
            table.iter().map(|l| (l.key.to_string(), l.default.clone())).collect();
        let spec = spec_from_levers(&table, &Value::Object(defaults), "").unwrap();
        assert!(spec.is_default());
        assert_eq!(table.len(), LEVERS.len());
        let spec =
            spec_from_levers(&table, &json!({"power_attack": "never", "maneuver": "trip"}), "").unwrap();
        assert_eq!(spec.name(), "power_attack=never, maneuver=trip");
        // Every single-lever variant of the engine is reachable from the map form.
        for variant in StrategySpec::single_lever_variants() {
            let name = variant.name();
            let map = name_to_map(&table, &name);
            assert_eq!(spec_from_levers(&table, &map, "").unwrap(), variant, "{name}");
        }
    }

    /// `lowest_hp, retreat=0.5` -> {"target": "lowest_hp", "retreat": 0.5}.
    fn name_to_map(table: &[Lever], name: &str) -> Value {
        let mut map = Map::new();
        for token in name.split(", ") {
            let (key, value) = token.split_once('=').unwrap_or(("target", token));
            let lever = table.iter().find(|l| l.key == key).unwrap();
            let v = match lever.values {
                LeverValues::Fraction => json!(value.parse::<f64>().unwrap()),
                LeverValues::Flag => json!(value == "true"),
                LeverValues::OneOf(_) => json!(value),
            };
            map.insert(key.to_string(), v);
        }
        Value::Object(map)
    }

    #[test]
    fn the_map_form_compiles_to_the_canonical_spec() {
        let table = lever_table();
        let spec = spec_from_levers(&table, &json!({"target": "healer", "retreat": 0.3}), "").unwrap();
        assert_eq!(spec.name(), "healer, retreat=0.3");
        let spec = spec_from_levers(&table, &json!({}), "").unwrap();
        assert_eq!(spec.name(), "default");
    }

    #[test]
    fn every_problem_is_listed_with_its_place() {
        let table = lever_table();
        let answer = json!({"target": "wizard", "retreat": 30, "use_charges": "yes", "focus": 1});
        let problems = spec_from_levers(&table, &answer, "specs[1]").unwrap_err();
        assert_eq!(problems.len(), 4, "{problems:?}");
        assert!(problems.iter().any(|p| p.starts_with("specs[1].target: expected one of nearest")));
        assert!(problems.iter().any(|p| p.starts_with("specs[1].retreat: expected a number from 0 to 1")));
        assert!(problems.iter().any(|p| p.starts_with("specs[1].use_charges: expected true or false")));
        assert!(problems.iter().any(|p| p.starts_with("specs[1].focus: unknown lever")));
        let problems = spec_from_levers(&table, &json!(["healer"]), "").unwrap_err();
        assert_eq!(problems, ["the answer: expected a JSON object of levers, got an array"]);
    }

    #[test]
    fn the_schema_lists_each_lever_once_and_allows_nothing_else() {
        let table = lever_table();
        let schema = spec_schema(&table);
        assert_eq!(schema["additionalProperties"], false);
        let props = schema["properties"].as_object().unwrap();
        assert_eq!(props.len(), table.len());
        assert_eq!(props["target"]["enum"], json!(["nearest", "weakest_ac", "lowest_hp", "healer"]));
        assert_eq!(props["retreat"]["maximum"], 1);
        assert_eq!(props["use_charges"]["type"], "boolean");
        let text = describe_levers(&table);
        assert!(text.contains("- spell_policy: one of default | none (default \"default\")"), "{text}");
    }
}
