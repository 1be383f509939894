//! Progress display: a bar on a terminal, plain lines (at most one a second)
//! otherwise. The bar's total is the sweep's planned worst case, known
//! before any battle, so it never moves backwards; it shows the rate and an
//! estimate of the time left (an upper bound: racing and refinement usually
//! stop before the worst case).

use std::time::{Duration, Instant};

use pf1e_wire::results::JobProgress;
use pf1e_wire::status::SweepInfo;

use crate::i18n::{Lang, T};
use crate::output;
use crate::render::jobs::criterion_words;

/// Shows the progress of one sweep on stderr.
pub struct Progress {
    bar: Option<indicatif::ProgressBar>,
    quiet: bool,
    lang: Lang,
    last_line: Option<Instant>,
    last_done: u64,
    last_progress: Vec<String>,
}

impl Progress {
    /// A display; `quiet` shows nothing.
    pub fn new(quiet: bool, lang: Lang) -> Self {
        let bar = (!quiet && output::stderr_is_terminal()).then(|| {
            let bar = indicatif::ProgressBar::new(0);
            let template = format!(
                "{{spinner}} [{{elapsed_precise}}] {{bar:30}} {{pos}}/{{len}} {} {{rate}} ETA ≤ {{eta}} {{msg}}",
                lang.t(T::ProgressRuns)
            );
            if let Ok(style) = indicatif::ProgressStyle::with_template(&template) {
        let style = style.with_key("rate", crate::output::rate);
                bar.set_style(style);
            }
            bar
        });
        Self { bar, quiet, lang, last_line: None, last_done: u64::MAX, last_progress: Vec::new() }
    }

    /// Shows a state.
    pub fn update(&mut self, info: &SweepInfo) {
        if self.quiet {
            return;
        }
        let lang = self.lang;
        // Partial rankings of the analysis jobs, whenever they change.
        let progress: Vec<String> = info.progress.iter().map(|p| line(p, lang)).collect();
        if progress != self.last_progress {
            for line in progress.iter().filter(|l| !self.last_progress.contains(l)) {
                match &self.bar {
                    Some(bar) => bar.println(line),
                    None => output::note(line),
                }
            }
            self.last_progress = progress;
        }
        let s = info.stats;
        let total = total(&s);
        let msg = lang
            .f(T::ProgressCells, &[&s.cells_done, &s.cells_total, &s.shards_from_cache, &s.shards_computed]);
        if let Some(bar) = &self.bar {
            bar.set_length(total);
            bar.set_position(s.runs_done);
            bar.set_message(msg);
            return;
        }
        let due = self.last_line.is_none_or(|t| t.elapsed() >= Duration::from_secs(1));
        if due && s.runs_done != self.last_done {
            output::note(
                &lang
                    .f(T::ProgressLine, &[&info.id, &info.status, &s.runs_done, &s.runs_total, &total, &msg]),
            );
            self.last_line = Some(Instant::now());
            self.last_done = s.runs_done;
        }
    }

    /// Clears the bar.
    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

/// The total of the bar: the planned worst case (never below what is planned already).
fn total(s: &pf1e_wire::status::Stats) -> u64 {
    s.runs_worst_case.max(s.runs_total).max(s.runs_done)
}

/// One line of a job's partial results; it says what its figures are.
pub fn line(p: &JobProgress, lang: Lang) -> String {
    let pct = |x: f64| format!("{:.1}%", x * 100.0);
    match p {
        JobProgress::Optimize { leaders } => {
            let top: Vec<String> =
                leaders.iter().map(|l| format!("{} {}", l.strategy, pct(l.p_survives))).collect();
            lang.f(T::LeadersOptimize, &[&top.join(" | ")])
        }
        JobProgress::Minmax { iteration, party_strategy, adversary_strategy, p_survives } => {
            lang.f(T::ProgressMinmax, &[iteration, party_strategy, adversary_strategy, &pct(*p_survives)])
        }
        JobProgress::DangerMap { measured } => lang.f(T::ProgressDanger, &[measured]),
        JobProgress::Frontier { criterion, value, party_hp } => lang.f(
            T::ProgressFrontier,
            &[&criterion_words(lang, *criterion), &format!("{value:.3}"), &format!("{party_hp:.3}")],
        ),
        JobProgress::Sensitivity { adversary_strategy, criterion, delta } => lang.f(
            T::ProgressSensitivity,
            &[adversary_strategy, &criterion_words(lang, *criterion), &format!("{delta:+.3}")],
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pf1e_wire::results::Leader;
    use pf1e_wire::status::Stats;

    #[test]
    fn leader_lines_say_what_their_percentage_is() {
        let p =
            JobProgress::Optimize { leaders: vec![Leader { strategy: "default".into(), p_survives: 0.914 }] };
        assert_eq!(line(&p, Lang::En), "optimize leaders by P(no PC dies): default 91.4%");
        assert_eq!(line(&p, Lang::Fr), "meneurs d'optimize par P(aucun PJ ne meurt) : default 91.4%");
    }

    #[test]
    fn the_total_is_the_worst_case_and_never_shrinks() {
        let s = Stats { runs_worst_case: 14_000, runs_total: 6_400, runs_done: 3_000, ..Stats::default() };
        assert_eq!(total(&s), 14_000);
        let old = Stats { runs_total: 6_400, runs_done: 3_000, ..Stats::default() };
        assert_eq!(total(&old), 6_400, "a coordinator without the worst case: what is planned");
    }
}
