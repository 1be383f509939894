//! Deterministic Pathfinder 1e combat rules engine.
//!
//! A combat is a pure function of (encounter, options, seed, run index): the
//! layers above (sweeps, caching, clusters) rely on that. The engine knows
//! nothing of async, networking or storage, and renders nothing: a battle is
//! recorded as typed [`combat::event`]s, which the CLI renders in English or
//! French and prints as JSON Lines (`docs/events.md`).
//!
//! # One battle
//!
//! A map and the combatants of each side make an [`encounter::Encounter`];
//! prepared once ([`combat::PreparedEncounter`]), it plays run `i` of seed
//! `s` from the dice stream [`rng::SeededRng::for_run`]`(s, i)`. The files
//! of `data/` are read the same way ([`map::Map::load`],
//! [`model::load_combatant`]); here everything is written in place:
//!
//! ```
//! use std::sync::Arc;
//!
//! use pf1e_engine::combat::event::{AttackStep, Event};
//! use pf1e_engine::combat::{DefaultPolicy, PreparedEncounter, SimOptions, run_prepared};
//! use pf1e_engine::encounter::{Encounter, SideSpec};
//! use pf1e_engine::map::Map;
//! use pf1e_engine::model::parse_combatant;
//! use pf1e_engine::rng::SeededRng;
//!
//! // A corridor 30 ft long: the heroes deploy at its west end, the vermin at its east end.
//! let map = Map::from_yaml_str(
//!     r#"
//! name: corridor
//! square_size_ft: 5
//! terrain: |
//!   ......
//! legend:
//!   ".": { type: floor, move_cost: 1 }
//! zones: |
//!   A....B
//! deployment:
//!   heroes: A
//!   vermin: B
//! "#,
//!     "corridor.yaml",
//! )?;
//! let creature = |name: &str, hp: u32, ac: u32, bonus: i32, damage: &str| {
//!     parse_combatant(
//!         &format!(
//!             r#"{{"name": "{name}", "level": 1, "size": "Medium",
//!                "abilities": {{"str_score": 10, "dex_score": 10, "con_score": 10,
//!                               "int_score": 10, "wis_score": 10, "cha_score": 10}},
//!                "hp_max": {hp}, "ac": {{"total": {ac}, "touch": {ac}, "flat_footed": {ac}}},
//!                "bab": 1, "initiative_mod": 0, "speed_land_ft": 30,
//!                "saves": {{"fort": 0, "ref": 0, "will": 0}},
//!                "attacks": [{{"name": "blade", "kind": "melee", "attack_bonus": {bonus},
//!                              "damage": [{{"formula": "{damage}", "types": ["slashing"]}}]}}]}}"#
//!         ),
//!         name,
//!     )
//! };
//! // A knight who hits on anything but a natural 1 and kills in one blow,
//! // against a rat that can barely scratch it.
//! let knight = Arc::new(creature("knight", 40, 18, 20, "1d8+10")?);
//! let rat = Arc::new(creature("rat", 2, 10, 0, "1d2")?);
//! let sides = vec![
//!     SideSpec { name: "heroes".into(), combatants: vec![knight] },
//!     SideSpec { name: "vermin".into(), combatants: vec![rat] },
//! ];
//! let prepared = PreparedEncounter::new(&Encounter::build(Arc::new(map), sides)?)?;
//! let mut events = Vec::new();
//! let mut dice = SeededRng::for_run(7, 0);
//! let outcome = run_prepared(&prepared, &SimOptions::default(), &mut dice, Some(&mut events), &mut DefaultPolicy);
//!
//! assert_eq!(outcome.winner, Some(0), "the heroes win");
//! assert!(outcome.combatants[1].dead && !outcome.combatants[0].dead);
//! // The events say how: the knight's blow that hit the rat.
//! let blow = events.iter().find_map(|r| match &r.event {
//!     Event::Attack(a) if a.who == 0 && a.target == 1 && a.steps.iter().any(|s| matches!(s, AttackStep::Damage { .. })) => Some(a),
//!     _ => None,
//! });
//! assert!(blow.is_some_and(|a| a.total >= 10 + 1), "{events:?}");
//! // The same seed and run give the same battle; a battle nobody watches records nothing.
//! let again = run_prepared(&prepared, &SimOptions::default(), &mut SeededRng::for_run(7, 0), None, &mut DefaultPolicy);
//! assert_eq!(again, outcome);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Module map
//!
//! - [`combat`]: the turn loop and every rule, in three floors (data, rules,
//!   decisions: its module documentation); its [`combat::event`]s are what happened.
//! - [`contribution`]: who carries the fight (each combatant's share, the party without it).
//! - [`day`]: the adventuring day, encounters chained with resources carried over.
//! - [`dice`]: dice notation (`2d6+3`) and its rolls.
//! - [`difficulty`]: the encounter by the book (CR, XP, APL).
//! - [`effects`]: modifiers, bonus types and their stacking, conditions.
//! - [`encounter`]: sides placed on a map.
//! - [`feats`]: feats and class features by catalogue.
//! - [`grid`]: 5-10-5 distances, step costs, paths.
//! - [`library`]: the spells and creatures an encounter refers to.
//! - [`los`]: line of effect and cover by the corner rule.
//! - [`map`]: the battlefield file (terrain, elevation, deployment zones).
//! - [`metrics`]: rates, intervals, paired differences.
//! - [`model`]: combatant files and their validation.
//! - [`objectives`]: danger profiles and per-run outcomes.
//! - [`observe`]: what a policy outside the engine sees and may ask.
//! - [`party`]: the party's figures and the battle worth reading.
//! - [`report`]: the balance report's figures.
//! - [`rng`]: the seeded per-run dice streams.
//! - [`runner`]: many battles on a rayon pool.
//! - [`spell`]: spell files.
//! - [`strategy`]: the levers of a plan.
//! - [`summary`]: exact integer sums of a batch.
//!
//! [`RULES_VERSION`] names the rules every result was played with.

pub mod combat;
pub mod contribution;
pub mod day;
pub mod dice;
pub mod difficulty;
pub mod effects;
pub mod encounter;
pub mod feats;
pub mod grid;
pub mod library;
pub mod los;
pub mod map;
pub mod metrics;
pub mod model;
mod named;
pub mod objectives;
pub mod observe;
pub mod party;
pub mod report;
pub mod rng;
pub mod runner;
pub mod spell;
pub mod strategy;
pub mod summary;

/// Version of the rules implemented by this engine. Bump it whenever a rule
/// change can change an outcome: it is part of every cache key. The feature
/// catalogue (`data/feats.json`, compiled in) is part of the rules: changing
/// what an existing entry does is a rules change; adding an entry is not
/// (a file naming it was refused before).
///
/// `pf1e-rules-18`: trample (UMR "Trample", the elephant's), a `trample`
/// special ability and the monster policy's choice to trample; a flying
/// singer (the harpy) climbs out of melee reach to sing when unthreatened.
/// Also in `pf1e-rules-18`: the adventuring day carries the
/// effects that outlast a fight (a spell of minutes or hours with its
/// rounds left by the SRD, a lasting condition) into the next one, counts
/// down the time between fights (an encounter's `after`, a `wait`, a short
/// rest's 10 minutes, a night's 8 hours), and a poison running as a day's
/// fight ends runs its course then (`docs/days.md`).
///
/// `pf1e-rules-19`: a cleric's domain slots (`domain_slots`,
/// `domain_spells`: one slot per spell level that holds only a domain
/// spell, never given up for a spontaneous cure; Oni counts his two).
/// Also in `pf1e-rules-19`: the alchemist's bombs (an attack's
/// `splash_dc`, a Reflex save for half the splash, and `standard_action`,
/// no iterative attacks; the feature `Bomb`), poison resistance.
/// Also in `pf1e-rules-19`: the default policy lends a cavalier's tactician only when
/// it pays (an ally who receives Outflank and a partner who has it can stand
/// on opposite sides of a foe by their next turns), a mover with Outflank
/// ends its move flanking with a partner who has it, and a mounted rider
/// with a lance moves once and guards instead of closing past its next
/// charge (`docs/rules/class-abilities.md` §11).
/// Also: a buff potion is drunk before the fight is joined.
/// Also in `pf1e-rules-19`: a vampire's dominate (a `dominate` special ability:
/// its subject fights on the vampire's side, one new save at +2 against
/// its nature, released when the master falls) and the ochre jelly's split
/// (a `split` special ability: slashing and piercing weapons and
/// electricity split it into two of half its hit points, a copy appearing
/// in a reserved row); the ochre jelly no longer lists slashing, piercing
/// and electricity as immunities (below 11 hp they wound it).
/// `pf1e-rules-20`: domain, school and bloodline powers as actions
/// (`domain_power`, described once in `data/feats.json` and played for every
/// file that names them): touch of evil (sickened ½ level rounds), touch of
/// chaos (d20s rolled twice, worse kept, 1 round), bleeding touch (1d6 a
/// round for ½ level rounds, until healed), grave touch (shaken ½ level
/// rounds; frightened 1 round when already shaken and of fewer HD), copycat
/// (one mirror image for level rounds); 3 + ability modifier uses a day.
/// The default policy touches a foe within reach when the touch beats the
/// weapon and the best spell, and takes copycat with a turn's unused move
/// action near a foe. The Thrune agent (cleric 6) loses scythe of evil
/// (an 8th-level power).
///
/// Also in `pf1e-rules-20`: the golems' exceptions to their immunity to magic (a
/// `magic_energy` special ability: a flesh golem's electricity and a clay
/// golem's acid heal them 1 hp per 3, fire and cold slow a flesh golem
/// 2d6 rounds), their berserk (a `berserk` special ability: a cumulative
/// 1 % a round, then they attack the nearest living creature), the clay
/// golem's cursed wound (a `cursed_wound` special ability: magical healing
/// on a creature it damaged needs a DC 26 caster level check) and the
/// manticore's spike supply (a `supply` special ability: 24 spikes a day,
/// none beyond 180 ft.).
///
/// Also in `pf1e-rules-20`: scrolls are read in battle (CRB "Scrolls": spell
/// completion, the caster level check DC = the scroll's caster level + 1,
/// the DC 5 Wisdom check against a mishap) and Use Magic Device stands in
/// for a class list that lacks a wand's or scroll's spell (DC 20, 20 + the
/// caster level); the default policy reads a scroll of an offensive spell
/// it has no slot left for; lion's call is not called again while the
/// cavalier's call runs; a splash attack (a bomb) is not thrown where its
/// splash on a friend, counted twice, outweighs it; the `consumables`
/// lever (`use|save`), and strategies other than the default throw
/// splash flasks as the default policy does.
///
/// `pf1e-rules-21`: the ochre jelly's constriction deals its 1d4 acid
/// (a `constrict` entry's `plus`), and its acid spares constructs, oozes,
/// plants and incorporeal creatures (a damage component's `spares`); the
/// shambling mound's electric fortitude (an `energy_fortitude` entry:
/// each electricity attack raises its Constitution by 1d4 instead of
/// harming it); the default policy weighs a cure, a channel, a healing hex,
/// lay on hands or a healing potion on a clay golem's cursed-wound victim
/// by the chance of the caster level check, and spends none that cannot
/// succeed.
///
/// Also in `pf1e-rules-21`: areas aimed at a point (bursts, spreads, lasting
/// areas such as Black Tentacles) are aimed by the default policy where the
/// most active foes cluster (a foe's square or halfway between two), never
/// on an ally; a caster dismisses (standard action, action `dismiss_spell`)
/// its dismissible area that holds or harms as many allies as foes; an area
/// that ends releases the creatures its bonds hold (Black Tentacles, Web,
/// Entangle); Cloudkill moves 10 ft a round away from its caster.
///
/// Also in `pf1e-rules-21`: the best shot (`policy::ranged`): a shooter out of every
/// foe's reach weighs each of its ranged attacks by expected damage with the
/// range penalties of where it stands (an alchemist no longer bombs at −8
/// where his crossbow shoots at −2 and the bomb is worth less), and moves
/// first to a square no foe threatens when one move and one attack are worth
/// more than its full attack from here (the bomb or a firearm within fewer
/// increments, Point-Blank Shot within 30 ft). Fragile creatures
/// (`policy::fragile`: no ranged attack, none dealing 2 a round on average,
/// as a raven familiar's bite) withdraw from any foe that could reach them
/// and otherwise fight defensively while an ally still fights; a cavalier
/// also challenges before a move and a blow.
///
/// Also in `pf1e-rules-21`: the alchemist's mutagen (APG "Mutagen": `Mutagen
/// (Dexterity)`, a standard action that provokes, +4 alchemical to the
/// physical score, −2 to the matching mental one, +2 natural armor for 10
/// minutes a level, one dose a day); the default policy drinks it in the
/// first two rounds when no foe threatens the alchemist.
///
/// Also in `pf1e-rules-21`: a threatened caster weighs its best offensive
/// spell by the chance it goes off (its defensive concentration check, an
/// even chance when it provokes) before preferring it to its weapon.
///
/// `pf1e-rules-22`: a rust monster's rust (an `on_hit` rider with the
/// `rust` effect on its antennae, now an attack entry: a touch with no
/// damage): the metal armor or shield touched (`armor` and `shield` of a
/// file, `metal`) saves with the better of its wearer's Reflex and its own
/// (2 + ½ caster level for a magic one) or is broken (its AC bonus halved,
/// rounded down), then destroyed; a gibbering mouther's spittle (a
/// `spittle` entry: a ranged touch as a free action at the start of its
/// turn when no enemy threatens it, blinded 1d4 rounds on a failed
/// Fortitude save, a `condition` effect); a constriction is bludgeoning
/// damage that the held foe's damage reduction reduces (it was untyped and
/// ignored it). The PC files name their armor and mark metal shields.
///
/// Also in `pf1e-rules-22`: a Constitution mutagen's hit points (CRB "Ability Score
/// Bonuses": +2 per Hit Die on current and maximum hit points while it lasts,
/// taken from both when it ends, which may leave the alchemist dying; an
/// effect's `hp_bonus`), and a new dose ends the previous mutagen (APG).
///
/// Also in `pf1e-rules-22`: no attack that cannot hit (`policy::futile`): a
/// combatant none of whose attacks is of use against any foe (it hits only
/// on a natural 20, or damage reduction, immunity or incorporeality leaves
/// nothing of a hit) turns to a foe it can hit and hurt; a caster counts
/// such a weapon as worth nothing (its buffs and spells come first); while
/// an ally still fights with an attack of use it aids that ally, guards an
/// ally, or, fighting from the back (a ranged attack or spells), keeps out
/// of reach (withdraw, total defense) rather than walking up to aid. A
/// caster's buffs go highest spell level first (Bless before Guidance).
///
/// Also in `pf1e-rules-22`: a creature keeps out of its own side's lasting areas
/// that harm or hold (Stinking Cloud, Cloudkill, Web, Entangle, Grease,
/// Black Tentacles): a move toward a foe goes around them when a way
/// serves and stops at their edge when every square to attack from lies
/// inside; the default policy neither charges nor takes a 5-foot step into
/// them.
///
/// Also in `pf1e-rules-22`: tactics a table would play (`policy::splash`,
/// `policy::areas`). A splash is never aimed where it could drop an ally:
/// one in its area whose hit points are at most the splash's largest damage
/// on it (its defenses counted), every ally at 0 hit points or below among
/// them; the bomb goes to another foe, else another weapon. A creature that
/// starts its turn inside a lasting area that harms or holds it (Cloudkill,
/// Stinking Cloud, Black Tentacles; not Cloudkill for an undead), whoever
/// cast it, first moves out by the cheapest route (a 5-foot step when the
/// rest of its turn stays put), then plays what is left of its turn; not
/// when it cannot move, when leaving asks a check or bonds hold it (Web,
/// Grease, Entangle); with no square outside within one move but one within
/// two, and two move actions to take (not nauseated nor staggered), the
/// whole turn goes to both moves.
///
/// `pf1e-rules-23`: a creature with an Intelligence score keeps out of its
/// foes' lasting areas that would harm or hold it, as of its own side's (a
/// brute that walked out of the party's Stinking Cloud goes around it or
/// waits at its edge; a mindless one walks on); after leaving a harmful
/// area, the turn's second move keeps out of every one. The `casts` event
/// of a summons names no target, and one of a spell without a save no DC
/// (event schema 13).
///
/// Also in `pf1e-rules-23`: flanking as a table plays it (`policy::flank`):
/// a melee combatant closing in ends its move on the far side of its foe
/// from an ally who threatens it, when the flank (+2 for it and the ally,
/// +4 with Outflank on both, a rogue's sneak attack) is worth more than the
/// attacks of opportunity on the way, instead of the plain approach or a
/// charge (not a pouncer's); one already in reach takes a 5-foot step to
/// such a square before its full attack. A move to an explicit square walks
/// a route that leaves no threatened square when one lies within the move.
///
/// Also in `pf1e-rules-23`: the alchemist's extracts (APG "Alchemy", the feature
/// `Alchemy`): a caster with the feature drinks its spells as extracts, a
/// standard action whatever the casting time that provokes like a potion,
/// with no concentration check, affecting only the drinker at its
/// alchemist level (another target is refused; a spell that harms,
/// hinders, summons or fills an area is refused as an extract when the
/// encounter is prepared); the event `casts` gets the `extract` flag
/// (schema 13). The default policy drinks a healing extract under half its
/// hit points (before a potion) and a buff extract when its weapons reach
/// no foe (as a caster's buff), never in a threatened square (a 5-foot
/// step out first when one leads there). The reference alchemist4 prepares its extracts of the
/// day ({1: 4, 2: 2}: shield, cure light wounds, cat's grace, cure
/// moderate wounds).
///
/// `pf1e-rules-24`: a single-target buff goes to the ally it helps most
/// (`policy::recipient`): one that helps defence (armor class, saves,
/// temporary hit points, damage reduction, wards) to the ally the foes are
/// hitting (each able foe's damage counted on the nearest opponent it can
/// hurt), one that helps offence (attack and damage rolls, Strength, an
/// extra attack, weapon qualities) to the ally who deals the most damage;
/// the caster first only on a tie. A touch buff is carried one move to an
/// ally out of touch when the square it ends on is threatened by no foe
/// and the caster is not threatened where it stands.
///
/// Also in `pf1e-rules-24`: a paladin's mercies (features `Mercy (…)`,
/// checked at load for level, prerequisite and count): each lay on hands
/// that heals ends the conditions of its mercies; lay on hands harms an
/// undead foe by a melee touch ((level/2)d6, no save, no attack of
/// opportunity); the default policy lays hands on an ally (or itself) whose
/// condition a mercy ends when it pays, and on an undead when the touch
/// beats its weapons; the reference paladins 4 and 6 prepare their spells
/// (Bless, Divine Favor). Event schema 14 (`removed`, `harms` of
/// `lays_on_hands`).
///
/// Also in `pf1e-rules-24`: blindsight and lifesense (special ability kind
/// `blindsight`): within range, no miss chance on the creature's attacks
/// whatever the concealment or its own blindness, attacks of opportunity
/// on the totally concealed, no unseen-attacker edge against it (the ochre
/// jelly, the gelatinous cube, the wraith).
///
/// `pf1e-rules-25`: an area spell that only hinders (Glitterdust, Web,
/// Stinking Cloud: no damage) needs one enemy fewer than `area_min`, at
/// least one, so the default policy blinds or webs a lone brute (the witch
/// no longer shoots her crossbow at a dragon with Glitterdust prepared);
/// an area is aimed one or two squares past a foe who stands within its
/// radius of a friend (the caster beside the brute) when it still catches
/// the foe there; the policy gives no worth to a condition the creature is
/// immune to, and a dazzle's worth to blindness on a creature with
/// blindsight. `visual` in `immunities` (oozes) is immunity to blinded and
/// dazzled, `gaze` to gaze attacks.
///
/// Also in `pf1e-rules-25`: a paladin of level 4 or more channels positive
/// energy (feature `Channel Positive Energy`: the cleric's channel at her
/// paladin level, two uses of lay on hands a use), to heal two or more
/// wounded allies in the burst or to harm two or more undead.
///
/// Also in `pf1e-rules-25`: the default policy reads scrolls of cures (after
/// its slots and wand charges, on a patient in touch, unthreatened; a
/// non-caster with Use Magic Device when no healer reaches the patient)
/// and of single-target buffs (where it would buff and no slot does, on
/// the recipient `best_buff` ranks first).
///
/// Also in `pf1e-rules-25`: the gunslinger's Pistol-Whip deed (a standard
/// action for 1 grit: a melee blow with the firearm, 1d6 one-handed or 1d10
/// two-handed bludgeoning, threat on a 20 only and ×2, a free trip on a
/// hit), used on an adjacent foe that threatens her, where a shot would
/// provoke.
///
/// `pf1e-rules-26`: True Strike is no longer a buff handed out when nothing
/// else is at hand (it lapsed unused): the default policy casts it when
/// the one blow it prepares for the next turn gains more than the
/// caster's weapon (from where it stands, or one blow after a move) or its
/// best spell does this turn, and while its bonus waits the caster's next
/// turn is an attack (no spell without an attack roll) when a weapon
/// reaches the foe after one move.
///
/// Also in `pf1e-rules-26`: a shooter or bomber whose attack ladder would
/// shoot from a square a foe threatens takes a 5-foot step to a square no
/// foe threatens first, then makes its full attack (no attack of
/// opportunity; a bomb's splash no longer catches its thrower); the
/// gunslinger pistol-whips only where no such step exists; a caster in a
/// foe's reach steps the same way before a spell aimed at another creature
/// from a distance (not a touch, not an area) when the target stays in
/// range, instead of casting defensively.
///
/// Also in `pf1e-rules-26`: the ranger's Hunter's Bond (companions): a
/// move action granting the allies within 30 ft half the ranger's favored
/// enemy bonus (rounded down) against one foe of a favored type, on attack
/// and damage rolls, for his Wisdom modifier in rounds (at least 1), not
/// stacking with their own favored enemy; played by the default policy
/// when the move action is spare or the allies' gain beats the attacks a
/// full attack would lose. Event `hunters_bond`.
///
/// `pf1e-rules-27`: the 5-foot step out of every foe's reach before a spell
/// also comes before a touch (from a square still within touch of its
/// target), a spell on the caster itself and an area centred on a point
/// (from a square within range of the point, outside the area); when such
/// a step exists the spell is weighed against the weapon as sure to go
/// off. A bomber whose bomb gives way to its crossbow reloads it after the
/// shot (and, out of every reach, reloads an empty one and fires) instead
/// of standing in total defense with an empty crossbow. Spiritual Weapon
/// is played (it was refused): a force weapon that strikes when cast and
/// at the end of each of its caster's turns for its caster level in
/// rounds, at base attack bonus + casting modifier against normal AC,
/// 1d8 + 1 per three levels (at most +5), iterative attacks on a target it
/// keeps, spell resistance on its first strike at each creature;
/// redirecting it is a move action (`redirect_spell`). The default policy
/// casts it when its damage over three rounds beats the weapon and the
/// best spell, and redirects it when its foe falls. Event schema 15. A
/// melee combatant whose foe is walled off by its own side's area (held
/// deep in the party's web) fights a foe it can get at, else waits at the
/// edge with a readied attack; a staggered breather moves or breathes, not
/// both. Overlapping areas of one spell do not stack: a creature in two
/// meets one's `each_round` effects a round.
///
/// `pf1e-rules-28`: Fire Shield is played (it was refused; the lich
/// prepares it): a creature that hits the bearer in melee without a reach
/// weapon takes 1d6 + caster level (at most +15) of fire (warm shield) or
/// cold (chill shield), its spell resistance applying; the bearer takes
/// half damage from the other energy, none on a successful Reflex save for
/// half. The default policy raises it when the foes in melee with the
/// caster would lose more to it over three rounds than the caster's best
/// this round deals, choosing the energy they feel, cast after a step out
/// of reach or defensively. A helpful spell with a choice (Fire Shield,
/// Magic Vestment) is a buff, as its first option is. The default policy
/// aims no second area of a spell that meets creatures each round
/// (Stinking Cloud) at foes already in one (a second Web still asks a new
/// save). Event schema 16.
///
/// `pf1e-rules-29`: Spectral Hand is played (it was refused; the lich
/// prepares it): the caster loses 1d4 hit points, back when the spell
/// ends; its touch spells of 4th level or lower reach medium range, with
/// +2 on the touch and no flanking, held charges too. The default policy
/// shapes the hand when the touch spells it would carry to foes out of
/// reach gain more over two castings than the round it costs. A spell's
/// melee touch through the hand is no blow of the caster's body: a Fire
/// Shield does not answer it. Dimension Door is played (it was refused;
/// the lich prepares it): the caster appears on a free spot within long
/// range without provoking, a grapple ends, and its turn ends; the default
/// policy teleports a caster out of a melee that would fell it within two
/// rounds, cast defensively, to a spot no melee foe reaches next round.
/// Event schema 17.
///
/// `pf1e-rules-30`: a defender's energy spells (Resist Energy, Protection
/// from Energy, Fire Shield's ward, an energy immunity) apply to the
/// energy of weapons, natural attacks and splash weapons as to a spell's
/// (they applied to spells only); Resist Energy and Protection from Energy
/// choose the energy the foes' attacks and breath carry as well as their
/// spells'. Globe of Invulnerability is played (it was refused; the lich
/// prepares it): spells of 4th level or lower (Heighten counts) fail on the
/// creatures inside, areas leave them out, areas already in effect keep
/// acting; the default policy raises it when the foes' spells it stops
/// outweigh the caster's best this round, and throws no spell a globe
/// stops at a creature inside. Silence is played (it was refused; the drow
/// noble prepares it): a 20-ft emanation that moves with the creature that
/// failed its save, in which no verbal spell is cast, no sonic or
/// language-dependent spell gets in and no sound is heard; the default
/// policy silences a foe caster for the spells it would lose. Event
/// schema 18.
///
/// `pf1e-rules-31`: the default policy turns a cone or a line shaped from
/// the caster (Burning Hands, Color Spray, Lightning Bolt, Cone of Cold)
/// toward the enemy whose aim catches the most enemies and no friend, as
/// it turns a breath weapon; it aimed them at its target only. Dispel
/// Magic ends a lasting area when aimed at one of its squares (Web, Black
/// Tentacles, Silence, a globe), and the default policy dispels a foe's
/// area holding or harming its friends, or a foe's spell holding a friend
/// (Hold Person); a targeted dispel compares one
/// d20 with every spell it weighs (it rolled one per spell) and ends the
/// dispeller's own spells without a check. A caster getting out of a
/// harmful area keeps the spell it planned only when the spell still does
/// its work from the square it gets out to (a ray out of range after the
/// move was cast and refused). A caster inside its globe takes no 5-foot
/// step out of it while a foe can still cast a spell the globe stops.
/// Resist Energy and Protection from Energy are no buff while no foe
/// deals energy (they were cast against a club). A combatant's
/// `ability_enhancements` names the enhancement bonus worn items (a belt,
/// a headband) already hold in its printed scores; enhancement bonuses do
/// not stack (CRB "Bonus Types"), so a spell's enhancement bonus to such a
/// score adds only its excess (Bull's Strength on a belted Str 22 gives
/// 24, not 26; a +4 belt leaves it nothing), through the one stacking
/// resolver (`Tally::total_over`), and Bear's Endurance's hit points follow
/// the Constitution it really adds. The belted reference PCs (barbarian,
/// monk, paladin, ranger 6 and 8), the lich and the vampire fill it, and
/// builds check it. Paladin 8 prepares Bless, Divine Favor and Bull's
/// Strength twice.
pub const RULES_VERSION: &str = "pf1e-rules-31";
