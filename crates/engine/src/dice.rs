//! Dice notation `NdF±M`, sums of terms (`2d6+1d4+3`), parsing and rolling.

use std::fmt;
use std::str::FromStr;

use crate::rng::Dice;

/// One term of a dice expression: `N` dice of `F` faces, or a flat number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Term {
    /// `count` dice with `sides` faces, added (`negative == false`) or subtracted.
    Dice {
        /// Number of dice (≥ 1).
        count: u32,
        /// Faces per die (≥ 1).
        sides: u32,
        /// Whether the term is subtracted.
        negative: bool,
    },
    /// A signed flat modifier.
    Flat(i32),
}

/// A parsed dice expression such as `1d8+2` or `2d6+1d4-1`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct DiceExpr {
    terms: Vec<Term>,
}

/// Why a dice notation was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid dice notation {text:?}: {reason}")]
pub struct DiceError {
    /// The offending text.
    pub text: String,
    /// What is wrong with it.
    pub reason: String,
}

/// The most dice of one term, and of a whole expression: bounds the work of a roll.
const MAX_DICE: u32 = 1000;
const MAX_SIDES: u32 = 1000;

impl DiceExpr {
    /// Parses an amount (damage, healing, a duration): a dice expression
    /// whose first term is not a subtracted die (`-5d6` is refused: a
    /// negative count of dice means nothing for an amount). Every total it
    /// can roll, and every partial sum on the way, fits an `i32`.
    pub fn parse(text: &str) -> Result<Self, DiceError> {
        let expr = Self::parse_signed(text)?;
        if let Some(Term::Dice { negative: true, .. }) = expr.terms.first() {
            return Err(DiceError {
                text: text.to_string(),
                reason: "a dice count cannot be negative (write the dice without a leading '-')".into(),
            });
        }
        Ok(expr)
    }

    /// Parses a signed modifier such as a penalty (`-1d6`): like
    /// [`DiceExpr::parse`] but the expression may start with a subtracted die.
    pub fn parse_signed(text: &str) -> Result<Self, DiceError> {
        let err = |reason: &str| DiceError { text: text.to_string(), reason: reason.to_string() };
        // Spaces are allowed around operators only: `1d6 1` must not read as `1d61`.
        let chars: Vec<char> = text.chars().collect();
        for (i, c) in chars.iter().enumerate() {
            if c.is_whitespace() {
                let before = chars[..i].iter().rev().find(|c| !c.is_whitespace());
                let after = chars[i + 1..].iter().find(|c| !c.is_whitespace());
                if let (Some(b), Some(a)) = (before, after)
                    && b.is_ascii_alphanumeric()
                    && a.is_ascii_alphanumeric()
                {
                    return Err(err("unexpected space inside a term"));
                }
            }
        }
        let s: String = chars.into_iter().filter(|c| !c.is_whitespace()).collect();
        if s.is_empty() {
            return Err(err("empty expression"));
        }
        let bytes = s.as_bytes();
        let mut terms = Vec::new();
        let mut i = 0;
        let mut first = true;
        while i < bytes.len() {
            let mut negative = false;
            if bytes[i] == b'+' || bytes[i] == b'-' {
                negative = bytes[i] == b'-';
                i += 1;
            } else if !first {
                return Err(err("terms must be separated by + or -"));
            }
            first = false;
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            let count_text = &s[start..i];
            if i < bytes.len() && (bytes[i] == b'd' || bytes[i] == b'D') {
                i += 1;
                let sides_start = i;
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
                let sides_text = &s[sides_start..i];
                if sides_text.is_empty() {
                    return Err(err("a die needs a number of faces after 'd'"));
                }
                let count = if count_text.is_empty() {
                    1
                } else {
                    count_text.parse::<u32>().map_err(|_| err("dice count is too large"))?
                };
                let sides: u32 = sides_text.parse().map_err(|_| err("number of faces is too large"))?;
                if count == 0 {
                    return Err(err("dice count must be at least 1"));
                }
                if sides == 0 {
                    return Err(err("a die needs at least one face"));
                }
                if count > MAX_DICE || sides > MAX_SIDES {
                    return Err(err("dice count or faces out of range (max 1000)"));
                }
                terms.push(Term::Dice { count, sides, negative });
            } else {
                if count_text.is_empty() {
                    return Err(err("expected a number or a die"));
                }
                let value: i32 = count_text.parse().map_err(|_| err("number is too large"))?;
                terms.push(Term::Flat(if negative { -value } else { value }));
            }
        }
        // Bounded work and no overflow: the dice of all terms together stay
        // under the per-term cap, and the sum of every term's largest
        // magnitude fits an i32, so no total or partial sum can wrap.
        let dice: u64 = terms
            .iter()
            .map(|t| match *t {
                Term::Dice { count, .. } => u64::from(count),
                Term::Flat(_) => 0,
            })
            .sum();
        if dice > u64::from(MAX_DICE) {
            return Err(err("too many dice in one expression (max 1000 in total)"));
        }
        let magnitude: i64 = terms
            .iter()
            .map(|t| match *t {
                Term::Dice { count, sides, .. } => i64::from(count) * i64::from(sides),
                Term::Flat(v) => i64::from(v).abs(),
            })
            .sum();
        if magnitude > i64::from(i32::MAX) {
            return Err(err("total out of range (the terms together may exceed 2147483647)"));
        }
        Ok(Self { terms })
    }

    /// The same expression with its first die term replaced by `count`d`sides`
    /// (unchanged when it has no die term).
    pub fn with_first_dice(&self, count: u32, sides: u32) -> Self {
        let mut terms = self.terms.clone();
        if let Some(Term::Dice { count: c, sides: s, .. }) =
            terms.iter_mut().find(|t| matches!(t, Term::Dice { .. }))
        {
            (*c, *s) = (count.clamp(1, MAX_DICE), sides.clamp(1, MAX_SIDES));
        }
        Self { terms }
    }

    /// The count and faces of its first die term, if any.
    pub fn first_dice(&self) -> Option<(u32, u32)> {
        self.terms.iter().find_map(|t| match *t {
            Term::Dice { count, sides, .. } => Some((count, sides)),
            Term::Flat(_) => None,
        })
    }

    /// A constant expression.
    pub fn flat(value: i32) -> Self {
        Self { terms: vec![Term::Flat(value)] }
    }

    /// The terms of the expression, in order.
    pub fn terms(&self) -> &[Term] {
        &self.terms
    }

    /// Rolls every term and returns the sum (may be negative).
    pub fn roll(&self, rng: &mut impl Dice) -> i32 {
        let (dice, flat) = self.roll_split(rng);
        dice + flat
    }

    /// Rolls and returns `(sum of dice, sum of flat terms)` separately.
    pub fn roll_split(&self, rng: &mut impl Dice) -> (i32, i32) {
        let mut dice = 0i32;
        let mut flat = 0i32;
        for term in &self.terms {
            match *term {
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

    /// The smallest possible total.
    pub fn min(&self) -> i32 {
        self.terms
            .iter()
            .map(|t| match *t {
                Term::Dice { count, sides, negative } => {
                    if negative {
                        -((count * sides) as i32)
                    } else {
                        count as i32
                    }
                }
                Term::Flat(v) => v,
            })
            .sum()
    }

    /// The largest possible total.
    pub fn max(&self) -> i32 {
        self.terms
            .iter()
            .map(|t| match *t {
                Term::Dice { count, sides, negative } => {
                    if negative {
                        -(count as i32)
                    } else {
                        (count * sides) as i32
                    }
                }
                Term::Flat(v) => v,
            })
            .sum()
    }

    /// The expected total.
    pub fn mean(&self) -> f64 {
        self.terms
            .iter()
            .map(|t| match *t {
                Term::Dice { count, sides, negative } => {
                    let m = count as f64 * (sides as f64 + 1.0) / 2.0;
                    if negative { -m } else { m }
                }
                Term::Flat(v) => v as f64,
            })
            .sum()
    }
}

impl FromStr for DiceExpr {
    type Err = DiceError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

impl fmt::Display for DiceExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, term) in self.terms.iter().enumerate() {
            match *term {
                Term::Dice { count, sides, negative } => {
                    if negative {
                        write!(f, "-")?;
                    } else if i > 0 {
                        write!(f, "+")?;
                    }
                    write!(f, "{count}d{sides}")?;
                }
                Term::Flat(v) => {
                    if v < 0 {
                        write!(f, "{v}")?;
                    } else if i > 0 {
                        write!(f, "+{v}")?;
                    } else {
                        write!(f, "{v}")?;
                    }
                }
            }
        }
        Ok(())
    }
}

/// The ability modifier of a score: `floor((score - 10) / 2)` (7 → −2, not −1).
pub fn ability_modifier(score: i32) -> i32 {
    (score - 10).div_euclid(2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{ScriptedRng, SeededRng};

    #[test]
    fn parses_common_forms() {
        assert_eq!(DiceExpr::parse("1d8+2").unwrap().to_string(), "1d8+2");
        assert_eq!(DiceExpr::parse("2d4 + 4").unwrap().to_string(), "2d4+4");
        assert_eq!(DiceExpr::parse("d6").unwrap().to_string(), "1d6");
        assert_eq!(DiceExpr::parse("1d6-1").unwrap().to_string(), "1d6-1");
        assert_eq!(DiceExpr::parse("2d6+1d4+3").unwrap().to_string(), "2d6+1d4+3");
        assert_eq!(DiceExpr::parse("5").unwrap().to_string(), "5");
        assert_eq!(DiceExpr::parse("-1").unwrap().to_string(), "-1");
        assert_eq!(DiceExpr::parse("1D20").unwrap().to_string(), "1d20");
    }

    #[test]
    fn refuses_malformed_notation() {
        for bad in ["ld8", "2d", "d0", "1d6++1", "", "0d6", "1d6+", "2x6", "1d6 1", "+", "d"] {
            assert!(DiceExpr::parse(bad).is_err(), "{bad:?} should be refused");
        }
    }

    #[test]
    fn refuses_a_negative_dice_count() {
        let e = DiceExpr::parse("-5d6").unwrap_err();
        assert!(e.reason.contains("negative"), "{e}");
        // Subtracting dice from a positive expression stays allowed.
        assert!(DiceExpr::parse("2d6-1d4").is_ok());
    }

    #[test]
    fn refuses_totals_that_overflow() {
        for bad in
            ["1000d1000+2147483647", "2147483647+1", "-2147483647-1d2", "2147483647-2147483647+2147483647"]
        {
            let e = DiceExpr::parse(bad).unwrap_err();
            assert!(e.reason.contains("out of range"), "{bad}: {e}");
        }
        let e = DiceExpr::parse("1000d1000+2146483647").unwrap();
        assert!(e.max() > e.min());
    }

    #[test]
    fn refuses_too_many_dice_in_total() {
        let text = ["1000d6"; 2].join("+");
        let e = DiceExpr::parse(&text).unwrap_err();
        assert!(e.reason.contains("dice"), "{e}");
    }

    #[test]
    fn error_names_the_text() {
        let e = DiceExpr::parse("ld8").unwrap_err();
        assert!(e.to_string().contains("\"ld8\""), "{e}");
    }

    #[test]
    fn rolls_with_scripted_dice() {
        let e = DiceExpr::parse("2d4+1d6-1").unwrap();
        let mut rng = ScriptedRng::new([3, 4, 6]);
        assert_eq!(e.roll(&mut rng), 12);
        let mut rng = ScriptedRng::new([3, 4, 6]);
        assert_eq!(e.roll_split(&mut rng), (13, -1));
    }

    #[test]
    fn bounds_and_mean() {
        let e = DiceExpr::parse("2d4+4").unwrap();
        assert_eq!((e.min(), e.max()), (6, 12));
        assert!((e.mean() - 9.0).abs() < 1e-9);
    }

    #[test]
    fn rolls_stay_within_bounds() {
        let e = DiceExpr::parse("3d8-2").unwrap();
        let mut rng = SeededRng::for_run(3, 9);
        for _ in 0..2000 {
            let v = e.roll(&mut rng);
            assert!((e.min()..=e.max()).contains(&v));
        }
    }

    #[test]
    fn ability_modifiers_round_down() {
        assert_eq!(ability_modifier(7), -2);
        assert_eq!(ability_modifier(8), -1);
        assert_eq!(ability_modifier(9), -1);
        assert_eq!(ability_modifier(10), 0);
        assert_eq!(ability_modifier(11), 0);
        assert_eq!(ability_modifier(17), 3);
        assert_eq!(ability_modifier(1), -5);
        assert_eq!(ability_modifier(0), -5);
    }
}
