//! The audit of workers' results: a sampled fraction of shards is played by
//! two different workers before its result is accepted. Results are
//! deterministic, so two results that differ prove that one worker lied or
//! is broken: the coordinator then plays the shard itself (the arbiter,
//! outside the scheduler's lock), keeps its own result and quarantines every
//! worker whose result differs from it (`docs/service.md`, "Audit").
//!
//! The sample is a pure function of the shard's content key, so a worker
//! cannot tell an audited shard from another, and replaying a sweep audits
//! the same shards.

use std::collections::{BTreeMap, BTreeSet};

use pf1e_wire::shard::{ShardKey, ShardResult};

/// What an audited shard's report leads to.
pub(super) enum Opinion {
    /// The first result: held until another worker's arrives.
    Held,
    /// A second result equal to the first: accept it.
    Agreed,
    /// A second result that differs: the coordinator arbitrates.
    Disputed,
}

/// Audit counters since the start (`/metrics`).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct AuditCounts {
    /// Audited shards whose two results agreed.
    pub passed: u64,
    /// Audited shards whose two results differed.
    pub disputed: u64,
    /// Audited shards accepted on one result because their worker was the
    /// only one registered.
    pub waived: u64,
    /// Workers quarantined for a result that differed from the arbiter's.
    pub quarantined: u64,
}

/// The audit's state.
#[derive(Default)]
pub(super) struct Audits {
    /// Shards whose key hash is below this are audited (0: no audit).
    threshold: u64,
    /// The first result of each audited shard, and its worker.
    first: BTreeMap<ShardKey, (String, ShardResult)>,
    /// Disputed shards: the two results and their workers, until arbitrated.
    disputes: BTreeMap<ShardKey, Vec<(String, ShardResult)>>,
    /// Disputed shards not yet handed to the arbiter.
    to_arbitrate: Vec<ShardKey>,
    /// Names of quarantined workers: they may not register again.
    quarantined: BTreeSet<String>,
    pub counts: AuditCounts,
}

impl Audits {
    /// Audits `fraction` (0 to 1) of the shards.
    pub fn new(fraction: f64) -> Self {
        let f = if fraction.is_finite() { fraction.clamp(0.0, 1.0) } else { 0.0 };
        let threshold = if f >= 1.0 { u64::MAX } else { (f * u64::MAX as f64) as u64 };
        Self { threshold, ..Self::default() }
    }

    /// Whether shard `key` is audited.
    pub fn sampled(&self, key: &ShardKey) -> bool {
        let mut head = [0u8; 8];
        head.copy_from_slice(&key[..8]);
        self.threshold > 0 && (self.threshold == u64::MAX || u64::from_le_bytes(head) < self.threshold)
    }

    /// Records `worker`'s result for audited shard `key`.
    pub fn opinion(&mut self, key: ShardKey, worker: &str, result: &ShardResult) -> Opinion {
        match self.first.remove(&key) {
            None => {
                self.first.insert(key, (worker.to_string(), result.clone()));
                Opinion::Held
            }
            Some((_, r)) if &r == result => {
                self.counts.passed += 1;
                Opinion::Agreed
            }
            Some((w, r)) => {
                self.counts.disputed += 1;
                self.disputes.insert(key, vec![(w, r), (worker.to_string(), result.clone())]);
                self.to_arbitrate.push(key);
                Opinion::Disputed
            }
        }
    }

    /// Disputed shards to hand to the arbiter (each once).
    pub fn take_disputes(&mut self) -> Vec<ShardKey> {
        std::mem::take(&mut self.to_arbitrate)
    }

    /// The workers of disputed shard `key` whose result differs from `truth`.
    pub fn settle(&mut self, key: &ShardKey, truth: &ShardResult) -> Vec<String> {
        self.disputes
            .remove(key)
            .unwrap_or_default()
            .into_iter()
            .filter(|(_, r)| r != truth)
            .map(|(w, _)| w)
            .collect()
    }

    /// Held first results of `worker`, taken (its worker was the only one).
    pub fn waive(&mut self, worker: &str) -> Vec<(ShardKey, ShardResult)> {
        let keys: Vec<ShardKey> =
            self.first.iter().filter(|(_, (w, _))| w == worker).map(|(k, _)| *k).collect();
        let out: Vec<_> = keys.iter().filter_map(|k| self.first.remove(k).map(|(_, r)| (*k, r))).collect();
        self.counts.waived += out.len() as u64;
        out
    }

    /// Forgets the held results of a quarantined `worker` (and refuses its
    /// name from now on); the shards whose first result it was.
    pub fn quarantine(&mut self, worker: &str, name: Option<&str>) -> Vec<ShardKey> {
        if let Some(n) = name {
            self.quarantined.insert(n.to_string());
        }
        self.counts.quarantined += 1;
        let keys: Vec<ShardKey> =
            self.first.iter().filter(|(_, (w, _))| w == worker).map(|(k, _)| *k).collect();
        for k in &keys {
            self.first.remove(k);
        }
        keys
    }

    /// Whether a worker of this name was quarantined.
    pub fn is_quarantined(&self, name: &str) -> bool {
        self.quarantined.contains(name)
    }

    /// Forgets the shards no sweep waits for any more (`pending` says which do).
    pub fn retain(&mut self, pending: impl Fn(&ShardKey) -> bool) {
        self.first.retain(|k, _| pending(k));
        self.disputes.retain(|k, _| pending(k));
        self.to_arbitrate.retain(|k| pending(k));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_is_a_function_of_the_key_at_the_fraction() {
        let none = Audits::new(0.0);
        let all = Audits::new(1.0);
        let half = Audits::new(0.5);
        let keys: Vec<ShardKey> = (0u32..4000)
            .map(|i| {
                let mut k = [0u8; 32];
                // Spread the first eight bytes (content keys are hashes).
                k[..8].copy_from_slice(&(u64::from(i).wrapping_mul(0x9e37_79b9_7f4a_7c15)).to_le_bytes());
                k
            })
            .collect();
        assert!(keys.iter().all(|k| !none.sampled(k) && all.sampled(k)));
        let n = keys.iter().filter(|k| half.sampled(k)).count();
        assert!((1800..=2200).contains(&n), "{n} of 4000 sampled at one half");
        assert_eq!(Audits::new(f64::NAN).threshold, 0);
    }
}
