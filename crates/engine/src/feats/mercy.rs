//! Paladin mercies (CRB "Paladin", Mercy): each one a feature of the
//! paladin's file written `Mercy (sickened)`; every lay on hands that
//! heals also gives the target the effect of each mercy the paladin has.
//!
//! A mercy named here but not in the CRB's list is refused at load (with
//! the list), as are one chosen below its level (3rd, 6th, 9th, 12th), a
//! 9th-level mercy without the one it builds on (exhausted needs
//! fatigued, frightened shaken, nauseated sickened), one listed twice, and
//! more mercies than the level gives (one at 3rd and every three levels,
//! one more per Extra Mercy feat).

use crate::effects::ConditionId;

/// One mercy of the Core Rulebook.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mercy {
    /// Fatigued (3rd level).
    Fatigued,
    /// Shaken (3rd level).
    Shaken,
    /// Sickened (3rd level).
    Sickened,
    /// Dazed (6th level).
    Dazed,
    /// Diseased (6th level): acts as remove disease.
    Diseased,
    /// Staggered (6th level), unless the target is at exactly 0 hit points.
    Staggered,
    /// Cursed (9th level): acts as remove curse.
    Cursed,
    /// Exhausted (9th level; needs fatigued).
    Exhausted,
    /// Frightened (9th level; needs shaken).
    Frightened,
    /// Nauseated (9th level; needs sickened).
    Nauseated,
    /// Poisoned (9th level): acts as neutralize poison.
    Poisoned,
    /// Blinded (12th level).
    Blinded,
    /// Deafened (12th level).
    Deafened,
    /// Paralyzed (12th level).
    Paralyzed,
    /// Stunned (12th level).
    Stunned,
}

impl Mercy {
    /// Every mercy, in the CRB's order.
    pub const ALL: [Mercy; 15] = [
        Mercy::Fatigued,
        Mercy::Shaken,
        Mercy::Sickened,
        Mercy::Dazed,
        Mercy::Diseased,
        Mercy::Staggered,
        Mercy::Cursed,
        Mercy::Exhausted,
        Mercy::Frightened,
        Mercy::Nauseated,
        Mercy::Poisoned,
        Mercy::Blinded,
        Mercy::Deafened,
        Mercy::Paralyzed,
        Mercy::Stunned,
    ];

    /// The name written in parentheses (lower case).
    pub const fn name(self) -> &'static str {
        match self {
            Mercy::Fatigued => "fatigued",
            Mercy::Shaken => "shaken",
            Mercy::Sickened => "sickened",
            Mercy::Dazed => "dazed",
            Mercy::Diseased => "diseased",
            Mercy::Staggered => "staggered",
            Mercy::Cursed => "cursed",
            Mercy::Exhausted => "exhausted",
            Mercy::Frightened => "frightened",
            Mercy::Nauseated => "nauseated",
            Mercy::Poisoned => "poisoned",
            Mercy::Blinded => "blinded",
            Mercy::Deafened => "deafened",
            Mercy::Paralyzed => "paralyzed",
            Mercy::Stunned => "stunned",
        }
    }

    /// The mercy called `name` (any case, surrounding blanks ignored).
    pub fn from_name(name: &str) -> Option<Self> {
        let name = name.trim().to_lowercase();
        Mercy::ALL.into_iter().find(|m| m.name() == name)
    }

    /// The paladin level from which it may be chosen.
    pub const fn level(self) -> u32 {
        match self {
            Mercy::Fatigued | Mercy::Shaken | Mercy::Sickened => 3,
            Mercy::Dazed | Mercy::Diseased | Mercy::Staggered => 6,
            Mercy::Cursed | Mercy::Exhausted | Mercy::Frightened | Mercy::Nauseated | Mercy::Poisoned => 9,
            Mercy::Blinded | Mercy::Deafened | Mercy::Paralyzed | Mercy::Stunned => 12,
        }
    }

    /// The mercy it requires (CRB: exhausted needs fatigued, frightened
    /// shaken, nauseated sickened).
    pub const fn requires(self) -> Option<Mercy> {
        match self {
            Mercy::Exhausted => Some(Mercy::Fatigued),
            Mercy::Frightened => Some(Mercy::Shaken),
            Mercy::Nauseated => Some(Mercy::Sickened),
            _ => None,
        }
    }

    /// The condition it ends; `None` for the mercies that act as a spell
    /// (diseased, cursed, poisoned).
    pub const fn condition(self) -> Option<ConditionId> {
        match self {
            Mercy::Fatigued => Some(ConditionId::Fatigued),
            Mercy::Shaken => Some(ConditionId::Shaken),
            Mercy::Sickened => Some(ConditionId::Sickened),
            Mercy::Dazed => Some(ConditionId::Dazed),
            Mercy::Staggered => Some(ConditionId::Staggered),
            Mercy::Exhausted => Some(ConditionId::Exhausted),
            Mercy::Frightened => Some(ConditionId::Frightened),
            Mercy::Nauseated => Some(ConditionId::Nauseated),
            Mercy::Blinded => Some(ConditionId::Blinded),
            Mercy::Deafened => Some(ConditionId::Deafened),
            Mercy::Paralyzed => Some(ConditionId::Paralyzed),
            Mercy::Stunned => Some(ConditionId::Stunned),
            Mercy::Diseased | Mercy::Cursed | Mercy::Poisoned => None,
        }
    }

    /// Every mercy's name, for messages.
    pub fn names() -> String {
        Mercy::ALL.iter().map(|m| m.name()).collect::<Vec<_>>().join(", ")
    }
}

/// A set of mercies (bit = position in [`Mercy::ALL`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Mercies(u16);

impl Mercies {
    /// Whether `m` is in the set.
    pub const fn has(self, m: Mercy) -> bool {
        self.0 >> m as u16 & 1 == 1
    }

    /// The set with `m`.
    pub const fn with(self, m: Mercy) -> Self {
        Mercies(self.0 | 1 << m as u16)
    }

    /// The number of mercies.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The mercies of the set, in the CRB's order.
    pub fn iter(self) -> impl Iterator<Item = Mercy> {
        Mercy::ALL.into_iter().filter(move |&m| self.has(m))
    }

    /// Checks a paladin's mercies against its `level` and its `extra`
    /// Extra Mercy feats: each one's level and prerequisite, and the count.
    pub fn check(self, level: u32, extra: u32) -> Result<(), String> {
        for m in self.iter() {
            if level < m.level() {
                return Err(format!(
                    "the mercy {:?} is chosen from paladin level {}; this combatant is level {level}",
                    m.name(),
                    m.level()
                ));
            }
            if let Some(r) = m.requires().filter(|&r| !self.has(r)) {
                return Err(format!(
                    "the mercy {:?} needs the mercy {:?} too (CRB \"Mercy\")",
                    m.name(),
                    r.name()
                ));
            }
        }
        let allowed = level / 3 + extra;
        if self.len() > allowed {
            return Err(format!(
                "{} mercies listed, a paladin of level {level} has {allowed} (one at 3rd level and every three levels after, one more per Extra Mercy)",
                self.len()
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_levels_follow_the_crb() {
        for m in Mercy::ALL {
            assert_eq!(Mercy::from_name(&m.name().to_uppercase()), Some(m));
        }
        assert_eq!(Mercy::from_name("sickly"), None);
        let at = |l: u32| Mercy::ALL.iter().filter(|m| m.level() == l).count();
        assert_eq!((at(3), at(6), at(9), at(12)), (3, 3, 5, 4));
    }

    #[test]
    fn a_set_is_checked_for_level_prerequisite_and_count() {
        let sickened = Mercies::default().with(Mercy::Sickened);
        assert_eq!(sickened.check(3, 0), Ok(()));
        assert!(sickened.check(2, 0).unwrap_err().contains("level 3"));
        let two = sickened.with(Mercy::Staggered);
        assert_eq!(two.check(6, 0), Ok(()));
        assert!(two.check(5, 0).is_err(), "staggered is a 6th-level mercy");
        assert!(sickened.with(Mercy::Fatigued).check(3, 0).unwrap_err().contains("2 mercies"));
        assert_eq!(sickened.with(Mercy::Fatigued).check(3, 1), Ok(()), "Extra Mercy");
        let nauseated = Mercies::default().with(Mercy::Nauseated).with(Mercy::Shaken);
        assert!(nauseated.check(9, 0).unwrap_err().contains("\"sickened\""));
    }
}
