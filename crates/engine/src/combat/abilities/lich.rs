//! The lich template (Bestiary "Lich"): its fear aura, played at the start
//! of the lich's turn (each enemy within 60 ft with line of effect, not
//! blinded, saves once per battle: Will, DC 10 + ½ HD + Charisma modifier;
//! a failure leaves a creature of fewer than 5 HD frightened and any other
//! shaken, for as many rounds as the lich has Hit Dice; mind-affecting
//! fear), and its paralyzing touch (a living creature hit by the touch
//! attack saves, Fortitude at the same DC, or is paralyzed for the rest of
//! the battle: the template says permanently).

use crate::effects::{
    ConditionId, ConditionSet, Context, Descriptor, Descriptors, Duration, Effect, Flags, SaveKind,
};
use crate::rng::Dice;

use super::super::engine::Engine;
use super::super::event::{ClassAbilityEvent, Event};
use super::super::log::emit;

/// The radius of the lich's fear aura.
pub(crate) const FEAR_AURA_FT: u32 = 60;
/// The mark a creature that met the aura carries (`Fighter::marks`).
const AURA_MARK: u16 = 0x4000;

impl<R: Dice> Engine<'_, '_, R> {
    /// Class abilities at the start of `i`'s turn: a performance kept up, a
    /// rage kept up, the lich's aura.
    pub(crate) fn start_of_turn_abilities(&mut self, i: usize) {
        if self.st.fighters[i].class.performing {
            self.keep_performing(i);
        }
        if self.st.fighters[i].class.rage.is_some() {
            self.rage_upkeep(i);
        }
        let prep = self.st.prep;
        let Some(spec) = prep.fighters[i].abilities.as_deref() else { return };
        if !spec.lich_aura || !self.st.is_active(i) {
            return;
        }
        let dc = spec.lich_dc;
        let hd = prep.fighters[i].nature.hd.max(1);
        let fear = Descriptors::of(&[Descriptor::Fear, Descriptor::MindAffecting]);
        for t in 0..self.st.len() {
            if !self.st.are_enemies(i, t)
                || !self.st.is_active(t)
                || self.st.fighters[t].marks.contains(&(i, AURA_MARK))
                || self.st.distance(i, t) > FEAR_AURA_FT
                || self.st.flags(t).has(Flags::BLIND)
                || !self.st.line_of_effect_from(i, self.st.pos(i), t)
            {
                continue;
            }
            self.st.fighters[t].marks.push((i, AURA_MARK));
            if prep.fighters[t].defense.immune.descriptors.has(Descriptor::MindAffecting)
                || prep.fighters[t].defense.immune.descriptors.has(Descriptor::Fear)
            {
                continue;
            }
            emit!(self, Event::ClassAbility { who: i, what: ClassAbilityEvent::FearAura { target: t } });
            let ctx = Context {
                descriptors: fear,
                other_alignment: prep.fighters[i].nature.alignment,
                ..Context::default()
            };
            if !self.roll_save(t, SaveKind::Will, dc, &ctx) {
                let c = if prep.fighters[t].nature.hd < 5 {
                    ConditionId::Frightened
                } else {
                    ConditionId::Shaken
                };
                let e = Effect::new("fear aura", Duration::Rounds(hd)).with_conditions(ConditionSet::of(c));
                self.apply_effect(t, e, Some(i));
            }
        }
    }

    /// The lich's touch hit living creature `t`: Fortitude or paralyzed.
    pub(crate) fn paralyzing_touch(&mut self, a: usize, t: usize) {
        let prep = self.st.prep;
        let Some(spec) = prep.fighters[a].abilities.as_deref().filter(|s| s.lich_touch) else { return };
        let immune = &prep.fighters[t].defense.immune;
        if immune.drain || immune.conditions.has(ConditionId::Paralyzed) || !self.st.is_present(t) {
            return;
        }
        let ctx = Context {
            descriptors: Descriptors::of(&[Descriptor::Paralysis]),
            other_alignment: prep.fighters[a].nature.alignment,
            ..Context::default()
        };
        if !self.roll_save(t, SaveKind::Fort, spec.lich_dc, &ctx) {
            emit!(self, Event::ClassAbility { who: t, what: ClassAbilityEvent::LichTouch });
            let e = Effect::new("paralyzing touch", Duration::UntilRemoved)
                .with_conditions(ConditionSet::of(ConditionId::Paralyzed));
            self.apply_effect(t, e, Some(a));
        }
    }
}
