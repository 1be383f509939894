//! The spell engine: casting a spell of the data set in battle.
//!
//! `book` compiles what an encounter's casters can cast (once per
//! encounter), `playable` says which spells the engine casts and why not the
//! others, `immune` what a creature cannot be affected by, `summon` the rows
//! and arrival of summoned creatures; the rules of a casting are `impl
//! Engine` blocks: `cast` (the action: slots, provocation, concentration,
//! cast times, held charges), `target` (targets and areas), `resolve`
//! (attack rolls, spell resistance, saves) and `apply` (what each effect
//! kind does), `preparation` (a prepared caster's copies of the day), `upkeep` (what lasting effects do turn by turn), `zone`
//! (lasting areas left on the map), `construct` (spell constructs that strike on their own: Spiritual Weapon), `grasp` (an area's own grapple: Black Tentacles), `hand` (touch spells delivered at a distance: Spectral Hand), `teleport` (Dimension Door), `globe` (areas that keep spells out: Globe of Invulnerability).

mod apply;
mod book;
mod cast;
mod casting;
mod construct;
mod dispel;
mod globe;
mod grasp;
mod hand;
mod immune;
mod playable;
mod preparation;
pub(crate) mod reserve;
mod resolve;
mod retaliation;
pub(crate) mod summon;
mod target;
mod teleport;
mod upkeep;
mod zone;

pub(crate) use book::zone_effect;
pub(crate) use book::{CasterSpec, Known, Outlasts, PreparedSpell, outlasts, prepare_caster, prepare_spell};
pub use book::{Metamagic, Role};
pub(crate) use casting::{Cast, Construct, Held, Meeting, Pending, Zone};
pub(crate) use immune::Immune;
pub(crate) use reserve::{SummonGroup, reserve_summons};
