//! `pf1e`: the command-line tool. One module per subcommand; `main` only
//! parses, dispatches and turns failures into exit codes.

mod cmd;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

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
}

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into()),
        )
        .with_writer(std::io::stderr)
        .init();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            // One line, exit 2, like every usage error.
            let text = e.render().to_string();
            eprintln!("{}", text.lines().next().unwrap_or("error: invalid arguments"));
            return ExitCode::from(2);
        }
    };
    let result = match &cli.command {
        Command::Run(a) => cmd::run::run(a),
        Command::Coordinator(a) => cmd::coordinator::run(a),
        Command::Worker(a) => cmd::worker::run(a),
        Command::Ctl(a) => cmd::ctl::run(a),
        Command::BenchService(a) => cmd::bench_service::run(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => e.report(),
    }
}
