//! The balance report of a batch: every figure computed once from the
//! encounter and the run sums.
//!
//! Its JSON form is `pf1e sim --json`; the CLI renders the same value as
//! text (the engine renders nothing), so the two cannot disagree.

use serde::{Deserialize, Serialize};

use crate::combat::SimOptions;
use crate::encounter::Encounter;
use crate::metrics;
use crate::summary::Summary;

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
    /// The interval of the win rate at `confidence`, `[low, high]`
    /// (Wilson's score interval, exact at 0 and at every battle won; no
    /// battle: `[0, 1]`).
    pub band: [f64; 2],
    /// The two-sided confidence level of `band` (0: a report of a version
    /// that stated none).
    #[serde(default)]
    pub confidence: f64,
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
    /// Per combatant, in deployment order; then the creatures summoned in
    /// some battle, one row per row the encounter reserves for them.
    pub combatants: Vec<CombatantReport>,
    /// Engine lines of the first battle (run 0), when requested.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transcript: Option<Vec<String>>,
    /// The party's difficulty by the book and by simulation, when measured
    /// ([`Report::with_party`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub party: Option<crate::party::PartyReport>,
    /// Which battle the transcript shows and why, when one was picked
    /// (`pf1e sim --show`); without it the transcript is run 0's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shown: Option<crate::party::Shown>,
    /// Who carries the fight (`pf1e sim --contribution`): each combatant's
    /// figures and the party without it; empty when not asked.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub contribution: Vec<crate::contribution::Contribution>,
    /// The strategies the sides played (`pf1e sim --strategy`), when one
    /// is not the default policy; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strategies: Option<PlayedStrategies>,
}

/// The levers each side played by (canonical names, docs/strategy.md).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayedStrategies {
    /// The party's side (the one `party` plays).
    pub party_side: String,
    /// The party's strategy.
    pub party: String,
    /// Every other side's strategy.
    pub adversary: String,
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
                    confidence: metrics::THREE_SIGMA_LEVEL,
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
            .collect::<Vec<_>>();
        let mut combatants = combatants;
        if summary.summons.iter().any(|t| *t != crate::summary::CombatantTotals::default()) {
            // Summoned creatures follow the encounter's combatants, one row per reserved row.
            for (row, t) in crate::combat::summon_roster(encounter).into_iter().zip(&summary.summons) {
                combatants.push(CombatantReport {
                    id: row.id,
                    name: row.name,
                    side: encounter.sides.get(row.side).cloned().unwrap_or_default(),
                    avg_hits: per_run(t.hits, runs),
                    avg_crits: per_run(t.crits, runs),
                    avg_damage_dealt: per_run(t.damage_dealt, runs),
                    avg_damage_taken: per_run(t.damage_taken, runs),
                    avg_healing_given: per_run(t.healing_given, runs),
                    deaths: t.deaths,
                    death_rate: metrics::win_rate(t.deaths, runs),
                });
            }
        }
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
            party: None,
            shown: None,
            contribution: Vec::new(),
            strategies: None,
        }
    }

    /// The report with the party's difficulty beside the figures.
    pub fn with_party(self, party: crate::party::PartyReport) -> Self {
        Report { party: Some(party), ..self }
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
    fn the_transcript_appears_in_json_only_when_asked_for() {
        let r = report(Some(vec!["initiative: orc 12".into(), "round 1 orc: waits".into()]));
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
        assert_eq!(r.sides[0].band, [0.0, 1.0], "no battle: nothing is known");
    }
}
