//! pf1e LLM layer.

pub mod breaker;
pub mod brief;
pub mod budget;
pub mod cache;
pub mod client;
pub mod compile;
pub mod config;
pub mod error;
pub mod levers;
pub mod pack;
pub mod propose;
pub mod repair;
pub mod report;
pub mod secret;
pub mod sleep;
pub mod task;
#[cfg(feature = "testing")]
pub mod testing;
pub mod wire;
