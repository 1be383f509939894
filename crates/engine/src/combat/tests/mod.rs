//! Combat tests: rules in isolation, pinned transcripts, batches.

mod attacks;
mod batch;
mod life;
mod modifiers;
mod options;
mod size;
mod support;
mod tactics;
mod transcripts;
