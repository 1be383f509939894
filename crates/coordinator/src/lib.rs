//! pf1e coordinator: sweep planning, sharding, scheduling with leases, the
//! redb cache and journal, the gRPC services and the embedded single-node mode.
//!
//! Modules, leaves first (no module imports one that imports it back):
//!
//! - [`cell`]: value types (strategy specs by canonical name, cells);
//! - `spill` (private): a job's one spill file of per-run data;
//! - `rows` (private): a completing cell's packed rows, spilled as its shards arrive;
//! - [`merge`]: exact merging of shard results into a cell's result;
//! - [`plan`]: the planner trait (jobs as deterministic state machines);
//! - [`jobs`]: every job kind and its [`jobs::registry`];
//! - [`sweep`]: the sweep file, parsed and resolved into a self-contained bundle;
//! - [`shard`]: run ranges of a cell and their content keys;
//! - `seal` (private): the checksum every stored record carries;
//! - [`store`]: the redb cache and journal (this process is its only writer);
//! - [`llm`]: the LLM's decisions for a sweep (sentences, proposals), made before planning;
//! - [`scheduler`]: sweeps, the shard queue, leases and workers;
//! - [`net`]: connection limits and timeouts of the gRPC and HTTP ports;
//! - [`service`]: the gRPC services over the scheduler;
//! - [`http`]: the dashboard, the JSON API and its events, metrics and probes, over the same scheduler;
//! - [`embedded`]: the scheduler driven by an in-process evaluator (`pf1e run`).

pub mod cell;
pub mod embedded;
pub mod http;
pub mod jobs;
pub mod llm;
pub mod merge;
pub mod net;
pub mod plan;
mod rows;
pub mod scheduler;
mod seal;
pub mod service;
pub mod shard;
mod spill;
pub mod store;
pub mod sweep;
