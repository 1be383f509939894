//! Plays shards with the engine: builds each scenario's encounter once,
//! prepares each variant once (a small cache: the shards of a cell are
//! leased together), runs the range and packs the result.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use pf1e_coordinator::embedded::ShardEvaluator;
use pf1e_coordinator::proto;
use pf1e_coordinator::results::summary_to_proto;
use pf1e_coordinator::scenario::{Scenario, ScenarioHash, apply_variant};
use pf1e_engine::combat::PreparedEncounter;
use pf1e_engine::encounter::Encounter;
use pf1e_engine::runner::run_batch_prepared;
use pf1e_engine::summary::Summary;

/// Prepared variants kept in memory.
const PREPARED_CACHE: usize = 64;

type VariantKey = (ScenarioHash, Vec<(String, u32)>);

/// A variant ready to play.
struct Ready {
    encounter: Encounter,
    prepared: PreparedEncounter,
}

#[derive(Default)]
struct Prepared {
    entries: BTreeMap<VariantKey, (u64, Arc<Ready>)>,
    stamp: u64,
}

/// The engine as a shard evaluator. Encounters are cached by scenario hash,
/// prepared variants in a small most-recently-used cache.
#[derive(Default)]
pub struct EngineEvaluator {
    encounters: Mutex<BTreeMap<ScenarioHash, Arc<Encounter>>>,
    prepared: Mutex<Prepared>,
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

    fn ready(&self, scenario: &Scenario, spec: &proto::ShardSpec) -> Result<Arc<Ready>, String> {
        let key: VariantKey =
            (scenario.hash, spec.variant.iter().map(|v| (v.side.clone(), v.hp_ppm)).collect());
        {
            let mut cache = self.prepared.lock().unwrap_or_else(|p| p.into_inner());
            cache.stamp += 1;
            let stamp = cache.stamp;
            if let Some((used, r)) = cache.entries.get_mut(&key) {
                *used = stamp;
                return Ok(Arc::clone(r));
            }
        }
        let mut encounter = (*self.encounter(scenario)?).clone();
        apply_variant(&mut encounter, &spec.variant);
        let prepared =
            PreparedEncounter::new(&encounter).map_err(|e| format!("{}: {e}", scenario.map_name))?;
        let ready = Arc::new(Ready { encounter, prepared });
        let mut cache = self.prepared.lock().unwrap_or_else(|p| p.into_inner());
        cache.stamp += 1;
        let stamp = cache.stamp;
        cache.entries.insert(key, (stamp, Arc::clone(&ready)));
        if cache.entries.len() > PREPARED_CACHE
            && let Some(oldest) =
                cache.entries.iter().min_by_key(|(_, (used, _))| *used).map(|(k, _)| k.clone())
        {
            cache.entries.remove(&oldest);
        }
        Ok(ready)
    }
}

impl ShardEvaluator for EngineEvaluator {
    fn evaluate(&self, scenario: &Scenario, spec: &proto::ShardSpec) -> Result<proto::ShardResult, String> {
        for s in [&spec.party_strategy, &spec.adversary_strategy] {
            if s != "default" {
                return Err(format!("unknown strategy {s:?}: this worker only knows \"default\""));
            }
        }
        let ready = self.ready(scenario, spec)?;
        let enc = &ready.encounter;
        let outcomes =
            run_batch_prepared(&ready.prepared, &scenario.options, spec.seed, spec.run_start..spec.run_end);
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

#[cfg(test)]
mod tests {
    use super::*;
    use pf1e_coordinator::scenario::ScenarioSide;
    use pf1e_engine::combat::SimOptions;

    fn data(p: &str) -> Vec<u8> {
        std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data").join(p)).unwrap()
    }

    #[test]
    fn shards_equal_the_engine_batch_runner() {
        let scenario = Scenario::new(
            "sample_arena.yaml".into(),
            data("maps/sample_arena.yaml"),
            vec![
                ScenarioSide {
                    name: "players".into(),
                    zone: Some('A'),
                    combatants: vec![("g".into(), data("monsters/goblin.json")); 2],
                },
                ScenarioSide {
                    name: "monsters".into(),
                    zone: Some('B'),
                    combatants: vec![("o".into(), data("monsters/orc.json"))],
                },
            ],
            SimOptions::default(),
        );
        let eval = EngineEvaluator::new();
        for ppm in [500_000, 1_000_000] {
            let variant = vec![
                proto::SideVariant { side: "monsters".into(), hp_ppm: 1_000_000 },
                proto::SideVariant { side: "players".into(), hp_ppm: ppm },
            ];
            let spec = proto::ShardSpec {
                scenario_hash: pf1e_coordinator::scenario::hex(&scenario.hash),
                variant: variant.clone(),
                party: "players".into(),
                party_strategy: "default".into(),
                adversary_strategy: "default".into(),
                seed: 5,
                run_start: 3,
                run_end: 11,
            };
            let r = eval.evaluate(&scenario, &spec).unwrap();
            let mut enc = scenario.base_encounter().unwrap();
            apply_variant(&mut enc, &variant);
            assert_eq!(enc.combatants[0].start_hp, if ppm == 500_000 { 3 } else { 6 });
            let expected = pf1e_engine::runner::run_batch(&enc, &scenario.options, 5, 3..11);
            assert_eq!(
                r.winner,
                expected.iter().map(|o| o.winner.map_or(-1, |w| w as i32)).collect::<Vec<_>>()
            );
            assert_eq!(r.rounds, expected.iter().map(|o| o.rounds).collect::<Vec<_>>());
            let hp: Vec<i32> =
                expected.iter().flat_map(|o| o.combatants.iter().map(|c| c.final_hp)).collect();
            assert_eq!(r.final_hp, hp);
            let summary = Summary::from_outcomes(2, 3, &expected);
            assert_eq!(r.summary, Some(summary_to_proto(&summary)));
            assert_eq!(
                r.combatants.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(),
                ["goblin", "goblin-2", "orc"]
            );
        }
        let mut bad = proto::ShardSpec { party_strategy: "cautious".into(), ..Default::default() };
        bad.scenario_hash = pf1e_coordinator::scenario::hex(&scenario.hash);
        assert!(eval.evaluate(&scenario, &bad).unwrap_err().contains("cautious"));
    }
}
