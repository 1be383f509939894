//! Feats and feat-like features: the catalogue (`data/feats.json`), the
//! resolution of a combatant's feature names to effects, rules or traced
//! no-ops, and the derivation of printed statistics from base values.

pub mod catalog;
pub mod derive;
pub mod martial;
pub mod mercy;
pub mod monk;
pub mod power;
pub mod resolve;

pub use catalog::{CatalogError, FeatCatalog, FeatEntry, Parameter, Rule};
pub use martial::{Martial, MartialFeat};
pub use mercy::{Mercies, Mercy};
pub use monk::monk_unarmed_damage;
pub use power::{PowerAbility, PowerEffect, PowerRounds, PowerSpec, PowerUse};
pub use resolve::{
    ChannelRule, ClassRules, Deed, Evasion, FeatureError, Hex, MAX_POWERS, MutagenScore, ResolvedFeature,
    ResolvedFeatures, Rules, SneakDice, resolve,
};
