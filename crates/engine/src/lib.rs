//! Deterministic Pathfinder 1e combat rules engine.
//!
//! A combat is a pure function of (encounter, options, seed, run index): the
//! layers above (sweeps, caching, clusters) rely on that. The engine knows
//! nothing of async, networking or storage.

pub mod combat;
pub mod dice;
pub mod difficulty;
pub mod effects;
pub mod encounter;
pub mod feats;
pub mod grid;
pub mod library;
pub mod los;
pub mod map;
pub mod metrics;
pub mod model;
pub mod objectives;
pub mod observe;
pub mod party;
pub mod report;
pub mod rng;
pub mod runner;
pub mod spell;
pub mod strategy;
pub mod summary;

/// Version of the rules implemented by this engine. Bump it whenever a rule
/// change can change an outcome: it is part of every cache key. The feature
/// catalogue (`data/feats.json`, compiled in) is part of the rules: changing
/// what an existing entry does is a rules change; adding an entry is not
/// (a file naming it was refused before).
pub const RULES_VERSION: &str = "pf1e-rules-6";
