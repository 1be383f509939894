//! The pf1e wire contract: what the coordinator, its workers and its clients
//! share, and nothing else.
//!
//! `proto/pf1e.proto` is the only IPC boundary between pf1e processes; this
//! crate compiles it (with the pure-Rust `protox`, no system `protoc`) and
//! owns the conversions between its messages and the Rust types on both
//! sides. The worker depends on this crate and the engine only: no storage,
//! no plotting, no YAML.
//!
//! Modules, one line each:
//!
//! - [`proto`]: the types and gRPC stubs generated from `proto/pf1e.proto`;
//! - [`canon`]: the length-prefixed canonical hasher of content keys;
//! - [`scenario`]: a scenario by content, its canonical hash, and the one
//!   path from content to a playable encounter;
//! - [`map`]: a parsed map on the wire (workers read no YAML);
//! - [`variant`]: per-side changes of a scenario (HP fraction, awareness,
//!   extra copies) and how they apply to an encounter;
//! - [`shard`]: what a worker is asked to play and what it returns;
//! - [`day`]: an adventuring day on the wire (its fights and steps, its
//!   per-day records) and the one path from scenarios to a playable day;
//! - [`evaluate`]: the shard-evaluation trait and lease batching;
//! - [`results`]: the typed results of every job (the `results.json` schema)
//!   and their proto forms;
//! - [`status`]: the state of sweeps, workers and the coordinator;
//! - [`error`]: why a received message does not decode, and error causes;
//! - [`auth`]: the shared-secret token on both ends of a call;
//! - [`client`]: how a worker or a client reaches a coordinator.
//!
//! ```
//! use pf1e_engine::combat::SimOptions;
//! use pf1e_wire::scenario::{Scenario, ScenarioSide};
//!
//! let side = |name: &str| ScenarioSide { name: name.into(), zone: None, combatants: vec![] };
//! let a = Scenario::new("a.yaml".into(), b"map".to_vec(), vec![side("x"), side("y")], SimOptions::default());
//! let b = Scenario::new("b.yaml".into(), b"map".to_vec(), vec![side("y"), side("x")], SimOptions::default());
//! // Content, never paths, and never the order the sides were written in.
//! assert_eq!(a.hash, b.hash);
//! // Not a map: the engine says which file and where.
//! assert!(a.encounter().unwrap_err().to_string().starts_with("a.yaml: "));
//! ```

/// Version of the wire protocol of `proto/pf1e.proto`.
///
/// Bump it whenever a message changes in a way a process of the previous
/// release would misread: a field changes type or meaning, or a message
/// starts to need a field older processes do not send. Adding a field that
/// older processes may safely ignore does not bump it. Workers announce it
/// when they register and the coordinator refuses any other version, as it
/// refuses other rules.
///
/// History: 1, the first release (workers sent no version); 2, awareness as
/// an enum, typed sweep status, results and progress; 3, a side variant's
/// `roster` (a worker that ignored it would play the whole pool of a
/// design job); 4, day cells (a shard's `day`: a worker that ignored it
/// would play one battle where a day was asked); 5, shard totals (a
/// shard's `totals`: a worker that ignored it would send per-run records
/// where the coordinator expects their totals); 6, packed runs (a shard's `packed`: a worker that ignored it would send no per-run outcome where an analysis job compares runs one by one); 7, a lease answer sends each cell's spec once (`LeaseResponse.specs`, each lease its index and its runs: a worker of version 6 would find no spec in a lease); 8, a day step `hold_spells` (a worker of version 7 would refuse the step, or play a plan that saves its spells as the day as written; a day cell's plans, played in one shard, and `ShardResult.day_plays`), and leaving the battle (a map's `exits`, who fled in a shard's records, totals and packed runs: a worker of version 7 would play a map with declared exits as if it had none and report nobody fled); 9, an optimize search's lever importance and Pareto search (`SearchResult.importance` and `.pareto`, `SearchPoint.front`; a sweep's `pareto:` written with `ranges:` now makes the search propose points for the front: a coordinator of version 8 would search the objective alone and send results without them); and a day step `pass_rounds` (the time after a fight or a wait, which the effects a party carries count down: a worker of version 8 would refuse the step); 10, a design proposal's battle worth reading and best party plan (`DesignCandidate.worth_reading` and `.plan`: a coordinator of version 9 plans no party plan and sends proposals without them).
pub const PROTOCOL_VERSION: u32 = 10;

pub mod auth;
pub mod canon;
pub mod client;
pub mod day;
pub mod error;
pub mod evaluate;
pub mod map;
pub mod results;
pub mod scenario;
pub mod shard;
pub mod status;
pub mod variant;

pub mod proto {
    //! Types and stubs generated from `proto/pf1e.proto`.
    #![allow(missing_docs, clippy::all)]
    tonic::include_proto!("pf1e.v1");
}
