//! The stacking resolver: how typed bonuses and penalties add up (CRB
//! "Bonuses": "bonuses of the same type don't stack [...] dodge bonuses,
//! racial bonuses and circumstance bonuses stack", plus the trait and
//! untyped bonuses of the seed's rule).
//!
//! Every number a roll adds on top of a data file's final value goes through
//! one [`Tally`]: the engine's own situational modifiers (charge, flanking,
//! cover, prone…), conditions, timed effects and feats alike, so that the
//! stacking rule is applied once, in one place.
//!
//! Rule: for a stacking type (dodge, racial, trait, untyped, circumstance)
//! every bonus adds and every penalty adds; for any other type only the
//! largest bonus and the most severe penalty count (a +2 and a +1 morale
//! bonus give +2; a +2 morale bonus and a −1 morale penalty give +1). Two
//! instances of the same effect (the same spell cast twice) never coexist:
//! applying an effect again refreshes it (`combat` effects), which is the
//! CRB's same-source rule.

use super::vocab::BonusType;

/// Number of bonus types.
const TYPES: usize = BonusType::ALL.len();

/// Accumulates typed modifiers; [`Tally::total`] applies the stacking rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Per type: the sum of bonuses (stacking types) or the largest bonus.
    bonus: [i32; TYPES],
    /// Per type: the sum of penalties (stacking types) or the most severe one.
    penalty: [i32; TYPES],
    /// Types touched (bit = `BonusType as usize`).
    present: u32,
}

impl Tally {
    /// An empty tally.
    pub const fn new() -> Self {
        Self { bonus: [0; TYPES], penalty: [0; TYPES], present: 0 }
    }

    /// Adds one modifier of `ty` (a penalty when negative).
    #[inline]
    pub fn add(&mut self, ty: BonusType, value: i32) {
        let k = ty as usize;
        self.present |= 1 << k;
        if ty.stacks() {
            if value >= 0 {
                self.bonus[k] += value;
            } else {
                self.penalty[k] += value;
            }
        } else if value >= 0 {
            self.bonus[k] = self.bonus[k].max(value);
        } else {
            self.penalty[k] = self.penalty[k].min(value);
        }
    }

    /// Adds an untyped modifier (the engine's situational ones).
    #[inline]
    pub fn untyped(&mut self, value: i32) {
        self.add(BonusType::Untyped, value);
    }

    /// The net modifier after stacking.
    #[inline]
    pub fn total(&self) -> i32 {
        let mut sum = 0;
        let mut bits = self.present;
        while bits != 0 {
            let k = bits.trailing_zeros() as usize;
            sum += self.bonus[k] + self.penalty[k];
            bits &= bits - 1;
        }
        sum
    }

    /// The net modifier on a value that already holds a bonus `included` of
    /// type `ty` (a belt's +2 enhancement in a printed Strength): that bonus
    /// competes with the others of its type under the stacking rule, but is
    /// not added again, so Bull's Strength's +4 enhancement on that printed
    /// score adds 2 (CRB "Bonus Types": enhancement bonuses do not stack).
    /// A smaller bonus of that type adds nothing (never less than nothing);
    /// penalties and other types count as in [`Tally::total`].
    #[inline]
    pub fn total_over(&self, ty: BonusType, included: i32) -> i32 {
        if included <= 0 {
            return self.total();
        }
        let mut with = *self;
        with.add(ty, included);
        with.total() - included
    }

    /// The net contribution of one type.
    #[inline]
    pub fn of(&self, ty: BonusType) -> i32 {
        let k = ty as usize;
        self.bonus[k] + self.penalty[k]
    }

    /// The bonuses of the types for which `keep` holds, and every penalty
    /// (touch AC, flat-footed AC and CMD drop bonuses, never penalties).
    pub fn total_where(&self, keep: impl Fn(BonusType) -> bool) -> i32 {
        let mut sum = 0;
        let mut bits = self.present;
        while bits != 0 {
            let k = bits.trailing_zeros() as usize;
            sum += self.penalty[k];
            if keep(BonusType::ALL[k]) {
                sum += self.bonus[k];
            }
            bits &= bits - 1;
        }
        sum
    }

    /// Whether nothing was added.
    pub fn is_empty(&self) -> bool {
        self.present == 0
    }
}

/// Bonus types that count toward touch AC: every type but armor, shield and
/// natural armor (CRB "Touch Attacks").
pub const fn counts_vs_touch(ty: BonusType) -> bool {
    !matches!(ty, BonusType::Armor | BonusType::Shield | BonusType::NaturalArmor)
}

/// Bonus types a creature denied its Dexterity bonus to AC still keeps:
/// every type but dodge (CRB "Dodge Bonus": "Any situation that denies you
/// your Dexterity bonus also denies you dodge bonuses").
pub const fn kept_when_denied_dex(ty: BonusType) -> bool {
    !matches!(ty, BonusType::Dodge)
}

/// The AC bonus types a creature adds to its CMD (CRB "Combat Maneuver
/// Defense": "circumstance, deflection, dodge, insight, luck, morale,
/// profane, and sacred bonuses to AC"); penalties of every type apply.
pub const fn counts_for_cmd(ty: BonusType) -> bool {
    matches!(
        ty,
        BonusType::Circumstance
            | BonusType::Deflection
            | BonusType::Dodge
            | BonusType::Insight
            | BonusType::Luck
            | BonusType::Morale
            | BonusType::Profane
            | BonusType::Sacred
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use BonusType::*;

    fn total(mods: &[(BonusType, i32)]) -> i32 {
        let mut t = Tally::new();
        for &(ty, v) in mods {
            t.add(ty, v);
        }
        t.total()
    }

    #[test]
    fn stacking_types_add_up_bonuses_and_penalties() {
        assert_eq!(total(&[(Dodge, 1), (Dodge, 4)]), 5);
        assert_eq!(total(&[(Untyped, 2), (Untyped, 1), (Untyped, -4)]), -1);
        assert_eq!(total(&[(Circumstance, 2), (Circumstance, 2)]), 4);
        assert_eq!(total(&[(Racial, 2), (Trait, 1), (Racial, 1)]), 4);
    }

    #[test]
    fn other_types_keep_the_largest_bonus_and_the_worst_penalty() {
        assert_eq!(total(&[(Morale, 2), (Morale, 1)]), 2);
        assert_eq!(total(&[(Enhancement, 1), (Enhancement, 3), (Enhancement, 2)]), 3);
        assert_eq!(total(&[(Morale, -1), (Morale, -2)]), -2);
        // A bonus and a penalty of the same type both count.
        assert_eq!(total(&[(Morale, 2), (Morale, -1)]), 1);
        // Different types add.
        assert_eq!(total(&[(Morale, 2), (Competence, 1), (Luck, 1), (Sacred, 2)]), 6);
    }

    #[test]
    fn bless_and_inspire_courage_and_heroism() {
        // Bless (+1 morale), heroism (+2 morale) and inspire courage (+1
        // competence): the morale bonuses do not stack, competence does.
        assert_eq!(total(&[(Morale, 1), (Morale, 2), (Competence, 1)]), 3);
    }

    #[test]
    fn per_type_contributions_serve_touch_and_flat_footed_ac() {
        let mut t = Tally::new();
        t.add(Armor, 4);
        t.add(Dodge, 1);
        t.add(Dodge, 2);
        t.add(Deflection, 1);
        t.add(Untyped, -2);
        assert_eq!(t.total(), 6);
        assert_eq!(t.of(Dodge), 3);
        assert_eq!(t.total_where(counts_vs_touch), 2);
        assert_eq!(t.total_where(kept_when_denied_dex), 3);
        assert_eq!(t.total_where(counts_for_cmd), 2);
        assert!(!t.is_empty());
        assert!(Tally::new().is_empty());
    }

    #[test]
    fn an_enhancement_the_base_holds_competes_but_is_not_added_again() {
        let mut t = Tally::new();
        t.add(Enhancement, 4);
        t.add(Morale, 2);
        // A +2 belt in the printed score: Bull's Strength adds 2, rage's morale 2.
        assert_eq!(t.total_over(Enhancement, 2), 4);
        // A +6 belt: the spell adds nothing, not −2.
        assert_eq!(t.total_over(Enhancement, 6), 2);
        // Nothing included: the plain total.
        assert_eq!(t.total_over(Enhancement, 0), 6);
        // A penalty of the type still applies in full.
        t.add(Enhancement, -1);
        assert_eq!(t.total_over(Enhancement, 2), 3);
        // A stacking type's included bonus changes nothing.
        assert_eq!(t.total_over(Untyped, 3), t.total());
    }
}
