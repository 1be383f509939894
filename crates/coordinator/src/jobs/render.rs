//! Reports of job results: aligned text tables and Markdown, from the
//! results JSON (so the same report comes from `pf1e run` and from the
//! database through `ctl results`).

use serde_json::Value;

/// Output style.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// Aligned plain-text columns.
    Text,
    /// Markdown tables.
    Markdown,
}

/// A table: header and rows of cells.
fn table(style: Style, headers: &[&str], rows: &[Vec<String>]) -> String {
    let mut out = String::new();
    match style {
        Style::Text => {
            let widths: Vec<usize> = (0..headers.len())
                .map(|i| {
                    rows.iter()
                        .map(|r| r.get(i).map_or(0, |c| c.chars().count()))
                        .max()
                        .unwrap_or(0)
                        .max(headers[i].chars().count())
                })
                .collect();
            let line = |cells: Vec<&str>| {
                let mut l = cells
                    .iter()
                    .zip(&widths)
                    .map(|(c, w)| format!("{c}{}", " ".repeat(w - c.chars().count())))
                    .collect::<Vec<_>>()
                    .join("  ");
                l.truncate(l.trim_end().len());
                l + "\n"
            };
            out += &line(headers.to_vec());
            out += &line(
                widths
                    .iter()
                    .map(|w| "-".repeat(*w))
                    .collect::<Vec<_>>()
                    .iter()
                    .map(String::as_str)
                    .collect(),
            );
            for r in rows {
                out += &line(r.iter().map(String::as_str).collect());
            }
        }
        Style::Markdown => {
            out += &format!("| {} |\n", headers.join(" | "));
            out += &format!("|{}|\n", headers.iter().map(|_| "---").collect::<Vec<_>>().join("|"));
            for r in rows {
                out += &format!(
                    "| {} |\n",
                    r.iter().map(|c| c.replace('|', "\\|")).collect::<Vec<_>>().join(" | ")
                );
            }
        }
    }
    out
}

fn pct(v: &Value) -> String {
    v.as_f64().map_or("-".into(), |x| format!("{:.1}%", x * 100.0))
}

fn num(v: &Value, digits: usize) -> String {
    v.as_f64().map_or("-".into(), |x| format!("{x:.digits$}"))
}

fn win(m: &Value) -> String {
    format!(
        "{} [{:.1}, {:.1}]",
        pct(&m["win_rate"]),
        m["win_band"][0].as_f64().unwrap_or(0.0) * 100.0,
        m["win_band"][1].as_f64().unwrap_or(0.0) * 100.0
    )
}

fn heading(style: Style, text: &str) -> String {
    match style {
        Style::Text => format!("{text}\n{}\n", "=".repeat(text.chars().count())),
        Style::Markdown => format!("## {text}\n\n"),
    }
}

fn s(v: &Value) -> &str {
    v.as_str().unwrap_or("?")
}

/// The playbook of an optimize job.
fn optimize(style: Style, r: &Value) -> String {
    let rows: Vec<Vec<String>> = r["playbook"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| {
            let p = &e["party"];
            let rank = e["rank"].to_string();
            vec![
                if e["tied_with_leader"] == true { format!("{rank}≈1") } else { rank },
                s(&e["strategy"]).to_string(),
                s(&e["stage"]).to_string(),
                e["runs"].to_string(),
                pct(&p["p_survives"]),
                pct(&p["p_tpk"]),
                pct(&p["p_any_death"]),
                num(&p["expected_hp_lost"], 1),
                num(&p["worst_decile_hp"], 1),
                num(&p["expected_rounds"], 1),
                win(p),
            ]
        })
        .collect();
    format!(
        "adversary: {}; {} runs spent; ≈1: statistically tied with the leader (3σ)\n\n{}",
        s(&r["adversary_strategy"]),
        r["spent_runs"],
        table(
            style,
            &[
                "Rank",
                "Strategy",
                "Stage",
                "Runs",
                "P(survive)",
                "P(TPK)",
                "P(>=1 death)",
                "HP lost",
                "Worst-decile HP",
                "Rounds",
                "Win% (3σ)"
            ],
            &rows
        )
    )
}

fn minmax(style: Style, r: &Value) -> String {
    let rows: Vec<Vec<String>> = r["iterations"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|it| {
            let (p, a) = (&it["party"], &it["adversary"]);
            vec![
                it["iteration"].to_string(),
                s(&it["party_strategy"]).into(),
                s(&it["adversary_strategy"]).into(),
                pct(&p["p_survives"]),
                pct(&p["p_tpk"]),
                num(&p["expected_hp_lost"], 1),
                pct(&a["p_survives"]),
                pct(&a["p_tpk"]),
                num(&a["expected_hp_lost"], 1),
            ]
        })
        .collect();
    let note =
        if r["converged"] == true { "converged: the last iteration kept the pair" } else { "not converged" };
    format!(
        "{note}\n\n{}",
        table(
            style,
            &[
                "Iter",
                "Party",
                "Adversary",
                "P(party-survive)",
                "P(party-TPK)",
                "Party-HP",
                "P(adv-survive)",
                "P(adv-TPK)",
                "Adv-HP"
            ],
            &rows
        )
    )
}

fn danger_map(style: Style, r: &Value) -> String {
    let layers = r["layers"].as_array().cloned().unwrap_or_default();
    if layers.len() <= 1 {
        return danger_layer(style, r);
    }
    let mut out = String::new();
    for (i, l) in layers.iter().enumerate() {
        let mut layer = r.clone();
        layer["points"] = l["points"].clone();
        out += &format!("layer {}: aware {} copies {}\n", i + 1, l["aware"], l["copies"]);
        out += &danger_layer(style, &layer);
        out += "\n";
    }
    out
}

fn danger_layer(style: Style, r: &Value) -> String {
    let points: Vec<&Value> = r["points"].as_array().into_iter().flatten().collect();
    let key = |v: &Value| (v.as_f64().unwrap_or(0.0) * 1e6).round() as i64;
    let mut ps: Vec<i64> = points.iter().map(|p| key(&p["party_hp"])).collect();
    let mut as_: Vec<i64> = points.iter().map(|p| key(&p["adversary_hp"])).collect();
    ps.sort_unstable();
    ps.dedup();
    as_.sort_unstable();
    as_.dedup();
    let headers: Vec<String> = std::iter::once("Party\\Adv".to_string())
        .chain(as_.iter().map(|a| format!("adv={}", *a as f64 / 1e6)))
        .collect();
    let rows: Vec<Vec<String>> = ps
        .iter()
        .rev()
        .map(|&p| {
            let mut row = vec![format!("party={}", p as f64 / 1e6)];
            for &a in &as_ {
                let cell = points.iter().find(|x| key(&x["party_hp"]) == p && key(&x["adversary_hp"]) == a);
                row.push(cell.map_or("·".into(), |c| {
                    format!(
                        "{}/{}{}",
                        pct(&c["party"]["p_survives"]),
                        pct(&c["adversary"]["p_survives"]),
                        if c["crossed"] == true { "!" } else { "" }
                    )
                }));
            }
            row
        })
        .collect();
    let h: Vec<&str> = headers.iter().map(String::as_str).collect();
    format!(
        "cells: party survive% / adversary survive%; ! = {} crossed {} (party {} vs adversary {}); · = not measured (refined elsewhere)\n\n{}",
        s(&r["criterion"]),
        r["threshold"],
        s(&r["party_strategy"]),
        s(&r["adversary_strategy"]),
        table(style, &h, &rows)
    )
}

fn frontier(style: Style, r: &Value) -> String {
    let c = s(&r["criterion"]);
    let line = match r["fraction"].as_f64() {
        Some(f) => {
            let side = match r["crossed"].as_str() {
                Some("at_or_below") => format!("crossed at party hp_fraction {f:.2} and below"),
                Some("at_or_above") => format!("crossed at party hp_fraction {f:.2} and above"),
                Some("everywhere") => "crossed over the whole range".to_string(),
                _ => format!("party hp_fraction = {f:.2}"),
            };
            format!("frontier {c} {}: {side}", r["target"])
        }
        None => format!(
            "no frontier for {c} {} in [{:.2}, {:.2}]",
            r["target"],
            r["min_fraction"].as_f64().unwrap_or(0.0),
            r["max_fraction"].as_f64().unwrap_or(0.0)
        ),
    };
    let rows: Vec<Vec<String>> = r["probes"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|p| {
            vec![
                num(&p["party_hp"], 3),
                num(&p["value"], 3),
                if p["crossed"] == true { "yes".into() } else { "no".into() },
            ]
        })
        .collect();
    let _ = style;
    format!("{line}\n\n{}", table(style, &["Party HP", c, "Crossed"], &rows))
}

fn sensitivity(style: Style, r: &Value) -> String {
    let c = s(&r["criterion"]);
    let prob = c != "expected_hp_lost";
    let fmt = |v: &Value, signed: bool| match (v.as_f64(), prob, signed) {
        (Some(x), true, true) => format!("{:+.1}%", x * 100.0),
        (Some(x), true, false) => format!("{:.1}%", x * 100.0),
        (Some(x), false, true) => format!("{x:+.1}"),
        (Some(x), false, false) => format!("{x:.1}"),
        (None, ..) => "-".into(),
    };
    let rows: Vec<Vec<String>> = r["levers"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|l| {
            vec![
                l["rank"].to_string(),
                s(&l["adversary_strategy"]).into(),
                fmt(&l["value"], false),
                fmt(&l["delta"], true),
            ]
        })
        .collect();
    format!(
        "party {}: {c} against the default adversary = {}\n\n{}",
        s(&r["party_strategy"]),
        fmt(&r["baseline"], false),
        table(style, &["Rank", "Levers", "Value", "Delta"], &rows)
    )
}

/// The report of one job, or `None` for kinds without their own layout.
pub fn job(style: Style, kind: &str, result: &Value) -> Option<String> {
    Some(match kind {
        "optimize" => optimize(style, result),
        "minmax" => minmax(style, result),
        "danger_map" => danger_map(style, result),
        "frontier" => frontier(style, result),
        "sensitivity" => sensitivity(style, result),
        _ => return None,
    })
}

/// The report of every analysis job of a results document.
pub fn report(style: Style, results: &Value) -> String {
    let mut out = String::new();
    if style == Style::Markdown {
        out += &format!(
            "# {}\n\nseed {}, party {}, rules {}\n\n",
            s(&results["name"]),
            results["seed"],
            s(&results["party"]),
            s(&results["rules_version"])
        );
    }
    for (i, j) in results["jobs"].as_array().into_iter().flatten().enumerate() {
        let kind = s(&j["kind"]);
        if let Some(body) = job(style, kind, &j["result"]) {
            out += &heading(style, &format!("job {} ({kind})", i + 1));
            out += &body;
            out += "\n";
        }
    }
    out
}
