//! `pf1e`: the command-line tool. One module per subcommand; `main` only
//! parses, dispatches and turns failures into exit codes.

// The CLI is the one crate that writes to the terminal (see ARCHITECTURE.md).
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod args;
mod bench;
mod cmd;
mod error;
mod help;
mod llm;
mod logging;
mod output;
mod scenario;
mod sim;

// Everything shown to a person is laid out by pf1e-render; the CLI's modules
// name it as `crate::render` and its catalogue as `crate::i18n`.
use pf1e_render as render;
use pf1e_render::i18n;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

/// Pathfinder 1e combat simulator.
#[derive(Debug, Parser)]
#[command(name = "pf1e", version, propagate_version = true, after_help = help::PF1E)]
struct Cli {
    #[command(flatten)]
    global: GlobalArgs,
    #[command(subcommand)]
    command: Command,
}

/// Options every subcommand takes, anywhere on the line.
#[derive(Debug, Clone, clap::Args)]
pub struct GlobalArgs {
    /// Language of reports and tables (default: the locale, LC_ALL > LC_MESSAGES > LANG: fr_* is French).
    #[arg(long, global = true, value_enum, value_name = "LANG")]
    pub lang: Option<LangArg>,
    /// More logs on stderr: -v info, -vv debug, -vvv trace (default: warnings; RUST_LOG when neither -v nor -q).
    #[arg(short, long, global = true, action = clap::ArgAction::Count, conflicts_with = "quiet")]
    pub verbose: u8,
    /// Errors only: no progress display, no warnings.
    #[arg(short, long, global = true)]
    pub quiet: bool,
    /// Log format on stderr.
    #[arg(long, global = true, value_enum, default_value_t = logging::LogFormat::Text)]
    pub log_format: logging::LogFormat,
}

impl GlobalArgs {
    /// The language of reports: `--lang` when given, else the process's
    /// locale (`LC_ALL` > `LC_MESSAGES` > `LANG`).
    pub fn lang(&self) -> i18n::Lang {
        match self.lang {
            Some(LangArg::En) => i18n::Lang::En,
            Some(LangArg::Fr) => i18n::Lang::Fr,
            None => i18n::Lang::from_locale(|k| std::env::var(k).ok()),
        }
    }
}

/// `--lang`: the languages of pf1e-render's catalogue, as clap spells them
/// (the render crate knows nothing of the command line).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LangArg {
    /// English.
    En,
    /// Français.
    Fr,
}

/// The subcommands; each lives in its own module.
#[derive(Debug, Subcommand)]
enum Command {
    /// Simulate an encounter many times and print a balance report.
    #[command(after_help = help::SIM)]
    Sim(sim::SimArgs),
    /// Measure combats per second on the bundled reference encounters.
    #[command(after_help = help::BENCH)]
    Bench(bench::BenchArgs),
    /// Run a sweep on this machine (embedded mode, cached and resumable).
    #[command(after_help = help::RUN)]
    Run(cmd::run::RunArgs),
    /// Serve sweeps to workers and clients.
    #[command(after_help = help::COORDINATOR)]
    Coordinator(cmd::coordinator::CoordinatorArgs),
    /// Play shards leased from a coordinator.
    #[command(after_help = help::WORKER)]
    Worker(cmd::worker::WorkerArgs),
    /// Submit, watch, inspect and cancel sweeps on a coordinator.
    #[command(after_help = help::CTL)]
    Ctl(cmd::ctl::CtlArgs),
    /// Measure the sweep service: scheduling overhead, scaling, resume from cache.
    #[command(after_help = help::BENCH_SERVICE)]
    BenchService(cmd::bench_service::BenchServiceArgs),
    /// Inspect and tidy the cache of `pf1e run` (path, size, sweeps, gc, clear).
    #[command(after_help = help::CACHE)]
    Cache(cmd::cache::CacheArgs),
    /// Print a shell completion script.
    #[command(after_help = help::COMPLETIONS)]
    Completions(cmd::docs::CompletionsArgs),
    /// Print the man page (roff), or write one per command into a directory.
    #[command(after_help = help::MAN)]
    Man(cmd::docs::ManArgs),
    /// Turn plain-language strategies into strategy specs through the LLM.
    #[command(after_help = help::STRATEGY)]
    Strategy(llm::strategy::StrategyArgs),
    /// Play a showcase's replay log (pf1e sim --llm-side) again, without a model.
    #[command(after_help = help::REPLAY)]
    Replay(llm::replay::ReplayArgs),
    /// Play an adventuring day (a chain of encounters with rests) many times.
    #[command(after_help = help::DAY)]
    Day(cmd::day::DayArgs),
    /// Design an encounter: search a pool of monsters for groups whose simulated danger hits a target.
    #[command(after_help = help::DESIGN)]
    Design(cmd::design::DesignArgs),
    /// Convert a character sheet from another tool into a combatant file.
    #[command(after_help = help::IMPORT)]
    Import(cmd::import::ImportArgs),
}

fn main() -> ExitCode {
    let parsed = Cli::command().try_get_matches().and_then(|m| Ok((Cli::from_arg_matches(&m)?, m)));
    let (cli, matches) = match parsed {
        Ok(parsed) => parsed,
        Err(err) => return output::clap_exit(&err),
    };
    logging::init(cli.global.verbose, cli.global.quiet, cli.global.log_format);
    let global = &cli.global;
    let result = match cli.command {
        Command::Sim(mut args) => {
            if let Some(sub) = matches.subcommand_matches("sim") {
                args.group_sides(sub);
            }
            sim::run(&args, global)
        }
        Command::Bench(args) => bench::run(&args, global),
        Command::Run(args) => cmd::run::run(&args, global),
        Command::Coordinator(args) => cmd::coordinator::run(&args),
        Command::Worker(args) => cmd::worker::run(&args),
        Command::Ctl(args) => cmd::ctl::run(&args, global),
        Command::BenchService(args) => cmd::bench_service::run(&args),
        Command::Cache(args) => cmd::cache::run(&args, global),
        Command::Completions(args) => cmd::docs::completions(&args, Cli::command()),
        Command::Man(args) => cmd::docs::man(&args, Cli::command()),
        Command::Strategy(args) => llm::strategy::run(&args),
        Command::Replay(args) => llm::replay::run(&args, global),
        Command::Import(args) => cmd::import::run(&args),
        Command::Day(args) => cmd::day::run(&args, global),
        Command::Design(args) => cmd::design::run(&args, global),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => output::report(failure),
    }
}
