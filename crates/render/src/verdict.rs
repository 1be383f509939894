//! The verdict: one paragraph at the top of a sweep's report that says
//! what the fight is (map, combatants, CR against APL), how it goes with
//! both sides' default plans, what the best plan changes, and the riskiest
//! condition the danger maps found. Every figure comes from the typed
//! results; a part whose job the sweep did not run is left out.

use pf1e_engine::party::Simulated;
use pf1e_engine::report::Report;
use pf1e_wire::results::{DangerMapResult, Difficulty, JobResult, OptimizeResult, SweepResults};

use super::difficulty::label;
use super::strategy;
use super::words::{criterion_value, criterion_words, layer_words};
use crate::i18n::{Lang, T};

fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

/// Ids grouped by their name (`goblin`, `goblin-2` → `3 goblin`), in order.
pub fn headcount(ids: &[String]) -> String {
    let mut groups: Vec<(&str, usize)> = Vec::new();
    for id in ids {
        let base = match id.rsplit_once('-') {
            Some((base, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => base,
            _ => id.as_str(),
        };
        match groups.iter_mut().find(|(b, _)| *b == base) {
            Some((_, n)) => *n += 1,
            None => groups.push((base, 1)),
        }
    }
    groups
        .iter()
        .map(|(b, n)| if *n == 1 { (*b).to_string() } else { format!("{n} {b}") })
        .collect::<Vec<_>>()
        .join(", ")
}

fn fight(results: &SweepResults, lang: Lang) -> Option<String> {
    let d = results.difficulty.as_ref()?;
    let map = if results.map.is_empty() {
        results.scenario.chars().take(12).collect()
    } else {
        results.map.clone()
    };
    Some(fight_of(d, &map, lang))
}

/// The fight in one sentence: map, party, foes, CR against APL.
fn fight_of(d: &Difficulty, map: &str, lang: Lang) -> String {
    let foes: Vec<String> = d.foes.iter().map(|f| f.id.clone()).collect();
    let (party, members, foes) = (&d.party, headcount(&d.members), headcount(&foes));
    match (&d.cr, d.label) {
        (Some(cr), Some(l)) => {
            lang.f(T::VerdictFight, &[&map, party, &members, &foes, &label(l, lang), cr, &d.apl])
        }
        _ => lang.f(T::VerdictFightNoCr, &[&map, party, &members, &foes, &d.apl]),
    }
}

/// The verdict of `pf1e sim`, one paragraph (no newline): the fight, how it
/// goes (by the default plans, or the strategies `--strategy` named), who
/// carries it when measured.
/// `None` without the party's difficulty.
pub fn sim(report: &Report, lang: Lang) -> Option<String> {
    let party = report.party.as_ref()?;
    let s = &party.simulated;
    let parts = [
        Some(fight_of(&party.book, &report.map, lang)),
        Some(match &report.strategies {
            None => lang.f(
                T::VerdictDefault,
                &[&pct(s.p_win), &report.runs, &pct(s.p_pc_dies), &down_or_fled(s, lang)],
            ),
            Some(played) => lang.f(
                T::VerdictStrategies,
                &[
                    &played.party,
                    &played.adversary,
                    &pct(s.p_win),
                    &report.runs,
                    &pct(s.p_pc_dies),
                    &down_or_fled(s, lang),
                ],
            ),
        }),
        super::contribution::carry(&report.contribution, &party.book.party, lang),
    ];
    Some(parts.into_iter().flatten().collect::<Vec<_>>().join(" "))
}

fn default_play(results: &SweepResults, lang: Lang) -> Option<String> {
    let b = results.measure_baseline()?;
    let f = &b.figures;
    Some(lang.f(T::VerdictDefault, &[&pct(f.p_win), &b.runs, &pct(f.p_pc_dies), &down_or_fled(f, lang)]))
}

/// "everyone is down in"'s figure, then how often the party fled when it
/// ever did (shown only when not zero, as the day report does).
fn down_or_fled(s: &Simulated, lang: Lang) -> String {
    let mut out = pct(s.p_all_down);
    if s.p_fled > 0.0 {
        out += &lang.f(T::VerdictFled, &[&pct(s.p_fled)]);
    }
    out
}

fn best_plan(r: &OptimizeResult, lang: Lang) -> Option<String> {
    let lead = r.playbook.first()?;
    let against = strategy::named(&r.adversary_strategy, lang);
    let named = strategy::named(&lead.strategy, lang);
    if r.none_survives || r.playbook.iter().all(|e| e.party.runs > 0 && e.party.p_survives == 0.0) {
        // The job's least bad plan when it named one, else its first.
        let least =
            r.least_bad.as_ref().and_then(|n| r.playbook.iter().find(|e| &e.strategy == n)).unwrap_or(lead);
        let named = strategy::named(&least.strategy, lang);
        return Some(lang.f(T::VerdictNoPlan, &[&against, &named, &pct(least.party.win_rate)]));
    }
    let default = r.playbook.iter().find(|e| e.strategy == "default");
    Some(match default {
        Some(d) if d.strategy != lead.strategy => {
            lang.f(T::VerdictBest, &[&against, &named, &pct(lead.party.p_survives), &pct(d.party.p_survives)])
        }
        _ => lang.f(T::VerdictBestAlone, &[&against, &named, &pct(lead.party.p_survives)]),
    })
}

/// The danger of a value: growing with it, survival reversed.
fn danger(r: &DangerMapResult, v: f64) -> f64 {
    if r.criterion.higher_is_better() { 1.0 - v } else { v }
}

fn riskiest(results: &SweepResults, lang: Lang) -> Option<String> {
    let (r, layer, point) = results
        .jobs
        .iter()
        .filter_map(|j| match &j.result {
            JobResult::DangerMap(r) => Some(r),
            _ => None,
        })
        .flat_map(|r| r.layers.iter().flat_map(move |l| l.points.iter().map(move |p| (r, l, p))))
        .max_by(|a, b| danger(a.0, a.2.value).total_cmp(&danger(b.0, b.2.value)))?;
    let extra = layer_words(lang, layer);
    let extra = if layer.aware.is_empty() && layer.copies.values().all(Vec::is_empty) {
        String::new()
    } else {
        format!(", {extra}")
    };
    Some(lang.f(
        T::VerdictRisk,
        &[
            &format!("{:.0}%", point.party_hp * 100.0),
            &format!("{:.0}%", point.adversary_hp * 100.0),
            &extra,
            &criterion_words(lang, r.criterion),
            &criterion_value(r.criterion, point.value),
        ],
    ))
}

/// The verdict of a sweep, one paragraph (no newline); `None` when the
/// results say nothing it could use (an older document).
pub fn sweep(results: &SweepResults, lang: Lang) -> Option<String> {
    let best = results.jobs.iter().find_map(|j| match &j.result {
        JobResult::Optimize(r) => best_plan(r, lang),
        _ => None,
    });
    let carry = results.jobs.iter().find_map(|j| match &j.result {
        JobResult::Contribution(r) => super::contribution::carry(&r.combatants, &results.party, lang),
        _ => None,
    });
    let design = results.jobs.iter().find_map(|j| match &j.result {
        JobResult::Design(r) => Some(super::design::answer(r, lang)),
        _ => None,
    });
    let parts: Vec<String> =
        [fight(results, lang), default_play(results, lang), best, carry, riskiest(results, lang), design]
            .into_iter()
            .flatten()
            .collect();
    (!parts.is_empty()).then(|| parts.join(" "))
}

#[cfg(test)]
mod tests {
    use pf1e_wire::results::PlaybookEntry;

    use crate::fixtures::{entry, results};

    use super::*;

    fn surviving() -> Vec<PlaybookEntry> {
        vec![entry(1, "weakest_ac, retreat=0.5", 0.91, 0.8), entry(2, "default", 0.82, 0.7)]
    }

    #[test]
    fn the_verdict_in_english() {
        assert_eq!(
            sweep(&results(surviving()), Lang::En).unwrap(),
            "Arène d'essai: players (3 goblin) against 2 orc; by the book average (CR 1/2 against APL 0). \
             With both sides' default plans the party wins 68.5% of 400 battles; a PC dies in 12.0%, everyone is down in 29.0%. \
             Best plan against focus the most wounded (`lowest_hp`): focus the weakest armour; fall back below 50% of hit points \
             (`weakest_ac, retreat=0.5`), P(no PC dies) 91.0% (the default play: 82.0%). \
             Riskiest condition found: the party at 25% of its HP, the adversary at 100%: P(a PC dies) 62.0%."
        );
    }

    #[test]
    fn the_verdict_in_french() {
        assert_eq!(
            sweep(&results(surviving()), Lang::Fr).unwrap(),
            "Arène d'essai : players (3 goblin) contre 2 orc ; selon le livre moyenne (FP 1/2 contre NMG 0). \
             Avec les plans par défaut des deux camps, le groupe gagne 68.5% des 400 combats ; un PJ meurt dans 12.0%, tous sont à terre dans 29.0%. \
             Meilleur plan contre viser le plus blessé (`lowest_hp`) : viser l'armure la plus faible ; se replier sous 50% des points de vie \
             (`weakest_ac, retreat=0.5`), P(aucun PJ ne meurt) 91.0% (le jeu par défaut : 82.0%). \
             Condition la plus risquée trouvée : le groupe à 25% de ses PV, l'adversaire à 100% : P(un PJ meurt) 62.0%."
        );
    }

    #[test]
    fn the_verdict_says_how_often_the_party_fled_when_it_did() {
        let mut r = results(surviving());
        r.jobs[0].cells[0].party_fled_rate = 0.05;
        let en = sweep(&r, Lang::En).unwrap();
        assert!(en.contains("everyone is down in 29.0%, the party fled in 5.0%."), "{en}");
        let fr = sweep(&r, Lang::Fr).unwrap();
        assert!(fr.contains("tous sont à terre dans 29.0%, le groupe a fui dans 5.0%."), "{fr}");
    }

    #[test]
    fn when_no_plan_survives_the_verdict_names_the_least_bad() {
        let none = vec![entry(1, "use_class_abilities=false", 0.0, 0.17), entry(2, "default", 0.0, 0.12)];
        let en = sweep(&results(none.clone()), Lang::En).unwrap();
        assert!(
            en.contains(
                "Against focus the most wounded (`lowest_hp`) no plan survives: a PC dies in every battle; \
                 the least bad plan is no class abilities (`use_class_abilities=false`) (P(win) 17.0%)."
            ),
            "{en}"
        );
        let fr = sweep(&results(none), Lang::Fr).unwrap();
        assert!(
            fr.contains(
                "Contre viser le plus blessé (`lowest_hp`), aucun plan ne sauve tout le monde : un PJ meurt dans chaque combat ; \
                 le plan le moins mauvais est aucune capacité de classe (`use_class_abilities=false`) (P(victoire) 17.0%)."
            ),
            "{fr}"
        );
    }

    #[test]
    fn the_verdict_names_the_least_bad_plan_the_job_named() {
        let none = vec![entry(1, "use_class_abilities=false", 0.0, 0.17), entry(2, "default", 0.0, 0.12)];
        let mut r = results(none);
        for j in &mut r.jobs {
            if let JobResult::Optimize(o) = &mut j.result {
                o.none_survives = true;
                o.least_bad = Some("default".into());
            }
        }
        let en = sweep(&r, Lang::En).unwrap();
        assert!(en.contains("the least bad plan is the default play (`default`) (P(win) 12.0%)."), "{en}");
    }

    #[test]
    fn ids_are_counted_by_name() {
        let ids: Vec<String> = ["goblin", "goblin-2", "orc", "goblin-3", "half-orc"].map(String::from).into();
        assert_eq!(headcount(&ids), "3 goblin, orc, half-orc");
    }
}
