//! Shards: run ranges of a cell, their content keys and what a worker is
//! asked to play.

use std::ops::Range;

use pf1e_wire::canon::Canon;
use pf1e_wire::scenario::ScenarioHash;
use pf1e_wire::shard::{ShardKey, ShardSpec};
use pf1e_wire::variant::SideVariant;

use crate::cell::CellSpec;

/// What a cell's shards report besides their sums: per-run records (a
/// day's), or their totals, with the per-run outcomes packed when the
/// cell's job compares runs one by one.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Report {
    /// [`ShardSpec::totals`].
    pub totals: bool,
    /// [`ShardSpec::packed`].
    pub packed: bool,
}

impl Report {
    /// What the shards of a cell report: a battle cell its totals, packed
    /// runs too when its job `needs_runs`; a day cell its days.
    pub fn of(needs_runs: bool, day: bool) -> Self {
        Report { totals: !day, packed: needs_runs && !day }
    }
}

/// Splits `runs` into consecutive ranges of at most `shard_size` runs.
pub fn split(runs: u64, shard_size: u64) -> Vec<Range<u64>> {
    let size = shard_size.max(1);
    let mut out = Vec::new();
    let mut start = 0;
    while start < runs {
        let end = runs.min(start.saturating_add(size));
        out.push(start..end);
        start = end;
    }
    out
}

/// The cache key of runs `range` of `cell` in scenario `scenario`: a hash of
/// the rules version, the scenario content hash (map and combatants by
/// content, options), both strategy specs, the variant, the run range and
/// the seed. The cell's total run count is not part of it: runs 0..100 are
/// the same battles whether the cell has 100 or 400 runs. The domain names
/// the shard result's format: v3 results carry the per-combatant counters
/// of conditions and resources (a v2 cache entry, without them, is a miss
/// rather than zeros). A day cell's key also covers its day (its fights'
/// scenarios and its steps, `DayPlay`): battle keys stay as they were.
pub fn shard_key(scenario: &ScenarioHash, cell: &CellSpec, range: &Range<u64>, report: Report) -> ShardKey {
    let mut c = Canon::new("pf1e-shard-v3");
    c.bytes(pf1e_engine::RULES_VERSION.as_bytes()).bytes(scenario);
    c.bytes(cell.party.as_bytes())
        .bytes(cell.party_strategy.as_str().as_bytes())
        .bytes(cell.adversary_strategy.as_str().as_bytes());
    c.u64(cell.hp.len() as u64);
    for (side, f) in &cell.hp {
        c.bytes(side.as_bytes()).u64(u64::from(f.0));
    }
    c.u64(cell.seed).u64(range.start).u64(range.end);
    // Only variants with extra changes hash them: other keys stay as they were.
    if !cell.extra.is_empty() {
        c.u64(cell.extra.len() as u64);
        for (side, e) in &cell.extra {
            c.bytes(side.as_bytes()).u64(match e.aware {
                None => 0,
                Some(true) => 1,
                Some(false) => 2,
            });
            c.u64(e.copies.len() as u64);
            for id in &e.copies {
                c.bytes(id.as_bytes());
            }
            // Only removals hash their list: keys of cells without any stay as they were.
            if !e.removed.is_empty() {
                c.bytes(b"removed").u64(e.removed.len() as u64);
                for id in &e.removed {
                    c.bytes(id.as_bytes());
                }
            }
            // Likewise a roster.
            if !e.roster.is_empty() {
                c.bytes(b"roster").u64(e.roster.len() as u64);
                for id in &e.roster {
                    c.bytes(id.as_bytes());
                }
            }
        }
    }
    if let Some(day) = &cell.day {
        c.bytes(b"day").bytes(day.hash());
    }
    // A result of totals is another result: keys of per-run results stay as they were.
    if report.totals {
        c.bytes(b"totals");
    }
    // Likewise packed runs beside them.
    if report.packed {
        c.bytes(b"packed");
    }
    c.finish()
}

/// What runs `range` of `cell` in scenario `scenario` ask a worker to play.
pub fn shard_spec(scenario: &ScenarioHash, cell: &CellSpec, range: &Range<u64>, report: Report) -> ShardSpec {
    ShardSpec {
        scenario: *scenario,
        variant: cell
            .hp
            .iter()
            .map(|(side, hp)| {
                let e = cell.extra.get(side).cloned().unwrap_or_default();
                SideVariant {
                    side: side.clone(),
                    hp: *hp,
                    aware: e.aware,
                    copies: e.copies,
                    removed: e.removed,
                    roster: e.roster,
                }
            })
            .collect(),
        party: cell.party.clone(),
        party_strategy: cell.party_strategy.levers().clone(),
        adversary_strategy: cell.adversary_strategy.levers().clone(),
        seed: cell.seed,
        runs: range.clone(),
        day: cell.day.clone(),
        totals: report.totals,
        packed: report.packed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cell::StrategySpec;
    use pf1e_wire::variant::HpFraction;

    fn cell(hp: u32) -> CellSpec {
        CellSpec {
            hp: [("a".to_string(), HpFraction(hp))].into_iter().collect(),
            party: "a".into(),
            party_strategy: StrategySpec::default_spec(),
            adversary_strategy: StrategySpec::default_spec(),
            seed: 3,
            runs: 10,
            extra: Default::default(),
            day: None,
        }
    }

    #[test]
    fn split_covers_every_run_once() {
        assert_eq!(split(10, 4), vec![0..4, 4..8, 8..10]);
        assert_eq!(split(3, 100), vec![0..3]);
        assert_eq!(split(0, 5), Vec::<Range<u64>>::new());
    }

    #[test]
    fn keys_differ_by_variant_range_and_scenario() {
        let s = [1u8; 32];
        let k = shard_key(&s, &cell(500_000), &(0..4), Report::default());
        assert_eq!(k, shard_key(&s, &cell(500_000), &(0..4), Report::default()));
        assert_ne!(k, shard_key(&s, &cell(600_000), &(0..4), Report::default()));
        assert_ne!(k, shard_key(&s, &cell(500_000), &(0..5), Report::default()));
        assert_ne!(k, shard_key(&[2u8; 32], &cell(500_000), &(0..4), Report::default()));
        let totals = Report::of(false, false);
        let packed = Report::of(true, false);
        assert_ne!(k, shard_key(&s, &cell(500_000), &(0..4), totals), "totals are another result");
        assert_ne!(
            shard_key(&s, &cell(500_000), &(0..4), totals),
            shard_key(&s, &cell(500_000), &(0..4), packed)
        );
        assert!(shard_spec(&s, &cell(500_000), &(0..4), totals).totals);
        let spec = shard_spec(&s, &cell(500_000), &(0..4), packed);
        assert!(spec.totals && spec.packed, "an analysis cell's shards report totals and packed runs");
        assert_eq!(Report::of(true, true), Report::default(), "a day's report its days");
        let mut c = cell(500_000);
        c.runs = 400;
        assert_eq!(
            k,
            shard_key(&s, &c, &(0..4), Report::default()),
            "the cell's run count is not part of the key"
        );
        let mut c = cell(500_000);
        c.extra.insert("a".into(), crate::cell::SideExtra { aware: Some(false), ..Default::default() });
        assert_ne!(k, shard_key(&s, &c, &(0..4), Report::default()), "awareness is part of the key");
        let mut d = cell(500_000);
        d.extra.insert("a".into(), crate::cell::SideExtra { copies: vec!["x".into()], ..Default::default() });
        assert_ne!(
            shard_key(&s, &c, &(0..4), Report::default()),
            shard_key(&s, &d, &(0..4), Report::default())
        );
        assert_ne!(k, shard_key(&s, &d, &(0..4), Report::default()), "extra copies are part of the key");
        let mut r = cell(500_000);
        r.extra
            .insert("a".into(), crate::cell::SideExtra { removed: vec!["x".into()], ..Default::default() });
        assert_ne!(
            shard_key(&s, &r, &(0..4), Report::default()),
            shard_key(&s, &d, &(0..4), Report::default()),
            "a removal is not a copy"
        );
        assert_eq!(shard_spec(&s, &r, &(0..4), Report::default()).variant[0].removed, ["x"]);
        let mut g = cell(500_000);
        g.extra.insert("a".into(), crate::cell::SideExtra { roster: vec!["x".into()], ..Default::default() });
        assert_ne!(
            shard_key(&s, &g, &(0..4), Report::default()),
            shard_key(&s, &r, &(0..4), Report::default()),
            "a roster is not a removal"
        );
        assert_ne!(
            shard_key(&s, &g, &(0..4), Report::default()),
            shard_key(&s, &d, &(0..4), Report::default()),
            "nor a copy"
        );
        let mut g2 = g.clone();
        g2.extra.get_mut("a").unwrap().roster.push("x".into());
        assert_ne!(
            shard_key(&s, &g, &(0..4), Report::default()),
            shard_key(&s, &g2, &(0..4), Report::default()),
            "the count is part of the key"
        );
        assert_eq!(shard_spec(&s, &g2, &(0..4), Report::default()).variant[0].roster, ["x", "x"]);
        let day = |steps| pf1e_wire::day::DayPlay::new(vec![s], steps);
        let mut d1 = cell(500_000);
        d1.day = Some(day(vec![pf1e_engine::day::Step::Encounter(0)]));
        assert_ne!(shard_key(&s, &d1, &(0..4), Report::default()), k, "a day is not its first battle");
        let mut d2 = d1.clone();
        d2.day = Some(day(vec![pf1e_engine::day::Step::LongRest, pf1e_engine::day::Step::Encounter(0)]));
        assert_ne!(
            shard_key(&s, &d1, &(0..4), Report::default()),
            shard_key(&s, &d2, &(0..4), Report::default()),
            "the steps are part of the key"
        );
        assert_eq!(shard_spec(&s, &d2, &(0..4), Report::default()).day, d2.day);
    }
}
