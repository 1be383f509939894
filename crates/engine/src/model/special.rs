//! Monster special abilities the engine plays, as data (Bestiary, Universal
//! Monster Rules): each entry of a combatant's `special_abilities` names a
//! `special` feature of its `features` and gives the numbers its primitive
//! needs (`combat::monster`). A feature without an entry is not played and
//! says why in `docs/bestiary.md`.

use serde::{Deserialize, Serialize};

/// The five energy types of PF1e: the keys of resistances and what
/// vulnerabilities, breath weapons and energy immunities name.
pub const ENERGY_TYPES: &[&str] = &["acid", "cold", "electricity", "fire", "sonic"];

/// One played special ability.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum SpecialAbility {
    /// A breath weapon: an area, damage, a save for half, then unusable for
    /// `recharge` rounds (UMR "Breath Weapon").
    BreathWeapon {
        /// The feature it plays.
        name: String,
        /// Line or cone.
        shape: BreathShape,
        /// Length of the line or cone.
        range_ft: u32,
        /// Damage dice (`6d6`).
        damage: String,
        /// Damage types (`acid`, `cold`, `fire`…).
        types: Vec<String>,
        /// Reflex save DC (half damage on a success).
        dc: i32,
        /// Rounds before it can breathe again (`1d4`).
        #[serde(default = "default_recharge")]
        recharge: String,
    },
    /// Regeneration (UMR "Regeneration"): heals `amount` a round; damage is
    /// nonlethal except from `stopped_by` types, which stop it for a round.
    Regeneration {
        /// The feature it plays.
        name: String,
        /// Hit points healed at the start of each of its turns.
        amount: u32,
        /// Damage types that deal lethal damage and stop it (`acid`, `fire`).
        stopped_by: Vec<String>,
    },
    /// Fast healing (UMR "Fast Healing"): heals `amount` at the start of each turn.
    FastHealing {
        /// The feature it plays.
        name: String,
        /// Hit points healed at the start of each of its turns.
        amount: u32,
    },
    /// An effect of a hit with some of its attacks, with a save.
    OnHit {
        /// The feature it plays.
        name: String,
        /// Attack names (or ids) that carry it; empty: every natural attack.
        #[serde(default)]
        attacks: Vec<String>,
        /// The save against it (`fort`, `ref`, `will`); none for trip and grab.
        #[serde(default)]
        save: Option<SaveName>,
        /// Its DC (for trip and grab: unused, the maneuver roll decides).
        #[serde(default)]
        dc: i32,
        /// What a failed save does.
        effect: HitEffect,
        /// Features that make a target immune (`elven immunities` against a
        /// ghoul's paralysis).
        #[serde(default)]
        immune_features: Vec<String>,
    },
    /// Pounce (UMR): a full attack at the end of a charge.
    Pounce {
        /// The feature it plays.
        name: String,
    },
    /// Rend (UMR): extra damage once a round when two hits of `attack` strike one foe.
    Rend {
        /// The feature it plays.
        name: String,
        /// The attack whose two hits rend (`claw`).
        attack: String,
        /// Damage dice (`1d6+7`).
        damage: String,
        /// Damage types.
        #[serde(default)]
        types: Vec<String>,
    },
    /// Incorporeal (UMR): no damage from nonmagical weapons, half from magic ones.
    Incorporeal {
        /// The feature it plays.
        name: String,
    },
    /// Energy vulnerability (UMR "Vulnerabilities"): +50 % damage of `types`,
    /// whether or not a save is allowed.
    Vulnerability {
        /// The feature it plays (`vulnerability to fire`).
        name: String,
        /// Energy types (`fire`).
        types: Vec<String>,
    },
    /// Energy fortitude (a shambling mound's "Electric Fortitude (Ex)":
    /// "take no damage from electricity. Instead, any electricity attack
    /// used against a shambling mound temporarily increases its
    /// Constitution score by 1d4 points"): each attack or spell of `types`
    /// that reaches it raises its Constitution by `con` for the battle.
    /// Those types must be among its `immunities` (the "no damage").
    EnergyFortitude {
        /// The feature it plays.
        name: String,
        /// Energy types (`electricity`).
        types: Vec<String>,
        /// Constitution gained each time (`1d4`).
        con: String,
    },
    /// Channel resistance (UMR "Channel Resistance"): `bonus` on saves
    /// against channeled energy.
    ChannelResistance {
        /// The feature it plays.
        name: String,
        /// The bonus on those saves (`2`, `4`).
        bonus: i32,
    },
    /// An aura (UMR "Aura"; a mummy's despair, a troglodyte's stench, a
    /// bone devil's fear aura; frightful presence is one too): each enemy
    /// that starts its turn within `range_ft` saves once per battle or gains
    /// `condition` for `rounds` (dice; the whole battle when absent).
    Aura {
        /// The feature it plays.
        name: String,
        /// Radius of the aura.
        range_ft: u32,
        /// Its save (`fort`, `will`).
        save: SaveName,
        /// Its DC.
        dc: i32,
        /// The condition a failed save gives (`paralyzed`, `frightened`,
        /// `shaken`, `sickened`…: a condition name of the engine); or
        /// `penalty` instead.
        #[serde(default)]
        condition: Option<String>,
        /// In place of a condition: −`penalty` on attack rolls, AC and saves
        /// (the archons' aura of menace: 2).
        #[serde(default)]
        penalty: Option<i32>,
        /// The effect ends when the creature hits the aura's owner (aura of menace).
        #[serde(default)]
        until_hit: bool,
        /// Duration dice (`1d4`, `10`); the battle when absent.
        #[serde(default)]
        rounds: Option<String>,
        /// A creature that fails its save meets the aura again at the start
        /// of its next turn, until it saves (a gibbering mouther's
        /// gibbering: confused 1 round, "a creature that saves cannot be
        /// affected ... for 24 hours"); else one save per battle.
        #[serde(default)]
        repeats: bool,
        /// Descriptors of the effect (`fear`, `mind_affecting`, `poison`):
        /// a creature immune to one of them is unaffected, and save
        /// modifiers against them apply.
        #[serde(default)]
        descriptors: Vec<String>,
    },
    /// Staggered (a zombie's: UMR "Staggered"): a single move or standard action each turn, always.
    Staggered {
        /// The feature it plays.
        name: String,
    },
    /// Ferocity (UMR "Ferocity"): below 0 hit points it stays conscious and
    /// fights on, staggered, losing 1 hit point a round, until it dies at −Con.
    Ferocity {
        /// The feature it plays.
        name: String,
    },
    /// A wolverine's rage (Bestiary, Wolverine): once wounded, from its next
    /// turn to the end of the battle, +4 Strength, +4 Constitution, −2 AC.
    Rage {
        /// The feature it plays.
        name: String,
    },
    /// Smite evil or smite good of the celestial and fiendish templates
    /// (Bestiary, Simple Templates): as a swift action against one foe of
    /// that alignment, + Charisma bonus on attack rolls, + Hit Dice on damage
    /// rolls, damage reduction bypassed and + Charisma bonus deflection AC
    /// against it, until it dies; its uses are `resources.smite_evil` or
    /// `resources.smite_good`.
    Smite {
        /// The feature it plays (`smite evil`).
        name: String,
        /// The alignment it punishes.
        against: SmiteAgainst,
    },
    /// Constrict (UMR "Constrict"): `damage` each time its grab's grapple
    /// check succeeds (the grab, and each maintained hold), and `plus`.
    Constrict {
        /// The feature it plays.
        name: String,
        /// Damage dice (`2d6+7`), bludgeoning.
        damage: String,
        /// Further damage each constriction deals, with its own types (an
        /// ochre jelly's "2d4+3 plus 1d4 acid"): energy immunity and
        /// resistance apply per component, and `spares` (not `harms`).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        plus: Vec<super::DamageComponent>,
    },
    /// Rake (UMR "Rake"): `count` extra attacks against a foe it grapples,
    /// at the start of a turn it began holding that foe and maintains the
    /// hold, and at the end of a pounce.
    Rake {
        /// The feature it plays.
        name: String,
        /// The attack entry the rakes are made like (reach, damage types,
        /// critical range): a claw or talon of the file.
        attack: String,
        /// Attack bonus of each rake, as printed.
        attack_bonus: i32,
        /// Damage dice of each rake (`1d3+3`).
        damage: String,
        /// Number of rakes (2).
        #[serde(default = "two")]
        count: u32,
    },
    /// Powerful charge (UMR "Powerful Charge"): at the end of a charge the
    /// creature attacks with `attack` at the printed bonus and damage.
    PowerfulCharge {
        /// The feature it plays.
        name: String,
        /// The attack entry it charges with (`gore`).
        attack: String,
        /// Attack bonus as printed (the charge's +2 included).
        attack_bonus: i32,
        /// Damage dice (`2d6+6`).
        damage: String,
    },
    /// An effect on the foe its grab holds, each round it maintains the hold
    /// (a chuul's paralytic tentacles, a gibbering mouther's blood drain):
    /// `damage` without an attack roll, then `effect` unless `save` succeeds
    /// (no save: always). It needs a grab (an `on_hit` entry with `grab`).
    WhileHolding {
        /// The feature it plays.
        name: String,
        /// Damage dice dealt each round (`1d8+7`), if any.
        #[serde(default)]
        damage: Option<String>,
        /// Types of that damage (empty: untyped, like a constriction).
        #[serde(default)]
        types: Vec<String>,
        /// The save against `effect`; none: it always applies.
        #[serde(default)]
        save: Option<SaveName>,
        /// Its DC.
        #[serde(default)]
        dc: i32,
        /// What a failed save does (paralysis, ability damage or drain,
        /// energy drain), if anything besides the damage.
        #[serde(default)]
        effect: Option<HitEffect>,
        /// Hit points the holder heals each round it acts on a foe that is
        /// not immune (a vampire's blood drain: 5); at full hit points it
        /// gains them as temporary hit points instead.
        #[serde(default)]
        heals: u32,
        /// The creature grapples for it by an action of its own, having no
        /// grab (a vampire's blood drain, a succubus's kiss): a standard
        /// action starting a grapple at its CMB (provoking unless it has
        /// Improved Grapple), held on later turns by a maintenance check
        /// while that pays.
        #[serde(default)]
        grapples: bool,
        /// Each won maintenance check pins the foe, and the entry acts on a
        /// pinned foe (the vampire drains "if [it] establishes or maintains a pin").
        #[serde(default)]
        pins: bool,
    },
    /// Swallow whole (UMR "Swallow Whole"; a gibbering mouther's engulf
    /// "functions as swallow whole"): a foe held in the mouth (`attack`, which
    /// carries a grab) at the start of the creature's turn is swallowed on a
    /// won grapple check (taking the attack's damage); inside, it takes
    /// `damage` (and `effect`) each round, and cuts its way out with a light
    /// slashing or piercing weapon (`hp` damage against AC `ac`) or escapes
    /// the grapple back into the mouth.
    SwallowWhole {
        /// The feature it plays (`swallow whole`, `engulf`).
        name: String,
        /// The mouth: the attack whose grab holds the foe it swallows.
        attack: String,
        /// Damage dice each round inside (`2d6+9`).
        damage: String,
        /// Types of that damage (`bludgeoning`, `fire`…; empty: untyped).
        #[serde(default)]
        types: Vec<String>,
        /// What being inside also does each round, without a save (a
        /// gibbering mouther's 2 Con damage): ability damage or drain, or
        /// energy drain.
        #[serde(default)]
        effect: Option<HitEffect>,
        /// Armor Class of the interior (printed; normally 10 + half the natural armor).
        ac: i32,
        /// Cutting damage needed to get free (printed; 1/10 of the creature's hit points).
        hp: u32,
        /// How many size categories smaller than the creature a foe must be
        /// (1: "up to one size category smaller"; 0: its size or smaller).
        #[serde(default = "one_size")]
        smaller: u8,
        /// How many creatures it holds inside at once (none: no limit).
        #[serde(default)]
        capacity: Option<u32>,
        /// After a foe cuts its way out it can swallow again (the mouther
        /// "simply flows together again"); else not for the rest of the battle.
        #[serde(default)]
        reforms: bool,
    },
    /// Engulf by movement (UMR "Engulf"; a gelatinous cube's): as a
    /// standard action the creature moves up to its speed in a straight
    /// line over foes no more than `smaller` size categories below it
    /// (0: its size or smaller), no slam that round. Each foe it covers
    /// makes an attack of opportunity (then no save) or a Reflex save
    /// against `dc` (pushed aside on a success); a caught foe is engulfed:
    /// pinned inside, it takes `damage` and the `riders` (names of `on_hit`
    /// entries whose save and effect apply) when caught and at the start
    /// of each of the creature's turns, until it escapes the pin.
    Engulf {
        /// The feature it plays (`engulf`).
        name: String,
        /// The Reflex save DC (Strength-based).
        dc: i32,
        /// Damage dice when caught and each round inside (`1d6`).
        damage: String,
        /// Types of that damage (`acid`; empty: untyped).
        #[serde(default)]
        types: Vec<String>,
        /// `on_hit` entries whose save and effect an engulfed foe also
        /// meets (the cube's paralysis).
        #[serde(default)]
        riders: Vec<String>,
        /// Size categories below the creature a foe must be (0: its size or smaller).
        #[serde(default)]
        smaller: u8,
    },
    /// Trample (UMR "Trample"): as a full-round action the creature moves
    /// up to its speed in a straight line over foes at least `smaller` size
    /// categories below it (an overrun without a check). Each foe it covers
    /// makes an attack of opportunity at −4 (then takes the full damage) or
    /// a Reflex save against `dc` for half; `damage` (the printed trample
    /// damage: slam + 1½ × Strength modifier) once a round per foe.
    Trample {
        /// The feature it plays (`trample`).
        name: String,
        /// Damage dice (`2d8+15`).
        damage: String,
        /// Damage types (default: bludgeoning, as a slam's).
        #[serde(default = "bludgeoning")]
        types: Vec<String>,
        /// The Reflex save DC (10 + ½ HD + Strength modifier, printed).
        dc: i32,
        /// Size categories below the creature a foe must be (default 1:
        /// "at least one size category smaller").
        #[serde(default = "one_size")]
        smaller: u8,
    },
    /// A spell's effect used as a supernatural ability, a free action at
    /// the start of the creature's turn (a stone golem's slow, a clay
    /// golem's haste): the spell `spell` of the library, applied without
    /// spell resistance at caster level `rounds` (its duration, for the
    /// spells of rounds per level) and save DC `dc`, to every other
    /// creature within `burst_ft` of it, or to itself when 0.
    SpellEffect {
        /// The feature it plays.
        name: String,
        /// The spell (a name of `data/spells`).
        spell: String,
        /// Radius of the burst centred on the creature; 0: itself.
        #[serde(default)]
        burst_ft: u32,
        /// The save DC of the spell's save (none: the spell's save is not rolled, on itself).
        #[serde(default)]
        dc: i32,
        /// Its duration in rounds: the caster level it is applied at.
        rounds: u32,
        /// Rounds from one use to the next (2: once every 2 rounds).
        #[serde(default = "one")]
        every: u32,
        /// Uses a battle (a day's uses: none, no limit).
        #[serde(default)]
        uses: Option<u32>,
        /// Rounds of combat it must have fought first (the clay golem's 1).
        #[serde(default)]
        after_rounds: u32,
    },
    /// A thrown web or rope that entangles (UMR "Web"; an erinyes' rope, as
    /// *animate rope*): a ranged touch attack as a standard action, `uses`
    /// times a battle; a hit (and a failed Reflex save when `save_dc` is
    /// given) entangles the target until it breaks free (`combat::bonds`):
    /// Escape Artist against `escape_dc`, or a Strength check against
    /// `burst_dc` (a web's −4 on bursting folded in), as `escape_action`.
    Entangle {
        /// The feature it plays (`web`, `entangle`).
        name: String,
        /// Farthest reach of the throw.
        range_ft: u32,
        /// Range increment (−2 per increment beyond the first); none: no range penalty.
        #[serde(default)]
        range_increment_ft: Option<u32>,
        /// Throws per battle (the web's 8 a day).
        uses: u32,
        /// Reflex save DC that avoids it after a hit (the rope); none: no save.
        #[serde(default)]
        save_dc: Option<i32>,
        /// Escape Artist DC to slip free.
        escape_dc: i32,
        /// Strength check DC to burst it; none: it cannot be burst.
        #[serde(default)]
        burst_dc: Option<i32>,
        /// The action an attempt takes.
        #[serde(default)]
        escape_action: EscapeActionName,
        /// It holds targets at most this many sizes larger than the thrower
        /// (a web: 1); none: any size (the rope).
        #[serde(default)]
        larger_sizes: Option<u8>,
        /// It holds one foe at a time (a single rope): no throw while a foe is held.
        #[serde(default)]
        one_at_a_time: bool,
    },
    /// A harpy's captivating song (Bestiary, Harpy; a siren's captivation
    /// "functions exactly like" it): singing is a standard action; each
    /// enemy within `range_ft` that has not saved against this singer makes
    /// a Will save against `dc` or is captivated: it moves toward the singer
    /// and takes no other action, and beside it offers no resistance to its
    /// attacks, for as long as the singer sings and 1 round thereafter. A
    /// success makes it immune for 24 hours (the battle).
    CaptivatingSong {
        /// The feature it plays.
        name: String,
        /// Radius of the spread (300 ft).
        range_ft: u32,
        /// The Will save DC.
        dc: i32,
        /// Descriptors of the effect (`sonic`, `mind_affecting`, `charm`): a
        /// creature immune to one of them is unaffected, and save modifiers
        /// against them apply.
        #[serde(default)]
        descriptors: Vec<String>,
    },
    /// A vampire's dominate (Bestiary, Vampire, "Dominate (Su)"): a
    /// standard action against one creature of `creature_types` within
    /// `range_ft`; a Will save against `dc` or it falls under the
    /// creature's control "as though by a *dominate person* spell"
    /// (`combat::monster::dominate`).
    Dominate {
        /// The feature it plays.
        name: String,
        /// Range of the ability (30 ft.).
        range_ft: u32,
        /// The Will save DC.
        dc: i32,
        /// The creature types it affects (`humanoid`); empty: any.
        #[serde(default)]
        creature_types: Vec<crate::spell::model::CreatureType>,
        /// Descriptors of the effect (`mind_affecting`, `compulsion`): a
        /// creature immune to one of them is unaffected, save modifiers
        /// against them apply, and a ward against the user's alignment
        /// (*protection from evil*) blocks a compulsion.
        #[serde(default)]
        descriptors: Vec<String>,
    },
    /// Split (UMR "Split"; an ochre jelly's, a black pudding's): a hit
    /// with a component all of whose types are in `types` (slashing,
    /// piercing, electricity) deals the creature no damage but splits it
    /// into two, each with half its current hit points (rounded down);
    /// with `min_hp` hit points or fewer it does not split and takes the
    /// damage (`combat::monster::split`).
    Split {
        /// The feature it plays.
        name: String,
        /// Damage types that split it.
        types: Vec<String>,
        /// At this many hit points or fewer it cannot split (10).
        min_hp: i32,
    },
    /// The exceptions to a golem's immunity to magic that a battle can
    /// reach (Bestiary, Golem, Flesh and Clay, "Immunity to Magic"): a
    /// magical attack (a spell) dealing one of `heals` heals it 1 hit point
    /// per `heal_per` points of damage it would otherwise deal (the excess
    /// over its maximum as temporary hit points), and ends the effects of
    /// `spell` when `heal_ends_spell`; one dealing one of `spell_types`
    /// puts the library's `spell` on it for `rounds` (dice), no save
    /// (`combat::monster::golem`).
    MagicEnergy {
        /// The feature it plays (`immunity to magic`).
        name: String,
        /// Energy types whose magical attacks heal it (`electricity`, `acid`).
        #[serde(default)]
        heals: Vec<String>,
        /// Points of damage per hit point healed (3).
        #[serde(default = "three")]
        heal_per: u32,
        /// Energy types whose magical attacks put `spell` on it (`cold`, `fire`).
        #[serde(default)]
        spell_types: Vec<String>,
        /// The spell they put on it (`Slow`, a name of `data/spells`).
        #[serde(default)]
        spell: Option<String>,
        /// How long, in rounds (dice: `2d6`).
        #[serde(default)]
        rounds: Option<String>,
        /// A heal ends the effects of `spell` on it (a flesh golem's electricity ends its slow).
        #[serde(default)]
        heal_ends_spell: bool,
    },
    /// A golem's berserk (Bestiary, Golem, Flesh and Clay, "Berserk"): from
    /// its first round of combat, a cumulative `percent` % chance each round
    /// that it goes berserk; then it attacks the nearest living creature,
    /// friend or foe, for the rest of the battle (`combat::monster::golem`).
    Berserk {
        /// The feature it plays.
        name: String,
        /// The chance it adds each round, in percent (1).
        #[serde(default = "one")]
        percent: u32,
    },
    /// A clay golem's cursed wound (Bestiary, Golem, Clay, "Cursed Wound"):
    /// magical healing on a creature it damaged needs a caster level check
    /// against `dc` or has no effect (`combat::monster::golem`).
    CursedWound {
        /// The feature it plays.
        name: String,
        /// The caster level check's DC (26).
        dc: i32,
    },
    /// A limited supply of a ranged attack (Bestiary, Manticore, "Spikes":
    /// "only 24 spikes in any 24-hour period", "a range of 180 feet with no
    /// range increment"): `shots` shots of `attack` for the day, none
    /// beyond `max_range_ft`.
    Supply {
        /// The feature it plays (`spike supply`).
        name: String,
        /// The ranged attack (name or id) it limits.
        attack: String,
        /// Shots for the day (24).
        shots: u32,
        /// The farthest shot (180 ft.); absent: its range increments decide.
        #[serde(default)]
        max_range_ft: Option<u32>,
    },
    /// A ranged touch attack made as a free action once a round, dealing
    /// no damage of its own (a gibbering mouther's spittle: "Each round as a
    /// free action, a gibbering mouther can emit a stream of acidic spittle
    /// at one target within 30 feet. On a successful attack, the target is
    /// blinded for 1d4 rounds unless he succeeds on a DC 18 Fortitude
    /// save"): at the start of the creature's turn, at one foe within
    /// `range_ft` (no range increment), BAB + Dexterity + size against touch
    /// AC; a hit, then a failed `save`, gives `effect`
    /// (`combat::monster::spittle`).
    Spittle {
        /// The feature it plays.
        name: String,
        /// The farthest target.
        range_ft: u32,
        /// The save against the effect.
        save: SaveName,
        /// Its DC.
        dc: i32,
        /// What a hit and a failed save do (blindness: a `condition`).
        effect: HitEffect,
    },
    /// A gaze attack (UMR "Gaze"): each enemy starting its turn within range saves or suffers.
    Gaze {
        /// The feature it plays.
        name: String,
        /// Range of the gaze.
        range_ft: u32,
        /// Its save (`fort`, `will`).
        save: SaveName,
        /// Its DC.
        dc: i32,
        /// What a failed save does.
        effect: HitEffect,
    },
    /// Blindsight (UMR "Blindsight and Blindsense"): within `range_ft` the
    /// creature fights as well as a sighted one, and invisibility, darkness
    /// and concealment are irrelevant to it; `living_only` for a lifesense
    /// that notices only living creatures (a wraith's).
    Blindsight {
        /// The feature it plays (`blindsight`, `lifesense`).
        name: String,
        /// Its range.
        range_ft: u32,
        /// Whether it notices only living creatures (not undead or constructs).
        #[serde(default)]
        living_only: bool,
    },
}

fn two() -> u32 {
    2
}

fn three() -> u32 {
    3
}

/// The action an attempt to break free of an entangling attack takes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EscapeActionName {
    /// A move action.
    Move,
    /// A standard action (UMR "Web").
    #[default]
    Standard,
    /// A full-round action (a net, an *animate rope*).
    FullRound,
}

fn one_size() -> u8 {
    1
}

fn bludgeoning() -> Vec<String> {
    vec!["bludgeoning".to_owned()]
}

fn default_recharge() -> String {
    "1d4".into()
}

/// The alignment a smite punishes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SmiteAgainst {
    /// Smite evil (the celestial template).
    Evil,
    /// Smite good (the fiendish template).
    Good,
}

impl SmiteAgainst {
    /// The `resources` key holding its uses.
    pub fn resource(self) -> &'static str {
        match self {
            SmiteAgainst::Evil => "smite_evil",
            SmiteAgainst::Good => "smite_good",
        }
    }
}

/// The shape of a breath weapon.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BreathShape {
    /// A line 5 ft wide.
    Line,
    /// A quarter circle from the breather's corner.
    Cone,
}

/// A save, as special abilities name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SaveName {
    /// Fortitude.
    Fort,
    /// Reflex.
    Ref,
    /// Will.
    Will,
}

/// An ability score an affliction harms (the physical three first; the
/// name is older than the mental ones, added in `pf1e-rules-13`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PhysicalAbility {
    /// Strength: attack and damage of Strength-based attacks, CMB.
    Str,
    /// Dexterity: AC, Reflex, ranged attacks.
    Dex,
    /// Constitution: hit points (Fortitude is not recomputed).
    Con,
    /// Intelligence: Intelligence-based skills; unconscious at 0.
    Int,
    /// Wisdom: Will saves, Wisdom-based skills; unconscious at 0.
    Wis,
    /// Charisma: Charisma-based skills; unconscious at 0.
    Cha,
}

impl PhysicalAbility {
    /// Its place in the order Str, Dex, Con, Int, Wis, Cha.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Whether it is Strength, Dexterity or Constitution.
    pub fn physical(self) -> bool {
        self.index() < 3
    }
}

/// What an on-hit rider or a gaze does to a creature that fails its save.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum HitEffect {
    /// Paralyzed for `rounds` (dice), or for the battle when absent.
    Paralysis {
        /// Duration dice (`1d4+1`).
        #[serde(default)]
        rounds: Option<String>,
    },
    /// Turned to stone: out of the battle (the stone form is helpless and lasts).
    Petrification {},
    /// Asleep (helpless) for `rounds` (dice), or for the battle when absent;
    /// a wound wakes it (a dark naga's poison).
    Sleep {
        /// Duration dice.
        #[serde(default)]
        rounds: Option<String>,
    },
    /// Ability damage now (`1d6` Con).
    AbilityDamage {
        /// The ability.
        ability: PhysicalAbility,
        /// Dice.
        amount: String,
    },
    /// Ability drain now (played as damage: nothing heals it in a battle).
    AbilityDrain {
        /// The ability.
        ability: PhysicalAbility,
        /// Dice.
        amount: String,
        /// Temporary hit points the attacker gains on each hit, saved or not (a wraith's 5).
        #[serde(default)]
        attacker_temp_hp: u32,
    },
    /// Negative levels (energy drain); the attacker gains 5 temporary hit points each.
    EnergyDrain {
        /// Negative levels per hit.
        levels: u32,
    },
    /// A poison as the SRD formats it: the save on the hit, then one save a
    /// round for `rounds` rounds; each failure deals the ability damage;
    /// `cure` consecutive successes end it.
    Poison {
        /// The ability.
        ability: PhysicalAbility,
        /// Dice per failed save.
        amount: String,
        /// Frequency: 1/round for this many rounds.
        rounds: u32,
        /// Consecutive saves that cure it.
        #[serde(default = "one")]
        cure: u32,
    },
    /// Burn (UMR "Burn"): `damage` fire on the hit, then a Reflex save or
    /// the target catches fire and takes `damage` fire at the start of each
    /// of its turns for `rounds` (dice) more rounds.
    Burn {
        /// Fire damage dice (`1d4`).
        damage: String,
        /// Rounds it burns (`1d4`).
        #[serde(default = "default_recharge")]
        rounds: String,
    },
    /// Bleed (CRB "Bleed"): the target loses `amount` hit points at the
    /// start of each of its turns until healed; bleeds do not stack (the
    /// worse counts). No save (a bearded devil's infernal wound).
    Bleed {
        /// Hit points a round (dice: `2`, `1d6`).
        amount: String,
    },
    /// A condition (an engine condition name: `blinded`, `nauseated`…) for
    /// `rounds` (dice), or for the battle when absent (a gibbering mouther's
    /// spittle: blinded 1d4 rounds).
    Condition {
        /// The condition's name.
        condition: String,
        /// Duration dice (`1d4`).
        #[serde(default)]
        rounds: Option<String>,
    },
    /// A rust monster's rust (Bestiary, Rust Monster, "Rust (Su)"): the
    /// metal armor or shield it touches gains the broken condition (its AC
    /// bonus halved, rounded down; CRB "Broken"), a second touch destroys
    /// it (no AC bonus); an attended item saves (the `save` and `dc` of the
    /// entry) with the better of its wearer's bonus and its own
    /// (`combat::monster::rust`).
    Rust {},
    /// A free trip attempt on a hit (the attacker's CMB against the target's CMD).
    Trip {},
    /// A free grapple attempt on a hit (grab); its hold is kept on later
    /// turns (a `constrict` entry gives the damage of each check won).
    Grab {},
}

fn one() -> u32 {
    1
}

impl SpecialAbility {
    /// The feature it plays.
    pub fn name(&self) -> &str {
        match self {
            SpecialAbility::BreathWeapon { name, .. }
            | SpecialAbility::Regeneration { name, .. }
            | SpecialAbility::FastHealing { name, .. }
            | SpecialAbility::OnHit { name, .. }
            | SpecialAbility::Pounce { name }
            | SpecialAbility::Rend { name, .. }
            | SpecialAbility::Incorporeal { name }
            | SpecialAbility::Vulnerability { name, .. }
            | SpecialAbility::EnergyFortitude { name, .. }
            | SpecialAbility::ChannelResistance { name, .. }
            | SpecialAbility::Aura { name, .. }
            | SpecialAbility::Staggered { name }
            | SpecialAbility::Ferocity { name }
            | SpecialAbility::Smite { name, .. }
            | SpecialAbility::Rage { name }
            | SpecialAbility::Rake { name, .. }
            | SpecialAbility::Constrict { name, .. }
            | SpecialAbility::PowerfulCharge { name, .. }
            | SpecialAbility::WhileHolding { name, .. }
            | SpecialAbility::SwallowWhole { name, .. }
            | SpecialAbility::Engulf { name, .. }
            | SpecialAbility::Trample { name, .. }
            | SpecialAbility::SpellEffect { name, .. }
            | SpecialAbility::Entangle { name, .. }
            | SpecialAbility::CaptivatingSong { name, .. }
            | SpecialAbility::Dominate { name, .. }
            | SpecialAbility::Split { name, .. }
            | SpecialAbility::MagicEnergy { name, .. }
            | SpecialAbility::Berserk { name, .. }
            | SpecialAbility::CursedWound { name, .. }
            | SpecialAbility::Supply { name, .. }
            | SpecialAbility::Spittle { name, .. }
            | SpecialAbility::Gaze { name, .. }
            | SpecialAbility::Blindsight { name, .. } => name,
        }
    }
}

/// Checks `c.special_abilities`: each names a feature of the file, its dice
/// parse, its attacks exist. A failure is (JSON path, reason).
pub(crate) fn check(c: &super::Combatant) -> Result<(), (String, String)> {
    use crate::dice::DiceExpr;
    for (k, a) in c.special_abilities.iter().enumerate() {
        let at = |field: &str| format!("$.special_abilities[{k}]{field}");
        if !c.has_feature(a.name()) {
            return Err((at(".name"), format!("no feature named {:?} in `features`", a.name())));
        }
        let dice = |field: &str, text: &str| {
            DiceExpr::parse(text).map(|_| ()).map_err(|e| (at(field), format!("{text:?}: {e}")))
        };
        let effect = |e: &HitEffect| match e {
            HitEffect::Paralysis { rounds: Some(r) } => dice(".effect.paralysis.rounds", r),
            HitEffect::Sleep { rounds: Some(r) } => dice(".effect.sleep.rounds", r),
            HitEffect::AbilityDamage { amount, .. }
            | HitEffect::AbilityDrain { amount, .. }
            | HitEffect::Poison { amount, .. } => dice(".effect.amount", amount),
            HitEffect::Bleed { amount } => dice(".effect.bleed.amount", amount),
            HitEffect::Burn { damage, rounds } => {
                dice(".effect.burn.damage", damage)?;
                dice(".effect.burn.rounds", rounds)
            }
            HitEffect::Condition { condition, rounds } => {
                if crate::effects::ConditionId::from_name(condition).is_none() {
                    return Err((
                        at(".effect.condition.condition"),
                        format!("{condition:?} is not a condition name"),
                    ));
                }
                rounds.as_ref().map_or(Ok(()), |r| dice(".effect.condition.rounds", r))
            }
            _ => Ok(()),
        };
        let grabs = || {
            c.special_abilities
                .iter()
                .any(|x| matches!(x, SpecialAbility::OnHit { effect: HitEffect::Grab {}, .. }))
        };
        match a {
            SpecialAbility::BreathWeapon { damage, recharge, range_ft, .. } => {
                dice(".damage", damage)?;
                dice(".recharge", recharge)?;
                if *range_ft < 5 {
                    return Err((at(".range_ft"), "a breath weapon reaches at least 5 ft".into()));
                }
            }
            SpecialAbility::Rend { damage, attack, .. } => {
                dice(".damage", damage)?;
                if !c.attacks.iter().any(|x| x.name == *attack || x.weapon_id() == attack) {
                    return Err((at(".attack"), format!("no attack named {attack:?}")));
                }
            }
            SpecialAbility::Constrict { damage, plus, .. } => {
                dice(".damage", damage)?;
                // The components' own fields are checked with every damage
                // component's (`validate::check_special_components`).
                for (j, p) in plus.iter().enumerate() {
                    if !p.harms.is_empty() {
                        return Err((
                            at(&format!(".plus[{j}].harms")),
                            "a constriction's damage takes `spares`, not `harms`".into(),
                        ));
                    }
                }
                if !grabs() {
                    return Err((
                        at(".kind"),
                        "constrict needs a grab (an `on_hit` entry with `grab`)".into(),
                    ));
                }
            }
            SpecialAbility::Rake { damage, attack, count, .. } => {
                dice(".damage", damage)?;
                if !c.attacks.iter().any(|x| (x.name == *attack || x.weapon_id() == attack) && x.natural) {
                    return Err((at(".attack"), format!("no natural attack named {attack:?}")));
                }
                if *count == 0 {
                    return Err((at(".count"), "a rake makes at least one attack".into()));
                }
            }
            SpecialAbility::PowerfulCharge { damage, attack, .. } => {
                dice(".damage", damage)?;
                if !c.attacks.iter().any(|x| {
                    (x.name == *attack || x.weapon_id() == attack) && x.kind == super::AttackKind::Melee
                }) {
                    return Err((at(".attack"), format!("no melee attack named {attack:?}")));
                }
            }
            SpecialAbility::OnHit { attacks, effect: e, save, .. } => {
                if let Some(x) =
                    attacks.iter().find(|x| !c.attacks.iter().any(|y| y.name == **x || y.weapon_id() == *x))
                {
                    return Err((at(".attacks"), format!("no attack named {x:?}")));
                }
                // Ability damage and drain may have no save (a lamia's
                // Wisdom-draining touch, a shadow's Strength damage).
                let no_save = matches!(
                    e,
                    HitEffect::Trip {}
                        | HitEffect::Grab { .. }
                        | HitEffect::EnergyDrain { .. }
                        | HitEffect::Bleed { .. }
                        | HitEffect::AbilityDamage { .. }
                        | HitEffect::AbilityDrain { .. }
                );
                if save.is_none() && !no_save {
                    return Err((at(".save"), "this effect needs a save".into()));
                }
                effect(e)?;
            }
            SpecialAbility::WhileHolding { damage, save, effect: e, grapples, pins, .. } => {
                if let Some(d) = damage {
                    dice(".damage", d)?;
                }
                match (grabs(), grapples) {
                    (false, false) => {
                        return Err((
                            at(".kind"),
                            "while_holding needs a grab (an `on_hit` entry with `grab`) or `grapples`".into(),
                        ));
                    }
                    (true, true) => {
                        return Err((
                            at(".grapples"),
                            "a creature with grab holds by its grab: `grapples` is for one without".into(),
                        ));
                    }
                    _ => {}
                }
                if *pins && !grapples {
                    return Err((at(".pins"), "`pins` needs `grapples`".into()));
                }
                match e {
                    Some(
                        HitEffect::Trip {}
                        | HitEffect::Grab {}
                        | HitEffect::Poison { .. }
                        | HitEffect::Burn { .. }
                        | HitEffect::Bleed { .. }
                        | HitEffect::Rust {}
                        | HitEffect::Condition { .. }
                        | HitEffect::Petrification {},
                    ) => {
                        return Err((
                            at(".effect"),
                            "a held foe's effect is paralysis, sleep, ability damage or drain, or energy drain"
                                .into(),
                        ));
                    }
                    Some(e) => effect(e)?,
                    None if damage.is_none() => {
                        return Err((at(".damage"), "while_holding deals damage or has an effect".into()));
                    }
                    None => {}
                }
                if save.is_some() && e.is_none() {
                    return Err((at(".save"), "a save needs an effect".into()));
                }
            }
            SpecialAbility::SwallowWhole { attack, damage, effect: e, hp, .. } => {
                dice(".damage", damage)?;
                let grabs_with = |x: &super::AttackSpec| {
                    c.special_abilities.iter().any(|r| match r {
                        SpecialAbility::OnHit { attacks, effect: HitEffect::Grab {}, .. } => {
                            if attacks.is_empty() {
                                x.natural
                            } else {
                                attacks.iter().any(|n| x.name == *n || x.weapon_id() == n)
                            }
                        }
                        _ => false,
                    })
                };
                if !c.attacks.iter().any(|x| (x.name == *attack || x.weapon_id() == attack) && grabs_with(x))
                {
                    return Err((
                        at(".attack"),
                        format!("no attack named {attack:?} that grabs (an `on_hit` entry with `grab`)"),
                    ));
                }
                if *hp == 0 {
                    return Err((at(".hp"), "cutting free needs at least 1 hit point of damage".into()));
                }
                match e {
                    Some(x @ (HitEffect::AbilityDamage { .. } | HitEffect::AbilityDrain { .. })) => {
                        effect(x)?
                    }
                    Some(HitEffect::EnergyDrain { .. }) | None => {}
                    Some(_) => {
                        return Err((
                            at(".effect"),
                            "being swallowed does ability damage or drain, or energy drain".into(),
                        ));
                    }
                }
            }
            SpecialAbility::Engulf { damage, dc, riders, .. } => {
                dice(".damage", damage)?;
                if *dc <= 0 {
                    return Err((at(".dc"), format!("a save DC is positive, not {dc}")));
                }
                let saved_rider = |n: &String| {
                    c.special_abilities
                        .iter()
                        .any(|r| matches!(r, SpecialAbility::OnHit { name, save: Some(_), .. } if name == n))
                };
                if let Some(n) = riders.iter().find(|n| !saved_rider(n)) {
                    return Err((at(".riders"), format!("no `on_hit` entry with a save named {n:?}")));
                }
            }
            SpecialAbility::Trample { damage, dc, smaller, .. } => {
                dice(".damage", damage)?;
                if *dc <= 0 {
                    return Err((at(".dc"), format!("a save DC is positive, not {dc}")));
                }
                if *smaller == 0 {
                    return Err((
                        at(".smaller"),
                        "a trample goes over smaller creatures only (at least 1)".into(),
                    ));
                }
            }
            SpecialAbility::Entangle { range_ft, uses, range_increment_ft, .. } => {
                if *range_ft == 0 {
                    return Err((at(".range_ft"), "a throw reaches at least 5 ft".into()));
                }
                if *uses == 0 {
                    return Err((at(".uses"), "at least one throw a battle".into()));
                }
                if *range_increment_ft == Some(0) {
                    return Err((at(".range_increment_ft"), "a range increment is at least 5 ft".into()));
                }
            }
            SpecialAbility::Vulnerability { types, .. } => {
                let energies = ENERGY_TYPES;
                if types.is_empty() {
                    return Err((at(".types"), "a vulnerability names at least one energy type".into()));
                }
                if let Some(t) = types.iter().find(|t| !energies.contains(&t.to_lowercase().as_str())) {
                    return Err((
                        at(".types"),
                        format!("{t:?} is not an energy type ({})", energies.join(", ")),
                    ));
                }
            }
            SpecialAbility::EnergyFortitude { types, con, .. } => {
                dice(".con", con)?;
                if types.is_empty() {
                    return Err((at(".types"), "an energy fortitude names at least one energy type".into()));
                }
                for t in types {
                    if !ENERGY_TYPES.contains(&t.to_lowercase().as_str()) {
                        return Err((
                            at(".types"),
                            format!("{t:?} is not an energy type ({})", ENERGY_TYPES.join(", ")),
                        ));
                    }
                    if !c.immunities.iter().any(|i| i.eq_ignore_ascii_case(t)) {
                        return Err((
                            at(".types"),
                            format!("{t:?} must also be in `immunities`: it deals the creature no damage"),
                        ));
                    }
                }
            }
            SpecialAbility::Aura { condition, penalty, rounds, descriptors, range_ft, .. } => {
                match (condition, penalty) {
                    (Some(condition), None) => {
                        if crate::effects::ConditionId::from_name(condition).is_none() {
                            return Err((at(".condition"), format!("{condition:?} is not a condition name")));
                        }
                    }
                    (None, Some(p)) if *p > 0 => {}
                    (None, Some(p)) => {
                        return Err((at(".penalty"), format!("a penalty is a positive number, not {p}")));
                    }
                    _ => {
                        return Err((
                            at(".condition"),
                            "an aura gives either a `condition` or a `penalty`".into(),
                        ));
                    }
                }
                if let Some(d) =
                    descriptors.iter().find(|d| crate::effects::Descriptor::from_name(d).is_none())
                {
                    return Err((at(".descriptors"), format!("{d:?} is not a descriptor name")));
                }
                if let Some(r) = rounds {
                    dice(".rounds", r)?;
                }
                if *range_ft < 5 {
                    return Err((at(".range_ft"), "an aura reaches at least 5 ft".into()));
                }
            }
            SpecialAbility::Smite { against, .. }
                if c.resources.get(against.resource()).copied().unwrap_or(0) == 0 =>
            {
                return Err((
                    at(".against"),
                    format!("a smite needs uses in `resources.{}`", against.resource()),
                ));
            }
            SpecialAbility::SpellEffect { rounds, every, uses, .. } => {
                if *rounds == 0 {
                    return Err((at(".rounds"), "a spell effect lasts at least 1 round".into()));
                }
                if *every == 0 {
                    return Err((at(".every"), "uses come at least 1 round apart".into()));
                }
                if *uses == Some(0) {
                    return Err((at(".uses"), "a spell effect with no use: remove the entry".into()));
                }
            }
            SpecialAbility::CaptivatingSong { range_ft, dc, descriptors, .. }
            | SpecialAbility::Dominate { range_ft, dc, descriptors, .. } => {
                if *range_ft < 5 {
                    return Err((at(".range_ft"), "its range is at least 5 ft".into()));
                }
                if *dc <= 0 {
                    return Err((at(".dc"), format!("a save DC is positive, not {dc}")));
                }
                if let Some(d) =
                    descriptors.iter().find(|d| crate::effects::Descriptor::from_name(d).is_none())
                {
                    return Err((at(".descriptors"), format!("{d:?} is not a descriptor name")));
                }
            }
            SpecialAbility::Split { types, min_hp, .. } => {
                if types.is_empty() {
                    return Err((at(".types"), "a split names the damage types that split it".into()));
                }
                if *min_hp < 1 {
                    return Err((at(".min_hp"), format!("a split needs at least 1 hit point, not {min_hp}")));
                }
            }
            SpecialAbility::MagicEnergy {
                heals,
                heal_per,
                spell_types,
                spell,
                rounds,
                heal_ends_spell,
                ..
            } => {
                let energies = ENERGY_TYPES;
                for (field, list) in [(".heals", heals), (".spell_types", spell_types)] {
                    if let Some(t) = list.iter().find(|t| !energies.contains(&t.to_lowercase().as_str())) {
                        return Err((
                            at(field),
                            format!("{t:?} is not an energy type ({})", energies.join(", ")),
                        ));
                    }
                }
                if heals.is_empty() && spell_types.is_empty() {
                    return Err((
                        at(".heals"),
                        "names the energy types that heal it or put `spell` on it".into(),
                    ));
                }
                if *heal_per == 0 {
                    return Err((at(".heal_per"), "at least 1 point of damage per hit point healed".into()));
                }
                match (spell_types.is_empty(), spell, rounds) {
                    (false, Some(_), Some(r)) => dice(".rounds", r)?,
                    (false, None, _) => return Err((at(".spell"), "`spell_types` needs a `spell`".into())),
                    (false, Some(_), None) => {
                        return Err((at(".rounds"), "`spell` needs `rounds` (dice)".into()));
                    }
                    (true, Some(_), _) => {
                        return Err((at(".spell_types"), "`spell` needs `spell_types`".into()));
                    }
                    (true, None, _) => {}
                }
                if *heal_ends_spell && spell.is_none() {
                    return Err((at(".heal_ends_spell"), "`heal_ends_spell` needs a `spell`".into()));
                }
            }
            SpecialAbility::Berserk { percent, .. } if !(1..=100).contains(percent) => {
                return Err((at(".percent"), format!("a chance in 1..=100 %, not {percent}")));
            }
            SpecialAbility::CursedWound { dc, .. } if *dc <= 0 => {
                return Err((at(".dc"), format!("a DC is positive, not {dc}")));
            }
            SpecialAbility::Supply { attack, shots, max_range_ft, .. } => {
                if !c.attacks.iter().any(|x| {
                    (x.name == *attack || x.weapon_id() == attack) && x.kind == super::AttackKind::Ranged
                }) {
                    return Err((at(".attack"), format!("no ranged attack named {attack:?}")));
                }
                if *shots == 0 {
                    return Err((at(".shots"), "at least one shot".into()));
                }
                if let Some(ft) = max_range_ft
                    && (*ft == 0 || !ft.is_multiple_of(5))
                {
                    return Err((at(".max_range_ft"), format!("a positive multiple of 5 ft, not {ft}")));
                }
            }
            SpecialAbility::ChannelResistance { bonus, .. } if *bonus <= 0 => {
                return Err((at(".bonus"), format!("channel resistance is a positive bonus, not {bonus}")));
            }
            SpecialAbility::Gaze { effect: e, .. } => {
                if matches!(
                    e,
                    HitEffect::Trip {}
                        | HitEffect::Grab { .. }
                        | HitEffect::Poison { .. }
                        | HitEffect::Burn { .. }
                        | HitEffect::Bleed { .. }
                        | HitEffect::Rust {}
                ) {
                    return Err((
                        at(".effect"),
                        "a gaze cannot trip, grab, poison, burn, bleed or rust".into(),
                    ));
                }
                effect(e)?;
            }
            SpecialAbility::Spittle { effect: e, range_ft, dc, .. } => {
                if matches!(
                    e,
                    HitEffect::Trip {}
                        | HitEffect::Grab { .. }
                        | HitEffect::Poison { .. }
                        | HitEffect::Burn { .. }
                        | HitEffect::Rust {}
                ) {
                    return Err((at(".effect"), "a spittle cannot trip, grab, poison, burn or rust".into()));
                }
                if *range_ft < 5 {
                    return Err((at(".range_ft"), "a spittle reaches at least 5 ft".into()));
                }
                if *dc <= 0 {
                    return Err((at(".dc"), format!("a save DC is positive, not {dc}")));
                }
                effect(e)?;
            }
            _ => {}
        }
    }
    Ok(())
}
