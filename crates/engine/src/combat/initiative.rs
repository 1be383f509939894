//! Initiative and its changes, out-of-turn actions: the initiative order and
//! its ties (CRB "Initiative"), the surprise round, delay, ready (CRB
//! "Surprise", "Special Initiative Actions").

use crate::rng::Dice;

use super::action::{Action, ActionKind, ReadyTrigger, Reason, Slot};
use super::decide::{Policy, ReactionEvent};
use super::economy::Planned;
use super::engine::Engine;
use super::event::Event;
use super::log::emit;

/// One combatant's initiative check and the last roll-off it made.
#[derive(Clone, Copy, Debug)]
pub(crate) struct InitiativeRoll {
    pub who: usize,
    pub d20: u32,
    pub modifier: i32,
    pub total: i32,
    roll_off: u32,
}

/// Roll-off rounds after which combatants still tied keep their current
/// order: never reached with real dice (2 combatants tie 20 times in a row
/// with probability 20^-20), it only bounds a degenerate die source.
const ROLL_OFF_LIMIT: u32 = 20;

/// Sorts `rolls` into initiative order (CRB "Initiative": "If two or more
/// combatants have the same initiative check result, the combatants who are
/// tied act in order of total initiative modifier (highest first). If there
/// is still a tie, the tied characters should roll again."): total, then
/// modifier, both descending; each group still tied rolls d20 again, higher
/// first, in its current order, until nobody is tied. The roll-offs are
/// drawn from `rng` only when there is a tie, and pushed on `drawn` as
/// (combatant, face) in draw order.
pub(crate) fn initiative_order<R: Dice>(
    rolls: &mut [InitiativeRoll],
    rng: &mut R,
    drawn: &mut Vec<(usize, u32)>,
) {
    rolls.sort_by(|a, b| b.total.cmp(&a.total).then(b.modifier.cmp(&a.modifier)).then(a.who.cmp(&b.who)));
    for_each_tie(
        rolls,
        |a, b| (a.total, a.modifier) == (b.total, b.modifier),
        |group| {
            roll_off(group, rng, drawn, 1);
        },
    );
}

/// One roll-off round of a tied group, then the same for its members still tied.
fn roll_off<R: Dice>(group: &mut [InitiativeRoll], rng: &mut R, drawn: &mut Vec<(usize, u32)>, round: u32) {
    if round > ROLL_OFF_LIMIT {
        return;
    }
    for r in group.iter_mut() {
        r.roll_off = rng.roll(20);
        drawn.push((r.who, r.roll_off));
    }
    group.sort_by_key(|r| std::cmp::Reverse(r.roll_off));
    for_each_tie(group, |a, b| a.roll_off == b.roll_off, |tied| roll_off(tied, rng, drawn, round + 1));
}

/// Calls `f` on every run of two or more consecutive equal rolls, in order.
fn for_each_tie(
    rolls: &mut [InitiativeRoll],
    equal: impl Fn(&InitiativeRoll, &InitiativeRoll) -> bool,
    mut f: impl FnMut(&mut [InitiativeRoll]),
) {
    let mut start = 0;
    while start < rolls.len() {
        let end = start + 1 + rolls[start + 1..].iter().take_while(|r| equal(&rolls[start], r)).count();
        if end - start > 1 {
            f(&mut rolls[start..end]);
        }
        start = end;
    }
}

/// The surprise round allowance on a budgeted plan: the first standard or
/// move action is kept (a full attack becomes one attack, a withdraw a
/// restricted withdraw), free actions are kept, swift and other full-round
/// actions are dropped (`downgraded:surprise`).
pub(crate) fn apply_surprise(plan: &mut [Planned]) {
    let mut used = false;
    for p in plan.iter_mut().filter(|p| p.dropped.is_none()) {
        match p.action.slot() {
            Slot::Free => {}
            Slot::Standard | Slot::Move if !used => used = true,
            Slot::FullRound if !used && matches!(p.action.kind, ActionKind::FullAttack) => {
                used = true;
                p.action.kind = ActionKind::Attack;
            }
            Slot::FullRound if !used && p.action.kind == ActionKind::Withdraw => used = true,
            _ => p.dropped = Some(Reason::DowngradedSurprise),
        }
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// Rolls initiative for everyone (d20 + modifier, in encounter order),
    /// breaks ties (`initiative_order`) and sets the order and the keys.
    pub fn roll_initiative(&mut self) {
        let n = self.st.len();
        // Rows reserved for summoned creatures roll nothing: they take their caster's count.
        let deployed = self.st.prep.deployed.min(n);
        let mut rolls: Vec<InitiativeRoll> = (0..deployed)
            .map(|who| {
                let d20 = self.rng.roll(20);
                let modifier = self.st.prep.fighters[who].init_mod;
                InitiativeRoll { who, d20, modifier, total: d20 as i32 + modifier, roll_off: 0 }
            })
            .collect();
        let mut drawn = Vec::new();
        initiative_order(&mut rolls, self.rng, &mut drawn);
        self.st.order = rolls.iter().map(|r| r.who).collect();
        self.init_keys = vec![(0, 0, 0); n];
        for (rank, r) in rolls.iter().enumerate() {
            // The rank keeps the roll-offs' verdict when start_round sorts the keys.
            self.init_keys[r.who] = (2 * i64::from(r.total), r.modifier, (deployed - rank) as u32);
        }
        if self.log.on() {
            for r in &rolls {
                let roll_offs = drawn.iter().filter(|d| d.0 == r.who).map(|&(_, face)| face).collect();
                let event = Event::Initiative {
                    who: r.who,
                    d20: r.d20,
                    modifier: r.modifier,
                    total: r.total,
                    roll_offs,
                };
                self.log.push(self.st.round, event);
            }
        }
    }

    /// Whether some combatants able to act are aware of their foes and
    /// others are not (CRB "Surprise": otherwise there is no surprise round).
    pub(crate) fn surprise_applies(&self) -> bool {
        let active = (0..self.st.len()).filter(|&i| self.st.is_active(i));
        let aware = active.clone().filter(|&i| self.st.prep.fighters[i].aware).count();
        aware > 0 && aware < active.count()
    }

    /// The surprise round (round 0): in initiative order, aware combatants
    /// take one standard or move action (and free actions); unaware ones
    /// do not act.
    pub(crate) fn surprise_round(&mut self, policy: &mut dyn Policy) {
        for (f, spec) in self.st.fighters.iter_mut().zip(&self.st.prep.fighters) {
            f.turn.aoo_left = spec.offense.aoo_per_round;
        }
        for k in 0..self.st.order.len() {
            let i = self.st.order[k];
            if !self.st.prep.fighters[i].aware {
                if self.st.is_active(i) {
                    emit!(self, Event::Surprised { who: i });
                }
                continue;
            }
            if self.begin_turn(i) {
                self.act(i, policy, true);
            }
            if (0..self.st.len())
                .filter(|&j| self.st.is_active(j))
                .all(|j| self.st.side(j) == self.st.side(i))
            {
                return;
            }
        }
    }

    /// Delay: the rest of the turn is given up and played later this round,
    /// just before `target` if it has not acted yet, else last; the new
    /// initiative count persists to later rounds.
    pub(crate) fn delay(&mut self, i: usize, action: Action) -> Result<(), Reason> {
        let round = self.st.round;
        if self.st.fighters[i].turn.delayed_in == round {
            return Err(Reason::AlreadyDelayed);
        }
        self.st.fighters[i].turn.delayed_in = round;
        let before = action
            .target
            .filter(|&t| t < self.st.len() && t != i)
            .and_then(|t| self.queue.iter().position(|&(j, _)| j == t).map(|k| (t, k)));
        match before {
            Some((t, k)) => {
                // The queue pops from the end: inserting after t's entry plays i just before t.
                self.queue.insert(k + 1, (i, true));
                self.init_keys[i].0 = self.init_keys[t].0 + 1;
                emit!(self, Event::Delays { who: i, before: Some(t) });
            }
            None => {
                self.queue.insert(0, (i, true));
                let lowest = self.init_keys.iter().map(|k| k.0).min().unwrap_or(0);
                self.init_keys[i].0 = lowest - 1;
                emit!(self, Event::Delays { who: i, before: None });
            }
        }
        Ok(())
    }

    /// Ready: an attack (on `target`, or on the creature that sets it off)
    /// played out of turn when `trigger` occurs, before its next turn.
    pub(crate) fn ready(&mut self, i: usize, action: Action) -> Result<(), Reason> {
        let trigger = action.trigger.unwrap_or(ReadyTrigger::EnemyEntersReach);
        if self.st.fighters[i].turn.readied.replace((action, trigger)).is_none() {
            self.readied_count += 1;
        }
        emit!(self, Event::Readies { who: i, trigger: trigger.name().to_string() });
        Ok(())
    }

    /// Fires the readied actions that `event` (by `actor`, against `victim`)
    /// sets off, one per readied combatant, without cascade.
    pub(crate) fn check_readied(&mut self, event: ReadyTrigger, actor: usize, victim: Option<usize>) {
        if self.reacting {
            return;
        }
        for r in 0..self.st.len() {
            let Some((action, trigger)) = self.st.fighters[r].turn.readied else { continue };
            if trigger != event || r == actor || !self.st.is_active(r) || !self.st.are_enemies(r, actor) {
                continue;
            }
            let set_off = match event {
                ReadyTrigger::EnemyEntersReach => self
                    .st
                    .weapon_for(r, actor, self.st.pos(r))
                    .is_ok_and(|w| self.st.prep.fighters[r].offense.attacks[w].melee),
                ReadyTrigger::EnemyHitsAlly => victim.is_some_and(|v| v != r && !self.st.are_enemies(r, v)),
                ReadyTrigger::EnemyAttacks | ReadyTrigger::EnemyCasts => true,
            };
            if !set_off {
                continue;
            }
            self.st.fighters[r].turn.readied = None;
            self.readied_count -= 1;
            // It now acts just ahead of the creature that set it off.
            self.init_keys[r].0 = self.init_keys[actor].0 + 1;
            let target =
                action.target.filter(|&t| t < self.st.len() && self.st.is_active(t)).unwrap_or(actor);
            let attack = Action { kind: ActionKind::Attack, target: Some(target), ..action };
            emit!(self, Event::ReadiedSetOff { who: r, trigger: event.name().to_string() });
            self.reacting = true;
            if let Err(reason) = self.attack_action(r, attack, false) {
                emit!(self, Event::ReadiedFailed { who: r, reason: reason.as_str().to_string() });
            }
            self.reacting = false;
            if !self.st.is_active(actor) {
                return;
            }
        }
    }

    /// After an attack roll of `a` against `t` (`hit`: it dealt damage):
    /// readied actions first, then the reaction policy.
    pub(crate) fn after_attack(&mut self, a: usize, t: usize, hit: bool) {
        if self.readied_count > 0 {
            self.check_readied(ReadyTrigger::EnemyAttacks, a, Some(t));
            if hit {
                self.check_readied(ReadyTrigger::EnemyHitsAlly, a, Some(t));
            }
        }
        if self.reactions.is_some() {
            self.check_reactions(ReactionEvent::AttackResolved { attacker: a, target: t });
            if hit {
                self.check_reactions(ReactionEvent::DamageTaken { victim: t, by: a });
            }
        }
    }

    /// After `mover` takes a step of movement: readied actions first, then
    /// the reaction policy.
    pub(crate) fn after_step(&mut self, mover: usize) {
        if self.readied_count > 0 {
            self.check_readied(ReadyTrigger::EnemyEntersReach, mover, None);
        }
        if self.reactions.is_some() {
            self.check_reactions(ReactionEvent::MovementStep { mover });
        }
    }
}
