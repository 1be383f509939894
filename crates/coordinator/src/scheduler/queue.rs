//! The shard queue and its leases: shards waiting for a worker, who holds
//! which shard until when, and which cells wait for each shard. A shard
//! wanted by several cells (of one sweep or of several) is played once.
//!
//! Fair share: each sweep has its own queue (a shard is in the queue of the
//! sweep that first wanted it, its owner), and a lease takes from the sweep
//! of the highest priority with shards queued, and among those from the
//! one served least so far for its weight (the oldest on a tie): each
//! shard leased advances its sweep's virtual time by `STRIDE / weight`, a
//! sweep arriving with the virtual time of the least served one already
//! queued (start-time fair queuing). A small sweep submitted behind a big
//! one shares the workers with it from the start instead of waiting for
//! its end, a sweep of weight 3 gets three shards for one of a sweep of
//! weight 1, and among sweeps of one priority none starves.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;
use std::time::Instant;

use pf1e_wire::shard::{Lease, ShardKey, ShardSpec};

/// A cell's slot waiting for a shard: sweep, job, cell and shard indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Waiter {
    pub sweep: u64,
    pub job: usize,
    pub cell: usize,
    pub shard: usize,
}

struct Pending {
    /// Shared with its leases (no copy per lease); behind a pointer, so the
    /// map of pending shards moves little as it changes.
    spec: Arc<ShardSpec>,
    waiters: Vec<Waiter>,
    lease: Option<u64>,
    /// A worker that may not lease it (an audit wants another worker's
    /// result: `super::audit`).
    excluded: Option<String>,
    /// Leased to nobody until its result arrives another way (the
    /// coordinator arbitrates a dispute).
    held: bool,
    /// The sweep whose queue holds it (the first that wanted it, while it waits).
    owner: u64,
}

struct LeaseInfo {
    key: ShardKey,
    worker: Arc<str>,
    deadline: Instant,
    /// No heartbeat extends the lease past this (its maximum age).
    latest: Option<Instant>,
}

/// A lease taken back from a worker: its id and the worker that held it.
pub(super) type Dropped = (u64, Arc<str>);

/// The virtual time one shard leased costs a sweep of weight 1 (divisible
/// by every weight up to 16, so common weights advance exactly).
const STRIDE: u64 = 720_720;

/// How a sweep shares the workers with the others: a higher `priority` is
/// served first while it has shards queued; among sweeps of one priority,
/// each gets shards in proportion to its `weight`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Share {
    /// Strict priority class (higher first).
    pub priority: u32,
    /// Relative weight within its priority (at least 1).
    pub weight: u32,
}

impl Default for Share {
    fn default() -> Self {
        Share { priority: 0, weight: 1 }
    }
}

/// Hashes a shard key, a blake3 hash of what the coordinator planned (no
/// one chooses it), by its first eight bytes: a lookup costs no hashing
/// and no walk through a tree of 32-byte comparisons.
#[derive(Default)]
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        // A key is one write of its 32 bytes; the first eight are the hash.
        let mut word = [0u8; 8];
        let n = bytes.len().min(8);
        word[..n].copy_from_slice(&bytes[..n]);
        self.0 = self.0.rotate_left(5) ^ u64::from_le_bytes(word);
    }

    fn write_usize(&mut self, _: usize) {
        // The length prefix of a slice: every key has 32 bytes.
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// A map by shard key, hashed by [`KeyHasher`]; its order is arbitrary
/// (a pass that must be in key order sorts).
pub(super) type KeyMap<V> = HashMap<ShardKey, V, BuildHasherDefault<KeyHasher>>;

/// Shards not in the cache, in the order they were wanted, and their leases.
#[derive(Default)]
pub(super) struct ShardQueue {
    pending: KeyMap<Pending>,
    /// Keys waiting for a worker, by owner sweep; may hold keys since
    /// dropped or leased (skipped).
    queues: BTreeMap<u64, VecDeque<ShardKey>>,
    /// Virtual time of each owner sweep: shards leased so far, each
    /// weighing `STRIDE / weight`, from the time it started at (fair share).
    served: BTreeMap<u64, u64>,
    /// The share of each sweep that set one (else [`Share::default`]).
    shares: BTreeMap<u64, Share>,
    /// Shards leased since the start, to every sweep.
    leased_total: u64,
    /// [`leased_total`](Self::leased_total) just after each owner sweep's latest lease.
    last_leased: BTreeMap<u64, u64>,
    leases: BTreeMap<u64, LeaseInfo>,
    next_expiry: Option<Instant>,
    next_lease: u64,
    /// Cells' shard slots of each sweep waiting for a worker and leased,
    /// kept as the queue changes (a status read costs the sweeps with work
    /// pending, not a pass over every pending shard).
    by_sweep: BTreeMap<u64, (u64, u64)>,
    /// Distinct pending shards out on a lease.
    leased_shards: u64,
    /// Specs of shards taken, for the caller to free after the scheduler's
    /// lock ([`take_trash`](Self::take_trash)); at most [`TRASH_MAX`].
    trash: Vec<Arc<ShardSpec>>,
}

/// Most things kept to free later (a group commit's shards, at most):
/// past it they are freed at once (no caller takes the trash: no group
/// commit).
pub(super) const TRASH_MAX: usize = 4096;

/// Counts `waiters` in (`add`) or out of the per-sweep counts, as queued or
/// leased.
fn tally(by: &mut BTreeMap<u64, (u64, u64)>, waiters: &[Waiter], leased: bool, add: bool) {
    for w in waiters {
        let c = by.entry(w.sweep).or_default();
        let n = if leased { &mut c.1 } else { &mut c.0 };
        *n = if add { *n + 1 } else { n.saturating_sub(1) };
        if *c == (0, 0) {
            by.remove(&w.sweep);
        }
    }
}

/// Moves `waiters` between queued and leased in the per-sweep counts.
fn flip(by: &mut BTreeMap<u64, (u64, u64)>, waiters: &[Waiter], to_leased: bool) {
    tally(by, waiters, !to_leased, false);
    tally(by, waiters, to_leased, true);
}

impl ShardQueue {
    /// An empty queue.
    pub fn new() -> Self {
        Self { next_lease: 1, ..Self::default() }
    }

    /// Sets how `sweep` shares the workers (before or while it queues shards).
    pub fn set_share(&mut self, sweep: u64, share: Share) {
        self.shares.insert(sweep, Share { weight: share.weight.max(1), ..share });
    }

    /// Forgets the share of an ended sweep; returns the shards leased to
    /// every sweep when its last shard was leased (0: none was).
    pub fn end_share(&mut self, sweep: u64) -> u64 {
        self.shares.remove(&sweep);
        self.last_leased.remove(&sweep).unwrap_or(0)
    }

    fn share(&self, sweep: u64) -> Share {
        self.shares.get(&sweep).copied().unwrap_or_default()
    }

    /// `waiter` wants shard `key`; the shard joins the back of the queue
    /// unless it is already wanted.
    pub fn want(&mut self, key: ShardKey, spec: impl FnOnce() -> ShardSpec, waiter: Waiter) {
        if !self.served.contains_key(&waiter.sweep) {
            // A newcomer starts level with the least served sweep waiting.
            let start = self.queues.keys().filter_map(|s| self.served.get(s)).min().copied().unwrap_or(0);
            self.served.insert(waiter.sweep, start);
        }
        let entry = self.pending.entry(key).or_insert_with(|| {
            self.queues.entry(waiter.sweep).or_default().push_back(key);
            Pending {
                spec: Arc::new(spec()),
                waiters: Vec::new(),
                lease: None,
                excluded: None,
                held: false,
                owner: waiter.sweep,
            }
        });
        tally(&mut self.by_sweep, &[waiter], entry.lease.is_some(), true);
        entry.waiters.push(waiter);
    }

    /// Keys in the queues (an upper bound of the shards waiting for a worker).
    pub fn queued_len(&self) -> usize {
        self.queues.values().map(VecDeque::len).sum()
    }

    /// Leases the next waiting shard to `worker` until `deadline`, with no maximum age.
    #[cfg(test)]
    pub fn lease(&mut self, worker: &str, deadline: Instant) -> Option<Lease> {
        self.lease_until(&Arc::from(worker), deadline, None)
    }

    /// Leases the next waiting shard to `worker` until `deadline`;
    /// heartbeats extend it up to `latest` at most.
    pub fn lease_until(
        &mut self,
        worker: &Arc<str>,
        deadline: Instant,
        latest: Option<Instant>,
    ) -> Option<Lease> {
        // One sweep with shards queued (the common case): no order to build.
        if self.queues.len() == 1
            && let Some((&sweep, q)) = self.queues.iter().next()
            && !q.is_empty()
        {
            return self.lease_from(sweep, worker, deadline, latest);
        }
        // The sweeps with shards queued: highest priority first, then least
        // served for their weight, then oldest.
        let mut order: Vec<(std::cmp::Reverse<u32>, u64, u64)> = self
            .queues
            .iter()
            .filter(|(_, q)| !q.is_empty())
            .map(|(&sweep, _)| {
                let priority = std::cmp::Reverse(self.share(sweep).priority);
                (priority, self.served.get(&sweep).copied().unwrap_or(0), sweep)
            })
            .collect();
        order.sort_unstable();
        for (_, _, sweep) in order {
            if let Some(lease) = self.lease_from(sweep, worker, deadline, latest) {
                return Some(lease);
            }
        }
        None
    }

    /// The next shard of `sweep`'s queue that `worker` may take, leased to it.
    fn lease_from(
        &mut self,
        sweep: u64,
        worker: &Arc<str>,
        deadline: Instant,
        latest: Option<Instant>,
    ) -> Option<Lease> {
        let stride = (STRIDE / u64::from(self.share(sweep).weight.max(1))).max(1);
        let queue = self.queues.get_mut(&sweep)?;
        // Shards this worker may not take stay at the front, in order, for the others.
        let mut skipped = Vec::new();
        let found = loop {
            let Some(key) = queue.pop_front() else { break None };
            let Some(p) = self.pending.get_mut(&key) else { continue };
            if p.lease.is_some() || p.held || p.owner != sweep {
                continue;
            }
            if p.excluded.as_deref() == Some(&**worker) {
                skipped.push(key);
                continue;
            }
            let id = self.next_lease;
            self.next_lease += 1;
            p.lease = Some(id);
            flip(&mut self.by_sweep, &p.waiters, true);
            self.leased_shards += 1;
            self.leases.insert(id, LeaseInfo { key, worker: Arc::clone(worker), deadline, latest });
            *self.served.entry(sweep).or_default() += stride;
            self.leased_total += 1;
            self.last_leased.insert(sweep, self.leased_total);
            self.next_expiry = Some(self.next_expiry.map_or(deadline, |t| t.min(deadline)));
            break Some(Lease { id, key, spec: Arc::clone(&p.spec) });
        };
        for key in skipped.into_iter().rev() {
            queue.push_front(key);
        }
        if queue.is_empty() {
            self.queues.remove(&sweep);
            // Nothing of it waits any more: a later want starts it afresh.
            // (A sweep no slot of which waits owns nothing: no pass needed.)
            if !self.by_sweep.contains_key(&sweep) || !self.pending.values().any(|p| p.owner == sweep) {
                self.served.remove(&sweep);
            }
        }
        found
    }

    /// Takes lease `id` back from `worker` (which holds it for `key`) and
    /// returns the shard to the queue for any other worker. Whether it did.
    pub fn requeue_excluding(&mut self, worker: &str, id: u64, key: ShardKey) -> bool {
        if !self.release(worker, id, key) {
            return false;
        }
        if let Some(p) = self.pending.get_mut(&key) {
            p.excluded = Some(worker.to_string());
        }
        true
    }

    /// Takes lease `id` back from `worker` (which holds it for `key`) and
    /// leases the shard to nobody until it is taken. Whether it did.
    pub fn hold(&mut self, worker: &str, id: u64, key: ShardKey) -> bool {
        match self.leases.get(&id) {
            Some(l) if &*l.worker == worker && l.key == key => {
                self.leases.remove(&id);
                if let Some(p) = self.pending.get_mut(&key) {
                    if p.lease.take().is_some() {
                        flip(&mut self.by_sweep, &p.waiters, false);
                        self.leased_shards -= 1;
                    }
                    p.held = true;
                }
                true
            }
            _ => false,
        }
    }

    /// Lets every worker lease shard `key` again.
    pub fn include_all(&mut self, key: &ShardKey) {
        if let Some(p) = self.pending.get_mut(key) {
            p.excluded = None;
        }
    }

    /// Returns the shard of lease `id` to the front of the queue.
    fn requeue(&mut self, id: u64, key: ShardKey) -> bool {
        match self.pending.get_mut(&key) {
            Some(p) if p.lease == Some(id) => {
                p.lease = None;
                flip(&mut self.by_sweep, &p.waiters, false);
                self.leased_shards -= 1;
                self.queues.entry(p.owner).or_default().push_front(key);
                true
            }
            _ => false,
        }
    }

    /// Returns expired leases' shards to the front of the queue; the leases taken back.
    pub fn expire(&mut self, now: Instant) -> Vec<Dropped> {
        let due = self.next_expiry.is_some_and(|t| now >= t)
            || self.next_expiry.is_none() && !self.leases.is_empty();
        if !due {
            return Vec::new();
        }
        let expired: Vec<u64> =
            self.leases.iter().filter(|(_, l)| l.deadline <= now).map(|(id, _)| *id).collect();
        let mut dropped = Vec::new();
        for id in expired {
            if let Some(l) = self.leases.remove(&id) {
                tracing::info!(worker = %l.worker, lease = id, "lease expired; shard re-queued");
                self.requeue(id, l.key);
                dropped.push((id, l.worker));
            }
        }
        self.next_expiry = self.leases.values().map(|l| l.deadline).min();
        dropped
    }

    /// Moves the deadline of leases `ids` to `deadline`, never past their
    /// maximum age: a shard that hangs while its worker still heartbeats is
    /// taken back then and leased again.
    pub fn extend(&mut self, ids: &BTreeSet<u64>, deadline: Instant) {
        for id in ids {
            if let Some(l) = self.leases.get_mut(id) {
                l.deadline = l.latest.map_or(deadline, |latest| deadline.min(latest));
                self.next_expiry = Some(self.next_expiry.map_or(l.deadline, |t| t.min(l.deadline)));
            }
        }
    }

    /// Takes lease `id` back from `worker` if it holds it for shard `key`,
    /// returning the shard to the front of the queue. Whether it did.
    pub fn release(&mut self, worker: &str, id: u64, key: ShardKey) -> bool {
        match self.leases.get(&id) {
            Some(l) if &*l.worker == worker && l.key == key => {
                self.leases.remove(&id);
                self.requeue(id, key);
                true
            }
            _ => false,
        }
    }

    /// Whether `worker` holds lease `id`, and it is for shard `key`.
    pub fn holds(&self, worker: &str, id: u64, key: &ShardKey) -> bool {
        self.leases.get(&id).is_some_and(|l| &*l.worker == worker && l.key == *key)
    }

    /// Takes lease `id` back whoever holds it; whether its shard went back to the queue.
    pub fn revoke(&mut self, id: u64) -> bool {
        match self.leases.remove(&id) {
            Some(l) => self.requeue(id, l.key),
            None => false,
        }
    }

    /// What shard `key` asks to play, while some cell waits for it.
    pub fn spec(&self, key: &ShardKey) -> Option<&Arc<ShardSpec>> {
        self.pending.get(key).map(|p| &p.spec)
    }

    /// The sweeps waiting for shard `key`.
    pub fn sweeps_waiting(&self, key: &ShardKey) -> BTreeSet<u64> {
        self.pending.get(key).map(|p| p.waiters.iter().map(|w| w.sweep).collect()).unwrap_or_default()
    }

    /// Removes shard `key` (its result arrived): the cells that waited for
    /// it, and its lease if one was out.
    pub fn take(&mut self, key: &ShardKey) -> Option<(Vec<Waiter>, Option<Dropped>)> {
        let p = self.pending.remove(key)?;
        tally(&mut self.by_sweep, &p.waiters, p.lease.is_some(), false);
        self.leased_shards -= u64::from(p.lease.is_some());
        let dropped = p.lease.and_then(|id| self.leases.remove(&id).map(|l| (id, l.worker)));
        if self.trash.len() < TRASH_MAX {
            self.trash.push(p.spec);
        }
        Some((p.waiters, dropped))
    }

    /// The specs of the shards taken since the last call.
    pub fn take_trash(&mut self) -> Vec<Arc<ShardSpec>> {
        std::mem::take(&mut self.trash)
    }

    /// Forgets every cell of `sweep`; shards no other sweep waits for leave
    /// the queue, and their leases are taken back.
    pub fn forget_sweep(&mut self, sweep: u64) -> Vec<Dropped> {
        let mut orphans = Vec::new();
        self.queues.remove(&sweep);
        self.served.remove(&sweep);
        self.end_share(sweep);
        // Every slot of it leaves the counts with it.
        self.by_sweep.remove(&sweep);
        // In key order, as the queues' order must not depend on the map's.
        let mut keys: Vec<ShardKey> = self.pending.keys().copied().collect();
        keys.sort_unstable();
        for key in &keys {
            let Some(p) = self.pending.get_mut(key) else { continue };
            p.waiters.retain(|w| w.sweep != sweep);
            match p.waiters.first() {
                None => orphans.push(*key),
                // Another sweep waits for it: its queue holds it from now on.
                Some(w) if p.owner == sweep => {
                    p.owner = w.sweep;
                    if p.lease.is_none() {
                        self.queues.entry(w.sweep).or_default().push_back(*key);
                    }
                }
                Some(_) => {}
            }
        }
        let mut dropped = Vec::new();
        for key in orphans {
            if let Some((_, Some(d))) = self.take(&key) {
                dropped.push(d);
            }
        }
        dropped
    }

    /// Cells' shard slots of `sweep` waiting for a worker, and leased
    /// (kept as the queue changes: no pass over the pending shards).
    pub fn counts(&self, sweep: u64) -> (u64, u64) {
        self.by_sweep.get(&sweep).copied().unwrap_or_default()
    }

    /// [`counts`](Self::counts) of every sweep with shards pending.
    pub fn counts_by_sweep(&self) -> &BTreeMap<u64, (u64, u64)> {
        &self.by_sweep
    }

    /// The counts as a pass over every pending shard finds them (tests
    /// check the kept ones against it).
    #[cfg(test)]
    fn counted(&self) -> (BTreeMap<u64, (u64, u64)>, u64) {
        let mut by = BTreeMap::<u64, (u64, u64)>::new();
        for p in self.pending.values() {
            for w in &p.waiters {
                let c = by.entry(w.sweep).or_default();
                if p.lease.is_some() {
                    c.1 += 1;
                } else {
                    c.0 += 1;
                }
            }
        }
        (by, self.pending.values().filter(|p| p.lease.is_some()).count() as u64)
    }

    /// Distinct shards waiting for a worker, and leased.
    pub fn totals(&self) -> (u64, u64) {
        (self.pending.len() as u64 - self.leased_shards, self.leased_shards)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use pf1e_engine::strategy::StrategySpec;

    use super::*;

    fn spec() -> ShardSpec {
        ShardSpec {
            scenario: [0; 32],
            variant: vec![],
            party: "a".into(),
            party_strategy: StrategySpec::default_spec(),
            adversary_strategy: StrategySpec::default_spec(),
            seed: 1,
            runs: 0..1,
            day: None,
            totals: false,
            packed: false,
        }
    }

    fn waiter(sweep: u64, cell: usize) -> Waiter {
        Waiter { sweep, job: 0, cell, shard: 0 }
    }

    #[test]
    fn a_shard_two_cells_want_is_leased_once_and_feeds_both() {
        let mut q = ShardQueue::new();
        let now = Instant::now();
        q.want([1; 32], spec, waiter(1, 0));
        q.want([1; 32], spec, waiter(2, 0));
        q.want([2; 32], spec, waiter(1, 1));
        assert_eq!(q.totals(), (2, 0));
        let first = q.lease("w1", now).unwrap();
        assert_eq!(first.key, [1; 32]);
        assert_eq!((q.counts(1), q.counts(2)), ((1, 1), (0, 1)));
        let (waiters, lease) = q.take(&[1; 32]).unwrap();
        assert_eq!(waiters, vec![waiter(1, 0), waiter(2, 0)]);
        assert_eq!(lease, Some((first.id, Arc::from("w1"))));
        assert_eq!(q.lease("w1", now).unwrap().key, [2; 32]);
        assert!(q.lease("w1", now).is_none());
    }

    #[test]
    fn expired_and_released_leases_go_back_to_the_front() {
        let mut q = ShardQueue::new();
        let t0 = Instant::now();
        for k in 1..=3u8 {
            q.want([k; 32], spec, waiter(1, usize::from(k)));
        }
        let a = q.lease("w1", t0 + Duration::from_secs(1)).unwrap();
        let b = q.lease("w2", t0 + Duration::from_secs(5)).unwrap();
        assert!(q.expire(t0).is_empty(), "nothing is due yet");
        assert_eq!(q.expire(t0 + Duration::from_secs(2)), vec![(a.id, Arc::from("w1"))]);
        assert_eq!(
            q.lease("w3", t0 + Duration::from_secs(9)).unwrap().key,
            a.key,
            "the expired shard comes first"
        );
        assert!(!q.release("w1", b.id, b.key), "only its holder releases a lease");
        assert!(q.release("w2", b.id, b.key));
        assert_eq!(q.lease("w3", t0 + Duration::from_secs(9)).unwrap().key, b.key);
    }

    #[test]
    fn a_lease_kept_alive_by_heartbeats_is_taken_back_at_its_maximum_age() {
        let mut q = ShardQueue::new();
        let t0 = Instant::now();
        q.want([1; 32], spec, waiter(1, 1));
        let s = Duration::from_secs;
        let a = q.lease_until(&Arc::from("w1"), t0 + s(10), Some(t0 + s(60))).unwrap();
        let ids = BTreeSet::from([a.id]);
        // Heartbeats every 5 s keep it alive...
        for t in (5..=55).step_by(5) {
            assert!(q.expire(t0 + s(t)).is_empty(), "alive at {t} s");
            q.extend(&ids, t0 + s(t + 10));
        }
        // ...until its maximum age: then another worker gets the shard.
        assert_eq!(q.expire(t0 + s(60)), vec![(a.id, Arc::from("w1"))]);
        assert_eq!(q.lease("w2", t0 + s(70)).unwrap().key, a.key);
        assert!(!q.holds("w1", a.id, &a.key));
    }

    #[test]
    fn forgetting_a_sweep_drops_only_the_shards_no_other_sweep_wants() {
        let mut q = ShardQueue::new();
        let now = Instant::now();
        q.want([1; 32], spec, waiter(1, 0));
        q.want([1; 32], spec, waiter(2, 0));
        q.want([2; 32], spec, waiter(1, 1));
        let l = q.lease("w1", now).unwrap();
        let l2 = q.lease("w1", now).unwrap();
        assert_eq!((l.key, l2.key), ([1; 32], [2; 32]));
        assert_eq!(q.forget_sweep(1), vec![(l2.id, Arc::from("w1"))]);
        assert!(q.spec(&[1; 32]).is_some() && q.spec(&[2; 32]).is_none());
        assert_eq!(q.sweeps_waiting(&[1; 32]), BTreeSet::from([2]));
    }

    #[test]
    fn a_small_sweep_behind_a_big_one_is_served_at_once() {
        let mut q = ShardQueue::new();
        let now = Instant::now();
        for k in 0..10u8 {
            q.want([k; 32], spec, waiter(1, usize::from(k)));
        }
        for k in 100..102u8 {
            q.want([k; 32], spec, waiter(2, usize::from(k)));
        }
        // The less served sweep goes first: 1, 2, 1, 2, then 1 alone.
        let keys: Vec<u8> = (0..6).map(|_| q.lease("w", now).unwrap().key[0]).collect();
        assert_eq!(keys, vec![0, 100, 1, 101, 2, 3]);
        // A shard back from an expired or released lease keeps its owner's place.
        let mut q = ShardQueue::new();
        q.want([7; 32], spec, waiter(3, 0));
        q.want([8; 32], spec, waiter(4, 0));
        let a = q.lease("w", now).unwrap();
        assert!(q.release("w", a.id, a.key));
        assert_eq!(q.lease("w", now).unwrap().key, [8; 32], "sweep 3 was served once: sweep 4's turn");
        assert_eq!(q.lease("w", now).unwrap().key, [7; 32], "the released shard waits at its owner's front");
    }

    #[test]
    fn weights_share_the_leases_and_a_higher_priority_goes_first() {
        let mut q = ShardQueue::new();
        let now = Instant::now();
        q.set_share(1, Share { priority: 0, weight: 1 });
        q.set_share(2, Share { priority: 0, weight: 3 });
        for k in 0..40u8 {
            q.want([k; 32], spec, waiter(1 + u64::from(k % 2), usize::from(k)));
        }
        // Weight 3 against 1: three shards of sweep 2 for each of sweep 1.
        let first: Vec<u64> = (0..16).map(|_| 1 + u64::from(q.lease("w", now).unwrap().key[0] % 2)).collect();
        assert_eq!(first.iter().filter(|&&s| s == 2).count(), 12, "{first:?}");
        // A sweep of a higher priority arriving now takes every lease until its queue is empty...
        q.set_share(3, Share { priority: 1, weight: 1 });
        for k in 200..205u8 {
            q.want([k; 32], spec, waiter(3, usize::from(k)));
        }
        let next: Vec<u8> = (0..6).map(|_| q.lease("w", now).unwrap().key[0]).collect();
        assert_eq!(&next[..5], &[200, 201, 202, 203, 204]);
        // ...then the others go on where they were.
        assert!(next[5] < 40, "{next:?}");
        assert_eq!(q.leased_total, 22);
        assert_eq!(q.end_share(3), 21, "sweep 3's last shard was the 21st leased");
        // A weight of 0 counts as 1.
        q.set_share(4, Share { priority: 0, weight: 0 });
        assert_eq!(q.share(4).weight, 1);
    }

    /// The counts kept as the queue changes are those a pass over every
    /// pending shard finds, through every kind of change.
    #[test]
    fn the_kept_counts_follow_every_change() {
        let mut q = ShardQueue::new();
        let t0 = Instant::now();
        let check = |q: &ShardQueue| {
            let (by, leased) = q.counted();
            assert_eq!(&by, q.counts_by_sweep());
            assert_eq!(q.totals(), (q.pending.len() as u64 - leased, leased));
        };
        // 40 shards of sweeps 1 to 3, one in four wanted by two sweeps.
        for k in 0..40u8 {
            q.want([k; 32], spec, waiter(1 + u64::from(k % 3), usize::from(k)));
            if k % 4 == 0 {
                q.want([k; 32], spec, waiter(1 + u64::from((k + 1) % 3), usize::from(k)));
            }
        }
        check(&q);
        let mut leases = Vec::new();
        for i in 0..30u64 {
            let l = q.lease_until(&Arc::from("w"), t0 + Duration::from_secs(i % 3), None).unwrap();
            leases.push(l);
            check(&q);
        }
        assert_eq!(q.totals(), (10, 30));
        assert!(q.release("w", leases[0].id, leases[0].key));
        assert!(q.hold("w", leases[1].id, leases[1].key));
        assert!(q.requeue_excluding("w", leases[2].id, leases[2].key));
        check(&q);
        assert!(q.take(&leases[3].key).is_some());
        assert!(q.take(&[39; 32]).is_some(), "an unleased shard");
        check(&q);
        assert!(!q.expire(t0 + Duration::from_secs(1)).is_empty());
        check(&q);
        assert!(q.revoke(leases[29].id) || q.revoke(leases[28].id));
        check(&q);
        q.forget_sweep(2);
        check(&q);
        assert_eq!(q.counts(2), (0, 0));
        while let Some(l) = q.lease("w2", t0) {
            assert!(q.take(&l.key).is_some());
            check(&q);
        }
        for l in &leases {
            q.take(&l.key);
        }
        q.include_all(&leases[1].key);
        q.take(&leases[1].key);
        check(&q);
        assert!(q.counts_by_sweep().is_empty() && q.totals() == (0, 0), "{:?}", q.counts_by_sweep());
    }

    #[test]
    fn a_forgotten_owner_hands_its_shared_shards_to_the_next_sweep() {
        let mut q = ShardQueue::new();
        let now = Instant::now();
        q.want([1; 32], spec, waiter(1, 0));
        q.want([1; 32], spec, waiter(2, 0));
        assert!(q.forget_sweep(1).is_empty());
        let l = q.lease("w", now).unwrap();
        assert_eq!(l.key, [1; 32], "sweep 2's queue holds it now");
        assert!(q.lease("w", now).is_none());
    }
}
