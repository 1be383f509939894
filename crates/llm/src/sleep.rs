//! How the client waits between retries: tokio's timer in production, an
//! injected function in tests (which records the delays and returns at once).

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

/// A boxed wait.
pub type SleepFuture = Pin<Box<dyn Future<Output = ()> + Send>>;

/// The waiting function of the retry loop.
#[derive(Clone)]
pub struct Sleeper(Arc<dyn Fn(Duration) -> SleepFuture + Send + Sync>);

impl Sleeper {
    /// Really waits (tokio's timer).
    pub fn tokio() -> Self {
        Self::from_fn(|d| Box::pin(tokio::time::sleep(d)))
    }

    /// Waits with `f`.
    pub fn from_fn(f: impl Fn(Duration) -> SleepFuture + Send + Sync + 'static) -> Self {
        Self(Arc::new(f))
    }
}

impl std::fmt::Debug for Sleeper {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Sleeper")
    }
}

impl backon::Sleeper for Sleeper {
    type Sleep = SleepFuture;

    fn sleep(&self, dur: Duration) -> SleepFuture {
        (self.0)(dur)
    }
}
