//! The playbook of an `optimize` job as a forest plot (SVG): one line per
//! row of the playbook, best first, its P(no PC dies) as a dot and its 3σ band
//! as a bar, on an absolute 0–100 % axis, with a line at the leader's value.

use pf1e_wire::results::OptimizeResult;
use plotters::prelude::*;

use super::jobs::optimize_rows;
use crate::i18n::{Lang, T};

const W: u32 = 900;
const ROW: i32 = 22;
const TOP: i32 = 50;
const LEFT: i32 = 360;
const RIGHT: i32 = 40;
const BOTTOM: i32 = 50;

/// The forest plot of the top `top` rows; `None` when the playbook is empty.
pub fn playbook_svg(r: &OptimizeResult, lang: Lang, top: usize) -> Option<String> {
    let rows = optimize_rows(r, top);
    if rows.is_empty() {
        return None;
    }
    let n = rows.len() as i32;
    let h = (TOP + n * ROW + BOTTOM) as u32;
    let plot = W as i32 - LEFT - RIGHT;
    let x = |p: f64| LEFT + (p.clamp(0.0, 1.0) * f64::from(plot)).round() as i32;
    let most_runs = rows.iter().map(|r| r.runs).max().unwrap_or(0);
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (W, h)).into_drawing_area();
        root.fill(&WHITE).ok()?;
        let font = ("sans-serif", 14).into_font().color(&BLACK);
        let small = ("sans-serif", 12).into_font().color(&BLACK);
        root.draw(&Text::new(
            lang.f(T::SvgPlaybookTitle, &[&super::strategy::plain(&r.adversary_strategy, lang), &most_runs]),
            (10, 20),
            font.clone(),
        ))
        .ok()?;
        // Axis: 0 %, 25 %, … 100 %, with light grid lines.
        let bottom = TOP + n * ROW;
        for k in 0..=4 {
            let p = f64::from(k) / 4.0;
            let gx = x(p);
            root.draw(&PathElement::new(vec![(gx, TOP - 5), (gx, bottom)], RGBColor(220, 220, 220))).ok()?;
            root.draw(&Text::new(format!("{}%", k * 25), (gx - 12, bottom + 8), small.clone())).ok()?;
        }
        root.draw(&Text::new(lang.t(T::ColSurvive).to_string(), (LEFT + plot / 2 - 50, bottom + 28), font))
            .ok()?;
        // The leader's value.
        let lead = x(rows[0].p);
        root.draw(&PathElement::new(vec![(lead, TOP - 5), (lead, bottom)], BLUE.mix(0.5).stroke_width(1)))
            .ok()?;
        for (i, row) in rows.iter().enumerate() {
            let y = TOP + i as i32 * ROW + ROW / 2;
            let mut label = format!("{}{} {}", row.rank, if row.tied { "≈" } else { "" }, row.names);
            if label.chars().count() > 52 {
                label = label.chars().take(51).collect::<String>() + "…";
            }
            root.draw(&Text::new(label, (10, y - 7), small.clone())).ok()?;
            let colour = if i == 0 {
                BLUE
            } else if row.tied {
                RGBColor(90, 90, 90)
            } else {
                RGBColor(170, 170, 170)
            };
            root.draw(&PathElement::new(vec![(x(row.lo), y), (x(row.hi), y)], colour.stroke_width(2)))
                .ok()?;
            for end in [row.lo, row.hi] {
                root.draw(&PathElement::new(vec![(x(end), y - 4), (x(end), y + 4)], colour.stroke_width(1)))
                    .ok()?;
            }
            root.draw(&Circle::new((x(row.p), y), 4, colour.filled())).ok()?;
        }
        root.present().ok()?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pf1e_wire::results::{DangerMetrics, PlaybookEntry, Stage};

    #[test]
    fn one_bar_and_one_dot_per_row_on_an_absolute_axis() {
        let entry = |rank, strategy: &str, p| PlaybookEntry {
            rank,
            strategy: strategy.into(),
            stage: Stage::Grid,
            runs: 200,
            raced: 0,
            tied_with_leader: rank == 2,
            party: DangerMetrics { runs: 200, p_survives: p, ..Default::default() },
            adversary: DangerMetrics::default(),
            same_as: None,
            vs_leader: None,
            pareto: false,
            constraints: None,
        };
        let r = OptimizeResult {
            adversary_strategy: "lowest_hp".into(),
            spent_runs: 600,
            playbook: vec![entry(1, "default", 0.9), entry(2, "healer", 0.85), entry(3, "nearest", 0.3)],
            objective: pf1e_engine::objectives::Criterion::PSurvives,
            confidence: 0.997,
            comparison_z: 3.0,
            comparisons: 2,
            none_survives: false,
            least_bad: None,
            levers_that_matter: vec![],
            pareto_criteria: vec![],
            constraints: vec![],
            none_feasible: false,
            search: None,
            importance: None,
        };
        let svg = playbook_svg(&r, Lang::En, 10).unwrap();
        assert!(svg.starts_with("<svg"));
        assert_eq!(svg.matches("<circle").count(), 3, "{svg}");
        assert!(svg.contains("\n100%\n") && svg.contains("\n0%\n"), "an absolute axis: {svg}");
        assert!(svg.contains("2≈ healer"), "{svg}");
        let top1 = playbook_svg(&r, Lang::Fr, 1).unwrap();
        assert_eq!(top1.matches("<circle").count(), 1);
        assert!(top1.contains("P(aucun PJ ne meurt)"), "{top1}");
    }
}
