//! Lever importance of an `optimize` job as a bar chart (SVG): one
//! horizontal bar per lever, as long as its first-order share of the
//! variance of the objective over the grid's cells, the share noise alone
//! would give drawn on the bar as a dark band ending in a tick, the levers
//! the paired test finds to matter in blue and marked `*`, the others grey;
//! a last bar for the interactions (what no lever explains alone), in
//! orange. The levers searched as ranges, when there are some, follow in a
//! second group: their shares of the variance of the Gaussian process's
//! posterior mean over the ranges (`docs/statistics.md`, "Lever importance").

use pf1e_wire::results::OptimizeResult;
use plotters::prelude::*;

use crate::i18n::{Lang, T};
use crate::words::criterion_words;

const W: u32 = 760;
const ROW: i32 = 24;
const HEADER: i32 = 26;
const TOP: i32 = 56;
const LEFT: i32 = 190;
const RIGHT: i32 = 110;
const BOTTOM: i32 = 80;

/// The colour of a lever the paired test finds to matter (Okabe–Ito blue).
pub const SIGNIFICANT: RGBColor = RGBColor(0x00, 0x72, 0xB2);
/// The colour of a lever it does not (grey).
pub const OTHER: RGBColor = RGBColor(0xAA, 0xAA, 0xAA);
/// The colour of the interactions' bar (Okabe–Ito orange).
pub const INTERACTIONS: RGBColor = RGBColor(0xE6, 0x9F, 0x00);
/// The colour of a lever searched as a range (Okabe–Ito bluish green).
pub const RANGED: RGBColor = RGBColor(0x00, 0x9E, 0x73);
/// The colour of the noise floor drawn on a bar.
pub const FLOOR: RGBColor = RGBColor(0x33, 0x33, 0x33);

/// One bar of the chart.
#[derive(Debug, Clone, PartialEq)]
pub struct Bar {
    /// The lever (or the interactions, in words).
    pub label: String,
    /// The share, in [0, 1].
    pub share: f64,
    /// The share noise alone would give (none for the interactions).
    pub noise: Option<f64>,
    /// The bar's colour.
    pub colour: RGBColor,
}

/// A group of bars under a heading.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// What the shares are of.
    pub heading: String,
    /// The bars, largest lever first, the interactions last.
    pub bars: Vec<Bar>,
}

/// The groups of `r`: the grid's levers and, when the search has its own
/// importance, the ranged levers.
pub fn groups(r: &OptimizeResult, lang: Lang) -> Vec<Group> {
    let mut out = Vec::new();
    if let Some(i) = &r.importance {
        let mut bars: Vec<Bar> = i
            .levers
            .iter()
            .map(|l| Bar {
                label: format!("{}{}", l.lever, if l.significant { "*" } else { "" }),
                share: l.share,
                noise: Some(l.noise),
                colour: if l.significant { SIGNIFICANT } else { OTHER },
            })
            .collect();
        bars.push(Bar {
            label: lang.t(T::SvgInteractions).to_string(),
            share: i.interactions,
            noise: None,
            colour: INTERACTIONS,
        });
        out.push(Group { heading: lang.f(T::SvgImportanceGrid, &[&i.cells]), bars });
    }
    if let Some(i) = r.search.as_ref().and_then(|s| s.importance.as_ref()) {
        let mut bars: Vec<Bar> = i
            .levers
            .iter()
            .map(|l| Bar { label: l.lever.clone(), share: l.share, noise: Some(l.noise), colour: RANGED })
            .collect();
        // One ranged lever explains all its surface: no interactions to show.
        if i.levers.len() > 1 {
            bars.push(Bar {
                label: lang.t(T::SvgInteractions).to_string(),
                share: i.interactions,
                noise: None,
                colour: INTERACTIONS,
            });
        }
        out.push(Group { heading: lang.f(T::SvgImportanceRanges, &[&i.points]), bars });
    }
    out
}

/// The bar chart of the job's lever importance; `None` when it has none.
pub fn importance_svg(r: &OptimizeResult, lang: Lang) -> Option<String> {
    let groups = groups(r, lang);
    if groups.is_empty() {
        return None;
    }
    let rows: i32 = groups.iter().map(|g| g.bars.len() as i32).sum();
    let h = (TOP + groups.len() as i32 * HEADER + rows * ROW + BOTTOM) as u32;
    let plot = W as i32 - LEFT - RIGHT;
    let x = |p: f64| LEFT + (p.clamp(0.0, 1.0) * f64::from(plot)).round() as i32;
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (W, h)).into_drawing_area();
        root.fill(&WHITE).ok()?;
        let font = ("sans-serif", 14).into_font().color(&BLACK);
        let small = ("sans-serif", 12).into_font().color(&BLACK);
        let title = lang.f(T::SvgImportanceTitle, &[&criterion_words(lang, r.objective)]);
        root.draw(&Text::new(title, (10, 20), font.clone())).ok()?;
        let bottom = h as i32 - BOTTOM;
        // Axis: 0 %, 25 %, … 100 %, with light grid lines.
        for k in 0..=4 {
            let p = f64::from(k) / 4.0;
            let gx = x(p);
            root.draw(&PathElement::new(vec![(gx, TOP - 5), (gx, bottom)], RGBColor(220, 220, 220))).ok()?;
            root.draw(&Text::new(format!("{}%", k * 25), (gx - 12, bottom + 8), small.clone())).ok()?;
        }
        root.draw(&Text::new(lang.t(T::SvgImportanceAxis).to_string(), (LEFT, bottom + 26), small.clone()))
            .ok()?;
        root.draw(&Text::new(lang.t(T::SvgImportanceLegend).to_string(), (10, bottom + 44), small.clone()))
            .ok()?;
        root.draw(&Text::new(lang.t(T::SvgImportanceColours).to_string(), (10, bottom + 60), small.clone()))
            .ok()?;
        let mut y = TOP;
        for g in &groups {
            root.draw(&Text::new(g.heading.clone(), (10, y + 6), font.clone())).ok()?;
            y += HEADER;
            for b in &g.bars {
                let mid = y + ROW / 2;
                let mut label = b.label.clone();
                if label.chars().count() > 26 {
                    label = label.chars().take(25).collect::<String>() + "…";
                }
                root.draw(&Text::new(label, (10, mid - 7), small.clone())).ok()?;
                let (top, low) = (mid - 8, mid + 8);
                root.draw(&Rectangle::new(
                    [(x(0.0), top), (x(b.share).max(x(0.0) + 1), low)],
                    b.colour.filled(),
                ))
                .ok()?;
                let mut value = format!("{:.0}%", b.share * 100.0);
                if let Some(n) = b.noise {
                    // The floor: a dark band over the bar's middle, ending in a tick.
                    let end = x(n);
                    root.draw(&Rectangle::new(
                        [(x(0.0), mid - 3), (end.max(x(0.0) + 1), mid + 3)],
                        FLOOR.filled(),
                    ))
                    .ok()?;
                    root.draw(&PathElement::new(vec![(end, top - 3), (end, low + 3)], FLOOR.stroke_width(2)))
                        .ok()?;
                    // Noise larger than the whole variance: the shares are noise.
                    let floor = if n >= 1.0 { "≥100%".to_string() } else { format!("{:.0}%", n * 100.0) };
                    value += &format!(" [{floor}]");
                }
                root.draw(&Text::new(value, (x(1.0) + 8, mid - 7), small.clone())).ok()?;
                y += ROW;
            }
        }
        root.present().ok()?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pf1e_engine::objectives::Criterion;
    use pf1e_wire::results::{
        Importance, LeverImportance, RangeImportance, RangeLeverImportance, SearchResult,
    };

    fn result(importance: Option<Importance>) -> OptimizeResult {
        OptimizeResult {
            adversary_strategy: "default".into(),
            spent_runs: 800,
            playbook: vec![],
            objective: Criterion::PSurvives,
            confidence: 0.997,
            comparison_z: 3.0,
            comparisons: 3,
            none_survives: false,
            least_bad: None,
            levers_that_matter: vec![],
            pareto_criteria: vec![],
            constraints: vec![],
            none_feasible: false,
            search: None,
            importance,
        }
    }

    fn lever(name: &str, share: f64, noise: f64, significant: bool) -> LeverImportance {
        LeverImportance { lever: name.into(), share, noise, significant }
    }

    /// The rectangles of `svg` filled with `c`: (x, y, width, height).
    pub(crate) fn rects(svg: &str, c: RGBColor) -> Vec<(i32, i32, i32, i32)> {
        let fill = format!("fill=\"#{:02X}{:02X}{:02X}\"", c.0, c.1, c.2);
        let attr = |tag: &str, name: &str| -> i32 {
            let at = tag.find(&format!(" {name}=\"")).expect(name) + name.len() + 3;
            tag[at..].split('"').next().and_then(|v| v.parse().ok()).expect(name)
        };
        svg.split("<rect")
            .skip(1)
            .map(|t| &t[..t.find("/>").unwrap_or(t.len())])
            .filter(|t| t.contains(&fill))
            .map(|t| (attr(t, "x"), attr(t, "y"), attr(t, "width"), attr(t, "height")))
            .collect()
    }

    #[test]
    fn one_bar_per_lever_as_long_as_its_share_with_its_floor_and_the_interactions() {
        let r = result(Some(Importance {
            cells: 32,
            levers: vec![
                lever("spell_policy", 0.36, 0.004, true),
                lever("target", 0.25, 0.009, true),
                lever("use_charges", 0.02, 0.03, false),
            ],
            interactions: 0.37,
        }));
        let svg = importance_svg(&r, Lang::En).unwrap();
        assert!(svg.starts_with("<svg"));
        let plot = f64::from(W as i32 - LEFT - RIGHT);
        let width = |share: f64| ((share * plot).round() as i32).max(1);
        // Two significant levers in blue, one grey, the interactions in orange.
        let blue = rects(&svg, SIGNIFICANT);
        assert_eq!(blue.iter().map(|r| r.2).collect::<Vec<_>>(), [width(0.36), width(0.25)], "{svg}");
        assert_eq!(rects(&svg, OTHER).iter().map(|r| r.2).collect::<Vec<_>>(), [width(0.02)]);
        assert_eq!(rects(&svg, INTERACTIONS).iter().map(|r| r.2).collect::<Vec<_>>(), [width(0.37)]);
        // A floor on each lever's bar (none on the interactions), inside its bar's height.
        let floors = rects(&svg, FLOOR);
        assert_eq!(floors.iter().map(|r| r.2).collect::<Vec<_>>(), [width(0.004), width(0.009), width(0.03)]);
        for (f, b) in floors.iter().zip(blue.iter().chain(&rects(&svg, OTHER))) {
            assert!(f.0 == b.0 && f.1 > b.1 && f.1 + f.3 < b.1 + b.3, "floor {f:?} on bar {b:?}");
        }
        // Bars one below another, all from the axis's 0.
        let ys: Vec<i32> = blue.iter().chain(&rects(&svg, OTHER)).map(|r| r.1).collect();
        assert!(ys.windows(2).all(|w| w[1] - w[0] == ROW), "{ys:?}");
        assert!(blue.iter().all(|b| b.0 == LEFT));
        // Labels: significance marked, the share and its floor.
        for text in ["spell_policy*", "target*", "\nuse_charges\n", "36% [0%]", "25% [1%]", "2% [3%]", "37%"]
        {
            assert!(svg.contains(text), "{text}: {svg}");
        }
        assert!(svg.contains("interactions") && svg.contains("grid (32 cells)"), "{svg}");
        assert!(svg.contains("green: a lever searched as a range"), "{svg}");
        assert!(svg.contains("Lever importance: share of the variance of P(no PC dies)"), "{svg}");
        let fr = importance_svg(&r, Lang::Fr).unwrap();
        assert!(fr.contains("Importance des leviers") && fr.contains("grille (32 cellules)"), "{fr}");
        // Noise beyond the whole variance is said so; no importance, no chart.
        // The ranged levers follow, in green with their floors, their interactions in orange.
        let mut both = r.clone();
        both.search = Some(SearchResult {
            ranges: vec!["retreat: [0, 0.9]".into(), "area_min: [1, 3]".into()],
            levers: vec!["retreat".into(), "area_min".into()],
            base: "default".into(),
            batches: 4,
            points_per_batch: 4,
            spent_runs: 6400,
            points: vec![],
            best: None,
            vs_grid: None,
            importance: Some(Box::new(RangeImportance {
                points: 17,
                design: 4096,
                levers: vec![
                    RangeLeverImportance { lever: "retreat".into(), share: 0.8, noise: 0.05 },
                    RangeLeverImportance { lever: "area_min".into(), share: 0.15, noise: 0.05 },
                ],
                interactions: 0.05,
                spread: 0.02,
                uncertainty: 0.01,
            })),
            pareto: vec![],
        });
        let svg = importance_svg(&both, Lang::En).unwrap();
        assert_eq!(rects(&svg, RANGED).iter().map(|r| r.2).collect::<Vec<_>>(), [width(0.8), width(0.15)]);
        assert_eq!(
            rects(&svg, INTERACTIONS).iter().map(|r| r.2).collect::<Vec<_>>(),
            [width(0.37), width(0.05)]
        );
        assert_eq!(rects(&svg, FLOOR).len(), 5, "a floor on every lever's bar");
        assert!(svg.contains("the ranges (Gaussian process over 17 points)"), "{svg}");
        // A search alone (no grid) has its chart too.
        both.importance = None;
        assert_eq!(rects(&importance_svg(&both, Lang::En).unwrap(), RANGED).len(), 2);
        let noisy = result(Some(Importance {
            cells: 8,
            levers: vec![lever("target", 0.5, 1.4, false)],
            interactions: 0.5,
        }));
        assert!(importance_svg(&noisy, Lang::En).unwrap().contains("50% [≥100%]"));
        assert!(importance_svg(&result(None), Lang::En).is_none());
    }
}
