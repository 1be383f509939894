//! `pf1e bench`: combats per second on the bundled reference encounters:
//! 3 goblins vs 2 orcs on the sample arena (the engine core's reference),
//! 3 fighters and 2 goblins vs two Large ogres, one with a reach weapon, on
//! the ogre field, and the tactics encounter (2 fighters with Power Attack and
//! 2 wolves that trip and disarm vs 3 orcs and 2 goblins: feats, maneuvers
//! and conditions in play).

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use pf1e_engine::combat::{MatchupPolicy, SimOptions};
use pf1e_engine::strategy::StrategySpec;
use pf1e_engine::summary::Summary;

use crate::error::CliError;
use crate::output;
use crate::scenario::{self, SideArg};
use crate::sim::{simulate, thread_pool};

const MAP: &str = "maps/sample_arena.yaml";
const GOBLIN: &str = "monsters/goblin.json";
const ORC: &str = "monsters/orc.json";
const OGRE_MAP: &str = "maps/ogre_field.yaml";
const OGRE: &str = "monsters/ogre.json";
const OGRE_SPEARMAN: &str = "monsters/ogre_spearman.json";
const FIGHTER: &str = "pcs/fighter.json";
const WOLF: &str = "monsters/wolf.json";
/// The party's strategy in the tactics encounter: maneuvers when the odds beat an attack.
const TACTICS_PARTY: &str = "maneuver=auto";

/// Arguments of `pf1e bench`.
#[derive(Debug, Args)]
#[command(args_override_self = true)]
pub struct BenchArgs {
    /// Number of battles to time.
    #[arg(long, default_value_t = 20000, value_parser = crate::args::positive::<u64>)]
    pub runs: u64,
    /// Worker threads.
    #[arg(long, default_value_t = 1, value_parser = crate::args::positive::<u32>)]
    pub threads: u32,
    /// Seed of the batch.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The bundled data directory (default: `data/` in the current directory
    /// or in the repository the executable was built in).
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
}

/// Finds the data directory: `./data`, else a `data/` beside an ancestor of the executable.
fn find_data_dir() -> Option<PathBuf> {
    let has_map = |dir: &Path| dir.join(MAP).is_file();
    let cwd = PathBuf::from("data");
    if has_map(&cwd) {
        return Some(cwd);
    }
    let exe = std::env::current_exe().ok()?;
    exe.ancestors().map(|dir| dir.join("data")).find(|dir| has_map(dir))
}

/// Runs `pf1e bench`.
pub fn run(args: &BenchArgs) -> Result<(), CliError> {
    let data = match &args.data {
        Some(dir) => dir.clone(),
        None => find_data_dir().ok_or_else(|| {
            CliError::input(format!(
                "data/{MAP}: not found in the current directory nor above the executable; pass --data DIR"
            ))
        })?,
    };
    let pool = thread_pool(Some(args.threads))?;
    let threads =
        if args.threads == 1 { "1 thread".to_string() } else { format!("{} threads", args.threads) };
    let mut text = String::new();
    let encounters = [
        (
            "reference encounter: 3 goblins (players) vs 2 orcs (monsters)",
            MAP,
            vec![data.join(GOBLIN); 3],
            vec![data.join(ORC); 2],
            None,
        ),
        (
            "large encounter: 3 fighters and 2 goblins (players) vs an ogre and an ogre spearman (monsters)",
            OGRE_MAP,
            vec![
                data.join(FIGHTER),
                data.join(FIGHTER),
                data.join(FIGHTER),
                data.join(GOBLIN),
                data.join(GOBLIN),
            ],
            vec![data.join(OGRE), data.join(OGRE_SPEARMAN)],
            None,
        ),
        (
            "tactics encounter: 2 fighters and 2 wolves (players, maneuver=auto) vs 3 orcs and 2 goblins (monsters)",
            MAP,
            vec![data.join(FIGHTER), data.join(FIGHTER), data.join(WOLF), data.join(WOLF)],
            vec![data.join(ORC), data.join(ORC), data.join(ORC), data.join(GOBLIN), data.join(GOBLIN)],
            Some(TACTICS_PARTY),
        ),
    ];
    for (title, map, players, monsters, party) in encounters {
        let sides = [
            SideArg { name: "players".into(), files: players },
            SideArg { name: "monsters".into(), files: monsters },
        ];
        let options = SimOptions::default();
        let scenario = scenario::load(&data.join(map), &sides, &options)?;
        let start = Instant::now();
        let summary = match party {
            None => simulate(&pool, &scenario, &options, args.seed, args.runs),
            Some(spec) => {
                let party =
                    StrategySpec::parse(spec).map_err(|e| CliError::input(format!("pf1e bench: {e}")))?;
                let policy =
                    MatchupPolicy::new(&scenario.encounter, 0, &party, &StrategySpec::default_spec());
                let outcomes = pool.install(|| {
                    pf1e_engine::runner::run_batch_policy(
                        &scenario.prepared,
                        &options,
                        args.seed,
                        0..args.runs,
                        &policy,
                    )
                });
                let e = &scenario.encounter;
                Summary::from_outcomes(e.sides.len(), e.combatants.len(), &outcomes)
            }
        };
        let seconds = start.elapsed().as_secs_f64();
        let rate = if seconds > 0.0 { args.runs as f64 / seconds } else { f64::INFINITY };
        text.push_str(&format!(
            "{title} on {}\n\
             {} combats in {seconds:.3} s on {threads}: {rate:.0} combats/s\n\
             players won {} of {} (seed {})\n",
            data.join(map).display(),
            args.runs,
            summary.wins.first().copied().unwrap_or(0),
            summary.runs,
            args.seed,
        ));
    }
    output::print(&text)
}
