//! Breath weapons (UMR "Breath Weapon"): a standard action that fills a
//! line or a cone from the breather's square toward an aim; every creature
//! in it (allies included) takes the damage, rolled once, and halves it
//! with a Reflex save (evasion applies; cover is not counted). Afterwards
//! the breath is unusable for its recharge roll (1d4) of rounds: breathing
//! in round r with a roll of k makes it usable again in round r + k + 1,
//! so it is used at most once a round.

use crate::effects::{Context, SaveKind};
use crate::feats::Evasion;
use crate::map::Pos;
use crate::rng::Dice;

use super::super::action::{Action, Reason};
use super::super::engine::Engine;
use super::super::event::{AfflictionEvent, Event};
use super::super::log::emit;
use super::super::prepared::monster::Breath;
use super::super::state::BattleState;
use crate::model::BreathShape;

impl BattleState<'_> {
    /// `i`'s breath weapon, if it has one that is usable this round.
    pub(crate) fn breath_ready(&self, i: usize) -> Option<&Breath> {
        let b = self.prep.fighters[i].monster.as_deref()?.breath.as_ref()?;
        (self.fighters[i].monster.breath_ready <= self.round).then_some(b)
    }

    /// Whether `i` has a breath weapon, ready or not.
    pub(crate) fn has_breath(&self, i: usize) -> bool {
        self.prep.fighters[i].monster.as_deref().is_some_and(|m| m.breath.is_some())
    }

    /// The squares of `i`'s breath `b` aimed at `aim`.
    pub(crate) fn breath_squares(&self, i: usize, b: &Breath, aim: Pos, out: &mut Vec<Pos>) -> bool {
        self.breath_squares_from(self.pos(i), b, aim, out)
    }

    /// The squares of breath `b` breathed from `origin` toward `aim` (a
    /// breather weighing where to breathe from).
    pub(crate) fn breath_squares_from(&self, origin: Pos, b: &Breath, aim: Pos, out: &mut Vec<Pos>) -> bool {
        out.clear();
        match b.shape {
            BreathShape::Cone => self.cone_squares(origin, aim, b.range_ft, out),
            BreathShape::Line => self.line_squares(origin, aim, b.range_ft, out),
        }
    }

    /// The creatures `i`'s breath `b` catches among those with a square in
    /// `squares`: the area lies on the ground below the breather, and a
    /// creature is in it when its vertical gap from the breather is within
    /// the breath's length (`combat::flight`).
    pub(crate) fn breath_caught(&self, i: usize, b: &Breath, squares: &[Pos], out: &mut Vec<usize>) {
        self.breath_caught_at(i, self.fighters[i].mobility.alt, b, squares, out);
    }

    /// [`Self::breath_caught`] for `i` breathing from altitude `alt`.
    pub(crate) fn breath_caught_at(
        &self,
        i: usize,
        alt: u32,
        b: &Breath,
        squares: &[Pos],
        out: &mut Vec<usize>,
    ) {
        self.caught(i, squares, out);
        let height = self.shape[i].0;
        out.retain(|&t| {
            super::super::flight::vertical_gap(alt, height, self.fighters[t].mobility.alt, self.shape[t].0)
                <= b.range_ft
        });
    }

    /// The creatures (other than `i`, alive and on the map) with a square in `squares`.
    pub(crate) fn caught(&self, i: usize, squares: &[Pos], out: &mut Vec<usize>) {
        out.clear();
        let map = self.map();
        for t in (0..self.len()).filter(|&t| t != i && self.is_present(t) && !self.is_swallowed(t)) {
            let inside = crate::grid::footprint(self.pos(t), self.space(t))
                .any(|c| map.in_bounds(c) && squares.contains(&c));
            if inside {
                out.push(t);
            }
        }
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// The breath weapon action, aimed at the action's target.
    pub(crate) fn breath_action(&mut self, i: usize, action: Action) -> Result<(), Reason> {
        let prep = self.st.prep;
        let t = action.target.filter(|&t| t < self.st.len()).ok_or(Reason::MissingTarget)?;
        let b = self.st.breath_ready(i).ok_or(Reason::NoAbility)?;
        let mut squares = Vec::new();
        if !self.st.breath_squares(i, b, self.st.pos(t), &mut squares) {
            return Err(Reason::MissingTarget);
        }
        let mut caught = Vec::new();
        self.st.breath_caught(i, b, &squares, &mut caught);
        let b =
            prep.fighters[i].monster.as_deref().and_then(|m| m.breath.as_ref()).ok_or(Reason::NoAbility)?;
        let damage = b.damage.roll(self.rng).max(0) as u32;
        let wait = b.recharge.roll(self.rng).max(1) as u32;
        self.st.fighters[i].monster.breath_ready = self.st.round + wait + 1;
        emit!(
            self,
            Event::Affliction {
                who: i,
                what: AfflictionEvent::Breath {
                    ability: b.name.to_string(),
                    target: t,
                    damage,
                    dc: b.dc,
                    caught: caught.clone(),
                    again: self.st.fighters[i].monster.breath_ready,
                }
            }
        );
        let ctx = Context { other_alignment: prep.fighters[i].nature.alignment, ..Context::default() };
        for c in caught {
            if self.st.fighters[c].dead {
                continue;
            }
            let saved = self.roll_save(c, SaveKind::Ref, b.dc, &ctx);
            let evasion = if self.st.is_helpless(c) { Evasion::None } else { prep.fighters[c].feats.evasion };
            // An energy ward (Fire Shield) turns a save for half into none.
            let warded = saved && self.energy_warded(c, &b.types);
            let dealt = match (saved, evasion) {
                _ if warded => 0,
                (true, Evasion::None) => damage / 2,
                (true, _) => 0,
                (false, Evasion::Improved) => damage / 2,
                (false, _) => damage,
            };
            if dealt == 0 {
                emit!(self, Event::Affliction { who: c, what: AfflictionEvent::NoDamage });
                continue;
            }
            self.spell_damage(i, c, dealt, &b.types, false, None);
        }
        Ok(())
    }
}
