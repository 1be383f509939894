//! Smite evil and smite good of the celestial and fiendish templates
//! (Bestiary, Simple Templates: "Smite Evil (Su): Once per day, as a swift
//! action, the creature can smite evil as the smite evil ability of a
//! paladin of the same level as its Hit Dice [...]"; the fiendish template's
//! smite good is the same against good foes).
//!
//! The paladin's ability (CRB "Smite Evil"): against the chosen foe, the
//! creature adds its Charisma bonus (if any) to attack rolls and its level
//! (here its Hit Dice) to damage rolls, its attacks bypass the foe's damage
//! reduction, and it gains a deflection bonus equal to its Charisma
//! modifier (if any) to AC against the foe's attacks. It lasts until the
//! foe is dead (or the battle ends). A foe of the wrong alignment wastes
//! the use and gains nothing (CRB: "the smite has no effect"); the policy
//! never smites one. *Simplification*: the paladin's doubled damage on the
//! first hit against an evil outsider, dragon or undead is not part of the
//! templates' text (damage equal to HD) and is not played.

use crate::effects::Alignment;

use super::super::prepared::monster::Smite;
use crate::rng::Dice;

use super::super::action::{Action, Reason};
use super::super::engine::Engine;
use super::super::event::Event;
use super::super::log::emit;
use super::super::state::BattleState;

impl BattleState<'_> {
    /// `i`'s smite, if it has one: its template's, else a paladin's smite
    /// evil (`combat::abilities::paladin`).
    pub(crate) fn smite_of(&self, i: usize) -> Option<Smite> {
        let f = &self.prep.fighters[i];
        f.monster.as_deref().and_then(|m| m.smite).or_else(|| f.abilities.as_deref().and_then(|a| a.smite))
    }

    /// The foe `i` smites now, if any.
    #[inline]
    pub(crate) fn smiting(&self, i: usize) -> Option<usize> {
        self.fighters[i].monster.smiting
    }

    /// Uses of `i`'s smite left (`resources.smite_evil` or `smite_good`).
    pub(crate) fn smites_left(&self, i: usize) -> u16 {
        match self.smite_of(i) {
            Some(s) if s.against == Alignment::EVIL => self.fighters[i].class.pools.smite_evil,
            Some(_) => self.fighters[i].class.pools.smite_good,
            None => 0,
        }
    }

    /// Whether `t` has the alignment `i`'s smite punishes.
    pub(crate) fn smitable(&self, i: usize, t: usize) -> bool {
        self.smite_of(i).is_some_and(|s| self.prep.fighters[t].nature.alignment & s.against != 0)
    }

    /// The bonus of `a`'s smite on its attack rolls against `t`.
    #[inline]
    pub(crate) fn smite_attack(&self, a: usize, t: usize) -> i32 {
        if self.smiting(a) != Some(t) {
            return 0;
        }
        self.smite_of(a).map_or(0, |s| s.attack)
    }

    /// The bonus of `a`'s smite on its damage rolls against `t`.
    #[inline]
    pub(crate) fn smite_damage(&self, a: usize, t: usize) -> i32 {
        if self.smiting(a) != Some(t) {
            return 0;
        }
        self.smite_of(a).map_or(0, |s| s.damage)
    }

    /// The deflection bonus to `t`'s AC against an attack by `a` from
    /// `t`'s smite on `a`.
    #[inline]
    pub(crate) fn smite_ac(&self, a: usize, t: usize) -> i32 {
        if self.smiting(t) != Some(a) {
            return 0;
        }
        self.smite_of(t).map_or(0, |s| s.ac)
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// Smite (swift action): `action.target` becomes the smitten foe; one use.
    pub(crate) fn smite_action(&mut self, i: usize, action: Action) -> Result<(), Reason> {
        let s = self.st.smite_of(i).ok_or(Reason::NoAbility)?;
        if self.st.smites_left(i) == 0 || self.st.smiting(i).is_some_and(|f| !self.st.fighters[f].dead) {
            return Err(Reason::NoAbility);
        }
        let t = self.enemy_target(i, action)?;
        let pools = &mut self.st.fighters[i].class.pools;
        let left = if s.against == Alignment::EVIL { &mut pools.smite_evil } else { &mut pools.smite_good };
        *left -= 1;
        let left = u32::from(*left);
        // The wrong alignment: the use is spent for nothing (CRB "Smite Evil").
        let works = self.st.smitable(i, t);
        self.st.fighters[i].monster.smiting = works.then_some(t);
        let evil = s.against == Alignment::EVIL;
        let (attack, damage, ac) = if works { (s.attack, s.damage, s.ac) } else { (0, 0, 0) };
        emit!(self, Event::Smites { who: i, target: t, evil, attack, damage, ac, left });
        Ok(())
    }
}
