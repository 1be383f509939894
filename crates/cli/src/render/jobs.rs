//! Reports of finished sweeps: one aligned text table (or Markdown table)
//! per job, from the typed results, so `pf1e run` and `ctl results` print
//! the same report.

use pf1e_wire::results::{
    Crossing, DangerMapResult, DangerMetrics, DangerPoint, FrontierResult, JobResult, MinmaxResult,
    OptimizeResult, SensitivityResult, SweepResults,
};
use pf1e_wire::status::SweepInfo;

/// Output style.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// Aligned plain-text columns.
    Text,
    /// Markdown tables.
    Markdown,
}

/// A table: header and rows of cells.
pub(super) fn table(style: Style, headers: &[&str], rows: &[Vec<String>]) -> String {
    let mut out = String::new();
    match style {
        Style::Text => {
            let widths: Vec<usize> = (0..headers.len())
                .map(|i| {
                    rows.iter()
                        .map(|r| r.get(i).map_or(0, |c| c.chars().count()))
                        .max()
                        .unwrap_or(0)
                        .max(headers[i].chars().count())
                })
                .collect();
            let line = |cells: Vec<&str>| {
                let mut l = cells
                    .iter()
                    .zip(&widths)
                    .map(|(c, w)| format!("{c}{}", " ".repeat(w - c.chars().count())))
                    .collect::<Vec<_>>()
                    .join("  ");
                l.truncate(l.trim_end().len());
                l + "\n"
            };
            out += &line(headers.to_vec());
            let dashes: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
            out += &line(dashes.iter().map(String::as_str).collect());
            for r in rows {
                out += &line(r.iter().map(String::as_str).collect());
            }
        }
        Style::Markdown => {
            out += &format!("| {} |\n", headers.join(" | "));
            out += &format!("|{}|\n", headers.iter().map(|_| "---").collect::<Vec<_>>().join("|"));
            for r in rows {
                out += &format!(
                    "| {} |\n",
                    r.iter().map(|c| c.replace('|', "\\|")).collect::<Vec<_>>().join(" | ")
                );
            }
        }
    }
    out
}

fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

fn num(x: f64, digits: usize) -> String {
    format!("{x:.digits$}")
}

/// A number as JSON writes it (`1.0`, `0.05`), as the sweep file's value reads.
fn json_num(x: f64) -> String {
    serde_json::to_string(&x).unwrap_or_default()
}

fn win(m: &DangerMetrics) -> String {
    format!("{} [{:.1}, {:.1}]", pct(m.win_rate), m.win_band.0 * 100.0, m.win_band.1 * 100.0)
}

pub(super) fn heading(style: Style, text: &str) -> String {
    match style {
        Style::Text => format!("{text}\n{}\n", "=".repeat(text.chars().count())),
        Style::Markdown => format!("## {text}\n\n"),
    }
}

/// The playbook of an optimize job.
fn optimize(style: Style, r: &OptimizeResult) -> String {
    let rows: Vec<Vec<String>> = r
        .playbook
        .iter()
        .map(|e| {
            let p = &e.party;
            let rank = e.rank.to_string();
            let stage = match e.stage {
                pf1e_wire::results::Stage::Grid => "grid",
                pf1e_wire::results::Stage::Refine => "refine",
                pf1e_wire::results::Stage::Candidate => "candidate",
                pf1e_wire::results::Stage::LlmProposal => "llm",
            };
            vec![
                if e.tied_with_leader { format!("{rank}≈1") } else { rank },
                e.strategy.clone(),
                stage.to_string(),
                e.runs.to_string(),
                pct(p.p_survives),
                pct(p.p_tpk),
                pct(p.p_any_death),
                num(p.expected_hp_lost, 1),
                num(p.worst_decile_hp, 1),
                num(p.expected_rounds, 1),
                win(p),
            ]
        })
        .collect();
    format!(
        "adversary: {}; {} runs spent; ≈1: statistically tied with the leader (3σ)\n\n{}",
        r.adversary_strategy,
        r.spent_runs,
        table(
            style,
            &[
                "Rank",
                "Strategy",
                "Stage",
                "Runs",
                "P(survive)",
                "P(TPK)",
                "P(>=1 death)",
                "HP lost",
                "Worst-decile HP",
                "Rounds",
                "Win% (3σ)"
            ],
            &rows
        )
    )
}

fn minmax(style: Style, r: &MinmaxResult) -> String {
    let rows: Vec<Vec<String>> = r
        .iterations
        .iter()
        .map(|it| {
            let (p, a) = (&it.party, &it.adversary);
            vec![
                it.iteration.to_string(),
                it.party_strategy.clone(),
                it.adversary_strategy.clone(),
                pct(p.p_survives),
                pct(p.p_tpk),
                num(p.expected_hp_lost, 1),
                pct(a.p_survives),
                pct(a.p_tpk),
                num(a.expected_hp_lost, 1),
            ]
        })
        .collect();
    let mut note =
        if r.converged { "converged: the last iteration kept the pair" } else { "not converged" }.to_string();
    if !r.llm_proposals.is_empty() {
        note += &format!("; adversaries proposed by the LLM: {}", r.llm_proposals.join("; "));
    }
    format!(
        "{note}\n\n{}",
        table(
            style,
            &[
                "Iter",
                "Party",
                "Adversary",
                "P(party-survive)",
                "P(party-TPK)",
                "Party-HP",
                "P(adv-survive)",
                "P(adv-TPK)",
                "Adv-HP"
            ],
            &rows
        )
    )
}

fn danger_map(style: Style, r: &DangerMapResult) -> String {
    if r.layers.len() <= 1 {
        return danger_layer(style, r, &r.points);
    }
    let mut out = String::new();
    for (i, l) in r.layers.iter().enumerate() {
        out += &format!(
            "layer {}: aware {} copies {}\n",
            i + 1,
            serde_json::to_string(&l.aware).unwrap_or_default(),
            serde_json::to_string(&l.copies).unwrap_or_default()
        );
        out += &danger_layer(style, r, &l.points);
        out += "\n";
    }
    out
}

fn danger_layer(style: Style, r: &DangerMapResult, points: &[DangerPoint]) -> String {
    let key = |v: f64| (v * 1e6).round() as i64;
    let mut ps: Vec<i64> = points.iter().map(|p| key(p.party_hp)).collect();
    let mut as_: Vec<i64> = points.iter().map(|p| key(p.adversary_hp)).collect();
    ps.sort_unstable();
    ps.dedup();
    as_.sort_unstable();
    as_.dedup();
    let headers: Vec<String> = std::iter::once("Party\\Adv".to_string())
        .chain(as_.iter().map(|a| format!("adv={}", *a as f64 / 1e6)))
        .collect();
    let rows: Vec<Vec<String>> = ps
        .iter()
        .rev()
        .map(|&p| {
            let mut row = vec![format!("party={}", p as f64 / 1e6)];
            for &a in &as_ {
                let cell = points.iter().find(|x| key(x.party_hp) == p && key(x.adversary_hp) == a);
                row.push(cell.map_or("·".into(), |c| {
                    format!(
                        "{}/{}{}",
                        pct(c.party.p_survives),
                        pct(c.adversary.p_survives),
                        if c.crossed { "!" } else { "" }
                    )
                }));
            }
            row
        })
        .collect();
    let h: Vec<&str> = headers.iter().map(String::as_str).collect();
    format!(
        "cells: party survive% / adversary survive%; ! = {} crossed {} (party {} vs adversary {}); · = not measured (refined elsewhere)\n\n{}",
        r.criterion.name(),
        json_num(r.threshold),
        r.party_strategy,
        r.adversary_strategy,
        table(style, &h, &rows)
    )
}

fn frontier(style: Style, r: &FrontierResult) -> String {
    let c = r.criterion.name();
    let line = match r.fraction {
        Some(f) => {
            let side = match r.crossed {
                Some(Crossing::AtOrBelow) => format!("crossed at party hp_fraction {f:.2} and below"),
                Some(Crossing::AtOrAbove) => format!("crossed at party hp_fraction {f:.2} and above"),
                Some(Crossing::Everywhere) => "crossed over the whole range".to_string(),
                None => format!("party hp_fraction = {f:.2}"),
            };
            format!("frontier {c} {}: {side}", json_num(r.target))
        }
        None => format!(
            "no frontier for {c} {} in [{:.2}, {:.2}]",
            json_num(r.target),
            r.min_fraction,
            r.max_fraction
        ),
    };
    let rows: Vec<Vec<String>> = r
        .probes
        .iter()
        .map(|p| {
            vec![num(p.party_hp, 3), num(p.value, 3), if p.crossed { "yes".into() } else { "no".into() }]
        })
        .collect();
    format!("{line}\n\n{}", table(style, &["Party HP", c, "Crossed"], &rows))
}

fn sensitivity(style: Style, r: &SensitivityResult) -> String {
    let c = r.criterion.name();
    let prob = r.criterion.is_probability();
    let fmt = |v: Option<f64>, signed: bool| match (v, prob, signed) {
        (Some(x), true, true) => format!("{:+.1}%", x * 100.0),
        (Some(x), true, false) => format!("{:.1}%", x * 100.0),
        (Some(x), false, true) => format!("{x:+.1}"),
        (Some(x), false, false) => format!("{x:.1}"),
        (None, ..) => "-".into(),
    };
    let rows: Vec<Vec<String>> = r
        .levers
        .iter()
        .map(|l| {
            vec![
                l.rank.to_string(),
                l.adversary_strategy.clone(),
                fmt(Some(l.value), false),
                fmt(Some(l.delta), true),
            ]
        })
        .collect();
    format!(
        "party {}: {c} against the default adversary = {}\n\n{}",
        r.party_strategy,
        fmt(r.baseline, false),
        table(style, &["Rank", "Levers", "Value", "Delta"], &rows)
    )
}

/// The report of one job, or `None` for kinds without their own layout (a grid).
pub fn job(style: Style, result: &JobResult) -> Option<String> {
    Some(match result {
        JobResult::Grid(()) => return None,
        JobResult::Optimize(r) => optimize(style, r),
        JobResult::Minmax(r) => minmax(style, r),
        JobResult::DangerMap(r) => danger_map(style, r),
        JobResult::Frontier(r) => frontier(style, r),
        JobResult::Sensitivity(r) => sensitivity(style, r),
    })
}

/// The report of every analysis job of a sweep's results.
pub fn report(style: Style, results: &SweepResults) -> String {
    let mut out = String::new();
    if style == Style::Markdown {
        out += &format!(
            "# {}\n\nseed {}, party {}, rules {}\n\n",
            results.name, results.seed, results.party, results.rules_version
        );
    }
    out += &super::llm::decisions(style, &results.llm);
    for (i, j) in results.jobs.iter().enumerate() {
        if let Some(body) = job(style, &j.result) {
            out += &heading(style, &format!("job {} ({})", i + 1, j.result.kind()));
            out += &body;
            out += "\n";
        }
    }
    out
}

/// A finished sweep for people: its state, then one line per cell of each
/// grid job (analysis jobs have their own layouts, see [`report`]), then
/// where its shards came from.
pub fn sweep(info: &SweepInfo) -> String {
    let mut out = format!("sweep {} ({}): {}\n", info.id, info.name, info.status);
    let Some(results) = info.results.as_deref() else { return out };
    for (j, job) in results.jobs.iter().enumerate() {
        if !matches!(job.result, JobResult::Grid(())) {
            continue;
        }
        out += &format!("job {} ({})\n", j + 1, job.result.kind());
        out += &format!(
            "  {:<28} {:<20} {:>6} {:>17} {:>7} {:>9}\n",
            "hp fractions",
            "strategies",
            "runs",
            format!("{} win (3σ)", results.party),
            "rounds",
            "hp lost"
        );
        for c in &job.cells {
            let hp: Vec<String> = c.hp.iter().map(|(s, f)| format!("{s}={f}")).collect();
            let strategies = format!("{}/{}", c.party_strategy, c.adversary_strategy);
            out += &format!(
                "  {:<28} {:<20} {:>6} {:>5.1}% [{:>4.1}-{:>5.1}] {:>7.2} {:>9.2}\n",
                hp.join(" "),
                strategies,
                c.runs,
                c.party_win_rate * 100.0,
                c.party_win_band[0] * 100.0,
                c.party_win_band[1] * 100.0,
                c.mean_rounds,
                c.party_hp_lost.mean
            );
        }
    }
    let s = &info.stats;
    out += &format!(
        "shards: {} total, {} computed, {} from cache\n",
        s.shards_total, s.shards_computed, s.shards_from_cache
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use pf1e_wire::results::{Criterion, FrontierProbe, Lever};

    #[test]
    fn text_tables_align_and_markdown_escapes_bars() {
        let rows = vec![vec!["a|b".to_string(), "1".to_string()], vec!["long name".into(), "22".into()]];
        assert_eq!(
            table(Style::Text, &["N", "V"], &rows),
            "N          V\n---------  --\na|b        1\nlong name  22\n"
        );
        assert_eq!(
            table(Style::Markdown, &["N", "V"], &rows),
            "| N | V |\n|---|---|\n| a\\|b | 1 |\n| long name | 22 |\n"
        );
    }

    #[test]
    fn a_frontier_says_on_which_side_it_crosses() {
        let r = FrontierResult {
            criterion: Criterion::PTpk,
            target: 1.0,
            party_strategy: "default".into(),
            adversary_strategy: "default".into(),
            min_fraction: 0.25,
            max_fraction: 1.0,
            precision: 0.05,
            fraction: Some(0.35),
            crossed: Some(Crossing::AtOrBelow),
            probes: vec![FrontierProbe { party_hp: 0.25, value: 0.5, crossed: true }],
        };
        let text = frontier(Style::Text, &r);
        assert!(
            text.starts_with("frontier p_tpk 1.0: crossed at party hp_fraction 0.35 and below\n\n"),
            "{text}"
        );
        assert!(text.contains("0.250     0.500  yes"), "{text}");
        let none = frontier(Style::Text, &FrontierResult { fraction: None, crossed: None, ..r });
        assert!(none.starts_with("no frontier for p_tpk 1.0 in [0.25, 1.00]"), "{none}");
    }

    #[test]
    fn sensitivity_signs_deltas_in_the_criterion_unit() {
        let r = SensitivityResult {
            criterion: Criterion::ExpectedHpLost,
            party_strategy: "default".into(),
            baseline: None,
            levers: vec![Lever {
                rank: 1,
                adversary_strategy: "healer".into(),
                value: 4.0,
                delta: -6.0,
                party: DangerMetrics::default(),
            }],
        };
        let text = sensitivity(Style::Text, &r);
        assert!(
            text.starts_with("party default: expected_hp_lost against the default adversary = -\n"),
            "{text}"
        );
        assert!(text.contains("1     healer  4.0    -6.0"), "{text}");
    }
}
