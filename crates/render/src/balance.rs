//! The balance report of `pf1e sim` as text, in the user's language (see
//! [`crate::i18n`]), aligned by display width.

use pf1e_engine::combat::event::Transcript;
use pf1e_engine::party::{Pick, Shown};
use pf1e_engine::report::Report;

use super::table::{self, Align};
use super::transcript;
use crate::i18n::{Lang, T};

/// The text form of `report`: the table of `battle` (if any, rendered from
/// its events in `lang`), then the report. Ends with a newline.
pub fn text(report: &Report, battle: Option<&Transcript>, lang: Lang) -> String {
    let mut out = String::new();
    // The answer first: the verdict, when the party's difficulty is known.
    if let Some(verdict) = super::verdict::sim(report, lang) {
        out.push_str(&format!("{}{}{verdict}\n\n", lang.t(T::Verdict), lang.colon()));
    }
    if let Some(battle) = battle {
        let table = transcript::render_table(&super::events::rows(battle, lang), lang);
        match &report.shown {
            // The picked battle's own title replaces the table's "first combat".
            Some(shown) => {
                out.push_str(&shown_title(shown, report.runs, lang));
                out.push('\n');
                out.push_str(table.split_once('\n').map_or("", |(_, rest)| rest));
            }
            None => out.push_str(&table),
        }
        out.push('\n');
    }
    out.push_str(&summary(report, lang));
    out
}

fn summary(report: &Report, lang: Lang) -> String {
    let colon = lang.colon();
    let mut out = String::new();
    out.push_str(lang.t(T::BalanceTitle));
    out.push('\n');
    out.push_str(&lang.label(T::Map, &report.map));
    out.push('\n');
    for side in &report.sides {
        let noun = lang.t(if side.combatants == 1 { T::Combatant } else { T::Combatants });
        out.push_str(&format!("{}{colon}{} {noun}\n", side.name, side.combatants));
    }
    if let Some(played) = &report.strategies {
        out.push_str(&lang.label(T::PartyStrategy, format!("{} ({})", played.party, played.party_side)));
        out.push('\n');
        out.push_str(&lang.label(T::AdversaryStrategy, &played.adversary));
        out.push('\n');
    }
    let simulated = lang.t(if report.runs == 1 { T::CombatSimulated } else { T::CombatsSimulated });
    let rounds = lang.t(if report.round_cap == 1 { T::Round } else { T::Rounds });
    let death = if report.simple_monster_death { lang.t(T::SimpleDeath) } else { "" };
    out.push_str(&format!(
        "{} {simulated} (seed {}, {} {} {rounds}{death})\n\n",
        report.runs,
        report.seed,
        lang.t(T::Cap),
        report.round_cap
    ));
    for side in &report.sides {
        out.push_str(&format!(
            "{} {}{colon}{} ({}) — {}{colon}[{}, {}]\n",
            lang.t(T::Wins),
            side.name,
            percent(side.win_rate),
            side.wins,
            lang.t(T::Band3s),
            percent(side.band[0]),
            percent(side.band[1]),
        ));
    }
    out.push_str(&format!("{}{colon}{} ({})\n", lang.t(T::Draws), percent(report.draw_rate), report.draws));
    out.push_str(&format!("{}{colon}{:.1}\n", lang.t(T::AvgRounds), report.avg_rounds));
    if let Some(party) = &report.party {
        out.push_str(&super::difficulty::lines(party, lang));
    }
    out.push('\n');
    out.push_str(lang.t(T::Attrition));
    out.push_str(colon.trim_end());
    out.push('\n');
    let rows: Vec<Vec<String>> = report
        .combatants
        .iter()
        .map(|c| {
            vec![
                c.id.clone(),
                c.side.clone(),
                format!("{:.2}", c.avg_hits),
                format!("{:.2}", c.avg_crits),
                format!("{:.1}", c.avg_damage_dealt),
                format!("{:.1}", c.avg_damage_taken),
                format!("{:.1}", c.avg_healing_given),
                format!("{:.1}", c.death_rate * 100.0),
            ]
        })
        .collect();
    let columns = [
        T::ColCombatant,
        T::ColSide,
        T::ColHits,
        T::ColCrits,
        T::ColDealt,
        T::ColTaken,
        T::ColHealing,
        T::ColDeaths,
    ]
    .map(|c| lang.t(c));
    let mut aligns = vec![Align::Right; columns.len()];
    aligns[0] = Align::Left;
    aligns[1] = Align::Left;
    out.push_str(&table::render(&columns, &aligns, &rows));
    if !report.contribution.is_empty() {
        out.push('\n');
        out.push_str(&contribution(report, lang));
    }
    out
}

/// The table of who carries the fight and its note.
fn contribution(report: &Report, lang: Lang) -> String {
    let mut out = format!("{}{}\n", lang.t(T::ContribTitle), lang.colon().trim_end());
    let columns = super::contribution::headers(lang);
    let columns: Vec<&str> = columns.iter().map(String::as_str).collect();
    let mut aligns = vec![Align::Right; columns.len()];
    aligns[0] = Align::Left;
    aligns[1] = Align::Left;
    out.push_str(&table::render(&columns, &aligns, &super::contribution::rows(&report.contribution)));
    out.push_str(&super::contribution::note(pf1e_engine::metrics::Confidence::default().level(), lang));
    out.push('\n');
    out
}

/// The title of the battle `--show` picked: which run and why.
fn shown_title(s: &Shown, runs: u64, lang: Lang) -> String {
    let lost = s.hp_lost.unwrap_or(0);
    match s.pick {
        _ if s.no_wipe => lang.f(T::ShownNoWipe, &[&s.run, &runs, &lost]),
        Pick::Median => lang.f(T::ShownMedian, &[&s.run, &lost]),
        Pick::Worst => lang.f(T::ShownWorst, &[&s.run, &lost]),
        Pick::Wipe => lang.f(T::ShownWipe, &[&s.run, &lost]),
        Pick::Best => lang.f(T::ShownBest, &[&s.run, &lost]),
        Pick::Run(_) => lang.f(T::ShownRun, &[&s.run]),
    }
}

/// A rate in [0, 1] as a percentage with one decimal.
fn percent(rate: f64) -> String {
    format!("{:.1}%", rate * 100.0)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::sync::Arc;

    use super::*;
    use pf1e_engine::combat::SimOptions;
    use pf1e_engine::encounter::{Deployed, Encounter};
    use pf1e_engine::map::{Map, Pos, Terrain};
    use pf1e_engine::model::Combatant;
    use pf1e_engine::summary::{CombatantTotals, Summary};

    fn combatant(name: &str) -> Arc<Combatant> {
        let json = serde_json::json!({
            "name": name,
            "abilities": {"str_score": 10, "dex_score": 10, "con_score": 10, "int_score": 10,
                          "wis_score": 10, "cha_score": 10},
            "hp_max": 6, "ac": {"total": 15, "touch": 12, "flat_footed": 13},
            "bab": 1, "initiative_mod": 2, "speed_land_ft": 30,
            "saves": {"fort": 1, "ref": 2, "will": 0}, "attacks": []
        });
        Arc::new(serde_json::from_value(json).unwrap())
    }

    fn encounter() -> Encounter {
        let floor = Terrain { kind: "floor".into(), move_cost: Some(1), blocks_los: false, cover_bonus: 0 };
        let map = Map {
            name: "Arène d'essai".into(),
            square_size_ft: 5,
            width: 1,
            height: 1,
            legend: vec![('.', floor)],
            cells: vec![0],
            elevation: vec![0],
            zones: vec![None],
            markers: BTreeMap::new(),
            deployment: vec![("players".into(), 'A'), ("monsters".into(), 'B')],
            exits: None,
        };
        let deployed = |id: &str, side, spec: Arc<Combatant>| Deployed {
            id: id.into(),
            side,
            start_hp: spec.hp_max,
            aware: spec.aware,
            spec,
            pos: Pos::new(0, 0),
        };
        let goblin = combatant("Goblin");
        Encounter {
            map: Arc::new(map),
            sides: vec!["players".into(), "monsters".into()],
            combatants: vec![
                deployed("goblin", 0, Arc::clone(&goblin)),
                deployed("goblin-2", 0, goblin),
                deployed("orc", 1, combatant("Orc")),
            ],
            library: Arc::default(),
        }
    }

    fn summary() -> Summary {
        let totals = |hits, deaths| CombatantTotals {
            hits,
            crits: 3,
            damage_dealt: 4321,
            damage_taken: 1000,
            healing_given: 0,
            deaths,
            ..CombatantTotals::default()
        };
        Summary {
            runs: 1000,
            wins: vec![612, 370],
            draws: 18,
            rounds: 4300,
            combatants: vec![totals(1500, 400), totals(1234, 1000), totals(2000, 612)],
            summons: Vec::new(),
        }
    }

    fn report(transcript: Option<Vec<String>>) -> Report {
        Report::build(&encounter(), &summary(), &SimOptions::default(), 1, transcript)
    }

    #[test]
    fn french_text_follows_the_seed_layout() {
        let text = text(&report(None), None, Lang::Fr);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            &lines[..11],
            &[
                "=== Rapport d'équilibrage ===",
                "Carte : Arène d'essai",
                "players : 2 combattants",
                "monsters : 1 combattant",
                "1000 combats simulés (seed 1, plafond 100 rounds)",
                "",
                "Victoires players : 61.2% (612) — bande 3σ : [56.5%, 65.7%]",
                "Victoires monsters : 37.0% (370) — bande 3σ : [32.6%, 41.7%]",
                "Nuls : 1.8% (18)",
                "Rounds moyens : 4.3",
                "",
            ]
        );
        assert_eq!(lines[11], "Attrition moyenne par combattant :");
        assert_eq!(
            lines[12],
            "Combattant  Camp      Touches  Critiques  Dégâts infligés  Dégâts subis  Soins prodigués  Morts %"
        );
        assert_eq!(
            lines[15],
            "goblin-2    players      1.23       0.00              4.3           1.0              0.0    100.0"
        );
        assert_eq!(lines.len(), 17);
    }

    #[test]
    fn english_text() {
        let options = SimOptions { round_cap: 1, simple_monster_death: true };
        let mut s = summary();
        s.runs = 1;
        let text = text(&Report::build(&encounter(), &s, &options, 9, None), None, Lang::En);
        assert!(text.starts_with("=== Balance report ===\nMap: Arène d'essai\nplayers: 2 combatants\n"));
        assert!(text.contains("monsters: 1 combatant\n"));
        assert!(text.contains("1 combat simulated (seed 9, cap 1 round, simple monster death)\n"));
        assert!(text.contains("Wins players: "));
        assert!(text.contains("— 3σ band: ["));
        assert!(text.contains("\nDraws: "));
        assert!(text.contains("\nAverage rounds: "));
        assert!(text.contains("\nAverage attrition per combatant:\nCombatant  Side "));
        assert!(!text.contains(" :"), "no French typography in English: {text}");
    }

    #[test]
    fn the_transcript_table_comes_before_the_report() {
        use pf1e_engine::combat::event::{CombatantRef, Event, Record};
        let battle = Transcript {
            combatants: vec![CombatantRef { id: "orc".into(), side: 1 }],
            sides: vec!["players".into(), "monsters".into()],
            events: vec![
                Record {
                    round: 0,
                    event: Event::Initiative { who: 0, d20: 12, modifier: 0, total: 12, roll_offs: vec![] },
                },
                Record { round: 1, event: Event::Strains { who: 0 } },
            ],
        };
        let text = text(&report(None), Some(&battle), Lang::Fr);
        assert!(text.starts_with("=== Déroulé du premier combat ===\n"));
        assert!(
            text.contains(
                "initiative : orc d20=12+0=12\n    1  orc         force alors qu'il est hors de combat (pv 0->-1)\n\n=== Rapport d'équilibrage ===\n"
            ),
            "{text}"
        );
    }

    #[test]
    fn zero_runs_print_zero_battles() {
        let r = Report::build(&encounter(), &Summary::new(2, 3), &SimOptions::default(), 1, None);
        assert!(text(&r, None, Lang::Fr).contains("0 combats simulés"));
    }

    /// The report with the party's difficulty (both goblins PCs of level 1
    /// against an orc of CR 1/3) and who carries the fight.
    fn report_with_party() -> Report {
        use pf1e_engine::contribution::{Contribution, Without};
        use pf1e_engine::difficulty::{Difficulty, FoeRating, Label};
        use pf1e_engine::party::{PartyReport, Simulated};
        let book = Difficulty {
            party: "players".into(),
            members: vec!["goblin".into(), "goblin-2".into()],
            party_size: 2,
            pcs_only: true,
            apl: 0,
            xp: 135,
            cr: Some("1/3".into()),
            cr_minus_apl: Some(-1),
            label: Some(Label::Easy),
            foes: vec![FoeRating { id: "orc".into(), cr: Some("1/3".into()), xp: 135 }],
        };
        let simulated = Simulated {
            p_win: 0.612,
            p_pc_dies: 0.5,
            p_all_down: 0.37,
            p_fled: 0.0,
            hp_lost: 7.5,
            hp_lost_share: 0.625,
            slots_spent: 0.0,
            uses_spent: 0.0,
            items_spent: 0.0,
        };
        let mut r = report(None).with_party(PartyReport { book, simulated });
        let without = Without {
            runs: 1000,
            p_win: 0.312,
            p_pc_dies: 0.75,
            win_change: -0.3,
            win_interval: [-0.35, -0.25],
            death_change: 0.25,
            death_interval: [0.2, 0.3],
            significant: true,
        };
        let c = |id: &str, side: &str, without: Option<Without>| Contribution {
            id: id.into(),
            side: side.into(),
            damage_per_round: 1.0,
            healing: 0.0,
            conditions: 0.5,
            without,
        };
        r.contribution = vec![
            c("goblin", "players", Some(without)),
            c("goblin-2", "players", None),
            c("orc", "monsters", None),
        ];
        r
    }

    #[test]
    fn the_sim_report_opens_with_its_verdict_in_english() {
        let text = text(&report_with_party(), None, Lang::En);
        assert!(
            text.starts_with(
                "Verdict: Arène d'essai: players (2 goblin) against orc; by the book easy (CR 1/3 against APL 0). \
                 With both sides' default plans the party wins 61.2% of 1000 battles; a PC dies in 50.0%, everyone is down in 37.0%. \
                 Who carries the fight: goblin (without it the party wins 31.2% instead of 61.2%; a PC dies in 75.0% instead of 50.0%).\n\n\
                 === Balance report ===\n"
            ),
            "{text}"
        );
        assert!(text.contains(
            "Simulated for players: win 61.2%, a PC dies 50.0%, everyone down 37.0%, HP lost 7.5 (62.5% of the party's)\n"
        ));
        assert!(text.contains(
            "Who carries the fight (per combatant; the party without it, same dice):\n\
             Combatant  Side      Damage/round  Healing/battle  Conditions/battle  Party wins without  A PC dies without\n"
        ), "{text}");
        let row = text.lines().rfind(|l| l.starts_with("goblin ")).unwrap_or_default().to_string();
        assert!(row.contains(" 1.0 ") && row.contains(" 0.50 "), "{row}");
        assert!(row.contains("31.2% (−30.0)*") && row.ends_with("75.0% (+25.0)*"), "{row}");
        assert!(text.lines().any(|l| l.starts_with("orc ") && l.trim_end().ends_with("—")), "{text}");
        assert!(text.ends_with("— the last of its side: no battle without it.\n"));
    }

    #[test]
    fn the_sim_report_opens_with_its_verdict_in_french() {
        let text = text(&report_with_party(), None, Lang::Fr);
        assert!(
            text.starts_with(
                "Verdict : Arène d'essai : players (2 goblin) contre orc ; selon le livre facile (FP 1/3 contre NMG 0). \
                 Avec les plans par défaut des deux camps, le groupe gagne 61.2% des 1000 combats ; un PJ meurt dans 50.0%, tous sont à terre dans 37.0%. \
                 Qui porte le combat : goblin (sans lui le groupe gagne 31.2% au lieu de 61.2% ; un PJ meurt dans 75.0% au lieu de 50.0%).\n\n\
                 === Rapport d'équilibrage ===\n"
            ),
            "{text}"
        );
        assert!(
            text.contains("Qui porte le combat (par combattant ; le groupe sans lui, mêmes dés) :\n"),
            "{text}"
        );
    }

    #[test]
    fn without_the_party_s_difficulty_there_is_no_verdict() {
        assert!(text(&report(None), None, Lang::En).starts_with("=== Balance report ===\n"));
    }
}
