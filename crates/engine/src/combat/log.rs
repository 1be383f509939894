//! The event sink: where a battle's [`Event`]s go, if anywhere.
//!
//! Every emission goes through `emit!`, which checks `on()` before
//! building the event, so a battle nobody watches builds nothing.

use super::event::{Event, Record};

/// Where events go, if anywhere.
pub(crate) struct Log<'a> {
    out: Option<&'a mut Vec<Record>>,
}

impl<'a> Log<'a> {
    /// A log writing to `out`, or a silent one.
    pub(crate) fn new(out: Option<&'a mut Vec<Record>>) -> Self {
        Self { out }
    }

    /// Whether events are kept.
    #[inline]
    pub(crate) fn on(&self) -> bool {
        self.out.is_some()
    }

    /// Appends an event of round `round`.
    pub(crate) fn push(&mut self, round: u32, event: Event) {
        if let Some(out) = self.out.as_deref_mut() {
            out.push(Record { round, event });
        }
    }
}

/// Emits `$event` (an [`Event`] expression, built only when the log is on).
macro_rules! emit {
    ($eng:expr, $event:expr) => {
        if $eng.log.on() {
            let event = $event;
            $eng.log.push($eng.st.round, event);
        }
    };
}

pub(crate) use emit;
