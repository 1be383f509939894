//! The proto form of a day job's result ([`DayResult`]).

use pf1e_engine::day::plan::PlanResult;
use pf1e_engine::day::summary::{DaySummary, FightSummary, MemberSummary, Rate};

use super::DayResult;
use crate::error::WireError;
use crate::proto;

fn rate(r: &Rate) -> proto::DayRate {
    proto::DayRate { count: r.count, of: r.of, rate: r.rate, low: r.low, high: r.high }
}

fn from_rate(r: Option<&proto::DayRate>, field: &'static str) -> Result<Rate, WireError> {
    let r = r.ok_or(WireError::Missing(field))?;
    Ok(Rate { count: r.count, of: r.of, rate: r.rate, low: r.low, high: r.high })
}

impl From<&DayResult> for proto::DayResult {
    fn from(d: &DayResult) -> Self {
        let s = &d.summary;
        proto::DayResult {
            name: s.name.clone(),
            runs: s.runs,
            confidence: s.confidence,
            completed: Some(rate(&s.completed)),
            some_death: Some(rate(&s.some_death)),
            fled: Some(rate(&s.fled)),
            fights: s
                .fights
                .iter()
                .map(|f| proto::DayFightSummary {
                    name: f.name.clone(),
                    reached: f.reached,
                    won: Some(rate(&f.won)),
                    deaths: Some(rate(&f.deaths)),
                    broke_here: Some(rate(&f.broke_here)),
                    hp_before: f.hp_before,
                    slots_before: f.slots_before,
                    uses_before: f.uses_before,
                    standing_before: f.standing_before,
                    rounds: f.rounds,
                })
                .collect(),
            members: s
                .members
                .iter()
                .map(|m| proto::DayMemberSummary {
                    name: m.name.clone(),
                    dead: Some(rate(&m.dead)),
                    hp_end: m.hp_end,
                })
                .collect(),
            breaking_point: s.breaking_point.map(|b| b as u32),
            healed_between: s.healed_between,
            slots_spent_between: s.slots_spent_between,
            charges_spent_between: s.charges_spent_between,
            plans: d
                .plans
                .iter()
                .map(|p| proto::DayPlanResult {
                    name: p.name.clone(),
                    completed: Some(rate(&p.completed)),
                    some_death: Some(rate(&p.some_death)),
                    completed_change: p.completed_change,
                    death_change: p.death_change,
                    significant: p.significant,
                })
                .collect(),
            seed: d.seed,
        }
    }
}

impl TryFrom<&proto::DayResult> for DayResult {
    type Error = WireError;

    fn try_from(d: &proto::DayResult) -> Result<Self, Self::Error> {
        let fights = d
            .fights
            .iter()
            .map(|f| {
                Ok(FightSummary {
                    name: f.name.clone(),
                    reached: f.reached,
                    won: from_rate(f.won.as_ref(), "DayFightSummary.won")?,
                    deaths: from_rate(f.deaths.as_ref(), "DayFightSummary.deaths")?,
                    broke_here: from_rate(f.broke_here.as_ref(), "DayFightSummary.broke_here")?,
                    hp_before: f.hp_before,
                    slots_before: f.slots_before,
                    uses_before: f.uses_before,
                    standing_before: f.standing_before,
                    rounds: f.rounds,
                })
            })
            .collect::<Result<Vec<_>, WireError>>()?;
        let members = d
            .members
            .iter()
            .map(|m| {
                Ok(MemberSummary {
                    name: m.name.clone(),
                    dead: from_rate(m.dead.as_ref(), "DayMemberSummary.dead")?,
                    hp_end: m.hp_end,
                })
            })
            .collect::<Result<Vec<_>, WireError>>()?;
        if let Some(b) = d.breaking_point
            && b as usize >= fights.len()
        {
            return Err(WireError::invalid("DayResult.breaking_point", format!("no fight {b}")));
        }
        let plans = d
            .plans
            .iter()
            .map(|p| {
                Ok(PlanResult {
                    name: p.name.clone(),
                    completed: from_rate(p.completed.as_ref(), "DayPlanResult.completed")?,
                    some_death: from_rate(p.some_death.as_ref(), "DayPlanResult.some_death")?,
                    completed_change: p.completed_change,
                    death_change: p.death_change,
                    significant: p.significant,
                })
            })
            .collect::<Result<Vec<_>, WireError>>()?;
        Ok(DayResult {
            seed: d.seed,
            summary: DaySummary {
                name: d.name.clone(),
                runs: d.runs,
                confidence: d.confidence,
                completed: from_rate(d.completed.as_ref(), "DayResult.completed")?,
                some_death: from_rate(d.some_death.as_ref(), "DayResult.some_death")?,
                fled: from_rate(d.fled.as_ref(), "DayResult.fled")?,
                fights,
                members,
                breaking_point: d.breaking_point.map(|b| b as usize),
                healed_between: d.healed_between,
                slots_spent_between: d.slots_spent_between,
                charges_spent_between: d.charges_spent_between,
            },
            plans,
        })
    }
}
