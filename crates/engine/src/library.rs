//! The data an encounter's combatants refer to by name: the spells they cast
//! and the creatures their summoning spells call.
//!
//! A [`Library`] is given to an encounter as parsed data (the engine reads no
//! file): the scenario layer reads the spell and creature files, keeps those
//! the combatants use (by content, so that they are part of the cache key)
//! and parses them. [`Library::needs`] tells it which ones, transitively.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use crate::model::Combatant;
use crate::spell::effect::{EffectKind, SummonTemplate};
use crate::spell::{Spell, SpellBook};

/// Spells and summonable creatures, by identifier.
#[derive(Clone, Debug, Default)]
pub struct Library {
    /// Spells by identifier (`fireball`), with their names and aliases.
    pub spells: SpellBook,
    /// Creatures a summoning spell may call, by file identifier (`celestial_wolf`).
    pub creatures: BTreeMap<String, Arc<Combatant>>,
}

/// The alignment components a summoned creature's template follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leaning {
    /// A good caster: the celestial template.
    Good,
    /// An evil caster: the fiendish template.
    Evil,
    /// Neither: celestial when that file exists, else fiendish.
    Neutral,
}

impl Leaning {
    /// The leaning of an alignment code (`NG`, `LE`, `N`…).
    pub fn of(alignment: &str) -> Self {
        if alignment.contains('G') {
            Leaning::Good
        } else if alignment.ends_with('E') {
            Leaning::Evil
        } else {
            Leaning::Neutral
        }
    }
}

/// The creature file identifiers a summon option may resolve to, in order of
/// preference, for a caster of `leaning`: `celestial_<monster>` for a good
/// caster, `fiendish_<monster>` for an evil one, either for a neutral one
/// (CRB Table 10-1); the monster itself without a template.
pub fn summon_candidates(monster: &str, template: SummonTemplate, leaning: Leaning) -> Vec<String> {
    match template {
        SummonTemplate::None => vec![monster.to_string()],
        SummonTemplate::CelestialOrFiendish => match leaning {
            Leaning::Good => vec![format!("celestial_{monster}")],
            Leaning::Evil => vec![format!("fiendish_{monster}")],
            Leaning::Neutral => vec![format!("celestial_{monster}"), format!("fiendish_{monster}")],
        },
    }
}

/// What a scenario must carry for its combatants: spell identifiers and
/// creature file identifiers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Needs {
    /// Spells cast by a combatant, or called by one of those (`from_spell`).
    pub spells: BTreeSet<String>,
    /// Creature files a summoning spell of those may call, whether or not present.
    pub creatures: BTreeSet<String>,
}

impl Library {
    /// A library of these spells and creatures.
    pub fn new(spells: SpellBook, creatures: BTreeMap<String, Arc<Combatant>>) -> Self {
        Self { spells, creatures }
    }

    /// The spell with this name or alias.
    pub fn spell(&self, name: &str) -> Option<(&str, &Spell)> {
        self.spells.find(name)
    }

    /// The spells and creature files `combatants` use, transitively: their
    /// `spells` and the spells of their wands and potions (names this library does not know are left to the
    /// encounter's preparation to refuse), the spells those call
    /// (`from_spell`), and every creature file a summoning option may
    /// resolve to for its caster's alignment, summoned creatures' own
    /// spells included.
    pub fn needs<'a>(&self, combatants: impl IntoIterator<Item = &'a Combatant>) -> Needs {
        let mut needs = Needs::default();
        let mut queue: Vec<(String, Leaning)> = Vec::new();
        let mut seen_creatures: BTreeSet<String> = BTreeSet::new();
        let mut pending: Vec<&Combatant> = combatants.into_iter().collect();
        while let Some(c) = pending.pop() {
            let leaning = Leaning::of(&c.alignment);
            let item_spells = c
                .carried_items
                .iter()
                .filter_map(|i| crate::model::items::ItemUse::of(i.name()).spell().map(str::to_string));
            // The spells monsters use as supernatural abilities (`spell_effect`).
            let special_spells = c.special_abilities.iter().filter_map(|a| match a {
                crate::model::SpecialAbility::SpellEffect { spell, .. } => Some(spell.clone()),
                crate::model::SpecialAbility::MagicEnergy { spell, .. } => spell.clone(),
                _ => None,
            });
            for name in c.spells.iter().cloned().chain(item_spells).chain(special_spells) {
                if let Some((id, _)) = self.spells.find(&name) {
                    queue.push((id.to_string(), leaning));
                }
            }
            while let Some((id, leaning)) = queue.pop() {
                let fresh = needs.spells.insert(id.clone());
                let Some(spell) = self.spells.get(&id) else { continue };
                for e in &spell.effects {
                    let EffectKind::Summon(s) = &e.kind else { continue };
                    for o in &s.options {
                        if let Some(other) = &o.from_spell
                            && (fresh || !needs.spells.contains(other))
                        {
                            queue.push((other.clone(), leaning));
                        }
                        if let Some(m) = &o.monster {
                            for file in summon_candidates(m, o.template, leaning) {
                                needs.creatures.insert(file.clone());
                                if seen_creatures.insert(file.clone())
                                    && let Some(called) = self.creatures.get(&file)
                                {
                                    pending.push(called);
                                }
                            }
                        }
                    }
                }
            }
        }
        needs
    }
}

/// Why a library directory could not be read.
#[derive(Debug, thiserror::Error)]
pub enum LibraryError {
    /// A spell file, or the spell directory, was refused.
    #[error(transparent)]
    Spell(#[from] crate::spell::SpellError),
    /// A creature file was refused.
    #[error(transparent)]
    Creature(#[from] crate::model::ModelError),
    /// The creature directory could not be read.
    #[error("{dir}: cannot read: {source}")]
    Io {
        /// The directory.
        dir: String,
        /// The I/O error.
        source: std::io::Error,
    },
}

/// Reads a spell directory and a creature directory into a library (for the
/// engine's own tests and benchmarks: the product reads files in the
/// scenario layer and hands the engine their contents).
pub fn load_library(spells: &std::path::Path, creatures: &std::path::Path) -> Result<Library, LibraryError> {
    let book = crate::spell::load_spell_dir(spells)?;
    let io = |source| LibraryError::Io { dir: creatures.display().to_string(), source };
    let mut files = Vec::new();
    for entry in std::fs::read_dir(creatures).map_err(io)? {
        let path = entry.map_err(io)?.path();
        if path.extension().is_some_and(|e| e == "json") {
            files.push(path);
        }
    }
    files.sort();
    let mut map = BTreeMap::new();
    for path in files {
        let c = crate::model::load_combatant(&path)?;
        let id = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_string();
        map.insert(id, Arc::new(c));
    }
    Ok(Library::new(book, map))
}
