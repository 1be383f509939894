//! Conditions and effects on combatants during a battle: what they change
//! (modifiers through the stacking resolver, flags, speed, miss chance),
//! applying and removing them, durations, temporary hit points and saving
//! throws.
//!
//! The hot path pays for this layer only when a combatant carries something:
//! every query first tests the combatant's `mod_targets` (the targets some
//! modifier on it changes), folded whenever its conditions or effects change.

use crate::dice::ability_modifier;
use crate::effects::conditions::Summary;
use crate::effects::modifier::collect;
use crate::effects::{
    ActiveEffect, Behaviour, Behaviours, BonusType, ConditionId, ConditionSet, Context, Duration, Effect,
    Flags, ModTarget, SaveKind, SaveRoll, Tally, Targets, definition,
};
use crate::rng::Dice;

use super::engine::Engine;
use super::event::{EffectEnd, Event};
use super::log::emit;
use super::state::BattleState;

impl BattleState<'_> {
    /// Folds what `i`'s conditions and effects do (after any change).
    pub(crate) fn refresh_status(&mut self, i: usize) {
        let spec = &self.prep.fighters[i];
        let f = &mut self.fighters[i];
        let mut conds = f.base_conds;
        let mut targets = spec.mod_targets;
        let mut miss = 0u8;
        let mut fx = 0u32;
        for e in &f.effects {
            conds = conds.union(e.effect.conditions);
            targets = targets.union(e.effect.targets());
            miss = miss.max(e.effect.miss_chance);
            fx |= e.effect.behaviour_bits();
        }
        f.fx = fx;
        f.conds = conds;
        f.summary = Summary::of(conds);
        if Behaviours(fx).has(Behaviours::BOUND) && self.anchored(i) {
            // Bonds that hold it in place (Entangle): it cannot move at all.
            let f = &mut self.fighters[i];
            f.summary.flags = f.summary.flags.or(Flags::CANT_MOVE);
        }
        let f = &mut self.fighters[i];
        f.mod_targets = targets.union(f.summary.targets);
        f.miss_chance = miss.max(f.summary.miss_chance);
        let flags = f.summary.flags;
        // A captivated creature takes no action but to move (`monster::song`).
        let captive = Behaviours(fx).has(Behaviours::COMPEL) && self.captor(i).is_some();
        // A dominated one fights on its dominator's side (`monster::dominate`).
        let side = match self.dominator(i) {
            Some(d) => self.prep.fighters[d].side,
            None => spec.side,
        };
        let f = &mut self.fighters[i];
        f.side = side;
        // A blinded creature's attacks of opportunity fall to the total
        // concealment rule instead (`totally_concealed_from`), which the transcript notes.
        f.no_aoo = flags.has(Flags::CANT_AOO)
            || flags.has(Flags::CANT_ACT)
            || captive
            || (flags.has(Flags::FLAT_FOOTED) && !spec.feats.combat_reflexes);
        if Behaviours(fx).has(Behaviours::SIZE) || f.mobility.size != spec.nature.size {
            self.refit_size(i);
        }
    }

    /// The behaviour flags of `i`'s conditions.
    #[inline]
    pub fn flags(&self, i: usize) -> Flags {
        self.fighters[i].summary.flags
    }

    /// Adds to `tally` every modifier on `i` (features, conditions, effects)
    /// that applies to a roll reading `targets` in `ctx`.
    #[inline]
    pub(crate) fn collect_mods(&self, i: usize, targets: Targets, ctx: &Context, tally: &mut Tally) {
        let f = &self.fighters[i];
        if !f.mod_targets.meets(targets) {
            return;
        }
        self.collect_mods_slow(i, targets, ctx, tally);
    }

    #[cold]
    fn collect_mods_slow(&self, i: usize, targets: Targets, ctx: &Context, tally: &mut Tally) {
        let f = &self.fighters[i];
        let spec = &self.prep.fighters[i];
        if spec.mod_targets.meets(targets) {
            collect(&spec.mods, targets, ctx, tally);
        }
        if f.summary.targets.meets(targets) {
            for c in f.conds.iter() {
                collect(definition(c).mods, targets, ctx, tally);
            }
        }
        for e in &f.effects {
            collect(&e.effect.mods, targets, ctx, tally);
        }
    }

    /// The net modifier on `i` for a roll reading `targets` in `ctx`.
    pub(crate) fn modifier(&self, i: usize, targets: Targets, ctx: &Context) -> i32 {
        let mut t = Tally::new();
        self.collect_mods(i, targets, ctx, &mut t);
        t.total()
    }

    /// How much `i`'s Strength and Dexterity modifiers change from
    /// modifiers to its scores (fatigued −2, exhausted −6, grappled −4 Dex…).
    #[inline]
    pub(crate) fn ability_deltas(&self, i: usize) -> (i32, i32) {
        if !self.fighters[i].mod_targets.meets(Targets::STR_DEX) {
            return (0, 0);
        }
        let spec = &self.prep.fighters[i];
        let ds = self.score_modifier(i, ModTarget::Str);
        let dd = self.score_modifier(i, ModTarget::Dex);
        let change = |score: i32, d: i32| ability_modifier((score + d).max(0)) - ability_modifier(score);
        (change(spec.scores.str_score, ds), change(spec.scores.dex_score, dd))
    }

    /// Whether `t` is denied its Dexterity bonus to AC against `attacker`:
    /// a condition (flat-footed, blinded, stunned, helpless…), running
    /// without the Run feat, or an invisible attacker (CRB "Invisible").
    #[inline]
    pub(crate) fn denied_dex(&self, t: usize, attacker: Option<usize>) -> bool {
        let f = &self.fighters[t];
        f.summary.flags.has(Flags::DENIES_DEX)
            || (f.run.running && !self.prep.fighters[t].feats.run_feat)
            || attacker.is_some_and(|a| {
                self.fighters[a].summary.flags.has(Flags::INVISIBLE)
                    && !self.sees_invisible(t)
                    && !self.perceives_by_blindsight(t, a)
                    || self.captive_of(t, a)
            })
    }

    /// Whether `t` is helpless (effective Dexterity 0, +4 to melee attacks against it).
    #[inline]
    pub fn is_helpless(&self, t: usize) -> bool {
        self.fighters[t].summary.flags.has(Flags::HELPLESS)
    }

    /// The land (or fly) speed `i` moves at now: its speed with speed
    /// modifiers, times its conditions' multiplier; 0 when it cannot move.
    pub fn speed(&self, i: usize) -> u32 {
        // A rider moves at its mount's speed (CRB "Mounted Combat").
        if let Some(m) = self.fighters[i].mobility.riding {
            return self.speed(m);
        }
        let f = &self.fighters[i];
        let base = self.prep.fighters[i].speed_ft;
        if f.summary.flags.has(Flags::CANT_MOVE) {
            return 0;
        }
        let bonus = if f.mod_targets.meets(Targets::SPEED) {
            self.modifier(i, Targets::SPEED, &Context::default())
        } else {
            0
        };
        let mut speed = (base as i32 + bonus).max(0) as u32;
        if Behaviours(f.fx).has(Behaviours::SPEED) {
            speed = self.spell_speed(i, base, speed);
        }
        // Halved speeds round down to a whole square (CRB "Movement").
        if f.summary.speed_pct < 100 { speed * u32::from(f.summary.speed_pct) / 100 / 5 * 5 } else { speed }
    }

    /// The speed under spells that change it: a fly speed, a speed multiplied
    /// (Slow: half, rounded down to 5 ft) and capped at a multiple of the
    /// normal speed (Haste: twice).
    #[cold]
    fn spell_speed(&self, i: usize, base: u32, mut speed: u32) -> u32 {
        for e in &self.fighters[i].effects {
            for b in e.effect.behaviours.iter() {
                match *b {
                    Behaviour::Fly { speed_ft } => speed = speed.max(speed_ft),
                    Behaviour::SpeedFactor { percent, max_factor } => {
                        if max_factor > 0 {
                            speed = speed.min(base * u32::from(max_factor));
                        }
                        if percent < 100 {
                            speed = speed * u32::from(percent) / 100 / 5 * 5;
                        }
                    }
                    _ => {}
                }
            }
        }
        speed
    }

    /// What `i`'s state leaves of its turn: staggered (the condition, or
    /// disabled at 0 hit points), a single move action (nauseated, pinned),
    /// no attacks (panicked).
    pub(crate) fn turn_limits(&self, i: usize) -> super::economy::TurnLimits {
        let flags = self.flags(i);
        let held = self.fighters[i].monster.held_round;
        let single_move = if flags.has(Flags::SINGLE_MOVE) {
            Some(if self.has_condition(i, ConditionId::Pinned) {
                super::action::Reason::DowngradedPinned
            } else {
                super::action::Reason::DowngradedNauseated
            })
        } else if held != 0 && held == self.round {
            // A grab's hold maintained at the start of the turn spent its standard action.
            Some(super::action::Reason::DowngradedHolding)
        } else {
            None
        };
        super::economy::TurnLimits {
            staggered: self.life(i) == super::state::LifeState::Disabled
                || flags.has(Flags::STAGGERED)
                || self.nonlethal_staggered(i),
            single_move,
            no_attack: flags.has(Flags::NO_ATTACK),
        }
    }

    /// The modifiers on `i`'s concentration checks (Combat Casting's +4 when
    /// `defensive_or_grappled`): the spell rules add caster level and ability.
    pub fn concentration_modifier(&self, i: usize, defensive_or_grappled: bool) -> i32 {
        let ctx = Context { defensive_casting: defensive_or_grappled, ..Context::default() };
        self.modifier(i, Targets::CONCENTRATION, &ctx)
    }

    /// The save bonus of `i` against an effect described by `ctx`.
    pub fn save_bonus(&self, i: usize, kind: SaveKind, ctx: &Context) -> i32 {
        let spec = &self.prep.fighters[i];
        let base = match kind {
            SaveKind::Fort => spec.defense.saves.fort,
            SaveKind::Ref => spec.defense.saves.reflex,
            SaveKind::Will => spec.defense.saves.will,
        };
        let dex = if kind == SaveKind::Ref { self.ability_deltas(i).1 } else { 0 };
        let other = match kind {
            SaveKind::Fort => self.score_delta(i, ModTarget::Con, spec.scores.con_score),
            SaveKind::Will => self.score_delta(i, ModTarget::Wis, Some(spec.scores.wis_score)),
            SaveKind::Ref => 0,
        };
        // Channel resistance (UMR): checked only for saves against a channel.
        let channel =
            if ctx.channel { spec.monster.as_deref().map_or(0, |m| m.channel_resistance) } else { 0 };
        let mut mods = Tally::new();
        self.collect_mods(i, Targets::save(kind), ctx, &mut mods);
        if ctx.descriptors.has(crate::effects::Descriptor::Fear) && self.courage_near(i) {
            mods.add(BonusType::Morale, super::abilities::COURAGE_BONUS);
        }
        base + dex + other + channel + mods.total()
    }

    /// How much `i`'s modifier of an ability other than Strength and
    /// Dexterity changes from modifiers to its score (a Constitution or
    /// Wisdom bonus or penalty on saves).
    #[inline]
    pub(crate) fn score_delta(&self, i: usize, target: ModTarget, score: Option<i32>) -> i32 {
        if !self.fighters[i].mod_targets.meets(Targets::of(target)) {
            return 0;
        }
        let Some(score) = score else { return 0 };
        let d = self.score_modifier(i, target);
        ability_modifier((score + d).max(0)) - ability_modifier(score)
    }

    /// The net change to `i`'s ability score `target` (`ModTarget::Str` …
    /// `Cha`): its modifiers under the stacking rule, with the enhancement
    /// bonus a worn item already put in the printed score counted as one of
    /// them but not added again, so a spell's enhancement bonus adds only
    /// what exceeds the belt's or headband's (CRB "Bonus Types").
    pub(crate) fn score_modifier(&self, i: usize, target: ModTarget) -> i32 {
        let mut t = Tally::new();
        self.collect_mods(i, Targets::of(target), &Context::default(), &mut t);
        t.total_over(BonusType::Enhancement, self.prep.fighters[i].scores.item_enhancement(target))
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// Applies `effect` to `target`, created by `source` (whose turns count
    /// its rounds). An effect of the same name from the same source is
    /// refreshed instead of stacking (CRB: bonuses from the same source do
    /// not stack).
    pub(crate) fn apply_effect(&mut self, target: usize, effect: Effect, source: Option<usize>) {
        let rounds_left = match effect.duration {
            Duration::Rounds(n) => Some(n.max(1)),
            Duration::UntilRemoved => None,
        };
        let name = effect.name.clone();
        let temp = effect.temp_hp as i32;
        // Who carries the fight: a condition put on a foe counts for its source.
        if let Some(s) = source
            && !effect.conditions.is_empty()
            && self.st.side(s) != self.st.side(target)
        {
            self.st.fighters[s].out.conditions_inflicted += 1;
        }
        let f = &mut self.st.fighters[target];
        if let Some(k) = f.effects.iter().position(|e| e.effect.name == name && e.source == source) {
            let old = f.effects.remove(k);
            // A refreshed effect's hit points are given again below, not twice.
            f.hp -= old.effect.hp_bonus as i32;
            if old.rounds_left.is_some() {
                self.st.timed_effects -= 1;
            }
        }
        if rounds_left.is_some() {
            self.st.timed_effects += 1;
        }
        let since = self.st.round;
        let f = &mut self.st.fighters[target];
        // A temporary Constitution bonus raises current and maximum hit points alike.
        f.hp += effect.hp_bonus as i32;
        f.effects.push(ActiveEffect { effect, source, rounds_left, since });
        // Temporary hit points from different sources do not stack: the larger counts.
        if temp > f.temp_hp {
            f.temp_hp = temp;
            f.temp_hp_from = Some(name.clone());
        }
        self.st.refresh_status(target);
        emit!(self, Event::EffectGained { who: target, effect: name.to_string(), rounds: rounds_left });
    }

    /// Removes the effect at `k` of `i`'s effects; one that wears off begins
    /// its next stage (Color Spray).
    pub(crate) fn remove_effect_at(&mut self, i: usize, k: usize, why: EffectEnd) {
        let f = &mut self.st.fighters[i];
        let gone = f.effects.remove(k);
        let next = if why == EffectEnd::WearsOff {
            gone.effect.behaviours.iter().find_map(|b| match b {
                Behaviour::Then { next } => Some((**next).clone()),
                _ => None,
            })
        } else {
            None
        };
        if f.temp_hp_from.as_ref() == Some(&gone.effect.name) {
            f.temp_hp = 0;
            f.temp_hp_from = None;
        }
        if gone.rounds_left.is_some() {
            self.st.timed_effects -= 1;
        }
        self.st.refresh_status(i);
        emit!(self, Event::EffectEnds { who: i, effect: gone.effect.name.to_string(), why });
        if gone.effect.hp_bonus > 0 && !self.st.fighters[i].dead {
            // The hit points of a temporary Constitution bonus go with it
            // (CRB "Ability Score Bonuses"): not temporary hit points, so
            // their loss may leave the bearer dying or dead.
            let before = self.st.life(i);
            self.st.fighters[i].hp -= gone.effect.hp_bonus as i32;
            self.settle(i, before);
        }
        // A spectral hand's hit points come back however its spell ends.
        let hand = gone.effect.behaviours.iter().find_map(|b| match *b {
            Behaviour::TouchDelivery { hp_lost, .. } => Some(hp_lost),
            _ => None,
        });
        if let Some(hp) = hand {
            let spell = gone.effect.spell.map_or_else(
                || gone.effect.name.to_string(),
                |s| self.st.prep.spells[usize::from(s)].spell.name.to_string(),
            );
            self.hand_returns(i, &spell, hp);
        }
        if let Some(next) = next {
            self.apply_effect(i, next, gone.source);
        }
    }

    /// Removes every effect called `name` from `i`.
    pub(crate) fn remove_effects_named(&mut self, i: usize, name: &str) {
        while let Some(k) = self.st.fighters[i].effects.iter().position(|e| &*e.effect.name == name) {
            self.remove_effect_at(i, k, EffectEnd::Ends);
        }
    }

    /// Gives `i` condition `c` until something removes it.
    pub(crate) fn set_condition(&mut self, i: usize, c: ConditionId) {
        let f = &mut self.st.fighters[i];
        if !f.base_conds.has(c) {
            f.base_conds = f.base_conds.with(c);
            self.st.refresh_status(i);
        }
    }

    /// Takes condition `c` from `i` (its lasting form and every effect that gives it).
    pub(crate) fn clear_condition(&mut self, i: usize, c: ConditionId) {
        let f = &mut self.st.fighters[i];
        f.base_conds = f.base_conds.without(c);
        while let Some(k) = self.st.fighters[i].effects.iter().position(|e| e.effect.conditions.has(c)) {
            self.remove_effect_at(i, k, EffectEnd::Ends);
        }
        self.st.refresh_status(i);
    }

    /// Gives `i` condition `c` for `rounds` rounds counted on `source`'s turns.
    pub(crate) fn condition_for(&mut self, i: usize, c: ConditionId, rounds: u32, source: Option<usize>) {
        let effect = Effect::new(c.name(), Duration::Rounds(rounds)).with_conditions(ConditionSet::of(c));
        self.apply_effect(i, effect, source);
    }

    /// The start of `source`'s turn: its effects count one round down
    /// (and the source-less effects on it); expired ones end.
    pub(crate) fn tick_effects(&mut self, source: usize) {
        if self.st.timed_effects == 0 {
            return;
        }
        for j in 0..self.st.len() {
            let mut k = 0;
            while k < self.st.fighters[j].effects.len() {
                let e = &mut self.st.fighters[j].effects[k];
                let counts = e.source == Some(source) || (e.source.is_none() && j == source);
                if counts && e.tick() {
                    self.remove_effect_at(j, k, EffectEnd::WearsOff);
                } else {
                    k += 1;
                }
            }
        }
    }

    /// Removes `i`'s one-shot effects with a modifier that applied to the
    /// roll just made (a one-use bonus is spent by the first roll it helps).
    pub(crate) fn spend_one_shots(&mut self, i: usize, targets: Targets, ctx: &Context) {
        if self.st.fighters[i].effects.is_empty() {
            return;
        }
        while let Some(k) = self.st.fighters[i]
            .effects
            .iter()
            .position(|e| e.effect.one_shot && e.effect.mods.iter().any(|m| m.applies(targets, ctx)))
        {
            self.remove_effect_at(i, k, EffectEnd::Spent);
        }
    }

    /// A saving throw of `i` against `dc` for an effect described by `ctx`
    /// (its descriptors reach conditioned save modifiers).
    #[allow(dead_code, reason = "saves are rolled by spells and class abilities (issue 11); tests use it")]
    pub(crate) fn saving_throw(&mut self, i: usize, kind: SaveKind, dc: i32, ctx: &Context) -> SaveRoll {
        let bonus = self.st.save_bonus(i, kind, ctx);
        let d20 = self.rng.roll(20) as i32;
        let roll = SaveRoll::new(d20, bonus, dc);
        emit!(
            self,
            Event::Save {
                who: i,
                kind,
                d20,
                bonus,
                total: roll.total(),
                dc,
                rolled_twice: None,
                success: roll.success
            }
        );
        self.spend_one_shots(i, Targets::save(kind), ctx);
        roll
    }
}
