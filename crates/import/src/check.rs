//! Conformance of a combatant file with its build: every printed number the
//! build determines is recomputed and compared, so the data cannot drift
//! from the rules.

use std::collections::BTreeMap;

use pf1e_engine::dice::{DiceExpr, Term};
use pf1e_engine::model::Combatant;
use pf1e_engine::spell::SpellBook;

use crate::build::Derived;

/// A printed number that differs from its derivation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// Where in the combatant file (`$.ac.total`, `$.attacks[1].attack_bonus`).
    pub path: String,
    /// What the build gives.
    pub expected: String,
    /// What the file says.
    pub found: String,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: the build gives {}, the file says {}", self.path, self.expected, self.found)
    }
}

/// The result of a check.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Conformance {
    /// Numbers that differ.
    pub mismatches: Vec<Mismatch>,
    /// What the combatant format cannot say yet (read, not failures).
    pub notes: Vec<String>,
}

impl Conformance {
    fn compare<T: PartialEq + std::fmt::Debug>(&mut self, path: &str, expected: T, found: T) {
        if expected != found {
            self.mismatches.push(Mismatch {
                path: path.into(),
                expected: format!("{expected:?}"),
                found: format!("{found:?}"),
            });
        }
    }
}

/// The printed form of a damage formula: dice then the flat bonus (`1d8+3`, `1d3-4`, `2d6`).
pub fn damage_formula(dice: &str, bonus: i32) -> String {
    match bonus {
        0 => dice.to_string(),
        b => format!("{dice}{b:+}"),
    }
}

/// The flat part of a damage formula.
fn flat(formula: &str) -> Option<i32> {
    let expr = DiceExpr::parse(formula).ok()?;
    Some(expr.terms().iter().map(|t| if let Term::Flat(v) = t { *v } else { 0 }).sum())
}

/// Compares `c` with what `d` derives. `spells` is the spell book its spells
/// must be found in, at a level its casting class can cast.
pub fn check(c: &Combatant, d: &Derived, spells: &SpellBook) -> Conformance {
    let mut out = Conformance::default();
    let s = &d.stats;
    out.compare("$.abilities", &d.abilities, &c.abilities);
    out.compare("$.ability_enhancements", &d.ability_enhancements, &c.ability_enhancements);
    out.compare("$.size", d.size, c.size);
    out.compare("$.level", d.level, c.level);
    out.compare("$.bab", d.bab, c.bab);
    out.compare("$.hp_max", s.hp_max, c.hp_max);
    out.compare("$.ac", s.ac, c.ac);
    out.compare("$.saves", s.saves, c.saves);
    out.compare("$.initiative_mod", s.initiative, c.initiative_mod);
    out.compare("$.cmb", Some(s.cmb), c.cmb);
    out.compare("$.cmd", Some(s.cmd), c.cmd);
    out.compare("$.speed_land_ft", d.speed_land_ft, c.speed_land_ft);
    out.compare("$.speed_fly_ft", d.speed_fly_ft, c.speed_fly_ft);
    // The shield the printed AC holds is the one the hands rules let go of.
    out.compare("$.shield.ac_bonus", d.shield_ac, c.shield.as_ref().map(|s| s.ac_bonus));

    let mut seen = vec![false; c.attacks.len()];
    for (w, derived) in d.weapons.iter().zip(&s.attacks) {
        let Some(i) = c.attacks.iter().position(|a| a.weapon_id() == w.attack) else {
            out.mismatches.push(Mismatch {
                path: "$.attacks".into(),
                expected: format!("an attack with id {:?}", w.attack),
                found: "none".into(),
            });
            continue;
        };
        seen[i] = true;
        let a = &c.attacks[i];
        let at = |field: &str| format!("$.attacks[{i}].{field}");
        out.compare(&at("attack_bonus"), derived.attack_bonus, a.attack_bonus);
        out.compare(&at("crit_range"), derived.crit_range, a.crit_range);
        out.compare(&at("crit_mult"), w.crit_mult, a.crit_mult);
        let printed = a.damage.first().map(|dc| dc.formula.clone()).unwrap_or_default();
        out.compare(&at("damage[0].formula"), damage_formula(&w.dice, derived.damage_bonus), printed.clone());
        if a.damage_bonus != 0 || flat(&printed).is_none() {
            out.compare(&at("damage_bonus"), 0, a.damage_bonus);
        }
    }
    // A bomb's splash, its save and the bombs a day (APG "Bomb").
    if let Some(b) = &d.bomb
        && let Some(i) = c.attacks.iter().position(|a| a.weapon_id() == b.attack)
    {
        let a = &c.attacks[i];
        let at = |field: &str| format!("$.attacks[{i}].{field}");
        let splash: Vec<&str> = a.splash.iter().map(|s| s.formula.as_str()).collect();
        out.compare(
            &at("splash"),
            vec![b.splash.to_string()],
            splash.iter().map(|s| s.to_string()).collect(),
        );
        out.compare(&at("splash_dc"), Some(b.dc), a.splash_dc);
        out.compare(&at("ammunition"), Some(b.per_day), a.ammunition);
        out.compare(&at("standard_action"), true, a.standard_action);
        out.compare(&at("kind"), pf1e_engine::model::AttackKind::Touch, a.kind);
    }
    for (i, used) in seen.iter().enumerate() {
        if !used {
            out.mismatches.push(Mismatch {
                path: format!("$.attacks[{i}]"),
                expected: "a weapon of the build".into(),
                found: format!("{:?}", c.attacks[i].weapon_id()),
            });
        }
    }

    match &d.casting {
        None => {
            out.compare("$.spell_slots", BTreeMap::new(), c.spell_slots.clone());
            out.compare("$.domain_slots", BTreeMap::new(), c.domain_slots.clone());
            out.compare("$.spells", Vec::<String>::new(), c.spells.clone());
        }
        Some(casting) => {
            out.compare("$.casting_ability", Some(casting.ability), c.casting_ability);
            out.compare("$.spell_slots", casting.slots.clone(), c.spell_slots.clone());
            out.compare("$.domain_slots", casting.domain_slots.clone(), c.domain_slots.clone());
            // A domain spell is one of the build's domains, of a level it casts.
            for (i, name) in c.domain_spells.iter().enumerate() {
                match casting.domain_spells.get(&name.trim().to_lowercase()) {
                    Some(&level) if level <= casting.max_spell_level => {}
                    found => out.mismatches.push(Mismatch {
                        path: format!("$.domain_spells[{i}]"),
                        expected: format!(
                            "a spell of the build's domains of level {} or lower",
                            casting.max_spell_level
                        ),
                        found: match found {
                            Some(level) => format!("{name} (domain level {level})"),
                            None => name.clone(),
                        },
                    }),
                }
            }
            for (i, name) in c.spells.iter().enumerate() {
                let path = format!("$.spells[{i}]");
                let Some((_, spell)) = spells.find(name) else {
                    out.mismatches.push(Mismatch {
                        path,
                        expected: "a spell of data/spells".into(),
                        found: format!("{name:?}"),
                    });
                    continue;
                };
                match spell.levels.get(&casting.class).map(|&l| u32::from(l)) {
                    Some(level) if level <= casting.max_spell_level => {}
                    Some(level) => out.mismatches.push(Mismatch {
                        path,
                        expected: format!(
                            "a {} spell of level {} or lower",
                            casting.class, casting.max_spell_level
                        ),
                        found: format!("{name} (level {level})"),
                    }),
                    None => out.mismatches.push(Mismatch {
                        path,
                        expected: format!("a spell of the {} list", casting.class),
                        found: name.clone(),
                    }),
                }
            }
            if casting.caster_level != c.level {
                out.notes.push(format!(
                    "caster level {} ({} levels) but the file's level {} sets the caster level",
                    casting.caster_level, casting.class, c.level
                ));
            }
            if casting.domain_slots_left_out > 0 {
                out.notes.push(format!(
                    "{} domain slot(s) left out of the file (the build's casting.domain_slots is left_out)",
                    casting.domain_slots_left_out
                ));
            }
        }
    }
    out.compare("$.resources", d.resources.clone(), c.resources.clone());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn damage_formulas_print_their_sign() {
        assert_eq!(damage_formula("1d8", 3), "1d8+3");
        assert_eq!(damage_formula("1d3", -4), "1d3-4");
        assert_eq!(damage_formula("2d6", 0), "2d6");
        assert_eq!(flat("1d8+3"), Some(3));
    }
}
