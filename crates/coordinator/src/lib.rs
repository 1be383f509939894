//! pf1e coordinator: sweep planning, sharding, scheduling with leases, the
//! redb cache and journal, the gRPC services and the embedded single-node mode.

pub mod embedded;
pub mod jobs;
pub mod plan;
pub mod results;
pub mod scheduler;
pub mod service;
pub mod shard;
pub mod store;
pub mod sweep;
