//! The per-turn showcase: one side's turns played through the model on a
//! few battles, every call recorded for replay.
//!
//! The engine never calls a model: [`ShowcasePolicy`] is an ordinary
//! engine [`Policy`] that lives here, outside the engine. On each turn of
//! the chosen side it builds the compact observation and the plausible
//! actions (`pf1e_engine::observe`), asks the model through a
//! [`TurnPlayer`] (strict JSON, bounded repair) and hands the actions to the
//! engine, which plays or refuses them as for any policy. When the model
//! cannot give a valid answer the turn is played by the default policy and
//! the fallback is recorded. Other sides play the default policy. A model
//! refusing the request (a bad key) or an exhausted budget stops the
//! showcase with that error: it is never skipped silently.
//!
//! Per-turn play costs one call per turn, so it is capped at
//! [`MAX_SHOWCASE_RUNS`] battles; sweeps never use it.

use pf1e_engine::combat::event::Transcript;
use pf1e_engine::combat::{
    Action, BattleState, DefaultPolicy, Policy, PreparedEncounter, RunOutcome, SimOptions, run_prepared,
};
use pf1e_engine::encounter::Encounter;
use pf1e_engine::observe::{
    ActionSpec, OBSERVATION_SCHEMA_VERSION, candidate_actions, observe, raw_snapshot,
};
use pf1e_engine::rng::SeededRng;
use serde_json::Value;

use crate::client::ChatModel;
use crate::error::LlmError;
use crate::repair::RepairError;
use crate::replay::{
    ActionSource, CallRecord, REPLAY_LOG_VERSION, ReplayError, ReplayHeader, ReplayLog, ReplayPolicy,
    RunRecord,
};
use crate::turn::TurnPlayer;

/// Most battles a showcase may play.
pub const MAX_SHOWCASE_RUNS: u64 = 20;

/// Why a showcase stopped.
#[derive(Debug, thiserror::Error)]
pub enum ShowcaseError {
    /// More battles than [`MAX_SHOWCASE_RUNS`].
    #[error(
        "--llm-side plays every turn of a side through the model: at most {MAX_SHOWCASE_RUNS} runs (asked for {runs}); sweeps and large batches use compiled strategies"
    )]
    TooManyRuns {
        /// Battles asked for.
        runs: u64,
    },
    /// No side has this name.
    #[error("--llm-side {side:?}: not a side of the encounter ({known})")]
    UnknownSide {
        /// The name given.
        side: String,
        /// The sides, comma-separated.
        known: String,
    },
    /// The model refused the request, the budget is spent, or the cache failed.
    #[error("showcase stopped at run {run}, call_seq {call_seq}: {source}")]
    Stopped {
        /// The battle.
        run: u64,
        /// The call.
        call_seq: u64,
        /// The error.
        #[source]
        source: LlmError,
    },
}

/// Whether an error ends the showcase rather than falling back.
fn is_fatal(e: &LlmError) -> bool {
    matches!(e, LlmError::Rejected { .. } | LlmError::BudgetExhausted(_) | LlmError::Cache(_))
}

/// The policy of one showcase battle.
pub struct ShowcasePolicy<'a, M: ChatModel> {
    player: &'a TurnPlayer,
    model: &'a M,
    runtime: &'a tokio::runtime::Handle,
    side: usize,
    run: u64,
    /// The last `call_seq` used (shared across battles).
    call_seq: u64,
    calls: Vec<CallRecord>,
    fatal: Option<(u64, LlmError)>,
    /// The encounter, to measure each observation against the raw snapshot.
    encounter: &'a Encounter,
    sizes: Vec<ViewSize>,
}

/// The size of one observation as sent, and of the raw snapshot of the same turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ViewSize {
    /// Bytes of the compact view (the observation's text).
    pub view: usize,
    /// Bytes of the raw snapshot's JSON.
    pub raw: usize,
}

impl<'a, M: ChatModel> ShowcasePolicy<'a, M> {
    fn turn(&mut self, battle: &BattleState<'_>, actor: usize, out: &mut Vec<Action>) {
        self.call_seq += 1;
        let observation = observe(battle, actor).render();
        let raw = raw_snapshot(self.encounter, battle, actor).to_string().len();
        self.sizes.push(ViewSize { view: observation.len(), raw });
        let candidates: Vec<ActionSpec> =
            candidate_actions(battle, actor).iter().map(|a| ActionSpec::from_action(battle, a)).collect();
        let resolve = |spec: &ActionSpec| spec.to_action(battle).map(|_| ()).map_err(|e| e.to_string());
        let asked = self.runtime.block_on(self.player.choose(self.model, &observation, &candidates, resolve));
        let (source, answer, attempts, cached, reason) = match asked {
            Ok(answered) => {
                out.extend(answered.value.iter().filter_map(|s| s.to_action(battle).ok()));
                (ActionSource::Model, Some(answered.text), answered.attempts, answered.cached, None)
            }
            Err(RepairError::Invalid { attempts, problems, answer }) => {
                self.player.record_fallback();
                DefaultPolicy.plan(battle, actor, out);
                let reason = format!("invalid answer after {attempts} attempt(s): {}", problems.join("; "));
                (ActionSource::Fallback, Some(answer), attempts, false, Some(reason))
            }
            Err(RepairError::Llm { attempts, source }) => {
                self.player.record_fallback();
                DefaultPolicy.plan(battle, actor, out);
                let reason = source.to_string();
                if is_fatal(&source) {
                    self.fatal = Some((self.call_seq, source));
                }
                (ActionSource::Fallback, None, attempts, false, Some(reason))
            }
        };
        self.calls.push(CallRecord {
            call_seq: self.call_seq,
            run: self.run,
            round: battle.round(),
            actor: battle.id(actor).to_string(),
            observation,
            candidates,
            answer,
            attempts,
            cached,
            source,
            fallback_reason: reason,
            actions: out.iter().map(|a| ActionSpec::from_action(battle, a)).collect(),
        });
    }
}

impl<M: ChatModel> Policy for ShowcasePolicy<'_, M> {
    fn plan(&mut self, battle: &BattleState<'_>, actor: usize, out: &mut Vec<Action>) {
        if battle.side(actor) != self.side || self.fatal.is_some() {
            return DefaultPolicy.plan(battle, actor, out);
        }
        self.turn(battle, actor, out);
    }
}

/// What a showcase played.
#[derive(Debug)]
pub struct ShowcaseRun {
    /// Every battle's outcome, in run order.
    pub outcomes: Vec<RunOutcome>,
    /// The transcript of run 0 (its typed events), when asked for.
    pub transcript: Option<Transcript>,
    /// The replay log.
    pub log: ReplayLog,
    /// The size of every observation sent, against the raw snapshot.
    pub sizes: Vec<ViewSize>,
}

impl ShowcaseRun {
    /// Turns played by the model and by the fallback policy.
    pub fn turns(&self) -> (usize, usize) {
        let model = self.log.calls.iter().filter(|c| c.source == ActionSource::Model).count();
        (model, self.log.calls.len() - model)
    }
}

/// The index of side `name` among `sides`.
pub fn side_index(sides: &[String], name: &str) -> Result<usize, ShowcaseError> {
    sides
        .iter()
        .position(|s| s == name)
        .ok_or_else(|| ShowcaseError::UnknownSide { side: name.to_string(), known: sides.join(", ") })
}

/// A showcase: which side the model plays, and how.
pub struct Showcase<'a, M: ChatModel> {
    /// Asks for turns.
    pub player: &'a TurnPlayer,
    /// Answers.
    pub model: &'a M,
    /// Runs the model's futures (the engine's loop is synchronous).
    pub runtime: tokio::runtime::Handle,
    /// The side the model plays (its name).
    pub side: String,
}

impl<M: ChatModel> Showcase<'_, M> {
    /// Plays runs `0..runs` of `seed` of `encounter` (prepared as
    /// `prepared`); `scenario` describes the battles in the log's header
    /// (the caller's scenario by content).
    #[allow(clippy::too_many_arguments)]
    pub fn play(
        &self,
        encounter: &Encounter,
        prepared: &PreparedEncounter,
        options: &SimOptions,
        seed: u64,
        runs: u64,
        transcript: bool,
        scenario: Value,
    ) -> Result<ShowcaseRun, ShowcaseError> {
        if runs > MAX_SHOWCASE_RUNS {
            return Err(ShowcaseError::TooManyRuns { runs });
        }
        let side = side_index(prepared.sides(), &self.side)?;
        let mut policy = ShowcasePolicy {
            player: self.player,
            model: self.model,
            runtime: &self.runtime,
            side,
            run: 0,
            call_seq: 0,
            calls: Vec::new(),
            fatal: None,
            encounter,
            sizes: Vec::new(),
        };
        let mut outcomes = Vec::new();
        let mut records = Vec::new();
        let mut lines = None;
        for run in 0..runs {
            policy.run = run;
            let mut rng = SeededRng::for_run(seed, run);
            let mut text = Transcript::for_encounter(prepared);
            let keep = transcript && run == 0;
            let outcome =
                run_prepared(prepared, options, &mut rng, keep.then_some(&mut text.events), &mut policy);
            if let Some((call_seq, source)) = policy.fatal.take() {
                return Err(ShowcaseError::Stopped { run, call_seq, source });
            }
            if keep {
                lines = Some(text);
            }
            records.push(run_record(prepared, run, &outcome));
            outcomes.push(outcome);
        }
        let header = ReplayHeader {
            log_version: REPLAY_LOG_VERSION,
            observation_schema_version: OBSERVATION_SCHEMA_VERSION,
            rules_version: pf1e_engine::RULES_VERSION.to_string(),
            seed,
            runs,
            side: self.side.clone(),
            model: self.model.model_name().to_string(),
            prompt_version: self.player.prompt_version().to_string(),
            max_repairs: self.player.max_repairs(),
            scenario,
        };
        Ok(ShowcaseRun {
            outcomes,
            transcript: lines,
            log: ReplayLog { header, calls: policy.calls, runs: records },
            sizes: policy.sizes,
        })
    }
}

fn run_record(prepared: &PreparedEncounter, run: u64, outcome: &RunOutcome) -> RunRecord {
    RunRecord {
        run,
        winner: outcome.winner.and_then(|w| prepared.sides().get(w as usize).cloned()),
        rounds: outcome.rounds,
    }
}

/// Plays the battles of `log` again without a model: the same outcomes, bit
/// for bit, or the first divergence. `prepared` and `options` must be the
/// log's scenario (the caller rebuilds it from the header).
pub fn replay(
    log: &ReplayLog,
    prepared: &PreparedEncounter,
    options: &SimOptions,
    transcript: bool,
) -> Result<(Vec<RunOutcome>, Option<Transcript>), ReplayError> {
    let side = prepared.sides().iter().position(|s| *s == log.header.side).ok_or_else(|| {
        ReplayError::Malformed {
            file: "header".into(),
            line: 1,
            problem: format!("side {:?} is not a side of the scenario", log.header.side),
        }
    })?;
    let mut outcomes = Vec::new();
    let mut lines = None;
    for run in 0..log.header.runs {
        let mut policy = ReplayPolicy::new(log, run, side);
        let mut rng = SeededRng::for_run(log.header.seed, run);
        let keep = transcript && run == 0;
        let mut text = Transcript::for_encounter(prepared);
        let outcome =
            run_prepared(prepared, options, &mut rng, keep.then_some(&mut text.events), &mut policy);
        policy.finish()?;
        let got = run_record(prepared, run, &outcome);
        if let Some(expected) = log.runs.iter().find(|r| r.run == run)
            && *expected != got
        {
            let say = |r: &RunRecord| format!("winner {:?} in {} rounds", r.winner, r.rounds);
            return Err(ReplayError::Outcome { run, expected: say(expected), got: say(&got) });
        }
        if keep {
            lines = Some(text);
        }
        outcomes.push(outcome);
    }
    Ok((outcomes, lines))
}
