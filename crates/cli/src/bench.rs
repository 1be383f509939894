//! `pf1e bench`: combats per second on the bundled reference encounters:
//! 3 goblins vs 2 orcs on the sample arena (the engine core's reference),
//! 3 fighters and 2 goblins vs two Large ogres, one with a reach weapon, on
//! the ogre field, and the tactics encounter (2 fighters with Power Attack and
//! 2 wolves that trip and disarm vs 3 orcs and 2 goblins: feats, maneuvers
//! and conditions in play), and the spellcasting encounter (the campaign's
//! cleric, witch and magus vs the lich and two skeletons on the lich's
//! watchtower: spells, summons, channel energy, hexes, spell combat and the
//! lich's aura and touch, the spells and summonable creatures loaded as
//! `pf1e sim` loads them), and the monster-abilities encounter (the campaign's
//! level-4 party vs a troll and two ghouls on the open field: regeneration,
//! rend, paralysis, nonlethal damage).

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use pf1e_engine::combat::{MatchupPolicy, SimOptions};
use pf1e_engine::strategy::StrategySpec;
use pf1e_engine::summary::Summary;

use crate::GlobalArgs;
use crate::error::CliError;
use crate::i18n::T;
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
const TOWER_MAP: &str = "maps/tower.yaml";
const CLERIC: &str = "pcs/oni.json";
const WITCH: &str = "pcs/nairda.json";
const MAGUS: &str = "pcs/misty.json";
const LICH: &str = "monsters/lich.json";
const SKELETON: &str = "monsters/skeleton.json";
const FIELD_MAP: &str = "maps/field.yaml";
const PARTY: [&str; 4] = ["pcs/esha.json", "pcs/harvie.json", "pcs/oni.json", "pcs/nairda.json"];
const TROLL: &str = "monsters/troll.json";
const GHOUL: &str = "monsters/ghoul.json";
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
    /// Print one JSON document: a list with each encounter's `name`, `map`,
    /// `runs`, `seconds`, `threads`, `combats_per_second`, `players_won`, `seed`.
    #[arg(long)]
    pub json: bool,
}

/// One encounter's measurement (`pf1e bench --json`).
#[derive(Debug, serde::Serialize)]
struct Measurement {
    name: &'static str,
    map: String,
    runs: u64,
    seconds: f64,
    threads: u32,
    combats_per_second: f64,
    players_won: u64,
    seed: u64,
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
pub fn run(args: &BenchArgs, global: &GlobalArgs) -> Result<(), CliError> {
    let lang = global.lang();
    let data = match &args.data {
        Some(dir) => dir.clone(),
        None => find_data_dir().ok_or_else(|| {
            CliError::input(format!(
                "data/{MAP}: not found in the current directory nor above the executable; pass --data DIR"
            ))
        })?,
    };
    let pool = thread_pool(Some(args.threads))?;
    let threads = if args.threads == 1 {
        lang.t(T::OneThread).to_string()
    } else {
        lang.f(T::Threads, &[&args.threads])
    };
    let mut text = String::new();
    let mut measured = Vec::new();
    let encounters = [
        ("reference", T::BenchReference, MAP, vec![data.join(GOBLIN); 3], vec![data.join(ORC); 2], None),
        (
            "large",
            T::BenchLarge,
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
            "tactics",
            T::BenchTactics,
            MAP,
            vec![data.join(FIGHTER), data.join(FIGHTER), data.join(WOLF), data.join(WOLF)],
            vec![data.join(ORC), data.join(ORC), data.join(ORC), data.join(GOBLIN), data.join(GOBLIN)],
            Some(TACTICS_PARTY),
        ),
        (
            "spellcasting",
            T::BenchSpellcasting,
            TOWER_MAP,
            vec![data.join(CLERIC), data.join(WITCH), data.join(MAGUS)],
            vec![data.join(LICH), data.join(SKELETON), data.join(SKELETON)],
            None,
        ),
        (
            "monsters",
            T::BenchMonsters,
            FIELD_MAP,
            PARTY.iter().map(|p| data.join(p)).collect(),
            vec![data.join(TROLL), data.join(GHOUL), data.join(GHOUL)],
            None,
        ),
    ];
    for (name, title, map, players, monsters, party) in encounters {
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
        let won = summary.wins.first().copied().unwrap_or(0);
        text.push_str(&lang.f(
            T::BenchLine,
            &[
                &lang.t(title),
                &data.join(map).display(),
                &args.runs,
                &format!("{seconds:.3}"),
                &threads,
                &format!("{rate:.0}"),
                &won,
                &summary.runs,
                &args.seed,
            ],
        ));
        measured.push(Measurement {
            name,
            map: data.join(map).display().to_string(),
            runs: args.runs,
            seconds,
            threads: args.threads,
            combats_per_second: rate,
            players_won: won,
            seed: args.seed,
        });
    }
    if args.json {
        return output::json(&measured);
    }
    output::print(&text)
}
