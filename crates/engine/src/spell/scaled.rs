//! Dice formulas and numbers that grow with caster level.
//!
//! A spell writes "1d6 per caster level (maximum 10d6)", "1d8 + 1 per level
//! (maximum +5)", "one missile per two levels beyond 1st (maximum five)" or
//! "1 round per level". [`Scaled`] expresses all of them with one rule:
//!
//! ```text
//! steps = min(max_steps, (caster_level - from_level) / per_levels)   (0 below from_level)
//! value = min(max, base + steps × per_step)
//! ```
//!
//! where `per_step` may be a die (`1d6`: each step adds one more d6) or a
//! number. In a file a `Scaled` is either a formula (`"4d6"`, `3`: a constant)
//! or an object with those fields.

use std::fmt;

use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::dice::{DiceExpr, Term};
use crate::rng::Dice;

/// A dice formula as written in a file (`"2d4"`, `"1d8+1"`, `"-1d6"`, `5`),
/// parsed when read: a malformed formula is a data error at its JSON path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Formula {
    text: String,
    expr: DiceExpr,
}

impl Formula {
    /// Parses a formula.
    pub fn parse(text: &str) -> Result<Self, crate::dice::DiceError> {
        Ok(Self { text: text.to_string(), expr: DiceExpr::parse_signed(text)? })
    }

    /// A constant.
    pub fn constant(value: i32) -> Self {
        Self { text: value.to_string(), expr: DiceExpr::flat(value) }
    }

    /// The formula as written.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The parsed expression.
    pub fn expr(&self) -> &DiceExpr {
        &self.expr
    }

    /// Whether the formula rolls no die.
    pub fn is_constant(&self) -> bool {
        self.expr.terms().iter().all(|t| matches!(t, Term::Flat(_)))
    }

    /// The die faces of its dice terms, in order (`2d8+1d4` → `[8, 4]`).
    pub fn die_sides(&self) -> impl Iterator<Item = u32> + '_ {
        self.expr.terms().iter().filter_map(|t| match *t {
            Term::Dice { sides, .. } => Some(sides),
            Term::Flat(_) => None,
        })
    }
}

impl fmt::Display for Formula {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl Serialize for Formula {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
    }
}

impl<'de> Deserialize<'de> for Formula {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(FormulaVisitor)
    }
}

struct FormulaVisitor;

impl<'de> Visitor<'de> for FormulaVisitor {
    type Value = Formula;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a dice formula such as \"2d6\" or \"1d8+1\", or an integer")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Formula, E> {
        Formula::parse(v).map_err(E::custom)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Formula, E> {
        i32::try_from(v).map(Formula::constant).map_err(|_| E::custom(format!("{v} is out of range")))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Formula, E> {
        i32::try_from(v).map(Formula::constant).map_err(|_| E::custom(format!("{v} is out of range")))
    }
}

/// A number (or dice roll) that grows with caster level; see the module docs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Scaled {
    /// What the value is at caster level 0 (`"1d8"`, `"2"`; default `0`).
    pub base: Formula,
    /// What each step adds: one term, a die (`"1d6"`, `"2d6"`) or a number (`"1"`, `"-1"`; default `0`).
    pub per_step: Formula,
    /// Caster levels per step (≥ 1, default 1).
    pub per_levels: u32,
    /// Caster levels up to this one count for nothing ("per two levels beyond 1st": 1; default 0).
    pub from_level: u32,
    /// Most steps counted ("maximum 10d6": 10; "maximum +5": 5).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_steps: Option<u32>,
    /// Cap on the total after rolling ("maximum five missiles", "maximum eight images").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<i32>,
}

impl Scaled {
    /// A constant value.
    pub fn constant(value: i32) -> Self {
        Self::from_base(Formula::constant(value))
    }

    fn from_base(base: Formula) -> Self {
        Self {
            base,
            per_step: Formula::constant(0),
            per_levels: 1,
            from_level: 0,
            max_steps: None,
            max: None,
        }
    }

    /// Steps earned at this caster level.
    pub fn steps(&self, caster_level: u32) -> u32 {
        let levels = caster_level.saturating_sub(self.from_level);
        let steps = levels / self.per_levels.max(1);
        self.max_steps.map_or(steps, |m| steps.min(m))
    }

    /// Whether the value is the same at every caster level.
    pub fn is_level_independent(&self) -> bool {
        self.per_step.expr().terms().iter().all(|t| matches!(t, Term::Flat(0)))
    }

    /// Whether no die is ever rolled.
    pub fn is_constant_at_every_level(&self) -> bool {
        self.base.is_constant() && self.per_step.is_constant()
    }

    /// The terms of the value at this caster level, before the `max` cap:
    /// the base terms, then the step term multiplied by the steps.
    pub fn terms_at(&self, caster_level: u32) -> Vec<Term> {
        let steps = self.steps(caster_level);
        let mut terms: Vec<Term> = self.base.expr().terms().to_vec();
        if steps > 0 {
            for term in self.per_step.expr().terms() {
                terms.push(match *term {
                    Term::Dice { count, sides, negative } => {
                        Term::Dice { count: count * steps, sides, negative }
                    }
                    Term::Flat(v) => Term::Flat(v * steps as i32),
                });
            }
        }
        terms
    }

    /// Rolls the value at this caster level as (sum of dice, sum of flat terms),
    /// before the `max` cap: what Empower and Maximize need.
    pub fn roll_parts(&self, caster_level: u32, rng: &mut impl Dice) -> (i32, i32) {
        let mut dice = 0i32;
        let mut flat = 0i32;
        for term in self.terms_at(caster_level) {
            match term {
                Term::Dice { count, sides, negative } => {
                    let mut sum = 0i32;
                    for _ in 0..count {
                        sum += rng.roll(sides) as i32;
                    }
                    dice += if negative { -sum } else { sum };
                }
                Term::Flat(v) => flat += v,
            }
        }
        (dice, flat)
    }

    /// Rolls the value at this caster level, `max` cap applied.
    pub fn roll(&self, caster_level: u32, rng: &mut impl Dice) -> i32 {
        let (dice, flat) = self.roll_parts(caster_level, rng);
        self.cap(dice + flat)
    }

    /// Rolls the value at this caster level with Empower (variable numbers
    /// ×1.5, rounded down) and Maximize (every die at its maximum; with
    /// both, the maximum plus half of a normal roll), without allocating.
    /// Metamagic changes only values that roll dice (CRB "Empower Spell":
    /// "spells without random variables are not affected"); the `max` cap
    /// applies before it.
    pub fn roll_with(&self, caster_level: u32, rng: &mut impl Dice, empower: bool, maximize: bool) -> i32 {
        let steps = self.steps(caster_level);
        let (mut rolled, mut top, mut flat, mut any_die) = (0i32, 0i32, 0i32, false);
        let base = self.base.expr().terms().iter().map(|t| (t, 1));
        let step = self.per_step.expr().terms().iter().map(|t| (t, steps));
        for (term, times) in base.chain(step) {
            match *term {
                Term::Dice { count, sides, negative } => {
                    let n = count * times;
                    if n == 0 {
                        continue;
                    }
                    any_die = true;
                    let sign = if negative { -1 } else { 1 };
                    top += sign * (n * sides) as i32;
                    if !maximize || empower {
                        let mut sum = 0i32;
                        for _ in 0..n {
                            sum += rng.roll(sides) as i32;
                        }
                        rolled += sign * sum;
                    }
                }
                Term::Flat(v) => flat += v * times as i32,
            }
        }
        let normal = self.cap(rolled + flat);
        if !any_die {
            return normal;
        }
        match (empower, maximize) {
            (false, false) => normal,
            (true, false) => normal * 3 / 2,
            (false, true) => self.cap(top + flat),
            (true, true) => self.cap(top + flat) + normal / 2,
        }
    }

    /// Applies the `max` cap.
    pub fn cap(&self, value: i32) -> i32 {
        self.max.map_or(value, |m| value.min(m))
    }

    /// The value at this caster level when no die is rolled (`None` when dice are involved).
    pub fn fixed_at(&self, caster_level: u32) -> Option<i32> {
        let terms = self.terms_at(caster_level);
        let mut sum = 0;
        for term in terms {
            match term {
                Term::Flat(v) => sum += v,
                Term::Dice { .. } => return None,
            }
        }
        Some(self.cap(sum))
    }

    /// The smallest and largest possible values at this caster level (cap applied).
    pub fn bounds_at(&self, caster_level: u32) -> (i32, i32) {
        let (mut lo, mut hi) = (0i32, 0i32);
        for term in self.terms_at(caster_level) {
            match term {
                Term::Dice { count, sides, negative } => {
                    let (min, max) = (count as i32, (count * sides) as i32);
                    if negative {
                        lo -= max;
                        hi -= min;
                    } else {
                        lo += min;
                        hi += max;
                    }
                }
                Term::Flat(v) => {
                    lo += v;
                    hi += v;
                }
            }
        }
        (self.cap(lo), self.cap(hi))
    }

    /// The expected value at this caster level, ignoring the `max` cap.
    pub fn mean_at(&self, caster_level: u32) -> f64 {
        self.terms_at(caster_level)
            .into_iter()
            .map(|t| match t {
                Term::Dice { count, sides, negative } => {
                    let m = f64::from(count) * (f64::from(sides) + 1.0) / 2.0;
                    if negative { -m } else { m }
                }
                Term::Flat(v) => f64::from(v),
            })
            .sum()
    }

    /// The value at this caster level in dice notation, before the cap (`"5d6"`, `"1d8+4"`).
    pub fn describe_at(&self, caster_level: u32) -> String {
        let mut out = String::new();
        for term in self.terms_at(caster_level) {
            match term {
                Term::Dice { count, sides, negative } => {
                    if negative {
                        out.push('-');
                    } else if !out.is_empty() {
                        out.push('+');
                    }
                    out.push_str(&format!("{count}d{sides}"));
                }
                Term::Flat(0) => {}
                Term::Flat(v) => {
                    if v > 0 && !out.is_empty() {
                        out.push('+');
                    }
                    out.push_str(&v.to_string());
                }
            }
        }
        if out.is_empty() { "0".to_string() } else { out }
    }
}

/// The object form of a [`Scaled`], as read from a file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ScaledFields {
    #[serde(default = "zero")]
    base: Formula,
    #[serde(default = "zero")]
    per_step: Formula,
    #[serde(default = "one")]
    per_levels: u32,
    #[serde(default)]
    from_level: u32,
    #[serde(default)]
    max_steps: Option<u32>,
    #[serde(default)]
    max: Option<i32>,
}

fn zero() -> Formula {
    Formula::constant(0)
}

fn one() -> u32 {
    1
}

impl<'de> Deserialize<'de> for Scaled {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ScaledVisitor)
    }
}

struct ScaledVisitor;

impl<'de> Visitor<'de> for ScaledVisitor {
    type Value = Scaled;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "a dice formula (\"4d6\"), an integer, or an object with base, per_step, per_levels, from_level, max_steps, max",
        )
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Scaled, E> {
        FormulaVisitor.visit_str(v).map(Scaled::from_base)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Scaled, E> {
        FormulaVisitor.visit_i64(v).map(Scaled::from_base)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Scaled, E> {
        FormulaVisitor.visit_u64(v).map(Scaled::from_base)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Scaled, A::Error> {
        let f = ScaledFields::deserialize(de::value::MapAccessDeserializer::new(map))?;
        Ok(Scaled {
            base: f.base,
            per_step: f.per_step,
            per_levels: f.per_levels,
            from_level: f.from_level,
            max_steps: f.max_steps,
            max: f.max,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::ScriptedRng;

    fn scaled(json: &str) -> Scaled {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn a_string_or_an_integer_is_a_constant() {
        let s = scaled("\"4d6\"");
        assert_eq!(s.describe_at(1), "4d6");
        assert_eq!(s.describe_at(20), "4d6");
        assert_eq!(scaled("3").fixed_at(9), Some(3));
        assert!(s.is_level_independent());
    }

    #[test]
    fn dice_per_level_with_a_maximum_grow_then_stop() {
        let fireball = scaled(r#"{"per_step": "1d6", "max_steps": 10}"#);
        assert_eq!(fireball.describe_at(1), "1d6");
        assert_eq!(fireball.describe_at(5), "5d6");
        assert_eq!(fireball.describe_at(10), "10d6");
        assert_eq!(fireball.describe_at(15), "10d6");
        assert_eq!(fireball.bounds_at(7), (7, 42));
    }

    #[test]
    fn flat_per_level_adds_to_base_dice() {
        let cure = scaled(r#"{"base": "1d8", "per_step": "1", "max_steps": 5}"#);
        assert_eq!(cure.describe_at(1), "1d8+1");
        assert_eq!(cure.describe_at(4), "1d8+4");
        assert_eq!(cure.describe_at(11), "1d8+5");
        assert!((cure.mean_at(3) - 7.5).abs() < 1e-9);
    }

    #[test]
    fn steps_start_above_from_level_and_the_total_is_capped() {
        let missiles = scaled(r#"{"base": 1, "per_step": 1, "per_levels": 2, "from_level": 1, "max": 5}"#);
        let counts: Vec<_> =
            [1, 2, 3, 4, 5, 7, 9, 11, 20].iter().map(|&l| missiles.fixed_at(l).unwrap()).collect();
        assert_eq!(counts, [1, 1, 2, 2, 3, 4, 5, 5, 5]);
        let rays = scaled(r#"{"base": 1, "per_step": 1, "per_levels": 4, "from_level": 3, "max_steps": 2}"#);
        let counts: Vec<_> = [1, 3, 6, 7, 10, 11, 20].iter().map(|&l| rays.fixed_at(l).unwrap()).collect();
        assert_eq!(counts, [1, 1, 1, 2, 2, 3, 3]);
    }

    #[test]
    fn a_cap_applies_after_the_roll() {
        let images = scaled(r#"{"base": "1d4", "per_step": 1, "per_levels": 3, "max": 8}"#);
        let mut rng = ScriptedRng::new([4]);
        assert_eq!(images.roll(20, &mut rng), 8);
        let mut rng = ScriptedRng::new([2]);
        assert_eq!(images.roll(6, &mut rng), 4);
    }

    #[test]
    fn a_negative_base_and_step_make_a_penalty() {
        let enfeeble = scaled(r#"{"base": "-1d6", "per_step": "-1", "per_levels": 2, "max_steps": 5}"#);
        assert_eq!(enfeeble.describe_at(5), "-1d6-2");
        assert_eq!(enfeeble.bounds_at(20), (-11, -6));
    }

    #[test]
    fn bad_formulas_and_unknown_fields_are_refused() {
        assert!(serde_json::from_str::<Scaled>("\"ld6\"").is_err());
        assert!(serde_json::from_str::<Scaled>(r#"{"dice": "1d6"}"#).is_err());
        assert!(serde_json::from_str::<Scaled>("true").is_err());
    }
}
