//! What a policy outside the engine may see of a battle, and what it may ask
//! for: a serializable, versioned observation of one combatant's turn, the
//! candidate actions derived from the engine's own checks, and actions in
//! a serializable form (combatants by id).
//!
//! This is the boundary of the per-turn LLM showcase: the policy that asks a
//! model lives outside the engine and sees only an [`Observation`] (a copy,
//! never read back) and the [`candidate_actions`]; the engine stays the
//! arbiter of every action it is asked to play. Nothing here changes a
//! battle: building an observation reads the state and draws no dice.
//!
//! - [`view`]: the [`Observation`] and its compact text form ([`Observation::render`]);
//! - [`raw`]: the full snapshot the compact view is measured against;
//! - [`candidates`]: plausible actions, one source per family of action kinds;
//! - [`magic`]: the candidate spells and class abilities;
//! - [`action`]: [`ActionSpec`], an action by ids, to and from the engine's [`crate::combat::Action`].

pub mod action;
pub mod candidates;
pub mod magic;
pub mod raw;
pub mod view;

pub use action::{ActionSpec, ActionSpecError};
pub use candidates::{CandidateSource, MAX_CANDIDATES, SOURCES, candidate_actions};
pub use raw::raw_snapshot;
pub use view::{
    AttackView, CombatantView, EffectView, MagicView, MapView, OBSERVATION_SCHEMA_VERSION, Observation,
    PairView, PoolView, SpellLevelView, SummonView, TerrainRun, observe,
};

#[cfg(test)]
mod tests;
