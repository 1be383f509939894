//! The sweep file (`sweep.yaml`): parsing, path resolution and bundling.
//!
//! A sweep is read twice: on the client, from disk, to build a
//! self-contained [`proto::SweepBundle`]; and wherever it runs, from that
//! bundle, with the same parser. Every error names the sweep file and, where
//! it can, the YAML line.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use pf1e_engine::day::file::{DayFile, StepSpec};
use pf1e_engine::day::{DayShape, Step as DayStep};
use pf1e_engine::metrics::Confidence;
use pf1e_llm::Side;
use pf1e_wire::proto;
use pf1e_wire::results::{LlmDecisions, NlStrategy};
use pf1e_wire::scenario::{Scenario, ScenarioError, ScenarioSide};
use serde::Deserialize;

/// The value types a sweep file is written in (defined in [`crate::cell`]).
pub use crate::cell::{HpFraction, StrategySpec};
use crate::cell::{NotCompiled, Proposals, WrittenStrategy};
use crate::jobs::Job;
use crate::jobs::contribution::ContributionFile;
use crate::jobs::danger_map::DangerMapFile;
use crate::jobs::day::DayJob;
use crate::jobs::design::{self, DesignFile, DesignSearch, PoolMember};
use crate::jobs::frontier::FrontierFile;
use crate::jobs::grid::GridJob;
use crate::jobs::minmax::MinmaxFile;
use crate::jobs::optimize::OptimizeFile;
use crate::jobs::registry::{self, KINDS};
use crate::jobs::sensitivity::SensitivityFile;
use crate::plan::JobContext;

/// Runs per shard when the sweep file does not say.
pub const DEFAULT_SHARD_SIZE: u64 = 100;

/// The budget (`budget: { max_total_runs }`) of a sweep that writes none:
/// every sweep has a finite worst case, checked before any battle. Ten
/// times the largest sweep shipped in `data/sweeps/`.
pub const DEFAULT_MAX_TOTAL_RUNS: u64 = 1_000_000;

/// The largest budget a sweep may write. No longer for the memory of runs:
/// the planners' per-run outcomes and a completing cell's packed rows go
/// to the job's spill file (`jobs::runs`, `rows`), so a cell's runs are
/// never held. It stays for what still grows with them: the battles one
/// submission may ask of the fleet (the work a submitter can impose), the
/// spill file on disk (about 19 bytes a run, some 380 MB at the ceiling)
/// and the per-shard bookkeeping of the cells in flight (a slot and a
/// queued spec per shard: `runs / shard_size` of them, and `shard_size`
/// may be 1) (docs/service.md, "Memory per run of a sweep").
pub const MAX_TOTAL_RUNS_CEILING: u64 = 20_000_000;

/// Why a sweep was refused: the file, the line when known, and the problem.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}: {}{message}", line.map(|l| format!("line {l}: ")).unwrap_or_default())]
pub struct SweepError {
    /// The sweep file.
    pub file: String,
    /// 1-based YAML line, when known.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl SweepError {
    fn new(file: &str, line: Option<usize>, message: impl Into<String>) -> Self {
        Self { file: file.to_string(), line, message: message.into() }
    }
}

/// A mapping that refuses duplicate keys (serde_yaml keeps the last one silently).
#[derive(Debug, Clone)]
struct UniqueMap<V>(BTreeMap<String, V>);

impl<V> Default for UniqueMap<V> {
    fn default() -> Self {
        Self(BTreeMap::new())
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for UniqueMap<V> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit<V>(std::marker::PhantomData<V>);
        impl<'de, V: Deserialize<'de>> serde::de::Visitor<'de> for Visit<V> {
            type Value = UniqueMap<V>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a mapping")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut out = BTreeMap::new();
                while let Some(key) = map.next_key::<String>()? {
                    if out.contains_key(&key) {
                        return Err(serde::de::Error::custom(format!("duplicate key {key:?}")));
                    }
                    let value = map.next_value()?;
                    out.insert(key, value);
                }
                Ok(UniqueMap(out))
            }
        }
        d.deserialize_map(Visit(std::marker::PhantomData))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SweepFile {
    name: String,
    seed: u64,
    runs: u64,
    party: String,
    #[serde(default)]
    shard_size: Option<u64>,
    #[serde(default)]
    budget: Option<BudgetFile>,
    #[serde(default)]
    confidence: Option<f64>,
    scenario: ScenarioFile,
    jobs: Vec<JobFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BudgetFile {
    max_total_runs: u64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ScenarioFile {
    map: String,
    #[serde(default = "default_round_cap")]
    round_cap: u32,
    #[serde(default)]
    simple_monster_death: bool,
    sides: UniqueMap<SideFile>,
}

fn default_round_cap() -> u32 {
    100
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SideFile {
    #[serde(default)]
    zone: Option<String>,
    /// Empty only for the side a design job fills from its pool.
    #[serde(default)]
    combatants: Vec<String>,
}

/// A job entry: a mapping with exactly one key, the job kind.
#[derive(Debug, Clone)]
enum JobFile {
    Grid(GridFile),
    Optimize(OptimizeFile),
    Minmax(MinmaxFile),
    DangerMap(DangerMapFile),
    Frontier(FrontierFile),
    Sensitivity(SensitivityFile),
    Contribution(ContributionFile),
    Design(Box<DesignFile>),
    /// A day file's one job (never written in a sweep file).
    Day(Box<DayJob>),
}

impl JobFile {
    /// Every strategy the job writes, with the side it plays, in file order.
    fn written(&self) -> Vec<(Side, &WrittenStrategy)> {
        let (p, a) = (Side::Party, Side::Adversary);
        match self {
            JobFile::Grid(g) => {
                g.party.iter().map(|s| (p, s)).chain(g.adversary.iter().map(|s| (a, s))).collect()
            }
            JobFile::Optimize(j) => {
                std::iter::once((a, &j.adversary)).chain(j.candidates.iter().map(|s| (p, s))).collect()
            }
            JobFile::Minmax(j) => {
                j.party.iter().map(|s| (p, s)).chain(j.adversary.iter().map(|s| (a, s))).collect()
            }
            JobFile::DangerMap(j) => vec![(p, &j.party), (a, &j.adversary)],
            JobFile::Frontier(j) => vec![(p, &j.party), (a, &j.adversary)],
            JobFile::Sensitivity(j) => vec![(p, &j.party)],
            JobFile::Contribution(j) => vec![(p, &j.party), (a, &j.adversary)],
            JobFile::Design(j) => vec![(p, &j.party), (a, &j.adversary)],
            JobFile::Day(_) => Vec::new(),
        }
    }

    /// The strategies the job asks the LLM to propose, with their side.
    fn asks(&self) -> Option<(Side, usize)> {
        match self {
            JobFile::Optimize(j) => j.llm_candidates.map(|n| (Side::Party, n)),
            JobFile::Minmax(j) => j.llm_adversaries.map(|n| (Side::Adversary, n)),
            _ => None,
        }
    }
}

impl<'de> Deserialize<'de> for JobFile {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = JobFile;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a job such as `grid: {...}`")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<JobFile, A::Error> {
                use serde::de::Error;
                let Some(kind) = map.next_key::<String>()? else {
                    return Err(A::Error::custom("empty job: expected a job kind such as `grid`"));
                };
                let job = match kind.as_str() {
                    "grid" => JobFile::Grid(map.next_value()?),
                    "optimize" => JobFile::Optimize(map.next_value()?),
                    "minmax" => JobFile::Minmax(map.next_value()?),
                    "danger_map" => JobFile::DangerMap(map.next_value()?),
                    "frontier" => JobFile::Frontier(map.next_value()?),
                    "sensitivity" => JobFile::Sensitivity(map.next_value()?),
                    "contribution" => JobFile::Contribution(map.next_value()?),
                    "design" => JobFile::Design(map.next_value()?),
                    other => {
                        return Err(A::Error::custom(format!(
                            "unknown job kind {other:?}: the kinds are {}",
                            KINDS.join(", ")
                        )));
                    }
                };
                if let Some(extra) = map.next_key::<String>()? {
                    return Err(A::Error::custom(format!("a job has one kind; {extra:?} is a second one")));
                }
                Ok(job)
            }
        }
        d.deserialize_map(V)
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct GridFile {
    #[serde(default = "default_strategies")]
    party: Vec<WrittenStrategy>,
    #[serde(default = "default_strategies")]
    adversary: Vec<WrittenStrategy>,
    #[serde(default)]
    hp: UniqueMap<Vec<HpFraction>>,
    #[serde(default)]
    runs: Option<u64>,
}

fn default_strategies() -> Vec<WrittenStrategy> {
    vec![WrittenStrategy::default_spec()]
}

/// A parsed, resolved sweep.
#[derive(Debug, Clone)]
pub struct Sweep {
    /// The sweep file, for messages.
    pub file: String,
    /// Sweep name.
    pub name: String,
    /// Seed of every cell.
    pub seed: u64,
    /// Default runs per cell.
    pub runs: u64,
    /// The measured side.
    pub party: String,
    /// Runs per shard.
    pub shard_size: u64,
    /// Most runs the sweep may plan.
    pub max_total_runs: Option<u64>,
    /// The confidence level of every interval and comparison (`confidence:`
    /// in the file, default the 3σ level 99.73 %).
    pub confidence: Confidence,
    /// The resolved scenario (content, not paths).
    pub scenario: Arc<Scenario>,
    /// Jobs, in file order.
    pub jobs: Vec<Job>,
    /// What the LLM decided for it (empty until [`Sweep::apply_llm`]).
    pub llm: LlmDecisions,
}

/// A job that asks the LLM for strategies (`llm_candidates`, `llm_adversaries`).
#[derive(Debug, Clone, PartialEq)]
pub struct ProposalRequest {
    /// Index of the job.
    pub job: usize,
    /// The side proposed for.
    pub side: Side,
    /// Strategies asked for.
    pub count: usize,
    /// Strategies the job already measures (dropped from the answer).
    pub known: Vec<pf1e_engine::strategy::StrategySpec>,
}

/// Where referenced files come from: the disk (client side) or a bundle.
trait FileSource {
    fn read(&self, path: &str) -> Result<Vec<u8>, String>;
    /// The `*.json` files directly in directory `dir`, as paths written like
    /// `dir/name.json`, in order; none when the directory does not exist.
    fn list(&self, dir: &str) -> Vec<String>;
}

struct DiskSource {
    base: PathBuf,
}

impl FileSource for DiskSource {
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        let full = self.base.join(path);
        std::fs::read(&full).map_err(|e| format!("cannot read {}: {e}", full.display()))
    }

    fn list(&self, dir: &str) -> Vec<String> {
        let Ok(entries) = std::fs::read_dir(self.base.join(dir)) else { return Vec::new() };
        let mut names: Vec<String> = entries
            .filter_map(|e| e.ok())
            .filter(|e| e.path().is_file())
            .filter_map(|e| e.file_name().to_str().map(str::to_string))
            .filter(|n| n.ends_with(".json"))
            .collect();
        names.sort();
        names.into_iter().map(|n| format!("{dir}/{n}")).collect()
    }
}

struct BundleSource<'a> {
    files: BTreeMap<&'a str, &'a [u8]>,
}

impl FileSource for BundleSource<'_> {
    /// A bundled file, refused before any parser sees it when it is over
    /// [`MAX_FILE_BYTES`] or nested deeper than [`MAX_FILE_DEPTH`] (checked
    /// in one linear pass: a submission's validation stays linear in its size).
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        let bytes = self
            .files
            .get(path)
            .ok_or_else(|| format!("file {path:?} is missing from the submitted bundle"))?;
        shape(&String::from_utf8_lossy(bytes), "file", MAX_FILE_BYTES, MAX_FILE_DEPTH).map_err(
            |(line, message)| match line {
                Some(line) => format!("{path}: line {line}: {message}"),
                None => format!("{path}: {message}"),
            },
        )?;
        Ok(bytes.to_vec())
    }

    fn list(&self, dir: &str) -> Vec<String> {
        let prefix = format!("{dir}/");
        self.files
            .keys()
            .filter(|p| {
                p.strip_prefix(&prefix).is_some_and(|rest| !rest.contains('/') && rest.ends_with(".json"))
            })
            .map(|p| p.to_string())
            .collect()
    }
}

/// 1-based line of the first line of `text` containing `needle`.
pub(crate) fn line_of(text: &str, needle: &str) -> Option<usize> {
    text.lines().position(|l| l.contains(needle)).map(|i| i + 1)
}

/// 1-based line of the first line whose content starts with the key `key:`.
fn line_of_key(text: &str, key: &str) -> Option<usize> {
    text.lines()
        .position(|l| {
            let t = l.trim_start().trim_start_matches("- ").trim_start();
            t.strip_prefix(key).is_some_and(|rest| rest.trim_start().starts_with(':'))
        })
        .map(|i| i + 1)
        .or_else(|| line_of(text, &format!("{key}:")))
}

/// The first line after `from` (1-based) that defines the key `key:`.
fn second_key_line(text: &str, key: &str, from: usize) -> Option<usize> {
    text.lines()
        .enumerate()
        .skip(from)
        .find(|(_, l)| {
            let t = l.trim_start().trim_start_matches('{').trim_start();
            t.strip_prefix(key).is_some_and(|r| r.trim_start().starts_with(':'))
                || l.contains(&format!(" {key}:"))
        })
        .map(|(i, _)| i + 1)
}

/// The largest sweep file read: the biggest shipped one is under 4 KiB.
pub const MAX_SWEEP_BYTES: usize = 256 * 1024;

/// The deepest nesting of a sweep file (indentation levels and `[`/`{`
/// together): a sweep needs under 10.
pub const MAX_SWEEP_DEPTH: usize = 32;

/// The largest file a sweep references (a map, a combatant, a library
/// file): the biggest shipped one is under 80 KiB.
pub const MAX_FILE_BYTES: usize = 1024 * 1024;

/// The deepest nesting of a file a sweep references (counted as for the
/// sweep file: a pretty-printed JSON level counts its indentation and its
/// bracket); the shipped files need under 16.
pub const MAX_FILE_DEPTH: usize = 64;

/// Refuses, in one linear pass, a sweep file too large or nested too deep
/// for the YAML parser, whose cost grows faster than the text on deep
/// nesting: the limits hold before any parsing.
fn check_shape(text: &str, file: &str) -> Result<(), SweepError> {
    shape(text, "sweep file", MAX_SWEEP_BYTES, MAX_SWEEP_DEPTH)
        .map_err(|(line, message)| SweepError::new(file, line, message))
}

/// [`check_shape`] with other limits: `Err((line, message))` when `text`
/// is over `max_bytes` or nested deeper than `max_depth` levels
/// (indentation levels and `[`/`{` together).
fn shape(text: &str, what: &str, max_bytes: usize, max_depth: usize) -> Result<(), (Option<usize>, String)> {
    if text.len() > max_bytes {
        return Err((None, format!("the {what} is {} bytes, over the limit of {max_bytes}", text.len())));
    }
    let mut indents: Vec<usize> = Vec::new();
    let mut flow = 0usize;
    for (i, line) in text.lines().enumerate() {
        let body = line.trim_start_matches([' ', '-']);
        if body.is_empty() || body.starts_with('#') {
            continue;
        }
        let indent = line.len() - body.len();
        if flow == 0 {
            while indents.last().is_some_and(|&top| top > indent) {
                indents.pop();
            }
            if indents.last().is_none_or(|&top| top < indent) {
                indents.push(indent);
            }
        }
        let mut quote: Option<char> = None;
        for c in body.chars() {
            match (quote, c) {
                (Some(q), c) if c == q => quote = None,
                (Some(_), _) => {}
                (None, '"' | '\'') => quote = Some(c),
                (None, '#') => break,
                (None, '[' | '{') => flow += 1,
                (None, ']' | '}') => flow = flow.saturating_sub(1),
                _ => {}
            }
            if indents.len() + flow > max_depth {
                return Err((Some(i + 1), format!("nested deeper than {max_depth} levels")));
            }
        }
    }
    Ok(())
}

fn parse_file(text: &str, file: &str) -> Result<SweepFile, SweepError> {
    check_shape(text, file)?;
    serde_yaml::from_str::<SweepFile>(text).map_err(|e| {
        let line = e.location().map(|l| l.line());
        let mut message = e.to_string();
        if let Some(cut) = message.rfind(" at line ") {
            message.truncate(cut);
        }
        // serde_yaml points at the first occurrence; the second one is the mistake.
        let line = match message.split("duplicate key \"").nth(1).and_then(|r| r.split('"').next()) {
            Some(key) => second_key_line(text, key, line.unwrap_or(1)).or(line),
            // A bad lever range: serde_yaml points at its job; the line of `ranges:` is the place.
            None if message.contains(".ranges: ") => {
                line.and_then(|l| second_key_line(text, "ranges", l.saturating_sub(1))).or(line)
            }
            None => line,
        };
        SweepError::new(file, line, message)
    })
}

/// Paths referenced by a sweep file, deduplicated, in first-use order.
fn referenced_paths(f: &SweepFile) -> Vec<String> {
    let mut out = vec![f.scenario.map.clone()];
    for side in f.scenario.sides.0.values() {
        for c in &side.combatants {
            if !out.contains(c) {
                out.push(c.clone());
            }
        }
    }
    out
}

/// Reads a sweep file and every file it references into a self-contained bundle.
pub fn bundle_from_disk(path: &Path) -> Result<proto::SweepBundle, SweepError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|e| SweepError::new(&file, None, format!("cannot read: {e}")))?;
    let source = DiskSource { base: path.parent().map(Path::to_path_buf).unwrap_or_default() };
    let paths = if is_day_file(&text) {
        check_shape(&text, &file)?;
        day_file(&text, &file)?.0.referenced_paths()
    } else {
        referenced_paths(&parse_file(&text, &file)?)
    };
    let mut files = Vec::new();
    for p in paths {
        let content = source.read(&p).map_err(|m| SweepError::new(&file, line_of(&text, &p), m))?;
        files.push(proto::BundleFile { path: p, content });
    }
    // The library files the scenario uses (spells, summoned creatures), chosen as the coordinator will.
    let sweep = SweepDraft::resolve(&text, &file, &source)?;
    for scenario in sweep.scenarios() {
        let pool = scenario.sides.iter().flat_map(|s| s.combatants.iter());
        for (path, content) in scenario.spells.iter().chain(&scenario.creatures).chain(pool) {
            if !files.iter().any(|f| &f.path == path) {
                files.push(proto::BundleFile { path: path.clone(), content: content.clone() });
            }
        }
    }
    Ok(proto::SweepBundle { sweep_path: file, sweep_yaml: text, files, ..Default::default() })
}

/// The sweep text `yaml` with its top-level `confidence:` set to `level`
/// (a command-line override: the level is part of the sweep, so results at
/// another level are another sweep). Any top-level `confidence:` line is
/// replaced; the key is appended when absent.
pub fn with_confidence(yaml: &str, level: f64) -> String {
    let mut out: String =
        yaml.lines().filter(|l| !l.starts_with("confidence:")).fold(String::new(), |mut out, l| {
            out.push_str(l);
            out.push('\n');
            out
        });
    out.push_str(&format!("confidence: {level}\n"));
    out
}

/// A design job read: the side its pool fills, the job as written, its
/// pool, the pool's files (path, content) in pool order and the party's APL.
/// Its candidates are chosen once the scenario is built
/// ([`finish_design`]): only groups the map can place.
struct ReadDesign {
    side: String,
    job: DesignFile,
    pool: Vec<PoolMember>,
    files: Vec<(String, Vec<u8>)>,
    apl: i32,
}

/// Resolves the sweep's design job, if it has one: reads and filters its
/// pool, rates the party and chooses the candidates. A design job is alone
/// in its sweep (its side holds the whole pool, which no other job should
/// play) and fills a side other than the party's.
fn resolve_design(
    f: &SweepFile,
    text: &str,
    file: &str,
    source: &dyn FileSource,
) -> Result<Option<ReadDesign>, SweepError> {
    let at = |key: &str, msg: String| SweepError::new(file, line_of_key(text, key), msg);
    let designs: Vec<&DesignFile> = f
        .jobs
        .iter()
        .filter_map(|j| match j {
            JobFile::Design(d) => Some(&**d),
            _ => None,
        })
        .collect();
    let Some(d) = designs.first() else { return Ok(None) };
    if f.jobs.len() > 1 {
        return Err(at(
            "design",
            "design: a design job is the only job of its sweep (its side holds the whole pool)".into(),
        ));
    }
    let others: Vec<&String> = f.scenario.sides.0.keys().filter(|s| **s != f.party).collect();
    let side = match (&d.side, others.as_slice()) {
        (Some(s), _) if others.contains(&s) => s.clone(),
        (Some(s), _) => {
            let known: Vec<&str> = others.iter().map(|s| s.as_str()).collect();
            return Err(at(
                "side",
                format!(
                    "design side: {s:?} is not a side of the scenario other than the party ({})",
                    known.join(", ")
                ),
            ));
        }
        (None, [one]) => (*one).clone(),
        (None, _) => return Err(at("design", "design: name the side the pool fills (side: ...)".into())),
    };
    // The pool: files as written, directories expanded, each file once.
    let mut paths: Vec<(String, bool)> = Vec::new();
    for entry in &d.pool.monsters {
        let found: Vec<(String, bool)> = if entry.ends_with(".json") {
            vec![(entry.clone(), true)]
        } else {
            let dir = entry.trim_end_matches('/');
            let listed = source.list(dir);
            if listed.is_empty() {
                return Err(SweepError::new(
                    file,
                    line_of(text, entry),
                    format!("design pool: {entry} is neither a .json file nor a directory holding some"),
                ));
            }
            listed.into_iter().map(|p| (p, false)).collect()
        };
        for (p, named) in found {
            if !paths.iter().any(|(q, _)| *q == p) {
                paths.push((p, named));
            }
        }
    }
    let mut read = Vec::new();
    let mut parsed = Vec::new();
    for (p, named) in &paths {
        let line = line_of(text, p).or_else(|| line_of_key(text, "monsters"));
        let content = source.read(p).map_err(|m| SweepError::new(file, line, m))?;
        let c = pf1e_engine::model::parse_combatant(&String::from_utf8_lossy(&content), p)
            .map_err(|e| SweepError::new(file, line, e.to_string()))?;
        read.push((p.clone(), content));
        parsed.push((p.clone(), c, *named));
    }
    let pool: Vec<PoolMember> = design::pool_of(&d.pool, &parsed).map_err(|e| design_error(e, text, file))?;
    let contents: Vec<(String, Vec<u8>)> =
        pool.iter().filter_map(|m| read.iter().find(|(p, _)| *p == m.file).cloned()).collect();
    // The party's level by the book.
    let mut levels = Vec::new();
    let mut all = Vec::new();
    if let Some(party) = f.scenario.sides.0.get(&f.party) {
        for p in &party.combatants {
            let content = source.read(p).map_err(|m| SweepError::new(file, line_of(text, p), m))?;
            let c = pf1e_engine::model::parse_combatant(&String::from_utf8_lossy(&content), p)
                .map_err(|e| SweepError::new(file, line_of(text, p), e.to_string()))?;
            if c.role == pf1e_engine::model::CombatantRole::Pc {
                levels.push(c.level);
            }
            all.push(c.level);
        }
    }
    let apl = pf1e_engine::difficulty::apl(if levels.is_empty() { &all } else { &levels })
        .ok_or_else(|| at("party", format!("design: the party {:?} has no member to rate", f.party)))?;
    Ok(Some(ReadDesign { side, job: (*d).clone(), pool, files: contents, apl }))
}

/// Chooses a design job's candidates among the groups the scenario's map
/// can place (the same placement every cell's roster gets).
fn finish_design(
    d: ReadDesign,
    scenario: &Scenario,
    seed: u64,
    text: &str,
    file: &str,
) -> Result<DesignSearch, SweepError> {
    let at = |key: &str, msg: String| SweepError::new(file, line_of_key(text, key), msg);
    let base = scenario
        .encounter()
        .map_err(|e| at(&d.side, format!("design: the scenario with the whole pool does not build: {e}")))?;
    let ids: Vec<String> =
        base.combatants.iter().filter(|c| base.sides[c.side] == d.side).map(|c| c.id.clone()).collect();
    let fits = |g: &design::Group| {
        let roster = g
            .iter()
            .flat_map(|&(i, n)| std::iter::repeat_n(ids.get(i).cloned().unwrap_or_default(), n as usize))
            .collect();
        let variant = pf1e_wire::variant::SideVariant {
            side: d.side.clone(),
            hp: HpFraction::FULL,
            aware: None,
            copies: vec![],
            removed: vec![],
            roster,
        };
        pf1e_wire::variant::variant_encounter(&base, &[variant]).is_ok()
    };
    d.job.search(d.side.clone(), d.pool, d.apl, seed, &fits).map_err(|e| design_error(e, text, file))
}

/// A design job's refusal, at the line of the key it names (`design:
/// target: …` points at `target:`), else at the job's.
fn design_error(e: crate::jobs::JobError, text: &str, file: &str) -> SweepError {
    let message = e.to_string();
    let key = message
        .strip_prefix("design: ")
        .and_then(|rest| rest.split([':', ' ']).next())
        .filter(|k| !k.is_empty() && line_of_key(text, k).is_some())
        .unwrap_or("design");
    SweepError::new(file, line_of_key(text, key), message)
}

/// A sweep read and checked whose LLM decisions are still to make: its
/// jobs are as the file writes them, sentences (`{ nl: "..." }`) and
/// proposal requests (`llm_candidates`, `llm_adversaries`) open.
/// [`SweepDraft::decide`] turns it into a [`Sweep`], whose every strategy
/// is a spec.
///
/// Every check that does not depend on the model's answers runs when the
/// draft is read, so a bad sweep is refused before any model is asked: its
/// jobs are built once with every sentence played by the default spec and
/// every proposal request holding the places it asks for. Deciding builds
/// them again, with the same checks, on the real answers.
#[derive(Debug, Clone)]
pub struct SweepDraft {
    /// The sweep file, for messages.
    pub file: String,
    /// Sweep name.
    pub name: String,
    /// Seed of every cell.
    pub seed: u64,
    /// Default runs per cell.
    pub runs: u64,
    /// The measured side.
    pub party: String,
    /// Runs per shard.
    pub shard_size: u64,
    /// The confidence level of every interval and comparison.
    pub confidence: Confidence,
    /// The resolved scenario (content, not paths).
    pub scenario: Arc<Scenario>,
    /// Most runs the sweep may plan, and whether the file wrote it.
    budget: (u64, bool),
    /// The jobs as written, in file order.
    jobs: Vec<JobFile>,
    /// The design job's search, when the sweep has one.
    design: Option<DesignSearch>,
    /// The sweep file's text, for the lines of messages.
    text: String,
}

/// The LLM's answers a draft's jobs are built with.
#[derive(Clone, Copy)]
enum Answers<'a> {
    /// Before the model is asked: every sentence plays the default spec and
    /// every proposal request holds the places it asks for.
    Reserved,
    /// The sentences compiled, no proposal asked yet.
    Compiled(&'a [NlStrategy]),
    /// Every decision made.
    Decided(&'a LlmDecisions),
}

impl SweepDraft {
    /// Parses and checks a sweep from its bundle.
    pub fn from_bundle(bundle: &proto::SweepBundle) -> Result<Self, SweepError> {
        let source = BundleSource {
            files: bundle.files.iter().map(|f| (f.path.as_str(), f.content.as_slice())).collect(),
        };
        Self::resolve(&bundle.sweep_yaml, &bundle.sweep_path, &source)
    }

    fn resolve(text: &str, file: &str, source: &dyn FileSource) -> Result<Self, SweepError> {
        if is_day_file(text) {
            return Self::resolve_day(text, file, source);
        }
        let f = parse_file(text, file)?;
        let err = |key: &str, msg: String| SweepError::new(file, line_of_key(text, key), msg);
        if f.runs == 0 {
            return Err(err("runs", "runs must be at least 1".into()));
        }
        let shard_size = f.shard_size.unwrap_or(DEFAULT_SHARD_SIZE);
        if shard_size == 0 {
            return Err(err("shard_size", "shard_size must be at least 1".into()));
        }
        if f.scenario.sides.0.is_empty() {
            return Err(err("sides", "the scenario has no side".into()));
        }
        if !f.scenario.sides.0.contains_key(&f.party) {
            let known: Vec<&str> = f.scenario.sides.0.keys().map(String::as_str).collect();
            return Err(err(
                "party",
                format!("party {:?} is not a side of the scenario ({})", f.party, known.join(", ")),
            ));
        }
        if f.jobs.is_empty() {
            return Err(err("jobs", "the sweep has no job".into()));
        }
        if f.scenario.round_cap == 0 {
            return Err(err("round_cap", "round_cap must be at least 1".into()));
        }

        let read = |p: &str| source.read(p).map_err(|m| SweepError::new(file, line_of(text, p), m));
        let design = resolve_design(&f, text, file, source)?;
        let map_yaml = read(&f.scenario.map)?;
        let mut sides = Vec::new();
        for (name, side) in &f.scenario.sides.0 {
            let zone = match &side.zone {
                None => None,
                Some(z) => {
                    let mut chars = z.chars();
                    match (chars.next(), chars.next()) {
                        (Some(c), None) => Some(c),
                        _ => {
                            return Err(err(
                                "zone",
                                format!("side {name:?}: zone must be one letter, got {z:?}"),
                            ));
                        }
                    }
                }
            };
            let mut combatants = Vec::new();
            match &design {
                Some(d) if d.side == *name => {
                    if !side.combatants.is_empty() {
                        return Err(SweepError::new(
                            file,
                            line_of_key(text, name),
                            format!(
                                "side {name:?} is filled by the design job's pool: list no combatant there"
                            ),
                        ));
                    }
                    combatants = d.files.clone();
                }
                _ => {
                    if side.combatants.is_empty() {
                        return Err(SweepError::new(
                            file,
                            line_of_key(text, name),
                            format!("side {name:?} has no combatant"),
                        ));
                    }
                    for c in &side.combatants {
                        combatants.push((c.clone(), read(c)?));
                    }
                }
            }
            sides.push(ScenarioSide { name: name.clone(), zone, combatants });
        }
        let scenario = Scenario::new(
            f.scenario.map.clone(),
            map_yaml,
            sides,
            pf1e_engine::combat::SimOptions {
                round_cap: f.scenario.round_cap,
                simple_monster_death: f.scenario.simple_monster_death,
            },
        );
        // The spells and summonable creatures beside the combatant files.
        let mut paths: Vec<&str> =
            f.scenario.sides.0.values().flat_map(|s| s.combatants.iter().map(String::as_str)).collect();
        if let Some(d) = &design {
            paths.extend(d.files.iter().map(|(p, _)| p.as_str()));
        }
        let (spell_dirs, creature_dirs) = pf1e_wire::scenario::library_dirs(paths);
        let library = |dirs: &[String]| -> Result<Vec<(String, Vec<u8>)>, SweepError> {
            let mut out = Vec::new();
            for dir in dirs {
                for p in source.list(dir) {
                    let content = source.read(&p).map_err(|m| SweepError::new(file, None, m))?;
                    out.push((p, content));
                }
            }
            Ok(out)
        };
        let (spell_files, creature_files) = (library(&spell_dirs)?, library(&creature_dirs)?);
        let scenario = scenario
            .with_library(spell_files, creature_files)
            .map_err(|e| SweepError::new(file, line_of(text, e.origin()), e.to_string()))?;

        let design = match design {
            Some(d) => {
                let mut search = finish_design(d, &scenario, f.seed, text, file)?;
                search.replay = Some(design::Replay {
                    map: f.scenario.map.clone(),
                    sides: f
                        .scenario
                        .sides
                        .0
                        .iter()
                        .map(|(n, s)| (n.clone(), s.combatants.clone()))
                        .collect(),
                    round_cap: f.scenario.round_cap,
                    simple_monster_death: f.scenario.simple_monster_death,
                    seed: f.seed,
                });
                Some(search)
            }
            None => None,
        };
        let confidence = match f.confidence {
            Some(level) => Confidence::new(level).map_err(|e| err("confidence", e.to_string()))?,
            None => Confidence::default(),
        };
        let draft = SweepDraft {
            file: file.to_string(),
            name: f.name,
            seed: f.seed,
            runs: f.runs,
            party: f.party,
            shard_size,
            confidence,
            scenario: Arc::new(scenario),
            budget: (
                f.budget.as_ref().map_or(DEFAULT_MAX_TOTAL_RUNS, |b| b.max_total_runs),
                f.budget.is_some(),
            ),
            jobs: f.jobs,
            design,
            text: text.to_string(),
        };
        draft.build(Answers::Reserved)?;
        Ok(draft)
    }

    /// A day file as a sweep of one `day` job (`docs/days.md`): its fights
    /// built as `pf1e day` builds them (the party's side first, the round
    /// cap of the file), the sweep's scenario its first fight's, its seed
    /// and runs the file's, its confidence the report's 3σ unless a
    /// `confidence:` line (`pf1e run --confidence`) says otherwise.
    fn resolve_day(text: &str, file: &str, source: &dyn FileSource) -> Result<Self, SweepError> {
        check_shape(text, file)?;
        let (spec, keys) = day_file(text, file)?;
        let mut options = pf1e_engine::combat::SimOptions::default();
        if let Some(cap) = spec.round_cap {
            options.round_cap = cap;
        }
        let read = |p: &str| source.read(p).map_err(|m| SweepError::new(file, line_of(text, p), m));
        let files = |paths: &[String]| -> Result<Vec<(String, Vec<u8>)>, SweepError> {
            paths.iter().map(|p| Ok((p.clone(), read(p)?))).collect()
        };
        let library = |dirs: &[String]| -> Result<Vec<(String, Vec<u8>)>, SweepError> {
            let mut out = Vec::new();
            for dir in dirs {
                for p in source.list(dir) {
                    let content = source.read(&p).map_err(|m| SweepError::new(file, None, m))?;
                    out.push((p, content));
                }
            }
            Ok(out)
        };
        let party = files(&spec.party.combatants)?;
        let mut fights = Vec::new();
        let mut names = Vec::new();
        let mut steps = Vec::with_capacity(spec.steps.len());
        for step in &spec.steps {
            steps.push(match step {
                StepSpec::Encounter(e) => {
                    let sides = vec![
                        ScenarioSide { name: spec.party.side.clone(), zone: None, combatants: party.clone() },
                        ScenarioSide { name: e.side.clone(), zone: None, combatants: files(&e.combatants)? },
                    ];
                    let scenario = Scenario::new(e.map.clone(), read(&e.map)?, sides, options.clone());
                    let paths = spec.party.combatants.iter().chain(&e.combatants).map(String::as_str);
                    let (spell_dirs, creature_dirs) = pf1e_wire::scenario::library_dirs(paths);
                    let scenario = scenario
                        .with_library(library(&spell_dirs)?, library(&creature_dirs)?)
                        .map_err(|e| SweepError::new(file, line_of(text, e.origin()), e.to_string()))?;
                    fights.push(Arc::new(scenario));
                    names.push(e.name.clone());
                    DayStep::Encounter(fights.len() - 1)
                }
                StepSpec::ShortRest(spend) => DayStep::ShortRest(*spend),
                StepSpec::LongRest => DayStep::LongRest,
                StepSpec::Pass(rounds) => DayStep::Pass(*rounds),
                StepSpec::Branch(cond, choice) => DayStep::Branch(*cond, *choice),
            });
        }
        // The members' names, as the first fight deploys them (the files'
        // paths when it does not build: validation says why).
        let members = fights[0]
            .encounter()
            .map(|e| {
                e.combatants
                    .iter()
                    .filter(|d| e.sides[d.side] == spec.party.side)
                    .map(|d| d.spec.name.clone())
                    .collect()
            })
            .unwrap_or_else(|_| spec.party.combatants.clone());
        let confidence = Confidence::new(keys.confidence)
            .map_err(|e| SweepError::new(file, line_of_key(text, "confidence"), e.to_string()))?;
        let job = DayJob {
            shape: DayShape { name: spec.name.clone(), encounters: names, members },
            fights: fights.clone(),
            steps,
            plans: spec.plans(),
            runs: spec.runs,
        };
        let draft = SweepDraft {
            file: file.to_string(),
            name: spec.name.clone(),
            seed: spec.seed,
            runs: spec.runs,
            party: spec.party.side.clone(),
            shard_size: keys.shard_size,
            confidence,
            scenario: Arc::clone(&fights[0]),
            budget: (DEFAULT_MAX_TOTAL_RUNS, false),
            jobs: vec![JobFile::Day(Box::new(job))],
            design: None,
            text: text.to_string(),
        };
        draft.build(Answers::Reserved)?;
        Ok(draft)
    }

    /// Every scenario its cells play: its own, and a day's fights.
    pub fn scenarios(&self) -> Vec<Arc<Scenario>> {
        scenarios_of(
            &self.scenario,
            self.jobs.iter().filter_map(|j| match j {
                JobFile::Day(d) => Some(d.as_ref()),
                _ => None,
            }),
        )
    }

    /// The sweep of this draft with the LLM's `decisions` (none for a sweep
    /// that needs none). Fails when a decision is missing or unreadable (a
    /// journal of another version), or when the jobs built on the answers
    /// fail their checks.
    pub fn decide(&self, decisions: &LlmDecisions) -> Result<Sweep, SweepError> {
        self.build(Answers::Decided(decisions))
    }

    /// Whether the LLM must decide something before the sweep is planned:
    /// a sentence to compile or proposals to ask for.
    pub fn needs_llm(&self) -> bool {
        !self.pending_sentences().is_empty() || self.jobs.iter().any(|j| j.asks().is_some())
    }

    /// The sentences (`{ nl: "..." }`) to compile, with their side: each
    /// (side, sentence) once, in file order.
    pub fn pending_sentences(&self) -> Vec<(Side, String)> {
        let mut out: Vec<(Side, String)> = Vec::new();
        for (side, written) in self.jobs.iter().flat_map(JobFile::written) {
            if let Some(s) = written.sentence()
                && !out.iter().any(|(k, t)| *k == side && t == s)
            {
                out.push((side, s.to_string()));
            }
        }
        out
    }

    /// The proposals to ask for, once the sentences are `compiled`: each
    /// with the strategies its job measures already.
    pub fn proposal_requests(&self, compiled: &[NlStrategy]) -> Result<Vec<ProposalRequest>, SweepError> {
        let sweep = self.build(Answers::Compiled(compiled))?;
        let levers = |specs: &[StrategySpec]| specs.iter().map(|s| s.levers().clone()).collect::<Vec<_>>();
        let mut out = Vec::new();
        for (job, (written, j)) in self.jobs.iter().zip(&sweep.jobs).enumerate() {
            let Some((side, count)) = written.asks() else { continue };
            let known = match j {
                Job::Optimize(o) => {
                    let mut known = crate::jobs::optimize::grid_specs(pf1e_engine::strategy::Relevance::ALL);
                    known.extend(
                        o.candidates.iter().filter(|c| !known.contains(c)).cloned().collect::<Vec<_>>(),
                    );
                    known
                }
                Job::Minmax(m) => m.adversary.clone(),
                _ => continue,
            };
            out.push(ProposalRequest { job, side, count, known: levers(&known) });
        }
        Ok(out)
    }

    /// Checks the scenario against the engine (map, combatants, sides, zones).
    /// Errors name the offending file; side errors point at the sweep file line.
    pub fn validate(&self) -> Result<(), SweepError> {
        let text = &self.text;
        let refuse = |e: ScenarioError| {
            let line = e.side().and_then(|side| line_of_key(text, side));
            match line {
                Some(_) => SweepError::new(&self.file, line, e.to_string()),
                None => SweepError::new(&self.file, line_of(text, e.origin()), e.to_string()),
            }
        };
        self.scenario.encounter().map_err(refuse)?;
        // A day's fights are played prepared: each is checked as `pf1e day` checks it.
        if self.jobs.iter().any(|j| matches!(j, JobFile::Day(_))) {
            for scenario in self.scenarios() {
                scenario.prepare(scenario.encounter().map_err(refuse)?).map_err(refuse)?;
            }
        }
        Ok(())
    }

    /// The jobs built on `answers`, checked, and the sweep that holds them.
    fn build(&self, answers: Answers) -> Result<Sweep, SweepError> {
        let (file, text) = (self.file.as_str(), self.text.as_str());
        let err = |key: &str, msg: String| SweepError::new(file, line_of_key(text, key), msg);
        let parse = |name: &str, what: &str| {
            StrategySpec::parse(name).map_err(|e| SweepError::new(file, None, format!("{what}: {e}")))
        };
        let compiled: &[NlStrategy] = match answers {
            Answers::Reserved => &[],
            Answers::Compiled(c) => c,
            Answers::Decided(d) => &d.strategies,
        };
        let mut resolved = Vec::new();
        for c in compiled {
            resolved.push((c.side.as_str(), c.sentence.as_str(), parse(&c.strategy, "LLM strategy")?));
        }
        let reserved = matches!(answers, Answers::Reserved);
        let mut spec = |side: Side, written: &WrittenStrategy| match written {
            WrittenStrategy::Spec(s) => Ok(s.clone()),
            WrittenStrategy::Sentence(_) if reserved => Ok(StrategySpec::default_spec()),
            WrittenStrategy::Sentence(t) => resolved
                .iter()
                .find(|(k, s, _)| *k == side.name() && s == t)
                .map(|(_, _, c)| c.clone())
                .ok_or_else(|| NotCompiled { side, sentence: t.clone() }),
        };
        let not_compiled = |e: NotCompiled| SweepError::new(file, None, e.to_string());
        let proposals = |job: usize, asks: Option<(Side, usize)>| -> Result<Proposals, SweepError> {
            let Some((_, count)) = asks else { return Ok(Proposals::Answered(Vec::new())) };
            match answers {
                Answers::Reserved => Ok(Proposals::Reserved(count)),
                Answers::Compiled(_) => Ok(Proposals::Answered(Vec::new())),
                Answers::Decided(d) => {
                    let Some(p) = d.proposals.iter().find(|p| p.job as usize == job) else {
                        return Err(SweepError::new(
                            file,
                            None,
                            format!("job {}: the LLM's proposals are missing", job + 1),
                        ));
                    };
                    let specs =
                        p.strategies.iter().map(|n| parse(n, "LLM proposal")).collect::<Result<_, _>>()?;
                    Ok(Proposals::Answered(specs))
                }
            }
        };
        let sides = &self.scenario.sides;
        let runs = self.runs;
        let mut jobs = Vec::new();
        for (index, written) in self.jobs.iter().enumerate() {
            let asks = written.asks();
            let job = match written {
                JobFile::Grid(g) => {
                    for side in g.hp.0.keys() {
                        if !sides.iter().any(|s| s.name == *side) {
                            return Err(SweepError::new(
                                file,
                                line_of_key(text, side),
                                format!("grid hp: {side:?} is not a side of the scenario"),
                            ));
                        }
                    }
                    let mut hp = BTreeMap::new();
                    for side in sides.iter().map(|s| &s.name) {
                        let fr = g.hp.0.get(side).cloned().unwrap_or_else(|| vec![HpFraction::FULL]);
                        if fr.is_empty() {
                            return Err(err(side, format!("grid hp: side {side:?} lists no fraction")));
                        }
                        hp.insert(side.clone(), fr);
                    }
                    if g.party.is_empty() || g.adversary.is_empty() {
                        return Err(err(
                            "grid",
                            "grid: party and adversary need at least one strategy".into(),
                        ));
                    }
                    let runs = g.runs.unwrap_or(runs);
                    let side_of = |list: &[WrittenStrategy], side: Side| {
                        list.iter()
                            .map(|w| spec(side, w))
                            .collect::<Result<Vec<_>, _>>()
                            .map_err(not_compiled)
                    };
                    let party = side_of(&g.party, Side::Party)?;
                    let adversary = side_of(&g.adversary, Side::Adversary)?;
                    Job::Grid(GridJob { party, adversary, hp, runs })
                }
                JobFile::Optimize(j) => Job::Optimize(
                    j.clone().decide(runs, &mut spec, proposals(index, asks)?).map_err(not_compiled)?,
                ),
                JobFile::Minmax(j) => Job::Minmax(
                    j.clone().decide(runs, &mut spec, proposals(index, asks)?).map_err(not_compiled)?,
                ),
                JobFile::DangerMap(j) => {
                    Job::DangerMap(j.clone().decide(runs, &mut spec).map_err(not_compiled)?)
                }
                JobFile::Frontier(j) => {
                    Job::Frontier(j.clone().decide(runs, &mut spec).map_err(not_compiled)?)
                }
                JobFile::Sensitivity(j) => {
                    Job::Sensitivity(j.clone().decide(runs, &mut spec).map_err(not_compiled)?)
                }
                JobFile::Contribution(j) => {
                    Job::Contribution(j.clone().decide(runs, &mut spec).map_err(not_compiled)?)
                }
                JobFile::Day(d) => Job::Day(d.clone()),
                JobFile::Design(d) => match &self.design {
                    Some(search) => {
                        Job::Design(d.decide(search.clone(), runs, &mut spec).map_err(not_compiled)?)
                    }
                    None => continue,
                },
            };
            let kind = job.kind();
            if job.runs() == 0 {
                return Err(match job {
                    Job::Grid(_) => err("runs", "grid: runs must be at least 1".into()),
                    _ => err(kind, format!("{kind}: runs must be at least 1")),
                });
            }
            job.check().map_err(|e| err(kind, e.to_string()))?;
            jobs.push(job);
        }
        let (max, written_budget) = self.budget;
        let sweep = Sweep {
            file: self.file.clone(),
            confidence: self.confidence,
            name: self.name.clone(),
            seed: self.seed,
            runs: self.runs,
            party: self.party.clone(),
            shard_size: self.shard_size,
            max_total_runs: Some(max),
            scenario: Arc::clone(&self.scenario),
            jobs,
            llm: match answers {
                Answers::Decided(d) => d.clone(),
                _ => LlmDecisions::default(),
            },
        };
        if max > MAX_TOTAL_RUNS_CEILING {
            return Err(err(
                "max_total_runs",
                format!("budget.max_total_runs is {max}, over the ceiling of {MAX_TOTAL_RUNS_CEILING} runs"),
            ));
        }
        let planned = registry::planned_runs(&sweep.jobs);
        if planned > max {
            let whose =
                if written_budget { "the budget of" } else { "the default budget (no `budget:` written) of" };
            let key = if written_budget { "max_total_runs" } else { "runs" };
            return Err(err(
                key,
                format!("the jobs plan {planned} runs, over {whose} {max} (budget.max_total_runs)"),
            ));
        }
        Ok(sweep)
    }
}

/// `main` and the fights of `days`, each scenario once, `main` first.
fn scenarios_of<'a>(main: &Arc<Scenario>, days: impl Iterator<Item = &'a DayJob>) -> Vec<Arc<Scenario>> {
    let mut out = vec![Arc::clone(main)];
    for fight in days.flat_map(|d| d.fights.iter()) {
        if !out.iter().any(|s| s.hash == fight.hash) {
            out.push(Arc::clone(fight));
        }
    }
    out
}

/// Whether a sweep file's text is a day file (`docs/days.md`): a top-level
/// `steps:` key, which no sweep file has.
pub fn is_day_file(text: &str) -> bool {
    text.lines().any(|l| l.starts_with("steps:"))
}

/// How a day runs as a sweep: keys of the sweep, not of the day, that a
/// day file may carry at its top level.
pub struct DaySweepKeys {
    /// `confidence:` (what `pf1e run --confidence` appends; default 3σ).
    pub confidence: f64,
    /// `shard_size:`, days per shard (default [`DEFAULT_DAY_SHARD_SIZE`]).
    pub shard_size: u64,
}

/// Days per shard when the day file does not say: a day plays several
/// fights, so a shard of days takes about as long as a sweep's shard of
/// battles.
pub const DEFAULT_DAY_SHARD_SIZE: u64 = 25;

/// The day file `text` read, and its sweep keys, taken out before the day
/// is read (their lines left blank, so messages name the right lines).
/// `pf1e day` reads its file here too, so both read the same day.
pub fn day_file(text: &str, file: &str) -> Result<(DayFile, DaySweepKeys), SweepError> {
    let mut keys = DaySweepKeys {
        confidence: pf1e_engine::day::summary::REPORT_CONFIDENCE,
        shard_size: DEFAULT_DAY_SHARD_SIZE,
    };
    let mut body = String::with_capacity(text.len());
    for (i, line) in text.lines().enumerate() {
        let bad =
            |key: &str, v: &str| SweepError::new(file, Some(i + 1), format!("{key}: {v:?} is not a number"));
        if let Some(v) = line.strip_prefix("confidence:") {
            keys.confidence = v.trim().parse().map_err(|_| bad("confidence", v.trim()))?;
        } else if let Some(v) = line.strip_prefix("shard_size:") {
            keys.shard_size = v.trim().parse().map_err(|_| bad("shard_size", v.trim()))?;
            if keys.shard_size == 0 {
                return Err(SweepError::new(file, Some(i + 1), "shard_size must be at least 1"));
            }
        } else {
            body.push_str(line);
        }
        body.push('\n');
    }
    let spec = DayFile::from_yaml_str(&body, file).map_err(|e| SweepError::new(file, e.line, e.message))?;
    Ok((spec, keys))
}

impl Sweep {
    /// Every scenario its cells play: its own, and a day's fights.
    pub fn scenarios(&self) -> Vec<Arc<Scenario>> {
        scenarios_of(
            &self.scenario,
            self.jobs.iter().filter_map(|j| match j {
                Job::Day(d) => Some(d.as_ref()),
                _ => None,
            }),
        )
    }

    /// Parses, checks and decides a sweep that needs no LLM decision (one
    /// that does is refused: see [`SweepDraft`]).
    pub fn from_bundle(bundle: &proto::SweepBundle) -> Result<Self, SweepError> {
        SweepDraft::from_bundle(bundle)?.decide(&LlmDecisions::default())
    }

    /// What every job of the sweep needs from it.
    pub fn job_context(&self) -> JobContext {
        // The levers that matter for the party and for the other sides: a
        // scenario that does not build has them all.
        use pf1e_engine::strategy::Relevance;
        let encounter = self.scenario.encounter();
        let combatants = encounter.as_ref().map_or_else(
            |_| Vec::new(),
            |e| e.combatants.iter().map(|d| (e.sides[d.side].clone(), d.id.clone())).collect(),
        );
        let (levers, adversary_levers) = match encounter {
            Ok(e) => {
                let side = e.sides.iter().position(|s| *s == self.party);
                let of = |party: bool| {
                    Relevance::of(
                        e.combatants
                            .iter()
                            .filter(|d| (Some(d.side) == side) == party)
                            .map(|d| d.spec.as_ref()),
                    )
                };
                (of(true), of(false))
            }
            Err(_) => (Relevance::ALL, Relevance::ALL),
        };
        JobContext {
            party: self.party.clone(),
            sides: self.scenario.sides.iter().map(|s| s.name.clone()).collect(),
            seed: self.seed,
            levers,
            adversary_levers,
            confidence: self.confidence,
            combatants,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) const SWEEP: &str = "\
name: test
seed: 7
runs: 10
party: players
shard_size: 4
scenario:
  map: maps/arena.yaml
  sides:
    players: { zone: A, combatants: [a.json, a.json] }
    monsters: { zone: B, combatants: [b.json] }
jobs:
  - grid: { hp: { players: [0.5, 1.0] } }
";

    fn bundle(text: &str) -> proto::SweepBundle {
        let files = ["maps/arena.yaml", "a.json", "b.json"]
            .iter()
            .map(|p| proto::BundleFile {
                path: p.to_string(),
                content: format!("content of {p}").into_bytes(),
            })
            .collect();
        proto::SweepBundle {
            sweep_path: "sweep.yaml".into(),
            sweep_yaml: text.into(),
            files,
            ..Default::default()
        }
    }

    #[test]
    fn parses_a_grid_sweep() {
        let s = Sweep::from_bundle(&bundle(SWEEP)).unwrap();
        assert_eq!(s.name, "test");
        assert_eq!(s.shard_size, 4);
        assert_eq!(s.scenario.sides.len(), 2);
        assert_eq!(s.scenario.sides[1].name, "players");
        assert_eq!(s.scenario.sides[1].combatants.len(), 2);
        let Job::Grid(g) = &s.jobs[0] else { panic!("a grid job") };
        assert_eq!(g.hp["players"], vec![HpFraction(500_000), HpFraction::FULL]);
        assert_eq!(g.hp["monsters"], vec![HpFraction::FULL]);
        assert_eq!(g.runs, 10);
    }

    fn error_of(text: &str) -> SweepError {
        Sweep::from_bundle(&bundle(text)).unwrap_err()
    }

    #[test]
    fn lever_ranges_parse_and_bad_ranges_are_refused_with_file_and_line() {
        let with = |job: &str| SWEEP.replace("  - grid: { hp: { players: [0.5, 1.0] } }", job);
        let s = Sweep::from_bundle(&bundle(&with(
            "  - optimize:\n      ranges: { retreat: [0.0, 0.9], area_min: [1, 3] }\n      search: { batches: 2, points: 3 }",
        )))
        .unwrap();
        let Job::Optimize(o) = &s.jobs[0] else { panic!("an optimize job") };
        let names: Vec<&str> = o.ranges.0.iter().map(|r| r.name).collect();
        assert_eq!(names, ["retreat", "area_min"], "canonical order");
        assert_eq!((o.search.batches, o.search.points, o.search.confirm_runs), (2, 3, Some(40)));
        for (job, line, words) in [
            (
                "  - optimize:\n      ranges: { retreat: [0.9, 0.1] }",
                13,
                "lowest value 0.9 must be below the highest 0.1",
            ),
            ("  - optimize:\n      ranges: { retreat: [0.5, 1.5] }", 13, "leaves the lever's values, 0 to 1"),
            ("  - optimize:\n      ranges: { target: [0, 1] }", 13, "`target` is not a numeric lever"),
            (
                "  - optimize:\n      ranges: { use_charges: [0, 1] }",
                13,
                "`use_charges` is not a numeric lever",
            ),
            ("  - optimize:\n      ranges: { area_min: [0, 2] }", 13, "leaves the lever's values, 1 to 3"),
            ("  - optimize:\n      ranges: { retreat: [0.1] }", 13, "two numbers"),
            ("  - optimize:\n      search: { batches: 2 }", 12, "without `ranges:`"),
            (
                "  - optimize:\n      max_total_runs: 500\n      ranges: { retreat: [0, 0.9] }",
                12,
                "the search (4 batches × 4 points × 10 runs",
            ),
        ] {
            let e = error_of(&with(job));
            assert!(e.to_string().starts_with("sweep.yaml: line "), "{e}");
            assert_eq!(e.line, Some(line), "{job}: {e}");
            assert!(e.message.contains(words), "{job}: {e}");
        }
    }

    #[test]
    fn unknown_fields_are_errors_with_a_line() {
        let e = error_of(&SWEEP.replace("seed: 7", "seed: 7\nsede: 8"));
        assert_eq!(e.line, Some(3), "{e}");
        assert!(e.to_string().starts_with("sweep.yaml: line 3: "), "{e}");
        assert!(e.message.contains("sede"), "{e}");
    }

    #[test]
    fn the_confidence_level_is_read_checked_and_overridden() {
        let s = Sweep::from_bundle(&bundle(SWEEP)).unwrap();
        assert_eq!(s.confidence, Confidence::default(), "the 3σ level by default");
        let s = Sweep::from_bundle(&bundle(&SWEEP.replace("seed: 7", "seed: 7\nconfidence: 0.95"))).unwrap();
        assert_eq!(s.confidence.level(), 0.95);
        assert_eq!(s.job_context().confidence.level(), 0.95);
        let e = error_of(&SWEEP.replace("seed: 7", "seed: 7\nconfidence: 1.5"));
        assert_eq!(e.line, Some(3), "{e}");
        assert!(e.message.contains("strictly between 0 and 1"), "{e}");
        let text = with_confidence(&SWEEP.replace("seed: 7", "seed: 7\nconfidence: 0.95"), 0.9);
        assert_eq!(text.matches("confidence:").count(), 1);
        assert_eq!(Sweep::from_bundle(&bundle(&text)).unwrap().confidence.level(), 0.9);
    }

    #[test]
    fn malformed_yaml_names_the_line() {
        let e = error_of(&SWEEP.replace("runs: 10", "runs: [10"));
        assert!(e.line.is_some(), "{e}");
    }

    #[test]
    fn strategies_by_name_or_levers_share_one_canonical_name() {
        let text = SWEEP.replace(
            "- grid: { hp: { players: [0.5, 1.0] } }",
            "- grid: { party: [\"retreat=0.5, lowest_hp\", { target: lowest_hp, retreat: 0.5 }] }\n  - optimize: { adversary: { use_charges: false }, candidates: [healer] }\n  - frontier: { target: 0.3 }",
        );
        let s = Sweep::from_bundle(&bundle(&text)).unwrap();
        let Job::Grid(g) = &s.jobs[0] else { panic!("a grid job") };
        assert_eq!(g.party[0], g.party[1]);
        assert_eq!(g.party[0].as_str(), "lowest_hp, retreat=0.5");
        let Job::Optimize(o) = &s.jobs[1] else { panic!("an optimize job") };
        assert_eq!(o.adversary.as_str(), "use_charges=false");
        assert_eq!(o.runs, 10, "the sweep's runs by default");
        assert_eq!(s.jobs[2].kind(), "frontier");
        let e = error_of(&text.replace("use_charges: false", "use_charges: sometimes"));
        assert_eq!(e.line, Some(13), "{e}");
        assert!(e.message.contains("use_charges"), "{e}");
        let e = error_of(&text.replace("target: 0.3", "target: 1.3"));
        assert!(e.message.contains("(0, 1)"), "{e}");
    }

    #[test]
    fn sentences_are_pending_until_the_llm_decisions_are_applied() {
        let text = SWEEP.replace(
            "- grid: { hp: { players: [0.5, 1.0] } }",
            "- grid: { party: [{ nl: \"focus the healer\" }, default], adversary: [{ nl: \"focus the healer\" }] }\n  - optimize: { candidates: [{ nl: \"focus the healer\" }], llm_candidates: 2 }\n  - minmax: { party: [default], adversary: [default], llm_adversaries: 1 }",
        );
        let s = SweepDraft::from_bundle(&bundle(&text)).unwrap();
        assert!(s.needs_llm());
        let e = Sweep::from_bundle(&bundle(&text)).unwrap_err();
        assert!(e.message.contains("was not compiled"), "a sweep holds no sentence: {e}");
        assert_eq!(
            s.pending_sentences(),
            [
                (Side::Party, "focus the healer".to_string()),
                (Side::Adversary, "focus the healer".to_string())
            ]
        );
        let nl = |side: &str, strategy: &str| NlStrategy {
            side: side.into(),
            sentence: "focus the healer".into(),
            strategy: strategy.into(),
            model: "m".into(),
            prompt_version: "v".into(),
            answers: 1,
        };
        let e = s.proposal_requests(&[nl("party", "healer")]).unwrap_err();
        assert!(e.message.contains("(adversary) was not compiled"), "{e}");
        let compiled = [nl("party", "healer"), nl("adversary", "lowest_hp")];
        let requests = s.proposal_requests(&compiled).unwrap();
        assert_eq!(requests.len(), 2);
        assert_eq!((requests[0].job, requests[0].side, requests[0].count), (1, Side::Party, 2));
        assert_eq!(requests[0].known.len(), 32, "the grid (the healer candidate is in it)");
        assert_eq!((requests[1].job, requests[1].side, requests[1].known.len()), (2, Side::Adversary, 1));
        let e = s.decide(&LlmDecisions { strategies: compiled.to_vec(), proposals: vec![] }).unwrap_err();
        assert!(e.message.contains("job 2: the LLM's proposals are missing"), "{e}");
        let proposals = |job: u32, names: &[&str]| pf1e_wire::results::LlmProposals {
            job,
            prompt: "p".into(),
            side: "s".into(),
            asked: 2,
            strategies: names.iter().map(|n| n.to_string()).collect(),
            duplicates: vec![],
            model: "m".into(),
            prompt_version: "v".into(),
            answers: 1,
        };
        let decisions = LlmDecisions {
            strategies: compiled.to_vec(),
            proposals: vec![proposals(1, &["healer, retreat=0.9"]), proposals(2, &["weakest_ac"])],
        };
        let again = s.decide(&decisions).unwrap();
        let Job::Grid(g) = &again.jobs[0] else { panic!("a grid") };
        assert_eq!((g.party[0].as_str(), g.adversary[0].as_str()), ("healer", "lowest_hp"));
        let Job::Minmax(m) = &again.jobs[2] else { panic!("a minmax") };
        assert_eq!(
            m.adversary.iter().map(StrategySpec::as_str).collect::<Vec<_>>(),
            ["default", "weakest_ac"]
        );
        let Job::Optimize(o) = &again.jobs[1] else { panic!("an optimize") };
        assert_eq!(o.llm_proposals[0].as_str(), "healer, retreat=0.9");
        assert_eq!(again.llm, decisions);
        let e = error_of(&text.replace("{ nl: \"focus the healer\" }, default", "{ nl: \"\" }"));
        assert!(e.message.contains("non-empty sentence"), "{e}");
        let e = error_of(&text.replace("{ nl: \"focus the healer\" }, default", "{ nl: x, target: healer }"));
        assert!(e.message.contains("takes no other key"), "{e}");
    }

    #[test]
    fn the_places_asked_of_the_llm_count_in_the_budget_before_it_is_asked() {
        // 10 runs a cell: the full grid (32) and its refinement (18) make
        // 500 runs; two proposals asked make 520, over a budget of 510.
        let job = "- optimize: { llm_candidates: 2, refine_top: 3, race_rounds: 0, max_total_runs: 510 }";
        let text = SWEEP.replace("- grid: { hp: { players: [0.5, 1.0] } }", job);
        let e = SweepDraft::from_bundle(&bundle(&text)).unwrap_err();
        assert!(e.message.contains("520"), "{e}");
        assert_eq!(e.line, Some(12), "{e}");
        assert!(SweepDraft::from_bundle(&bundle(&text.replace("510", "520"))).unwrap().needs_llm());
    }

    #[test]
    fn a_design_job_is_alone_in_its_sweep_and_fills_a_side_other_than_the_party() {
        let design = "- design: { target: hard, pool: { monsters: [b.json] } }";
        let with = |jobs: &str| SWEEP.replace("- grid: { hp: { players: [0.5, 1.0] } }", jobs);
        let e = error_of(&with(&format!("{design}\n  - grid: {{}}")));
        assert!(e.message.contains("the only job of its sweep"), "{e}");
        assert_eq!(e.line, Some(12), "{e}");
        let e = error_of(&with(&design.replace("{ target", "{ side: players, target")));
        assert!(e.message.contains("\"players\" is not a side of the scenario other than the party"), "{e}");
        let e = error_of(&with(&design.replace("[b.json]", "[nowhere]")));
        assert!(e.message.contains("neither a .json file nor a directory"), "{e}");
        let e = error_of(&with(design));
        assert!(e.message.contains("b.json"), "the pool's file is parsed as a combatant: {e}");
    }

    #[test]
    fn unknown_strategy_is_refused_with_its_line() {
        let e = error_of(&SWEEP.replace("{ hp:", "{ party: [cautious], hp:"));
        assert_eq!(e.line, Some(12), "{e}");
        assert!(e.message.contains("cautious"), "{e}");
    }

    #[test]
    fn unknown_job_kind_is_refused() {
        let e = error_of(&SWEEP.replace("- grid:", "- optimize:"));
        assert!(e.message.contains("optimize"), "{e}");
        assert_eq!(e.line, Some(12), "{e}");
    }

    #[test]
    fn bad_fraction_and_unknown_party_are_refused() {
        let e = error_of(&SWEEP.replace("0.5, 1.0", "0.0, 1.0"));
        assert!(e.message.contains("(0, 1]"), "{e}");
        let e = error_of(&SWEEP.replace("party: players", "party: heroes"));
        assert_eq!(e.line, Some(4), "{e}");
        let e = error_of(&SWEEP.replace("{ players:", "{ heroes:"));
        assert!(e.message.contains("heroes"), "{e}");
    }

    #[test]
    fn missing_file_names_the_reference_line() {
        let mut b = bundle(SWEEP);
        b.files.retain(|f| f.path != "b.json");
        let e = Sweep::from_bundle(&b).unwrap_err();
        assert_eq!(e.line, Some(10), "{e}");
        assert!(e.message.contains("b.json"), "{e}");
    }

    #[test]
    fn duplicate_keys_are_errors() {
        let e =
            error_of(&SWEEP.replace("    monsters:", "    players: { combatants: [b.json] }\n    monsters:"));
        assert!(e.message.contains("duplicate"), "{e}");
        assert_eq!(e.line, Some(10), "{e}");
    }

    #[test]
    fn budget_is_enforced() {
        let e = error_of(&SWEEP.replace("shard_size: 4", "shard_size: 4\nbudget: { max_total_runs: 15 }"));
        assert!(e.message.contains("20 runs"), "{e}");
        assert_eq!(e.line, Some(6), "{e}");
    }

    #[test]
    fn a_sweep_too_large_or_nested_too_deep_is_refused_before_parsing() {
        let deep = format!("{}\n", "[".repeat(10_000));
        let e = error_of(&format!("{SWEEP}extra: {deep}"));
        assert!(e.message.contains("nested deeper"), "{e}");
        assert_eq!(e.line, Some(13), "{e}");
        let mut indented = String::from("name: x\n");
        for i in 0..40 {
            indented += &format!("{}k{i}:\n", " ".repeat(2 * i));
        }
        assert!(error_of(&indented).message.contains("nested deeper"));
        let big = format!("{SWEEP}# {}\n", "x".repeat(MAX_SWEEP_BYTES));
        assert!(error_of(&big).message.contains("over the limit"));
        // Brackets inside strings and comments do not count.
        let quoted = format!("{SWEEP}# {}\n", "[".repeat(100));
        assert!(Sweep::from_bundle(&bundle(&quoted)).is_ok());
    }

    #[test]
    fn a_referenced_file_too_large_or_nested_too_deep_is_refused_before_parsing() {
        let with_map = |content: Vec<u8>| {
            let mut b = bundle(SWEEP);
            b.files[0].content = content;
            Sweep::from_bundle(&b).unwrap_err()
        };
        let e = with_map(format!("tiles: {}\n", "[".repeat(100_000)).into_bytes());
        assert!(e.message.contains("maps/arena.yaml: line 1: nested deeper than 64 levels"), "{e}");
        assert_eq!(e.line, Some(7), "the sweep's line naming the map: {e}");
        let e = with_map(vec![b'#'; MAX_FILE_BYTES + 1]);
        assert!(e.message.contains("maps/arena.yaml: the file is 1048577 bytes, over the limit"), "{e}");
        // Every file shipped is far within both limits.
        let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data");
        let mut dirs = vec![data];
        let mut checked = 0;
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "json" || e == "yaml") {
                    let text = std::fs::read_to_string(&path).unwrap();
                    let shipped = shape(&text, "file", MAX_FILE_BYTES / 8, MAX_FILE_DEPTH / 3);
                    assert!(shipped.is_ok(), "{}: {shipped:?}", path.display());
                    checked += 1;
                }
            }
        }
        assert!(checked > 100, "{checked} data files");
    }

    #[test]
    fn a_sweep_without_budget_gets_the_default_one() {
        let e = error_of(&SWEEP.replace("runs: 10", "runs: 99999999999100"));
        assert!(e.message.contains("default budget"), "{e}");
        assert!(e.message.contains(&DEFAULT_MAX_TOTAL_RUNS.to_string()), "{e}");
        assert!(!e.message.contains('\n'), "one line: {e}");
    }

    #[test]
    fn a_budget_over_the_ceiling_is_refused() {
        let budget = format!("shard_size: 4\nbudget: {{ max_total_runs: {} }}", MAX_TOTAL_RUNS_CEILING + 1);
        let e = error_of(&SWEEP.replace("shard_size: 4", &budget));
        assert!(e.message.contains("ceiling"), "{e}");
        assert_eq!(e.line, Some(6), "{e}");
    }

    #[test]
    fn bundle_from_disk_reads_references() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("maps")).unwrap();
        for p in ["maps/arena.yaml", "a.json"] {
            std::fs::write(dir.path().join(p), p).unwrap();
        }
        std::fs::write(dir.path().join("sweep.yaml"), SWEEP).unwrap();
        let e = bundle_from_disk(&dir.path().join("sweep.yaml")).unwrap_err();
        assert_eq!(e.line, Some(10), "{e}");
        std::fs::write(dir.path().join("b.json"), "b").unwrap();
        let b = bundle_from_disk(&dir.path().join("sweep.yaml")).unwrap();
        assert_eq!(b.files.len(), 3);
        Sweep::from_bundle(&b).unwrap();
    }
}
