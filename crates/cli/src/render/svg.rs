//! The danger map as an SVG heatmap (plotters' SVG backend), coloured on an
//! absolute scale (0–100 % for a probability, 0 to the largest value for
//! hit points lost) explained by a colour legend beside the map.

use pf1e_wire::results::{DangerLayer, DangerMapResult};
use plotters::prelude::*;

use crate::i18n::{Lang, T};

const W: u32 = 760;
const H: u32 = 560;
const LEFT: i32 = 90;
const TOP: i32 = 50;
const PLOT: i32 = 440;

/// Colour of a danger value in [0, 1]: green (safe) to red (danger).
fn colour(t: f64) -> RGBColor {
    let t = t.clamp(0.0, 1.0);
    RGBColor((40.0 + 200.0 * t) as u8, (190.0 - 150.0 * t) as u8, 70)
}

/// Renders one layer of a `danger_map` job; `None` when it has no point.
pub fn danger_map_svg(r: &DangerMapResult, layer: &DangerLayer, lang: Lang) -> Option<String> {
    let points = &layer.points;
    if points.is_empty() {
        return None;
    }
    let criterion = r.criterion.name();
    let threshold = r.threshold;
    // Danger in [0, 1] on an absolute scale: a probability as it is (survival
    // reversed: red is where the party dies), hit points lost over [0, the
    // largest value or the threshold], so two maps of one criterion compare.
    let survival = criterion == "p_survives";
    let scale_max = if r.criterion.is_probability() {
        1.0
    } else {
        points.iter().map(|p| p.value).fold(threshold, f64::max).max(1e-9)
    };
    let danger = |v: f64| {
        let d = (v / scale_max).clamp(0.0, 1.0);
        if survival { 1.0 - d } else { d }
    };
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
        let title = lang.f(T::SvgDangerTitle, &[&criterion, &r.party_strategy, &r.adversary_strategy]);
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
        for a in ticks_a {
            root.draw(&Text::new(format!("{a:.2}"), (x(a) - 12, TOP + PLOT + 10), small.clone())).ok()?;
        }
        for p in ticks_p {
            root.draw(&Text::new(format!("{p:.2}"), (LEFT - 40, y(p) - 6), small.clone())).ok()?;
        }
        root.draw(&Text::new(
            lang.t(T::SvgAdversaryHp).to_string(),
            (LEFT + PLOT / 2 - 70, TOP + PLOT + 30),
            style.clone(),
        ))
        .ok()?;
        root.draw(&Text::new(lang.t(T::SvgPartyHp).to_string(), (5, TOP + PLOT / 2), style.clone())).ok()?;
        root.draw(&Text::new(
            lang.f(T::SvgCrossed, &[&criterion, &threshold]),
            (LEFT, TOP + PLOT + 50),
            small.clone(),
        ))
        .ok()?;
        // The legend: the colour of each value of the criterion, bottom to top.
        let (lx, steps) = (LEFT + PLOT + 30, 50);
        root.draw(&Text::new(criterion.to_string(), (lx - 5, TOP - 30), small.clone())).ok()?;
        for k in 0..steps {
            let v0 = f64::from(k) / f64::from(steps);
            let y0 = TOP + PLOT - (v0 * f64::from(PLOT)) as i32;
            let y1 = TOP + PLOT - ((v0 + 1.0 / f64::from(steps)) * f64::from(PLOT)) as i32;
            let value = (v0 + 0.5 / f64::from(steps)) * scale_max;
            root.draw(&Rectangle::new([(lx, y1), (lx + 20, y0)], colour(danger(value)).filled())).ok()?;
        }
        root.draw(&Rectangle::new([(lx, TOP), (lx + 20, TOP + PLOT)], BLACK.stroke_width(1))).ok()?;
        for k in 0..=4 {
            let v = f64::from(k) / 4.0;
            let ly = TOP + PLOT - (v * f64::from(PLOT)) as i32;
            let label = if r.criterion.is_probability() {
                format!("{}%", k * 25)
            } else {
                format!("{:.1}", v * scale_max)
            };
            root.draw(&PathElement::new(vec![(lx + 20, ly), (lx + 25, ly)], BLACK)).ok()?;
            root.draw(&Text::new(label, (lx + 28, ly - 6), small.clone())).ok()?;
        }
        let ty = TOP + PLOT - (danger_position(threshold, scale_max) * f64::from(PLOT)) as i32;
        root.draw(&PathElement::new(vec![(lx - 4, ty), (lx + 24, ty)], BLACK.stroke_width(2))).ok()?;
        root.present().ok()?;
    }
    Some(out)
}

/// Where a value sits on the legend, from its bottom (0) to its top (1).
fn danger_position(value: f64, scale_max: f64) -> f64 {
    (value / scale_max).clamp(0.0, 1.0)
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
        assert!(svg.contains("danger map: p_tpk"));
        // The legend's absolute scale, whatever the values measured.
        for label in ["\n0%\n", "\n50%\n", "\n100%\n"] {
            assert!(svg.contains(label), "{label} missing");
        }
        assert!(danger_map_svg(&r, &r.layers[0], Lang::Fr).unwrap().contains("carte de danger"));
    }
}
