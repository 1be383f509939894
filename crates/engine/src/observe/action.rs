//! An action in serializable form: combatants by id, squares as
//! `[row, col]`, names for kinds, maneuvers, modes, triggers, spells,
//! metamagic feats, hexes, deeds and options. It is what
//! a model answers and what a replay log records; [`ActionSpec::to_action`]
//! turns it into the engine's [`Action`] (checking only that the names and
//! ids exist: whether the action is legal is the engine's call when it
//! plays it).

use serde::{Deserialize, Serialize};

use crate::combat::{Action, ActionKind, AidMode, BattleState, ClassAbilityUse, Metamagic, ReadyTrigger};
use crate::effects::{ConditionId, Maneuver};
use crate::feats::{Deed, Hex};
use crate::map::Pos;
use crate::spell::effect::EffectKind;

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
    /// The spell, by identifier (`magic_missile`) or name, for
    /// `cast_spell` and `spell_combat`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spell: Option<String>,
    /// Metamagic feats applied to the spell (`empower`, `maximize`,
    /// `extend`, `heighten`, `quicken`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub metamagic: Vec<String>,
    /// Cast defensively (no attack of opportunity; a concentration check).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub defensive: bool,
    /// The hex (`evil_eye`…) of a `hex`, or the deed (`deadeye`…) of a `deed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ability: Option<String>,
    /// The mode of the action, by name: `heal` or `harm` for
    /// `channel_energy`; `attack`, `ac` or `saves` for the evil eye hex; the
    /// chosen option of a spell that offers a choice (Command's `halt`…).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub option: Option<String>,
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
    /// No spell of the encounter has this identifier or name.
    #[error("spell: no spell {0:?} in this encounter (cast a spell the observation lists)")]
    UnknownSpell(String),
    /// No such metamagic feat.
    #[error(
        "metamagic: unknown metamagic feat {0:?} (expected empower, maximize, extend, heighten or quicken)"
    )]
    UnknownMetamagic(String),
    /// No such hex or deed for this kind of action.
    #[error("ability: unknown {what} {name:?}")]
    UnknownAbility {
        /// `hex`, `deed`, or `hex or deed`.
        what: &'static str,
        /// The name given.
        name: String,
    },
    /// Not an option of this action.
    #[error("option: {option:?} is not an option of this action (expected {expected})")]
    UnknownOption {
        /// The option given.
        option: String,
        /// The options it offers.
        expected: String,
    },
}

/// The modes of channel energy, by `Action::option`.
pub const CHANNEL_OPTIONS: [&str; 2] = ["heal", "harm"];

/// The penalties of the evil eye hex, by `Action::option`.
pub const EVIL_EYE_OPTIONS: [&str; 3] = ["attack", "ac", "saves"];

/// The names of `action`'s options in `battle`, in `Action::option` order,
/// when it offers a choice.
fn option_names<'b>(battle: &'b BattleState<'_>, action: &Action) -> Option<Vec<&'b str>> {
    match (action.kind, action.ability) {
        (ActionKind::ChannelEnergy, _) => Some(CHANNEL_OPTIONS.to_vec()),
        (ActionKind::Declare, _) => Some(crate::combat::Style::ALL.iter().map(|s| s.name()).collect()),
        (ActionKind::Hex, Some(ClassAbilityUse::Hex(Hex::EvilEye))) => Some(EVIL_EYE_OPTIONS.to_vec()),
        (ActionKind::CastSpell | ActionKind::SpellCombat, _) => {
            let spell = &battle.prep.spells.get(usize::from(action.spell?))?.spell;
            spell.effects.iter().find_map(|e| match &e.kind {
                EffectKind::Choice(c) => Some(c.options.iter().map(|o| o.name.as_str()).collect()),
                _ => None,
            })
        }
        _ => None,
    }
}

fn ability_name(ability: ClassAbilityUse) -> &'static str {
    match ability {
        ClassAbilityUse::Hex(h) => h.name(),
        ClassAbilityUse::Deed(d) => d.name(),
    }
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
            spell: action.spell.and_then(|k| battle.prep.spells.get(usize::from(k))).map(|p| p.id.clone()),
            metamagic: action.metamagic.short_names().into_iter().map(str::to_string).collect(),
            defensive: action.defensive,
            ability: action.ability.map(|a| ability_name(a).to_string()),
            option: match option_names(battle, action) {
                Some(names) => Some(
                    names
                        .get(usize::from(action.option))
                        .map_or_else(|| action.option.to_string(), |n| (*n).to_string()),
                ),
                None => (action.option != 0).then(|| action.option.to_string()),
            },
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
        if let Some(name) = &self.spell {
            action.spell = Some(
                battle.prep.spell_index(name).ok_or_else(|| ActionSpecError::UnknownSpell(name.clone()))?,
            );
        }
        for name in &self.metamagic {
            let feat =
                Metamagic::from_name(name).ok_or_else(|| ActionSpecError::UnknownMetamagic(name.clone()))?;
            action.metamagic = action.metamagic.with(feat);
        }
        action.defensive = self.defensive;
        if let Some(name) = &self.ability {
            let hex = || Hex::from_name(name).map(ClassAbilityUse::Hex);
            let deed = || Deed::from_name(name).map(ClassAbilityUse::Deed);
            let (found, what) = match kind {
                ActionKind::Hex => (hex(), "hex"),
                ActionKind::Deed => (deed(), "deed"),
                _ => (hex().or_else(deed), "hex or deed"),
            };
            action.ability =
                Some(found.ok_or_else(|| ActionSpecError::UnknownAbility { what, name: name.clone() })?);
        }
        if let Some(given) = &self.option {
            let names = option_names(battle, &action).unwrap_or_default();
            let index = names.iter().position(|n| n == given).or_else(|| {
                given.parse::<u8>().ok().map(usize::from).filter(|&k| names.is_empty() || k < names.len())
            });
            action.option = match index.and_then(|k| u8::try_from(k).ok()) {
                Some(k) => k,
                None => {
                    return Err(ActionSpecError::UnknownOption {
                        option: given.clone(),
                        expected: if names.is_empty() { "none".to_string() } else { names.join(", ") },
                    });
                }
            };
        }
        Ok(action)
    }
}
