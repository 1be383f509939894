//! The transcript table: `Round | Combattant | Message`, aligned by display width.
//!
//! The engine writes lines `round N id: message` plus free-form lines
//! (initiative, end of battle). Presentation must not alter the record: every
//! line is shown, in order, untruncated; lines outside the pattern are printed
//! raw where they occur. The one rewrite is of reason codes: `failed
//! (out_of_range)` reads `failed (out of range)`, in the user's language.

use super::table::{self, Align};
use crate::i18n::{self, Lang, T};

/// One transcript line, split into columns when it follows `round N id: message`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry<'a> {
    /// An action line.
    Action {
        /// The round number, as written.
        round: &'a str,
        /// The acting combatant's id.
        id: &'a str,
        /// The rest of the line.
        message: &'a str,
    },
    /// Any other line, shown as is.
    Raw(&'a str),
}

/// Splits a line into columns, or keeps it raw when it does not follow the pattern.
pub fn parse_line(line: &str) -> Entry<'_> {
    parse_action(line).unwrap_or(Entry::Raw(line))
}

fn parse_action(line: &str) -> Option<Entry<'_>> {
    // A line with control characters (tabs, embedded newlines) has no
    // predictable width: show it raw rather than misalign the table.
    if line.chars().any(char::is_control) {
        return None;
    }
    let rest = line.strip_prefix("round ")?;
    let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
    if digits == 0 {
        return None;
    }
    let (round, rest) = rest.split_at(digits);
    let rest = rest.strip_prefix(' ')?;
    let colon = rest.find(':')?;
    let (id, rest) = rest.split_at(colon);
    if id.is_empty() || id.chars().any(char::is_whitespace) {
        return None;
    }
    let rest = &rest[1..];
    let message = if rest.is_empty() { rest } else { rest.strip_prefix(' ')? };
    Some(Entry::Action { round, id, message })
}

/// The title line of the transcript section.
pub fn title(lang: Lang) -> &'static str {
    lang.t(T::TranscriptTitle)
}

/// A message with its reason code (`failed (out_of_range)`) in words.
pub fn words(message: &str, lang: Lang) -> String {
    const MARK: &str = "failed (";
    let Some(at) = message.find(MARK) else { return message.to_string() };
    let start = at + MARK.len();
    let Some(len) = message[start..].find(')') else { return message.to_string() };
    let code = &message[start..start + len];
    if code.is_empty() || !code.chars().all(|c| c.is_ascii_lowercase() || c == '_' || c == ':') {
        return message.to_string();
    }
    format!("{}{}{}", &message[..start], i18n::reason(code, lang), &message[start + len..])
}

/// Renders the transcript as a titled three-column table (ends with a newline).
pub fn render_table(lines: &[String], lang: Lang) -> String {
    let headers = [T::ColRound, T::ColCombatant, T::ColMessage].map(|t| lang.t(t));
    let aligns = [Align::Right, Align::Left, Align::Left];
    let rewritten: Vec<String> = lines
        .iter()
        .map(|l| match parse_line(l) {
            Entry::Action { round, id, message } => format!("round {round} {id}: {}", words(message, lang)),
            Entry::Raw(raw) => raw.to_string(),
        })
        .collect();
    let entries: Vec<Entry<'_>> = rewritten.iter().map(|l| parse_line(l)).collect();
    let mut widths: Vec<usize> = headers.iter().map(|h| table::display_width(h)).collect();
    for entry in &entries {
        if let Entry::Action { round, id, message } = entry {
            for (w, cell) in widths.iter_mut().zip([round, id, message]) {
                *w = (*w).max(table::display_width(cell));
            }
        }
    }
    let mut out = String::new();
    out.push_str(title(lang));
    out.push('\n');
    table::push_row(&mut out, &headers, &widths, &aligns);
    table::push_separator(&mut out, &widths);
    for entry in &entries {
        match entry {
            Entry::Action { round, id, message } => {
                table::push_row(&mut out, &[round, id, message], &widths, &aligns);
            }
            Entry::Raw(line) => {
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
    use crate::render::table::display_width;

    fn lines(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn parses_action_lines_and_keeps_others_raw() {
        assert_eq!(
            parse_line("round 12 goblin-2: short bow vs orc -> HIT"),
            Entry::Action { round: "12", id: "goblin-2", message: "short bow vs orc -> HIT" }
        );
        assert_eq!(parse_line("round 1 orc:"), Entry::Action { round: "1", id: "orc", message: "" });
        for raw in [
            "initiative: orc d20=19+0=19",
            "battle over: players win in 4 rounds",
            "round x orc: moves",
            "round 3: nobody",
            "round 3 orc moves",
            "round 3 orc:moves",
            "round 3 orc: tab\there",
            "",
        ] {
            assert_eq!(parse_line(raw), Entry::Raw(raw), "{raw:?}");
        }
    }

    #[test]
    fn seed_layout_in_french() {
        let t = lines(&[
            "initiative: orc d20=19+0=19",
            "round 1 orc: move (1,15)->(2,14)",
            "round 1 goblin: short bow vs orc d20=9+4=13 AC 17 -> MISS",
            "battle over: players win in 4 rounds",
        ]);
        let out = render_table(&t, Lang::Fr);
        let expected = [
            "=== Déroulé du premier combat ===",
            "Round  Combattant  Message",
            "-----  ----------  -----------------------------------------",
            "initiative: orc d20=19+0=19",
            "    1  orc         move (1,15)->(2,14)",
            "    1  goblin      short bow vs orc d20=9+4=13 AC 17 -> MISS",
            "battle over: players win in 4 rounds",
            "",
        ]
        .join("\n");
        assert_eq!(out, expected);
    }

    #[test]
    fn reason_codes_are_shown_in_words() {
        let t = lines(&[
            "round 1 orc: attack failed (out_of_range)",
            "round 2 orc: move failed (downgraded:staggered)",
        ]);
        let en = render_table(&t, Lang::En);
        assert!(en.contains("orc        attack failed (out of range)\n"), "{en}");
        assert!(en.contains("move failed (dropped: staggered)"), "{en}");
        let fr = render_table(&t, Lang::Fr);
        assert!(fr.contains("attack failed (hors de portée)"), "{fr}");
        assert_eq!(words("hits (hp 6->4)", Lang::En), "hits (hp 6->4)");
    }

    #[test]
    fn english_headers() {
        let out = render_table(&lines(&["round 1 orc: waits"]), Lang::En);
        assert!(out.starts_with("=== First combat ===\nRound  Combatant  Message\n"), "{out}");
    }

    #[test]
    fn accents_and_cjk_align_by_display_width() {
        let t = lines(&["round 1 élan: attaque", "round 10 鬼-2: 攻撃する", "round 2 orc: é"]);
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
    fn raw_lines_are_kept_in_place_and_whole() {
        let long = format!("raw {}", "x".repeat(500));
        let t = lines(&["round 1 a: one", &long, "round 2 b: two", "\tweird\nline", "end"]);
        let out = render_table(&t, Lang::En);
        let body: Vec<&str> = out.split('\n').skip(3).collect();
        assert_eq!(
            body,
            vec!["    1  a          one", &long, "    2  b          two", "\tweird", "line", "end", ""]
        );
    }

    #[test]
    fn empty_transcript_still_has_header() {
        let out = render_table(&[], Lang::Fr);
        assert_eq!(out.lines().count(), 3);
    }
}
