//! The value types every other module of the coordinator speaks: strategy
//! specs by canonical name, and cells (one measurement each). A leaf: it
//! imports nothing from the rest of the crate.

use std::collections::BTreeMap;

use pf1e_engine::strategy::SpecError;
use pf1e_llm::Side;
pub use pf1e_wire::variant::HpFraction;
use serde::Deserialize;

/// A strategy spec (party or adversary levers) with its canonical name,
/// which is what enters cache keys. Always resolved: a sentence written in a
/// sweep file is a [`WrittenStrategy`] until the LLM compiles it, and only
/// its compiled spec reaches a job or a cell.
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

/// A strategy as a sweep file writes it: a spec (by name or as a map of
/// levers), or a sentence (`{ nl: "..." }`) the LLM compiles before the
/// sweep is planned. Only the file types of the jobs hold it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WrittenStrategy {
    /// A spec, resolved when read.
    Spec(StrategySpec),
    /// A sentence for the LLM (trimmed, never empty).
    Sentence(String),
}

impl WrittenStrategy {
    /// The engine's default policy, as a file that writes no strategy means.
    pub fn default_spec() -> Self {
        Self::Spec(StrategySpec::default_spec())
    }

    /// The sentence, when the strategy is one.
    pub fn sentence(&self) -> Option<&str> {
        match self {
            Self::Spec(_) => None,
            Self::Sentence(s) => Some(s),
        }
    }
}

/// A sentence the LLM's decisions do not compile.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("strategy {{ nl: {sentence:?} }} ({side}) was not compiled")]
pub struct NotCompiled {
    /// The side the sentence plays.
    pub side: Side,
    /// The sentence.
    pub sentence: String,
}

/// How a job file's strategies become specs: a spec stays itself, a
/// sentence becomes what the LLM compiled it to for its side.
pub type Decide<'a> = dyn FnMut(Side, &WrittenStrategy) -> Result<StrategySpec, NotCompiled> + 'a;

/// What the LLM proposed for a job that asks it for strategies
/// (`llm_candidates`, `llm_adversaries`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Proposals {
    /// Before the model is asked: the places the job asks for, held by the
    /// default spec, so the budget checked before any call reserves them.
    Reserved(usize),
    /// The model's answer (empty when the job asks nothing).
    Answered(Vec<StrategySpec>),
}

impl<'de> Deserialize<'de> for WrittenStrategy {
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
            Written::Name(text) => StrategySpec::parse(&text).map(Self::Spec).map_err(D::Error::custom),
            Written::Levers(map) if map.contains_key("nl") => {
                if map.len() > 1 {
                    return Err(D::Error::custom(
                        "strategy: { nl: \"...\" } is a sentence for the LLM and takes no other key",
                    ));
                }
                match &map["nl"] {
                    serde_yaml::Value::String(s) if !s.trim().is_empty() => {
                        Ok(Self::Sentence(s.trim().to_string()))
                    }
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
                Ok(Self::Spec(StrategySpec::from_engine(spec)))
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
    /// Set when the cell's runs are adventuring days (the `day` job): the
    /// day it plays (its fights and steps), the variant and strategies
    /// being the defaults.
    pub day: Option<pf1e_wire::day::DayPlay>,
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
