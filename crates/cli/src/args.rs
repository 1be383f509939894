//! Value parsers shared by the subcommands.

use std::str::FromStr;

/// Parses a whole number that must be at least 1.
pub fn positive<T>(text: &str) -> Result<T, String>
where
    T: FromStr + PartialOrd + From<u8>,
{
    match text.parse::<T>() {
        Ok(n) if n >= T::from(1) => Ok(n),
        _ => Err("expected a whole number >= 1".to_string()),
    }
}

/// A confidence level strictly between 0 and 1 (`--confidence 0.95`).
pub fn confidence(text: &str) -> Result<f64, String> {
    let level: f64 = text.parse().map_err(|_| "expected a number between 0 and 1, e.g. 0.95".to_string())?;
    pf1e_engine::metrics::Confidence::new(level).map(|c| c.level()).map_err(|e| e.to_string())
}

/// A fraction from 0 to 1 inclusive (`--audit-fraction 0.05`).
pub fn fraction(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(f) if (0.0..=1.0).contains(&f) => Ok(f),
        _ => Err("expected a number from 0 to 1, e.g. 0.05".to_string()),
    }
}

/// A strategy of levers (`--strategy "lowest_hp, retreat=0.5"`, docs/strategy.md).
pub fn strategy(text: &str) -> Result<pf1e_engine::strategy::StrategySpec, String> {
    pf1e_engine::strategy::StrategySpec::parse(text).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fractions_from_zero_to_one() {
        assert_eq!(fraction("0"), Ok(0.0));
        assert_eq!(fraction("0.05"), Ok(0.05));
        assert_eq!(fraction("1"), Ok(1.0));
        for bad in ["-0.1", "1.5", "NaN", "inf", "x", ""] {
            assert!(fraction(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn positive_numbers_only() {
        assert_eq!(positive::<u64>("1"), Ok(1));
        assert_eq!(positive::<u32>("4000000000"), Ok(4_000_000_000));
        assert!(positive::<u64>("0").is_err());
        assert!(positive::<u64>("-3").is_err());
        assert!(positive::<u32>("x").is_err());
        assert!(positive::<u32>("5000000000").is_err());
    }
}
