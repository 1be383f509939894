//! An action in serializable form: combatants by id, squares as
//! `[row, col]`, names for kinds, maneuvers, modes and triggers. It is what
//! a model answers and what a replay log records; [`ActionSpec::to_action`]
//! turns it into the engine's [`Action`] (checking only that the names and
//! ids exist: whether the action is legal is the engine's call when it
//! plays it).

use serde::{Deserialize, Serialize};

use crate::combat::{Action, ActionKind, AidMode, BattleState, ReadyTrigger};
use crate::effects::{ConditionId, Maneuver};
use crate::map::Pos;

/// Every ready trigger, for names and schemas.
pub const READY_TRIGGERS: [ReadyTrigger; 4] = [
    ReadyTrigger::EnemyEntersReach,
    ReadyTrigger::EnemyCasts,
    ReadyTrigger::EnemyAttacks,
    ReadyTrigger::EnemyHitsAlly,
];

/// An action by ids and names.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionSpec {
    /// The kind (`attack`, `full_attack`, `5foot_step`…).
    pub kind: String,
    /// The combatant aimed at, by id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// A square to move to, `[row, col]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destination: Option<[i32; 2]>,
    /// The attack to use, by index in the actor's attacks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weapon: Option<usize>,
    /// The maneuver (`trip`, `disarm`…), for `maneuver`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub maneuver: Option<String>,
    /// `attack` or `ac`, for `aid_another`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aid_mode: Option<String>,
    /// The trigger, for `ready`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trigger: Option<String>,
    /// A step `[row, col]` of −1, 0 or 1, for a bull rush or reposition.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub direction: Option<[i8; 2]>,
    /// The condition of a dirty trick.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trick: Option<String>,
}

/// Why an [`ActionSpec`] does not name a playable action.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ActionSpecError {
    /// No such kind.
    #[error("kind: unknown action kind {0:?}")]
    UnknownKind(String),
    /// No combatant has this id.
    #[error("target: no combatant {0:?}")]
    UnknownTarget(String),
    /// No such maneuver.
    #[error("maneuver: unknown maneuver {0:?}")]
    UnknownManeuver(String),
    /// Not `attack` or `ac`.
    #[error("aid_mode: expected attack or ac, got {0:?}")]
    UnknownAidMode(String),
    /// No such trigger.
    #[error("trigger: unknown trigger {0:?}")]
    UnknownTrigger(String),
    /// No such condition.
    #[error("trick: unknown condition {0:?}")]
    UnknownCondition(String),
    /// A direction component outside −1..=1.
    #[error("direction: each component is -1, 0 or 1")]
    BadDirection,
}

fn trigger_name(t: ReadyTrigger) -> &'static str {
    t.name()
}

impl ActionSpec {
    /// An action of `kind` with nothing else.
    pub fn new(kind: ActionKind) -> Self {
        Self { kind: kind.name().to_string(), ..Self::default() }
    }

    /// The serializable form of `action` in `battle`.
    pub fn from_action(battle: &BattleState<'_>, action: &Action) -> Self {
        Self {
            kind: action.kind.name().to_string(),
            target: action.target.filter(|&t| t < battle.len()).map(|t| battle.id(t).to_string()),
            destination: action.destination.map(|p| [p.row, p.col]),
            weapon: action.weapon,
            maneuver: action.maneuver.map(|m| m.name().to_string()),
            aid_mode: (action.kind == ActionKind::AidAnother).then(|| {
                match action.aid {
                    AidMode::Attack => "attack",
                    AidMode::Ac => "ac",
                }
                .to_string()
            }),
            trigger: action.trigger.map(|t| trigger_name(t).to_string()),
            direction: action.direction.map(|(r, c)| [r, c]),
            trick: action.trick.map(|c| c.name().to_string()),
        }
    }

    /// The engine action it names in `battle`.
    pub fn to_action(&self, battle: &BattleState<'_>) -> Result<Action, ActionSpecError> {
        let kind = ActionKind::from_name(&self.kind)
            .ok_or_else(|| ActionSpecError::UnknownKind(self.kind.clone()))?;
        let mut action = Action::new(kind);
        if let Some(id) = &self.target {
            let t = (0..battle.len())
                .find(|&j| battle.id(j) == id)
                .ok_or_else(|| ActionSpecError::UnknownTarget(id.clone()))?;
            action.target = Some(t);
        }
        action.destination = self.destination.map(|[r, c]| Pos::new(r, c));
        action.weapon = self.weapon;
        if let Some(m) = &self.maneuver {
            action.maneuver =
                Some(Maneuver::from_name(m).ok_or_else(|| ActionSpecError::UnknownManeuver(m.clone()))?);
        }
        if let Some(mode) = &self.aid_mode {
            action.aid = match mode.as_str() {
                "attack" => AidMode::Attack,
                "ac" => AidMode::Ac,
                other => return Err(ActionSpecError::UnknownAidMode(other.to_string())),
            };
        }
        if let Some(t) = &self.trigger {
            action.trigger = Some(
                READY_TRIGGERS
                    .into_iter()
                    .find(|x| trigger_name(*x) == t)
                    .ok_or_else(|| ActionSpecError::UnknownTrigger(t.clone()))?,
            );
        }
        if let Some([r, c]) = self.direction {
            if !(-1..=1).contains(&r) || !(-1..=1).contains(&c) {
                return Err(ActionSpecError::BadDirection);
            }
            action.direction = Some((r, c));
        }
        if let Some(name) = &self.trick {
            action.trick = Some(
                ConditionId::from_name(name)
                    .ok_or_else(|| ActionSpecError::UnknownCondition(name.clone()))?,
            );
        }
        Ok(action)
    }
}
