//! Mounted combat (CRB "Mounted Combat", the Ride skill, the feats Mounted
//! Combat, Spirited Charge and Unseat; APG "Cavalier's Mount"): a rider
//! named by its file's `mount` (`model::mount`) starts the battle in the
//! saddle. Rider and mount share the mount's space and move as one at the
//! mount's speed (`BattleState::relocate`, `speed`); the mount acts on its
//! rider's initiative count, and the movement the rider gives it is its
//! action: after one move it may still attack once, after two moves or a
//! charge it does nothing more. A mounted charge deals double damage with a
//! lance (triple with Spirited Charge; double with another melee weapon
//! with Spirited Charge); a lance is wielded in one hand while mounted. The
//! rider has the +1 of higher ground against smaller foes on foot. With
//! Mounted Combat it negates a hit on its mount once a round by a Ride
//! check above the attack roll. It falls when its mount goes down or prone
//! (Ride DC 15 to fall softly, else 1d6 damage and prone), when it dies,
//! and, knocked unconscious, half the time (a quarter in a military saddle).
//! docs/rules/combat.md, "Mounted combat".

use crate::effects::ConditionId;
use crate::grid::Access;
use crate::map::Pos;
use crate::rng::Dice;

use super::action::{ActionKind, Reason, Slot};
use super::economy::Planned;
use super::engine::Engine;
use super::event::{DismountCause, Event, MountedEvent};
use super::log::emit;

/// Ride DC to fall softly when the mount falls (CRB "Ride": "Fall softly").
pub(crate) const SOFT_FALL_DC: i32 = 15;
/// Ride DC to fight with a combat-trained mount (CRB "Ride").
pub(crate) const DIRECT_DC: i32 = 10;
/// Chance in percent to stay in the saddle when knocked unconscious, and in
/// a military saddle (CRB "Mounted Combat", "Saddle, Military").
pub(crate) const STAY_PCT: u32 = 50;
pub(crate) const STAY_MILITARY_PCT: u32 = 75;
/// Mount actions the rider spent moving it: one move action, two, a charge.
pub(crate) const USED_MOVE: u8 = 1;
pub(crate) const USED_BOTH: u8 = 2;
pub(crate) const USED_CHARGE: u8 = 3;

impl<R: Dice> Engine<'_, '_, R> {
    /// At the start of the battle: every mount acts right after its rider
    /// (on its initiative count), and the riders are announced.
    pub(crate) fn mounted_start(&mut self) {
        let mut any = false;
        for r in 0..self.st.len() {
            let Some(m) = self.st.riding(r) else { continue };
            any = true;
            if let (Some(&kr), true) = (self.init_keys.get(r), m < self.init_keys.len()) {
                // Between the rider's count and the next whole count below it.
                self.init_keys[m] = (kr.0 - 1, kr.1, kr.2);
            }
            emit!(self, Event::Mounted { who: r, what: MountedEvent::Rides { mount: m } });
        }
        if any && !self.init_keys.is_empty() {
            let keys = &self.init_keys;
            self.st.order.sort_by(|&a, &b| keys[b].cmp(&keys[a]).then(a.cmp(&b)));
        }
    }

    /// What the rider's action spent of its mount's turn (after the action played).
    pub(crate) fn rider_moved_mount(&mut self, r: usize, kind: ActionKind) {
        let Some(m) = self.st.riding(r) else { return };
        let used = match kind {
            ActionKind::Move => USED_MOVE,
            ActionKind::Run | ActionKind::Withdraw => USED_BOTH,
            ActionKind::Charge => USED_CHARGE,
            _ => return,
        };
        let f = &mut self.st.fighters[m];
        f.mobility.mount_used = match (f.mobility.mount_used, used) {
            (USED_MOVE, USED_MOVE) => USED_BOTH,
            (a, b) => a.max(b),
        };
        if used == USED_CHARGE {
            f.turn.charged = true;
        }
    }

    /// The turn of a mount whose rider can act: it goes where its rider
    /// takes it, never on its own; it has left what the rider's movement did
    /// not spend (a full attack, one attack, or nothing); its attacks need
    /// the rider's Ride check (DC 10, a free action). Applied to its plan.
    pub(crate) fn directed_mount(&mut self, m: usize, plan: &mut [Planned]) {
        let Some(r) = self.st.ridden_by(m) else { return };
        if !self.st.is_active(r) {
            return;
        }
        let used = std::mem::take(&mut self.st.fighters[m].mobility.mount_used);
        if used == USED_CHARGE {
            // The charge's −2 AC lasts until the rider's next turn.
            self.st.fighters[m].turn.charged = true;
        }
        let mut left_standard = used == USED_MOVE;
        let mut attacks = false;
        for p in plan.iter_mut().filter(|p| p.dropped.is_none()) {
            let kind = p.action.kind;
            if matches!(
                kind,
                ActionKind::Move
                    | ActionKind::FiveFootStep
                    | ActionKind::Charge
                    | ActionKind::Run
                    | ActionKind::Withdraw
            ) {
                p.dropped = Some(Reason::CannotMove);
                continue;
            }
            let slot = p.action.slot();
            if used >= USED_BOTH && matches!(slot, Slot::Standard | Slot::Move | Slot::FullRound) {
                p.dropped = Some(Reason::DowngradedActionEconomy);
                continue;
            }
            if used == USED_MOVE && matches!(slot, Slot::Standard | Slot::Move | Slot::FullRound) {
                if !left_standard {
                    p.dropped = Some(Reason::DowngradedActionEconomy);
                    continue;
                }
                left_standard = false;
                if kind == ActionKind::FullAttack {
                    p.action.kind = ActionKind::Attack;
                }
            }
            attacks |= matches!(p.action.kind, ActionKind::Attack | ActionKind::FullAttack);
        }
        if attacks && !self.direct_check(r, m) {
            for p in plan.iter_mut().filter(|p| p.dropped.is_none()) {
                if matches!(p.action.kind, ActionKind::Attack | ActionKind::FullAttack) {
                    p.dropped = Some(Reason::CannotAttack);
                }
            }
        }
    }

    /// The rider's Ride check to have its combat-trained mount attack.
    fn direct_check(&mut self, r: usize, m: usize) -> bool {
        let d20 = self.rng.roll(20) as i32;
        let bonus = self.st.prep.fighters[r].rider.ride;
        let ok = d20 + bonus >= DIRECT_DC;
        emit!(
            self,
            Event::Mounted {
                who: r,
                what: MountedEvent::Directs { mount: m, d20, bonus, dc: DIRECT_DC, ok }
            }
        );
        ok
    }

    /// After every action: riders whose mount is down or prone, who died,
    /// or who were knocked unconscious leave the saddle.
    pub(crate) fn settle_riders(&mut self) {
        for r in 0..self.st.len() {
            let Some(m) = self.st.riding(r) else { continue };
            let cause = if self.st.fighters[r].dead {
                DismountCause::Dead
            } else if !self.st.is_active(m) {
                DismountCause::MountDown
            } else if self.st.is_prone(m) {
                DismountCause::MountProne
            } else if !self.st.is_active(r) && !self.st.fighters[r].mobility.saddle_kept {
                let military = self.st.prep.fighters[r].rider.military_saddle;
                let chance = if military { STAY_MILITARY_PCT } else { STAY_PCT };
                if self.rng.roll(100) <= chance {
                    self.st.fighters[r].mobility.saddle_kept = true;
                    emit!(
                        self,
                        Event::Mounted { who: r, what: MountedEvent::StaysInSaddle { mount: m, chance } }
                    );
                    continue;
                }
                DismountCause::Unconscious
            } else {
                continue;
            };
            self.fall_from_mount(r, cause);
        }
    }

    /// Rider `r` leaves its mount: to the first free square of the mount's
    /// space or around it. When the mount fell or it was unseated, a Ride
    /// check DC 15 (+2 in a military saddle) lets it fall softly on its feet;
    /// otherwise it takes 1d6 damage and lands prone (none for the dead).
    pub(crate) fn fall_from_mount(&mut self, r: usize, cause: DismountCause) {
        let Some(m) = self.st.riding(r) else { return };
        // Off the mount's space first, so that its own squares count as taken.
        self.st.shape[r] = super::state::BattleState::shape_of(self.st.size(r));
        self.st.fighters[r].mobility.riding = None;
        let to = self.landing(r, m);
        self.st.fighters[r].mobility.riding = Some(m);
        let ride = match cause {
            DismountCause::MountDown | DismountCause::MountProne | DismountCause::Unseated => {
                let d20 = self.rng.roll(20) as i32;
                let saddle = if self.st.prep.fighters[r].rider.military_saddle { 2 } else { 0 };
                Some((d20, self.st.prep.fighters[r].rider.ride + saddle))
            }
            DismountCause::Unconscious | DismountCause::Dead => None,
        };
        let soft = ride.is_some_and(|(d20, bonus)| d20 + bonus >= SOFT_FALL_DC);
        let hurt = cause != DismountCause::Dead && !soft;
        let damage = if hurt { self.rng.roll(6) } else { 0 };
        self.st.dismount(r, to);
        emit!(
            self,
            Event::Mounted {
                who: r,
                what: MountedEvent::Falls { mount: m, cause, ride, damage, prone: hurt, to }
            }
        );
        if hurt {
            self.set_condition(r, ConditionId::Prone);
        }
        if damage > 0 {
            self.st.fighters[r].out.damage_taken += damage;
            self.wound(r, damage);
        }
    }

    /// Where a rider leaving `m` lands: a square of the mount's space or
    /// around it it may end on, nearest the mount's top-left square first.
    fn landing(&self, r: usize, m: usize) -> Pos {
        let at = self.st.fighters[m].pos;
        let s = self.st.space(m);
        let map = self.st.map();
        let free = |p: Pos| map.in_bounds(p) && map.passable(p) && self.st.access(r, p) == Access::Open;
        (0..=s + 1)
            .flat_map(|ring| {
                (at.row - ring..at.row + s + ring).flat_map(move |row| {
                    (at.col - ring..at.col + s + ring).map(move |col| Pos::new(row, col))
                })
            })
            .find(|&p| free(p))
            .unwrap_or(at)
    }

    /// Mounted Combat: once a round, when a hit lands on the mount `t`, its
    /// rider's Ride check negates it if greater than the attack roll.
    pub(crate) fn mounted_combat_negates(&mut self, a: usize, t: usize, attack: i32) -> bool {
        let Some(r) = self.st.ridden_by(t) else { return false };
        let spec = &self.st.prep.fighters[r];
        let round = self.st.round.max(1);
        if !spec.features.rules.martial.mounted_combat
            || !self.st.is_active(r)
            || !self.st.can_act(r)
            || self.st.fighters[r].mobility.mounted_combat_round == round
        {
            return false;
        }
        self.st.fighters[r].mobility.mounted_combat_round = round;
        let bonus = spec.rider.ride;
        let d20 = self.rng.roll(20) as i32;
        let negated = d20 + bonus > attack;
        emit!(
            self,
            Event::Mounted {
                who: r,
                what: MountedEvent::Shields { mount: t, attacker: a, d20, bonus, attack, negated }
            }
        );
        negated
    }

    /// The start of a mounted charge, announced with its damage multiplier.
    pub(crate) fn mounted_charge(&mut self, r: usize, w: usize, t: usize) {
        let Some(m) = self.st.riding(r) else { return };
        if self.log.on() {
            let mult = self.st.charge_multiplier(r, w, true);
            let weapon = self.st.prep.fighters[r].offense.attacks[w].name.clone();
            emit!(
                self,
                Event::Mounted { who: r, what: MountedEvent::Charges { mount: m, target: t, weapon, mult } }
            );
        }
    }

    /// Unseat: after a lance hit of a mounted charge on a rider, a free bull
    /// rush; if it succeeds, the rider hit falls from its mount.
    pub(crate) fn unseat(&mut self, a: usize, w: usize, t: usize) {
        if self.st.riding(t).is_none()
            || !self.st.prep.fighters[a].features.rules.martial.unseat
            || !self.st.is_lance(a, w)
            || self.st.riding(a).is_none()
        {
            return;
        }
        let m = crate::effects::Maneuver::BullRush;
        let cmb = self.st.cmb(a, m, t);
        let cmd = self.st.cmd(t, m, a);
        let d20 = self.rng.roll(20) as i32;
        let ok = d20 != 1 && (d20 == 20 || d20 + cmb >= cmd);
        emit!(self, Event::Mounted { who: a, what: MountedEvent::Unseats { target: t, d20, cmb, cmd, ok } });
        if ok {
            self.fall_from_mount(t, DismountCause::Unseated);
        }
    }
}
