//! The balance report: text (French by default, English on request) and JSON.
//!
//! [`Report::build`] computes every figure once from the encounter and the
//! run sums; the text and JSON forms are two views of that one value, so they
//! cannot disagree.

pub mod table;

use serde::{Deserialize, Serialize};

use crate::combat::SimOptions;
use crate::encounter::Encounter;
use crate::metrics;
use crate::summary::Summary;
use crate::transcript;
use table::Align;

/// Language of the text report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Lang {
    /// French (the default).
    #[default]
    Fr,
    /// English.
    En,
}

/// One side's results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SideReport {
    /// Side name, as in the map's deployment.
    pub name: String,
    /// Number of combatants on the side.
    pub combatants: usize,
    /// Battles won.
    pub wins: u64,
    /// `wins / runs`, in [0, 1].
    pub win_rate: f64,
    /// The 3σ band of the win rate, `[low, high]`, clamped to [0, 1].
    pub band: [f64; 2],
}

/// One combatant's average attrition per battle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CombatantReport {
    /// Unique id in the encounter (`goblin-2`).
    pub id: String,
    /// Display name from its file.
    pub name: String,
    /// Side name.
    pub side: String,
    /// Hits per battle.
    pub avg_hits: f64,
    /// Confirmed critical hits per battle.
    pub avg_crits: f64,
    /// Damage dealt per battle.
    pub avg_damage_dealt: f64,
    /// Damage taken per battle.
    pub avg_damage_taken: f64,
    /// Hit points restored to others per battle (overhealing excluded).
    pub avg_healing_given: f64,
    /// Battles that ended with the combatant dead.
    pub deaths: u64,
    /// `deaths / runs`, in [0, 1].
    pub death_rate: f64,
}

/// The whole balance report; its JSON form is the `--json` output.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// Rules version of the engine that produced it.
    pub rules_version: String,
    /// Map display name.
    pub map: String,
    /// Battles played.
    pub runs: u64,
    /// Batch seed.
    pub seed: u64,
    /// Round cap (a battle reaching it is a draw).
    pub round_cap: u32,
    /// Whether monsters died at 0 hit points.
    pub simple_monster_death: bool,
    /// Battles without a winner (round cap reached, or no side left standing).
    pub draws: u64,
    /// `draws / runs`, in [0, 1].
    pub draw_rate: f64,
    /// Rounds per battle.
    pub avg_rounds: f64,
    /// Per side, in deployment order.
    pub sides: Vec<SideReport>,
    /// Per combatant, in deployment order.
    pub combatants: Vec<CombatantReport>,
    /// Engine lines of the first battle (run 0), when requested.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transcript: Option<Vec<String>>,
}

fn per_run(total: u64, runs: u64) -> f64 {
    if runs == 0 { 0.0 } else { total as f64 / runs as f64 }
}

impl Report {
    /// Computes the report of `summary`, the runs of batch `seed` on `encounter`.
    pub fn build(
        encounter: &Encounter,
        summary: &Summary,
        options: &SimOptions,
        seed: u64,
        transcript: Option<Vec<String>>,
    ) -> Self {
        let runs = summary.runs;
        let sides = encounter
            .sides
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let wins = summary.wins.get(i).copied().unwrap_or(0);
                let (low, high) = metrics::win_rate_band(wins, runs);
                SideReport {
                    name: name.clone(),
                    combatants: encounter.combatants.iter().filter(|c| c.side == i).count(),
                    wins,
                    win_rate: metrics::win_rate(wins, runs),
                    band: [low, high],
                }
            })
            .collect();
        let combatants = encounter
            .combatants
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let t = summary.combatants.get(i).cloned().unwrap_or_default();
                CombatantReport {
                    id: c.id.clone(),
                    name: c.spec.name.clone(),
                    side: encounter.sides.get(c.side).cloned().unwrap_or_default(),
                    avg_hits: per_run(t.hits, runs),
                    avg_crits: per_run(t.crits, runs),
                    avg_damage_dealt: per_run(t.damage_dealt, runs),
                    avg_damage_taken: per_run(t.damage_taken, runs),
                    avg_healing_given: per_run(t.healing_given, runs),
                    deaths: t.deaths,
                    death_rate: metrics::win_rate(t.deaths, runs),
                }
            })
            .collect();
        Self {
            rules_version: crate::RULES_VERSION.to_string(),
            map: encounter.map.name.clone(),
            runs,
            seed,
            round_cap: options.round_cap,
            simple_monster_death: options.simple_monster_death,
            draws: summary.draws,
            draw_rate: metrics::win_rate(summary.draws, runs),
            avg_rounds: per_run(summary.rounds, runs),
            sides,
            combatants,
            transcript,
        }
    }

    /// The text form: the transcript table (if any), then the report. Ends with a newline.
    pub fn render_text(&self, lang: Lang) -> String {
        let mut out = String::new();
        if let Some(lines) = &self.transcript {
            out.push_str(&transcript::render_table(lines, lang));
            out.push('\n');
        }
        out.push_str(&self.render_summary(lang));
        out
    }

    fn render_summary(&self, lang: Lang) -> String {
        let w = Words::of(lang);
        let mut out = String::new();
        out.push_str(w.title);
        out.push('\n');
        out.push_str(&format!("{} : {}\n", w.map, self.map));
        for side in &self.sides {
            let noun = if side.combatants == 1 { w.combatant } else { w.combatants };
            out.push_str(&format!("{} : {} {}\n", side.name, side.combatants, noun));
        }
        let simulated = if self.runs == 1 { w.combat_simulated } else { w.combats_simulated };
        let rounds = if self.round_cap == 1 { "round" } else { "rounds" };
        let death = if self.simple_monster_death { w.simple_death } else { "" };
        out.push_str(&format!(
            "{} {simulated} (seed {}, {} {} {rounds}{death})\n\n",
            self.runs, self.seed, w.cap, self.round_cap
        ));
        for side in &self.sides {
            out.push_str(&format!(
                "{} {} : {} ({}) — {} : [{}, {}]\n",
                w.wins,
                side.name,
                percent(side.win_rate),
                side.wins,
                w.band,
                percent(side.band[0]),
                percent(side.band[1]),
            ));
        }
        out.push_str(&format!("{} : {} ({})\n", w.draws, percent(self.draw_rate), self.draws));
        out.push_str(&format!("{} : {:.1}\n\n", w.avg_rounds, self.avg_rounds));
        out.push_str(w.attrition);
        out.push_str(" :\n");
        let rows: Vec<Vec<String>> = self
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
        let mut aligns = vec![Align::Right; w.columns.len()];
        aligns[0] = Align::Left;
        aligns[1] = Align::Left;
        out.push_str(&table::render(&w.columns, &aligns, &rows));
        out
    }
}

/// A rate in [0, 1] as a percentage with one decimal.
fn percent(rate: f64) -> String {
    format!("{:.1}%", rate * 100.0)
}

/// The fixed words of the report in one language.
struct Words {
    title: &'static str,
    map: &'static str,
    combatant: &'static str,
    combatants: &'static str,
    combat_simulated: &'static str,
    combats_simulated: &'static str,
    cap: &'static str,
    simple_death: &'static str,
    wins: &'static str,
    band: &'static str,
    draws: &'static str,
    avg_rounds: &'static str,
    attrition: &'static str,
    columns: [&'static str; 8],
}

impl Words {
    fn of(lang: Lang) -> Self {
        match lang {
            Lang::Fr => Self {
                title: "=== Rapport d'équilibrage ===",
                map: "Carte",
                combatant: "combattant",
                combatants: "combattants",
                combat_simulated: "combat simulé",
                combats_simulated: "combats simulés",
                cap: "plafond",
                simple_death: ", mort simplifiée des monstres",
                wins: "Victoires",
                band: "bande 3σ",
                draws: "Nuls",
                avg_rounds: "Rounds moyens",
                attrition: "Attrition moyenne par combattant",
                columns: [
                    "Combattant",
                    "Camp",
                    "Touches",
                    "Critiques",
                    "Dégâts infligés",
                    "Dégâts subis",
                    "Soins prodigués",
                    "Morts %",
                ],
            },
            Lang::En => Self {
                title: "=== Balance report ===",
                map: "Map",
                combatant: "combatant",
                combatants: "combatants",
                combat_simulated: "combat simulated",
                combats_simulated: "combats simulated",
                cap: "cap",
                simple_death: ", simple monster death",
                wins: "Wins",
                band: "3σ band",
                draws: "Draws",
                avg_rounds: "Average rounds",
                attrition: "Average attrition per combatant",
                columns: [
                    "Combatant",
                    "Side",
                    "Hits",
                    "Crits",
                    "Damage dealt",
                    "Damage taken",
                    "Healing given",
                    "Deaths %",
                ],
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::sync::Arc;

    use super::*;
    use crate::encounter::Deployed;
    use crate::map::{Map, Pos, Terrain};
    use crate::model::Combatant;
    use crate::summary::CombatantTotals;

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
        };
        Summary {
            runs: 1000,
            wins: vec![612, 370],
            draws: 18,
            rounds: 4300,
            combatants: vec![totals(1500, 400), totals(1234, 1000), totals(2000, 612)],
        }
    }

    fn report(transcript: Option<Vec<String>>) -> Report {
        Report::build(&encounter(), &summary(), &SimOptions::default(), 1, transcript)
    }

    #[test]
    fn figures_come_from_the_sums() {
        let r = report(None);
        assert_eq!((r.runs, r.seed, r.round_cap, r.draws), (1000, 1, 100, 18));
        assert!((r.draw_rate - 0.018).abs() < 1e-12);
        assert!((r.avg_rounds - 4.3).abs() < 1e-12);
        assert_eq!(r.sides[0].name, "players");
        assert_eq!(r.sides[0].combatants, 2);
        assert_eq!(r.sides[1].combatants, 1);
        assert_eq!(r.sides[0].wins, 612);
        assert!((r.sides[0].win_rate - 0.612).abs() < 1e-12);
        let (lo, hi) = metrics::win_rate_band(612, 1000);
        assert_eq!(r.sides[0].band, [lo, hi]);
        let g2 = &r.combatants[1];
        assert_eq!((g2.id.as_str(), g2.name.as_str(), g2.side.as_str()), ("goblin-2", "Goblin", "players"));
        assert!((g2.avg_hits - 1.234).abs() < 1e-12);
        assert!((g2.death_rate - 1.0).abs() < 1e-12);
        assert_eq!(r.combatants[2].side, "monsters");
    }

    #[test]
    fn french_text_follows_the_seed_layout() {
        let text = report(None).render_text(Lang::Fr);
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
                "Victoires players : 61.2% (612) — bande 3σ : [56.6%, 65.8%]",
                "Victoires monsters : 37.0% (370) — bande 3σ : [32.4%, 41.6%]",
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
        let text = Report::build(&encounter(), &s, &options, 9, None).render_text(Lang::En);
        assert!(text.starts_with("=== Balance report ===\nMap : Arène d'essai\nplayers : 2 combatants\n"));
        assert!(text.contains("monsters : 1 combatant\n"));
        assert!(text.contains("1 combat simulated (seed 9, cap 1 round, simple monster death)\n"));
        assert!(text.contains("Wins players : "));
        assert!(text.contains("— 3σ band : ["));
        assert!(text.contains("\nDraws : "));
        assert!(text.contains("\nAverage rounds : "));
        assert!(text.contains("\nAverage attrition per combatant :\nCombatant  Side "));
    }

    #[test]
    fn transcript_comes_first_in_text_and_in_json() {
        let r = report(Some(vec!["initiative: orc 12".into(), "round 1 orc: waits".into()]));
        let text = r.render_text(Lang::Fr);
        assert!(text.starts_with("=== Déroulé du premier combat ===\n"));
        assert!(
            text.contains("initiative: orc 12\n    1  orc         waits\n\n=== Rapport d'équilibrage ===\n")
        );
        let json: serde_json::Value = serde_json::to_value(&r).unwrap();
        assert_eq!(json["transcript"][1], "round 1 orc: waits");
        let without = serde_json::to_value(report(None)).unwrap();
        assert!(without.get("transcript").is_none());
    }

    #[test]
    fn json_shape() {
        let json = serde_json::to_value(report(None)).unwrap();
        for key in
            ["runs", "seed", "round_cap", "map", "draws", "draw_rate", "avg_rounds", "sides", "combatants"]
        {
            assert!(json.get(key).is_some(), "{key}");
        }
        assert_eq!(json["sides"][1]["band"].as_array().unwrap().len(), 2);
        assert_eq!(json["combatants"][0]["id"], "goblin");
        let back: Report = serde_json::from_value(json).unwrap();
        assert_eq!(back, report(None));
    }

    #[test]
    fn zero_runs_do_not_divide_by_zero() {
        let r = Report::build(&encounter(), &Summary::new(2, 3), &SimOptions::default(), 1, None);
        assert_eq!(r.avg_rounds, 0.0);
        assert_eq!(r.sides[0].band, [0.0, 0.0]);
        assert!(r.render_text(Lang::Fr).contains("0 combats simulés"));
    }
}
