//! Transcript lines: `round N id: message` for turn events, raw lines otherwise.
//!
//! Every caller checks `on()` (through the `say!` macro) before formatting,
//! so a battle without transcript never builds a string.

/// Where transcript lines go, if anywhere.
pub(crate) struct Log<'a> {
    out: Option<&'a mut Vec<String>>,
}

impl<'a> Log<'a> {
    /// A log writing to `out`, or a silent one.
    pub(crate) fn new(out: Option<&'a mut Vec<String>>) -> Self {
        Self { out }
    }

    /// Whether lines are kept.
    #[inline]
    pub(crate) fn on(&self) -> bool {
        self.out.is_some()
    }

    /// Appends a finished line.
    pub(crate) fn push(&mut self, line: String) {
        if let Some(out) = self.out.as_deref_mut() {
            out.push(line);
        }
    }
}

/// Logs `round N id: message` for combatant `$who` when the transcript is on.
macro_rules! say {
    ($eng:expr, $who:expr, $($arg:tt)*) => {
        if $eng.log.on() {
            let line = format!(
                "round {} {}: {}",
                $eng.st.round,
                $eng.st.prep.fighters[$who].id,
                format_args!($($arg)*)
            );
            $eng.log.push(line);
        }
    };
}

pub(crate) use say;

/// Formats a path as `(r,c)->(r,c)->…`.
pub(crate) fn path_text(start: crate::map::Pos, path: &[crate::map::Pos]) -> String {
    use std::fmt::Write;
    let mut s = start.to_string();
    for p in path {
        let _ = write!(s, "->{p}");
    }
    s
}
