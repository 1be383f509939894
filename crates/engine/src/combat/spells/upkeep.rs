//! What lasting spell effects do turn by turn: new saves against a
//! condition, the chance to lose a turn, compulsions, effects that end when
//! their bearer attacks or is wounded, Sanctuary and Mirror Image against
//! attackers, and saving throws rolled twice (misfortune, fortune).

use crate::effects::{Behaviour, Behaviours, Compulsion, Context, Retry, SaveKind, SaveRoll, Targets};
use crate::rng::Dice;

use super::super::action::{Action, ActionKind};
use super::super::engine::Engine;
use super::super::event::{EffectEnd, Event, TurnEvent};
use super::super::log::emit;

impl<R: Dice> Engine<'_, '_, R> {
    /// New saves at the start of `i`'s turn, before its conditions decide
    /// whether it acts (Hold Person: the save is the turn's full-round
    /// action; Hideous Laughter: once). Whether the turn goes on.
    pub(crate) fn retry_saves(&mut self, i: usize) -> bool {
        let fx = Behaviours(self.st.fighters[i].fx);
        let mut goes_on = true;
        if fx.has(Behaviours::SAVE_AGAIN) {
            let mut k = 0;
            while k < self.st.fighters[i].effects.len() {
                let again = self.st.fighters[i].effects[k].effect.behaviours.iter().find_map(|b| match b {
                    Behaviour::SaveAgain { kind, dc, when, descriptors } if *when != Retry::EachTurnEnd => {
                        Some((*kind, *dc, *when, *descriptors))
                    }
                    _ => None,
                });
                let Some((kind, dc, when, descriptors)) = again else {
                    k += 1;
                    continue;
                };
                let ctx = Context { descriptors, spell: true, ..Context::default() };
                let ok = self.roll_save(i, kind, dc, &ctx);
                if ok {
                    self.remove_effect_at(i, k, EffectEnd::ShakenOff);
                    // Saving again is a full-round action (Hold Person, Hideous Laughter).
                    goes_on = false;
                } else if when == Retry::NextTurn {
                    let behaviours: Vec<Behaviour> = self.st.fighters[i].effects[k]
                        .effect
                        .behaviours
                        .iter()
                        .filter(|b| !matches!(b, Behaviour::SaveAgain { .. }))
                        .cloned()
                        .collect();
                    self.st.fighters[i].effects[k].effect.behaviours = behaviours.into();
                    self.st.refresh_status(i);
                    k += 1;
                } else {
                    k += 1;
                }
            }
            if !goes_on {
                emit!(self, Event::Turn { who: i, what: TurnEvent::BreaksFree });
                return false;
            }
        }
        true
    }

    /// Spell effects at the start of `i`'s turn, once it may act: compulsions
    /// that end when the caster's side threatens, and the chance to lose the
    /// turn (Bestow Curse). Whether the turn goes on.
    pub(crate) fn spell_upkeep(&mut self, i: usize) -> bool {
        let fx = Behaviours(self.st.fighters[i].fx);
        if fx.has(Behaviours::COMPEL) {
            self.end_threatened_compulsions(i);
        }
        if fx.has(Behaviours::ACTION_LOSS) {
            let percent = self.st.fighters[i]
                .effects
                .iter()
                .flat_map(|e| e.effect.behaviours.iter())
                .filter_map(|b| match b {
                    Behaviour::ActionLoss { percent } => Some(*percent),
                    _ => None,
                })
                .max()
                .unwrap_or(0);
            let d100 = self.rng.roll(100);
            if d100 <= u32::from(percent) {
                emit!(self, Event::Turn { who: i, what: TurnEvent::Cursed { d100, percent } });
                return false;
            }
        }
        true
    }

    /// New saves at the end of `i`'s turn (Glitterdust's blindness).
    pub(crate) fn end_of_turn_saves(&mut self, i: usize) {
        if !Behaviours(self.st.fighters[i].fx).has(Behaviours::SAVE_AGAIN) || !self.st.is_present(i) {
            return;
        }
        let mut k = 0;
        while k < self.st.fighters[i].effects.len() {
            let again = self.st.fighters[i].effects[k].effect.behaviours.iter().find_map(|b| match b {
                Behaviour::SaveAgain { kind, dc, when: Retry::EachTurnEnd, descriptors } => {
                    Some((*kind, *dc, *descriptors))
                }
                _ => None,
            });
            match again {
                Some((kind, dc, descriptors)) => {
                    let ctx = Context { descriptors, spell: true, ..Context::default() };
                    if self.roll_save(i, kind, dc, &ctx) {
                        self.remove_effect_at(i, k, EffectEnd::Ends);
                    } else {
                        k += 1;
                    }
                }
                None => k += 1,
            }
        }
    }

    /// A compulsion whose caster's side now threatens its bearer ends (Charm Person).
    fn end_threatened_compulsions(&mut self, i: usize) {
        let mut k = 0;
        while k < self.st.fighters[i].effects.len() {
            let ends = self.st.fighters[i].effects[k].effect.behaviours.iter().any(|b| match b {
                Behaviour::Compel { caster, ends_when_threatened: true, .. } => (0..self.st.len()).any(|j| {
                    !self.st.are_enemies(j, *caster) && self.st.are_enemies(j, i) && self.st.threatens(j, i)
                }),
                _ => false,
            });
            if ends {
                self.remove_effect_at(i, k, EffectEnd::BrokenThreatened);
            } else {
                k += 1;
            }
        }
    }

    /// The compulsion `i` is under, if any: what it must do and its caster.
    pub(crate) fn compulsion(&self, i: usize) -> Option<(Compulsion, usize)> {
        if !Behaviours(self.st.fighters[i].fx).has(Behaviours::COMPEL) {
            return None;
        }
        self.st.fighters[i].effects.iter().flat_map(|e| e.effect.behaviours.iter()).find_map(|b| match b {
            Behaviour::Compel { what, caster, .. } => Some((*what, *caster)),
            _ => None,
        })
    }

    /// The actions a compelled creature takes instead of its own plan.
    pub(crate) fn compelled_plan(
        &mut self,
        i: usize,
        what: Compulsion,
        caster: usize,
        out: &mut Vec<Action>,
    ) {
        // A dominated creature's turn is its master's side's plan (`monster::dominate`).
        if what == Compulsion::Dominated {
            return;
        }
        out.clear();
        match what {
            Compulsion::Captivated => self.captive_plan(i, caster, out),
            Compulsion::Approach if self.st.is_active(caster) => {
                out.push(Action::at(ActionKind::Move, caster))
            }
            Compulsion::Flee | Compulsion::Leave => out.push(Action::new(ActionKind::Withdraw)),
            _ => out.push(Action::new(ActionKind::Wait)),
        }
    }

    /// `i` attacks (or casts a hostile spell): its effects that end then end
    /// (Invisibility, Sanctuary).
    pub(crate) fn bearer_attacks(&mut self, i: usize) {
        if !Behaviours(self.st.fighters[i].fx).has(Behaviours::ENDS_ON_ATTACK) {
            return;
        }
        while let Some(k) = self.st.fighters[i]
            .effects
            .iter()
            .position(|e| e.effect.behaviours.iter().any(|b| matches!(b, Behaviour::EndsWhenBearerAttacks)))
        {
            self.remove_effect_at(i, k, EffectEnd::Attacked);
        }
    }

    /// `t` took damage: effects that end then end (a sleeper wakes).
    pub(crate) fn wounded_wakes(&mut self, t: usize) {
        while let Some(k) = self.st.fighters[t]
            .effects
            .iter()
            .position(|e| e.effect.behaviours.iter().any(|b| matches!(b, Behaviour::EndsOnDamage)))
        {
            self.remove_effect_at(t, k, EffectEnd::Wounded);
        }
    }

    /// `t` was hit by an attack or failed a save: the ward hex ends.
    pub(crate) fn ward_breaks(&mut self, t: usize) {
        if !Behaviours(self.st.fighters[t].fx).has(Behaviours::WARD) {
            return;
        }
        while let Some(k) = self.st.fighters[t]
            .effects
            .iter()
            .position(|e| e.effect.behaviours.iter().any(|b| matches!(b, Behaviour::EndsWhenHitOrFailsSave)))
        {
            self.remove_effect_at(t, k, EffectEnd::Ends);
        }
    }

    /// Whether `a` may attack `t` under Sanctuary: a save against it, or the attack is lost.
    pub(crate) fn sanctuary_allows(&mut self, a: usize, t: usize) -> bool {
        if !Behaviours(self.st.fighters[t].fx).has(Behaviours::SANCTUARY) || !self.st.are_enemies(a, t) {
            return true;
        }
        let ward = self.st.fighters[t].effects.iter().flat_map(|e| e.effect.behaviours.iter()).find_map(
            |b| match b {
                Behaviour::Sanctuary { kind, dc } => Some((*kind, *dc)),
                _ => None,
            },
        );
        let Some((kind, dc)) = ward else { return true };
        let ctx = Context { spell: true, ..Context::default() };
        let ok = self.roll_save(a, kind, dc, &ctx);
        if !ok {
            emit!(self, Event::Turn { who: a, what: TurnEvent::Sanctuary { target: t } });
        }
        ok
    }

    /// Mirror Image: an attack that hit `t` strikes an image instead when the
    /// d(images + 1) picks one (CRB: the image is destroyed; it has AC 10 +
    /// size + Dexterity, and a miss against it destroys nothing). Whether an image took it.
    pub(crate) fn image_takes_hit(
        &mut self,
        a: usize,
        t: usize,
        attack: i32,
        d20: i32,
        ev: &mut Option<Box<crate::combat::event::Attack>>,
    ) -> bool {
        if !Behaviours(self.st.fighters[t].fx).has(Behaviours::IMAGES) {
            return false;
        }
        let Some(k) = self.st.fighters[t].effects.iter().position(|e| {
            e.effect.pool > 0 && e.effect.behaviours.iter().any(|b| matches!(b, Behaviour::MirrorImages))
        }) else {
            return false;
        };
        let images = self.st.fighters[t].effects[k].effect.pool as u32;
        let pick = self.rng.roll(images + 1);
        if pick == 1 {
            return false;
        }
        let spec = &self.st.prep.fighters[t];
        let image_ac = 10 + self.st.size(t).modifier() + spec.scores.dex_mod;
        let struck = d20 + attack >= image_ac || d20 == 20;
        if let Some(ev) = ev.as_mut() {
            let left = struck.then_some(images - 1);
            ev.steps.push(crate::combat::event::AttackStep::Image { die: images + 1, roll: pick, left });
        }
        if struck {
            self.st.fighters[t].effects[k].effect.pool -= 1;
            if images <= 1 {
                self.remove_effect_at(t, k, EffectEnd::NoImageLeft);
            }
        }
        let _ = a;
        true
    }

    /// A saving throw of `t` against `dc`, with misfortune (twice, the worse)
    /// and fortune (twice, the better, once); a failed save breaks the ward hex.
    pub(crate) fn roll_save(&mut self, t: usize, kind: SaveKind, dc: i32, ctx: &Context) -> bool {
        self.roll_save_with(t, kind, dc, ctx, 0)
    }

    /// A save as `roll_save`, with `extra` added to its bonus (a subject of
    /// *dominate person* ordered against its nature: +2).
    pub(crate) fn roll_save_with(
        &mut self,
        t: usize,
        kind: SaveKind,
        dc: i32,
        ctx: &Context,
        extra: i32,
    ) -> bool {
        let bonus = self.st.save_bonus(t, kind, ctx) + extra;
        let mut d20 = self.rng.roll(20) as i32;
        let mut rolled_twice = None;
        if Behaviours(self.st.fighters[t].fx).has(Behaviours::REROLL) {
            let (worse, better) = self.reroll_effects(t);
            if worse || better {
                let again = self.rng.roll(20) as i32;
                rolled_twice = Some([d20, again]);
                d20 = if worse && !better {
                    d20.min(again)
                } else if better && !worse {
                    d20.max(again)
                } else {
                    d20
                };
                self.spend_rerolls(t, worse, better);
            }
        }
        let roll = SaveRoll::new(d20, bonus, dc);
        emit!(
            self,
            Event::Save {
                who: t,
                kind,
                d20,
                bonus,
                total: roll.total(),
                dc,
                rolled_twice,
                success: roll.success
            }
        );
        self.spend_one_shots(t, Targets::save(kind), ctx);
        if !roll.success {
            self.ward_breaks(t);
        }
        roll.success
    }

    /// Whether `t`'s rolls are taken twice for the worse (misfortune) or the better (fortune).
    pub(crate) fn reroll_effects(&self, t: usize) -> (bool, bool) {
        let mut worse = false;
        let mut better = false;
        for e in &self.st.fighters[t].effects {
            for b in e.effect.behaviours.iter() {
                match b {
                    Behaviour::TakeWorse => worse = true,
                    Behaviour::TakeBetter => better = true,
                    _ => {}
                }
            }
        }
        (worse, better)
    }

    /// Uses up one roll of the reroll effects: Ill Omen counts its rolls down,
    /// fortune is spent by the roll it helped.
    pub(crate) fn spend_rerolls(&mut self, t: usize, worse: bool, better: bool) {
        let mut k = 0;
        while k < self.st.fighters[t].effects.len() {
            let e = &self.st.fighters[t].effects[k].effect;
            let is_worse = e.behaviours.iter().any(|b| matches!(b, Behaviour::TakeWorse));
            let is_better = e.behaviours.iter().any(|b| matches!(b, Behaviour::TakeBetter));
            if better && is_better {
                self.remove_effect_at(t, k, EffectEnd::Spent);
                continue;
            }
            if worse && is_worse && e.pool > 0 {
                self.st.fighters[t].effects[k].effect.pool -= 1;
                if self.st.fighters[t].effects[k].effect.pool == 0 {
                    self.remove_effect_at(t, k, EffectEnd::Spent);
                    continue;
                }
            }
            k += 1;
        }
    }
}
