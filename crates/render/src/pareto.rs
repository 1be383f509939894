//! The Pareto front of an `optimize` job as a scatter plot (SVG): one dot per
//! row of the playbook (a group of identical play counts once) on the first
//! two criteria of the front, the front's members filled, joined and labelled
//! with their intervals as bars, the others hollow and grey; with a third
//! criterion, the members' colour is its value (viridis, dark to bright over
//! the members' range, as the legend says).

use pf1e_engine::objectives::Criterion;
use pf1e_wire::results::{OptimizeResult, PlaybookEntry};
use plotters::prelude::*;

use crate::i18n::{Lang, T};
use crate::svg::colour;
use crate::words::{criterion_value, criterion_words};

const W: u32 = 760;
const H: u32 = 560;
const LEFT: i32 = 80;
const RIGHT: i32 = 30;
const TOP: i32 = 60;
const BOTTOM: i32 = 70;

/// The scatter plot of the front; `None` without two criteria or two plans.
pub fn pareto_svg(r: &OptimizeResult, lang: Lang) -> Option<String> {
    let (&cx, &cy) = (r.pareto_criteria.first()?, r.pareto_criteria.get(1)?);
    let cz = r.pareto_criteria.get(2).copied();
    // One dot per group of identical play: its representative.
    let rows: Vec<&PlaybookEntry> = r.playbook.iter().filter(|e| e.same_as.is_none()).collect();
    if rows.len() < 2 {
        return None;
    }
    let value = |c: Criterion, e: &PlaybookEntry| c.value(&e.party);
    let interval = |c: Criterion, e: &PlaybookEntry| e.party.interval(c);
    // The axes hold every dot and the members' bars, padded by 5 %.
    let span = |c: Criterion| {
        let mut lo = f64::INFINITY;
        let mut hi = f64::NEG_INFINITY;
        for e in &rows {
            let (a, b) = if e.pareto { interval(c, e) } else { (value(c, e), value(c, e)) };
            lo = lo.min(a.min(value(c, e)));
            hi = hi.max(b.max(value(c, e)));
        }
        let pad = ((hi - lo) * 0.05).max(if c.is_probability() { 0.005 } else { 0.1 });
        let (lo, hi) = (lo - pad, hi + pad);
        if c.is_probability() { (lo.max(0.0), hi.min(1.0)) } else { (lo.max(0.0), hi) }
    };
    let ((x0, x1), (y0, y1)) = (span(cx), span(cy));
    let (pw, ph) = (W as i32 - LEFT - RIGHT, H as i32 - TOP - BOTTOM);
    let px = |v: f64| LEFT + ((v - x0) / (x1 - x0) * f64::from(pw)).round() as i32;
    let py = |v: f64| TOP + ph - ((v - y0) / (y1 - y0) * f64::from(ph)).round() as i32;
    let members: Vec<&PlaybookEntry> = rows.iter().copied().filter(|e| e.pareto).collect();
    let (z0, z1) = cz.map_or((0.0, 1.0), |c| {
        members
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), e| (a.min(value(c, e)), b.max(value(c, e))))
    });
    // Dark is better on the third criterion.
    let shade = |e: &PlaybookEntry| match cz {
        Some(c) if z1 > z0 => {
            let t = (value(c, e) - z0) / (z1 - z0);
            colour(if c.higher_is_better() { 1.0 - t } else { t })
        }
        Some(_) => colour(0.0),
        None => BLUE,
    };
    let direction =
        |c: Criterion| lang.t(if c.higher_is_better() { T::SvgHigherBetter } else { T::SvgLowerBetter });
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (W, H)).into_drawing_area();
        root.fill(&WHITE).ok()?;
        let font = ("sans-serif", 14).into_font().color(&BLACK);
        let small = ("sans-serif", 11).into_font().color(&BLACK);
        let title = lang.f(T::SvgParetoTitle, &[&members.len(), &rows.len()]);
        root.draw(&Text::new(title, (10, 20), font.clone())).ok()?;
        if let Some(c) = cz {
            let (dark, bright) = if c.higher_is_better() { (z1, z0) } else { (z0, z1) };
            let legend = lang.f(
                T::SvgParetoColour,
                &[&criterion_words(lang, c), &criterion_value(c, dark), &criterion_value(c, bright)],
            );
            root.draw(&Text::new(legend, (10, 40), small.clone())).ok()?;
        }
        // Axes with five ticks each.
        let (bottom, right) = (TOP + ph, LEFT + pw);
        let grey = RGBColor(220, 220, 220);
        for k in 0..=4 {
            let f = f64::from(k) / 4.0;
            let (vx, vy) = (x0 + f * (x1 - x0), y0 + f * (y1 - y0));
            root.draw(&PathElement::new(vec![(px(vx), TOP), (px(vx), bottom)], grey)).ok()?;
            root.draw(&PathElement::new(vec![(LEFT, py(vy)), (right, py(vy))], grey)).ok()?;
            root.draw(&Text::new(criterion_value(cx, vx), (px(vx) - 14, bottom + 6), small.clone())).ok()?;
            root.draw(&Text::new(criterion_value(cy, vy), (8, py(vy) - 6), small.clone())).ok()?;
        }
        let xlabel = format!("{} ({})", criterion_words(lang, cx), direction(cx));
        root.draw(&Text::new(xlabel, (LEFT + pw / 2 - 80, bottom + 30), font.clone())).ok()?;
        let ylabel = format!("{} ({})", criterion_words(lang, cy), direction(cy));
        root.draw(&Text::new(ylabel, (LEFT, TOP - 14), font)).ok()?;
        // The others first, hollow and grey.
        for e in rows.iter().filter(|e| !e.pareto) {
            let at = (px(value(cx, e)), py(value(cy, e)));
            root.draw(&Circle::new(at, 3, RGBColor(160, 160, 160).stroke_width(1))).ok()?;
        }
        // The front joined in order of the first criterion.
        let mut front = members.clone();
        front.sort_by(|a, b| value(cx, a).total_cmp(&value(cx, b)));
        let line: Vec<(i32, i32)> = front.iter().map(|e| (px(value(cx, e)), py(value(cy, e)))).collect();
        root.draw(&PathElement::new(line, RGBColor(120, 120, 120).stroke_width(1))).ok()?;
        // Labels keep inside the plot and never overlap: a label that would
        // cover another is left out (the table lists every member).
        let mut placed: Vec<(i32, i32, i32)> = Vec::new();
        for e in &front {
            let (x, y) = (value(cx, e), value(cy, e));
            let ((xl, xh), (yl, yh)) = (interval(cx, e), interval(cy, e));
            let c = shade(e);
            root.draw(&PathElement::new(vec![(px(xl), py(y)), (px(xh), py(y))], c.stroke_width(1))).ok()?;
            root.draw(&PathElement::new(vec![(px(x), py(yl)), (px(x), py(yh))], c.stroke_width(1))).ok()?;
            root.draw(&Circle::new((px(x), py(y)), 5, c.filled())).ok()?;
            let mut label = format!("{} {}", e.rank, e.strategy);
            if label.chars().count() > 34 {
                label = label.chars().take(33).collect::<String>() + "…";
            }
            let width = 7 * label.chars().count() as i32;
            let lx = if px(x) + 7 + width > W as i32 - 4 { (px(x) - 7 - width).max(2) } else { px(x) + 7 };
            let ly = py(y) - 14;
            let free = placed
                .iter()
                .all(|&(ox, oy, ow)| ly + 13 < oy || oy + 13 < ly || lx + width < ox || ox + ow < lx);
            if free {
                placed.push((lx, ly, width));
                root.draw(&Text::new(label, (lx, ly), small.clone())).ok()?;
            }
        }
        root.present().ok()?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pf1e_wire::results::{DangerMetrics, Stage};

    fn entry(rank: u64, strategy: &str, win: f64, death: f64, hp: f64, pareto: bool) -> PlaybookEntry {
        PlaybookEntry {
            rank,
            strategy: strategy.into(),
            stage: Stage::Grid,
            runs: 200,
            raced: 0,
            tied_with_leader: false,
            party: DangerMetrics {
                runs: 200,
                win_rate: win,
                p_any_death: death,
                p_survives: 1.0 - death,
                expected_hp_lost: hp,
                ..Default::default()
            },
            adversary: DangerMetrics::default(),
            same_as: None,
            vs_leader: None,
            pareto,
            constraints: None,
        }
    }

    fn result(criteria: Vec<Criterion>) -> OptimizeResult {
        let mut twin = entry(4, "spell_policy=none", 0.8, 0.2, 9.0, false);
        twin.same_as = Some("default".into());
        OptimizeResult {
            adversary_strategy: "default".into(),
            spent_runs: 800,
            playbook: vec![
                entry(1, "lowest_hp", 0.95, 0.10, 12.0, true),
                entry(2, "healer", 0.90, 0.05, 8.0, true),
                entry(3, "default", 0.80, 0.20, 9.0, false),
                twin,
            ],
            objective: Criterion::PSurvives,
            confidence: 0.997,
            comparison_z: 3.0,
            comparisons: 3,
            none_survives: false,
            least_bad: None,
            levers_that_matter: vec![],
            pareto_criteria: criteria,
            constraints: vec![],
            none_feasible: false,
            search: None,
            importance: None,
        }
    }

    #[test]
    fn the_front_is_filled_and_labelled_the_others_hollow_a_group_counted_once() {
        let r = result(vec![Criterion::PWin, Criterion::PAnyDeath, Criterion::ExpectedHpLost]);
        let svg = pareto_svg(&r, Lang::En).unwrap();
        assert!(svg.starts_with("<svg"));
        assert_eq!(svg.matches("<circle").count(), 3, "two members, one other, the twin left out: {svg}");
        assert!(
            svg.contains("1 lowest_hp") && svg.contains("2 healer") && !svg.contains("3 default"),
            "{svg}"
        );
        assert!(svg.contains("Pareto front: 2 of 3 plans"), "{svg}");
        assert!(svg.contains("P(win) (higher is better)") && svg.contains("P(a PC dies) (lower is better)"));
        assert!(svg.contains("colour: HP lost from 8.0 (dark) to 12.0 (bright)"), "{svg}");
        // The third criterion's best member is the darkest (viridis' first colour).
        let dark = colour(0.0);
        assert!(svg.contains(&format!("#{:02X}{:02X}{:02X}", dark.0, dark.1, dark.2)), "{svg}");
        let fr = pareto_svg(&r, Lang::Fr).unwrap();
        assert!(fr.contains("front de Pareto : 2 plans sur 3"), "{fr}");
        // Two criteria: no colour scale; fewer than two: no plot.
        let two = pareto_svg(&result(vec![Criterion::PWin, Criterion::PAnyDeath]), Lang::En).unwrap();
        assert!(!two.contains("colour:"));
        assert!(pareto_svg(&result(vec![]), Lang::En).is_none());
    }
}
