//! Per-encounter data computed once and shared by every run: parsed dice,
//! attack profiles, damage defenses per (attack, defender), and line of
//! effect and terrain cover between squares (the map's `LosTable`, or for
//! maps too large to tabulate, rows computed on first use).

use std::sync::{Arc, OnceLock};

use crate::dice::{DiceExpr, ability_modifier};
use crate::effects::{Mod, energy_bits, modifier::targets_of};
use crate::encounter::Encounter;
use crate::feats::{FeatCatalog, ResolvedFeatures, SneakDice};
use crate::grid::{NEIGHBOURS, Pathfinder, natural_reach_ft, space_squares};
use crate::los::{self, LosTable};
use crate::map::{Map, Pos};
use crate::model::{AttackKind, AttackSpec, Combatant, DamageComponent, Size};

use super::paths::MoverPaths;
use super::spells::{CasterSpec, PreparedSpell, SummonGroup};

mod fighter;
pub(crate) mod flight;
pub(crate) mod monster;
mod reload;
pub(crate) use fighter::{AbilityScores, Defenses, FeatRules, FighterSpec, Nature, Offense, RiderSpec};
// Energy types: the weapon component is never one of them.
use crate::model::special::ENERGY_TYPES;

/// Physical damage types: damage reduction applies to them (CRB "Damage
/// Reduction"); a component without one (energy, force, untyped…) ignores it.
const PHYSICAL_TYPES: [&str; 3] = ["bludgeoning", "piercing", "slashing"];

/// Why an encounter cannot be prepared (data that validation should have refused).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PrepareError {
    /// A feature is not in the catalogue (or misses its parameter).
    #[error("combatant {combatant:?}: $.features[{index}]: {message}")]
    BadFeature {
        /// Combatant id.
        combatant: String,
        /// Index of the feature in the combatant's `features`.
        index: usize,
        /// What is wrong.
        message: String,
    },
    /// The feature catalogue itself is invalid.
    #[error(transparent)]
    Catalog(#[from] crate::feats::CatalogError),
    /// A damage formula does not parse.
    #[error("combatant {combatant:?}, attack {attack:?}: {message}")]
    BadAttack {
        /// Combatant id.
        combatant: String,
        /// Attack name.
        attack: String,
        /// What is wrong.
        message: String,
    },
    /// A rider's mount cannot carry it (`model::mount`).
    #[error("combatant {combatant:?}: $.mount: {message}")]
    BadMount {
        /// Combatant id.
        combatant: String,
        /// What is wrong.
        message: String,
    },
    /// A spell of the combatant is not in the library, not on its list, or
    /// its summons call no creature the library has.
    #[error("{path}: {message}")]
    BadSpell {
        /// Combatant id.
        combatant: String,
        /// JSON path in the combatant's file (`$.spells[2]`).
        path: String,
        /// What is wrong.
        message: String,
    },
}

/// An encounter ready to be played many times.
#[derive(Debug)]
pub struct PreparedEncounter {
    pub(crate) map: Arc<Map>,
    pub(crate) sides: Vec<String>,
    pub(crate) fighters: Vec<FighterSpec>,
    /// A pathfinder with its step tables built, cloned by every battle.
    pub(crate) pathfinder: Pathfinder,
    /// Creature-free shortest paths per size of space (small maps only).
    pub(crate) paths: MoverPaths,
    /// The distinct creature types of the encounter (normalized), indexed by
    /// `Nature::creature_type`, for `vs_creature_type` modifiers.
    pub(crate) creature_types: Vec<String>,
    /// The spells someone of the encounter casts (or summons call).
    pub(crate) spells: Vec<PreparedSpell>,
    /// Combatants deployed by the encounter; fighters from this index on are
    /// the rows reserved for summoned creatures.
    pub(crate) deployed: usize,
    /// Summoned creatures each caster's summoning spells bring, and their rows.
    pub(crate) summon_groups: Vec<SummonGroup>,
    /// Rows reserved for the copies of creatures that split.
    pub(crate) split_groups: Vec<SplitGroup>,
    /// Some rider starts on a mount (`combat::mounted`).
    pub(crate) has_riders: bool,
    los: LosTable,
    /// Used only when the map is too large for `los`.
    geo: GeoCache,
}

/// One attack, with everything the hot path needs precomputed.
#[derive(Clone, Debug)]
pub(crate) struct AttackProfile {
    pub name: String,
    /// The attack's id (`weapon_id`), for weapon filters.
    pub id: String,
    /// Melee (weapon, natural or melee touch); otherwise ranged.
    pub melee: bool,
    /// Resolved against touch AC.
    pub vs_touch: bool,
    /// Firearm: touch AC within its first range increment.
    pub firearm: bool,
    /// Attack bonus (final, as printed).
    pub bonus: i32,
    /// A natural attack (never disarmed or sundered).
    pub natural: bool,
    /// A secondary natural attack (Power Attack bonus halved).
    pub secondary: bool,
    /// Wielded in two hands (Power Attack bonus ×1.5, 1.5 × Strength).
    pub two_handed: bool,
    /// An off-hand weapon (`model::hands`): only the off-hand attacks of a two-weapon full attack.
    pub off_hand: bool,
    /// A light weapon (two-weapon penalties).
    pub light: bool,
    /// A melee weapon or natural attack (not a touch attack): Power Attack adds damage.
    pub weapon_damage: bool,
    /// Average damage of a hit (for the Power Attack and maneuver decisions).
    pub mean_damage: f64,
    pub components: Vec<Component>,
    /// The component that carries `damage_bonus` (the first physical one).
    pub bonus_component: Option<usize>,
    pub damage_bonus: i32,
    /// Lowest natural roll that threatens (as printed: Improved Critical included).
    pub threat_min: u32,
    pub crit_mult: u32,
    /// Range increment in feet (0 for melee).
    pub increment: u32,
    pub max_range_ft: u32,
    /// Melee: usable when `reach_min <= distance <= reach_max` (distance 0:
    /// sharing a square with a Tiny or smaller creature).
    pub reach_min: u32,
    pub reach_max: u32,
    pub count: u32,
    /// Manufactured weapon: gains iterative attacks on a full attack.
    pub iterates: bool,
    /// Damage defenses of each defender (encounter order) against this attack.
    pub vs: Vec<DefenseVs>,
    /// Its damage types and qualities (normalized), for damage reduction bypasses.
    pub carried: Vec<String>,
    /// The action reloading it takes, if it needs reloading (`combat::reload`).
    pub reload: Option<crate::model::ReloadTime>,
    /// Shots it carries (`u32::MAX`: unlimited).
    pub ammo: u32,
    /// Its shots are counted: reloading takes an action, or its ammunition is limited.
    pub tracks_shots: bool,
    /// A splash weapon: the profile of its splash damage (`combat::splash`).
    pub splash: Option<Box<AttackProfile>>,
    /// The Reflex DC of a splashed creature for half the splash (a bomb).
    pub splash_dc: Option<i32>,
    /// Damage a hit deals again at the start of the target's next turn.
    pub lingering: Option<crate::effects::effect::Recurring>,
    /// Each throw's flask is taken out of the pack first (a splash weapon
    /// drawn as its reload): it starts the battle unloaded.
    pub drawn: bool,
}

impl AttackProfile {
    /// Whether the attack can hit something `dist` feet away (line of effect aside).
    #[inline]
    pub fn reaches(&self, dist: u32) -> bool {
        if self.melee {
            dist >= self.reach_min && dist <= self.reach_max
        } else {
            dist > 0 && dist <= self.max_range_ft
        }
    }
}

/// Energy vulnerability (Bestiary, Universal Monster Rules, "Vulnerabilities"):
/// "takes half again as much (+50%) damage as normal from that energy,
/// regardless of whether a saving throw is allowed": `amount` + half of it,
/// rounded down, before resistance.
#[inline]
pub(crate) fn vulnerable_amount(amount: u32) -> u32 {
    amount + amount / 2
}

/// One damage component.
#[derive(Clone, Debug)]
pub(crate) struct Component {
    pub dice: DiceExpr,
    /// Has a physical type: damage reduction applies.
    pub physical: bool,
    /// Its dice are multiplied on a critical hit (the weapon's own damage).
    pub crit_dice: bool,
    /// Bleed damage: sets the target bleeding instead of wounding it now.
    pub bleed: bool,
    /// Its flat part is multiplied on a critical hit (physical, not precision).
    pub crit_flat: bool,
    /// Its energy types (bit k: `effects::ENERGY[k]`), which a defender's
    /// energy spells (Resist Energy, Protection from Energy, Fire Shield)
    /// read when it is hit (`riders::energy_defense`).
    pub energy: u8,
}

/// A defender's reductions against one attack.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DefenseVs {
    /// Damage reduction that applies to the physical part (0 when bypassed or absent).
    pub dr: u32,
    /// Per component, in the attack's component order.
    pub comps: Vec<CompDefense>,
}

/// A defender's reduction of one damage component.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct CompDefense {
    /// Resistance subtracted from the component (largest among its types).
    pub resist: u32,
    /// Immune to one of the component's types: the component deals nothing.
    pub immune: bool,
    /// Vulnerable to one of its types: +50 % (`energy_vulnerable`).
    pub vulnerable: bool,
    /// Heals the defender instead: negative energy on an undead (Bestiary,
    /// Undead traits; the lich's and the wraith's touches).
    pub heals: bool,
    /// Of a type that stops the defender's regeneration (`combat::monster`).
    pub stops_regen: bool,
    /// Every one of its types splits the defender (`monster::split`).
    pub splits: bool,
    /// One of its types feeds the defender's energy fortitude (`monster::fortitude`).
    pub fortifies: bool,
    /// An energy ward (Fire Shield) halves it, before resistance (`riders::energy_defense`).
    pub halved: bool,
    /// An effect absorbs it (Protection from Energy), in place of resistance:
    /// the energy (`ENERGY` index) whose absorbing effect takes it after the roll.
    pub absorbed: Option<u8>,
}

impl CompDefense {
    /// What is left of `v` points of this component after the defender's
    /// immunity, vulnerability (+50 %), energy ward (half) and resistance;
    /// an absorbed component keeps it all here (`Engine::absorb_energy`).
    pub(crate) fn kept(self, v: i32) -> i32 {
        if self.immune {
            return 0;
        }
        let v = if self.vulnerable { vulnerable_amount(v.max(0) as u32) as i32 } else { v };
        let v = if self.halved { v / 2 } else { v };
        if self.absorbed.is_some() { v } else { (v - self.resist as i32).max(0) }
    }
}

/// A damage reduction, its bypass components normalized.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Dr {
    pub amount: u32,
    /// Components an attack must all carry (`DR 15/bludgeoning and magic`).
    pub all: Vec<String>,
    /// Components any one of which suffices (`DR 10/good or silver`).
    pub any: Vec<String>,
}

impl Dr {
    fn of(dr: &crate::model::DamageReduction) -> Dr {
        let clean = |list: &[String]| -> Vec<String> {
            list.iter().map(|b| norm(b)).filter(|b| !matches!(b.as_str(), "" | "—" | "_")).collect()
        };
        Dr { amount: dr.amount, all: clean(&dr.bypass), any: clean(&dr.bypass_any) }
    }

    /// Whether an attack carrying `carried` (damage types and qualities,
    /// normalized) overcomes it; `DR X/—` is never overcome.
    pub(crate) fn bypassed_by(&self, carried: &[String]) -> bool {
        (!self.all.is_empty() && self.all.iter().all(|b| carried.contains(b)))
            || self.any.iter().any(|b| carried.contains(b))
    }

    /// What it takes from an attack carrying `carried`.
    pub(crate) fn against(&self, carried: &[String]) -> u32 {
        if self.bypassed_by(carried) { 0 } else { self.amount }
    }
}

/// Normalizes a damage type, quality or bypass name (`Cold Iron` -> `cold_iron`).
pub(crate) fn norm(name: &str) -> String {
    name.trim().to_lowercase().replace([' ', '-'], "_")
}

fn has_type_in(component: &DamageComponent, list: &[&str]) -> bool {
    component.types.iter().any(|t| list.contains(&norm(t).as_str()))
}

fn is_physical(component: &DamageComponent) -> bool {
    has_type_in(component, &PHYSICAL_TYPES)
}

/// The weapon's own damage: the first physical component that is not
/// precision damage, else the first untyped-or-other one without energy.
fn weapon_component(damage: &[DamageComponent]) -> Option<usize> {
    damage
        .iter()
        .position(|c| is_physical(c) && !c.precision)
        .or_else(|| damage.iter().position(|c| !c.precision && !has_type_in(c, ENERGY_TYPES)))
}

impl PreparedEncounter {
    /// Prepares `encounter`: parses every formula, resolves every feature
    /// against the engine's catalogue (`data/feats.json`) and precomputes the
    /// attack profiles.
    pub fn new(encounter: &Encounter) -> Result<Self, PrepareError> {
        Self::with_catalog(encounter, FeatCatalog::builtin().map_err(|e| PrepareError::Catalog(e.clone()))?)
    }

    /// [`PreparedEncounter::new`] with another feature catalogue.
    pub fn with_catalog(encounter: &Encounter, catalog: &FeatCatalog) -> Result<Self, PrepareError> {
        let deployed = encounter.combatants.len();
        let Rows { rows, features, casters, items, mut spells, groups, splits } = rows(encounter, catalog)?;
        let combatants: Vec<&Combatant> = rows.iter().map(|r| r.2.as_ref()).collect();
        let mut creature_types: Vec<String> = Vec::new();
        for c in &combatants {
            if let Some(t) = c.creature_type.as_deref().map(norm)
                && !creature_types.contains(&t)
            {
                creature_types.push(t);
            }
        }
        let type_index = |t: &str| creature_types.iter().position(|k| *k == norm(t)).map(|k| k as u16);
        let mut fighters = Vec::with_capacity(rows.len());
        for (k, (((row, resolved), caster), items)) in
            rows.iter().zip(features).zip(casters).zip(items).enumerate()
        {
            let (id, side, c, pos, start_hp, aware) = row;
            let c = c.as_ref();
            let mut attacks = Vec::with_capacity(c.attacks.len());
            for a in &c.attacks {
                attacks.push(prepare_attack(c, a, &combatants).map_err(|message| {
                    PrepareError::BadAttack { combatant: id.clone(), attack: a.name.clone(), message }
                })?);
            }
            let placed = PlacedRow { id, side: *side, pos: *pos, start_hp: *start_hp, aware: *aware };
            let mut spec = fighter_spec(&placed, c, attacks, resolved, &type_index);
            if let Some(m) = spec.monster.as_deref_mut() {
                for fx in m.spell_effects.iter_mut() {
                    let Some((sid, spell)) = encounter.library.spell(&fx.spell_name) else {
                        let k = c.special_abilities.iter().position(|a| {
                            matches!(a, crate::model::SpecialAbility::SpellEffect { name, .. } if *name == fx.name)
                        });
                        return Err(PrepareError::BadSpell {
                            combatant: id.clone(),
                            path: format!("$.special_abilities[{}].spell", k.unwrap_or(0)),
                            message: format!("no spell named {:?} in the library", fx.spell_name),
                        });
                    };
                    fx.spell = match spells.iter().position(|p| p.id == sid) {
                        Some(x) => x as u16,
                        None => {
                            spells.push(super::spells::prepare_spell(sid, spell));
                            (spells.len() - 1) as u16
                        }
                    };
                }
                // The spell a golem's immunity to magic lets through (`monster::golem`).
                if let Some(me) = m.magic_energy.as_mut()
                    && let Some(name) = me.spell_name.clone()
                {
                    let Some((sid, spell)) = encounter.library.spell(&name) else {
                        let k = c
                            .special_abilities
                            .iter()
                            .position(|a| matches!(a, crate::model::SpecialAbility::MagicEnergy { .. }));
                        return Err(PrepareError::BadSpell {
                            combatant: id.clone(),
                            path: format!("$.special_abilities[{}].spell", k.unwrap_or(0)),
                            message: format!("no spell named {name:?} in the library"),
                        });
                    };
                    me.spell = match spells.iter().position(|p| p.id == sid) {
                        Some(x) => x as u16,
                        None => {
                            spells.push(super::spells::prepare_spell(sid, spell));
                            (spells.len() - 1) as u16
                        }
                    };
                }
                m.prepare_strikes(c, &spec.offense.attacks, |a| prepare_attack(c, a, &combatants)).map_err(
                    |message| PrepareError::BadAttack {
                        combatant: id.clone(),
                        attack: "special_abilities".into(),
                        message,
                    },
                )?;
            }
            spec.caster = caster;
            spec.items = items;
            spec.reserve = (k >= deployed)
                .then(|| groups.iter().position(|g| g.rows.contains(&k)).map(|g| g as u16))
                .flatten();
            fighters.push(spec);
        }
        seat_riders(encounter, &mut fighters)?;
        let los = LosTable::new(&encounter.map);
        let geo = if los.is_tabulated() { GeoCache::default() } else { GeoCache::new(&encounter.map) };
        let pathfinder = Pathfinder::new(&encounter.map);
        let paths = MoverPaths::new(&encounter.map, &pathfinder, fighters.iter().map(|f| f.nature.space));
        let has_riders = fighters.iter().any(|f| f.rider.mount.is_some());
        Ok(Self {
            map: Arc::clone(&encounter.map),
            sides: encounter.sides.clone(),
            fighters,
            pathfinder,
            paths,
            creature_types,
            spells,
            deployed,
            summon_groups: groups,
            split_groups: splits,
            has_riders,
            los,
            geo,
        })
    }

    /// The battlefield.
    pub fn map(&self) -> &Map {
        &self.map
    }

    /// Number of combatants.
    pub fn len(&self) -> usize {
        self.fighters.len()
    }

    /// Whether the encounter has no combatant.
    pub fn is_empty(&self) -> bool {
        self.fighters.is_empty()
    }

    /// The id of combatant `i`.
    pub fn id(&self, i: usize) -> &str {
        &self.fighters[i].id
    }

    /// The side index of combatant `i`.
    pub fn side(&self, i: usize) -> usize {
        self.fighters[i].side
    }

    /// Side names.
    pub fn sides(&self) -> &[String] {
        &self.sides
    }

    /// What each feature of combatant `i` became: modifiers (in final values
    /// or in play), a rule, or a traced no-op.
    pub fn features(&self, i: usize) -> &ResolvedFeatures {
        &self.fighters[i].features
    }

    /// The index of a spell someone of the encounter casts, by identifier,
    /// name or alias (`"fireball"`, `"Cure Light Wounds"`): what
    /// `Action::spell` names.
    pub fn spell_index(&self, name: &str) -> Option<u16> {
        let id = crate::spell::spell_id(name);
        self.spells
            .iter()
            .position(|p| {
                p.id == id
                    || crate::spell::spell_id(&p.spell.name) == id
                    || p.spell.aliases.iter().any(|a| crate::spell::spell_id(a) == id)
            })
            .map(|k| k as u16)
    }

    /// The spells of the encounter, in `Action::spell` order: identifier and
    /// why the engine does not cast it, if so.
    pub fn spell_list(&self) -> impl Iterator<Item = (&str, Option<&str>)> {
        self.spells.iter().map(|p| (p.id.as_str(), p.unplayable.as_deref()))
    }

    /// Rows of the encounter: its combatants, then the rows reserved for summoned creatures.
    pub fn deployed(&self) -> usize {
        self.deployed
    }

    /// The index `vs_creature_type` modifiers use for creature type `name`
    /// (`None`: no combatant of the encounter has it).
    pub fn creature_type_index(&self, name: &str) -> Option<u16> {
        let name = norm(name);
        self.creature_types.iter().position(|t| *t == name).map(|k| k as u16)
    }

    /// Compiles a data-form modifier for combatant `i` (its weapon filter
    /// against `i`'s attacks, its creature type against the encounter's).
    pub fn compile_modifier(&self, i: usize, m: &crate::effects::Modifier) -> Mod {
        let names = self.fighters[i].offense.attacks.iter().map(|a| (a.name.as_str(), a.id.as_str()));
        Mod::compile(m, names, |t| self.creature_type_index(t))
    }

    /// Whether `from` has line of effect to `to` (precomputed).
    #[inline]
    pub fn line_of_effect(&self, from: Pos, to: Pos) -> bool {
        if self.los.is_tabulated() {
            return self.los.has_line_of_effect(&self.map, from, to);
        }
        let row = self.geo.row(&self.map, from);
        let j = self.map.index(to);
        row.loe[j / 64] >> (j % 64) & 1 == 1
    }

    /// Cover of `to` against a ranged attack from `from`, terrain and the
    /// creatures standing on `creatures` together (attacker's best corner).
    pub fn ranged_cover(&self, from: Pos, to: Pos, creatures: &[Pos]) -> u8 {
        if creatures.is_empty() {
            return self.terrain_cover(from, to, false);
        }
        self.los.ranged_cover(&self.map, from, to, creatures)
    }

    /// Terrain cover of `to` against an attack from `from` (precomputed): the
    /// adjacent-melee rule when `adjacent_melee`, the best-corner rule otherwise.
    #[inline]
    pub fn terrain_cover(&self, from: Pos, to: Pos, adjacent_melee: bool) -> u8 {
        if self.los.is_tabulated() {
            return self.los.terrain_cover(&self.map, from, to, adjacent_melee);
        }
        let row = self.geo.row(&self.map, from);
        if adjacent_melee {
            let (dr, dc) = (to.row - from.row, to.col - from.col);
            if let Some(k) = NEIGHBOURS.iter().position(|&n| n == (dr, dc)) {
                return row.cover_adjacent[k];
            }
        }
        row.cover[self.map.index(to)]
    }
}

/// Every row of an encounter (its combatants, then the rows reserved for
/// summoned creatures), with what was resolved on the way.
struct Rows {
    rows: Vec<super::spells::reserve::Row>,
    features: Vec<ResolvedFeatures>,
    casters: Vec<Option<Box<CasterSpec>>>,
    items: Vec<Vec<super::items::PreparedItem>>,
    spells: Vec<PreparedSpell>,
    groups: Vec<SummonGroup>,
    splits: Vec<SplitGroup>,
}

/// The rows reserved for the copies a creature that splits can become
/// (`monster::split`): its own and its copies' splits draw on them.
#[derive(Clone, Debug)]
pub(crate) struct SplitGroup {
    /// The deployed creature.
    pub original: usize,
    /// Its copies' rows.
    pub rows: std::ops::Range<usize>,
}

fn rows(encounter: &Encounter, catalog: &FeatCatalog) -> Result<Rows, PrepareError> {
    let library = &encounter.library;
    let deployed = encounter.combatants.len();
    let mut rows: Vec<super::spells::reserve::Row> = encounter
        .combatants
        .iter()
        .map(|d| (d.id.clone(), d.side, Arc::clone(&d.spec), d.pos, d.start_hp, d.aware))
        .collect();
    let mut features = Vec::with_capacity(deployed);
    let mut spells: Vec<PreparedSpell> = Vec::new();
    let mut casters: Vec<Option<Box<CasterSpec>>> = Vec::with_capacity(deployed);
    let mut items = Vec::with_capacity(deployed);
    let mut groups: Vec<SummonGroup> = Vec::new();
    let mut splits: Vec<SplitGroup> = Vec::new();
    let mut k = 0;
    while k < rows.len() {
        // The splash weapons a deployed combatant carries are attacks of its own (`combat::splash`).
        if k < deployed
            && let Some(with_flasks) = crate::model::items::with_thrown_items(&rows[k].2)
        {
            rows[k].2 = Arc::new(with_flasks);
        }
        let (id, c) = (rows[k].0.clone(), Arc::clone(&rows[k].2));
        let resolved = crate::feats::resolve(&c, catalog).map_err(|e| PrepareError::BadFeature {
            combatant: id.clone(),
            index: e.index,
            message: e.message,
        })?;
        let bad_spell = |(path, message): (String, String)| PrepareError::BadSpell {
            combatant: id.clone(),
            path,
            message,
        };
        let mut index_of = |sid: &str, spell: &crate::spell::Spell| -> u16 {
            match spells.iter().position(|p| p.id == sid) {
                Some(x) => x as u16,
                None => {
                    spells.push(super::spells::prepare_spell(sid, spell));
                    (spells.len() - 1) as u16
                }
            }
        };
        let mut caster = super::spells::prepare_caster(&c, library, &resolved.rules.class, &mut index_of)
            .map_err(bad_spell)?
            .map(Box::new);
        // Summoned creatures carry nothing.
        let carried = if k < deployed {
            super::items::prepare_items(&c, library, &mut index_of).map_err(bad_spell)?
        } else {
            Vec::new()
        };
        // Summoning spells reserve rows for their creatures (only for deployed
        // casters: a summoned creature does not summon).
        if let Some(cs) = caster.as_deref_mut()
            && k < deployed
        {
            super::spells::reserve_summons(k, &c, cs, library, &mut spells, &mut groups, &mut rows)
                .map_err(bad_spell)?;
        }
        // A creature that splits reserves rows for its copies (`monster::split`).
        if k < deployed
            && let Some(min_hp) = c.special_abilities.iter().find_map(|a| match a {
                crate::model::SpecialAbility::Split { min_hp, .. } => Some(*min_hp),
                _ => None,
            })
        {
            let start = rows.len();
            let (side, pos) = (rows[k].1, rows[k].3);
            for _ in 1..monster::split_copies(c.hp_max, min_hp) {
                let base = crate::encounter::id_base(&c.name);
                let mut m = 1;
                let mut row_id = base.clone();
                while rows.iter().any(|r| r.0 == row_id) {
                    m += 1;
                    row_id = format!("{base}-{m}");
                }
                rows.push((row_id, side, Arc::clone(&c), pos, c.hp_max, true));
            }
            splits.push(SplitGroup { original: k, rows: start..rows.len() });
        }
        casters.push(caster);
        items.push(carried);
        features.push(resolved);
        k += 1;
    }
    Ok(Rows { rows, features, casters, items, spells, groups, splits })
}

/// One row reserved for a summoned creature: its id, its name and its side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SummonRow {
    /// Unique id in the encounter (`celestial_wolf`, `celestial_wolf-2`).
    pub id: String,
    /// The creature's name.
    pub name: String,
    /// Its side (the caster's), an index into the encounter's sides.
    pub side: usize,
}

/// The rows an encounter reserves for summoned creatures, in the order of
/// `RunOutcome::summons` (empty when nobody summons, or when the encounter
/// does not prepare).
pub fn summon_roster(encounter: &Encounter) -> Vec<SummonRow> {
    let Ok(catalog) = FeatCatalog::builtin() else { return Vec::new() };
    let Ok(r) = rows(encounter, catalog) else { return Vec::new() };
    r.rows[encounter.combatants.len()..]
        .iter()
        .map(|(id, side, c, ..)| SummonRow { id: id.clone(), name: c.name.clone(), side: *side })
        .collect()
}

/// Where a row of the encounter stands and how it starts.
struct PlacedRow<'a> {
    id: &'a str,
    side: usize,
    pos: Pos,
    start_hp: i32,
    aware: bool,
}

/// The static data of combatant `d` (its features resolved, its attacks prepared).
fn fighter_spec(
    d: &PlacedRow<'_>,
    c: &Combatant,
    attacks: Vec<AttackProfile>,
    features: ResolvedFeatures,
    type_index: &dyn Fn(&str) -> Option<u16>,
) -> FighterSpec {
    use crate::effects::stacking::{Tally, counts_for_cmd};
    use crate::effects::{BonusType, ModTarget};
    let dex_mod = ability_modifier(c.abilities.dex_score);
    let str_mod = ability_modifier(c.abilities.str_score);
    let rules = &features.rules;
    let aoo_per_round = if rules.combat_reflexes { (1 + dex_mod).max(1) as u32 } else { 1 };
    let con_score = c.abilities.con_score;
    let names: Vec<(&str, &str)> = c.attacks.iter().map(|a| (a.name.as_str(), a.weapon_id())).collect();
    let mods: Box<[Mod]> =
        features.in_play().map(|m| Mod::compile(m, names.iter().copied(), |t| type_index(t))).collect();
    // AC bonuses that feats put in the printed AC: the dodge part leaves the
    // touch AC when Dexterity is denied; the eight CMD types count toward a computed CMD.
    let mut printed_ac = Tally::new();
    for m in features.in_final_values().filter(|m| m.target == ModTarget::Ac && m.weapon.is_none()) {
        printed_ac.add(m.bonus_type, m.value);
    }
    let cmb = c
        .cmb
        .unwrap_or_else(|| crate::feats::derive::cmb(c.bab, str_mod, dex_mod, c.size, rules.agile_maneuvers));
    let cmd = c.cmd.unwrap_or_else(|| {
        let bab = if rules.defensive_combat_training { c.level as i32 } else { c.bab };
        crate::feats::derive::cmd(bab, str_mod, dex_mod, c.size) + printed_ac.total_where(counts_for_cmd)
    });
    let mut energy_resist = [0u32; 5];
    let mut energy_immune = 0u8;
    let mut energy_vulnerable = 0u8;
    let vulnerable = vulnerabilities(c);
    for (k, energy) in crate::effects::effect::ENERGY.iter().enumerate() {
        energy_resist[k] =
            c.resistances.iter().filter(|(t, _)| norm(t) == *energy).map(|(_, &v)| v).max().unwrap_or(0);
        if c.immunities.iter().any(|i| norm(i) == *energy) {
            energy_immune |= 1 << k;
        }
        if vulnerable.iter().any(|i| i == energy) {
            energy_vulnerable |= 1 << k;
        }
    }
    let sneak_dice = match rules.sneak_attack {
        None => 0,
        Some(SneakDice::ByLevel) => c.level.div_ceil(2),
        Some(SneakDice::Fixed(n)) => n,
    };
    let precision_immune = precision_immune(c);
    let ctype: Option<crate::spell::model::CreatureType> = c
        .creature_type
        .as_deref()
        .and_then(|t| serde_json::from_value(serde_json::Value::String(norm(t))).ok());
    let mut immune = super::spells::Immune::of(c, ctype);
    if features.rules.class.aura_of_courage {
        // Aura of courage (CRB "Paladin", 3rd level): immune to fear.
        immune.descriptors.0 |= 1 << crate::effects::Descriptor::Fear as u64;
    }
    let abilities = super::abilities::AbilitySpec::of(c, &features.rules.class).map(Box::new);
    let monster = monster::MonsterSpec::of(c, &attacks);
    let mut pools = super::abilities::Pools::of(c);
    for (k, p) in abilities.iter().flat_map(|a| a.powers.iter()).enumerate() {
        pools.powers[k] = p.uses.min(u32::from(u16::MAX)) as u16;
    }
    if abilities.as_ref().is_some_and(|a| a.mutagen.is_some()) && !c.resources.contains_key("mutagen") {
        // An alchemist keeps one dose at a time (APG "Mutagen").
        pools.mutagen = 1;
    }
    FighterSpec {
        id: d.id.to_string(),
        side: d.side,
        start: d.pos,
        hp_max: c.hp_max,
        start_hp: d.start_hp,
        init_mod: c.initiative_mod,
        speed_ft: c.speed_land_ft.max(c.speed_fly_ft.unwrap_or(0)),
        fly: flight::FlySpec::of(c),
        is_pc: c.is_pc(),
        aware: d.aware,
        mod_targets: targets_of(&mods),
        mods,
        carried_items: c.carried_items.iter().map(|i| i.quantity()).sum(),
        caster: None,
        abilities,
        pools,
        reserve: None,
        items: Vec::new(),
        monster,
        scores: AbilityScores {
            con_score,
            con_mod: con_score.map_or(0, ability_modifier),
            dex_mod,
            str_score: c.abilities.str_score,
            dex_score: c.abilities.dex_score,
            str_mod,
            int_score: c.abilities.int_score,
            int_mod: c.abilities.int_score.map_or(0, ability_modifier),
            wis_score: c.abilities.wis_score,
            cha_mod: ability_modifier(c.abilities.cha_score),
            cha_score: c.abilities.cha_score,
            item_enhancement: {
                use crate::spell::model::Ability;
                let of = |a: Ability| c.ability_enhancements.get(&a).copied().unwrap_or(0);
                [
                    of(Ability::Str),
                    of(Ability::Dex),
                    of(Ability::Con),
                    of(Ability::Int),
                    of(Ability::Wis),
                    of(Ability::Cha),
                ]
            },
        },
        defense: Defenses {
            ac: c.ac,
            shield_ac: c.shield.as_ref().map_or(0, |s| s.ac_bonus),
            metal: [
                c.armor.as_ref().filter(|a| a.metal).map(|a| fighter::MetalGear {
                    name: a.name.clone(),
                    ac_bonus: a.ac_bonus,
                    enhancement: a.enhancement,
                }),
                c.shield.as_ref().filter(|s| s.metal).map(|s| fighter::MetalGear {
                    name: s.name.clone(),
                    ac_bonus: s.ac_bonus,
                    enhancement: s.enhancement,
                }),
            ],
            saves: c.saves,
            cmd,
            printed_dodge: printed_ac.of(BonusType::Dodge).max(0),
            escape_artist: c
                .skills
                .iter()
                .find(|(k, _)| norm(k) == "escape_artist")
                .and_then(|(_, s)| s.bonus),
            precision_immune,
            energy_resist,
            energy_immune,
            energy_vulnerable,
            spell_resistance: c.spell_resistance,
            immune,
            dr: c.dr.as_ref().map(Dr::of),
        },
        offense: Offense {
            bab: c.bab,
            aoo_per_round,
            attacks,
            cmb,
            no_aoo_maneuvers: rules.no_aoo_maneuvers,
            sneak_dice,
            routines: c
                .full_attack
                .iter()
                .map(|r| {
                    r.iter()
                        .filter_map(|id| c.attacks.iter().position(|a| a.weapon_id() == id))
                        .filter(|&k| k < 64)
                        .fold(0u64, |m, k| m | 1 << k)
                })
                .collect(),
            natural_mask: c
                .attacks
                .iter()
                .enumerate()
                .filter(|(k, a)| a.natural && *k < 64)
                .fold(0u64, |m, (k, _)| m | 1 << k),
        },
        feats: FeatRules {
            precise_shot: rules.precise_shot,
            run_feat: rules.run,
            power_attack: rules.power_attack,
            combat_reflexes: rules.combat_reflexes,
            uncanny_dodge: rules.uncanny_dodge,
            far_shot: rules.far_shot,
            endurance: rules.endurance,
            blind_fight: rules.blind_fight,
            evasion: rules.evasion,
            improved_precise_shot: rules.improved_precise_shot,
            outflank: rules.outflank,
        },
        nature: Nature {
            destroyed_at_zero: c.destroyed_at_zero() || con_score.is_none(),
            size: c.size,
            space: space_squares(c.size),
            creature_type: c.creature_type.as_deref().and_then(type_index),
            alignment: crate::effects::Alignment::of(&c.alignment),
            hd: c.level,
            ctype,
        },
        rider: RiderSpec {
            mount: None,
            ride: ride_bonus(c, dex_mod),
            military_saddle: c.mount.as_ref().is_some_and(|m| m.military_saddle),
        },
        features,
    }
}

/// The Ride bonus of `c`: the sheet's when it gives one, else ranks, +3 for
/// a trained class skill, Dexterity and the armor check penalty.
fn ride_bonus(c: &Combatant, dex_mod: i32) -> i32 {
    match c.skills.iter().find(|(k, _)| k.eq_ignore_ascii_case("ride")) {
        Some((_, s)) => s
            .bonus
            .unwrap_or(s.rank + if s.class_skill && s.rank > 0 { 3 } else { 0 } + dex_mod + s.armor_penalty),
        None => dex_mod,
    }
}

/// Seats each rider of the encounter on the mount its file names
/// (`model::mount`): the first combatant of that name on its side that no
/// one else rides. The mount must be at least one size larger than its
/// rider and ride no one; a mount of that name on another side only is an error.
fn seat_riders(encounter: &Encounter, fighters: &mut [FighterSpec]) -> Result<(), PrepareError> {
    let deployed = &encounter.combatants;
    let mut taken: Vec<usize> = Vec::new();
    for (k, d) in deployed.iter().enumerate() {
        let Some(m) = &d.spec.mount else { continue };
        let fail = |message: String| PrepareError::BadMount { combatant: d.id.clone(), message };
        let named = |j: &usize| j != &k && deployed[*j].spec.name.trim().eq_ignore_ascii_case(m.name.trim());
        let mut same_side = (0..deployed.len()).filter(named).filter(|&j| deployed[j].side == d.side);
        let Some(j) = same_side.find(|j| !taken.contains(j)) else {
            if let Some(j) = (0..deployed.len()).filter(named).find(|&j| deployed[j].side != d.side) {
                return Err(fail(format!(
                    "its mount {:?} ({}) is on side {:?}, not on its own side {:?}",
                    m.name, deployed[j].id, encounter.sides[deployed[j].side], encounter.sides[d.side]
                )));
            }
            // No mount of that name here (or every one is taken): it fights on foot.
            continue;
        };
        let mount = &deployed[j].spec;
        if (mount.size as u8) <= (d.spec.size as u8) {
            return Err(fail(format!(
                "its mount {:?} is {:?}, not larger than its rider ({:?}): a mount must be at least one size larger",
                m.name, mount.size, d.spec.size
            )));
        }
        if mount.mount.is_some() {
            return Err(fail(format!("its mount {:?} is itself a rider (its file has a `mount`)", m.name)));
        }
        taken.push(j);
        fighters[k].rider.mount = Some(j);
    }
    Ok(())
}

fn prepare_attack(
    owner: &Combatant,
    a: &AttackSpec,
    everyone: &[&Combatant],
) -> Result<AttackProfile, String> {
    let bonus_component = weapon_component(&a.damage);
    let mut components = Vec::with_capacity(a.damage.len());
    for (k, c) in a.damage.iter().enumerate() {
        let dice = DiceExpr::parse(&c.formula).map_err(|e| format!("damage[{k}]: {e}"))?;
        let weapon = bonus_component == Some(k);
        let bleed = c.types.iter().any(|t| norm(t) == "bleed");
        components.push(Component {
            dice,
            physical: is_physical(c),
            crit_dice: weapon,
            crit_flat: !bleed && (weapon || (is_physical(c) && !c.precision)),
            bleed,
            energy: energy_bits(&c.types),
        });
    }
    let ranged_touch = a.kind == AttackKind::Touch && a.range_increment_ft.is_some();
    let melee = match a.kind {
        AttackKind::Melee => true,
        AttackKind::Ranged => false,
        AttackKind::Touch => !ranged_touch,
    };
    let increment = if melee { 0 } else { a.range_increment_ft.unwrap_or(0) };
    if !melee && increment == 0 {
        return Err("a ranged attack needs a range_increment_ft above 0".to_string());
    }
    // Projectiles reach 10 increments; ranged touch attacks and (early)
    // firearms 5 (CRB "Range", UC "Early Firearms").
    let max_range_ft = match a.kind {
        AttackKind::Ranged if a.firearm => increment * 5,
        AttackKind::Ranged => increment * 10,
        AttackKind::Touch if ranged_touch => increment * 5,
        _ => 0,
    };
    // A limited supply (the manticore's spikes: 24 a day, 180 ft. at most)
    // counts its shots and caps its range (`SpecialAbility::Supply`).
    let supply = owner.special_abilities.iter().find_map(|s| match s {
        crate::model::SpecialAbility::Supply { attack, shots, max_range_ft, .. }
            if !melee && (*attack == a.name || attack == a.weapon_id()) =>
        {
            Some((*shots, *max_range_ft))
        }
        _ => None,
    });
    let max_range_ft = match supply {
        Some((_, Some(cap))) => cap.min(max_range_ft),
        _ => max_range_ft,
    };
    let (reach_min, reach_max) = melee_reach(owner.size, a);
    let reload = reload::reload_time(owner, a);
    let ammo = match supply {
        Some((shots, _)) => shots.min(a.ammunition.unwrap_or(u32::MAX)),
        None => a.ammunition.unwrap_or(u32::MAX),
    };
    let splash = splash_profile(owner, a, everyone)?;
    let splash_weapon = splash.is_some();
    let lingering = lingering_damage(a)?;
    // Final values: the printed bonus of a secondary natural attack already
    // has its −5 (−2 with Multiattack), the printed threat range already
    // Improved Critical (feats::resolve).
    let bonus = a.attack_bonus;
    let threat_min = a.crit_range.clamp(2, 20);
    let mean_damage = components.iter().filter(|c| !c.bleed).map(|c| c.dice.mean()).sum::<f64>().max(0.0)
        + f64::from(a.damage_bonus);
    // Physical damage types plus special qualities: every DR bypass component must be among them.
    let mut carried: Vec<String> = a.qualities.iter().map(|q| norm(q)).collect();
    for c in a.damage.iter().filter(|c| is_physical(c)) {
        carried.extend(c.types.iter().map(|t| norm(t)));
    }
    let vs = everyone.iter().map(|d| defense_against(d, a, &carried)).collect();
    carried.sort();
    carried.dedup();
    Ok(AttackProfile {
        name: a.name.clone(),
        id: a.weapon_id().to_string(),
        melee,
        vs_touch: a.kind == AttackKind::Touch,
        firearm: a.firearm,
        bonus,
        natural: a.natural,
        secondary: a.secondary,
        two_handed: a.two_handed,
        off_hand: a.off_hand,
        light: a.light,
        weapon_damage: a.kind != AttackKind::Touch,
        mean_damage,
        components,
        bonus_component,
        damage_bonus: a.damage_bonus,
        threat_min,
        crit_mult: a.crit_mult.max(1),
        increment,
        max_range_ft,
        reach_min,
        reach_max,
        count: a.count.max(1),
        iterates: !a.natural && !a.standard_action,
        vs,
        carried,
        reload,
        ammo,
        tracks_shots: reload.is_some_and(|r| r != crate::model::ReloadTime::Free) || ammo != u32::MAX,
        splash,
        splash_dc: a.splash_dc,
        lingering,
        drawn: splash_weapon && reload == Some(crate::model::ReloadTime::Move),
    })
}

/// The splash part of a splash weapon, prepared as an attack of its own
/// whose damage is the splash (the defenses of every creature against it).
fn splash_profile(
    owner: &Combatant,
    a: &AttackSpec,
    everyone: &[&Combatant],
) -> Result<Option<Box<AttackProfile>>, String> {
    if a.splash.is_empty() {
        return Ok(None);
    }
    let part = AttackSpec { damage: a.splash.clone(), splash: Vec::new(), lingering: None, ..a.clone() };
    prepare_attack(owner, &part, everyone).map(|p| Some(Box::new(p))).map_err(|e| format!("splash: {e}"))
}

/// A hit's damage again next round, as recurring damage of one energy type.
fn lingering_damage(a: &AttackSpec) -> Result<Option<crate::effects::effect::Recurring>, String> {
    let Some(c) = &a.lingering else { return Ok(None) };
    let dice = DiceExpr::parse(&c.formula).map_err(|e| format!("lingering: {e}"))?;
    let energy = c
        .types
        .iter()
        .find_map(|t| crate::effects::effect::ENERGY.iter().position(|e| *e == norm(t)))
        .map(|k| k as u8);
    Ok(Some(crate::effects::effect::Recurring { dice, energy, nonlethal: false }))
}

/// The distances at which a melee attack hits (CRB "Big and Little Creatures
/// in Combat", "Reach Weapons"). Natural reach is a disc from the size (an
/// explicit `reach_ft` on a natural attack is that natural reach; on a weapon
/// it can only lengthen it); a reach weapon is a ring from just beyond the
/// natural reach to twice it (an explicit `reach_ft` sets its outer edge).
/// Tiny and smaller creatures have no reach: their disc is their own square.
/// A Tiny creature with a reach weapon hits adjacent squares only (simplified).
pub(crate) fn melee_reach(size: Size, a: &AttackSpec) -> (u32, u32) {
    let size_reach = natural_reach_ft(size);
    let natural = match (a.natural, a.reach_ft) {
        (true, Some(r)) => r,
        (false, Some(r)) if !a.reach_weapon => size_reach.max(r),
        _ => size_reach,
    };
    if a.reach_weapon {
        let outer = a.reach_ft.unwrap_or(2 * natural).max(2 * natural).max(5);
        (natural + 1, outer)
    } else {
        (0, natural)
    }
}

/// Whether `c` takes no precision damage (sneak attack): the Ooze and
/// Elemental traits and the incorporeal ability say so (Bestiary, Creature
/// Types; Universal Monster Rules, Incorporeal), or the file lists a
/// `precision` immunity. Undead and constructs are not immune in PF1e: their
/// traits grant no such immunity (the 3.5 rule they replaced did).
fn precision_immune(c: &Combatant) -> bool {
    matches!(c.creature_type.as_deref().map(norm).as_deref(), Some("ooze"))
        || c.has_feature("elemental traits")
        || c.has_feature("incorporeal")
        || c.immunities.iter().any(|i| norm(i) == "precision")
}

/// The energy types `c`'s `vulnerability` special abilities name, normalized.
fn vulnerabilities(c: &Combatant) -> Vec<String> {
    c.special_abilities
        .iter()
        .filter_map(|s| match s {
            crate::model::SpecialAbility::Vulnerability { types, .. } => Some(types),
            _ => None,
        })
        .flatten()
        .map(|t| norm(t))
        .collect()
}

fn defense_against(defender: &Combatant, a: &AttackSpec, carried: &[String]) -> DefenseVs {
    let dr = defender.dr.as_ref().map_or(0, |dr| Dr::of(dr).against(carried));
    let immunities: Vec<String> = defender.immunities.iter().map(|i| norm(i)).collect();
    let vulnerabilities = vulnerabilities(defender);
    let resist: Vec<(String, u32)> = defender.resistances.iter().map(|(k, &v)| (norm(k), v)).collect();
    let undead = defender.creature_type.as_deref().is_some_and(|t| norm(t) == "undead");
    // The damage types its special abilities name (normalized), as `pick` reads them.
    let named = |pick: fn(&crate::model::SpecialAbility) -> Option<&Vec<String>>| -> Vec<String> {
        defender.special_abilities.iter().filter_map(pick).flatten().map(|t| norm(t)).collect()
    };
    let splitters = named(|s| match s {
        crate::model::SpecialAbility::Split { types, .. } => Some(types),
        _ => None,
    });
    let fortifiers = named(|s| match s {
        crate::model::SpecialAbility::EnergyFortitude { types, .. } => Some(types),
        _ => None,
    });
    let regen_stoppers = named(|s| match s {
        crate::model::SpecialAbility::Regeneration { stopped_by, .. } => Some(stopped_by),
        _ => None,
    });
    let comps = a
        .damage
        .iter()
        .map(|c| {
            let types: Vec<String> = c.types.iter().map(|t| norm(t)).collect();
            CompDefense {
                resist: resist.iter().filter(|(k, _)| types.contains(k)).map(|&(_, v)| v).max().unwrap_or(0),
                immune: types.iter().any(|t| immunities.contains(t)) || !c.harms_creature(defender),
                vulnerable: types.iter().any(|t| vulnerabilities.contains(t)),
                heals: undead && types.iter().any(|t| t == "negative" || t == "negative_energy"),
                stops_regen: types.iter().any(|t| regen_stoppers.contains(t)),
                splits: !types.is_empty() && types.iter().all(|t| splitters.contains(t)),
                fortifies: types.iter().any(|t| fortifiers.contains(t)),
                halved: false,
                absorbed: None,
            }
        })
        .collect();
    DefenseVs { dr, comps }
}

/// Line of effect and terrain cover from one square to every square.
#[derive(Debug)]
struct GeoRow {
    loe: Box<[u64]>,
    cover: Box<[u8]>,
    cover_adjacent: [u8; 8],
}

/// Rows computed on first use, shared across threads.
#[derive(Debug, Default)]
struct GeoCache {
    rows: Vec<OnceLock<GeoRow>>,
}

impl GeoCache {
    fn new(map: &Map) -> Self {
        Self { rows: (0..cell_count(map)).map(|_| OnceLock::new()).collect() }
    }

    #[inline]
    fn row(&self, map: &Map, from: Pos) -> &GeoRow {
        self.rows[map.index(from)].get_or_init(|| compute_row(map, from))
    }
}

fn compute_row(map: &Map, from: Pos) -> GeoRow {
    let cells = cell_count(map);
    let mut loe = vec![0u64; cells.div_ceil(64)].into_boxed_slice();
    let mut cover = vec![0u8; cells].into_boxed_slice();
    for row in 0..map.height {
        for col in 0..map.width {
            let to = Pos::new(row, col);
            let j = map.index(to);
            if los::has_line_of_effect(map, from, to) {
                loe[j / 64] |= 1 << (j % 64);
                cover[j] = los::terrain_cover(map, from, to, false);
            }
        }
    }
    let mut cover_adjacent = [0u8; 8];
    for (k, &(dr, dc)) in NEIGHBOURS.iter().enumerate() {
        let to = Pos::new(from.row + dr, from.col + dc);
        if map.in_bounds(to) {
            cover_adjacent[k] = los::terrain_cover(map, from, to, true);
        }
    }
    GeoRow { loe, cover, cover_adjacent }
}

fn cell_count(map: &Map) -> usize {
    (map.width.max(0) * map.height.max(0)) as usize
}
