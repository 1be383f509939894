//! An encounter's difficulty by the book beside its difficulty by
//! simulation, in words a game master uses: the lines of `pf1e sim` and of
//! every job's report.

use pf1e_engine::difficulty::{Difficulty, Label};
use pf1e_engine::party::{PartyReport, Simulated};
use pf1e_wire::results::SweepResults;

use crate::i18n::{Lang, T};

/// The book's label in words.
pub fn label(label: Label, lang: Lang) -> &'static str {
    lang.t(match label {
        Label::Easy => T::DiffEasy,
        Label::Average => T::DiffAverage,
        Label::Challenging => T::DiffChallenging,
        Label::Hard => T::DiffHard,
        Label::Epic => T::DiffEpic,
    })
}

/// A signed whole number: `+2`, `0`, `−1`.
fn signed(n: i32) -> String {
    match n {
        0 => "0".into(),
        n if n > 0 => format!("+{n}"),
        n => format!("−{}", n.unsigned_abs()),
    }
}

/// The book's line: label, encounter CR and XP against the APL, then how
/// the APL was counted and the foes left out. Ends with a newline.
pub fn book(d: &Difficulty, lang: Lang) -> String {
    let mut out = match (&d.cr, d.label, d.cr_minus_apl) {
        (Some(cr), Some(l), Some(delta)) => {
            lang.f(T::DiffBook, &[&label(l, lang), cr, &d.xp, &d.apl, &signed(delta)])
        }
        _ => lang.f(T::DiffBookNoCr, &[&d.xp, &d.apl]),
    };
    let apl = if d.pcs_only {
        lang.f(T::DiffAplPcs, &[&d.party_size, &d.party])
    } else {
        lang.f(T::DiffAplNoPc, &[&d.party_size, &d.party])
    };
    out.push_str(&format!("; {apl}"));
    let unrated: Vec<&str> = d.unrated().collect();
    if !unrated.is_empty() {
        out.push_str(&format!("; {}", lang.f(T::DiffUnrated, &[&unrated.join(", ")])));
    }
    if lang == Lang::Fr {
        out = out.replace("; ", " ; ");
    }
    out.push('\n');
    out
}

/// "everyone down"'s figure, followed by how often the party fled when it
/// ever did (`party::party_fled`): a rate shown only when not zero, as the
/// day report's withdrawals are.
fn down_or_fled(all_down: f64, fled: f64, lang: Lang) -> String {
    let mut out = percent(all_down);
    if fled > 0.0 {
        out += &lang.f(T::DiffFled, &[&percent(fled)]);
    }
    out
}

/// The simulation's line for side `party`. Ends with a newline.
pub fn simulated(party: &str, s: &Simulated, lang: Lang) -> String {
    let mut out = lang.f(
        T::DiffSimulated,
        &[
            &party,
            &percent(s.p_win),
            &percent(s.p_pc_dies),
            &down_or_fled(s.p_all_down, s.p_fled, lang),
            &format!("{:.1}", s.hp_lost),
            &percent(s.hp_lost_share),
        ],
    );
    out += &resources(s.slots_spent, s.uses_spent, s.items_spent, lang);
    out.push('\n');
    out
}

/// The difficulty lines of a sweep's report: the book's, then the
/// simulation's for the baseline cell when the sweep measured one. Empty
/// for results without a difficulty (older documents).
pub fn sweep(results: &SweepResults, lang: Lang) -> String {
    let Some(d) = &results.difficulty else { return String::new() };
    let mut out = book(d, lang);
    if let Some(b) = results.measure_baseline() {
        let f = &b.figures;
        out += &lang.f(
            T::DiffSimulatedCell,
            &[
                &results.party,
                &b.runs,
                &percent(f.p_win),
                &percent(f.p_pc_dies),
                &down_or_fled(f.p_all_down, f.p_fled, lang),
                &format!("{:.1}", f.hp_lost),
                &percent(f.hp_lost_share),
            ],
        );
        out += &resources(f.slots_spent, f.uses_spent, f.items_spent, lang);
        out.push('\n');
    }
    out
}

/// The resources the party spent per battle, where the engine counted
/// some: a party without spells, class-ability pools or consumables spends
/// none, and the line then says nothing of them.
fn resources(slots: f64, uses: f64, items: f64, lang: Lang) -> String {
    if slots > 0.0 || uses > 0.0 || items > 0.0 {
        lang.f(T::DiffResources, &[&format!("{slots:.1}"), &format!("{uses:.1}"), &format!("{items:.1}")])
    } else {
        String::new()
    }
}

/// Both lines of `pf1e sim`.
pub fn lines(p: &PartyReport, lang: Lang) -> String {
    book(&p.book, lang) + &simulated(&p.book.party, &p.simulated, lang)
}

fn percent(rate: f64) -> String {
    format!("{:.1}%", rate * 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pf1e_engine::difficulty::FoeRating;

    fn difficulty() -> Difficulty {
        Difficulty {
            party: "players".into(),
            members: vec!["a".into(), "b".into(), "c".into(), "d".into()],
            party_size: 4,
            pcs_only: true,
            apl: 4,
            xp: 2_400,
            cr: Some("6".into()),
            cr_minus_apl: Some(2),
            label: Some(Label::Hard),
            foes: vec![
                FoeRating { id: "ogre".into(), cr: Some("3".into()), xp: 800 },
                FoeRating { id: "ogre-2".into(), cr: Some("3".into()), xp: 800 },
                FoeRating { id: "ogre-3".into(), cr: Some("3".into()), xp: 800 },
                FoeRating { id: "thing".into(), cr: None, xp: 0 },
            ],
        }
    }

    fn simulated_fixture() -> Simulated {
        Simulated {
            p_win: 0.685,
            p_pc_dies: 0.12,
            p_all_down: 0.29,
            p_fled: 0.0,
            hp_lost: 21.26,
            hp_lost_share: 0.4,
            slots_spent: 2.3,
            uses_spent: 1.0,
            items_spent: 0.5,
        }
    }

    #[test]
    fn the_difficulty_lines_in_english() {
        let p = PartyReport { book: difficulty(), simulated: simulated_fixture() };
        assert_eq!(
            lines(&p, Lang::En),
            "Difficulty by the book: hard — encounter CR 6 (2400 XP) against APL 4 (CR − APL = +2); APL: the 4 PCs of players; foes without a CR, not counted: thing\n\
             Simulated for players: win 68.5%, a PC dies 12.0%, everyone down 29.0%, HP lost 21.3 (40.0% of the party's); resources spent per battle: 2.3 spell slots, 1.0 class-ability uses (channels, hexes, grit, arcane pool, performance rounds, smites), 0.5 consumables (potions, wand charges)\n"
        );
    }

    #[test]
    fn the_difficulty_lines_in_french() {
        let p = PartyReport { book: difficulty(), simulated: simulated_fixture() };
        assert_eq!(
            lines(&p, Lang::Fr),
            "Difficulté selon le livre : très difficile — FP de la rencontre 6 (2400 XP) contre NMG 4 (FP − NMG = +2) ; NMG : les 4 PJ de players ; adversaires sans FP, non comptés : thing\n\
             Simulé pour players : victoire 68.5%, un PJ meurt 12.0%, tous à terre 29.0%, PV perdus 21.3 (40.0% de ceux du groupe) ; ressources dépensées par combat : 2.3 emplacements de sort, 1.0 utilisations de capacités de classe (canalisations, maléfices, panache, réserve arcanique, rounds de représentation, châtiments), 0.5 consommables (potions, charges de baguette)\n"
        );
    }

    #[test]
    fn a_party_that_fled_says_so_after_everyone_down_in_both_languages() {
        let s = Simulated { p_fled: 0.125, ..simulated_fixture() };
        let en = simulated("players", &s, Lang::En);
        assert!(en.starts_with("Simulated for players: win 68.5%, a PC dies 12.0%, everyone down 29.0%, fled 12.5%, HP lost 21.3"), "{en}");
        let fr = simulated("players", &s, Lang::Fr);
        assert!(fr.starts_with("Simulé pour players : victoire 68.5%, un PJ meurt 12.0%, tous à terre 29.0%, fuite 12.5%, PV perdus 21.3"), "{fr}");
        // Never fled: the line is as it was.
        assert!(!simulated("players", &simulated_fixture(), Lang::En).contains("fled"));
    }

    #[test]
    fn a_sweep_s_simulated_line_counts_the_party_s_resources_per_battle() {
        let mut r = crate::fixtures::results(Vec::new());
        let cell = &mut r.jobs[0].cells[0];
        // 400 battles: 320 slots, 80 uses and 40 potions by the players,
        // the orc's own not counted.
        cell.combatants[0].slots_spent = 320;
        cell.combatants[1].uses_spent = 80;
        cell.combatants[1].items_spent = 40;
        cell.combatants[3].items_spent = 999;
        cell.combatants[3].slots_spent = 999;
        let text = sweep(&r, Lang::En);
        assert!(
            text.ends_with(
                "HP lost 5.4 (30.0% of the party's); resources spent per battle: 0.8 spell slots, 0.2 class-ability uses (channels, hexes, grit, arcane pool, performance rounds, smites), 0.1 consumables (potions, wand charges)\n"
            ),
            "{text}"
        );
    }

    #[test]
    fn below_cr_one_eighth_there_is_no_label_and_a_party_without_pcs_says_so() {
        let d = Difficulty {
            pcs_only: false,
            party_size: 3,
            apl: 0,
            xp: 0,
            cr: None,
            cr_minus_apl: None,
            label: None,
            foes: Vec::new(),
            ..difficulty()
        };
        assert_eq!(
            book(&d, Lang::En),
            "Difficulty by the book: none — the foes total 0 XP, below CR 1/8, against APL 0; APL: the levels of the 3 members of players (no PC)\n"
        );
        assert_eq!(signed(-1), "−1");
    }
}
