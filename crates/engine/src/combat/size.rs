//! Size changes (Enlarge Person, Reduce Person; CRB pp. 277 and 330): a
//! combatant's size of the moment is its own moved by the size changes of
//! its effects. Its space on the grid, its reach (`BattleState::reach`), the
//! size modifier of its attack rolls and AC and the special size modifier of
//! its CMB and CMD (`BattleState::size_modifier_change`), its Fly bonus and
//! its melee weapons' damage dice (`damage::resized_dice`) read that size.
//!
//! Growing needs room: the larger space must fit on free, passable squares
//! that include the square the creature stands on. Without room it keeps its
//! size ("attains the maximum possible size", one category being all the
//! spell gives; the Strength check to burst enclosures has nothing to burst
//! on a battle map): `docs/rules/spells.md`, "Size changes".

use crate::effects::{Behaviour, Behaviours};
use crate::grid::footprint;
use crate::map::Pos;
use crate::model::Size;

use super::state::{BattleState, EMPTY};

impl BattleState<'_> {
    /// The size `i`'s effects give it: its own, moved by the largest change
    /// up and the largest change down (CRB: "Multiple magical effects that
    /// increase size do not stack").
    pub(crate) fn wanted_size(&self, i: usize) -> Size {
        let own = self.prep.fighters[i].nature.size;
        let f = &self.fighters[i];
        if !Behaviours(f.fx).has(Behaviours::SIZE) {
            return own;
        }
        let (mut up, mut down) = (0i32, 0i32);
        for b in f.effects.iter().flat_map(|e| e.effect.behaviours.iter()) {
            if let Behaviour::SizeChange { steps } = *b {
                up = up.max(i32::from(steps));
                down = down.min(i32::from(steps));
            }
        }
        own.shifted(up + down)
    }

    /// Where `i`'s space would stand at `size`: the top-left square of a
    /// space of that size on free, passable squares that include the square
    /// it stands on (its own first), if any. A rider or a mount keeps its size.
    pub(crate) fn room_for(&self, i: usize, size: Size) -> Option<Pos> {
        let f = &self.fighters[i];
        if f.mobility.riding.is_some() || f.mobility.ridden_by.is_some() {
            return (size == self.size(i)).then_some(f.pos);
        }
        let (space, small) = Self::shape_of(size);
        let at = f.pos;
        let map = self.map();
        let grid = if small { &self.occ_small } else { &self.occ };
        let free = |q: Pos| {
            footprint(q, space).all(|c| {
                map.in_bounds(c) && map.passable(c) && {
                    let o = grid[map.index(c)];
                    o == EMPTY || usize::from(o) == i
                }
            })
        };
        (0..space)
            .flat_map(|dr| (0..space).map(move |dc| Pos { row: at.row - dr, col: at.col - dc }))
            .find(|&q| free(q))
    }

    /// Gives `i` the size its effects give it when there is room (after its
    /// effects changed): its space moves on the grid. Whether its size changed.
    pub(crate) fn refit_size(&mut self, i: usize) -> bool {
        let want = self.wanted_size(i);
        if want == self.size(i) {
            return false;
        }
        let f = &self.fighters[i];
        if f.dead || f.gone {
            // Off the grid: nothing to move.
            self.fighters[i].mobility.size = want;
            self.shape[i] = Self::shape_of(want);
            return true;
        }
        let Some(to) = self.room_for(i, want) else { return false };
        self.vacate(i);
        self.fighters[i].mobility.size = want;
        self.shape[i] = Self::shape_of(want);
        self.relocate(i, to);
        true
    }
}
