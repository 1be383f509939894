//! Damage of a hit: critical multiplication, damage reduction, energy
//! resistance and immunity, per damage component.

use crate::rng::Dice;

use super::prepared::{AttackProfile, DefenseVs};

/// Damage of one hit before and after the defender's reductions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Damage {
    /// Rolled damage (critical included), before reductions, floored at 0.
    pub rolled: u32,
    /// Damage dealt after reductions.
    pub dealt: u32,
    /// Bleed damage the hit sets off (dealt at the start of the target's turns).
    pub bleed: u32,
    /// The physical part of `dealt` (what damage reduction from an effect may reduce further).
    pub physical: u32,
    /// Nonlethal damage: 1 when penalties bring a hit's damage below 1 (CRB
    /// "Damage": "a hit still deals 1 point of nonlethal damage"), after
    /// damage reduction when the attack is physical.
    pub nonlethal: u32,
    /// Hit points restored instead: negative energy on an undead defender.
    pub healed: u32,
    /// The hit splits the defender instead of harming it (`monster::split`),
    /// once its damage (none) is shown.
    pub splits: bool,
    /// Per energy (`ENERGY` order), the part of `dealt` an absorbing effect
    /// on the defender may take (`Engine::absorb_energy`).
    pub absorbable: [u32; 5],
}

/// What a hit adds to an attack's own damage.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Extra {
    /// Flat damage bonus (Power Attack, modifiers), multiplied on a critical hit.
    pub flat: i32,
    /// Precision d6 (sneak attack): never multiplied, added before damage reduction.
    pub precision_d6: u32,
    /// Extra rolls of the weapon component's dice (Vital Strike): never
    /// multiplied, added to the weapon's part before damage reduction.
    pub vital: u32,
    /// Extra multiples of the damage a critical hit multiplies (a mounted
    /// charge's lance: 1 for double damage); they add to a critical's
    /// multiplier (CRB "Multiplying Damage": ×2 and ×3 make ×4).
    pub mult: u32,
    /// Its wielder's own size and the categories it is above (positive) or
    /// below it now (Enlarge Person): a melee weapon's dice follow `resized_dice`.
    pub resize: Option<(crate::model::Size, i8)>,
    /// A save halved it: each component's amount halved (rounded down)
    /// before vulnerability and resistance (a bomb's splash, APG "Bomb").
    pub half: bool,
}

/// Weapon damage dice by size, rows of (Tiny, Small, Medium, Large) as
/// `(count, faces)`, `(1, 1)` standing for a flat 1: CRB Table 6-4 (Small
/// and Medium columns) and "Tiny and Large Weapon Damage" (Enlarge Person).
const WEAPON_DICE_BY_SIZE: [[(u32, u32); 4]; 11] = [
    [(1, 1), (1, 1), (1, 2), (1, 3)],
    [(1, 1), (1, 2), (1, 3), (1, 4)],
    [(1, 2), (1, 3), (1, 4), (1, 6)],
    [(1, 3), (1, 4), (1, 6), (1, 8)],
    [(1, 4), (1, 6), (1, 8), (2, 6)],
    [(1, 6), (1, 8), (1, 10), (2, 8)],
    [(1, 8), (1, 10), (1, 12), (3, 6)],
    [(1, 4), (1, 6), (2, 4), (2, 6)],
    [(1, 8), (1, 10), (2, 6), (3, 6)],
    [(1, 10), (2, 6), (2, 8), (3, 8)],
    [(2, 6), (2, 8), (2, 10), (4, 8)],
];

/// The dice `(count, faces)` of a weapon of a `from` creature dealing
/// `dice` once its wielder is `steps` categories larger or smaller: the row
/// of the table whose `from` column reads `dice` (the first one), at the new
/// column. Outside Tiny–Large, or for dice the table does not list, the dice
/// stay as they are (`docs/rules/spells.md`, "Size changes").
pub(crate) fn resized_dice(dice: (u32, u32), from: crate::model::Size, steps: i8) -> (u32, u32) {
    use crate::model::Size;
    let column = |s: Size| (s >= Size::Tiny && s <= Size::Large).then(|| s as usize - Size::Tiny as usize);
    match (column(from), column(from.shifted(i32::from(steps)))) {
        (Some(a), Some(b)) => {
            WEAPON_DICE_BY_SIZE.iter().find(|row| row[a] == dice).map_or(dice, |row| row[b])
        }
        _ => dice,
    }
}

/// The weapon component of melee attack `atk` of a `size` creature grown
/// or shrunk by `steps`, with its resized dice, when they change.
fn resized_weapon(
    atk: &AttackProfile,
    size: crate::model::Size,
    steps: i8,
) -> Option<(usize, crate::dice::DiceExpr)> {
    let k = atk.bonus_component.filter(|_| atk.melee && atk.weapon_damage && steps != 0)?;
    let dice = &atk.components[k].dice;
    let before = dice.first_dice()?;
    let after = resized_dice(before, size, steps);
    (after != before).then(|| (k, dice.with_first_dice(after.0, after.1)))
}

/// Rolls the damage of `atk` against a defender with `def`.
///
/// Components are rolled in order. On a critical hit the weapon's own
/// component (dice and flat part), `damage_bonus`, the hit's extra flat
/// bonus and the flat part of other physical components are multiplied;
/// extra dice, energy and precision damage never are (CRB "Critical Hits").
/// Each component is floored at 0, zeroed by an immunity to one of its types
/// and reduced by the largest resistance among its types. Precision dice
/// (`extra.precision_d6`, sneak attack) are rolled last and join the
/// weapon's physical part; damage reduction then applies once to the sum of
/// the physical parts. A `bleed` component wounds nothing now: it is
/// returned as the bleed the hit sets off.
pub(crate) fn roll_damage<R: Dice>(
    atk: &AttackProfile,
    def: &DefenseVs,
    crit: bool,
    extra: Extra,
    rng: &mut R,
) -> Damage {
    let mult = if crit { atk.crit_mult as i32 } else { 1 } + extra.mult as i32;
    let mut rolled = 0i32;
    let mut physical = 0i32;
    let mut other = 0i32;
    let mut bleed = 0i32;
    let mut healed = 0i32;
    let mut absorbable = [0u32; 5];
    let weapon_bonus = atk.damage_bonus + extra.flat;
    let resized = extra.resize.and_then(|(size, steps)| resized_weapon(atk, size, steps));
    let dice_of = |k: usize, c: &'_ super::prepared::Component| match &resized {
        Some((w, d)) if *w == k => d.clone(),
        _ => c.dice.clone(),
    };
    for (k, c) in atk.components.iter().enumerate() {
        let (dice, mut flat) =
            if resized.is_some() { dice_of(k, c).roll_split(rng) } else { c.dice.roll_split(rng) };
        if atk.bonus_component == Some(k) {
            flat += weapon_bonus;
        }
        let v =
            (dice * if c.crit_dice { mult } else { 1 } + flat * if c.crit_flat { mult } else { 1 }).max(0);
        let v = if extra.half { v / 2 } else { v };
        let cd = def.comps[k];
        let kept = cd.kept(v);
        if let Some(e) = cd.absorbed {
            absorbable[usize::from(e)] += kept as u32;
        }
        if cd.heals {
            rolled += v;
            healed += kept;
            continue;
        }
        if c.bleed {
            bleed += kept;
            continue;
        }
        rolled += v;
        if c.physical {
            physical += kept;
        } else {
            other += kept;
        }
    }
    if extra.vital > 0
        && let Some(k) = atk.bonus_component
    {
        // CRB "Vital Strike": "These extra weapon damage dice are not
        // multiplied on a critical hit, but are added to the total."
        let c = &atk.components[k];
        let cd = def.comps[k];
        let dice = dice_of(k, c);
        let v = (0..extra.vital).map(|_| dice.roll_split(rng).0).sum::<i32>().max(0);
        let kept = cd.kept(v);
        if let Some(e) = cd.absorbed {
            absorbable[usize::from(e)] += kept as u32;
        }
        rolled += v;
        if c.physical {
            physical += kept;
        } else {
            other += kept;
        }
    }
    if atk.bonus_component.is_none() && weapon_bonus != 0 {
        // Without a weapon component the flat bonus stands alone, untyped.
        let v = (weapon_bonus * mult).max(0);
        rolled += v;
        other += v;
    }
    if extra.precision_d6 > 0 {
        let v: i32 = (0..extra.precision_d6).map(|_| rng.roll(6) as i32).sum();
        rolled += v;
        if atk.bonus_component.is_some_and(|k| atk.components[k].physical) {
            physical += v;
        } else {
            other += v;
        }
    }
    // A touch with no damage of its own (a lamia's draining touch) deals
    // none, not the minimum of a damage roll.
    let no_damage = atk.components.is_empty() && weapon_bonus == 0;
    let nonlethal = if rolled <= 0 && bleed == 0 && healed == 0 && !no_damage {
        let physical_hit = atk.bonus_component.is_none_or(|k| atk.components[k].physical);
        u32::from(!physical_hit || def.dr == 0)
    } else {
        0
    };
    let physical = (physical - def.dr as i32).max(0);
    Damage {
        rolled: rolled as u32,
        dealt: (physical + other) as u32,
        bleed: bleed as u32,
        physical: physical as u32,
        nonlethal,
        healed: healed as u32,
        splits: false,
        absorbable,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::combat::prepared::{CompDefense, Component};
    use crate::dice::DiceExpr;
    use crate::rng::ScriptedRng;

    /// A component: `weapon` (the weapon's own dice), other `physical`, `precision`, or energy.
    fn comp(formula: &str, physical: bool, precision: bool) -> Component {
        Component {
            dice: DiceExpr::parse(formula).unwrap(),
            physical,
            crit_dice: false,
            crit_flat: physical && !precision,
            bleed: false,
            energy: 0,
        }
    }

    fn weapon(formula: &str) -> Component {
        Component {
            dice: DiceExpr::parse(formula).unwrap(),
            physical: true,
            crit_dice: true,
            crit_flat: true,
            bleed: false,
            energy: 0,
        }
    }

    fn attack(components: Vec<Component>, damage_bonus: i32, crit_mult: u32) -> AttackProfile {
        let bonus_component = components.iter().position(|c| c.crit_dice);
        AttackProfile {
            name: "test".into(),
            id: "test".into(),
            melee: true,
            vs_touch: false,
            firearm: false,
            bonus: 0,
            natural: false,
            secondary: false,
            two_handed: false,
            off_hand: false,
            light: false,
            weapon_damage: true,
            mean_damage: 0.0,
            components,
            bonus_component,
            damage_bonus,
            threat_min: 20,
            crit_mult,
            increment: 0,
            max_range_ft: 0,
            reach_min: 0,
            reach_max: 5,
            count: 1,
            iterates: true,
            vs: Vec::new(),
            carried: Vec::new(),
            reload: None,
            ammo: u32::MAX,
            tracks_shots: false,
            splash: None,
            splash_dc: None,
            lingering: None,
            drawn: false,
        }
    }

    fn open(n: usize) -> DefenseVs {
        DefenseVs {
            dr: 0,
            comps: vec![
                CompDefense {
                    resist: 0,
                    immune: false,
                    vulnerable: false,
                    heals: false,
                    stops_regen: false,
                    splits: false,
                    fortifies: false,
                    halved: false,
                    absorbed: None,
                };
                n
            ],
        }
    }

    #[test]
    fn critical_multiplies_physical_dice_and_flat_bonus_only() {
        // 1d8+1 slashing, +3 damage bonus, 1d6 fire, 2d6 precision; x3.
        let atk = attack(vec![weapon("1d8+1"), comp("1d6", false, false), comp("2d6", true, true)], 3, 3);
        let def = open(3);
        let mut rng = ScriptedRng::new([5, 4, 2, 6]);
        let d = roll_damage(&atk, &def, true, Extra::default(), &mut rng);
        // (5+1+3)*3 = 27, fire 4, precision 2+6 = 8.
        assert_eq!(
            d,
            Damage {
                rolled: 39,
                dealt: 39,
                bleed: 0,
                physical: 35,
                nonlethal: 0,
                healed: 0,
                splits: false,
                absorbable: [0; 5]
            }
        );
        let mut rng = ScriptedRng::new([5, 4, 2, 6]);
        assert_eq!(roll_damage(&atk, &def, false, Extra::default(), &mut rng).dealt, 9 + 4 + 8);
    }

    #[test]
    fn extra_physical_dice_are_not_multiplied_but_their_flat_part_is() {
        // 1d8 weapon, extra 1d6+2 piercing; x2.
        let atk = attack(vec![weapon("1d8"), comp("1d6+2", true, false)], 0, 2);
        let mut rng = ScriptedRng::new([4, 3]);
        assert_eq!(roll_damage(&atk, &open(2), true, Extra::default(), &mut rng).dealt, 8 + 3 + 4);
    }

    #[test]
    fn dr_applies_after_multiplication_to_the_physical_part_only() {
        let atk = attack(vec![weapon("1d8"), comp("1d6", false, false)], 2, 2);
        let def = DefenseVs { dr: 5, ..open(2) };
        let mut rng = ScriptedRng::new([3, 6]);
        // physical (3+2)*2 = 10 - 5 = 5; fire 6 untouched by DR.
        assert_eq!(
            roll_damage(&atk, &def, true, Extra::default(), &mut rng),
            Damage {
                rolled: 16,
                dealt: 11,
                bleed: 0,
                physical: 5,
                nonlethal: 0,
                healed: 0,
                splits: false,
                absorbable: [0; 5]
            }
        );
        // DR larger than the physical part leaves the energy intact.
        let def = DefenseVs { dr: 30, comps: def.comps };
        let mut rng = ScriptedRng::new([3, 6]);
        assert_eq!(roll_damage(&atk, &def, true, Extra::default(), &mut rng).dealt, 6);
    }

    #[test]
    fn resistance_and_immunity_are_per_component() {
        // 1d8 slashing, 1d6 fire, 1d6 cold: fire resist 5, immune to cold.
        let atk = attack(vec![weapon("1d8"), comp("1d6", false, false), comp("1d6", false, false)], 0, 2);
        let def = DefenseVs {
            dr: 0,
            comps: vec![
                CompDefense {
                    resist: 0,
                    immune: false,
                    vulnerable: false,
                    heals: false,
                    stops_regen: false,
                    splits: false,
                    fortifies: false,
                    halved: false,
                    absorbed: None,
                },
                CompDefense {
                    resist: 5,
                    immune: false,
                    vulnerable: false,
                    heals: false,
                    stops_regen: false,
                    splits: false,
                    fortifies: false,
                    halved: false,
                    absorbed: None,
                },
                CompDefense {
                    resist: 0,
                    immune: true,
                    vulnerable: false,
                    heals: false,
                    stops_regen: false,
                    splits: false,
                    fortifies: false,
                    halved: false,
                    absorbed: None,
                },
            ],
        };
        let mut rng = ScriptedRng::new([7, 3, 6]);
        // fire 3 - 5 floors at 0 and does not eat into the slashing part.
        assert_eq!(
            roll_damage(&atk, &def, false, Extra::default(), &mut rng),
            Damage {
                rolled: 16,
                dealt: 7,
                bleed: 0,
                physical: 7,
                nonlethal: 0,
                healed: 0,
                splits: false,
                absorbable: [0; 5]
            }
        );
    }

    #[test]
    fn a_vulnerable_component_deals_half_again_rounded_down_before_resistance() {
        // 1d8 slashing and 1d6 fire on a creature vulnerable to fire (a
        // flaming sword on a young white dragon): 4 slashing, fire 5 -> 7.
        let atk = attack(vec![weapon("1d8"), comp("1d6", false, false)], 0, 2);
        let plain = CompDefense {
            resist: 0,
            immune: false,
            vulnerable: false,
            heals: false,
            stops_regen: false,
            splits: false,
            fortifies: false,
            halved: false,
            absorbed: None,
        };
        let def = DefenseVs { dr: 0, comps: vec![plain, CompDefense { vulnerable: true, ..plain }] };
        let mut rng = ScriptedRng::new([4, 5]);
        assert_eq!(
            roll_damage(&atk, &def, false, Extra::default(), &mut rng),
            Damage {
                rolled: 9,
                dealt: 11,
                bleed: 0,
                physical: 4,
                nonlethal: 0,
                healed: 0,
                splits: false,
                absorbable: [0; 5]
            }
        );
        // With fire resistance 3 as well: 5 * 1.5 = 7, minus 3 = 4.
        let def =
            DefenseVs { dr: 0, comps: vec![plain, CompDefense { vulnerable: true, resist: 3, ..plain }] };
        let mut rng = ScriptedRng::new([4, 5]);
        assert_eq!(roll_damage(&atk, &def, false, Extra::default(), &mut rng).dealt, 8);
    }

    #[test]
    fn extra_flat_damage_is_multiplied_and_precision_dice_are_not_but_meet_dr() {
        let atk = attack(vec![weapon("1d8")], 1, 2);
        let def = DefenseVs {
            dr: 3,
            comps: vec![CompDefense {
                resist: 0,
                immune: false,
                vulnerable: false,
                heals: false,
                stops_regen: false,
                splits: false,
                fortifies: false,
                halved: false,
                absorbed: None,
            }],
        };
        let mut rng = ScriptedRng::new([5, 4, 6]);
        let extra = Extra { flat: 2, precision_d6: 2, ..Extra::default() };
        // (5 + 1 + 2) * 2 = 16, then 4 + 6 precision = 26, DR 3 on the whole physical part.
        assert_eq!(
            roll_damage(&atk, &def, true, extra, &mut rng),
            Damage {
                rolled: 26,
                dealt: 23,
                bleed: 0,
                physical: 23,
                nonlethal: 0,
                healed: 0,
                splits: false,
                absorbable: [0; 5]
            }
        );
    }

    #[test]
    fn a_bleed_component_deals_nothing_now_and_is_returned_as_bleed() {
        let mut bleed = comp("1d4", false, false);
        bleed.bleed = true;
        bleed.crit_flat = false;
        let atk = attack(vec![weapon("1d6"), bleed], 0, 2);
        let mut rng = ScriptedRng::new([3, 2]);
        assert_eq!(
            roll_damage(&atk, &open(2), true, Extra::default(), &mut rng),
            Damage {
                rolled: 6,
                dealt: 6,
                bleed: 2,
                physical: 6,
                nonlethal: 0,
                healed: 0,
                splits: false,
                absorbable: [0; 5]
            }
        );
    }

    #[test]
    fn a_hit_whose_damage_falls_below_one_deals_one_nonlethal() {
        let atk = attack(vec![weapon("1d4")], -3, 2);
        let mut rng = ScriptedRng::new([1]);
        assert_eq!(
            roll_damage(&atk, &open(1), false, Extra::default(), &mut rng),
            Damage {
                rolled: 0,
                dealt: 0,
                bleed: 0,
                physical: 0,
                nonlethal: 1,
                healed: 0,
                splits: false,
                absorbable: [0; 5]
            }
        );
        // 1d4-3 rolling 4 deals 1 lethal damage and no nonlethal.
        let mut rng = ScriptedRng::new([4]);
        assert_eq!(roll_damage(&atk, &open(1), false, Extra::default(), &mut rng).nonlethal, 0);
        // Damage reduction stops the point of a physical weapon.
        let def = DefenseVs { dr: 5, comps: open(1).comps };
        let mut rng = ScriptedRng::new([1]);
        assert_eq!(roll_damage(&atk, &def, false, Extra::default(), &mut rng).nonlethal, 0);
    }

    #[test]
    fn negative_energy_heals_an_undead_defender_instead() {
        // The lich's touch: 1d8+5 negative energy.
        let atk = attack(vec![comp("1d8+5", false, false)], 0, 2);
        let def = DefenseVs {
            dr: 0,
            comps: vec![CompDefense {
                resist: 0,
                immune: false,
                vulnerable: false,
                heals: true,
                stops_regen: false,
                splits: false,
                fortifies: false,
                halved: false,
                absorbed: None,
            }],
        };
        let mut rng = ScriptedRng::new([3]);
        assert_eq!(
            roll_damage(&atk, &def, false, Extra::default(), &mut rng),
            Damage {
                rolled: 8,
                dealt: 0,
                bleed: 0,
                physical: 0,
                nonlethal: 0,
                healed: 8,
                splits: false,
                absorbable: [0; 5]
            }
        );
    }
}
