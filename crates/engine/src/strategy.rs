//! Strategy specs: the levers a side's policy is compiled from, and their
//! canonical names.
//!
//! Every lever is described once, in [`LEVERS`] (name, kind of value,
//! default, documentation): parsing, setting, the canonical name and any
//! schema generated for clients all read that table. A spec is written by
//! name (`default`, `lowest_hp, retreat=0.5`) or built lever by lever. Its
//! canonical name lists the levers that differ from the default in the
//! table's order, so two spellings of the same spec share one name — and one
//! cache key. The party's spec ([`StrategySpec`]) and the other side's
//! ([`AdversarySpec`]) have the same levers.

use std::fmt;

crate::named_enum! {
    /// Which enemy a combatant attacks.
    #[derive(Default)]
    TargetPriority {
        /// The nearest enemy able to fight (the default policy's choice).
        #[default]
        Nearest => "nearest",
        /// The enemy with the lowest armor class.
        WeakestAc => "weakest_ac",
        /// The enemy with the fewest hit points.
        LowestHp => "lowest_hp",
        /// A spellcaster (the healer), else the weakest armor class.
        Healer => "healer",
    }
}

crate::named_enum! {
    /// Whether casters cast.
    #[derive(Default)]
    SpellPolicy {
        /// Cast as the default policy does.
        #[default]
        Default => "default",
        /// Never cast.
        None => "none",
    }
}

crate::named_enum! {
    /// When a combatant with the Power Attack feat declares it.
    #[derive(Default)]
    PowerAttackUse {
        /// When it raises the expected damage of its melee attack against the
        /// target's AC (the default policy's choice).
        #[default]
        Auto => "auto",
        /// Every turn it attacks in melee.
        Always => "always",
        /// Never.
        Never => "never",
    }
}

crate::named_enum! {
    /// Which combat maneuver a combatant tries instead of attacking.
    #[derive(Default)]
    ManeuverUse {
        /// None: it attacks (the default policy's choice).
        #[default]
        None => "none",
        /// Trip a foe standing up, when the odds beat an attack.
        Trip => "trip",
        /// Disarm a foe holding a weapon, when the odds beat an attack.
        Disarm => "disarm",
        /// Trip or disarm, whichever has the better odds, when they beat an attack.
        Auto => "auto",
    }
}

/// What a lever's value is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeverKind {
    /// One of these names.
    Choice(&'static [&'static str]),
    /// A fraction in [0, 1], kept to thousandths.
    Fraction,
    /// `true` or `false`.
    Bool,
}

/// One lever: its name, the kind of its value, its default and what it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeverSchema {
    /// The key (`retreat`, `power_attack`…).
    pub name: &'static str,
    /// The kind of value.
    pub kind: LeverKind,
    /// The default value, as written.
    pub default: &'static str,
    /// What it does.
    pub doc: &'static str,
}

/// Every lever, in canonical order. The target may also be written bare
/// (`lowest_hp` for `target=lowest_hp`).
pub const LEVERS: &[LeverSchema] = &[
    LeverSchema {
        name: "target",
        kind: LeverKind::Choice(&["nearest", "weakest_ac", "lowest_hp", "healer"]),
        default: "nearest",
        doc: "Which enemy to attack: the nearest, the lowest armor class, the fewest hit points, or a spellcaster first.",
    },
    LeverSchema {
        name: "spell_policy",
        kind: LeverKind::Choice(&["default", "none"]),
        default: "default",
        doc: "Whether casters cast spells as the default policy does, or never.",
    },
    LeverSchema {
        name: "use_charges",
        kind: LeverKind::Bool,
        default: "true",
        doc: "Charge when a clear straight line to the target exists.",
    },
    LeverSchema {
        name: "use_class_abilities",
        kind: LeverKind::Bool,
        default: "true",
        doc: "Use class abilities (channel energy, hexes, deeds, bardic performance, spell combat, arcane pool).",
    },
    LeverSchema {
        name: "retreat",
        kind: LeverKind::Fraction,
        default: "0",
        doc: "Below this fraction of maximum hit points, head for an exit and leave the battle (no exit: withdraw from foes); the whole side leaves once its standing members hold less than this fraction of its hit points (0: never).",
    },
    LeverSchema {
        name: "power_attack",
        kind: LeverKind::Choice(&["auto", "always", "never"]),
        default: "auto",
        doc: "Power Attack (combatants with the feat): when it raises the expected damage against the target's AC, on every melee turn, or never.",
    },
    LeverSchema {
        name: "maneuver",
        kind: LeverKind::Choice(&["none", "trip", "disarm", "auto"]),
        default: "none",
        doc: "A combat maneuver instead of attacking, when its chance of success is at least the chance to hit: trip, disarm, the better of the two, or none.",
    },
    LeverSchema {
        name: "open_with_buffs",
        kind: LeverKind::Bool,
        default: "false",
        doc: "Casters spend their first two rounds on their buffs (and a bard starts inspiring courage) before anything else.",
    },
    LeverSchema {
        name: "focus_casters",
        kind: LeverKind::Bool,
        default: "false",
        doc: "Attack and aim spells at enemy spellcasters first (then by the target lever).",
    },
    LeverSchema {
        name: "save_heals",
        kind: LeverKind::Bool,
        default: "false",
        doc: "A caster who knows a healing spell keeps one slot of each level it can heal with for healing.",
    },
    LeverSchema {
        name: "area_min",
        kind: LeverKind::Choice(&["1", "2", "3"]),
        default: "2",
        doc: "Cast an area spell only when it catches at least this many enemies (one fewer, at least one, for an area that only hinders) and none of the caster's allies.",
    },
    LeverSchema {
        name: "consumables",
        kind: LeverKind::Choice(&["use", "save"]),
        default: "use",
        doc: "Spend potions, wands, scrolls and splash flasks in battle as the default policy does, or save them all (never used in battle).",
    },
];

/// The lever called `name`.
pub fn lever(name: &str) -> Option<&'static LeverSchema> {
    LEVERS.iter().find(|l| l.name == name)
}

/// The strategy levers of one side. `StrategySpec::default()` is the
/// engine's default policy.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct StrategySpec {
    /// Target choice.
    pub target: TargetPriority,
    /// Retreat below this fraction of maximum hit points, in thousandths (0 = never).
    pub retreat_milli: u16,
    /// Spellcasting.
    pub spell_policy: SpellPolicy,
    /// Charge when a straight line exists.
    pub use_charges: bool,
    /// Class abilities.
    pub use_class_abilities: bool,
    /// Power Attack use.
    pub power_attack: PowerAttackUse,
    /// Combat maneuver use.
    pub maneuver: ManeuverUse,
    /// Casters open with their buffs.
    pub open_with_buffs: bool,
    /// Enemy casters first.
    pub focus_casters: bool,
    /// Keep slots for healing.
    pub save_heals: bool,
    /// Fewest enemies an area spell must catch (1 to 3).
    pub area_min: u8,
    /// Never spend potions, wands, scrolls or splash flasks in battle.
    pub save_consumables: bool,
}

/// Which levers can change anything for a side: a lever about spells is
/// inert for a side that casts none, one about class abilities for a side
/// without any (the optimize job does not vary them then).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Relevance {
    /// Someone on the side casts spells.
    pub spells: bool,
    /// Someone on the side has a class ability the engine plays.
    pub class_abilities: bool,
    /// Someone on the side carries a potion, wand, scroll or splash flask.
    pub consumables: bool,
}

impl Relevance {
    /// Every lever matters (what is assumed when nothing is known).
    pub const ALL: Relevance = Relevance { spells: true, class_abilities: true, consumables: true };

    /// The relevance for a side made of `combatants`: spells when one of
    /// them lists spells, class abilities when one of them has a feature the
    /// catalogue resolves to a class ability rule.
    pub fn of<'a>(combatants: impl IntoIterator<Item = &'a crate::model::Combatant>) -> Self {
        let catalog = crate::feats::FeatCatalog::builtin().ok();
        let mut r = Relevance { spells: false, class_abilities: false, consumables: false };
        for c in combatants {
            r.spells |= !c.spells.is_empty();
            r.consumables |= c
                .carried_items
                .iter()
                .any(|i| crate::model::items::ItemUse::of(i.name()) != crate::model::items::ItemUse::Other);
            if let Some(cat) = catalog
                && let Ok(resolved) = crate::feats::resolve(c, cat)
            {
                r.class_abilities |= resolved.rules.class.any_ability();
            }
        }
        r
    }
}

impl Default for StrategySpec {
    fn default() -> Self {
        Self::default_spec()
    }
}

/// The other side's levers: the same as the party's.
pub type AdversarySpec = StrategySpec;

/// Why a lever cannot be set.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LeverError {
    /// No lever has this name.
    #[error("unknown lever {key:?}; levers are {}", lever_list())]
    UnknownLever {
        /// The key given.
        key: String,
    },
    /// The lever needs a value (`retreat=0.5`).
    #[error("{lever} needs a value ({})", expected(lever))]
    MissingValue {
        /// The lever.
        lever: &'static str,
    },
    /// The value is not one the lever takes.
    #[error("{lever} takes {}, got {value:?}", expected(lever))]
    BadValue {
        /// The lever.
        lever: &'static str,
        /// The value given.
        value: String,
    },
    /// A lever given twice in one spec.
    #[error("lever {lever} is given twice")]
    Duplicate {
        /// The lever.
        lever: &'static str,
    },
    /// An empty spec.
    #[error("empty strategy; levers are {}", lever_list())]
    Empty,
}

/// Why a spec does not parse: the text and the lever error.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("strategy {text:?}: {source}")]
pub struct SpecError {
    /// The text at fault.
    pub text: String,
    /// What is wrong.
    #[source]
    pub source: LeverError,
}

/// What a lever accepts, for messages.
fn expected(lever: &str) -> String {
    match self::lever(lever).map(|l| l.kind) {
        Some(LeverKind::Choice(values)) => format!("one of {}", values.join(", ")),
        Some(LeverKind::Fraction) => "a fraction within [0, 1]".to_string(),
        Some(LeverKind::Bool) => "true or false".to_string(),
        None => "nothing".to_string(),
    }
}

/// Every lever with its values, for messages.
fn lever_list() -> String {
    LEVERS
        .iter()
        .map(|l| match l.kind {
            LeverKind::Choice(values) => format!("{}={}", l.name, values.join("|")),
            LeverKind::Fraction => format!("{}=F", l.name),
            LeverKind::Bool => format!("{}=B", l.name),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The index of `value` among a choice lever's values.
fn choice(lever: &'static LeverSchema, value: Option<&str>) -> Result<usize, LeverError> {
    let LeverKind::Choice(values) = lever.kind else {
        return Err(LeverError::MissingValue { lever: lever.name });
    };
    let value = value.ok_or(LeverError::MissingValue { lever: lever.name })?;
    values
        .iter()
        .position(|v| *v == value)
        .ok_or_else(|| LeverError::BadValue { lever: lever.name, value: value.to_string() })
}

impl StrategySpec {
    /// The all-default spec (the default policy).
    pub fn default_spec() -> Self {
        Self {
            target: TargetPriority::Nearest,
            retreat_milli: 0,
            spell_policy: SpellPolicy::Default,
            use_charges: true,
            use_class_abilities: true,
            power_attack: PowerAttackUse::Auto,
            maneuver: ManeuverUse::None,
            open_with_buffs: false,
            focus_casters: false,
            save_heals: false,
            area_min: 2,
            save_consumables: false,
        }
    }

    /// Whether this is the default policy.
    pub fn is_default(&self) -> bool {
        *self == Self::default_spec()
    }

    /// The retreat threshold as a fraction.
    pub fn retreat(&self) -> f64 {
        f64::from(self.retreat_milli) / 1000.0
    }

    /// Sets the retreat fraction (must be in [0, 1]; kept to thousandths).
    pub fn with_retreat(mut self, fraction: f64) -> Result<Self, LeverError> {
        if !(0.0..=1.0).contains(&fraction) {
            return Err(LeverError::BadValue { lever: "retreat", value: fraction.to_string() });
        }
        self.retreat_milli = (fraction * 1000.0).round() as u16;
        Ok(self)
    }

    /// The value of lever `name` as written in a spec (`None` for an unknown lever).
    pub fn get(&self, name: &str) -> Option<String> {
        Some(match name {
            "target" => self.target.name().to_string(),
            "spell_policy" => self.spell_policy.name().to_string(),
            "use_charges" => self.use_charges.to_string(),
            "use_class_abilities" => self.use_class_abilities.to_string(),
            "retreat" => milli_text(self.retreat_milli),
            "power_attack" => self.power_attack.name().to_string(),
            "maneuver" => self.maneuver.name().to_string(),
            "open_with_buffs" => self.open_with_buffs.to_string(),
            "focus_casters" => self.focus_casters.to_string(),
            "save_heals" => self.save_heals.to_string(),
            "area_min" => self.area_min.to_string(),
            "consumables" => (if self.save_consumables { "save" } else { "use" }).to_string(),
            _ => return None,
        })
    }

    /// The canonical name: `default`, or the non-default levers in table order.
    pub fn name(&self) -> String {
        let levers: Vec<String> = LEVERS
            .iter()
            .filter_map(|l| {
                let value = self.get(l.name)?;
                (value != l.default)
                    .then(|| if l.name == "target" { value } else { format!("{}={value}", l.name) })
            })
            .collect();
        if levers.is_empty() { "default".into() } else { levers.join(", ") }
    }

    /// Parses a name: `default`, or comma-separated levers in any order.
    pub fn parse(text: &str) -> Result<Self, SpecError> {
        let fail = |source| SpecError { text: text.to_string(), source };
        let mut spec = Self::default_spec();
        let mut seen: Vec<&'static str> = Vec::new();
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(fail(LeverError::Empty));
        }
        if trimmed == "default" {
            return Ok(spec);
        }
        for token in trimmed.split(',').map(str::trim) {
            let (key, value) = match token.split_once('=') {
                Some((k, v)) => (k.trim(), Some(v.trim())),
                None => (token, None),
            };
            let name =
                if value.is_none() && TargetPriority::from_name(key).is_some() { "target" } else { key };
            let lever = lever(name).ok_or_else(|| fail(LeverError::UnknownLever { key: key.to_string() }))?;
            if seen.contains(&lever.name) {
                return Err(fail(LeverError::Duplicate { lever: lever.name }));
            }
            seen.push(lever.name);
            spec.set(key, value).map_err(fail)?;
        }
        Ok(spec)
    }

    /// Sets one lever from its key and textual value (a bare target name
    /// sets the target).
    pub fn set(&mut self, key: &str, value: Option<&str>) -> Result<(), LeverError> {
        if value.is_none()
            && let Some(t) = TargetPriority::from_name(key)
        {
            self.target = t;
            return Ok(());
        }
        let lever = lever(key).ok_or_else(|| LeverError::UnknownLever { key: key.to_string() })?;
        let bad = |v: &str| LeverError::BadValue { lever: lever.name, value: v.to_string() };
        match lever.name {
            "target" => self.target = TargetPriority::ALL[choice(lever, value)?],
            "spell_policy" => self.spell_policy = SpellPolicy::ALL[choice(lever, value)?],
            "power_attack" => self.power_attack = PowerAttackUse::ALL[choice(lever, value)?],
            "maneuver" => self.maneuver = ManeuverUse::ALL[choice(lever, value)?],
            "use_charges" | "use_class_abilities" | "open_with_buffs" | "focus_casters" | "save_heals" => {
                let b = match value {
                    Some("true") => true,
                    Some("false") => false,
                    Some(v) => return Err(bad(v)),
                    None => return Err(LeverError::MissingValue { lever: lever.name }),
                };
                match lever.name {
                    "use_charges" => self.use_charges = b,
                    "use_class_abilities" => self.use_class_abilities = b,
                    "open_with_buffs" => self.open_with_buffs = b,
                    "focus_casters" => self.focus_casters = b,
                    _ => self.save_heals = b,
                }
            }
            "area_min" => self.area_min = (choice(lever, value)? + 1) as u8,
            "consumables" => self.save_consumables = choice(lever, value)? == 1,
            "retreat" => {
                let v = value.ok_or(LeverError::MissingValue { lever: lever.name })?;
                let f: f64 = v.parse().map_err(|_| bad(v))?;
                *self = self.clone().with_retreat(f).map_err(|_| bad(v))?;
            }
            _ => return Err(LeverError::UnknownLever { key: key.to_string() }),
        }
        Ok(())
    }

    /// Both specs' changes from the default at once: each lever from the
    /// spec that changes it. `None` when both change one lever to different
    /// values (retreat at 0.25 and at 0.5), or when the result is one of the
    /// two (nothing would be combined).
    pub fn combined(&self, other: &Self) -> Option<Self> {
        fn pick<T: PartialEq + Clone>(a: &T, b: &T, default: &T) -> Option<T> {
            if a == default || a == b {
                Some(b.clone())
            } else if b == default {
                Some(a.clone())
            } else {
                None
            }
        }
        let d = Self::default_spec();
        let out = Self {
            target: pick(&self.target, &other.target, &d.target)?,
            retreat_milli: pick(&self.retreat_milli, &other.retreat_milli, &d.retreat_milli)?,
            spell_policy: pick(&self.spell_policy, &other.spell_policy, &d.spell_policy)?,
            use_charges: pick(&self.use_charges, &other.use_charges, &d.use_charges)?,
            use_class_abilities: pick(
                &self.use_class_abilities,
                &other.use_class_abilities,
                &d.use_class_abilities,
            )?,
            power_attack: pick(&self.power_attack, &other.power_attack, &d.power_attack)?,
            maneuver: pick(&self.maneuver, &other.maneuver, &d.maneuver)?,
            open_with_buffs: pick(&self.open_with_buffs, &other.open_with_buffs, &d.open_with_buffs)?,
            focus_casters: pick(&self.focus_casters, &other.focus_casters, &d.focus_casters)?,
            save_heals: pick(&self.save_heals, &other.save_heals, &d.save_heals)?,
            area_min: pick(&self.area_min, &other.area_min, &d.area_min)?,
            save_consumables: pick(&self.save_consumables, &other.save_consumables, &d.save_consumables)?,
        };
        (out != *self && out != *other).then_some(out)
    }

    /// The specs that differ from the default by exactly one lever: the
    /// other targets, no spells, retreat at 0.25 and 0.5, no charges, no
    /// class abilities.
    pub fn single_lever_variants() -> Vec<Self> {
        Self::single_lever_variants_for(Relevance::ALL, true)
    }

    /// The single-lever variants that can change anything for a side whose
    /// levers that matter are `own` and whose enemies cast spells when
    /// `enemies_cast`: the spell levers only for a side that casts, class
    /// abilities only for one that has some, `focus_casters` only against
    /// casters (an inert variant would only repeat the default's battles).
    pub fn single_lever_variants_for(own: Relevance, enemies_cast: bool) -> Vec<Self> {
        let d = Self::default_spec();
        let mut out: Vec<Self> =
            TargetPriority::ALL[1..].iter().map(|&t| Self { target: t, ..d.clone() }).collect();
        if own.spells {
            out.push(Self { spell_policy: SpellPolicy::None, ..d.clone() });
        }
        out.push(Self { retreat_milli: 250, ..d.clone() });
        out.push(Self { retreat_milli: 500, ..d.clone() });
        out.push(Self { use_charges: false, ..d.clone() });
        if own.class_abilities {
            out.push(Self { use_class_abilities: false, ..d.clone() });
        }
        if own.spells || own.class_abilities {
            out.push(Self { open_with_buffs: true, ..d.clone() });
        }
        if enemies_cast {
            out.push(Self { focus_casters: true, ..d.clone() });
        }
        if own.consumables {
            out.push(Self { save_consumables: true, ..d.clone() });
        }
        if own.spells {
            out.push(Self { save_heals: true, ..d.clone() });
            out.push(Self { area_min: 1, ..d.clone() });
            out.push(Self { area_min: 3, ..d });
        }
        out
    }
}

/// `500` -> `0.5`, `250` -> `0.25`, `1000` -> `1`, `0` -> `0`.
fn milli_text(m: u16) -> String {
    let s = format!("{}.{:03}", m / 1000, m % 1000);
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

impl fmt::Display for StrategySpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_is_default() {
        assert!(StrategySpec::default_spec().is_default());
        assert_eq!(StrategySpec::default_spec().name(), "default");
        assert_eq!(StrategySpec::parse("default").unwrap(), StrategySpec::default_spec());
    }

    #[test]
    fn two_specs_combine_lever_by_lever_unless_they_pull_one_lever_apart() {
        let spec = |t: &str| StrategySpec::parse(t).unwrap();
        assert_eq!(spec("retreat=0.5").combined(&spec("healer")), Some(spec("healer, retreat=0.5")));
        assert_eq!(
            spec("healer, save_heals=true").combined(&spec("healer, area_min=1")),
            Some(spec("healer, save_heals=true, area_min=1"))
        );
        // One lever pulled two ways, or nothing new.
        assert_eq!(spec("retreat=0.5").combined(&spec("retreat=0.25")), None);
        assert_eq!(spec("healer").combined(&spec("healer")), None);
        assert_eq!(spec("healer").combined(&spec("default")), None);
    }

    #[test]
    fn names_are_canonical() {
        let a = StrategySpec::parse("retreat=0.50, lowest_hp").unwrap();
        let b = StrategySpec::parse("lowest_hp,retreat=0.5").unwrap();
        assert_eq!(a, b);
        assert_eq!(a.name(), "lowest_hp, retreat=0.5");
        let c = StrategySpec::parse(
            "use_charges=false, spell_policy=none, healer, use_class_abilities=false, retreat=0.25",
        )
        .unwrap();
        assert_eq!(
            c.name(),
            "healer, spell_policy=none, use_charges=false, use_class_abilities=false, retreat=0.25"
        );
        assert_eq!(StrategySpec::parse(&c.name()).unwrap(), c);
        assert_eq!(StrategySpec::parse("target=weakest_ac").unwrap().name(), "weakest_ac");
        assert_eq!(StrategySpec::parse("nearest, use_charges=true").unwrap().name(), "default");
    }

    #[test]
    fn the_new_levers_name_after_the_old_ones_and_round_trip() {
        let s = StrategySpec::parse("maneuver=trip, power_attack=never, lowest_hp").unwrap();
        assert_eq!(s.power_attack, PowerAttackUse::Never);
        assert_eq!(s.maneuver, ManeuverUse::Trip);
        assert_eq!(s.name(), "lowest_hp, power_attack=never, maneuver=trip");
        assert_eq!(StrategySpec::parse(&s.name()).unwrap(), s);
        assert_eq!(StrategySpec::parse("power_attack=auto, maneuver=none").unwrap().name(), "default");
        for value in ["always", "never"] {
            assert!(!StrategySpec::parse(&format!("power_attack={value}")).unwrap().is_default());
        }
    }

    #[test]
    fn every_lever_of_the_table_is_settable_and_readable() {
        for l in LEVERS {
            let mut s = StrategySpec::default_spec();
            assert_eq!(s.get(l.name).as_deref(), Some(l.default), "{}", l.name);
            let other = match l.kind {
                LeverKind::Choice(values) => values[values.len() - 1],
                LeverKind::Fraction => "0.5",
                LeverKind::Bool => "false",
            };
            s.set(l.name, Some(other)).unwrap();
            assert_eq!(s.get(l.name).as_deref(), Some(other), "{}", l.name);
            s.set(l.name, Some(l.default)).unwrap();
            assert!(s.is_default(), "{}", l.name);
            assert!(!l.doc.is_empty());
        }
    }

    #[test]
    fn bad_names_are_refused_with_typed_errors() {
        for bad in [
            "",
            "cautious",
            "retreat=2",
            "retreat=x",
            "lowest_hp, healer",
            "use_charges=maybe",
            "spell_policy=all",
            "power_attack=sometimes",
            "maneuver=bull_rush",
            "retreat",
        ] {
            assert!(StrategySpec::parse(bad).is_err(), "{bad}");
        }
        let e = StrategySpec::parse("cautious").unwrap_err();
        assert!(matches!(e.source, LeverError::UnknownLever { .. }));
        assert!(
            e.to_string().contains("cautious") && e.to_string().contains("power_attack=auto|always|never"),
            "{e}"
        );
        let e = StrategySpec::parse("power_attack=sometimes").unwrap_err();
        assert_eq!(e.source, LeverError::BadValue { lever: "power_attack", value: "sometimes".into() });
        assert!(e.to_string().contains("one of auto, always, never"), "{e}");
        assert_eq!(
            StrategySpec::parse("lowest_hp, healer").unwrap_err().source,
            LeverError::Duplicate { lever: "target" }
        );
        let mut s = StrategySpec::default_spec();
        assert_eq!(s.set("retreat", None), Err(LeverError::MissingValue { lever: "retreat" }));
    }

    #[test]
    fn single_lever_variants_each_change_one_lever() {
        let v = StrategySpec::single_lever_variants();
        assert_eq!(v.len(), 14);
        let none = Relevance { spells: false, class_abilities: false, consumables: false };
        assert_eq!(StrategySpec::single_lever_variants_for(none, false).len(), 6, "target, retreat, charges");
        let unique: std::collections::BTreeSet<String> = v.iter().map(|s| s.name()).collect();
        assert_eq!(unique.len(), v.len());
        for s in &v {
            assert!(!s.name().contains(','), "{}", s.name());
            assert!(!s.is_default());
        }
    }
}
