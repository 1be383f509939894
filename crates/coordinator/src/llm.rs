//! The LLM's decisions for a sweep, made before any cell is planned: every
//! sentence (`{ nl: "..." }`) compiled to a strategy, every
//! `llm_candidates` / `llm_adversaries` request answered with proposals.
//!
//! Workers never call a model: the coordinator (or the embedded run)
//! resolves a sweep here, then plans cells whose keys are canonical specs.
//! Every completion goes through the client's cache — in a coordinator,
//! its redb file ([`crate::store::LlmCache`]) — so submitting the same sweep
//! again calls no model; the decisions themselves are journaled with the
//! sweep, so resuming it calls no model either.

use pf1e_llm::{
    CANDIDATES_PROMPT, CompileError, EncounterBrief, LlmClient, LlmError, PackError, PromptPack,
    ProposeError, RED_TEAM_PROMPT, Side, SpecProposer, StrategyCompiler,
};
use pf1e_wire::results::{LlmDecisions, LlmProposals, NlStrategy};
use pf1e_wire::scenario::ScenarioError;

use crate::sweep::{Sweep, SweepDraft, SweepError};

/// Why a sweep's LLM decisions could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ResolveError {
    /// A sentence did not compile.
    #[error("{file}: {source}")]
    Compile {
        /// The sweep file.
        file: String,
        /// Why.
        #[source]
        source: CompileError,
    },
    /// A job's proposals failed.
    #[error("{file}: job {job} ({kind}): {source}")]
    Propose {
        /// The sweep file.
        file: String,
        /// The job (1 for the first).
        job: usize,
        /// Its kind.
        kind: &'static str,
        /// Why.
        #[source]
        source: ProposeError,
    },
    /// The scenario could not be described to the model.
    #[error(transparent)]
    Scenario(#[from] ScenarioError),
    /// The decisions do not fit the sweep.
    #[error(transparent)]
    Sweep(#[from] SweepError),
}

fn llm_error_is_input(e: &LlmError) -> bool {
    matches!(e, LlmError::Rejected { .. } | LlmError::BudgetExhausted(_))
}

impl ResolveError {
    /// Whether the user can fix it (a sentence the model cannot read, a
    /// rejected key or model, a spent budget) rather than the environment
    /// (a network or server failure, the cache).
    pub fn is_input(&self) -> bool {
        match self {
            ResolveError::Compile { source: CompileError::Llm { source, .. }, .. }
            | ResolveError::Propose { source: ProposeError::Llm { source, .. }, .. } => {
                llm_error_is_input(source)
            }
            ResolveError::Compile { .. } | ResolveError::Propose { .. } => true,
            ResolveError::Scenario(_) | ResolveError::Sweep(_) => true,
        }
    }
}

/// Makes the LLM's decisions for sweeps.
#[derive(Debug)]
pub struct LlmResolver {
    client: LlmClient,
    compiler: StrategyCompiler,
    candidates: SpecProposer,
    red_team: SpecProposer,
}

impl LlmResolver {
    /// A resolver asking `client` with the prompts of `pack`, each answer
    /// repaired at most `max_repairs` times.
    pub fn new(client: LlmClient, pack: &PromptPack, max_repairs: u32) -> Result<Self, PackError> {
        Ok(Self {
            client,
            compiler: StrategyCompiler::new(pack)?.with_max_repairs(max_repairs),
            candidates: SpecProposer::candidates(pack)?.with_max_repairs(max_repairs),
            red_team: SpecProposer::red_team(pack)?.with_max_repairs(max_repairs),
        })
    }

    /// The client (its counters and budget).
    pub fn client(&self) -> &LlmClient {
        &self.client
    }

    /// Makes every decision `sweep` needs and decides it (nothing to ask
    /// for a sweep without `nl:` or proposal requests).
    pub async fn resolve(&self, sweep: &SweepDraft) -> Result<Sweep, ResolveError> {
        let mut decisions = LlmDecisions::default();
        for (side, sentence) in sweep.pending_sentences() {
            let c = self
                .compiler
                .compile(&self.client, side, &sentence)
                .await
                .map_err(|source| ResolveError::Compile { file: sweep.file.clone(), source })?;
            tracing::info!(side = side.name(), %sentence, strategy = %c.name, cached = c.cached, "strategy compiled");
            decisions.strategies.push(NlStrategy {
                side: side.name().to_string(),
                sentence,
                strategy: c.name,
                model: c.model,
                prompt_version: c.prompt_version,
                answers: c.attempts,
            });
        }
        let requests = sweep.proposal_requests(&decisions.strategies)?;
        if !requests.is_empty() {
            let encounter = sweep.scenario.encounter()?;
            let brief =
                EncounterBrief::from_encounter(&encounter, sweep.scenario.options.round_cap, &sweep.party);
            for r in requests {
                let (proposer, prompt, kind) = match r.side {
                    Side::Party => (&self.candidates, CANDIDATES_PROMPT, "optimize"),
                    Side::Adversary => (&self.red_team, RED_TEAM_PROMPT, "minmax"),
                };
                let p =
                    proposer.propose(&self.client, r.count, &brief, &r.known).await.map_err(|source| {
                        ResolveError::Propose { file: sweep.file.clone(), job: r.job + 1, kind, source }
                    })?;
                tracing::info!(job = r.job + 1, proposed = p.specs.len(), cached = p.cached, "LLM proposals");
                decisions.proposals.push(LlmProposals {
                    job: r.job as u32,
                    prompt: prompt.to_string(),
                    side: r.side.name().to_string(),
                    asked: r.count as u32,
                    strategies: p.specs.iter().map(|s| s.name()).collect(),
                    duplicates: p.duplicates,
                    model: p.model,
                    prompt_version: p.prompt_version,
                    answers: p.attempts,
                });
            }
        }
        Ok(sweep.decide(&decisions)?)
    }
}
