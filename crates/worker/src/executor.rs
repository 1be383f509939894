//! Plays shards with the engine: builds each scenario's encounter once,
//! applies the cell's variant, runs the range and packs the result.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use pf1e_coordinator::embedded::ShardEvaluator;
use pf1e_coordinator::proto;
use pf1e_coordinator::results::summary_to_proto;
use pf1e_coordinator::scenario::{Scenario, ScenarioHash, apply_variant};
use pf1e_engine::encounter::Encounter;
use pf1e_engine::runner::run_batch;
use pf1e_engine::summary::Summary;

/// The engine as a shard evaluator. Encounters are cached by scenario hash.
#[derive(Default)]
pub struct EngineEvaluator {
    encounters: Mutex<BTreeMap<ScenarioHash, Arc<Encounter>>>,
}

impl EngineEvaluator {
    /// An evaluator with an empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    fn encounter(&self, scenario: &Scenario) -> Result<Arc<Encounter>, String> {
        if let Some(e) = self.encounters.lock().unwrap_or_else(|p| p.into_inner()).get(&scenario.hash) {
            return Ok(Arc::clone(e));
        }
        let e = Arc::new(scenario.base_encounter().map_err(|e| e.to_string())?);
        self.encounters.lock().unwrap_or_else(|p| p.into_inner()).insert(scenario.hash, Arc::clone(&e));
        Ok(e)
    }
}

impl ShardEvaluator for EngineEvaluator {
    fn evaluate(&self, scenario: &Scenario, spec: &proto::ShardSpec) -> Result<proto::ShardResult, String> {
        for s in [&spec.party_strategy, &spec.adversary_strategy] {
            if s != "default" {
                return Err(format!("unknown strategy {s:?}: this worker only knows \"default\""));
            }
        }
        let base = self.encounter(scenario)?;
        let mut enc = (*base).clone();
        apply_variant(&mut enc, &spec.variant);
        let outcomes = run_batch(&enc, &scenario.options, spec.seed, spec.run_start..spec.run_end);
        let summary = Summary::from_outcomes(enc.sides.len(), enc.combatants.len(), &outcomes);
        let mut r = proto::ShardResult {
            summary: Some(summary_to_proto(&summary)),
            sides: enc.sides.clone(),
            combatants: enc
                .combatants
                .iter()
                .map(|d| proto::CombatantInfo {
                    id: d.id.clone(),
                    side: d.side as u32,
                    hp_max: d.spec.hp_max,
                    start_hp: d.start_hp,
                })
                .collect(),
            ..Default::default()
        };
        for o in &outcomes {
            r.winner.push(o.winner.map_or(-1, |w| w as i32));
            r.rounds.push(o.rounds);
            r.final_hp.extend(o.combatants.iter().map(|c| c.final_hp));
        }
        Ok(r)
    }
}
