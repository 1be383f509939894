//! A battle's typed events ([`pf1e_engine::combat::event`]) as transcript
//! rows, in the reader's language, every word from the catalogue
//! ([`crate::i18n`], the `Ev…` entries); and as JSON Lines (`--events`,
//! `docs/events.md`).
//!
//! Turn events become `Round | Combatant | Message` rows; initiative and the
//! end of the battle are lines of their own. The temporary free-text events
//! of rules not yet converted (`Event::Text`) are shown as the engine wrote
//! them, in English.

use std::fmt::Write;

use pf1e_engine::combat::Style;
use pf1e_engine::combat::event::{
    AcKind, Attack, AttackNote, AttackStep, AuraOutcome, BattleResult, ConcentrationCause,
    EVENT_SCHEMA_VERSION, Event, FallCause, LifeChange, ModSource, MoveKind, NoMove, Record, SpellLoss,
    TouchKind, Transcript,
};
use pf1e_engine::map::Pos;
use serde::Serialize;

use super::transcript::{Row, words};
use crate::i18n::{Lang, T};

/// How reason codes are shown: as words (the table) or as codes (the
/// `transcript` member of `pf1e sim --json`, unchanged since before events).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Codes {
    Words,
    Raw,
}

/// The transcript's rows in `lang`.
pub fn rows(t: &Transcript, lang: Lang) -> Vec<Row> {
    t.events.iter().map(|r| row(t, r, lang, Codes::Words)).collect()
}

/// The transcript as the English lines of `pf1e sim --json`'s `transcript`
/// (`round N id: message`, initiative and end-of-battle lines as they are).
pub fn english_lines(t: &Transcript) -> Vec<String> {
    t.events
        .iter()
        .map(|r| match row(t, r, Lang::En, Codes::Raw) {
            Row::Action { round, id, message } => format!("round {round} {id}: {message}"),
            Row::Line(line) => line,
        })
        .collect()
}

/// The header line of the JSON Lines form.
#[derive(Serialize)]
struct Header<'a> {
    schema: u32,
    combatants: &'a [pf1e_engine::combat::event::CombatantRef],
    sides: &'a [String],
}

/// The JSON Lines form: a header (`schema`, `combatants`, `sides`), then one
/// event per line. Ends with a newline.
///
/// # Errors
///
/// If serialization fails, which these plain types rule out.
pub fn json_lines(t: &Transcript) -> serde_json::Result<String> {
    let mut out = serde_json::to_string(&Header {
        schema: EVENT_SCHEMA_VERSION,
        combatants: &t.combatants,
        sides: &t.sides,
    })?;
    out.push('\n');
    for r in &t.events {
        out.push_str(&serde_json::to_string(r)?);
        out.push('\n');
    }
    Ok(out)
}

fn path(from: Pos, path: &[Pos]) -> String {
    let mut s = from.to_string();
    for p in path {
        let _ = write!(s, "->{p}");
    }
    s
}

fn signed(base: impl std::fmt::Display, m: i32) -> String {
    format!("{base}{m:+}")
}

fn row(t: &Transcript, r: &Record, lang: Lang, codes: Codes) -> Row {
    let act =
        |who: usize, message: String| Row::Action { round: r.round, id: t.id(who).to_string(), message };
    let f = |key: T, args: &[&dyn std::fmt::Display]| lang.f(key, args);
    match &r.event {
        Event::Initiative { who, d20, modifier, total, roll_offs } => {
            let mut s = f(T::EvInitiative, &[&t.id(*who), &signed(d20, *modifier), total]);
            for face in roll_offs {
                s.push_str(&f(T::EvRollOff, &[face]));
            }
            Row::Line(s)
        }
        Event::BattleOver { rounds, result } => {
            let unit = lang.t(if *rounds == 1 { T::Round } else { T::Rounds });
            Row::Line(match result {
                BattleResult::Won { side } => {
                    let name = t.sides.get(*side).map_or("?", String::as_str);
                    f(T::EvBattleWon, &[&name, rounds, &unit])
                }
                BattleResult::NoneStanding => f(T::EvBattleNoneStanding, &[rounds, &unit]),
                BattleResult::Draw => f(T::EvBattleDraw, &[rounds, &unit]),
            })
        }
        Event::Move { who, kind, from, path: p } => {
            let key = match kind {
                MoveKind::Move => T::EvMove,
                MoveKind::Charge => T::EvCharge,
                MoveKind::Run => T::EvRun,
                MoveKind::Withdraw => T::EvWithdraw,
                MoveKind::RestrictedWithdraw => T::EvRestrictedWithdraw,
            };
            act(*who, f(key, &[&path(*from, p)]))
        }
        Event::Step { who, from, to } => act(*who, f(T::EvStep, &[from, to])),
        Event::NoMove { who, why, at } => {
            let key = match why {
                NoMove::AlreadyInPosition => T::EvAlreadyInPosition,
                NoMove::CannotProgress => T::EvCannotProgress,
                NoMove::RunBlocked => T::EvRunBlocked,
                NoMove::NowhereFarther => T::EvNowhereFarther,
            };
            act(*who, f(key, &[at]))
        }
        Event::FallsBack { who, to } => act(*who, f(T::EvFallsBack, &[to])),
        Event::ActionFailed { who, action, dropped, reason } => {
            let key = if *dropped { T::EvDropped } else { T::EvFailed };
            let reason = match codes {
                Codes::Words => crate::i18n::reason(reason, lang),
                Codes::Raw => reason.clone(),
            };
            act(*who, f(key, &[action, &reason]))
        }
        Event::Life { who, change, hp } => {
            let key = match change {
                LifeChange::Dies => T::EvDies,
                LifeChange::Destroyed => T::EvDestroyed,
                LifeChange::Disabled => T::EvDisabled,
                LifeChange::Dying => T::EvDying,
                LifeChange::DyingAgain => T::EvDyingAgain,
            };
            act(*who, f(key, &[hp]))
        }
        Event::Stabilization { who, roll, stable, hp } => act(
            *who,
            match roll {
                None => f(T::EvBleedingNoStabilization, &[hp, &(hp - 1)]),
                Some(r) => {
                    let mut s = f(T::EvStabilization, &[&signed(r.d20, r.con_mod), hp, &r.total, &r.dc]);
                    s.push_str(&if *stable {
                        lang.t(T::EvStable).to_string()
                    } else {
                        f(T::EvStabilizationFails, &[hp, &(hp - 1)])
                    });
                    s
                }
            },
        ),
        Event::Strains { who } => act(*who, lang.t(T::EvStrains).to_string()),
        Event::Attack(a) => act(a.who, attack(t, a, lang)),
        Event::TouchAttack { who, target, kind, d20, bonus, total, ac, steps, hit } => {
            let kind = lang.t(match kind {
                TouchKind::Touch => T::EvTouch,
                TouchKind::RangedTouch => T::EvRangedTouch,
                TouchKind::Ray => T::EvRay,
            });
            let ac_kind = lang.t(T::EvTouchAc);
            let mut s =
                f(T::EvAttackRoll, &[&kind, &t.id(*target), &signed(d20, *bonus), total, &ac_kind, ac]);
            for step in steps {
                match *step {
                    AttackStep::Threat { d20, bonus, total, crit_mult } => {
                        let verdict = crit(crit_mult, lang);
                        s.push_str(&f(T::EvTouchThreat, &[&signed(d20, bonus), &total, &verdict]));
                    }
                    other => push_step(&mut s, &other, lang),
                }
            }
            s.push_str(lang.t(if *hit { T::EvHit } else { T::EvMissed }));
            act(*who, s)
        }
        Event::Surprised { who } => act(*who, lang.t(T::EvSurprised).to_string()),
        Event::Delays { who, before: Some(b) } => act(*who, f(T::EvDelaysBefore, &[&t.id(*b)])),
        Event::Delays { who, before: None } => act(*who, lang.t(T::EvDelaysEnd).to_string()),
        Event::ActsAfterDelay { who } => act(*who, lang.t(T::EvActsAfterDelay).to_string()),
        Event::Readies { who, trigger } => act(*who, f(T::EvReadies, &[&self::trigger(trigger, lang)])),
        Event::ReadiedSetOff { who, trigger } => {
            act(*who, f(T::EvReadiedSetOff, &[&self::trigger(trigger, lang)]))
        }
        Event::ReadiedFailed { who, reason } => {
            let reason = match codes {
                Codes::Words => crate::i18n::reason(reason, lang),
                Codes::Raw => reason.clone(),
            };
            act(*who, f(T::EvReadiedFailed, &[&reason]))
        }
        Event::ReadyExpired { who } => act(*who, lang.t(T::EvReadyExpired).to_string()),
        Event::Bleeds { who, amount, hp } => act(*who, f(T::EvBleeds, &[amount, hp, &(hp - *amount as i32)])),
        Event::StartsBleeding { who, amount } => act(*who, f(T::EvStartsBleeding, &[amount])),
        Event::StopsBleeding { who } => act(*who, lang.t(T::EvStopsBleeding).to_string()),
        Event::RecurringDamage { who, dealt, effect } => act(*who, f(T::EvRecurringDamage, &[dealt, effect])),
        Event::StandsUp { who } => act(*who, lang.t(T::EvStandsUp).to_string()),
        Event::DropsProne { who } => act(*who, lang.t(T::EvDropsProne).to_string()),
        Event::TotalDefense { who, ac } => act(*who, f(T::EvTotalDefense, &[ac])),
        Event::FightsDefensively { who, attack, ac } => act(*who, f(T::EvFightsDefensively, &[attack, ac])),
        Event::Declares { who, style, attack, off_hand, damage, ac } => act(
            *who,
            match style {
                Style::RapidShot => f(T::EvRapidShot, &[attack]),
                Style::DeadlyAim => f(T::EvDeadlyAim, &[attack, damage]),
                Style::CombatExpertise => f(T::EvCombatExpertise, &[attack, ac]),
                Style::TwoWeapon => f(T::EvTwoWeapon, &[attack, off_hand]),
                Style::Cleave => f(T::EvCleave, &[ac]),
            },
        ),
        Event::Casts { who, spell, metamagic, target, point, slot, dc } => {
            let mut s = f(T::EvCasts, &[spell]);
            if !metamagic.is_empty() {
                let names: Vec<&str> = metamagic.iter().map(|m| self::metamagic(m, lang)).collect();
                let _ = write!(s, " ({})", names.join(", "));
            }
            match (target, point) {
                (Some(x), _) => s.push_str(&f(T::EvCastsOn, &[&t.id(*x)])),
                (None, Some(p)) => s.push_str(&f(T::EvCastsAt, &[p])),
                _ => {}
            }
            s.push_str(&if *slot == 0 {
                f(T::EvCastsCantrip, &[dc])
            } else {
                f(T::EvCastsSlot, &[slot, dc])
            });
            act(*who, s)
        }
        Event::Summoned { who, at, rounds, hp } => act(*who, f(T::EvSummoned, &[at, rounds, hp])),
        Event::SummonEnds { who } => act(*who, f(T::EvSummonEnds, &[])),
        Event::NoRoomToSummon { who, spell } => act(*who, f(T::EvNoRoomToSummon, &[spell])),
        Event::BeginsCasting { who, spell } => act(*who, f(T::EvBeginsCasting, &[spell])),
        Event::FinishesCasting { who, spell } => act(*who, f(T::EvFinishesCasting, &[spell])),
        Event::SpellLost { who, spell, why } => {
            let key = match why {
                SpellLoss::CannotAct => T::EvSpellLostCannotAct,
                SpellLoss::Concentration => T::EvSpellLostConcentration,
                SpellLoss::Fizzles => T::EvSpellFizzles,
                SpellLoss::NoTarget => T::EvSpellLostNoTarget,
            };
            act(*who, f(key, &[spell]))
        }
        Event::HoldsCharge { who, spell } => act(*who, f(T::EvHoldsCharge, &[spell])),
        Event::CoupDeGrace { who, target, weapon, dealt, hp_before } => {
            let after = hp_before - *dealt as i32;
            act(*who, f(T::EvCoupDeGrace, &[weapon, &t.id(*target), dealt, hp_before, &after]))
        }
        Event::CoupDeGraceSave { who, d20, bonus, dc, success } => {
            let verdict = lang.t(if *success { T::EvSurvives } else { T::EvDiesOfIt });
            act(*who, f(T::EvCoupDeGraceSave, &[&signed(d20, *bonus), &(d20 + bonus), dc, &verdict]))
        }
        Event::GivesUpPrepared { who, given_up, spell } => {
            act(*who, f(T::EvGivesUpPrepared, &[given_up, spell]))
        }
        Event::ChargeDissipates { who, spell } => act(*who, f(T::EvChargeDissipates, &[spell])),
        Event::Reloads { who, weapon, ammunition_left } => act(
            *who,
            match ammunition_left {
                Some(n) => f(T::EvReloadsLeft, &[weapon, n]),
                None => f(T::EvReloads, &[weapon]),
            },
        ),
        Event::Altitude { who, from_ft, to_ft } => act(*who, f(T::EvAltitude, &[from_ft, to_ft])),
        Event::FlyCheck { who, d20, bonus, total, dc, ok } => {
            let verdict = lang.t(if *ok { T::EvSucceeds } else { T::EvFails });
            act(*who, f(T::EvFlyCheck, &[&signed(d20, *bonus), total, dc, &verdict]))
        }
        Event::Aura { who, source, ability, outcome, condition, rounds } => {
            let what = match (outcome, rounds) {
                (AuraOutcome::Immune, _) => lang.t(T::EvAuraImmune).to_string(),
                (AuraOutcome::Saved, _) => lang.t(T::EvAuraSaved).to_string(),
                (AuraOutcome::Affected, Some(n)) => f(T::EvAuraRounds, &[condition, n]),
                (AuraOutcome::Affected, None) => condition.clone(),
            };
            act(*who, f(T::EvAura, &[&t.id(*source), ability, &what]))
        }
        Event::Falls { who, from_ft, feet, cause, damage } => {
            let why = lang.t(match cause {
                FallCause::Helpless => T::EvFallHelpless,
                FallCause::Prone => T::EvFallProne,
                FallCause::FlightEnded => T::EvFallFlightEnded,
                FallCause::FailedCheck => T::EvFallFailedCheck,
            });
            act(*who, f(T::EvFalls, &[from_ft, &why, feet, damage]))
        }
        Event::Concentration { who, cause, d20, bonus, total, dc, success } => {
            let why = lang.t(match cause {
                ConcentrationCause::Grappled => T::EvConcentrationGrappled,
                ConcentrationCause::Defensive => T::EvConcentrationDefensive,
                ConcentrationCause::Wounded => T::EvConcentrationWounded,
                ConcentrationCause::Entangled => T::EvConcentrationEntangled,
            });
            let verdict = lang.t(if *success { T::EvSucceeds } else { T::EvFails });
            act(*who, f(T::EvConcentration, &[&why, &signed(d20, *bonus), total, dc, &verdict]))
        }
        Event::ChannelsEnergy { who, positive, dice, heals, creatures } => {
            let key = match (*positive, *heals) {
                (true, true) => T::EvChannelPositiveHeals,
                (true, false) => T::EvChannelPositiveHarms,
                (false, true) => T::EvChannelNegativeHeals,
                (false, false) => T::EvChannelNegativeHarms,
            };
            act(*who, f(key, &[dice, creatures]))
        }
        Event::Healed { who, amount, hp_before, hp_after } => {
            act(*who, f(T::EvHealed, &[amount, hp_before, hp_after]))
        }
        Event::Challenges { who, target, damage, dodge, left } => {
            act(*who, f(T::EvChallenges, &[&t.id(*target), damage, dodge, left]))
        }
        Event::ChallengeEnds { who, target } => act(*who, f(T::EvChallengeEnds, &[&t.id(*target)])),
        Event::Tactician { who, feat, allies, rounds } => {
            act(*who, f(T::EvTactician, &[feat, allies, rounds]))
        }
        Event::LionsCall { who, allies, attack, fear_saves, rounds } => {
            act(*who, f(T::EvLionsCall, &[allies, attack, fear_saves, rounds]))
        }
        Event::Text { who, text } => act(
            *who,
            match codes {
                Codes::Words => words(text, lang),
                Codes::Raw => text.clone(),
            },
        ),
        // A variant added to the engine after this renderer: its JSON, rather than nothing.
        other => Row::Line(serde_json::to_string(other).unwrap_or_default()),
    }
}

/// A metamagic name of `Event::Casts` in words; an unknown one as it is.
fn metamagic(name: &str, lang: Lang) -> &str {
    let key = match name {
        "empowered" => T::EvMetaEmpowered,
        "maximized" => T::EvMetaMaximized,
        "extended" => T::EvMetaExtended,
        "heightened" => T::EvMetaHeightened,
        "quickened" => T::EvMetaQuickened,
        other => return other,
    };
    lang.t(key)
}

/// A ready trigger (`ReadyTrigger::name`) in words; English keeps the code, as before.
fn trigger(name: &str, lang: Lang) -> String {
    let key = match name {
        "enemy_enters_reach" => T::EvTriggerEnemyEntersReach,
        "enemy_attacks" => T::EvTriggerEnemyAttacks,
        "enemy_hits_ally" => T::EvTriggerEnemyHitsAlly,
        "enemy_casts" => T::EvTriggerEnemyCasts,
        other => return other.replace('_', " "),
    };
    lang.t(key).to_string()
}

fn crit(crit_mult: Option<u32>, lang: Lang) -> String {
    crit_mult.map_or_else(|| lang.t(T::EvNoCrit).to_string(), |m| lang.f(T::EvCrit, &[&m]))
}

fn source(s: ModSource) -> T {
    match s {
        ModSource::Iterative => T::EvModIterative,
        ModSource::Charge => T::EvModCharge,
        ModSource::Flanking => T::EvModFlanking,
        ModSource::HighGround => T::EvModHighGround,
        ModSource::Range => T::EvModRange,
        ModSource::Cover => T::EvModCover,
        ModSource::TargetCharged => T::EvModTargetCharged,
        ModSource::IntoMelee => T::EvModIntoMelee,
        ModSource::Prone => T::EvModProne,
        ModSource::FightingDefensively => T::EvModDefensive,
        ModSource::Aided => T::EvModAided,
        ModSource::PowerAttack => T::EvModPowerAttack,
        ModSource::TargetChallenging => T::EvModTargetChallenging,
        ModSource::Invisible => T::EvModInvisible,
        ModSource::TargetHelpless => T::EvModTargetHelpless,
        ModSource::TargetProne => T::EvModTargetProne,
        ModSource::Dodge => T::EvModDodge,
        ModSource::TargetAided => T::EvModTargetAided,
        ModSource::DeadlyAim => T::EvModDeadlyAim,
        ModSource::CombatExpertise => T::EvModCombatExpertise,
        ModSource::RapidShot => T::EvModRapidShot,
        ModSource::TwoWeapon => T::EvModTwoWeapon,
        ModSource::TargetCleaving => T::EvModTargetCleaving,
        ModSource::TargetNoShield => T::EvModTargetNoShield,
    }
}

fn attack(t: &Transcript, a: &Attack, lang: Lang) -> String {
    let mut s = String::new();
    if a.aoo {
        s.push_str(lang.t(T::EvAoO));
    }
    let ac_kind = lang.t(match a.ac_kind {
        AcKind::Normal => T::EvAc,
        AcKind::Touch => T::EvTouchAc,
    });
    s.push_str(&lang.f(
        T::EvAttackRoll,
        &[&a.weapon, &t.id(a.target), &signed(a.d20, a.bonus), &a.total, &ac_kind, &a.ac],
    ));
    let notes: Vec<String> = a
        .notes
        .iter()
        .map(|n| match n {
            AttackNote::Modifier { source: src, value } => format!("{} {value:+}", lang.t(source(*src))),
            AttackNote::TargetRunningNoDex => lang.t(T::EvTargetRunning).to_string(),
            AttackNote::TargetDeniedDex => lang.t(T::EvTargetDeniedDex).to_string(),
            AttackNote::AttackerConditions { names } => lang.f(T::EvAttackerConditions, &[&names.join(" ")]),
            AttackNote::AttackerEffects { names } => lang.f(T::EvAttackerEffects, &[&names.join(", ")]),
            AttackNote::TargetConditions { names } => lang.f(T::EvTargetConditions, &[&names.join(" ")]),
            AttackNote::TargetEffects { names } => lang.f(T::EvTargetEffects, &[&names.join(", ")]),
        })
        .collect();
    if !notes.is_empty() {
        let _ = write!(s, " [{}]", notes.join(", "));
    }
    if a.d20 == 1 {
        s.push_str(lang.t(T::EvNatural1));
    } else if a.d20 == 20 {
        s.push_str(lang.t(T::EvNatural20));
    }
    for step in &a.steps {
        push_step(&mut s, step, lang);
    }
    s
}

fn push_step(s: &mut String, step: &AttackStep, lang: Lang) {
    let verdict = |missed: bool| lang.t(if missed { T::EvMissWord } else { T::EvHitsWord });
    let text = match *step {
        AttackStep::Miss { misfire } => lang.t(if misfire { T::EvMisfire } else { T::EvMissed }).to_string(),
        AttackStep::Hit => lang.t(T::EvHit).to_string(),
        AttackStep::Threat { d20, bonus, total, crit_mult } => {
            lang.f(T::EvThreat, &[&signed(d20, bonus), &total, &crit(crit_mult, lang)])
        }
        AttackStep::MissChance { blinded, chance, d100, missed } => {
            let key = if blinded { T::EvAttackerBlinded } else { T::EvConcealment };
            lang.f(key, &[&chance, &d100, &verdict(missed)])
        }
        AttackStep::BlindFightReroll { d100, missed } => lang.f(T::EvBlindFight, &[&d100, &verdict(missed)]),
        AttackStep::Image { die, roll, left } => {
            let mut text = lang.f(T::EvImage, &[&die, &roll]);
            if let Some(left) = left {
                text.push_str(&lang.f(T::EvImageDestroyed, &[&left]));
            }
            text
        }
        AttackStep::SneakAttack { dice } => lang.f(T::EvSneakAttack, &[&dice]),
        AttackStep::UpClose { dice } => lang.f(T::EvUpClose, &[&dice]),
        AttackStep::VitalStrike { rolls } => lang.f(T::EvVitalStrike, &[&rolls]),
        AttackStep::Manyshot { dealt } => lang.f(T::EvManyshot, &[&dealt]),
        AttackStep::Damage { dealt, rolled, hp_before, hp_after, temp } => {
            let mut text = lang.f(T::EvDamage, &[&dealt]);
            if rolled != dealt {
                text.push_str(&lang.f(T::EvRolled, &[&rolled]));
            }
            text.push_str(&if temp > 0 {
                lang.f(T::EvHpTemp, &[&hp_before, &hp_after, &temp])
            } else {
                lang.f(T::EvHp, &[&hp_before, &hp_after])
            });
            text
        }
    };
    s.push_str(&text);
}
