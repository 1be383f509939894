//! Why a job of a sweep file is refused before any battle.

/// A job's parameters are out of range, or its worst case exceeds its own budget.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JobError {
    /// A parameter is out of range.
    #[error("{job}: {problem}")]
    Invalid {
        /// The job kind.
        job: &'static str,
        /// What is wrong, with the value given.
        problem: String,
    },
    /// The job could plan more battles than its `max_total_runs`.
    #[error(
        "{job}: {plan} need up to {runs} runs, over its max_total_runs of {max} (raise max_total_runs, or plan fewer runs)"
    )]
    OverBudget {
        /// The job kind.
        job: &'static str,
        /// What it plans (`the grid, refinement and candidates`, `up to 9 cells of 100 runs`…).
        plan: String,
        /// Runs of its worst case.
        runs: u64,
        /// Its budget.
        max: u64,
    },
}

impl JobError {
    /// A parameter of `job` is out of range.
    pub fn invalid(job: &'static str, problem: impl Into<String>) -> Self {
        Self::Invalid { job, problem: problem.into() }
    }
}
