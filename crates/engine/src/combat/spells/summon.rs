//! Summoning in battle: the arrival and departure of the creatures a
//! summoning spell calls (which creature, and its rows: `spells::reserve`).

use crate::map::Pos;

use super::super::event::Event;
use super::super::log::emit;

impl<R: crate::rng::Dice> super::super::engine::Engine<'_, '_, R> {
    /// Summons the creatures of `cast`'s group: `count` of them (as many as
    /// rolled, at most the reserved rows) on the free squares nearest the
    /// caster's nearest enemy within the spell's range (else nearest the
    /// caster). They act right after the caster, on its initiative count,
    /// every round until the spell ends (CRB "Summon Monster I").
    pub(crate) fn summon(&mut self, cast: super::casting::Cast) {
        let prep = self.st.prep;
        let i = cast.caster;
        let Some(g) =
            prep.fighters[i].caster.as_deref().and_then(|c| c.known(cast.spell)).and_then(|k| k.group)
        else {
            return;
        };
        let group = &prep.summon_groups[usize::from(g)];
        let spell = &prep.spells[usize::from(cast.spell)].spell;
        let n = self.roll_scaled(&cast, &group.count).max(1) as usize;
        let n = n.min(group.rows.len());
        let rounds = match &spell.duration.amount {
            Some(a) => self.roll_scaled(&cast, a).max(1) as u32,
            None => cast.cl.max(1),
        };
        let rounds = if cast.metamagic.has(super::book::Metamagic::EXTEND) { 2 * rounds } else { rounds };
        let range = self.st.spell_range(i, spell, cast.cl).unwrap_or(u32::MAX);
        let focus = self
            .st
            .nearest_enemy(i)
            .filter(|&e| self.st.distance(i, e) <= range)
            .map_or(self.st.pos(i), |e| self.st.pos(e));
        let augment = prep.fighters[i].abilities.as_ref().is_some_and(|a| a.augment_summoning);
        let mut arrived = Vec::new();
        for r in group.rows.clone().take(n) {
            let Some(square) = self.summon_square(i, r, focus, range) else { break };
            self.arrive(r, square, rounds, augment);
            arrived.push(r);
        }
        if arrived.is_empty() {
            emit!(self, Event::NoRoomToSummon { who: i, spell: spell.name.clone() });
            return;
        }
        // They act right after the caster, this round and the next ones.
        let key = self.init_keys.get(i).copied().unwrap_or_default();
        let at = self.st.order.iter().position(|&j| j == i).map_or(self.st.order.len(), |k| k + 1);
        for (k, &r) in arrived.iter().enumerate() {
            if let Some(slot) = self.init_keys.get_mut(r) {
                *slot = key;
            }
            self.st.order.retain(|&j| j != r);
            self.st.order.insert((at + k).min(self.st.order.len()), r);
        }
        if self.current == Some(i) {
            for &r in arrived.iter().rev() {
                self.queue.push((r, false));
            }
        }
    }

    /// The free square nearest `focus` within `range` of the caster where
    /// row `r`'s whole space fits, with line of effect from the caster.
    fn summon_square(&self, caster: usize, r: usize, focus: Pos, range: u32) -> Option<Pos> {
        let st = &self.st;
        let map = st.map();
        let s = st.space(r);
        let from = st.pos(caster);
        let mut best: Option<((u32, u32, i32, i32), Pos)> = None;
        for row in 0..map.height {
            for col in 0..map.width {
                let p = Pos::new(row, col);
                let d = crate::grid::distance_ft(from, p);
                if d > range.max(5) {
                    continue;
                }
                let free = crate::grid::footprint(p, s).all(|c| {
                    map.in_bounds(c)
                        && map.passable(c)
                        && if st.is_small(r) {
                            st.small_occupant(c).is_none()
                        } else {
                            st.occupant(c).is_none()
                        }
                });
                if !free || !st.prep.line_of_effect(from, p) {
                    continue;
                }
                let key = (crate::grid::distance_ft(focus, p), d, row, col);
                if best.is_none_or(|(k, _)| key < k) {
                    best = Some((key, p));
                }
            }
        }
        best.map(|(_, p)| p)
    }

    /// Row `r` arrives on `square` for `rounds` rounds, fresh.
    fn arrive(&mut self, r: usize, square: Pos, rounds: u32, augment: bool) {
        let prep = self.st.prep;
        let spec = &prep.fighters[r];
        if self.st.fighters[r].effects.iter().any(|e| e.rounds_left.is_some()) {
            let timed = self.st.fighters[r].effects.iter().filter(|e| e.rounds_left.is_some()).count() as u32;
            self.st.timed_effects -= timed;
        }
        let out = std::mem::take(&mut self.st.fighters[r].out);
        let fresh = super::super::state::BattleState::fresh_fighter(spec, square);
        self.st.fighters[r] = fresh;
        self.st.fighters[r].out = out;
        self.st.fighters[r].summon_left = rounds;
        self.st.fighters[r].turn.has_acted = true;
        self.st.relocate(r, square);
        if augment {
            let hd = spec.nature.hd as i32;
            let mut e =
                crate::effects::Effect::new("Augment Summoning", crate::effects::Duration::UntilRemoved)
                    .with_mods(vec![
                        crate::effects::Mod::new(
                            crate::effects::ModTarget::Str,
                            4,
                            crate::effects::BonusType::Enhancement,
                        ),
                        crate::effects::Mod::new(
                            crate::effects::ModTarget::Con,
                            4,
                            crate::effects::BonusType::Enhancement,
                        ),
                    ]);
            e.temp_hp = 0;
            self.st.fighters[r].hp += 2 * hd;
            self.apply_effect(r, e, None);
        }
        self.st.refresh_status(r);
        emit!(self, Event::Summoned { who: r, at: square, rounds, hp: self.st.fighters[r].hp });
    }

    /// The start of `caster`'s turn (or of a round, for a fallen caster):
    /// its summoned creatures' rounds count down; those at 0 leave.
    pub(crate) fn tick_summons(&mut self, caster: usize) {
        let prep = self.st.prep;
        for g in prep.summon_groups.iter().filter(|g| g.caster == caster) {
            for r in g.rows.clone() {
                let f = &mut self.st.fighters[r];
                if f.gone || f.dead {
                    continue;
                }
                f.summon_left = f.summon_left.saturating_sub(1);
                if f.summon_left == 0 {
                    self.dismiss(r);
                }
            }
        }
    }

    /// Summoned creature `r` leaves the battlefield (its spell ended).
    pub(crate) fn dismiss(&mut self, r: usize) {
        emit!(self, Event::SummonEnds { who: r });
        if self.st.fighters[r].grappled_with.is_some() {
            self.release(r);
        }
        self.st.take_off_field(r);
        self.st.refresh_status(r);
    }
}
