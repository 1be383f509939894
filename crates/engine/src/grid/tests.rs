use super::*;

/// 9x6 test map: walls around, a pillar, rubble, a pit and a raised platform.
///
/// ```text
///   012345678
/// 0 #########
/// 1 #.......#
/// 2 #..C.TT.#
/// 3 #...O...#
/// 4 #.......#
/// 5 #########
/// ```
const MAP: &str = r##"
terrain: |
  #########
  #.......#
  #..C.TT.#
  #...O...#
  #.......#
  #########
legend:
  "#": { type: wall, blocks_los: true }
  ".": { type: floor, move_cost: 1 }
  "T": { type: rubble, move_cost: 2 }
  "C": { type: pillar, cover: true }
  "O": { type: pit }
elevation: |
  .........
  ......11.
  .....122.
  .........
  .........
  .........
"##;

fn map() -> Map {
    Map::from_yaml_str(MAP, "grid-test").unwrap()
}

fn p(row: i32, col: i32) -> Pos {
    Pos::new(row, col)
}

fn open(_: Pos) -> Access {
    Access::Open
}

#[test]
fn distance_counts_every_second_diagonal_double() {
    assert_eq!(distance_ft(p(0, 0), p(0, 0)), 0);
    assert_eq!(distance_ft(p(0, 0), p(0, 3)), 15);
    assert_eq!(distance_ft(p(0, 0), p(1, 1)), 5);
    assert_eq!(distance_ft(p(0, 0), p(2, 2)), 15);
    assert_eq!(distance_ft(p(0, 0), p(3, 3)), 20);
    assert_eq!(distance_ft(p(0, 0), p(4, 4)), 30);
    assert_eq!(distance_ft(p(5, 5), p(3, 2)), 20);
    assert_eq!(distance_ft(p(0, 0), p(2, 3)), distance_ft(p(2, 3), p(0, 0)));
}

#[test]
fn step_costs_follow_5_10_5_terrain_and_climbing() {
    let m = map();
    // Floor: orthogonal 5, diagonal 5 then 10.
    assert_eq!(step_cost(&m, p(4, 1), p(4, 2), 0), Some(5));
    assert_eq!(step_cost(&m, p(4, 1), p(4, 2), 1), Some(5), "parity only matters on diagonals");
    assert_eq!(step_cost(&m, p(4, 1), p(3, 2), 0), Some(5));
    assert_eq!(step_cost(&m, p(4, 1), p(3, 2), 1), Some(10));
    // Rubble (move_cost 2) multiplies the step: 10 orthogonal, 10/20 diagonal; elevation 1 on (2,5)
    // is entered from (3,5) at height 0 (+5).
    assert_eq!(step_cost(&m, p(3, 5), p(2, 5), 0), Some(15));
    assert_eq!(step_cost(&m, p(2, 6), p(2, 5), 0), Some(10), "descending is free");
    assert_eq!(step_cost(&m, p(2, 5), p(2, 6), 0), Some(15), "rubble 10 + climb 1 level");
    assert_eq!(step_cost(&m, p(3, 7), p(2, 6), 0), Some(20), "diagonal rubble 10 + climb 2 levels");
    assert_eq!(step_cost(&m, p(3, 7), p(2, 6), 1), Some(30), "second diagonal rubble 20 + climb 10");
    // Impassable destinations, non-adjacent squares, off-map squares.
    assert_eq!(step_cost(&m, p(1, 3), p(2, 3), 0), None, "pillar");
    assert_eq!(step_cost(&m, p(1, 1), p(0, 1), 0), None, "wall");
    assert_eq!(step_cost(&m, p(1, 1), p(1, 3), 0), None, "not adjacent");
    assert_eq!(step_cost(&m, p(1, 1), p(1, 1), 0), None, "not a step");
    assert_eq!(step_cost(&m, p(0, 0), p(-1, 0), 0), None, "off the map");
}

#[test]
fn corner_rule_needs_both_flanks_passable() {
    let m = map();
    assert!(diagonal_allowed(&m, p(1, 2), p(2, 2)), "orthogonal steps are not cut by corners");
    assert!(!diagonal_allowed(&m, p(3, 2), p(2, 4)), "not a step");
    assert!(diagonal_allowed(&m, p(4, 1), p(3, 2)), "open diagonal");
    // One impassable flank is enough: (2,2)->(3,3) passes the pillar at (2,3).
    assert!(!diagonal_allowed(&m, p(2, 2), p(3, 3)));
    assert_eq!(step_cost(&m, p(2, 2), p(3, 3), 0), None);
    assert!(!diagonal_allowed(&m, p(3, 3), p(2, 4)), "pillar and pit flanks");
    // The corner rule looks at the flanks; the destination is step_cost's business.
    assert!(diagonal_allowed(&m, p(1, 4), p(2, 3)));
    assert_eq!(step_cost(&m, p(1, 4), p(2, 3), 0), None);
    // A pit flank stops walkers (stricter than RAW) but not fliers.
    assert!(!diagonal_allowed(&m, p(4, 4), p(3, 5)));
    assert_eq!(step_cost(&m, p(4, 4), p(3, 5), 0), None);
    assert_eq!(step_cost_as(&m, p(4, 4), p(3, 5), 0, MoveMode::Fly), Some(5));
    assert_eq!(step_cost_as(&m, p(2, 2), p(3, 3), 0, MoveMode::Fly), Some(5), "pillars do not stop fliers");
    assert_eq!(step_cost_as(&m, p(1, 1), p(0, 2), 0, MoveMode::Fly), None, "walls do");
    assert_eq!(step_cost_as(&m, p(3, 5), p(2, 6), 1, MoveMode::Fly), Some(10), "no terrain or climb cost");
    assert_eq!(step_cost_as(&m, p(3, 4), p(3, 5), 0, MoveMode::Fly), Some(5), "leaving a pit square");
    // A wall corner stops walkers and fliers alike.
    let w = Map::from_yaml_str(
        "terrain: |\n  .#\n  ..\nlegend:\n  \".\": {type: f, move_cost: 1}\n  \"#\": {type: w, blocks_los: true}\n",
        "corner",
    )
    .unwrap();
    assert!(!diagonal_allowed(&w, p(0, 0), p(1, 1)));
    assert_eq!(step_cost_as(&w, p(0, 0), p(1, 1), 0, MoveMode::Fly), None);
    assert_eq!(step_cost(&w, p(0, 0), p(1, 0), 0), Some(5));
}

/// Reference costs (5-ft units) over (square, parity) by Bellman-Ford relaxation.
fn reference(
    m: &Map,
    start: Pos,
    budget: u32,
    access: &dyn Fn(Pos) -> Access,
    mode: MoveMode,
) -> Vec<Option<u32>> {
    let n = (m.width * m.height) as usize;
    let mut dist = vec![[u32::MAX; 2]; n];
    dist[m.index(start)][0] = 0;
    let mut changed = true;
    while changed {
        changed = false;
        for i in 0..n {
            let from = p(i as i32 / m.width, i as i32 % m.width);
            for parity in 0..2 {
                let d = dist[i][parity];
                if d == u32::MAX {
                    continue;
                }
                for (dr, dc) in NEIGHBOURS {
                    let to = p(from.row + dr, from.col + dc);
                    let Some(c) = step_units(m, from, to, parity as u8, mode) else { continue };
                    if access(to) == Access::Blocked || d + c > budget {
                        continue;
                    }
                    let np = if dr != 0 && dc != 0 { parity ^ 1 } else { parity };
                    let j = m.index(to);
                    if d + c < dist[j][np] {
                        dist[j][np] = d + c;
                        changed = true;
                    }
                }
            }
        }
    }
    dist.iter()
        .map(|d| {
            let best = d[0].min(d[1]);
            (best != u32::MAX).then_some(best)
        })
        .collect()
}

fn check_against_reference(
    m: &Map,
    start: Pos,
    budget_ft: Option<u32>,
    access: &dyn Fn(Pos) -> Access,
    mode: MoveMode,
) {
    let mut pf = Pathfinder::new(m);
    pf.run_as(m, start, budget_ft, access, mode);
    let budget = budget_ft.map_or(u32::MAX, |b| b / 5);
    let want = reference(m, start, budget, access, mode);
    let mut path = Vec::new();
    for (i, reached) in want.iter().enumerate() {
        let q = p(i as i32 / m.width, i as i32 % m.width);
        let landing = access(q) != Access::PassOnly && (mode == MoveMode::Ground || m.passable(q));
        let expected = if q == start { Some(0) } else { reached.filter(|_| landing).map(|u| 5 * u) };
        assert_eq!(pf.cost(q), expected, "cost to {q} from {start} ({mode:?}, budget {budget_ft:?})");
        assert_eq!(pf.path_to(q, &mut path), expected.is_some());
        if expected.is_none() {
            assert!(path.is_empty());
            continue;
        }
        // The path is legal and costs what `cost` says.
        let (mut at, mut parity, mut total) = (start, 0u8, 0u32);
        for (k, &next) in path.iter().enumerate() {
            total += step_cost_as(m, at, next, parity, mode).expect("legal step");
            assert_ne!(access(next), Access::Blocked);
            if k + 1 < path.len() {
                assert_ne!(next, start, "paths do not loop");
            }
            if next.row != at.row && next.col != at.col {
                parity ^= 1;
            }
            at = next;
        }
        assert_eq!(at, q);
        assert_eq!(Some(total), expected);
    }
}

#[test]
fn dijkstra_matches_reference_costs_and_paths() {
    let m = map();
    let ally = p(3, 2);
    let enemy = p(1, 4);
    let access = |q: Pos| {
        if q == ally {
            Access::PassOnly
        } else if q == enemy {
            Access::Blocked
        } else {
            Access::Open
        }
    };
    for start in [p(1, 1), p(4, 7), p(2, 6), p(3, 3)] {
        for budget in [None, Some(0), Some(5), Some(14), Some(30), Some(60)] {
            check_against_reference(&m, start, budget, &open, MoveMode::Ground);
            check_against_reference(&m, start, budget, &access, MoveMode::Ground);
            check_against_reference(&m, start, budget, &access, MoveMode::Fly);
        }
    }
}

#[test]
fn dijkstra_budget_bounds_reach() {
    let m = map();
    let mut pf = Pathfinder::new(&m);
    pf.run(&m, p(4, 1), Some(15), &open);
    assert_eq!(pf.cost(p(4, 1)), Some(0));
    assert_eq!(pf.cost(p(4, 4)), Some(15));
    assert_eq!(pf.cost(p(4, 5)), None, "20 ft away");
    assert_eq!(pf.cost(p(2, 3)), None, "pillar");
    assert_eq!(pf.cost(p(2, 2)), Some(10), "one diagonal and one straight step");
    assert_eq!(pf.cost(p(1, 4)), None, "three diagonals: 20 ft");
    let mut path = vec![p(9, 9)];
    assert!(pf.path_to(p(4, 4), &mut path));
    assert_eq!(path, vec![p(4, 2), p(4, 3), p(4, 4)]);
    assert!(pf.path_to(p(4, 1), &mut path));
    assert!(path.is_empty(), "the start square has an empty path");
    assert!(!pf.path_to(p(1, 7), &mut path));
    assert!(!pf.path_to(p(-1, 0), &mut path));
}

#[test]
fn diagonal_parity_is_tracked_along_the_path() {
    let text = "terrain: |\n  ......\n  ......\n  ......\n  ......\n  ......\nlegend: {\".\": {type: f, move_cost: 1}}\n";
    let m = Map::from_yaml_str(text, "open").unwrap();
    let mut pf = Pathfinder::new(&m);
    pf.run(&m, p(0, 0), None, &open);
    for i in 0..m.width * m.height {
        let q = p(i / m.width, i % m.width);
        assert_eq!(pf.cost(q), Some(distance_ft(p(0, 0), q)), "open ground: cost = 5-10-5 distance to {q}");
    }
    let mut path = Vec::new();
    assert!(pf.path_to(p(4, 4), &mut path));
    assert_eq!(path, vec![p(1, 1), p(2, 2), p(3, 3), p(4, 4)], "5 + 10 + 5 + 10");
}

#[test]
fn pass_only_squares_are_crossed_but_not_ended_on() {
    let text = "terrain: |\n  .....\n  ##.##\n  .....\nlegend:\n  \".\": {type: floor, move_cost: 1}\n  \"#\": {type: wall, blocks_los: true}\n";
    let m = Map::from_yaml_str(text, "corridor").unwrap();
    let gap = p(1, 2);
    let mut pf = Pathfinder::new(&m);
    let mut path = Vec::new();
    pf.run(&m, p(0, 2), None, &|q| if q == gap { Access::PassOnly } else { Access::Open });
    assert_eq!(pf.cost(gap), None, "cannot stop on the ally");
    assert!(!pf.path_to(gap, &mut path));
    assert_eq!(pf.cost(p(2, 2)), Some(10));
    assert!(pf.path_to(p(2, 2), &mut path));
    assert_eq!(path, vec![gap, p(2, 2)]);
    pf.run(&m, p(0, 2), None, &|q| if q == gap { Access::Blocked } else { Access::Open });
    assert_eq!(pf.cost(p(2, 2)), None, "an enemy in the gap closes it");
    assert_eq!(pf.cost(p(0, 0)), Some(10), "buffers reused: the other side is still reached");
}

#[test]
fn end_only_squares_end_a_route_but_are_not_crossed() {
    let text = "terrain: |\n  .....\n  ##.##\n  .....\nlegend:\n  \".\": {type: floor, move_cost: 1}\n  \"#\": {type: wall, blocks_los: true}\n";
    let m = Map::from_yaml_str(text, "corridor").unwrap();
    let gap = p(1, 2);
    let mut pf = Pathfinder::new(&m);
    let mut path = Vec::new();
    pf.run(&m, p(0, 2), None, &|q| if q == gap { Access::EndOnly } else { Access::Open });
    assert_eq!(pf.cost(gap), Some(5), "the gap may end the move");
    assert!(pf.path_to(gap, &mut path));
    assert_eq!(path, vec![gap]);
    assert_eq!(pf.cost(p(2, 2)), None, "nothing beyond it: it is not crossed");
    // The start itself is left whatever its access.
    pf.run(&m, gap, None, &|q| if q == gap { Access::EndOnly } else { Access::Open });
    assert_eq!(pf.cost(p(2, 2)), Some(5));
}

#[test]
fn access_is_not_asked_for_the_start_and_once_per_square() {
    let m = map();
    let calls = std::cell::RefCell::new(Vec::new());
    let mut pf = Pathfinder::new(&m);
    pf.run(&m, p(4, 4), None, &|q| {
        calls.borrow_mut().push(q);
        if q == p(4, 4) { Access::Blocked } else { Access::Open }
    });
    let mut calls = calls.into_inner();
    assert_eq!(pf.cost(p(4, 4)), Some(0));
    let n = calls.len();
    calls.sort();
    calls.dedup();
    assert_eq!(calls.len(), n, "one call per square");
}

#[test]
fn ties_are_broken_deterministically() {
    let m = map();
    let mut a = Pathfinder::new(&m);
    let mut b = Pathfinder::default();
    let (mut pa, mut pb) = (Vec::new(), Vec::new());
    for start in [p(1, 1), p(4, 7)] {
        a.run(&m, start, None, &open);
        // `b` has run elsewhere first: leftover state must not matter.
        b.run(&m, p(3, 6), Some(10), &open);
        b.run(&m, start, None, &open);
        for i in 0..m.width * m.height {
            let q = p(i / m.width, i % m.width);
            assert_eq!(a.path_to(q, &mut pa), b.path_to(q, &mut pb));
            assert_eq!(pa, pb);
        }
    }
    // (1,1)->(3,2) costs 10 ft via (2,1) or via (2,2): the smaller predecessor state, (2,1), wins.
    a.run(&m, p(1, 1), None, &open);
    assert!(a.path_to(p(3, 2), &mut pa));
    assert_eq!(pa, vec![p(2, 1), p(3, 2)]);
}

#[test]
fn off_map_start_reaches_nothing_and_other_maps_resize() {
    let m = map();
    let mut pf = Pathfinder::new(&m);
    pf.run(&m, p(-1, 3), None, &open);
    assert_eq!(pf.cost(p(1, 1)), None);
    let small =
        Map::from_yaml_str("terrain: \"...\"\nlegend: {\".\": {type: f, move_cost: 1}}\n", "s").unwrap();
    pf.run(&small, p(0, 0), None, &open);
    assert_eq!(pf.cost(p(0, 2)), Some(10));
    assert_eq!(pf.cost(p(1, 1)), None);
}

#[test]
fn sample_arena_crossing() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/maps/sample_arena.yaml");
    let m = Map::load(&path).unwrap();
    let mut pf = Pathfinder::new(&m);
    pf.run(&m, p(1, 1), None, &open);
    // Around the pillar and under the wall block; water costs double.
    let cost = pf.cost(p(1, 18)).unwrap();
    check_against_reference(&m, p(1, 1), None, &open, MoveMode::Ground);
    assert!(cost > distance_ft(p(1, 1), p(1, 18)));
    pf.run(&m, p(1, 1), Some(30), &open);
    assert_eq!(pf.cost(p(1, 7)), None, "the wall block");
    assert_eq!(pf.cost(p(1, 6)), Some(30), "(1,2) climbs to height 1, (1,6) descends: 5+5+5+5+5+5");
}

#[test]
fn fliers_cross_pits_and_pillars_without_landing() {
    let m = map();
    let mut pf = Pathfinder::new(&m);
    let mut path = Vec::new();
    pf.run_as(&m, p(3, 3), None, &open, MoveMode::Fly);
    assert_eq!(pf.cost(p(3, 5)), Some(10), "straight over the pit");
    assert!(pf.path_to(p(3, 5), &mut path));
    assert_eq!(path, vec![p(3, 4), p(3, 5)]);
    assert_eq!(pf.cost(p(3, 4)), None, "no landing in the pit");
    assert_eq!(pf.cost(p(2, 3)), None, "no landing on the pillar");
    assert_eq!(pf.cost(p(0, 3)), None, "walls stop fliers");
    pf.run(&m, p(3, 3), None, &open);
    assert!(pf.cost(p(3, 5)).unwrap() > 10, "walkers go around");
}

#[test]
fn footprints_and_distances() {
    use crate::model::Size;
    assert_eq!(space_squares(Size::Medium), 1);
    assert_eq!(space_squares(Size::Large), 2);
    assert_eq!(space_squares(Size::Colossal), 6);
    assert_eq!(natural_reach_ft(Size::Tiny), 0);
    assert_eq!(natural_reach_ft(Size::Large), 10);
    // 1x1 is the plain 5-10-5 distance.
    let (a, b) = (Pos::new(0, 0), Pos::new(3, 2));
    assert_eq!(footprint_distance_ft(a, 1, b, 1), distance_ft(a, b));
    // A Large creature at (0,0) covers rows/cols 0-1: (2,0) is adjacent, (3,3) is 10 ft.
    assert_eq!(footprint_distance_ft(Pos::new(0, 0), 2, Pos::new(2, 0), 1), 5);
    assert_eq!(footprint_distance_ft(Pos::new(0, 0), 2, Pos::new(3, 3), 1), 15);
    assert_eq!(footprint_distance_ft(Pos::new(0, 0), 2, Pos::new(1, 1), 1), 0);
    assert_eq!(footprint(Pos::new(1, 1), 2).count(), 4);
}
