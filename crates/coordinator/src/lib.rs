//! pf1e coordinator: sweep planning, sharding, scheduling with leases, the
//! redb cache and journal, the gRPC services and the embedded single-node mode.

pub mod auth;
pub mod client;
pub mod embedded;
pub mod plan;
pub mod results;
pub mod scenario;
pub mod scheduler;
pub mod service;
pub mod shard;
pub mod store;
pub mod sweep;

pub mod proto {
    //! Types and stubs generated from `proto/pf1e.proto`.
    #![allow(missing_docs, clippy::all)]
    tonic::include_proto!("pf1e.v1");
}
