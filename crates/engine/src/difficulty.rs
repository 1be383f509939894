//! An encounter's difficulty by the book (Core Rulebook, Gamemastering):
//! the party's average party level (APL), the foes' XP summed and turned
//! back into one challenge rating (CR), and the label the book gives to
//! CR − APL (easy, average, challenging, hard, epic).
//!
//! Pure arithmetic on the combatants' `level`, `role`, `cr` and `xp`; the
//! simulation's own measure of difficulty is beside it in every report.
//! Simplifications (`docs/rules/difficulty.md`): CRs below 1 count as the
//! steps below CR 1 when compared with the APL (1/2 is one step below 1,
//! 1/3 two…), and CRs above 20 extend the book's table by its own rule
//! (the XP doubles every two CRs).

use serde::{Deserialize, Serialize};

use crate::encounter::Encounter;
use crate::model::{Combatant, CombatantRole};

/// A challenge rating: a whole number, or one of the book's fractions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cr {
    /// 1/`den`, `den` one of 2, 3, 4, 6, 8.
    Fraction(u8),
    /// A whole CR, 1 or more.
    Whole(u32),
}

/// The book's fractional CRs, smallest first, with their XP.
const FRACTIONS: [(u8, u64); 5] = [(8, 50), (6, 65), (4, 100), (3, 135), (2, 200)];

/// The largest whole CR this module computes (its XP still fits a `u64`).
const MAX_CR: u32 = 99;

impl Cr {
    /// Parses a CR as the combatant files write it (`"1/3"`, `"7"`).
    pub fn parse(s: &str) -> Option<Cr> {
        match s.split_once('/') {
            Some(("1", den)) => {
                let den: u8 = den.parse().ok()?;
                FRACTIONS.iter().any(|&(d, _)| d == den).then_some(Cr::Fraction(den))
            }
            Some(_) => None,
            None => s.parse().ok().filter(|n| (1..=MAX_CR).contains(n)).map(Cr::Whole),
        }
    }

    /// The XP the book awards for one creature of this CR: 400 at CR 1, 600
    /// at CR 2, then doubling every two CRs (800, 1,200, 1,600, 2,400…).
    pub fn xp(self) -> u64 {
        match self {
            Cr::Fraction(den) => FRACTIONS.iter().find(|&&(d, _)| d == den).map_or(0, |&(_, xp)| xp),
            Cr::Whole(n) => {
                let n = n.min(MAX_CR);
                if n % 2 == 1 { 400 << ((n - 1) / 2) } else { 600 << ((n - 2) / 2) }
            }
        }
    }

    /// Its rank on the CR ladder compared with levels: CR n is n, 1/2 is 0,
    /// 1/3 is −1, 1/4 is −2, 1/6 is −3, 1/8 is −4.
    pub fn step(self) -> i32 {
        match self {
            Cr::Whole(n) => n.min(MAX_CR) as i32,
            Cr::Fraction(den) => {
                let i = FRACTIONS.iter().position(|&(d, _)| d == den).unwrap_or(0) as i32;
                i - (FRACTIONS.len() as i32 - 1)
            }
        }
    }

    /// The encounter CR of a total of `xp`: the CR whose XP is the largest
    /// not above it; `None` below 50 XP (CR 1/8).
    pub fn from_xp(xp: u64) -> Option<Cr> {
        let whole = (1..=MAX_CR).rev().map(Cr::Whole).find(|cr| cr.xp() <= xp);
        whole.or_else(|| FRACTIONS.iter().rev().find(|&&(_, x)| x <= xp).map(|&(d, _)| Cr::Fraction(d)))
    }
}

impl std::fmt::Display for Cr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Cr::Fraction(den) => write!(f, "1/{den}"),
            Cr::Whole(n) => write!(f, "{n}"),
        }
    }
}

/// The book's difficulty labels, by the encounter CR minus the APL.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Label {
    /// CR ≤ APL − 1.
    Easy,
    /// CR = APL.
    Average,
    /// CR = APL + 1.
    Challenging,
    /// CR = APL + 2.
    Hard,
    /// CR ≥ APL + 3.
    Epic,
}

impl Label {
    /// The label of an encounter `delta` = CR − APL steps above the party.
    pub fn of_delta(delta: i32) -> Label {
        match delta {
            i32::MIN..=-1 => Label::Easy,
            0 => Label::Average,
            1 => Label::Challenging,
            2 => Label::Hard,
            _ => Label::Epic,
        }
    }
}

/// The average party level of PCs of `levels`: their mean rounded to the
/// nearest whole number (halves up), +1 for six or more, −1 for three or
/// fewer. `None` for an empty party.
pub fn apl(levels: &[u32]) -> Option<i32> {
    let n = levels.len() as i64;
    if n == 0 {
        return None;
    }
    let sum: i64 = levels.iter().map(|&l| i64::from(l)).sum();
    // Nearest, halves up: floor((2·sum + n) / 2n).
    let mean = ((2 * sum + n) / (2 * n)) as i32;
    let adjust = if n >= 6 {
        1
    } else if n <= 3 {
        -1
    } else {
        0
    };
    Some(mean + adjust)
}

/// How one foe is rated.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FoeRating {
    /// Its id in the encounter.
    pub id: String,
    /// Its CR as rated (`None` when the file gives neither a CR nor XP).
    pub cr: Option<String>,
    /// The XP it adds (0 when unrated).
    pub xp: u64,
}

/// An encounter's difficulty by the book, from the party's side.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Difficulty {
    /// The party's side.
    pub party: String,
    /// The party's members (ids, deployment order).
    #[serde(default)]
    pub members: Vec<String>,
    /// Members whose level makes the APL: the party's PCs, or every member
    /// when it has none.
    pub party_size: usize,
    /// Whether the APL counts PCs only (`false`: the party has no PC and
    /// every member's level counts).
    pub pcs_only: bool,
    /// Average party level, with the party-size adjustment.
    pub apl: i32,
    /// Total XP of the foes (every other side).
    pub xp: u64,
    /// The encounter's CR from that total (`None` below CR 1/8).
    pub cr: Option<String>,
    /// Encounter CR minus APL, in CR steps (`None` without a CR).
    pub cr_minus_apl: Option<i32>,
    /// The book's label (`None` without a CR).
    pub label: Option<Label>,
    /// Each foe's rating, in deployment order.
    pub foes: Vec<FoeRating>,
}

impl Difficulty {
    /// Foes that are not rated (no CR, no XP, not a PC): the CR is a floor.
    pub fn unrated(&self) -> impl Iterator<Item = &str> {
        self.foes.iter().filter(|f| f.cr.is_none()).map(|f| f.id.as_str())
    }
}

/// A foe's CR: its file's `cr`; else the CR its `xp` buys; else, for a PC,
/// its level (the book's CR of a PC-class NPC with PC gear).
pub fn rate(c: &Combatant) -> Option<Cr> {
    if let Some(cr) = c.cr.as_deref().and_then(Cr::parse) {
        return Some(cr);
    }
    if let Some(cr) = c.xp.and_then(|xp| Cr::from_xp(u64::from(xp))) {
        return Some(cr);
    }
    (c.role == CombatantRole::Pc && c.level >= 1).then(|| Cr::Whole(c.level.min(MAX_CR)))
}

/// The party side of a single fight when none is named: the first side
/// with a PC, else the first side.
pub fn default_party(encounter: &Encounter) -> usize {
    encounter.combatants.iter().find(|c| c.spec.role == CombatantRole::Pc).map_or(0, |c| c.side)
}

/// The difficulty of `encounter` for side `party` against every other side,
/// or `None` when the party is empty. Summoned creatures do not count (they
/// are not in the encounter's roster).
pub fn assess(encounter: &Encounter, party: usize) -> Option<Difficulty> {
    let ids: Vec<String> =
        encounter.combatants.iter().filter(|c| c.side == party).map(|c| c.id.clone()).collect();
    let members: Vec<&Combatant> =
        encounter.combatants.iter().filter(|c| c.side == party).map(|c| &*c.spec).collect();
    let pcs: Vec<u32> = members.iter().filter(|c| c.role == CombatantRole::Pc).map(|c| c.level).collect();
    let pcs_only = !pcs.is_empty();
    let levels = if pcs_only { pcs } else { members.iter().map(|c| c.level).collect() };
    let apl = apl(&levels)?;
    let foes: Vec<FoeRating> = encounter
        .combatants
        .iter()
        .filter(|c| c.side != party)
        .map(|c| {
            let cr = rate(&c.spec);
            FoeRating { id: c.id.clone(), cr: cr.map(|cr| cr.to_string()), xp: cr.map_or(0, Cr::xp) }
        })
        .collect();
    let xp: u64 = foes.iter().map(|f| f.xp).sum();
    let cr = Cr::from_xp(xp);
    let delta = cr.map(|cr| cr.step() - apl);
    Some(Difficulty {
        party: encounter.sides.get(party).cloned().unwrap_or_default(),
        members: ids,
        party_size: levels.len(),
        pcs_only,
        apl,
        xp,
        cr: cr.map(|cr| cr.to_string()),
        cr_minus_apl: delta,
        label: delta.map(Label::of_delta),
        foes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Core Rulebook's "Experience Point Awards" table, CR 1/8 to 20.
    const BOOK: [(&str, u64); 25] = [
        ("1/8", 50),
        ("1/6", 65),
        ("1/4", 100),
        ("1/3", 135),
        ("1/2", 200),
        ("1", 400),
        ("2", 600),
        ("3", 800),
        ("4", 1_200),
        ("5", 1_600),
        ("6", 2_400),
        ("7", 3_200),
        ("8", 4_800),
        ("9", 6_400),
        ("10", 9_600),
        ("11", 12_800),
        ("12", 19_200),
        ("13", 25_600),
        ("14", 38_400),
        ("15", 51_200),
        ("16", 76_800),
        ("17", 102_400),
        ("18", 153_600),
        ("19", 204_800),
        ("20", 307_200),
    ];

    #[test]
    fn every_cr_of_the_book_awards_the_xp_of_its_table() {
        for (cr, xp) in BOOK {
            let parsed = Cr::parse(cr).unwrap();
            assert_eq!(parsed.xp(), xp, "CR {cr}");
            assert_eq!(parsed.to_string(), cr);
            assert_eq!(Cr::from_xp(xp), Some(parsed), "{xp} XP is CR {cr}");
            assert!(Cr::from_xp(xp - 1).map_or(0, Cr::xp) < xp, "{xp} − 1 XP is below CR {cr}");
        }
    }

    #[test]
    fn beyond_the_table_xp_doubles_every_two_crs() {
        assert_eq!(Cr::Whole(21).xp(), 409_600);
        assert_eq!(Cr::Whole(22).xp(), 614_400);
        assert_eq!(Cr::Whole(25).xp(), 1_638_400);
    }

    #[test]
    fn a_total_is_the_largest_cr_not_above_it() {
        assert_eq!(Cr::from_xp(49), None);
        assert_eq!(Cr::from_xp(64), Some(Cr::Fraction(8)));
        assert_eq!(Cr::from_xp(270), Some(Cr::Fraction(2)), "two orcs of CR 1/3");
        assert_eq!(Cr::from_xp(405), Some(Cr::Whole(1)), "three goblins of CR 1/3");
        assert_eq!(Cr::from_xp(2_399), Some(Cr::Whole(5)));
    }

    #[test]
    fn two_creatures_of_one_cr_make_cr_plus_two_and_four_make_cr_plus_four() {
        for n in 1..=16 {
            let one = Cr::Whole(n).xp();
            assert_eq!(Cr::from_xp(2 * one), Some(Cr::Whole(n + 2)), "2 × CR {n}");
            assert_eq!(Cr::from_xp(4 * one), Some(Cr::Whole(n + 4)), "4 × CR {n}");
        }
    }

    #[test]
    fn crs_the_book_does_not_list_do_not_parse() {
        for bad in ["0", "1/5", "2/3", "", "x", "100", "-1"] {
            assert_eq!(Cr::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn fractions_are_the_steps_below_cr_1() {
        let steps: Vec<i32> = ["1/8", "1/6", "1/4", "1/3", "1/2", "1", "2"]
            .iter()
            .map(|s| Cr::parse(s).unwrap().step())
            .collect();
        assert_eq!(steps, [-4, -3, -2, -1, 0, 1, 2]);
    }

    #[test]
    fn the_apl_is_the_rounded_mean_adjusted_for_party_size() {
        assert_eq!(apl(&[]), None);
        assert_eq!(apl(&[4, 4, 4, 4]), Some(4), "four PCs: no adjustment");
        assert_eq!(apl(&[4, 4, 5, 5]), Some(5), "4.5 rounds up");
        assert_eq!(apl(&[4, 4, 4, 5]), Some(4), "4.25 rounds down");
        assert_eq!(apl(&[4, 4, 4]), Some(3), "three PCs: −1");
        assert_eq!(apl(&[1]), Some(0), "one PC: −1");
        assert_eq!(apl(&[4; 5]), Some(4), "five PCs: no adjustment");
        assert_eq!(apl(&[4; 6]), Some(5), "six PCs: +1");
        assert_eq!(apl(&[4; 8]), Some(5));
    }

    #[test]
    fn labels_follow_cr_minus_apl() {
        let labels: Vec<Label> = (-3..=5).map(Label::of_delta).collect();
        use Label::*;
        assert_eq!(labels, [Easy, Easy, Easy, Average, Challenging, Hard, Epic, Epic, Epic]);
    }

    #[test]
    fn the_books_example_apl_4_hard_is_cr_6_and_2400_xp() {
        let apl = apl(&[4, 4, 4, 4]).unwrap();
        let cr = Cr::from_xp(2_400).unwrap();
        assert_eq!(cr, Cr::Whole(6));
        assert_eq!(Label::of_delta(cr.step() - apl), Label::Hard);
    }

    fn encounter(map: &str, sides: [(&str, &[&str]); 2]) -> Encounter {
        use std::sync::Arc;
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let map = Arc::new(crate::map::Map::load(&root.join(map)).unwrap());
        let sides = sides
            .iter()
            .map(|(name, files)| crate::encounter::SideSpec {
                name: (*name).into(),
                combatants: files
                    .iter()
                    .map(|f| Arc::new(crate::model::load_combatant(&root.join(f)).unwrap()))
                    .collect(),
            })
            .collect();
        Encounter::build(map, sides).unwrap()
    }

    #[test]
    fn three_pcs_of_level_1_against_two_cr_3_ogres_is_epic() {
        let e = encounter(
            "data/maps/ogre_field.yaml",
            [
                (
                    "players",
                    &[
                        "data/pcs/fighter.json",
                        "data/pcs/fighter.json",
                        "data/pcs/fighter.json",
                        "data/monsters/goblin.json",
                    ],
                ),
                ("monsters", &["data/monsters/ogre.json", "data/monsters/ogre_spearman.json"]),
            ],
        );
        assert_eq!(default_party(&e), 0);
        let d = assess(&e, 0).unwrap();
        assert!(d.pcs_only, "the goblin ally is not a PC");
        assert_eq!(d.members, ["fighter", "fighter-2", "fighter-3", "goblin"]);
        assert_eq!((d.party_size, d.apl), (3, 0), "level 1, three PCs: APL 1 − 1");
        assert_eq!((d.xp, d.cr.as_deref()), (1_600, Some("5")), "2 × 800 XP is CR 5");
        assert_eq!((d.cr_minus_apl, d.label), (Some(5), Some(Label::Epic)));
        assert_eq!(d.unrated().count(), 0);
    }

    #[test]
    fn a_party_without_pcs_counts_every_members_level() {
        let g = "data/monsters/goblin.json";
        let o = "data/monsters/orc.json";
        let e = encounter("data/maps/sample_arena.yaml", [("players", &[g, g, g]), ("monsters", &[o, o])]);
        let d = assess(&e, 0).unwrap();
        assert!(!d.pcs_only);
        assert_eq!(d.apl, 0, "three level-1 goblins: 1 − 1");
        assert_eq!((d.xp, d.cr.as_deref()), (270, Some("1/2")));
        assert_eq!(d.label, Some(Label::Average), "CR 1/2 is the step below 1, level with APL 0");
        let foes = assess(&e, 1).unwrap();
        assert_eq!((foes.apl, foes.xp, foes.cr.as_deref()), (0, 405, Some("1")));
        assert_eq!(foes.label, Some(Label::Challenging));
    }
}
