//! The design job's report: the proposals that hit the target band, each
//! with its metrics and intervals, its CR and XP by the book and the gap
//! between the book's label and the simulation's, and the monster files of
//! each proposal ready for `pf1e sim`. A leaf of `render`: the verdict
//! reads its answer line.

use pf1e_wire::results::{DesignCandidate, DesignMetric, DesignResult, TargetBand};

use super::difficulty::label;
use super::layout::{Style, View, table};
use crate::i18n::{Lang, T};

fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

/// A value and its interval: `23.5% [15.1, 33.8]`.
fn with_interval(v: f64, (lo, hi): (f64, f64)) -> String {
    format!("{} [{:.1}, {:.1}]", pct(v), lo * 100.0, hi * 100.0)
}

/// A metric's words.
fn metric_words(lang: Lang, m: DesignMetric) -> &'static str {
    lang.t(match m {
        DesignMetric::PSomePcDies => T::CritPcDies,
        DesignMetric::PTpk => T::CritEveryoneDown,
        DesignMetric::HpLost => T::ColHpLostShare,
        DesignMetric::PWin => T::ColWinShort,
    })
}

/// The target in words: `P(a PC dies) 20–40%, P(everyone down) ≤ 2%`.
pub fn target_words(lang: Lang, target: &[TargetBand]) -> String {
    let one = |b: &TargetBand| {
        let name = metric_words(lang, b.metric);
        let p = |x: f64| format!("{:.0}%", x * 100.0);
        if b.low <= 0.0 {
            format!("{name} ≤ {}", p(b.high))
        } else if b.high >= 1.0 {
            format!("{name} ≥ {}", p(b.low))
        } else {
            format!("{name} {}–{}", p(b.low).trim_end_matches('%'), p(b.high))
        }
    };
    target.iter().map(one).collect::<Vec<_>>().join(", ")
}

/// A group in words: `2 ghoul, skeleton` (at 75 % HP when refined).
pub fn group_words(c: &DesignCandidate, lang: Lang) -> String {
    let mut out = c
        .members
        .iter()
        .map(|m| if m.count > 1 { format!("{} {}", m.count, m.id) } else { m.id.clone() })
        .collect::<Vec<_>>()
        .join(", ");
    if c.hp_fraction < 1.0 {
        out += &format!(" ({})", lang.f(T::DesignAtHp, &[&format!("{:.0}%", c.hp_fraction * 100.0)]));
    }
    out
}

/// The book against the simulation: `CR 5, 1,600 XP; the book says hard, the simulation says epic`.
pub fn gap_words(c: &DesignCandidate, lang: Lang) -> String {
    let sim = label(c.simulated, lang);
    let words = match c.book {
        Some(b) if b == c.simulated => lang.f(T::DesignSame, &[&sim]),
        Some(b) => lang.f(T::DesignGap, &[&label(b, lang), &sim]),
        None => lang.f(T::DesignNoCr, &[&sim]),
    };
    match &c.cr {
        Some(cr) => format!("CR {cr}, {} XP; {words}", c.xp),
        None => format!("{} XP; {words}", c.xp),
    }
}

/// The answer line.
pub fn answer(r: &DesignResult, lang: Lang) -> String {
    let target = target_words(lang, &r.target);
    let proposals = r.candidates.iter().filter(|c| c.rank > 0).count();
    match (proposals, r.candidates.first()) {
        (_, None) => lang.t(T::DesignNothing).to_string(),
        (0, Some(c)) => lang.f(T::DesignNone, &[&target, &r.apl, &group_words(c, lang), &gap_words(c, lang)]),
        (1, Some(c)) => {
            lang.f(T::DesignAnswerOne, &[&target, &r.apl, &group_words(c, lang), &gap_words(c, lang)])
        }
        (n, Some(c)) => {
            lang.f(T::DesignAnswer, &[&n, &target, &r.apl, &group_words(c, lang), &gap_words(c, lang)])
        }
    }
}

fn status(c: &DesignCandidate, lang: Lang) -> &'static str {
    lang.t(if c.confirmed {
        T::DesignConfirmed
    } else if c.inside {
        T::DesignInside
    } else if c.dropped {
        T::DesignDropped
    } else {
        T::DesignOutside
    })
}

/// A change in points: `−8.0`, `+1.5`.
fn points(x: f64) -> String {
    let p = x * 100.0;
    if p < 0.0 { format!("−{:.1}", -p) } else { format!("+{p:.1}") }
}

/// A proposal's party plan and battle worth reading, each as words and,
/// for the battle, the command that replays it.
fn proposal_lines(c: &DesignCandidate, lang: Lang) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    if let Some(p) = &c.plan {
        let risk =
            with_interval(p.p_some_pc_dies, (p.p_some_pc_dies_interval[0], p.p_some_pc_dies_interval[1]));
        let words = if p.better {
            let told = if p.told_apart { lang.t(T::DesignToldApart) } else { "" };
            lang.f(
                T::DesignPlanBetter,
                &[
                    &p.strategy,
                    &risk,
                    &points(p.change),
                    &points(p.change_interval[0]),
                    &points(p.change_interval[1]),
                    &told,
                    &p.measured,
                ],
            )
        } else {
            lang.f(T::DesignPlanOwn, &[&p.strategy, &risk, &p.measured])
        };
        out.push((words, None));
    }
    if let Some(b) = &c.worth_reading {
        let what = if b.all_down {
            lang.t(T::DesignWorthWipe)
        } else if b.some_death {
            lang.t(T::DesignWorthDeath)
        } else {
            ""
        };
        let words = lang.f(T::DesignWorth, &[&b.run, &b.runs, &b.hp_lost, &what]);
        out.push((words, (!b.command.is_empty()).then(|| b.command.clone())));
    }
    out
}

/// The book's labels against the simulation over every measured candidate:
/// a row per label of the book met, with the candidates, the median and the
/// range of their P(a PC dies) and how many of them each simulated label
/// holds. Racing measures the dropped with fewer runs: their estimates are
/// noisier, not biased.
pub fn calibration_rows(r: &DesignResult, lang: Lang) -> Vec<Vec<String>> {
    use pf1e_wire::results::DifficultyLabel as L;
    const LABELS: [L; 5] = [L::Easy, L::Average, L::Challenging, L::Hard, L::Epic];
    LABELS
        .iter()
        .filter_map(|&book| {
            let mut p: Vec<f64> =
                r.candidates.iter().filter(|c| c.book == Some(book)).map(|c| c.party.p_any_death).collect();
            if p.is_empty() {
                return None;
            }
            p.sort_by(f64::total_cmp);
            let n = p.len();
            let median = if n % 2 == 1 { p[n / 2] } else { (p[n / 2 - 1] + p[n / 2]) / 2.0 };
            let says = LABELS
                .iter()
                .filter_map(|&sim| {
                    let k =
                        r.candidates.iter().filter(|c| c.book == Some(book) && c.simulated == sim).count();
                    (k > 0).then(|| format!("{} {k}", label(sim, lang)))
                })
                .collect::<Vec<_>>()
                .join(", ");
            Some(vec![
                label(book, lang).to_string(),
                n.to_string(),
                pct(median),
                format!("{} – {}", pct(p[0]), pct(p[n - 1])),
                says,
            ])
        })
        .collect()
}

fn signed(n: i32) -> String {
    if n >= 0 { format!("+{n}") } else { format!("−{}", n.unsigned_abs()) }
}

/// The whole report of a design job.
pub fn report(view: &View, r: &DesignResult) -> String {
    let lang = view.lang;
    let headers = [
        T::ColRank,
        T::ColMonsters,
        T::ColCrXp,
        T::ColBook,
        T::ColSimulated,
        T::CritPcDies,
        T::CritEveryoneDown,
        T::ColHpLostShare,
        T::ColRuns,
        T::ColStatus,
    ]
    .map(|t| lang.t(t).to_string());
    let rows: Vec<Vec<String>> = r
        .candidates
        .iter()
        .map(|c| {
            let m = &c.party;
            vec![
                if c.rank > 0 { c.rank.to_string() } else { "-".into() },
                group_words(c, lang),
                format!("{} ({})", c.cr.as_deref().unwrap_or("-"), c.xp),
                c.book.map_or_else(|| "-".to_string(), |b| label(b, lang).to_string()),
                label(c.simulated, lang).to_string(),
                with_interval(m.p_any_death, m.p_any_death_ci),
                with_interval(m.p_tpk, m.p_tpk_ci),
                with_interval(c.hp_lost_share, (c.hp_lost_share_interval[0], c.hp_lost_share_interval[1])),
                m.runs.to_string(),
                status(c, lang).to_string(),
            ]
        })
        .collect();
    let search = lang.f(
        T::DesignSearch,
        &[
            &r.pool.len(),
            &r.groups_in_window,
            &signed(r.window[0]),
            &signed(r.window[1]),
            &r.candidates.len(),
            &format!("{:.2}%", r.confidence * 100.0),
        ],
    );
    let mut files = format!("{}\n", lang.t(T::DesignFiles));
    for c in r.candidates.iter().filter(|c| c.rank > 0) {
        let line = format!("#{}: {}", c.rank, c.files.join(" "));
        files += &match view.style {
            Style::Text => format!("  {line}\n"),
            Style::Markdown => format!("- `{line}`\n"),
        };
        for (words, code) in proposal_lines(c, lang) {
            files += &match (view.style, code) {
                (Style::Text, None) => format!("    {words}\n"),
                (Style::Text, Some(code)) => format!("    {words}\n      {code}\n"),
                (Style::Markdown, None) => format!("  - {words}\n"),
                (Style::Markdown, Some(code)) => format!("  - {words}\n    `{code}`\n"),
            };
        }
    }
    let answer = answer(r, lang);
    let answer = match view.style {
        Style::Text => answer,
        Style::Markdown => format!("**{answer}**"),
    };
    let calibration = calibration_rows(r, lang);
    let calibration = if calibration.is_empty() {
        String::new()
    } else {
        let headers = [T::ColBook, T::ColCandidates, T::ColMedianPcDies, T::ColRange, T::ColSimulationSays]
            .map(|t| lang.t(t).to_string());
        format!("\n{}\n{}", lang.t(T::DesignCalibration), table(view, &headers, &calibration))
    };
    format!("{answer}\n{search}\n\n{}\n{files}{calibration}", table(view, &headers, &rows))
}

#[cfg(test)]
mod tests {
    use pf1e_wire::results::{DangerMetrics, DesignBattle, DesignMember, DesignPlan, DifficultyLabel};

    use super::*;

    fn candidate(rank: u64, book: DifficultyLabel, simulated: DifficultyLabel) -> DesignCandidate {
        DesignCandidate {
            rank,
            inside: rank > 0,
            confirmed: false,
            dropped: rank == 0,
            misses: vec![],
            members: vec![DesignMember {
                file: "../monsters/ghoul.json".into(),
                id: "ghoul".into(),
                count: 2,
                cr: "1".into(),
            }],
            files: vec!["../monsters/ghoul.json".into(); 2],
            hp_fraction: 0.75,
            xp: 800,
            cr: Some("3".into()),
            cr_minus_apl: Some(-1),
            book: Some(book),
            simulated,
            party: DangerMetrics {
                runs: 80,
                p_any_death: 0.25,
                p_any_death_ci: (0.12, 0.41),
                ..DangerMetrics::default()
            },
            hp_lost_share: 0.5,
            hp_lost_share_interval: [0.4, 0.6],
            worth_reading: None,
            plan: None,
        }
    }

    #[test]
    fn the_answer_names_the_best_proposal_and_the_gap_between_book_and_simulation() {
        let r = DesignResult {
            party: "players".into(),
            side: "monsters".into(),
            apl: 4,
            target: vec![
                TargetBand { metric: DesignMetric::PSomePcDies, low: 0.2, high: 0.4 },
                TargetBand { metric: DesignMetric::PTpk, low: 0.0, high: 0.02 },
            ],
            label: None,
            window: [-1, 4],
            pool: vec!["../monsters/ghoul.json".into()],
            groups_in_window: 3,
            confidence: 0.9973,
            candidates: vec![
                candidate(1, DifficultyLabel::Easy, DifficultyLabel::Hard),
                candidate(2, DifficultyLabel::Hard, DifficultyLabel::Hard),
                candidate(0, DifficultyLabel::Hard, DifficultyLabel::Epic),
            ],
        };
        let a = answer(&r, Lang::En);
        assert_eq!(
            a,
            "2 encounters hit the target (P(a PC dies) 20–40%, P(everyone down) ≤ 2%) for APL 4; the best: 2 ghoul (at 75% HP) — CR 3, 800 XP; the book says easy, the simulation says hard."
        );
        let text = report(&View { lang: Lang::En, style: Style::Markdown, width: 200, top: 10 }, &r);
        assert!(text.contains("- `#2: ../monsters/ghoul.json ../monsters/ghoul.json`"), "{text}");
        assert!(text.contains("25.0% [12.0, 41.0]"), "{text}");
        assert!(text.contains("APL−1 to APL+4"), "{text}");
        assert!(!text.contains("#3"), "a candidate outside the band is no proposal");
        let fr = answer(&r, Lang::Fr);
        assert!(fr.contains("le livre dit facile, la simulation dit très difficile"), "{fr}");
    }

    #[test]
    fn the_calibration_table_sets_the_books_labels_against_the_simulation() {
        let at = |book, simulated, p| {
            let mut c = candidate(0, book, simulated);
            c.party.p_any_death = p;
            c
        };
        let r = DesignResult {
            party: "players".into(),
            side: "monsters".into(),
            apl: 4,
            target: vec![TargetBand { metric: DesignMetric::PSomePcDies, low: 0.2, high: 0.4 }],
            label: None,
            window: [-1, 4],
            pool: vec![],
            groups_in_window: 3,
            confidence: 0.9973,
            candidates: vec![
                at(DifficultyLabel::Epic, DifficultyLabel::Hard, 0.3),
                at(DifficultyLabel::Easy, DifficultyLabel::Easy, 0.0),
                at(DifficultyLabel::Epic, DifficultyLabel::Average, 0.05),
                at(DifficultyLabel::Epic, DifficultyLabel::Hard, 0.25),
                at(DifficultyLabel::Easy, DifficultyLabel::Easy, 0.01),
            ],
        };
        let rows = calibration_rows(&r, Lang::En);
        // Book order; the median of an even count is the mean of the middle two.
        assert_eq!(rows[0], ["easy", "2", "0.5%", "0.0% – 1.0%", "easy 2"]);
        assert_eq!(rows[1], ["epic", "3", "25.0%", "5.0% – 30.0%", "average 1, hard 2"]);
        assert_eq!(rows.len(), 2, "labels the book never gave have no row");
        let text = report(&View { lang: Lang::En, style: Style::Text, width: 200, top: 10 }, &r);
        assert!(text.contains("The book's labels against the simulation"), "{text}");
    }

    #[test]
    fn each_proposal_shows_its_party_plan_and_the_command_of_its_battle_worth_reading() {
        let mut c = candidate(1, DifficultyLabel::Hard, DifficultyLabel::Hard);
        c.plan = Some(DesignPlan {
            strategy: "retreat=0.5".into(),
            better: true,
            p_some_pc_dies: 0.12,
            p_some_pc_dies_interval: [0.06, 0.2],
            change: -0.13,
            change_interval: [-0.2, -0.06],
            told_apart: true,
            measured: 9,
        });
        c.worth_reading = Some(DesignBattle {
            run: 17,
            runs: 160,
            hp_lost: 61,
            some_death: true,
            all_down: false,
            command: "pf1e sim --show run 17".into(),
        });
        let mut own = candidate(2, DifficultyLabel::Hard, DifficultyLabel::Hard);
        own.plan = Some(DesignPlan {
            strategy: "default".into(),
            better: false,
            told_apart: false,
            ..c.plan.clone().unwrap()
        });
        let r = DesignResult {
            party: "players".into(),
            side: "monsters".into(),
            apl: 4,
            target: vec![TargetBand { metric: DesignMetric::PSomePcDies, low: 0.2, high: 0.4 }],
            label: None,
            window: [1, 3],
            pool: vec!["../monsters/ghoul.json".into()],
            groups_in_window: 3,
            confidence: 0.9973,
            candidates: vec![c, own],
        };
        let text = report(&View { lang: Lang::En, style: Style::Text, width: 200, top: 10 }, &r);
        assert!(
            text.contains("    best party plan: retreat=0.5, P(a PC dies) 12.0% [6.0, 20.0], −13.0 points against the party's own play [−20.0, −6.0], told apart (9 plans measured)\n"),
            "{text}"
        );
        assert!(
            text.contains("    battle worth reading: run 17 of 160 (the worst decile: 61 HP lost, a PC died):\n      pf1e sim --show run 17\n"),
            "{text}"
        );
        assert!(
            text.contains("best party plan: its own (default), P(a PC dies) 12.0% [6.0, 20.0]; none of 9"),
            "{text}"
        );
        let md = report(&View { lang: Lang::Fr, style: Style::Markdown, width: 200, top: 10 }, &r);
        assert!(
            md.contains("  - combat à lire : partie 17 sur 160")
                && md.contains("    `pf1e sim --show run 17`"),
            "{md}"
        );
    }
}
