//! The value types every other module of the coordinator speaks: strategy
//! specs by canonical name, and cells (one measurement each). A leaf: it
//! imports nothing from the rest of the crate.

use std::collections::BTreeMap;

use pf1e_engine::strategy::SpecError;
pub use pf1e_wire::variant::HpFraction;
use serde::Deserialize;

/// A strategy spec (party or adversary levers) with its canonical name,
/// which is what enters cache keys.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct StrategySpec {
    name: String,
    spec: pf1e_engine::strategy::StrategySpec,
}

impl StrategySpec {
    /// The engine's default policy.
    pub fn default_spec() -> Self {
        Self::from_engine(pf1e_engine::strategy::StrategySpec::default_spec())
    }

    /// Wraps engine levers.
    pub fn from_engine(spec: pf1e_engine::strategy::StrategySpec) -> Self {
        Self { name: spec.name(), spec }
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
}
