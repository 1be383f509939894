//! The danger map as an SVG heatmap (plotters' SVG backend), coloured with
//! viridis (dark: safe, bright: dangerous; readable in grey and by
//! colour-blind readers) on a scale fitted to the values measured and the
//! threshold, which the colour bar beside the map marks.

use pf1e_wire::results::{DangerLayer, DangerMapResult};
use plotters::prelude::*;

use crate::i18n::{Lang, T};

const W: u32 = 760;
const H: u32 = 560;
const LEFT: i32 = 90;
const TOP: i32 = 50;
const PLOT: i32 = 440;

/// Viridis at nine evenly spaced stops (matplotlib's table, 0 to 1).
const VIRIDIS: [(u8, u8, u8); 9] = [
    (68, 1, 84),
    (71, 44, 122),
    (59, 81, 139),
    (44, 113, 142),
    (33, 144, 141),
    (39, 173, 129),
    (92, 200, 99),
    (170, 220, 50),
    (253, 231, 37),
];

/// Colour of a danger value in [0, 1]: viridis, dark (safe) to bright (danger).
pub fn colour(t: f64) -> RGBColor {
    let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
    let pos = t * (VIRIDIS.len() - 1) as f64;
    let i = (pos.floor() as usize).min(VIRIDIS.len() - 2);
    let f = pos - i as f64;
    let (a, b) = (VIRIDIS[i], VIRIDIS[i + 1]);
    let mix = |x: u8, y: u8| (f64::from(x) + (f64::from(y) - f64::from(x)) * f).round() as u8;
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// Round ends of a probability scale, so the bar's ticks read as round numbers.
const NICE: [f64; 16] =
    [0.0, 0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.75, 0.8, 0.9, 1.0];

/// The range `[lo, hi]` of the colour scale: fitted to the values and the
/// threshold. Danger grows with the value from 0 (hit points lost, the
/// probability of a death or of everyone down) to the smallest round
/// number above them; survival falls from 1 to the largest round number
/// below them.
pub fn scale(values: &[f64], threshold: f64, probability: bool, survival: bool) -> (f64, f64) {
    let max = values.iter().copied().fold(threshold, f64::max);
    let min = values.iter().copied().fold(threshold, f64::min);
    match (probability, survival) {
        (true, true) => (NICE.iter().rev().copied().find(|&n| n <= min).unwrap_or(0.0).min(0.99), 1.0),
        (true, false) => (0.0, NICE.iter().copied().find(|&n| n >= max && n > 0.0).unwrap_or(1.0)),
        (false, _) => (0.0, max.max(1e-9)),
    }
}

/// Renders one layer of a `danger_map` job; `None` when it has no point.
pub fn danger_map_svg(r: &DangerMapResult, layer: &DangerLayer, lang: Lang) -> Option<String> {
    let points = &layer.points;
    if points.is_empty() {
        return None;
    }
    let words = super::jobs::criterion_words(lang, r.criterion);
    let threshold = r.threshold;
    // Danger in [0, 1] on an absolute scale: a probability as it is (survival
    // reversed: red is where the party dies), hit points lost over [0, the
    // largest value or the threshold], so two maps of one criterion compare.
    let survival = r.criterion.higher_is_better();
    let values: Vec<f64> = points.iter().map(|p| p.value).collect();
    let (lo, hi) = scale(&values, threshold, r.criterion.is_probability(), survival);
    // Where a value sits on the bar, 0 at its bottom, 1 at its top.
    let position = |v: f64| ((v - lo) / (hi - lo).max(1e-9)).clamp(0.0, 1.0);
    let danger = |v: f64| if survival { 1.0 - position(v) } else { position(v) };
    let lo_p = points.iter().map(|p| p.party_hp).fold(1.0, f64::min);
    let lo_a = points.iter().map(|p| p.adversary_hp).fold(1.0, f64::min);
    let span_p = (1.0 - lo_p).max(1e-9);
    let span_a = (1.0 - lo_a).max(1e-9);
    // Adversary HP runs left to right, party HP bottom to top.
    let x = |a: f64| LEFT + ((a - lo_a) / span_a * f64::from(PLOT)) as i32;
    let y = |p: f64| TOP + PLOT - ((p - lo_p) / span_p * f64::from(PLOT)) as i32;
    let value_at = |p: f64, a: f64| {
        points
            .iter()
            .find(|q| (q.party_hp - p).abs() < 1e-9 && (q.adversary_hp - a).abs() < 1e-9)
            .map(|q| danger(q.value))
    };
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (W, H)).into_drawing_area();
        root.fill(&WHITE).ok()?;
        let style = ("sans-serif", 14).into_font().color(&BLACK);
        let title = lang.f(
            T::SvgDangerTitle,
            &[
                &words,
                &super::strategy::plain(&r.party_strategy, lang),
                &super::strategy::plain(&r.adversary_strategy, lang),
            ],
        );
        root.draw(&Text::new(title, (LEFT, 20), style.clone())).ok()?;
        let squares = &layer.squares;
        if squares.is_empty() {
            // A single fraction: one square per point.
            for p in points {
                let c = colour(danger(p.value));
                let (px, py) = (x(p.adversary_hp), y(p.party_hp));
                root.draw(&Rectangle::new([(px - 20, py - 20), (px + 20, py + 20)], c.filled())).ok()?;
            }
        }
        for sq in squares {
            let [p0, p1] = sq.party_hp;
            let [a0, a1] = sq.adversary_hp;
            let corners: Vec<f64> = [(p0, a0), (p0, a1), (p1, a0), (p1, a1)]
                .iter()
                .filter_map(|&(p, a)| value_at(p, a))
                .collect();
            let mean = corners.iter().sum::<f64>() / corners.len().max(1) as f64;
            root.draw(&Rectangle::new([(x(a0), y(p1)), (x(a1), y(p0))], colour(mean).filled())).ok()?;
            root.draw(&Rectangle::new([(x(a0), y(p1)), (x(a1), y(p0))], WHITE.stroke_width(1))).ok()?;
        }
        for p in points {
            let (px, py) = (x(p.adversary_hp), y(p.party_hp));
            let mark = if p.crossed { BLACK } else { WHITE };
            root.draw(&Circle::new((px, py), 3, mark.filled())).ok()?;
        }
        let small = ("sans-serif", 12).into_font().color(&BLACK);
        let mut ticks_a: Vec<f64> = points.iter().map(|p| p.adversary_hp).collect();
        let mut ticks_p: Vec<f64> = points.iter().map(|p| p.party_hp).collect();
        for t in [&mut ticks_a, &mut ticks_p] {
            t.sort_by(f64::total_cmp);
            t.dedup_by(|a, b| (*a - *b).abs() < 1e-9);
        }
        // Refined maps have many fractions: a tick label closer than a label's
        // width to the last one drawn is skipped rather than overlapped.
        let mut last: Option<i32> = None;
        for a in ticks_a {
            if last.is_none_or(|l| x(a) - l >= 36) {
                root.draw(&Text::new(hp_label(a), (x(a) - 12, TOP + PLOT + 10), small.clone())).ok()?;
                last = Some(x(a));
            }
        }
        let mut last: Option<i32> = None;
        for p in ticks_p {
            if last.is_none_or(|l| l - y(p) >= 16) {
                root.draw(&Text::new(hp_label(p), (LEFT - 44, y(p) - 6), small.clone())).ok()?;
                last = Some(y(p));
            }
        }
        root.draw(&Text::new(
            lang.t(T::SvgAdversaryHp).to_string(),
            (LEFT + PLOT / 2 - 70, TOP + PLOT + 30),
            style.clone(),
        ))
        .ok()?;
        // The party's axis title runs upward, left of its tick labels.
        let upward = style.clone().transform(FontTransform::Rotate270);
        root.draw(&Text::new(lang.t(T::SvgPartyHp).to_string(), (LEFT - 62, TOP + PLOT / 2 + 30), upward))
            .ok()?;
        root.draw(&Text::new(
            lang.f(T::SvgCrossed, &[&super::jobs::threshold_words(lang, r.criterion, r.threshold)]),
            (LEFT, TOP + PLOT + 50),
            small.clone(),
        ))
        .ok()?;
        // The legend: the colour of each value of the criterion, bottom to top.
        let (lx, steps) = (LEFT + PLOT + 30, 50);
        root.draw(&Text::new(words.to_string(), (lx - 5, TOP - 30), small.clone())).ok()?;
        // Integer boundaries shared by neighbouring steps, each step drawn one
        // pixel into the next: no gap for the renderer's anti-aliasing to show.
        let edge = |k: i32| TOP + PLOT - (f64::from(k) * f64::from(PLOT) / f64::from(steps)).round() as i32;
        for k in 0..steps {
            let value = lo + (f64::from(k) + 0.5) / f64::from(steps) * (hi - lo);
            let top = if k + 1 < steps { edge(k + 1) - 1 } else { edge(k + 1) };
            root.draw(&Rectangle::new([(lx, top), (lx + 20, edge(k))], colour(danger(value)).filled()))
                .ok()?;
        }
        root.draw(&Rectangle::new([(lx, TOP), (lx + 20, TOP + PLOT)], BLACK.stroke_width(1))).ok()?;
        let fine = hi - lo < 0.1;
        for k in 0..=4 {
            let v = lo + f64::from(k) / 4.0 * (hi - lo);
            let ly = TOP + PLOT - (f64::from(k) / 4.0 * f64::from(PLOT)) as i32;
            let label = match (r.criterion.is_probability(), fine) {
                (true, true) => format!("{:.1}%", v * 100.0),
                (true, false) => format!("{:.0}%", v * 100.0),
                (false, _) => format!("{v:.1}"),
            };
            root.draw(&PathElement::new(vec![(lx + 20, ly), (lx + 25, ly)], BLACK)).ok()?;
            root.draw(&Text::new(label, (lx + 28, ly - 6), small.clone())).ok()?;
        }
        // The threshold: a red line across the bar, labelled right of the ticks.
        let ty = TOP + PLOT - (position(threshold) * f64::from(PLOT)) as i32;
        let red = RGBColor(220, 30, 30);
        root.draw(&PathElement::new(vec![(lx - 6, ty), (lx + 26, ty)], red.stroke_width(3))).ok()?;
        let threshold_label = if r.criterion.is_probability() {
            format!("{:.1}%", threshold * 100.0)
        } else {
            format!("{threshold:.1}")
        };
        root.draw(&Text::new(threshold_label, (lx + 70, ty - 6), small.clone().color(&red))).ok()?;
        root.present().ok()?;
    }
    Some(out)
}

/// A hit-point fraction as an axis label: `25%`, `37.5%`.
fn hp_label(f: f64) -> String {
    let pct = f * 100.0;
    if (pct - pct.round()).abs() < 1e-6 { format!("{pct:.0}%") } else { format!("{pct:.1}%") }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pf1e_wire::results::{Criterion, DangerMetrics, DangerPoint, DangerSquare};

    #[test]
    fn renders_an_svg_with_one_rectangle_per_square() {
        let point = |party_hp, adversary_hp, value, crossed| DangerPoint {
            party_hp,
            adversary_hp,
            level: 0,
            value,
            crossed,
            party: DangerMetrics::default(),
            adversary: DangerMetrics::default(),
            interval: [value, value],
            undecided: false,
            resampled: 0,
        };
        let layer = DangerLayer {
            aware: Default::default(),
            copies: Default::default(),
            points: vec![
                point(0.5, 0.5, 0.9, true),
                point(0.5, 1.0, 0.8, true),
                point(1.0, 0.5, 0.1, false),
                point(1.0, 1.0, 0.0, false),
            ],
            squares: vec![DangerSquare { party_hp: [0.5, 1.0], adversary_hp: [0.5, 1.0], level: 0 }],
            most_dangerous: None,
        };
        let r =
            DangerMapResult::new(Criterion::PTpk, 0.2, "default".into(), "default".into(), 0, vec![layer]);
        let svg = danger_map_svg(&r, &r.layers[0], Lang::En).unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..40.min(svg.len())]);
        assert!(svg.contains("<rect"));
        assert!(svg.contains("<circle"));
        assert!(svg.contains("danger map: P(everyone down)"), "{svg}");
        // The scale is fitted: values up to 90% with a 20% threshold end at 100%.
        for label in ["\n0%\n", "\n50%\n", "\n100%\n"] {
            assert!(svg.contains(label), "{label} missing");
        }
        assert!(danger_map_svg(&r, &r.layers[0], Lang::Fr).unwrap().contains("carte de danger"));
        // The party's axis title is turned upward, clear of its tick labels.
        assert!(svg.contains("rotate(270"), "{svg}");
        // The threshold is marked and labelled.
        assert!(svg.contains(">20.0%<") || svg.contains("\n20.0%\n"), "{svg}");
    }

    #[test]
    fn the_scale_is_fitted_to_the_values_and_the_threshold() {
        // A 2–15 % map is not squeezed into the bottom of 0–100 %.
        assert_eq!(scale(&[0.02, 0.15], 0.1, true, false), (0.0, 0.15));
        assert_eq!(scale(&[0.02, 0.03], 0.05, true, false), (0.0, 0.05), "the threshold is on the bar");
        assert_eq!(scale(&[0.5, 0.97], 0.1, true, false), (0.0, 1.0));
        // Survival falls from 1 to a round number below the values.
        assert_eq!(scale(&[0.85, 0.97], 0.9, true, true), (0.8, 1.0));
        assert_eq!(scale(&[1.0], 1.0, true, true), (0.99, 1.0), "never an empty range");
        assert_eq!(scale(&[3.0, 12.5], 10.0, false, false), (0.0, 12.5));
    }

    #[test]
    fn colours_are_viridis_from_dark_to_bright() {
        assert_eq!(colour(0.0), RGBColor(68, 1, 84));
        assert_eq!(colour(1.0), RGBColor(253, 231, 37));
        assert_eq!(colour(0.5), RGBColor(33, 144, 141));
        let luma = |c: RGBColor| 0.3 * f64::from(c.0) + 0.59 * f64::from(c.1) + 0.11 * f64::from(c.2);
        let steps: Vec<f64> = (0..=20).map(|k| luma(colour(f64::from(k) / 20.0))).collect();
        assert!(steps.windows(2).all(|w| w[1] > w[0]), "brightness grows with danger: {steps:?}");
        assert_eq!(hp_label(0.25), "25%");
        assert_eq!(hp_label(0.375), "37.5%");
    }
}
