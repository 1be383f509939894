//! Saving throws (CRB "Saving Throws"): d20 + save bonus + modifiers against
//! a DC; a natural 1 always fails and a natural 20 always succeeds.
//!
//! The bonus is the data file's final save; the modifiers are those of the
//! bearer's conditions, effects and feats that read the save (`saves` and
//! `fort`/`ref`/`will`), conditioned ones included when the effect carries
//! their descriptor (`+2 racial vs poison`, `+1 morale vs fear`).

/// The outcome of one saving throw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SaveRoll {
    /// The natural roll.
    pub d20: i32,
    /// The bonus added to it (save and modifiers).
    pub bonus: i32,
    /// The DC.
    pub dc: i32,
    /// Whether the save succeeds.
    pub success: bool,
}

impl SaveRoll {
    /// The save of a creature with `bonus` that rolled `d20` against `dc`.
    pub const fn new(d20: i32, bonus: i32, dc: i32) -> Self {
        let success = d20 != 1 && (d20 == 20 || d20 + bonus >= dc);
        Self { d20, bonus, dc, success }
    }

    /// d20 + bonus.
    pub const fn total(&self) -> i32 {
        self.d20 + self.bonus
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn natural_one_fails_and_natural_twenty_succeeds() {
        assert!(!SaveRoll::new(1, 30, 10).success);
        assert!(SaveRoll::new(20, -10, 40).success);
        assert!(SaveRoll::new(10, 5, 15).success);
        assert!(!SaveRoll::new(10, 4, 15).success);
        assert_eq!(SaveRoll::new(12, 3, 15).total(), 15);
    }
}
