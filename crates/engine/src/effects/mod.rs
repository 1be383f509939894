//! Effects: typed modifiers and their stacking, conditions, saving-throw
//! descriptors — the vocabulary shared by conditions, feats, spells and class
//! abilities, in data files and in the engine.
//!
//! This module holds the *names* (what data files may say); the rules that
//! give them meaning live beside them.

pub mod vocab;

pub use vocab::{BonusType, ConditionId, Descriptor, ModCondition, ModTarget, Modifier, SaveKind};
