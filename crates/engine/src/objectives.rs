//! Danger metrics of one side over a set of runs, from per-run records.
//!
//! Every metric is computed from integer per-run records (winner, rounds,
//! final hit points, death flags), so the metrics of a cell do not depend on
//! how its runs were sharded: records concatenate exactly. Definitions:
//!
//! - `p_survives`: no member of the side is dead at the end;
//! - `p_tpk`: every member is down, dying (below 0 hit points) or dead:
//!   what a table calls a TPK ("everyone down" in the reports);
//!   `p_any_death`: at least one member is dead;
//! - `expected_hp_lost`: mean over runs of Σ (start − final), each member's
//!   loss clamped to `[0, start]` (healing above the start never counts
//!   negative, overkill on a corpse is not extra loss);
//! - `worst_decile_hp`: mean hit points remaining (a dead member counts 0,
//!   negative hit points count 0) over the ⌈10%⌉ runs (at least one) with
//!   the largest loss, ties in run order — the tail the mean hides;
//! - wins, draws, the win rate;
//! - every proportion with its score interval and every mean with its
//!   standard error, at the confidence level given (see [`crate::metrics`]).
//!
//! [`Records::outcomes`] keeps the per-run outcomes of a side, so that two
//! cells measured on the same dice can be compared run by run.

use serde::{Deserialize, Serialize};

use crate::metrics::{Confidence, mean_se, proportion_interval, rate_interval, win_rate};

/// The per-run records of a cell, run-major for per-combatant tables.
#[derive(Clone, Copy, Debug)]
pub struct Records<'a> {
    /// Side index of each combatant.
    pub side_of: &'a [usize],
    /// Starting hit points of each combatant.
    pub start_hp: &'a [i32],
    /// Winner side per run, −1 for a draw.
    pub winner: &'a [i32],
    /// Rounds per run.
    pub rounds: &'a [u32],
    /// Final hit points, `final_hp[run * combatants + c]`.
    pub final_hp: &'a [i32],
    /// Death flags, same layout as `final_hp`.
    pub dead: &'a [bool],
    /// Who left the battle alive (`CombatantOutcome::fled`), same layout as
    /// `final_hp`; empty when nobody did (records older than the field).
    pub fled: &'a [bool],
}

/// The danger profile of one side.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DangerMetrics {
    /// Runs measured.
    pub runs: u64,
    /// Runs won by the side.
    pub wins: u64,
    /// Runs that reached the round cap.
    pub draws: u64,
    /// P(no member dead).
    pub p_survives: f64,
    /// P(every member down: dying or dead).
    pub p_tpk: f64,
    /// P(at least one member dead).
    pub p_any_death: f64,
    /// P(the side fled: `party::party_fled`); 0 when measured by a version
    /// without the field.
    #[serde(default)]
    pub p_fled: f64,
    /// Mean hit points lost per run (clamped per member).
    pub expected_hp_lost: f64,
    /// Standard deviation of the hit points lost per run.
    pub hp_lost_sd: f64,
    /// Mean rounds per run.
    pub expected_rounds: f64,
    /// Mean hit points remaining over the worst ⌈10%⌉ runs by hit points lost.
    pub worst_decile_hp: f64,
    /// Win rate.
    pub win_rate: f64,
    /// Interval of the win rate at `confidence`.
    pub win_band: (f64, f64),
    /// The two-sided confidence level of every interval here (0: measured
    /// by a version that stated none).
    #[serde(default)]
    pub confidence: f64,
    /// Interval of `p_survives`.
    #[serde(default)]
    pub p_survives_ci: (f64, f64),
    /// Interval of `p_tpk`.
    #[serde(default)]
    pub p_tpk_ci: (f64, f64),
    /// Interval of `p_any_death`.
    #[serde(default)]
    pub p_any_death_ci: (f64, f64),
    /// Standard error of `expected_hp_lost`.
    #[serde(default)]
    pub hp_lost_se: f64,
    /// Standard error of `expected_rounds`.
    #[serde(default)]
    pub rounds_se: f64,
}

impl DangerMetrics {
    /// The interval of `criterion` at the level of these metrics: the
    /// proportion's score interval, or the mean ± z·se. Metrics that state
    /// no level (built by a previous version) get it computed from their
    /// rate and runs at the default level.
    pub fn interval(&self, criterion: Criterion) -> (f64, f64) {
        if self.confidence == 0.0 {
            let conf = Confidence::default();
            return match criterion {
                Criterion::ExpectedHpLost => {
                    let se = mean_se(self.hp_lost_sd, self.runs);
                    (self.expected_hp_lost - conf.z() * se, self.expected_hp_lost + conf.z() * se)
                }
                c => rate_interval(c.value(self), self.runs, conf),
            };
        }
        match criterion {
            Criterion::PSurvives => self.p_survives_ci,
            Criterion::PWin => self.win_band,
            Criterion::PTpk => self.p_tpk_ci,
            Criterion::PAnyDeath => self.p_any_death_ci,
            Criterion::ExpectedHpLost => {
                let z = Confidence::new(self.confidence).unwrap_or_default().z();
                (self.expected_hp_lost - z * self.hp_lost_se, self.expected_hp_lost + z * self.hp_lost_se)
            }
        }
    }
}

/// The per-run outcomes of one side (or group of sides), in run order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcomes {
    /// The side won.
    pub won: Vec<bool>,
    /// No member dead.
    pub survived: Vec<bool>,
    /// Every member down: dying or dead (the runs `p_tpk` counts).
    pub tpk: Vec<bool>,
    /// Hit points lost (clamped per member).
    pub hp_lost: Vec<i64>,
}

impl Outcomes {
    /// Runs recorded.
    pub fn len(&self) -> usize {
        self.won.len()
    }

    /// Whether no run is recorded.
    pub fn is_empty(&self) -> bool {
        self.won.is_empty()
    }

    /// The value of `criterion` in run `run` (1/0 for a proportion; 0 past
    /// the runs recorded).
    pub fn value(&self, criterion: Criterion, run: usize) -> f64 {
        let flag = |v: &[bool], when: bool| f64::from(u8::from(v.get(run).is_some_and(|&b| b == when)));
        match criterion {
            Criterion::PSurvives => flag(&self.survived, true),
            Criterion::PAnyDeath => flag(&self.survived, false),
            Criterion::PTpk => flag(&self.tpk, true),
            Criterion::PWin => flag(&self.won, true),
            Criterion::ExpectedHpLost => self.hp_lost.get(run).map_or(0.0, |&l| l as f64),
        }
    }

    /// The per-run values of `criterion`.
    pub fn values(&self, criterion: Criterion) -> Vec<f64> {
        (0..self.len()).map(|r| self.value(criterion, r)).collect()
    }
}

crate::named_enum! {
    /// A criterion of a danger profile.
    Criterion {
        /// P(no member dead).
        PSurvives => "p_survives",
        /// P(every member down: dying or dead).
        PTpk => "p_tpk",
        /// P(at least one member dead).
        PAnyDeath => "p_any_death",
        /// Mean hit points lost.
        ExpectedHpLost => "expected_hp_lost",
        /// P(the side wins).
        PWin => "p_win",
    }
}

impl Criterion {
    /// Its value in `m`.
    pub fn value(self, m: &DangerMetrics) -> f64 {
        match self {
            Criterion::PSurvives => m.p_survives,
            Criterion::PTpk => m.p_tpk,
            Criterion::PAnyDeath => m.p_any_death,
            Criterion::ExpectedHpLost => m.expected_hp_lost,
            Criterion::PWin => m.win_rate,
        }
    }

    /// Whether a probability (else hit points).
    pub fn is_probability(self) -> bool {
        self != Criterion::ExpectedHpLost
    }

    /// Whether a larger value is better for the side: survival and winning.
    pub fn higher_is_better(self) -> bool {
        matches!(self, Criterion::PSurvives | Criterion::PWin)
    }

    /// Whether `value` has crossed `target` toward danger: at or above it for
    /// p_tpk, p_any_death and expected_hp_lost; at or below it for
    /// p_survives and p_win.
    pub fn crossed(self, value: f64, target: f64) -> bool {
        if self.higher_is_better() { value <= target } else { value >= target }
    }
}

/// What the metrics of one group of sides read of one run: every metric
/// of [`DangerMetrics`] and every per-run outcome of [`Outcomes`] is a
/// function of these rows in run order, so a shard can send them instead
/// of its per-run records (`pf1e_wire::shard::PackedRuns`) and the metrics
/// come out bit for bit the same.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunRow {
    /// A side of the group won.
    pub won: bool,
    /// The run reached the round cap (no winner).
    pub draw: bool,
    /// Rounds played.
    pub rounds: u32,
    /// A member of the group is dead.
    pub dead: bool,
    /// Every member is down, dying or dead (false for a group without members).
    pub all_down: bool,
    /// The group fled: another side won and a member left the battle alive
    /// (`party::party_fled`).
    pub fled: bool,
    /// Hit points lost, each member's clamped to `[0, start]`.
    pub lost: i64,
    /// Hit points remaining: a dead member counts 0, negative hit points 0.
    pub remaining: i64,
}

impl Outcomes {
    /// The per-run outcomes of rows in run order.
    pub fn from_rows(rows: &[RunRow]) -> Self {
        Outcomes {
            won: rows.iter().map(|r| r.won).collect(),
            survived: rows.iter().map(|r| !r.dead).collect(),
            tpk: rows.iter().map(|r| r.all_down).collect(),
            hp_lost: rows.iter().map(|r| r.lost).collect(),
        }
    }
}

/// What a danger profile is computed from: the counts and sums over a
/// group's runs. Both the in-memory fold (`DangerMetrics::from_rows`) and
/// the coordinator's streamed one fill it, so the two agree bit for bit.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DangerSums {
    /// Runs counted.
    pub runs: u64,
    /// Runs the group won.
    pub wins: u64,
    /// Runs that ended in a draw.
    pub draws: u64,
    /// Runs no member died in.
    pub survives: u64,
    /// Runs every member was down in.
    pub tpk: u64,
    /// Runs some member died in.
    pub any_death: u64,
    /// Runs the group fled.
    pub fled: u64,
    /// Hit points lost, summed.
    pub lost_sum: i64,
    /// Rounds, summed.
    pub rounds_sum: u64,
    /// Squared deviations of the hit points lost from their mean, summed
    /// in run order.
    pub lost_ss: f64,
    /// Squared deviations of the rounds from their mean, summed in run order.
    pub rounds_ss: f64,
    /// Hit points remaining, summed over the worst decile's runs.
    pub tail_remaining: i64,
}

impl DangerSums {
    /// The mean of a per-run sum (0 without runs).
    pub fn per_run(&self, x: f64) -> f64 {
        if self.runs == 0 { 0.0 } else { x / self.runs as f64 }
    }

    /// How many runs the worst decile holds: a tenth rounded up, at least
    /// one.
    pub fn tail_len(runs: u64) -> u64 {
        runs.div_ceil(10).max(1)
    }
}

impl DangerMetrics {
    /// The danger profile of rows in run order, intervals at level `conf`.
    pub fn from_rows(rows: &[RunRow], conf: Confidence) -> Self {
        let count = |f: &dyn Fn(&RunRow) -> bool| rows.iter().filter(|r| f(r)).count() as u64;
        let mut sums = DangerSums {
            runs: rows.len() as u64,
            wins: count(&|r| r.won),
            draws: count(&|r| r.draw),
            survives: count(&|r| !r.dead),
            tpk: count(&|r| r.all_down),
            any_death: count(&|r| r.dead),
            fled: count(&|r| r.fled),
            lost_sum: rows.iter().map(|r| r.lost).sum(),
            rounds_sum: rows.iter().map(|r| u64::from(r.rounds)).sum(),
            ..DangerSums::default()
        };
        let mean = sums.per_run(sums.lost_sum as f64);
        let rounds_mean = sums.per_run(sums.rounds_sum as f64);
        sums.lost_ss = rows.iter().map(|r| (r.lost as f64 - mean).powi(2)).sum();
        sums.rounds_ss = rows.iter().map(|r| (f64::from(r.rounds) - rounds_mean).powi(2)).sum();
        let mut order: Vec<usize> = (0..rows.len()).collect();
        // Stable: equal losses keep run order.
        order.sort_by_key(|&r| std::cmp::Reverse(rows[r].lost));
        let tail = DangerSums::tail_len(sums.runs) as usize;
        sums.tail_remaining = order.iter().take(tail).map(|&r| rows[r].remaining).sum();
        Self::from_sums(&sums, conf)
    }

    /// The danger profile of a group's counts and sums, intervals at level
    /// `conf`.
    pub fn from_sums(s: &DangerSums, conf: Confidence) -> Self {
        let runs = s.runs;
        let mean = s.per_run(s.lost_sum as f64);
        let (sd, rounds_sd) = (s.per_run(s.lost_ss).sqrt(), s.per_run(s.rounds_ss).sqrt());
        let take = DangerSums::tail_len(runs).min(runs);
        DangerMetrics {
            runs,
            wins: s.wins,
            draws: s.draws,
            p_survives: s.per_run(s.survives as f64),
            p_tpk: s.per_run(s.tpk as f64),
            p_any_death: s.per_run(s.any_death as f64),
            p_fled: s.per_run(s.fled as f64),
            expected_hp_lost: mean,
            hp_lost_sd: sd,
            expected_rounds: s.per_run(s.rounds_sum as f64),
            worst_decile_hp: if runs == 0 { 0.0 } else { s.tail_remaining as f64 / take as f64 },
            win_rate: win_rate(s.wins, runs),
            win_band: proportion_interval(s.wins, runs, conf),
            confidence: conf.level(),
            p_survives_ci: proportion_interval(s.survives, runs, conf),
            p_tpk_ci: proportion_interval(s.tpk, runs, conf),
            p_any_death_ci: proportion_interval(s.any_death, runs, conf),
            hp_lost_se: mean_se(sd, runs),
            rounds_se: mean_se(rounds_sd, runs),
        }
    }
}

impl Records<'_> {
    /// Number of runs.
    pub fn runs(&self) -> usize {
        self.winner.len()
    }

    /// The danger profile of side `side`, intervals at the default level.
    pub fn side_metrics(&self, side: usize) -> DangerMetrics {
        self.group_metrics_at(&|s| s == side, Confidence::default())
    }

    /// The danger profile of the combatants of every side `in_group` accepts
    /// (a win of any of those sides counts), intervals at the default level.
    pub fn group_metrics(&self, in_group: &dyn Fn(usize) -> bool) -> DangerMetrics {
        self.group_metrics_at(in_group, Confidence::default())
    }

    /// How many of `members` are dead, and how many down (dead, or dying
    /// below 0 hit points: at 0 a member is disabled, still up), in the run
    /// whose rows start at `row`.
    fn dead_and_down(&self, members: &[usize], row: usize) -> (usize, usize) {
        let is_dead = |c: usize| self.dead.get(row + c).copied().unwrap_or(false);
        let dead = members.iter().filter(|&&c| is_dead(c)).count();
        let down = members
            .iter()
            .filter(|&&c| is_dead(c) || self.final_hp.get(row + c).is_some_and(|&hp| hp < 0))
            .count();
        (dead, down)
    }

    /// The per-run outcomes of the combatants of every side `in_group` accepts.
    pub fn outcomes(&self, in_group: &dyn Fn(usize) -> bool) -> Outcomes {
        Outcomes::from_rows(&self.rows(in_group))
    }

    /// What the metrics of the combatants of every side `in_group` accepts
    /// read of each run, in run order.
    pub fn rows(&self, in_group: &dyn Fn(usize) -> bool) -> Vec<RunRow> {
        let n = self.side_of.len();
        let members: Vec<usize> = (0..n).filter(|&c| in_group(self.side_of[c])).collect();
        (0..self.runs())
            .map(|run| {
                let row = run * n;
                // Counted as the metrics count them, so a paired test on
                // p_tpk compares the runs the point estimate counts.
                let (dead, down) = self.dead_and_down(&members, row);
                let (mut lost, mut remaining, mut left) = (0i64, 0i64, false);
                for &c in &members {
                    left |= self.fled.get(row + c).copied().unwrap_or(false);
                    let start = i64::from(self.start_hp[c].max(0));
                    let fin = i64::from(self.final_hp.get(row + c).copied().unwrap_or(0));
                    let is_dead = self.dead.get(row + c).copied().unwrap_or(false);
                    lost += (start - fin).clamp(0, start);
                    remaining += if is_dead { 0 } else { fin.max(0) };
                }
                let w = self.winner[run];
                let winner = usize::try_from(w).ok();
                RunRow {
                    fled: left && winner.is_some_and(|w| !in_group(w)),
                    won: w >= 0 && in_group(w as usize),
                    draw: w < 0,
                    rounds: self.rounds.get(run).copied().unwrap_or(0),
                    dead: dead > 0,
                    all_down: !members.is_empty() && down == members.len(),
                    lost,
                    remaining,
                }
            })
            .collect()
    }

    /// [`Records::group_metrics`] with intervals at level `conf`.
    pub fn group_metrics_at(&self, in_group: &dyn Fn(usize) -> bool, conf: Confidence) -> DangerMetrics {
        DangerMetrics::from_rows(&self.rows(in_group), conf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two party members (side 0, 10 and 6 hp) and one foe (side 1).
    fn records() -> (Vec<i32>, Vec<u32>, Vec<i32>, Vec<bool>) {
        // run 0: party wins unhurt; run 1: one member dead; run 2: TPK; run 3: draw, hurt.
        let winner = vec![0, 0, 1, -1];
        let rounds = vec![2, 3, 4, 10];
        let final_hp = vec![10, 6, -1, 3, -12, 0, -12, -7, 5, 8, 2, 4];
        let dead = vec![false, false, true, false, true, false, true, true, false, false, false, false];
        (winner, rounds, final_hp, dead)
    }

    #[test]
    fn metrics_by_hand() {
        let (winner, rounds, final_hp, dead) = records();
        let r = Records {
            side_of: &[0, 0, 1],
            start_hp: &[10, 6, 8],
            winner: &winner,
            rounds: &rounds,
            final_hp: &final_hp,
            dead: &dead,
            fled: &[],
        };
        let m = r.side_metrics(0);
        assert_eq!((m.runs, m.wins, m.draws), (4, 2, 1));
        assert_eq!(m.p_survives, 0.5);
        assert_eq!(m.p_tpk, 0.25);
        assert_eq!(m.p_any_death, 0.5);
        // Losses: 0, 7+6=13 (overkill clamped), 10+6=16, 2+4=6.
        assert_eq!(m.expected_hp_lost, 35.0 / 4.0);
        assert_eq!(m.expected_rounds, 19.0 / 4.0);
        // ⌈4/10⌉ = 1 worst run: the TPK, 0 hp remaining.
        assert_eq!(m.worst_decile_hp, 0.0);
        // Intervals: 2 of 4 survive, Wilson at z = 3; 1 of 4 wiped.
        assert_eq!(m.confidence, crate::metrics::THREE_SIGMA_LEVEL);
        assert_eq!(m.p_survives_ci, crate::metrics::wilson(2, 4, 3.0));
        let (_, hi) = crate::metrics::wilson(1, 4, 3.0);
        assert_eq!(
            m.p_tpk_ci,
            (1.0 - (1.0 - (1.0 - crate::metrics::THREE_SIGMA_LEVEL) / 2.0).powf(0.25), hi)
        );
        // Losses 0, 13, 16, 6: sample sd / √4.
        let mean = 35.0 / 4.0;
        let ss: f64 = [0.0, 13.0, 16.0, 6.0].iter().map(|l: &f64| (l - mean).powi(2)).sum();
        assert!((m.hp_lost_se - (ss / 3.0).sqrt() / 2.0).abs() < 1e-12);
        let o = r.outcomes(&|s| s == 0);
        assert_eq!(o.survived, [true, false, false, true]);
        assert_eq!(o.tpk, [false, false, true, false]);
        assert_eq!(o.won, [true, true, false, false]);
        assert_eq!(o.values(Criterion::PWin), [1.0, 1.0, 0.0, 0.0]);
        assert_eq!(m.interval(Criterion::PWin), m.win_band);
        assert_eq!(o.hp_lost, [0, 13, 16, 6]);
        assert_eq!(o.values(Criterion::PAnyDeath), [0.0, 1.0, 1.0, 0.0]);
        let foe = r.side_metrics(1);
        assert_eq!(foe.wins, 1);
        assert_eq!(foe.p_tpk, 0.25);
        assert_eq!(foe.p_survives, 0.75);
    }

    #[test]
    fn a_side_fled_when_a_member_left_alive_and_another_side_won() {
        // Run 0: member 0 left, the foe won: fled. Run 1: member 0 left, its
        // side won: not fled. Run 2: a draw with a member out: not fled.
        // Run 3: nobody left: not fled. Four runs: p_fled 1/4.
        let r = Records {
            side_of: &[0, 0, 1],
            start_hp: &[10, 6, 8],
            winner: &[1, 0, -1, 1],
            rounds: &[2, 2, 2, 2],
            final_hp: &[4, -3, 8, 9, 6, -9, 2, 6, 8, -12, -1, 8],
            dead: &[false, false, false, false, false, true, false, false, false, true, false, false],
            fled: &[true, false, false, true, false, false, true, false, false, false, false, false],
        };
        let rows = r.rows(&|s| s == 0);
        assert_eq!(rows.iter().map(|x| x.fled).collect::<Vec<_>>(), [true, false, false, false]);
        // Who left is neither dead nor down: run 0 is not everyone down.
        assert!(!rows[0].all_down && rows[3].all_down);
        // What it lost before it left counts: 10 − 4 and 6 − 0.
        assert_eq!(rows[0].lost, 6 + 6);
        let m = r.side_metrics(0);
        assert_eq!((m.p_fled, m.wins, m.draws), (0.25, 1, 1));
        assert_eq!(r.side_metrics(1).p_fled, 0.0, "the foes never left");
    }

    #[test]
    fn everyone_down_counts_the_dying_but_not_a_member_at_0_hp() {
        // run 0: one dead, one dying (−3): everyone down; run 1: one dead, one at 0 (disabled): not.
        let r = Records {
            side_of: &[0, 0, 1],
            start_hp: &[10, 6, 8],
            winner: &[1, 1],
            rounds: &[3, 3],
            final_hp: &[-12, -3, 8, -12, 0, 8],
            dead: &[true, false, false, true, false, false],
            fled: &[],
        };
        let m = r.side_metrics(0);
        assert_eq!((m.p_tpk, m.p_any_death, m.p_survives), (0.5, 1.0, 0.0));
        // The per-run outcomes count the same runs, so paired tests on
        // p_tpk compare what the point estimate counts.
        let o = r.outcomes(&|s| s == 0);
        assert_eq!(o.tpk, [true, false]);
        assert_eq!(o.values(Criterion::PTpk).iter().sum::<f64>() / 2.0, m.p_tpk);
    }

    #[test]
    fn crossing_directions() {
        assert!(Criterion::PTpk.crossed(0.3, 0.2));
        assert!(!Criterion::PTpk.crossed(0.1, 0.2));
        assert!(Criterion::PSurvives.crossed(0.1, 0.2));
        assert!(Criterion::ExpectedHpLost.crossed(20.0, 20.0));
        assert!(Criterion::PWin.crossed(0.4, 0.5) && !Criterion::PWin.crossed(0.6, 0.5));
        assert_eq!(Criterion::from_name("p_win"), Some(Criterion::PWin));
        assert_eq!(Criterion::from_name("p_any_death"), Some(Criterion::PAnyDeath));
    }
}
