//! `pf1e strategy compile "focus their healer, fall back below 30 %"`: a
//! sentence to the canonical strategy spec, through the model (cached).

use clap::ValueEnum;
use pf1e_llm::{Side, StrategyCompiler};
use serde_json::json;

use super::{LlmArgs, LlmCacheArgs};
use crate::error::{CliError, CliResult};
use crate::output;

/// Arguments of `pf1e strategy`.
#[derive(Debug, clap::Args)]
pub struct StrategyArgs {
    #[command(subcommand)]
    command: StrategyCommand,
}

#[derive(Debug, clap::Subcommand)]
enum StrategyCommand {
    /// Compile a sentence into a strategy spec and print its canonical name.
    Compile(CompileArgs),
}

/// The side a sentence is compiled for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SideArg {
    /// The party (the measured side).
    Party,
    /// The other side.
    Adversary,
}

impl From<SideArg> for Side {
    fn from(s: SideArg) -> Self {
        match s {
            SideArg::Party => Side::Party,
            SideArg::Adversary => Side::Adversary,
        }
    }
}

#[derive(Debug, clap::Args)]
struct CompileArgs {
    /// The strategy in plain words.
    sentence: String,
    /// The side it is for.
    #[arg(long, value_enum, default_value_t = SideArg::Party)]
    side: SideArg,
    /// One JSON document: the spec, its levers and where it came from.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    cache: LlmCacheArgs,
    #[command(flatten)]
    llm: LlmArgs,
}

/// Runs `pf1e strategy`.
pub fn run(args: &StrategyArgs) -> CliResult {
    match &args.command {
        StrategyCommand::Compile(a) => compile(a),
    }
}

fn compile(args: &CompileArgs) -> CliResult {
    if args.sentence.trim().is_empty() {
        return Err(CliError::input("strategy compile: the sentence is empty"));
    }
    let llm = args.llm.build(args.cache.open()?)?;
    let compiler =
        StrategyCompiler::new(&llm.pack).map_err(CliError::input)?.with_max_repairs(llm.max_repairs);
    let compiled =
        super::runtime()?.block_on(compiler.compile(&llm.client, args.side.into(), &args.sentence))?;
    if args.json {
        let doc = json!({
            "sentence": compiled.sentence,
            "side": compiled.side.name(),
            "strategy": compiled.name,
            "levers": compiled.levers,
            "model": compiled.model,
            "prompt_version": compiled.prompt_version,
            "answers": compiled.attempts,
            "cached": compiled.cached,
        });
        return output::print(&format!("{doc}\n"));
    }
    output::print(&format!("{}\n", compiled.name))
}
