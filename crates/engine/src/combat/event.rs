//! What happened in a battle, as typed events: the engine's only record of a
//! battle besides its outcome.
//!
//! The rules emit [`Event`]s through one sink (`Engine::log`, see `log`) and
//! never format text; the CLI renders them in the reader's language, and
//! `pf1e sim --events` prints them as JSON Lines (`docs/events.md`).
//! Combatants are indices into [`Transcript::combatants`]; numbers are
//! numbers. A battle nobody watches builds no event: every emission is
//! behind `Log::on`.

use serde::{Deserialize, Serialize};

use crate::map::Pos;

use super::prepared::PreparedEncounter;

pub use super::event_kinds::{
    AfflictionEvent, ClassAbilityEvent, CombatEvent, ConfusedAct, DismountCause, EffectEnd, EngulfedHow,
    EscapeSkill, KiPower, ManeuverOutcome, MountedEvent, NonlethalState, SpellEffectEvent, SpellEvent,
    StunOutcome, TurnEvent,
};

/// Whether a flag is off (to omit it from JSON).
#[allow(clippy::trivially_copy_pass_by_ref, reason = "serde's skip_serializing_if passes a reference")]
fn is_false(b: &bool) -> bool {
    !*b
}

/// Whether a number is 0 (to omit it from JSON).
#[allow(clippy::trivially_copy_pass_by_ref, reason = "serde's skip_serializing_if passes a reference")]
fn is_zero(n: &i32) -> bool {
    *n == 0
}

/// The version of the event schema (`docs/events.md`). Bump it when a
/// variant or a field is renamed or removed or changes meaning; adding a
/// variant or an optional field does not bump it. Version 2 removed the
/// temporary free-text `text` event: every rule now emits a typed one;
/// version 3 (`pf1e-rules-13`) added the `mounted` family and the swallow
/// whole kinds of `affliction`; version 4 (`pf1e-rules-14`) the monsters'
/// grapples of their own (`pins`), `escape_check`, the `broken_free` end of
/// an effect and the actions `break_free` and `entangle`; version 5
/// (`pf1e-rules-15`) the captivating song's kinds of `affliction` (`sings`,
/// `captivated`, `captive`), the action `sing`, the spell effects `resized`
/// and `no_room_to_grow`, `rebukes_death`, the class ability `accuracy` and
/// the actions `rebuke_death` and `arcane_accuracy`; version 6
/// (`pf1e-rules-16`) the spell effect `maneuver` (Black Tentacles' grapple
/// checks), the `released` end of an effect, and the engulf by movement: the
/// `affliction` kinds `engulfed`, `avoids_engulf`, `pushed_aside` and
/// `escapes_engulf`, the move kind `engulf` and the action `engulf`; version 7
/// (`pf1e-rules-17`) leaving the battle: the event `leaves_battle`, the action
/// `leave_battle`, the failure `not_on_exit` and the battle end `held`;
/// version 8 (`pf1e-rules-18`) the trample: the move kind `trample`, the
/// action `trample` and the attack modifier source `trample`; and
/// the adventuring day's carried effects: the
/// event `carried_effect` (a member enters a fight of its day under an
/// effect that outlasted an earlier one, with the rounds it has left);
/// version 9 (`pf1e-rules-19`) the `affliction` kinds `dominates`,
/// `dominated` (a vampire's dominate) and `splits` (an ochre jelly's
/// split), and the action `dominate`; version 10 (`pf1e-rules-20`) the
/// domain, school and bloodline powers: the class ability kinds
/// `uses_power` and `immune_power`, and the action `domain_power`; the
/// `affliction` kinds `berserk`, `magic_heals`, `magic_slows` and
/// `cursed_wound` (the golems);
/// and scrolls and Use Magic Device: the events `reads_scroll`, `item_check`
/// and `item_mishap`.
/// version 11 (`pf1e-rules-21`) the spell events `dismissed` and
/// `zone_moves`, the action `dismiss_spell` and the failure `nothing_to_dismiss`.
/// version 12 (`pf1e-rules-22`) the `affliction` kind `rusts` (a rust
/// monster's rust) and the attack modifier source `target_rusted`.
/// version 13 (`pf1e-rules-23`) the `casts` event names no `target` for a
/// spell that aims at no creature (a summons: where its creature appears is
/// the `summoned` event's) and has no `dc` for a spell that allows no save; and the `extract` flag of
/// `casts` (an alchemist drinks an extract).
/// version 14 (`pf1e-rules-24`) the `removed` conditions (a paladin's
/// mercies) and the `harms` flag (a touch that harms an undead) of
/// `lays_on_hands`.
/// version 15 (`pf1e-rules-27`) spell constructs (Spiritual Weapon): the
/// spell events `redirected` and `construct_ends`, the action
/// `redirect_spell` and the failure `no_construct`; a construct's attack is
/// an `attack` event whose `weapon` is the spell's name, its damage a
/// `spell_damage` event.
/// version 16 (`pf1e-rules-28`) Fire Shield: the spell event `retaliates`
/// (its bearer's shield strikes back at an attacker; the damage is a
/// `spell_damage` event) and the spell effect `warded_off` (an energy ward
/// turns a successful Reflex save for half into no damage).
/// version 17 (`pf1e-rules-29`) Spectral Hand: the spell events
/// `hand_formed` (the hit points its caster loses), `by_hand` (the hand
/// carries a touch spell to its target) and `hand_returns` (the hit points
/// come back when the spell ends); Dimension Door: the spell events
/// `teleports` and `no_arrival`, the failure `turn_ended`.
/// version 18 (`pf1e-rules-30`) Globe of Invulnerability: the spell event
/// `kept_out` (a globe around the creature keeps the spell out); Silence:
/// the spell event `unheard` and the failure `silenced`.
pub const EVENT_SCHEMA_VERSION: u32 = 18;

/// The record of one battle: who fought, and what happened in order.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Transcript {
    /// Every combatant by index (`who`, `target` in events): the deployed
    /// ones, then the rows reserved for summoned creatures.
    pub combatants: Vec<CombatantRef>,
    /// The sides' names by index (`BattleResult::Won::side`).
    pub sides: Vec<String>,
    /// The events, in the order they happened.
    pub events: Vec<Record>,
}

impl Transcript {
    /// An empty transcript naming the combatants of `prep`.
    pub fn for_encounter(prep: &PreparedEncounter) -> Self {
        Self {
            combatants: prep
                .fighters
                .iter()
                .map(|f| CombatantRef { id: f.id.clone(), side: f.side })
                .collect(),
            sides: prep.sides.clone(),
            events: Vec::new(),
        }
    }

    /// The id of combatant `i` (`?` for an index out of range, which a
    /// transcript of this engine never holds).
    pub fn id(&self, i: usize) -> &str {
        self.combatants.get(i).map_or("?", |c| c.id.as_str())
    }
}

/// A combatant as events refer to it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CombatantRef {
    /// Its id (unique in the encounter).
    pub id: String,
    /// Its side's index in [`Transcript::sides`].
    pub side: usize,
}

/// One event and the round it happened in (0 before the first round).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// The round number.
    pub round: u32,
    /// What happened.
    #[serde(flatten)]
    pub event: Event,
}

/// What happened. `who` is the combatant the event is about (the actor, or
/// the one it happens to).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Event {
    /// An initiative roll (before the first round).
    Initiative {
        /// The combatant.
        who: usize,
        /// The d20.
        d20: u32,
        /// The initiative modifier.
        modifier: i32,
        /// d20 + modifier.
        total: i32,
        /// The d20s of the roll-offs that broke ties, in order.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        roll_offs: Vec<u32>,
    },
    /// A move along a path (each square entered, in order).
    Move {
        /// The mover.
        who: usize,
        /// Which kind of movement.
        kind: MoveKind,
        /// Where it started.
        from: Pos,
        /// The squares entered.
        path: Vec<Pos>,
    },
    /// A 5-foot step.
    Step {
        /// The mover.
        who: usize,
        /// Where it started.
        from: Pos,
        /// Where it stepped.
        to: Pos,
    },
    /// A movement that did not take place.
    NoMove {
        /// The would-be mover.
        who: usize,
        /// Why.
        why: NoMove,
        /// Where it stands.
        at: Pos,
    },
    /// A creature pushed back to the nearest free square (its own was taken).
    FallsBack {
        /// The creature.
        who: usize,
        /// Where it lands.
        to: Pos,
    },
    /// A weapon attack roll and what followed it (confirmation, miss
    /// chances, images, precision dice, damage).
    Attack(Box<Attack>),
    /// A spell's touch attack (touch, ranged touch or ray), always against touch AC.
    TouchAttack {
        /// The caster.
        who: usize,
        /// The target.
        target: usize,
        /// Which touch attack.
        kind: TouchKind,
        /// The d20.
        d20: i32,
        /// The attack bonus.
        bonus: i32,
        /// d20 + bonus.
        total: i32,
        /// The target's touch AC.
        ac: i32,
        /// What followed the roll: `threat`, `miss_chance`, `image`.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        steps: Vec<AttackStep>,
        /// Whether it hit in the end.
        hit: bool,
    },
    /// A creature unaware of its foes does not act in the surprise round.
    Surprised {
        /// The creature.
        who: usize,
    },
    /// A delay: until just before `before` acts, or to the end of the round (`None`).
    Delays {
        /// The delaying creature.
        who: usize,
        /// The creature it will act just before.
        before: Option<usize>,
    },
    /// A delayed turn resumes.
    ActsAfterDelay {
        /// The creature.
        who: usize,
    },
    /// A readied attack and its trigger (`ReadyTrigger::name`).
    Readies {
        /// The creature.
        who: usize,
        /// The trigger.
        trigger: String,
    },
    /// A readied attack is set off by its trigger.
    ReadiedSetOff {
        /// The creature.
        who: usize,
        /// The trigger.
        trigger: String,
    },
    /// A readied attack set off but refused, with its reason code.
    ReadiedFailed {
        /// The creature.
        who: usize,
        /// The reason code.
        reason: String,
    },
    /// A readied action expired at the start of its owner's turn.
    ReadyExpired {
        /// The creature.
        who: usize,
    },
    /// Bleed damage at the start of a turn.
    Bleeds {
        /// The creature.
        who: usize,
        /// Damage.
        amount: u32,
        /// Hit points before.
        hp: i32,
    },
    /// A creature starts bleeding.
    StartsBleeding {
        /// The creature.
        who: usize,
        /// Damage per turn.
        amount: u32,
    },
    /// A creature stops bleeding.
    StopsBleeding {
        /// The creature.
        who: usize,
    },
    /// Recurring damage of an effect at the start of a turn.
    RecurringDamage {
        /// The creature.
        who: usize,
        /// Damage dealt (after resistances).
        dealt: u32,
        /// The effect's name.
        effect: String,
    },
    /// A prone creature stands up.
    StandsUp {
        /// The creature.
        who: usize,
    },
    /// A creature drops prone.
    DropsProne {
        /// The creature.
        who: usize,
    },
    /// Total defense.
    TotalDefense {
        /// The creature.
        who: usize,
        /// The dodge bonus to AC.
        ac: i32,
    },
    /// A martial option declared for the turn (`combat::martial`).
    Declares {
        /// The creature.
        who: usize,
        /// The option.
        style: super::style::Style,
        /// The change to its attack rolls (the main hand's when fighting with two weapons).
        attack: i32,
        /// The change to its off-hand attack rolls (two weapons; else 0).
        off_hand: i32,
        /// The bonus to its damage (Deadly Aim; else 0).
        damage: i32,
        /// The change to its AC (Combat Expertise, Cleave; else 0).
        ac: i32,
    },
    /// Fighting defensively.
    FightsDefensively {
        /// The creature.
        who: usize,
        /// The penalty on attack rolls (negative).
        attack: i32,
        /// The dodge bonus to AC.
        ac: i32,
    },
    /// An action the engine refused or dropped, with its reason code.
    ActionFailed {
        /// The actor.
        who: usize,
        /// The action's kind (`ActionKind::name`).
        action: String,
        /// Dropped by the action budget before it was tried (else tried and failed).
        dropped: bool,
        /// The reason code (`Reason::as_str`, e.g. `out_of_range`).
        reason: String,
    },
    /// A change of life state, or death.
    Life {
        /// The creature.
        who: usize,
        /// What it became.
        change: LifeChange,
        /// Its hit points after the change.
        hp: i32,
    },
    /// The start-of-turn check of a dying creature (CRB "Dying"), or its
    /// automatic failure while bleeding.
    Stabilization {
        /// The dying creature.
        who: usize,
        /// The roll, `None` when bleeding made it fail without one.
        roll: Option<StabilizationRoll>,
        /// Whether it became stable.
        stable: bool,
        /// Hit points before the check.
        hp: i32,
    },
    /// A disabled creature took a strenuous action and lost 1 hit point.
    Strains {
        /// The creature.
        who: usize,
    },
    /// The end of the battle.
    BattleOver {
        /// Rounds played.
        rounds: u32,
        /// How it ended.
        result: BattleResult,
    },
    /// A spell cast: the slot is spent; provocation and concentration follow.
    Casts {
        /// The caster.
        who: usize,
        /// The spell's name.
        spell: String,
        /// The metamagic applied (`empowered`, `maximized`, `extended`,
        /// `heightened`, `quickened`).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        metamagic: Vec<String>,
        /// The creature aimed at, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<usize>,
        /// The square aimed at, if any (and no creature).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        point: Option<Pos>,
        /// The slot's level (0: a cantrip or orison).
        slot: u8,
        /// The save DC (absent: the spell allows no saving throw).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        dc: Option<i32>,
        /// An alchemist's extract, drunk rather than cast (APG "Alchemy"):
        /// the target is the drinker (schema 13).
        #[serde(default, skip_serializing_if = "is_false")]
        extract: bool,
    },
    /// A summoned creature arrives.
    Summoned {
        /// The creature (its reserved row).
        who: usize,
        /// Where it appears.
        at: Pos,
        /// Rounds it stays.
        rounds: u32,
        /// Its hit points.
        hp: i32,
    },
    /// A summoned creature leaves: its spell ended.
    SummonEnds {
        /// The creature.
        who: usize,
    },
    /// A combatant leaves the battle alive from an exit square
    /// (`combat::leave`): off the map, out of the fight.
    LeavesBattle {
        /// The combatant.
        who: usize,
        /// The exit square it stepped off from.
        at: Pos,
        /// Its hit points as it leaves: what it kept.
        hp: i32,
    },
    /// A summoning spell found no free square for its creature.
    NoRoomToSummon {
        /// The caster.
        who: usize,
        /// The spell's name.
        spell: String,
    },
    /// A spell of one round begun: it takes effect before the caster's next turn.
    BeginsCasting {
        /// The caster.
        who: usize,
        /// The spell's name.
        spell: String,
    },
    /// A spell of one round takes effect.
    FinishesCasting {
        /// The caster.
        who: usize,
        /// The spell's name.
        spell: String,
    },
    /// A spell lost without effect.
    SpellLost {
        /// The caster.
        who: usize,
        /// The spell's name.
        spell: String,
        /// Why.
        why: SpellLoss,
    },
    /// A touch spell's charge is held (not delivered yet, or missed).
    HoldsCharge {
        /// The caster.
        who: usize,
        /// The spell's name.
        spell: String,
    },
    /// A coup de grâce (CRB "Helpless Defenders"): an automatic critical hit
    /// on a helpless foe.
    CoupDeGrace {
        /// The attacker.
        who: usize,
        /// The helpless defender.
        target: usize,
        /// The attack's name.
        weapon: String,
        /// Damage dealt (the critical hit's, after reductions).
        dealt: u32,
        /// The defender's hit points before the blow.
        hp_before: i32,
    },
    /// The Fortitude save of a coup de grâce's survivor (DC 10 + the damage): failed, it dies.
    CoupDeGraceSave {
        /// The defender.
        who: usize,
        /// The natural roll.
        d20: i32,
        /// Its Fortitude bonus.
        bonus: i32,
        /// 10 + the damage dealt.
        dc: i32,
        /// Whether it survives.
        success: bool,
    },
    /// A prepared caster gives up a prepared spell to cast another of the
    /// same level spontaneously (a cleric's cure wounds).
    GivesUpPrepared {
        /// The caster.
        who: usize,
        /// The prepared spell given up.
        given_up: String,
        /// The spell cast in its place.
        spell: String,
    },
    /// A held charge dissipates because its holder casts another spell.
    ChargeDissipates {
        /// The caster.
        who: usize,
        /// The held spell's name.
        spell: String,
    },
    /// A concentration check (CRB "Concentration").
    Concentration {
        /// The caster.
        who: usize,
        /// What called for it.
        cause: ConcentrationCause,
        /// The d20.
        d20: i32,
        /// The bonus.
        bonus: i32,
        /// d20 + bonus.
        total: i32,
        /// The DC.
        dc: i32,
        /// Whether it succeeded.
        success: bool,
    },
    /// Channel energy: a 30-ft burst around the channeler.
    ChannelsEnergy {
        /// The channeler.
        who: usize,
        /// Positive energy (else negative).
        positive: bool,
        /// Number of d6.
        dice: u32,
        /// Heals (else harms).
        heals: bool,
        /// The creatures affected.
        creatures: u32,
    },
    /// A cavalier challenges a foe (APG "Cavalier": Challenge).
    Challenges {
        /// The cavalier.
        who: usize,
        /// The challenged foe.
        target: usize,
        /// Extra damage of its melee hits on the foe.
        damage: i32,
        /// Dodge bonus to its AC against the foe (the order of the lion's; 0 otherwise).
        dodge: i32,
        /// Uses of challenge left.
        left: u32,
    },
    /// A challenge ends: its foe is dead or unconscious.
    ChallengeEnds {
        /// The cavalier.
        who: usize,
        /// The foe it had challenged.
        target: usize,
    },
    /// A cavalier's tactician lends a teamwork feat to its allies nearby.
    Tactician {
        /// The cavalier.
        who: usize,
        /// The teamwork feat lent.
        feat: String,
        /// Allies who gain it.
        allies: u32,
        /// For how many rounds.
        rounds: u32,
    },
    /// A celestial or fiendish creature smites a foe (Bestiary, Simple
    /// Templates: smite evil, smite good).
    Smites {
        /// The smiting creature.
        who: usize,
        /// The smitten foe.
        target: usize,
        /// Smite evil (else smite good).
        evil: bool,
        /// Bonus on its attack rolls against the foe (0: the foe is not of
        /// the punished alignment and the use is wasted).
        attack: i32,
        /// Bonus on its damage rolls against the foe.
        damage: i32,
        /// Deflection bonus to its AC against the foe's attacks.
        ac: i32,
        /// Uses left.
        left: u32,
    },
    /// A barbarian flies into a rage (CRB "Rage"): +4 morale Strength and
    /// Constitution, +2 morale on Will saves, −2 AC.
    Rages {
        /// The barbarian.
        who: usize,
        /// Hit points the Constitution adds (to its current and maximum hit points).
        hp: i32,
        /// Morale bonus on Will saves.
        will: i32,
        /// Rounds of rage left today.
        left: u32,
    },
    /// A barbarian's rage ends (out of rounds, unconscious): the hit points
    /// of its Constitution go and it is fatigued.
    RageEnds {
        /// The barbarian.
        who: usize,
        /// Rounds it raged.
        rounds: u32,
        /// Hit points lost with the Constitution.
        hp: i32,
        /// Rounds it is fatigued (twice the rounds raged).
        fatigued: u32,
    },
    /// A paladin lays on hands (CRB "Lay On Hands").
    LaysOnHands {
        /// The paladin.
        who: usize,
        /// The creature healed (the paladin itself or an ally), or the
        /// undead harmed.
        target: usize,
        /// Number of d6 rolled.
        dice: u32,
        /// Their total (0 when a touch to harm missed).
        rolled: u32,
        /// Hit points restored.
        healed: u32,
        /// Uses left today.
        left: u32,
        /// What its mercies ended on the target (`sickened`, `staggered`,
        /// `poisoned`…), in the order of the conditions; omitted when none.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        removed: Vec<String>,
        /// It harmed an undead (after its touch attack; the damage is the
        /// `spell_damage` event that follows a hit); omitted when false.
        #[serde(default, skip_serializing_if = "is_false")]
        harms: bool,
    },
    /// A cleric of the Healing domain rebukes death (CRB "Healing Domain"):
    /// a touch healing 1d4 + ½ cleric level on a creature below 0 hit points.
    RebukesDeath {
        /// The cleric.
        who: usize,
        /// The creature healed.
        target: usize,
        /// The d4 rolled.
        rolled: u32,
        /// The bonus added (half the cleric level).
        bonus: u32,
        /// Hit points restored.
        healed: u32,
        /// The target's hit points after (below 0 before the touch).
        hp: i32,
        /// Uses left today.
        left: u32,
    },
    /// A monk spends a ki point (CRB "Ki Pool").
    Ki {
        /// The monk.
        who: usize,
        /// What the point buys.
        power: KiPower,
        /// Points left today.
        left: u32,
    },
    /// A Stunning Fist carried by an unarmed attack (CRB "Stunning Fist"):
    /// the use is spent by the attack roll.
    StunningFist {
        /// The attacker.
        who: usize,
        /// The creature attacked.
        target: usize,
        /// The Fortitude save's DC.
        dc: i32,
        /// What came of it (a save, when rolled, is its own `save` event before this one).
        outcome: StunOutcome,
        /// Uses left today.
        left: u32,
    },
    /// Order of the lion: lion's call.
    LionsCall {
        /// The cavalier.
        who: usize,
        /// Allies who hear it.
        allies: u32,
        /// Competence bonus on attack rolls.
        attack: i32,
        /// Competence bonus on saves against fear.
        fear_saves: i32,
        /// For how many rounds.
        rounds: u32,
    },
    /// A ranger's hunter's bond (the companions'): half its favored enemy
    /// bonus against one foe to its allies nearby.
    HuntersBond {
        /// The ranger.
        who: usize,
        /// The foe of the bond.
        target: usize,
        /// Bonus on the allies' attack and damage rolls against the foe.
        bonus: i32,
        /// Allies who gain it.
        allies: u32,
        /// For how many rounds.
        rounds: u32,
    },
    /// A potion drunk or given, or a wand's charge used (`combat::consumables`).
    UsesItem {
        /// Who uses it.
        who: usize,
        /// A wand (else a potion).
        wand: bool,
        /// The spell it holds.
        spell: String,
        /// On whom.
        target: usize,
        /// Potions of that kind, or the wand's charges, left.
        left: u32,
    },
    /// A scroll read: its spell is cast from it and the scroll is spent
    /// (`combat::consumables`).
    ReadsScroll {
        /// Who reads it.
        who: usize,
        /// The spell it holds.
        spell: String,
        /// On whom.
        target: usize,
        /// Scrolls of that spell left.
        left: u32,
    },
    /// A check to use an item (`combat::consumables`): Use Magic Device, a
    /// scroll's caster level check, or the Wisdom check against a mishap.
    ItemCheck {
        /// Who makes it.
        who: usize,
        /// Which check.
        check: ItemCheckKind,
        /// The spell of the item.
        spell: String,
        /// The d20.
        d20: i32,
        /// The bonus.
        bonus: i32,
        /// d20 + bonus.
        total: i32,
        /// The DC.
        dc: i32,
        /// Whether it succeeded.
        success: bool,
    },
    /// A mishap of an item's use: uncontrolled magic wounds its user.
    ItemMishap {
        /// The user.
        who: usize,
        /// The spell of the item.
        spell: String,
        /// Damage dealt.
        damage: u32,
        /// Hit points before.
        hp_before: i32,
        /// Hit points after.
        hp_after: i32,
    },
    /// Hit points restored (a spell, channel energy, a hex).
    Healed {
        /// The creature healed.
        who: usize,
        /// Hit points restored.
        amount: u32,
        /// Hit points before.
        hp_before: i32,
        /// Hit points after.
        hp_after: i32,
    },
    /// A crossbow or firearm reloaded, or the next flask of a splash
    /// weapon taken out (`combat::reload`).
    Reloads {
        /// The combatant.
        who: usize,
        /// The weapon (attack name).
        weapon: String,
        /// Shots left after this one, when its ammunition is counted.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ammunition_left: Option<u32>,
        /// A flask drawn from the pack (a splash weapon), not a weapon reloaded.
        #[serde(default, skip_serializing_if = "is_false")]
        draws: bool,
    },
    /// A splash weapon's missile that missed lands off target (CRB "Splash
    /// Weapons": 1d8 for the direction, 1 falling short toward the thrower,
    /// then clockwise; one square per range increment of the throw).
    Misdirected {
        /// The thrower.
        who: usize,
        /// The weapon.
        weapon: String,
        /// The d8 of the direction.
        d8: u32,
        /// Squares from the target.
        squares: u32,
        /// Where it lands.
        at: Pos,
    },
    /// Splash damage on a creature within 5 feet of where a splash weapon
    /// burst (`combat::splash`).
    Splash {
        /// The creature splashed.
        who: usize,
        /// The thrower.
        by: usize,
        /// The weapon.
        weapon: String,
        /// Damage dealt.
        dealt: u32,
        /// Hit points before.
        hp: i32,
    },
    /// A flier's altitude changes: it climbs or dives as part of a move,
    /// or sinks after a failed Fly check (`combat::flight`).
    Altitude {
        /// The flier.
        who: usize,
        /// Altitude before, in feet above the ground.
        from_ft: u32,
        /// Altitude after.
        to_ft: u32,
    },
    /// A Fly check (CRB "Fly" skill).
    FlyCheck {
        /// The flier.
        who: usize,
        /// The d20.
        d20: i32,
        /// Its Fly bonus.
        bonus: i32,
        /// d20 + bonus.
        total: i32,
        /// The DC.
        dc: i32,
        /// Whether it succeeded.
        ok: bool,
    },
    /// A check to break free of bonds (`combat::bonds`) or to move through
    /// them (Web's strands): d20 + bonus against the DC.
    EscapeCheck {
        /// The creature.
        who: usize,
        /// The bond's effect (`Entangle (condition)`, `web`).
        bond: String,
        /// The check it makes.
        skill: EscapeSkill,
        /// A check to move through the area (Web's strands, Grease), not to break free.
        #[serde(default, skip_serializing_if = "is_false")]
        moving: bool,
        /// The d20.
        d20: i32,
        /// Its bonus.
        bonus: i32,
        /// d20 + bonus.
        total: i32,
        /// The DC.
        dc: i32,
        /// Whether it succeeded.
        ok: bool,
        /// A failed check to move: the square where its movement ended
        /// (its `move` event lists the path it set out on).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        stopped_at: Option<Pos>,
    },
    /// A creature aloft falls to the ground (CRB "Falling"): 1d6 per 10 ft
    /// fallen, at most 20d6.
    Falls {
        /// The creature.
        who: usize,
        /// Its altitude when it started to fall.
        from_ft: u32,
        /// Feet fallen freely (less than `from_ft` when a flight spell's
        /// slow descent came first).
        feet: u32,
        /// Why it fell.
        cause: FallCause,
        /// Damage taken (0 when negated by a Fly check or a short fall).
        damage: u32,
    },
    /// A creature meets an enemy's aura at the start of its turn, once per
    /// aura and battle (Bestiary, Universal Monster Rules "Aura").
    Aura {
        /// The creature that meets it.
        who: usize,
        /// The aura's owner.
        source: usize,
        /// The aura's name (`despair`, `stench`).
        ability: String,
        /// What became of it.
        outcome: AuraOutcome,
        /// The condition a failed save gives (`paralyzed`, `sickened`).
        condition: String,
        /// For how many rounds, when affected (none: the battle, or not affected).
        rounds: Option<u32>,
    },
    /// A combat maneuver's roll: d20 + CMB against the target's CMD (CRB
    /// "Combat Maneuvers"); an escape's too.
    ManeuverRoll {
        /// The maneuverer.
        who: usize,
        /// The target (the grappler, for an escape).
        target: usize,
        /// The maneuver.
        maneuver: crate::effects::Maneuver,
        /// The d20.
        d20: i32,
        /// The bonus, the provoked attack's damage taken off.
        bonus: i32,
        /// d20 + bonus (at least 0).
        total: i32,
        /// The target's CMD.
        cmd: i32,
        /// Damage of the attack of opportunity it provoked, subtracted from the bonus (0: none).
        #[serde(default, skip_serializing_if = "is_zero")]
        aoo_damage: i32,
        /// Whether it succeeded.
        success: bool,
    },
    /// What a combat maneuver did, or why it did not happen.
    Maneuver {
        /// The creature the line is about (the maneuverer, or its target).
        who: usize,
        /// What happened.
        outcome: ManeuverOutcome,
    },
    /// Afflictions and monster abilities (poison, paralysis, ability damage,
    /// energy drain, gazes, breath, rend, regeneration, incorporeality).
    Affliction {
        /// The creature the line is about.
        who: usize,
        /// What happened.
        what: AfflictionEvent,
    },
    /// A saving throw.
    Save {
        /// The creature saving.
        who: usize,
        /// Which save.
        kind: crate::effects::SaveKind,
        /// The d20 kept.
        d20: i32,
        /// The save bonus.
        bonus: i32,
        /// d20 + bonus.
        total: i32,
        /// The DC.
        dc: i32,
        /// Both d20s when fortune or misfortune rolled twice.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rolled_twice: Option<[i32; 2]>,
        /// Whether it saved.
        success: bool,
    },
    /// A spell meets a creature, an area or the battle (immunity, spell
    /// resistance, dispelling, areas, zones).
    Spell {
        /// The creature the line is about (the caster, or the creature met).
        who: usize,
        /// The spell's name.
        spell: String,
        /// What happened.
        what: SpellEvent,
    },
    /// What an effect of a spell did to a creature.
    SpellEffect {
        /// The creature.
        who: usize,
        /// What happened.
        what: SpellEffectEvent,
    },
    /// Damage of a spell, a breath or a rend, after energy resistance.
    SpellDamage {
        /// Its source.
        who: usize,
        /// The creature damaged.
        target: usize,
        /// Damage dealt.
        dealt: u32,
        /// Damage rolled.
        rolled: u32,
        /// Its energy types (empty: untyped).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        types: Vec<String>,
        /// Hit points before.
        hp_before: i32,
        /// Hit points after.
        hp_after: i32,
    },
    /// A member of an adventuring day's party enters this fight under an
    /// effect that outlasted an earlier fight of its day (`docs/days.md`).
    CarriedEffect {
        /// The creature.
        who: usize,
        /// The effect's name.
        effect: String,
        /// Rounds it has left (none: until removed).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rounds: Option<u32>,
    },
    /// A lasting effect (a spell's, a condition's, an ability's) begins.
    EffectGained {
        /// The creature.
        who: usize,
        /// The effect's name.
        effect: String,
        /// Rounds it lasts (none: until removed).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rounds: Option<u32>,
    },
    /// A lasting effect ends.
    EffectEnds {
        /// The creature.
        who: usize,
        /// The effect's name.
        effect: String,
        /// Why.
        why: EffectEnd,
    },
    /// An area's effect lingers on a creature that left the area.
    EffectLingers {
        /// The creature.
        who: usize,
        /// The effect's name.
        effect: String,
        /// Rounds left.
        rounds: u32,
    },
    /// What happens to a creature's turn (conditions, confusion, curses).
    Turn {
        /// The creature.
        who: usize,
        /// What happened.
        what: TurnEvent,
    },
    /// A class ability (hexes, performance, magus, deeds, a lich's).
    ClassAbility {
        /// The creature the line is about.
        who: usize,
        /// What happened.
        what: ClassAbilityEvent,
    },
    /// The smaller combat rules (riders, weapons, attacks of opportunity,
    /// aid another, Power Attack).
    Combat {
        /// The creature the line is about.
        who: usize,
        /// What happened.
        what: CombatEvent,
    },
    /// Mounted combat (`combat::mounted`): a rider and its mount.
    Mounted {
        /// The rider.
        who: usize,
        /// What happened.
        what: MountedEvent,
    },
    /// Nonlethal damage and its thresholds (CRB "Nonlethal Damage").
    Nonlethal {
        /// The creature.
        who: usize,
        /// What it became.
        state: NonlethalState,
        /// Damage taken (0 when waking up).
        amount: u32,
        /// Nonlethal damage in all.
        nonlethal: i32,
        /// Its hit points.
        hp: i32,
    },
}

/// What an aura did to a creature that met it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AuraOutcome {
    /// Immune (a descriptor or the condition).
    Immune,
    /// It saved.
    Saved,
    /// It failed its save and has the condition.
    Affected,
}

/// Kinds of movement along a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveKind {
    /// A move action.
    Move,
    /// A charge.
    Charge,
    /// A run.
    Run,
    /// A withdraw.
    Withdraw,
    /// A withdraw limited to a 5-foot step or one move (CRB "Restricted Activity").
    RestrictedWithdraw,
    /// An engulf's move over foes (UMR "Engulf").
    Engulf,
    /// A trample's move over smaller foes (UMR "Trample").
    Trample,
}

/// Why a flier falls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FallCause {
    /// Helpless, unconscious or dying.
    Helpless,
    /// Knocked prone.
    Prone,
    /// Its flight ended (a spell's).
    FlightEnded,
    /// A failed Fly check on wings, by 5 or more.
    FailedCheck,
}

impl FallCause {
    /// English words for the cause.
    pub const fn words(self) -> &'static str {
        match self {
            Self::Helpless => "helpless",
            Self::Prone => "knocked prone",
            Self::FlightEnded => "flight ended",
            Self::FailedCheck => "failed Fly check",
        }
    }
}

/// Why a movement did not take place.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NoMove {
    /// A move: already where it wanted to be.
    AlreadyInPosition,
    /// A move: no square of the path could be reached.
    CannotProgress,
    /// A run: blocked on the first square.
    RunBlocked,
    /// A withdraw: no square farther from the foes.
    NowhereFarther,
}

/// Why a spell was lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpellLoss {
    /// The caster cannot act (when it casts, or when a one-round spell would take effect).
    CannotAct,
    /// A failed concentration check while casting.
    Concentration,
    /// A one-round spell fizzles: the caster was wounded and failed its check.
    Fizzles,
    /// A one-round spell has no valid target any more.
    NoTarget,
}

/// Which check an item's use called for (`Event::ItemCheck`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ItemCheckKind {
    /// Use Magic Device (a wand or scroll whose spell is not on the user's list).
    UseMagicDevice,
    /// A scroll's caster level check (the reader's caster level is lower).
    CasterLevel,
    /// The Wisdom check that avoids a scroll mishap.
    Wisdom,
}

impl ItemCheckKind {
    /// The words of the English transcript.
    pub fn words(self) -> &'static str {
        match self {
            ItemCheckKind::UseMagicDevice => "Use Magic Device",
            ItemCheckKind::CasterLevel => "caster level",
            ItemCheckKind::Wisdom => "Wisdom against a mishap",
        }
    }
}

/// What called for a concentration check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConcentrationCause {
    /// Casting while grappled.
    Grappled,
    /// Casting defensively.
    Defensive,
    /// Wounded while casting.
    Wounded,
    /// Casting while entangled.
    Entangled,
}

impl ConcentrationCause {
    /// The words of the English transcript.
    pub fn words(self) -> &'static str {
        match self {
            ConcentrationCause::Grappled => "grappled",
            ConcentrationCause::Defensive => "casting defensively",
            ConcentrationCause::Wounded => "wounded while casting",
            ConcentrationCause::Entangled => "entangled",
        }
    }
}

/// A change of life state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LifeChange {
    /// Dead.
    Dies,
    /// Destroyed (a creature destroyed at 0 hit points, e.g. an undead).
    Destroyed,
    /// Disabled at 0 hit points.
    Disabled,
    /// Unconscious and dying.
    Dying,
    /// A stable creature wounded again: dying again.
    DyingAgain,
    /// Below 0 hit points but fighting on, staggered (ferocity).
    FightsOn,
    /// Fighting on below 0 (ferocity): loses its hit point of the round.
    Weakens,
}

/// The roll of a stabilization check: d20 + Con modifier + hit points (negative) vs DC.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StabilizationRoll {
    /// The d20.
    pub d20: i32,
    /// The Constitution modifier.
    pub con_mod: i32,
    /// The total.
    pub total: i32,
    /// The DC.
    pub dc: i32,
}

/// How a battle ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "end", rename_all = "snake_case")]
pub enum BattleResult {
    /// One side is the last able to act.
    Won {
        /// The side's index in [`Transcript::sides`].
        side: usize,
    },
    /// Nobody can act any more.
    NoneStanding,
    /// The round cap was reached.
    Draw,
    /// One side holds the field: it is the last able to act, and some
    /// combatant of another side left the battle alive (`combat::leave`).
    Held {
        /// The side's index in [`Transcript::sides`].
        side: usize,
    },
}

/// A weapon attack roll.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Attack {
    /// The attacker.
    pub who: usize,
    /// The target.
    pub target: usize,
    /// The weapon's (or natural attack's) name.
    pub weapon: String,
    /// An attack of opportunity.
    pub aoo: bool,
    /// The d20 (after any reroll).
    pub d20: i32,
    /// The attack bonus, every modifier included.
    pub bonus: i32,
    /// d20 + bonus.
    pub total: i32,
    /// The armor class attacked.
    pub ac_kind: AcKind,
    /// Its value.
    pub ac: i32,
    /// The situational modifiers and circumstances that went into `bonus`
    /// and `ac`, in the order the transcript shows them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<AttackNote>,
    /// What followed the roll, in order; the first is `miss`, `hit` or `threat`.
    pub steps: Vec<AttackStep>,
}

/// Kinds of spell touch attacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TouchKind {
    /// A melee touch.
    Touch,
    /// A ranged touch.
    RangedTouch,
    /// A ray.
    Ray,
}

/// Which armor class an attack targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AcKind {
    /// Normal AC.
    Normal,
    /// Touch AC.
    Touch,
}

/// A circumstance of an attack roll.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "note", rename_all = "snake_case")]
pub enum AttackNote {
    /// A modifier with its source and signed value (on the attack roll, or
    /// on the AC for `cover`, `dodge` and `target_aided`).
    Modifier {
        /// Where it comes from.
        source: ModSource,
        /// Its value.
        value: i32,
    },
    /// The target runs without the Run feat: no Dexterity bonus to AC.
    TargetRunningNoDex,
    /// The target is denied its Dexterity bonus to AC.
    TargetDeniedDex,
    /// The attacker's conditions (prone aside), by name.
    AttackerConditions {
        /// The names.
        names: Vec<String>,
    },
    /// The effects on the attacker, by name.
    AttackerEffects {
        /// The names.
        names: Vec<String>,
    },
    /// The target's conditions (prone aside), by name.
    TargetConditions {
        /// The names.
        names: Vec<String>,
    },
    /// The effects on the target, by name.
    TargetEffects {
        /// The names.
        names: Vec<String>,
    },
}

/// The source of a situational modifier of an attack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ModSource {
    /// Iterative attack penalty.
    Iterative,
    /// Charging.
    Charge,
    /// Flanking.
    Flanking,
    /// Higher ground.
    HighGround,
    /// Range increments.
    Range,
    /// The target's cover (AC).
    Cover,
    /// The target charged (AC).
    TargetCharged,
    /// Shooting into melee.
    IntoMelee,
    /// The attacker is prone.
    Prone,
    /// The attacker fights defensively.
    FightingDefensively,
    /// Aid another on the attack.
    Aided,
    /// Power Attack.
    PowerAttack,
    /// The target's challenge (AC): −2 against anyone but its foe, its
    /// order's dodge bonus against its foe.
    TargetChallenging,
    /// The attacker's smite against the target (its Charisma bonus).
    Smite,
    /// The target's smite against the attacker (deflection bonus).
    TargetSmiting,
    /// The attacker is invisible.
    Invisible,
    /// The target is helpless.
    TargetHelpless,
    /// The target is prone.
    TargetProne,
    /// The target's dodge bonus (total defense, fighting defensively).
    Dodge,
    /// Aid another on the target's AC.
    TargetAided,
    /// Deadly Aim.
    DeadlyAim,
    /// Combat Expertise.
    CombatExpertise,
    /// Rapid Shot.
    RapidShot,
    /// Fighting with two weapons (this hand's penalty).
    TwoWeapon,
    /// The target used Cleave (AC).
    TargetCleaving,
    /// The target let go of its shield for a two-handed weapon (AC).
    TargetNoShield,
    /// The target's armor or shield is broken or destroyed by rust (AC, schema 12).
    TargetRusted,
    /// The attacker's favored enemy bonus against the target's type (a ranger's).
    FavoredEnemy,
    /// A ranger's hunter's bond: half the ranger's favored enemy bonus
    /// against the bond's foe, higher than the attacker's own.
    HuntersBond,
    /// A monk's flurry of blows: the monk level in place of the base attack bonus, −2.
    Flurry,
    /// An attack of opportunity against a trampling creature (UMR "Trample": −4).
    Trample,
}

/// What followed an attack roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum AttackStep {
    /// A miss; a natural 1 with a firearm misfires and breaks it.
    Miss {
        /// The firearm broke.
        misfire: bool,
    },
    /// A hit without a threat.
    Hit,
    /// A hit that threatens a critical, and its confirmation roll.
    Threat {
        /// The confirmation d20.
        d20: i32,
        /// Its bonus.
        bonus: i32,
        /// d20 + bonus.
        total: i32,
        /// The critical multiplier when confirmed, `None` when not.
        crit_mult: Option<u32>,
    },
    /// The d100 of a miss chance (concealment, or the attacker blinded).
    MissChance {
        /// The attacker is blinded (else the target is concealed).
        blinded: bool,
        /// The miss chance in percent.
        chance: u8,
        /// The d100.
        d100: u32,
        /// Whether it missed.
        missed: bool,
    },
    /// Blind-Fight's reroll of a melee miss chance.
    BlindFightReroll {
        /// The d100.
        d100: u32,
        /// Whether it missed.
        missed: bool,
    },
    /// The hit went to a mirror image.
    Image {
        /// The die rolled to pick the target (images + 1).
        die: u32,
        /// Its face.
        roll: u32,
        /// Images left when the image was destroyed, `None` when not destroyed.
        left: Option<u32>,
    },
    /// Sneak attack dice added.
    SneakAttack {
        /// Number of d6.
        dice: u32,
    },
    /// Up close and deadly dice added.
    UpClose {
        /// Number of d6.
        dice: u32,
    },
    /// Vital Strike: the weapon's dice rolled this many times (the extra ones not multiplied).
    VitalStrike {
        /// Times the weapon's dice are rolled (2, 3 or 4).
        rolls: u32,
    },
    /// Manyshot's second arrow and the damage it dealt (already in the hit's damage).
    Manyshot {
        /// Damage the second arrow dealt after reductions.
        dealt: u32,
    },
    /// Damage dealt.
    Damage {
        /// Damage dealt after reductions.
        dealt: u32,
        /// Damage rolled before reductions.
        rolled: u32,
        /// The target's hit points before.
        hp_before: i32,
        /// Its hit points after.
        hp_after: i32,
        /// Damage taken by temporary hit points.
        temp: i32,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_serialize_flat_with_their_type_and_read_back() {
        let r = Record {
            round: 2,
            event: Event::Move {
                who: 1,
                kind: MoveKind::Charge,
                from: Pos::new(1, 1),
                path: vec![Pos::new(1, 2)],
            },
        };
        let json = serde_json::to_string(&r).unwrap();
        assert_eq!(
            json,
            r#"{"round":2,"type":"move","who":1,"kind":"charge","from":{"row":1,"col":1},"path":[{"row":1,"col":2}]}"#
        );
        assert_eq!(serde_json::from_str::<Record>(&json).unwrap(), r);
        let end = Record {
            round: 3,
            event: Event::BattleOver { rounds: 3, result: BattleResult::Won { side: 1 } },
        };
        let json = serde_json::to_string(&end).unwrap();
        assert_eq!(json, r#"{"round":3,"type":"battle_over","rounds":3,"result":{"end":"won","side":1}}"#);
        assert_eq!(serde_json::from_str::<Record>(&json).unwrap(), end);
    }

    #[test]
    fn a_family_event_nests_its_kind_and_reads_back() {
        let r = Record {
            round: 3,
            event: Event::Maneuver {
                who: 2,
                outcome: ManeuverOutcome::Overruns { target: 0, to: Some(Pos::new(4, 5)) },
            },
        };
        let json = serde_json::to_string(&r).unwrap();
        assert_eq!(
            json,
            r#"{"round":3,"type":"maneuver","who":2,"outcome":{"kind":"overruns","target":0,"to":{"row":4,"col":5}}}"#
        );
        assert_eq!(serde_json::from_str::<Record>(&json).unwrap(), r);
        let save = Record {
            round: 1,
            event: Event::Save {
                who: 0,
                kind: crate::effects::SaveKind::Will,
                d20: 7,
                bonus: 3,
                total: 10,
                dc: 14,
                rolled_twice: None,
                success: false,
            },
        };
        let v: serde_json::Value = serde_json::to_value(&save).unwrap();
        assert_eq!(v["type"], "save");
        assert_eq!(v["kind"], "will");
        assert!(v.get("rolled_twice").is_none(), "{v}");
        assert_eq!(serde_json::from_value::<Record>(v).unwrap(), save);
        let confused = Event::Turn {
            who: 1,
            what: TurnEvent::Confused { d100: 60, act: ConfusedAct::HurtsItself { damage: 3, hp: 9 } },
        };
        let v = serde_json::to_value(&confused).unwrap();
        assert_eq!(
            v["what"],
            serde_json::json!({"kind": "confused", "d100": 60, "act": {"act": "hurts_itself", "damage": 3, "hp": 9}})
        );
    }

    #[test]
    fn an_attack_keeps_its_numbers_notes_and_steps() {
        let attack = Attack {
            who: 0,
            target: 1,
            weapon: "longsword".into(),
            aoo: false,
            d20: 19,
            bonus: 5,
            total: 24,
            ac_kind: AcKind::Normal,
            ac: 15,
            notes: vec![AttackNote::Modifier { source: ModSource::Flanking, value: 2 }],
            steps: vec![
                AttackStep::Threat { d20: 12, bonus: 5, total: 17, crit_mult: Some(2) },
                AttackStep::Damage { dealt: 14, rolled: 14, hp_before: 20, hp_after: 6, temp: 0 },
            ],
        };
        let r = Record { round: 1, event: Event::Attack(Box::new(attack)) };
        let v: serde_json::Value = serde_json::to_value(&r).unwrap();
        assert_eq!(v["type"], "attack");
        assert_eq!(v["notes"][0], serde_json::json!({"note": "modifier", "source": "flanking", "value": 2}));
        assert_eq!(v["steps"][0]["step"], "threat");
        assert_eq!(v["steps"][1]["hp_after"], 6);
        assert_eq!(serde_json::from_value::<Record>(v).unwrap(), r);
    }
}
