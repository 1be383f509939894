//! Channel energy (CRB "Cleric: Channel Energy"): a 30-ft burst centred on
//! the cleric, a standard action that does not provoke. Positive energy
//! heals living creatures or harms undead; negative energy the reverse.
//! Healing needs no save; harmed creatures save (Will, DC 10 + ½ cleric
//! level + Charisma modifier) for half. Selective Channeling leaves out up
//! to Charisma-modifier creatures (the channeler's enemies when it heals,
//! its allies when it harms); without it every creature of the chosen kind
//! in the burst is affected, foes included. Sun's Blessing (CRB "Sun
//! domain") adds the cleric level to positive energy harming undead (before
//! a save halves it) and denies them their channel resistance.
//!
//! A paladin's channel positive energy (CRB "Paladin", 4th level) is the
//! same channel at her paladin level; each use spends two uses of lay on
//! hands (`HANDS_PER_CHANNEL`) and is refused with fewer left.

use crate::effects::{Context, Descriptors, SaveKind};
use crate::rng::Dice;
use crate::spell::model::CreatureType;

use super::super::action::{Action, Reason};
use super::super::engine::Engine;
use super::super::event::Event;
use super::super::log::emit;
use super::super::state::BattleState;
use super::{CHANNEL_RADIUS_FT, Channel, HANDS_PER_CHANNEL};

impl BattleState<'_> {
    /// `i`'s channel when it can pay for a use now: a use of channel
    /// energy, or for a paladin's two uses of lay on hands.
    pub(crate) fn channel_ready(&self, i: usize) -> Option<Channel> {
        let channel = self.prep.fighters[i].abilities.as_deref()?.channel?;
        let pools = &self.fighters[i].class.pools;
        let paid = if channel.from_hands {
            pools.lay_on_hands >= HANDS_PER_CHANNEL
        } else {
            pools.channel_energy > 0
        };
        paid.then_some(channel)
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// Channel energy: `option` 0 heals (the living with positive energy,
    /// undead with negative), 1 harms (the other kind).
    pub(crate) fn channel_action(&mut self, i: usize, action: Action) -> Result<(), Reason> {
        let prep = self.st.prep;
        let spec = prep.fighters[i].abilities.as_deref().ok_or(Reason::NoAbility)?;
        let channel = self.st.channel_ready(i).ok_or(Reason::NoAbility)?;
        let pools = &mut self.st.fighters[i].class.pools;
        if channel.from_hands {
            pools.lay_on_hands -= HANDS_PER_CHANNEL;
        } else {
            pools.channel_energy -= 1;
        }
        let heal = action.option == 0;
        // Positive heals the living; negative heals undead.
        let heals_undead = !channel.positive;
        let targets_undead = heal == heals_undead;
        let mut affected: Vec<usize> = (0..self.st.len())
            .filter(|&t| {
                let f = &self.st.fighters[t];
                let undead = prep.fighters[t].nature.ctype == Some(CreatureType::Undead);
                let living = !prep.fighters[t].defense.immune.drain;
                !f.dead
                    && !f.gone
                    && (if targets_undead { undead } else { living })
                    && self.st.distance(i, t) <= CHANNEL_RADIUS_FT
                    && self.st.line_of_effect_from(i, self.st.pos(i), t)
            })
            .collect();
        if spec.selective {
            let mut left = prep.fighters[i].scores.cha_mod.max(0) as usize;
            affected.retain(|&t| {
                let unwanted = if heal { self.st.are_enemies(i, t) } else { !self.st.are_enemies(i, t) };
                if unwanted && left > 0 {
                    left -= 1;
                    false
                } else {
                    true
                }
            });
        }
        let energy = if channel.positive { "positive" } else { "negative" };
        let (positive, dice, creatures) = (channel.positive, channel.dice, affected.len() as u32);
        emit!(self, Event::ChannelsEnergy { who: i, positive, dice, heals: heal, creatures });
        let rolled: u32 = (0..channel.dice).map(|_| self.rng.roll(6)).sum();
        for t in affected {
            // A clay golem's cursed wound: a check at the cleric's level (`monster::golem`).
            if heal && self.cursed_wound_stops(i, prep.fighters[i].nature.hd, t) {
                continue;
            }
            if heal {
                let before = self.st.fighters[t].hp;
                let healed = self.heal(t, rolled);
                if t != i {
                    self.st.fighters[i].out.healing_given += healed;
                }
                let (hp_before, hp_after) = (before, self.st.fighters[t].hp);
                emit!(self, Event::Healed { who: t, amount: healed, hp_before, hp_after });
            } else {
                // Sun's Blessing: + cleric level against undead, channel resistance ignored.
                let sun =
                    if prep.fighters[t].nature.ctype == Some(CreatureType::Undead) { channel.sun } else { 0 };
                let ctx = Context {
                    descriptors: Descriptors::NONE,
                    other_alignment: prep.fighters[i].nature.alignment,
                    channel: sun == 0,
                    ..Context::default()
                };
                let saved = self.roll_save(t, SaveKind::Will, channel.dc, &ctx);
                let total = rolled + sun as u32;
                let n = if saved { total / 2 } else { total };
                self.spell_damage(i, t, n, &[energy.to_string()], false, None);
            }
        }
        Ok(())
    }
}
