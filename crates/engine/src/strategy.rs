//! Strategy specs: the levers a side's policy is compiled from, and their
//! canonical names.
//!
//! A spec is written by name (`default`, `lowest_hp, retreat=0.5`) or built
//! lever by lever. Its canonical name lists the levers that differ from the
//! default in a fixed order (target, spell policy, charges, class abilities,
//! retreat), so two spellings of the same spec share one name — and one
//! cache key. The party's spec ([`StrategySpec`]) and the other side's
//! ([`AdversarySpec`]) have the same levers.

use std::fmt;

/// Which enemy a combatant attacks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TargetPriority {
    /// The nearest enemy able to fight (the default policy's choice).
    #[default]
    Nearest,
    /// The enemy with the lowest armor class.
    WeakestAc,
    /// The enemy with the fewest hit points.
    LowestHp,
    /// A spellcaster (the healer), else the weakest armor class.
    Healer,
}

impl TargetPriority {
    /// Every priority, default first.
    pub const ALL: [TargetPriority; 4] = [
        TargetPriority::Nearest,
        TargetPriority::WeakestAc,
        TargetPriority::LowestHp,
        TargetPriority::Healer,
    ];

    /// The lever's name (`nearest`, `weakest_ac`…).
    pub const fn name(self) -> &'static str {
        match self {
            TargetPriority::Nearest => "nearest",
            TargetPriority::WeakestAc => "weakest_ac",
            TargetPriority::LowestHp => "lowest_hp",
            TargetPriority::Healer => "healer",
        }
    }

    /// The priority called `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// Whether casters cast.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SpellPolicy {
    /// Cast as the default policy does.
    #[default]
    Default,
    /// Never cast.
    None,
}

impl SpellPolicy {
    /// The lever's value name.
    pub const fn name(self) -> &'static str {
        match self {
            SpellPolicy::Default => "default",
            SpellPolicy::None => "none",
        }
    }
}

/// The strategy levers of one side. `StrategySpec::default()` is the
/// engine's default policy.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct StrategySpec {
    /// Target choice.
    pub target: TargetPriority,
    /// Retreat below this fraction of maximum hit points, in thousandths (0 = never).
    pub retreat_milli: u16,
    /// Spellcasting (inert until the engine casts spells).
    pub spell_policy: SpellPolicy,
    /// Charge when a straight line exists.
    pub use_charges: bool,
    /// Class abilities (inert until the engine plays them).
    pub use_class_abilities: bool,
}

impl Default for StrategySpec {
    fn default() -> Self {
        Self::default_spec()
    }
}

/// The other side's levers: the same as the party's.
pub type AdversarySpec = StrategySpec;

/// Why a spec does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("strategy {text:?}: {message}")]
pub struct SpecError {
    /// The text or lever at fault.
    pub text: String,
    /// What is wrong.
    pub message: String,
}

fn spec_error(text: &str, message: impl Into<String>) -> SpecError {
    SpecError { text: text.to_string(), message: message.into() }
}

/// The levers a name may set, for error messages.
const LEVERS: &str = "nearest | weakest_ac | lowest_hp | healer, retreat=F, spell_policy=default|none, use_charges=B, use_class_abilities=B";

impl StrategySpec {
    /// The all-default spec (the default policy).
    pub fn default_spec() -> Self {
        Self {
            target: TargetPriority::Nearest,
            retreat_milli: 0,
            spell_policy: SpellPolicy::Default,
            use_charges: true,
            use_class_abilities: true,
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
    pub fn with_retreat(mut self, fraction: f64) -> Result<Self, SpecError> {
        if !(0.0..=1.0).contains(&fraction) {
            return Err(spec_error(&format!("retreat={fraction}"), "retreat must be within [0, 1]"));
        }
        self.retreat_milli = (fraction * 1000.0).round() as u16;
        Ok(self)
    }

    /// The canonical name: `default`, or the non-default levers in a fixed order.
    pub fn name(&self) -> String {
        let mut levers: Vec<String> = Vec::new();
        if self.target != TargetPriority::Nearest {
            levers.push(self.target.name().to_string());
        }
        if self.spell_policy != SpellPolicy::Default {
            levers.push(format!("spell_policy={}", self.spell_policy.name()));
        }
        if !self.use_charges {
            levers.push("use_charges=false".into());
        }
        if !self.use_class_abilities {
            levers.push("use_class_abilities=false".into());
        }
        if self.retreat_milli != 0 {
            levers.push(format!("retreat={}", milli_text(self.retreat_milli)));
        }
        if levers.is_empty() { "default".into() } else { levers.join(", ") }
    }

    /// Parses a name: `default`, or comma-separated levers in any order.
    pub fn parse(text: &str) -> Result<Self, SpecError> {
        let mut spec = Self::default_spec();
        let mut seen: Vec<&str> = Vec::new();
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(spec_error(text, format!("empty strategy; levers are {LEVERS}")));
        }
        if trimmed == "default" {
            return Ok(spec);
        }
        for token in trimmed.split(',').map(str::trim) {
            let (key, value) = match token.split_once('=') {
                Some((k, v)) => (k.trim(), Some(v.trim())),
                None => (token, None),
            };
            let lever = if TargetPriority::from_name(key).is_some() { "target" } else { key };
            if seen.contains(&lever) {
                return Err(spec_error(text, format!("lever {lever} is given twice")));
            }
            seen.push(lever);
            spec.set(key, value).map_err(|m| spec_error(text, m))?;
        }
        Ok(spec)
    }

    /// Sets one lever from its key and textual value.
    pub fn set(&mut self, key: &str, value: Option<&str>) -> Result<(), String> {
        let boolean = |v: Option<&str>| match v {
            Some("true") => Ok(true),
            Some("false") => Ok(false),
            _ => Err(format!("{key} takes true or false")),
        };
        match (key, value) {
            (t, None) if TargetPriority::from_name(t).is_some() => {
                self.target = TargetPriority::from_name(t).unwrap_or_default();
            }
            ("target", Some(t)) => {
                self.target = TargetPriority::from_name(t).ok_or_else(|| {
                    format!("unknown target {t:?}: nearest, weakest_ac, lowest_hp or healer")
                })?;
            }
            ("retreat", Some(v)) => {
                let f: f64 = v.parse().map_err(|_| format!("retreat takes a fraction, got {v:?}"))?;
                *self = self.clone().with_retreat(f).map_err(|e| e.message)?;
            }
            ("spell_policy", Some("default")) => self.spell_policy = SpellPolicy::Default,
            ("spell_policy", Some("none")) => self.spell_policy = SpellPolicy::None,
            ("spell_policy", _) => return Err("spell_policy takes default or none".into()),
            ("use_charges", v) => self.use_charges = boolean(v)?,
            ("use_class_abilities", v) => self.use_class_abilities = boolean(v)?,
            _ => return Err(format!("unknown lever {key:?}; levers are {LEVERS}")),
        }
        Ok(())
    }

    /// The specs that differ from the default by exactly one lever: the
    /// other targets, no spells, retreat at 0.25 and 0.5, no charges, no
    /// class abilities.
    pub fn single_lever_variants() -> Vec<Self> {
        let d = Self::default_spec();
        let mut out: Vec<Self> =
            TargetPriority::ALL[1..].iter().map(|&t| Self { target: t, ..d.clone() }).collect();
        out.push(Self { spell_policy: SpellPolicy::None, ..d.clone() });
        out.push(Self { retreat_milli: 250, ..d.clone() });
        out.push(Self { retreat_milli: 500, ..d.clone() });
        out.push(Self { use_charges: false, ..d.clone() });
        out.push(Self { use_class_abilities: false, ..d });
        out
    }
}

/// `500` -> `0.5`, `250` -> `0.25`, `1000` -> `1`.
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
    fn bad_names_are_refused() {
        for bad in [
            "",
            "cautious",
            "retreat=2",
            "retreat=x",
            "lowest_hp, healer",
            "use_charges=maybe",
            "spell_policy=all",
        ] {
            assert!(StrategySpec::parse(bad).is_err(), "{bad}");
        }
        let e = StrategySpec::parse("cautious").unwrap_err();
        assert!(e.to_string().contains("cautious"), "{e}");
    }

    #[test]
    fn single_lever_variants_each_change_one_lever() {
        let v = StrategySpec::single_lever_variants();
        assert_eq!(v.len(), 8);
        for s in &v {
            assert!(!s.name().contains(','), "{}", s.name());
            assert!(!s.is_default());
        }
    }
}
