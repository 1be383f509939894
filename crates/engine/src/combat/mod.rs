//! The combat engine: one deterministic battle from an encounter and a dice source.
//!
//! The turn loop orchestrates; the rule modules decide.

use serde::{Deserialize, Serialize};

use crate::encounter::Encounter;
use crate::rng::Dice;

/// Options that change how a battle is played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SimOptions {
    /// Rounds after which the battle is a draw.
    pub round_cap: u32,
    /// Monsters (never PCs) die at 0 hit points instead of −Con.
    pub simple_monster_death: bool,
}

impl Default for SimOptions {
    fn default() -> Self {
        Self { round_cap: 100, simple_monster_death: false }
    }
}

/// What became of one combatant in one battle, and what it did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CombatantOutcome {
    /// Hit points at the end.
    pub final_hp: i32,
    /// Dead (or destroyed).
    pub dead: bool,
    /// Dying (below 0 hit points, alive, not stabilized) at the end.
    pub dying: bool,
    /// Attacks that hit.
    pub hits: u32,
    /// Critical hits confirmed.
    pub crits: u32,
    /// Damage dealt to others (after reductions).
    pub damage_dealt: u32,
    /// Damage taken (after reductions).
    pub damage_taken: u32,
    /// Hit points restored to others, capped at their maximum.
    pub healing_given: u32,
}

/// The result of one battle.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunOutcome {
    /// Index of the winning side, `None` for a draw.
    pub winner: Option<u32>,
    /// Rounds played.
    pub rounds: u32,
    /// One entry per combatant, in `Encounter::combatants` order.
    pub combatants: Vec<CombatantOutcome>,
}

/// Plays one battle. When `transcript` is given, the engine appends its
/// readable lines (`round N id: message`, and raw lines such as initiative).
pub fn run_combat<R: Dice>(
    _encounter: &Encounter,
    _options: &SimOptions,
    _rng: &mut R,
    _transcript: Option<&mut Vec<String>>,
) -> RunOutcome {
    todo!("combat engine")
}
