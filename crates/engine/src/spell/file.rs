//! One spell file's top level: the spell, its levels, components, range,
//! targets, area, duration and save (their types in [`super::model`]) and
//! its effects ([`super::effect`]). Kept apart from `model` so that the
//! effects, which read `model`'s types, and the spell, which holds effects,
//! do not import each other.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::effect::SpellEffect;
use super::model::{
    Area, AttackRoll, CastTime, Component, Range, SavingThrow, School, SpellDuration, Subschool, Target,
};
use crate::effects::Descriptor;

/// One spell, as described by its file under `data/spells/`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spell {
    /// Display name (`"Cure Light Wounds"`); the file is named after it (`cure_light_wounds.json`).
    pub name: String,
    /// Other names it is looked up by (`"Restoration, Lesser"`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
    /// Book and page the mechanics were transcribed from.
    pub source: String,
    /// One line in our own words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// Spell level per class list (`{"cleric": 1, "witch": 1}`).
    pub levels: BTreeMap<String, u8>,
    /// School.
    pub school: School,
    /// Subschool, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subschool: Option<Subschool>,
    /// Descriptors (`fire`, `fear`, `mind_affecting`…).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub descriptors: Vec<Descriptor>,
    /// Components (`V`, `S`, `M`, `F`, `DF`, `M/DF`, `F/DF`).
    #[serde(default)]
    pub components: Vec<Component>,
    /// Price of a costly material component, in gold pieces.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub material_cost_gp: Option<u32>,
    /// Casting time (default `standard`).
    #[serde(default)]
    pub cast_time: CastTime,
    /// Range.
    pub range: Range,
    /// Whom the spell targets (absent for a pure area or a summons).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<Target>,
    /// The area it fills (absent for a targeted spell).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub area: Option<Area>,
    /// The attack roll that delivers it, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attack: Option<AttackRoll>,
    /// Duration.
    pub duration: SpellDuration,
    /// Saving throw (absent: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub saving_throw: Option<SavingThrow>,
    /// Whether spell resistance applies.
    pub spell_resistance: bool,
    /// Whether the save and spell resistance entries say "harmless": a
    /// willing ally forgoes them.
    #[serde(default)]
    pub harmless: bool,
    /// A creature this spell affected cannot be affected by it again for this long (Daze: 1 minute).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub immunity_after: Option<SpellDuration>,
    /// Spells (by file name) this one counters and dispels (Bless and Bane).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dispels: Vec<String>,
    /// What the spell does, in order.
    #[serde(default)]
    pub effects: Vec<SpellEffect>,
    /// Where the file departs from the SRD text, each with the rule it
    /// simplifies; every entry is listed in `docs/rules/spells.md`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub simplifications: Vec<String>,
    /// Free text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
}

impl Spell {
    /// The spell's level on the first of these class lists that has it
    /// (`level_for(["cleric", "oracle"])`).
    pub fn level_for<'a>(&self, classes: impl IntoIterator<Item = &'a str>) -> Option<u8> {
        classes.into_iter().find_map(|c| self.levels.get(c).copied())
    }

    /// The lowest level of the spell on any class list.
    pub fn lowest_level(&self) -> Option<u8> {
        self.levels.values().copied().min()
    }
}
