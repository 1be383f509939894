//! `pf1e completions SHELL` and `pf1e man`: generated from the one clap
//! definition of the command line, so they never drift from `--help`.

use std::path::PathBuf;

use clap_complete::Shell;

use crate::error::{CliError, CliResult};
use crate::output;

/// Arguments of `pf1e completions`.
#[derive(Debug, Clone, clap::Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: Shell,
}

/// Arguments of `pf1e man`.
#[derive(Debug, Clone, clap::Args)]
pub struct ManArgs {
    /// Write pf1e.1 and one page per subcommand (pf1e-sim.1…) into this
    /// directory instead of printing pf1e.1.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// Prints the completion script of `shell`.
pub fn completions(args: &CompletionsArgs, mut cmd: clap::Command) -> CliResult {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "pf1e", &mut script);
    output::print(&String::from_utf8_lossy(&script))
}

/// Prints the man page, or writes every page into `--out`.
pub fn man(args: &ManArgs, cmd: clap::Command) -> CliResult {
    match &args.out {
        Some(dir) => {
            std::fs::create_dir_all(dir)
                .map_err(|e| CliError::environment(format!("{}: cannot create: {e}", dir.display())))?;
            clap_mangen::generate_to(cmd, dir).map_err(|e| {
                CliError::environment(format!("{}: cannot write the man pages: {e}", dir.display()))
            })
        }
        None => {
            let mut page = Vec::new();
            clap_mangen::Man::new(cmd)
                .render(&mut page)
                .map_err(|e| CliError::environment(format!("cannot render the man page: {e}")))?;
            output::print(&String::from_utf8_lossy(&page))
        }
    }
}
