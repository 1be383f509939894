//! Who carries the fight, in words and as a table: the rows shared by
//! `pf1e sim --contribution` and the `contribution` job's report, and the
//! sentence the verdicts use.

use pf1e_engine::contribution::{Contribution, Without};

use crate::i18n::{Lang, T};

fn percent(rate: f64) -> String {
    format!("{:.1}%", rate * 100.0)
}

/// A probability and its change in points, starred when told apart.
fn with_change(p: f64, change: f64, significant: bool) -> String {
    let points = change * 100.0;
    let sign = if points < 0.0 { "−" } else { "+" };
    let star = if significant { "*" } else { "" };
    format!("{} ({sign}{:.1}){star}", percent(p), points.abs())
}

/// The table's column titles.
pub fn headers(lang: Lang) -> Vec<String> {
    [
        T::ColCombatant,
        T::ColSide,
        T::ColDmgRound,
        T::ColHealBattle,
        T::ColCondBattle,
        T::ColWinWithout,
        T::ColDeathWithout,
    ]
    .iter()
    .map(|&c| lang.t(c).to_string())
    .collect()
}

/// One row per combatant, in encounter order.
pub fn rows(combatants: &[Contribution]) -> Vec<Vec<String>> {
    combatants
        .iter()
        .map(|c| {
            let (win, death) = match &c.without {
                Some(w) => (
                    with_change(w.p_win, w.win_change, w.win_told_apart()),
                    with_change(w.p_pc_dies, w.death_change, w.death_told_apart()),
                ),
                None => ("—".to_string(), "—".to_string()),
            };
            vec![
                c.id.clone(),
                c.side.clone(),
                format!("{:.1}", c.damage_per_round),
                format!("{:.1}", c.healing),
                format!("{:.2}", c.conditions),
                win,
                death,
            ]
        })
        .collect()
}

/// The note under the table: what the changes and marks mean.
pub fn note(confidence: f64, lang: Lang) -> String {
    lang.f(T::ContribNote, &[&percent(confidence)])
}

/// The member of `party` whose absence costs the party most (fewer wins,
/// then more deaths) when that is told apart from chance, in one sentence;
/// else that no one member carries it. `None` when no removal of a party
/// member was measured.
pub fn carry(combatants: &[Contribution], party: &str, lang: Lang) -> Option<String> {
    let measured: Vec<(&Contribution, &Without)> = combatants
        .iter()
        .filter(|c| c.side == party)
        .filter_map(|c| c.without.as_ref().map(|w| (c, w)))
        .collect();
    let most = measured
        .iter()
        .filter(|(_, w)| {
            (w.win_told_apart() && w.win_change < 0.0) || (w.death_told_apart() && w.death_change > 0.0)
        })
        .min_by(|a, b| {
            a.1.win_change
                .total_cmp(&b.1.win_change)
                .then(b.1.death_change.total_cmp(&a.1.death_change))
                .then(a.0.id.cmp(&b.0.id))
        });
    match most {
        // With it: the same runs' rates, the change undone.
        Some((c, w)) => Some(lang.f(
            T::VerdictCarry,
            &[
                &c.id,
                &percent(w.p_win),
                &percent(w.p_win - w.win_change),
                &percent(w.p_pc_dies),
                &percent(w.p_pc_dies - w.death_change),
            ],
        )),
        None if !measured.is_empty() => {
            let most = measured.iter().map(|(_, w)| w.win_change.abs()).fold(0.0, f64::max);
            Some(lang.f(T::VerdictNoCarry, &[&format!("{:.1}", most * 100.0)]))
        }
        None => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture() -> Vec<Contribution> {
        let without = |win_change: f64, death_change: f64, significant| Without {
            runs: 400,
            p_win: 0.7 + win_change,
            p_pc_dies: 0.1 + death_change,
            win_change,
            win_interval: [win_change - 0.05, win_change + 0.05],
            death_change,
            death_interval: [death_change - 0.05, death_change + 0.05],
            significant,
        };
        let c = |id: &str, side: &str, w: Option<Without>| Contribution {
            id: id.into(),
            side: side.into(),
            damage_per_round: 3.5,
            healing: 1.5,
            conditions: 0.5,
            without: w,
        };
        vec![
            c("oni", "players", Some(without(-0.3, 0.2, true))),
            c("nairda", "players", Some(without(-0.01, 0.0, false))),
            c("orc", "monsters", None),
        ]
    }

    #[test]
    fn the_carrier_is_the_member_whose_absence_costs_most_when_told_apart() {
        let c = fixture();
        assert_eq!(
            carry(&c, "players", Lang::En).unwrap(),
            "Who carries the fight: oni (without it the party wins 40.0% instead of 70.0%; a PC dies in 30.0% instead of 10.0%)."
        );
        assert_eq!(
            carry(&c, "players", Lang::Fr).unwrap(),
            "Qui porte le combat : oni (sans lui le groupe gagne 40.0% au lieu de 70.0% ; un PJ meurt dans 30.0% au lieu de 10.0%)."
        );
        let noise: Vec<Contribution> = c.into_iter().skip(1).collect();
        assert_eq!(
            carry(&noise, "players", Lang::En).unwrap(),
            "No one member carries the fight: without any one of them the party's win rate moves by at most 1.0 points, not told apart from chance."
        );
        assert_eq!(carry(&noise, "monsters", Lang::En), None);
    }

    #[test]
    fn the_rows_show_changes_in_points_and_a_dash_for_the_last_of_a_side() {
        let r = rows(&fixture());
        assert_eq!(r[0], ["oni", "players", "3.5", "1.5", "0.50", "40.0% (−30.0)*", "30.0% (+20.0)*"]);
        assert_eq!(r[2][5..], ["—", "—"]);
    }

    #[test]
    fn each_change_is_starred_only_when_its_own_interval_excludes_zero() {
        // The win change is told apart, the death change is not: the
        // combatant is `significant`, but only the win column is starred.
        let mut c = fixture();
        let w = c[0].without.as_mut().unwrap();
        w.death_change = -0.015;
        w.p_pc_dies = 0.085;
        w.death_interval = [-0.17, 0.14];
        let r = rows(&c);
        assert_eq!(r[0][5..], ["40.0% (−30.0)*", "8.5% (−1.5)"]);
        // A member better off without told apart on wins only, whose deaths
        // rise without a mark, carries nothing.
        let w = c[0].without.as_mut().unwrap();
        w.win_change = 0.1;
        w.win_interval = [0.05, 0.15];
        w.death_change = 0.02;
        w.death_interval = [-0.03, 0.07];
        assert!(carry(&c[..2], "players", Lang::En).unwrap().starts_with("No one member carries the fight"));
    }
}
