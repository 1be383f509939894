//! pf1e worker: the shard executor (the engine behind
//! [`pf1e_wire::evaluate::ShardEvaluator`]) and the gRPC loop of a stateless
//! worker. It depends on the engine and the wire crate only: no storage, no
//! plotting, no YAML (maps arrive parsed).

pub mod executor;
pub mod remote;
pub mod signal;
pub mod synthetic;

pub use executor::EngineEvaluator;
pub use remote::{LeaseTimes, WorkerConfig, WorkerError, percentile, run};
pub use signal::shutdown_signal;
pub use synthetic::SyntheticEvaluator;
