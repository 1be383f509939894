//! A monk's numbers the builds derive (CRB "Monk", Table 3-10).

use crate::model::Size;

/// A monk's unarmed strike damage at monk `level` for a creature of `size`
/// (CRB Table 3-10 and "Small or Large Monk Unarmed Damage"); `None` for
/// a size the table does not give.
pub fn monk_unarmed_damage(level: u32, size: Size) -> Option<&'static str> {
    const SMALL: [&str; 6] = ["1d4", "1d6", "1d8", "1d10", "2d6", "2d8"];
    const MEDIUM: [&str; 6] = ["1d6", "1d8", "1d10", "2d6", "2d8", "2d10"];
    const LARGE: [&str; 6] = ["1d8", "2d6", "2d8", "3d6", "3d8", "4d8"];
    if level == 0 {
        return None;
    }
    let step = (level.min(20) / 4) as usize;
    let row = match size {
        Size::Small => &SMALL,
        Size::Medium => &MEDIUM,
        Size::Large => &LARGE,
        _ => return None,
    };
    Some(row[step])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unarmed_damage_follows_table_3_10() {
        let medium: Vec<_> = [1, 3, 4, 7, 8, 11, 12, 15, 16, 19, 20]
            .iter()
            .map(|&l| monk_unarmed_damage(l, Size::Medium).unwrap_or_default())
            .collect();
        assert_eq!(medium, ["1d6", "1d6", "1d8", "1d8", "1d10", "1d10", "2d6", "2d6", "2d8", "2d8", "2d10"]);
        assert_eq!(monk_unarmed_damage(4, Size::Small), Some("1d6"));
        assert_eq!(monk_unarmed_damage(12, Size::Small), Some("1d10"));
        assert_eq!(monk_unarmed_damage(1, Size::Large), Some("1d8"));
        assert_eq!(monk_unarmed_damage(8, Size::Large), Some("2d8"));
        assert_eq!(monk_unarmed_damage(20, Size::Large), Some("4d8"));
        assert_eq!(monk_unarmed_damage(4, Size::Tiny), None);
        assert_eq!(monk_unarmed_damage(0, Size::Medium), None);
    }
}
