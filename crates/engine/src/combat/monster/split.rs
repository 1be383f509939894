//! Split (Bestiary, Universal Monster Rules "Split"; the ochre jelly's
//! "Split (Ex)": "Slashing weapons, piercing weapons, and electricity
//! attacks deal no damage to an ochre jelly. Instead the creature splits
//! into two identical jellies, each with half of the original creature's
//! current hit point total, rounded down. A jelly with 10 hit points or
//! less cannot be further split and dies if reduced to 0 hit points.").
//!
//! - A weapon hit one of whose damage components has only splitting types
//!   (a sword's slashing, a spear's piercing; `CompDefense::splits`), or
//!   a spell's damage of a splitting type (electricity), on a creature
//!   with more than `min_hp` hit points deals it no damage at all (the
//!   weapon's other components included: it is a slashing weapon) and
//!   splits it: it keeps half its current hit points, rounded down, and a
//!   copy with as many appears. A weapon that is also bludgeoning (a
//!   morningstar) is used as such and does not split it. With `min_hp` or
//!   fewer the hit deals its damage as any other.
//! - The copy is one of the rows the encounter reserved for the copies
//!   (`SplitGroup`: as many as successive halvings can make), fresh (no
//!   condition, effect or hold of the original), on the free square
//!   nearest the original where its space fits. It acts on the original's
//!   initiative count, right after it, from the next round on.
//! - *Simplification*: the table's choice of a blunt weapon against a
//!   jelly is not played: the party's policy strikes with its usual weapon.

use crate::map::Pos;
use crate::rng::Dice;

use super::super::damage::Damage;
use super::super::engine::Engine;
use super::super::event::{AfflictionEvent, Event};
use super::super::log::emit;
use super::super::state::BattleState;

impl BattleState<'_> {
    /// Whether attack `w` of `a` hitting `t` now splits it instead of harming it.
    pub(crate) fn hit_splits(&self, a: usize, w: usize, t: usize) -> bool {
        self.splits_now(t) && self.prep.fighters[a].offense.attacks[w].vs[t].comps.iter().any(|c| c.splits)
    }

    /// Whether damage of `types` splits `t` now (a spell's).
    pub(crate) fn damage_splits(&self, t: usize, types: &[String]) -> bool {
        if !self.splits_now(t) || types.is_empty() {
            return false;
        }
        let Some(s) = self.prep.fighters[t].monster.as_deref().and_then(|m| m.split.as_ref()) else {
            return false;
        };
        types.iter().all(|x| s.types.contains(&super::super::prepared::norm(x)))
    }

    /// Whether `t` splits at all now: it has the ability and more hit points than its floor.
    fn splits_now(&self, t: usize) -> bool {
        self.prep.fighters[t]
            .monster
            .as_deref()
            .and_then(|m| m.split.as_ref())
            .is_some_and(|s| self.fighters[t].hp > s.min_hp)
    }

    /// A reserved copy row of `t`'s split group not yet on the battlefield.
    fn free_copy_row(&self, t: usize) -> Option<usize> {
        let g = self.prep.split_groups.iter().find(|g| g.original == t || g.rows.contains(&t))?;
        g.rows.clone().find(|&r| self.fighters[r].gone)
    }

    /// The free square nearest `t` where its copy `r` fits (ties: the
    /// nearer in straight line, then row-major).
    fn copy_square(&self, t: usize, r: usize) -> Option<Pos> {
        let map = self.map();
        let from = self.pos(t);
        let mut best: Option<((u32, i32, Pos), Pos)> = None;
        for row in 0..map.height {
            for col in 0..map.width {
                let q = Pos::new(row, col);
                if !self.can_stand(r, q) {
                    continue;
                }
                let straight = (q.row - from.row).pow(2) + (q.col - from.col).pow(2);
                let key = (crate::grid::distance_ft(from, q), straight, q);
                if best.is_none_or(|(k, _)| key < k) {
                    best = Some((key, q));
                }
            }
        }
        best.map(|(_, q)| q)
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// The hit of attack `w` of `a` on `t`: when it splits `t`, no damage,
    /// and the split to play once the hit is shown (`Damage::splits`).
    pub(crate) fn split_hit(&mut self, a: usize, w: usize, t: usize, dmg: Damage) -> Damage {
        if !self.st.hit_splits(a, w, t) {
            return dmg;
        }
        Damage { dealt: 0, physical: 0, nonlethal: 0, bleed: 0, healed: 0, splits: true, ..dmg }
    }

    /// `t` splits: it keeps half its hit points (rounded down) and a copy
    /// with as many appears beside it (see the module's text).
    pub(crate) fn split(&mut self, t: usize) {
        let half = self.st.fighters[t].hp / 2;
        let Some(name) = self.st.prep.fighters[t]
            .monster
            .as_deref()
            .and_then(|m| m.split.as_ref())
            .map(|s| s.name.clone())
        else {
            return;
        };
        let before = self.st.fighters[t].hp;
        self.st.fighters[t].hp = half;
        let copy = self.st.free_copy_row(t).and_then(|r| self.st.copy_square(t, r).map(|q| (r, q)));
        emit!(
            self,
            Event::Affliction {
                who: t,
                what: AfflictionEvent::Splits {
                    ability: name,
                    hp_before: before,
                    hp: half,
                    copy: copy.map(|(r, _)| r),
                    at: copy.map(|(_, q)| q),
                }
            }
        );
        if let Some((r, q)) = copy {
            self.copy_arrives(t, r, q, half);
        }
    }

    /// Copy row `r` of `t` arrives on `q` with `hp`, acting right after `t`.
    fn copy_arrives(&mut self, t: usize, r: usize, q: Pos, hp: i32) {
        let spec = &self.st.prep.fighters[r];
        let out = std::mem::take(&mut self.st.fighters[r].out);
        self.st.fighters[r] = super::super::state::BattleState::fresh_fighter(spec, q);
        self.st.fighters[r].out = out;
        self.st.fighters[r].hp = hp;
        self.st.fighters[r].out.final_hp = hp;
        self.st.fighters[r].turn.has_acted = true;
        self.st.relocate(r, q);
        self.st.refresh_status(r);
        let key = self.init_keys.get(t).copied().unwrap_or_default();
        if let Some(slot) = self.init_keys.get_mut(r) {
            *slot = key;
        }
        self.st.order.retain(|&j| j != r);
        let at = self.st.order.iter().position(|&j| j == t).map_or(self.st.order.len(), |k| k + 1);
        self.st.order.insert(at, r);
    }
}
