//! Aggregation of run outcomes into exactly mergeable integer sums.

use serde::{Deserialize, Serialize};

use crate::combat::RunOutcome;

/// Per-combatant sums over a set of runs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CombatantTotals {
    /// Sum of hits.
    pub hits: u64,
    /// Sum of confirmed criticals.
    pub crits: u64,
    /// Sum of damage dealt.
    pub damage_dealt: u64,
    /// Sum of damage taken.
    pub damage_taken: u64,
    /// Sum of healing given.
    pub healing_given: u64,
    /// Runs that ended with the combatant dead.
    pub deaths: u64,
    /// Sum of timed conditions put on foes.
    #[serde(default)]
    pub conditions_inflicted: u64,
    /// Sum of spell slots spent.
    #[serde(default)]
    pub slots_spent: u64,
    /// Sum of class-ability uses spent.
    #[serde(default)]
    pub uses_spent: u64,
    /// Sum of consumables spent (potions, wand charges).
    #[serde(default)]
    pub items_spent: u64,
}

/// Integer sums over a set of runs; two summaries of disjoint run sets merge exactly.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    /// Number of runs.
    pub runs: u64,
    /// Wins per side index.
    pub wins: Vec<u64>,
    /// Runs that reached the round cap.
    pub draws: u64,
    /// Sum of rounds played.
    pub rounds: u64,
    /// Per-combatant totals, in encounter order.
    pub combatants: Vec<CombatantTotals>,
    /// Per row reserved for summoned creatures (`RunOutcome::summons`), in
    /// row order; empty when nobody summons.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub summons: Vec<CombatantTotals>,
}

impl Summary {
    /// An empty summary for `sides` sides and `combatants` combatants.
    pub fn new(sides: usize, combatants: usize) -> Self {
        Self {
            runs: 0,
            wins: vec![0; sides],
            draws: 0,
            rounds: 0,
            combatants: vec![CombatantTotals::default(); combatants],
            summons: Vec::new(),
        }
    }

    /// Adds one run.
    pub fn add(&mut self, outcome: &RunOutcome) {
        self.runs += 1;
        match outcome.winner {
            Some(side) => {
                if let Some(w) = self.wins.get_mut(side as usize) {
                    *w += 1;
                }
            }
            None => self.draws += 1,
        }
        self.rounds += u64::from(outcome.rounds);
        add_rows(&mut self.combatants, &outcome.combatants);
        if self.summons.len() < outcome.summons.len() {
            self.summons.resize(outcome.summons.len(), CombatantTotals::default());
        }
        add_rows(&mut self.summons, &outcome.summons);
    }

    /// Adds every run of `other` (a disjoint set of runs of the same encounter).
    pub fn merge(&mut self, other: &Summary) {
        self.runs += other.runs;
        for (a, b) in self.wins.iter_mut().zip(&other.wins) {
            *a += b;
        }
        self.draws += other.draws;
        self.rounds += other.rounds;
        merge_rows(&mut self.combatants, &other.combatants);
        if self.summons.len() < other.summons.len() {
            self.summons.resize(other.summons.len(), CombatantTotals::default());
        }
        merge_rows(&mut self.summons, &other.summons);
    }

    /// Builds a summary from outcomes.
    pub fn from_outcomes(sides: usize, combatants: usize, outcomes: &[RunOutcome]) -> Self {
        let mut s = Self::new(sides, combatants);
        for o in outcomes {
            s.add(o);
        }
        s
    }
}

fn add_rows(totals: &mut [CombatantTotals], rows: &[crate::combat::CombatantOutcome]) {
    for (total, c) in totals.iter_mut().zip(rows) {
        total.hits += u64::from(c.hits);
        total.crits += u64::from(c.crits);
        total.damage_dealt += u64::from(c.damage_dealt);
        total.damage_taken += u64::from(c.damage_taken);
        total.healing_given += u64::from(c.healing_given);
        total.deaths += u64::from(c.dead);
        total.conditions_inflicted += u64::from(c.conditions_inflicted);
        total.slots_spent += u64::from(c.slots_spent);
        total.uses_spent += u64::from(c.uses_spent);
        total.items_spent += u64::from(c.items_spent);
    }
}

fn merge_rows(totals: &mut [CombatantTotals], other: &[CombatantTotals]) {
    for (a, b) in totals.iter_mut().zip(other) {
        a.hits += b.hits;
        a.crits += b.crits;
        a.damage_dealt += b.damage_dealt;
        a.damage_taken += b.damage_taken;
        a.healing_given += b.healing_given;
        a.deaths += b.deaths;
        a.conditions_inflicted += b.conditions_inflicted;
        a.slots_spent += b.slots_spent;
        a.uses_spent += b.uses_spent;
        a.items_spent += b.items_spent;
    }
}
