//! How hard a fight is for the party, as measured by the simulation, beside
//! its difficulty by the book (`difficulty`): the party's win rate, the
//! share of battles in which some member died, in which every member was
//! down (dying or dead: the table's "TPK"), in which it fled, and the hit
//! points it lost.
//!
//! A `PartyTally` is integer sums over runs, so tallies of disjoint run
//! sets add exactly whatever the chunking or threads.

use serde::{Deserialize, Serialize};

use crate::combat::RunOutcome;
use crate::difficulty::Difficulty;
use crate::encounter::Encounter;
use crate::metrics::win_rate;

/// Whether side `side` fled a battle that `winner` won (`None`: a draw,
/// or no side standing) and in which `left` says whether some member of the
/// side left the battle alive (`combat::leave`): another side holds the
/// field and at least one member got out. Its members still on the field are
/// down or dead, or it would still be fighting; a win and "everyone down"
/// are never also a flight, "a PC dies" may be (a member left behind).
pub fn party_fled(winner: Option<usize>, side: usize, left: bool) -> bool {
    left && winner.is_some_and(|w| w != side)
}

/// Integer sums of the party's outcomes over a set of runs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PartyTally {
    /// The party's side index.
    pub side: usize,
    /// Runs counted.
    pub runs: u64,
    /// Runs the party won.
    pub wins: u64,
    /// Runs with at least one member dead.
    pub some_death: u64,
    /// Runs with every member down: dying or dead.
    pub all_down: u64,
    /// Runs the party fled ([`party_fled`]).
    pub fled: u64,
    /// Sum over runs of the members' hit points lost, each clamped to
    /// `[0, start]` (healing above the start and overkill do not count).
    pub hp_lost: u64,
    /// The members' starting hit points, summed.
    pub hp_start: u64,
    /// Sum over runs of the members' spell slots spent.
    pub slots_spent: u64,
    /// Sum over runs of the members' class-ability uses spent.
    pub uses_spent: u64,
    /// Sum over runs of the members' consumables spent (potions, wand charges).
    pub items_spent: u64,
}

impl PartyTally {
    /// An empty tally of side `side` of `encounter`.
    pub fn new(encounter: &Encounter, side: usize) -> Self {
        let hp_start = encounter
            .combatants
            .iter()
            .filter(|c| c.side == side)
            .map(|c| u64::from(c.start_hp.max(0).unsigned_abs()))
            .sum();
        PartyTally { side, hp_start, ..PartyTally::default() }
    }

    /// Adds one run of `encounter`.
    pub fn add(&mut self, encounter: &Encounter, outcome: &RunOutcome) {
        let run = self.battle(encounter, outcome, 0);
        self.runs += 1;
        self.wins += u64::from(run.won);
        self.some_death += u64::from(run.some_death);
        self.all_down += u64::from(run.all_down);
        self.fled += u64::from(run.fled);
        self.hp_lost += run.hp_lost;
        let members =
            encounter.combatants.iter().zip(&outcome.combatants).filter(|(c, _)| c.side == self.side);
        for (_, o) in members {
            self.slots_spent += u64::from(o.slots_spent);
            self.uses_spent += u64::from(o.uses_spent);
            self.items_spent += u64::from(o.items_spent);
        }
    }

    /// The party's figures in one battle, run `run` of the batch.
    pub fn battle(&self, encounter: &Encounter, outcome: &RunOutcome, run: u64) -> Battle {
        let members =
            encounter.combatants.iter().zip(&outcome.combatants).filter(|(c, _)| c.side == self.side);
        let (mut some_death, mut all_down, mut left, mut hp_lost) = (false, true, false, 0u64);
        for (c, o) in members {
            some_death |= o.dead;
            left |= o.fled;
            all_down &= o.dead || o.dying || o.final_hp < 0;
            let start = i64::from(c.start_hp.max(0));
            hp_lost += (start - i64::from(o.final_hp)).clamp(0, start).unsigned_abs();
        }
        let won = outcome.winner.is_some_and(|w| w as usize == self.side);
        Battle {
            run,
            won,
            some_death,
            all_down: all_down && self.hp_start > 0,
            fled: party_fled(outcome.winner.map(|w| w as usize), self.side, left),
            hp_lost,
        }
    }
}

/// The party's figures in one battle: what picks the battle worth reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Battle {
    /// Run index in the batch.
    pub run: u64,
    /// The party won.
    pub won: bool,
    /// Some member died.
    pub some_death: bool,
    /// Every member was down (dying or dead).
    pub all_down: bool,
    /// The party fled ([`party_fled`]).
    pub fled: bool,
    /// Hit points the party lost (each member's loss clamped to its start).
    pub hp_lost: u64,
}

/// Which battle of a batch to show.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pick {
    /// The battle nearest the median of the party's hit points lost.
    Median,
    /// The middle battle of the worst decile by hit points lost.
    Worst,
    /// The first battle with everyone down; the worst decile's when none.
    Wipe,
    /// The party's win with the fewest hit points lost (any battle when it never wins).
    Best,
    /// This run.
    Run(u64),
}

/// The battle chosen by a [`Pick`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shown {
    /// What was asked.
    pub pick: Pick,
    /// The run shown.
    pub run: u64,
    /// The party's hit points lost in it (unknown for a run outside the batch).
    pub hp_lost: Option<u64>,
    /// Whether everyone was down in it (unknown for a run outside the batch).
    pub all_down: Option<bool>,
    /// A wipe was asked for and no battle of the batch had one.
    pub no_wipe: bool,
}

/// Picks a battle among `battles` (in run order). Ties go to the lowest
/// run. `None` for an empty batch, except for an explicit run.
pub fn pick(battles: &[Battle], pick: Pick) -> Option<Shown> {
    let shown = |b: &Battle, no_wipe| Shown {
        pick,
        run: b.run,
        hp_lost: Some(b.hp_lost),
        all_down: Some(b.all_down),
        no_wipe,
    };
    // By hit points lost, then run: stable order for ties.
    let mut order: Vec<&Battle> = battles.iter().collect();
    order.sort_by_key(|b| (b.hp_lost, b.run));
    let worst = || {
        let tail = order.len().div_ceil(10).max(1).min(order.len());
        // The worst ⌈10%⌉ are the last `tail` of `order`, heaviest loss last; their middle one.
        let first = order.len() - tail;
        let middle = order.get(first + tail / 2)?;
        order.iter().find(|b| b.hp_lost == middle.hp_lost).copied()
    };
    match pick {
        Pick::Run(run) => Some(
            battles
                .iter()
                .find(|b| b.run == run)
                .map_or(Shown { pick, run, hp_lost: None, all_down: None, no_wipe: false }, |b| {
                    shown(b, false)
                }),
        ),
        Pick::Median => {
            let median = order.get(order.len().checked_sub(1)? / 2)?;
            order.iter().find(|b| b.hp_lost == median.hp_lost).map(|b| shown(b, false))
        }
        Pick::Worst => worst().map(|b| shown(b, false)),
        Pick::Wipe => match battles.iter().find(|b| b.all_down) {
            Some(b) => Some(shown(b, false)),
            None => worst().map(|b| shown(b, true)),
        },
        Pick::Best => {
            let won = order.iter().find(|b| b.won);
            won.or(order.first()).map(|b| shown(b, false))
        }
    }
}

/// The simulated difficulty: the tally's rates.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Simulated {
    /// P(the party wins).
    pub p_win: f64,
    /// P(some member dies).
    pub p_pc_dies: f64,
    /// P(every member is down: dying or dead).
    pub p_all_down: f64,
    /// P(the party fled: [`party_fled`]); 0 in documents older than the field.
    #[serde(default)]
    pub p_fled: f64,
    /// Mean hit points the party lost per battle.
    pub hp_lost: f64,
    /// `hp_lost` as a share of the party's starting hit points, in [0, 1].
    pub hp_lost_share: f64,
    /// Mean spell slots the party spent per battle.
    #[serde(default)]
    pub slots_spent: f64,
    /// Mean class-ability uses (channels, hexes, grit, arcane pool, rounds
    /// of performance, smites) the party spent per battle.
    #[serde(default)]
    pub uses_spent: f64,
    /// Mean consumables (potions, wand charges) the party spent per battle.
    #[serde(default)]
    pub items_spent: f64,
}

impl Simulated {
    /// The rates of `tally`.
    pub fn of(tally: &PartyTally) -> Self {
        let runs = tally.runs;
        let mean = |sum: u64| if runs == 0 { 0.0 } else { sum as f64 / runs as f64 };
        let hp_lost = mean(tally.hp_lost);
        Simulated {
            p_win: win_rate(tally.wins, runs),
            p_pc_dies: win_rate(tally.some_death, runs),
            p_all_down: win_rate(tally.all_down, runs),
            p_fled: win_rate(tally.fled, runs),
            hp_lost,
            hp_lost_share: if tally.hp_start == 0 { 0.0 } else { hp_lost / tally.hp_start as f64 },
            slots_spent: mean(tally.slots_spent),
            uses_spent: mean(tally.uses_spent),
            items_spent: mean(tally.items_spent),
        }
    }
}

/// The party's difficulty by the book and by simulation (`pf1e sim`'s
/// `party` member).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PartyReport {
    /// By the book.
    pub book: Difficulty,
    /// By simulation.
    pub simulated: Simulated,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::combat::CombatantOutcome;
    use crate::map::Map;

    fn encounter() -> Encounter {
        use std::sync::Arc;
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let load = |f: &str| Arc::new(crate::model::load_combatant(&root.join(f)).unwrap());
        let (g, o) = (load("data/monsters/goblin.json"), load("data/monsters/orc.json"));
        let map = Arc::new(Map::load(&root.join("data/maps/sample_arena.yaml")).unwrap());
        let sides = vec![
            crate::encounter::SideSpec { name: "players".into(), combatants: vec![g.clone(), g] },
            crate::encounter::SideSpec { name: "monsters".into(), combatants: vec![o] },
        ];
        Encounter::build(map, sides).unwrap()
    }

    fn run(winner: Option<u32>, party: [(i32, bool, bool); 2]) -> RunOutcome {
        let row = |(final_hp, dead, dying)| CombatantOutcome { final_hp, dead, dying, ..Default::default() };
        RunOutcome {
            winner,
            rounds: 3,
            combatants: vec![row(party[0]), row(party[1]), row((0, true, false))],
            summons: Vec::new(),
        }
    }

    #[test]
    fn the_tally_counts_wins_deaths_and_a_party_all_down() {
        let e = encounter();
        let start = e.combatants[0].start_hp;
        let mut t = PartyTally::new(&e, 0);
        assert_eq!(t.hp_start, 2 * start.unsigned_abs() as u64);
        t.add(&e, &run(Some(0), [(start, false, false), (start - 2, false, false)]));
        t.add(&e, &run(Some(1), [(-1, false, true), (-9, true, false)]));
        t.add(&e, &run(Some(0), [(start + 5, false, false), (-2, false, true)]));
        t.add(&e, &run(None, [(-1, false, false), (-20, true, false)]));
        assert_eq!((t.runs, t.wins, t.some_death, t.all_down), (4, 2, 2, 2));
        let s = start as u64;
        // run 0: 2; run 1: everything; run 2: healing above the start counts 0, the other all;
        // run 3: everything (overkill clamped).
        assert_eq!(t.hp_lost, 2 + 2 * s + s + 2 * s);
        let sim = Simulated::of(&t);
        assert_eq!((sim.p_win, sim.p_pc_dies, sim.p_all_down), (0.5, 0.5, 0.5));
        assert!((sim.hp_lost_share - (2 + 5 * s) as f64 / 4.0 / (2 * s) as f64).abs() < 1e-12);
    }

    #[test]
    fn the_party_fled_when_a_member_got_out_and_the_foes_hold_the_field() {
        let e = encounter();
        let start = e.combatants[0].start_hp;
        let mut t = PartyTally::new(&e, 0);
        let left = |mut o: RunOutcome, member: usize, kept: i32| {
            o.combatants[member].fled = true;
            o.combatants[member].final_hp = kept;
            o
        };
        // Run 0: one member left with 3 hp, the other died: the orcs hold the
        // field; fled and a PC died, not everyone down.
        t.add(&e, &left(run(Some(1), [(start, false, false), (-20, true, false)]), 0, 3));
        // Run 1: both left (2 and 1 hp kept): fled.
        t.add(&e, &left(left(run(Some(1), [(0, false, false), (0, false, false)]), 0, 2), 1, 1));
        // Run 2: one left, the other won the fight alone: a win, not a flight.
        t.add(&e, &left(run(Some(0), [(start, false, false), (start - 1, false, false)]), 0, start - 4));
        // Run 3: one left, then the round cap: a draw, not a flight.
        t.add(&e, &left(run(None, [(start, false, false), (1, false, false)]), 1, 1));
        // Run 4: everyone down, nobody left: no flight.
        t.add(&e, &run(Some(1), [(-1, false, true), (-2, false, true)]));
        assert_eq!((t.runs, t.wins, t.some_death, t.all_down, t.fled), (5, 1, 1, 1, 2));
        let s = start as i64;
        // What a member who left lost is counted until it left.
        let lost = [(s - 3) + s, (s - 2) + (s - 1), 4 + 1, (s - 1), 2 * s];
        assert_eq!(t.hp_lost, lost.iter().sum::<i64>() as u64);
        let sim = Simulated::of(&t);
        assert_eq!((sim.p_win, sim.p_pc_dies, sim.p_all_down, sim.p_fled), (0.2, 0.2, 0.2, 0.4));
        assert!(party_fled(Some(1), 0, true) && !party_fled(Some(0), 0, true));
        assert!(!party_fled(None, 0, true) && !party_fled(Some(1), 0, false));
    }

    #[test]
    fn the_party_s_resources_are_counted_and_the_foes_are_not() {
        let e = encounter();
        let mut t = PartyTally::new(&e, 0);
        let start = e.combatants[0].start_hp;
        for (slots, uses, items) in [(1, 0, 2), (0, 3, 1)] {
            let mut o = run(Some(0), [(start, false, false), (start, false, false)]);
            o.combatants[0].slots_spent = slots;
            o.combatants[1].uses_spent = uses;
            o.combatants[1].items_spent = items;
            // The orc's potions are not the party's.
            o.combatants[2].items_spent = 7;
            t.add(&e, &o);
        }
        assert_eq!((t.slots_spent, t.uses_spent, t.items_spent), (1, 3, 3));
        let sim = Simulated::of(&t);
        assert_eq!((sim.slots_spent, sim.uses_spent, sim.items_spent), (0.5, 1.5, 1.5));
    }

    fn battle(run: u64, hp_lost: u64, won: bool, all_down: bool) -> Battle {
        Battle { run, won, some_death: all_down, all_down, fled: false, hp_lost }
    }

    #[test]
    fn the_battle_worth_reading_is_picked_by_hp_lost() {
        // Losses by run: 5 3 9 3 20 0 7 12 3 30 (sorted: 0 3 3 3 5 7 9 12 20 30).
        let losses = [5, 3, 9, 3, 20, 0, 7, 12, 3, 30];
        let mut battles: Vec<Battle> =
            losses.iter().enumerate().map(|(i, &l)| battle(i as u64, l, l < 10, false)).collect();
        let run = |p| pick(&battles, p).map(|s| s.run);
        // Median: the 5th of 10 sorted is 5 (run 0).
        assert_eq!(run(Pick::Median), Some(0));
        // Worst decile: ⌈10/10⌉ = 1 battle, the heaviest: run 9.
        assert_eq!(run(Pick::Worst), Some(9));
        // Best: the win with the least loss (run 5, 0 HP).
        assert_eq!(run(Pick::Best), Some(5));
        // No wipe: the worst decile's, said so.
        let s = pick(&battles, Pick::Wipe).unwrap();
        assert_eq!((s.run, s.no_wipe), (9, true));
        battles[7].all_down = true;
        let s = pick(&battles, Pick::Wipe).unwrap();
        assert_eq!((s.run, s.no_wipe, s.all_down), (7, false, Some(true)));
        assert_eq!(pick(&battles, Pick::Run(4)).unwrap().hp_lost, Some(20));
        assert_eq!(pick(&battles, Pick::Run(99)).unwrap().hp_lost, None);
        assert_eq!(pick(&[], Pick::Median), None);
    }

    #[test]
    fn ties_go_to_the_first_run() {
        let battles = [battle(0, 4, true, false), battle(1, 2, true, false), battle(2, 2, true, false)];
        assert_eq!(pick(&battles, Pick::Median).unwrap().run, 1);
        assert_eq!(pick(&battles, Pick::Best).unwrap().run, 1);
        // Worst decile of 3 is 1 battle: the heaviest, run 0.
        assert_eq!(pick(&battles, Pick::Worst).unwrap().run, 0);
        // Nobody won: the least loss.
        let lost = [battle(0, 4, false, false), battle(1, 2, false, false)];
        assert_eq!(pick(&lost, Pick::Best).unwrap().run, 1);
    }

    #[test]
    fn no_runs_give_zero_rates() {
        let sim = Simulated::of(&PartyTally::new(&encounter(), 0));
        assert_eq!(
            (sim.p_win, sim.p_pc_dies, sim.p_all_down, sim.hp_lost, sim.hp_lost_share),
            (0.0, 0.0, 0.0, 0.0, 0.0)
        );
    }
}
