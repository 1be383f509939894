//! The jobs of a sweep: `grid` and the analysis jobs (optimize, minmax,
//! danger_map, frontier, sensitivity, contribution), `design` and `day` (an
//! adventuring day submitted as a sweep), and the [`registry`]
//! of every kind.
//!
//! Each analysis job is a planner over cells whose results it reads as
//! danger metrics of the party and of the other sides
//! ([`metrics::CellMetrics`]). Every cell
//! of a job uses the sweep's seed, so run `i` of every cell plays with the
//! same dice stream: differences between strategies (or starting
//! conditions) are not differences of dice (common random numbers).

pub mod bayes;
pub mod contribution;
pub mod danger_map;
pub mod day;
pub mod design;
pub mod error;
pub mod front;
pub mod frontier;
pub mod grid;
pub mod importance;
pub mod metrics;
pub mod minmax;
pub mod optimize;
pub mod registry;
pub mod runs;
pub mod search;
pub mod sensitivity;

pub use error::JobError;
pub use registry::Job;
