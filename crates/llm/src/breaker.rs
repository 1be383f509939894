//! The circuit breaker: after N consecutive failed calls, calls are refused
//! at once for a cool-down; then one probe call decides (closed again on
//! success, reopened on failure).
//!
//! A "failed call" is one that ended in a transient failure after all its
//! retries, or in an unusable response; a rejection (4xx) proves the server
//! is up and counts as a success. Time comes from a [`Clock`], so tests
//! drive it by hand.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::config::BreakerPolicy;

/// The time source of the breaker.
pub trait Clock: Send + Sync {
    /// Now.
    fn now(&self) -> Instant;
}

/// The real monotonic clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Instant {
        Instant::now()
    }
}

/// A clock that moves only when told (tests).
#[derive(Debug)]
pub struct ManualClock(Mutex<Instant>);

impl Default for ManualClock {
    fn default() -> Self {
        Self(Mutex::new(Instant::now()))
    }
}

impl ManualClock {
    /// Moves the clock forward.
    pub fn advance(&self, by: Duration) {
        let mut now = self.0.lock().unwrap_or_else(|p| p.into_inner());
        *now += by;
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Instant {
        *self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// The breaker's state, for stats and tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BreakerState {
    /// Calls go through; this many consecutive failures so far.
    Closed {
        /// Consecutive failed calls.
        failures: u32,
    },
    /// Calls are refused until the cool-down ends.
    Open,
    /// One probe call is in flight; other calls are refused.
    HalfOpen,
}

#[derive(Clone, Copy, Debug)]
enum State {
    Closed { failures: u32 },
    Open { until: Instant, failures: u32 },
    HalfOpen { failures: u32 },
}

/// Why the breaker refused a call.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", refusal_text(*failures, *retry_in))]
pub struct CircuitOpen {
    /// Consecutive failed calls that opened the breaker.
    pub failures: u32,
    /// Time left before a probe is allowed (`None`: a probe is in flight).
    pub retry_in: Option<Duration>,
}

fn refusal_text(failures: u32, retry_in: Option<Duration>) -> String {
    match retry_in {
        Some(d) => format!(
            "LLM circuit breaker open after {failures} consecutive failed calls: call refused, next probe in {:.1} s",
            d.as_secs_f64()
        ),
        None => format!(
            "LLM circuit breaker half-open after {failures} consecutive failed calls: call refused while the probe call runs"
        ),
    }
}

/// A circuit breaker shared by the calls of one client.
pub struct CircuitBreaker {
    policy: BreakerPolicy,
    clock: Arc<dyn Clock>,
    state: Mutex<State>,
}

impl CircuitBreaker {
    /// A closed breaker.
    pub fn new(policy: BreakerPolicy, clock: Arc<dyn Clock>) -> Self {
        Self { policy, clock, state: Mutex::new(State::Closed { failures: 0 }) }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The current state.
    pub fn state(&self) -> BreakerState {
        match *self.lock() {
            State::Closed { failures } => BreakerState::Closed { failures },
            State::Open { .. } => BreakerState::Open,
            State::HalfOpen { .. } => BreakerState::HalfOpen,
        }
    }

    /// Lets a call through (as a normal call or as the probe) or refuses it.
    pub fn admit(&self) -> Result<Admission<'_>, CircuitOpen> {
        let mut state = self.lock();
        match *state {
            State::Closed { .. } => Ok(Admission { breaker: self, probe: false, done: false }),
            State::Open { until, failures } => {
                let now = self.clock.now();
                if now >= until {
                    *state = State::HalfOpen { failures };
                    Ok(Admission { breaker: self, probe: true, done: false })
                } else {
                    Err(CircuitOpen { failures, retry_in: Some(until - now) })
                }
            }
            State::HalfOpen { failures } => Err(CircuitOpen { failures, retry_in: None }),
        }
    }

    fn record(&self, probe: bool, outcome: Outcome) {
        let mut state = self.lock();
        let failures = match *state {
            State::Closed { failures } | State::Open { failures, .. } | State::HalfOpen { failures } => {
                failures
            }
        };
        *state = match outcome {
            Outcome::Success => State::Closed { failures: 0 },
            Outcome::Failure => {
                let failures = failures.saturating_add(1);
                if probe || failures >= self.policy.failure_threshold {
                    State::Open { until: self.clock.now() + self.policy.cool_down, failures }
                } else {
                    State::Closed { failures }
                }
            }
            // A call that ended without a verdict (budget refusal, cancelled):
            // a probe lets the next call probe again at once.
            Outcome::NoVerdict if probe => State::Open { until: self.clock.now(), failures },
            Outcome::NoVerdict => *state,
        };
    }
}

#[derive(Clone, Copy)]
enum Outcome {
    Success,
    Failure,
    NoVerdict,
}

/// A call let through by the breaker; report how it ended. Dropped without a
/// report, it leaves no verdict.
#[must_use = "report the call's outcome to the breaker"]
pub struct Admission<'a> {
    breaker: &'a CircuitBreaker,
    probe: bool,
    done: bool,
}

impl Admission<'_> {
    /// Whether this call is the half-open probe.
    pub fn is_probe(&self) -> bool {
        self.probe
    }

    /// The server answered usefully (or rejected the request).
    pub fn succeeded(mut self) {
        self.done = true;
        self.breaker.record(self.probe, Outcome::Success);
    }

    /// The call failed (transient failures exhausted, or an unusable answer).
    pub fn failed(mut self) {
        self.done = true;
        self.breaker.record(self.probe, Outcome::Failure);
    }
}

impl Drop for Admission<'_> {
    fn drop(&mut self) {
        if !self.done {
            self.breaker.record(self.probe, Outcome::NoVerdict);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn breaker(threshold: u32) -> (CircuitBreaker, Arc<ManualClock>) {
        let clock = Arc::new(ManualClock::default());
        let policy = BreakerPolicy { failure_threshold: threshold, cool_down: Duration::from_secs(10) };
        (CircuitBreaker::new(policy, clock.clone()), clock)
    }

    #[test]
    fn opens_after_the_threshold_and_refuses_until_the_cool_down_ends() {
        let (b, clock) = breaker(2);
        b.admit().unwrap().failed();
        assert_eq!(b.state(), BreakerState::Closed { failures: 1 });
        b.admit().unwrap().failed();
        assert_eq!(b.state(), BreakerState::Open);
        let refusal = b.admit().err().unwrap();
        assert_eq!(refusal.retry_in, Some(Duration::from_secs(10)));
        assert!(refusal.to_string().contains("2 consecutive failed calls"), "{refusal}");
        clock.advance(Duration::from_secs(9));
        assert!(b.admit().is_err());
        clock.advance(Duration::from_secs(1));
        let probe = b.admit().unwrap();
        assert!(probe.is_probe());
        assert_eq!(b.state(), BreakerState::HalfOpen);
        assert_eq!(b.admit().err().unwrap().retry_in, None, "only one probe at a time");
        probe.succeeded();
        assert_eq!(b.state(), BreakerState::Closed { failures: 0 });
    }

    #[test]
    fn a_failed_probe_reopens_for_a_whole_cool_down() {
        let (b, clock) = breaker(1);
        b.admit().unwrap().failed();
        clock.advance(Duration::from_secs(10));
        b.admit().unwrap().failed();
        assert_eq!(b.state(), BreakerState::Open);
        clock.advance(Duration::from_secs(5));
        assert!(b.admit().is_err());
        clock.advance(Duration::from_secs(5));
        assert!(b.admit().unwrap().is_probe());
    }

    #[test]
    fn a_success_resets_the_count_and_a_probe_without_verdict_probes_again() {
        let (b, clock) = breaker(2);
        b.admit().unwrap().failed();
        b.admit().unwrap().succeeded();
        b.admit().unwrap().failed();
        assert_eq!(b.state(), BreakerState::Closed { failures: 1 });
        b.admit().unwrap().failed();
        clock.advance(Duration::from_secs(10));
        drop(b.admit().unwrap());
        assert_eq!(b.state(), BreakerState::Open);
        assert!(b.admit().unwrap().is_probe());
    }
}
