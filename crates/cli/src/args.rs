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

#[cfg(test)]
mod tests {
    use super::*;

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
