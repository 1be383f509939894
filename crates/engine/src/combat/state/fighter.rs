//! The runtime state of one combatant, grouped by what changes it: its
//! turn, running, gear, casting, class abilities and mobility.

use crate::combat::CombatantOutcome;
use crate::effects::conditions::Summary;
use crate::effects::{ActiveEffect, ConditionSet, Targets};
use crate::map::Pos;

/// Runtime state of one combatant.
#[derive(Clone, Debug)]
pub(crate) struct Fighter {
    /// The side it fights on now: its own, or its dominator's
    /// (`monster::dominate`); kept by `refresh_status`.
    pub side: usize,
    pub pos: Pos,
    pub hp: i32,
    pub dead: bool,
    pub stable: bool,
    /// Conditions in force: `base_conds` and those of its effects.
    pub conds: ConditionSet,
    /// Conditions set without a duration (prone, grappled, disarmed…).
    pub base_conds: ConditionSet,
    /// What `conds` does, folded once per change.
    pub summary: Summary,
    /// Effects on it (spells, class abilities, maneuvers), timed or lasting.
    pub effects: Vec<ActiveEffect>,
    /// Targets that some modifier on it (features, conditions, effects) changes.
    pub mod_targets: Targets,
    /// Highest miss chance of attacks against it, in percent (concealment).
    pub miss_chance: u8,
    /// Makes no attack of opportunity (a condition, blindness, flat-footed without Combat Reflexes).
    pub no_aoo: bool,
    /// Temporary hit points (lost before real ones) and the effect that gave them.
    pub temp_hp: i32,
    pub temp_hp_from: Option<std::sync::Arc<str>>,
    /// Nonlethal damage taken (`combat::nonlethal`).
    pub nonlethal: i32,
    /// What its own or its foes' monster abilities changed (`combat::monster`).
    pub monster: crate::combat::prepared::monster::MonsterState,
    /// Bleed damage taken at the start of each of its turns (0: not bleeding).
    pub bleed: u32,
    /// The creature it grapples or is grappled by.
    pub grappled_with: Option<usize>,
    /// Attrition counters.
    pub out: CombatantOutcome,
    /// A row reserved for a summoned creature that is not on the battlefield
    /// (not yet summoned, or gone when its spell ended).
    pub gone: bool,
    /// A summoned creature's rounds left (counted on its caster's turns).
    pub summon_left: u32,
    /// What its effects do besides modifiers and conditions (`Behaviours` bits).
    pub fx: u32,
    /// Once-a-battle marks on it: (source, what) — hexes that cannot target it
    /// again, spells it is immune to for a while.
    pub marks: Vec<(usize, u16)>,
    /// What it declared or spent in its current turn or round (actions, stances, aid received).
    pub turn: TurnState,
    /// Running and the rest it needs after (CRB "Run", Endurance).
    pub run: RunState,
    /// Its weapons and items as the battle changed them: dropped, worn, broken, unloaded, spent.
    pub gear: GearState,
    /// Its spells left and the spell it is casting or holding.
    pub casting: CastingState,
    /// Its class abilities under way and their pools.
    pub class: ClassState,
    /// Flight and riding: altitude, feet flown, mount and rider.
    pub mobility: Mobility,
}

/// What it declared or spent in its current turn or round (actions, stances, aid received).
#[derive(Clone, Debug)]
pub(crate) struct TurnState {
    /// Attacks of opportunity left this round.
    pub aoo_left: u32,
    /// Charged on its last turn: −2 AC until its next turn starts.
    pub charged: bool,
    /// Took a move-type movement (move, charge) this turn.
    pub moved: bool,
    /// Took a 5-foot step this turn.
    pub stepped: bool,
    /// Power Attack declared for this turn (until its next turn starts).
    pub power_attack: bool,
    /// Martial declarations and the shield let go, until its next turn starts.
    pub(crate) martial: crate::combat::style::MartialState,
    /// Fighting defensively until its next turn: −4 on attack rolls, +2 dodge AC.
    pub defensive: bool,
    /// Total defense until its next turn: +4 dodge AC, no attacks of opportunity.
    pub total_defense: bool,
    /// Aid another received: bonus on its next attack roll.
    pub aid_attack: i32,
    /// Aid another received: bonus to AC against the next attack on it.
    pub aid_ac: i32,
    /// The readied attack and its trigger, if any.
    pub readied: Option<(crate::combat::action::Action, crate::combat::action::ReadyTrigger)>,
    /// Round in which it last delayed (0: never).
    pub delayed_in: u32,
    /// Swift action spent on an immediate action out of turn: its next swift action is gone.
    pub immediate_used: bool,
    /// Its swift action of the current turn is spent (a swift or immediate action).
    pub swift_used: bool,
    /// Round of its last immediate action (`u32::MAX`: none).
    pub immediate_round: u32,
    /// Has had a turn in this battle (no longer flat-footed).
    pub has_acted: bool,
    /// A penalty on all its attack rolls while it lasts (spell combat's −2).
    pub attack_penalty: i32,
    /// Deeds declared for its next firearm attack (`abilities::UP_CLOSE`, `DEADEYE`).
    pub deeds: u8,
    /// It can take no other action this turn (Dimension Door).
    pub ended: bool,
}

/// Running and the rest it needs after (CRB "Run", Endurance).
#[derive(Clone, Debug)]
pub(crate) struct RunState {
    /// Ran on its last turn: loses its Dexterity bonus to AC until its next turn.
    pub running: bool,
    /// Consecutive rounds of running, and endurance checks made in this streak.
    pub run_rounds: u32,
    pub run_checks: u32,
    /// Rounds of rest left before it may run again.
    pub run_rest: u32,
}

/// Its weapons and items as the battle changed them: dropped, worn, broken, unloaded, spent.
#[derive(Clone, Debug)]
pub(crate) struct GearState {
    /// Attacks dropped by a disarm (bit k: attack k), usable again once retrieved.
    pub dropped: u64,
    /// Damage each attack's weapon took from sunder attempts (index: attack).
    pub wear: Vec<u8>,
    /// Carried items taken by steal maneuvers.
    pub stolen_items: u32,
    /// Attacks broken (bit k: attack k), by a firearm misfire.
    pub broken: u64,
    /// Attacks unloaded (bit k: attack k), fired and not reloaded, or out of ammunition (`combat::reload`).
    pub unloaded: u64,
    /// Shots fired with each attack whose shots count (index: attack).
    pub shots: Vec<u16>,
    /// Uses left of each of its wands, potions and scrolls (index: `FighterSpec::items`).
    pub items_left: Vec<u32>,
    /// The wand it holds, drawn by a first use (`combat::consumables`).
    pub wand_in_hand: Option<u8>,
    /// Items it may not try again this battle (bit k: item k): a Use
    /// Magic Device check failed on a natural 1 (`combat::consumables`).
    pub items_barred: u64,
}

/// Its spells left and the spell it is casting or holding.
#[derive(Clone, Debug)]
pub(crate) struct CastingState {
    /// Spells left per spell level (level 0: cantrips, never spent).
    pub slots: [u8; 10],
    /// A prepared caster's copies left, one per entry of its `CasterSpec::prepared`.
    pub prepared_left: Vec<u8>,
    /// Of `slots`, the domain slots left per level (`CasterSpec::domain`).
    pub domain_left: [u8; 10],
    /// A spell being cast over one round, resolved at the start of its next turn.
    pub pending: Option<Box<crate::combat::spells::Pending>>,
    /// A touch spell whose charge it holds.
    pub held: Option<crate::combat::spells::Held>,
}

/// Its class abilities under way and their pools.
#[derive(Clone, Debug)]
pub(crate) struct ClassState {
    /// Class ability pools left.
    pub pools: crate::combat::abilities::Pools,
    /// Inspiring courage (a bardic performance it keeps up each turn).
    pub performing: bool,
    /// The foe of its cavalier's challenge while the challenge lasts.
    pub challenged: Option<usize>,
    /// Its ranger's hunter's bond while allies still hold it (one at a time).
    pub bond: Option<crate::combat::abilities::HuntersBond>,
    /// A barbarian's rage under way.
    pub rage: Option<crate::combat::abilities::Raging>,
    /// A paladin's smite has not hit yet (its first hit may deal double damage).
    pub smite_first: bool,
    /// A monk's Stunning Fist and ki declared for this turn.
    pub monk: crate::combat::abilities::MonkState,
}

/// Flight and riding: altitude, feet flown, mount and rider.
#[derive(Clone, Debug)]
pub(crate) struct Mobility {
    /// Altitude in feet above the ground (`combat::flight`; 0 on the ground).
    pub alt: u32,
    /// Feet flown this turn, up, down or across (a move action's), for the Fly check to stay aloft.
    pub flown: u32,
    /// The mount it rides (`combat::mounted`): it shares the mount's space and moves with it.
    pub riding: Option<usize>,
    /// The rider on its back.
    pub ridden_by: Option<usize>,
    /// A ridden mount's actions its rider spent this round moving it: 1 a
    /// move action, 2 both (a double move, a charge, a run or a withdraw).
    pub mount_used: u8,
    /// Round of its last Mounted Combat check (0: none yet).
    pub mounted_combat_round: u32,
    /// An unconscious rider who stayed in the saddle (rolled once).
    pub saddle_kept: bool,
    /// Its size category now: its own, or changed by an effect (Enlarge
    /// Person, `combat::size`); its space, reach and size modifiers follow it.
    pub size: crate::model::Size,
    /// It left the battle alive from an exit square (`combat::leave`): off
    /// the map, out of the fight, not dead (`gone` and `dead` are set too,
    /// so that nothing reaches it any more).
    pub left: bool,
}
