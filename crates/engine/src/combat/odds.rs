//! The numbers of an attack roll that the rules and the policies share: the
//! shape of one roll (`Swing`), its situational modifiers (`Situation`),
//! iterative attacks and the chance to hit; flanking geometry. Data floor: no
//! rule module.

use crate::map::Pos;

/// How one attack roll is made.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Swing {
    /// Iterative penalty (0, 5, 10, 15).
    pub penalty: i32,
    /// Part of a charge (+2).
    pub charge: bool,
    /// An attack of opportunity (logged as such).
    pub aoo: bool,
    /// Part of a full attack with Rapid Shot (−2).
    pub rapid: bool,
    /// Two-weapon penalty of this hand (0 when not fighting with two weapons).
    pub two_weapon: i32,
    /// An off-hand attack (Double Slice's damage).
    pub off_hand: bool,
    /// Manyshot: the hit fires two arrows.
    pub manyshot: bool,
    /// Part of a monk's flurry of blows (the monk level as base attack bonus, −2).
    pub flurry: bool,
    /// Vital Strike: extra rolls of the weapon's dice.
    pub vital: u8,
    /// An attack of opportunity against a trampling creature (UMR "Trample": −4).
    pub trample: bool,
    /// A monster's variant of the attack (rake, powerful charge): 0 none,
    /// k + 1 its `MonsterSpec::strikes[k]` (the profile `attack::profile` picks).
    pub variant: u8,
}

/// Situational modifiers of one attack roll.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Situation {
    /// Power Attack step X (−X on the roll), 0 when not used.
    pub power_attack: i32,
    /// Deadly Aim step X (−X on the roll, +2X damage), 0 when not used.
    pub deadly_aim: i32,
    /// Combat Expertise step X (−X on the roll), 0 when not used.
    pub expertise: i32,
    /// The target is denied its Dexterity bonus against this attack.
    pub denied: bool,
    /// An invisible attacker (+2).
    pub invisible: bool,
    /// A melee attack against a helpless target (+4).
    pub helpless: bool,
    /// Total attack modifier (bonus, iterative, charge, flank, high ground, range).
    pub attack: i32,
    /// Armor class to beat (touch or normal, cover and charge penalty included).
    pub ac: i32,
    pub flank: bool,
    /// Flanking with an ally who shares Outflank (+4 instead of +2).
    pub outflank: bool,
    pub high_ground: bool,
    /// Shooting into melee (−4).
    pub into_melee: bool,
    pub range_penalty: i32,
    pub cover: i32,
    pub touch: bool,
}

/// Number of attacks a full attack with a manufactured weapon gets at `bab`:
/// one more at +6, +11 and +16.
pub(crate) fn iterations(bab: i32) -> i32 {
    if bab <= 0 { 1 } else { (1 + (bab - 1) / 5).min(4) }
}

/// The chance that d20 + `bonus` hits `ac` (a natural 1 misses, a natural 20 hits).
pub(crate) fn hit_chance(bonus: i32, ac: i32) -> f64 {
    let needed = (ac - bonus).clamp(2, 20);
    f64::from(21 - needed) / 20.0
}

/// Whether the line between the centers of `a` and `b` crosses opposite
/// borders (corners included) of the square `t` (CRB "Flanking").
pub(crate) fn opposite_sides(a: Pos, b: Pos, t: Pos) -> bool {
    opposite_borders(a, b, t, 1)
}

/// Whether the line between the centers of squares `a` and `b` crosses
/// opposite borders (corners included) of the footprint of side `s` whose
/// top-left square is `t`.
pub(crate) fn opposite_borders(a: Pos, b: Pos, t: Pos, s: i32) -> bool {
    // Doubled coordinates: square centers on even integers; the footprint is
    // [lo, hi]² around the origin at the target's top-left center.
    let (lo, hi) = (-1i64, 2 * i64::from(s) - 1);
    let (x0, y0) = (2 * (a.col - t.col) as i64, 2 * (a.row - t.row) as i64);
    let (dx, dy) = (2 * (b.col - a.col) as i64, 2 * (b.row - a.row) as i64);
    // Liang–Barsky clipping with fractions n/d (d > 0) for the segment parameter.
    let (mut enter, mut exit) = ((0i64, 1i64), (1i64, 1i64));
    for (p, q) in [(-dx, x0 - lo), (dx, hi - x0), (-dy, y0 - lo), (dy, hi - y0)] {
        if p == 0 {
            if q < 0 {
                return false;
            }
            continue;
        }
        let r = if p > 0 { (q, p) } else { (-q, -p) };
        if p < 0 {
            if r.0 * enter.1 > enter.0 * r.1 {
                enter = r;
            }
        } else if r.0 * exit.1 < exit.0 * r.1 {
            exit = r;
        }
    }
    if enter.0 * exit.1 > exit.0 * enter.1 {
        return false;
    }
    // Borders touched at a parameter n/d: bit 0 left, 1 right, 2 top, 3 bottom.
    let borders = |(n, d): (i64, i64)| {
        let x = x0 * d + dx * n;
        let y = y0 * d + dy * n;
        u8::from(x == lo * d)
            | u8::from(x == hi * d) << 1
            | u8::from(y == lo * d) << 2
            | u8::from(y == hi * d) << 3
    };
    let (e, x) = (borders(enter), borders(exit));
    let across = |l: u8, h: u8| (e & l != 0 && x & h != 0) || (e & h != 0 && x & l != 0);
    across(1, 2) || across(4, 8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hit_chances_keep_the_natural_one_and_twenty() {
        assert_eq!(hit_chance(5, 16), 0.5);
        assert_eq!(hit_chance(30, 10), 0.95);
        assert_eq!(hit_chance(0, 40), 0.05);
    }
}
