//! Plays shards with the engine: builds each scenario's encounter once,
//! prepares each variant once (a small cache: the shards of a cell are
//! leased together), runs the range and packs the result.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use pf1e_engine::combat::MatchupPolicy;
use pf1e_engine::day::{Day, record_many};
use pf1e_engine::encounter::Encounter;
use pf1e_engine::runner::{run_batch_policy, run_batch_prepared};
use pf1e_wire::day::{DayPlay, assemble};
use pf1e_wire::evaluate::{EvalError, ShardEvaluator};
use pf1e_wire::scenario::{Playable, Scenario, ScenarioHash};
use pf1e_wire::shard::{ShardResult, ShardSpec};
use pf1e_wire::variant::{SideVariant, variant_encounter};

/// Prepared variants kept in memory.
const PREPARED_CACHE: usize = 64;

type VariantKey = (ScenarioHash, Vec<SideVariant>);

#[derive(Default)]
struct Prepared {
    entries: BTreeMap<VariantKey, (u64, Arc<Playable>)>,
    stamp: u64,
}

/// The engine as a shard evaluator. Encounters are cached by scenario hash,
/// prepared variants in a small most-recently-used cache, days by content
/// (the shards of a day cell are leased together).
#[derive(Default)]
pub struct EngineEvaluator {
    encounters: Mutex<BTreeMap<ScenarioHash, Arc<Encounter>>>,
    prepared: Mutex<Prepared>,
    days: Mutex<BTreeMap<(DayPlay, String), Arc<Day>>>,
}

impl EngineEvaluator {
    /// An evaluator with an empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    fn encounter(&self, scenario: &Scenario) -> Result<Arc<Encounter>, EvalError> {
        if let Some(e) = self.encounters.lock().unwrap_or_else(|p| p.into_inner()).get(&scenario.hash) {
            return Ok(Arc::clone(e));
        }
        let e = Arc::new(scenario.encounter()?);
        self.encounters.lock().unwrap_or_else(|p| p.into_inner()).insert(scenario.hash, Arc::clone(&e));
        Ok(e)
    }

    /// The day `play` over `fights`, the party on side `party`, built once.
    fn day(&self, play: &DayPlay, fights: &[Arc<Scenario>], party: &str) -> Result<Arc<Day>, EvalError> {
        let key = (play.clone(), party.to_string());
        if let Some(d) = self.days.lock().unwrap_or_else(|p| p.into_inner()).get(&key) {
            return Ok(Arc::clone(d));
        }
        let named: Vec<(String, Arc<Scenario>)> =
            fights.iter().enumerate().map(|(k, s)| (format!("fight {}", k + 1), Arc::clone(s))).collect();
        let day = Arc::new(assemble(String::new(), &named, party, play.steps().to_vec())?);
        let mut days = self.days.lock().unwrap_or_else(|p| p.into_inner());
        // Days are few (one per plan of a day sweep): forget them all past a handful.
        if days.len() >= PREPARED_CACHE {
            days.clear();
        }
        days.insert(key, Arc::clone(&day));
        Ok(day)
    }

    fn playable(&self, scenario: &Scenario, spec: &ShardSpec) -> Result<Arc<Playable>, EvalError> {
        let key: VariantKey = (scenario.hash, spec.variant.clone());
        {
            let mut cache = self.prepared.lock().unwrap_or_else(|p| p.into_inner());
            cache.stamp += 1;
            let stamp = cache.stamp;
            if let Some((used, r)) = cache.entries.get_mut(&key) {
                *used = stamp;
                return Ok(Arc::clone(r));
            }
        }
        let encounter = variant_encounter(&*self.encounter(scenario)?, &spec.variant)?;
        let ready = Arc::new(scenario.prepare(encounter)?);
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
    fn evaluate(&self, scenario: &Scenario, spec: &ShardSpec) -> Result<ShardResult, EvalError> {
        let _span = tracing::debug_span!(
            "shard",
            start = spec.runs.start,
            end = spec.runs.end,
            party = %spec.party,
            seed = spec.seed
        )
        .entered();
        let ready = self.playable(scenario, spec)?;
        let enc = &ready.encounter;
        let range = spec.runs.clone();
        let (party, adversary) = (&spec.party_strategy, &spec.adversary_strategy);
        let outcomes = if party.is_default() && adversary.is_default() {
            run_batch_prepared(&ready.prepared, &scenario.options, spec.seed, range)
        } else {
            let side = enc
                .sides
                .iter()
                .position(|s| s == &spec.party)
                .ok_or_else(|| EvalError::UnknownParty(spec.party.clone()))?;
            let policy = MatchupPolicy::new(enc, side, party, adversary);
            run_batch_policy(&ready.prepared, &scenario.options, spec.seed, range, &policy)
        };
        tracing::debug!(runs = outcomes.len(), "shard played");
        Ok(ShardResult::from_outcomes(enc, &outcomes))
    }

    fn evaluate_day(&self, fights: &[Arc<Scenario>], spec: &ShardSpec) -> Result<ShardResult, EvalError> {
        let _span =
            tracing::debug_span!("day shard", start = spec.runs.start, end = spec.runs.end, seed = spec.seed)
                .entered();
        let Some(play) = &spec.day else { return Err(EvalError::NoDays) };
        let day = self.day(play, fights, &spec.party)?;
        let options = fights.first().map(|s| s.options.clone()).unwrap_or_default();
        // The day and its plans, their shared first steps played once;
        // run after run, one record per play.
        let plays = play.plays();
        let (per_play, steps) = record_many(&day, plays, &options, spec.seed, spec.runs.clone());
        let runs = per_play.first().map_or(0, Vec::len);
        let mut records = Vec::with_capacity(runs * plays.len());
        for run in 0..runs {
            records.extend(per_play.iter().map(|p| p[run].clone()));
        }
        tracing::debug!(days = runs, plays = plays.len(), steps, "day shard played");
        Ok(ShardResult::from_days(records, plays.len() as u32))
    }
}
