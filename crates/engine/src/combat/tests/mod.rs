//! Combat tests: rules in isolation, pinned transcripts, batches.

mod attacks;
mod life;
mod modifiers;
mod support;
mod tactics;
