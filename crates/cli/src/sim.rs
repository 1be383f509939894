//! `pf1e sim`: Monte Carlo simulation of one encounter and its balance report.

use std::path::PathBuf;

use clap::Args;
use pf1e_engine::combat::{MatchupPolicy, RunOutcome, SimOptions};
use pf1e_engine::contribution;
use pf1e_engine::difficulty;
use pf1e_engine::metrics::Confidence;
use pf1e_engine::party::{self, Battle, PartyReport, PartyTally, Pick, Simulated};
use pf1e_engine::report::{PlayedStrategies, Report};
use pf1e_engine::runner;
use pf1e_engine::strategy::StrategySpec;
use pf1e_engine::summary::Summary;
use pf1e_wire::scenario::Playable;
use pf1e_wire::variant::{HpFraction, SideVariant, apply_hp};

use crate::GlobalArgs;
use crate::error::CliError;
use crate::i18n::{Lang, T};
use crate::output;
use crate::render::{balance, events};
use crate::scenario;

/// Arguments of `pf1e sim`.
#[derive(Debug, Args)]
#[command(args_override_self = true)]
pub struct SimArgs {
    /// Map file (YAML).
    #[arg(long, value_name = "FILE")]
    pub map: PathBuf,
    /// A side of the map's deployment and its combatant files (JSON); repeat for each side.
    /// A file given twice is two identical combatants.
    #[arg(long = "side", value_names = ["NAME", "FILE"], num_args = 2.., action = clap::ArgAction::Append, required = true)]
    pub sides: Vec<String>,
    /// The `--side` values grouped per occurrence (clap's derive flattens them;
    /// filled by [`SimArgs::group_sides`]).
    #[arg(skip)]
    pub side_groups: Vec<Vec<String>>,
    /// Number of battles to simulate.
    #[arg(long, default_value_t = 1000, value_parser = crate::args::positive::<u64>)]
    pub runs: u64,
    /// Seed of the batch; run i uses the stream derived from (seed, i).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Rounds after which a battle is a draw.
    #[arg(long, default_value_t = 100, value_parser = crate::args::positive::<u32>)]
    pub round_cap: u32,
    /// Print a battle (run 0 unless --show says) as a table before the report.
    #[arg(long)]
    pub transcript: bool,
    /// Print a battle (run 0 unless --show says) as JSON Lines instead of the
    /// report: a header with the event schema version, then one event per
    /// line (docs/events.md).
    #[arg(long, conflicts_with_all = ["json", "transcript"])]
    pub events: bool,
    /// Which battle --transcript or --events shows: median (nearest the median HP the party
    /// lost), worst (from the worst decile), wipe (everyone down, if any), best, or run N.
    #[arg(long, value_names = ["WHICH", "N"], num_args = 1..=2)]
    pub show: Option<Vec<String>>,
    /// Monsters (never PCs) die at 0 hit points instead of −Con.
    #[arg(long)]
    pub simple_monster_death: bool,
    /// Every member of side NAME starts at this fraction of its maximum hit
    /// points, in (0, 1] (rounded up, at least 1): a design proposal refined on
    /// the monsters' hit points. Repeat for each side.
    #[arg(long = "start-hp", value_names = ["NAME", "FRACTION"], num_args = 2, action = clap::ArgAction::Append)]
    pub start_hp: Vec<String>,
    /// Who carries the fight: each combatant's damage per round, healing and
    /// conditions inflicted, and the party's win rate and P(a PC dies) with
    /// the encounter played again without it (same seed and runs: one more
    /// batch per combatant).
    #[arg(long, conflicts_with = "events")]
    pub contribution: bool,
    /// Print the report as one JSON object instead of text (indented on a terminal).
    #[arg(long)]
    pub json: bool,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long, value_name = "N", value_parser = crate::args::positive::<u32>)]
    pub threads: Option<u32>,
    /// The party's strategy: levers as in a sweep's `strategies`, e.g.
    /// "lowest_hp, retreat=0.5" (docs/strategy.md; default: the default policy).
    /// The party is the side the difficulty assessment names.
    #[arg(long, value_name = "SPEC", value_parser = crate::args::strategy, conflicts_with = "llm_side")]
    pub strategy: Option<StrategySpec>,
    /// Every other side's strategy, as --strategy.
    #[arg(long, value_name = "SPEC", value_parser = crate::args::strategy, conflicts_with = "llm_side")]
    pub adversary_strategy: Option<StrategySpec>,
    #[command(flatten)]
    pub llm: crate::llm::showcase::SimLlmArgs,
}

impl SimArgs {
    /// Recovers the `--side` groups from the matches of the `sim` subcommand.
    pub fn group_sides(&mut self, matches: &clap::ArgMatches) {
        self.side_groups = matches
            .get_occurrences::<String>("sides")
            .map(|groups| groups.map(|group| group.cloned().collect()).collect())
            .unwrap_or_default();
    }
}

/// Builds a rayon pool of `threads` threads (all cores when `None`).
pub fn thread_pool(threads: Option<u32>) -> Result<rayon::ThreadPool, CliError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.map_or(0, |n| n as usize))
        .build()
        .map_err(|e| CliError::environment(format!("thread pool: {e}")))
}

/// Runs per batch handed to the pool: bounds the memory held by outcomes.
const CHUNK: u64 = 4096;

/// Plays runs `0..runs` of batch `seed` on `pool` and sums them. Chunking does
/// not change the result: run `i` always uses the stream of `(seed, i)` and the
/// sums are exact integers.
pub fn simulate(
    pool: &rayon::ThreadPool,
    scenario: &Playable,
    options: &SimOptions,
    seed: u64,
    runs: u64,
) -> Summary {
    simulate_in_chunks(pool, scenario, None, options, seed, runs, CHUNK, &mut |_, _| {})
}

/// Plays the batch in chunks of `chunk` runs, by `policy` (the default
/// policy when `None`), calling `on_chunk` after each.
#[allow(clippy::too_many_arguments)]
fn simulate_in_chunks(
    pool: &rayon::ThreadPool,
    scenario: &Playable,
    policy: Option<&MatchupPolicy>,
    options: &SimOptions,
    seed: u64,
    runs: u64,
    chunk: u64,
    on_chunk: &mut dyn FnMut(u64, &[RunOutcome]),
) -> Summary {
    let encounter = &scenario.encounter;
    let mut summary = Summary::new(encounter.sides.len(), encounter.combatants.len());
    let mut start = 0;
    while start < runs {
        let end = runs.min(start.saturating_add(chunk.max(1)));
        let outcomes = pool.install(|| match policy {
            Some(policy) => runner::run_batch_policy(&scenario.prepared, options, seed, start..end, policy),
            None => runner::run_batch_prepared(&scenario.prepared, options, seed, start..end),
        });
        for outcome in &outcomes {
            summary.add(outcome);
        }
        start = end;
        on_chunk(end, &outcomes);
    }
    summary
}

/// Runs from which `pf1e sim` shows a progress bar (on a terminal only):
/// below, the batch takes well under a second.
const PROGRESS_FROM: u64 = 50_000;

/// A progress bar on stderr for long batches, when stderr is a terminal.
fn progress_bar(runs: u64, global: &GlobalArgs, lang: Lang) -> Option<indicatif::ProgressBar> {
    if global.quiet || runs < PROGRESS_FROM || !output::stderr_is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(runs);
    let template = format!("{{bar:40}} {{pos}}/{{len}} {} {{rate}} ETA {{eta}}", lang.t(T::SimProgress));
    if let Ok(style) = indicatif::ProgressStyle::with_template(&template) {
        let style = style.with_key("rate", crate::output::rate);
        bar.set_style(style);
    }
    Some(bar)
}

/// The battle `--show` asks for: `median`, `worst`, `wipe`, `best` or `run N`.
pub fn parse_show(words: &[String]) -> Result<Pick, CliError> {
    let bad = |what: String| {
        CliError::input(format!("command line: --show: {what}: expected median, worst, wipe, best or run N"))
    };
    match words {
        [w] if w == "median" => Ok(Pick::Median),
        [w] if w == "worst" => Ok(Pick::Worst),
        [w] if w == "wipe" => Ok(Pick::Wipe),
        [w] if w == "best" => Ok(Pick::Best),
        [w, n] if w == "run" => {
            n.parse().map(Pick::Run).map_err(|_| bad(format!("run {n:?} is not a run index")))
        }
        [w] if w == "run" => Err(bad("run needs its index".into())),
        other => Err(bad(format!("{:?}", other.join(" ")))),
    }
}

/// Applies `--start-hp NAME FRACTION` pairs: each named side's members
/// start at that fraction of their maximum hit points.
fn start_hp(encounter: &mut pf1e_engine::encounter::Encounter, pairs: &[String]) -> Result<(), CliError> {
    let bad = |problem: String| CliError::input(format!("command line: --start-hp: {problem}"));
    let mut variants: Vec<SideVariant> = Vec::new();
    for pair in pairs.chunks(2) {
        let [side, text] = pair else { return Err(bad("give a side and a fraction".into())) };
        if !encounter.sides.contains(side) {
            return Err(bad(format!(
                "{side:?} is not a side of the battle ({})",
                encounter.sides.join(", ")
            )));
        }
        if variants.iter().any(|v| &v.side == side) {
            return Err(bad(format!("side {side:?} is given twice")));
        }
        let fraction: f64 = text
            .parse()
            .ok()
            .filter(|f: &f64| *f > 0.0 && *f <= 1.0)
            .ok_or_else(|| bad(format!("{text:?} is not a fraction in (0, 1]")))?;
        variants.push(SideVariant {
            side: side.clone(),
            hp: HpFraction((fraction * 1e6).round().max(1.0) as u32),
            aware: None,
            copies: Vec::new(),
            removed: Vec::new(),
            roster: Vec::new(),
        });
    }
    apply_hp(encounter, &variants);
    Ok(())
}

/// Runs `pf1e sim`.
pub fn run(args: &SimArgs, global: &GlobalArgs) -> Result<(), CliError> {
    let lang = global.lang();
    let show = args.show.as_deref().map(parse_show).transpose()?;
    if show.is_some() && !(args.transcript || args.events) {
        return Err(CliError::input("command line: --show needs --transcript or --events".to_string()));
    }
    let sides = scenario::parse_sides(&args.side_groups)?;
    let options = SimOptions { round_cap: args.round_cap, simple_monster_death: args.simple_monster_death };
    let mut scenario = scenario::load(&args.map, &sides, &options)?;
    if !args.start_hp.is_empty() {
        start_hp(&mut scenario.encounter, &args.start_hp)?;
        // The batch runners read the prepared copy: prepare it again.
        scenario.prepared = pf1e_engine::combat::PreparedEncounter::new(&scenario.encounter)
            .map_err(|e| CliError::input(format!("--start-hp: the encounter cannot be prepared: {e}")))?;
    }
    args.llm.report.check(args.json)?;
    if let Some(side) = &args.llm.llm_side {
        if args.events {
            return Err(CliError::input(
                "--events prints a battle of the rules engine alone: drop --llm-side",
            ));
        }
        let request = crate::llm::showcase::SimRequest {
            map: &args.map,
            seed: args.seed,
            runs: args.runs,
            transcript: args.transcript,
            json: args.json,
            llm: &args.llm,
        };
        return crate::llm::showcase::run(&request, side, &sides, &scenario, &options, lang);
    }
    let encounter = &scenario.encounter;
    let pool = thread_pool(args.threads)?;
    let bar = progress_bar(args.runs, global, lang);
    let party_side = difficulty::default_party(encounter);
    // A matchup only when a strategy was asked for: the all-default matchup
    // plays as the default policy, which needs no roster.
    let strategies = (args.strategy.is_some() || args.adversary_strategy.is_some()).then(|| {
        let pick = |s: &Option<StrategySpec>| s.clone().unwrap_or_else(StrategySpec::default_spec);
        (pick(&args.strategy), pick(&args.adversary_strategy))
    });
    let matchup = |e: &pf1e_engine::encounter::Encounter| {
        strategies.as_ref().map(|(party, adversary)| MatchupPolicy::new(e, party_side, party, adversary))
    };
    let policy = matchup(encounter);
    let mut tally = PartyTally::new(encounter, party_side);
    // Every battle's party figures, kept only to pick the one to show.
    let keep = matches!(show, Some(p) if !matches!(p, Pick::Run(_)));
    let mut battles: Vec<Battle> = Vec::new();
    // The party's outcome of every run, kept only to pair with the battles
    // played without each combatant.
    let mut with = contribution::PartyRuns::default();
    let summary = simulate_in_chunks(
        &pool,
        &scenario,
        policy.as_ref(),
        &options,
        args.seed,
        args.runs,
        CHUNK,
        &mut |done, outcomes| {
            let first = done - outcomes.len() as u64;
            if args.contribution {
                with.extend(&tally, encounter, outcomes);
            }
            for (i, outcome) in outcomes.iter().enumerate() {
                tally.add(encounter, outcome);
                if keep {
                    battles.push(tally.battle(encounter, outcome, first + i as u64));
                }
            }
            if let Some(bar) = &bar {
                bar.set_position(done);
            }
        },
    );
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let shown = show.and_then(|p| party::pick(&battles, p));
    let run = shown.map_or(0, |s| s.run);
    let battle = (args.transcript || args.events).then(|| match policy.clone() {
        Some(mut policy) => {
            runner::run_with_transcript_policy(encounter, &options, args.seed, run, &mut policy).1
        }
        None => runner::run_with_transcript(encounter, &options, args.seed, run).1,
    });
    if let Some(battle) = battle.as_ref().filter(|_| args.events) {
        let lines = events::json_lines(battle).map_err(|e| CliError::environment(format!("events: {e}")))?;
        return output::print(&lines);
    }
    let mut report =
        Report::build(encounter, &summary, &options, args.seed, battle.as_ref().map(events::english_lines));
    report.shown = shown;
    report.strategies = strategies.as_ref().map(|(party, adversary)| PlayedStrategies {
        party_side: encounter.sides.get(party_side).cloned().unwrap_or_default(),
        party: party.name(),
        adversary: adversary.name(),
    });
    if args.contribution {
        let z = Confidence::default().bonferroni_z(encounter.combatants.len() as u64);
        // Each encounter without one combatant gets its own matchup (a
        // policy's roster is its encounter's).
        let mut play = |e: &pf1e_engine::encounter::Encounter, r| {
            pool.install(|| match matchup(e) {
                Some(policy) => {
                    let prepared = pf1e_engine::combat::PreparedEncounter::new(e).unwrap_or_else(|err| {
                        panic!("encounter passed validation but cannot be prepared: {err}")
                    });
                    runner::run_batch_policy(&prepared, &options, args.seed, r, &policy)
                }
                None => runner::run_batch(e, &options, args.seed, r),
            })
        };
        report.contribution = contribution::measure(encounter, &summary, party_side, &with, z, &mut play);
    }
    if let Some(book) = difficulty::assess(encounter, party_side) {
        report = report.with_party(PartyReport { book, simulated: Simulated::of(&tally) });
    }
    if args.json {
        output::json(&report)?;
    } else {
        output::print(&balance::text(&report, battle.as_ref(), lang))?;
    }
    crate::llm::showcase::after_sim(&report, &args.llm, args.json, lang)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::scenario::SideArg;

    #[test]
    fn chunking_does_not_change_the_sums() {
        let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data");
        let sides = [
            SideArg { name: "players".into(), files: vec![data.join("monsters/goblin.json"); 2] },
            SideArg { name: "monsters".into(), files: vec![data.join("monsters/orc.json")] },
        ];
        let options = SimOptions::default();
        let scenario = scenario::load(&data.join("maps/sample_arena.yaml"), &sides, &options).unwrap();
        let pool = thread_pool(Some(2)).unwrap();
        let outcomes = runner::run_batch(&scenario.encounter, &options, 5, 0..40);
        let whole = Summary::from_outcomes(2, 3, &outcomes);
        assert_eq!(whole.runs, 40);
        let mut whole_tally = PartyTally::new(&scenario.encounter, 0);
        for o in &outcomes {
            whole_tally.add(&scenario.encounter, o);
        }
        for chunk in [1, 3, 40, 64] {
            let mut reported = Vec::new();
            let mut tally = PartyTally::new(&scenario.encounter, 0);
            let sums =
                simulate_in_chunks(&pool, &scenario, None, &options, 5, 40, chunk, &mut |d, outcomes| {
                    reported.push(d);
                    for o in outcomes {
                        tally.add(&scenario.encounter, o);
                    }
                });
            assert_eq!(sums, whole, "chunk {chunk}");
            assert_eq!(tally, whole_tally, "chunk {chunk}");
            assert_eq!(reported.last(), Some(&40), "progress reaches the total");
        }
    }
}
