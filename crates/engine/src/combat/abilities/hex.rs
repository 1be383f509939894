//! Witch hexes (APG "Witch: Hexes"): supernatural, no spell resistance, DC
//! 10 + ½ witch level + Intelligence modifier; a standard action unless
//! said otherwise; range 30 ft. Evil eye (−2 on AC, attack rolls or saves,
//! 3 + Intelligence modifier rounds, 1 round on a successful Will save),
//! slumber (asleep for witch-level rounds, Will negates, ends on damage),
//! misfortune (rolls twice, the worse kept, 1 round), fortune (an ally
//! rolls twice, the better kept, once, 1 round), healing (cure light
//! wounds by touch, cure moderate from 5th level), ward (+2 deflection and
//! resistance until hit or a failed save; one ward at a time, not on
//! herself), cackle (a move action: the witch's evil eye, misfortune and
//! fortune within 30 ft last 1 round more). Slumber, misfortune, fortune
//! and healing cannot target the same creature twice in a battle (the
//! APG's "1 day"). The hexes pool (`resources.hexes`) is spent only when
//! the file gives one.

use crate::effects::{
    Behaviour, BonusType, ConditionId, ConditionSet, Context, Descriptor, Descriptors, Duration, Effect, Mod,
    ModTarget, SaveKind,
};
use crate::feats::Hex;
use crate::rng::Dice;

use super::super::action::{Action, ClassAbilityUse, Reason};
use super::super::engine::Engine;
use super::super::event::{ClassAbilityEvent, EffectEnd, Event};
use super::super::log::emit;
use super::{HEX_RANGE_FT, hex_mark as mark};

impl<R: Dice> Engine<'_, '_, R> {
    /// A hex: `action.ability` names it, `action.target` whom it aims at,
    /// `option` the evil eye's penalty (0 attack rolls, 1 AC, 2 saves).
    pub(crate) fn hex_action(&mut self, i: usize, action: Action) -> Result<(), Reason> {
        let prep = self.st.prep;
        let spec = prep.fighters[i].abilities.as_deref().ok_or(Reason::NoAbility)?;
        let Some(ClassAbilityUse::Hex(hex)) = action.ability else { return Err(Reason::NoAbility) };
        if !spec.has_hex(hex) || self.st.fighters[i].class.pools.hexes == Some(0) {
            return Err(Reason::NoAbility);
        }
        if hex == Hex::Cackle {
            self.spend_hex(i);
            self.cackle(i);
            return Ok(());
        }
        let t = action.target.filter(|&t| t < self.st.len()).ok_or(Reason::MissingTarget)?;
        if !self.st.is_present(t) || self.st.fighters[t].dead {
            return Err(Reason::MissingTarget);
        }
        let helpful = matches!(hex, Hex::Fortune | Hex::Healing | Hex::Ward);
        if helpful == self.st.are_enemies(i, t) || (hex == Hex::Ward && t == i) {
            return Err(Reason::MissingTarget);
        }
        let reach = if hex == Hex::Healing { self.st.touch_reach(i) } else { HEX_RANGE_FT };
        if t != i && (self.st.distance(i, t) > reach || !self.st.line_of_effect_from(i, self.st.pos(i), t)) {
            return Err(Reason::OutOfRange);
        }
        let once = matches!(hex, Hex::Slumber | Hex::Misfortune | Hex::Fortune | Hex::Healing);
        if once && self.st.fighters[t].marks.contains(&(i, mark(hex))) {
            return Err(Reason::MissingTarget);
        }
        self.spend_hex(i);
        if once {
            self.st.fighters[t].marks.push((i, mark(hex)));
        }
        let level = prep.fighters[i].nature.hd;
        let dc = spec.hex_dc;
        emit!(
            self,
            Event::ClassAbility {
                who: i,
                what: ClassAbilityEvent::Hexes { target: t, hex: hex.name().to_string(), dc }
            }
        );
        let mind = Descriptors::of(&[Descriptor::MindAffecting]);
        let ctx = Context {
            descriptors: mind,
            other_alignment: prep.fighters[i].nature.alignment,
            ..Context::default()
        };
        match hex {
            Hex::EvilEye => {
                if prep.fighters[t].defense.immune.descriptors.has(Descriptor::MindAffecting) {
                    emit!(self, Event::ClassAbility { who: t, what: ClassAbilityEvent::ImmuneMindAffecting });
                    return Ok(());
                }
                let saved = self.roll_save(t, SaveKind::Will, dc, &ctx);
                let rounds = if saved { 1 } else { (3 + prep.fighters[i].scores.int_mod).max(1) as u32 };
                let penalty = if level >= 8 { -4 } else { -2 };
                let mods = match action.option {
                    1 => vec![Mod::new(ModTarget::Ac, penalty, BonusType::Untyped)],
                    2 => vec![Mod::new(ModTarget::Saves, penalty, BonusType::Untyped)],
                    _ => vec![Mod::new(ModTarget::Attack, penalty, BonusType::Untyped)],
                };
                self.apply_effect(
                    t,
                    Effect::new("evil eye", Duration::Rounds(rounds)).with_mods(mods),
                    Some(i),
                );
            }
            Hex::Slumber => {
                let immune = &prep.fighters[t].defense.immune;
                if immune.descriptors.has(Descriptor::MindAffecting)
                    || immune.conditions.has(ConditionId::Asleep)
                {
                    emit!(self, Event::ClassAbility { who: t, what: ClassAbilityEvent::ImmuneSleep });
                    return Ok(());
                }
                if !self.roll_save(t, SaveKind::Will, dc, &ctx) {
                    let e = Effect::new("slumber", Duration::Rounds(level.max(1)))
                        .with_conditions(ConditionSet::of(ConditionId::Asleep))
                        .with_behaviours(vec![Behaviour::EndsOnDamage]);
                    self.apply_effect(t, e, Some(i));
                }
            }
            Hex::Misfortune => {
                if !self.roll_save(t, SaveKind::Will, dc, &ctx) {
                    let rounds = 1 + u32::from(level >= 8) + u32::from(level >= 16);
                    let e = Effect::new("misfortune", Duration::Rounds(rounds))
                        .with_behaviours(vec![Behaviour::TakeWorse]);
                    self.apply_effect(t, e, Some(i));
                }
            }
            Hex::Fortune => {
                let rounds = 1 + u32::from(level >= 8) + u32::from(level >= 16);
                let e = Effect::new("fortune", Duration::Rounds(rounds))
                    .with_behaviours(vec![Behaviour::TakeBetter]);
                self.apply_effect(t, e, Some(i));
            }
            Hex::Healing => {
                // Cure light wounds (1d8 + caster level, max +5), cure moderate from 5th level (2d8, max +10).
                let (dice, cap) = if level >= 5 { (2, 10) } else { (1, 5) };
                let n: u32 = (0..dice).map(|_| self.rng.roll(8)).sum::<u32>() + level.min(cap);
                let before = self.st.fighters[t].hp;
                // A clay golem's cursed wound: a check at the witch's level (`monster::golem`).
                if self.cursed_wound_stops(i, level, t) {
                    return Ok(());
                }
                let healed = self.heal(t, n);
                if t != i {
                    self.st.fighters[i].out.healing_given += healed;
                }
                let (hp_before, hp_after) = (before, self.st.fighters[t].hp);
                emit!(self, Event::Healed { who: t, amount: healed, hp_before, hp_after });
            }
            Hex::Ward => {
                for j in 0..self.st.len() {
                    self.end_ward_of(i, j);
                }
                let bonus = 2 + i32::from(level >= 8) + i32::from(level >= 16);
                let e = Effect::new("ward", Duration::UntilRemoved)
                    .with_mods(vec![
                        Mod::new(ModTarget::Ac, bonus, BonusType::Deflection),
                        Mod::new(ModTarget::Saves, bonus, BonusType::Resistance),
                    ])
                    .with_behaviours(vec![Behaviour::EndsWhenHitOrFailsSave]);
                self.apply_effect(t, e, Some(i));
            }
            Hex::Cackle => {}
        }
        Ok(())
    }

    fn spend_hex(&mut self, i: usize) {
        if let Some(n) = self.st.fighters[i].class.pools.hexes.as_mut() {
            *n = n.saturating_sub(1);
        }
    }

    /// Ends the ward witch `i` placed on `j`, if any.
    fn end_ward_of(&mut self, i: usize, j: usize) {
        while let Some(k) =
            self.st.fighters[j].effects.iter().position(|e| &*e.effect.name == "ward" && e.source == Some(i))
        {
            self.remove_effect_at(j, k, EffectEnd::NewWard);
        }
    }

    /// Cackle: the witch's evil eye, misfortune and fortune on creatures within 30 ft last 1 round more.
    fn cackle(&mut self, i: usize) {
        emit!(self, Event::ClassAbility { who: i, what: ClassAbilityEvent::Cackles });
        for t in 0..self.st.len() {
            if !self.st.is_present(t) || self.st.distance(i, t) > HEX_RANGE_FT {
                continue;
            }
            for e in self.st.fighters[t].effects.iter_mut() {
                let extends =
                    e.source == Some(i) && matches!(&*e.effect.name, "evil eye" | "misfortune" | "fortune");
                if extends && let Some(n) = e.rounds_left.as_mut() {
                    *n += 1;
                }
            }
        }
    }
}
