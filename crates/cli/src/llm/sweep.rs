//! Sweeps that use the LLM (`nl:` strategies, `llm_candidates`,
//! `llm_adversaries`): resolved before planning, by the embedded run or the
//! coordinator, with completions cached in the sweep database.

use std::sync::Arc;

use pf1e_coordinator::llm::LlmResolver;
use pf1e_coordinator::scheduler::Scheduler;
use pf1e_wire::proto::SweepBundle;

use super::LlmArgs;
use crate::error::CliError;

/// The resolver of a scheduler: a client caching in its database.
pub fn resolver(sched: &Scheduler, args: &LlmArgs) -> Result<LlmResolver, CliError> {
    let llm = args.build(Arc::new(sched.llm_cache()))?;
    LlmResolver::new(llm.client, &llm.pack, llm.max_repairs).map_err(CliError::input)
}

/// Submits `bundle` to the embedded scheduler, asking the model first for
/// what the sweep needs of it (nothing is asked of a sweep without LLM).
pub fn submit(sched: &mut Scheduler, bundle: SweepBundle, args: &LlmArgs) -> Result<u64, CliError> {
    let draft = sched.check(&bundle)?;
    let sweep = if draft.needs_llm() {
        let resolver = resolver(sched, args)?;
        let sweep = super::runtime()?.block_on(resolver.resolve(&draft))?;
        let stats = resolver.client().stats();
        tracing::info!(requests = stats.requests, cache_hits = stats.cache_hits, "LLM decisions made");
        sweep
    } else {
        draft.decide(&Default::default()).map_err(pf1e_coordinator::scheduler::SchedError::from)?
    };
    Ok(sched.submit_sweep(bundle, sweep)?)
}
