//! `pf1e import foundry SHEET.json`: a Foundry VTT `pf1` actor export to a
//! pf1e combatant file (`pf1e_import::foundry`). The combatant goes to stdout
//! or `--out FILE`; what the conversion could not map goes to stderr, one
//! line each, so stdout stays a valid JSON document.

use std::path::{Path, PathBuf};

use pf1e_engine::spell::spell_book;
use pf1e_import::ClassTable;
use pf1e_import::foundry::{Imported, convert};

use crate::error::{CliError, CliResult};

/// Arguments of `pf1e import`.
#[derive(Debug, Clone, clap::Args)]
pub struct ImportArgs {
    /// What to import.
    #[command(subcommand)]
    pub from: ImportFrom,
}

/// The formats `pf1e import` reads.
#[derive(Debug, Clone, clap::Subcommand)]
pub enum ImportFrom {
    /// A Foundry VTT pf1 actor export (character or NPC) to a combatant file.
    Foundry(FoundryArgs),
}

/// Arguments of `pf1e import foundry`.
#[derive(Debug, Clone, clap::Args)]
pub struct FoundryArgs {
    /// The actor JSON exported from Foundry (Export Data on the actor).
    pub sheet: PathBuf,
    /// Write the combatant here instead of stdout.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// The spell directory its spells are looked up in.
    #[arg(long, default_value = "data/spells")]
    pub spells: PathBuf,
}

/// Runs `pf1e import`.
pub fn run(args: &ImportArgs) -> CliResult {
    match &args.from {
        ImportFrom::Foundry(a) => foundry(a),
    }
}

fn foundry(args: &FoundryArgs) -> CliResult {
    let file = args.sheet.display().to_string();
    let text = std::fs::read_to_string(&args.sheet)
        .map_err(|e| CliError::input(format!("{file}: cannot read: {e}")))?;
    let dir = args.spells.display().to_string();
    let hint = "the spell directory: pass --spells DIR from outside the repository";
    if !args.spells.is_dir() {
        return Err(CliError::input(format!("{dir}: not a directory ({hint})")));
    }
    let files = crate::scenario::read_dirs(std::slice::from_ref(&dir))?
        .into_iter()
        .map(|(file, bytes)| (file, String::from_utf8_lossy(&bytes).into_owned()))
        .collect();
    let spells = spell_book(files).map_err(|e| CliError::input(format!("{e} ({hint})")))?;
    let classes = ClassTable::builtin().map_err(CliError::input)?;
    let imported = convert(&text, &file, classes, &spells).map_err(CliError::input)?;
    let mut json = serde_json::to_string_pretty(&imported.combatant)
        .map_err(|e| CliError::environment(format!("cannot write the combatant: {e}")))?;
    json.push('\n');
    match &args.out {
        Some(path) => write_file(path, &json)?,
        None => crate::output::print(&json)?,
    }
    report(&imported, &file, args.out.as_deref());
    Ok(())
}

fn write_file(path: &Path, text: &str) -> CliResult {
    std::fs::write(path, text)
        .map_err(|e| CliError::environment(format!("{}: cannot write: {e}", path.display())))
}

/// What was not mapped, on stderr: a summary line, then one line each.
fn report(imported: &Imported, file: &str, out: Option<&Path>) {
    let c = &imported.combatant;
    let target = out.map_or_else(|| "stdout".to_string(), |p| p.display().to_string());
    crate::output::note(&format!(
        "{file}: {} ({}, level {}): {} attack(s), {} feature(s), {} spell(s) written to {target}; {} thing(s) not mapped{}",
        c.name,
        if c.is_pc() { "pc" } else { "monster" },
        c.level,
        c.attacks.len(),
        c.features.len(),
        c.spells.len(),
        imported.unmapped.len(),
        if imported.unmapped.is_empty() { "." } else { ":" }
    ));
    for u in &imported.unmapped {
        crate::output::note(&format!("  not mapped: {u}"));
    }
}
