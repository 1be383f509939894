//! A compact description of an encounter for the proposal prompts: one line
//! per kind of combatant with the numbers that matter to tactics.

use pf1e_engine::model::Combatant;

/// One combatant, in short.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CombatantBrief {
    /// Name.
    pub name: String,
    /// Level or hit dice.
    pub level: u32,
    /// Challenge rating, if known.
    pub cr: Option<String>,
    /// Maximum hit points.
    pub hp_max: i32,
    /// Armor class: total, touch, flat-footed.
    pub ac: (i32, i32, i32),
    /// Base attack bonus.
    pub bab: i32,
    /// Land speed in feet.
    pub speed_ft: u32,
    /// Attacks as `name +bonus (damage)`.
    pub attacks: Vec<String>,
    /// Number of spells known or prepared.
    pub spells: usize,
}

impl CombatantBrief {
    /// The brief of an engine combatant.
    pub fn from_combatant(c: &Combatant) -> Self {
        let attacks = c
            .attacks
            .iter()
            .map(|a| {
                let dice: Vec<&str> = a.damage.iter().map(|d| d.formula.as_str()).collect();
                let bonus = match a.damage_bonus {
                    0 => String::new(),
                    b => format!("{b:+}"),
                };
                let count = if a.count > 1 { format!(" x{}", a.count) } else { String::new() };
                format!("{}{count} {:+} ({}{bonus})", a.name, a.attack_bonus, dice.join("+"))
            })
            .collect();
        Self {
            name: c.name.clone(),
            level: c.level,
            cr: c.cr.clone(),
            hp_max: c.hp_max,
            ac: (c.ac.total, c.ac.touch, c.ac.flat_footed),
            bab: c.bab,
            speed_ft: c.speed_land_ft,
            attacks,
            spells: c.spells.len(),
        }
    }

    fn line(&self) -> String {
        let cr = self.cr.as_ref().map(|cr| format!(", CR {cr}")).unwrap_or_default();
        let (ac, touch, flat) = self.ac;
        let mut line = format!(
            "{}: level {}{cr}, {} hp, AC {ac} (touch {touch}, flat-footed {flat}), BAB {:+}, speed {} ft",
            self.name, self.level, self.hp_max, self.bab, self.speed_ft
        );
        if !self.attacks.is_empty() {
            line.push_str(&format!("; attacks: {}", self.attacks.join(", ")));
        }
        if self.spells > 0 {
            line.push_str(&format!("; {} spells", self.spells));
        }
        line
    }
}

/// One side of the encounter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SideBrief {
    /// The side's name.
    pub name: String,
    /// Its combatants.
    pub combatants: Vec<CombatantBrief>,
}

/// The encounter, in short.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncounterBrief {
    /// The map's name.
    pub map: String,
    /// Round cap.
    pub round_cap: u32,
    /// The party's side name.
    pub party: String,
    /// The sides.
    pub sides: Vec<SideBrief>,
}

impl EncounterBrief {
    /// The brief of an engine encounter; `party` names the measured side.
    pub fn from_encounter(
        encounter: &pf1e_engine::encounter::Encounter,
        round_cap: u32,
        party: &str,
    ) -> Self {
        let sides = encounter
            .sides
            .iter()
            .enumerate()
            .map(|(k, name)| SideBrief {
                name: name.clone(),
                combatants: encounter
                    .combatants
                    .iter()
                    .filter(|d| d.side == k)
                    .map(|d| CombatantBrief::from_combatant(&d.spec))
                    .collect(),
            })
            .collect();
        Self { map: encounter.map.name.clone(), round_cap, party: party.to_string(), sides }
    }

    /// Plain text, one line per kind of combatant (identical ones counted).
    pub fn render(&self) -> String {
        let mut out = format!("map: {} (round cap {})\n", self.map, self.round_cap);
        for side in &self.sides {
            let role = if side.name == self.party { "party" } else { "adversary" };
            out.push_str(&format!("side {} ({role}):\n", side.name));
            let mut lines: Vec<(String, usize)> = Vec::new();
            for c in &side.combatants {
                let line = c.line();
                match lines.iter_mut().find(|(l, _)| *l == line) {
                    Some((_, n)) => *n += 1,
                    None => lines.push((line, 1)),
                }
            }
            for (line, n) in lines {
                let count = if n > 1 { format!("{n} x ") } else { String::new() };
                out.push_str(&format!("- {count}{line}\n"));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn orc() -> CombatantBrief {
        CombatantBrief {
            name: "orc".into(),
            level: 1,
            cr: Some("1/3".into()),
            hp_max: 6,
            ac: (13, 10, 13),
            bab: 1,
            speed_ft: 30,
            attacks: vec!["falchion +5 (2d4+4)".into()],
            spells: 0,
        }
    }

    #[test]
    fn identical_combatants_share_a_counted_line() {
        let brief = EncounterBrief {
            map: "arena".into(),
            round_cap: 20,
            party: "players".into(),
            sides: vec![
                SideBrief {
                    name: "players".into(),
                    combatants: vec![CombatantBrief { name: "cleric".into(), spells: 3, ..orc() }],
                },
                SideBrief { name: "monsters".into(), combatants: vec![orc(), orc()] },
            ],
        };
        assert_eq!(
            brief.render(),
            "map: arena (round cap 20)\n\
             side players (party):\n\
             - cleric: level 1, CR 1/3, 6 hp, AC 13 (touch 10, flat-footed 13), BAB +1, speed 30 ft; attacks: falchion +5 (2d4+4); 3 spells\n\
             side monsters (adversary):\n\
             - 2 x orc: level 1, CR 1/3, 6 hp, AC 13 (touch 10, flat-footed 13), BAB +1, speed 30 ft; attacks: falchion +5 (2d4+4)\n"
        );
    }

    #[test]
    fn a_brief_reads_the_engine_combatant() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/monsters/orc.json");
        let c = pf1e_engine::model::load_combatant(std::path::Path::new(path)).unwrap();
        let b = CombatantBrief::from_combatant(&c);
        assert_eq!(b.name, c.name);
        assert_eq!(b.hp_max, c.hp_max);
        assert_eq!(b.attacks.len(), c.attacks.len());
        assert!(b.attacks[0].contains(&format!("{:+}", c.attacks[0].attack_bonus)), "{:?}", b.attacks);
    }
}
