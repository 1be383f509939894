//! Effects: typed modifiers and their stacking, conditions, timed effects,
//! saving throws — the vocabulary shared by conditions, feats, spells and
//! class abilities, in data files and in the engine, and the rules that give
//! it meaning.
//!
//! `vocab` holds the *names* (what data files may say); `stacking` the one
//! resolver of bonus types; `modifier` modifiers as the engine plays them;
//! `conditions` the condition table; `effect` timed effects; `saves` the
//! saving-throw rule. The engine applies them in `combat`.

pub mod conditions;
pub mod effect;
pub mod modifier;
pub mod saves;
pub mod stacking;
pub mod vocab;

pub use conditions::{ConditionDef, ConditionSet, Flags, definition};
pub use effect::{
    ActiveEffect, Behaviour, Behaviours, Bonds, Compulsion, Duration, Effect, EscapeAction, Recurring, Retry,
    energy_bits,
};
pub use modifier::{Alignment, Context, Descriptors, Mod, Targets, When};
pub use saves::SaveRoll;
pub use stacking::Tally;
pub use vocab::{BonusType, ConditionId, Descriptor, Maneuver, ModCondition, ModTarget, Modifier, SaveKind};
