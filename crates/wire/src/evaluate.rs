//! Shard evaluation: the trait a worker implements with the engine (and
//! scheduler tests with a fake), how a batch of leases is played on a rayon
//! pool, and how big a batch to lease.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use rayon::prelude::*;

use crate::canon::hex;
use crate::scenario::{Scenario, ScenarioError, ScenarioHash};
use crate::shard::{Lease, ShardFailure, ShardReport, ShardResult, ShardSpec};
use crate::variant::VariantError;

/// Wall time one leased batch should take: long enough that a lease round
/// trip costs little next to the battles, short enough that the end of a
/// sweep stays balanced and a killed worker loses little. Workers and the
/// embedded mode size their batches to it with [`BatchSizer`].
pub const BATCH_TARGET: Duration = Duration::from_millis(100);

/// Most shards one lease call hands out, whatever a worker asks for.
pub const MAX_BATCH: usize = 1024;

/// What a synthetic evaluator's rules version ends with (`pf1e worker
/// --synthetic-battle-us`): a coordinator refuses such workers unless it
/// was started for them (`--synthetic-workers`).
pub const SYNTHETIC_SUFFIX: &str = "+synthetic";

/// The rules version a synthetic worker announces: the engine's, marked.
pub fn synthetic_rules_version() -> String {
    format!("{}{SYNTHETIC_SUFFIX}", pf1e_engine::RULES_VERSION)
}

/// Plays shards: the engine in production, a fake in scheduler tests.
pub trait ShardEvaluator: Send + Sync {
    /// Plays the runs of `spec` in `scenario`; an error fails the sweep.
    fn evaluate(&self, scenario: &Scenario, spec: &ShardSpec) -> Result<ShardResult, EvalError>;

    /// Plays the days of a day shard (`spec.day` set), whose fights are
    /// `fights`, in the order of its encounters. An evaluator that plays no
    /// day says so (the sweep fails with that message).
    fn evaluate_day(&self, fights: &[Arc<Scenario>], spec: &ShardSpec) -> Result<ShardResult, EvalError> {
        let _ = (fights, spec);
        Err(EvalError::NoDays)
    }
}

/// Why a shard could not be played. Its message is sent to the coordinator
/// and fails the sweep.
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    /// The scenario's files are refused by the engine.
    #[error(transparent)]
    Scenario(#[from] ScenarioError),
    /// The variant does not apply to the scenario.
    #[error(transparent)]
    Variant(#[from] VariantError),
    /// The measured side is not a side of the scenario.
    #[error("party {0:?} is not a side of the scenario")]
    UnknownParty(String),
    /// The coordinator no longer knows the scenario of the shard.
    #[error("unknown scenario {0}: the coordinator no longer has it")]
    UnknownScenario(String),
    /// This evaluator plays battles only.
    #[error("this evaluator plays no adventuring day")]
    NoDays,
    /// A day's fights do not make a day.
    #[error("day: {0}")]
    Day(#[from] crate::day::DayBuildError),
    /// The engine panicked (a bug): the message of the panic.
    #[error("the engine panicked on runs {start}..{end}: {message}")]
    Panicked {
        /// First run of the shard.
        start: u64,
        /// End of the shard's runs.
        end: u64,
        /// What the panic said.
        message: String,
    },
}

/// Plays a batch of leases in parallel on the current rayon pool. A panic in
/// the evaluator becomes that shard's error instead of killing the process.
pub fn evaluate_leases(
    leases: &[Lease],
    scenarios: &BTreeMap<ScenarioHash, Arc<Scenario>>,
    evaluator: &dyn ShardEvaluator,
) -> Vec<ShardReport> {
    leases
        .par_iter()
        .map(|l| {
            let spec = &l.spec;
            let fights: Result<Vec<Arc<Scenario>>, ScenarioHash> = match &spec.day {
                Some(d) => d.encounters().iter().map(|h| scenarios.get(h).cloned().ok_or(*h)).collect(),
                None => Ok(Vec::new()),
            };
            let outcome = match (scenarios.get(&spec.scenario), fights) {
                (_, Err(missing)) => Err(EvalError::UnknownScenario(hex(&missing))),
                (Some(s), Ok(fights)) => {
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match spec.day {
                        Some(_) => evaluator.evaluate_day(&fights, spec),
                        None if spec.totals => {
                            evaluator.evaluate(s, spec).map(|r| r.into_compact(&spec.party, spec.packed))
                        }
                        None => evaluator.evaluate(s, spec),
                    }))
                    .unwrap_or_else(|p| {
                        let message = p
                            .downcast_ref::<String>()
                            .cloned()
                            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                            .unwrap_or_default();
                        Err(EvalError::Panicked { start: spec.runs.start, end: spec.runs.end, message })
                    })
                }
                (None, _) => Err(EvalError::UnknownScenario(hex(&spec.scenario))),
            };
            ShardReport { lease: l.id, key: l.key, outcome: outcome.map_err(|e| ShardFailure(e.to_string())) }
        })
        .collect()
}

/// Sizes lease batches so one batch takes about [`BATCH_TARGET`] of wall
/// time on `threads` threads, from a moving average of past batches.
#[derive(Debug, Clone)]
pub struct BatchSizer {
    threads: usize,
    per_shard: Option<Duration>,
    target: Duration,
}

impl BatchSizer {
    /// A sizer for `threads` threads aiming at [`BATCH_TARGET`].
    pub fn new(threads: usize) -> Self {
        Self::with_target(threads, BATCH_TARGET)
    }

    /// A sizer aiming at another target (tests).
    pub fn with_target(threads: usize, target: Duration) -> Self {
        Self { threads: threads.max(1), per_shard: None, target }
    }

    /// Shards to lease next: one per thread until a batch was timed.
    pub fn next(&self) -> usize {
        let t = self.threads;
        match self.per_shard {
            None => t,
            Some(d) => {
                let n = (self.target.as_secs_f64() * t as f64 / d.as_secs_f64().max(1e-7)) as usize;
                n.clamp(t, MAX_BATCH)
            }
        }
    }

    /// Records that `shards` took `elapsed` on all threads.
    pub fn record(&mut self, shards: usize, elapsed: Duration) {
        if shards == 0 {
            return;
        }
        let per = elapsed.mul_f64(self.threads as f64 / shards as f64);
        self.per_shard = Some(match self.per_shard {
            None => per,
            Some(old) => old.mul_f64(0.7) + per.mul_f64(0.3),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_grow_toward_the_target_and_stay_bounded() {
        let mut s = BatchSizer::with_target(4, Duration::from_millis(100));
        assert_eq!(s.next(), 4, "one shard per thread before any measure");
        s.record(4, Duration::from_millis(10));
        assert_eq!(s.next(), 40, "10 ms for 4 shards on 4 threads: 40 shards in 100 ms");
        s.record(40, Duration::from_micros(1));
        assert!(s.next() <= MAX_BATCH);
        let mut slow = BatchSizer::with_target(2, Duration::from_millis(100));
        slow.record(2, Duration::from_secs(5));
        assert_eq!(slow.next(), 2, "never fewer than one shard per thread");
    }
}
