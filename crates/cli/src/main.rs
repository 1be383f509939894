//! `pf1e`: the command-line tool. One module per subcommand; `main` only
//! parses, dispatches and turns failures into exit codes.

mod args;
mod bench;
mod failure;
mod output;
mod scenario;
mod sim;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

/// Pathfinder 1e combat simulator.
#[derive(Debug, Parser)]
#[command(name = "pf1e", version, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The subcommands; each lives in its own module.
#[derive(Debug, Subcommand)]
enum Command {
    /// Simulate an encounter many times and print a balance report.
    Sim(sim::SimArgs),
    /// Measure combats per second on the bundled reference encounters.
    Bench(bench::BenchArgs),
}

fn main() -> ExitCode {
    let parsed = Cli::command().try_get_matches().and_then(|m| Ok((Cli::from_arg_matches(&m)?, m)));
    let (cli, matches) = match parsed {
        Ok(parsed) => parsed,
        Err(err) => return failure::clap_exit(&err),
    };
    let result = match cli.command {
        Command::Sim(mut args) => {
            if let Some(sub) = matches.subcommand_matches("sim") {
                args.group_sides(sub);
            }
            sim::run(&args)
        }
        Command::Bench(args) => bench::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => failure.report(),
    }
}
