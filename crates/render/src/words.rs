//! Outcome words every report uses: a party criterion, its value, a
//! threshold on the side it is crossed, a danger map layer's extra axes.
//! A leaf of `render` (the job reports, the verdict, the SVG charts and
//! the progress lines read it).

use pf1e_wire::results::{Criterion, DangerLayer};

use crate::i18n::{Lang, T};

fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

fn num(x: f64, digits: usize) -> String {
    format!("{x:.digits$}")
}

/// A party criterion in the words every report uses.
pub fn criterion_words(lang: Lang, c: Criterion) -> &'static str {
    lang.t(match c {
        Criterion::PSurvives => T::CritNoPcDies,
        Criterion::PTpk => T::CritEveryoneDown,
        Criterion::PAnyDeath => T::CritPcDies,
        Criterion::ExpectedHpLost => T::CritHpLost,
        Criterion::PWin => T::CritWin,
    })
}

/// A value of criterion `c`: a percentage for a probability, else hit points.
pub fn criterion_value(c: Criterion, v: f64) -> String {
    if c.is_probability() { pct(v) } else { num(v, 1) }
}

/// A danger threshold in words, on the side it is crossed:
/// `P(a PC dies) ≥ 5.0%`, `P(no PC dies) ≤ 50.0%`.
pub fn threshold_words(lang: Lang, c: Criterion, target: f64) -> String {
    let t = if c.higher_is_better() { T::AtMost } else { T::AtLeast };
    lang.f(t, &[&criterion_words(lang, c), &criterion_value(c, target)])
}

/// A layer's extra axes in words ("as in the files" when none).
pub fn layer_words(lang: Lang, layer: &DangerLayer) -> String {
    let mut parts = Vec::new();
    for (side, aware) in &layer.aware {
        parts.push(lang.f(if *aware { T::Aware } else { T::Unaware }, &[side]));
    }
    for (side, ids) in &layer.copies {
        if !ids.is_empty() {
            parts.push(lang.f(T::Copies, &[side, &ids.join(", ")]));
        }
    }
    if parts.is_empty() { lang.t(T::AllAsInFiles).to_string() } else { parts.join(", ") }
}
