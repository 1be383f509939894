//! Typed results for the render tests: a sweep as `pf1e run` would find it.

use std::collections::BTreeMap;

use pf1e_wire::results::{
    CellReport, CombatantReport, Criterion, DangerLayer, DangerMapResult, DangerMetrics, DangerPoint,
    Difficulty, DifficultyLabel, FoeRating, HpLost, JobReport, JobResult, LlmDecisions, OptimizeResult,
    PlaybookEntry, Stage, SweepResults,
};

fn member(id: &str, side: &str) -> CombatantReport {
    CombatantReport {
        id: id.into(),
        side: side.into(),
        hp_max: 6,
        start_hp: 6,
        mean_final_hp: 2.0,
        deaths: 0,
        hits: 0,
        crits: 0,
        damage_dealt: 0,
        damage_taken: 0,
        healing_given: 0,
        slots_spent: 0,
        uses_spent: 0,
        items_spent: 0,
    }
}

fn metrics(p_survives: f64, win_rate: f64) -> DangerMetrics {
    DangerMetrics { runs: 400, p_survives, win_rate, ..DangerMetrics::default() }
}

pub(crate) fn entry(rank: u64, strategy: &str, p_survives: f64, win_rate: f64) -> PlaybookEntry {
    PlaybookEntry {
        rank,
        strategy: strategy.into(),
        stage: Stage::Grid,
        runs: 400,
        raced: 0,
        tied_with_leader: false,
        party: metrics(p_survives, win_rate),
        adversary: DangerMetrics::default(),
        same_as: None,
        vs_leader: None,
        pareto: false,
        constraints: None,
    }
}

/// Three goblins against two orcs: a baseline grid cell, an optimize
/// playbook and a danger map, as `pf1e run` would find them.
pub(crate) fn results(playbook: Vec<PlaybookEntry>) -> SweepResults {
    let baseline = CellReport {
        index: 0,
        party_strategy: "default".into(),
        adversary_strategy: "default".into(),
        hp: BTreeMap::from([("monsters".to_string(), 1.0), ("players".to_string(), 1.0)]),
        seed: 1,
        runs: 400,
        wins: BTreeMap::from([("players".to_string(), 274), ("monsters".to_string(), 118)]),
        draws: 8,
        party_win_rate: 0.685,
        party_win_band: [0.61, 0.76],
        party_all_down_rate: 0.29,
        party_fled_rate: 0.0,
        party_death_rate: 0.12,
        mean_rounds: 4.9,
        party_hp_lost: HpLost { mean: 5.4, p50: 4, p90: 12, max: 18 },
        combatants: vec![
            member("goblin", "players"),
            member("goblin-2", "players"),
            member("goblin-3", "players"),
            member("orc", "monsters"),
            member("orc-2", "monsters"),
        ],
    };
    let point = |party_hp, adversary_hp, value| DangerPoint {
        party_hp,
        adversary_hp,
        level: 0,
        value,
        crossed: value >= 0.1,
        party: DangerMetrics::default(),
        adversary: DangerMetrics::default(),
        interval: [value, value],
        undecided: false,
        resampled: 0,
    };
    let layer = DangerLayer {
        aware: BTreeMap::new(),
        copies: BTreeMap::new(),
        points: vec![point(0.25, 1.0, 0.62), point(1.0, 1.0, 0.12), point(0.25, 0.25, 0.05)],
        squares: Vec::new(),
        most_dangerous: None,
    };
    SweepResults {
        name: "full_analysis".into(),
        seed: 1,
        party: "players".into(),
        rules_version: "pf1e-rules-4".into(),
        scenario: "0123456789abcdef".into(),
        jobs: vec![
            JobReport { result: JobResult::Grid(()), cells: vec![baseline] },
            JobReport {
                result: JobResult::Optimize(OptimizeResult {
                    adversary_strategy: "lowest_hp".into(),
                    spent_runs: 1200,
                    playbook,
                    objective: Criterion::PSurvives,
                    confidence: pf1e_engine::metrics::THREE_SIGMA_LEVEL,
                    comparison_z: 3.2,
                    comparisons: 1,
                    none_survives: false,
                    least_bad: None,
                    levers_that_matter: vec!["retreat".into()],
                    pareto_criteria: vec![],
                    constraints: vec![],
                    none_feasible: false,
                    search: None,
                    importance: None,
                }),
                cells: Vec::new(),
            },
            JobReport {
                result: JobResult::DangerMap(DangerMapResult::new(
                    Criterion::PAnyDeath,
                    0.1,
                    "default".into(),
                    "default".into(),
                    1,
                    vec![layer],
                )),
                cells: Vec::new(),
            },
        ],
        llm: LlmDecisions::default(),
        difficulty: Some(Difficulty {
            party: "players".into(),
            members: vec!["goblin".into(), "goblin-2".into(), "goblin-3".into()],
            party_size: 3,
            pcs_only: false,
            apl: 0,
            xp: 270,
            cr: Some("1/2".into()),
            cr_minus_apl: Some(0),
            label: Some(DifficultyLabel::Average),
            foes: vec![
                FoeRating { id: "orc".into(), cr: Some("1/3".into()), xp: 135 },
                FoeRating { id: "orc-2".into(), cr: Some("1/3".into()), xp: 135 },
            ],
        }),
        map: "Arène d'essai".into(),
        simulated: None,
    }
}
