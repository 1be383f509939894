//! pf1e's LLM layer: an OpenAI-compatible chat-completions client and the
//! tasks the model does. The model never plays in the engine's place: it
//! translates sentences into strategy specs, proposes candidate and
//! adversary specs, and writes the narrative of a report; every number comes
//! from the deterministic engine.
//!
//! ```no_run
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! use std::sync::Arc;
//! use pf1e_llm::{Budget, LlmClient, LlmConfig, MemoryCache, PromptPack, Side, StrategyCompiler};
//!
//! let config = LlmConfig::from_env()?;                 // PF1E_LLM_BASE_URL, _MODEL, _API_KEY
//! let pack = PromptPack::resolve(None)?;                // PF1E_PROMPT_PACK_DIR
//! let client = LlmClient::new(config, Arc::new(MemoryCache::new()), Arc::new(Budget::unlimited()))?;
//! let compiled = StrategyCompiler::new(&pack)?
//!     .compile(&client, Side::Party, "focus their healer, fall back below 30 %")
//!     .await?;
//! assert_eq!(compiled.name, "healer, retreat=0.3");    // the engine's canonical name
//! # Ok(()) }
//! ```
//!
//! Architecture invariants: the engine knows nothing of this crate; workers
//! never call a model (the coordinator or the embedded run resolves every
//! LLM decision before cells are planned, so cell keys stay canonical
//! specs); every completion goes through a [`ResponseCache`] under a
//! composite [`CacheKey`]; the API key ([`Secret`]) never appears in a log,
//! an error, a cache key or a result.

pub mod breaker;
pub mod brief;
pub mod budget;
pub mod cache;
pub mod client;
pub mod compile;
pub mod config;
pub mod error;
pub mod levers;
pub mod pack;
pub mod propose;
pub mod repair;
pub mod replay;
pub mod report;
pub mod secret;
pub mod showcase;
pub mod sleep;
pub mod task;
#[cfg(feature = "testing")]
pub mod testing;
pub mod turn;
pub mod wire;

pub use breaker::{BreakerState, CircuitOpen, Clock, ManualClock, SystemClock};
pub use brief::{CombatantBrief, EncounterBrief, SideBrief};
pub use budget::{Budget, BudgetExhausted, BudgetLimits, BudgetResource, BudgetSpent, Pricing, TokenUsage};
pub use cache::{CacheError, CacheKey, CachedCompletion, MemoryCache, ResponseCache};
pub use client::{ChatModel, ChatRequest, ClientStats, Completion, LlmClient};
pub use compile::{CompileError, CompiledStrategy, STRATEGY_PROMPT, StrategyCompiler};
pub use config::{BreakerPolicy, ConfigError, LlmConfig, RetryPolicy, Sampling, SchemaMode};
pub use error::{LlmError, TransientError};
pub use levers::{LEVER_SCHEMA_VERSION, Lever, LeverValues, lever_table, spec_from_levers, spec_schema};
pub use pack::{BUILTIN_ROOT, ENV_PROMPT_PACK_DIR, Example, PackError, Prompt, PromptPack, PromptVersion};
pub use propose::{CANDIDATES_PROMPT, MAX_PROPOSALS, Proposals, ProposeError, RED_TEAM_PROMPT, SpecProposer};
pub use repair::{
    Answered, DEFAULT_MAX_REPAIRS, MAX_REPAIRS, RepairCounters, RepairError, RepairStats, ask_with_repair,
};
pub use replay::{
    ActionSource, CallRecord, REPLAY_LOG_VERSION, ReplayError, ReplayHeader, ReplayLog, ReplayPolicy,
    RunRecord,
};
pub use report::{NARRATIVE_HEADING, Narrative, REPORT_PROMPT, REPORT_SECTIONS, ReportError, ReportWriter};
pub use secret::Secret;
pub use showcase::{
    MAX_SHOWCASE_RUNS, Showcase, ShowcaseError, ShowcasePolicy, ShowcaseRun, ViewSize, replay,
};
pub use sleep::Sleeper;
pub use task::{REPAIR_PROMPT, Side};
pub use turn::{MAX_TURN_ACTIONS, TurnPlayer, action_schema, answer_schema, parse_actions};
pub use wire::{Message, ResponseFormat, Role};

/// Name of the pack prompt for the per-turn showcase policy.
pub const TURN_PROMPT: &str = "turn";

/// Every prompt a complete pack holds.
pub const PACK_PROMPTS: [&str; 6] =
    [STRATEGY_PROMPT, CANDIDATES_PROMPT, RED_TEAM_PROMPT, TURN_PROMPT, REPORT_PROMPT, REPAIR_PROMPT];
