//! Deterministic Pathfinder 1e combat rules engine.
//!
//! A combat is a pure function of (encounter, options, seed, run index): the
//! layers above (sweeps, caching, clusters) rely on that. The engine knows
//! nothing of async, networking or storage.

pub mod combat;
pub mod dice;
pub mod effects;
pub mod encounter;
pub mod grid;
pub mod los;
pub mod map;
pub mod metrics;
pub mod model;
pub mod objectives;
pub mod report;
pub mod rng;
pub mod runner;
pub mod strategy;
pub mod summary;

/// Version of the rules implemented by this engine. Bump it whenever a rule
/// change can change an outcome: it is part of every cache key.
pub const RULES_VERSION: &str = "pf1e-rules-2";
