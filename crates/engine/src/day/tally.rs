//! The figures of many days as integer tallies: everything a day's report
//! ([`DaySummary`](super::summary::DaySummary)), its plans' comparison
//! ([`compare`](super::plan::compare)) and a day cell's report read of its
//! days are counts and sums, so a cell of a million days needs only these
//! tallies, not its records. Integer sums merge exactly in any order: a
//! cell's tally is the same whatever its shards and the order they arrive
//! in, and so are the figures computed from it.

use std::collections::BTreeMap;

use super::{DayEnd, DayRecord};

/// One fight of the day, over the days of one play: its records (a day
/// fighting it twice counts twice, as the records do).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FightTally {
    /// Records of it.
    pub reached: u64,
    /// Of those, won.
    pub won: u64,
    /// Of those, with a member dying in it (or of its wounds after it).
    pub deaths: u64,
    /// Days that ended here (lost or drawn).
    pub broke_here: u64,
    /// Days that ended here or in which a member died in it (the
    /// breaking point's count).
    pub breaking: u64,
    /// Hit points of the party as it entered, summed per party maximum
    /// (a mean of fractions is the sum, per denominator, of the
    /// numerators over it).
    pub hp_before: BTreeMap<u32, u64>,
    /// Spell slots left as it entered, summed.
    pub slots_before: u64,
    /// Class ability uses left as it entered, summed.
    pub uses_before: u64,
    /// Members standing as it entered, summed.
    pub standing_before: u64,
    /// Rounds, summed.
    pub rounds: u64,
}

impl FightTally {
    fn merge(&mut self, o: &FightTally) {
        self.reached += o.reached;
        self.won += o.won;
        self.deaths += o.deaths;
        self.broke_here += o.broke_here;
        self.breaking += o.breaking;
        for (&max, &hp) in &o.hp_before {
            *self.hp_before.entry(max).or_default() += hp;
        }
        self.slots_before += o.slots_before;
        self.uses_before += o.uses_before;
        self.standing_before += o.standing_before;
        self.rounds += o.rounds;
    }
}

/// One member of the party, over the days of one play.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemberTally {
    /// Days at whose end it is dead.
    pub dead: u64,
    /// Hit points at the end of the day, summed (the dead at 0, below 0 at 0).
    pub hp_end: u64,
}

/// How often a 0/1 outcome holds for a play and for the day as written,
/// run by run (the paired comparison's counts).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PairTally {
    /// Runs where it holds for the play, not for the day as written.
    pub gained: u64,
    /// Runs where it holds for the day as written, not for the play.
    pub lost: u64,
    /// Runs paired.
    pub runs: u64,
}

impl PairTally {
    fn add(&mut self, play: bool, base: bool) {
        self.runs += 1;
        self.gained += u64::from(play && !base);
        self.lost += u64::from(base && !play);
    }

    fn merge(&mut self, o: &PairTally) {
        self.gained += o.gained;
        self.lost += o.lost;
        self.runs += o.runs;
    }
}

/// The days of one play (the day as written, or a plan), tallied.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayTally {
    /// Days.
    pub runs: u64,
    /// Days completed.
    pub completed: u64,
    /// Days in which some member died.
    pub some_death: u64,
    /// Days the party withdrew.
    pub fled: u64,
    /// Days at whose end every member is dead or below 0 hit points.
    pub all_down: u64,
    /// Per encounter (index into the day's encounters), as far as some
    /// record reaches.
    pub fights: Vec<FightTally>,
    /// Per member, in party order.
    pub members: Vec<MemberTally>,
    /// Hit points restored between fights, summed.
    pub healed: u64,
    /// Spell slots spent healing between fights, summed.
    pub slots_spent: u64,
    /// Wand charges spent healing between fights, summed.
    pub charges_spent: u64,
    /// Hit points the party lost over the day (as it entered its first
    /// fight against its end), days per value, for its quantiles.
    pub hp_lost: BTreeMap<i64, u64>,
    /// Completed, paired with the day as written run by run.
    pub done_vs_base: PairTally,
    /// Some member died, paired with the day as written run by run.
    pub died_vs_base: PairTally,
}

impl PlayTally {
    fn fight(&mut self, e: usize) -> &mut FightTally {
        if self.fights.len() <= e {
            self.fights.resize_with(e + 1, FightTally::default);
        }
        &mut self.fights[e]
    }

    /// Adds day `d`, whose run the day as written played as `base` (`d`
    /// itself for the day as written).
    pub fn add(&mut self, d: &DayRecord, base: &DayRecord) {
        let done = |r: &DayRecord| r.end == DayEnd::Completed;
        let died = |r: &DayRecord| r.dead() > 0;
        self.runs += 1;
        self.completed += u64::from(done(d));
        self.some_death += u64::from(died(d));
        self.fled += u64::from(matches!(d.end, DayEnd::Fled { .. }));
        self.all_down += u64::from(d.members.iter().all(|m| m.dead || m.hp < 0));
        self.done_vs_base.add(done(d), done(base));
        self.died_vs_base.add(died(d), died(base));
        for f in &d.fights {
            let t = self.fight(f.encounter);
            t.reached += 1;
            t.won += u64::from(f.won);
            t.deaths += u64::from(f.deaths > 0);
            *t.hp_before.entry(f.before.hp_max.max(1)).or_default() += u64::from(f.before.hp);
            t.slots_before += u64::from(f.before.slots);
            t.uses_before += u64::from(f.before.uses);
            t.standing_before += u64::from(f.before.standing);
            t.rounds += u64::from(f.rounds);
            self.healed += u64::from(f.aid.healed);
            self.slots_spent += u64::from(f.aid.slots_spent);
            self.charges_spent += u64::from(f.aid.charges_spent);
        }
        if let DayEnd::Defeated { encounter } = d.end {
            self.fight(encounter).broke_here += 1;
        }
        // A day counts once per fight it broke at, however many deaths.
        let mut breaking: Vec<usize> =
            d.fights.iter().filter(|f| f.deaths > 0).map(|f| f.encounter).collect();
        if let DayEnd::Defeated { encounter } = d.end {
            breaking.push(encounter);
        }
        breaking.sort_unstable();
        breaking.dedup();
        for e in breaking {
            self.fight(e).breaking += 1;
        }
        if self.members.len() < d.members.len() {
            self.members.resize_with(d.members.len(), MemberTally::default);
        }
        for (t, m) in self.members.iter_mut().zip(&d.members) {
            t.dead += u64::from(m.dead);
            if !m.dead {
                t.hp_end += m.hp.max(0) as u64;
            }
        }
        self.healed += u64::from(d.rests.healed);
        self.slots_spent += u64::from(d.rests.slots_spent);
        self.charges_spent += u64::from(d.rests.charges_spent);
        let start = d.fights.first().map_or(0, |f| i64::from(f.before.hp));
        let end: i64 = d.members.iter().filter(|m| !m.dead).map(|m| i64::from(m.hp.max(0))).sum();
        *self.hp_lost.entry((start - end).max(0)).or_default() += 1;
    }

    /// The tally of `days`, days of one play (paired with themselves).
    pub fn of(days: &[DayRecord]) -> Self {
        let mut t = PlayTally::default();
        for d in days {
            t.add(d, d);
        }
        t
    }

    /// Adds the days of `o` (other runs of the same play).
    pub fn merge(&mut self, o: &PlayTally) {
        self.runs += o.runs;
        self.completed += o.completed;
        self.some_death += o.some_death;
        self.fled += o.fled;
        self.all_down += o.all_down;
        if self.fights.len() < o.fights.len() {
            self.fights.resize_with(o.fights.len(), FightTally::default);
        }
        for (t, f) in self.fights.iter_mut().zip(&o.fights) {
            t.merge(f);
        }
        if self.members.len() < o.members.len() {
            self.members.resize_with(o.members.len(), MemberTally::default);
        }
        for (t, m) in self.members.iter_mut().zip(&o.members) {
            t.dead += m.dead;
            t.hp_end += m.hp_end;
        }
        self.healed += o.healed;
        self.slots_spent += o.slots_spent;
        self.charges_spent += o.charges_spent;
        for (&v, &n) in &o.hp_lost {
            *self.hp_lost.entry(v).or_default() += n;
        }
        self.done_vs_base.merge(&o.done_vs_base);
        self.died_vs_base.merge(&o.died_vs_base);
    }

    /// Rounds of every fight, summed.
    pub fn rounds(&self) -> u64 {
        self.fights.iter().map(|f| f.rounds).sum()
    }

    /// Hit points lost over the day, summed over the days.
    pub fn hp_lost_sum(&self) -> i64 {
        self.hp_lost.iter().map(|(&v, &n)| v.saturating_mul(n as i64)).sum()
    }

    /// The `q`-th percentile of the hit points lost over the day: the value
    /// of rank ⌈q·days/100⌉ (at least 1) in ascending order; 0 without days.
    pub fn hp_lost_quantile(&self, q: u64) -> i64 {
        let rank = (q * self.runs).div_ceil(100).max(1);
        let mut seen = 0u64;
        for (&v, &n) in &self.hp_lost {
            seen += n;
            if seen >= rank {
                return v;
            }
        }
        0
    }

    /// The most hit points lost over a day (0 without days).
    pub fn hp_lost_max(&self) -> i64 {
        self.hp_lost.last_key_value().map_or(0, |(&v, _)| v)
    }
}

/// The days of a day cell, every play tallied (the day as written first,
/// then each plan), each paired run by run with the day as written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DayTally {
    /// Per play.
    pub plays: Vec<PlayTally>,
}

impl DayTally {
    /// Adds one run: its day as each play played it (`days[0]` the day as written).
    pub fn add_run(&mut self, days: &[DayRecord]) {
        let Some(base) = days.first() else { return };
        if self.plays.len() < days.len() {
            self.plays.resize_with(days.len(), PlayTally::default);
        }
        for (t, d) in self.plays.iter_mut().zip(days) {
            t.add(d, base);
        }
    }

    /// Adds consecutive runs: `days` holds, run after run, one record per
    /// play (`plays` a run; a shard result's layout). A trailing partial run
    /// is ignored (a shard's check refuses one).
    pub fn add_runs(&mut self, days: &[DayRecord], plays: usize) {
        for run in days.chunks_exact(plays.max(1)) {
            self.add_run(run);
        }
    }

    /// The tally of each play's days (`outcomes[p]` play `p`'s, in run
    /// order; runs past the shortest play's are left out).
    pub fn of_plays(outcomes: &[Vec<DayRecord>]) -> Self {
        let runs = outcomes.iter().map(Vec::len).min().unwrap_or(0);
        let mut t = DayTally { plays: vec![PlayTally::default(); outcomes.len()] };
        let Some(base) = outcomes.first() else { return t };
        for (p, o) in t.plays.iter_mut().zip(outcomes) {
            for (d, b) in o[..runs].iter().zip(base) {
                p.add(d, b);
            }
        }
        t
    }

    /// Adds the runs of `o` (other runs of the same cell).
    pub fn merge(&mut self, o: &DayTally) {
        if self.plays.len() < o.plays.len() {
            self.plays.resize_with(o.plays.len(), PlayTally::default);
        }
        for (t, p) in self.plays.iter_mut().zip(&o.plays) {
            t.merge(p);
        }
    }

    /// Runs tallied (those of the day as written).
    pub fn runs(&self) -> u64 {
        self.plays.first().map_or(0, |p| p.runs)
    }
}
