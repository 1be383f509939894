//! Shards: run ranges of a cell, their content keys and their wire form.

use std::ops::Range;

use crate::plan::CellSpec;
use crate::proto;
use crate::scenario::{Canon, ScenarioHash, hex};

/// Content key of a shard (blake3).
pub type ShardKey = [u8; 32];

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
/// the same battles whether the cell has 100 or 400 runs.
pub fn shard_key(scenario: &ScenarioHash, cell: &CellSpec, range: &Range<u64>) -> ShardKey {
    let mut c = Canon::new("pf1e-shard-v1");
    c.bytes(pf1e_engine::RULES_VERSION.as_bytes()).bytes(scenario);
    c.bytes(cell.party.as_bytes())
        .bytes(cell.party_strategy.as_str().as_bytes())
        .bytes(cell.adversary_strategy.as_str().as_bytes());
    c.u64(cell.hp.len() as u64);
    for (side, f) in &cell.hp {
        c.bytes(side.as_bytes()).u64(u64::from(f.0));
    }
    c.u64(cell.seed).u64(range.start).u64(range.end);
    c.finish()
}

/// The wire form of a shard.
pub fn shard_spec(scenario: &ScenarioHash, cell: &CellSpec, range: &Range<u64>) -> proto::ShardSpec {
    proto::ShardSpec {
        scenario_hash: hex(scenario),
        variant: cell.hp.iter().map(|(s, f)| proto::SideVariant { side: s.clone(), hp_ppm: f.0 }).collect(),
        party: cell.party.clone(),
        party_strategy: cell.party_strategy.as_str().to_string(),
        adversary_strategy: cell.adversary_strategy.as_str().to_string(),
        seed: cell.seed,
        run_start: range.start,
        run_end: range.end,
    }
}

/// Checks that a reported result has the shape its shard requires.
pub fn check_result(spec: &proto::ShardSpec, r: &proto::ShardResult) -> Result<(), String> {
    let runs = spec.run_end.saturating_sub(spec.run_start);
    let n = r.combatants.len() as u64;
    let summary_runs = r.summary.as_ref().map_or(0, |s| s.runs);
    if summary_runs != runs || r.winner.len() as u64 != runs || r.rounds.len() as u64 != runs {
        return Err(format!("result has {summary_runs} runs for a shard of {runs}"));
    }
    if r.final_hp.len() as u64 != runs * n {
        return Err("result has a malformed final_hp table".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::{HpFraction, StrategySpec};

    fn cell(hp: u32) -> CellSpec {
        CellSpec {
            hp: [("a".to_string(), HpFraction(hp))].into_iter().collect(),
            party: "a".into(),
            party_strategy: StrategySpec::default_spec(),
            adversary_strategy: StrategySpec::default_spec(),
            seed: 3,
            runs: 10,
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
        let k = shard_key(&s, &cell(500_000), &(0..4));
        assert_eq!(k, shard_key(&s, &cell(500_000), &(0..4)));
        assert_ne!(k, shard_key(&s, &cell(600_000), &(0..4)));
        assert_ne!(k, shard_key(&s, &cell(500_000), &(0..5)));
        assert_ne!(k, shard_key(&[2u8; 32], &cell(500_000), &(0..4)));
        let mut c = cell(500_000);
        c.runs = 400;
        assert_eq!(k, shard_key(&s, &c, &(0..4)), "the cell's run count is not part of the key");
    }
}
