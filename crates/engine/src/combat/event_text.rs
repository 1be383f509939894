//! Test only: the English line each event stood for before the engine
//! emitted typed events, so rules tests keep readable goldens. The CLI's
//! renderer (`pf1e_cli::render::events`) is the product's; the two agree on
//! the English text, which the CLI's tests and the bundled transcripts check.

use std::fmt::Write;

use crate::map::Pos;

use super::event::{
    AcKind, AfflictionEvent, Attack, AttackNote, AttackStep, AuraOutcome, BattleResult, ClassAbilityEvent,
    CombatEvent, ConfusedAct, DismountCause, EffectEnd, EngulfedHow, Event, LifeChange, ManeuverOutcome,
    ModSource, MountedEvent, MoveKind, NoMove, NonlethalState, Record, SpellEffectEvent, SpellEvent,
    SpellLoss, TouchKind, TurnEvent,
};

/// Every event of `events` as its English line, ids from `ids`, side names from `sides`.
pub(crate) fn lines(ids: &[String], sides: &[String], events: &[Record]) -> Vec<String> {
    events.iter().map(|r| line(ids, sides, r)).collect()
}

fn path(from: Pos, path: &[Pos]) -> String {
    let mut s = from.to_string();
    for p in path {
        let _ = write!(s, "->{p}");
    }
    s
}

fn line(ids: &[String], sides: &[String], r: &Record) -> String {
    let id = |i: usize| ids.get(i).map_or("?", String::as_str);
    let act = |who: usize, msg: String| format!("round {} {}: {msg}", r.round, id(who));
    match &r.event {
        Event::Initiative { who, d20, modifier, total, roll_offs } => {
            let mut s = format!("initiative: {} d20={d20}{modifier:+}={total}", id(*who));
            for face in roll_offs {
                let _ = write!(s, ", roll-off d20={face}");
            }
            s
        }
        Event::BattleOver { rounds, result } => {
            let unit = if *rounds == 1 { "round" } else { "rounds" };
            match result {
                BattleResult::Won { side } => {
                    format!(
                        "battle over: {} win in {rounds} {unit}",
                        sides.get(*side).map_or("?", String::as_str)
                    )
                }
                BattleResult::NoneStanding => format!("battle over: no side standing after {rounds} {unit}"),
                BattleResult::Draw => format!("battle over: draw after {rounds} {unit}"),
                BattleResult::Held { side } => format!(
                    "battle over: {} hold the field in {rounds} {unit}, the others fled",
                    sides.get(*side).map_or("?", String::as_str)
                ),
            }
        }
        Event::Move { who, kind, from, path: p } => {
            let what = match kind {
                MoveKind::Move => "move",
                MoveKind::Charge => "charge",
                MoveKind::Run => "run",
                MoveKind::Withdraw => "withdraw",
                MoveKind::RestrictedWithdraw => "restricted withdraw",
                MoveKind::Engulf => "engulf",
                MoveKind::Trample => "trample",
            };
            act(*who, format!("{what} {}", path(*from, p)))
        }
        Event::Step { who, from, to } => act(*who, format!("5-foot step {from}->{to}")),
        Event::NoMove { who, why, at } => act(
            *who,
            match why {
                NoMove::AlreadyInPosition => format!("move: already in position at {at}"),
                NoMove::CannotProgress => format!("move: cannot progress from {at}"),
                NoMove::RunBlocked => format!("run: blocked at {at}"),
                NoMove::NowhereFarther => format!("withdraw: nowhere farther to go from {at}"),
            },
        ),
        Event::FallsBack { who, to } => act(*who, format!("falls back to {to}")),
        Event::ActionFailed { who, action, dropped, reason } => {
            let verb = if *dropped { "dropped" } else { "failed" };
            act(*who, format!("{action} {verb} ({reason})"))
        }
        Event::Life { who, change, hp } => act(
            *who,
            match change {
                LifeChange::Dies => format!("dies (hp {hp})"),
                LifeChange::Destroyed => format!("is destroyed (hp {hp})"),
                LifeChange::Disabled => "is disabled (hp 0)".to_string(),
                LifeChange::Dying => format!("falls unconscious, dying (hp {hp})"),
                LifeChange::DyingAgain => format!("is wounded again, dying (hp {hp})"),
                LifeChange::FightsOn => format!("fights on below 0 (ferocity, staggered) (hp {hp})"),
                LifeChange::Weakens => format!("loses 1 hp to ferocity (hp {hp})"),
            },
        ),
        Event::Stabilization { who, roll, stable, hp } => act(
            *who,
            match roll {
                None => format!("bleeding: stabilization fails (hp {hp}->{})", hp - 1),
                Some(r) => {
                    let (d20, m, t, dc) = (r.d20, r.con_mod, r.total, r.dc);
                    let head = format!("stabilization d20={d20}{m:+}{hp}={t} vs DC {dc}");
                    if *stable {
                        format!("{head} -> stable")
                    } else {
                        format!("{head} -> fails (hp {hp}->{})", hp - 1)
                    }
                }
            },
        ),
        Event::Strains { who } => act(*who, "strains while disabled (hp 0->-1)".to_string()),
        Event::Attack(a) => act(a.who, attack(a, id(a.target))),
        Event::TouchAttack { who, target, kind, d20, bonus, total, ac, steps, hit } => {
            let kind = match kind {
                TouchKind::Touch => "touch",
                TouchKind::Ray => "ray",
                TouchKind::RangedTouch => "ranged touch",
            };
            let mut text = format!("{kind} vs {} d20={d20}{bonus:+}={total} touch AC {ac}", id(*target));
            for step in steps {
                match *step {
                    AttackStep::Threat { d20, bonus, total, crit_mult } => {
                        let v = crit_mult.map_or("no crit".to_string(), |m| format!("CRIT x{m}"));
                        let _ = write!(text, " threat: confirm d20={d20}{bonus:+}={total} -> {v}");
                    }
                    other => steps_text(&mut text, &other),
                }
            }
            let _ = write!(text, " -> {}", if *hit { "HIT" } else { "MISS" });
            act(*who, text)
        }
        Event::Surprised { who } => act(*who, "surprised: does not act".to_string()),
        Event::Delays { who, before: Some(t) } => act(*who, format!("delays until just before {}", id(*t))),
        Event::Delays { who, before: None } => act(*who, "delays until the end of the round".to_string()),
        Event::ActsAfterDelay { who } => act(*who, "acts after delaying".to_string()),
        Event::Readies { who, trigger } => act(*who, format!("readies an attack ({trigger})")),
        Event::ReadiedSetOff { who, trigger } => act(*who, format!("readied attack set off ({trigger})")),
        Event::ReadiedFailed { who, reason } => act(*who, format!("readied attack failed ({reason})")),
        Event::ReadyExpired { who } => act(*who, "ready expired (trigger never occurred)".to_string()),
        Event::Bleeds { who, amount, hp } => {
            act(*who, format!("bleeds {amount} (hp {hp}->{})", hp - *amount as i32))
        }
        Event::StartsBleeding { who, amount } => act(*who, format!("is bleeding ({amount} per turn)")),
        Event::StopsBleeding { who } => act(*who, "stops bleeding".to_string()),
        Event::RecurringDamage { who, dealt, effect } => act(*who, format!("takes {dealt} from {effect}")),
        Event::StandsUp { who } => act(*who, "stands up".to_string()),
        Event::DropsProne { who } => act(*who, "drops prone".to_string()),
        Event::TotalDefense { who, ac } => act(*who, format!("total defense (+{ac} dodge AC)")),
        Event::Declares { who, style, attack, off_hand, damage, ac } => {
            use super::style::Style;
            act(
                *who,
                match style {
                    Style::RapidShot => format!("rapid shot ({attack} on every attack, one more shot)"),
                    Style::DeadlyAim => format!("deadly aim ({attack} ranged attack, +{damage} damage)"),
                    Style::CombatExpertise => {
                        format!("combat expertise ({attack} melee attack and CMB, +{ac} dodge AC)")
                    }
                    Style::TwoWeapon => {
                        format!("fights with two weapons ({attack} main hand, {off_hand} off hand)")
                    }
                    Style::Cleave => format!("cleave ({ac} AC)"),
                    Style::Flurry => format!("flurry of blows ({attack:+} on every attack, more attacks)"),
                },
            )
        }
        Event::FightsDefensively { who, attack, ac } => {
            act(*who, format!("fights defensively ({attack} attack, +{ac} dodge AC)"))
        }
        Event::Casts { who, spell, slot, extract: true, .. } => {
            act(*who, format!("drinks an extract of {spell} (level {slot} extract)"))
        }
        Event::Casts { who, spell, metamagic, target, point, slot, dc, extract: false } => {
            let mut text = format!("casts {spell}");
            if !metamagic.is_empty() {
                let _ = write!(text, " ({})", metamagic.join(", "));
            }
            match (target, point) {
                (Some(t), _) => {
                    let _ = write!(text, " on {}", id(*t));
                }
                (None, Some(p)) => {
                    let _ = write!(text, " at {p}");
                }
                _ => {}
            }
            let slot = if *slot == 0 { "cantrip".to_string() } else { format!("level {slot} slot") };
            match dc {
                Some(dc) => {
                    let _ = write!(text, " ({slot}, DC {dc})");
                }
                None => {
                    let _ = write!(text, " ({slot})");
                }
            }
            act(*who, text)
        }
        Event::Summoned { who, at, rounds, hp } => {
            act(*who, format!("is summoned at {at} for {rounds} round(s) (hp {hp})"))
        }
        Event::SummonEnds { who } => act(*who, "vanishes (its summoning ends)".to_string()),
        Event::LeavesBattle { who, at, hp } => act(*who, format!("leaves the battle at {at} with {hp} hp")),
        Event::NoRoomToSummon { who, spell } => {
            act(*who, format!("{spell}: no free square for the summoned creature"))
        }
        Event::BeginsCasting { who, spell } => {
            act(*who, format!("begins casting {spell} (takes effect before its next turn)"))
        }
        Event::FinishesCasting { who, spell } => act(*who, format!("finishes casting {spell}")),
        Event::SpellLost { who, spell, why } => act(
            *who,
            match why {
                SpellLoss::CannotAct => format!("{spell} is lost (cannot act)"),
                SpellLoss::Concentration => format!("{spell} is lost"),
                SpellLoss::Fizzles => format!("{spell} fizzles"),
                SpellLoss::NoTarget => format!("{spell} has no valid target any more and is lost"),
            },
        ),
        Event::HoldsCharge { who, spell } => act(*who, format!("holds the charge of {spell}")),
        Event::CoupDeGrace { who, target, weapon, dealt, hp_before } => act(
            *who,
            format!(
                "coup de grace with {weapon} on {}: {dealt} damage, hp {hp_before} -> {}",
                id(*target),
                hp_before - *dealt as i32
            ),
        ),
        Event::CoupDeGraceSave { who, d20, bonus, dc, success } => act(
            *who,
            format!(
                "Fort save d20={d20}{bonus:+}={} vs DC {dc} -> {}",
                d20 + bonus,
                if *success { "survives" } else { "dies" }
            ),
        ),
        Event::GivesUpPrepared { who, given_up, spell } => {
            act(*who, format!("gives up {given_up} to cast {spell}"))
        }
        Event::ChargeDissipates { who, spell } => act(*who, format!("the held charge of {spell} dissipates")),
        Event::Reloads { who, weapon, ammunition_left, draws } => act(
            *who,
            match (ammunition_left, draws) {
                (Some(n), true) => format!("takes out a flask of {weapon} ({n} left)"),
                (Some(n), false) => format!("reloads {weapon} ({n} shots left)"),
                (None, _) => format!("reloads {weapon}"),
            },
        ),
        Event::Misdirected { who, weapon, d8, squares, at } => act(
            *who,
            format!(
                "{weapon} misses and lands {squares} square(s) off (d8={d8}) at ({}, {})",
                at.row, at.col
            ),
        ),
        Event::Splash { who, by, weapon, dealt, hp } => act(
            *who,
            format!("splashed by {}'s {weapon}: {dealt} (hp {hp}->{})", id(*by), hp - *dealt as i32),
        ),
        Event::Altitude { who, from_ft, to_ft } => act(*who, format!("altitude {from_ft} ft -> {to_ft} ft")),
        Event::FlyCheck { who, d20, bonus, total, dc, ok } => {
            let verdict = if *ok { "succeeds" } else { "fails" };
            act(*who, format!("Fly check d20={d20}{bonus:+}={total} vs DC {dc} -> {verdict}"))
        }
        Event::EscapeCheck { who, bond, skill, moving, d20, bonus, total, dc, ok, stopped_at } => {
            let verdict = match (*moving, *ok, stopped_at) {
                (false, true, _) => "breaks free".to_string(),
                (false, false, _) => "still caught".to_string(),
                (true, true, _) => "moves on".to_string(),
                (true, false, Some(p)) => format!("stopped at ({}, {})", p.row, p.col),
                (true, false, None) => "stopped".to_string(),
            };
            act(
                *who,
                format!("{skill:?} check against {bond} d20={d20}{bonus:+}={total} vs DC {dc} -> {verdict}"),
            )
        }
        Event::Falls { who, from_ft, feet, cause, damage } => {
            act(*who, format!("falls from {from_ft} ft ({}): {feet} ft, {damage} damage", cause.words()))
        }
        Event::Aura { who, source, ability, outcome, condition, rounds } => {
            let what = match (outcome, rounds) {
                (AuraOutcome::Immune, _) => "immune".to_string(),
                (AuraOutcome::Saved, _) => "saves".to_string(),
                (AuraOutcome::Affected, Some(n)) => format!("{condition} for {n} rounds"),
                (AuraOutcome::Affected, None) => condition.clone(),
            };
            act(*who, format!("meets {}'s {ability}: {what}", id(*source)))
        }
        Event::Concentration { who, cause, d20, bonus, total, dc, success } => {
            let verdict = if *success { "succeeds" } else { "fails" };
            let why = cause.words();
            act(*who, format!("concentration ({why}) d20={d20}{bonus:+}={total} vs DC {dc} -> {verdict}"))
        }
        Event::ChannelsEnergy { who, positive, dice, heals, creatures } => {
            let energy = if *positive { "positive" } else { "negative" };
            let mode = if *heals { "heals" } else { "harms" };
            act(
                *who,
                format!("channels {energy} energy ({dice}d6, {mode}), {creatures} creature(s) in 30 ft"),
            )
        }
        Event::UsesItem { who, wand, spell, target, left } => {
            let what = if *wand { "wand" } else { "potion" };
            let on = if who == target { String::new() } else { format!(" on {}", id(*target)) };
            act(*who, format!("uses a {what} of {spell}{on} ({left} left)"))
        }
        Event::ReadsScroll { who, spell, target, left } => {
            let on = if who == target { String::new() } else { format!(" on {}", id(*target)) };
            act(*who, format!("reads a scroll of {spell}{on} ({left} left)"))
        }
        Event::ItemCheck { who, check, spell, d20, bonus, total, dc, success } => {
            let verdict = if *success { "succeeds" } else { "fails" };
            act(
                *who,
                format!(
                    "{} check ({spell}) d20={d20}{bonus:+}={total} vs DC {dc} -> {verdict}",
                    check.words()
                ),
            )
        }
        Event::ItemMishap { who, spell, damage, hp_before, hp_after } => {
            act(*who, format!("mishap ({spell}): {damage} dmg to itself (hp {hp_before}->{hp_after})"))
        }
        Event::Healed { who, amount, hp_before, hp_after } => {
            act(*who, format!("heals {amount} (hp {hp_before}->{hp_after})"))
        }
        Event::Challenges { who, target, damage, dodge, left } => act(
            *who,
            format!(
                "challenges {} (+{damage} damage, +{dodge} dodge AC against it; {left} left)",
                id(*target)
            ),
        ),
        Event::ChallengeEnds { who, target } => act(*who, format!("challenge of {} ends", id(*target))),
        Event::Smites { who, target, evil, attack, damage, ac, left } => act(
            *who,
            format!(
                "smites {} {} (+{attack} attack, +{damage} damage, +{ac} deflection AC against it; {left} left)",
                if *evil { "evil" } else { "good" },
                id(*target)
            ),
        ),
        Event::Rages { who, hp, will, left } => {
            act(*who, format!("rages (+4 Str, +4 Con: +{hp} hp, +{will} Will, -2 AC; {left} rounds left)"))
        }
        Event::RageEnds { who, rounds, hp, fatigued } => {
            act(*who, format!("rage ends after {rounds} round(s) (-{hp} hp), fatigued for {fatigued} rounds"))
        }
        Event::LaysOnHands { who, target, dice, rolled, left, harms: true, .. } => {
            let what = if *rolled == 0 { String::from("misses") } else { format!("{dice}d6={rolled}") };
            act(*who, format!("lays on hands to harm {}: {what} ({left} left)", id(*target)))
        }
        Event::LaysOnHands { who, target, dice, rolled, healed, left, removed, .. } => {
            let on = if who == target { String::new() } else { format!(" on {}", id(*target)) };
            let ends =
                if removed.is_empty() { String::new() } else { format!(", ends {}", removed.join(", ")) };
            act(*who, format!("lays on hands{on}: {dice}d6={rolled}, heals {healed}{ends} ({left} left)"))
        }
        Event::RebukesDeath { who, target, rolled, bonus, healed, hp, left } => act(
            *who,
            format!(
                "rebukes death on {}: 1d4+{bonus}={}, heals {healed} to {hp} hp ({left} left)",
                id(*target),
                rolled + bonus
            ),
        ),
        Event::Ki { who, power, left } => act(
            *who,
            match power {
                super::event::KiPower::ExtraAttack => {
                    format!("spends ki: one more flurry attack ({left} left)")
                }
                super::event::KiPower::Dodge => format!("spends ki: +4 dodge AC ({left} left)"),
            },
        ),
        Event::StunningFist { who, target, dc, outcome, left } => {
            use super::event::StunOutcome as O;
            let what = match outcome {
                O::Missed => "missed",
                O::NoDamage => "no damage",
                O::Down => "the target is down",
                O::Immune => "cannot be stunned",
                O::Saved => "saved",
                O::Stunned => "stunned",
            };
            act(*who, format!("stunning fist on {} (Fort DC {dc}): {what} ({left} left)", id(*target)))
        }
        Event::Tactician { who, feat, allies, rounds } => {
            act(*who, format!("tactician: {feat} to {allies} ally(ies) for {rounds} rounds"))
        }
        Event::LionsCall { who, allies, attack, fear_saves, rounds } => act(
            *who,
            format!(
                "lion's call: {allies} ally(ies), +{attack} attack, +{fear_saves} saves vs fear, {rounds} rounds"
            ),
        ),
        Event::HuntersBond { who, target, bonus, allies, rounds } => act(
            *who,
            format!(
                "hunter's bond against {}: +{bonus} attack and damage to {allies} ally(ies) for {rounds} round(s)",
                id(*target)
            ),
        ),
        Event::ManeuverRoll { who, target, maneuver, d20, bonus, total, cmd, aoo_damage, success } => {
            let mut text =
                format!("{maneuver} vs {} CMB d20={d20}{bonus:+}={total} vs CMD {cmd}", id(*target));
            if *aoo_damage > 0 {
                let _ = write!(text, " [AoO damage -{aoo_damage}]");
            }
            let _ = write!(text, " -> {}", if *success { "success" } else { "failure" });
            act(*who, text)
        }
        Event::Maneuver { who, outcome } => act(*who, maneuver(outcome, ids)),
        Event::Affliction { who, what } => act(*who, affliction(what, ids)),
        Event::Save { who, kind, d20, bonus, total, dc, rolled_twice, success } => {
            let note = rolled_twice.map_or(String::new(), |[a, b]| format!(" (rolled twice: {a}, {b})"));
            let verdict = if *success { "saves" } else { "fails" };
            act(*who, format!("{kind} save d20={d20}{bonus:+}={total} vs DC {dc}{note} -> {verdict}"))
        }
        Event::Spell { who, spell, what } => act(*who, spell_event(spell, what, ids)),
        Event::SpellEffect { who, what } => act(*who, spell_effect(what)),
        Event::SpellDamage { who, target, dealt, rolled, types, hp_before, hp_after } => {
            let ty = if types.is_empty() { "untyped".to_string() } else { types.join("/") };
            let rolled = if dealt == rolled { String::new() } else { format!(" (rolled {rolled})") };
            act(
                *who,
                format!("{} takes {dealt} {ty} damage{rolled} (hp {hp_before}->{hp_after})", id(*target)),
            )
        }
        Event::CarriedEffect { who, effect, rounds } => act(
            *who,
            match rounds {
                Some(1) => format!("is still under {effect} from an earlier fight (1 round left)"),
                Some(n) => format!("is still under {effect} from an earlier fight ({n} rounds left)"),
                None => format!("is still under {effect} from an earlier fight"),
            },
        ),
        Event::EffectGained { who, effect, rounds } => act(
            *who,
            match rounds {
                Some(1) => format!("is affected by {effect} for 1 round"),
                Some(n) => format!("is affected by {effect} for {n} rounds"),
                None => format!("is affected by {effect}"),
            },
        ),
        Event::EffectEnds { who, effect, why } => act(*who, format!("{effect} {}", effect_end(*why))),
        Event::EffectLingers { who, effect, rounds } => {
            act(*who, format!("{effect} lasts {rounds} more rounds (out of the area)"))
        }
        Event::Turn { who, what } => act(*who, turn(what, ids)),
        Event::ClassAbility { who, what } => act(*who, class_ability(what, ids)),
        Event::Combat { who, what } => act(*who, combat(what, ids)),
        Event::Mounted { who, what } => act(*who, mounted(what, ids)),
        Event::Nonlethal { who, state, amount, nonlethal: nl, hp } => act(
            *who,
            match state {
                NonlethalState::Unconscious => format!("falls unconscious (nonlethal {nl} > hp {hp})"),
                NonlethalState::Staggered => format!("is staggered (nonlethal {nl} = hp {hp})"),
                NonlethalState::Takes => format!("takes {amount} nonlethal (nonlethal {nl}, hp {hp})"),
                NonlethalState::WakesUp => format!("wakes up (nonlethal {nl}, hp {hp})"),
            },
        ),
    }
}

fn source(s: ModSource) -> &'static str {
    match s {
        ModSource::Iterative => "iterative",
        ModSource::Charge => "charge",
        ModSource::Flanking => "flanking",
        ModSource::HighGround => "high ground",
        ModSource::Range => "range",
        ModSource::Cover => "cover",
        ModSource::TargetCharged => "target charged",
        ModSource::IntoMelee => "into melee",
        ModSource::Prone => "prone",
        ModSource::FightingDefensively => "fighting defensively",
        ModSource::Aided => "aided",
        ModSource::PowerAttack => "power attack",
        ModSource::TargetChallenging => "target challenging",
        ModSource::Smite => "smite",
        ModSource::TargetSmiting => "target smiting",
        ModSource::Invisible => "invisible",
        ModSource::TargetHelpless => "target helpless",
        ModSource::TargetProne => "target prone",
        ModSource::Dodge => "dodge",
        ModSource::TargetAided => "target aided",
        ModSource::DeadlyAim => "deadly aim",
        ModSource::CombatExpertise => "combat expertise",
        ModSource::RapidShot => "rapid shot",
        ModSource::TwoWeapon => "two weapons",
        ModSource::TargetCleaving => "target cleaving",
        ModSource::TargetNoShield => "target without shield",
        ModSource::TargetRusted => "target's rusted armor",
        ModSource::FavoredEnemy => "favored enemy",
        ModSource::HuntersBond => "hunter's bond",
        ModSource::Flurry => "flurry of blows",
        ModSource::Trample => "against a trample",
    }
}

fn attack(a: &Attack, target: &str) -> String {
    let mut text = String::new();
    if a.aoo {
        text.push_str("AoO: ");
    }
    let ac_kind = match a.ac_kind {
        AcKind::Normal => "AC",
        AcKind::Touch => "touch AC",
    };
    let _ =
        write!(text, "{} vs {target} d20={}{:+}={} {ac_kind} {}", a.weapon, a.d20, a.bonus, a.total, a.ac);
    let notes: Vec<String> = a
        .notes
        .iter()
        .map(|n| match n {
            AttackNote::Modifier { source: s, value } => format!("{} {value:+}", source(*s)),
            AttackNote::TargetRunningNoDex => "target running, no Dex".to_string(),
            AttackNote::TargetDeniedDex => "target denied Dex".to_string(),
            AttackNote::AttackerConditions { names } => format!("attacker {}", names.join(" ")),
            AttackNote::AttackerEffects { names } => format!("attacker under {}", names.join(", ")),
            AttackNote::TargetConditions { names } => format!("target {}", names.join(" ")),
            AttackNote::TargetEffects { names } => format!("target under {}", names.join(", ")),
        })
        .collect();
    if !notes.is_empty() {
        let _ = write!(text, " [{}]", notes.join(", "));
    }
    if a.d20 == 1 {
        text.push_str(" natural 1");
    } else if a.d20 == 20 {
        text.push_str(" natural 20");
    }
    for step in &a.steps {
        steps_text(&mut text, step);
    }
    text
}

fn steps_text(text: &mut String, step: &AttackStep) {
    let verdict = |missed: bool| if missed { "MISS" } else { "hits" };
    {
        match *step {
            AttackStep::Miss { misfire: true } => text.push_str(" -> MISS, MISFIRE (broken)"),
            AttackStep::Miss { misfire: false } => text.push_str(" -> MISS"),
            AttackStep::Hit => text.push_str(" -> HIT"),
            AttackStep::Threat { d20, bonus, total, crit_mult } => {
                let v = crit_mult.map_or("no crit".to_string(), |m| format!("CRIT x{m}"));
                let _ = write!(text, " -> HIT, threat: confirm d20={d20}{bonus:+}={total} -> {v},");
            }
            AttackStep::MissChance { blinded, chance, d100, missed } => {
                let why = if blinded { "attacker blinded" } else { "concealment" };
                let _ = write!(text, " {why} {chance}%: d100={d100} -> {}", verdict(missed));
            }
            AttackStep::BlindFightReroll { d100, missed } => {
                let _ = write!(text, ", Blind-Fight reroll d100={d100} -> {}", verdict(missed));
            }
            AttackStep::Image { die, roll, left } => {
                let _ = write!(text, " an image is attacked (1d{die}={roll})");
                if let Some(left) = left {
                    let _ = write!(text, ", destroyed ({left} left)");
                }
            }
            AttackStep::SneakAttack { dice } => {
                let _ = write!(text, " sneak attack +{dice}d6");
            }
            AttackStep::UpClose { dice } => {
                let _ = write!(text, " up close and deadly +{dice}d6");
            }
            AttackStep::VitalStrike { rolls } => {
                let _ = write!(text, " vital strike x{rolls} dice");
            }
            AttackStep::Manyshot { dealt } => {
                let _ = write!(text, " manyshot second arrow {dealt}");
            }
            AttackStep::Damage { dealt, rolled, hp_before, hp_after, temp } => {
                let _ = write!(text, " {dealt} dmg");
                if rolled != dealt {
                    let _ = write!(text, " (rolled {rolled})");
                }
                let _ = write!(text, " (hp {hp_before}->{hp_after}");
                if temp > 0 {
                    let _ = write!(text, ", {temp} on temporary hp");
                }
                text.push(')');
            }
        }
    }
}

fn names(who: &[usize], ids: &[String]) -> String {
    let id = |i: usize| ids.get(i).map_or("?", String::as_str);
    if who.is_empty() {
        "nobody".to_string()
    } else {
        who.iter().map(|&i| id(i)).collect::<Vec<_>>().join(", ")
    }
}

fn maneuver(o: &ManeuverOutcome, ids: &[String]) -> String {
    let id = |i: usize| ids.get(i).map_or("?", String::as_str);
    match o {
        ManeuverOutcome::TooLarge { maneuver, target } => {
            format!("{maneuver} on {} rejected (target too large)", id(*target))
        }
        ManeuverOutcome::NotATrick { condition } => {
            format!("dirty trick: {condition} is not a dirty trick condition")
        }
        ManeuverOutcome::LostToAoo { maneuver } => {
            format!("{maneuver} lost (fell to the attack of opportunity)")
        }
        ManeuverOutcome::Tripped => "is tripped: prone".to_string(),
        ManeuverOutcome::FailsAndFalls => "fails by 10 or more and falls prone".to_string(),
        ManeuverOutcome::Drops { weapon } => format!("drops its {weapon}"),
        ManeuverOutcome::FailsAndDrops { weapon } => format!("fails by 10 or more and drops its {weapon}"),
        ManeuverOutcome::Sundered { weapon, damage, broken } => {
            format!("its {weapon} takes {damage} damage{}", if *broken { ": broken" } else { "" })
        }
        ManeuverOutcome::Pushed { feet } => format!("is pushed {feet} ft"),
        ManeuverOutcome::Repositioned { feet } => format!("is repositioned {feet} ft"),
        ManeuverOutcome::Dragged { feet } => format!("is dragged {feet} ft"),
        ManeuverOutcome::Steals { from } => format!("steals a carried item from {}", id(*from)),
        ManeuverOutcome::GrappleNoRoom => "grapple FAILED (no adjacent space)".to_string(),
        ManeuverOutcome::GrapplePulls { target, to } => format!("grapple pulls {} to {to}", id(*target)),
        ManeuverOutcome::Grappled { by } => format!("is grappled by {}", id(*by)),
        ManeuverOutcome::Overruns { target, to: Some(to) } => format!("overruns {} to {to}", id(*target)),
        ManeuverOutcome::Overruns { target, to: None } => {
            format!("overruns {} but the square beyond is taken", id(*target))
        }
        ManeuverOutcome::KnockedProne => "is knocked prone".to_string(),
        ManeuverOutcome::Escapes => "escapes the grapple".to_string(),
        ManeuverOutcome::NoLongerGrappled => "is no longer grappled".to_string(),
    }
}

fn affliction(a: &AfflictionEvent, ids: &[String]) -> String {
    let id = |i: usize| ids.get(i).map_or("?", String::as_str);
    match a {
        AfflictionEvent::Immune { ability } => format!("is immune to {ability}"),
        AfflictionEvent::Strikes { ability, target } => format!("{ability} on {}", id(*target)),
        AfflictionEvent::Paralyzed { rounds: Some(n) } => format!("is paralyzed for {n} rounds"),
        AfflictionEvent::Paralyzed { rounds: None } => "is paralyzed".to_string(),
        AfflictionEvent::FallsAsleep { rounds: Some(n) } => format!("falls asleep for {n} rounds"),
        AfflictionEvent::FallsAsleep { rounds: None } => "falls asleep".to_string(),
        AfflictionEvent::Petrified => "is turned to stone".to_string(),
        AfflictionEvent::AbilityDamage { ability, amount, left } => {
            format!("takes {amount} {ability} damage ({left} left)")
        }
        AfflictionEvent::DiesOfConstitution => "dies (Constitution 0)".to_string(),
        AfflictionEvent::NegativeLevels { levels, total } => {
            format!("gains {levels} negative level(s) ({total} in all)")
        }
        AfflictionEvent::DiesOfNegativeLevels { total, hd } => {
            format!("dies ({total} negative levels, {hd} Hit Dice)")
        }
        AfflictionEvent::TemporaryHp { amount } => format!("gains {amount} temporary hp"),
        AfflictionEvent::AnotherDose { ability, rounds, dc } => {
            format!("takes another dose of {ability} ({rounds} rounds, DC {dc})")
        }
        AfflictionEvent::Poisoned { ability } => format!("is poisoned by {ability}"),
        AfflictionEvent::Cured { ability } => format!("is cured of {ability}"),
        AfflictionEvent::Gaze { source, ability, d100, averted: true } => {
            format!("averts its eyes from {}'s {ability} (d100={d100})", id(*source))
        }
        AfflictionEvent::Gaze { source, ability, d100, averted: false } => {
            format!("meets {}'s {ability} (d100={d100})", id(*source))
        }
        AfflictionEvent::Breath { ability, target, damage, dc, caught, again } => format!(
            "{ability} at {} ({damage} damage, Reflex DC {dc}; catches {}; again in round {again})",
            id(*target),
            names(caught, ids)
        ),
        AfflictionEvent::NoDamage => "takes no damage".to_string(),
        AfflictionEvent::Rends { ability, target } => format!("{ability} {}", id(*target)),
        AfflictionEvent::CatchesFire { rounds } => format!("catches fire ({rounds} rounds)"),
        AfflictionEvent::MaintainsHold { target } => format!("maintains its hold on {}", id(*target)),
        AfflictionEvent::LetsGo { target } => format!("lets go of {}", id(*target)),
        AfflictionEvent::Pins { target } => format!("pins {}", id(*target)),
        AfflictionEvent::Uses { ability } => format!("uses {ability}"),
        AfflictionEvent::Rusts { ability, item, ac_left, destroyed: true } => {
            format!("{ability}: the {item} falls to rust (AC bonus {ac_left})")
        }
        AfflictionEvent::Rusts { ability, item, ac_left, destroyed: false } => {
            format!("{ability}: the {item} is broken (AC bonus {ac_left})")
        }
        AfflictionEvent::NegativeEnergyHeals { amount } => format!("negative energy heals {amount}"),
        AfflictionEvent::Incorporeal { halved, from, to } => {
            let why = if *halved { "halved" } else { "none from a nonmagical weapon" };
            format!("incorporeal: damage {why} ({from} -> {to})")
        }
        AfflictionEvent::RegenerationStopped { by, through } => {
            let by = if by.is_empty() { "the hit".to_string() } else { by.join("/") };
            format!("regeneration stopped (by {by}) through round {through}")
        }
        AfflictionEvent::Heals { amount, hp_before, hp_after, nonlethal_before, nonlethal_after } => format!(
            "heals {amount} (hp {hp_before}->{hp_after}, nonlethal {nonlethal_before}->{nonlethal_after})"
        ),
        AfflictionEvent::RegenerationNonlethal { amount } => {
            format!("regeneration: the {amount} damage is nonlethal")
        }
        AfflictionEvent::Swallows { ability, target } => format!("{ability}: swallows {}", id(*target)),
        AfflictionEvent::CutsInside { d20, bonus, total, ac, damage, cut, needed } => {
            format!(
                "cuts inside d20={d20}+{bonus}={total} vs AC {ac}: {damage} damage ({cut}/{needed} to get free)"
            )
        }
        AfflictionEvent::CutsFree { from } => format!("cuts its way out of {}", id(*from)),
        AfflictionEvent::BackInMouth { from } => {
            format!("escapes back into {}'s mouth (still grappled)", id(*from))
        }
        AfflictionEvent::FallsOut { from } => format!("comes out of {}, fallen", id(*from)),
        AfflictionEvent::Engulfed { ability, by, how } => {
            let how = match how {
                EngulfedHow::Save => "failed save",
                EngulfedHow::AttackOfOpportunity => "attacked instead of saving",
                EngulfedHow::Helpless => "helpless",
            };
            format!("is engulfed by {}'s {ability} ({how}): pinned inside", id(*by))
        }
        AfflictionEvent::AvoidsEngulf { by } => format!("avoids {}'s engulf", id(*by)),
        AfflictionEvent::PushedAside { by, to } => format!("pushed aside by {} to {to}", id(*by)),
        AfflictionEvent::EscapesEngulf { from, to: Some(to) } => {
            format!("escapes from inside {} to {to}", id(*from))
        }
        AfflictionEvent::EscapesEngulf { from, to: None } => format!("escapes from inside {}", id(*from)),
        AfflictionEvent::Sings { ability } => format!("sings: {ability}"),
        AfflictionEvent::Captivated { ability, by } => format!("is captivated by {}'s {ability}", id(*by)),
        AfflictionEvent::Splits { ability, hp_before, hp, copy: Some(c), at: Some(q) } => format!(
            "takes no damage: its {ability} splits it ({hp_before} hp): it keeps {hp} hp, and {} appears at {q} with as many",
            id(*c)
        ),
        AfflictionEvent::Splits { ability, hp_before, hp, .. } => {
            format!("takes no damage: its {ability} halves it ({hp_before} hp to {hp}), no room for a copy")
        }
        AfflictionEvent::Berserk { ability, chance, d100 } => {
            format!(
                "goes berserk ({ability}: d% {d100} within {chance} %): it attacks the nearest living creature"
            )
        }
        AfflictionEvent::MagicHeals { ability, types, damage, healed, temp_hp, ends_spell } => format!(
            "its {ability}: {damage} {} damage heals {healed}{}{}",
            types.join("/"),
            if *temp_hp > 0 { format!(" and gives {temp_hp} temporary hit points") } else { String::new() },
            if *ends_spell { ", ending its slow" } else { "" }
        ),
        AfflictionEvent::MagicSlows { ability, types, rounds } => {
            format!("its {ability}: {} slows it for {rounds} rounds, no save", types.join("/"))
        }
        AfflictionEvent::CursedWound { ability, by, healer, d20, bonus, dc, overcome } => format!(
            "{}'s {ability}: {}'s caster level check {d20}+{bonus} = {} against DC {dc}: {}",
            id(*by),
            id(*healer),
            d20 + bonus,
            if *overcome { "the healing works" } else { "the healing has no effect" }
        ),
        AfflictionEvent::Dominates { ability, target } => format!("uses its {ability} on {}", id(*target)),
        AfflictionEvent::Dominated { ability, by } => {
            format!("is dominated by {}'s {ability}: it fights on its side", id(*by))
        }
        AfflictionEvent::Captive { by, beside: false } => {
            format!("captivated: walks toward {}", id(*by))
        }
        AfflictionEvent::Captive { by, beside: true } => {
            format!("captivated: stands beside {}, offering no resistance", id(*by))
        }
    }
}

fn spell_event(spell: &str, what: &SpellEvent, ids: &[String]) -> String {
    match what {
        SpellEvent::NoArea => format!("{spell}: the area has no square"),
        SpellEvent::Covers { squares, creatures } => {
            format!("{spell} covers {squares} squares: {}", names(creatures, ids))
        }
        SpellEvent::Immune => format!("is immune to {spell}"),
        SpellEvent::KeptOut => format!("is inside a globe that keeps {spell} out"),
        SpellEvent::Unheard => format!("does not hear {spell} in the silence"),
        SpellEvent::ImmuneAlready => format!("is immune to {spell} (affected by it already)"),
        SpellEvent::Disbelieves => format!("disbelieves {spell}"),
        SpellEvent::Slain => format!("is slain by {spell}"),
        SpellEvent::Warded => format!("is warded against {spell}"),
        SpellEvent::Lasts { until: Some(r) } => format!("{spell} lasts until round {r}"),
        SpellEvent::Lasts { until: None } => format!("{spell} lasts the battle"),
        SpellEvent::ZoneEnds => format!("{spell} ends"),
        SpellEvent::Dismissed => format!("dismisses {spell}"),
        SpellEvent::Redirected { target } => format!("directs {spell} at {}", names(&[*target], ids)),
        SpellEvent::ConstructEnds => format!("{spell} fades"),
        SpellEvent::Retaliates { attacker } => {
            format!("{spell} strikes back at {}", names(&[*attacker], ids))
        }
        SpellEvent::HandFormed { hp_lost } => format!("shapes {spell} from its life force (-{hp_lost} hp)"),
        SpellEvent::ByHand { target } => {
            format!("{spell} is carried by the spectral hand to {}", names(&[*target], ids))
        }
        SpellEvent::Teleports { from, to } => {
            format!(
                "{spell}: vanishes from ({}, {}) and appears at ({}, {})",
                from.row, from.col, to.row, to.col
            )
        }
        SpellEvent::NoArrival => format!("{spell}: the spot is taken, it stays"),
        SpellEvent::HandReturns { hp } => format!("{spell} ends: {hp} hp come back"),
        SpellEvent::ZoneMoves { to } => format!("{spell} moves to ({}, {})", to.row, to.col),
        SpellEvent::Delivered => format!("spellstrike delivers {spell}"),
        SpellEvent::Resistance { sr, d20, bonus, overcome } => format!(
            "spell resistance {sr}: caster level check d20={d20}{bonus:+}={} -> {}",
            d20 + bonus,
            if *overcome { "overcome" } else { "RESISTED" }
        ),
        SpellEvent::Dispel { d20, bonus, dc, dispelled } => format!(
            "dispel check vs {spell} d20={d20}{bonus:+}={} vs DC {dc} -> {}",
            d20 + bonus,
            if *dispelled { "dispelled" } else { "fails" }
        ),
    }
}

fn spell_effect(what: &SpellEffectEvent) -> String {
    match what {
        SpellEffectEvent::Evades => "evades the damage".to_string(),
        SpellEffectEvent::WardedOff => "wards off the damage".to_string(),
        SpellEffectEvent::Conditions { conditions } => {
            format!("is {}", conditions.iter().map(|c| c.name()).collect::<Vec<_>>().join(", "))
        }
        SpellEffectEvent::AbilityDamage { amount, ability } => format!("takes {amount} {ability} damage"),
        SpellEffectEvent::ImmuneToNegativeLevels => "is immune to negative levels".to_string(),
        SpellEffectEvent::NegativeLevels { levels } => format!("gains {levels} negative level(s)"),
        SpellEffectEvent::Stabilized => "is stabilized".to_string(),
        SpellEffectEvent::ResumesDying => "resumes dying".to_string(),
        SpellEffectEvent::MirrorImages { images } => format!("has {images} mirror images"),
        SpellEffectEvent::Resized { size } => format!("becomes {size:?}"),
        SpellEffectEvent::NoRoomToGrow => "has no room to grow".to_string(),
        SpellEffectEvent::Maneuver { maneuver, d20, bonus, total, cmd, holding, success } => format!(
            "{maneuver}{} CMB d20={d20}{bonus:+}={total} vs CMD {cmd} -> {}",
            if *holding { " (holding)" } else { "" },
            if *success { "success" } else { "failure" }
        ),
        SpellEffectEvent::HealedByNegativeEnergy { amount } => {
            format!("is healed {amount} by negative energy")
        }
        SpellEffectEvent::Slain => "is slain".to_string(),
        SpellEffectEvent::DropsHeld => "drops what it holds".to_string(),
    }
}

fn effect_end(why: EffectEnd) -> &'static str {
    match why {
        EffectEnd::WearsOff => "wears off",
        EffectEnd::Ends => "ends",
        EffectEnd::Spent => "is spent",
        EffectEnd::Discharged => "is discharged",
        EffectEnd::Dispelled => "is dispelled",
        EffectEnd::NewWard => "ends (a new ward)",
        EffectEnd::OutOfArea => "ends (out of the area)",
        EffectEnd::ShakenOff => "is shaken off",
        EffectEnd::BrokenThreatened => "is broken (threatened)",
        EffectEnd::Attacked => "ends (it attacked)",
        EffectEnd::Wounded => "ends (wounded)",
        EffectEnd::NoImageLeft => "is gone (no image left)",
        EffectEnd::Healed => "is healed",
        EffectEnd::UsedUp => "is used up",
        EffectEnd::BrokenFree => "is broken: free",
        EffectEnd::Released => "ends: released",
    }
}

fn turn(what: &TurnEvent, ids: &[String]) -> String {
    let id = |i: usize| ids.get(i).map_or("?", String::as_str);
    match what {
        TurnEvent::LosesTurn { conditions } => {
            format!("loses its turn ({})", conditions.iter().map(|c| c.name()).collect::<Vec<_>>().join(", "))
        }
        TurnEvent::Confused { d100, act } => {
            let what = match act {
                ConfusedAct::ActsNormally => "acts normally".to_string(),
                ConfusedAct::Babbles => "babbles incoherently".to_string(),
                ConfusedAct::HurtsItself { damage, hp } => {
                    format!("hurts itself for {damage} (hp {hp}->{})", hp - *damage as i32)
                }
                ConfusedAct::Attacks { target } => format!("attacks the nearest creature, {}", id(*target)),
                ConfusedAct::NobodyInReach => "nobody in reach to attack, babbles".to_string(),
            };
            format!("confused d%={d100}: {what}")
        }
        TurnEvent::BreaksFree => "spends its turn breaking free".to_string(),
        TurnEvent::Cursed { d100, percent } => format!("curse: d%={d100} <= {percent}: takes no action"),
        TurnEvent::Sanctuary { target } => {
            format!("cannot bring itself to attack {} (sanctuary)", id(*target))
        }
        TurnEvent::ImmediateAction => "immediate action".to_string(),
        TurnEvent::Pounces => "pounces".to_string(),
        TurnEvent::RunEndurance { d20, bonus, dc, ok } => format!(
            "run endurance: Con check d20={d20}{bonus:+}={} vs DC {dc} -> {}",
            d20 + bonus,
            if *ok { "goes on" } else { "run stopped" }
        ),
    }
}

fn class_ability(what: &ClassAbilityEvent, ids: &[String]) -> String {
    let id = |i: usize| ids.get(i).map_or("?", String::as_str);
    match what {
        ClassAbilityEvent::Hexes { target, hex, dc } => format!("hexes {} ({hex}, DC {dc})", id(*target)),
        ClassAbilityEvent::ImmuneMindAffecting => "is immune (mind-affecting)".to_string(),
        ClassAbilityEvent::ImmuneSleep => "is immune (mind-affecting sleep)".to_string(),
        ClassAbilityEvent::Cackles => "cackles".to_string(),
        ClassAbilityEvent::UsesPower { target, power, left } => {
            format!("uses {power} on {} ({left} left)", id(*target))
        }
        ClassAbilityEvent::ImmunePower { power } => format!("is unaffected by {power}"),
        ClassAbilityEvent::InspiresCourage { bonus } => format!("begins to inspire courage (+{bonus})"),
        ClassAbilityEvent::StopsPerforming => "stops performing".to_string(),
        ClassAbilityEvent::SpellCombatNoAttack { reason } => format!("spell combat: no attack ({reason})"),
        ClassAbilityEvent::Spellstrike { weapon } => format!("spellstrike with {weapon}"),
        ClassAbilityEvent::Accuracy { bonus, pool } => {
            format!("arcane accuracy: +{bonus} insight on attack rolls this turn (arcane pool {pool})")
        }
        ClassAbilityEvent::Enhances { weapon, bonus, pool } => {
            format!("enhances {weapon} +{bonus} (arcane pool {pool})")
        }
        ClassAbilityEvent::GritSpent { deed, grit } => format!("spends 1 grit on {deed} (grit {grit})"),
        ClassAbilityEvent::QuickClear { weapon, grit } => {
            format!("quick clear: {weapon} works again (grit {grit})")
        }
        ClassAbilityEvent::GunslingersDodge { grit } => format!("gunslinger's dodge: +2 AC (grit {grit})"),
        ClassAbilityEvent::FearAura { target } => format!("fear aura reaches {}", id(*target)),
        ClassAbilityEvent::LichTouch => "is paralyzed by the lich's touch".to_string(),
    }
}

fn mounted(what: &MountedEvent, ids: &[String]) -> String {
    let id = |i: usize| ids.get(i).map_or("?", String::as_str);
    match what {
        MountedEvent::Rides { mount } => format!("rides {} (it acts on its rider's initiative)", id(*mount)),
        MountedEvent::Charges { mount, target, weapon, mult } => {
            format!("charges {} on {} with its {weapon} (damage x{mult})", id(*target), id(*mount))
        }
        MountedEvent::Shields { mount, attacker, d20, bonus, attack, negated } => format!(
            "mounted combat for {} against {}: Ride d20={d20}{bonus:+}={} vs attack {attack} -> {}",
            id(*mount),
            id(*attacker),
            d20 + bonus,
            if *negated { "hit negated" } else { "fails" }
        ),
        MountedEvent::Directs { mount, d20, bonus, dc, ok } => format!(
            "directs {} to attack: Ride d20={d20}{bonus:+}={} vs {dc} -> {}",
            id(*mount),
            d20 + bonus,
            if *ok { "attacks" } else { "fails" }
        ),
        MountedEvent::StaysInSaddle { mount, chance } => {
            format!("stays in the saddle of {} ({chance}%)", id(*mount))
        }
        MountedEvent::Falls { mount, cause, ride, damage, prone, to } => {
            let why = match cause {
                DismountCause::MountDown => "its mount is down",
                DismountCause::MountProne => "its mount is prone",
                DismountCause::Unconscious => "unconscious",
                DismountCause::Dead => "dead",
                DismountCause::Unseated => "unseated",
            };
            let check = ride.map_or(String::new(), |(d, b)| format!(", Ride d20={d}{b:+}={} vs 15", d + b));
            let prone = if *prone { ", prone" } else { "" };
            format!("falls from {} to {to} ({why}{check}): {damage} damage{prone}", id(*mount))
        }
        MountedEvent::Unseats { target, d20, cmb, cmd, ok } => format!(
            "unseat {}: d20={d20}{cmb:+}={} vs CMD {cmd} -> {}",
            id(*target),
            d20 + cmb,
            if *ok { "knocked off" } else { "stays on" }
        ),
    }
}

fn combat(what: &CombatEvent, ids: &[String]) -> String {
    let id = |i: usize| ids.get(i).map_or("?", String::as_str);
    match what {
        CombatEvent::CannotTouch { target } => {
            format!("cannot touch {} (protection from its alignment)", id(*target))
        }
        CombatEvent::RollsTwice { first, second } => format!("rolls twice: {first}, {second}"),
        CombatEvent::UpCloseGrazes { target, amount } => {
            format!("up close and deadly grazes {} for {amount}", id(*target))
        }
        CombatEvent::DamageReduction { absorbed } => format!("damage reduction absorbs {absorbed}"),
        CombatEvent::PicksUp { weapon } => format!("picks up its {weapon}"),
        CombatEvent::Repairs { weapon } => format!("repairs its {weapon}"),
        CombatEvent::PowerAttack { penalty, damage } => {
            format!("power attack (-{penalty} melee attack and CMB, +{damage} damage)")
        }
        CombatEvent::AooSuppressed { target } => {
            format!("AoO on {} suppressed (total concealment)", id(*target))
        }
        CombatEvent::AooMovesThrough { target } => format!("AoO: {} moves through its space", id(*target)),
        CombatEvent::AidAnother { target, attack, d20, bonus, dc, given } => {
            let what = if *attack { "attack" } else { "AC" };
            let verdict = if *given > 0 { format!("+{given} {what}") } else { "fails".to_string() };
            format!(
                "aid another ({what}) for {} d20={d20}{bonus:+}={} vs {dc} -> {verdict}",
                id(*target),
                d20 + bonus
            )
        }
    }
}
