//! The report of `pf1e day`: the answer first (does the party get through
//! the day, does someone die, where does the day break), then a row per
//! fight and per member.

use pf1e_engine::combat::event::Transcript;
use pf1e_engine::day::plan::PlanResult;
use pf1e_engine::day::summary::{DaySummary, Rate};
use pf1e_engine::day::{Day, DayEnd, DayOutcome};

use crate::i18n::{Lang, T};
use crate::table::{self, Align};
use crate::{events, transcript};

fn percent(rate: f64) -> String {
    format!("{:.1}%", rate * 100.0)
}

/// `62.0% (58.1–65.8%)`.
fn with_band(r: &Rate) -> String {
    format!("{} ({}–{})", percent(r.rate), percent(r.low), percent(r.high))
}

/// The name of the day as its file writes it, among its plans.
pub const AS_WRITTEN: &str = "as written";

/// A change in points, starred when told apart.
fn change(points: f64, significant: bool) -> String {
    let p = points * 100.0;
    let sign = if p < 0.0 { "−" } else { "+" };
    format!("{sign}{:.1}{}", p.abs(), if significant { "*" } else { "" })
}

/// The whole report.
pub fn report(s: &DaySummary, plans: &[PlanResult], seed: u64, lang: Lang) -> String {
    let mut out = String::new();
    out.push_str(&lang.f(T::DayTitle, &[&s.name]));
    out.push('\n');
    out.push_str(&lang.f(T::DayVerdict, &[&with_band(&s.completed), &with_band(&s.some_death)]));
    out.push('\n');
    match s.breaking_point {
        Some(e) => {
            let f = &s.fights[e];
            let deaths_of_all = f.deaths.count as f64 / s.runs.max(1) as f64;
            out.push_str(
                &lang.f(T::DayBreaks, &[&f.name, &percent(f.broke_here.rate), &percent(deaths_of_all)]),
            );
        }
        None => out.push_str(lang.t(T::DayNoBreak)),
    }
    out.push('\n');
    if s.fled.count > 0 {
        out.push_str(&lang.f(T::DayFled, &[&percent(s.fled.rate)]));
        out.push('\n');
    }
    if let Some(best) = plans.first().filter(|p| p.name != AS_WRITTEN && p.significant) {
        out.push_str(&lang.f(
            T::DayBestPlan,
            &[&best.name, &with_band(&best.completed), &change(best.completed_change, true)],
        ));
        out.push('\n');
    }
    out.push_str(&lang.f(T::DayRuns, &[&s.runs, &seed, &s.fights.len()]));
    out.push_str("\n\n");
    let headers = [
        T::DayColFight,
        T::DayColReached,
        T::DayColWon,
        T::DayColDeath,
        T::DayColEndsHere,
        T::DayColHpBefore,
        T::DayColSlotsBefore,
        T::DayColUsesBefore,
        T::DayColStanding,
        T::DayColRounds,
    ]
    .map(|h| lang.t(h));
    let mut aligns = vec![Align::Right; headers.len()];
    aligns[0] = Align::Left;
    let rows: Vec<Vec<String>> = s
        .fights
        .iter()
        .map(|f| {
            let reached = f.reached > 0;
            let cond = |v: String| if reached { v } else { "—".to_string() };
            vec![
                f.name.clone(),
                percent(f.reached as f64 / s.runs.max(1) as f64),
                cond(percent(f.won.rate)),
                cond(percent(f.deaths.rate)),
                percent(f.broke_here.rate),
                cond(percent(f.hp_before)),
                cond(format!("{:.1}", f.slots_before)),
                cond(format!("{:.1}", f.uses_before)),
                cond(format!("{:.2}", f.standing_before)),
                cond(format!("{:.1}", f.rounds)),
            ]
        })
        .collect();
    out.push_str(&table::render(&headers, &aligns, &rows));
    out.push('\n');
    let headers = [T::DayColMember, T::DayColDeadEnd, T::DayColHpEnd].map(|h| lang.t(h));
    let rows: Vec<Vec<String>> = s
        .members
        .iter()
        .map(|m| vec![m.name.clone(), with_band(&m.dead), format!("{:.1}", m.hp_end)])
        .collect();
    out.push_str(&table::render(&headers, &[Align::Left, Align::Right, Align::Right], &rows));
    out.push('\n');
    if !plans.is_empty() {
        let headers = [T::DayColPlan, T::DayColCompletes, T::DayColChange, T::DayColDeath, T::DayColChange]
            .map(|h| lang.t(h));
        let rows: Vec<Vec<String>> = plans
            .iter()
            .map(|p| {
                let base = p.name == AS_WRITTEN;
                let name = if base { lang.t(T::DayAsWritten).to_string() } else { p.name.clone() };
                let delta = |d: f64| if base { "—".to_string() } else { change(d, p.significant) };
                vec![
                    name,
                    with_band(&p.completed),
                    delta(p.completed_change),
                    with_band(&p.some_death),
                    delta(p.death_change),
                ]
            })
            .collect();
        let aligns = [Align::Left, Align::Right, Align::Right, Align::Right, Align::Right];
        out.push_str(&table::render(&headers, &aligns, &rows));
        out.push_str(lang.t(T::DayPlansNote));
        out.push_str("\n\n");
    }
    out.push_str(&lang.f(
        T::DayBetween,
        &[
            &format!("{:.1}", s.healed_between),
            &format!("{:.2}", s.slots_spent_between),
            &format!("{:.1}", s.charges_spent_between),
        ],
    ));
    out.push('\n');
    out
}

/// Day `run` fight by fight: each fight's events as `pf1e sim --transcript`
/// shows them, then what the party did after it, then how the day ended.
pub fn day_transcript(
    day: &Day,
    outcome: &DayOutcome,
    transcripts: &[Transcript],
    run: u64,
    lang: Lang,
) -> String {
    let mut out = lang.f(T::DayTranscriptTitle, &[&run]);
    out.push('\n');
    for (fight, t) in outcome.fights.iter().zip(transcripts) {
        let name = &day.encounters[fight.encounter].name;
        out.push_str(
            &lang.f(
                T::DayTranscriptFight,
                &[name, &fight.before.hp, &fight.before.hp_max, &fight.before.slots],
            ),
        );
        out.push('\n');
        // The fight's own heading replaces the table's title line.
        let table = transcript::render_table(&events::rows(t, lang), lang);
        out.push_str(table.split_once('\n').map_or(table.as_str(), |(_, rest)| rest));
        let a = &fight.aid;
        if a.stabilized + a.died + a.slots_spent > 0 {
            out.push_str(&lang.f(T::DayTranscriptAid, &[&a.stabilized, &a.died, &a.slots_spent]));
            out.push('\n');
        }
        out.push('\n');
    }
    let end = match outcome.end {
        DayEnd::Completed => lang.t(T::DayEndCompleted).to_string(),
        DayEnd::Fled { .. } => lang.t(T::DayEndFled).to_string(),
        DayEnd::Defeated { encounter } => lang.f(T::DayEndDefeated, &[&day.encounters[encounter].name]),
    };
    out.push_str(&lang.f(T::DayTranscriptEnd, &[&end, &outcome.dead(), &outcome.rests.healed]));
    out.push_str("\n\n");
    out
}
