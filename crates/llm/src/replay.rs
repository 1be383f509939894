//! The replay log of a showcase: every model call of the LLM-played side,
//! keyed by `call_seq`, as JSON lines, and the policy that plays a log back
//! without a model.
//!
//! ```text
//! {"kind":"header","log_version":1,"observation_schema_version":1,"seed":…,"runs":…,"side":"players",…}
//! {"kind":"call","call_seq":1,"run":0,"round":1,"actor":"goblin","observation":"schema_version=1\n…","actions":[…],"source":"model",…}
//! {"kind":"run","run":0,"winner":"players","rounds":4}
//! ```
//!
//! Each line is one JSON object with sorted keys. A call records what the
//! acting combatant saw (the compact observation's text), the plausible
//! actions, the model's answer, and the actions that were played (the
//! model's, or the fallback policy's). Replaying feeds the recorded actions
//! back in order; before each one the observation is computed again and
//! must equal the recorded one, so a log that does not belong to these
//! battles (another scenario, seed, engine version or edited log) is
//! refused at the first difference. The log holds no API key.

use pf1e_engine::combat::{Action, BattleState, DefaultPolicy, Policy};
use pf1e_engine::observe::{ActionSpec, OBSERVATION_SCHEMA_VERSION, observe};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Version of the log format: bump it when a line changes meaning.
pub const REPLAY_LOG_VERSION: u32 = 1;

/// The first line: what the battles were.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplayHeader {
    /// [`REPLAY_LOG_VERSION`].
    pub log_version: u32,
    /// The observation schema the calls saw.
    pub observation_schema_version: u32,
    /// The engine's rules version.
    pub rules_version: String,
    /// Seed of the battles (run `i` plays the stream `(seed, i)`).
    pub seed: u64,
    /// Battles played.
    pub runs: u64,
    /// The side the model played.
    pub side: String,
    /// The model's name.
    pub model: String,
    /// The `turn` prompt's version.
    pub prompt_version: String,
    /// Repairs allowed per turn.
    pub max_repairs: u32,
    /// The scenario, as the caller describes it (files by content).
    pub scenario: Value,
}

/// Who chose the actions of a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionSource {
    /// The model's valid answer.
    Model,
    /// The default policy, after the model failed.
    Fallback,
}

/// One model call (one turn of the LLM-played side).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CallRecord {
    /// 1, 2, 3… over the whole log.
    pub call_seq: u64,
    /// The battle (run index).
    pub run: u64,
    /// The round.
    pub round: u32,
    /// The acting combatant.
    pub actor: String,
    /// The compact observation, as sent.
    pub observation: String,
    /// The plausible actions, as sent.
    pub candidates: Vec<ActionSpec>,
    /// The model's last answer, when there was one.
    pub answer: Option<String>,
    /// Answers read (1 without repair, 0 when the model could not be asked).
    pub attempts: u32,
    /// Whether every answer came from the cache.
    pub cached: bool,
    /// Who chose the actions.
    pub source: ActionSource,
    /// Why the fallback played, if it did.
    pub fallback_reason: Option<String>,
    /// The actions played, in order.
    pub actions: Vec<ActionSpec>,
}

/// The outcome of one battle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunRecord {
    /// The run index.
    pub run: u64,
    /// The winning side, `None` for a draw.
    pub winner: Option<String>,
    /// Rounds played.
    pub rounds: u32,
}

/// One line of the log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Line {
    Header(ReplayHeader),
    Call(CallRecord),
    Run(RunRecord),
}

/// A whole log.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplayLog {
    /// The first line.
    pub header: ReplayHeader,
    /// Every call, by `call_seq`.
    pub calls: Vec<CallRecord>,
    /// Every battle's outcome, by run.
    pub runs: Vec<RunRecord>,
}

/// Why a log cannot be read or replayed.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// A line is not a log line.
    #[error("{file}: line {line}: {problem}")]
    Malformed {
        /// The log file.
        file: String,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        problem: String,
    },
    /// The observation computed now differs from the recorded one.
    #[error(
        "replay diverges at call_seq {call_seq} (run {run}, round {round}, {actor}): the battle's observation differs from the log's ({detail}); the log does not belong to this scenario, seed and engine version"
    )]
    Diverged {
        /// The call.
        call_seq: u64,
        /// Its run.
        run: u64,
        /// Its round.
        round: u32,
        /// Its actor.
        actor: String,
        /// The first differing line.
        detail: String,
    },
    /// The battles ask for more calls than the log has.
    #[error(
        "replay diverges: run {run} asks for a turn of {actor} in round {round} after the log's last call"
    )]
    Exhausted {
        /// The run.
        run: u64,
        /// The round.
        round: u32,
        /// The actor.
        actor: String,
    },
    /// Calls of a run were not used.
    #[error("replay diverges: run {run} ended with {left} recorded call(s) unused")]
    Unused {
        /// The run.
        run: u64,
        /// Calls left.
        left: usize,
    },
    /// A recorded action does not name anything in the battle.
    #[error("replay: call_seq {call_seq}: actions[{index}].{problem}")]
    BadAction {
        /// The call.
        call_seq: u64,
        /// The action.
        index: usize,
        /// What is wrong.
        problem: String,
    },
    /// A battle ended otherwise than recorded.
    #[error("replay diverges: run {run} ended {got}, the log says {expected}")]
    Outcome {
        /// The run.
        run: u64,
        /// What the log says.
        expected: String,
        /// What the replay gave.
        got: String,
    },
}

impl ReplayLog {
    /// The log as JSON lines (sorted keys, one object per line).
    pub fn to_jsonl(&self) -> String {
        let mut out = String::new();
        let mut push = |line: Line| {
            out.push_str(&crate::turn::sorted_json(&line));
            out.push('\n');
        };
        push(Line::Header(self.header.clone()));
        for c in &self.calls {
            push(Line::Call(c.clone()));
        }
        for r in &self.runs {
            push(Line::Run(r.clone()));
        }
        out
    }

    /// Reads a log; `file` names it in errors. Strict: a header first, the
    /// versions this build writes, `call_seq` 1, 2, 3… in order.
    pub fn parse(text: &str, file: &str) -> Result<Self, ReplayError> {
        let bad =
            |line: usize, problem: String| ReplayError::Malformed { file: file.to_string(), line, problem };
        let mut header = None;
        let mut calls: Vec<CallRecord> = Vec::new();
        let mut runs = Vec::new();
        for (k, text) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let n = k + 1;
            let de = &mut serde_json::Deserializer::from_str(text);
            let line: Line = serde_path_to_error::deserialize(de).map_err(|e| {
                let path = e.path().to_string();
                let at = if path == "." { String::new() } else { format!("{path}: ") };
                bad(n, format!("{at}{}", e.inner()))
            })?;
            match (line, &header) {
                (Line::Header(h), None) if n == 1 => {
                    if h.log_version != REPLAY_LOG_VERSION {
                        return Err(bad(
                            n,
                            format!("log_version {} (this pf1e reads {REPLAY_LOG_VERSION})", h.log_version),
                        ));
                    }
                    if h.observation_schema_version != OBSERVATION_SCHEMA_VERSION {
                        return Err(bad(
                            n,
                            format!(
                                "observation_schema_version {} (this pf1e observes with {OBSERVATION_SCHEMA_VERSION})",
                                h.observation_schema_version
                            ),
                        ));
                    }
                    header = Some(h);
                }
                (Line::Header(_), _) => return Err(bad(n, "the header must be the first line, once".into())),
                (_, None) => return Err(bad(n, "the first line must be the header".into())),
                (Line::Call(c), Some(_)) => {
                    let expected = calls.len() as u64 + 1;
                    if c.call_seq != expected {
                        return Err(bad(n, format!("call_seq {} where {expected} was expected", c.call_seq)));
                    }
                    if !runs.is_empty() {
                        return Err(bad(n, "a call after the run outcomes".into()));
                    }
                    calls.push(c);
                }
                (Line::Run(r), Some(_)) => runs.push(r),
            }
        }
        let header = header.ok_or_else(|| bad(1, "empty log: no header".into()))?;
        Ok(Self { header, calls, runs })
    }
}

/// Plays the recorded calls of one run back; the other sides play the
/// default policy, as they did when the log was written.
pub struct ReplayPolicy<'a> {
    calls: &'a [CallRecord],
    next: usize,
    run: u64,
    side: usize,
    error: Option<ReplayError>,
}

impl<'a> ReplayPolicy<'a> {
    /// Replays run `run` of `log`, whose model played side index `side`.
    pub fn new(log: &'a ReplayLog, run: u64, side: usize) -> Self {
        let start = log.calls.partition_point(|c| c.run < run);
        let end = log.calls.partition_point(|c| c.run <= run);
        Self { calls: &log.calls[start..end], next: 0, run, side, error: None }
    }

    /// The first divergence, or an error if recorded calls were left unused.
    pub fn finish(self) -> Result<(), ReplayError> {
        if let Some(e) = self.error {
            return Err(e);
        }
        match self.calls.len() - self.next {
            0 => Ok(()),
            left => Err(ReplayError::Unused { run: self.run, left }),
        }
    }

    fn replay(
        &mut self,
        battle: &BattleState<'_>,
        actor: usize,
        out: &mut Vec<Action>,
    ) -> Result<(), ReplayError> {
        let Some(call) = self.calls.get(self.next) else {
            return Err(ReplayError::Exhausted {
                run: self.run,
                round: battle.round(),
                actor: battle.id(actor).to_string(),
            });
        };
        self.next += 1;
        let observation = observe(battle, actor).render();
        if observation != call.observation || call.actor != battle.id(actor) || call.round != battle.round() {
            let detail = observation
                .lines()
                .zip(call.observation.lines())
                .find(|(a, b)| a != b)
                .map(|(now, logged)| format!("now {now:?}, logged {logged:?}"))
                .unwrap_or_else(|| format!("now {} in round {}", battle.id(actor), battle.round()));
            return Err(ReplayError::Diverged {
                call_seq: call.call_seq,
                run: call.run,
                round: call.round,
                actor: call.actor.clone(),
                detail,
            });
        }
        for (index, spec) in call.actions.iter().enumerate() {
            let action = spec.to_action(battle).map_err(|e| ReplayError::BadAction {
                call_seq: call.call_seq,
                index,
                problem: e.to_string(),
            })?;
            out.push(action);
        }
        Ok(())
    }
}

impl Policy for ReplayPolicy<'_> {
    fn plan(&mut self, battle: &BattleState<'_>, actor: usize, out: &mut Vec<Action>) {
        if battle.side(actor) != self.side || self.error.is_some() {
            return DefaultPolicy.plan(battle, actor, out);
        }
        if let Err(e) = self.replay(battle, actor, out) {
            out.clear();
            self.error = Some(e);
        }
    }
}
