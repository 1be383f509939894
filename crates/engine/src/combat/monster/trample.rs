//! Trample (Bestiary, Universal Monster Rules "Trample"; an elephant's).
//!
//! - "As a full-round action, a creature with the trample ability can
//!   attempt to overrun any creature that is at least one size category
//!   smaller than itself ... it merely has to move over opponents in its
//!   path." The creature moves up to its speed in a straight line (the
//!   Bresenham line of its top-left square) to a destination where its
//!   whole space is free. Its squares on the way may hold foes at least
//!   `smaller` size categories below it (the targets) and allies (CRB
//!   "Moving Through a Square"); a foe not small enough, a mounted pair,
//!   impassable ground or more feet than its speed forbid the route.
//! - Leaving a square threatened by a creature it does not go over provokes
//!   as any move does; the creatures it goes over get no attack of
//!   opportunity for the move itself: each chooses, when the creature
//!   reaches it, an attack of opportunity at −4 (then the full damage) or
//!   a Reflex save against the printed DC for half ("If targets forgo an
//!   attack of opportunity, they can attempt to avoid the trampling
//!   creature and receive a Reflex save to take half damage"). Evasion
//!   applies to that save. A helpless target takes the damage without a
//!   save.
//! - *The choice* (the target's, as a table plays it): it attacks when its
//!   attack of opportunity is expected to deal at least the damage its save
//!   is expected to spare it (hit chance × mean damage against chance to
//!   save × the half it keeps); otherwise it saves.
//! - The damage is the printed trample damage (the slam's + 1½ × Strength
//!   modifier), rolled for each target, bludgeoning: damage reduction
//!   applies. "A trampling creature can only deal trampling damage to each
//!   target once per round": a target is met once, when the creature's
//!   space first covers it; a trample a round (a full-round action) makes
//!   that the round's only one.
//! - Targets are not moved (the trample ends on free squares) nor knocked
//!   prone (no overrun check is made).

use crate::effects::{Context, SaveKind};
use crate::feats::Evasion;
use crate::map::Pos;
use crate::rng::Dice;

use super::super::action::{Action, Reason};
use super::super::engine::Engine;
use super::super::event::{AfflictionEvent, Event, MoveKind};
use super::super::log::emit;
use super::super::odds::{Swing, hit_chance};
use super::super::prepared::monster::EngulfRoute;
use super::super::state::BattleState;
use super::engulf::RouteRule;

/// The swing of an attack of opportunity against a trampling creature.
const TRAMPLE_AOO: Swing = Swing {
    penalty: 0,
    charge: false,
    aoo: true,
    rapid: false,
    two_weapon: 0,
    off_hand: false,
    manyshot: false,
    flurry: false,
    vital: 0,
    trample: true,
    variant: 0,
};

impl BattleState<'_> {
    /// The straight route of `i`'s trample to `dest` (filled in `route`,
    /// `over` the foes it goes over in the order met), with the feet it
    /// costs; none when `i` has no trample or the route is not possible
    /// (see the module's text): allies on the way are passed, and it ends
    /// where its whole space is free.
    pub(crate) fn trample_route(&self, i: usize, dest: Pos, route: &mut EngulfRoute) -> Option<u32> {
        let tr = self.prep.fighters[i].monster.as_deref()?.trample.as_ref()?;
        self.route_over(
            i,
            dest,
            RouteRule { smaller: tr.smaller, allies_pass: true, stands_at_end: true },
            route,
        )
    }

    /// Whether `t`, gone over by `i`'s trample, makes its attack of
    /// opportunity (at −4) rather than the Reflex save (see the module's text).
    pub(crate) fn trample_attacks(&self, i: usize, t: usize) -> bool {
        let Some(tr) = self.prep.fighters[i].monster.as_deref().and_then(|m| m.trample.as_ref()) else {
            return false;
        };
        // Weighed where the trampler covers it (its space anchored on `t`'s square).
        let Some(w) = self.aoo_weapon(t, i, self.pos(t)) else { return false };
        let s = self.situation(t, w, i, TRAMPLE_AOO);
        let blow = hit_chance(s.attack, s.ac) * self.prep.fighters[t].offense.attacks[w].mean_damage;
        blow >= self.trample_save_spares(i, t, tr.dc, tr.damage.mean())
    }

    /// The damage `t`'s Reflex save against a trample of save DC `dc` and
    /// mean damage `mean` is expected to spare it: its chance to save times
    /// the half it keeps (all of it with evasion).
    fn trample_save_spares(&self, i: usize, t: usize, dc: i32, mean: f64) -> f64 {
        let ctx = Context { other_alignment: self.prep.fighters[i].nature.alignment, ..Context::default() };
        let bonus = self.save_bonus(t, SaveKind::Ref, &ctx);
        let saves = (f64::from(20 - (dc - bonus - 1)) / 20.0).clamp(0.05, 0.95);
        let kept = if self.prep.fighters[t].feats.evasion == Evasion::None { mean / 2.0 } else { mean };
        saves * kept
    }

    /// The damage `t` is expected to take from `i`'s trample: its mean
    /// after damage reduction, less what its save spares it, or all of it
    /// when it attacks or is helpless.
    pub(crate) fn trample_expected(&self, i: usize, t: usize) -> f64 {
        let Some(tr) = self.prep.fighters[i].monster.as_deref().and_then(|m| m.trample.as_ref()) else {
            return 0.0;
        };
        let dr = self.prep.fighters[t].defense.dr.as_ref().map_or(0, |dr| dr.against(&tr.types));
        let mean = (tr.damage.mean() - f64::from(dr)).max(0.0);
        if self.is_helpless(t) || self.trample_attacks(i, t) {
            return mean;
        }
        mean - self.trample_save_spares(i, t, tr.dc, mean)
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// The trample (`ActionKind::Trample`): the move to the action's
    /// destination over the smaller foes in its path (see the module's text).
    pub(crate) fn trample_action(&mut self, i: usize, action: Action) -> Result<(), Reason> {
        let dest = action.destination.ok_or(Reason::InvalidDestination)?;
        if self.st.prep.fighters[i].monster.as_deref().and_then(|m| m.trample.as_ref()).is_none() {
            return Err(Reason::NoAbility);
        }
        if self.st.fighters[i].turn.stepped || self.st.fighters[i].turn.moved {
            return Err(Reason::CannotCombine);
        }
        if self.st.flags(i).has(crate::effects::Flags::CANT_MOVE) {
            return Err(Reason::CannotMove);
        }
        let mut route = EngulfRoute::default();
        self.st.trample_route(i, dest, &mut route).ok_or(Reason::UnreachableDestination)?;
        let (start, _) =
            self.move_over(i, &route, MoveKind::Trample, &mut |engine, t| engine.trample_over(i, t));
        let end = self.st.fighters[i].pos;
        self.st.fighters[i].pos = start;
        if self.st.fighters[i].dead {
            self.st.vacate(i);
            self.st.fighters[i].pos = end;
        } else if self.st.can_stand(i, end) {
            self.st.relocate(i, end);
        } else {
            // Stopped on the way (an attack of opportunity left it unable to
            // act) over a creature: it falls back to the last free square of
            // its path, or stays where it started.
            let reached = route.path.iter().position(|&p| p == end).unwrap_or(0);
            let back = route.path[..reached]
                .iter()
                .rev()
                .copied()
                .find(|&p| self.st.can_stand(i, p))
                .unwrap_or(start);
            if back != start {
                self.st.relocate(i, back);
            }
        }
        Ok(())
    }

    /// `t`, gone over by `i`'s trample: its attack of opportunity at −4 (then
    /// the full damage), or its Reflex save for half; a helpless one takes
    /// it all.
    fn trample_over(&mut self, i: usize, t: usize) {
        let prep = self.st.prep;
        let Some(tr) = prep.fighters[i].monster.as_deref().and_then(|m| m.trample.as_ref()) else { return };
        if self.st.fighters[t].dead || !self.st.is_present(t) {
            return;
        }
        let mut saved = false;
        if self.st.is_active(t) && !self.st.is_helpless(t) {
            if self.st.trample_attacks(i, t) {
                if let Some(w) = self.st.aoo_weapon(t, i, self.st.pos(i)) {
                    self.st.fighters[t].turn.aoo_left -= 1;
                    self.strike(t, w, i, TRAMPLE_AOO);
                }
                if !self.st.is_active(i) {
                    return;
                }
            } else {
                let ctx =
                    Context { other_alignment: prep.fighters[i].nature.alignment, ..Context::default() };
                saved = self.roll_save(t, SaveKind::Ref, tr.dc, &ctx);
            }
        }
        emit!(
            self,
            Event::Affliction {
                who: i,
                what: AfflictionEvent::Strikes { ability: tr.name.clone(), target: t }
            }
        );
        let rolled = tr.damage.roll(self.rng).max(0) as u32;
        let dr = prep.fighters[t].defense.dr.as_ref().map_or(0, |dr| dr.against(&tr.types));
        let evasion = if self.st.is_helpless(t) { Evasion::None } else { prep.fighters[t].feats.evasion };
        let after = rolled.saturating_sub(dr);
        let dealt = match (saved, evasion) {
            (true, Evasion::None) => after / 2,
            (true, _) => 0,
            (false, Evasion::Improved) => after / 2,
            (false, _) => after,
        };
        if dr > 0 && rolled > 0 {
            emit!(
                self,
                Event::Combat {
                    who: t,
                    what: super::super::event::CombatEvent::DamageReduction { absorbed: dr.min(rolled) }
                }
            );
        }
        if dealt == 0 {
            emit!(self, Event::Affliction { who: t, what: AfflictionEvent::NoDamage });
            return;
        }
        self.spell_damage(i, t, dealt, &tr.types, false, None);
    }
}
