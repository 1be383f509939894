//! Reports of finished sweeps, from the typed results, so `pf1e run` and
//! `ctl results` print the same report: each job leads with its answer in
//! one line, then its table (aligned text within the terminal's width, or
//! Markdown), in the user's language.
//!
//! The `optimize` playbook shows one row per group of strategies that
//! played identically (their names listed together), the top `--top` rows,
//! and keeps to the width by dropping its least useful columns first and
//! wrapping the names.

use pf1e_wire::results::{
    CellReport, ConstraintStatus, ContributionResult, Crossing, DangerMapResult, DangerMetrics, DangerPoint,
    FrontierResult, JobResult, MinmaxResult, OptimizeResult, PlaybookEntry, SearchPoint, SearchResult,
    SensitivityResult, Stage, SweepResults,
};
use pf1e_wire::status::SweepInfo;

pub use super::layout::{Images, Style, View, heading, table};
use super::strategy::{named, words};
use super::table::display_width;
pub use super::words::{criterion_value, criterion_words, layer_words, threshold_words};
use crate::i18n::{Lang, T};

fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

/// A share of hit points as a whole percentage (`25%`).
fn pct0(x: f64) -> String {
    format!("{:.0}%", x * 100.0)
}

/// The names of strategies that played the same battles: the first in
/// words with its spec, then the others' specs as the same battles.
fn plan_names(names: &[String], lang: Lang) -> String {
    match names {
        [] => String::new(),
        [one] => named(one, lang),
        [first, rest @ ..] => {
            let rest: Vec<&str> = rest.iter().map(String::as_str).collect();
            lang.f(T::SameBattles, &[&words(first, lang), first, &short_names(&rest, lang)])
        }
    }
}

fn num(x: f64, digits: usize) -> String {
    format!("{x:.digits$}")
}

/// The interval of a survival probability (at the metrics' level), in percent.
fn survive_band(m: &DangerMetrics) -> (String, String) {
    let (lo, hi) = m.interval(pf1e_engine::objectives::Criterion::PSurvives);
    (format!("{:.1}", lo * 100.0), format!("{:.1}", hi * 100.0))
}

fn win(m: &DangerMetrics) -> String {
    format!("{} [{:.1}, {:.1}]", pct(m.win_rate), m.win_band.0 * 100.0, m.win_band.1 * 100.0)
}

/// The answer line: bold in Markdown.
fn answer(style: Style, text: &str) -> String {
    match style {
        Style::Text => format!("{text}\n"),
        Style::Markdown => format!("**{text}**\n"),
    }
}

/// One row of the playbook: a strategy and those that played identically with it.
struct Group<'a> {
    /// The representative (the most measured), then the others.
    entries: Vec<&'a PlaybookEntry>,
}

impl Group<'_> {
    fn lead(&self) -> &PlaybookEntry {
        self.entries[0]
    }

    /// The strategies of the row; a strategy the LLM proposed is marked `(llm)`.
    fn names(&self) -> Vec<String> {
        self.entries
            .iter()
            .map(|e| match e.stage {
                Stage::LlmProposal => format!("{} (llm)", e.strategy),
                _ => e.strategy.clone(),
            })
            .collect()
    }
}

/// The playbook's rows: entries of one rank form one group (the planner
/// ranks strategies that played identically together); in older results
/// without `same_as`, entries with identical figures over the same runs.
fn groups(r: &OptimizeResult) -> Vec<Group<'_>> {
    let mut out: Vec<Group<'_>> = Vec::new();
    for e in &r.playbook {
        let joins = out.last().is_some_and(|g| {
            let l = g.lead();
            (e.same_as.is_some() && e.rank == l.rank)
                || (e.runs == l.runs && e.party == l.party && e.adversary == l.adversary)
        });
        match out.last_mut() {
            Some(g) if joins => g.entries.push(e),
            _ => out.push(Group { entries: vec![e] }),
        }
    }
    out
}

/// A row of the playbook for a chart: its rank, names and survival band.
pub struct PlaybookRow {
    /// Rank (1 for the best).
    pub rank: u64,
    /// Statistically tied with rank 1.
    pub tied: bool,
    /// The strategies of the row, joined by `; `.
    pub names: String,
    /// Runs of its measurement.
    pub runs: u64,
    /// P(no PC dies).
    pub p: f64,
    /// Low end of its 3σ band.
    pub lo: f64,
    /// High end of its 3σ band.
    pub hi: f64,
}

/// The top `top` rows of a playbook, one per group of identical play.
pub fn optimize_rows(r: &OptimizeResult, top: usize) -> Vec<PlaybookRow> {
    groups(r)
        .iter()
        .take(top.max(1))
        .map(|g| {
            let l = g.lead();
            let (lo, hi) = l.party.interval(pf1e_engine::objectives::Criterion::PSurvives);
            PlaybookRow {
                rank: l.rank,
                tied: l.tied_with_leader,
                names: g.names().join("; "),
                runs: l.runs,
                p: l.party.p_survives,
                lo,
                hi,
            }
        })
        .collect()
}

/// Names for one line: all of them when few, else the first two and a count.
fn short_names(names: &[&str], lang: Lang) -> String {
    if names.len() <= 3 {
        return names.join("; ");
    }
    format!("{}; {} {}", names[0], names[1], lang.f(T::MoreNames, &[&(names.len() - 2)]))
}

/// Wraps `names` (joined by `; `) into lines of at most `width` columns;
/// a single name longer than that is cut with an ellipsis.
fn wrap_names(names: &[&str], width: usize) -> String {
    let width = width.max(8);
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    for (i, name) in names.iter().enumerate() {
        let piece = if i + 1 < names.len() { format!("{name};") } else { (*name).to_string() };
        let piece = if display_width(&piece) > width {
            let mut cut = String::new();
            for c in piece.chars() {
                if display_width(&cut) + 2 > width {
                    break;
                }
                cut.push(c);
            }
            cut + "…"
        } else {
            piece
        };
        let sep = if current.is_empty() { 0 } else { 1 };
        if !current.is_empty() && display_width(&current) + sep + display_width(&piece) > width {
            lines.push(std::mem::take(&mut current));
        }
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(&piece);
    }
    if !current.is_empty() {
        lines.push(current);
    }
    lines.join("\n")
}

/// Strategy names shown in one row of a text playbook.
const NAMES_PER_ROW: usize = 4;

/// The one-line answer of an optimize job.
pub fn optimize_answer(lang: Lang, r: &OptimizeResult) -> Option<String> {
    let groups = groups(r);
    let best = groups.first()?;
    let lead = best.lead();
    let (lo, hi) = survive_band(&lead.party);
    let names = plan_names(&best.names(), lang);
    if r.none_survives || r.playbook.iter().all(|e| e.party.runs > 0 && e.party.p_survives == 0.0) {
        // No plan keeps every PC alive: the first is only the least bad.
        return Some(lang.f(T::NoPlanSurvives, &[&names, &win(&lead.party), &pct(lead.party.p_tpk)]));
    }
    let mut line =
        lang.f(T::BestPlan, &[&names, &pct(lead.party.p_survives), &lo, &hi, &pct(lead.party.win_rate)]);
    let tied = groups.iter().skip(1).filter(|g| g.lead().tied_with_leader).count();
    let tied = match tied {
        0 => lang.t(T::TiedWithNone).to_string(),
        1 => lang.t(T::TiedWithOne).to_string(),
        n => lang.f(T::TiedWithMany, &[&n]),
    };
    let levers = &r.levers_that_matter;
    let levers = if levers.is_empty() {
        lang.t(T::NoLeverMatters).to_string()
    } else {
        lang.f(T::LeversMatter, &[&levers.join(", ")])
    };
    let semi = if lang == Lang::Fr { " ; " } else { "; " };
    line += semi;
    line += &tied;
    line += semi;
    line += &levers;
    Some(line)
}

/// The playbook of an optimize job.
fn optimize(view: &View, r: &OptimizeResult) -> String {
    let lang = view.lang;
    let groups = groups(r);
    let shown = groups.len().min(view.top.max(1));
    // Columns, most useful first; the rank, names, P(no PC dies) and P(win) are always shown.
    struct Col {
        header: T,
        cell: fn(&PlaybookEntry) -> String,
    }
    let mut optional: Vec<Col> = vec![
        Col { header: T::ColRuns, cell: |e| e.runs.to_string() },
        Col { header: T::ColHpLost, cell: |e| num(e.party.expected_hp_lost, 1) },
        Col { header: T::ColTpk, cell: |e| pct(e.party.p_tpk) },
        Col { header: T::ColAnyDeath, cell: |e| pct(e.party.p_any_death) },
        Col { header: T::ColRoundsAvg, cell: |e| num(e.party.expected_rounds, 1) },
        Col { header: T::ColWorstDecile, cell: |e| num(e.party.worst_decile_hp, 1) },
    ];
    // P(fled) beside P(everyone down), when some plan ever fled (as the day report shows withdrawals).
    if r.playbook.iter().any(|e| e.party.p_fled > 0.0) {
        optional.insert(3, Col { header: T::ColFled, cell: |e| pct(e.party.p_fled) });
    }
    let win_cell = |g: &Group<'_>| win(&g.lead().party);
    let rank_cell = |g: &Group<'_>| {
        let l = g.lead();
        let mut cell = l.rank.to_string();
        if l.tied_with_leader {
            cell.push('≈');
        }
        if l.pareto {
            cell.push('•');
        }
        if l.constraints.is_some_and(|s| !s.feasible()) {
            cell.push('†');
        }
        cell
    };
    let survive_cell = |g: &Group<'_>| {
        let (lo, hi) = survive_band(&g.lead().party);
        format!("{} [{lo}, {hi}]", pct(g.lead().party.p_survives))
    };
    let col_width = |header: &str, cells: &mut dyn Iterator<Item = String>| {
        cells.map(|c| display_width(&c)).max().unwrap_or(0).max(display_width(header))
    };
    let rows = &groups[..shown];
    let fixed = col_width(lang.t(T::ColRank), &mut rows.iter().map(rank_cell))
        + 2
        + col_width(lang.t(T::ColSurvive), &mut rows.iter().map(survive_cell))
        + 2
        + col_width(lang.t(T::ColWin), &mut rows.iter().map(win_cell))
        + 2;
    let widths: Vec<usize> = optional
        .iter()
        .map(|c| col_width(lang.t(c.header), &mut rows.iter().map(|g| (c.cell)(g.lead()))) + 2)
        .collect();
    let longest_name = rows.iter().flat_map(|g| g.names()).map(|n| display_width(&n)).max().unwrap_or(8);
    let min_names = longest_name.clamp(display_width(lang.t(T::ColStrategy)), 44);
    let mut kept = optional.len();
    if view.style == Style::Text {
        while kept > 0 && fixed + widths[..kept].iter().sum::<usize>() + min_names > view.width {
            kept -= 1;
        }
    }
    let names_width = match view.style {
        Style::Text => view.width.saturating_sub(fixed + widths[..kept].iter().sum::<usize>()).max(12),
        Style::Markdown => usize::MAX,
    };
    let mut headers = vec![lang.t(T::ColRank).to_string(), lang.t(T::ColStrategy).to_string()];
    headers.push(lang.t(T::ColSurvive).to_string());
    headers.push(lang.t(T::ColWin).to_string());
    headers.extend(optional[..kept].iter().map(|c| lang.t(c.header).to_string()));
    let table_rows: Vec<Vec<String>> = rows
        .iter()
        .map(|g| {
            let names = match view.style {
                Style::Text => {
                    // At most a few names per row in a terminal; Markdown and JSON list them all.
                    let all = g.names();
                    let mut shown: Vec<String> =
                        all.iter().take(NAMES_PER_ROW).map(|n| n.to_string()).collect();
                    if all.len() > NAMES_PER_ROW {
                        shown.push(lang.f(T::MoreNames, &[&(all.len() - NAMES_PER_ROW)]));
                    }
                    wrap_names(&shown.iter().map(String::as_str).collect::<Vec<_>>(), names_width)
                }
                Style::Markdown => g.names().join("; "),
            };
            let mut row = vec![rank_cell(g), names, survive_cell(g), win_cell(g)];
            row.extend(optional[..kept].iter().map(|c| (c.cell)(g.lead())));
            row
        })
        .collect();
    let mut out = String::new();
    if let Some(a) = optimize_answer(lang, r) {
        out += &answer(view.style, &a);
    }
    let note = lang.f(
        T::OptimizeNote,
        &[&named(&r.adversary_strategy, lang), &r.playbook.len(), &r.spent_runs, &groups.len()],
    );
    // The adversary in words may not fit a terminal's line with the counts: then the counts go below.
    let sep = if lang == Lang::Fr { " ; " } else { "; " };
    out += &match note.split_once(sep) {
        Some((adversary, counts)) if view.style == Style::Text && display_width(&note) > view.width => {
            format!("{adversary}\n{counts}")
        }
        _ => note,
    };
    out += "\n\n";
    out += &table(view, &headers, &table_rows);
    if shown < groups.len() {
        out += &lang.f(T::TopNote, &[&shown, &groups.len()]);
        out += "\n";
    }
    out += lang.t(T::TiedNote);
    out += "\n";
    let below = several_objectives(lang, r, &groups);
    out += &match view.style {
        // A terminal's lines keep to its width; Markdown reflows by itself.
        Style::Text => below.lines().map(|l| textwrap::fill(l, view.width.max(20)) + "\n").collect(),
        Style::Markdown => below,
    };
    out
}

/// A constraint as written canonically (`p_tpk <= 0.02`), in words.
fn constraint_words(lang: Lang, text: &str) -> String {
    let parts: Vec<&str> = text.split_whitespace().collect();
    let [name, op, value] = parts.as_slice() else { return text.to_string() };
    let (Some(c), Ok(v)) = (pf1e_engine::objectives::Criterion::from_name(name), value.parse::<f64>()) else {
        return text.to_string();
    };
    let op = if *op == "<=" { "≤" } else { "≥" };
    format!("{} {op} {}", criterion_words(lang, c), criterion_value(c, v))
}

/// The lines of the Pareto front and of the constraints, below the table.
fn several_objectives(lang: Lang, r: &OptimizeResult, groups: &[Group<'_>]) -> String {
    let mut out = String::new();
    if !r.constraints.is_empty() {
        let words: Vec<String> = r.constraints.iter().map(|c| constraint_words(lang, c)).collect();
        let words = words.join(", ");
        if r.none_feasible {
            out += &lang.f(T::NoneFeasible, &[&words]);
        } else {
            let status = |g: &Group<'_>| g.lead().constraints;
            let feasible =
                groups.iter().filter(|g| status(g).is_some_and(ConstraintStatus::feasible)).count();
            let met = groups.iter().filter(|g| status(g) == Some(ConstraintStatus::Met)).count();
            out += &lang.f(T::ConstraintsMet, &[&words, &feasible, &groups.len(), &met]);
        }
        out += "\n";
    }
    if !r.pareto_criteria.is_empty() {
        let criteria: Vec<&str> = r.pareto_criteria.iter().map(|&c| criterion_words(lang, c)).collect();
        let names: Vec<String> =
            groups.iter().filter(|g| g.lead().pareto).map(|g| g.lead().strategy.clone()).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        out += &lang.f(T::ParetoFront, &[&criteria.join(", "), &short_names(&names, lang)]);
        out += "\n";
    }
    if let Some(i) = &r.importance {
        let levers: Vec<String> = i
            .levers
            .iter()
            .map(|l| {
                format!(
                    "{}{} {} [{}]",
                    l.lever,
                    if l.significant { "*" } else { "" },
                    pct0(l.share),
                    // Noise larger than the whole variance: the shares are noise.
                    if l.noise >= 1.0 { "≥100%".to_string() } else { pct0(l.noise) }
                )
            })
            .collect();
        out += &lang.f(
            T::Importance,
            &[&i.cells, &criterion_words(lang, r.objective), &levers.join(", "), &pct0(i.interactions)],
        );
        out += "\n";
    }
    if let Some(s) = &r.search {
        out += &search_lines(lang, r.objective, s);
    }
    out
}

/// A signed difference of criterion `c`: points for a probability.
fn signed(c: pf1e_engine::objectives::Criterion, v: f64) -> String {
    if c.is_probability() { format!("{:+.1} pts", v * 100.0) } else { format!("{v:+.1}") }
}

/// The search of the lever ranges: its best point with its interval, how
/// it compares with the discrete leader, and every point tried.
fn search_lines(lang: Lang, c: pf1e_engine::objectives::Criterion, s: &SearchResult) -> String {
    let mut out = String::new();
    let value = |v: f64| criterion_value(c, v);
    let point_text = |p: &SearchPoint| {
        let values: Vec<String> = p.values.iter().map(|v| format!("{v}")).collect();
        let mark = if p.confirmed { "✓" } else { "" };
        format!("{} {} ({}{mark})", values.join("/"), value(p.objective), p.runs)
    };
    if let Some(best) = s.best.as_deref()
        && let Some(p) = s.points.iter().find(|p| p.strategy == best).or_else(|| s.points.first())
    {
        out += &lang.f(
            T::SearchBest,
            &[
                &s.ranges.join(", "),
                &named(&s.base, lang),
                &s.batches,
                &s.points_per_batch,
                &s.spent_runs,
                &best,
                &criterion_words(lang, c),
                &value(p.objective),
                &value(p.interval[0]),
                &value(p.interval[1]),
                &p.runs,
            ],
        );
        out += "; ";
        out += &match &s.vs_grid {
            None => lang.f(T::SearchBaseBest, &[&s.base]),
            Some(v) => {
                let better = (v.delta.mean > 0.0) == c.higher_is_better();
                let t = match (v.significant, better) {
                    (false, _) => T::SearchTied,
                    (true, true) => T::SearchBetter,
                    (true, false) => T::SearchWorse,
                };
                let d = &v.delta;
                lang.f(
                    t,
                    &[
                        &v.strategy,
                        &signed(c, d.mean),
                        &signed(c, d.interval[0]),
                        &signed(c, d.interval[1]),
                        &d.runs,
                    ],
                )
            }
        };
        out += "\n";
    }
    let mut points: Vec<&SearchPoint> = s.points.iter().collect();
    points.sort_by(|a, b| {
        a.values.iter().zip(&b.values).fold(std::cmp::Ordering::Equal, |o, (x, y)| o.then(x.total_cmp(y)))
    });
    let list: Vec<String> = points.iter().map(|p| point_text(p)).collect();
    out += &lang.f(T::SearchPoints, &[&s.levers.join("/"), &criterion_words(lang, c), &list.join(", ")]);
    out += "\n";
    if !s.pareto.is_empty() {
        let criteria: Vec<&str> = s.pareto.iter().map(|&c| criterion_words(lang, c)).collect();
        let on: Vec<&SearchPoint> = points.iter().copied().filter(|p| p.front).collect();
        let list: Vec<String> = on.iter().map(|p| point_text(p)).collect();
        out += &lang.f(
            T::SearchFront,
            &[&criteria.join(", "), &on.len(), &points.len(), &s.levers.join("/"), &list.join(", ")],
        );
        out += "\n";
    }
    if let Some(i) = &s.importance {
        let levers: Vec<String> = i
            .levers
            .iter()
            .map(|l| {
                let floor = if l.noise >= 1.0 { "≥100%".to_string() } else { pct0(l.noise) };
                format!("{} {} [{floor}]", l.lever, pct0(l.share))
            })
            .collect();
        out += &lang.f(
            T::RangeImportance,
            &[
                &i.points,
                &criterion_words(lang, c),
                &spread_words(c, i.spread),
                &spread_words(c, i.uncertainty),
                &levers.join(", "),
                &pct0(i.interactions),
            ],
        );
        out += "\n";
    }
    out
}

/// A standard deviation of criterion `c`: points for a probability.
fn spread_words(c: pf1e_engine::objectives::Criterion, v: f64) -> String {
    // Two decimals: a flat surface moves a probability by hundredths of a point.
    if c.is_probability() { format!("{:.2} pts", v * 100.0) } else { format!("{v:.2}") }
}

fn minmax(view: &View, r: &MinmaxResult) -> String {
    let lang = view.lang;
    let rows: Vec<Vec<String>> = r
        .iterations
        .iter()
        .map(|it| {
            let (p, a) = (&it.party, &it.adversary);
            vec![
                it.iteration.to_string(),
                it.party_strategy.clone(),
                it.adversary_strategy.clone(),
                pct(p.win_rate),
                pct(p.p_survives),
                pct(p.p_tpk),
                num(p.expected_hp_lost, 1),
                pct(a.p_survives),
                pct(a.p_tpk),
                num(a.expected_hp_lost, 1),
            ]
        })
        .collect();
    let mut note = lang.t(if r.converged { T::Converged } else { T::NotConverged }).to_string();
    if !r.llm_proposals.is_empty() {
        note += &lang.f(T::LlmAdversaries, &[&r.llm_proposals.join("; ")]);
    }
    if let Some(last) = r.iterations.last() {
        let names = |v: &[String]| v.iter().map(|n| named(n, lang)).collect::<Vec<_>>().join("; ");
        if !last.party_tied.is_empty() {
            note += &lang.f(T::MinmaxPartyTied, &[&names(&last.party_tied)]);
        }
        if !last.adversary_tied.is_empty() {
            note += &lang.f(T::MinmaxAdversaryTied, &[&names(&last.adversary_tied)]);
        }
    }
    let mut out = String::new();
    if let Some(last) = r.iterations.last() {
        let (lo, hi) = survive_band(&last.party);
        out += &answer(
            view.style,
            &lang.f(
                T::MinmaxAnswer,
                &[
                    &named(&last.party_strategy, lang),
                    &named(&last.adversary_strategy, lang),
                    &pct(last.party.p_survives),
                    &lo,
                    &hi,
                    &note,
                ],
            ),
        );
        out += "\n";
    } else {
        out += &format!("{note}\n\n");
    }
    let headers = [
        T::ColIter,
        T::ColParty,
        T::ColAdversary,
        T::ColWinShort,
        T::ColPartySurvive,
        T::ColPartyTpk,
        T::ColPartyHp,
        T::ColAdvSurvive,
        T::ColAdvTpk,
        T::ColAdvHp,
    ]
    .map(|t| lang.t(t).to_string());
    out += &table(view, &headers, &rows);
    out
}

/// The danger of a point for the answer: the criterion's value, danger growing with it
/// (survival and winning are reversed).
fn danger_of(r: &DangerMapResult, v: f64) -> f64 {
    if r.criterion.higher_is_better() { 1.0 - v } else { v }
}

fn danger_map(view: &View, r: &DangerMapResult) -> String {
    let lang = view.lang;
    let mut out = String::new();
    let all: Vec<&DangerPoint> = r.layers.iter().flat_map(|l| &l.points).collect();
    let worst = all.iter().copied().max_by(|a, b| danger_of(r, a.value).total_cmp(&danger_of(r, b.value)));
    if let Some(w) = worst {
        let crossed = all.iter().filter(|p| p.crossed).count();
        out += &answer(
            view.style,
            &lang.f(
                T::DangerAnswer,
                &[
                    &pct0(w.party_hp),
                    &pct0(w.adversary_hp),
                    &criterion_words(lang, r.criterion),
                    &criterion_value(r.criterion, w.value),
                    &threshold_words(lang, r.criterion, r.threshold),
                    &crossed,
                    &all.len(),
                ],
            ),
        );
        out += "\n";
    }
    if r.layers.len() <= 1 {
        return out + &danger_layer(view, r, &r.points);
    }
    for (i, l) in r.layers.iter().enumerate() {
        out += &lang.f(T::Layer, &[&(i + 1), &layer_words(lang, l)]);
        out += "\n";
        out += &danger_layer(view, r, &l.points);
        out += "\n";
    }
    out
}

fn danger_layer(view: &View, r: &DangerMapResult, points: &[DangerPoint]) -> String {
    let lang = view.lang;
    let key = |v: f64| (v * 1e6).round() as i64;
    let mut ps: Vec<i64> = points.iter().map(|p| key(p.party_hp)).collect();
    let mut as_: Vec<i64> = points.iter().map(|p| key(p.adversary_hp)).collect();
    ps.sort_unstable();
    ps.dedup();
    as_.sort_unstable();
    as_.dedup();
    let headers: Vec<String> = std::iter::once(lang.t(T::ColPartyAdv).to_string())
        .chain(as_.iter().map(|a| format!("adv={}", *a as f64 / 1e6)))
        .collect();
    let rows: Vec<Vec<String>> = ps
        .iter()
        .rev()
        .map(|&p| {
            let mut row = vec![format!("party={}", p as f64 / 1e6)];
            for &a in &as_ {
                let cell = points.iter().find(|x| key(x.party_hp) == p && key(x.adversary_hp) == a);
                row.push(cell.map_or(lang.t(T::NotMeasured).into(), |c| {
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
    format!(
        "{}\n\n{}",
        lang.f(
            T::DangerCells,
            &[
                &threshold_words(lang, r.criterion, r.threshold),
                &named(&r.party_strategy, lang),
                &named(&r.adversary_strategy, lang)
            ]
        ),
        table(view, &headers, &rows)
    )
}

fn frontier(view: &View, r: &FrontierResult) -> String {
    let lang = view.lang;
    let threshold = threshold_words(lang, r.criterion, r.target);
    let line = match r.fraction {
        Some(f) => {
            let f = pct0(f);
            match r.crossed {
                Some(Crossing::AtOrBelow) => lang.f(T::FrontierBelow, &[&threshold, &f]),
                Some(Crossing::AtOrAbove) => lang.f(T::FrontierAbove, &[&threshold, &f]),
                Some(Crossing::Everywhere) => lang.f(T::FrontierEverywhere, &[&threshold]),
                None => lang.f(T::FrontierAt, &[&threshold, &f]),
            }
        }
        None => lang.f(T::NoFrontier, &[&threshold, &pct0(r.min_fraction), &pct0(r.max_fraction)]),
    };
    let rows: Vec<Vec<String>> = r
        .probes
        .iter()
        .map(|p| {
            vec![
                pct0(p.party_hp),
                criterion_value(r.criterion, p.value),
                lang.t(if p.crossed { T::Yes } else { T::No }).into(),
            ]
        })
        .collect();
    let headers = [
        lang.t(T::ColPartyHpFraction).to_string(),
        criterion_words(lang, r.criterion).to_string(),
        lang.t(T::ColCrossed).to_string(),
    ];
    format!(
        "{}\n{}\n\n{}",
        answer(view.style, &line),
        plans(lang, &r.party_strategy, &r.adversary_strategy),
        table(view, &headers, &rows)
    )
}

/// Which plans a job's figures are for, in words with their specs.
fn plans(lang: Lang, party: &str, adversary: &str) -> String {
    lang.f(T::ContribPlans, &[&named(party, lang), &named(adversary, lang)])
}

fn sensitivity(view: &View, r: &SensitivityResult) -> String {
    let lang = view.lang;
    let c = criterion_words(lang, r.criterion);
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
    let first = match r.levers.first() {
        Some(l) => lang
            .f(T::SensitivityAnswer, &[&named(&l.adversary_strategy, lang), &c, &fmt(Some(l.delta), true)]),
        None => lang.t(T::SensitivityNone).to_string(),
    };
    let headers = [T::ColRank, T::ColLevers, T::ColValue, T::ColDelta].map(|t| lang.t(t).to_string());
    format!(
        "{}\n{}\n\n{}",
        answer(view.style, &first),
        lang.f(T::SensitivityBaseline, &[&named(&r.party_strategy, lang), &c, &fmt(r.baseline, false)]),
        table(view, &headers, &rows)
    )
}

fn contribution(view: &View, r: &ContributionResult) -> String {
    let lang = view.lang;
    // Every side's removals are in the table; the answer names a party member.
    let line = super::contribution::carry(&r.combatants, &r.party, lang)
        .unwrap_or_else(|| lang.t(T::ContribNone).to_string());
    let plans = plans(lang, &r.party_strategy, &r.adversary_strategy);
    format!(
        "{}\n{plans}\n\n{}\n{}\n",
        answer(view.style, &line),
        table(view, &super::contribution::headers(lang), &super::contribution::rows(&r.combatants)),
        super::contribution::note(r.confidence, lang)
    )
}

/// The report of one job, or `None` for kinds without their own layout (a grid).
pub fn job(view: &View, result: &JobResult) -> Option<String> {
    Some(match result {
        JobResult::Grid(()) => return None,
        JobResult::Optimize(r) => optimize(view, r),
        JobResult::Minmax(r) => minmax(view, r),
        JobResult::DangerMap(r) => danger_map(view, r),
        JobResult::Frontier(r) => frontier(view, r),
        JobResult::Sensitivity(r) => sensitivity(view, r),
        JobResult::Contribution(r) => contribution(view, r),
        JobResult::Design(r) => super::design::report(view, r),
        JobResult::Day(r) => super::day::report(&r.summary, &r.plans, r.seed, view.lang),
    })
}

/// The report of every analysis job of a sweep's results, with the images
/// of each job linked under it (Markdown).
pub fn report(view: &View, results: &SweepResults, images: &Images) -> String {
    let lang = view.lang;
    let mut out = String::new();
    if view.style == Style::Markdown {
        out += &format!(
            "# {}\n\n{}\n\n",
            results.name,
            lang.f(T::SeedPartyRules, &[&results.seed, &results.party, &results.rules_version])
        );
    }
    if let Some(verdict) = super::verdict::sweep(results, lang) {
        out += &match view.style {
            Style::Text => format!("{}{}{verdict}\n\n", lang.t(T::Verdict), lang.colon()),
            Style::Markdown => format!("**{}.** {verdict}\n\n", lang.t(T::Verdict)),
        };
    }
    let difficulty = super::difficulty::sweep(results, lang);
    if !difficulty.is_empty() {
        out += &match view.style {
            Style::Text => difficulty,
            Style::Markdown => difficulty.lines().map(|l| format!("{l}\n\n")).collect(),
        };
        if view.style == Style::Text {
            out += "\n";
        }
    }
    out += &super::llm::decisions(view, &results.llm);
    for (i, j) in results.jobs.iter().enumerate() {
        let Some(body) = job(view, &j.result) else { continue };
        out += &heading(view.style, &lang.f(T::Job, &[&(i + 1), &j.result.kind()]));
        out += &body;
        out += "\n";
        if view.style == Style::Markdown {
            for (alt, file) in images.get(&i).into_iter().flatten() {
                out += &format!("![{}]({file})\n\n", alt.replace(['[', ']'], ""));
            }
        }
    }
    out
}

/// The best cell of a grid job for the party.
fn grid_answer(lang: Lang, cells: &[CellReport]) -> Option<String> {
    let best = cells.iter().max_by(|a, b| a.party_win_rate.total_cmp(&b.party_win_rate))?;
    let hp: Vec<String> = best.hp.iter().map(|(s, f)| format!("{s}={f}")).collect();
    Some(lang.f(
        T::GridAnswer,
        &[
            &cells.len(),
            &pct(best.party_win_rate),
            &hp.join(" "),
            &format!("{}/{}", best.party_strategy, best.adversary_strategy),
        ],
    ))
}

/// A finished sweep for people: its state, then one line per cell of each
/// grid job (analysis jobs have their own layouts, see [`report`]), then
/// where its shards came from.
pub fn sweep(view: &View, info: &SweepInfo) -> String {
    let lang = view.lang;
    let mut out = lang.f(T::Sweep, &[&info.id, &info.name, &info.status]);
    out += "\n";
    let Some(results) = info.results.as_deref() else { return out };
    for (j, job) in results.jobs.iter().enumerate() {
        if !matches!(job.result, JobResult::Grid(())) {
            continue;
        }
        out += &heading(view.style, &lang.f(T::Job, &[&(j + 1), &job.result.kind()]));
        if let Some(a) = grid_answer(lang, &job.cells) {
            out += &answer(view.style, &a);
            out += "\n";
        }
        let headers = [
            lang.t(T::ColHpFractions).to_string(),
            lang.t(T::ColStrategies).to_string(),
            lang.t(T::ColRuns).to_string(),
            lang.f(T::ColPartyWin, &[&results.party]),
            lang.t(T::ColMeanRounds).to_string(),
            lang.t(T::ColHpLostParty).to_string(),
        ];
        let rows: Vec<Vec<String>> = job
            .cells
            .iter()
            .map(|c| {
                let hp: Vec<String> = c.hp.iter().map(|(s, f)| format!("{s}={f}")).collect();
                vec![
                    hp.join(" "),
                    format!("{}/{}", c.party_strategy, c.adversary_strategy),
                    c.runs.to_string(),
                    format!(
                        "{} [{:.1}, {:.1}]",
                        pct(c.party_win_rate),
                        c.party_win_band[0] * 100.0,
                        c.party_win_band[1] * 100.0
                    ),
                    num(c.mean_rounds, 2),
                    num(c.party_hp_lost.mean, 2),
                ]
            })
            .collect();
        out += &table(view, &headers, &rows);
        out += "\n";
    }
    let s = &info.stats;
    out += &lang.f(T::Shards, &[&s.shards_total, &s.shards_computed, &s.shards_from_cache]);
    out += "\n";
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use pf1e_wire::results::{Criterion, FrontierProbe, SensitivityLever};

    fn view(style: Style, width: usize) -> View {
        View { lang: Lang::En, style, top: 10, width }
    }

    #[test]
    fn text_tables_align_and_markdown_escapes_bars() {
        let rows = vec![vec!["a|b".to_string(), "1".to_string()], vec!["long name".into(), "22".into()]];
        let h = ["N".to_string(), "V".to_string()];
        assert_eq!(
            table(&view(Style::Text, 80), &h, &rows),
            "N          V\n---------  --\na|b        1\nlong name  22\n"
        );
        assert_eq!(
            table(&view(Style::Markdown, 80), &h, &rows),
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
            probes: vec![FrontierProbe {
                party_hp: 0.25,
                value: 0.5,
                crossed: true,
                interval: [0.3, 0.7],
                undecided: false,
                runs: 200,
            }],
            crossings: vec![],
            monotone: true,
        };
        let text = frontier(&view(Style::Text, 80), &r);
        assert!(
            text.starts_with(
                "frontier: P(everyone down) ≥ 100.0% when the party starts at 35% of its HP or less\n\n"
            ),
            "{text}"
        );
        assert!(
            text.contains(
                "\nThe party plays the default play (`default`); the other sides play the default play (`default`).\n"
            ),
            "the plans in words beside their specs: {text}"
        );
        assert!(text.contains("Party HP  P(everyone down)  Crossed\n"), "{text}");
        assert!(text.contains("25%       50.0%             yes"), "{text}");
        let none = frontier(&view(Style::Text, 80), &FrontierResult { fraction: None, crossed: None, ..r });
        assert!(
            none.starts_with(
                "no frontier: P(everyone down) ≥ 100.0% nowhere between 25% and 100% of the party's HP"
            ),
            "{none}"
        );
    }

    #[test]
    fn sensitivity_leads_with_the_lever_that_matters_most() {
        let r = SensitivityResult {
            criterion: Criterion::ExpectedHpLost,
            party_strategy: "default".into(),
            baseline: None,
            levers: vec![SensitivityLever {
                rank: 1,
                adversary_strategy: "healer".into(),
                value: 4.0,
                delta: -6.0,
                party: DangerMetrics::default(),
                delta_interval: [-8.0, -4.0],
                significant: true,
            }],
            confidence: 0.997,
            comparison_z: 3.2,
        };
        let text = sensitivity(&view(Style::Text, 80), &r);
        assert!(
            text.starts_with("the adversary lever that matters most: go for the spellcasters (`healer`) (HP lost -6.0 against the default adversary)\n\nparty the default play (`default`): HP lost against the default adversary = -\n"),
            "{text}"
        );
        assert!(text.contains("1     healer  4.0    -6.0"), "{text}");
    }

    fn contribution_result() -> ContributionResult {
        use pf1e_wire::results::{Contribution, Without};
        let without = Without {
            runs: 400,
            p_win: 0.5,
            p_pc_dies: 0.25,
            win_change: -0.25,
            win_interval: [-0.3, -0.2],
            death_change: 0.125,
            death_interval: [0.05, 0.2],
            significant: true,
        };
        ContributionResult {
            party: "players".into(),
            party_strategy: "default".into(),
            adversary_strategy: "lowest_hp".into(),
            combatants: vec![
                Contribution {
                    id: "oni".into(),
                    side: "players".into(),
                    damage_per_round: 0.5,
                    healing: 4.5,
                    conditions: 0.0,
                    without: Some(without),
                },
                Contribution {
                    id: "orc".into(),
                    side: "monsters".into(),
                    damage_per_round: 2.5,
                    healing: 0.0,
                    conditions: 0.25,
                    without: None,
                },
            ],
            confidence: 0.997,
            comparison_z: 3.0,
        }
    }

    #[test]
    fn contribution_leads_with_who_carries_the_fight_in_english() {
        let text = contribution(&view(Style::Text, 120), &contribution_result());
        assert!(
            text.starts_with(
                "Who carries the fight: oni (without it the party wins 50.0% instead of 75.0%; a PC dies in 25.0% instead of 12.5%).\n"
            ),
            "{text}"
        );
        assert!(
            text.contains("The party plays the default play (`default`); the other sides play focus the most wounded (`lowest_hp`).\n"),
            "{text}"
        );
        assert!(
            text.contains(
                "oni        players   0.5           4.5             0.00               50.0% (−25.0)*      25.0% (+12.5)*\n\
                 orc        monsters  2.5           0.0             0.25               —                   —\n"
            ),
            "{text}"
        );
        assert!(text.ends_with("— the last of its side: no battle without it.\n"), "{text}");
    }

    #[test]
    fn contribution_in_french_markdown() {
        let v = View { lang: Lang::Fr, style: Style::Markdown, top: 10, width: 80 };
        let text = contribution(&v, &contribution_result());
        assert!(
            text.contains(
                "Qui porte le combat : oni (sans lui le groupe gagne 50.0% au lieu de 75.0% ; un PJ meurt dans 25.0% au lieu de 12.5%)."
            ),
            "{text}"
        );
        assert!(text.contains("| Combattant | Camp | Dégâts/round | Soins/combat | États/combat | Victoire du groupe sans | Un PJ meurt sans |\n"), "{text}");
        assert!(text.contains("| orc | monsters | 2.5 | 0.0 | 0.25 | — | — |\n"), "{text}");
    }

    fn entry(rank: u64, strategy: &str, p: f64, runs: u64, same_as: Option<&str>) -> PlaybookEntry {
        PlaybookEntry {
            rank,
            strategy: strategy.into(),
            stage: Stage::Grid,
            runs,
            raced: 0,
            tied_with_leader: rank > 1,
            party: DangerMetrics {
                runs,
                p_survives: p,
                expected_hp_lost: 10.0 * (1.0 - p),
                ..Default::default()
            },
            adversary: DangerMetrics::default(),
            same_as: same_as.map(String::from),
            vs_leader: None,
            pareto: false,
            constraints: None,
        }
    }

    fn playbook() -> OptimizeResult {
        let mut playbook = vec![
            entry(1, "lowest_hp, retreat=0.5", 0.92, 800, None),
            entry(2, "lowest_hp", 0.9, 400, None),
            entry(2, "lowest_hp, spell_policy=none", 0.9, 200, Some("lowest_hp")),
            entry(2, "lowest_hp, use_class_abilities=false", 0.9, 200, Some("lowest_hp")),
        ];
        for i in 0..19 {
            playbook.push(entry(
                3 + i,
                &format!("nearest, retreat=0.{i:02}"),
                0.5 - i as f64 / 1000.0,
                200,
                None,
            ));
        }
        playbook.push(entry(22, "nearest, spell_policy=none", 0.4, 200, None));
        OptimizeResult {
            adversary_strategy: "default".into(),
            spent_runs: 9000,
            playbook,
            objective: pf1e_engine::objectives::Criterion::PSurvives,
            confidence: pf1e_engine::metrics::THREE_SIGMA_LEVEL,
            comparison_z: 4.0,
            comparisons: 100,
            none_survives: false,
            least_bad: None,
            levers_that_matter: vec!["retreat".into(), "target".into()],
            pareto_criteria: vec![],
            constraints: vec![],
            none_feasible: false,
            search: None,
            importance: None,
        }
    }

    #[test]
    fn the_playbook_leads_with_its_answer_and_collapses_identical_play() {
        let text = optimize(&view(Style::Text, 100), &playbook());
        let first = text.lines().next().unwrap();
        assert!(
            first.starts_with(
                "best plan: focus the most wounded; fall back below 50% of hit points (`lowest_hp, retreat=0.5`) — P(no PC dies) 92.0% ["
            ),
            "{first}"
        );
        // The adversary's plan in words beside its spec.
        assert!(
            text.lines().nth(1).unwrap().starts_with("adversary the default play (`default`); "),
            "{text}"
        );
        assert!(first.contains("], P(win) 0.0%; "), "the win rate is always said: {first}");
        assert!(
            first.contains("; tied at 3σ with 21 others; the levers that matter (significant differences): retreat, target"),
            "{first}"
        );
        // One row lists the three strategies that played identically.
        let row = text.lines().find(|l| l.starts_with("2≈")).unwrap();
        assert!(row.contains("lowest_hp;"), "{text}");
        assert!(text.contains("lowest_hp, spell_policy=none;"), "{text}");
        // Top 10 of 22 rows.
        assert!(text.contains("showing the top 10 of 22 rows"), "{text}");
        assert!(!text.contains("retreat=0.19"), "{text}");
        // The table keeps to the width (the answer is one line, whatever its length).
        assert!(text.lines().skip(1).all(|l| display_width(l) <= 100), "{text}");
    }

    #[test]
    fn the_front_and_the_constraints_are_marked_and_said_below_the_table() {
        use pf1e_engine::objectives::Criterion;
        let mut r = playbook();
        r.pareto_criteria = vec![Criterion::PWin, Criterion::PAnyDeath, Criterion::ExpectedHpLost];
        r.constraints = vec!["p_tpk <= 0.02".into()];
        for (i, e) in r.playbook.iter_mut().enumerate() {
            e.pareto = i == 0 || i == 4;
            e.constraints = Some(match i {
                0 => ConstraintStatus::Met,
                1..=3 => ConstraintStatus::Likely,
                _ => ConstraintStatus::Violated,
            });
        }
        let text = optimize(&view(Style::Text, 120), &r);
        assert!(text.lines().any(|l| l.starts_with("1• ")), "{text}");
        assert!(text.lines().any(|l| l.starts_with("2≈ ")), "{text}");
        assert!(text.lines().any(|l| l.starts_with("3≈•† ")), "{text}");
        assert!(text.lines().any(|l| l.starts_with("4≈† ")), "{text}");
        // In a terminal the lines below the table keep to its width.
        let narrow = optimize(&view(Style::Text, 80), &r);
        let below = &narrow[narrow.find("≈: tied").unwrap()..];
        assert!(below.lines().all(|l| display_width(l) <= 80), "{below}");
        assert!(below.contains("Pareto front on P(win), P(a PC dies), HP lost"), "{below}");
        let text = optimize(&view(Style::Markdown, 120), &r);
        assert!(
            text.contains("constraints P(everyone down) ≤ 2.0%: 2 of 22 rows meet them at their estimates (1 over their whole 3σ interval) and rank first; † marks the others\n"),
            "{text}"
        );
        assert!(
            text.contains("Pareto front on P(win), P(a PC dies), HP lost (• in the rank column: no other plan at least as good on each and significantly better on one): lowest_hp, retreat=0.5; nearest, retreat=0.00\n"),
            "{text}"
        );
        r.none_feasible = true;
        let fr = optimize(&View { lang: Lang::Fr, ..view(Style::Markdown, 120) }, &r);
        assert!(
            fr.contains("aucun plan ne respecte les contraintes P(tous à terre) ≤ 2.0% : les lignes sont classées comme sans elles, chacune marquée †"),
            "{fr}"
        );
    }

    #[test]
    fn the_search_of_lever_ranges_says_its_best_with_its_interval_and_against_the_grid() {
        use pf1e_wire::results::{PairedDelta, RangeImportance, RangeLeverImportance, SearchVersus};
        let point = |v: f64, batch: u32, p: f64, runs: u64, confirmed: bool| SearchPoint {
            strategy: if v == 0.0 { "lowest_hp".into() } else { format!("lowest_hp, retreat={v}") },
            values: vec![v],
            batch,
            runs,
            objective: p,
            interval: [p - 0.02, p + 0.01],
            posterior: p,
            confirmed,
            front: false,
        };
        let mut r = playbook();
        r.search = Some(SearchResult {
            ranges: vec!["retreat: [0, 0.9]".into()],
            levers: vec!["retreat".into()],
            base: "lowest_hp".into(),
            batches: 4,
            points_per_batch: 4,
            spent_runs: 6400,
            points: vec![
                point(0.0, 0, 0.9, 800, true),
                point(0.62, 2, 0.95, 800, true),
                point(0.3, 1, 0.91, 200, false),
            ],
            best: Some("lowest_hp, retreat=0.62".into()),
            vs_grid: Some(SearchVersus {
                strategy: "lowest_hp".into(),
                delta: PairedDelta { runs: 800, mean: 0.05, interval: [0.02, 0.08] },
                significant: true,
            }),
            importance: Some(Box::new(RangeImportance {
                points: 3,
                design: 64,
                levers: vec![RangeLeverImportance { lever: "retreat".into(), share: 1.0, noise: 0.12 }],
                interactions: 0.0,
                spread: 0.021,
                uncertainty: 0.008,
            })),
            pareto: vec![],
        });
        let text = optimize(&view(Style::Markdown, 120), &r);
        assert!(
            text.contains("search of retreat: [0, 0.9] on focus the most wounded (`lowest_hp`) (4 batches of 4 points, 6400 runs): best lowest_hp, retreat=0.62, P(no PC dies) 95.0% [93.0%, 96.0%] over 800 runs; significantly better than lowest_hp by +5.0 pts [+2.0 pts, +8.0 pts] (paired, 800 runs)\n"),
            "{text}"
        );
        assert!(
            text.contains("points tried (retreat: P(no PC dies); ✓ re-measured): 0 90.0% (800✓), 0.3 91.0% (200), 0.62 95.0% (800✓)\n"),
            "{text}"
        );
        assert!(
            text.contains("importance of the ranged levers on the Gaussian process over 3 points (share of the variance of its mean of P(no PC dies) over the ranges, which moves it by 2.10 pts (sd) against a posterior sd of 0.80 pts; noise alone ≈ the share in brackets): retreat 100% [12%]; interactions 0%\n"),
            "{text}"
        );
        assert!(!text.contains("ParEGO"), "a search for the objective alone: {text}");
        if let Some(s) = r.search.as_mut() {
            use pf1e_engine::objectives::Criterion;
            s.pareto = vec![Criterion::PAnyDeath, Criterion::ExpectedHpLost];
            s.points[1].front = true;
            s.points[2].front = true;
        }
        let text = optimize(&view(Style::Markdown, 120), &r);
        assert!(
            text.contains("the search proposed its points for the Pareto front of P(a PC dies), HP lost (random Chebyshev scalarisations, ParEGO): 2 of its 3 points are on it (retreat): 0.3 91.0% (200), 0.62 95.0% (800✓)\n"),
            "{text}"
        );
        if let Some(s) = r.search.as_mut() {
            s.vs_grid.as_mut().unwrap().significant = false;
        }
        let fr = optimize(&View { lang: Lang::Fr, ..view(Style::Markdown, 120) }, &r);
        assert!(fr.contains("recherche de retreat: [0, 0.9] sur "), "{fr}");
        assert!(
            fr.contains("indiscernable de lowest_hp : +5.0 pts [+2.0 pts, +8.0 pts] (apparié, 800 combats)"),
            "{fr}"
        );
        assert!(
            fr.contains("points essayés (retreat : P(aucun PJ ne meurt) ; ✓ remesuré) : 0 90.0% (800✓)"),
            "{fr}"
        );
        if let Some(s) = r.search.as_mut() {
            s.vs_grid = None;
            s.best = Some("lowest_hp".into());
        }
        let text = optimize(&view(Style::Markdown, 120), &r);
        assert!(text.contains("no point of the search beat the discrete leader lowest_hp"), "{text}");
    }

    #[test]
    fn lever_importance_is_said_below_the_table_in_both_languages() {
        use pf1e_wire::results::{Importance, LeverImportance};
        let mut r = playbook();
        let lever = |name: &str, share: f64, significant: bool| LeverImportance {
            lever: name.into(),
            share,
            noise: 0.01,
            significant,
        };
        r.importance = Some(Importance {
            cells: 32,
            levers: vec![lever("target", 0.62, true), lever("use_charges", 0.2, false)],
            interactions: 0.18,
        });
        let text = optimize(&view(Style::Markdown, 120), &r);
        assert!(
            text.contains("lever importance over the grid's 32 cells (share of the variance of P(no PC dies) each lever explains alone; noise alone ≈ the share in brackets; * the paired test finds it matters): target* 62% [1%], use_charges 20% [1%]; interactions 18%\n"),
            "{text}"
        );
        let fr = optimize(&View { lang: Lang::Fr, ..view(Style::Markdown, 120) }, &r);
        assert!(fr.contains("importance des leviers sur les 32 cellules de la grille"), "{fr}");
        assert!(fr.contains(": target* 62% [1%], use_charges 20% [1%] ; interactions 18%"), "{fr}");
    }

    #[test]
    fn the_playbook_fits_a_narrow_terminal() {
        for width in [60, 80, 120] {
            let text = optimize(&view(Style::Text, width), &playbook());
            let table: Vec<&str> =
                text.lines().skip(3).filter(|l| !l.starts_with("showing") && !l.starts_with('≈')).collect();
            for l in &table {
                assert!(display_width(l) <= width, "{width}: {l:?}\n{text}");
            }
            assert!(text.contains("P(no PC dies) [3σ]"), "{text}");
            assert!(text.contains("P(win) [3σ]"), "the win rate is never dropped: {text}");
        }
        let md = optimize(&View { style: Style::Markdown, top: 3, ..view(Style::Markdown, 10) }, &playbook());
        assert!(md.starts_with("**best plan: "), "{md}");
        assert!(
            md.contains("| lowest_hp; lowest_hp, spell_policy=none; lowest_hp, use_class_abilities=false |"),
            "{md}"
        );
        assert!(md.contains("Worst-decile HP"), "Markdown keeps every column: {md}");
    }

    #[test]
    fn french_reports_use_french_words_and_typography() {
        let text = optimize(&View { lang: Lang::Fr, ..view(Style::Text, 120) }, &playbook());
        assert!(
            text.starts_with(
                "meilleur plan : viser le plus blessé ; se replier sous 50% des points de vie (`lowest_hp, retreat=0.5`) — P(aucun PJ ne meurt) 92.0% ["
            ),
            "{text}"
        );
        assert!(
            text.contains(" ; à égalité à 3σ avec 21 autres ; les leviers qui comptent (écarts significatifs) : retreat, target"),
            "{text}"
        );
        assert!(text.contains("Rang  Stratégie"), "{text}");
    }

    fn plan(rank: u64, strategy: &str, p_survives: f64, win_rate: f64) -> PlaybookEntry {
        let mut e = entry(rank, strategy, p_survives, 400, None);
        e.tied_with_leader = false;
        e.party.win_rate = win_rate;
        e
    }

    #[test]
    fn a_report_opens_with_its_verdict_then_the_difficulty_by_the_book_and_by_simulation() {
        let r =
            crate::fixtures::results(vec![plan(1, "retreat=0.5", 0.91, 0.8), plan(2, "default", 0.82, 0.7)]);
        let text = report(&view(Style::Text, 100), &r, &Images::new());
        let lines: Vec<&str> = text.lines().take(5).collect();
        assert!(
            lines[0]
                .starts_with("Verdict: Arène d'essai: players (3 goblin) against 2 orc; by the book average"),
            "{text}"
        );
        assert_eq!(
            lines[1..4],
            [
                "",
                "Difficulty by the book: average — encounter CR 1/2 (270 XP) against APL 0 (CR − APL = 0); APL: the levels of the 3 members of players (no PC)",
                "Simulated for players (both sides' default plans, full hit points, 400 battles): win 68.5%, a PC dies 12.0%, everyone down 29.0%, HP lost 5.4 (30.0% of the party's)",
            ],
            "{text}"
        );
        let fr = report(&View { lang: Lang::Fr, ..view(Style::Markdown, 100) }, &r, &Images::new());
        let lines: Vec<&str> = fr.lines().take(9).collect();
        assert_eq!(
            lines[..4],
            ["# full_analysis", "", "seed 1, groupe players, règles pf1e-rules-4", ""],
            "{fr}"
        );
        assert!(
            lines[4].starts_with(
                "**Verdict.** Arène d'essai : players (3 goblin) contre 2 orc ; selon le livre moyenne"
            ),
            "{fr}"
        );
        assert_eq!(
            lines[6..9],
            [
                "Difficulté selon le livre : moyenne — FP de la rencontre 1/2 (270 XP) contre NMG 0 (FP − NMG = 0) ; NMG : les niveaux des 3 membres de players (aucun PJ)",
                "",
                "Simulé pour players (plans par défaut des deux camps, PV au maximum, 400 combats) : victoire 68.5%, un PJ meurt 12.0%, tous à terre 29.0%, PV perdus 5.4 (30.0% de ceux du groupe)",
            ],
            "{fr}"
        );
    }

    #[test]
    fn when_no_plan_survives_the_answer_says_so_and_names_the_least_bad() {
        let r = OptimizeResult {
            adversary_strategy: "lowest_hp".into(),
            spent_runs: 800,
            playbook: vec![plan(1, "use_class_abilities=false", 0.0, 0.17), plan(2, "default", 0.0, 0.12)],
            objective: Criterion::PSurvives,
            confidence: pf1e_engine::metrics::THREE_SIGMA_LEVEL,
            comparison_z: 3.2,
            comparisons: 1,
            none_survives: true,
            least_bad: Some("use_class_abilities=false".into()),
            levers_that_matter: Vec::new(),
            pareto_criteria: vec![],
            constraints: vec![],
            none_feasible: false,
            search: None,
            importance: None,
        };
        assert_eq!(
            optimize_answer(Lang::En, &r).unwrap(),
            "no plan survives: a PC dies in every battle whatever the plan; least bad plan: no class abilities (`use_class_abilities=false`) — P(win) 17.0% [0.0, 0.0], P(everyone down) 0.0%"
        );
        assert_eq!(
            optimize_answer(Lang::Fr, &r).unwrap(),
            "aucun plan ne sauve tout le monde : un PJ meurt dans chaque combat quel que soit le plan ; plan le moins mauvais : aucune capacité de classe (`use_class_abilities=false`) — P(victoire) 17.0% [0.0, 0.0], P(tous à terre) 0.0%"
        );
    }

    #[test]
    fn plans_that_played_the_same_battles_read_as_one_plan() {
        let names = ["default".to_string(), "use_charges=false".to_string()];
        assert_eq!(
            plan_names(&names, Lang::En),
            "the default play (`default`; same battles as use_charges=false)"
        );
        assert_eq!(
            plan_names(&names, Lang::Fr),
            "le jeu par défaut (`default` ; mêmes combats que use_charges=false)"
        );
    }

    #[test]
    fn thresholds_read_on_the_side_they_are_crossed() {
        assert_eq!(threshold_words(Lang::En, Criterion::PAnyDeath, 0.05), "P(a PC dies) ≥ 5.0%");
        assert_eq!(threshold_words(Lang::En, Criterion::PSurvives, 0.5), "P(no PC dies) ≤ 50.0%");
        assert_eq!(threshold_words(Lang::Fr, Criterion::ExpectedHpLost, 10.0), "PV perdus ≥ 10.0");
    }
}
