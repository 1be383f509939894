//! Actions a policy can request, the budget slot of each kind, and what became of them.

use std::fmt;

use crate::effects::{ConditionId, Maneuver};
use crate::feats::{Deed, Hex};
use crate::map::Pos;

use super::spells::Metamagic;

/// The budget slot an action kind occupies (CRB "Actions in Combat").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Slot {
    /// A standard action.
    Standard,
    /// A move action (a second one may take the place of the standard action).
    Move,
    /// A full-round action: uses both the standard and the move action.
    FullRound,
    /// A swift action (one per turn).
    Swift,
    /// Free or conditional: not counted against the budget.
    Free,
}

crate::named_enum! {
    /// What a combatant wants to do. Kinds not played by the engine yet are
    /// classified (so the budget is right) and answered with `unsupported_kind`.
    #[non_exhaustive]
    ActionKind {
        /// One attack (standard action).
        Attack => "attack",
        /// Every attack the combatant gets (full-round action).
        FullAttack => "full_attack",
        /// A move up to the combatant's speed (move action).
        Move => "move",
        /// A free 5-foot step that never provokes (exclusive with other movement).
        FiveFootStep => "5foot_step",
        /// Charge: straight line up to twice the speed, one attack at +2.
        Charge => "charge",
        /// Withdraw (full-round).
        Withdraw => "withdraw",
        /// Run (full-round).
        Run => "run",
        /// Stand up from prone (move action).
        StandUp => "stand_up",
        /// Drop prone (free action).
        DropProne => "drop_prone",
        /// Total defense (standard action).
        TotalDefense => "total_defense",
        /// Fight defensively: −4 on attacks for +2 dodge AC until the next turn
        /// (a free declaration applied to the attacks that follow).
        FightDefensively => "fight_defensively",
        /// Ready an action (standard action).
        Ready => "ready",
        /// Delay (taken as a standard action slot).
        Delay => "delay",
        /// Aid another (standard action).
        AidAnother => "aid_another",
        /// Do nothing (free).
        Wait => "wait",
        /// A generic swift action.
        Swift => "swift",
        /// A generic free action.
        Free => "free",
        /// A generic full-round action.
        FullRound => "full_round",
        /// An immediate action.
        Immediate => "immediate",
        /// Declare Power Attack for the turn (free action, `activate_power_attack`).
        PowerAttack => "activate_power_attack",
        /// A combat maneuver (`Action::maneuver`; standard action).
        Maneuver => "maneuver",
        /// Pick up a dropped weapon (move action).
        RetrieveWeapon => "retrieve_weapon",
        /// Repair a broken weapon (move action; seed simplification).
        RepairWeapon => "repair_weapon",
        /// Cast a spell (`Action::spell`); its slot follows the spell's cast time.
        CastSpell => "cast_spell",
        /// Touch a creature with a held charge (standard action).
        DischargeSpell => "discharge_spell",
        /// Channel energy (standard action): `option` 0 heals, 1 harms.
        ChannelEnergy => "channel_energy",
        /// A witch's hex (`Action::ability`; standard action, cackle a move action).
        Hex => "hex",
        /// A gunslinger's deed (`Action::ability`; its slot follows the deed).
        Deed => "deed",
        /// Start a bardic performance: inspire courage (standard action at levels 1-6).
        InspireCourage => "inspire_courage",
        /// Magus spell combat: cast a spell and make a full attack at −2 (full-round action).
        SpellCombat => "spell_combat",
        /// Spend an arcane pool point to enhance the weapon (swift action).
        ArcanePool => "arcane_pool",
        /// A magus's Arcane Accuracy (swift action, 1 arcane pool point).
        ArcaneAccuracy => "arcane_accuracy",
        /// A monster's breath weapon aimed at the target (standard action).
        BreathWeapon => "breath_weapon",
        /// Coup de grâce on a helpless foe within reach (full-round action).
        CoupDeGrace => "coup_de_grace",
        /// Declare a martial option for the turn (free action): `Action::option`
        /// is a `combat::Style` (Rapid Shot, Deadly Aim, Combat Expertise,
        /// two-weapon fighting, Cleave).
        Declare => "declare",
        /// Reload a crossbow or firearm (`Action::weapon`, else the first
        /// unloaded one); its slot follows the weapon's reload time (`combat::reload`).
        Reload => "reload",
        /// A cavalier's challenge against the target (swift action).
        Challenge => "challenge",
        /// A cavalier's tactician: its teamwork feats to allies within 30 ft (standard action).
        Tactician => "tactician",
        /// Order of the lion: lion's call (standard action).
        LionsCall => "lions_call",
        /// A ranger's hunter's bond against the target, a foe of a favored
        /// type: half the bonus to the allies within 30 ft (move action).
        HuntersBond => "hunters_bond",
        /// Drink or administer a potion, or use a wand (`Action::use_item`:
        /// `option` is the item's index in `FighterSpec::items`); its slot
        /// follows the item and whether it must be drawn first (`combat::consumables`).
        UseItem => "use_item",
        /// A celestial or fiendish creature's smite, or a paladin's smite
        /// evil, against the target (swift action).
        Smite => "smite",
        /// A barbarian's rage (free action on its turn).
        Rage => "rage",
        /// A paladin's lay on hands on the target (itself when none): a
        /// swift action on itself, a standard action on an ally.
        LayOnHands => "lay_on_hands",
        /// The Healing domain's Rebuke Death on the target, an ally below
        /// 0 hit points it touches (standard action).
        RebukeDeath => "rebuke_death",
        /// A domain, school or bloodline power (`Action::option`: its index
        /// in the user's powers; `combat::abilities::domain`): a melee touch
        /// on the target (standard action), or on itself (move action: copycat).
        DomainPower => "domain_power",
        /// Drink an alchemist's mutagen (standard action; `combat::abilities::alchemist`).
        Mutagen => "drink_mutagen",
        /// A monk's ki power (swift action): `option` 0 one more attack in
        /// this turn's flurry, 1 +4 dodge AC until its next turn.
        KiPool => "ki_pool",
        /// Stunning Fist declared for the next unarmed attack this turn (free action).
        StunningFist => "stunning_fist",
        /// Break free of bonds (entangled by Entangle or a web, grappled by
        /// Web; `combat::bonds`): its slot follows the bond (a move action
        /// for Entangle, a standard one for a web).
        BreakFree => "break_free",
        /// A monster's entangling throw at the target (a web, a rope; standard action).
        Entangle => "entangle",
        /// A monster's captivating song, sung this round (standard action; a harpy's).
        Sing => "sing",
        /// A monster's dominate on the target (standard action; a vampire's).
        Dominate => "dominate",
        /// A monster's engulf (standard action; a gelatinous cube's): a
        /// straight move to `destination` over the foes in its path.
        Engulf => "engulf",
        /// A monster's trample (full-round action; an elephant's): a
        /// straight move to `destination` over the smaller foes in its path.
        Trample => "trample",
        /// Leave the battle from an exit square (`combat::leave`): a move
        /// action; with a `destination` (an exit square), a withdraw there
        /// and off the map (full-round).
        LeaveBattle => "leave_battle",
        /// Dismiss a lasting area of the caster's (`Action::spell`; standard
        /// action, CRB "Duration: (D)"): every area of that spell it cast ends.
        DismissSpell => "dismiss_spell",
        /// Direct a spell construct of the caster's (`Action::spell`) to a
        /// new target (move action, CRB "Spiritual Weapon").
        RedirectSpell => "redirect_spell",
    }
}

impl ActionKind {
    /// The budget slot of the kind.
    pub const fn slot(self) -> Slot {
        match self {
            ActionKind::Attack
            | ActionKind::TotalDefense
            | ActionKind::Ready
            | ActionKind::Delay
            | ActionKind::AidAnother
            | ActionKind::Maneuver
            | ActionKind::CastSpell
            | ActionKind::DischargeSpell
            | ActionKind::ChannelEnergy
            | ActionKind::Hex
            | ActionKind::InspireCourage
            | ActionKind::Tactician
            | ActionKind::LionsCall
            | ActionKind::UseItem
            | ActionKind::LayOnHands
            | ActionKind::RebukeDeath
            | ActionKind::DomainPower
            | ActionKind::Mutagen
            | ActionKind::BreathWeapon
            | ActionKind::Entangle
            | ActionKind::Sing
            | ActionKind::Dominate
            | ActionKind::Engulf
            | ActionKind::DismissSpell => Slot::Standard,
            ActionKind::Move
            | ActionKind::StandUp
            | ActionKind::RetrieveWeapon
            | ActionKind::RepairWeapon
            | ActionKind::Reload
            | ActionKind::LeaveBattle
            | ActionKind::HuntersBond
            | ActionKind::RedirectSpell
            | ActionKind::BreakFree => Slot::Move,
            ActionKind::FullAttack
            | ActionKind::Charge
            | ActionKind::Withdraw
            | ActionKind::Run
            | ActionKind::FullRound
            | ActionKind::SpellCombat
            | ActionKind::CoupDeGrace
            | ActionKind::Trample => Slot::FullRound,
            ActionKind::Swift
            | ActionKind::Deed
            | ActionKind::ArcanePool
            | ActionKind::ArcaneAccuracy
            | ActionKind::Challenge
            | ActionKind::Smite
            | ActionKind::KiPool => Slot::Swift,
            ActionKind::FiveFootStep
            | ActionKind::DropProne
            | ActionKind::FightDefensively
            | ActionKind::Wait
            | ActionKind::Free
            | ActionKind::Immediate
            | ActionKind::PowerAttack
            | ActionKind::Rage
            | ActionKind::StunningFist
            | ActionKind::Declare => Slot::Free,
        }
    }
}

/// What aid another grants its beneficiary (CRB "Aid Another").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum AidMode {
    /// +2 on its next attack roll against the aided foe.
    #[default]
    Attack,
    /// +2 AC against the aided foe's next attack.
    Ac,
}

/// The event that sets off a readied action (CRB "Ready").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReadyTrigger {
    /// An enemy moves (any step of an enemy's movement).
    EnemyEntersReach,
    /// An enemy begins casting a spell.
    EnemyCasts,
    /// An enemy makes an attack roll.
    EnemyAttacks,
    /// An enemy damages an ally of the readying combatant.
    EnemyHitsAlly,
}

impl ReadyTrigger {
    /// The stable trigger name (`enemy_enters_reach`…).
    pub const fn name(self) -> &'static str {
        match self {
            ReadyTrigger::EnemyEntersReach => "enemy_enters_reach",
            ReadyTrigger::EnemyCasts => "enemy_casts",
            ReadyTrigger::EnemyAttacks => "enemy_attacks",
            ReadyTrigger::EnemyHitsAlly => "enemy_hits_ally",
        }
    }
}

/// One requested action: a kind and the optional target, destination and weapon.
///
/// `target` is a combatant index (`Encounter::combatants` order) and `weapon`
/// an index into the actor's `attacks`; both are resolved by the engine, which
/// answers a bad one with an `ActionResult` instead of a panic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Action {
    /// What to do.
    pub kind: ActionKind,
    /// The combatant aimed at (attack, charge, move toward…).
    pub target: Option<usize>,
    /// An explicit square to move to (move, 5-foot step).
    pub destination: Option<Pos>,
    /// An explicit attack to use, as an index into the actor's attacks.
    pub weapon: Option<usize>,
    /// What aid another grants (aid another only).
    pub aid: AidMode,
    /// What sets off the readied attack (ready only).
    pub trigger: Option<ReadyTrigger>,
    /// The maneuver (maneuver only).
    pub maneuver: Option<Maneuver>,
    /// Direction of a bull rush or reposition, as a (row, column) step of −1, 0 or 1.
    pub direction: Option<(i8, i8)>,
    /// The condition of a dirty trick (dazzled when omitted).
    pub trick: Option<ConditionId>,
    /// The spell (cast spell, spell combat): index into the encounter's spells
    /// (`PreparedEncounter::spell_index`).
    pub spell: Option<u16>,
    /// Metamagic feats applied to the spell.
    pub metamagic: Metamagic,
    /// Cast defensively (no attack of opportunity, a concentration check).
    pub defensive: bool,
    /// The option of a spell's choice (Command's order…); channel energy: 0 heals, 1 harms.
    pub option: u8,
    /// The hex or deed used.
    pub ability: Option<ClassAbilityUse>,
    /// The budget slot, when it depends on the spell or ability (set by the engine before the budget).
    pub slot: Option<Slot>,
    /// A move: the altitude in feet to climb or dive to first (fliers only; `combat::flight`).
    pub altitude: Option<u32>,
}

/// The class ability an action uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClassAbilityUse {
    /// A hex.
    Hex(Hex),
    /// A deed.
    Deed(Deed),
}

impl Action {
    /// An action of `kind` without target, destination or weapon.
    pub const fn new(kind: ActionKind) -> Self {
        Self {
            kind,
            target: None,
            destination: None,
            weapon: None,
            aid: AidMode::Attack,
            trigger: None,
            maneuver: None,
            direction: None,
            trick: None,
            spell: None,
            metamagic: Metamagic::NONE,
            defensive: false,
            option: 0,
            ability: None,
            slot: None,
            altitude: None,
        }
    }

    /// Using carried item `item` (an index into `FighterSpec::items`) on
    /// `target`: the user itself drinks a potion; an unconscious ally is
    /// given one; a wand's spell goes to the target.
    pub const fn use_item(item: u8, target: usize) -> Self {
        let mut a = Self::at(ActionKind::UseItem, target);
        a.option = item;
        a
    }

    /// Casting spell `spell` (an index into the encounter's spells) at `target`, if any.
    pub const fn cast(spell: u16, target: Option<usize>) -> Self {
        let mut a = Self::new(ActionKind::CastSpell);
        a.spell = Some(spell);
        a.target = target;
        a
    }

    /// The same action with metamagic.
    pub const fn with_metamagic(mut self, metamagic: Metamagic) -> Self {
        self.metamagic = metamagic;
        self
    }

    /// The same action, cast defensively.
    pub const fn defensively(mut self) -> Self {
        self.defensive = true;
        self
    }

    /// The same action with a choice option.
    pub const fn with_option(mut self, option: u8) -> Self {
        self.option = option;
        self
    }

    /// The same action with a class ability.
    pub const fn with_ability(mut self, ability: ClassAbilityUse) -> Self {
        self.ability = Some(ability);
        self
    }

    /// The budget slot of the action: the kind's, unless the engine set one
    /// from the spell or ability.
    pub const fn slot(&self) -> Slot {
        match self.slot {
            Some(s) => s,
            None => self.kind.slot(),
        }
    }

    /// An action of `kind` aimed at combatant `target`.
    pub const fn at(kind: ActionKind, target: usize) -> Self {
        let mut a = Self::new(kind);
        a.target = Some(target);
        a
    }

    /// A combat maneuver `m` against `target`.
    pub const fn maneuver(m: Maneuver, target: usize) -> Self {
        let mut a = Self::at(ActionKind::Maneuver, target);
        a.maneuver = Some(m);
        a
    }

    /// The same action with a direction (bull rush, reposition).
    pub const fn with_direction(mut self, dr: i8, dc: i8) -> Self {
        self.direction = Some((dr, dc));
        self
    }

    /// The same action with a dirty trick condition.
    pub const fn with_trick(mut self, condition: ConditionId) -> Self {
        self.trick = Some(condition);
        self
    }

    /// The same action with an explicit destination.
    pub const fn with_destination(mut self, destination: Pos) -> Self {
        self.destination = Some(destination);
        self
    }

    /// The same action with an aid another mode.
    pub const fn with_aid(mut self, aid: AidMode) -> Self {
        self.aid = aid;
        self
    }

    /// The same action with a ready trigger.
    pub const fn with_trigger(mut self, trigger: ReadyTrigger) -> Self {
        self.trigger = Some(trigger);
        self
    }

    /// The same move with an altitude to climb or dive to first.
    pub const fn with_altitude(mut self, feet: u32) -> Self {
        self.altitude = Some(feet);
        self
    }

    /// The same action with an explicit weapon (index into the actor's attacks).
    pub const fn with_weapon(mut self, weapon: usize) -> Self {
        self.weapon = Some(weapon);
        self
    }
}

/// Why an action failed or was not played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Reason {
    /// No target given, or the target is not an enemy able to fight.
    MissingTarget,
    /// The actor has no usable weapon for this action.
    NoWeapon,
    /// A weapon has the range but a solid barrier blocks the line of effect.
    NoLineOfEffect,
    /// No weapon reaches the target from here.
    OutOfRange,
    /// The destination cannot be reached (or no square to attack from is reachable).
    UnreachableDestination,
    /// The chosen `weapon` does not exist or cannot hit the target from here.
    WeaponUnavailable,
    /// No clear straight line to a square from which to attack (charge).
    NoChargePath,
    /// Exclusive with movement already taken this turn (5-foot step vs move).
    CannotCombine,
    /// The actor fell before the action could be played.
    ActorDown,
    /// A condition gained during its own turn (paralysis from an attack of
    /// opportunity, a stun) stops the rest of it (CRB "Paralyzed", "Stunned").
    CannotAct,
    /// Dropped by the action budget.
    DowngradedActionEconomy,
    /// Dropped because the actor is staggered (disabled at 0 hit points).
    DowngradedStaggered,
    /// The kind is classified but not played by this engine version.
    UnsupportedKind,
    /// Stand up while not prone.
    NotProne,
    /// Drop prone while already prone.
    AlreadyProne,
    /// A second delay in the same round.
    AlreadyDelayed,
    /// Played: the turn is delayed (an `ok` result carrying a reason).
    Delayed,
    /// Played: the action is readied (an `ok` result carrying a reason).
    Readied,
    /// Dropped by the surprise round allowance.
    DowngradedSurprise,
    /// Dropped: the swift action was spent on an immediate action.
    DowngradedImmediateSwift,
    /// A run refused while resting after running to the limit.
    Resting,
    /// A run stopped by a failed Constitution check.
    RunStopped,
    /// Dropped: a nauseated creature takes a single move action.
    DowngradedNauseated,
    /// Dropped: a pinned creature takes a single move action or tries to escape.
    DowngradedPinned,
    /// Dropped: the creature maintained a grab's hold (its standard action)
    /// at the start of its turn; a move action is left.
    DowngradedHolding,
    /// A condition forbids attacking (panicked).
    CannotAttack,
    /// A condition forbids moving (grappled, pinned, paralyzed).
    CannotMove,
    /// A condition forbids running and charging (fatigued, exhausted, entangled).
    CannotRunOrCharge,
    /// The actor lacks the feat the action needs (Power Attack).
    MissingFeat,
    /// A maneuver without its `maneuver`, or one the engine refuses as asked.
    MissingManeuver,
    /// Trip, bull rush, overrun, reposition or drag against a creature two or more sizes larger.
    TargetTooLarge,
    /// Disarm or sunder against a creature without a weapon to take; steal without an item.
    NothingToTake,
    /// Escape while not grappled.
    NotGrappled,
    /// Break free without bonds.
    NotBound,
    /// A dirty trick condition outside the six the APG allows.
    InvalidTrickCondition,
    /// Retrieve without a dropped weapon.
    NothingToRetrieve,
    /// Repair without a broken weapon.
    NothingToRepair,
    /// The actor does not know the spell (or casts none).
    UnknownSpell,
    /// The engine does not cast this spell (see `docs/rules/magic.md`).
    SpellNotPlayable,
    /// No spell slot of the level left.
    NoSlot,
    /// No such item, none left, or one its carrier cannot use (a wand off its spell list).
    NoItem,
    /// Coup de grâce on a creature that is not helpless.
    NotHelpless,
    /// Coup de grâce on a creature immune to critical hits.
    ImmuneToCriticals,
    /// A prepared caster has no prepared copy of the spell left with this metamagic.
    NotPrepared,
    /// A cast time longer than a round: not cast in a fight.
    DowngradedCastTime,
    /// A condition or effect forbids casting (nauseated, raging).
    CannotCast,
    /// The creatures of this summoning spell are still on the battlefield.
    SummonsPresent,
    /// No charge held.
    NothingHeld,
    /// The area's point is off the map or inside a wall.
    InvalidDestination,
    /// The actor lacks the class ability, or its pool is empty.
    NoAbility,
    /// Leaving the battle from a square that is not an exit (`Map::is_exit`).
    NotOnExit,
    /// The caster has no dismissible area of that spell on the map.
    NothingToDismiss,
    /// The caster directs no construct of that spell.
    NoConstruct,
    /// Its turn ended early (Dimension Door: no other action until its next turn).
    TurnEnded,
    /// A spell with a verbal component, cast in a magical silence (Silence).
    Silenced,
}

impl Reason {
    /// The stable reason code (`missing_target`, `downgraded:action_economy`…).
    pub const fn as_str(self) -> &'static str {
        match self {
            Reason::MissingTarget => "missing_target",
            Reason::NoWeapon => "no_weapon",
            Reason::NoLineOfEffect => "no_line_of_effect",
            Reason::OutOfRange => "out_of_range",
            Reason::UnreachableDestination => "unreachable_destination",
            Reason::WeaponUnavailable => "weapon_unavailable",
            Reason::NoChargePath => "no_charge_path",
            Reason::CannotCombine => "cannot_combine",
            Reason::ActorDown => "actor_down",
            Reason::CannotAct => "cannot_act",
            Reason::DowngradedActionEconomy => "downgraded:action_economy",
            Reason::DowngradedStaggered => "downgraded:staggered",
            Reason::UnsupportedKind => "unsupported_kind",
            Reason::NotProne => "not_prone",
            Reason::AlreadyProne => "already_prone",
            Reason::AlreadyDelayed => "already_delayed",
            Reason::Delayed => "delayed",
            Reason::Readied => "ready",
            Reason::DowngradedSurprise => "downgraded:surprise",
            Reason::DowngradedImmediateSwift => "downgraded:immediate_swift",
            Reason::Resting => "resting",
            Reason::RunStopped => "run_stopped",
            Reason::DowngradedNauseated => "downgraded:nauseated",
            Reason::DowngradedPinned => "downgraded:pinned",
            Reason::DowngradedHolding => "downgraded:holding",
            Reason::CannotAttack => "cannot_attack",
            Reason::CannotMove => "cannot_move",
            Reason::NotOnExit => "not_on_exit",
            Reason::NothingToDismiss => "nothing_to_dismiss",
            Reason::NoConstruct => "no_construct",
            Reason::TurnEnded => "turn_ended",
            Reason::Silenced => "silenced",
            Reason::CannotRunOrCharge => "cannot_run_or_charge",
            Reason::MissingFeat => "missing_feat",
            Reason::MissingManeuver => "missing_maneuver",
            Reason::TargetTooLarge => "target_too_large",
            Reason::NothingToTake => "nothing_to_take",
            Reason::NotGrappled => "not_grappled",
            Reason::NotBound => "not_bound",
            Reason::InvalidTrickCondition => "invalid_trick_condition",
            Reason::NothingToRetrieve => "nothing_to_retrieve",
            Reason::NothingToRepair => "nothing_to_repair",
            Reason::UnknownSpell => "unknown_spell",
            Reason::SpellNotPlayable => "spell_not_playable",
            Reason::NoSlot => "no_slot",
            Reason::NoItem => "no_item",
            Reason::NotPrepared => "not_prepared",
            Reason::NotHelpless => "not_helpless",
            Reason::ImmuneToCriticals => "immune_to_criticals",
            Reason::DowngradedCastTime => "downgraded:cast_time",
            Reason::CannotCast => "cannot_cast",
            Reason::SummonsPresent => "summons_present",
            Reason::NothingHeld => "nothing_held",
            Reason::InvalidDestination => "invalid_destination",
            Reason::NoAbility => "no_ability",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What became of one requested action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ActionResult {
    /// The kind actually played (a staggered full attack is played as an attack).
    pub kind: ActionKind,
    /// Whether the action was carried out.
    pub ok: bool,
    /// Why not, when `ok` is false.
    pub reason: Option<Reason>,
}

impl ActionResult {
    /// A successful action.
    pub const fn done(kind: ActionKind) -> Self {
        Self { kind, ok: true, reason: None }
    }

    /// A refused or dropped action.
    pub const fn failed(kind: ActionKind, reason: Reason) -> Self {
        Self { kind, ok: false, reason: Some(reason) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for &kind in ActionKind::ALL {
            assert_eq!(ActionKind::from_name(kind.name()), Some(kind));
        }
        assert_eq!(ActionKind::from_name("5foot_step"), Some(ActionKind::FiveFootStep));
        assert_eq!(ActionKind::from_name("fly"), None);
    }

    #[test]
    fn slots_follow_the_seed_classification() {
        assert_eq!(ActionKind::Attack.slot(), Slot::Standard);
        assert_eq!(ActionKind::Move.slot(), Slot::Move);
        assert_eq!(ActionKind::StandUp.slot(), Slot::Move);
        assert_eq!(ActionKind::FullAttack.slot(), Slot::FullRound);
        assert_eq!(ActionKind::Charge.slot(), Slot::FullRound);
        assert_eq!(ActionKind::Run.slot(), Slot::FullRound);
        assert_eq!(ActionKind::Withdraw.slot(), Slot::FullRound);
        assert_eq!(ActionKind::Swift.slot(), Slot::Swift);
        assert_eq!(ActionKind::FiveFootStep.slot(), Slot::Free);
        assert_eq!(ActionKind::Wait.slot(), Slot::Free);
        assert_eq!(Reason::DowngradedActionEconomy.as_str(), "downgraded:action_economy");
        assert_eq!(ActionKind::Maneuver.slot(), Slot::Standard);
        assert_eq!(ActionKind::RetrieveWeapon.slot(), Slot::Move);
        assert_eq!(ActionKind::RepairWeapon.slot(), Slot::Move);
        assert_eq!(ActionKind::PowerAttack.slot(), Slot::Free);
        assert_eq!(ActionKind::from_name("activate_power_attack"), Some(ActionKind::PowerAttack));
    }
}
