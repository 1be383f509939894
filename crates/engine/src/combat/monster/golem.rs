//! The golems' abilities that bend the usual rules (Bestiary, Golem, Flesh
//! and Clay): the exceptions to their immunity to magic, berserk, and the
//! clay golem's cursed wound. Rules and simplifications:
//! `docs/rules/monsters.md` ("Golems: immunity to magic, berserk, cursed
//! wound").
//!
//! - Immunity to magic (`magic_energy`): "a magical attack that deals
//!   electricity damage [...] heals 1 point of damage for every 3 points of
//!   damage the attack would otherwise deal", the excess over its full
//!   hit points as temporary hit points, and "breaks any slow effect"
//!   (flesh golem; acid for the clay golem); "a magical attack that deals
//!   cold or fire damage slows a flesh golem (as the *slow* spell) for 2d6
//!   rounds (no save)". A magical attack is a spell here: a spell that
//!   allows spell resistance does nothing else to it (its immunity), one
//!   that does not deals its other damage as usual.
//! - Berserk: "a cumulative 1% chance each round" from its first turn;
//!   once berserk it "attacks the nearest living creature" for the rest of
//!   the battle, friend or foe: every other creature is its enemy, and it
//!   theirs (`BattleState::are_enemies`).
//! - Cursed wound: a creature it damaged needs, for each magical healing,
//!   a caster level check (d20 + the healer's caster level) against the DC,
//!   or the healing has no effect.

use crate::effects::{Duration, Effect};
use crate::rng::Dice;
use crate::spell::model::CreatureType;

use super::super::action::{Action, ActionKind};
use super::super::engine::Engine;
use super::super::event::{AfflictionEvent, EffectEnd, Event};
use super::super::log::emit;
use super::super::prepared::monster::energy_bits;
use super::super::spells::{Cast, Meeting};
use super::super::state::BattleState;

impl BattleState<'_> {
    /// Whether `i` has gone berserk (`monster::golem`).
    #[inline]
    pub fn is_berserk(&self, i: usize) -> bool {
        self.fighters[i].monster.berserk
    }

    /// The nearest living creature a berserk `i` attacks: able to fight,
    /// neither undead nor a construct, not inside another (ties: encounter order).
    pub(crate) fn berserk_target(&self, i: usize) -> Option<usize> {
        (0..self.len())
            .filter(|&j| {
                j != i
                    && self.is_active(j)
                    && !self.is_swallowed(j)
                    && !matches!(
                        self.prep.fighters[j].nature.ctype,
                        Some(CreatureType::Undead | CreatureType::Construct)
                    )
            })
            .min_by_key(|&j| (self.distance(i, j), j))
    }

    /// The chance that magical healing of `t` by a healer of caster level
    /// `cl` works: 1 unless a clay golem's cursed wound marks `t`, else the
    /// chance of d20 + `cl` ≥ its DC (a check: a natural 20 is no success
    /// by itself). The policy weighs its cures by it (`policy::heal`).
    pub(crate) fn healing_odds(&self, t: usize, cl: u32) -> f64 {
        let Some(g) = self.fighters[t].monster.cursed_by else { return 1.0 };
        let Some((_, dc)) = self.prep.fighters[g].monster.as_deref().and_then(|m| m.cursed_wound.as_ref())
        else {
            return 1.0;
        };
        f64::from((21 - (dc - cl as i32)).clamp(0, 20)) / 20.0
    }

    /// What a golem's immunity to magic does with a spell's damage of
    /// `energies` (bits): whether it heals the golem, whether it puts the
    /// golem's `spell` (a slow) on it.
    pub(crate) fn magic_energy(&self, t: usize, energies: u8) -> (bool, bool) {
        match self.prep.fighters[t].monster.as_deref().and_then(|m| m.magic_energy.as_ref()) {
            Some(me) => (me.heals & energies != 0, me.spell_types & energies != 0 && me.spell != u16::MAX),
            None => (false, false),
        }
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// The start of `i`'s turn: a golem not berserk yet adds its chance and
    /// rolls d%.
    pub(crate) fn berserk_turn_start(&mut self, i: usize) {
        let prep = self.st.prep;
        let Some((name, percent)) = prep.fighters[i].monster.as_deref().and_then(|m| m.berserk.clone())
        else {
            return;
        };
        if self.st.fighters[i].monster.berserk || !self.st.can_act(i) {
            return;
        }
        let chance = (self.st.fighters[i].monster.berserk_chance + percent).min(100);
        self.st.fighters[i].monster.berserk_chance = chance;
        let d100 = self.rng.roll(100);
        if d100 <= chance {
            self.st.fighters[i].monster.berserk = true;
            emit!(
                self,
                Event::Affliction { who: i, what: AfflictionEvent::Berserk { ability: name, chance, d100 } }
            );
        }
    }

    /// The turn of a berserk `i`, instead of its side's plan: a full attack
    /// on the nearest living creature within reach, else a move toward it
    /// and an attack; nothing when nobody is left.
    pub(crate) fn berserk_plan(&mut self, i: usize, out: &mut Vec<Action>) {
        out.clear();
        let Some(t) = self.st.berserk_target(i) else {
            out.push(Action::new(ActionKind::Wait));
            return;
        };
        if self.st.weapon_for(i, t, self.st.pos(i)).is_ok() {
            out.push(Action::at(ActionKind::FullAttack, t));
        } else {
            out.push(Action::at(ActionKind::Move, t));
            out.push(Action::at(ActionKind::Attack, t));
        }
    }

    /// A spell that allows spell resistance met golem `t`'s immunity to
    /// magic: its damage effects of the types the golem's exceptions name
    /// heal it or slow it. Returns whether an exception applied.
    pub(crate) fn magic_immunity_exception(&mut self, cast: &Cast, t: usize) -> bool {
        let prep = self.st.prep;
        let spell = &prep.spells[usize::from(cast.spell)].spell;
        let mut applied = false;
        for e in &spell.effects {
            let crate::spell::effect::EffectKind::Damage(d) = &e.kind else { continue };
            let energies = energy_bits(&d.types);
            let (heals, slows) = self.st.magic_energy(t, energies);
            if heals {
                let projectiles =
                    d.projectiles.as_ref().and_then(|p| p.fixed_at(cast.cl)).unwrap_or(1).max(1) as u32;
                let mut rolled = 0;
                for _ in 0..projectiles {
                    rolled += self.roll_scaled(cast, &d.amount).max(0) as u32;
                }
                self.magic_heals(t, rolled, &d.types);
                applied = true;
            } else if slows {
                self.magic_slows(t, &d.types);
                applied = true;
            }
        }
        applied
    }

    /// Spell damage `dealt` of `types` on `t` (a spell that does not allow
    /// spell resistance): a golem's exception turns it into healing (none
    /// dealt) or slows it (the damage dealt as usual).
    pub(crate) fn magic_energy_damage(&mut self, t: usize, dealt: u32, types: &[String]) -> u32 {
        let (heals, slows) = self.st.magic_energy(t, energy_bits(types));
        if heals {
            self.magic_heals(t, dealt, types);
            return 0;
        }
        if slows {
            self.magic_slows(t, types);
        }
        dealt
    }

    /// `t` heals 1 hit point per `heal_per` of `damage`, the excess over its
    /// maximum as temporary hit points; its exceptions' spell ends.
    fn magic_heals(&mut self, t: usize, damage: u32, types: &[String]) {
        let prep = self.st.prep;
        let Some(me) = prep.fighters[t].monster.as_deref().and_then(|m| m.magic_energy.as_ref()) else {
            return;
        };
        let amount = damage / me.heal_per;
        let (name, ends, spell) = (me.name.clone(), me.heal_ends_spell, me.spell);
        let room = (self.st.hp_max(t) - self.st.fighters[t].hp).max(0) as u32;
        let healed = self.heal(t, amount.min(room));
        let temp_hp = amount.saturating_sub(room);
        if temp_hp > 0 {
            let mut e = Effect::new(&format!("{name} (temporary hit points)"), Duration::UntilRemoved);
            e.temp_hp = temp_hp;
            self.apply_effect(t, e, Some(t));
        }
        let ended = ends
            && spell != u16::MAX
            && self.st.fighters[t].effects.iter().any(|e| e.effect.spell == Some(spell));
        if ended {
            self.end_spell_on(t, spell, EffectEnd::Dispelled);
        }
        emit!(
            self,
            Event::Affliction {
                who: t,
                what: AfflictionEvent::MagicHeals {
                    ability: name,
                    types: types.to_vec(),
                    damage,
                    healed,
                    temp_hp,
                    ends_spell: ended,
                }
            }
        );
    }

    /// The golem's exception spell (a slow) on `t` for its rolled rounds,
    /// no save, no immunity (applied as a supernatural ability on itself).
    fn magic_slows(&mut self, t: usize, types: &[String]) {
        let prep = self.st.prep;
        let Some(me) = prep.fighters[t].monster.as_deref().and_then(|m| m.magic_energy.as_ref()) else {
            return;
        };
        let (name, spell) = (me.name.clone(), me.spell);
        let rounds = me.rounds.as_ref().map_or(1, |r| r.roll(self.rng).max(1) as u32);
        emit!(
            self,
            Event::Affliction {
                who: t,
                what: AfflictionEvent::MagicSlows { ability: name, types: types.to_vec(), rounds }
            }
        );
        let cast = Cast {
            caster: t,
            spell,
            slot: 0,
            metamagic: Default::default(),
            target: Some(t),
            point: None,
            option: 0,
            dc: 0,
            cl: rounds,
            weapon: None,
            extract: false,
        };
        // A new slow replaces the one running (the longer would do at the table: the fresh one is).
        self.end_spell_on(t, spell, EffectEnd::Ends);
        let mut meeting = Meeting { willing: true, ..Meeting::default() };
        self.affect(&cast, t, &mut meeting, None);
    }

    /// `a` damaged `t`: a clay golem's cursed wound marks it.
    pub(crate) fn curse_wound(&mut self, a: usize, t: usize) {
        if self.st.prep.fighters[a].monster.as_deref().is_some_and(|m| m.cursed_wound.is_some()) {
            self.st.fighters[t].monster.cursed_by = Some(a);
        }
    }

    /// Magical healing by `healer` at caster level `cl` on `t`: whether a
    /// cursed wound stops it (a failed caster level check, shown).
    pub(crate) fn cursed_wound_stops(&mut self, healer: usize, cl: u32, t: usize) -> bool {
        let Some(g) = self.st.fighters[t].monster.cursed_by else { return false };
        let Some((name, dc)) =
            self.st.prep.fighters[g].monster.as_deref().and_then(|m| m.cursed_wound.clone())
        else {
            return false;
        };
        let d20 = self.rng.roll(20) as i32;
        let bonus = cl as i32;
        let overcome = d20 + bonus >= dc;
        emit!(
            self,
            Event::Affliction {
                who: t,
                what: AfflictionEvent::CursedWound { ability: name, by: g, healer, d20, bonus, dc, overcome }
            }
        );
        !overcome
    }
}
