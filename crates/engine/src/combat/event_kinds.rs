//! The kinds carried by the event families of maneuvers, afflictions and
//! monster abilities, spells and their effects, turns, class abilities and
//! the smaller combat rules (`Event::Maneuver`, `Event::Affliction`, …):
//! what happened, with combatants by index and numbers as numbers. Names
//! that come from data (a spell, an attack, an ability, an energy type) are
//! strings; everything the engine decides is an enum.

use serde::{Deserialize, Serialize};

use crate::effects::ConditionId;
use crate::map::Pos;

/// What a combat maneuver did or why it did not happen (`Event::Maneuver`).
/// The event's `who` is the creature the line is about (the maneuverer, or
/// its target for what happens to the target).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ManeuverOutcome {
    /// Refused: the target is two or more sizes larger.
    TooLarge {
        /// The maneuver.
        maneuver: crate::effects::Maneuver,
        /// The target.
        target: usize,
    },
    /// Refused: a dirty trick cannot give this condition.
    NotATrick {
        /// The condition asked for.
        condition: ConditionId,
    },
    /// Lost: the maneuverer fell to the attack of opportunity it provoked.
    LostToAoo {
        /// The maneuver.
        maneuver: crate::effects::Maneuver,
    },
    /// Tripped: the target falls prone.
    Tripped,
    /// A trip failed by 10 or more: the maneuverer falls prone.
    FailsAndFalls,
    /// Disarmed: the target drops its weapon.
    Drops {
        /// The weapon (the attack's name).
        weapon: String,
    },
    /// A disarm failed by 10 or more: the maneuverer drops its weapon.
    FailsAndDrops {
        /// The weapon.
        weapon: String,
    },
    /// Sundered: the target's weapon takes damage.
    Sundered {
        /// The weapon.
        weapon: String,
        /// Damage to it.
        damage: u32,
        /// Whether it broke.
        broken: bool,
    },
    /// Bull rushed this far.
    Pushed {
        /// Feet moved.
        feet: u32,
    },
    /// Repositioned this far.
    Repositioned {
        /// Feet moved.
        feet: u32,
    },
    /// Dragged this far.
    Dragged {
        /// Feet moved.
        feet: u32,
    },
    /// Steals a carried item.
    Steals {
        /// The victim.
        from: usize,
    },
    /// A grapple with no free square next to the grappler to pull the target into.
    GrappleNoRoom,
    /// The grappler pulls its target next to it.
    GrapplePulls {
        /// The target.
        target: usize,
        /// Where it lands.
        to: Pos,
    },
    /// Grappled.
    Grappled {
        /// The grappler.
        by: usize,
    },
    /// Overruns its target, to the square beyond (none: taken, it stays).
    Overruns {
        /// The target.
        target: usize,
        /// The square it moves to.
        to: Option<Pos>,
    },
    /// Knocked prone by an overrun.
    KnockedProne,
    /// Escapes a grapple.
    Escapes,
    /// A grapple ends (the grappler is down or no longer adjacent).
    NoLongerGrappled,
}

/// How a creature came to be engulfed (`AfflictionEvent::Engulfed`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EngulfedHow {
    /// It failed its Reflex save.
    Save,
    /// It made an attack of opportunity instead of a save (UMR "Engulf").
    AttackOfOpportunity,
    /// Helpless (paralyzed, unconscious): no save.
    Helpless,
}

/// Afflictions and monster abilities (`Event::Affliction`): poison, paralysis,
/// petrification, ability damage, energy drain, gazes, breath weapons, rend,
/// regeneration and fast healing, incorporeality.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AfflictionEvent {
    /// Immune to an on-hit ability.
    Immune {
        /// The ability's name.
        ability: String,
    },
    /// An on-hit ability reaches its target (a save follows).
    Strikes {
        /// The ability's name.
        ability: String,
        /// The target.
        target: usize,
    },
    /// Paralyzed, for rounds or until removed.
    Paralyzed {
        /// Rounds (none: until removed).
        rounds: Option<u32>,
    },
    /// Falls asleep (helpless until wounded), for rounds or until removed.
    FallsAsleep {
        /// Rounds (none: until removed).
        rounds: Option<u32>,
    },
    /// Turned to stone (out of the battle).
    Petrified,
    /// Ability damage or drain to a physical ability.
    AbilityDamage {
        /// The ability (`str`, `dex`, `con`).
        ability: String,
        /// Points.
        amount: i32,
        /// The score left.
        left: i32,
    },
    /// Dies: Constitution 0.
    DiesOfConstitution,
    /// Negative levels gained.
    NegativeLevels {
        /// Levels gained.
        levels: u32,
        /// Levels in all.
        total: u32,
    },
    /// Dies: as many negative levels as Hit Dice.
    DiesOfNegativeLevels {
        /// Levels in all.
        total: u32,
        /// Its Hit Dice.
        hd: u32,
    },
    /// Temporary hit points gained (energy drain's 5 per level).
    TemporaryHp {
        /// Hit points.
        amount: i32,
    },
    /// Another dose of a poison already in its system.
    AnotherDose {
        /// The poison.
        ability: String,
        /// Rounds left in its frequency.
        rounds: u32,
        /// Its save DC.
        dc: i32,
    },
    /// Poisoned.
    Poisoned {
        /// The poison.
        ability: String,
    },
    /// Cured: two saves in a row (CRB "Poison").
    Cured {
        /// The poison.
        ability: String,
    },
    /// A gaze at the start of its turn: averted, or met (a save follows).
    Gaze {
        /// The gazing creature.
        source: usize,
        /// The gaze's name.
        ability: String,
        /// The d100 of averting its eyes.
        d100: u32,
        /// It averted its eyes.
        averted: bool,
    },
    /// A breath weapon.
    Breath {
        /// The breath's name.
        ability: String,
        /// The creature aimed at.
        target: usize,
        /// Damage rolled.
        damage: u32,
        /// Its Reflex DC.
        dc: i32,
        /// The creatures caught.
        caught: Vec<usize>,
        /// The round it can breathe again.
        again: u32,
    },
    /// Takes no damage from a breath (a save with evasion).
    NoDamage,
    /// Rend.
    Rends {
        /// The ability's name.
        ability: String,
        /// The target.
        target: usize,
    },
    /// Maintains a grab's hold on a foe (a won grapple check at the start of its turn).
    MaintainsHold {
        /// The foe held.
        target: usize,
    },
    /// Pins the foe it holds (a won maintenance check of a grapple that
    /// pins: a vampire's blood drain).
    Pins {
        /// The foe pinned.
        target: usize,
    },
    /// Uses a spell's effect as a supernatural ability (a golem's slow or haste).
    Uses {
        /// The ability's name.
        ability: String,
    },
    /// Lets go of a foe its grab held (at the start of its turn).
    LetsGo {
        /// The foe let go.
        target: usize,
    },
    /// Catches fire (a burn's failed Reflex save): fire damage at the start
    /// of each of its turns for `rounds` rounds.
    CatchesFire {
        /// Rounds it burns.
        rounds: u32,
    },
    /// Negative energy heals an undead creature.
    NegativeEnergyHeals {
        /// Hit points.
        amount: u32,
    },
    /// An incorporeal creature takes half (a magic weapon) or none (a nonmagical one).
    Incorporeal {
        /// A magic weapon: halved (else none).
        halved: bool,
        /// Damage before.
        from: u32,
        /// Damage kept.
        to: u32,
    },
    /// Regeneration stopped by a damage type.
    RegenerationStopped {
        /// The damage types that stopped it (empty: a hit of a weapon that overcomes it).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        by: Vec<String>,
        /// Through this round.
        through: u32,
    },
    /// Regeneration or fast healing at the start of its turn.
    Heals {
        /// Hit points restored.
        amount: u32,
        /// Hit points before.
        hp_before: i32,
        /// Hit points after.
        hp_after: i32,
        /// Nonlethal damage before.
        nonlethal_before: i32,
        /// Nonlethal damage after.
        nonlethal_after: i32,
    },
    /// Regeneration: lethal damage becomes nonlethal.
    RegenerationNonlethal {
        /// The damage.
        amount: u32,
    },
    /// Swallows the foe it held (swallow whole, or an engulf that functions as it).
    Swallows {
        /// The ability's name.
        ability: String,
        /// The foe swallowed.
        target: usize,
    },
    /// A swallowed creature cuts at its swallower's interior: an attack roll
    /// against the interior's AC, and the cutting damage so far.
    CutsInside {
        /// The d20.
        d20: i32,
        /// Its attack bonus.
        bonus: i32,
        /// The total.
        total: i32,
        /// The interior's Armor Class.
        ac: i32,
        /// Damage of this cut (0 on a miss).
        damage: u32,
        /// Cutting damage so far.
        cut: u32,
        /// Cutting damage that frees it.
        needed: u32,
    },
    /// A swallowed creature cuts its way out.
    CutsFree {
        /// The swallower.
        from: usize,
    },
    /// A swallowed creature escapes the grapple: back in the swallower's mouth, still grappled.
    BackInMouth {
        /// The swallower.
        from: usize,
    },
    /// A swallowed creature comes out of a swallower that fell.
    FallsOut {
        /// The swallower.
        from: usize,
    },
    /// Caught by an engulf (UMR "Engulf"): pinned inside the creature.
    Engulfed {
        /// The ability's name.
        ability: String,
        /// The engulfing creature.
        by: usize,
        /// How: `save` (a failed Reflex save), `attack_of_opportunity` (it
        /// attacked instead of saving), `helpless` (no save).
        how: EngulfedHow,
    },
    /// Avoids an engulf with its Reflex save.
    AvoidsEngulf {
        /// The engulfing creature.
        by: usize,
    },
    /// Having avoided an engulf, pushed aside out of the space where the engulfer ends its move.
    PushedAside {
        /// The engulfing creature.
        by: usize,
        /// The square it is pushed to.
        to: Pos,
    },
    /// An engulfed creature escapes the pin and is out beside the creature.
    EscapesEngulf {
        /// The engulfing creature.
        from: usize,
        /// The square it is out on (none: no free square beside, it stays
        /// off the map until it moves).
        to: Option<Pos>,
    },
    /// Sings its captivating song this round (a standard action; a harpy's).
    Sings {
        /// The ability's name.
        ability: String,
    },
    /// Fails its save against a song and is captivated by the singer.
    Captivated {
        /// The ability's name.
        ability: String,
        /// The singer.
        by: usize,
    },
    /// Splits instead of taking the damage of a hit (an ochre jelly hit by a
    /// slashing or piercing weapon, or by electricity): it keeps half its
    /// hit points and a copy with as many appears (`monster::split`).
    Splits {
        /// The ability's name.
        ability: String,
        /// Its hit points before the split.
        hp_before: i32,
        /// Its hit points after, and its copy's.
        hp: i32,
        /// The copy (none: no room for it on the map, or no row left).
        copy: Option<usize>,
        /// Where the copy appears.
        at: Option<Pos>,
    },
    /// Goes berserk (a golem's berserk, schema 10): its cumulative chance
    /// this round and the d% that fell within it; from now on it attacks
    /// the nearest living creature, friend or foe.
    Berserk {
        /// The ability's name.
        ability: String,
        /// The chance this round, in percent.
        chance: u32,
        /// The d% rolled.
        d100: u32,
    },
    /// A magical attack's energy heals it instead of harming it (a flesh
    /// golem's electricity, a clay golem's acid; schema 10).
    MagicHeals {
        /// The ability's name (`immunity to magic`).
        ability: String,
        /// The attack's damage types.
        types: Vec<String>,
        /// The damage it would otherwise deal.
        damage: u32,
        /// Hit points healed.
        healed: u32,
        /// Temporary hit points gained (the excess over its maximum).
        temp_hp: u32,
        /// It ended the slow on it.
        ends_spell: bool,
    },
    /// A magical attack's energy slows it (a flesh golem's fire or cold;
    /// schema 10): the slow's effect follows.
    MagicSlows {
        /// The ability's name (`immunity to magic`).
        ability: String,
        /// The attack's damage types.
        types: Vec<String>,
        /// Rounds it lasts.
        rounds: u32,
    },
    /// A rust monster's rust corrodes the metal armor or shield of `who`
    /// (schema 12): broken (its AC bonus halved, rounded down), or
    /// destroyed (no AC bonus) by a second touch.
    Rusts {
        /// The ability's name.
        ability: String,
        /// The item (`full plate`, `heavy steel shield`).
        item: String,
        /// Its AC bonus left.
        ac_left: i32,
        /// Destroyed (else broken).
        destroyed: bool,
    },
    /// Magical healing on a creature a clay golem wounded: the healer's
    /// caster level check (schema 10); a failure stops the healing.
    CursedWound {
        /// The ability's name.
        ability: String,
        /// The golem whose wound it bears.
        by: usize,
        /// The healer.
        healer: usize,
        /// The d20 rolled.
        d20: i32,
        /// The healer's caster level.
        bonus: i32,
        /// The check's DC.
        dc: i32,
        /// Whether the check succeeded (the healing works).
        overcome: bool,
    },
    /// Tries to dominate a creature (a standard action; a vampire's): the
    /// target's save or immunity follows.
    Dominates {
        /// The ability's name.
        ability: String,
        /// The creature it targets.
        target: usize,
    },
    /// Fails its save against a dominate and falls under the creature's
    /// control: it fights on its side from now on (`monster::dominate`).
    Dominated {
        /// The ability's name.
        ability: String,
        /// The dominating creature.
        by: usize,
    },
    /// A captivated creature's turn: it walks toward the singer, or stands
    /// beside it offering no resistance; it takes no other action.
    Captive {
        /// The singer.
        by: usize,
        /// Within 5 ft of the singer: it stands.
        beside: bool,
    },
}

/// A spell meeting a creature, an area or the battle (`Event::Spell`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SpellEvent {
    /// Its area holds no square.
    NoArea,
    /// Its area and the creatures in it.
    Covers {
        /// Squares in the area.
        squares: u32,
        /// The creatures inside.
        creatures: Vec<usize>,
    },
    /// The creature is immune to it.
    Immune,
    /// A globe around the creature keeps the spell out (Globe of Invulnerability).
    KeptOut,
    /// A sonic or language-dependent spell does not reach the creature in a magical silence.
    Unheard,
    /// Immune: affected by it already (Daze).
    ImmuneAlready,
    /// Disbelieves an illusion.
    Disbelieves,
    /// Slain by it.
    Slain,
    /// Warded against it (protection from evil against a compulsion).
    Warded,
    /// A zone lasts until a round (none: the battle).
    Lasts {
        /// The round it ends.
        until: Option<u32>,
    },
    /// A zone ends.
    ZoneEnds,
    /// Its caster dismisses it (a standard action; its areas end, schema 11).
    Dismissed,
    /// A moving area moves (Cloudkill): its new point of origin (schema 11).
    ZoneMoves {
        /// The new point of origin.
        to: Pos,
    },
    /// A spellstrike delivers a held touch spell.
    Delivered,
    /// Its caster directs its construct at a new target (a move action, schema 15).
    Redirected {
        /// The new target.
        target: usize,
    },
    /// Its construct is gone: its duration ran out, its caster died, or
    /// spell resistance dispelled it (schema 15).
    ConstructEnds,
    /// Its bearer's spell strikes back at a creature that hit the bearer
    /// in melee (Fire Shield, schema 16); the damage follows as a
    /// `spell_damage` event, or the attacker's spell resistance stops it.
    Retaliates {
        /// The creature that struck the bearer.
        attacker: usize,
    },
    /// Its caster shapes a spectral hand from its life force and loses
    /// these hit points until the spell ends (Spectral Hand, schema 17).
    HandFormed {
        /// Hit points lost.
        hp_lost: u32,
    },
    /// The caster's spectral hand carries this touch spell to its target
    /// (schema 17); the touch attack follows.
    ByHand {
        /// The creature touched.
        target: usize,
    },
    /// Its caster vanishes from `from` and appears on `to` (Dimension
    /// Door, schema 17).
    Teleports {
        /// Where it stood.
        from: Pos,
        /// Where it arrives.
        to: Pos,
    },
    /// The spot it named is taken: the caster stays (schema 17).
    NoArrival,
    /// The spectral hand's spell ended: the hit points it cost come back
    /// (schema 17).
    HandReturns {
        /// Hit points regained.
        hp: u32,
    },
    /// A spell resistance check: caster level + penetration against the SR.
    Resistance {
        /// The creature's spell resistance.
        sr: i32,
        /// The d20.
        d20: i32,
        /// Caster level + penetration.
        bonus: i32,
        /// Whether the caster overcame it.
        overcome: bool,
    },
    /// A dispel check against this spell, on a creature or a lasting area
    /// (one d20 for every spell a targeted dispel weighs).
    Dispel {
        /// The d20.
        d20: i32,
        /// The dispeller's caster level (capped).
        bonus: i32,
        /// 11 + the spell's caster level.
        dc: i32,
        /// Whether it was dispelled.
        dispelled: bool,
    },
}

/// What an effect of a spell did to a creature (`Event::SpellEffect`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SpellEffectEvent {
    /// Evades the damage (evasion).
    Evades,
    /// Takes none of the damage: its energy ward turns a successful
    /// Reflex save for half into no damage (Fire Shield, schema 16).
    WardedOff,
    /// Instantaneous conditions.
    Conditions {
        /// The conditions.
        conditions: Vec<ConditionId>,
    },
    /// Ability damage.
    AbilityDamage {
        /// Points.
        amount: i32,
        /// The ability (`str` … `cha`).
        ability: String,
    },
    /// Immune to negative levels.
    ImmuneToNegativeLevels,
    /// Negative levels gained.
    NegativeLevels {
        /// Levels.
        levels: i32,
    },
    /// Stabilized.
    Stabilized,
    /// A stable creature resumes dying.
    ResumesDying,
    /// Mirror images.
    MirrorImages {
        /// How many.
        images: u32,
    },
    /// Negative energy heals an undead instead of harming it.
    HealedByNegativeEnergy {
        /// Hit points.
        amount: u32,
    },
    /// Slain (a damage effect that slays at 0 hit points).
    Slain,
    /// Drops every weapon it holds (Command: drop).
    DropsHeld,
    /// Its size category changes (Enlarge Person, Reduce Person).
    Resized {
        /// Its size now.
        size: crate::model::Size,
    },
    /// Not enough room to grow: it keeps its size, and the spell's size
    /// bonuses and penalties do not apply (`docs/rules/spells.md`, "Size changes").
    NoRoomToGrow,
    /// A combat maneuver check the spell makes against the creature (Black
    /// Tentacles: one d20 a round for every creature in its area).
    Maneuver {
        /// The maneuver (`grapple`).
        maneuver: crate::effects::Maneuver,
        /// The d20, shared by every creature the round's check meets.
        d20: i32,
        /// The spell's CMB, with its bonus against a creature it already grapples.
        bonus: i32,
        /// d20 + bonus.
        total: i32,
        /// The creature's CMD.
        cmd: i32,
        /// The spell already grapples it (a check to maintain the grapple).
        holding: bool,
        /// Whether the check succeeded (a natural 20 does, a natural 1 does not).
        success: bool,
    },
}

/// What a monk's ki point buys (`Event::Ki`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KiPower {
    /// One more attack at the highest bonus in this turn's flurry.
    ExtraAttack,
    /// +4 dodge bonus to AC until the monk's next turn.
    Dodge,
}

/// What came of a Stunning Fist (`Event::StunningFist`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StunOutcome {
    /// The attack missed: the use is lost.
    Missed,
    /// The attack hit but dealt no damage.
    NoDamage,
    /// The target fell to the blow.
    Down,
    /// The target cannot be stunned (construct, ooze, plant, undead, immune to critical hits).
    Immune,
    /// The target made its Fortitude save.
    Saved,
    /// The target is stunned until the start of the attacker's next turn.
    Stunned,
}

/// Why an effect ended (`Event::EffectEnds`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EffectEnd {
    /// Its duration ran out.
    WearsOff,
    /// Ended (its spell or its holder).
    Ends,
    /// A one-use bonus spent.
    Spent,
    /// A charge discharged (a ward against a hit).
    Discharged,
    /// Dispelled.
    Dispelled,
    /// A new ward replaces it.
    NewWard,
    /// Its holder left the area.
    OutOfArea,
    /// Shaken off by a save.
    ShakenOff,
    /// Broken: its holder is threatened.
    BrokenThreatened,
    /// Ended: its holder attacked (invisibility, sanctuary).
    Attacked,
    /// Ended: its holder was wounded (sleep).
    Wounded,
    /// No image left.
    NoImageLeft,
    /// Healed.
    Healed,
    /// Used up.
    UsedUp,
    /// Its holder broke free of the bonds (`combat::bonds`).
    BrokenFree,
    /// Its grappler failed to maintain the grapple (Black Tentacles).
    Released,
}

/// The check a creature makes to break free of bonds or to move through them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EscapeSkill {
    /// An Escape Artist check.
    EscapeArtist,
    /// A Strength check.
    Strength,
    /// A combat maneuver check.
    Cmb,
    /// An Acrobatics check (to move on Grease).
    Acrobatics,
}

/// What happens to a creature's turn (`Event::Turn`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TurnEvent {
    /// Loses its turn to conditions.
    LosesTurn {
        /// The conditions.
        conditions: Vec<ConditionId>,
    },
    /// Confused: the d% and what it does.
    Confused {
        /// The d%.
        d100: u32,
        /// What it does.
        act: ConfusedAct,
    },
    /// Spends its turn breaking free (a failed save against a lasting hold).
    BreaksFree,
    /// A curse's chance to lose the turn.
    Cursed {
        /// The d%.
        d100: u32,
        /// The chance.
        percent: u8,
    },
    /// Cannot bring itself to attack a sanctuary's holder.
    Sanctuary {
        /// The warded creature.
        target: usize,
    },
    /// Takes an immediate action.
    ImmediateAction,
    /// Pounces: a full attack at the end of a charge.
    Pounces,
    /// A run's Constitution check (Endurance).
    RunEndurance {
        /// The d20.
        d20: i32,
        /// Its bonus.
        bonus: i32,
        /// The DC.
        dc: i32,
        /// Whether it runs on.
        ok: bool,
    },
}

/// What a confused creature does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "act", rename_all = "snake_case")]
pub enum ConfusedAct {
    /// Acts normally.
    ActsNormally,
    /// Babbles incoherently.
    Babbles,
    /// Hurts itself.
    HurtsItself {
        /// Damage.
        damage: u32,
        /// Hit points before.
        hp: i32,
    },
    /// Attacks the nearest creature.
    Attacks {
        /// The creature.
        target: usize,
    },
    /// Nobody in reach to attack: babbles.
    NobodyInReach,
}

/// Class abilities (`Event::ClassAbility`): hexes, performance, magus,
/// gunslinger deeds, a lich's aura and touch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ClassAbilityEvent {
    /// A hex aimed at a creature (`evil_eye`, `slumber`, …).
    Hexes {
        /// The target.
        target: usize,
        /// The hex's name.
        hex: String,
        /// Its DC.
        dc: i32,
    },
    /// Immune to a mind-affecting hex.
    ImmuneMindAffecting,
    /// Immune to a mind-affecting sleep hex.
    ImmuneSleep,
    /// Cackles (extends its hexes).
    Cackles,
    /// Uses a domain, school or bloodline power (schema 10): on `target`
    /// (itself for a power on itself), with `left` uses of it left.
    UsesPower {
        /// The creature touched (the user for copycat).
        target: usize,
        /// The power's name (`touch of evil`).
        power: String,
        /// Uses of it left today.
        left: u32,
    },
    /// A power's touch hit a creature it cannot affect (immune to its
    /// condition or to fear; schema 10).
    ImmunePower {
        /// The power's name.
        power: String,
    },
    /// Begins to inspire courage.
    InspiresCourage {
        /// The bonus.
        bonus: i32,
    },
    /// Stops performing.
    StopsPerforming,
    /// Spell combat without its attack.
    SpellCombatNoAttack {
        /// The reason code.
        reason: String,
    },
    /// Spellstrike with a weapon.
    Spellstrike {
        /// The weapon.
        weapon: String,
    },
    /// Arcane Accuracy (a magus arcana): one arcane pool point for an
    /// insight bonus on its attack rolls until the end of its turn.
    Accuracy {
        /// The insight bonus on its attack rolls this turn.
        bonus: i32,
        /// Arcane pool points left.
        pool: u32,
    },
    /// Arcane pool: a weapon enhanced.
    Enhances {
        /// The weapon.
        weapon: String,
        /// The enhancement.
        bonus: i32,
        /// Arcane pool points left.
        pool: u32,
    },
    /// One grit spent on a deed (`deadeye`, `up_close_and_deadly`).
    GritSpent {
        /// The deed.
        deed: String,
        /// Grit left.
        grit: u32,
    },
    /// Quick clear: a broken firearm works again.
    QuickClear {
        /// The weapon.
        weapon: String,
        /// Grit left.
        grit: u32,
    },
    /// Gunslinger's dodge: +2 AC.
    GunslingersDodge {
        /// Grit left.
        grit: u32,
    },
    /// A lich's fear aura reaches a creature.
    FearAura {
        /// The creature.
        target: usize,
    },
    /// Paralyzed by a lich's touch.
    LichTouch,
}

/// The smaller combat rules (`Event::Combat`): riders of an attack, weapons,
/// attacks of opportunity, aid another, Power Attack.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CombatEvent {
    /// Cannot touch a creature warded against its alignment.
    CannotTouch {
        /// The warded creature.
        target: usize,
    },
    /// Rolls twice (fortune or misfortune).
    RollsTwice {
        /// The first d20.
        first: i32,
        /// The second.
        second: i32,
    },
    /// Up close and deadly's damage on a miss.
    UpCloseGrazes {
        /// The target.
        target: usize,
        /// Damage.
        amount: u32,
    },
    /// Damage reduction absorbs damage.
    DamageReduction {
        /// Damage prevented.
        absorbed: u32,
    },
    /// Picks up its weapon.
    PicksUp {
        /// The weapon.
        weapon: String,
    },
    /// Repairs its weapon.
    Repairs {
        /// The weapon.
        weapon: String,
    },
    /// Power Attack declared.
    PowerAttack {
        /// The penalty (positive) on melee attack rolls and CMB.
        penalty: i32,
        /// The bonus to damage.
        damage: i32,
    },
    /// An attack of opportunity not taken: the mover has total concealment.
    AooSuppressed {
        /// The mover.
        target: usize,
    },
    /// An attack of opportunity on a creature moving through its space.
    AooMovesThrough {
        /// The mover.
        target: usize,
    },
    /// Aid another: d20 + attack bonus against 10.
    AidAnother {
        /// The ally helped.
        target: usize,
        /// On its attack (else its AC).
        attack: bool,
        /// The d20.
        d20: i32,
        /// The bonus.
        bonus: i32,
        /// The DC (10).
        dc: i32,
        /// The bonus given when it succeeds, else 0.
        given: i32,
    },
}

/// Nonlethal damage and its thresholds (`Event::Nonlethal`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NonlethalState {
    /// Takes nonlethal damage.
    Takes,
    /// Staggered: nonlethal damage equals its hit points.
    Staggered,
    /// Unconscious: nonlethal damage exceeds its hit points.
    Unconscious,
    /// Wakes up: healing brought nonlethal damage below its hit points.
    WakesUp,
}

/// Why a rider left its mount (`MountedEvent::Falls`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DismountCause {
    /// The mount died or fell unconscious.
    MountDown,
    /// The mount was knocked prone (tripped).
    MountProne,
    /// The rider was knocked unconscious and slid off.
    Unconscious,
    /// The rider died.
    Dead,
    /// A foe's lance knocked it off (Unseat).
    Unseated,
}

/// Mounted combat (CRB "Mounted Combat", "Ride"; `Event::Mounted`, whose
/// `who` is the rider).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MountedEvent {
    /// In the saddle at the start of the battle: the mount acts on its
    /// rider's initiative count.
    Rides {
        /// The mount.
        mount: usize,
    },
    /// A charge on horseback: the mount's charge carries the rider, whose
    /// weapon deals `mult` times damage (2: a lance; 3: a lance with
    /// Spirited Charge; 2: another weapon with Spirited Charge; 1: none).
    Charges {
        /// The mount.
        mount: usize,
        /// The foe charged.
        target: usize,
        /// The rider's weapon.
        weapon: String,
        /// The damage multiplier.
        mult: u32,
    },
    /// Mounted Combat: a Ride check against the attack roll that hit the mount.
    Shields {
        /// The mount.
        mount: usize,
        /// The attacker.
        attacker: usize,
        /// The d20.
        d20: i32,
        /// The Ride bonus.
        bonus: i32,
        /// The attack roll to beat.
        attack: i32,
        /// Whether the hit is negated (Ride result greater than the attack roll).
        negated: bool,
    },
    /// Directing a combat-trained mount to attack: Ride DC 10, a free action.
    Directs {
        /// The mount.
        mount: usize,
        /// The d20.
        d20: i32,
        /// The Ride bonus.
        bonus: i32,
        /// The DC.
        dc: i32,
        /// Whether the mount attacks.
        ok: bool,
    },
    /// Knocked unconscious, the rider stays in the saddle (a 50% chance, 75% in a military saddle).
    StaysInSaddle {
        /// The mount.
        mount: usize,
        /// The chance it had, in percent.
        chance: u32,
    },
    /// The rider leaves the saddle: a Ride check DC 15 to fall softly when
    /// the mount falls (none when unconscious or dead), else 1d6 damage and prone.
    Falls {
        /// The mount.
        mount: usize,
        /// Why.
        cause: DismountCause,
        /// The Ride check, if one was made: d20 and bonus against 15.
        ride: Option<(i32, i32)>,
        /// Damage taken.
        damage: u32,
        /// Whether it lands prone.
        prone: bool,
        /// Where it lands.
        to: Pos,
    },
    /// Unseat: the free bull rush after a lance hit of a mounted charge on a rider.
    Unseats {
        /// The rider hit.
        target: usize,
        /// The d20.
        d20: i32,
        /// The combat maneuver bonus.
        cmb: i32,
        /// The target's CMD.
        cmd: i32,
        /// Whether the target is knocked off.
        ok: bool,
    },
}
