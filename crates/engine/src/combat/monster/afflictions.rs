//! What a monster's hit or gaze does to a creature that fails its save
//! (Bestiary, Universal Monster Rules): paralysis, petrification, ability
//! damage and drain (with their effect on derived numbers), energy drain
//! (negative levels), poison (save, frequency, effect, cure), bleed, burn,
//! trip and grab.
//!
//! Derived numbers: Strength and Dexterity damage are −N modifiers to the
//! scores, which the engine already turns into attack, damage, CMB, AC,
//! Reflex and CMD changes (`BattleState::ability_deltas`); Constitution
//! damage costs (lost modifier × Hit Dice) hit points at once. A score
//! brought to 0: Strength leaves the creature helpless, Dexterity
//! paralyzed, Constitution dead (CRB "Ability Score Damage"). Ability drain
//! is played as damage (nothing restores either in a battle).

use crate::dice::ability_modifier;
use crate::effects::effect::{ENERGY, Recurring};
use crate::effects::{
    Behaviour, BonusType, ConditionId, ConditionSet, Context, Descriptor, Descriptors, Duration,
    Effect as Fx, Maneuver, Mod, ModTarget, SaveKind,
};
use crate::model::PhysicalAbility;
use crate::rng::Dice;
use crate::spell::model::CreatureType;

use super::super::engine::Engine;
use super::super::event::{AfflictionEvent, Event, ManeuverOutcome};
use super::super::log::emit;
use super::super::prepared::monster::{Effect, Poisoned};
use super::super::state::BattleState;

use super::super::carry::HP_PER_NEGATIVE_LEVEL;
/// Temporary hit points the drainer gains per negative level.
pub(crate) const TEMP_HP_PER_NEGATIVE_LEVEL: i32 = 5;
pub(crate) use super::super::prepared::monster::GRAB_BONUS;
/// The DC increase of each extra dose of a poison (CRB "Poison": multiple doses).
pub(crate) const EXTRA_DOSE_DC: i32 = 2;

/// The names of the effects that carry ability damage (Str, Dex, Con).
const ABILITY_DAMAGE: [&str; 6] = [
    "Strength damage",
    "Dexterity damage",
    "Constitution damage",
    "Intelligence damage",
    "Wisdom damage",
    "Charisma damage",
];

/// The score of each ability, in the order of `PhysicalAbility` (Str, Dex,
/// Con, Int, Wis, Cha): what the modifiers of its damage change.
const ABILITY_TARGETS: [ModTarget; 6] =
    [ModTarget::Str, ModTarget::Dex, ModTarget::Con, ModTarget::Int, ModTarget::Wis, ModTarget::Cha];

/// The condition of a creature whose `k`th ability is damaged to 0, but
/// Constitution's (death): Strength helpless, Dexterity paralyzed (CRB
/// "Ability Scores"), a mental score unconscious (CRB "Ability Score
/// Damage, Penalty, and Drain": "you immediately fall unconscious").
const AT_ZERO: [ConditionId; 6] = [
    ConditionId::Helpless,
    ConditionId::Paralyzed,
    ConditionId::Helpless,
    ConditionId::Unconscious,
    ConditionId::Unconscious,
    ConditionId::Unconscious,
];

/// The scores of `spec` in the order of `PhysicalAbility` (none: it has no such score).
fn scores(spec: &super::super::prepared::FighterSpec) -> [Option<i32>; 6] {
    [
        Some(spec.scores.str_score),
        Some(spec.scores.dex_score),
        spec.scores.con_score,
        spec.scores.int_score,
        Some(spec.scores.wis_score),
        Some(spec.scores.cha_score),
    ]
}

/// The effect that carries `total` points of damage to ability `k` (Str, Dex, Con).
fn ability_damage_fx(k: usize, total: i32) -> Fx {
    let target = ABILITY_TARGETS[k];
    Fx::new(ABILITY_DAMAGE[k], Duration::UntilRemoved).with_mods(vec![Mod::new(
        target,
        -total,
        BonusType::Untyped,
    )])
}

/// The effect that carries `total` negative levels.
fn negative_levels_fx(total: u32) -> Fx {
    let mods = ModTarget::NEGATIVE_LEVEL
        .into_iter()
        .map(|target| Mod::new(target, -(total as i32), BonusType::Untyped))
        .collect();
    Fx::new("negative levels", Duration::UntilRemoved).with_mods(mods)
}

impl BattleState<'_> {
    /// Whether `t`'s immunities stop `e` outright (no save rolled).
    pub(crate) fn resists(&self, t: usize, e: &Effect) -> bool {
        let immune = &self.prep.fighters[t].defense.immune;
        match e {
            Effect::Paralysis(_) => {
                immune.conditions.has(ConditionId::Paralyzed) || immune.descriptors.has(Descriptor::Paralysis)
            }
            // Undead are immune to damage to their physical scores and to
            // every drain, constructs to all ability damage (Bestiary, Undead
            // and Construct Traits); a creature without the score is immune.
            Effect::AbilityDamage(a, _) => {
                let construct = self.prep.fighters[t].nature.ctype == Some(CreatureType::Construct);
                (immune.drain && (a.physical() || construct))
                    || scores(&self.prep.fighters[t])[a.index()].is_none()
            }
            Effect::AbilityDrain(a, ..) => {
                immune.drain || scores(&self.prep.fighters[t])[a.index()].is_none()
            }
            Effect::EnergyDrain(_) => immune.drain,
            // The one sleep rider of the files is a poison (the dark naga's).
            Effect::Sleep(_) => {
                immune.conditions.has(ConditionId::Asleep)
                    || immune.descriptors.has(Descriptor::Sleep)
                    || immune.descriptors.has(Descriptor::Poison)
            }
            Effect::Poison { .. } => immune.descriptors.has(Descriptor::Poison),
            Effect::Bleed(_) => immune.conditions.has(ConditionId::Bleeding),
            Effect::Condition(c, _) => immune.conditions.has(*c),
            // A creature immune to fire is spared by `burn` itself; rust
            // finds metal or not (`monster::rust`).
            Effect::Petrification | Effect::Trip | Effect::Grab | Effect::Burn { .. } | Effect::Rust => false,
        }
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// After attack `w` of `a` hit `t`: the riders of that attack, each
    /// with its save (immunities first).
    pub(crate) fn hit_riders(&mut self, a: usize, w: usize, t: usize) {
        let prep = self.st.prep;
        let Some(m) = prep.fighters[a].monster.as_deref() else { return };
        for (k, r) in m.riders.iter().enumerate() {
            if w >= 64 || r.attacks >> w & 1 == 0 {
                continue;
            }
            self.apply_rider(a, k, t);
        }
    }

    /// What rider `k` of `a` does to `t` (a hit's, or an engulf's): its
    /// immunities, its save, its effect.
    pub(crate) fn apply_rider(&mut self, a: usize, k: usize, t: usize) {
        let prep = self.st.prep;
        let Some(r) = prep.fighters[a].monster.as_deref().and_then(|m| m.riders.get(k)) else { return };
        if !self.st.is_present(t) || self.st.fighters[t].dead {
            return;
        }
        if r.immune_features.iter().any(|f| super::has_feature(&prep.fighters[t], f)) {
            emit!(
                self,
                Event::Affliction { who: t, what: AfflictionEvent::Immune { ability: r.name.to_string() } }
            );
            return;
        }
        match &r.effect {
            Effect::Trip => self.free_trip(a, t),
            Effect::Grab => self.grab(a, t),
            Effect::Poison { .. } => self.poison_dose(a, k, t),
            Effect::Burn { .. } => self.burn(a, k, t),
            Effect::Rust => self.rust(a, k, t),
            e => {
                if self.st.resists(t, e) {
                    return;
                }
                // A wraith gains its temporary hit points on each hit, saved or not.
                if let Effect::AbilityDrain(_, _, temp) = e
                    && *temp > 0
                {
                    self.gain_temp_hp(a, *temp as i32, &r.name);
                }
                let saved = match r.save {
                    Some(kind) => self.rider_save(a, t, kind, r.dc, e),
                    None => false,
                };
                if !saved {
                    let e = e.clone();
                    emit!(
                        self,
                        Event::Affliction {
                            who: a,
                            what: AfflictionEvent::Strikes { ability: r.name.to_string(), target: t }
                        }
                    );
                    self.afflict(a, t, &e, &r.name);
                }
            }
        }
    }

    /// The save of `t` against effect `e` of `a`.
    pub(crate) fn rider_save(&mut self, a: usize, t: usize, kind: SaveKind, dc: i32, e: &Effect) -> bool {
        let descriptor = match e {
            Effect::Paralysis(_) => Some(Descriptor::Paralysis),
            Effect::Poison { .. } => Some(Descriptor::Poison),
            Effect::Sleep(_) => Some(Descriptor::Sleep),
            _ => None,
        };
        let ctx = Context {
            descriptors: descriptor.map_or(Descriptors::default(), |d| Descriptors::of(&[d])),
            other_alignment: self.st.prep.fighters[a].nature.alignment,
            ..Context::default()
        };
        self.roll_save(t, kind, dc, &ctx)
    }

    /// Applies effect `e` (named `name`) of `a` on `t`: the save already failed.
    pub(crate) fn afflict(&mut self, a: usize, t: usize, e: &Effect, name: &str) {
        match e {
            Effect::Paralysis(rounds) => {
                let duration = match rounds {
                    Some(d) => {
                        let n = d.roll(self.rng).max(1) as u32;
                        emit!(
                            self,
                            Event::Affliction {
                                who: t,
                                what: AfflictionEvent::Paralyzed { rounds: Some(n) }
                            }
                        );
                        Duration::Rounds(n)
                    }
                    None => {
                        emit!(
                            self,
                            Event::Affliction { who: t, what: AfflictionEvent::Paralyzed { rounds: None } }
                        );
                        Duration::UntilRemoved
                    }
                };
                let fx = Fx::new(name, duration).with_conditions(ConditionSet::of(ConditionId::Paralyzed));
                self.apply_effect(t, fx, Some(a));
            }
            Effect::Petrification => {
                emit!(self, Event::Affliction { who: t, what: AfflictionEvent::Petrified });
                self.slay(t);
            }
            Effect::Sleep(rounds) => {
                let rounds = rounds.as_ref().map(|d| d.roll(self.rng).max(1) as u32);
                emit!(self, Event::Affliction { who: t, what: AfflictionEvent::FallsAsleep { rounds } });
                let fx = Fx::new(name, rounds.map_or(Duration::UntilRemoved, Duration::Rounds))
                    .with_conditions(ConditionSet::of(ConditionId::Asleep))
                    .with_behaviours(vec![Behaviour::EndsOnDamage]);
                self.apply_effect(t, fx, Some(a));
            }
            Effect::AbilityDamage(ability, amount) | Effect::AbilityDrain(ability, amount, _) => {
                let n = amount.roll(self.rng).max(1);
                self.ability_damage(t, *ability, n, name);
            }
            Effect::EnergyDrain(levels) => self.energy_drain(a, t, *levels, name),
            Effect::Bleed(amount) => {
                let n = amount.roll(self.rng).max(1) as u32;
                self.start_bleeding(t, n);
            }
            Effect::Condition(c, rounds) => {
                let rounds = rounds.as_ref().map(|d| d.roll(self.rng).max(1) as u32);
                let conditions = self.allowed_conditions(t, &[*c], false);
                if conditions.is_empty() {
                    return;
                }
                let fx = Fx::new(name, rounds.map_or(Duration::UntilRemoved, Duration::Rounds))
                    .with_conditions(ConditionSet::EMPTY.union(conditions));
                self.apply_effect(t, fx, Some(a));
            }
            Effect::Poison { .. } | Effect::Trip | Effect::Grab | Effect::Burn { .. } | Effect::Rust => {}
        }
    }

    /// `n` points of damage to `ability` of `t`, with their effect on derived numbers.
    pub(crate) fn ability_damage(&mut self, t: usize, ability: PhysicalAbility, n: i32, name: &str) {
        if n <= 0 || (self.st.prep.fighters[t].defense.immune.drain && ability.physical()) {
            return;
        }
        let spec = &self.st.prep.fighters[t];
        let k = ability.index();
        let target = ABILITY_TARGETS[k];
        let Some(score) = scores(spec)[k] else { return };
        let hd = spec.nature.hd.max(1) as i32;
        let before = self.st.fighters[t].monster.ability_damage[k];
        let after = before + n;
        self.st.fighters[t].monster.ability_damage[k] = after;
        let left = (score - after).max(0);
        emit!(
            self,
            Event::Affliction {
                who: t,
                what: AfflictionEvent::AbilityDamage { ability: target.name().to_string(), amount: n, left }
            }
        );
        // One effect per ability carries the running total (a new one of the
        // same name and source replaces the old).
        self.apply_effect(t, ability_damage_fx(k, after), None);
        match ability {
            PhysicalAbility::Con => {
                let lost = (ability_modifier(score - before) - ability_modifier(left)) * hd;
                if left == 0 {
                    emit!(self, Event::Affliction { who: t, what: AfflictionEvent::DiesOfConstitution });
                    self.slay(t);
                } else if lost > 0 {
                    self.wound_lethal(t, lost as u32);
                }
            }
            _ if left == 0 => {
                let fx = Fx::new(name, Duration::UntilRemoved).with_conditions(ConditionSet::of(AT_ZERO[k]));
                self.apply_effect(t, fx, None);
            }
            _ => {}
        }
    }

    /// `levels` negative levels on `t` from `a` (UMR "Energy Drain"): −1 on
    /// attack rolls, saves, skill and ability checks, CMB and CMD each, 5 hit
    /// points each; as many negative levels as Hit Dice kill; the drainer
    /// gains 5 temporary hit points per level.
    pub(crate) fn energy_drain(&mut self, a: usize, t: usize, levels: u32, name: &str) {
        if levels == 0 || self.st.prep.fighters[t].defense.immune.drain {
            return;
        }
        let n = levels as i32;
        let total = self.st.fighters[t].monster.negative_levels + levels;
        self.st.fighters[t].monster.negative_levels = total;
        emit!(self, Event::Affliction { who: t, what: AfflictionEvent::NegativeLevels { levels, total } });
        // One effect carries the running total (it replaces the previous one).
        self.apply_effect(t, negative_levels_fx(total), None);
        self.gain_temp_hp(a, TEMP_HP_PER_NEGATIVE_LEVEL * n, name);
        if total >= self.st.prep.fighters[t].nature.hd.max(1) {
            emit!(
                self,
                Event::Affliction {
                    who: t,
                    what: AfflictionEvent::DiesOfNegativeLevels {
                        total,
                        hd: self.st.prep.fighters[t].nature.hd
                    }
                }
            );
            self.slay(t);
            return;
        }
        self.wound_lethal(t, HP_PER_NEGATIVE_LEVEL * levels);
    }

    /// The penalties of the negative levels and ability damage `t` carries
    /// into this battle of a day (its hit points already carry their loss):
    /// the same effects as when it took them, a score at 0 included.
    pub(crate) fn carry_afflictions(&mut self, t: usize) {
        let levels = self.st.fighters[t].monster.negative_levels;
        if levels > 0 {
            self.apply_effect(t, negative_levels_fx(levels), None);
        }
        let spec = &self.st.prep.fighters[t];
        for (k, score) in scores(spec).into_iter().enumerate() {
            let damage = self.st.fighters[t].monster.ability_damage[k];
            let Some(score) = score.filter(|_| damage > 0) else { continue };
            self.apply_effect(t, ability_damage_fx(k, damage), None);
            // Constitution at 0 is death, never carried.
            if score - damage <= 0 && k != 2 {
                let fx = Fx::new(ABILITY_DAMAGE[k], Duration::UntilRemoved)
                    .with_conditions(ConditionSet::of(AT_ZERO[k]));
                self.apply_effect(t, fx, Some(t));
            }
        }
    }

    /// `i` gains `n` temporary hit points (they do not stack: the larger stays).
    pub(crate) fn gain_temp_hp(&mut self, i: usize, n: i32, name: &str) {
        let f = &mut self.st.fighters[i];
        if n > f.temp_hp {
            f.temp_hp = n;
            f.temp_hp_from = Some(std::sync::Arc::from(name));
            emit!(self, Event::Affliction { who: i, what: AfflictionEvent::TemporaryHp { amount: n } });
        }
    }

    /// A poison's dose from rider `k` of `a` on `t`: the initial save (a
    /// success ends it), then one save a round (`poison_turn`). An extra dose
    /// of a running poison adds half its duration and +2 to its DC.
    fn poison_dose(&mut self, a: usize, k: usize, t: usize) {
        let prep = self.st.prep;
        let Some(r) = prep.fighters[a].monster.as_deref().and_then(|m| m.riders.get(k)) else { return };
        let Effect::Poison { ability, amount, rounds, .. } = &r.effect else { return };
        if self.st.resists(t, &r.effect) {
            return;
        }
        if let Some(p) = self.st.fighters[t].monster.poisons.iter_mut().find(|p| p.from == a && p.rider == k)
        {
            p.rounds_left += rounds / 2;
            p.dc += EXTRA_DOSE_DC;
            let (left, dc) = (p.rounds_left, p.dc);
            emit!(
                self,
                Event::Affliction {
                    who: t,
                    what: AfflictionEvent::AnotherDose { ability: r.name.to_string(), rounds: left, dc }
                }
            );
            return;
        }
        let kind = r.save.unwrap_or(SaveKind::Fort);
        if self.rider_save(a, t, kind, r.dc, &r.effect) {
            return;
        }
        emit!(
            self,
            Event::Affliction { who: t, what: AfflictionEvent::Poisoned { ability: r.name.to_string() } }
        );
        let n = amount.roll(self.rng).max(1);
        self.ability_damage(t, *ability, n, &r.name);
        if *rounds > 1 {
            let dose = Poisoned { from: a, rider: k, rounds_left: rounds - 1, dc: r.dc, successes: 0 };
            self.st.fighters[t].monster.poisons.push(dose);
        }
    }

    /// The start of `t`'s turn: one save against each running poison; a
    /// failure deals its effect, `cure` consecutive successes end it.
    pub(crate) fn poison_turn(&mut self, t: usize) {
        let prep = self.st.prep;
        let mut j = 0;
        while j < self.st.fighters[t].monster.poisons.len() {
            let p = self.st.fighters[t].monster.poisons[j].clone();
            let Some(r) = prep.fighters[p.from].monster.as_deref().and_then(|m| m.riders.get(p.rider)) else {
                j += 1;
                continue;
            };
            let Effect::Poison { ability, amount, cure, .. } = &r.effect else {
                j += 1;
                continue;
            };
            let kind = r.save.unwrap_or(SaveKind::Fort);
            let saved = self.rider_save(p.from, t, kind, p.dc, &r.effect);
            let successes = if saved { p.successes + 1 } else { 0 };
            if !saved {
                let n = amount.roll(self.rng).max(1);
                self.ability_damage(t, *ability, n, &r.name);
            }
            let f = &mut self.st.fighters[t];
            if f.dead {
                return;
            }
            let q = &mut f.monster.poisons[j];
            q.successes = successes;
            q.rounds_left -= 1;
            if successes >= *cure || q.rounds_left == 0 {
                f.monster.poisons.remove(j);
                if successes >= *cure {
                    emit!(
                        self,
                        Event::Affliction {
                            who: t,
                            what: AfflictionEvent::Cured { ability: r.name.to_string() }
                        }
                    );
                }
            } else {
                j += 1;
            }
        }
    }

    /// The end of a battle of an adventuring day: the poisons still running
    /// in a living creature run their course (CRB "Poison": a frequency of
    /// 1/round goes on after the fight), one save a round until cured or
    /// over. The time between fights (a minute at least, `docs/days.md`)
    /// outlasts any poison of the data, so they are rolled now, on the
    /// battle's dice, rather than carried (`docs/rules/monsters.md`).
    pub(crate) fn poisons_run_their_course(&mut self) {
        for t in 0..self.st.len() {
            let most = self.st.fighters[t].monster.poisons.iter().map(|p| p.rounds_left).max().unwrap_or(0);
            for _ in 0..most {
                if self.st.fighters[t].dead || self.st.fighters[t].monster.poisons.is_empty() {
                    break;
                }
                self.poison_turn(t);
            }
        }
    }

    /// Burn (UMR "Burn") from rider `k` of `a` on `t`: its fire damage on
    /// the hit, then a Reflex save or `t` catches fire: the same dice of fire
    /// damage at the start of each of its turns for the rolled rounds (an
    /// effect `a` created, counted on `a`'s turns; a new burn refreshes it).
    /// A creature immune to fire neither takes it nor catches fire.
    fn burn(&mut self, a: usize, k: usize, t: usize) {
        let prep = self.st.prep;
        let Some(r) = prep.fighters[a].monster.as_deref().and_then(|m| m.riders.get(k)) else { return };
        let Effect::Burn { damage, rounds } = &r.effect else { return };
        let fire = ENERGY.iter().position(|e| *e == "fire").unwrap_or(3);
        if prep.fighters[t].defense.energy_immune >> fire & 1 == 1 {
            return;
        }
        emit!(
            self,
            Event::Affliction {
                who: a,
                what: AfflictionEvent::Strikes { ability: r.name.to_string(), target: t }
            }
        );
        let n = damage.roll(self.rng).max(0) as u32;
        self.spell_damage(a, t, n, &[ENERGY[fire].to_string()], false, None);
        if !self.st.is_present(t) || self.st.fighters[t].dead {
            return;
        }
        if self.rider_save(a, t, r.save.unwrap_or(SaveKind::Ref), r.dc, &r.effect) {
            return;
        }
        let rounds = rounds.roll(self.rng).max(1) as u32;
        emit!(self, Event::Affliction { who: t, what: AfflictionEvent::CatchesFire { rounds } });
        let mut fx = Fx::new(&r.name, Duration::Rounds(rounds));
        fx.recurring = Some(Recurring { dice: damage.clone(), energy: Some(fire as u8), nonlethal: false });
        self.apply_effect(t, fx, Some(a));
    }

    /// A free trip attempt on a hit (UMR "Trip"): no attack of opportunity,
    /// and a failure never trips the attacker.
    fn free_trip(&mut self, a: usize, t: usize) {
        if self.st.is_prone(t) || !self.st.is_active(t) || self.st.size(t) as u8 >= self.st.size(a) as u8 + 2
        {
            return;
        }
        let bonus = self.st.cmb(a, Maneuver::Trip, t);
        if self.maneuver_roll(a, Maneuver::Trip, t, bonus, 0).success {
            self.set_condition(t, ConditionId::Prone);
            emit!(self, Event::Maneuver { who: t, outcome: ManeuverOutcome::Tripped });
        }
    }

    /// A free grapple attempt on a hit (UMR "Grab": +4, no attack of
    /// opportunity); constrict damage when it holds (`hold::hold_damage`).
    fn grab(&mut self, a: usize, t: usize) {
        if self.st.fighters[t].grappled_with == Some(a)
            || !self.st.is_active(t)
            || self.st.size(t) as u8 > self.st.size(a) as u8
        {
            return;
        }
        let bonus = self.st.cmb(a, Maneuver::Grapple, t) + GRAB_BONUS;
        if self.maneuver_roll(a, Maneuver::Grapple, t, bonus, 0).success {
            self.grapple(a, t);
            if self.st.fighters[t].grappled_with == Some(a) {
                self.hold_damage(a, t, false);
            }
        }
    }
}
