//! The battle loop: initiative, rounds, turns, the end of the battle.

use crate::rng::Dice;

use super::action::{Action, ActionKind, ActionResult, Reason, Slot};
use super::decide::Policy;
use super::economy::apply_budget;
use super::engine::Engine;
use super::event::{BattleResult, Event};
use super::log::emit;
use super::state::LifeState;
use super::{CombatantOutcome, RunOutcome};

impl<R: Dice> Engine<'_, '_, R> {
    /// Plays the whole battle.
    pub fn run(&mut self, policy: &mut dyn Policy) -> RunOutcome {
        self.roll_initiative();
        if self.st.prep.has_riders {
            self.mounted_start();
        }
        self.st.start_flat_footed();
        let cap = self.st.options.round_cap;
        let mut decided = self.decided();
        if decided.is_none() && self.surprise_applies() {
            self.surprise_round(policy);
            decided = self.decided();
        }
        while decided.is_none() && self.st.round < cap {
            self.start_round();
            self.queue.clear();
            self.queue.extend(self.st.order.iter().rev().map(|&i| (i, false)));
            while let Some((i, resumed)) = self.queue.pop() {
                if resumed {
                    self.resume_turn(i, policy);
                } else {
                    self.take_turn(i, policy);
                }
                decided = self.decided();
                if decided.is_some() {
                    break;
                }
            }
        }
        self.finish(decided)
    }

    /// Starts the next round: attacks of opportunity are refreshed, and the
    /// order follows the initiative keys (changed by delay and ready).
    pub fn start_round(&mut self) {
        self.st.round += 1;
        if !self.init_keys.is_empty() {
            let keys = &self.init_keys;
            self.st.order.sort_by(|&a, &b| keys[b].cmp(&keys[a]).then(a.cmp(&b)));
        }
        for (f, spec) in self.st.fighters.iter_mut().zip(&self.st.prep.fighters) {
            f.turn.aoo_left = spec.offense.aoo_per_round;
            // Quick Reflexes (a rage power): one more while raging.
            if f.class.rage.is_some()
                && spec.abilities.as_deref().and_then(|a| a.rage).is_some_and(|r| r.quick_reflexes)
            {
                f.turn.aoo_left += 1;
            }
        }
        // The summons of a fallen caster still last their rounds.
        let prep = self.st.prep;
        for g in &prep.summon_groups {
            if self.st.fighters[g.caster].dead {
                self.tick_summons(g.caster);
            }
        }
    }

    /// `Some(winner)` once at most one side can still act (`Some(None)`: none can).
    fn decided(&self) -> Option<Option<u32>> {
        let mut standing: Option<usize> = None;
        for i in (0..self.st.len()).filter(|&i| self.st.is_active(i)) {
            // A subject whose master fell is on its own side again (`monster::dominate`).
            let side = match self.st.dominator(i) {
                Some(m) if !self.st.is_active(m) => self.st.prep.fighters[i].side,
                _ => self.st.side(i),
            };
            match standing {
                Some(s) if s != side => return None,
                _ => standing = Some(side),
            }
        }
        Some(standing.map(|side| side as u32))
    }

    fn finish(&mut self, decided: Option<Option<u32>>) -> RunOutcome {
        let rounds = self.st.round;
        let winner = decided.flatten();
        // The winner holds the field when someone of another side left it alive.
        let held = winner.is_some_and(|w| {
            (0..self.st.len()).any(|i| self.st.fighters[i].mobility.left && self.st.side(i) as u32 != w)
        });
        emit!(
            self,
            Event::BattleOver {
                rounds,
                result: match decided {
                    Some(Some(w)) if held => BattleResult::Held { side: w as usize },
                    Some(Some(w)) => BattleResult::Won { side: w as usize },
                    Some(None) => BattleResult::NoneStanding,
                    None => BattleResult::Draw,
                },
            }
        );
        let outcome = |i: usize| {
            let f = &self.st.fighters[i];
            let entered = self.st.entered_with.get(i).copied().flatten();
            let (slots_spent, uses_spent) = match (entered, self.st.prep.fighters.get(i)) {
                (Some((slots, pools)), _) => spent(&slots, &pools, f),
                (None, Some(start)) => {
                    spent(&start.caster.as_ref().map_or([0; 10], |c| c.slots), &start.pools, f)
                }
                (None, None) => (0, 0),
            };
            CombatantOutcome {
                final_hp: if f.gone && !f.mobility.left { 0 } else { f.hp },
                dead: f.dead && !f.gone,
                dying: !f.gone && self.st.life(i) == LifeState::Dying,
                fled: f.mobility.left,
                slots_spent,
                uses_spent,
                ..f.out.clone()
            }
        };
        let deployed = self.st.prep.deployed;
        let combatants = (0..deployed).map(outcome).collect();
        let summons = (deployed..self.st.len()).map(outcome).collect();
        RunOutcome { winner, rounds, combatants, summons }
    }

    /// Plays the turn of combatant `i`: its start (effects that last until
    /// its next turn end, a pending readied action expires), then its actions.
    pub fn take_turn(&mut self, i: usize, policy: &mut dyn Policy) {
        if self.begin_turn(i) {
            self.act(i, policy, false);
        }
        if !self.st.constructs.is_empty() {
            self.constructs_act(i);
        }
        self.end_arcane_accuracy(i);
        if self.st.fighters[i].fx != 0 {
            self.end_of_turn_saves(i);
        }
        if !self.st.zones.is_empty() {
            self.zones_end_of_turn(i);
        }
    }

    /// Resumes a delayed turn (tests drive the queue themselves).
    #[cfg(test)]
    pub(crate) fn take_turn_resumed(&mut self, i: usize, policy: &mut dyn Policy) {
        self.resume_turn(i, policy);
    }

    /// Resumes a delayed turn: no second start of turn.
    fn resume_turn(&mut self, i: usize, policy: &mut dyn Policy) {
        if !self.st.fighters[i].dead && self.st.is_active(i) {
            emit!(self, Event::ActsAfterDelay { who: i });
            self.act(i, policy, false);
            if !self.st.constructs.is_empty() {
                self.constructs_act(i);
            }
            self.end_arcane_accuracy(i);
        }
    }

    /// The start of `i`'s turn; whether it can act.
    pub(crate) fn begin_turn(&mut self, i: usize) -> bool {
        if !self.st.zones.is_empty() {
            self.zones_expire(i);
        }
        if !self.st.constructs.is_empty() {
            self.constructs_expire(i);
        }
        let f = &mut self.st.fighters[i];
        if f.dead {
            return false;
        }
        // Summons count their rounds down before new ones arrive.
        if self.st.prep.fighters[i].caster.is_some() && !self.st.prep.summon_groups.is_empty() {
            self.tick_summons(i);
        }
        if self.st.fighters[i].casting.pending.is_some() {
            self.finish_pending(i);
        }
        let f = &mut self.st.fighters[i];
        f.turn.charged = false;
        f.turn.moved = false;
        f.turn.stepped = false;
        f.turn.ended = false;
        f.mobility.flown = 0;
        // A turn without running breaks the running streak; rest counts down.
        if !f.run.running {
            f.run.run_rounds = 0;
            f.run.run_checks = 0;
        }
        f.run.run_rest = f.run.run_rest.saturating_sub(1);
        // Effects that last "until the start of its next turn".
        f.turn.defensive = false;
        f.turn.power_attack = false;
        f.turn.martial = Default::default();
        f.class.monk.stunning_armed = false;
        f.class.monk.ki_attack = false;
        f.turn.total_defense = false;
        f.turn.aid_attack = 0;
        f.turn.aid_ac = 0;
        f.run.running = false;
        // An immediate action taken out of turn spent this turn's swift action.
        f.turn.swift_used = f.turn.immediate_used;
        f.turn.immediate_used = false;
        let first_turn = !f.turn.has_acted;
        f.turn.has_acted = true;
        let ongoing = f.bleed > 0 || !f.effects.is_empty();
        if f.turn.readied.take().is_some() {
            self.readied_count -= 1;
            emit!(self, Event::ReadyExpired { who: i });
        }
        if first_turn {
            self.st.end_flat_footed(i);
        }
        if ongoing || self.st.timed_effects > 0 {
            self.start_of_turn_effects(i);
        }
        if !self.st.zones.is_empty() {
            self.zones_each_round_start(i);
        }
        if self.st.fighters[i].grappled_with.is_some() {
            self.check_grapples();
        }
        if self.st.prep.fighters[i].abilities.is_some() {
            self.start_of_turn_abilities(i);
        }
        self.monster_turn_start(i);
        match self.st.life(i) {
            LifeState::Fighting | LifeState::Disabled => {
                if !self.ferocity_turn(i) {
                    self.st.last_results[i].clear();
                    return false;
                }
                if !self.st.is_active(i) {
                    // Unconscious from nonlethal damage.
                    self.st.last_results[i].clear();
                    return false;
                }
                if self.st.fighters[i].fx != 0 && !self.retry_saves(i) {
                    self.st.last_results[i].clear();
                    return false;
                }
                if self.st.fighters[i].summary.flags.0 != 0 && !self.conditions_allow_turn(i) {
                    self.st.last_results[i].clear();
                    return false;
                }
                if self.st.fighters[i].fx != 0 && !self.spell_upkeep(i) {
                    self.st.last_results[i].clear();
                    return false;
                }
                if self.st.is_swallowed(i) {
                    // Its turn inside: cut its way out or escape (`monster::swallow`).
                    self.swallowed_turn(i);
                    self.st.last_results[i].clear();
                    return false;
                }
                true
            }
            life => {
                self.st.last_results[i].clear();
                if life == LifeState::Dying {
                    self.dying_check(i);
                }
                false
            }
        }
    }

    /// Plans and plays `i`'s actions (the surprise allowance when `surprise`).
    pub(crate) fn act(&mut self, i: usize, policy: &mut dyn Policy, surprise: bool) {
        let mut requested = std::mem::take(&mut self.requested);
        let mut plan = std::mem::take(&mut self.plan);
        requested.clear();
        // The policy still sees what its previous turn produced.
        policy.plan(&self.st, i, &mut requested);
        if self.st.fighters[i].fx != 0
            && let Some((what, caster)) = self.compulsion(i)
        {
            self.compelled_plan(i, what, caster, &mut requested);
        }
        // A berserk golem attacks the nearest living creature, whatever its side planned.
        if self.st.is_berserk(i) {
            self.berserk_plan(i, &mut requested);
        }
        for a in requested.iter_mut() {
            if a.slot.is_none() {
                a.slot = self.st.data_slot(i, a);
            }
        }
        self.st.last_results[i].clear();
        apply_budget(&requested, self.st.turn_limits(i), &mut plan);
        if self.st.fighters[i].mobility.ridden_by.is_some() {
            self.directed_mount(i, &mut plan);
        }
        if surprise {
            super::initiative::apply_surprise(&mut plan);
        }
        self.current = Some(i);
        let mut delayed = false;
        for p in &plan {
            let swift_gone = p.action.slot() == Slot::Swift && self.st.fighters[i].turn.swift_used;
            let result = match p.dropped {
                Some(reason) => ActionResult::failed(p.action.kind, reason),
                None if delayed => ActionResult::failed(p.action.kind, Reason::Delayed),
                None if swift_gone => ActionResult::failed(p.action.kind, Reason::DowngradedImmediateSwift),
                None if !self.st.is_active(i) => ActionResult::failed(p.action.kind, Reason::ActorDown),
                None if !self.st.can_act(i) => ActionResult::failed(p.action.kind, Reason::CannotAct),
                None if self.st.fighters[i].turn.ended => {
                    ActionResult::failed(p.action.kind, Reason::TurnEnded)
                }
                None => self.execute(i, p.action),
            };
            self.settle_fliers();
            if self.st.prep.has_riders {
                self.settle_riders();
            }
            if p.dropped.is_none() && p.action.slot() == Slot::Swift {
                self.st.fighters[i].turn.swift_used = true;
            }
            if result.ok && result.reason == Some(Reason::Delayed) {
                delayed = true;
            } else if let Some(reason) = result.reason.filter(|_| !result.ok) {
                emit!(
                    self,
                    Event::ActionFailed {
                        who: i,
                        action: result.kind.name().to_string(),
                        dropped: p.dropped.is_some(),
                        reason: reason.as_str().to_string(),
                    }
                );
            }
            self.st.last_results[i].push(result);
        }
        self.stay_aloft(i);
        self.settle_fliers();
        self.current = None;
        self.requested = requested;
        self.plan = plan;
    }

    /// Plays one action of `i` outside a turn (its slot set as in a turn).
    #[cfg(test)]
    pub(crate) fn execute_for_test(&mut self, i: usize, mut action: Action) -> ActionResult {
        if action.slot.is_none() {
            action.slot = self.st.data_slot(i, &action);
        }
        self.current = Some(i);
        let r = self.execute(i, action);
        self.current = None;
        r
    }

    /// Plays one action of combatant `i`.
    fn execute(&mut self, i: usize, action: Action) -> ActionResult {
        if action.target.is_some_and(|t| t != i && t < self.st.len() && self.st.is_swallowed(t)) {
            // Inside its swallower, out of everyone's reach (`monster::swallow`).
            return ActionResult::failed(action.kind, Reason::MissingTarget);
        }
        let result = match action.kind {
            ActionKind::Attack => self.attack_action(i, action, false),
            ActionKind::FullAttack => self.attack_action(i, action, true),
            ActionKind::Move => self.move_action(i, action),
            ActionKind::FiveFootStep => self.step_action(i, action),
            ActionKind::Charge => self.charge_action(i, action),
            ActionKind::StandUp => self.stand_up(i),
            ActionKind::DropProne => self.drop_prone(i),
            ActionKind::TotalDefense => self.total_defense(i),
            ActionKind::FightDefensively => self.fight_defensively(i),
            ActionKind::AidAnother => self.aid_another(i, action),
            ActionKind::Delay => self.delay(i, action),
            ActionKind::Withdraw => self.withdraw_action(i, action),
            ActionKind::Run => self.run_action(i, action),
            ActionKind::Immediate => self.immediate(i),
            ActionKind::Ready => self.ready(i, action),
            ActionKind::Wait => Ok(()),
            ActionKind::PowerAttack => self.activate_power_attack(i),
            ActionKind::Declare => self.declare(i, action),
            ActionKind::Maneuver => self.maneuver_action(i, action),
            ActionKind::RetrieveWeapon => self.retrieve_weapon(i),
            ActionKind::RepairWeapon => self.repair_weapon(i),
            ActionKind::Reload => self.reload_action(i, action),
            ActionKind::CastSpell => self.cast_action(i, action),
            ActionKind::DischargeSpell => self.discharge_action(i, action),
            ActionKind::ChannelEnergy => self.channel_action(i, action),
            ActionKind::Hex => self.hex_action(i, action),
            ActionKind::Deed => self.deed_action(i, action),
            ActionKind::InspireCourage => self.inspire_action(i),
            ActionKind::SpellCombat => self.spell_combat_action(i, action),
            ActionKind::ArcanePool => self.arcane_pool_action(i),
            ActionKind::ArcaneAccuracy => self.arcane_accuracy_action(i),
            ActionKind::Challenge => self.challenge_action(i, action),
            ActionKind::Smite => self.smite_action(i, action).inspect(|()| self.smite_started(i)),
            ActionKind::Rage => self.rage_action(i),
            ActionKind::LayOnHands => self.lay_on_hands_action(i, action),
            ActionKind::RebukeDeath => self.rebuke_death_action(i, action),
            ActionKind::DomainPower => self.domain_power_action(i, action),
            ActionKind::Mutagen => self.mutagen_action(i),
            ActionKind::KiPool => self.ki_action(i, action),
            ActionKind::StunningFist => self.stunning_fist_action(i),
            ActionKind::Tactician => self.tactician_action(i),
            ActionKind::LionsCall => self.lions_call_action(i),
            ActionKind::HuntersBond => self.hunters_bond_action(i, action),
            ActionKind::UseItem => self.use_item_action(i, action),
            ActionKind::BreathWeapon => self.breath_action(i, action),
            ActionKind::CoupDeGrace => self.coup_de_grace_action(i, action),
            ActionKind::BreakFree => self.break_free(i),
            ActionKind::Entangle => self.entangle_action(i, action),
            ActionKind::Sing => self.sing_action(i),
            ActionKind::Dominate => self.dominate_action(i, action),
            ActionKind::Engulf => self.engulf_action(i, action),
            ActionKind::Trample => self.trample_action(i, action),
            ActionKind::LeaveBattle => self.leave_action(i, action),
            ActionKind::DismissSpell => self.dismiss_action(i, action),
            ActionKind::RedirectSpell => self.redirect_action(i, action),
            _ => Err(Reason::UnsupportedKind),
        };
        let result = match result {
            Ok(()) => match action.kind {
                ActionKind::Delay => {
                    ActionResult { kind: action.kind, ok: true, reason: Some(Reason::Delayed) }
                }
                ActionKind::Ready => {
                    ActionResult { kind: action.kind, ok: true, reason: Some(Reason::Readied) }
                }
                _ => ActionResult::done(action.kind),
            },
            Err(reason) => ActionResult::failed(action.kind, reason),
        };
        if result.ok && self.st.fighters[i].mobility.riding.is_some() {
            self.rider_moved_mount(i, action.kind);
        }
        if result.ok && matches!(action.slot(), Slot::Standard | Slot::FullRound) {
            self.exert_if_disabled(i);
        }
        result
    }
}

/// The spell slots and class-ability uses `now` has spent since it entered
/// the battle with `slots_start` and `pools_start`: what a table counts as resources spent in a fight.
fn spent(
    slots_start: &[u8; 10],
    pools_start: &super::abilities::Pools,
    now: &super::state::Fighter,
) -> (u32, u32) {
    let slots = slots_start
        .iter()
        .zip(&now.casting.slots)
        .skip(1)
        .map(|(a, b)| u32::from(a.saturating_sub(*b)))
        .sum();
    let (a, b) = (pools_start, &now.class.pools);
    let pools = a.counted().iter().zip(b.counted()).map(|(a, b)| u32::from(a.saturating_sub(b))).sum();
    (slots, pools)
}
