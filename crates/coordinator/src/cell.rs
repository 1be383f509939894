//! The value types every other module of the coordinator speaks: strategy
//! specs by canonical name, and cells (one measurement each). A leaf: it
//! imports nothing from the rest of the crate.

use std::collections::BTreeMap;

use pf1e_engine::strategy::SpecError;
pub use pf1e_wire::variant::HpFraction;
use serde::Deserialize;

/// A strategy spec (party or adversary levers) with its canonical name,
/// which is what enters cache keys.
///
/// In a sweep file a strategy may also be a sentence, `{ nl: "..." }`: it
/// is then *pending* until the coordinator (or the embedded run) has it
/// compiled by the LLM and replaces it with the compiled spec
/// ([`StrategySpec::resolve`]); a pending spec never reaches a cell.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct StrategySpec {
    name: String,
    spec: pf1e_engine::strategy::StrategySpec,
    pending: Option<String>,
}

impl StrategySpec {
    /// The engine's default policy.
    pub fn default_spec() -> Self {
        Self::from_engine(pf1e_engine::strategy::StrategySpec::default_spec())
    }

    /// Wraps engine levers.
    pub fn from_engine(spec: pf1e_engine::strategy::StrategySpec) -> Self {
        Self { name: spec.name(), spec, pending: None }
    }

    /// A strategy written as a sentence, to be compiled by the LLM.
    pub fn from_sentence(sentence: &str) -> Self {
        Self { pending: Some(sentence.trim().to_string()), ..Self::default_spec() }
    }

    /// The sentence of a strategy not compiled yet.
    pub fn pending_sentence(&self) -> Option<&str> {
        self.pending.as_deref()
    }

    /// Replaces a pending sentence by the spec it compiled to.
    pub fn resolve(&mut self, compiled: Self) {
        *self = compiled;
    }

    /// The levers.
    pub fn levers(&self) -> &pf1e_engine::strategy::StrategySpec {
        &self.spec
    }

    /// The canonical name of the spec (part of cache keys).
    pub fn as_str(&self) -> &str {
        &self.name
    }

    /// Parses a spec name (`default`, `lowest_hp, retreat=0.5`).
    pub fn parse(text: &str) -> Result<Self, SpecError> {
        pf1e_engine::strategy::StrategySpec::parse(text).map(Self::from_engine)
    }
}

impl<'de> Deserialize<'de> for StrategySpec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        /// A spec is written by name or as a map of levers.
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Written {
            Name(String),
            Levers(BTreeMap<String, serde_yaml::Value>),
        }
        match Written::deserialize(d)? {
            Written::Name(text) => Self::parse(&text).map_err(D::Error::custom),
            Written::Levers(map) if map.contains_key("nl") => {
                if map.len() > 1 {
                    return Err(D::Error::custom(
                        "strategy: { nl: \"...\" } is a sentence for the LLM and takes no other key",
                    ));
                }
                match &map["nl"] {
                    serde_yaml::Value::String(s) if !s.trim().is_empty() => Ok(Self::from_sentence(s)),
                    _ => Err(D::Error::custom("strategy: nl: expected a non-empty sentence")),
                }
            }
            Written::Levers(map) => {
                let mut spec = pf1e_engine::strategy::StrategySpec::default_spec();
                for (key, value) in &map {
                    let text = match value {
                        serde_yaml::Value::String(s) => s.clone(),
                        serde_yaml::Value::Bool(b) => b.to_string(),
                        serde_yaml::Value::Number(n) => n.to_string(),
                        _ => return Err(D::Error::custom(format!("strategy lever {key}: expected a value"))),
                    };
                    spec.set(key, Some(&text)).map_err(|m| D::Error::custom(format!("strategy: {m}")))?;
                }
                Ok(Self::from_engine(spec))
            }
        }
    }
}

/// One measurement: a scenario variant, two strategies, runs and a seed.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct CellSpec {
    /// HP fraction per side (every side, sorted by name).
    pub hp: BTreeMap<String, HpFraction>,
    /// The measured side.
    pub party: String,
    /// Strategy of the party side.
    pub party_strategy: StrategySpec,
    /// Strategy of every other side.
    pub adversary_strategy: StrategySpec,
    /// Seed: run `i` uses the stream (seed, i).
    pub seed: u64,
    /// Number of runs.
    pub runs: u64,
    /// Extra per-side changes (awareness, extra copies); empty for most cells.
    pub extra: BTreeMap<String, SideExtra>,
}

/// Per-side changes of a variant beyond hit points.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct SideExtra {
    /// Awareness of every member, when overridden.
    pub aware: Option<bool>,
    /// Base combatant ids to add one more copy of.
    pub copies: Vec<String>,
    /// Base combatant ids to leave out (the contribution job).
    pub removed: Vec<String>,
    /// When not empty, the side's members by base id, an id repeated for
    /// several copies (the design job's candidate group).
    pub roster: Vec<String>,
}
