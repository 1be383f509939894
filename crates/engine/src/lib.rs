//! Deterministic Pathfinder 1e combat rules engine.
//!
//! A combat is a pure function of (encounter, options, seed, run index): the
//! layers above (sweeps, caching, clusters) rely on that. The engine knows
//! nothing of async, networking or storage, and renders nothing.
//!
//! # One battle
//!
//! A map and the combatants of each side make an [`encounter::Encounter`];
//! prepared once ([`combat::PreparedEncounter`]), it plays run `i` of seed
//! `s` from the dice stream [`rng::SeededRng::for_run`]`(s, i)`:
//!
//! ```
//! use std::path::Path;
//! use std::sync::Arc;
//!
//! use pf1e_engine::combat::{DefaultPolicy, PreparedEncounter, SimOptions, run_prepared};
//! use pf1e_engine::encounter::{Encounter, SideSpec};
//! use pf1e_engine::map::Map;
//! use pf1e_engine::model::load_combatant;
//! use pf1e_engine::rng::SeededRng;
//!
//! let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data");
//! let map = Arc::new(Map::load(&data.join("maps/sample_arena.yaml"))?);
//! let goblin = Arc::new(load_combatant(&data.join("monsters/goblin.json"))?);
//! let orc = Arc::new(load_combatant(&data.join("monsters/orc.json"))?);
//! let sides = vec![
//!     SideSpec { name: "players".into(), combatants: vec![goblin.clone(), goblin.clone(), goblin] },
//!     SideSpec { name: "monsters".into(), combatants: vec![orc.clone(), orc] },
//! ];
//! let encounter = Encounter::build(map, sides)?;
//! let prepared = PreparedEncounter::new(&encounter)?;
//! let play = |run| {
//!     let mut dice = SeededRng::for_run(7, run);
//!     run_prepared(&prepared, &SimOptions::default(), &mut dice, None, &mut DefaultPolicy)
//! };
//! let outcome = play(0);
//! assert_eq!(outcome.combatants.len(), 5);
//! assert!(outcome.rounds >= 1);
//! // The same seed and run give the same battle.
//! assert_eq!(play(0), outcome);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Module map
//!
//! - Data: [`model`] (combatant files and their validation), [`spell`]
//!   (spell files), [`library`] (the spells and creatures an encounter
//!   refers to), [`feats`] (feats and class features by catalogue),
//!   [`map`], [`grid`] and [`los`] (the battlefield, movement, line of
//!   effect), [`dice`] and [`rng`] (dice notation and the per-run streams).
//! - Play: [`encounter`] (sides placed on a map), [`combat`] (the turn loop
//!   and every rule; its [`combat::event`]s are what happened), [`effects`]
//!   (modifiers and conditions), [`strategy`] (the levers of a plan),
//!   [`observe`] (what a policy outside the engine sees and asks).
//! - Batches and figures: [`runner`] (many battles on a rayon pool),
//!   [`summary`] (exact integer sums), [`metrics`] (rates, intervals,
//!   paired differences), [`objectives`] (danger profiles, per-run
//!   outcomes), [`party`] (the party's figures and the battle worth
//!   reading), [`difficulty`] (the encounter by the book), [`contribution`]
//!   (who carries the fight), [`report`] (the balance report's figures).
//!
//! [`RULES_VERSION`] names the rules every result was played with.

pub mod combat;
pub mod contribution;
pub mod day;
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
pub const RULES_VERSION: &str = "pf1e-rules-9";
