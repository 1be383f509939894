//! pf1e LLM layer.

pub mod breaker;
pub mod budget;
pub mod cache;
pub mod client;
pub mod config;
pub mod error;
pub mod secret;
pub mod sleep;
#[cfg(feature = "testing")]
pub mod testing;
pub mod wire;
