//! The day file (`data/days/*.yaml`, format in `docs/days.md`): parsed from
//! its contents, with the paths it names left for the caller to read
//! (relative to the day file). Every error names the file, and the line or
//! the step where it can.

use serde::Deserialize;

use super::{Choice, Condition};
use crate::combat::RestSpending;

/// Why a day file was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}: {}{message}", line.map(|l| format!("line {l}: ")).unwrap_or_default())]
pub struct DayFileError {
    /// The day file.
    pub file: String,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

/// The party: its side in every map's deployment and its files.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PartyFile {
    /// Side name in the maps' deployment.
    #[serde(default = "default_party_side")]
    pub side: String,
    /// Combatant files, in order.
    pub combatants: Vec<String>,
}

fn default_party_side() -> String {
    "players".to_string()
}

fn default_foe_side() -> String {
    "monsters".to_string()
}

/// One fight as written.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EncounterFile {
    /// Its name in reports.
    pub name: String,
    /// The map file.
    pub map: String,
    /// The foes' side in the map's deployment.
    #[serde(default = "default_foe_side")]
    pub side: String,
    /// The foes' combatant files, in order.
    pub combatants: Vec<String>,
    /// The time that passes after the fight before the next step (`"1
    /// minute"`, `"30 rounds"`, `"2 hours"`; default [`DEFAULT_AFTER`]).
    #[serde(default)]
    pub after: Option<String>,
}

/// The time after a fight when the file does not say (first aid, catching
/// one's breath, the walk to what comes next): one minute.
pub const DEFAULT_AFTER: &str = "1 minute";

/// The rounds in a duration as written: a whole number and a unit (`round`,
/// `minute`, `hour`, singular or plural; a round is 6 seconds, CRB
/// "Duration"), at most 24 hours.
pub fn parse_duration(text: &str) -> Result<u32, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let [n, unit] = words[..] else {
        return Err(format!(
            "{text:?} is not a duration like \"10 minutes\" (a number and round, minute or hour)"
        ));
    };
    let n: u32 = n.parse().map_err(|_| format!("{text:?}: {n:?} is not a whole number"))?;
    let per = match unit.trim_end_matches('s') {
        "round" => 1,
        "minute" => crate::combat::ROUNDS_PER_MINUTE,
        "hour" => 60 * crate::combat::ROUNDS_PER_MINUTE,
        _ => return Err(format!("{text:?}: the unit is round, minute or hour, not {unit:?}")),
    };
    match n.checked_mul(per) {
        Some(r) if r <= 24 * 600 => Ok(r),
        _ => Err(format!("{text:?} is longer than a day")),
    }
}

/// A short rest as written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
struct ShortRestFile {
    #[serde(default)]
    spend: RestSpending,
}

/// A long rest as written (no option yet).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
struct LongRestFile {}

/// A branch's condition as written: exactly one key.
#[derive(Clone, Copy, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
struct ConditionFile {
    party_hp_below: Option<f64>,
    anyone_down: Option<bool>,
    slots_below: Option<f64>,
}

/// A branch's choice as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
enum ChoiceFile {
    ShortRest,
    LongRest,
    Flee,
}

/// One step as written: exactly one of its kinds (`if` goes with `then`).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
struct StepFile {
    encounter: Option<EncounterFile>,
    short_rest: Option<ShortRestFile>,
    long_rest: Option<LongRestFile>,
    /// Time that passes (`wait: 20 minutes`).
    wait: Option<String>,
    #[serde(rename = "if")]
    when: Option<ConditionFile>,
    then: Option<ChoiceFile>,
}

/// A plan as written: changes to the day, compared with the day as written.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlanFile {
    /// Its name in reports.
    pub name: String,
    /// Encounters (by name) before which the party takes a night's rest.
    #[serde(default)]
    pub long_rest_before: Vec<String>,
    /// What every short rest spends.
    #[serde(default)]
    pub spend: Option<RestSpending>,
    /// Encounters (by name) the party avoids.
    #[serde(default)]
    pub skip: Vec<String>,
    /// Encounters (by name) the party saves its spells for: its casters cast
    /// nothing in the fights before the first of them.
    #[serde(default)]
    pub save_slots_for: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    name: String,
    #[serde(default)]
    seed: u64,
    #[serde(default = "default_runs")]
    runs: u64,
    #[serde(default)]
    round_cap: Option<u32>,
    party: PartyFile,
    steps: Vec<StepFile>,
    #[serde(default)]
    plans: Vec<PlanFile>,
}

fn default_runs() -> u64 {
    1000
}

/// A step of a day file, checked.
#[derive(Clone, Debug, PartialEq)]
pub enum StepSpec {
    /// A fight.
    Encounter(EncounterFile),
    /// A short rest.
    ShortRest(RestSpending),
    /// A night's rest.
    LongRest,
    /// Rounds that pass (an encounter's `after`, a `wait`).
    Pass(u32),
    /// A choice made when the condition holds.
    Branch(Condition, Choice),
}

/// A day file, checked; paths as written.
#[derive(Clone, Debug, PartialEq)]
pub struct DayFile {
    /// The day's name.
    pub name: String,
    /// Seed of the runs.
    pub seed: u64,
    /// Days to play.
    pub runs: u64,
    /// Rounds after which a fight is a draw (the engine's default when absent).
    pub round_cap: Option<u32>,
    /// The party.
    pub party: PartyFile,
    /// The steps, in order.
    pub steps: Vec<StepSpec>,
    /// Plans to compare with the day as written (encounter names checked).
    pub plans: Vec<PlanFile>,
}

/// The most days one file may ask for (a day keeps a record per fight).
pub const MAX_RUNS: u64 = 1_000_000;

impl DayFile {
    /// Parses the contents `text` of the day file named `file`.
    pub fn from_yaml_str(text: &str, file: &str) -> Result<Self, DayFileError> {
        let err =
            |line: Option<usize>, message: String| DayFileError { file: file.to_string(), line, message };
        let raw: Raw = serde_yaml::from_str(text).map_err(|e| {
            let line = e.location().map(|l| l.line());
            let msg = e.to_string();
            // serde_yaml appends " at line L column C": the line is already in front.
            let msg = msg.split(" at line ").next().unwrap_or(&msg).to_string();
            err(line, msg)
        })?;
        if raw.runs == 0 || raw.runs > MAX_RUNS {
            return Err(err(None, format!("runs: {} is not between 1 and {MAX_RUNS}", raw.runs)));
        }
        if raw.round_cap == Some(0) {
            return Err(err(None, "round_cap: must be at least 1".to_string()));
        }
        if raw.party.combatants.is_empty() {
            return Err(err(None, "party.combatants: the party has no combatant".to_string()));
        }
        let mut steps = Vec::with_capacity(raw.steps.len());
        for (k, s) in raw.steps.into_iter().enumerate() {
            let at = |m: &str| err(None, format!("steps[{k}]: {m}"));
            let kinds = usize::from(s.encounter.is_some())
                + usize::from(s.short_rest.is_some())
                + usize::from(s.long_rest.is_some())
                + usize::from(s.wait.is_some())
                + usize::from(s.when.is_some() || s.then.is_some());
            if kinds != 1 {
                return Err(at(
                    "a step is exactly one of encounter, short_rest, long_rest, wait, or if with then",
                ));
            }
            let mut after = None;
            let step = if let Some(e) = s.encounter {
                if e.combatants.is_empty() {
                    return Err(at("encounter.combatants: the encounter has no foe"));
                }
                if e.side == raw.party.side {
                    return Err(at(&format!("encounter.side: {:?} is the party's side", e.side)));
                }
                let rounds = parse_duration(e.after.as_deref().unwrap_or(DEFAULT_AFTER))
                    .map_err(|m| at(&format!("encounter.after: {m}")))?;
                after = Some(rounds);
                StepSpec::Encounter(e)
            } else if let Some(r) = s.short_rest {
                StepSpec::ShortRest(r.spend)
            } else if s.long_rest.is_some() {
                StepSpec::LongRest
            } else if let Some(w) = s.wait {
                StepSpec::Pass(parse_duration(&w).map_err(|m| at(&format!("wait: {m}")))?)
            } else {
                let (Some(when), Some(then)) = (s.when, s.then) else {
                    return Err(at("a branch needs both if and then"));
                };
                let fraction = |name: &str, f: f64| {
                    if (0.0..=1.0).contains(&f) {
                        Ok(f)
                    } else {
                        Err(at(&format!("if.{name}: {f} is not a fraction between 0 and 1")))
                    }
                };
                let cond = match (when.party_hp_below, when.anyone_down, when.slots_below) {
                    (Some(f), None, None) => Condition::PartyHpBelow(fraction("party_hp_below", f)?),
                    (None, Some(true), None) => Condition::AnyoneDown,
                    (None, Some(false), None) => return Err(at("if.anyone_down: only true is a condition")),
                    (None, None, Some(f)) => Condition::SlotsBelow(fraction("slots_below", f)?),
                    _ => return Err(at("if: exactly one of party_hp_below, anyone_down, slots_below")),
                };
                let choice = match then {
                    ChoiceFile::ShortRest => Choice::ShortRest(RestSpending::All),
                    ChoiceFile::LongRest => Choice::LongRest,
                    ChoiceFile::Flee => Choice::Flee,
                };
                StepSpec::Branch(cond, choice)
            };
            steps.push(step);
            if let Some(rounds) = after.filter(|&r| r > 0) {
                steps.push(StepSpec::Pass(rounds));
            }
        }
        if !steps.iter().any(|s| matches!(s, StepSpec::Encounter(_))) {
            return Err(err(None, "steps: the day has no encounter".to_string()));
        }
        let names: Vec<&str> = steps
            .iter()
            .filter_map(|s| match s {
                StepSpec::Encounter(e) => Some(e.name.as_str()),
                _ => None,
            })
            .collect();
        for (k, name) in names.iter().enumerate() {
            if names[..k].contains(name) {
                return Err(err(None, format!("steps: two encounters are named {name:?}")));
            }
        }
        for (k, plan) in raw.plans.iter().enumerate() {
            let at = |m: String| err(None, format!("plans[{k}]: {m}"));
            if raw.plans[..k].iter().any(|p| p.name == plan.name) {
                return Err(at(format!("two plans are named {:?}", plan.name)));
            }
            for (field, list) in [
                ("long_rest_before", &plan.long_rest_before),
                ("skip", &plan.skip),
                ("save_slots_for", &plan.save_slots_for),
            ] {
                if let Some(unknown) = list.iter().find(|n| !names.contains(&n.as_str())) {
                    return Err(at(format!(
                        "{field}: no encounter is named {unknown:?} (the day has {})",
                        names.join(", ")
                    )));
                }
            }
            if plan.skip.len() == names.len() {
                return Err(at("skip: a plan must keep at least one encounter".to_string()));
            }
            if let Some(both) = plan.save_slots_for.iter().find(|n| plan.skip.contains(n)) {
                return Err(at(format!("save_slots_for: {both:?} is also skipped")));
            }
            let first_fought = names.iter().find(|n| !plan.skip.iter().any(|s| s == *n));
            if let Some(first) = plan.save_slots_for.iter().find(|n| Some(&n.as_str()) == first_fought) {
                return Err(at(format!(
                    "save_slots_for: {first:?} is the first fight: there is no fight before it to save spells in"
                )));
            }
        }
        Ok(DayFile {
            name: raw.name,
            seed: raw.seed,
            runs: raw.runs,
            round_cap: raw.round_cap,
            party: raw.party,
            steps,
            plans: raw.plans,
        })
    }

    /// The plans, their encounters as indices into the day's fights.
    pub fn plans(&self) -> Vec<super::plan::Plan> {
        let names: Vec<&str> = self.encounters().map(|e| e.name.as_str()).collect();
        let index = |list: &[String]| -> Vec<usize> {
            list.iter().filter_map(|n| names.iter().position(|m| m == n)).collect()
        };
        self.plans
            .iter()
            .map(|p| super::plan::Plan {
                name: p.name.clone(),
                long_rest_before: index(&p.long_rest_before),
                spend: p.spend,
                skip: index(&p.skip),
                save_slots_for: index(&p.save_slots_for),
            })
            .collect()
    }

    /// Every file the day names (the party's, each fight's map and foes),
    /// as written, each once, in first-use order.
    pub fn referenced_paths(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let all = self
            .party
            .combatants
            .iter()
            .chain(self.encounters().flat_map(|e| std::iter::once(&e.map).chain(e.combatants.iter())));
        for p in all {
            if !out.contains(p) {
                out.push(p.clone());
            }
        }
        out
    }

    /// The fights, in order.
    pub fn encounters(&self) -> impl Iterator<Item = &EncounterFile> {
        self.steps.iter().filter_map(|s| match s {
            StepSpec::Encounter(e) => Some(e),
            _ => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAY: &str = "name: test\nparty:\n  combatants: [a.json]\nsteps:\n  - encounter: { name: one, map: m.yaml, combatants: [o.json] }\n  - short_rest: { spend: channels }\n  - if: { party_hp_below: 0.5 }\n    then: long_rest\n  - long_rest: {}\n";

    #[test]
    fn a_day_parses_with_its_defaults() {
        let d = DayFile::from_yaml_str(DAY, "day.yaml").unwrap();
        assert_eq!(d.runs, 1000);
        assert_eq!(d.party.side, "players");
        assert_eq!(d.steps.len(), 5);
        assert_eq!(d.steps[1], StepSpec::Pass(10), "a minute after a fight by default");
        assert_eq!(d.steps[2], StepSpec::ShortRest(RestSpending::Channels));
        assert_eq!(d.steps[3], StepSpec::Branch(Condition::PartyHpBelow(0.5), Choice::LongRest));
        assert_eq!(d.encounters().next().map(|e| e.side.as_str()), Some("monsters"));
        let with = format!("{DAY}plans:\n  - {{ name: rested, long_rest_before: [one], spend: nothing }}\n");
        let plans = DayFile::from_yaml_str(&with, "d.yaml").unwrap().plans();
        assert_eq!(plans[0].long_rest_before, vec![0]);
        assert_eq!(plans[0].spend, Some(RestSpending::Nothing));
    }

    #[test]
    fn a_plan_saves_the_spells_for_a_later_fight_and_says_why_it_cannot() {
        let two = "name: t\nparty:\n  combatants: [a.json]\nsteps:\n  - encounter: { name: one, map: m.yaml, combatants: [o.json] }\n  - encounter: { name: boss, map: m.yaml, combatants: [o.json] }\n";
        let ok = format!("{two}plans:\n  - {{ name: save, save_slots_for: [boss] }}\n");
        let plans = DayFile::from_yaml_str(&ok, "d.yaml").unwrap().plans();
        assert_eq!(plans[0].save_slots_for, vec![1]);
        let first = format!("{two}plans:\n  - {{ name: save, save_slots_for: [one] }}\n");
        assert_eq!(
            DayFile::from_yaml_str(&first, "d.yaml").unwrap_err().to_string(),
            "d.yaml: plans[0]: save_slots_for: \"one\" is the first fight: there is no fight before it to save spells in"
        );
        let skipped = format!("{two}plans:\n  - {{ name: save, save_slots_for: [boss], skip: [boss] }}\n");
        assert_eq!(
            DayFile::from_yaml_str(&skipped, "d.yaml").unwrap_err().to_string(),
            "d.yaml: plans[0]: save_slots_for: \"boss\" is also skipped"
        );
        let unknown = format!("{two}plans:\n  - {{ name: save, save_slots_for: [lich] }}\n");
        let e = DayFile::from_yaml_str(&unknown, "d.yaml").unwrap_err().to_string();
        assert!(e.starts_with("d.yaml: plans[0]: save_slots_for: no encounter is named \"lich\""), "{e}");
    }

    #[test]
    fn the_time_after_a_fight_and_a_wait_are_durations_in_rounds() {
        assert_eq!(parse_duration("1 round"), Ok(1));
        assert_eq!(parse_duration("30 rounds"), Ok(30));
        assert_eq!(parse_duration("1 minute"), Ok(10));
        assert_eq!(parse_duration("10 minutes"), Ok(100));
        assert_eq!(parse_duration("2 hours"), Ok(1200));
        assert_eq!(parse_duration("0 minutes"), Ok(0));
        assert!(parse_duration("25 hours").unwrap_err().contains("longer than a day"));
        assert!(parse_duration("ten minutes").unwrap_err().contains("not a whole number"));
        assert!(parse_duration("3 turns").unwrap_err().contains("round, minute or hour"));
        let day = DAY
            .replace("combatants: [o.json] }", "combatants: [o.json], after: 2 hours }")
            .replace("  - long_rest: {}\n", "  - wait: 30 rounds\n");
        let d = DayFile::from_yaml_str(&day, "d.yaml").unwrap();
        assert_eq!(d.steps[1], StepSpec::Pass(1200));
        assert_eq!(d.steps[4], StepSpec::Pass(30));
        let none = DAY.replace("combatants: [o.json] }", "combatants: [o.json], after: 0 rounds }");
        assert_eq!(DayFile::from_yaml_str(&none, "d.yaml").unwrap().steps.len(), 4, "no time, no step");
        let bad = DAY.replace("combatants: [o.json] }", "combatants: [o.json], after: soon }");
        assert_eq!(
            DayFile::from_yaml_str(&bad, "d.yaml").unwrap_err().to_string(),
            "d.yaml: steps[0]: encounter.after: \"soon\" is not a duration like \"10 minutes\" (a number and round, minute or hour)"
        );
        let bad = DAY.replace("  - long_rest: {}\n", "  - wait: 2 days\n");
        assert_eq!(
            DayFile::from_yaml_str(&bad, "d.yaml").unwrap_err().to_string(),
            "d.yaml: steps[3]: wait: \"2 days\": the unit is round, minute or hour, not \"days\""
        );
    }

    #[test]
    fn errors_name_the_file_and_the_place() {
        let e = DayFile::from_yaml_str(&DAY.replace("spend: channels", "spend: lots"), "d.yaml").unwrap_err();
        let s = e.to_string();
        assert!(s.starts_with("d.yaml: line 6: "), "{s}");
        assert!(s.contains("lots"), "{s}");
        let e = DayFile::from_yaml_str(&DAY.replace("party_hp_below: 0.5", "party_hp_below: 2"), "d.yaml")
            .unwrap_err();
        assert_eq!(e.to_string(), "d.yaml: steps[2]: if.party_hp_below: 2 is not a fraction between 0 and 1");
        let e = DayFile::from_yaml_str(
            &DAY.replace("  - long_rest: {}\n", "  - long_rest: {}\n    short_rest: {}\n"),
            "d.yaml",
        )
        .unwrap_err();
        assert!(e.to_string().contains("steps[3]: a step is exactly one of"), "{e}");
        let e = DayFile::from_yaml_str(&DAY.replace("    then: long_rest\n", ""), "d.yaml").unwrap_err();
        assert_eq!(e.to_string(), "d.yaml: steps[2]: a branch needs both if and then");
        let e = DayFile::from_yaml_str(
            &DAY.replace("runs", "x").replace("name: test", "name: test\nruns: 0"),
            "d.yaml",
        )
        .unwrap_err();
        assert_eq!(e.to_string(), "d.yaml: runs: 0 is not between 1 and 1000000");
        let e = DayFile::from_yaml_str(&DAY.replace("map: m.yaml", "map: m.yaml, extra: 1"), "d.yaml")
            .unwrap_err();
        assert!(e.to_string().contains("unknown field `extra`"), "{e}");
    }
}
