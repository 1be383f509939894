use super::*;

const LEGEND: &str = r##"legend:
  "#": { type: wall, blocks_los: true }
  ".": { type: floor, move_cost: 1 }
  "C": { type: pillar, cover: true }
  "W": { type: ruin, cover_bonus: 2 }
  "S": { type: arrow_slit, cover_bonus: 8 }
"##;

/// A map from rows of terrain (legend: `#` wall, `.` floor, `C` pillar +4,
/// `W` ruin +2, `S` arrow slit +8).
fn grid(rows: &[&str]) -> Map {
    let mut text = String::from("terrain: |\n");
    for r in rows {
        text.push_str("  ");
        text.push_str(r);
        text.push('\n');
    }
    text.push_str(LEGEND);
    Map::from_yaml_str(&text, "los-test").unwrap()
}

fn p(row: i32, col: i32) -> Pos {
    Pos::new(row, col)
}

fn data_map(name: &str) -> Map {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/maps").join(name);
    Map::load(&path).unwrap()
}

#[test]
fn segment_squares_are_exact() {
    let collect = |a: Pt, b: Pt| {
        let mut v = Vec::new();
        any_crossed(a, b, |r, c| {
            v.push((r, c));
            false
        });
        v.sort();
        v
    };
    assert_eq!(collect((0, 0), (2, 2)), vec![(0, 0), (1, 1)], "a diagonal only touches corners");
    assert_eq!(collect((0, 0), (2, 1)), vec![(0, 0), (0, 1)]);
    assert_eq!(collect((0, 0), (1, 3)), vec![(0, 0), (1, 0), (2, 0)]);
    assert_eq!(collect((3, 0), (0, 2)), vec![(0, 1), (0, 2), (1, 0), (1, 1)]);
    assert!(collect((0, 0), (4, 0)).is_empty(), "along a grid line: no interior");
    assert!(collect((1, 1), (1, 1)).is_empty());
    // The enumeration and the separating-axis test agree on every segment of a 5x4 lattice.
    for a in 0..30 {
        for b in 0..30 {
            let (pa, pb) = ((a % 6, a / 6), (b % 6, b / 6));
            let listed = collect(pa, pb);
            for r in 0..4 {
                for c in 0..5 {
                    assert_eq!(
                        listed.contains(&(r, c)),
                        crosses(pa, pb, p(r, c)),
                        "{pa:?}-{pb:?} square ({r},{c})"
                    );
                }
            }
        }
    }
}

#[test]
fn open_ground_has_line_of_effect_and_no_cover() {
    let m = grid(&[".....", ".....", "....."]);
    assert!(has_line_of_effect(&m, p(0, 0), p(2, 4)));
    assert_eq!(terrain_cover(&m, p(0, 0), p(2, 4), false), 0);
    assert_eq!(terrain_cover(&m, p(1, 1), p(1, 2), true), 0);
    assert!(has_line_of_effect(&m, p(1, 1), p(1, 1)), "own square");
    assert!(!has_line_of_effect(&m, p(1, 1), p(5, 5)), "off the map");
}

#[test]
fn wall_blocks_line_of_effect() {
    let m = grid(&["..#..", "..#..", "..#.."]);
    assert!(!has_line_of_effect(&m, p(1, 0), p(1, 4)));
    assert!(!has_line_of_effect(&m, p(0, 1), p(0, 3)), "not along the map's edge either");
    assert!(has_line_of_effect(&m, p(0, 0), p(2, 1)));
    // The sample arena's central block hides its two northern halves from each other.
    let arena = data_map("sample_arena.yaml");
    assert!(!has_line_of_effect(&arena, p(1, 5), p(1, 14)));
    assert!(has_line_of_effect(&arena, p(3, 5), p(3, 14)));
}

#[test]
fn wall_with_a_gap_gives_line_of_effect_through_the_gap() {
    let m = grid(&["..#..", ".....", "..#.."]);
    assert!(has_line_of_effect(&m, p(0, 0), p(2, 4)), "through (1,2)");
    assert!(has_line_of_effect(&m, p(1, 0), p(1, 4)));
    assert_eq!(terrain_cover(&m, p(1, 0), p(1, 4), false), 0, "lines in the gap's row only graze the walls");
    assert_eq!(
        terrain_cover(&m, p(0, 0), p(2, 4), false),
        4,
        "a slanted shot clips a wall from every corner"
    );
}

#[test]
fn lines_along_a_wall_face_are_not_blocked() {
    // A one-square corridor: lines run along the walls' faces.
    let m = grid(&["#####", ".....", "#####"]);
    assert!(has_line_of_effect(&m, p(1, 0), p(1, 4)));
    assert_eq!(terrain_cover(&m, p(1, 0), p(1, 4), false), 0);
    // Peeking past the end of a wall: the line touching its corner is clear.
    let m = grid(&["#....", "#....", ".....", "....."]);
    assert!(has_line_of_effect(&m, p(2, 0), p(0, 1)));
}

#[test]
fn a_diagonal_wall_has_no_gaps() {
    let m = grid(&["..#", ".#.", "#.."]);
    // Diagonal neighbours across the pinch between (0,2) and (1,1).
    assert!(!has_line_of_effect(&m, p(0, 1), p(1, 2)));
    assert!(!has_line_of_effect(&m, p(0, 0), p(2, 2)));
    assert!(!has_line_of_effect(&m, p(1, 0), p(2, 1)));
    // The same neighbours with one wall removed see each other around the other one.
    let m = grid(&["..#", "...", "#.."]);
    assert!(has_line_of_effect(&m, p(0, 1), p(1, 2)));
}

#[test]
fn pillar_gives_standard_cover() {
    let m = grid(&[".......", ".......", "...C...", ".......", "......."]);
    assert!(has_line_of_effect(&m, p(2, 0), p(2, 6)), "pillars do not block line of effect");
    assert_eq!(terrain_cover(&m, p(2, 0), p(2, 6), false), 4);
    assert_eq!(terrain_cover(&m, p(0, 0), p(0, 6), false), 0, "out of the way");
    // Lines only along the pillar's face from the attacker's best corner: no cover.
    assert_eq!(terrain_cover(&m, p(1, 0), p(1, 6), false), 0);
}

#[test]
fn cover_bonus_levels_come_from_the_legend() {
    let partial = grid(&[".W...."]);
    assert_eq!(terrain_cover(&partial, p(0, 0), p(0, 5), false), 2);
    let improved = grid(&["..S..."]);
    assert_eq!(terrain_cover(&improved, p(0, 0), p(0, 5), false), 8);
    assert!(has_line_of_effect(&improved, p(0, 0), p(0, 5)));
    // Behind both, the best protection counts (cover bonuses do not stack).
    let both = grid(&[".W.S.C."]);
    assert_eq!(terrain_cover(&both, p(0, 0), p(0, 6), false), 8);
    // A wall without cover_bonus gives standard cover where it does not block everything.
    let m = grid(&["...", ".#.", "..."]);
    assert_eq!(terrain_cover(&m, p(0, 0), p(2, 2), false), 4);
}

#[test]
fn adjacent_melee_any_line_rule_versus_ranged_best_corner() {
    // Target diagonally adjacent around a wall corner.
    let m = grid(&[".#.", "...", "..."]);
    let (attacker, target) = (p(1, 1), p(0, 0));
    assert_eq!(terrain_cover(&m, attacker, target, true), 4, "melee: one blocked line is enough");
    assert_eq!(terrain_cover(&m, attacker, target, false), 0, "ranged: the shared corner sees it all");
    assert!(has_line_of_effect(&m, attacker, target));
    // Orthogonally adjacent along a wall: no line crosses the wall.
    assert_eq!(terrain_cover(&m, p(1, 0), p(0, 0), true), 0);
    // Melee cover is symmetric: any line from either side.
    assert_eq!(terrain_cover(&m, target, attacker, true), 4);
}

#[test]
fn ranged_rule_lets_the_attacker_choose_its_corner() {
    // The pillar beside the attacker covers the lines from its lower corners only.
    let m = grid(&["......", ".C....", "......"]);
    let (attacker, target) = (p(1, 0), p(0, 4));
    let (cf, ct) = (corners(attacker), corners(target));
    let per_corner: Vec<u8> = cf
        .iter()
        .map(|&a| ct.iter().map(|&b| line(&m, a, attacker, b, target).cover).max().unwrap())
        .collect();
    assert!(per_corner.contains(&0) && per_corner.contains(&4), "{per_corner:?}");
    assert_eq!(terrain_cover(&m, attacker, target, false), 0);
    assert_eq!(terrain_cover(&m, attacker, target, true), 4);
}

#[test]
fn soft_cover_from_creatures_between() {
    let m = grid(&[".......", ".......", ".......", "......."]);
    let (from, to) = (p(1, 0), p(1, 6));
    let soft = |from: Pos, to: Pos, squares: &[Pos]| soft_cover(&m, from, to, &|q| squares.contains(&q));
    assert!(soft(from, to, &[Pos::new(1, 3)]));
    assert!(!soft(from, to, &[Pos::new(2, 3)]), "beside the lines: only grazed");
    assert!(!soft(from, to, &[Pos::new(0, 3)]));
    assert!(!soft(from, to, &[Pos::new(1, 0), Pos::new(1, 6)]), "attacker and target");
    assert!(!soft(from, from, &[Pos::new(1, 3)]));
    assert!(soft_cover_among(&m, from, to, &[p(1, 3)]));
    assert!(!soft_cover_among(&m, from, to, &[p(2, 3), p(1, 0), p(1, 6)]));
    // Diagonal shot past a creature: the attacker picks a corner whose lines miss it.
    assert!(!soft(p(0, 0), p(3, 3), &[Pos::new(1, 2)]));
    assert!(soft(p(0, 0), p(3, 3), &[Pos::new(1, 1), Pos::new(2, 2)]));
    // Combined rule: one corner for terrain and creatures together.
    assert_eq!(ranged_cover(&m, from, to, &[p(1, 3)]), 4);
    assert_eq!(ranged_cover(&m, from, to, &[]), 0);
}

#[test]
fn combined_ranged_cover_uses_one_corner_for_everything() {
    // From the upper corners the ruin is crossed; from the lower ones the creature is.
    let m = grid(&[".......", "...W...", ".......", "......."]);
    let (from, to) = (p(2, 0), p(1, 6));
    let creature = [p(2, 3)];
    let terrain = terrain_cover(&m, from, to, false);
    let soft = soft_cover_among(&m, from, to, &creature);
    let joint = ranged_cover(&m, from, to, &creature);
    assert!(joint >= terrain.max(if soft { 4 } else { 0 }));
    for (from, to) in [(p(0, 0), p(3, 6)), (p(2, 0), p(1, 6)), (p(3, 1), p(0, 5))] {
        for creatures in [&[][..], &[p(1, 3)], &[p(2, 3)], &[p(1, 2), p(2, 4)]] {
            let joint = ranged_cover(&m, from, to, creatures);
            let soft = soft_cover_among(&m, from, to, creatures);
            assert!(joint >= terrain_cover(&m, from, to, false).max(if soft { 4 } else { 0 }));
        }
    }
}

/// Every pair of squares of `m`.
fn pairs(m: &Map) -> Vec<(Pos, Pos)> {
    let squares: Vec<Pos> = (0..m.height).flat_map(|r| (0..m.width).map(move |c| p(r, c))).collect();
    squares.iter().flat_map(|&a| squares.iter().map(move |&b| (a, b))).collect()
}

#[test]
fn table_matches_direct_computation_on_the_sample_arena() {
    let m = data_map("sample_arena.yaml");
    let t = LosTable::new(&m);
    assert!(t.is_tabulated());
    let creatures = [p(3, 8), p(4, 12), p(5, 5)];
    for (a, b) in pairs(&m) {
        assert_eq!(t.has_line_of_effect(&m, a, b), has_line_of_effect(&m, a, b), "{a}->{b}");
        assert_eq!(t.has_line_of_effect(&m, a, b), has_line_of_effect(&m, b, a), "symmetric {a}-{b}");
        for melee in [false, true] {
            assert_eq!(t.terrain_cover(&m, a, b, melee), terrain_cover(&m, a, b, melee), "{a}->{b}");
        }
        assert_eq!(t.terrain_cover(&m, a, b, true), t.terrain_cover(&m, b, a, true));
        assert_eq!(t.ranged_cover(&m, a, b, &creatures), ranged_cover(&m, a, b, &creatures), "{a}->{b}");
        let occupied = |q: Pos| creatures.contains(&q);
        assert_eq!(soft_cover(&m, a, b, &occupied), soft_cover_among(&m, a, b, &creatures));
    }
}

#[test]
fn mirror_arena_geometry_is_mirror_symmetric() {
    let m = data_map("mirror_arena.yaml");
    let t = LosTable::new(&m);
    let mirror = |q: Pos| p(q.row, m.width - 1 - q.col);
    for (a, b) in pairs(&m) {
        assert_eq!(t.has_line_of_effect(&m, a, b), t.has_line_of_effect(&m, mirror(a), mirror(b)));
        for melee in [false, true] {
            assert_eq!(t.terrain_cover(&m, a, b, melee), t.terrain_cover(&m, mirror(a), mirror(b), melee));
        }
    }
}

#[test]
fn table_falls_back_for_other_maps() {
    let small = grid(&["..C.."]);
    let other = grid(&["..C..", "....."]);
    let t = LosTable::new(&small);
    assert_eq!(
        t.terrain_cover(&other, p(1, 0), p(0, 4), false),
        terrain_cover(&other, p(1, 0), p(0, 4), false)
    );
    assert!(!t.has_line_of_effect(&small, p(0, 0), p(3, 3)), "off the map");
    let empty = LosTable::default();
    assert_eq!(empty.terrain_cover(&small, p(0, 0), p(0, 4), false), 4);
    let wide = ".".repeat(40);
    let big = grid(&vec![wide.as_str(); 40]);
    let t = LosTable::new(&big);
    assert!(!t.is_tabulated());
    assert!(t.has_line_of_effect(&big, p(0, 0), p(39, 39)));
}
