//! Plain-text tables aligned by display width (accents, CJK, combining marks).

use unicode_width::UnicodeWidthStr;

/// How a column's cells sit in their width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    /// Padded on the right.
    Left,
    /// Padded on the left (numbers).
    Right,
}

/// Display width of `text` in terminal columns.
pub fn display_width(text: &str) -> usize {
    UnicodeWidthStr::width(text)
}

/// Appends `text` to `out`, padded with spaces to `width` display columns.
pub fn push_padded(out: &mut String, text: &str, width: usize, align: Align) {
    let pad = width.saturating_sub(display_width(text));
    match align {
        Align::Left => {
            out.push_str(text);
            out.extend(std::iter::repeat_n(' ', pad));
        }
        Align::Right => {
            out.extend(std::iter::repeat_n(' ', pad));
            out.push_str(text);
        }
    }
}

/// Column widths: the widest displayed cell of each column, header included.
pub fn column_widths<'a>(headers: &[&str], rows: impl IntoIterator<Item = &'a [String]>) -> Vec<usize> {
    let mut widths: Vec<usize> = headers.iter().map(|h| display_width(h)).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(display_width(cell));
        }
    }
    widths
}

/// Appends one row: cells separated by two spaces, no trailing spaces.
pub fn push_row<S: AsRef<str>>(out: &mut String, cells: &[S], widths: &[usize], aligns: &[Align]) {
    let start = out.len();
    for (i, ((cell, &width), &align)) in cells.iter().zip(widths).zip(aligns).enumerate() {
        if i > 0 {
            out.push_str("  ");
        }
        push_padded(out, cell.as_ref(), width, align);
    }
    let trimmed = out[start..].trim_end_matches(' ').len();
    out.truncate(start + trimmed);
    out.push('\n');
}

/// Appends the separator row: one run of dashes per column.
pub fn push_separator(out: &mut String, widths: &[usize]) {
    let dashes: Vec<String> = widths.iter().map(|&w| "-".repeat(w)).collect();
    let aligns = vec![Align::Left; widths.len()];
    push_row(out, &dashes, widths, &aligns);
}

/// A whole table: header, separator, rows.
pub fn render(headers: &[&str], aligns: &[Align], rows: &[Vec<String>]) -> String {
    let widths = column_widths(headers, rows.iter().map(Vec::as_slice));
    let mut out = String::new();
    push_row(&mut out, headers, &widths, aligns);
    push_separator(&mut out, &widths);
    for row in rows {
        push_row(&mut out, row, &widths, aligns);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_count_display_columns_not_bytes() {
        assert_eq!(display_width("Dégâts"), 6);
        assert_eq!(display_width("ゴブリン"), 8);
        let rows = vec![vec!["é".to_string(), "1".to_string()], vec!["鬼".to_string(), "10".to_string()]];
        let table = render(&["N", "Value"], &[Align::Left, Align::Right], &rows);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines, vec!["N   Value", "--  -----", "é       1", "鬼     10"]);
        for line in &lines {
            assert_eq!(display_width(line), 9, "{line:?}");
        }
    }

    #[test]
    fn rows_have_no_trailing_spaces() {
        let rows = vec![vec!["a".to_string(), "".to_string()]];
        let table = render(&["Name", "Long header"], &[Align::Left, Align::Left], &rows);
        assert!(table.lines().all(|l| !l.ends_with(' ')), "{table:?}");
        assert_eq!(table.lines().nth(2), Some("a"));
    }
}
