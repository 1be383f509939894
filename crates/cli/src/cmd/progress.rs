//! Progress display: a bar on a terminal, plain lines (at most one a second) otherwise.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use pf1e_wire::results::JobProgress;
use pf1e_wire::status::SweepInfo;

/// Shows the progress of one sweep on stderr.
pub struct Progress {
    bar: Option<indicatif::ProgressBar>,
    quiet: bool,
    last_line: Option<Instant>,
    last_done: u64,
    last_progress: Vec<String>,
}

impl Progress {
    /// A display; `quiet` shows nothing.
    pub fn new(quiet: bool) -> Self {
        let bar = (!quiet && std::io::stderr().is_terminal()).then(|| {
            let bar = indicatif::ProgressBar::new(0);
            if let Ok(style) = indicatif::ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {bar:40} {pos}/{len} runs {msg}",
            ) {
                bar.set_style(style);
            }
            bar
        });
        Self { bar, quiet, last_line: None, last_done: u64::MAX, last_progress: Vec::new() }
    }

    /// Shows a state.
    pub fn update(&mut self, info: &SweepInfo) {
        if self.quiet {
            return;
        }
        // Partial rankings of the analysis jobs, whenever they change.
        let progress: Vec<String> = info.progress.iter().map(line).collect();
        if progress != self.last_progress {
            for line in progress.iter().filter(|l| !self.last_progress.contains(l)) {
                match &self.bar {
                    Some(bar) => bar.println(line),
                    None => eprintln!("{line}"),
                }
            }
            self.last_progress = progress;
        }
        let s = info.stats;
        let msg = format!(
            "{}/{} cells, {} shards from cache, {} computed",
            s.cells_done, s.cells_total, s.shards_from_cache, s.shards_computed
        );
        if let Some(bar) = &self.bar {
            bar.set_length(s.runs_total);
            bar.set_position(s.runs_done);
            bar.set_message(msg);
            return;
        }
        let due = self.last_line.is_none_or(|t| t.elapsed() >= Duration::from_secs(1));
        if due && s.runs_done != self.last_done {
            eprintln!("sweep {} {}: {}/{} runs, {msg}", info.id, info.status, s.runs_done, s.runs_total);
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

/// One line of a job's partial results.
pub fn line(p: &JobProgress) -> String {
    match p {
        JobProgress::Optimize { leaders } => {
            let top: Vec<String> =
                leaders.iter().map(|l| format!("{} {:.1}%", l.strategy, l.p_survives * 100.0)).collect();
            format!("optimize leaders: {}", top.join(" | "))
        }
        JobProgress::Minmax { iteration, party_strategy, adversary_strategy, p_survives } => format!(
            "minmax iteration {iteration}: {party_strategy} vs {adversary_strategy} ({:.1}% party survival)",
            p_survives * 100.0
        ),
        JobProgress::DangerMap { measured } => format!("danger_map: {measured} cells measured"),
        JobProgress::Frontier { criterion, value, party_hp } => {
            format!("frontier: {} = {value:.3} at party hp {party_hp:.3}", criterion.name())
        }
        JobProgress::Sensitivity { adversary_strategy, criterion, delta } => {
            format!("sensitivity: {adversary_strategy} moves {} by {delta:+.3}", criterion.name())
        }
    }
}
