//! A battle's typed events ([`pf1e_engine::combat::event`]) as transcript
//! rows, in the reader's language, every word from the catalogue
//! ([`crate::i18n`], the `Ev…` entries); and as JSON Lines (`--events`,
//! `docs/events.md`).
//!
//! Turn events become `Round | Combatant | Message` rows; initiative and the
//! end of the battle are lines of their own. Conditions are words of the
//! catalogue; names that come from data (a spell, an attack, an ability) are
//! shown as the data names them.

use std::fmt::Write;

use pf1e_engine::combat::Style;
use pf1e_engine::combat::event::{
    AcKind, AfflictionEvent, Attack, AttackNote, AttackStep, AuraOutcome, BattleResult, ClassAbilityEvent,
    CombatEvent, ConcentrationCause, ConfusedAct, DismountCause, EVENT_SCHEMA_VERSION, EffectEnd,
    EngulfedHow, EscapeSkill, Event, FallCause, ItemCheckKind, KiPower, LifeChange, ManeuverOutcome,
    ModSource, MountedEvent, MoveKind, NoMove, NonlethalState, Record, SpellEffectEvent, SpellEvent,
    SpellLoss, StunOutcome, TouchKind, Transcript, TurnEvent,
};
use pf1e_engine::effects::{ConditionId, Maneuver, SaveKind};
use pf1e_engine::map::Pos;
use serde::Serialize;

use super::transcript::Row;
use crate::i18n::{self, Lang, T, named};

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
                BattleResult::Held { side } => {
                    let name = t.sides.get(*side).map_or("?", String::as_str);
                    f(T::EvBattleHeld, &[&name, rounds, &unit])
                }
            })
        }
        Event::Move { who, kind, from, path: p } => {
            let key = match kind {
                MoveKind::Move => T::EvMove,
                MoveKind::Charge => T::EvCharge,
                MoveKind::Run => T::EvRun,
                MoveKind::Withdraw => T::EvWithdraw,
                MoveKind::RestrictedWithdraw => T::EvRestrictedWithdraw,
                MoveKind::Engulf => T::EvEngulfMove,
                MoveKind::Trample => T::EvTrampleMove,
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
                LifeChange::FightsOn => T::EvFightsOn,
                LifeChange::Weakens => T::EvWeakens,
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
                Style::Flurry => f(T::EvFlurry, &[&format!("{attack:+}")]),
            },
        ),
        Event::Casts { who, spell, slot, extract: true, .. } => {
            act(*who, f(T::EvDrinksExtract, &[spell, slot]))
        }
        Event::Casts { who, spell, metamagic, target, point, slot, dc, extract: false } => {
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
            s.push_str(&match (*slot, dc) {
                (0, Some(dc)) => f(T::EvCastsCantrip, &[dc]),
                (0, None) => f(T::EvCastsCantripNoSave, &[]),
                (_, Some(dc)) => f(T::EvCastsSlot, &[slot, dc]),
                (_, None) => f(T::EvCastsSlotNoSave, &[slot]),
            });
            act(*who, s)
        }
        Event::Summoned { who, at, rounds, hp } => act(*who, f(T::EvSummoned, &[at, rounds, hp])),
        Event::SummonEnds { who } => act(*who, f(T::EvSummonEnds, &[])),
        Event::LeavesBattle { who, at, hp } => act(*who, f(T::EvLeavesBattle, &[at, hp])),
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
        Event::Reloads { who, weapon, ammunition_left, draws } => act(
            *who,
            match (ammunition_left, draws) {
                (Some(n), true) => f(T::EvDrawsFlask, &[weapon, n]),
                (Some(n), false) => f(T::EvReloadsLeft, &[weapon, n]),
                (None, _) => f(T::EvReloads, &[weapon]),
            },
        ),
        Event::Misdirected { who, weapon, d8, squares, at } => {
            act(*who, f(T::EvMisdirected, &[weapon, squares, d8, &at.row, &at.col]))
        }
        Event::Splash { who, by, weapon, dealt, hp } => {
            act(*who, f(T::EvSplash, &[&t.id(*by), weapon, dealt, hp, &(hp - *dealt as i32)]))
        }
        Event::Altitude { who, from_ft, to_ft } => act(*who, f(T::EvAltitude, &[from_ft, to_ft])),
        Event::FlyCheck { who, d20, bonus, total, dc, ok } => {
            let verdict = lang.t(if *ok { T::EvSucceeds } else { T::EvFails });
            act(*who, f(T::EvFlyCheck, &[&signed(d20, *bonus), total, dc, &verdict]))
        }
        Event::Aura { who, source, ability, outcome, condition, rounds } => {
            let what = match (outcome, rounds) {
                (AuraOutcome::Immune, _) => lang.t(T::EvAuraImmune).to_string(),
                (AuraOutcome::Saved, _) => lang.t(T::EvAuraSaved).to_string(),
                (AuraOutcome::Affected, Some(n)) => f(T::EvAuraRounds, &[&named(condition, lang), n]),
                (AuraOutcome::Affected, None) => named(condition, lang),
            };
            act(*who, f(T::EvAura, &[&t.id(*source), ability, &what]))
        }
        Event::EscapeCheck { who, bond, skill, moving, d20, bonus, total, dc, ok, stopped_at } => {
            let check = lang.t(match skill {
                EscapeSkill::EscapeArtist => T::EvEscapeArtist,
                EscapeSkill::Strength => T::EvEscapeStrength,
                EscapeSkill::Cmb => T::EvEscapeCmb,
                EscapeSkill::Acrobatics => T::EvEscapeAcrobatics,
            });
            let verdict = match (*moving, *ok, stopped_at) {
                (true, false, Some(p)) => f(T::EvStoppedAt, &[&p.row, &p.col]),
                _ => lang
                    .t(match (*moving, *ok) {
                        (false, true) => T::EvEscapes,
                        (false, false) => T::EvStaysBound,
                        (true, true) => T::EvMovesOn,
                        (true, false) => T::EvStopped,
                    })
                    .to_string(),
            };
            act(*who, f(T::EvEscapeCheck, &[&check, bond, &signed(d20, *bonus), total, dc, &verdict]))
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
        Event::UsesItem { who, wand, spell, target, left } => {
            let line = match (*wand, who == target) {
                (true, _) => f(T::EvUsesWand, &[spell, &t.id(*target), left]),
                (false, true) => f(T::EvDrinksPotion, &[spell, left]),
                (false, false) => f(T::EvGivesPotion, &[spell, &t.id(*target), left]),
            };
            act(*who, line)
        }
        Event::ReadsScroll { who, spell, target, left } => {
            act(*who, f(T::EvReadsScroll, &[spell, &t.id(*target), left]))
        }
        Event::ItemCheck { who, check, spell, d20, bonus, total, dc, success } => {
            let what = lang.t(match check {
                ItemCheckKind::UseMagicDevice => T::EvItemCheckUmd,
                ItemCheckKind::CasterLevel => T::EvItemCheckCasterLevel,
                ItemCheckKind::Wisdom => T::EvItemCheckWisdom,
            });
            let verdict = lang.t(if *success { T::EvSucceeds } else { T::EvFails });
            act(*who, f(T::EvItemCheck, &[&what, spell, &signed(d20, *bonus), total, dc, &verdict]))
        }
        Event::ItemMishap { who, spell, damage, hp_before, hp_after } => {
            act(*who, f(T::EvItemMishap, &[spell, damage, hp_before, hp_after]))
        }
        Event::Healed { who, amount, hp_before, hp_after } => {
            act(*who, f(T::EvHealed, &[amount, hp_before, hp_after]))
        }
        Event::Challenges { who, target, damage, dodge, left } => {
            act(*who, f(T::EvChallenges, &[&t.id(*target), damage, dodge, left]))
        }
        Event::ChallengeEnds { who, target } => act(*who, f(T::EvChallengeEnds, &[&t.id(*target)])),
        Event::Smites { who, target, evil, attack, damage, ac, left } => {
            let key = if *evil { T::EvSmitesEvil } else { T::EvSmitesGood };
            act(*who, f(key, &[&t.id(*target), attack, damage, ac, left]))
        }
        Event::Rages { who, hp, will, left } => act(*who, f(T::EvRages, &[hp, will, left])),
        Event::RageEnds { who, rounds, hp, fatigued } => act(*who, f(T::EvRageEnds, &[rounds, hp, fatigued])),
        Event::LaysOnHands { who, target, dice, rolled, healed, left, removed, harms } => {
            let mut line = if *harms {
                f(T::EvLaysOnHandsHarms, &[&t.id(*target), dice, rolled, left])
            } else if who == target {
                f(T::EvLaysOnHandsSelf, &[dice, rolled, healed, left])
            } else {
                f(T::EvLaysOnHands, &[&t.id(*target), dice, rolled, healed, left])
            };
            if !removed.is_empty() {
                line.push_str(&f(T::EvMercyRemoves, &[&removed.join(", ")]));
            }
            act(*who, line)
        }
        Event::RebukesDeath { who, target, rolled, bonus, healed, hp, left } => {
            act(*who, f(T::EvRebukesDeath, &[&t.id(*target), bonus, &(rolled + bonus), healed, hp, left]))
        }
        Event::Ki { who, power, left } => act(
            *who,
            match power {
                KiPower::ExtraAttack => f(T::EvKiAttack, &[left]),
                KiPower::Dodge => f(T::EvKiDodge, &[left]),
            },
        ),
        Event::StunningFist { who, target, dc, outcome, left } => {
            let what = lang.t(match outcome {
                StunOutcome::Missed => T::EvStunMissed,
                StunOutcome::NoDamage => T::EvStunNoDamage,
                StunOutcome::Down => T::EvStunDown,
                StunOutcome::Immune => T::EvStunImmune,
                StunOutcome::Saved => T::EvStunSaved,
                StunOutcome::Stunned => T::EvStunStunned,
            });
            act(*who, f(T::EvStunningFist, &[&t.id(*target), dc, &what, left]))
        }
        Event::Tactician { who, feat, allies, rounds } => {
            act(*who, f(T::EvTactician, &[feat, allies, rounds]))
        }
        Event::LionsCall { who, allies, attack, fear_saves, rounds } => {
            act(*who, f(T::EvLionsCall, &[allies, attack, fear_saves, rounds]))
        }
        Event::HuntersBond { who, target, bonus, allies, rounds } => {
            act(*who, f(T::EvHuntersBond, &[&t.id(*target), bonus, allies, rounds]))
        }
        Event::ManeuverRoll { who, target, maneuver, d20, bonus, total, cmd, aoo_damage, success } => {
            let name = lang.t(self::maneuver_name(*maneuver));
            let mut s = f(T::EvManeuverRoll, &[&name, &t.id(*target), &signed(d20, *bonus), total, cmd]);
            if *aoo_damage > 0 {
                s.push_str(&f(T::EvManeuverAooDamage, &[aoo_damage]));
            }
            s.push_str(lang.t(if *success { T::EvManeuverSuccess } else { T::EvManeuverFailure }));
            act(*who, s)
        }
        Event::Maneuver { who, outcome } => act(*who, self::maneuver(t, outcome, lang)),
        Event::Affliction { who, what } => act(*who, affliction(t, what, lang)),
        Event::Save { who, kind, d20, bonus, total, dc, rolled_twice, success } => {
            let name = lang.t(match kind {
                SaveKind::Fort => T::EvSaveFort,
                SaveKind::Ref => T::EvSaveRef,
                SaveKind::Will => T::EvSaveWill,
            });
            let note = rolled_twice.map_or(String::new(), |[a, b]| f(T::EvRolledTwice, &[&a, &b]));
            let verdict = lang.t(if *success { T::EvSaves } else { T::EvFails });
            act(*who, f(T::EvSave, &[&name, &signed(d20, *bonus), total, dc, &note, &verdict]))
        }
        Event::Spell { who, spell, what } => act(*who, spell_event(t, spell, what, lang)),
        Event::SpellEffect { who, what } => act(*who, spell_effect(what, lang)),
        Event::SpellDamage { who, target, dealt, rolled, types, hp_before, hp_after } => {
            let ty = if types.is_empty() { lang.t(T::EvUntyped).to_string() } else { types.join("/") };
            let rolled = if dealt == rolled { String::new() } else { f(T::EvRolled, &[rolled]) };
            act(*who, f(T::EvSpellDamage, &[&t.id(*target), dealt, &ty, &rolled, hp_before, hp_after]))
        }
        Event::CarriedEffect { who, effect, rounds } => act(
            *who,
            match rounds {
                Some(1) => f(T::EvCarriedEffectOne, &[&named(effect, lang)]),
                Some(n) => f(T::EvCarriedEffectRounds, &[&named(effect, lang), n]),
                None => f(T::EvCarriedEffect, &[&named(effect, lang)]),
            },
        ),
        Event::EffectGained { who, effect, rounds } => act(
            *who,
            match rounds {
                Some(1) => f(T::EvEffectGainedOne, &[&named(effect, lang)]),
                Some(n) => f(T::EvEffectGainedRounds, &[&named(effect, lang), n]),
                None => f(T::EvEffectGained, &[&named(effect, lang)]),
            },
        ),
        Event::EffectEnds { who, effect, why } => {
            act(*who, f(T::EvEffectEnds, &[&named(effect, lang), &lang.t(effect_end(*why))]))
        }
        Event::EffectLingers { who, effect, rounds } => {
            act(*who, f(T::EvEffectLingers, &[&named(effect, lang), rounds]))
        }
        Event::Turn { who, what } => act(*who, turn(t, what, lang)),
        Event::ClassAbility { who, what } => act(*who, class_ability(t, what, lang, codes)),
        Event::Combat { who, what } => act(*who, combat(t, what, lang)),
        Event::Mounted { who, what } => act(*who, mounted(t, what, lang)),
        Event::Nonlethal { who, state, amount, nonlethal, hp } => act(
            *who,
            match state {
                NonlethalState::Unconscious => f(T::EvNlUnconscious, &[nonlethal, hp]),
                NonlethalState::Staggered => f(T::EvNlStaggered, &[nonlethal, hp]),
                NonlethalState::Takes => f(T::EvNlTakes, &[amount, nonlethal, hp]),
                NonlethalState::WakesUp => f(T::EvNlWakesUp, &[nonlethal, hp]),
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
        ModSource::Smite => T::EvModSmite,
        ModSource::TargetSmiting => T::EvModTargetSmiting,
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
        ModSource::TargetRusted => T::EvModTargetRusted,
        ModSource::FavoredEnemy => T::EvModFavoredEnemy,
        ModSource::HuntersBond => T::EvModHuntersBond,
        ModSource::Flurry => T::EvModFlurry,
        ModSource::Trample => T::EvModTrample,
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
    let all =
        |names: &[String], sep: &str| names.iter().map(|n| named(n, lang)).collect::<Vec<_>>().join(sep);
    let notes: Vec<String> = a
        .notes
        .iter()
        .map(|n| match n {
            AttackNote::Modifier { source: src, value } => format!("{} {value:+}", lang.t(source(*src))),
            AttackNote::TargetRunningNoDex => lang.t(T::EvTargetRunning).to_string(),
            AttackNote::TargetDeniedDex => lang.t(T::EvTargetDeniedDex).to_string(),
            AttackNote::AttackerConditions { names } => lang.f(T::EvAttackerConditions, &[&all(names, " ")]),
            AttackNote::AttackerEffects { names } => lang.f(T::EvAttackerEffects, &[&all(names, ", ")]),
            AttackNote::TargetConditions { names } => lang.f(T::EvTargetConditions, &[&all(names, " ")]),
            AttackNote::TargetEffects { names } => lang.f(T::EvTargetEffects, &[&all(names, ", ")]),
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

/// The words of a reason code: as words in the table, as the code in `--json`'s lines.
fn reason_words(reason: &str, lang: Lang, codes: Codes) -> String {
    match codes {
        Codes::Words => crate::i18n::reason(reason, lang),
        Codes::Raw => reason.to_string(),
    }
}

/// Names joined by `, `, or "nobody".
fn who_list(t: &Transcript, who: &[usize], lang: Lang) -> String {
    if who.is_empty() {
        lang.t(T::EvNobody).to_string()
    } else {
        who.iter().map(|&i| t.id(i)).collect::<Vec<_>>().join(", ")
    }
}

fn conditions(list: &[ConditionId], lang: Lang) -> String {
    list.iter().map(|&c| lang.t(i18n::condition(c))).collect::<Vec<_>>().join(", ")
}

fn maneuver_name(m: Maneuver) -> T {
    match m {
        Maneuver::Trip => T::EvManTrip,
        Maneuver::Disarm => T::EvManDisarm,
        Maneuver::BullRush => T::EvManBullRush,
        Maneuver::Sunder => T::EvManSunder,
        Maneuver::Grapple => T::EvManGrapple,
        Maneuver::Escape => T::EvManEscape,
        Maneuver::Overrun => T::EvManOverrun,
        Maneuver::DirtyTrick => T::EvManDirtyTrick,
        Maneuver::Steal => T::EvManSteal,
        Maneuver::Reposition => T::EvManReposition,
        Maneuver::Drag => T::EvManDrag,
    }
}

fn maneuver(t: &Transcript, o: &ManeuverOutcome, lang: Lang) -> String {
    let f = |key: T, args: &[&dyn std::fmt::Display]| lang.f(key, args);
    match o {
        ManeuverOutcome::TooLarge { maneuver, target } => {
            f(T::EvManTooLarge, &[&lang.t(maneuver_name(*maneuver)), &t.id(*target)])
        }
        ManeuverOutcome::NotATrick { condition } => {
            f(T::EvManNotATrick, &[&lang.t(i18n::condition(*condition))])
        }
        ManeuverOutcome::LostToAoo { maneuver } => f(T::EvManLostToAoo, &[&lang.t(maneuver_name(*maneuver))]),
        ManeuverOutcome::Tripped => lang.t(T::EvManTripped).to_string(),
        ManeuverOutcome::FailsAndFalls => lang.t(T::EvManFailsAndFalls).to_string(),
        ManeuverOutcome::Drops { weapon } => f(T::EvManDrops, &[weapon]),
        ManeuverOutcome::FailsAndDrops { weapon } => f(T::EvManFailsAndDrops, &[weapon]),
        ManeuverOutcome::Sundered { weapon, damage, broken } => {
            let mut s = f(T::EvManSundered, &[weapon, damage]);
            if *broken {
                s.push_str(lang.t(T::EvManBroken));
            }
            s
        }
        ManeuverOutcome::Pushed { feet } => f(T::EvManPushed, &[feet]),
        ManeuverOutcome::Repositioned { feet } => f(T::EvManRepositioned, &[feet]),
        ManeuverOutcome::Dragged { feet } => f(T::EvManDragged, &[feet]),
        ManeuverOutcome::Steals { from } => f(T::EvManSteals, &[&t.id(*from)]),
        ManeuverOutcome::GrappleNoRoom => lang.t(T::EvManGrappleNoRoom).to_string(),
        ManeuverOutcome::GrapplePulls { target, to } => f(T::EvManGrapplePulls, &[&t.id(*target), to]),
        ManeuverOutcome::Grappled { by } => f(T::EvManGrappled, &[&t.id(*by)]),
        ManeuverOutcome::Overruns { target, to: Some(to) } => f(T::EvManOverruns, &[&t.id(*target), to]),
        ManeuverOutcome::Overruns { target, to: None } => f(T::EvManOverrunsBlocked, &[&t.id(*target)]),
        ManeuverOutcome::KnockedProne => lang.t(T::EvManKnockedProne).to_string(),
        ManeuverOutcome::Escapes => lang.t(T::EvManEscapes).to_string(),
        ManeuverOutcome::NoLongerGrappled => lang.t(T::EvManNoLongerGrappled).to_string(),
    }
}

fn affliction(t: &Transcript, a: &AfflictionEvent, lang: Lang) -> String {
    let f = |key: T, args: &[&dyn std::fmt::Display]| lang.f(key, args);
    match a {
        AfflictionEvent::Immune { ability } => f(T::EvAflImmune, &[ability]),
        AfflictionEvent::Strikes { ability, target } => f(T::EvAflStrikes, &[ability, &t.id(*target)]),
        AfflictionEvent::Paralyzed { rounds: Some(n) } => f(T::EvAflParalyzedFor, &[n]),
        AfflictionEvent::Paralyzed { rounds: None } => lang.t(T::EvAflParalyzed).to_string(),
        AfflictionEvent::FallsAsleep { rounds: Some(n) } => f(T::EvAflAsleepFor, &[n]),
        AfflictionEvent::FallsAsleep { rounds: None } => lang.t(T::EvAflAsleep).to_string(),
        AfflictionEvent::Petrified => lang.t(T::EvAflPetrified).to_string(),
        AfflictionEvent::AbilityDamage { ability, amount, left } => {
            f(T::EvAflAbilityDamage, &[amount, ability, left])
        }
        AfflictionEvent::DiesOfConstitution => lang.t(T::EvAflDiesOfConstitution).to_string(),
        AfflictionEvent::NegativeLevels { levels, total } => f(T::EvAflNegativeLevels, &[levels, total]),
        AfflictionEvent::DiesOfNegativeLevels { total, hd } => f(T::EvAflDiesOfNegativeLevels, &[total, hd]),
        AfflictionEvent::TemporaryHp { amount } => f(T::EvAflTemporaryHp, &[amount]),
        AfflictionEvent::AnotherDose { ability, rounds, dc } => {
            f(T::EvAflAnotherDose, &[ability, rounds, dc])
        }
        AfflictionEvent::Poisoned { ability } => f(T::EvAflPoisoned, &[ability]),
        AfflictionEvent::Cured { ability } => f(T::EvAflCured, &[ability]),
        AfflictionEvent::Gaze { source, ability, d100, averted } => {
            let key = if *averted { T::EvAflGazeAverted } else { T::EvAflGazeMet };
            f(key, &[&t.id(*source), ability, d100])
        }
        AfflictionEvent::Breath { ability, target, damage, dc, caught, again } => {
            f(T::EvAflBreath, &[ability, &t.id(*target), damage, dc, &who_list(t, caught, lang), again])
        }
        AfflictionEvent::NoDamage => lang.t(T::EvAflNoDamage).to_string(),
        AfflictionEvent::Rends { ability, target } => f(T::EvAflRends, &[ability, &t.id(*target)]),
        AfflictionEvent::CatchesFire { rounds } => f(T::EvAflCatchesFire, &[&rounds.to_string()]),
        AfflictionEvent::MaintainsHold { target } => f(T::EvAflMaintainsHold, &[&t.id(*target)]),
        AfflictionEvent::LetsGo { target } => f(T::EvAflLetsGo, &[&t.id(*target)]),
        AfflictionEvent::Pins { target } => f(T::EvAflPins, &[&t.id(*target)]),
        AfflictionEvent::Uses { ability } => f(T::EvAflUses, &[ability]),
        AfflictionEvent::Rusts { ability, item, ac_left, destroyed } => {
            let key = if *destroyed { T::EvAflRustsDestroyed } else { T::EvAflRustsBroken };
            f(key, &[ability, item, &ac_left.to_string()])
        }
        AfflictionEvent::NegativeEnergyHeals { amount } => f(T::EvAflNegativeEnergyHeals, &[amount]),
        AfflictionEvent::Incorporeal { halved, from, to } => {
            f(if *halved { T::EvAflIncorporealHalved } else { T::EvAflIncorporealNone }, &[from, to])
        }
        AfflictionEvent::RegenerationStopped { by, through } => {
            let by = if by.is_empty() { lang.t(T::EvAflTheHit).to_string() } else { by.join("/") };
            f(T::EvAflRegenerationStopped, &[&by, through])
        }
        AfflictionEvent::Heals { amount, hp_before, hp_after, nonlethal_before, nonlethal_after } => {
            f(T::EvAflHeals, &[amount, hp_before, hp_after, nonlethal_before, nonlethal_after])
        }
        AfflictionEvent::RegenerationNonlethal { amount } => f(T::EvAflRegenerationNonlethal, &[amount]),
        AfflictionEvent::Swallows { ability, target } => f(T::EvAflSwallows, &[ability, &t.id(*target)]),
        AfflictionEvent::CutsInside { d20, bonus, total, ac, damage, cut, needed } => {
            f(T::EvAflCutsInside, &[d20, bonus, total, ac, damage, cut, needed])
        }
        AfflictionEvent::CutsFree { from } => f(T::EvAflCutsFree, &[&t.id(*from)]),
        AfflictionEvent::BackInMouth { from } => f(T::EvAflBackInMouth, &[&t.id(*from)]),
        AfflictionEvent::FallsOut { from } => f(T::EvAflFallsOut, &[&t.id(*from)]),
        AfflictionEvent::Engulfed { ability, by, how } => {
            let how = lang.t(match how {
                EngulfedHow::Save => T::EvAflEngulfedSave,
                EngulfedHow::AttackOfOpportunity => T::EvAflEngulfedAoo,
                EngulfedHow::Helpless => T::EvAflEngulfedHelpless,
            });
            f(T::EvAflEngulfed, &[&t.id(*by), ability, &how])
        }
        AfflictionEvent::AvoidsEngulf { by } => f(T::EvAflAvoidsEngulf, &[&t.id(*by)]),
        AfflictionEvent::PushedAside { by, to } => f(T::EvAflPushedAside, &[&t.id(*by), to]),
        AfflictionEvent::EscapesEngulf { from, to: Some(to) } => {
            f(T::EvAflEscapesEngulfTo, &[&t.id(*from), to])
        }
        AfflictionEvent::EscapesEngulf { from, to: None } => f(T::EvAflEscapesEngulf, &[&t.id(*from)]),
        AfflictionEvent::Sings { ability } => f(T::EvAflSings, &[ability]),
        AfflictionEvent::Captivated { ability, by } => f(T::EvAflCaptivated, &[&t.id(*by), ability]),
        AfflictionEvent::Splits { ability, hp_before, hp, copy: Some(c), at: Some(q) } => {
            f(T::EvAflSplits, &[ability, hp_before, hp, &t.id(*c), q])
        }
        AfflictionEvent::Splits { ability, hp_before, hp, .. } => {
            f(T::EvAflSplitsNoRoom, &[ability, hp_before, hp])
        }
        AfflictionEvent::Berserk { ability, chance, d100 } => f(T::EvAflBerserk, &[ability, d100, chance]),
        AfflictionEvent::MagicHeals { ability, types, damage, healed, temp_hp, ends_spell } => {
            let types = types.join("/");
            let mut s = f(T::EvAflMagicHeals, &[ability, damage, &types, healed]);
            if *temp_hp > 0 {
                s += &f(T::EvAflMagicHealsTemp, &[temp_hp]);
            }
            if *ends_spell {
                s += lang.t(T::EvAflMagicHealsEndsSlow);
            }
            s
        }
        AfflictionEvent::MagicSlows { ability, types, rounds } => {
            f(T::EvAflMagicSlows, &[ability, &types.join("/"), rounds])
        }
        AfflictionEvent::CursedWound { ability, by, healer, d20, bonus, dc, overcome } => {
            let key = if *overcome { T::EvAflCursedWoundOvercome } else { T::EvAflCursedWoundFails };
            f(key, &[&t.id(*by), ability, &t.id(*healer), d20, bonus, &(d20 + bonus), dc])
        }
        AfflictionEvent::Dominates { ability, target } => f(T::EvAflDominates, &[ability, &t.id(*target)]),
        AfflictionEvent::Dominated { ability, by } => f(T::EvAflDominated, &[&t.id(*by), ability]),
        AfflictionEvent::Captive { by, beside: false } => f(T::EvAflCaptiveWalks, &[&t.id(*by)]),
        AfflictionEvent::Captive { by, beside: true } => f(T::EvAflCaptiveStands, &[&t.id(*by)]),
    }
}

fn spell_event(t: &Transcript, spell: &str, what: &SpellEvent, lang: Lang) -> String {
    let f = |key: T, args: &[&dyn std::fmt::Display]| lang.f(key, args);
    match what {
        SpellEvent::NoArea => f(T::EvSplNoArea, &[&spell]),
        SpellEvent::Covers { squares, creatures } => {
            f(T::EvSplCovers, &[&spell, squares, &who_list(t, creatures, lang)])
        }
        SpellEvent::Immune => f(T::EvSplImmune, &[&spell]),
        SpellEvent::KeptOut => f(T::EvSplKeptOut, &[&spell]),
        SpellEvent::Unheard => f(T::EvSplUnheard, &[&spell]),
        SpellEvent::ImmuneAlready => f(T::EvSplImmuneAlready, &[&spell]),
        SpellEvent::Disbelieves => f(T::EvSplDisbelieves, &[&spell]),
        SpellEvent::Slain => f(T::EvSplSlain, &[&spell]),
        SpellEvent::Warded => f(T::EvSplWarded, &[&spell]),
        SpellEvent::Lasts { until: Some(r) } => f(T::EvSplLastsUntil, &[&spell, r]),
        SpellEvent::Lasts { until: None } => f(T::EvSplLastsBattle, &[&spell]),
        SpellEvent::ZoneEnds => f(T::EvSplZoneEnds, &[&spell]),
        SpellEvent::Dismissed => f(T::EvSplDismissed, &[&spell]),
        SpellEvent::Redirected { target } => f(T::EvSplRedirected, &[&spell, &t.id(*target)]),
        SpellEvent::ConstructEnds => f(T::EvSplConstructEnds, &[&spell]),
        SpellEvent::Retaliates { attacker } => f(T::EvSplRetaliates, &[&spell, &t.id(*attacker)]),
        SpellEvent::HandFormed { hp_lost } => f(T::EvSplHandFormed, &[&spell, hp_lost]),
        SpellEvent::ByHand { target } => f(T::EvSplByHand, &[&spell, &t.id(*target)]),
        SpellEvent::Teleports { from, to } => {
            f(T::EvSplTeleports, &[&spell, &from.row, &from.col, &to.row, &to.col])
        }
        SpellEvent::NoArrival => f(T::EvSplNoArrival, &[&spell]),
        SpellEvent::HandReturns { hp } => f(T::EvSplHandReturns, &[&spell, hp]),
        SpellEvent::ZoneMoves { to } => f(T::EvSplZoneMoves, &[&spell, &to.row, &to.col]),
        SpellEvent::Delivered => f(T::EvSplDelivered, &[&spell]),
        SpellEvent::Resistance { sr, d20, bonus, overcome } => {
            let verdict = lang.t(if *overcome { T::EvSplOvercome } else { T::EvSplResisted });
            f(T::EvSplResistance, &[sr, &signed(d20, *bonus), &(d20 + bonus), &verdict])
        }
        SpellEvent::Dispel { d20, bonus, dc, dispelled } => {
            let verdict = lang.t(if *dispelled { T::EvSplDispelled } else { T::EvFails });
            f(T::EvSplDispel, &[&spell, &signed(d20, *bonus), &(d20 + bonus), dc, &verdict])
        }
    }
}

fn spell_effect(what: &SpellEffectEvent, lang: Lang) -> String {
    let f = |key: T, args: &[&dyn std::fmt::Display]| lang.f(key, args);
    match what {
        SpellEffectEvent::Evades => lang.t(T::EvFxEvades).to_string(),
        SpellEffectEvent::WardedOff => lang.t(T::EvFxWardedOff).to_string(),
        SpellEffectEvent::Conditions { conditions: c } => f(T::EvFxConditions, &[&conditions(c, lang)]),
        SpellEffectEvent::AbilityDamage { amount, ability } => f(T::EvFxAbilityDamage, &[amount, ability]),
        SpellEffectEvent::ImmuneToNegativeLevels => lang.t(T::EvFxImmuneNegativeLevels).to_string(),
        SpellEffectEvent::NegativeLevels { levels } => f(T::EvFxNegativeLevels, &[levels]),
        SpellEffectEvent::Stabilized => lang.t(T::EvFxStabilized).to_string(),
        SpellEffectEvent::ResumesDying => lang.t(T::EvFxResumesDying).to_string(),
        SpellEffectEvent::MirrorImages { images } => f(T::EvFxMirrorImages, &[images]),
        SpellEffectEvent::HealedByNegativeEnergy { amount } => f(T::EvFxHealedByNegative, &[amount]),
        SpellEffectEvent::Slain => lang.t(T::EvFxSlain).to_string(),
        SpellEffectEvent::DropsHeld => lang.t(T::EvFxDropsHeld).to_string(),
        SpellEffectEvent::Resized { size } => f(T::EvFxResized, &[&lang.t(size_name(*size))]),
        SpellEffectEvent::NoRoomToGrow => lang.t(T::EvFxNoRoomToGrow).to_string(),
        SpellEffectEvent::Maneuver { maneuver, d20, bonus, total, cmd, holding, success } => {
            let name = lang.t(self::maneuver_name(*maneuver));
            let key = if *holding { T::EvFxManeuverHolding } else { T::EvFxManeuver };
            let mut s = f(key, &[&name, &signed(d20, *bonus), total, cmd]);
            s.push_str(lang.t(if *success { T::EvManeuverSuccess } else { T::EvManeuverFailure }));
            s
        }
    }
}

fn size_name(size: pf1e_engine::model::Size) -> T {
    use pf1e_engine::model::Size;
    match size {
        Size::Fine => T::SizeFine,
        Size::Diminutive => T::SizeDiminutive,
        Size::Tiny => T::SizeTiny,
        Size::Small => T::SizeSmall,
        Size::Medium => T::SizeMedium,
        Size::Large => T::SizeLarge,
        Size::Huge => T::SizeHuge,
        Size::Gargantuan => T::SizeGargantuan,
        Size::Colossal => T::SizeColossal,
    }
}

fn effect_end(why: EffectEnd) -> T {
    match why {
        EffectEnd::WearsOff => T::EvEndWearsOff,
        EffectEnd::Ends => T::EvEndEnds,
        EffectEnd::Spent => T::EvEndSpent,
        EffectEnd::Discharged => T::EvEndDischarged,
        EffectEnd::Dispelled => T::EvEndDispelled,
        EffectEnd::NewWard => T::EvEndNewWard,
        EffectEnd::OutOfArea => T::EvEndOutOfArea,
        EffectEnd::ShakenOff => T::EvEndShakenOff,
        EffectEnd::BrokenThreatened => T::EvEndBrokenThreatened,
        EffectEnd::Attacked => T::EvEndAttacked,
        EffectEnd::Wounded => T::EvEndWounded,
        EffectEnd::NoImageLeft => T::EvEndNoImageLeft,
        EffectEnd::Healed => T::EvEndHealed,
        EffectEnd::UsedUp => T::EvEndUsedUp,
        EffectEnd::BrokenFree => T::EvEndBrokenFree,
        EffectEnd::Released => T::EvEndReleased,
    }
}

fn turn(t: &Transcript, what: &TurnEvent, lang: Lang) -> String {
    let f = |key: T, args: &[&dyn std::fmt::Display]| lang.f(key, args);
    match what {
        TurnEvent::LosesTurn { conditions: c } => f(T::EvLosesTurn, &[&conditions(c, lang)]),
        TurnEvent::Confused { d100, act } => {
            let what = match act {
                ConfusedAct::ActsNormally => lang.t(T::EvConfusedNormal).to_string(),
                ConfusedAct::Babbles => lang.t(T::EvConfusedBabbles).to_string(),
                ConfusedAct::HurtsItself { damage, hp } => {
                    f(T::EvConfusedHurts, &[damage, hp, &(hp - *damage as i32)])
                }
                ConfusedAct::Attacks { target } => f(T::EvConfusedAttacks, &[&t.id(*target)]),
                ConfusedAct::NobodyInReach => lang.t(T::EvConfusedNobody).to_string(),
            };
            f(T::EvConfused, &[d100, &what])
        }
        TurnEvent::BreaksFree => lang.t(T::EvBreaksFree).to_string(),
        TurnEvent::Cursed { d100, percent } => f(T::EvCursed, &[d100, percent]),
        TurnEvent::Sanctuary { target } => f(T::EvSanctuary, &[&t.id(*target)]),
        TurnEvent::ImmediateAction => lang.t(T::EvImmediateAction).to_string(),
        TurnEvent::Pounces => lang.t(T::EvPounces).to_string(),
        TurnEvent::RunEndurance { d20, bonus, dc, ok } => {
            let verdict = lang.t(if *ok { T::EvRunGoesOn } else { T::EvRunStopped });
            f(T::EvRunEndurance, &[&signed(d20, *bonus), &(d20 + bonus), dc, &verdict])
        }
    }
}

fn hex_name(name: &str, lang: Lang) -> String {
    let key = match name {
        "evil_eye" => T::EvHexEvilEye,
        "slumber" => T::EvHexSlumber,
        "cackle" => T::EvHexCackle,
        "misfortune" => T::EvHexMisfortune,
        "fortune" => T::EvHexFortune,
        "healing" => T::EvHexHealing,
        "ward" => T::EvHexWard,
        other => return other.to_string(),
    };
    lang.t(key).to_string()
}

fn deed_name(name: &str, lang: Lang) -> String {
    let key = match name {
        "deadeye" => T::EvDeedDeadeye,
        "up_close_and_deadly" => T::EvDeedUpClose,
        other => return other.to_string(),
    };
    lang.t(key).to_string()
}

fn class_ability(t: &Transcript, what: &ClassAbilityEvent, lang: Lang, codes: Codes) -> String {
    let f = |key: T, args: &[&dyn std::fmt::Display]| lang.f(key, args);
    match what {
        ClassAbilityEvent::Hexes { target, hex, dc } => {
            f(T::EvHexes, &[&t.id(*target), &hex_name(hex, lang), dc])
        }
        ClassAbilityEvent::ImmuneMindAffecting => lang.t(T::EvImmuneMind).to_string(),
        ClassAbilityEvent::ImmuneSleep => lang.t(T::EvImmuneSleep).to_string(),
        ClassAbilityEvent::Cackles => lang.t(T::EvCackles).to_string(),
        ClassAbilityEvent::UsesPower { target, power, left } => {
            f(T::EvUsesPower, &[&named(power, lang), &t.id(*target), left])
        }
        ClassAbilityEvent::ImmunePower { power } => f(T::EvImmunePower, &[power]),
        ClassAbilityEvent::InspiresCourage { bonus } => f(T::EvInspiresCourage, &[bonus]),
        ClassAbilityEvent::StopsPerforming => lang.t(T::EvStopsPerforming).to_string(),
        ClassAbilityEvent::SpellCombatNoAttack { reason } => {
            f(T::EvSpellCombatNoAttack, &[&reason_words(reason, lang, codes)])
        }
        ClassAbilityEvent::Spellstrike { weapon } => f(T::EvSpellstrike, &[weapon]),
        ClassAbilityEvent::Accuracy { bonus, pool } => f(T::EvArcaneAccuracy, &[bonus, pool]),
        ClassAbilityEvent::Enhances { weapon, bonus, pool } => f(T::EvEnhances, &[weapon, bonus, pool]),
        ClassAbilityEvent::GritSpent { deed, grit } => f(T::EvGritSpent, &[&deed_name(deed, lang), grit]),
        ClassAbilityEvent::QuickClear { weapon, grit } => f(T::EvQuickClear, &[weapon, grit]),
        ClassAbilityEvent::GunslingersDodge { grit } => f(T::EvGunslingersDodge, &[grit]),
        ClassAbilityEvent::FearAura { target } => f(T::EvFearAura, &[&t.id(*target)]),
        ClassAbilityEvent::LichTouch => lang.t(T::EvLichTouch).to_string(),
    }
}

fn mounted(t: &Transcript, what: &MountedEvent, lang: Lang) -> String {
    let f = |key: T, args: &[&dyn std::fmt::Display]| lang.f(key, args);
    match what {
        MountedEvent::Rides { mount } => f(T::EvRides, &[&t.id(*mount)]),
        MountedEvent::Charges { mount, target, weapon, mult } => {
            f(T::EvMountedCharges, &[&t.id(*target), &t.id(*mount), weapon, mult])
        }
        MountedEvent::Shields { mount, attacker, d20, bonus, attack, negated } => {
            let verdict = lang.t(if *negated { T::EvHitNegated } else { T::EvFails });
            f(
                T::EvMountedShields,
                &[&t.id(*mount), &t.id(*attacker), &signed(d20, *bonus), &(d20 + bonus), attack, &verdict],
            )
        }
        MountedEvent::Directs { mount, d20, bonus, dc, ok } => {
            let verdict = lang.t(if *ok { T::EvMountAttacks } else { T::EvFails });
            f(T::EvMountDirects, &[&t.id(*mount), &signed(d20, *bonus), &(d20 + bonus), dc, &verdict])
        }
        MountedEvent::StaysInSaddle { mount, chance } => f(T::EvStaysInSaddle, &[&t.id(*mount), chance]),
        MountedEvent::Falls { mount, cause, ride, damage, prone, to } => {
            let why = lang.t(match cause {
                DismountCause::MountDown => T::EvDismountMountDown,
                DismountCause::MountProne => T::EvDismountMountProne,
                DismountCause::Unconscious => T::EvDismountUnconscious,
                DismountCause::Dead => T::EvDismountDead,
                DismountCause::Unseated => T::EvDismountUnseated,
            });
            let check = ride.map_or(String::new(), |(d, b)| f(T::EvFallRide, &[&signed(d, b), &(d + b)]));
            let prone = if *prone { lang.t(T::EvFallsProne) } else { "" };
            f(T::EvFallsFromMount, &[&t.id(*mount), to, &why, &check, damage, &prone])
        }
        MountedEvent::Unseats { target, d20, cmb, cmd, ok } => {
            let verdict = lang.t(if *ok { T::EvKnockedOff } else { T::EvStaysOn });
            f(T::EvUnseats, &[&t.id(*target), &signed(d20, *cmb), &(d20 + cmb), cmd, &verdict])
        }
    }
}

fn combat(t: &Transcript, what: &CombatEvent, lang: Lang) -> String {
    let f = |key: T, args: &[&dyn std::fmt::Display]| lang.f(key, args);
    match what {
        CombatEvent::CannotTouch { target } => f(T::EvCannotTouch, &[&t.id(*target)]),
        CombatEvent::RollsTwice { first, second } => f(T::EvRollsTwice, &[first, second]),
        CombatEvent::UpCloseGrazes { target, amount } => f(T::EvUpCloseGrazes, &[&t.id(*target), amount]),
        CombatEvent::DamageReduction { absorbed } => f(T::EvDamageReduction, &[absorbed]),
        CombatEvent::PicksUp { weapon } => f(T::EvPicksUp, &[weapon]),
        CombatEvent::Repairs { weapon } => f(T::EvRepairs, &[weapon]),
        CombatEvent::PowerAttack { penalty, damage } => f(T::EvPowerAttack, &[penalty, damage]),
        CombatEvent::AooSuppressed { target } => f(T::EvAooSuppressed, &[&t.id(*target)]),
        CombatEvent::AooMovesThrough { target } => f(T::EvAooMovesThrough, &[&t.id(*target)]),
        CombatEvent::AidAnother { target, attack, d20, bonus, dc, given } => {
            let what = lang.t(if *attack { T::EvAidAttack } else { T::EvAidAc });
            let verdict =
                if *given > 0 { format!("+{given} {what}") } else { lang.t(T::EvFails).to_string() };
            f(T::EvAidAnother, &[&what, &t.id(*target), &signed(d20, *bonus), &(d20 + bonus), dc, &verdict])
        }
    }
}

#[cfg(test)]
mod tests {
    use pf1e_engine::combat::event::CombatantRef;

    use super::*;

    fn messages(events: Vec<Event>, lang: Lang) -> Vec<String> {
        let t = Transcript {
            combatants: ["monk", "ogre"].map(|id| CombatantRef { id: id.into(), side: 0 }).to_vec(),
            sides: vec!["players".into()],
            events: events.into_iter().map(|event| Record { round: 1, event }).collect(),
        };
        rows(&t, lang)
            .into_iter()
            .map(|r| match r {
                Row::Action { message, .. } => message,
                Row::Line(l) => l,
            })
            .collect()
    }

    #[test]
    fn a_spells_grapple_check_and_its_release_read_in_english_and_french() {
        let events = || {
            vec![
                Event::SpellEffect {
                    who: 1,
                    what: SpellEffectEvent::Maneuver {
                        maneuver: Maneuver::Grapple,
                        d20: 10,
                        bonus: 12,
                        total: 22,
                        cmd: 20,
                        holding: false,
                        success: true,
                    },
                },
                Event::SpellEffect {
                    who: 1,
                    what: SpellEffectEvent::Maneuver {
                        maneuver: Maneuver::Grapple,
                        d20: 1,
                        bonus: 17,
                        total: 18,
                        cmd: 18,
                        holding: true,
                        success: false,
                    },
                },
                Event::EffectEnds {
                    who: 1,
                    effect: "Black Tentacles (condition)".into(),
                    why: EffectEnd::Released,
                },
            ]
        };
        let en = messages(events(), Lang::En);
        assert!(en[0].ends_with("CMB d20=10+12=22 vs CMD 20 -> success"), "{en:?}");
        assert!(en[1].contains("to keep its hold") && en[1].ends_with("-> failure"), "{en:?}");
        assert!(en[2].contains("the hold is not kept"), "{en:?}");
        let fr = messages(events(), Lang::Fr);
        assert!(fr[0].ends_with("BMO d20=10+12=22 contre DMD 20 -> réussite"), "{fr:?}");
        assert!(fr[1].contains("pour maintenir sa prise") && fr[1].ends_with("-> échec"), "{fr:?}");
        assert!(fr[2].contains("la prise n'est pas maintenue"), "{fr:?}");
    }

    #[test]
    fn the_mounted_events_read_in_english_and_french() {
        let events = || {
            vec![
                Event::Mounted { who: 0, what: MountedEvent::Rides { mount: 1 } },
                Event::Mounted {
                    who: 0,
                    what: MountedEvent::Charges { mount: 1, target: 1, weapon: "lance".into(), mult: 2 },
                },
                Event::Mounted {
                    who: 0,
                    what: MountedEvent::Shields {
                        mount: 1,
                        attacker: 1,
                        d20: 16,
                        bonus: 8,
                        attack: 20,
                        negated: true,
                    },
                },
                Event::Mounted {
                    who: 0,
                    what: MountedEvent::Falls {
                        mount: 1,
                        cause: DismountCause::MountDown,
                        ride: Some((6, 8)),
                        damage: 4,
                        prone: true,
                        to: Pos::new(2, 3),
                    },
                },
            ]
        };
        let en = messages(events(), Lang::En);
        assert_eq!(en[0], "rides ogre (it acts on its rider's initiative)");
        assert_eq!(en[1], "charges ogre on ogre with its lance (damage x2)");
        assert_eq!(
            en[2],
            "mounted combat for ogre against ogre: Ride d20=16+8=24 vs attack 20 -> hit negated"
        );
        assert!(
            en[3].starts_with("falls from ogre to ")
                && en[3].ends_with("(its mount is down, Ride d20=6+8=14 vs 15): 4 damage, prone"),
            "{}",
            en[3]
        );
        let fr = messages(events(), Lang::Fr);
        assert_eq!(fr[0], "monte ogre (qui agit à l'initiative de son cavalier)");
        assert!(
            fr[2].contains("coup annulé")
                && fr[3].contains("sa monture est hors de combat")
                && fr[3].ends_with("à terre"),
            "{fr:?}"
        );
    }

    #[test]
    fn the_monk_s_events_read_in_english_and_french() {
        let events = || {
            vec![
                Event::Declares { who: 0, style: Style::Flurry, attack: -1, off_hand: 0, damage: 0, ac: 0 },
                Event::Ki { who: 0, power: KiPower::ExtraAttack, left: 4 },
                Event::Ki { who: 0, power: KiPower::Dodge, left: 3 },
                Event::StunningFist { who: 0, target: 1, dc: 15, outcome: StunOutcome::Stunned, left: 3 },
                Event::StunningFist { who: 0, target: 1, dc: 15, outcome: StunOutcome::Immune, left: 2 },
            ]
        };
        assert_eq!(
            messages(events(), Lang::En),
            [
                "flurry of blows (-1 on every attack, more attacks)",
                "spends ki: one more flurry attack (4 left)",
                "spends ki: +4 dodge AC (3 left)",
                "stunning fist on ogre (Fort DC 15): stunned (3 left)",
                "stunning fist on ogre (Fort DC 15): cannot be stunned (2 left)",
            ]
        );
        assert_eq!(
            messages(events(), Lang::Fr),
            [
                "déluge de coups (-1 à chaque attaque, des attaques de plus)",
                "dépense du ki : une attaque de plus dans le déluge (il en reste 4)",
                "dépense du ki : +4 d'esquive à la CA (il en reste 3)",
                "coup étourdissant sur ogre (Vig DD 15) : étourdi (il en reste 3)",
                "coup étourdissant sur ogre (Vig DD 15) : ne peut être étourdi (il en reste 2)",
            ]
        );
    }

    #[test]
    fn a_carried_effect_reads_in_english_and_french() {
        let events = || {
            vec![
                Event::CarriedEffect { who: 0, effect: "Mage Armor".into(), rounds: Some(2886) },
                Event::CarriedEffect { who: 0, effect: "Bless".into(), rounds: Some(1) },
                Event::CarriedEffect { who: 0, effect: "Bestow Curse".into(), rounds: None },
            ]
        };
        assert_eq!(
            messages(events(), Lang::En),
            [
                "is still under Mage Armor from an earlier fight (2886 rounds left)",
                "is still under Bless from an earlier fight (1 round left)",
                "is still under Bestow Curse from an earlier fight",
            ]
        );
        assert_eq!(
            messages(events(), Lang::Fr),
            [
                "est encore sous Mage Armor depuis un combat précédent (2886 rounds restants)",
                "est encore sous Bless depuis un combat précédent (1 round restant)",
                "est encore sous Bestow Curse depuis un combat précédent",
            ]
        );
    }
}
