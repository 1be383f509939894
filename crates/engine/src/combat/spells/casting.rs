//! What a casting is and what it leaves behind: the casting itself
//! (`Cast`), a spell being cast over a round (`Pending`), a held touch
//! charge (`Held`), how one creature meets a casting (`Meeting`) and a
//! lasting area (`Zone`). The rules that make and use them are `cast`,
//! `resolve`, `apply` and `zone`. Data floor: no rule module.

use crate::map::Pos;

use super::book::Metamagic;

/// One casting: who, what, at whom or where, and at which level.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cast {
    /// The caster.
    pub caster: usize,
    /// The spell (index into the encounter's spells).
    pub spell: u16,
    /// The slot spent (the spell's level for the caster, raised by metamagic).
    pub slot: u8,
    /// Metamagic applied.
    pub metamagic: Metamagic,
    /// The creature aimed at.
    pub target: Option<usize>,
    /// The square aimed at (an area's point of origin, a cone's direction).
    pub point: Option<Pos>,
    /// The option of a choice effect.
    pub option: u8,
    /// Save DC.
    pub dc: i32,
    /// Caster level.
    pub cl: u32,
    /// Delivered by this melee weapon attack (spellstrike) instead of a touch attack.
    pub weapon: Option<usize>,
    /// An alchemist's extract (APG "Alchemy"): drunk, not cast; it affects
    /// only its drinker, the caster.
    pub extract: bool,
}

/// A spell being cast over one round.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pending {
    /// The casting.
    pub cast: Cast,
    /// The caster's hit points (temporary ones included) when it began.
    pub hp_at_cast: i32,
}

/// The charge of a touch spell, held after a miss or when cast without touching.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Held {
    /// The casting.
    pub cast: Cast,
    /// Touches left (Chill Touch: one per level).
    pub charges: u32,
}

/// How one creature meets a casting.
#[derive(Clone, Debug, Default)]
pub(crate) struct Meeting {
    /// The spell's attack roll was a confirmed critical hit (damage ×2).
    pub crit: bool,
    /// A willing ally of the caster under a harmless spell: no save, no spell resistance.
    pub willing: bool,
    /// A secondary target (Chain Lightning).
    pub secondary: bool,
    /// The globes around the creature were weighed already (a zone's
    /// effects, against the globes raised before the zone: `globe.rs`).
    pub past_globes: bool,
    /// Bonus on its Reflex save: half the cover it has from the area's origin.
    pub reflex_cover: i32,
    /// Saving throws rolled so far, per kind (`Some(success)`).
    pub saves: [Option<bool>; 3],
    /// Damage it took from this casting (for Vampiric Touch).
    pub damage: u32,
    /// No room to grow: the spell's size bonuses and penalties do not apply either.
    pub cramped: bool,
    /// The CMD of the spell's maneuver whose success applies the effects
    /// being met (10 + its CMB: the DC to escape Black Tentacles).
    pub maneuver_cmd: Option<i32>,
}

/// A construct of a spell fighting on the battlefield (`construct.rs`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Construct {
    /// The casting that made it (caster, spell, caster level).
    pub cast: Cast,
    /// The creature it strikes.
    pub target: usize,
    /// The round at the start of whose caster's turn it ends (`None`: the battle).
    pub ends: Option<u32>,
    /// The round it last struck in (it strikes once a round).
    pub struck: u32,
    /// Rounds it has struck its current target (0: a new target, one attack).
    pub rounds_on_target: u32,
    /// Creatures whose spell resistance it has overcome (bit per combatant).
    pub overcame: u64,
}

/// A lasting area on the map.
#[derive(Clone, Debug)]
pub(crate) struct Zone {
    /// The casting that made it (caster, spell, DC, caster level).
    pub cast: Cast,
    /// Index of the `zone` effect in the spell's effects.
    pub effect: usize,
    /// Whether each square (row-major, as the map) is in the area.
    pub mask: Vec<bool>,
    /// The battle round at the start of whose caster's turn it ends (`None`: it lasts the battle).
    pub ends: Option<u32>,
    /// The battle round it was cast in (its `each_round` effects at the end
    /// of the caster's turn start the round after: Entangle's "again at the
    /// end of your turn" is the next turn's).
    pub opened: u32,
    /// The point of origin it was cast on.
    pub origin: crate::map::Pos,
    /// A moving area (Cloudkill): the direction it rolls in (from the
    /// caster's square at the cast to the point of origin, in squares),
    /// the feet it moves a round, and the rounds it has moved.
    pub drift: Option<Drift>,
    /// An emanation centred on a creature, which moves as it moves
    /// (Silence): the creature and the radius; `mask` is then unused.
    pub anchor: Option<(usize, u32)>,
}

/// How a moving area moves (`ZoneMove`, Cloudkill).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Drift {
    /// Rows and columns from the caster's square at the cast to the origin.
    pub dir: (i32, i32),
    /// Feet a round.
    pub ft: u32,
    /// Rounds moved so far.
    pub moved: u32,
    /// It met the map's edge or a wall: it stays where it is.
    pub stuck: bool,
}
