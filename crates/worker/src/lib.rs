//! pf1e worker: the shard executor (the engine behind the coordinator's
//! `ShardEvaluator`) and the gRPC loop of a stateless worker.

pub mod executor;
pub mod remote;

pub use executor::EngineEvaluator;
pub use remote::{WorkerConfig, WorkerError, run};
