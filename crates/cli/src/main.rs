//! `pf1e`: the command-line tool. One module per subcommand; `main` only
//! parses, dispatches and turns failures into exit codes.

// The CLI is the one crate that writes to the terminal (see ARCHITECTURE.md).
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod args;
mod bench;
mod cmd;
mod error;
mod output;
mod render;
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
    /// Run a sweep on this machine (embedded mode, cached and resumable).
    Run(cmd::run::RunArgs),
    /// Serve sweeps to workers and clients.
    Coordinator(cmd::coordinator::CoordinatorArgs),
    /// Play shards leased from a coordinator.
    Worker(cmd::worker::WorkerArgs),
    /// Submit, watch, inspect and cancel sweeps on a coordinator.
    Ctl(cmd::ctl::CtlArgs),
    /// Measure the sweep service: scheduling overhead, scaling, resume from cache.
    BenchService(cmd::bench_service::BenchServiceArgs),
    /// Convert a character sheet from another tool into a combatant file.
    Import(cmd::import::ImportArgs),
}

fn main() -> ExitCode {
    // Logs (RUST_LOG, default warn) go to stderr, never to the stdout a script reads.
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into()),
        )
        .with_writer(std::io::stderr)
        .init();
    let parsed = Cli::command().try_get_matches().and_then(|m| Ok((Cli::from_arg_matches(&m)?, m)));
    let (cli, matches) = match parsed {
        Ok(parsed) => parsed,
        Err(err) => return error::clap_exit(&err),
    };
    let result = match cli.command {
        Command::Sim(mut args) => {
            if let Some(sub) = matches.subcommand_matches("sim") {
                args.group_sides(sub);
            }
            sim::run(&args)
        }
        Command::Bench(args) => bench::run(&args),
        Command::Run(args) => cmd::run::run(&args),
        Command::Coordinator(args) => cmd::coordinator::run(&args),
        Command::Worker(args) => cmd::worker::run(&args),
        Command::Ctl(args) => cmd::ctl::run(&args),
        Command::BenchService(args) => cmd::bench_service::run(&args),
        Command::Import(args) => cmd::import::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => failure.report(),
    }
}
