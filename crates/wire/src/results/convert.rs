//! Results and statuses to and from their proto messages. Encoding never
//! fails; decoding fails only on a message another version (or a bug) built:
//! a missing sub-message or an enum value this version does not know.

use std::sync::Arc;

use crate::error::WireError;
use crate::proto;
use crate::proto::job_progress::Kind;
use crate::proto::job_report::Result as Job;
use crate::results::*;
use crate::status::*;

fn band(b: [f64; 2]) -> proto::Band {
    proto::Band { low: b[0], high: b[1] }
}

fn from_band(b: Option<&proto::Band>, field: &'static str) -> Result<[f64; 2], WireError> {
    let b = b.ok_or(WireError::Missing(field))?;
    Ok([b.low, b.high])
}

fn metrics(m: &DangerMetrics) -> proto::DangerMetrics {
    proto::DangerMetrics {
        runs: m.runs,
        wins: m.wins,
        draws: m.draws,
        p_survives: m.p_survives,
        p_tpk: m.p_tpk,
        p_any_death: m.p_any_death,
        p_fled: m.p_fled,
        expected_hp_lost: m.expected_hp_lost,
        hp_lost_sd: m.hp_lost_sd,
        expected_rounds: m.expected_rounds,
        worst_decile_hp: m.worst_decile_hp,
        win_rate: m.win_rate,
        win_band: Some(band([m.win_band.0, m.win_band.1])),
        confidence: m.confidence,
        p_survives_ci: Some(band([m.p_survives_ci.0, m.p_survives_ci.1])),
        p_tpk_ci: Some(band([m.p_tpk_ci.0, m.p_tpk_ci.1])),
        p_any_death_ci: Some(band([m.p_any_death_ci.0, m.p_any_death_ci.1])),
        hp_lost_se: m.hp_lost_se,
        rounds_se: m.rounds_se,
    }
}

/// An interval a previous version did not send: unknown.
fn optional_band(b: Option<&proto::Band>) -> (f64, f64) {
    b.map_or((0.0, 0.0), |b| (b.low, b.high))
}

fn from_metrics(m: Option<&proto::DangerMetrics>, field: &'static str) -> Result<DangerMetrics, WireError> {
    let m = m.ok_or(WireError::Missing(field))?;
    let [low, high] = from_band(m.win_band.as_ref(), "DangerMetrics.win_band")?;
    Ok(DangerMetrics {
        runs: m.runs,
        wins: m.wins,
        draws: m.draws,
        p_survives: m.p_survives,
        p_tpk: m.p_tpk,
        p_any_death: m.p_any_death,
        p_fled: m.p_fled,
        expected_hp_lost: m.expected_hp_lost,
        hp_lost_sd: m.hp_lost_sd,
        expected_rounds: m.expected_rounds,
        worst_decile_hp: m.worst_decile_hp,
        win_rate: m.win_rate,
        win_band: (low, high),
        confidence: m.confidence,
        p_survives_ci: optional_band(m.p_survives_ci.as_ref()),
        p_tpk_ci: optional_band(m.p_tpk_ci.as_ref()),
        p_any_death_ci: optional_band(m.p_any_death_ci.as_ref()),
        hp_lost_se: m.hp_lost_se,
        rounds_se: m.rounds_se,
    })
}

fn criterion(c: Criterion) -> i32 {
    (match c {
        Criterion::PSurvives => proto::Criterion::PSurvives,
        Criterion::PTpk => proto::Criterion::PTpk,
        Criterion::PAnyDeath => proto::Criterion::PAnyDeath,
        Criterion::ExpectedHpLost => proto::Criterion::ExpectedHpLost,
        Criterion::PWin => proto::Criterion::PWin,
    }) as i32
}

fn from_criterion(value: i32, field: &'static str) -> Result<Criterion, WireError> {
    match proto::Criterion::try_from(value) {
        Ok(proto::Criterion::PSurvives) => Ok(Criterion::PSurvives),
        Ok(proto::Criterion::PTpk) => Ok(Criterion::PTpk),
        Ok(proto::Criterion::PAnyDeath) => Ok(Criterion::PAnyDeath),
        Ok(proto::Criterion::ExpectedHpLost) => Ok(Criterion::ExpectedHpLost),
        Ok(proto::Criterion::PWin) => Ok(Criterion::PWin),
        Ok(proto::Criterion::Unspecified) | Err(_) => Err(WireError::Enum { field, value }),
    }
}

impl From<&CellReport> for proto::CellReport {
    fn from(c: &CellReport) -> Self {
        proto::CellReport {
            index: c.index,
            party_strategy: c.party_strategy.clone(),
            adversary_strategy: c.adversary_strategy.clone(),
            hp: c.hp.clone(),
            seed: c.seed,
            runs: c.runs,
            wins: c.wins.clone(),
            draws: c.draws,
            party_win_rate: c.party_win_rate,
            party_win_band: Some(band(c.party_win_band)),
            party_all_down_rate: c.party_all_down_rate,
            party_death_rate: c.party_death_rate,
            party_fled_rate: c.party_fled_rate,
            mean_rounds: c.mean_rounds,
            party_hp_lost: Some(proto::HpLost {
                mean: c.party_hp_lost.mean,
                p50: c.party_hp_lost.p50,
                p90: c.party_hp_lost.p90,
                max: c.party_hp_lost.max,
            }),
            combatants: c
                .combatants
                .iter()
                .map(|k| proto::CombatantReport {
                    id: k.id.clone(),
                    side: k.side.clone(),
                    hp_max: k.hp_max,
                    start_hp: k.start_hp,
                    mean_final_hp: k.mean_final_hp,
                    deaths: k.deaths,
                    hits: k.hits,
                    crits: k.crits,
                    damage_dealt: k.damage_dealt,
                    damage_taken: k.damage_taken,
                    healing_given: k.healing_given,
                    slots_spent: k.slots_spent,
                    uses_spent: k.uses_spent,
                    items_spent: k.items_spent,
                })
                .collect(),
        }
    }
}

impl TryFrom<&proto::CellReport> for CellReport {
    type Error = WireError;

    fn try_from(c: &proto::CellReport) -> Result<Self, Self::Error> {
        let lost = c.party_hp_lost.as_ref().ok_or(WireError::Missing("CellReport.party_hp_lost"))?;
        Ok(CellReport {
            index: c.index,
            party_strategy: c.party_strategy.clone(),
            adversary_strategy: c.adversary_strategy.clone(),
            hp: c.hp.clone(),
            seed: c.seed,
            runs: c.runs,
            wins: c.wins.clone(),
            draws: c.draws,
            party_win_rate: c.party_win_rate,
            party_win_band: from_band(c.party_win_band.as_ref(), "CellReport.party_win_band")?,
            party_all_down_rate: c.party_all_down_rate,
            party_death_rate: c.party_death_rate,
            party_fled_rate: c.party_fled_rate,
            mean_rounds: c.mean_rounds,
            party_hp_lost: HpLost { mean: lost.mean, p50: lost.p50, p90: lost.p90, max: lost.max },
            combatants: c
                .combatants
                .iter()
                .map(|k| CombatantReport {
                    id: k.id.clone(),
                    side: k.side.clone(),
                    hp_max: k.hp_max,
                    start_hp: k.start_hp,
                    mean_final_hp: k.mean_final_hp,
                    deaths: k.deaths,
                    hits: k.hits,
                    crits: k.crits,
                    damage_dealt: k.damage_dealt,
                    damage_taken: k.damage_taken,
                    healing_given: k.healing_given,
                    slots_spent: k.slots_spent,
                    uses_spent: k.uses_spent,
                    items_spent: k.items_spent,
                })
                .collect(),
        })
    }
}

fn stage(s: Stage) -> i32 {
    (match s {
        Stage::Grid => proto::Stage::Grid,
        Stage::Refine => proto::Stage::Refine,
        Stage::Candidate => proto::Stage::Candidate,
        Stage::LlmProposal => proto::Stage::LlmProposal,
        Stage::Search => proto::Stage::Search,
    }) as i32
}

fn from_stage(value: i32) -> Result<Stage, WireError> {
    match proto::Stage::try_from(value) {
        Ok(proto::Stage::Grid) => Ok(Stage::Grid),
        Ok(proto::Stage::Refine) => Ok(Stage::Refine),
        Ok(proto::Stage::Candidate) => Ok(Stage::Candidate),
        Ok(proto::Stage::LlmProposal) => Ok(Stage::LlmProposal),
        Ok(proto::Stage::Search) => Ok(Stage::Search),
        Ok(proto::Stage::Unspecified) | Err(_) => {
            Err(WireError::Enum { field: "PlaybookEntry.stage", value })
        }
    }
}

fn paired(d: &PairedDelta) -> proto::PairedDelta {
    proto::PairedDelta { runs: d.runs, mean: d.mean, interval: Some(band(d.interval)) }
}

fn from_paired(d: &proto::PairedDelta, field: &'static str) -> Result<PairedDelta, WireError> {
    Ok(PairedDelta { runs: d.runs, mean: d.mean, interval: from_band(d.interval.as_ref(), field)? })
}

fn search(s: &SearchResult) -> proto::SearchResult {
    proto::SearchResult {
        ranges: s.ranges.clone(),
        levers: s.levers.clone(),
        base: s.base.clone(),
        batches: s.batches,
        points_per_batch: s.points_per_batch,
        spent_runs: s.spent_runs,
        points: s
            .points
            .iter()
            .map(|p| proto::SearchPoint {
                strategy: p.strategy.clone(),
                values: p.values.clone(),
                batch: p.batch,
                runs: p.runs,
                objective: p.objective,
                interval: Some(band(p.interval)),
                posterior: p.posterior,
                confirmed: p.confirmed,
                front: p.front,
            })
            .collect(),
        best: s.best.clone().unwrap_or_default(),
        vs_grid: s.vs_grid.as_ref().map(|v| proto::SearchVersus {
            strategy: v.strategy.clone(),
            delta: Some(paired(&v.delta)),
            significant: v.significant,
        }),
        importance: s.importance.as_ref().map(|i| proto::RangeImportance {
            points: i.points,
            design: i.design,
            levers: i
                .levers
                .iter()
                .map(|l| proto::RangeLeverImportance {
                    lever: l.lever.clone(),
                    share: l.share,
                    noise: l.noise,
                })
                .collect(),
            interactions: i.interactions,
            spread: i.spread,
            uncertainty: i.uncertainty,
        }),
        pareto: s.pareto.iter().map(|&c| criterion(c)).collect(),
    }
}

fn from_search(s: &proto::SearchResult) -> Result<SearchResult, WireError> {
    Ok(SearchResult {
        ranges: s.ranges.clone(),
        levers: s.levers.clone(),
        base: s.base.clone(),
        batches: s.batches,
        points_per_batch: s.points_per_batch,
        spent_runs: s.spent_runs,
        points: s
            .points
            .iter()
            .map(|p| {
                Ok(SearchPoint {
                    strategy: p.strategy.clone(),
                    values: p.values.clone(),
                    batch: p.batch,
                    runs: p.runs,
                    objective: p.objective,
                    interval: from_band(p.interval.as_ref(), "SearchPoint.interval")?,
                    posterior: p.posterior,
                    confirmed: p.confirmed,
                    front: p.front,
                })
            })
            .collect::<Result<_, WireError>>()?,
        best: (!s.best.is_empty()).then(|| s.best.clone()),
        vs_grid: match &s.vs_grid {
            Some(v) => {
                let d = v.delta.as_ref().ok_or(WireError::Missing("SearchVersus.delta"))?;
                Some(SearchVersus {
                    strategy: v.strategy.clone(),
                    delta: from_paired(d, "SearchVersus.delta.interval")?,
                    significant: v.significant,
                })
            }
            None => None,
        },
        importance: s.importance.as_ref().map(|i| {
            Box::new(RangeImportance {
                points: i.points,
                design: i.design,
                levers: i
                    .levers
                    .iter()
                    .map(|l| RangeLeverImportance { lever: l.lever.clone(), share: l.share, noise: l.noise })
                    .collect(),
                interactions: i.interactions,
                spread: i.spread,
                uncertainty: i.uncertainty,
            })
        }),
        pareto: s
            .pareto
            .iter()
            .map(|&c| from_criterion(c, "SearchResult.pareto"))
            .collect::<Result<_, _>>()?,
    })
}

fn constraint_status(s: ConstraintStatus) -> i32 {
    (match s {
        ConstraintStatus::Met => proto::ConstraintStatus::Met,
        ConstraintStatus::Likely => proto::ConstraintStatus::Likely,
        ConstraintStatus::Unlikely => proto::ConstraintStatus::Unlikely,
        ConstraintStatus::Violated => proto::ConstraintStatus::Violated,
    }) as i32
}

/// Unspecified means the job had no constraint.
fn from_constraint_status(value: i32) -> Result<Option<ConstraintStatus>, WireError> {
    match proto::ConstraintStatus::try_from(value) {
        Ok(proto::ConstraintStatus::Unspecified) => Ok(None),
        Ok(proto::ConstraintStatus::Met) => Ok(Some(ConstraintStatus::Met)),
        Ok(proto::ConstraintStatus::Likely) => Ok(Some(ConstraintStatus::Likely)),
        Ok(proto::ConstraintStatus::Unlikely) => Ok(Some(ConstraintStatus::Unlikely)),
        Ok(proto::ConstraintStatus::Violated) => Ok(Some(ConstraintStatus::Violated)),
        Err(_) => Err(WireError::Enum { field: "PlaybookEntry.constraints", value }),
    }
}

fn crossing(c: Option<Crossing>) -> i32 {
    (match c {
        None => proto::Crossing::Unspecified,
        Some(Crossing::AtOrBelow) => proto::Crossing::AtOrBelow,
        Some(Crossing::AtOrAbove) => proto::Crossing::AtOrAbove,
        Some(Crossing::Everywhere) => proto::Crossing::Everywhere,
    }) as i32
}

fn from_crossing(value: i32) -> Result<Option<Crossing>, WireError> {
    match proto::Crossing::try_from(value) {
        Ok(proto::Crossing::Unspecified) => Ok(None),
        Ok(proto::Crossing::AtOrBelow) => Ok(Some(Crossing::AtOrBelow)),
        Ok(proto::Crossing::AtOrAbove) => Ok(Some(Crossing::AtOrAbove)),
        Ok(proto::Crossing::Everywhere) => Ok(Some(Crossing::Everywhere)),
        Err(_) => Err(WireError::Enum { field: "FrontierResult.crossed", value }),
    }
}

fn point(p: &DangerPoint) -> proto::DangerPoint {
    proto::DangerPoint {
        party_hp: p.party_hp,
        adversary_hp: p.adversary_hp,
        level: p.level,
        value: p.value,
        crossed: p.crossed,
        party: Some(metrics(&p.party)),
        adversary: Some(metrics(&p.adversary)),
        interval: Some(band(p.interval)),
        undecided: p.undecided,
        resampled: p.resampled,
    }
}

fn from_point(p: &proto::DangerPoint) -> Result<DangerPoint, WireError> {
    Ok(DangerPoint {
        party_hp: p.party_hp,
        adversary_hp: p.adversary_hp,
        level: p.level,
        value: p.value,
        crossed: p.crossed,
        party: from_metrics(p.party.as_ref(), "DangerPoint.party")?,
        adversary: from_metrics(p.adversary.as_ref(), "DangerPoint.adversary")?,
        interval: p.interval.as_ref().map_or([0.0, 0.0], |b| [b.low, b.high]),
        undecided: p.undecided,
        resampled: p.resampled,
    })
}

fn square(s: &DangerSquare) -> proto::DangerSquare {
    proto::DangerSquare {
        party_hp: Some(band(s.party_hp)),
        adversary_hp: Some(band(s.adversary_hp)),
        level: s.level,
    }
}

fn from_square(s: &proto::DangerSquare) -> Result<DangerSquare, WireError> {
    Ok(DangerSquare {
        party_hp: from_band(s.party_hp.as_ref(), "DangerSquare.party_hp")?,
        adversary_hp: from_band(s.adversary_hp.as_ref(), "DangerSquare.adversary_hp")?,
        level: s.level,
    })
}

impl From<&JobResult> for Job {
    fn from(r: &JobResult) -> Self {
        match r {
            JobResult::Grid(()) => Job::Grid(proto::GridResult {}),
            JobResult::Optimize(o) => Job::Optimize(proto::OptimizeResult {
                adversary_strategy: o.adversary_strategy.clone(),
                spent_runs: o.spent_runs,
                playbook: o
                    .playbook
                    .iter()
                    .map(|e| proto::PlaybookEntry {
                        rank: e.rank,
                        strategy: e.strategy.clone(),
                        stage: stage(e.stage),
                        runs: e.runs,
                        raced: e.raced,
                        tied_with_leader: e.tied_with_leader,
                        party: Some(metrics(&e.party)),
                        adversary: Some(metrics(&e.adversary)),
                        same_as: e.same_as.clone().unwrap_or_default(),
                        vs_leader: e.vs_leader.as_ref().map(paired),
                        pareto: e.pareto,
                        constraints: e.constraints.map_or(0, constraint_status),
                    })
                    .collect(),
                objective: criterion(o.objective),
                confidence: o.confidence,
                comparison_z: o.comparison_z,
                comparisons: o.comparisons,
                none_survives: o.none_survives,
                least_bad: o.least_bad.clone().unwrap_or_default(),
                levers_that_matter: o.levers_that_matter.clone(),
                pareto_criteria: o.pareto_criteria.iter().map(|&c| criterion(c)).collect(),
                constraints: o.constraints.clone(),
                none_feasible: o.none_feasible,
                search: o.search.as_ref().map(search),
                importance: o.importance.as_ref().map(|i| proto::Importance {
                    cells: i.cells,
                    levers: i
                        .levers
                        .iter()
                        .map(|l| proto::LeverImportance {
                            lever: l.lever.clone(),
                            share: l.share,
                            noise: l.noise,
                            significant: l.significant,
                        })
                        .collect(),
                    interactions: i.interactions,
                }),
            }),
            JobResult::Minmax(m) => Job::Minmax(proto::MinmaxResult {
                converged: m.converged,
                iterations: m
                    .iterations
                    .iter()
                    .map(|it| proto::MinmaxIteration {
                        iteration: it.iteration,
                        party_strategy: it.party_strategy.clone(),
                        adversary_strategy: it.adversary_strategy.clone(),
                        party: Some(metrics(&it.party)),
                        adversary: Some(metrics(&it.adversary)),
                        party_tied: it.party_tied.clone(),
                        adversary_tied: it.adversary_tied.clone(),
                    })
                    .collect(),
                llm_proposals: m.llm_proposals.clone(),
            }),
            JobResult::DangerMap(d) => Job::DangerMap(proto::DangerMapResult {
                criterion: criterion(d.criterion),
                threshold: d.threshold,
                party_strategy: d.party_strategy.clone(),
                adversary_strategy: d.adversary_strategy.clone(),
                depth: d.depth,
                layers: d
                    .layers
                    .iter()
                    .map(|l| proto::DangerLayer {
                        aware: l.aware.clone(),
                        copies: l
                            .copies
                            .iter()
                            .map(|(side, ids)| (side.clone(), proto::CopyList { ids: ids.clone() }))
                            .collect(),
                        points: l.points.iter().map(point).collect(),
                        squares: l.squares.iter().map(square).collect(),
                        most_dangerous: l.most_dangerous.map(band),
                    })
                    .collect(),
            }),
            JobResult::Frontier(f) => Job::Frontier(proto::FrontierResult {
                criterion: criterion(f.criterion),
                target: f.target,
                party_strategy: f.party_strategy.clone(),
                adversary_strategy: f.adversary_strategy.clone(),
                min_fraction: f.min_fraction,
                max_fraction: f.max_fraction,
                precision: f.precision,
                fraction: f.fraction,
                crossed: crossing(f.crossed),
                probes: f
                    .probes
                    .iter()
                    .map(|p| proto::FrontierProbe {
                        party_hp: p.party_hp,
                        value: p.value,
                        crossed: p.crossed,
                        interval: Some(band(p.interval)),
                        undecided: p.undecided,
                        runs: p.runs,
                    })
                    .collect(),
                crossings: f
                    .crossings
                    .iter()
                    .map(|c| proto::FrontierCrossing {
                        fraction: c.fraction,
                        crossed: crossing(Some(c.crossed)),
                        undecided: c.undecided,
                    })
                    .collect(),
                monotone: f.monotone,
            }),
            JobResult::Sensitivity(s) => Job::Sensitivity(proto::SensitivityResult {
                criterion: criterion(s.criterion),
                party_strategy: s.party_strategy.clone(),
                baseline: s.baseline,
                levers: s
                    .levers
                    .iter()
                    .map(|l| proto::Lever {
                        rank: l.rank,
                        adversary_strategy: l.adversary_strategy.clone(),
                        value: l.value,
                        delta: l.delta,
                        party: Some(metrics(&l.party)),
                        delta_interval: Some(band(l.delta_interval)),
                        significant: l.significant,
                    })
                    .collect(),
                confidence: s.confidence,
                comparison_z: s.comparison_z,
            }),
            JobResult::Contribution(c) => Job::Contribution(proto::ContributionResult {
                party: c.party.clone(),
                party_strategy: c.party_strategy.clone(),
                adversary_strategy: c.adversary_strategy.clone(),
                combatants: c
                    .combatants
                    .iter()
                    .map(|k| proto::Contribution {
                        id: k.id.clone(),
                        side: k.side.clone(),
                        damage_per_round: k.damage_per_round,
                        healing: k.healing,
                        conditions: k.conditions,
                        without: k.without.as_ref().map(|w| proto::Without {
                            runs: w.runs,
                            p_win: w.p_win,
                            p_pc_dies: w.p_pc_dies,
                            win_change: w.win_change,
                            win_interval: Some(band(w.win_interval)),
                            death_change: w.death_change,
                            death_interval: Some(band(w.death_interval)),
                            significant: w.significant,
                        }),
                    })
                    .collect(),
                confidence: c.confidence,
                comparison_z: c.comparison_z,
            }),
            JobResult::Design(d) => Job::Design(design(d)),
            JobResult::Day(d) => Job::Day(proto::DayResult::from(d)),
        }
    }
}

impl TryFrom<&Job> for JobResult {
    type Error = WireError;

    fn try_from(r: &Job) -> Result<Self, Self::Error> {
        Ok(match r {
            Job::Day(d) => JobResult::Day(DayResult::try_from(d)?),
            Job::Grid(_) => JobResult::Grid(()),
            Job::Optimize(o) => JobResult::Optimize(OptimizeResult {
                adversary_strategy: o.adversary_strategy.clone(),
                spent_runs: o.spent_runs,
                playbook: o
                    .playbook
                    .iter()
                    .map(|e| {
                        Ok(PlaybookEntry {
                            rank: e.rank,
                            strategy: e.strategy.clone(),
                            stage: from_stage(e.stage)?,
                            runs: e.runs,
                            raced: e.raced,
                            tied_with_leader: e.tied_with_leader,
                            party: from_metrics(e.party.as_ref(), "PlaybookEntry.party")?,
                            adversary: from_metrics(e.adversary.as_ref(), "PlaybookEntry.adversary")?,
                            same_as: (!e.same_as.is_empty()).then(|| e.same_as.clone()),
                            vs_leader: match &e.vs_leader {
                                Some(d) => Some(from_paired(d, "PairedDelta.interval")?),
                                None => None,
                            },
                            pareto: e.pareto,
                            constraints: from_constraint_status(e.constraints)?,
                        })
                    })
                    .collect::<Result<_, WireError>>()?,
                // A previous version ranked by survival and sent no objective.
                objective: if o.objective == proto::Criterion::Unspecified as i32 {
                    Criterion::PSurvives
                } else {
                    from_criterion(o.objective, "OptimizeResult.objective")?
                },
                confidence: o.confidence,
                comparison_z: o.comparison_z,
                comparisons: o.comparisons,
                none_survives: o.none_survives,
                least_bad: (!o.least_bad.is_empty()).then(|| o.least_bad.clone()),
                levers_that_matter: o.levers_that_matter.clone(),
                pareto_criteria: o
                    .pareto_criteria
                    .iter()
                    .map(|&c| from_criterion(c, "OptimizeResult.pareto_criteria"))
                    .collect::<Result<_, _>>()?,
                constraints: o.constraints.clone(),
                none_feasible: o.none_feasible,
                search: o.search.as_ref().map(from_search).transpose()?,
                importance: o.importance.as_ref().map(|i| Importance {
                    cells: i.cells,
                    levers: i
                        .levers
                        .iter()
                        .map(|l| LeverImportance {
                            lever: l.lever.clone(),
                            share: l.share,
                            noise: l.noise,
                            significant: l.significant,
                        })
                        .collect(),
                    interactions: i.interactions,
                }),
            }),
            Job::Minmax(m) => JobResult::Minmax(MinmaxResult {
                converged: m.converged,
                iterations: m
                    .iterations
                    .iter()
                    .map(|it| {
                        Ok(MinmaxIteration {
                            iteration: it.iteration,
                            party_strategy: it.party_strategy.clone(),
                            adversary_strategy: it.adversary_strategy.clone(),
                            party: from_metrics(it.party.as_ref(), "MinmaxIteration.party")?,
                            adversary: from_metrics(it.adversary.as_ref(), "MinmaxIteration.adversary")?,
                            party_tied: it.party_tied.clone(),
                            adversary_tied: it.adversary_tied.clone(),
                        })
                    })
                    .collect::<Result<_, WireError>>()?,
                llm_proposals: m.llm_proposals.clone(),
            }),
            Job::DangerMap(d) => {
                let layers = d
                    .layers
                    .iter()
                    .map(|l| {
                        Ok(DangerLayer {
                            aware: l.aware.clone(),
                            copies: l.copies.iter().map(|(side, c)| (side.clone(), c.ids.clone())).collect(),
                            points: l.points.iter().map(from_point).collect::<Result<_, _>>()?,
                            squares: l.squares.iter().map(from_square).collect::<Result<_, _>>()?,
                            most_dangerous: l.most_dangerous.as_ref().map(|b| [b.low, b.high]),
                        })
                    })
                    .collect::<Result<Vec<_>, WireError>>()?;
                JobResult::DangerMap(DangerMapResult::new(
                    from_criterion(d.criterion, "DangerMapResult.criterion")?,
                    d.threshold,
                    d.party_strategy.clone(),
                    d.adversary_strategy.clone(),
                    d.depth,
                    layers,
                ))
            }
            Job::Frontier(f) => JobResult::Frontier(FrontierResult {
                criterion: from_criterion(f.criterion, "FrontierResult.criterion")?,
                target: f.target,
                party_strategy: f.party_strategy.clone(),
                adversary_strategy: f.adversary_strategy.clone(),
                min_fraction: f.min_fraction,
                max_fraction: f.max_fraction,
                precision: f.precision,
                fraction: f.fraction,
                crossed: from_crossing(f.crossed)?,
                probes: f
                    .probes
                    .iter()
                    .map(|p| FrontierProbe {
                        party_hp: p.party_hp,
                        value: p.value,
                        crossed: p.crossed,
                        interval: p.interval.as_ref().map_or([0.0, 0.0], |b| [b.low, b.high]),
                        undecided: p.undecided,
                        runs: p.runs,
                    })
                    .collect(),
                crossings: f
                    .crossings
                    .iter()
                    .map(|c| {
                        Ok(FrontierCrossing {
                            fraction: c.fraction,
                            crossed: from_crossing(c.crossed)?
                                .ok_or(WireError::Missing("FrontierCrossing.crossed"))?,
                            undecided: c.undecided,
                        })
                    })
                    .collect::<Result<_, WireError>>()?,
                // A previous version sent no crossings: it assumed monotone danger.
                monotone: f.monotone || f.crossings.is_empty(),
            }),
            Job::Sensitivity(s) => JobResult::Sensitivity(SensitivityResult {
                criterion: from_criterion(s.criterion, "SensitivityResult.criterion")?,
                party_strategy: s.party_strategy.clone(),
                baseline: s.baseline,
                levers: s
                    .levers
                    .iter()
                    .map(|l| {
                        Ok(SensitivityLever {
                            rank: l.rank,
                            adversary_strategy: l.adversary_strategy.clone(),
                            value: l.value,
                            delta: l.delta,
                            party: from_metrics(l.party.as_ref(), "Lever.party")?,
                            delta_interval: l.delta_interval.as_ref().map_or([0.0, 0.0], |b| [b.low, b.high]),
                            significant: l.significant,
                        })
                    })
                    .collect::<Result<_, WireError>>()?,
                confidence: s.confidence,
                comparison_z: s.comparison_z,
            }),
            Job::Contribution(c) => {
                let pair = |b: &Option<proto::Band>| b.as_ref().map_or([0.0, 0.0], |b| [b.low, b.high]);
                JobResult::Contribution(ContributionResult {
                    party: c.party.clone(),
                    party_strategy: c.party_strategy.clone(),
                    adversary_strategy: c.adversary_strategy.clone(),
                    combatants: c
                        .combatants
                        .iter()
                        .map(|k| Contribution {
                            id: k.id.clone(),
                            side: k.side.clone(),
                            damage_per_round: k.damage_per_round,
                            healing: k.healing,
                            conditions: k.conditions,
                            without: k.without.as_ref().map(|w| Without {
                                runs: w.runs,
                                p_win: w.p_win,
                                p_pc_dies: w.p_pc_dies,
                                win_change: w.win_change,
                                win_interval: pair(&w.win_interval),
                                death_change: w.death_change,
                                death_interval: pair(&w.death_interval),
                                significant: w.significant,
                            }),
                        })
                        .collect(),
                    confidence: c.confidence,
                    comparison_z: c.comparison_z,
                })
            }
            Job::Design(d) => JobResult::Design(from_design(d)?),
        })
    }
}

fn label(l: Option<DifficultyLabel>) -> i32 {
    use proto::DifficultyLabel as P;
    (match l {
        None => P::Unspecified,
        Some(DifficultyLabel::Easy) => P::Easy,
        Some(DifficultyLabel::Average) => P::Average,
        Some(DifficultyLabel::Challenging) => P::Challenging,
        Some(DifficultyLabel::Hard) => P::Hard,
        Some(DifficultyLabel::Epic) => P::Epic,
    }) as i32
}

fn from_label(value: i32, field: &'static str) -> Result<Option<DifficultyLabel>, WireError> {
    use proto::DifficultyLabel as P;
    Ok(match P::try_from(value) {
        Ok(P::Unspecified) => None,
        Ok(P::Easy) => Some(DifficultyLabel::Easy),
        Ok(P::Average) => Some(DifficultyLabel::Average),
        Ok(P::Challenging) => Some(DifficultyLabel::Challenging),
        Ok(P::Hard) => Some(DifficultyLabel::Hard),
        Ok(P::Epic) => Some(DifficultyLabel::Epic),
        Err(_) => return Err(WireError::Enum { field, value }),
    })
}

fn design_metric(m: DesignMetric) -> i32 {
    use proto::DesignMetric as P;
    (match m {
        DesignMetric::PSomePcDies => P::PSomePcDies,
        DesignMetric::PTpk => P::PTpk,
        DesignMetric::HpLost => P::HpLost,
        DesignMetric::PWin => P::PWin,
    }) as i32
}

fn from_design_metric(value: i32, field: &'static str) -> Result<DesignMetric, WireError> {
    use proto::DesignMetric as P;
    match P::try_from(value) {
        Ok(P::PSomePcDies) => Ok(DesignMetric::PSomePcDies),
        Ok(P::PTpk) => Ok(DesignMetric::PTpk),
        Ok(P::HpLost) => Ok(DesignMetric::HpLost),
        Ok(P::PWin) => Ok(DesignMetric::PWin),
        Ok(P::Unspecified) | Err(_) => Err(WireError::Enum { field, value }),
    }
}

fn design(d: &DesignResult) -> proto::DesignResult {
    proto::DesignResult {
        party: d.party.clone(),
        side: d.side.clone(),
        apl: d.apl,
        target: d
            .target
            .iter()
            .map(|t| proto::TargetBand { metric: design_metric(t.metric), low: t.low, high: t.high })
            .collect(),
        label: label(d.label),
        window_low: d.window[0],
        window_high: d.window[1],
        pool: d.pool.clone(),
        groups_in_window: d.groups_in_window,
        confidence: d.confidence,
        candidates: d
            .candidates
            .iter()
            .map(|c| proto::DesignCandidate {
                rank: c.rank,
                inside: c.inside,
                confirmed: c.confirmed,
                dropped: c.dropped,
                misses: c.misses.iter().map(|m| design_metric(*m)).collect(),
                members: c
                    .members
                    .iter()
                    .map(|m| proto::DesignMember {
                        file: m.file.clone(),
                        id: m.id.clone(),
                        count: m.count,
                        cr: m.cr.clone(),
                    })
                    .collect(),
                files: c.files.clone(),
                hp_fraction: c.hp_fraction,
                xp: c.xp,
                cr: c.cr.clone(),
                cr_minus_apl: c.cr_minus_apl,
                book: label(c.book),
                simulated: label(Some(c.simulated)),
                party: Some(metrics(&c.party)),
                hp_lost_share: c.hp_lost_share,
                hp_lost_share_interval: Some(band(c.hp_lost_share_interval)),
                worth_reading: c.worth_reading.as_ref().map(|b| proto::DesignBattle {
                    run: b.run,
                    runs: b.runs,
                    hp_lost: b.hp_lost,
                    some_death: b.some_death,
                    all_down: b.all_down,
                    command: b.command.clone(),
                }),
                plan: c.plan.as_ref().map(|p| proto::DesignPlan {
                    strategy: p.strategy.clone(),
                    better: p.better,
                    p_some_pc_dies: p.p_some_pc_dies,
                    p_some_pc_dies_interval: Some(band(p.p_some_pc_dies_interval)),
                    change: p.change,
                    change_interval: Some(band(p.change_interval)),
                    told_apart: p.told_apart,
                    measured: p.measured,
                }),
            })
            .collect(),
    }
}

fn from_design(d: &proto::DesignResult) -> Result<DesignResult, WireError> {
    let target = d
        .target
        .iter()
        .map(|t| {
            Ok(TargetBand {
                metric: from_design_metric(t.metric, "TargetBand.metric")?,
                low: t.low,
                high: t.high,
            })
        })
        .collect::<Result<_, WireError>>()?;
    let candidates = d
        .candidates
        .iter()
        .map(|c| {
            Ok(DesignCandidate {
                rank: c.rank,
                inside: c.inside,
                confirmed: c.confirmed,
                dropped: c.dropped,
                misses: c
                    .misses
                    .iter()
                    .map(|m| from_design_metric(*m, "DesignCandidate.misses"))
                    .collect::<Result<_, _>>()?,
                members: c
                    .members
                    .iter()
                    .map(|m| DesignMember {
                        file: m.file.clone(),
                        id: m.id.clone(),
                        count: m.count,
                        cr: m.cr.clone(),
                    })
                    .collect(),
                files: c.files.clone(),
                hp_fraction: c.hp_fraction,
                xp: c.xp,
                cr: c.cr.clone(),
                cr_minus_apl: c.cr_minus_apl,
                book: from_label(c.book, "DesignCandidate.book")?,
                simulated: from_label(c.simulated, "DesignCandidate.simulated")?
                    .ok_or(WireError::Missing("DesignCandidate.simulated"))?,
                party: from_metrics(c.party.as_ref(), "DesignCandidate.party")?,
                hp_lost_share: c.hp_lost_share,
                hp_lost_share_interval: from_band(
                    c.hp_lost_share_interval.as_ref(),
                    "DesignCandidate.hp_lost_share_interval",
                )?,
                worth_reading: c.worth_reading.as_ref().map(|b| DesignBattle {
                    run: b.run,
                    runs: b.runs,
                    hp_lost: b.hp_lost,
                    some_death: b.some_death,
                    all_down: b.all_down,
                    command: b.command.clone(),
                }),
                plan: c
                    .plan
                    .as_ref()
                    .map(|p| {
                        Ok::<_, WireError>(DesignPlan {
                            strategy: p.strategy.clone(),
                            better: p.better,
                            p_some_pc_dies: p.p_some_pc_dies,
                            p_some_pc_dies_interval: from_band(
                                p.p_some_pc_dies_interval.as_ref(),
                                "DesignPlan.p_some_pc_dies_interval",
                            )?,
                            change: p.change,
                            change_interval: from_band(
                                p.change_interval.as_ref(),
                                "DesignPlan.change_interval",
                            )?,
                            told_apart: p.told_apart,
                            measured: p.measured,
                        })
                    })
                    .transpose()?,
            })
        })
        .collect::<Result<_, WireError>>()?;
    Ok(DesignResult {
        party: d.party.clone(),
        side: d.side.clone(),
        apl: d.apl,
        target,
        label: from_label(d.label, "DesignResult.label")?,
        window: [d.window_low, d.window_high],
        pool: d.pool.clone(),
        groups_in_window: d.groups_in_window,
        confidence: d.confidence,
        candidates,
    })
}

impl From<&SweepResults> for proto::SweepResults {
    fn from(r: &SweepResults) -> Self {
        proto::SweepResults {
            name: r.name.clone(),
            seed: r.seed,
            party: r.party.clone(),
            rules_version: r.rules_version.clone(),
            scenario: r.scenario.clone(),
            jobs: r
                .jobs
                .iter()
                .map(|j| proto::JobReport {
                    result: Some(Job::from(&j.result)),
                    cells: j.cells.iter().map(proto::CellReport::from).collect(),
                })
                .collect(),
            llm: (!r.llm.is_empty()).then(|| proto::LlmDecisions::from(&r.llm)),
            difficulty: r.difficulty.as_ref().map(proto::BookDifficulty::from),
            map: r.map.clone(),
        }
    }
}

impl From<&Difficulty> for proto::BookDifficulty {
    fn from(d: &Difficulty) -> Self {
        use proto::DifficultyLabel as P;
        let label = match d.label {
            None => P::Unspecified,
            Some(DifficultyLabel::Easy) => P::Easy,
            Some(DifficultyLabel::Average) => P::Average,
            Some(DifficultyLabel::Challenging) => P::Challenging,
            Some(DifficultyLabel::Hard) => P::Hard,
            Some(DifficultyLabel::Epic) => P::Epic,
        };
        proto::BookDifficulty {
            party: d.party.clone(),
            members: d.members.clone(),
            party_size: u32::try_from(d.party_size).unwrap_or(u32::MAX),
            pcs_only: d.pcs_only,
            apl: d.apl,
            xp: d.xp,
            cr: d.cr.clone(),
            cr_minus_apl: d.cr_minus_apl,
            label: label as i32,
            foes: d
                .foes
                .iter()
                .map(|f| proto::FoeRating { id: f.id.clone(), cr: f.cr.clone(), xp: f.xp })
                .collect(),
        }
    }
}

impl TryFrom<&proto::BookDifficulty> for Difficulty {
    type Error = WireError;

    fn try_from(d: &proto::BookDifficulty) -> Result<Self, Self::Error> {
        use proto::DifficultyLabel as P;
        let label = match P::try_from(d.label) {
            Ok(P::Unspecified) => None,
            Ok(P::Easy) => Some(DifficultyLabel::Easy),
            Ok(P::Average) => Some(DifficultyLabel::Average),
            Ok(P::Challenging) => Some(DifficultyLabel::Challenging),
            Ok(P::Hard) => Some(DifficultyLabel::Hard),
            Ok(P::Epic) => Some(DifficultyLabel::Epic),
            Err(_) => return Err(WireError::Enum { field: "BookDifficulty.label", value: d.label }),
        };
        Ok(Difficulty {
            party: d.party.clone(),
            members: d.members.clone(),
            party_size: d.party_size as usize,
            pcs_only: d.pcs_only,
            apl: d.apl,
            xp: d.xp,
            cr: d.cr.clone(),
            cr_minus_apl: d.cr_minus_apl,
            label,
            foes: d.foes.iter().map(|f| FoeRating { id: f.id.clone(), cr: f.cr.clone(), xp: f.xp }).collect(),
        })
    }
}

impl From<&LlmDecisions> for proto::LlmDecisions {
    fn from(d: &LlmDecisions) -> Self {
        proto::LlmDecisions {
            strategies: d
                .strategies
                .iter()
                .map(|s| proto::NlStrategy {
                    side: s.side.clone(),
                    sentence: s.sentence.clone(),
                    strategy: s.strategy.clone(),
                    model: s.model.clone(),
                    prompt_version: s.prompt_version.clone(),
                    answers: s.answers,
                })
                .collect(),
            proposals: d
                .proposals
                .iter()
                .map(|p| proto::LlmProposals {
                    job: p.job,
                    prompt: p.prompt.clone(),
                    side: p.side.clone(),
                    asked: p.asked,
                    strategies: p.strategies.clone(),
                    duplicates: p.duplicates.clone(),
                    model: p.model.clone(),
                    prompt_version: p.prompt_version.clone(),
                    answers: p.answers,
                })
                .collect(),
        }
    }
}

impl From<&proto::LlmDecisions> for LlmDecisions {
    fn from(d: &proto::LlmDecisions) -> Self {
        LlmDecisions {
            strategies: d
                .strategies
                .iter()
                .map(|s| NlStrategy {
                    side: s.side.clone(),
                    sentence: s.sentence.clone(),
                    strategy: s.strategy.clone(),
                    model: s.model.clone(),
                    prompt_version: s.prompt_version.clone(),
                    answers: s.answers,
                })
                .collect(),
            proposals: d
                .proposals
                .iter()
                .map(|p| LlmProposals {
                    job: p.job,
                    prompt: p.prompt.clone(),
                    side: p.side.clone(),
                    asked: p.asked,
                    strategies: p.strategies.clone(),
                    duplicates: p.duplicates.clone(),
                    model: p.model.clone(),
                    prompt_version: p.prompt_version.clone(),
                    answers: p.answers,
                })
                .collect(),
        }
    }
}

impl TryFrom<&proto::SweepResults> for SweepResults {
    type Error = WireError;

    fn try_from(r: &proto::SweepResults) -> Result<Self, Self::Error> {
        let mut results = SweepResults {
            name: r.name.clone(),
            seed: r.seed,
            party: r.party.clone(),
            rules_version: r.rules_version.clone(),
            scenario: r.scenario.clone(),
            jobs: r
                .jobs
                .iter()
                .map(|j| {
                    Ok(JobReport {
                        result: JobResult::try_from(
                            j.result.as_ref().ok_or(WireError::Missing("JobReport.result"))?,
                        )?,
                        cells: j.cells.iter().map(CellReport::try_from).collect::<Result<_, _>>()?,
                    })
                })
                .collect::<Result<_, WireError>>()?,
            llm: r.llm.as_ref().map(LlmDecisions::from).unwrap_or_default(),
            difficulty: r.difficulty.as_ref().map(Difficulty::try_from).transpose()?,
            map: r.map.clone(),
            simulated: None,
        };
        // Derived from the cells, not carried.
        results.simulated = results.measure_baseline();
        Ok(results)
    }
}

impl From<&JobProgress> for proto::JobProgress {
    fn from(p: &JobProgress) -> Self {
        let kind = match p {
            JobProgress::Optimize { leaders } => Kind::Optimize(proto::OptimizeProgress {
                leaders: leaders
                    .iter()
                    .map(|l| proto::Leader { strategy: l.strategy.clone(), p_survives: l.p_survives })
                    .collect(),
            }),
            JobProgress::Minmax { iteration, party_strategy, adversary_strategy, p_survives } => {
                Kind::Minmax(proto::MinmaxProgress {
                    iteration: *iteration,
                    party_strategy: party_strategy.clone(),
                    adversary_strategy: adversary_strategy.clone(),
                    p_survives: *p_survives,
                })
            }
            JobProgress::DangerMap { measured } => {
                Kind::DangerMap(proto::DangerMapProgress { measured: *measured })
            }
            JobProgress::Frontier { criterion: c, value, party_hp } => {
                Kind::Frontier(proto::FrontierProgress {
                    criterion: criterion(*c),
                    value: *value,
                    party_hp: *party_hp,
                })
            }
            JobProgress::Sensitivity { adversary_strategy, criterion: c, delta } => {
                Kind::Sensitivity(proto::SensitivityProgress {
                    adversary_strategy: adversary_strategy.clone(),
                    criterion: criterion(*c),
                    delta: *delta,
                })
            }
        };
        proto::JobProgress { kind: Some(kind) }
    }
}

impl TryFrom<&proto::JobProgress> for JobProgress {
    type Error = WireError;

    fn try_from(p: &proto::JobProgress) -> Result<Self, Self::Error> {
        Ok(match p.kind.as_ref().ok_or(WireError::Missing("JobProgress.kind"))? {
            Kind::Optimize(o) => JobProgress::Optimize {
                leaders: o
                    .leaders
                    .iter()
                    .map(|l| Leader { strategy: l.strategy.clone(), p_survives: l.p_survives })
                    .collect(),
            },
            Kind::Minmax(m) => JobProgress::Minmax {
                iteration: m.iteration,
                party_strategy: m.party_strategy.clone(),
                adversary_strategy: m.adversary_strategy.clone(),
                p_survives: m.p_survives,
            },
            Kind::DangerMap(d) => JobProgress::DangerMap { measured: d.measured },
            Kind::Frontier(f) => JobProgress::Frontier {
                criterion: from_criterion(f.criterion, "FrontierProgress.criterion")?,
                value: f.value,
                party_hp: f.party_hp,
            },
            Kind::Sensitivity(s) => JobProgress::Sensitivity {
                adversary_strategy: s.adversary_strategy.clone(),
                criterion: from_criterion(s.criterion, "SensitivityProgress.criterion")?,
                delta: s.delta,
            },
        })
    }
}

impl From<SweepStatus> for proto::SweepStatus {
    fn from(s: SweepStatus) -> Self {
        match s {
            SweepStatus::Running => proto::SweepStatus::Running,
            SweepStatus::Done => proto::SweepStatus::Done,
            SweepStatus::Failed => proto::SweepStatus::Failed,
            SweepStatus::Cancelled => proto::SweepStatus::Cancelled,
        }
    }
}

fn from_status(value: i32) -> Result<SweepStatus, WireError> {
    match proto::SweepStatus::try_from(value) {
        Ok(proto::SweepStatus::Running) => Ok(SweepStatus::Running),
        Ok(proto::SweepStatus::Done) => Ok(SweepStatus::Done),
        Ok(proto::SweepStatus::Failed) => Ok(SweepStatus::Failed),
        Ok(proto::SweepStatus::Cancelled) => Ok(SweepStatus::Cancelled),
        Ok(proto::SweepStatus::Unspecified) | Err(_) => {
            Err(WireError::Enum { field: "SweepInfo.status", value })
        }
    }
}

impl From<&Stats> for proto::Stats {
    fn from(s: &Stats) -> Self {
        proto::Stats {
            shards_total: s.shards_total,
            shards_computed: s.shards_computed,
            shards_from_cache: s.shards_from_cache,
            shards_queued: s.shards_queued,
            shards_leased: s.shards_leased,
            cells_total: s.cells_total,
            cells_done: s.cells_done,
            runs_total: s.runs_total,
            runs_done: s.runs_done,
            runs_worst_case: s.runs_worst_case,
            leases_at_end: s.leases_at_end,
        }
    }
}

impl From<&proto::Stats> for Stats {
    fn from(s: &proto::Stats) -> Self {
        Stats {
            shards_total: s.shards_total,
            shards_computed: s.shards_computed,
            shards_from_cache: s.shards_from_cache,
            shards_queued: s.shards_queued,
            shards_leased: s.shards_leased,
            cells_total: s.cells_total,
            cells_done: s.cells_done,
            runs_total: s.runs_total,
            runs_done: s.runs_done,
            runs_worst_case: s.runs_worst_case,
            leases_at_end: s.leases_at_end,
        }
    }
}

impl From<&SweepInfo> for proto::SweepInfo {
    fn from(i: &SweepInfo) -> Self {
        proto::SweepInfo {
            id: i.id,
            name: i.name.clone(),
            status: proto::SweepStatus::from(i.status) as i32,
            stats: Some(proto::Stats::from(&i.stats)),
            error: i.error.clone(),
            results: i.results.as_deref().map(proto::SweepResults::from),
            progress: i.progress.iter().map(proto::JobProgress::from).collect(),
        }
    }
}

impl TryFrom<&proto::SweepInfo> for SweepInfo {
    type Error = WireError;

    fn try_from(i: &proto::SweepInfo) -> Result<Self, Self::Error> {
        Ok(SweepInfo {
            id: i.id,
            name: i.name.clone(),
            status: from_status(i.status)?,
            stats: Stats::from(i.stats.as_ref().ok_or(WireError::Missing("SweepInfo.stats"))?),
            error: i.error.clone(),
            results: i.results.as_ref().map(SweepResults::try_from).transpose()?.map(Arc::new),
            progress: i.progress.iter().map(JobProgress::try_from).collect::<Result<_, _>>()?,
        })
    }
}

impl From<&FinishedCell> for proto::FinishedCell {
    fn from(c: &FinishedCell) -> Self {
        proto::FinishedCell {
            job: u32::try_from(c.job).unwrap_or(u32::MAX),
            cell: Some(proto::CellReport::from(&c.cell)),
        }
    }
}

impl TryFrom<&proto::FinishedCell> for FinishedCell {
    type Error = WireError;

    fn try_from(c: &proto::FinishedCell) -> Result<Self, Self::Error> {
        Ok(FinishedCell {
            job: c.job as usize,
            cell: CellReport::try_from(c.cell.as_ref().ok_or(WireError::Missing("FinishedCell.cell"))?)?,
        })
    }
}

impl From<&WorkerInfo> for proto::WorkerInfo {
    fn from(w: &WorkerInfo) -> Self {
        proto::WorkerInfo {
            worker_id: w.id.clone(),
            name: w.name.clone(),
            threads: w.threads,
            leases: w.leases,
            shards_done: w.shards_done,
            last_seen_ms: w.last_seen_ms,
        }
    }
}

impl From<&proto::WorkerInfo> for WorkerInfo {
    fn from(w: &proto::WorkerInfo) -> Self {
        WorkerInfo {
            id: w.worker_id.clone(),
            name: w.name.clone(),
            threads: w.threads,
            leases: w.leases,
            shards_done: w.shards_done,
            last_seen_ms: w.last_seen_ms,
        }
    }
}

impl From<&CoordinatorStats> for proto::CoordinatorStats {
    fn from(c: &CoordinatorStats) -> Self {
        proto::CoordinatorStats {
            shards_queued: c.shards_queued,
            shards_leased: c.shards_leased,
            shards_done: c.shards_done,
            cache_hits: c.cache_hits,
            workers: c.workers,
            runs_per_second: c.runs_per_second,
            runs_done: c.runs_done,
        }
    }
}

impl From<&proto::CoordinatorStats> for CoordinatorStats {
    fn from(c: &proto::CoordinatorStats) -> Self {
        CoordinatorStats {
            shards_queued: c.shards_queued,
            shards_leased: c.shards_leased,
            shards_done: c.shards_done,
            cache_hits: c.cache_hits,
            workers: c.workers,
            runs_per_second: c.runs_per_second,
            runs_done: c.runs_done,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    fn metrics(p: f64) -> DangerMetrics {
        DangerMetrics {
            runs: 10,
            p_survives: p,
            win_band: (0.1, 0.9),
            confidence: 0.95,
            p_survives_ci: (0.2, 0.8),
            p_tpk_ci: (0.0, 0.3),
            p_any_death_ci: (0.1, 0.4),
            p_fled: 0.2,
            hp_lost_se: 1.5,
            rounds_se: 0.25,
            ..DangerMetrics::default()
        }
    }

    fn cell() -> CellReport {
        CellReport {
            index: 3,
            party_strategy: "lowest_hp".into(),
            adversary_strategy: "default".into(),
            hp: BTreeMap::from([("a".to_string(), 0.5), ("b".to_string(), 1.0)]),
            seed: 7,
            runs: 10,
            wins: BTreeMap::from([("a".to_string(), 4), ("b".to_string(), 6)]),
            draws: 0,
            party_win_rate: 0.4,
            party_win_band: [0.1, 0.7],
            party_all_down_rate: 0.6,
            party_death_rate: 0.3,
            party_fled_rate: 0.1,
            mean_rounds: 4.5,
            party_hp_lost: HpLost { mean: 3.5, p50: 3, p90: 6, max: 7 },
            combatants: vec![CombatantReport {
                id: "x".into(),
                side: "a".into(),
                hp_max: 6,
                start_hp: 3,
                mean_final_hp: -1.5,
                deaths: 5,
                hits: 9,
                crits: 1,
                damage_dealt: 20,
                damage_taken: 30,
                healing_given: 0,
                slots_spent: 2,
                uses_spent: 1,
                items_spent: 1,
            }],
        }
    }

    fn results() -> SweepResults {
        let layer = DangerLayer {
            aware: BTreeMap::from([("a".to_string(), false)]),
            copies: BTreeMap::from([("b".to_string(), vec!["orc".to_string(), "orc".to_string()])]),
            points: vec![DangerPoint {
                party_hp: 0.5,
                adversary_hp: 1.0,
                level: 1,
                value: 0.25,
                crossed: true,
                party: metrics(0.5),
                adversary: metrics(0.9),
                interval: [0.2, 0.3],
                undecided: true,
                resampled: 2,
            }],
            squares: vec![DangerSquare { party_hp: [0.5, 1.0], adversary_hp: [0.5, 1.0], level: 0 }],
            most_dangerous: Some([0.5, 1.0]),
        };
        let job = |result| JobReport { result, cells: vec![cell()] };
        SweepResults {
            name: "t".into(),
            seed: 7,
            party: "a".into(),
            rules_version: "r".into(),
            scenario: "00".into(),
            jobs: vec![
                job(JobResult::Grid(())),
                job(JobResult::Design(DesignResult {
                    party: "a".into(),
                    side: "b".into(),
                    apl: 4,
                    target: vec![TargetBand { metric: DesignMetric::PSomePcDies, low: 0.2, high: 0.4 }],
                    label: Some(DifficultyLabel::Hard),
                    window: [-1, 4],
                    pool: vec!["m/ghoul.json".into()],
                    groups_in_window: 9,
                    confidence: 0.95,
                    candidates: vec![DesignCandidate {
                        rank: 1,
                        inside: true,
                        confirmed: false,
                        dropped: false,
                        misses: vec![DesignMetric::PTpk],
                        members: vec![DesignMember {
                            file: "m/ghoul.json".into(),
                            id: "ghoul".into(),
                            count: 2,
                            cr: "1".into(),
                        }],
                        files: vec!["m/ghoul.json".into(), "m/ghoul.json".into()],
                        hp_fraction: 0.75,
                        xp: 800,
                        cr: Some("3".into()),
                        cr_minus_apl: Some(-1),
                        book: None,
                        simulated: DifficultyLabel::Epic,
                        party: metrics(0.6),
                        hp_lost_share: 0.3,
                        hp_lost_share_interval: [0.2, 0.4],
                        worth_reading: Some(DesignBattle {
                            run: 17,
                            runs: 160,
                            hp_lost: 61,
                            some_death: true,
                            all_down: false,
                            command: "pf1e sim --show run 17".into(),
                        }),
                        plan: Some(DesignPlan {
                            strategy: "retreat=0.5".into(),
                            better: true,
                            p_some_pc_dies: 0.21,
                            p_some_pc_dies_interval: [0.15, 0.28],
                            change: -0.08,
                            change_interval: [-0.14, -0.02],
                            told_apart: true,
                            measured: 9,
                        }),
                    }],
                })),
                job(JobResult::Optimize(OptimizeResult {
                    adversary_strategy: "healer".into(),
                    spent_runs: 40,
                    playbook: vec![PlaybookEntry {
                        rank: 1,
                        strategy: "default".into(),
                        stage: Stage::LlmProposal,
                        runs: 20,
                        raced: 1,
                        tied_with_leader: false,
                        party: metrics(0.8),
                        adversary: metrics(0.2),
                        same_as: Some("spell_policy=none".into()),
                        vs_leader: Some(PairedDelta { runs: 20, mean: -0.05, interval: [-0.2, 0.1] }),
                        pareto: true,
                        constraints: Some(ConstraintStatus::Unlikely),
                    }],
                    objective: Criterion::PTpk,
                    confidence: 0.95,
                    comparison_z: 2.8,
                    comparisons: 10,
                    none_survives: true,
                    least_bad: Some("default".into()),
                    levers_that_matter: vec!["retreat".into()],
                    pareto_criteria: vec![Criterion::PWin, Criterion::PAnyDeath, Criterion::ExpectedHpLost],
                    constraints: vec!["p_tpk <= 0.02".into()],
                    none_feasible: true,
                    search: Some(SearchResult {
                        ranges: vec!["retreat: [0, 0.9]".into()],
                        levers: vec!["retreat".into()],
                        base: "default".into(),
                        batches: 2,
                        points_per_batch: 3,
                        spent_runs: 120,
                        points: vec![SearchPoint {
                            strategy: "retreat=0.347".into(),
                            values: vec![0.347],
                            batch: 1,
                            runs: 80,
                            objective: 0.9,
                            interval: [0.85, 0.95],
                            posterior: 0.89,
                            confirmed: true,
                            front: true,
                        }],
                        best: Some("retreat=0.347".into()),
                        vs_grid: Some(SearchVersus {
                            strategy: "retreat=0.5".into(),
                            delta: PairedDelta { runs: 80, mean: 0.01, interval: [-0.02, 0.04] },
                            significant: false,
                        }),
                        importance: Some(Box::new(RangeImportance {
                            points: 7,
                            design: 64,
                            levers: vec![RangeLeverImportance {
                                lever: "retreat".into(),
                                share: 1.0,
                                noise: 0.2,
                            }],
                            interactions: 0.0,
                            spread: 0.01,
                            uncertainty: 0.004,
                        })),
                        pareto: vec![Criterion::PAnyDeath, Criterion::ExpectedHpLost],
                    }),
                    importance: Some(Importance {
                        cells: 32,
                        levers: vec![LeverImportance {
                            lever: "target".into(),
                            share: 0.6,
                            noise: 0.01,
                            significant: true,
                        }],
                        interactions: 0.1,
                    }),
                })),
                job(JobResult::Minmax(MinmaxResult {
                    converged: true,
                    iterations: vec![MinmaxIteration {
                        iteration: 1,
                        party_strategy: "default".into(),
                        adversary_strategy: "weakest_ac".into(),
                        party: metrics(0.3),
                        adversary: metrics(0.7),
                        party_tied: vec!["lowest_hp".into()],
                        adversary_tied: vec![],
                    }],
                    llm_proposals: vec!["weakest_ac".into()],
                })),
                job(JobResult::DangerMap(DangerMapResult::new(
                    Criterion::PAnyDeath,
                    0.1,
                    "default".into(),
                    "lowest_hp".into(),
                    1,
                    vec![layer],
                ))),
                job(JobResult::Frontier(FrontierResult {
                    criterion: Criterion::PSurvives,
                    target: 0.4,
                    party_strategy: "default".into(),
                    adversary_strategy: "default".into(),
                    min_fraction: 0.1,
                    max_fraction: 1.0,
                    precision: 0.05,
                    fraction: Some(0.65),
                    crossed: Some(Crossing::AtOrAbove),
                    probes: vec![FrontierProbe {
                        party_hp: 0.1,
                        value: 0.9,
                        crossed: false,
                        interval: [0.8, 0.95],
                        undecided: false,
                        runs: 40,
                    }],
                    crossings: vec![
                        FrontierCrossing { fraction: 0.3, crossed: Crossing::AtOrBelow, undecided: true },
                        FrontierCrossing { fraction: 0.65, crossed: Crossing::AtOrAbove, undecided: false },
                    ],
                    monotone: false,
                })),
                job(JobResult::Sensitivity(SensitivityResult {
                    criterion: Criterion::ExpectedHpLost,
                    party_strategy: "default".into(),
                    baseline: None,
                    levers: vec![SensitivityLever {
                        rank: 1,
                        adversary_strategy: "healer".into(),
                        value: 4.0,
                        delta: -6.0,
                        party: metrics(0.5),
                        delta_interval: [-8.0, -4.0],
                        significant: true,
                    }],
                    confidence: 0.95,
                    comparison_z: 2.9,
                })),
                job(JobResult::Contribution(ContributionResult {
                    party: "players".into(),
                    party_strategy: "default".into(),
                    adversary_strategy: "lowest_hp".into(),
                    combatants: vec![
                        Contribution {
                            id: "oni".into(),
                            side: "players".into(),
                            damage_per_round: 4.5,
                            healing: 3.25,
                            conditions: 0.5,
                            without: Some(Without {
                                runs: 200,
                                p_win: 0.4,
                                p_pc_dies: 0.3,
                                win_change: -0.25,
                                win_interval: [-0.3, -0.2],
                                death_change: 0.125,
                                death_interval: [0.05, 0.2],
                                significant: true,
                            }),
                        },
                        Contribution {
                            id: "orc".into(),
                            side: "monsters".into(),
                            damage_per_round: 2.0,
                            healing: 0.0,
                            conditions: 0.0,
                            without: None,
                        },
                    ],
                    confidence: 0.95,
                    comparison_z: 2.4,
                })),
            ],
            llm: LlmDecisions {
                strategies: vec![NlStrategy {
                    side: "party".into(),
                    sentence: "focus the healer".into(),
                    strategy: "healer".into(),
                    model: "m".into(),
                    prompt_version: "fr:strategy_compile:0123456789ab".into(),
                    answers: 2,
                }],
                proposals: vec![LlmProposals {
                    job: 2,
                    prompt: "red_team".into(),
                    side: "adversary".into(),
                    asked: 3,
                    strategies: vec!["weakest_ac".into()],
                    duplicates: vec!["default".into()],
                    model: "m".into(),
                    prompt_version: "fr:red_team:0123456789ab".into(),
                    answers: 1,
                }],
            },
            map: "Arena".into(),
            simulated: None,
            difficulty: Some(Difficulty {
                party: "a".into(),
                members: vec!["goblin".into(), "goblin-2".into()],
                party_size: 3,
                pcs_only: false,
                apl: 0,
                xp: 270,
                cr: Some("1/2".into()),
                cr_minus_apl: Some(0),
                label: Some(DifficultyLabel::Average),
                foes: vec![
                    FoeRating { id: "orc".into(), cr: Some("1/3".into()), xp: 135 },
                    FoeRating { id: "thing".into(), cr: None, xp: 0 },
                ],
            }),
        }
    }

    #[test]
    fn the_simulated_difficulty_is_derived_from_the_baseline_cell_and_again_after_the_wire() {
        let mut r = results();
        assert_eq!(r.measure_baseline(), None, "no cell plays both default plans at full hit points");
        let mut base = cell();
        base.party_strategy = "default".into();
        base.hp = BTreeMap::from([("a".to_string(), 1.0), ("b".to_string(), 1.0)]);
        r.jobs[0].cells.push(base);
        let s = r.measure_baseline().unwrap();
        // 10 battles; the party's one member started at 3 HP and lost 3.5 on average
        // (the cell's mean), spent 2 slots, 1 use and 1 potion in all.
        assert_eq!(s.runs, 10);
        assert_eq!(
            (s.figures.p_win, s.figures.p_pc_dies, s.figures.p_all_down, s.figures.hp_lost),
            (0.4, 0.3, 0.6, 3.5)
        );
        assert_eq!(s.figures.p_fled, 0.1);
        assert_eq!(
            (s.figures.hp_lost_share, s.figures.slots_spent, s.figures.uses_spent, s.figures.items_spent),
            (3.5 / 3.0, 0.2, 0.1, 0.1)
        );
        r.simulated = Some(s);
        // Not carried on the wire, derived again on arrival.
        assert_eq!(SweepResults::try_from(&proto::SweepResults::from(&r)), Ok(r.clone()));
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["simulated"]["runs"], 10);
        assert_eq!(json["simulated"]["p_win"], 0.4);
        assert_eq!(json["simulated"]["slots_spent"], 0.2);
    }

    fn day_result() -> DayResult {
        use pf1e_engine::day::plan::PlanResult;
        use pf1e_engine::day::summary::{DaySummary, FightSummary, MemberSummary, Rate};
        let rate = |count| Rate { count, of: 10, rate: count as f64 / 10.0, low: 0.1, high: 0.9 };
        DayResult {
            seed: 3,
            summary: DaySummary {
                name: "d".into(),
                runs: 10,
                confidence: 0.9973,
                completed: rate(7),
                some_death: rate(2),
                fled: rate(1),
                fights: vec![FightSummary {
                    name: "f".into(),
                    reached: 10,
                    won: rate(8),
                    deaths: rate(2),
                    broke_here: rate(2),
                    hp_before: 0.9,
                    slots_before: 4.5,
                    uses_before: 2.0,
                    standing_before: 3.9,
                    rounds: 4.2,
                }],
                members: vec![MemberSummary { name: "m".into(), dead: rate(2), hp_end: 11.5 }],
                breaking_point: Some(0),
                healed_between: 3.0,
                slots_spent_between: 1.0,
                charges_spent_between: 0.5,
            },
            plans: vec![PlanResult {
                name: "p".into(),
                completed: rate(9),
                some_death: rate(1),
                completed_change: 0.2,
                death_change: -0.1,
                significant: true,
            }],
        }
    }

    #[test]
    fn every_job_kind_survives_the_wire_and_json_whole() {
        let mut r = results();
        r.jobs.push(JobReport { result: JobResult::Day(day_result()), cells: Vec::new() });
        assert_eq!(SweepResults::try_from(&proto::SweepResults::from(&r)), Ok(r.clone()));
        let json = serde_json::to_string(&r).unwrap();
        assert_eq!(serde_json::from_str::<SweepResults>(&json).unwrap(), r);
        let info = SweepInfo {
            id: 4,
            name: "t".into(),
            status: SweepStatus::Done,
            stats: Stats { cells_done: 3, ..Stats::default() },
            error: String::new(),
            results: Some(Arc::new(r)),
            progress: vec![
                JobProgress::Optimize {
                    leaders: vec![Leader { strategy: "default".into(), p_survives: 0.5 }],
                },
                JobProgress::Frontier { criterion: Criterion::PTpk, value: 0.2, party_hp: 0.5 },
            ],
        };
        assert_eq!(SweepInfo::try_from(&proto::SweepInfo::from(&info)), Ok(info));
    }

    #[test]
    fn unknown_enum_values_and_missing_parts_are_refused() {
        let mut p = proto::SweepResults::from(&results());
        for job in &mut p.jobs {
            if let Some(Job::Frontier(f)) = job.result.as_mut() {
                f.criterion = 99;
            }
        }
        assert_eq!(
            SweepResults::try_from(&p),
            Err(WireError::Enum { field: "FrontierResult.criterion", value: 99 })
        );
        let mut p = proto::SweepResults::from(&results());
        if let Some(Job::Design(d)) = p.jobs[1].result.as_mut() {
            d.candidates[0].misses = vec![0];
        }
        assert_eq!(
            SweepResults::try_from(&p),
            Err(WireError::Enum { field: "DesignCandidate.misses", value: 0 })
        );
        let mut p = proto::SweepResults::from(&results());
        p.jobs[0].result = None;
        assert_eq!(SweepResults::try_from(&p), Err(WireError::Missing("JobReport.result")));
        let info = proto::SweepInfo { status: 0, stats: Some(proto::Stats::default()), ..Default::default() };
        assert!(matches!(SweepInfo::try_from(&info), Err(WireError::Enum { .. })));
    }
}
