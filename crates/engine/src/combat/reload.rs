//! Reloading and ammunition (CRB "Crossbow", "Rapid Reload"; UC "Loading a
//! Firearm", "Rapid Reload"). Rules and simplifications: `docs/rules/combat.md`
//! ("Reloading and ammunition").
//!
//! A weapon that needs reloading holds one shot: firing it leaves it
//! unloaded (an `unloaded` bit, counted with broken and dropped weapons as
//! unusable) until a `reload` action, whose slot is the weapon's reload time
//! (move, standard or full round) and which provokes attacks of
//! opportunity. A free reload (Rapid Reload with a light crossbow,
//! cartridges with Rapid Reload for a pistol) never unloads it: it fires as
//! often as a bow. A weapon with `ammunition` becomes unusable once its last
//! shot is fired.

use crate::model::ReloadTime;
use crate::rng::Dice;

use super::action::{Action, Reason, Slot};
use super::engine::Engine;
use super::event::Event;
use super::log::emit;
use super::state::BattleState;

impl BattleState<'_> {
    /// Whether attack `w` of `i` is unloaded (fired, not reloaded yet).
    #[inline]
    pub fn is_unloaded(&self, i: usize, w: usize) -> bool {
        w < 64 && self.fighters[i].gear.unloaded >> w & 1 == 1
    }

    /// Shots left for attack `w` of `i` (`None`: unlimited).
    pub fn ammunition_left(&self, i: usize, w: usize) -> Option<u32> {
        let atk = self.prep.fighters[i].offense.attacks.get(w)?;
        (atk.ammo != u32::MAX).then(|| atk.ammo.saturating_sub(self.shots_fired(i, w)))
    }

    fn shots_fired(&self, i: usize, w: usize) -> u32 {
        self.fighters[i].gear.shots.get(w).map_or(0, |&n| u32::from(n))
    }

    /// The attack a `reload` action of `i` reloads: the explicit one, else
    /// the first unloaded attack.
    pub(crate) fn reload_target(&self, i: usize, a: &Action) -> Option<usize> {
        a.weapon
            .or_else(|| (0..self.prep.fighters[i].offense.attacks.len()).find(|&w| self.is_unloaded(i, w)))
    }

    /// The budget slot of a `reload` action: its weapon's reload time.
    pub(crate) fn reload_slot(&self, i: usize, a: &Action) -> Slot {
        let time = self
            .reload_target(i, a)
            .and_then(|w| self.prep.fighters[i].offense.attacks.get(w))
            .and_then(|p| p.reload);
        match time {
            Some(ReloadTime::Free) => Slot::Free,
            Some(ReloadTime::Standard) => Slot::Standard,
            Some(ReloadTime::FullRound) => Slot::FullRound,
            Some(ReloadTime::Move) | None => Slot::Move,
        }
    }

    /// Whether attack `w` of `i` can be reloaded now: unloaded, with a shot left.
    pub fn can_reload(&self, i: usize, w: usize) -> bool {
        self.is_unloaded(i, w) && self.ammunition_left(i, w) != Some(0)
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// `a` fires attack `w` (one shot): a weapon that needs an action to
    /// reload is left unloaded, and one whose last shot this was, empty.
    #[inline]
    pub(crate) fn fire(&mut self, a: usize, w: usize) {
        let atk = &self.st.prep.fighters[a].offense.attacks[w];
        if !atk.tracks_shots || w >= 64 {
            return;
        }
        let (ammo, free) = (atk.ammo, atk.reload.is_none_or(|r| r == ReloadTime::Free));
        let n = self.st.prep.fighters[a].offense.attacks.len();
        let f = &mut self.st.fighters[a];
        if f.gear.shots.len() < n {
            f.gear.shots.resize(n, 0);
        }
        f.gear.shots[w] = f.gear.shots[w].saturating_add(1);
        if !free || u32::from(f.gear.shots[w]) >= ammo {
            f.gear.unloaded |= 1 << w;
        }
    }

    /// The reload action: the weapon (explicit, else the first unloaded one)
    /// is loaded again; loading provokes attacks of opportunity.
    pub(crate) fn reload_action(&mut self, i: usize, action: Action) -> Result<(), Reason> {
        let w = self.st.reload_target(i, &action).ok_or(Reason::NoWeapon)?;
        if !self.st.can_reload(i, w) {
            return Err(Reason::WeaponUnavailable);
        }
        self.provoke_shot(i);
        if !self.st.is_active(i) {
            return Ok(());
        }
        self.st.fighters[i].gear.unloaded &= !(1 << w);
        let weapon = self.st.prep.fighters[i].offense.attacks[w].name.clone();
        let draws = self.st.prep.fighters[i].offense.attacks[w].drawn;
        let left = self.st.ammunition_left(i, w);
        emit!(self, Event::Reloads { who: i, weapon, ammunition_left: left, draws });
        Ok(())
    }
}
