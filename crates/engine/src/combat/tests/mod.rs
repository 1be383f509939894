//! Combat tests: rules in isolation, pinned transcripts, batches.

mod abilities;
mod attacks;
mod batch;
mod closed_form;
mod conditions;
mod effects;
mod every_spell;
mod feats;
mod flight;
mod glance;
mod life;
mod magic;
mod maneuvers;
mod martial;
mod modifiers;
mod monsters;
mod options;
mod party_choices;
mod prepared_spells;
mod reload;
mod size;
mod support;
mod table;
mod tactics;
mod transcripts;
mod zones;
