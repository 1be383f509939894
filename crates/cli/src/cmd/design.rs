//! `pf1e design`: the encounter designer from the command line. The flags
//! say what a `design` sweep says (the party, the target, the pool, the
//! map); the command writes that sweep and runs it as `pf1e run` would
//! (same cache, same report), so `--print-sweep` gives a file that `pf1e
//! run` plays to the same answer.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::GlobalArgs;
use crate::error::{CliError, CliResult};

/// Arguments of `pf1e design`.
#[derive(Debug, Clone, clap::Args)]
pub struct DesignArgs {
    /// The party's combatant files.
    #[arg(long, num_args = 1.., required = true, value_name = "FILE")]
    pub party: Vec<PathBuf>,
    /// Monster files, or directories whose `*.json` files all join the pool.
    #[arg(long, num_args = 1.., required = true, value_name = "PATH")]
    pub pool: Vec<PathBuf>,
    /// Creature types kept from the pool (`undead`, `humanoid`…; repeat or comma-separate).
    #[arg(long = "type", value_delimiter = ',', value_name = "TYPE")]
    pub types: Vec<String>,
    /// The lowest and highest CR kept from the pool (`--cr 1/2 3`).
    #[arg(long, num_args = 2, value_names = ["LOW", "HIGH"])]
    pub cr: Option<Vec<String>>,
    /// The target: a label of the book (`hard`), or a band on a metric, repeatable:
    /// `p_some_pc_dies=0.1..0.4`, `p_tpk<0.05`, `hp_lost>=0.3` (metrics: p_some_pc_dies, p_tpk,
    /// p_win, hp_lost).
    #[arg(long, required = true, value_name = "TARGET")]
    pub target: Vec<String>,
    /// The map the candidates are played on.
    #[arg(long, value_name = "FILE")]
    pub map: PathBuf,
    /// The map zone of the party.
    #[arg(long, default_value = "A", value_name = "ZONE")]
    pub party_zone: String,
    /// The map zone of the monsters.
    #[arg(long, default_value = "B", value_name = "ZONE")]
    pub pool_zone: String,
    /// The most monsters in a group.
    #[arg(long, default_value_t = 4, value_parser = crate::args::positive::<u32>)]
    pub max_monsters: u32,
    /// The most candidate groups raced.
    #[arg(long, default_value_t = 16, value_parser = crate::args::positive::<usize>)]
    pub candidates: usize,
    /// Racing rounds (each doubles the runs of the undecided candidates).
    #[arg(long, default_value_t = 2, value_parser = crate::args::positive::<u32>)]
    pub race_rounds: u32,
    /// Too-dangerous groups tried again with the monsters at 75 % and 50 % of their hit points.
    #[arg(long, default_value_t = 2)]
    pub refine: usize,
    /// Proposals, the best first, for which the party's best plan is searched
    /// (each of its single-lever strategies on the proposal's battles; 0 to 8).
    #[arg(long, default_value_t = 3)]
    pub plans: usize,
    /// Battles of a candidate's first measurement.
    #[arg(long, default_value_t = 40, value_parser = crate::args::positive::<u64>)]
    pub runs: u64,
    /// Seed of the dice (the same for every candidate: common random numbers).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The most battles the search may play (refused before any battle if it cannot fit).
    #[arg(long, value_name = "BATTLES", value_parser = crate::args::positive::<u64>)]
    pub budget: Option<u64>,
    /// Rounds after which a battle is a draw.
    #[arg(long, value_parser = crate::args::positive::<u32>)]
    pub round_cap: Option<u32>,
    /// Print the sweep file the flags make, and run nothing (`pf1e run` plays it to the same answer).
    #[arg(long)]
    pub print_sweep: bool,
    /// Cache database (as `pf1e run`'s).
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
    /// Use no cache file: compute everything, keep nothing.
    #[arg(long, conflicts_with = "db")]
    pub no_cache: bool,
    /// Threads (default: all cores).
    #[arg(long, value_parser = crate::args::positive::<usize>)]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub report: super::report::ReportArgs,
}

/// A path as the sweep file writes it: absolute, so the file works from anywhere.
fn absolute(flag: &str, p: &Path) -> Result<String, CliError> {
    let abs =
        std::fs::canonicalize(p).map_err(|e| CliError::input(format!("{flag} {}: {e}", p.display())))?;
    let text = abs.to_str().ok_or_else(|| CliError::input(format!("{flag} {}: not UTF-8", p.display())))?;
    Ok(yaml_string(text))
}

/// A YAML double-quoted string.
fn yaml_string(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// Whether `s` is a plain name (a zone, a type, a CR) that needs no quoting.
fn plain(flag: &str, s: &str) -> Result<String, CliError> {
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '/' | '.')) {
        Ok(s.to_string())
    } else {
        Err(CliError::input(format!("{flag} {s:?}: letters, digits, '_', '-', '/' and '.' only")))
    }
}

/// One `--target` as the sweep's YAML: `label` for a book label, else
/// `metric: [low, high]` or `metric: "< x"`.
fn target_entry(text: &str) -> Result<(Option<String>, String), CliError> {
    let bad = |why: &str| CliError::input(format!("--target {text:?}: {why}"));
    let t = text.trim();
    let split = t.find(['=', '<', '>']);
    let Some(i) = split else {
        // A label of the book; the job checks which.
        return Ok((None, plain("--target", t)?));
    };
    let (metric, rest) = t.split_at(i);
    let metric = plain("--target", metric.trim())?;
    if let Some(range) = rest.strip_prefix('=') {
        let (lo, hi) = range.split_once("..").ok_or_else(|| bad("write metric=LOW..HIGH"))?;
        let num =
            |s: &str| s.trim().parse::<f64>().map_err(|_| bad(&format!("{:?} is not a number", s.trim())));
        let (lo, hi) = (num(lo)?, num(hi)?);
        return Ok((Some(metric), format!("[{lo}, {hi}]")));
    }
    let bound = rest.trim();
    let n = bound.trim_start_matches(['<', '>', '=']).trim();
    n.parse::<f64>().map_err(|_| bad(&format!("{n:?} is not a number")))?;
    Ok((Some(metric), yaml_string(bound)))
}

/// The sweep file the flags describe.
pub fn sweep_text(args: &DesignArgs) -> Result<String, CliError> {
    let mut labels = Vec::new();
    let mut bands = Vec::new();
    for t in &args.target {
        match target_entry(t)? {
            (None, label) => labels.push(label),
            (Some(metric), band) => bands.push(format!("{metric}: {band}")),
        }
    }
    let target = match (labels.as_slice(), bands.is_empty()) {
        ([label], true) => label.clone(),
        ([], false) => format!("{{ {} }}", bands.join(", ")),
        _ => {
            return Err(CliError::input(
                "--target: give one label of the book (hard) or bands on metrics (p_tpk<0.05), not both",
            ));
        }
    };
    let party: Vec<String> = args.party.iter().map(|p| absolute("--party", p)).collect::<Result<_, _>>()?;
    let pool: Vec<String> = args.pool.iter().map(|p| absolute("--pool", p)).collect::<Result<_, _>>()?;
    let types: Vec<String> =
        args.types.iter().map(|t| plain("--type", t.trim())).collect::<Result<_, _>>()?;
    let mut out = String::new();
    let w = &mut out;
    let _ = writeln!(w, "# Written by `pf1e design`; `pf1e run` plays it to the same answer.");
    let _ =
        writeln!(w, "name: design\nseed: {}\nruns: {}\nparty: players\nshard_size: 20", args.seed, args.runs);
    if let Some(max) = args.budget {
        let _ = writeln!(w, "budget:\n  max_total_runs: {max}");
    }
    let _ = writeln!(w, "scenario:\n  map: {}", absolute("--map", &args.map)?);
    if let Some(cap) = args.round_cap {
        let _ = writeln!(w, "  round_cap: {cap}");
    }
    let _ = writeln!(w, "  sides:");
    let _ = writeln!(
        w,
        "    players: {{ zone: {}, combatants: [{}] }}",
        plain("--party-zone", &args.party_zone)?,
        party.join(", ")
    );
    let _ = writeln!(w, "    monsters: {{ zone: {} }}", plain("--pool-zone", &args.pool_zone)?);
    let _ = writeln!(w, "jobs:\n  - design:\n      target: {target}");
    let _ = write!(w, "      pool: {{ monsters: [{}]", pool.join(", "));
    if !types.is_empty() {
        let _ = write!(w, ", types: [{}]", types.join(", "));
    }
    if let Some(cr) = &args.cr {
        let crs: Vec<String> =
            cr.iter().map(|c| plain("--cr", c.trim()).map(|c| yaml_string(&c))).collect::<Result<_, _>>()?;
        let _ = write!(w, ", cr: [{}]", crs.join(", "));
    }
    let _ = writeln!(w, " }}");
    let _ = writeln!(
        w,
        "      max_monsters: {}\n      candidates: {}\n      race_rounds: {}\n      refine: {}\n      plans: {}",
        args.max_monsters, args.candidates, args.race_rounds, args.refine, args.plans
    );
    Ok(out)
}

/// Runs `pf1e design`.
pub fn run(args: &DesignArgs, global: &GlobalArgs) -> CliResult {
    let text = sweep_text(args)?;
    if args.print_sweep {
        crate::output::print(&text)?;
        return Ok(());
    }
    let dir = tempfile::Builder::new()
        .prefix("pf1e-design-")
        .tempdir()
        .map_err(|e| CliError::environment(format!("a temporary directory for the design sweep: {e}")))?;
    let sweep = dir.path().join("design.yaml");
    std::fs::write(&sweep, &text).map_err(|e| CliError::environment(format!("{}: {e}", sweep.display())))?;
    let run = super::run::RunArgs {
        sweep,
        db: args.db.clone(),
        no_cache: args.no_cache,
        confidence: None,
        threads: args.threads,
        report: args.report.clone(),
        llm_report: Default::default(),
        llm: Default::default(),
    };
    super::run::run(&run, global)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_become_the_sweeps_bands() {
        assert_eq!(target_entry("hard").unwrap(), (None, "hard".to_string()));
        assert_eq!(
            target_entry("p_some_pc_dies=0.1..0.4").unwrap(),
            (Some("p_some_pc_dies".to_string()), "[0.1, 0.4]".to_string())
        );
        assert_eq!(target_entry("p_tpk<0.05").unwrap(), (Some("p_tpk".to_string()), "\"<0.05\"".to_string()));
        assert_eq!(
            target_entry("hp_lost >= 0.3").unwrap(),
            (Some("hp_lost".to_string()), "\">= 0.3\"".to_string())
        );
        for bad in ["p_tpk=0.1", "p_tpk<x", "p_tpk=a..0.2", "a b"] {
            match target_entry(bad) {
                Err(CliError::Input(m)) => assert!(m.contains("--target"), "{bad}: {m}"),
                other => panic!("{bad}: {other:?}"),
            }
        }
    }
}
