//! The LLM layer on the command line: the flags every LLM-using command
//! shares ([`LlmArgs`]), building the client (configuration, prompt pack,
//! budget, cache), and the commands and hooks that use it —
//! `pf1e strategy compile` ([`strategy`]), `nl:` sweeps in `pf1e run` and
//! `pf1e coordinator` ([`sweep`]), `--llm-report` ([`report`]), the
//! per-turn showcase `pf1e sim --llm-side` ([`showcase`]) and
//! `pf1e replay` ([`replay`]).
//!
//! The API key is read from `--llm-api-key` or `PF1E_LLM_API_KEY`, held as
//! a [`Secret`] and sent only as the bearer token: it is never printed,
//! logged, cached, journaled or written to a file.

pub mod replay;
pub mod report;
pub mod showcase;
pub mod strategy;
pub mod sweep;

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use pf1e_llm::config::{ENV_API_KEY, ENV_BASE_URL, ENV_MODEL};
use pf1e_llm::{
    Budget, BudgetLimits, CompileError, ConfigError, LlmClient, LlmConfig, LlmError, PackError, Pricing,
    PromptPack, ReplayError, ReportError, ResponseCache, SchemaMode, ShowcaseError,
};
use pf1e_wire::error::causes;

use crate::error::CliError;

/// Flags shared by every command that may call a model.
#[derive(Debug, Clone, Default, clap::Args)]
#[command(next_help_heading = "LLM")]
pub struct LlmArgs {
    // The four settings below also come from the environment, read by the
    // LLM crate (an empty variable counts as unset, which clap's `env`
    // would refuse); a flag wins.
    /// Base URL of an OpenAI-compatible chat-completions API [env: PF1E_LLM_BASE_URL] [default: https://api.openai.com/v1].
    #[arg(long, value_name = "URL")]
    pub llm_base_url: Option<String>,
    /// Model name [env: PF1E_LLM_MODEL] [default: gpt-4o-mini].
    #[arg(long, value_name = "NAME")]
    pub llm_model: Option<String>,
    /// API key, sent as a bearer token [env: PF1E_LLM_API_KEY, preferred: a flag shows in `ps`]; local servers need none.
    #[arg(long, value_name = "KEY")]
    pub llm_api_key: Option<String>,
    /// Prompt pack directory [env: PF1E_PROMPT_PACK_DIR] [default: the French pack built in, data/prompt-packs/fr].
    #[arg(long, value_name = "DIR")]
    pub prompt_pack: Option<PathBuf>,
    /// Most HTTP calls to the model (retries included); cache hits are free.
    #[arg(long, value_name = "N")]
    pub llm_max_calls: Option<u64>,
    /// Most tokens (prompt plus completion).
    #[arg(long, value_name = "N")]
    pub llm_max_tokens: Option<u64>,
    /// Most estimated cost in US dollars (needs the prices).
    #[arg(long, value_name = "USD")]
    pub llm_max_cost_usd: Option<f64>,
    /// Price of 1,000 prompt tokens in US dollars.
    #[arg(long, value_name = "USD", default_value_t = 0.0)]
    pub llm_price_in: f64,
    /// Price of 1,000 completion tokens in US dollars.
    #[arg(long, value_name = "USD", default_value_t = 0.0)]
    pub llm_price_out: f64,
    /// Repairs after an invalid answer (the model gets its answer and the problems back); at most 5.
    #[arg(long, value_name = "N", default_value_t = pf1e_llm::DEFAULT_MAX_REPAIRS,
          value_parser = clap::value_parser!(u32).range(0..=i64::from(pf1e_llm::MAX_REPAIRS)))]
    pub llm_max_repairs: u32,
    /// Timeout of one HTTP attempt, in seconds.
    #[arg(long, value_name = "SECS", default_value_t = 30, value_parser = crate::args::positive::<u64>)]
    pub llm_timeout_secs: u64,
    /// Ask for `{"type": "json_object"}` instead of a JSON schema (servers without structured outputs).
    #[arg(long)]
    pub llm_json_object: bool,
}

/// A client and what it needs, built from [`LlmArgs`].
pub struct Llm {
    /// The client.
    pub client: LlmClient,
    /// The prompt pack.
    pub pack: PromptPack,
    /// Repairs per answer.
    pub max_repairs: u32,
}

impl LlmArgs {
    /// A setting: its flag, else its environment variable.
    fn lookup(&self, name: &str) -> Option<String> {
        let flag = match name {
            ENV_BASE_URL => self.llm_base_url.clone(),
            ENV_MODEL => self.llm_model.clone(),
            ENV_API_KEY => self.llm_api_key.clone(),
            _ => None,
        };
        flag.filter(|v| !v.trim().is_empty()).or_else(|| std::env::var(name).ok())
    }

    /// Whether a base URL or an API key is set (flag or environment): no
    /// model is called otherwise.
    pub fn is_configured(&self) -> bool {
        LlmConfig::is_configured(|name| self.lookup(name))
    }

    /// The client configuration (flags, else the environment, else the
    /// defaults); an error naming what to set when no LLM is configured.
    pub fn config(&self) -> Result<LlmConfig, CliError> {
        let mut config = LlmConfig::from_lookup(|name| self.lookup(name)).map_err(config_error)?;
        config.timeout = Duration::from_secs(self.llm_timeout_secs);
        if self.llm_json_object {
            config.schema_mode = SchemaMode::JsonObject;
        }
        Ok(config)
    }

    /// The budget of this process: built once from the first flags asked
    /// (a process runs one command), then shared by every client it makes
    /// (a run's resolution and its report spend from the same ceilings).
    pub fn budget(&self) -> Result<Arc<Budget>, CliError> {
        static BUDGET: OnceLock<Arc<Budget>> = OnceLock::new();
        if let Some(b) = BUDGET.get() {
            return Ok(Arc::clone(b));
        }
        let b = Arc::new(self.new_budget()?);
        Ok(Arc::clone(BUDGET.get_or_init(|| b)))
    }

    fn new_budget(&self) -> Result<Budget, CliError> {
        let limits = BudgetLimits {
            max_calls: self.llm_max_calls,
            max_total_tokens: self.llm_max_tokens,
            max_cost_usd: self.llm_max_cost_usd,
        };
        let pricing = Pricing { input_per_1k_usd: self.llm_price_in, output_per_1k_usd: self.llm_price_out };
        Budget::new(limits, pricing).map_err(config_error)
    }

    /// The prompt pack: `--prompt-pack`, else `PF1E_PROMPT_PACK_DIR`, else the built-in French pack.
    pub fn pack(&self) -> Result<PromptPack, CliError> {
        PromptPack::resolve(self.prompt_pack.as_deref()).map_err(pack_error)
    }

    /// Everything, checked at start (a bad pack or flag is an error before
    /// any call), with completions cached in `cache`.
    pub fn build(&self, cache: Arc<dyn ResponseCache>) -> Result<Llm, CliError> {
        let pack = self.pack()?;
        let client = LlmClient::new(self.config()?, cache, self.budget()?).map_err(config_error)?;
        Ok(Llm { client, pack, max_repairs: self.llm_max_repairs })
    }
}

/// Where commands without a sweep database of their own (`sim`, `strategy
/// compile`, `ctl results`) cache completions.
#[derive(Debug, Clone, Default, clap::Args)]
#[command(next_help_heading = "LLM")]
pub struct LlmCacheArgs {
    /// Cache of LLM responses (default: the run cache, $PF1E_CACHE, else $XDG_CACHE_HOME/pf1e/cache.redb).
    #[arg(long, value_name = "FILE")]
    pub llm_cache: Option<PathBuf>,
    /// Keep LLM responses in memory only.
    #[arg(long, conflicts_with = "llm_cache")]
    pub llm_no_cache: bool,
}

impl LlmCacheArgs {
    /// The cache: a redb file (the run cache unless named) or memory.
    pub fn open(&self) -> Result<Arc<dyn ResponseCache>, CliError> {
        if self.llm_no_cache {
            return Ok(Arc::new(pf1e_llm::MemoryCache::new()));
        }
        let path = self.llm_cache.clone().unwrap_or_else(crate::cmd::cache::default_db);
        let store = pf1e_coordinator::store::Store::open(&path)?;
        Ok(Arc::new(store.llm_cache()))
    }
}

/// A runtime for the model's futures (the engine and the CLI are synchronous).
pub fn runtime() -> Result<tokio::runtime::Runtime, CliError> {
    crate::cmd::runtime()
}

fn config_error(e: ConfigError) -> CliError {
    CliError::input(e)
}

fn pack_error(e: PackError) -> CliError {
    match e {
        PackError::Io { .. } => CliError::environment(causes(&e)),
        other => CliError::input(other),
    }
}

/// A client error: a rejected request (key, model) or a spent budget is the
/// user's to fix (exit 2); a network or server failure the environment's.
pub fn llm_error(e: &LlmError) -> CliError {
    match e {
        LlmError::Rejected { .. } | LlmError::BudgetExhausted(_) => CliError::input(e),
        _ => CliError::environment(causes(e)),
    }
}

impl From<CompileError> for CliError {
    fn from(e: CompileError) -> Self {
        match &e {
            CompileError::Llm { source, .. } => match llm_error(source) {
                CliError::Input(_) => CliError::input(causes(&e)),
                _ => CliError::environment(causes(&e)),
            },
            CompileError::Empty | CompileError::Invalid { .. } => CliError::input(e),
        }
    }
}

impl From<ReportError> for CliError {
    fn from(e: ReportError) -> Self {
        match &e {
            ReportError::Llm(source) => match llm_error(source) {
                CliError::Input(_) => CliError::input(causes(&e)),
                _ => CliError::environment(causes(&e)),
            },
            ReportError::NoFacts | ReportError::Empty => CliError::environment(e),
        }
    }
}

impl From<ShowcaseError> for CliError {
    fn from(e: ShowcaseError) -> Self {
        match &e {
            ShowcaseError::Stopped { source, .. } => match llm_error(source) {
                CliError::Input(_) => CliError::input(causes(&e)),
                _ => CliError::environment(causes(&e)),
            },
            ShowcaseError::TooManyRuns { .. } | ShowcaseError::UnknownSide { .. } => CliError::input(e),
        }
    }
}

impl From<ReplayError> for CliError {
    fn from(e: ReplayError) -> Self {
        CliError::input(e)
    }
}

impl From<pf1e_coordinator::llm::ResolveError> for CliError {
    fn from(e: pf1e_coordinator::llm::ResolveError) -> Self {
        if e.is_input() { CliError::input(causes(&e)) } else { CliError::environment(causes(&e)) }
    }
}
