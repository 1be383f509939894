//! The transcript table: `Round | Combattant | Message`, aligned by display width.
//!
//! The rows come from the engine's typed events (`render::events`): turn
//! events are rows, initiative and the end of the battle are lines of their
//! own. Presentation must not alter the record: every row is shown, in
//! order, untruncated.

use super::table::{self, Align};
use crate::i18n::{Lang, T};

/// One row of the transcript.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Row {
    /// Something a combatant did or underwent in a round.
    Action {
        /// The round number.
        round: u32,
        /// The combatant's id.
        id: String,
        /// What happened, in words.
        message: String,
    },
    /// A line of its own (initiative, end of battle), shown as is.
    Line(String),
}

/// The title line of the transcript section.
pub fn title(lang: Lang) -> &'static str {
    lang.t(T::TranscriptTitle)
}

/// Renders the transcript as a titled three-column table (ends with a newline).
/// A row whose cells hold control characters (tabs, newlines) has no
/// predictable width: it is printed as a line of its own.
pub fn render_table(rows: &[Row], lang: Lang) -> String {
    let headers = [T::ColRound, T::ColCombatant, T::ColMessage].map(|t| lang.t(t));
    let aligns = [Align::Right, Align::Left, Align::Left];
    let cells: Vec<Option<[String; 3]>> = rows
        .iter()
        .map(|r| match r {
            Row::Action { round, id, message }
                if !id.chars().chain(message.chars()).any(char::is_control) =>
            {
                Some([round.to_string(), id.clone(), message.clone()])
            }
            _ => None,
        })
        .collect();
    let mut widths: Vec<usize> = headers.iter().map(|h| table::display_width(h)).collect();
    for row in cells.iter().flatten() {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(table::display_width(cell));
        }
    }
    let mut out = String::new();
    out.push_str(title(lang));
    out.push('\n');
    table::push_row(&mut out, &headers, &widths, &aligns);
    table::push_separator(&mut out, &widths);
    for (row, cells) in rows.iter().zip(&cells) {
        match (row, cells) {
            (_, Some(c)) => {
                let refs = [c[0].as_str(), c[1].as_str(), c[2].as_str()];
                table::push_row(&mut out, &refs, &widths, &aligns);
            }
            (Row::Action { round, id, message }, None) => {
                out.push_str(&format!("round {round} {id}: {message}"));
                out.push('\n');
            }
            (Row::Line(line), None) => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::display_width;

    fn act(round: u32, id: &str, message: &str) -> Row {
        Row::Action { round, id: id.to_string(), message: message.to_string() }
    }

    fn line(s: &str) -> Row {
        Row::Line(s.to_string())
    }

    #[test]
    fn seed_layout_in_french() {
        let t = [
            line("initiative : orc d20=19+0=19"),
            act(1, "orc", "déplacement (1,15)->(2,14)"),
            act(1, "goblin", "short bow contre orc d20=9+4=13 CA 17 -> RATÉ"),
            line("fin du combat : victoire de players en 4 rounds"),
        ];
        let out = render_table(&t, Lang::Fr);
        let expected = [
            "=== Déroulé du premier combat ===",
            "Round  Combattant  Message",
            "-----  ----------  ---------------------------------------------",
            "initiative : orc d20=19+0=19",
            "    1  orc         déplacement (1,15)->(2,14)",
            "    1  goblin      short bow contre orc d20=9+4=13 CA 17 -> RATÉ",
            "fin du combat : victoire de players en 4 rounds",
            "",
        ]
        .join("\n");
        assert_eq!(out, expected);
    }

    #[test]
    fn english_headers() {
        let out = render_table(&[act(1, "orc", "waits")], Lang::En);
        assert!(out.starts_with("=== First combat ===\nRound  Combatant  Message\n"), "{out}");
    }

    #[test]
    fn accents_and_cjk_align_by_display_width() {
        let t = [act(1, "élan", "attaque"), act(10, "鬼-2", "攻撃する"), act(2, "orc", "é")];
        let out = render_table(&t, Lang::Fr);
        let rows: Vec<&str> = out.lines().skip(3).collect();
        // The message column starts at the same display column on every row.
        let msg_col = |row: &str, msg: &str| display_width(&row[..row.rfind(msg).unwrap()]);
        let col = msg_col(rows[0], "attaque");
        assert_eq!(msg_col(rows[1], "攻撃する"), col);
        assert_eq!(msg_col(rows[2], "é"), col);
        assert_eq!(col, "Round  Combattant  ".len());
        // Round is right-aligned.
        assert!(rows[0].starts_with("    1  élan"), "{rows:?}");
        assert!(rows[1].starts_with("   10  鬼-2"), "{rows:?}");
        // The separator covers the widest message (8 columns for 攻撃する).
        let sep = out.lines().nth(2).unwrap();
        assert_eq!(sep, "-----  ----------  --------");
    }

    #[test]
    fn lines_are_kept_in_place_and_whole_and_control_characters_leave_the_table() {
        let long = format!("raw {}", "x".repeat(500));
        let t = [act(1, "a", "one"), line(&long), act(2, "b", "two"), act(3, "c", "tab\there"), line("end")];
        let out = render_table(&t, Lang::En);
        let body: Vec<&str> = out.split('\n').skip(3).collect();
        assert_eq!(
            body,
            vec!["    1  a          one", &long, "    2  b          two", "round 3 c: tab\there", "end", ""]
        );
    }

    #[test]
    fn empty_transcript_still_has_header() {
        let out = render_table(&[], Lang::Fr);
        assert_eq!(out.lines().count(), 3);
    }
}
