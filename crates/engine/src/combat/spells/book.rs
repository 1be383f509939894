//! What an encounter's casters can cast, compiled once per encounter: the
//! spells of the library that someone uses ([`PreparedSpell`]), and each
//! caster's spells, levels, DCs, slots and metamagic ([`CasterSpec`]).

use crate::dice::ability_modifier;
use crate::effects::{Descriptor, Descriptors};
use crate::feats::ClassRules;
use crate::library::Library;
use crate::model::{CastingAbility, Combatant};
use crate::spell::Spell;
use crate::spell::effect::{EffectKind, SpellEffect};
use crate::spell::model::{CastTime, DurationUnit, School, Subschool, TargetKind};

use super::playable::unplayable;

/// Metamagic feats applied to one casting (bit set).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Metamagic(pub u8);

impl Metamagic {
    /// No metamagic.
    pub const NONE: Metamagic = Metamagic(0);
    /// Empower Spell: variable numbers ×1.5; +2 levels.
    pub const EMPOWER: Metamagic = Metamagic(1);
    /// Maximize Spell: variable numbers at their maximum; +3 levels.
    pub const MAXIMIZE: Metamagic = Metamagic(2);
    /// Extend Spell: duration doubled; +1 level.
    pub const EXTEND: Metamagic = Metamagic(4);
    /// Heighten Spell: the spell is one level higher in every way (DC included); +1 level.
    pub const HEIGHTEN: Metamagic = Metamagic(8);
    /// Quicken Spell: cast as a swift action; +4 levels.
    pub const QUICKEN: Metamagic = Metamagic(16);

    /// Whether every feat of `other` is in the set.
    pub const fn has(self, other: Metamagic) -> bool {
        self.0 & other.0 == other.0 && other.0 != 0
    }

    /// The union.
    pub const fn with(self, other: Metamagic) -> Metamagic {
        Metamagic(self.0 | other.0)
    }

    /// Whether no feat is in the set.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Spell levels the feats add to the slot (CRB "Metamagic Feats").
    pub const fn level_adjustment(self) -> u8 {
        let mut n = 0;
        if self.0 & Self::EMPOWER.0 != 0 {
            n += 2;
        }
        if self.0 & Self::MAXIMIZE.0 != 0 {
            n += 3;
        }
        if self.0 & Self::EXTEND.0 != 0 {
            n += 1;
        }
        if self.0 & Self::HEIGHTEN.0 != 0 {
            n += 1;
        }
        if self.0 & Self::QUICKEN.0 != 0 {
            n += 4;
        }
        n
    }

    /// Each feat with its stable short name (`empower`…), as actions write it.
    pub const NAMED: [(Metamagic, &'static str); 5] = [
        (Self::EMPOWER, "empower"),
        (Self::MAXIMIZE, "maximize"),
        (Self::EXTEND, "extend"),
        (Self::HEIGHTEN, "heighten"),
        (Self::QUICKEN, "quicken"),
    ];

    /// The feat with short name `name` (`empower`), if any.
    pub fn from_name(name: &str) -> Option<Metamagic> {
        Self::NAMED.iter().find(|(_, n)| *n == name).map(|(m, _)| *m)
    }

    /// The short names of the feats in the set, in [`Metamagic::NAMED`] order.
    pub fn short_names(self) -> Vec<&'static str> {
        Self::NAMED.iter().filter(|(m, _)| self.has(*m)).map(|(_, n)| *n).collect()
    }

    /// The feat called `name` (`"Empower Spell"`), if the engine plays it.
    pub fn from_feat(name: &str) -> Option<Metamagic> {
        Some(match name.trim().to_lowercase().as_str() {
            "empower spell" => Self::EMPOWER,
            "maximize spell" => Self::MAXIMIZE,
            "extend spell" => Self::EXTEND,
            "heighten spell" => Self::HEIGHTEN,
            "quicken spell" => Self::QUICKEN,
            _ => return None,
        })
    }

    /// The feats' names, for the transcript.
    pub fn names(self) -> Vec<&'static str> {
        [
            (Self::EMPOWER, "empowered"),
            (Self::MAXIMIZE, "maximized"),
            (Self::EXTEND, "extended"),
            (Self::HEIGHTEN, "heightened"),
            (Self::QUICKEN, "quickened"),
        ]
        .into_iter()
        .filter(|(m, _)| self.has(*m))
        .map(|(_, n)| n)
        .collect()
    }
}

/// What a spell is for, as the policies see it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Role {
    /// Deals hit point damage to enemies.
    pub damage: bool,
    /// Heals (positive energy: also harms undead).
    pub heal: bool,
    /// Harmless help for allies (modifiers, temporary hit points, immunities…).
    pub buff: bool,
    /// Hinders enemies (conditions, penalties) without damage.
    pub control: bool,
    /// Summons creatures.
    pub summon: bool,
    /// Affects an area (a burst, cone, line…), not chosen targets.
    pub area: bool,
    /// Raises a fallen ally (stabilizes).
    pub stabilize: bool,
    /// Makes a construct that strikes foes on its own (Spiritual Weapon).
    pub construct: bool,
    /// Strikes back at those who hit its bearer in melee (Fire Shield).
    pub retaliation: bool,
    /// Carries its caster's touch spells at a distance (Spectral Hand).
    pub touch_delivery: bool,
    /// Takes its caster elsewhere (Dimension Door).
    pub teleport: bool,
    /// Raises a globe that keeps out spells up to this level (Globe of Invulnerability).
    pub globe: Option<u8>,
    /// Ends a spell on a creature or an area with a targeted dispel, its
    /// check capped at this caster level (Dispel Magic).
    pub dispel: Option<u32>,
}

/// A spell of the encounter's library, checked once.
#[derive(Debug)]
pub(crate) struct PreparedSpell {
    /// Identifier (`fireball`).
    pub id: String,
    /// The spell as its file describes it.
    pub spell: Spell,
    /// Why the engine cannot cast it, if so (a path and a reason).
    pub unplayable: Option<String>,
    /// Descriptors a save against it carries (its own, its school's, its subschool's).
    pub descriptors: Descriptors,
    /// The subschools an immunity may name (`phantasm`, `polymorph`).
    pub subschool: Option<Subschool>,
    /// What it is for.
    pub role: Role,
}

/// One spell a caster can cast.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Known {
    /// Index into `PreparedEncounter::spells`.
    pub spell: u16,
    /// The spell's level for this caster (its slot without metamagic).
    pub level: u8,
    /// 10 + level + casting modifier + Spell Focus.
    pub dc: i32,
    /// The summon group this spell fills (index into `PreparedEncounter::summon_groups`).
    pub group: Option<u16>,
    /// A prepared caster casts it by giving up a prepared spell of its slot
    /// level (a cleric's cure wounds), not from a prepared copy of its own.
    pub spontaneous: bool,
    /// A spell of its domains: a domain slot holds it (CRB "Cleric: Domains").
    pub domain: bool,
}

/// Copies of one spell a prepared caster prepared (CRB "Preparing Wizard Spells").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PreparedCopy {
    /// Index into `PreparedEncounter::spells`.
    pub spell: u16,
    /// The metamagic it was prepared with: it is cast with exactly this.
    pub metamagic: Metamagic,
    /// The slot level it fills (its level raised by the metamagic).
    pub slot: u8,
    /// Copies prepared.
    pub count: u8,
    /// Prepared in a domain slot: never given up for a spontaneous conversion.
    pub domain: bool,
}

/// A caster's spellcasting, compiled.
#[derive(Debug)]
pub(crate) struct CasterSpec {
    /// Caster level.
    pub cl: u32,
    /// Modifier of the casting ability.
    pub ability_mod: i32,
    /// Its spells, in file order.
    pub known: Vec<Known>,
    /// Spells per level for the encounter (level 0, cantrips, is never spent),
    /// domain slots included.
    pub slots: [u8; 10],
    /// Of `slots`, the domain slots per level: only a domain spell is cast from one.
    pub domain: [u8; 10],
    /// Metamagic feats it knows.
    pub metamagic: Metamagic,
    /// Bonus on caster level checks against spell resistance.
    pub penetration: i32,
    /// A prepared caster's spells of the day, in file order (empty: it casts
    /// as a spontaneous caster, any known spell from the slots of its level).
    pub prepared: Vec<PreparedCopy>,
    /// Its spells are an alchemist's extracts (APG "Alchemy", the feature
    /// `Alchemy`): each is drunk (a standard action that provokes, no
    /// concentration) and affects only the drinker.
    pub extracts: bool,
}

impl CasterSpec {
    /// The known spell for encounter spell `spell`, if it knows it.
    pub fn known(&self, spell: u16) -> Option<&Known> {
        self.known.iter().find(|k| k.spell == spell)
    }

    /// Whether it casts from a prepared list.
    pub fn is_prepared(&self) -> bool {
        !self.prepared.is_empty()
    }

    /// Whether a casting of `spell` with `metamagic` takes a full-round action
    /// instead of a standard one (CRB "Metamagic Feats", spontaneous casting
    /// and metamagic): a spontaneous caster's metamagic spell, a prepared
    /// caster's spontaneous conversion with metamagic; Quicken Spell never.
    pub fn metamagic_takes_full_round(&self, spell: u16, metamagic: Metamagic) -> bool {
        if metamagic.is_empty() || metamagic.has(Metamagic::QUICKEN) {
            return false;
        }
        !self.is_prepared() || self.known(spell).is_some_and(|k| k.spontaneous)
    }

    /// The prepared copy of `spell` with exactly `metamagic`, if any.
    #[cfg(test)]
    pub fn prepared_copy(&self, spell: u16, metamagic: Metamagic) -> Option<usize> {
        self.prepared.iter().position(|p| p.spell == spell && p.metamagic == metamagic)
    }

    /// The prepared copy of `spell` with exactly `metamagic` that a casting
    /// spends, `left` being the copies left: the one in a domain slot first
    /// (it can hold nothing else), then the ordinary one.
    pub fn copy_to_cast(&self, spell: u16, metamagic: Metamagic, left: &[u8]) -> Option<usize> {
        let with = |domain: bool| {
            self.prepared.iter().enumerate().position(|(p, c)| {
                c.spell == spell
                    && c.metamagic == metamagic
                    && c.domain == domain
                    && left.get(p).is_some_and(|&n| n > 0)
            })
        };
        with(true).or_else(|| with(false))
    }

    /// Whether a casting of `spell` (spending `copy` for a prepared caster)
    /// in a slot of `slot` takes a domain slot: a domain spell does while
    /// one is left at that level, as a table spends the slot that can hold
    /// nothing else first; a prepared caster's, when its copy is a domain one.
    pub fn takes_domain_slot(
        &self,
        spell: u16,
        slot: u8,
        copy: Option<usize>,
        domain_left: &[u8; 10],
    ) -> bool {
        let level = usize::from(slot);
        if slot == 0 || level > 9 || domain_left[level] == 0 {
            return false;
        }
        match copy {
            Some(p) => self.prepared.get(p).is_some_and(|c| c.domain),
            None => !self.is_prepared() && self.known(spell).is_some_and(|k| k.domain),
        }
    }
}

/// Descriptors a school or subschool lends to saves against its spells
/// (`+2 vs enchantment`, `immune to illusions`).
fn school_descriptor(school: School) -> Option<Descriptor> {
    match school {
        School::Enchantment => Some(Descriptor::Enchantment),
        School::Illusion => Some(Descriptor::Illusion),
        School::Divination => Some(Descriptor::Divination),
        School::Necromancy => Some(Descriptor::Necromancy),
        _ => None,
    }
}

fn subschool_descriptor(sub: Option<Subschool>) -> Option<Descriptor> {
    match sub {
        Some(Subschool::Charm) => Some(Descriptor::Charm),
        Some(Subschool::Compulsion) => Some(Descriptor::Compulsion),
        _ => None,
    }
}

/// Compiles spell `id` of the library.
pub(crate) fn prepare_spell(id: &str, spell: &Spell) -> PreparedSpell {
    let mut list: Vec<Descriptor> = spell.descriptors.clone();
    list.extend(school_descriptor(spell.school));
    list.extend(subschool_descriptor(spell.subschool));
    // A sleep or paralysis condition makes the spell a sleep or paralysis effect.
    let mut conditions = Vec::new();
    collect_conditions(&spell.effects, &mut conditions);
    if conditions.contains(&crate::effects::ConditionId::Asleep) {
        list.push(Descriptor::Sleep);
    }
    if conditions.contains(&crate::effects::ConditionId::Paralyzed) {
        list.push(Descriptor::Paralysis);
    }
    if spell.effects.iter().any(|e| matches!(e.kind, EffectKind::Death(_))) {
        list.push(Descriptor::Death);
    }
    PreparedSpell {
        id: id.to_string(),
        spell: spell.clone(),
        unplayable: unplayable(spell),
        descriptors: Descriptors::of(&list),
        subschool: spell.subschool,
        role: role_of(spell),
    }
}

fn collect_conditions(effects: &[SpellEffect], out: &mut Vec<crate::effects::ConditionId>) {
    for e in effects {
        if let EffectKind::Condition(c) = &e.kind {
            out.extend(c.conditions.iter().copied());
        }
        for (_, child) in e.children("$") {
            collect_conditions(std::slice::from_ref(child), out);
        }
    }
}

/// What a spell is for, from its effects.
fn role_of(spell: &Spell) -> Role {
    let mut role = Role { area: spell.area.is_some() && spell.target.is_none(), ..Role::default() };
    if spell.cast_time == CastTime::Long {
        return role;
    }
    let helps = spell.harmless || spell.target.as_ref().is_some_and(|t| t.kind == TargetKind::Caster);
    // A helpful choice (Fire Shield's warm or chill shield, Magic
    // Vestment's armor or shield) is what its first option does.
    let effects = spell.effects.iter().flat_map(|e| match &e.kind {
        EffectKind::Choice(c) if helps => c.options.first().map_or(&[][..], |o| &o.effects[..]),
        _ => std::slice::from_ref(e),
    });
    for e in effects {
        match &e.kind {
            EffectKind::Damage(d) if !d.heals_undead || !spell.harmless => role.damage = true,
            EffectKind::Heal(_) => role.heal = true,
            EffectKind::Summon(_) => role.summon = true,
            EffectKind::Controlled(_) => role.construct = true,
            EffectKind::Retaliation(_) if helps => {
                role.buff = true;
                role.retaliation = true;
            }
            EffectKind::Stabilize(_) => role.stabilize = true,
            EffectKind::TouchDelivery(_) => role.touch_delivery = true,
            EffectKind::Teleport(_) => role.teleport = true,
            EffectKind::Dispel(d) if d.modes.contains(&crate::spell::effect::DispelMode::Targeted) => {
                role.dispel = Some(d.max_caster_level)
            }
            EffectKind::Zone(z) if z.excludes_spells_up_to_level.is_some() => {
                role.globe = z.excludes_spells_up_to_level
            }
            EffectKind::Condition(_) | EffectKind::Compel(_) | EffectKind::Death(_) if !helps => {
                role.control = true
            }
            EffectKind::Modifiers(m) if !helps && m.modifiers.iter().all(|m| negative(&m.value)) => {
                role.control = true
            }
            EffectKind::NegativeLevels(_)
            | EffectKind::AbilityDamage(_)
            | EffectKind::ActionLoss(_)
            | EffectKind::Reroll(_)
                if !helps =>
            {
                role.control = true
            }
            EffectKind::Choice(_) if !helps => role.control = true,
            // Growing helps an ally (who forgoes the save), shrinking hinders a foe.
            EffectKind::SizeChange(s) if s.steps > 0 => role.buff = true,
            EffectKind::SizeChange(_) => role.control = true,
            // A lasting area that hinders those in it (concealment alone hinders both sides).
            EffectKind::Zone(z)
                if !helps
                    && (z.difficult_terrain
                        || z.silence
                        || !z.on_appear.is_empty()
                        || !z.on_enter.is_empty()
                        || !z.each_round.is_empty()) =>
            {
                role.control = true
            }
            EffectKind::Modifiers(_)
            | EffectKind::TempHp(_)
            | EffectKind::OneShot(_)
            | EffectKind::Immunity(_)
            | EffectKind::EnergyResistance(_)
            | EffectKind::EnergyAbsorption(_)
            | EffectKind::DamageReduction(_)
            | EffectKind::MirrorImages(_)
            | EffectKind::SpeedChange(_)
            | EffectKind::ExtraAttack(_)
            | EffectKind::SeeInvisibility(_)
            | EffectKind::WeaponQualities(_)
            | EffectKind::Keen(_)
            | EffectKind::Condition(_)
            | EffectKind::MovementProvokesNoAoo(_)
            | EffectKind::Sanctuary(_)
            | EffectKind::AlignmentWard(_)
            | EffectKind::Fly(_)
            | EffectKind::EnergyWard(_)
                if helps =>
            {
                role.buff = true
            }
            _ => {}
        }
    }
    role
}

fn negative(v: &crate::spell::Scaled) -> bool {
    v.bounds_at(20).1 <= 0 && v.bounds_at(1).1 <= 0
}

/// Why a caster's spell cannot be compiled: (JSON path in its file, reason).
pub(crate) type SpellFailure = (String, String);

/// The class lists tried, in this order, when a caster names none.
const DEFAULT_LISTS: [&str; 9] =
    ["sorcerer", "wizard", "cleric", "druid", "bard", "witch", "magus", "oracle", "inquisitor"];

/// The class list of a caster that names none: the list that has the most
/// of its spells (the first of `DEFAULT_LISTS`, then of every list in name
/// order, on a tie). A spell it lacks (a domain spell) takes the level of
/// the first of `DEFAULT_LISTS` that has it, else its lowest.
fn implied_list(c: &Combatant, library: &Library) -> Option<&'static str> {
    let spells: Vec<&Spell> = c.spells.iter().filter_map(|n| library.spell(n).map(|(_, s)| s)).collect();
    let covered = |list: &str| spells.iter().filter(|s| s.levels.contains_key(list)).count();
    DEFAULT_LISTS
        .iter()
        .chain(crate::spell::CLASSES.iter())
        .copied()
        .fold(None, |best: Option<(&'static str, usize)>, l| {
            let n = covered(l);
            if n > 0 && best.is_none_or(|b| n > b.1) { Some((l, n)) } else { best }
        })
        .map(|(l, _)| l)
}

/// The level of `spell` for caster `c` (whose implied list is `implied`).
fn level_for(c: &Combatant, implied: Option<&str>, spell: &Spell) -> Result<u8, String> {
    if c.spell_list.is_none()
        && let Some(list) = implied
        && let Some(&l) = spell.levels.get(list)
    {
        return Ok(l);
    }
    match &c.spell_list {
        Some(list) => spell.levels.get(list.as_str()).copied().ok_or_else(|| {
            let lists: Vec<&str> = spell.levels.keys().map(String::as_str).collect();
            format!("{:?} is not on the {list} spell list (its lists: {})", spell.name, lists.join(", "))
        }),
        None => Ok(spell.level_for(DEFAULT_LISTS).or_else(|| spell.lowest_level()).unwrap_or(0)),
    }
}

/// Compiles the spellcasting of combatant `c`; `index_of` maps a spell
/// identifier to its index in the encounter's spell table. `None` for a
/// combatant without spells.
pub(crate) fn prepare_caster(
    c: &Combatant,
    library: &Library,
    class: &ClassRules,
    index_of: &mut dyn FnMut(&str, &Spell) -> u16,
) -> Result<Option<CasterSpec>, SpellFailure> {
    if c.spells.is_empty() {
        return Ok(None);
    }
    let ability = match c.casting_ability {
        Some(CastingAbility::Int) => c.abilities.int_score.unwrap_or(10),
        Some(CastingAbility::Wis) => c.abilities.wis_score,
        Some(CastingAbility::Cha) => c.abilities.cha_score,
        None => 10,
    };
    let ability_mod = ability_modifier(ability);
    let implied = if c.spell_list.is_none() { implied_list(c, library) } else { None };
    let mut known = Vec::with_capacity(c.spells.len());
    for (i, name) in c.spells.iter().enumerate() {
        let path = format!("$.spells[{i}]");
        let Some((id, spell)) = library.spell(name) else {
            let hint = if library.spells.is_empty() {
                "no spell directory was given with the scenario".to_string()
            } else {
                format!("the spell directory has {} spells, none named so", library.spells.len())
            };
            return Err((path, format!("unknown spell {name:?}: {hint}")));
        };
        let level = level_for(c, implied, spell).map_err(|m| (path.clone(), m))?;
        if class.alchemy
            && let Some(why) = extract_misfit(spell)
        {
            return Err((
                path,
                format!(
                    "{name:?} cannot be an extract: an extract affects only the alchemist who drinks it (APG \"Alchemy\"), and {why}"
                ),
            ));
        }
        let index = index_of(id, spell);
        if known.iter().any(|k: &Known| k.spell == index) {
            return Err((path, format!("spell {name:?} is listed twice")));
        }
        let dc = 10 + i32::from(level) + ability_mod + class.focus(spell.school);
        let spontaneous = c.spontaneous.iter().any(|s| s.trim().eq_ignore_ascii_case(name.trim()));
        let domain = c.domain_spells.iter().any(|s| s.trim().eq_ignore_ascii_case(name.trim()));
        known.push(Known { spell: index, level, dc, group: None, spontaneous, domain });
    }
    let per_level = |table: &std::collections::BTreeMap<String, u32>| {
        let mut out = [0u8; 10];
        for (level, &n) in table {
            if let Ok(l) = level.parse::<usize>()
                && l < 10
            {
                out[l] = n.min(255) as u8;
            }
        }
        out
    };
    let mut slots = per_level(&c.spell_slots);
    let mut domain = per_level(&c.domain_slots);
    let prepared = prepared_copies(c, library, &known, index_of)?;
    if prepared.is_empty() {
        for (s, d) in slots.iter_mut().zip(domain) {
            *s = s.saturating_add(d);
        }
    } else {
        // A domain slot left empty at preparation holds nothing to cast.
        (slots, domain) = prepared_slots(c, &prepared, slots, domain)?;
    }
    let metamagic = c
        .metamagic_feats
        .iter()
        .filter_map(|m| Metamagic::from_feat(m))
        .fold(Metamagic::NONE, Metamagic::with);
    Ok(Some(CasterSpec {
        cl: c.caster_level(),
        ability_mod,
        known,
        slots,
        domain,
        metamagic,
        penetration: class.spell_penetration,
        prepared,
        extracts: class.alchemy,
    }))
}

/// Why `spell` cannot be an alchemist's extract, if so: an extract affects
/// only its drinker (APG "Alchemy"), so a spell the engine plays against
/// foes (damage, hindrance, a summons) or one that fills an area has
/// nothing to do; one aimed at a creature must be harmless to it (a
/// personal spell always is).
pub(crate) fn extract_misfit(spell: &Spell) -> Option<&'static str> {
    let role = role_of(spell);
    let personal = spell.range == crate::spell::model::Range::Personal
        || spell.target.as_ref().is_some_and(|t| t.kind == TargetKind::Caster);
    if role.damage {
        Some("it deals damage")
    } else if role.summon {
        Some("it summons creatures")
    } else if role.control {
        Some("it hinders its target")
    } else if spell.target.is_none() && spell.area.is_some() {
        Some("it fills an area")
    } else if spell.target.is_some() && !personal && !spell.harmless {
        Some("it is not harmless to its target")
    } else {
        None
    }
}

/// The prepared list of `c` compiled: each entry's spell (already among
/// `known`), metamagic and slot level; an entry repeated adds its copies.
fn prepared_copies(
    c: &Combatant,
    library: &Library,
    known: &[Known],
    index_of: &mut dyn FnMut(&str, &Spell) -> u16,
) -> Result<Vec<PreparedCopy>, SpellFailure> {
    let mut out: Vec<PreparedCopy> = Vec::with_capacity(c.prepared.len());
    for (i, entry) in c.prepared.iter().enumerate() {
        let path = format!("$.prepared[{i}]");
        // Validation checked that the name is one of `spells`, which all resolved.
        let Some((id, spell)) = library.spell(&entry.spell) else {
            return Err((format!("{path}.spell"), format!("unknown spell {:?}", entry.spell)));
        };
        let index = index_of(id, spell);
        let Some(k) = known.iter().find(|k| k.spell == index) else {
            return Err((format!("{path}.spell"), format!("{:?} is not one of the spells", entry.spell)));
        };
        let metamagic = entry
            .metamagic
            .iter()
            .filter_map(|m| Metamagic::from_feat(m))
            .fold(Metamagic::NONE, Metamagic::with);
        let slot = k.level + metamagic.level_adjustment();
        if slot > 9 {
            return Err((path, format!("{:?} with its metamagic needs a slot of level {slot}", entry.spell)));
        }
        if slot == 0 {
            return Err((
                path,
                format!("{:?} is a cantrip or orison: cast at will, never prepared", entry.spell),
            ));
        }
        let domain = entry.domain;
        match out.iter_mut().find(|p| p.spell == index && p.metamagic == metamagic && p.domain == domain) {
            Some(p) => p.count = p.count.saturating_add(entry.count.min(255) as u8),
            None => out.push(PreparedCopy {
                spell: index,
                metamagic,
                slot,
                count: entry.count.min(255) as u8,
                domain,
            }),
        }
    }
    Ok(out)
}

/// The slots of a prepared caster, and its domain slots filled: the copies
/// it prepared per level, those in domain slots included. A file's `spell_slots` that says otherwise for
/// a level (of its ordinary copies) is an error, and so is a domain copy
/// beyond the domain slots of its level.
fn prepared_slots(
    c: &Combatant,
    prepared: &[PreparedCopy],
    printed: [u8; 10],
    domain: [u8; 10],
) -> Result<([u8; 10], [u8; 10]), SpellFailure> {
    let mut ordinary = [0u8; 10];
    let mut in_domain = [0u8; 10];
    for p in prepared {
        let per = if p.domain { &mut in_domain } else { &mut ordinary };
        per[usize::from(p.slot)] = per[usize::from(p.slot)].saturating_add(p.count);
    }
    for level in 1..10 {
        if !c.spell_slots.is_empty() && printed[level] != ordinary[level] {
            return Err((
                format!("$.spell_slots['{level}']"),
                format!(
                    "{} spells of level {level} given, {} prepared: with a prepared list, spell_slots must match it (or be left out)",
                    printed[level], ordinary[level]
                ),
            ));
        }
        if in_domain[level] > domain[level] {
            return Err((
                format!("$.domain_slots['{level}']"),
                format!(
                    "{} domain slot(s) of level {level}, {} spell(s) prepared in them",
                    domain[level], in_domain[level]
                ),
            ));
        }
    }
    let mut slots = [0u8; 10];
    for level in 0..10 {
        slots[level] = ordinary[level].saturating_add(in_domain[level]);
    }
    Ok((slots, in_domain))
}

/// How long a spell's effect lasts beyond the battle that keeps it for its
/// whole length (an adventuring day's carried effects, `combat::carry`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outlasts {
    /// This many rounds from its casting (minutes 10, hours 600, days 14 400).
    Rounds(u32),
    /// Until something removes it (permanent).
    Forever,
    /// It belongs to the battle (concentration, an area's stay).
    Battle,
}

/// The full duration by the SRD of a spell cast at caster level `cl` whose
/// effect a battle keeps for its whole length: the spell's own duration in
/// minutes, hours or days, else the longest such duration of its effects,
/// else permanent if the spell or an effect is. A duration of dice counts
/// its mean (rounded down, at least one unit); Extend Spell is not seen
/// (the effect does not record it) — `docs/days.md`.
pub(crate) fn outlasts(spell: &crate::spell::Spell, cl: u32) -> Outlasts {
    let rounds = |d: &crate::spell::model::SpellDuration| -> Option<u32> {
        let per = match d.unit {
            DurationUnit::Minutes => 10,
            DurationUnit::Hours => 600,
            DurationUnit::Days => 14_400,
            _ => return None,
        };
        let units = d.amount.as_ref().map_or(1.0, |a| a.mean_at(cl)).floor().max(1.0) as u32;
        Some(units.saturating_mul(per))
    };
    if let Some(n) = rounds(&spell.duration) {
        return Outlasts::Rounds(n);
    }
    let own = || spell.effects.iter().filter_map(|e| e.duration.as_ref());
    if let Some(n) = own().filter_map(rounds).max() {
        return Outlasts::Rounds(n);
    }
    if spell.duration.unit == DurationUnit::Permanent || own().any(|d| d.unit == DurationUnit::Permanent) {
        return Outlasts::Forever;
    }
    Outlasts::Battle
}

/// Whether a duration outlasts any battle (minutes, hours, days, permanent).
pub(crate) fn lasts_the_battle(unit: DurationUnit) -> bool {
    matches!(unit, DurationUnit::Minutes | DurationUnit::Hours | DurationUnit::Days | DurationUnit::Permanent)
}

/// The `zone` effect of a spell's effects, with its index (data: the
/// battle state asks it of a carried effect's spell, the zone rules of a cast).
pub(crate) fn zone_effect(effects: &[SpellEffect]) -> Option<(usize, &crate::spell::effect::ZoneEffect)> {
    effects.iter().enumerate().find_map(|(k, e)| match &e.kind {
        EffectKind::Zone(z) => Some((k, z)),
        _ => None,
    })
}
