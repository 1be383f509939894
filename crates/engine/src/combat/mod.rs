//! The combat engine: one deterministic battle from an encounter and a dice source.
//!
//! Three floors, each naming only the floors below it (`tests/tests/modules.rs`
//! checks it; ARCHITECTURE.md, "The combat core"):
//!
//! - **data**: what a battle is made of, changed by no module of its own:
//!   `action` (what a policy asks), `economy` (the action budget), `event`,
//!   `event_kinds` and `log` (what happened, typed, and its one sink),
//!   `decide` (the decision traits `Policy` and `Reactions`), `odds` (the
//!   numbers of an attack roll), `style` (the martial options declared),
//!   `damage` (rolled damage and its reductions), `prepared` with
//!   `prepared::{monster, flight, reload}` (the encounter compiled once),
//!   `state` (the battle state) with its read-only queries `flat_footed` and
//!   `sneak`, `carry` (what a combatant carries between battles), `items`,
//!   `paths`, `abilities` (the class-ability specs and pools),
//!   `spells::{book, casting, immune, playable, reserve}`, and the test
//!   formatter `event_text`;
//! - **rules**: every other module, each an `impl Engine` block (`engine`)
//!   that changes the state and emits events: the turn loop (`turn`,
//!   `initiative`, `reactions`), `movement`, `attack`, `martial`,
//!   `maneuver`, `life`, `aoo`, `spells::{cast, target, resolve, apply, …}`,
//!   `abilities::*`, `monster::*`…;
//! - **decisions**: `policy` and below, which read the state and the odds
//!   and never the engine.

use serde::{Deserialize, Serialize};

use crate::encounter::Encounter;
use crate::rng::Dice;

pub(crate) mod abilities;
mod action;
mod aoo;
mod attack;
mod bonds;
mod carry;
mod concealment;
mod consumables;
mod coup_de_grace;
mod damage;
mod decide;
mod defense;
mod economy;
mod engine;
pub mod event;
mod event_kinds;
#[cfg(test)]
pub(crate) mod event_text;
mod flat_footed;
mod flight;
mod fullmove;
mod initiative;
mod items;
mod leave;
mod life;
mod log;
mod maneuver;
mod martial;
mod monster;
mod mounted;
mod movement;
mod nonlethal;
mod odds;
mod ongoing;
mod paths;
mod policy;
mod power_attack;
mod prepared;
mod reactions;
mod reload;
mod riders;
mod size;
mod sneak;
mod spells;
mod splash;
mod state;
mod status;
mod style;
mod turn;
mod weapons;

#[cfg(test)]
mod tests;

pub use abilities::Pools;
pub use action::{Action, ActionKind, ActionResult, AidMode, ClassAbilityUse, ReadyTrigger, Reason, Slot};
pub use carry::{
    Carried, CarriedEffect, FIRST_AID_DC, LONG_REST_ROUNDS, Party, ROUNDS_PER_MINUTE, RestSpending,
    SHORT_REST_ROUNDS, Tending, heal_bonus,
};
pub use decide::{Policy, ReactionEvent, Reactions};
pub use economy::{Planned, TurnLimits, apply_budget};
pub use policy::{DefaultPolicy, MatchupPolicy, NoReactions, Roster, SidePolicies, StrategyPolicy};
pub use prepared::{PrepareError, PreparedEncounter, SummonRow, summon_roster};
pub use spells::{Metamagic, Role};
pub use state::{BattleState, LifeState};
pub use style::Style;

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
    /// It left the battle alive from an exit square (`combat::leave`):
    /// not dead, not down; `final_hp` is what it kept as it left.
    #[serde(default, skip_serializing_if = "is_false")]
    pub fled: bool,
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
    /// Timed conditions it put on a foe (an effect with a condition whose
    /// source it is: a spell's, an ability's or a monster rule's).
    #[serde(default)]
    pub conditions_inflicted: u32,
    /// Spell slots spent (levels 1 to 9; cantrips are never spent).
    #[serde(default)]
    pub slots_spent: u32,
    /// Uses of class-ability pools spent (channel energy, hexes, grit,
    /// arcane pool, rounds of performance, smites).
    #[serde(default)]
    pub uses_spent: u32,
    /// Potions drunk or given and wand charges used in battle.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub items_spent: u32,
}

/// Whether a flag is off (to omit it from JSON written before it existed).
#[allow(clippy::trivially_copy_pass_by_ref, reason = "serde's skip_serializing_if passes a reference")]
fn is_false(b: &bool) -> bool {
    !*b
}

/// Whether a count is 0 (to omit it from JSON written before it existed).
#[allow(clippy::trivially_copy_pass_by_ref, reason = "serde's skip_serializing_if passes a reference")]
fn is_zero(n: &u32) -> bool {
    *n == 0
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
    /// One entry per row reserved for summoned creatures
    /// (`PreparedEncounter::summon_rows`), whether or not one was summoned;
    /// `dead` means killed (not dismissed when its spell ended).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub summons: Vec<CombatantOutcome>,
}

/// Plays one battle with the default policy for everyone. When `events` is
/// given, the engine appends what happened ([`event::Event`]s).
///
/// Prepares the encounter on every call: to play many battles of the same
/// encounter, prepare it once and call [`run_prepared`].
///
/// # Panics
///
/// If the encounter cannot be prepared ([`PreparedEncounter::new`]), which
/// combatant validation rules out.
pub fn run_combat<R: Dice>(
    encounter: &Encounter,
    options: &SimOptions,
    rng: &mut R,
    events: Option<&mut Vec<event::Record>>,
) -> RunOutcome {
    let prepared = PreparedEncounter::new(encounter)
        .unwrap_or_else(|e| panic!("encounter passed validation but cannot be prepared: {e}"));
    run_prepared(&prepared, options, rng, events, &mut DefaultPolicy)
}

/// Plays one battle of a prepared encounter, every turn decided by `policy`.
pub fn run_prepared<R: Dice>(
    prepared: &PreparedEncounter,
    options: &SimOptions,
    rng: &mut R,
    events: Option<&mut Vec<event::Record>>,
    policy: &mut dyn Policy,
) -> RunOutcome {
    engine::Engine::new(prepared, options, rng, events).run(policy)
}

/// [`run_prepared`] with a reaction policy: combatants may take immediate
/// actions out of turn when it answers an event.
pub fn run_prepared_with_reactions<R: Dice>(
    prepared: &PreparedEncounter,
    options: &SimOptions,
    rng: &mut R,
    events: Option<&mut Vec<event::Record>>,
    policy: &mut dyn Policy,
    reactions: &mut dyn Reactions,
) -> RunOutcome {
    let mut engine = engine::Engine::new(prepared, options, rng, events);
    engine.reactions = Some(reactions);
    engine.run(policy)
}

/// One battle of an adventuring day: combatant `i` enters it as `start[i]`
/// says (fresh when `None` or beyond `start`); returns the outcome and what
/// every deployed combatant carries out of it. With no carried state it plays
/// exactly as [`run_prepared`].
pub fn run_carried<R: Dice>(
    prepared: &PreparedEncounter,
    options: &SimOptions,
    rng: &mut R,
    events: Option<&mut Vec<event::Record>>,
    policy: &mut dyn Policy,
    start: &[Option<Carried>],
) -> (RunOutcome, Vec<Carried>) {
    let mut engine = engine::Engine::carried_in(prepared, options, rng, events, start);
    let outcome = engine.run(policy);
    engine.poisons_run_their_course();
    let carried = (0..prepared.deployed).map(|i| engine.st.carry_out(i)).collect();
    (outcome, carried)
}
