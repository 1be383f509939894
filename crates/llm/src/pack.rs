//! Prompt packs: the prompts live outside the code, in a directory named by
//! `PF1E_PROMPT_PACK_DIR` or `--prompt-pack DIR`.
//!
//! ```text
//! <pack>/
//!   version.txt              one line: the pack's version (semver, commit…)
//!   <name>.md                one prompt per file (UTF-8, not empty)
//!   <name>.examples.json     optional few-shot pairs for <name>:
//!                            [{"input": …, "output": …}, …]
//! ```
//!
//! Each prompt has a version `<pack version>:<name>:<hash12>`, the hash
//! being the first 12 hex digits of SHA-256 over the prompt's bytes (then a
//! NUL byte and the examples file's bytes when there is one). It enters
//! every cache key, so editing a prompt or its examples invalidates exactly
//! the answers it produced. Loading is strict: a missing or malformed pack,
//! file or example is one clear error naming the file, never a fallback.
//! Hidden files are ignored; any other file is an error.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::cache::hex;

/// Environment variable naming the prompt pack directory.
pub const ENV_PROMPT_PACK_DIR: &str = "PF1E_PROMPT_PACK_DIR";
const VERSION_FILE: &str = "version.txt";
const PROMPT_SUFFIX: &str = ".md";
const EXAMPLES_SUFFIX: &str = ".examples.json";
/// How the built-in pack is named in messages.
pub const BUILTIN_ROOT: &str = "<built-in pack fr>";

/// The files of `data/prompt-packs/fr`, compiled in (a test checks that they
/// are all there and identical to the directory).
const BUILTIN_FR: &[(&str, &[u8])] = &[
    ("version.txt", include_bytes!("../../../data/prompt-packs/fr/version.txt")),
    ("strategy_compile.md", include_bytes!("../../../data/prompt-packs/fr/strategy_compile.md")),
    (
        "strategy_compile.examples.json",
        include_bytes!("../../../data/prompt-packs/fr/strategy_compile.examples.json"),
    ),
    ("candidates.md", include_bytes!("../../../data/prompt-packs/fr/candidates.md")),
    ("candidates.examples.json", include_bytes!("../../../data/prompt-packs/fr/candidates.examples.json")),
    ("red_team.md", include_bytes!("../../../data/prompt-packs/fr/red_team.md")),
    ("red_team.examples.json", include_bytes!("../../../data/prompt-packs/fr/red_team.examples.json")),
    ("turn.md", include_bytes!("../../../data/prompt-packs/fr/turn.md")),
    ("report.md", include_bytes!("../../../data/prompt-packs/fr/report.md")),
    ("report.examples.json", include_bytes!("../../../data/prompt-packs/fr/report.examples.json")),
    ("repair.md", include_bytes!("../../../data/prompt-packs/fr/repair.md")),
];

/// A pack that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum PackError {
    /// A file or directory cannot be read.
    #[error("prompt pack {}: cannot read: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The failure.
        #[source]
        source: std::io::Error,
    },
    /// A file's content is unusable.
    #[error("prompt pack {}: {problem}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong (with its JSON path for JSON files).
        problem: String,
    },
    /// A prompt the caller needs is not in the pack.
    #[error("prompt pack {}: no prompt {name:?} (expected the file {name}.md)", root.display())]
    MissingPrompt {
        /// The pack directory.
        root: PathBuf,
        /// The prompt's name.
        name: String,
    },
}

fn invalid(path: &Path, problem: impl Into<String>) -> PackError {
    PackError::Invalid { path: path.to_path_buf(), problem: problem.into() }
}

fn read(path: &Path) -> Result<Vec<u8>, PackError> {
    std::fs::read(path).map_err(|source| PackError::Io { path: path.to_path_buf(), source })
}

fn utf8(path: &Path, bytes: Vec<u8>) -> Result<String, PackError> {
    String::from_utf8(bytes)
        .map_err(|e| invalid(path, format!("not UTF-8 text (byte {})", e.utf8_error().valid_up_to())))
}

/// A prompt's version: `<pack version>:<name>:<hash12>`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PromptVersion(String);

impl PromptVersion {
    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for PromptVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// One few-shot pair: a question and the answer to teach.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Example {
    /// The question, in the form the prompt's task expects.
    pub input: Value,
    /// The answer, in the form the task's schema expects.
    pub output: Value,
}

/// A loaded prompt.
#[derive(Clone, Debug, PartialEq)]
pub struct Prompt {
    name: String,
    text: String,
    examples: Vec<Example>,
    examples_path: Option<PathBuf>,
    version: PromptVersion,
}

impl Prompt {
    /// Its name (the file stem).
    pub fn name(&self) -> &str {
        &self.name
    }
    /// Its text.
    pub fn text(&self) -> &str {
        &self.text
    }
    /// Its few-shot pairs (empty without an examples file).
    pub fn examples(&self) -> &[Example] {
        &self.examples
    }
    /// Its version.
    pub fn version(&self) -> &PromptVersion {
        &self.version
    }
    /// The error for example `index` (0-based) whose content does not fit
    /// the prompt's task.
    pub fn example_error(&self, index: usize, problem: impl fmt::Display) -> PackError {
        let path = self
            .examples_path
            .clone()
            .unwrap_or_else(|| PathBuf::from(format!("{}{EXAMPLES_SUFFIX}", self.name)));
        PackError::Invalid { path, problem: format!("[{index}]: {problem}") }
    }
}

/// A loaded prompt pack.
#[derive(Clone, Debug, PartialEq)]
pub struct PromptPack {
    root: PathBuf,
    version: String,
    prompts: BTreeMap<String, Prompt>,
}

impl PromptPack {
    /// Loads the pack in `dir`.
    pub fn load(dir: impl AsRef<Path>) -> Result<Self, PackError> {
        let root = dir.as_ref().to_path_buf();
        if !root.is_dir() {
            return Err(invalid(&root, "is not a directory"));
        }
        let version_path = root.join(VERSION_FILE);
        if !version_path.is_file() {
            return Err(invalid(&root, format!("has no {VERSION_FILE}")));
        }
        let mut files = vec![(VERSION_FILE.to_string(), read(&version_path)?)];
        let entries =
            std::fs::read_dir(&root).map_err(|source| PackError::Io { path: root.clone(), source })?;
        for entry in entries {
            let entry = entry.map_err(|source| PackError::Io { path: root.clone(), source })?;
            let path = entry.path();
            let file_name = entry.file_name().to_string_lossy().into_owned();
            if file_name.starts_with('.') || file_name == VERSION_FILE {
                continue;
            }
            if !path.is_file() {
                return Err(invalid(
                    &path,
                    "unexpected entry: a pack holds only version.txt, <name>.md and <name>.examples.json",
                ));
            }
            files.push((file_name, read(&path)?));
        }
        Self::from_files(root, files)
    }

    /// The French pack shipped in `data/prompt-packs/fr`, compiled into the
    /// binary: the default when no pack is configured. Its prompt versions
    /// are those of the directory (same bytes).
    pub fn builtin() -> Result<Self, PackError> {
        let files = BUILTIN_FR.iter().map(|(name, bytes)| (name.to_string(), bytes.to_vec())).collect();
        Self::from_files(PathBuf::from(BUILTIN_ROOT), files)
    }

    /// A pack from its files (name, bytes); `root` names it in messages.
    fn from_files(root: PathBuf, files: Vec<(String, Vec<u8>)>) -> Result<Self, PackError> {
        let mut version = None;
        let mut prompt_files = Vec::new();
        let mut example_files = Vec::new();
        for (file_name, bytes) in files {
            let path = root.join(&file_name);
            if file_name == VERSION_FILE {
                version = Some(parse_version(&path, utf8(&path, bytes)?)?);
            } else if let Some(stem) = file_name.strip_suffix(EXAMPLES_SUFFIX) {
                example_files.push((check_name(&path, stem)?, path, bytes));
            } else if let Some(stem) = file_name.strip_suffix(PROMPT_SUFFIX) {
                prompt_files.push((check_name(&path, stem)?, path, bytes));
            } else {
                return Err(invalid(
                    &path,
                    "unexpected file: a pack holds only version.txt, <name>.md and <name>.examples.json",
                ));
            }
        }
        let version = version.ok_or_else(|| invalid(&root, format!("has no {VERSION_FILE}")))?;
        let mut examples: BTreeMap<String, (PathBuf, Vec<u8>)> = BTreeMap::new();
        for (name, path, bytes) in example_files {
            if !prompt_files.iter().any(|(n, _, _)| *n == name) {
                return Err(invalid(&path, format!("examples without a prompt: there is no {name}.md")));
            }
            examples.insert(name, (path, bytes));
        }
        let mut prompts = BTreeMap::new();
        for (name, path, bytes) in prompt_files {
            let mut hasher = Sha256::new();
            hasher.update(&bytes);
            let text = utf8(&path, bytes)?;
            if text.trim().is_empty() {
                return Err(invalid(&path, "is empty"));
            }
            let (examples, examples_path) = match examples.remove(&name) {
                Some((examples_path, bytes)) => {
                    hasher.update([0u8]);
                    hasher.update(&bytes);
                    (parse_examples(&examples_path, &bytes)?, Some(examples_path))
                }
                None => (Vec::new(), None),
            };
            let hash = hex(&hasher.finalize());
            let version = PromptVersion(format!("{version}:{name}:{}", &hash[..12]));
            prompts.insert(name.clone(), Prompt { name, text, examples, examples_path, version });
        }
        Ok(Self { root, version, prompts })
    }

    /// Loads the pack named by `flag`, else by `PF1E_PROMPT_PACK_DIR`, else
    /// the built-in French pack ([`PromptPack::builtin`]). A pack that is
    /// named but unusable is an error, never replaced by the built-in one.
    pub fn resolve(flag: Option<&Path>) -> Result<Self, PackError> {
        Self::resolve_with(flag, |name| std::env::var_os(name).map(PathBuf::from))
    }

    /// [`PromptPack::resolve`] with an explicit environment lookup.
    pub fn resolve_with(
        flag: Option<&Path>,
        lookup: impl Fn(&str) -> Option<PathBuf>,
    ) -> Result<Self, PackError> {
        match flag
            .map(Path::to_path_buf)
            .or_else(|| lookup(ENV_PROMPT_PACK_DIR).filter(|p| !p.as_os_str().is_empty()))
        {
            Some(dir) => Self::load(dir),
            None => Self::builtin(),
        }
    }

    /// The pack directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The pack's version.
    pub fn version(&self) -> &str {
        &self.version
    }

    /// The prompts' names, sorted.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.prompts.keys().map(String::as_str)
    }

    /// The prompt `name`.
    pub fn prompt(&self, name: &str) -> Result<&Prompt, PackError> {
        self.prompts
            .get(name)
            .ok_or_else(|| PackError::MissingPrompt { root: self.root.clone(), name: name.to_string() })
    }

    /// Fails on the first of `names` the pack lacks.
    pub fn require(&self, names: &[&str]) -> Result<(), PackError> {
        names.iter().try_for_each(|n| self.prompt(n).map(|_| ()))
    }
}

fn check_name(path: &Path, stem: &str) -> Result<String, PackError> {
    if stem.is_empty() || !stem.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        return Err(invalid(path, "a prompt name uses only ASCII letters, digits, '_' and '-'"));
    }
    Ok(stem.to_string())
}

fn parse_version(path: &Path, text: String) -> Result<String, PackError> {
    let lines: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    match lines.as_slice() {
        [one] if !one.contains(char::is_whitespace) => Ok((*one).to_string()),
        [] => Err(invalid(path, "is empty: it holds the pack's version on one line")),
        _ => Err(invalid(path, "must hold one version on one line, without spaces")),
    }
}

fn parse_examples(path: &Path, bytes: &[u8]) -> Result<Vec<Example>, PackError> {
    let de = &mut serde_json::Deserializer::from_slice(bytes);
    let examples: Vec<Example> = serde_path_to_error::deserialize(de).map_err(|e| {
        let place = e.path().to_string();
        let place = if place == "." { String::new() } else { format!("{place}: ") };
        invalid(
            path,
            format!("{place}{} (expected a JSON array of {{\"input\": …, \"output\": …}})", e.inner()),
        )
    })?;
    if examples.is_empty() {
        return Err(invalid(path, "is an empty array: remove the file or give at least one example"));
    }
    Ok(examples)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pack(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (name, content) in files {
            std::fs::write(dir.path().join(name), content).unwrap();
        }
        dir
    }

    fn load_err(files: &[(&str, &str)]) -> String {
        let dir = pack(files);
        PromptPack::load(dir.path()).unwrap_err().to_string()
    }

    #[test]
    fn a_pack_loads_its_prompts_and_versions_them() {
        let dir = pack(&[("version.txt", "1.2.0\n"), ("a.md", "Do A."), ("b.md", "Do B.")]);
        let p = PromptPack::load(dir.path()).unwrap();
        assert_eq!(p.version(), "1.2.0");
        assert_eq!(p.names().collect::<Vec<_>>(), ["a", "b"]);
        let a = p.prompt("a").unwrap();
        assert_eq!(a.text(), "Do A.");
        // sha256("Do A.")
        let expected = hex(&Sha256::digest(b"Do A."));
        assert_eq!(a.version().as_str(), format!("1.2.0:a:{}", &expected[..12]));
        assert!(a.examples().is_empty());
        assert!(p.require(&["a", "b"]).is_ok());
        let e = p.require(&["a", "c"]).unwrap_err().to_string();
        assert!(e.contains("no prompt \"c\"") && e.contains("c.md"), "{e}");
    }

    #[test]
    fn examples_enter_the_hash_and_the_prompt() {
        let examples = r#"[{"input": "x", "output": {"target": "healer"}}]"#;
        let dir = pack(&[("version.txt", "1"), ("a.md", "Do A."), ("a.examples.json", examples)]);
        let p = PromptPack::load(dir.path()).unwrap();
        let a = p.prompt("a").unwrap();
        assert_eq!(a.examples().len(), 1);
        assert_eq!(a.examples()[0].output["target"], "healer");
        let mut h = Sha256::new();
        h.update(b"Do A.");
        h.update([0]);
        h.update(examples.as_bytes());
        assert_eq!(a.version().as_str(), format!("1:a:{}", &hex(&h.finalize())[..12]));
        let plain = pack(&[("version.txt", "1"), ("a.md", "Do A.")]);
        assert_ne!(PromptPack::load(plain.path()).unwrap().prompt("a").unwrap().version(), a.version());
    }

    #[test]
    fn a_broken_pack_is_one_clear_error_naming_the_file() {
        let cases: &[(&[(&str, &str)], &str)] = &[
            (&[("a.md", "x")], "has no version.txt"),
            (&[("version.txt", " \n"), ("a.md", "x")], "version.txt: is empty"),
            (&[("version.txt", "1\n2"), ("a.md", "x")], "one version on one line"),
            (&[("version.txt", "1"), ("a.md", "  \n")], "a.md: is empty"),
            (&[("version.txt", "1"), ("a.md", "x"), ("notes.txt", "x")], "notes.txt: unexpected file"),
            (
                &[("version.txt", "1"), ("b.examples.json", "[]")],
                "b.examples.json: examples without a prompt",
            ),
            (&[("version.txt", "1"), ("a.md", "x"), ("a.examples.json", "{")], "a.examples.json: "),
            (&[("version.txt", "1"), ("a.md", "x"), ("a.examples.json", "[]")], "empty array"),
            (
                &[("version.txt", "1"), ("a.md", "x"), ("a.examples.json", r#"[{"input": 1}]"#)],
                "[0]: missing field `output`",
            ),
            (
                &[
                    ("version.txt", "1"),
                    ("a.md", "x"),
                    ("a.examples.json", r#"[{"input": 1, "output": 2, "why": 3}]"#),
                ],
                "[0].why: unknown field `why`",
            ),
            (&[("version.txt", "1"), ("bad name.md", "x")], "prompt name"),
        ];
        for (files, needle) in cases {
            let e = load_err(files);
            assert!(e.starts_with("prompt pack ") && e.contains(needle), "{needle}: {e}");
            assert!(!e.contains('\n'), "{e}");
        }
        let e = PromptPack::load("/nonexistent/pack").unwrap_err().to_string();
        assert!(e.contains("/nonexistent/pack: is not a directory"), "{e}");
    }

    #[test]
    fn the_built_in_pack_is_the_shipped_directory_byte_for_byte() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/prompt-packs/fr");
        let on_disk = PromptPack::load(&dir).unwrap();
        let builtin = PromptPack::builtin().unwrap();
        assert_eq!(builtin.version(), on_disk.version());
        assert_eq!(builtin.names().collect::<Vec<_>>(), on_disk.names().collect::<Vec<_>>());
        for name in on_disk.names() {
            let (a, b) = (builtin.prompt(name).unwrap(), on_disk.prompt(name).unwrap());
            assert_eq!(
                (a.text(), a.examples(), a.version()),
                (b.text(), b.examples(), b.version()),
                "{name}"
            );
        }
        let files = std::fs::read_dir(&dir).unwrap().filter_map(Result::ok).count();
        assert_eq!(BUILTIN_FR.len(), files, "every file of the directory is compiled in");
    }

    #[test]
    fn hidden_files_are_ignored() {
        let dir = pack(&[("version.txt", "1"), ("a.md", "x"), (".DS_Store", "junk")]);
        assert!(PromptPack::load(dir.path()).is_ok());
    }

    #[test]
    fn the_pack_comes_from_the_flag_else_the_environment_else_it_is_an_error() {
        let dir = pack(&[("version.txt", "flag"), ("a.md", "x")]);
        let env_dir = pack(&[("version.txt", "env"), ("a.md", "x")]);
        let env_path = env_dir.path().to_path_buf();
        let lookup = |name: &str| (name == ENV_PROMPT_PACK_DIR).then(|| env_path.clone());
        assert_eq!(PromptPack::resolve_with(Some(dir.path()), lookup).unwrap().version(), "flag");
        assert_eq!(PromptPack::resolve_with(None, lookup).unwrap().version(), "env");
        let builtin = PromptPack::resolve_with(None, |_| None).unwrap();
        assert_eq!(builtin.root(), Path::new(BUILTIN_ROOT));
        // A pack that is named but missing is an error, not the built-in one.
        let e = PromptPack::resolve_with(Some(Path::new("/nonexistent/pack")), |_| None).unwrap_err();
        assert!(e.to_string().contains("is not a directory"), "{e}");
    }
}
