//! Summoning: which creature a caster's summoning spell calls, the rows
//! reserved for it in the encounter (so that every battle of an encounter
//! reports the same combatants), and its arrival and departure in battle.

use std::ops::Range;
use std::sync::Arc;

use crate::encounter::id_base;
use crate::library::{Leaning, Library, summon_candidates};
use crate::map::Pos;

use super::super::event::Event;
use super::super::log::emit;
use crate::model::Combatant;
use crate::spell::Scaled;
use crate::spell::effect::EffectKind;

use super::book::{CasterSpec, PreparedSpell};

/// The creatures one caster's summoning spell brings, and their rows.
#[derive(Clone, Debug)]
pub(crate) struct SummonGroup {
    /// The caster.
    pub caster: usize,
    /// How many come per casting.
    pub count: Scaled,
    /// The reserved rows (fighter indices), as many as the most that can come.
    pub rows: Range<usize>,
}

/// A row of the encounter: id, side, statistics, square, starting hit points, awareness.
pub(crate) type Row = (String, usize, Arc<Combatant>, Pos, i32, bool);

/// The options a summoning spell offers its caster: (creature id, its statistics, count).
fn options<'l>(
    library: &'l Library,
    spell_id: &str,
    count_override: Option<&Scaled>,
    leaning: Leaning,
    depth: u32,
    out: &mut Vec<(String, &'l Arc<Combatant>, Scaled)>,
    looked_for: &mut Vec<String>,
) {
    let Some(spell) = library.spells.get(spell_id) else { return };
    for e in &spell.effects {
        let EffectKind::Summon(s) = &e.kind else { continue };
        for o in &s.options {
            let count = count_override.unwrap_or(&o.count);
            if let Some(m) = &o.monster {
                let candidates = summon_candidates(m, o.template, leaning);
                match candidates.iter().find_map(|id| library.creatures.get_key_value(id)) {
                    Some((id, c)) => out.push((id.clone(), c, count.clone())),
                    None => looked_for.extend(candidates),
                }
            }
            if let Some(lower) = &o.from_spell
                && depth < 4
            {
                options(library, lower, Some(count), leaning, depth + 1, out, looked_for);
            }
        }
    }
}

/// How much a summoned creature is worth in a fight, for the choice of option:
/// its hit points plus four times the mean damage of a full round of attacks.
fn worth(c: &Combatant) -> f64 {
    let damage: f64 = c
        .attacks
        .iter()
        .filter(|a| a.natural)
        .map(|a| {
            let per_hit: f64 = a
                .damage
                .iter()
                .filter_map(|d| crate::dice::DiceExpr::parse(&d.formula).ok())
                .map(|d| d.mean())
                .sum::<f64>()
                + f64::from(a.damage_bonus);
            per_hit * f64::from(a.count.max(1))
        })
        .sum();
    let weapon = c
        .attacks
        .iter()
        .find(|a| !a.natural)
        .map(|a| {
            a.damage
                .iter()
                .filter_map(|d| crate::dice::DiceExpr::parse(&d.formula).ok())
                .map(|d| d.mean())
                .sum::<f64>()
        })
        .unwrap_or(0.0);
    f64::from(c.hp_max) + 4.0 * damage.max(weapon)
}

/// Reserves rows for the creatures caster `k`'s summoning spells call: for
/// each such spell, the option worth most in a fight (mean count × worth;
/// the first listed on a tie), with as many rows as the most that can come.
/// A summoning spell none of whose options has a creature file is refused.
pub(crate) fn reserve_summons(
    k: usize,
    c: &Combatant,
    caster: &mut CasterSpec,
    library: &Library,
    spells: &mut [PreparedSpell],
    groups: &mut Vec<SummonGroup>,
    rows: &mut Vec<Row>,
) -> Result<(), (String, String)> {
    let leaning = Leaning::of(&c.alignment);
    let side = rows[k].1;
    let pos = rows[k].3;
    for (n, known) in caster.known.iter_mut().enumerate() {
        let prepared = &spells[usize::from(known.spell)];
        if !prepared.role.summon || prepared.unplayable.is_some() {
            continue;
        }
        let mut found = Vec::new();
        let mut looked_for = Vec::new();
        options(library, &prepared.id, None, leaning, 0, &mut found, &mut looked_for);
        let cl = caster.cl;
        let best = found
            .iter()
            .enumerate()
            .map(|(i, (_, c, count))| (i, count.mean_at(cl).max(1.0) * worth(c)))
            .fold(
                None,
                |acc: Option<(usize, f64)>, x| if acc.is_none_or(|a| x.1 > a.1) { Some(x) } else { acc },
            );
        let Some((best, _)) = best else {
            looked_for.sort();
            looked_for.dedup();
            return Err((
                format!("$.spells[{n}]"),
                format!(
                    "no option of {:?} has a creature file in the scenario (looked for {})",
                    prepared.spell.name,
                    looked_for.join(", ")
                ),
            ));
        };
        let (_, creature, count) = found.swap_remove(best);
        let most = count.bounds_at(cl).1.max(1) as usize;
        let start = rows.len();
        for _ in 0..most {
            let base = id_base(&creature.name);
            let mut row_id = base.clone();
            let mut m = 1;
            while rows.iter().any(|r| r.0 == row_id) {
                m += 1;
                row_id = format!("{base}-{m}");
            }
            rows.push((row_id, side, Arc::clone(creature), pos, creature.hp_max, true));
        }
        known.group = Some(groups.len() as u16);
        groups.push(SummonGroup { caster: k, count, rows: start..rows.len() });
    }
    Ok(())
}

impl<R: crate::rng::Dice> super::super::engine::Engine<'_, '_, R> {
    /// Summons the creatures of `cast`'s group: `count` of them (as many as
    /// rolled, at most the reserved rows) on the free squares nearest the
    /// caster's nearest enemy within the spell's range (else nearest the
    /// caster). They act right after the caster, on its initiative count,
    /// every round until the spell ends (CRB "Summon Monster I").
    pub(crate) fn summon(&mut self, cast: super::cast::Cast) {
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
        self.st.fighters[r].has_acted = true;
        self.st.relocate(r, square);
        if augment {
            let hd = spec.hd as i32;
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
        let timed = self.st.fighters[r].effects.iter().filter(|e| e.rounds_left.is_some()).count() as u32;
        self.st.timed_effects -= timed;
        self.st.fighters[r].effects.clear();
        self.st.vacate(r);
        let f = &mut self.st.fighters[r];
        f.gone = true;
        f.dead = true;
        self.st.refresh_status(r);
    }
}
