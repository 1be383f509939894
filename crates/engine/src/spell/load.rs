//! Reading spell files: one spell from its text ([`parse_spell`]), one file
//! ([`load_spell`]), or a whole directory as a [`SpellBook`]
//! ([`load_spell_dir`]). Every error is one line, `FILE: $.json.path: reason`,
//! like the combatant loader's.

use std::collections::BTreeMap;
use std::path::Path;

use super::Spell;
use super::check::{check_spell, spell_id};
use super::effect::{EffectKind, SpellEffect};
use crate::model::validate::{index_path, json_path, key_path};

/// Why a spell file, or a directory of them, was refused.
#[derive(Debug, thiserror::Error)]
pub enum SpellError {
    /// A file or directory could not be read.
    #[error("{file}: cannot read: {source}")]
    Io {
        /// The file or directory.
        file: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The JSON is malformed, a field is unknown or has the wrong type, or a value breaks a rule.
    #[error("{file}: {path}: {message}")]
    Invalid {
        /// The file.
        file: String,
        /// JSON path of the offending value (`$.effects[0].damage.amount`).
        path: String,
        /// What is wrong.
        message: String,
    },
}

/// Parses and checks spell JSON; `file` names the origin in errors.
pub fn parse_spell(text: &str, file: &str) -> Result<Spell, SpellError> {
    let invalid =
        |path: String, message: String| SpellError::Invalid { file: file.to_string(), path, message };
    let mut de = serde_json::Deserializer::from_str(text);
    let spell: Spell = serde_path_to_error::deserialize(&mut de)
        .map_err(|e| invalid(json_path(e.path()), e.inner().to_string()))?;
    de.end().map_err(|e| invalid("$".to_string(), e.to_string()))?;
    check_spell(&spell).map_err(|(path, message)| invalid(path, message))?;
    Ok(spell)
}

/// Reads and checks one spell file.
pub fn load_spell(path: &Path) -> Result<Spell, SpellError> {
    let file = path.display().to_string();
    let text =
        std::fs::read_to_string(path).map_err(|source| SpellError::Io { file: file.clone(), source })?;
    parse_spell(&text, &file)
}

/// Every spell of a directory, by identifier (the file name without `.json`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SpellBook {
    spells: BTreeMap<String, Spell>,
    /// Identifier of every name and alias → identifier of the spell.
    lookup: BTreeMap<String, String>,
}

impl SpellBook {
    /// The spell with this identifier (`"cure_light_wounds"`).
    pub fn get(&self, id: &str) -> Option<&Spell> {
        self.spells.get(id)
    }

    /// The spell with this name or alias, compared by identifier
    /// (`"Cure Light Wounds"`, `"cure light wounds"`, `"Restoration, Lesser"`).
    pub fn find(&self, name: &str) -> Option<(&str, &Spell)> {
        let id = self.lookup.get(&spell_id(name))?;
        self.spells.get_key_value(id.as_str()).map(|(k, v)| (k.as_str(), v))
    }

    /// Every spell, by identifier.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Spell)> {
        self.spells.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// Number of spells.
    pub fn len(&self) -> usize {
        self.spells.len()
    }

    /// Whether there is no spell.
    pub fn is_empty(&self) -> bool {
        self.spells.is_empty()
    }

    /// Adds a spell under its identifier, refusing a name or alias already
    /// taken and a reference to a spell not in the book (checked by [`SpellBook::check_references`]).
    pub fn insert(&mut self, file: &str, spell: Spell) -> Result<(), SpellError> {
        let id = spell_id(&spell.name);
        let invalid =
            |path: String, message: String| SpellError::Invalid { file: file.to_string(), path, message };
        if let Some(stem) = Path::new(file).file_stem().and_then(|s| s.to_str())
            && file.ends_with(".json")
            && stem != id
        {
            return Err(invalid(
                "$.name".into(),
                format!("the file of spell {:?} must be named {id}.json", spell.name),
            ));
        }
        let names = std::iter::once(("$.name".to_string(), &spell.name))
            .chain(spell.aliases.iter().enumerate().map(|(i, a)| (index_path("$.aliases", i), a)));
        let mut keys = Vec::new();
        for (path, name) in names {
            let key = spell_id(name);
            if let Some(other) = self.lookup.get(&key) {
                return Err(invalid(
                    path,
                    format!("{name:?} is already the name or an alias of spell {other}"),
                ));
            }
            if keys.contains(&key) {
                return Err(invalid(path, format!("{name:?} repeats the spell's own name or alias")));
            }
            keys.push(key);
        }
        for key in keys {
            self.lookup.insert(key, id.clone());
        }
        self.spells.insert(id, spell);
        Ok(())
    }

    /// Checks that every spell a file refers to (`dispels`, a summons'
    /// `from_spell`, an immunity's `spells`) is in the book; `file_of` names
    /// the file of a spell identifier in errors.
    pub fn check_references(&self, file_of: impl Fn(&str) -> String) -> Result<(), SpellError> {
        for (id, spell) in &self.spells {
            let mut missing = None;
            for (i, other) in spell.dispels.iter().enumerate() {
                if !self.spells.contains_key(other) {
                    missing = Some((index_path("$.dispels", i), other.clone()));
                    break;
                }
            }
            if missing.is_none() {
                for (i, effect) in spell.effects.iter().enumerate() {
                    missing = self.missing_in(&index_path("$.effects", i), effect);
                    if missing.is_some() {
                        break;
                    }
                }
            }
            if let Some((path, other)) = missing {
                return Err(SpellError::Invalid {
                    file: file_of(id),
                    path,
                    message: format!("no spell {other:?} in the spell directory"),
                });
            }
        }
        Ok(())
    }

    /// The first reference of `effect` (or of an effect inside it) to a spell not in the book.
    fn missing_in(&self, path: &str, effect: &SpellEffect) -> Option<(String, String)> {
        let kpath = key_path(path, effect.kind.name());
        let absent = |id: &String| !self.spells.contains_key(id);
        match &effect.kind {
            EffectKind::Summon(s) => {
                for (i, o) in s.options.iter().enumerate() {
                    if let Some(id) = o.from_spell.as_ref().filter(|id| absent(id)) {
                        return Some((
                            key_path(&index_path(&key_path(&kpath, "options"), i), "from_spell"),
                            id.clone(),
                        ));
                    }
                }
            }
            EffectKind::Immunity(im) => {
                for (i, id) in im.spells.iter().enumerate() {
                    if absent(id) {
                        return Some((index_path(&key_path(&kpath, "spells"), i), id.clone()));
                    }
                }
            }
            _ => {}
        }
        effect.children(path).into_iter().find_map(|(p, e)| self.missing_in(&p, e))
    }
}

/// Reads every `*.json` file of a directory (not its subdirectories) into a
/// [`SpellBook`] with [`spell_book`] (for the engine's own tests and
/// benchmarks: the product reads the files and hands over their contents).
pub fn load_spell_dir(dir: &Path) -> Result<SpellBook, SpellError> {
    let io = |source| SpellError::Io { file: dir.display().to_string(), source };
    let mut paths = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let path = entry.map_err(io)?.path();
        if path.extension().is_some_and(|e| e == "json") && path.is_file() {
            paths.push(path);
        }
    }
    let mut files = Vec::new();
    for path in paths {
        let file = path.display().to_string();
        let text =
            std::fs::read_to_string(&path).map_err(|source| SpellError::Io { file: file.clone(), source })?;
        files.push((file, text));
    }
    spell_book(files)
}

/// Parses spell files given as (origin, contents) into a [`SpellBook`], in
/// origin order: each file must be valid and named after its spell, names and
/// aliases unique, and every spell a file refers to present.
pub fn spell_book(mut files: Vec<(String, String)>) -> Result<SpellBook, SpellError> {
    files.sort();
    let mut book = SpellBook::default();
    let mut file_of = BTreeMap::new();
    for (file, text) in files {
        let spell = parse_spell(&text, &file)?;
        file_of.insert(spell_id(&spell.name), file.clone());
        book.insert(&file, spell)?;
    }
    book.check_references(|id| file_of.get(id).cloned().unwrap_or_else(|| id.to_string()))?;
    Ok(book)
}
