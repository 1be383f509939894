//! The synthetic evaluator: plausible, deterministic shard results at a
//! chosen speed, without playing any battle. It lets one machine offer a
//! coordinator the load of hundreds of worker cores (`pf1e bench-service
//! --which capacity`): a synthetic "core" is a thread that sleeps for the
//! time its battles would take, so it costs the machine almost nothing.
//!
//! Its results are never real: a synthetic worker announces the rules
//! version [`synthetic_rules_version`], which a coordinator refuses unless
//! it was started for synthetic workers (`--synthetic-workers`), whose
//! database is marked so that no other use opens it.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use pf1e_engine::combat::{CombatantOutcome, RunOutcome};
use pf1e_engine::encounter::Encounter;
use pf1e_wire::evaluate::{EvalError, ShardEvaluator};
use pf1e_wire::scenario::{Scenario, ScenarioHash};
use pf1e_wire::shard::{ShardResult, ShardSpec};
use pf1e_wire::variant::{SideVariant, variant_encounter};

pub use pf1e_wire::evaluate::synthetic_rules_version;

/// Variants kept in memory (a cell's shards are leased together).
const ENCOUNTERS_KEPT: usize = 256;

type VariantKey = (ScenarioHash, Vec<SideVariant>);

/// Returns made-up results whose shape is that of the real ones (the
/// cell's sides and combatants, one record per run, sums that match), a
/// pure function of the shard's seed and run indices, after sleeping for
/// `battle` per run.
pub struct SyntheticEvaluator {
    battle: Duration,
    encounters: Mutex<BTreeMap<VariantKey, Arc<Encounter>>>,
}

impl SyntheticEvaluator {
    /// An evaluator whose battles take `battle` of wall time each (zero:
    /// as fast as it can make the records).
    pub fn new(battle: Duration) -> Self {
        Self { battle, encounters: Mutex::new(BTreeMap::new()) }
    }

    fn encounter(&self, scenario: &Scenario, spec: &ShardSpec) -> Result<Arc<Encounter>, EvalError> {
        let key: VariantKey = (scenario.hash, spec.variant.clone());
        if let Some(e) = self.encounters.lock().unwrap_or_else(|p| p.into_inner()).get(&key) {
            return Ok(Arc::clone(e));
        }
        let e = Arc::new(variant_encounter(&scenario.encounter()?, &spec.variant)?);
        let mut cache = self.encounters.lock().unwrap_or_else(|p| p.into_inner());
        if cache.len() >= ENCOUNTERS_KEPT {
            cache.clear();
        }
        cache.insert(key, Arc::clone(&e));
        Ok(e)
    }
}

/// SplitMix64: a well-mixed 64-bit function of its input.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The made-up battle `run` of a cell seeded `seed`: a winner (a draw one
/// time in 64), one to eight rounds, the winners' survivors between 1 HP
/// and their start, the losers between 0 and −11 HP (dead at −10 or less).
pub fn synthetic_outcome(encounter: &Encounter, seed: u64, run: u64) -> RunOutcome {
    let h = mix(seed ^ mix(run));
    let sides = encounter.sides.len().max(1) as u64;
    let winner = if h.is_multiple_of(64) { None } else { Some(((h >> 6) % sides) as u32) };
    let combatants = encounter
        .combatants
        .iter()
        .enumerate()
        .map(|(c, d)| {
            let r = mix(h ^ (c as u64 + 1));
            let won = winner == Some(d.side as u32);
            let start = d.start_hp.max(1);
            let final_hp = if won { 1 + (r % start as u64) as i32 } else { -((r % 12) as i32) };
            let damage = (start - final_hp).max(0) as u32;
            CombatantOutcome {
                final_hp,
                dead: final_hp <= -10,
                dying: (-9..0).contains(&final_hp),
                hits: ((r >> 8) % 4) as u32,
                crits: u32::from((r >> 12).is_multiple_of(16)),
                damage_dealt: ((r >> 16) % 12) as u32,
                damage_taken: damage,
                ..Default::default()
            }
        })
        .collect();
    RunOutcome { winner, rounds: 1 + ((h >> 20) % 8) as u32, combatants, summons: Vec::new() }
}

impl ShardEvaluator for SyntheticEvaluator {
    fn evaluate(&self, scenario: &Scenario, spec: &ShardSpec) -> Result<ShardResult, EvalError> {
        let started = std::time::Instant::now();
        let enc = self.encounter(scenario, spec)?;
        let outcomes: Vec<RunOutcome> =
            spec.runs.clone().map(|i| synthetic_outcome(&enc, spec.seed, i)).collect();
        let runs = u32::try_from(outcomes.len()).unwrap_or(u32::MAX);
        // The time the battles would take, less the time spent making them up.
        let left = self.battle.saturating_mul(runs).saturating_sub(started.elapsed());
        if !left.is_zero() {
            std::thread::sleep(left);
        }
        Ok(ShardResult::from_outcomes(&enc, &outcomes))
    }
}

/// The evaluator a worker plays with: the engine, or with
/// `synthetic_battle_us` a [`SyntheticEvaluator`] taking that long per
/// battle, whose rules version `cfg` then announces (the flag of both
/// `pf1e worker` and `pf1e-worker`).
pub fn evaluator_for(
    cfg: &mut crate::WorkerConfig,
    synthetic_battle_us: Option<u32>,
) -> Arc<dyn ShardEvaluator> {
    match synthetic_battle_us {
        Some(us) => {
            cfg.rules_version = synthetic_rules_version();
            Arc::new(SyntheticEvaluator::new(Duration::from_micros(u64::from(us))))
        }
        None => Arc::new(crate::EngineEvaluator::new()),
    }
}
