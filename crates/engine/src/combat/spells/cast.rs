//! The cast action (CRB "Casting Spells", "Concentration"): the spell a
//! caster knows and can still cast, its slot, its cast time, the attacks of
//! opportunity casting provokes and the concentration checks that may lose
//! the spell; one-round spells resolved at the start of the caster's next
//! turn, and the held charge of a touch spell.

use crate::effects::{Behaviours, Context, Flags, Targets};
use crate::rng::Dice;
use crate::spell::model::{AttackKind, CastTime};

use super::super::action::{Action, ReadyTrigger, Reason, Slot};
use super::super::engine::Engine;
use super::super::event::{ConcentrationCause, Event, SpellLoss};
use super::super::log::emit;
use super::super::state::{BattleState, LifeState};
use super::book::Metamagic;
use super::casting::{Cast, Held, Pending};

impl BattleState<'_> {
    /// The budget slot a spell takes for `i` (its cast time; Quicken: swift;
    /// a cast time longer than a round is refused before the budget and costs nothing).
    pub(crate) fn cast_slot(&self, i: usize, action: &Action) -> Slot {
        let Some(spell) = action.spell.and_then(|s| self.prep.spells.get(usize::from(s))) else {
            return Slot::Standard;
        };
        // An extract is drawn and drunk as a standard action (APG "Alchemy"),
        // whatever the spell's casting time.
        if self.drinks_extracts(i) {
            return Slot::Standard;
        }
        if action.metamagic.has(Metamagic::QUICKEN) {
            return Slot::Swift;
        }
        let full_round = !action.metamagic.is_empty()
            && self.prep.fighters[i]
                .caster
                .as_deref()
                .zip(action.spell)
                .is_some_and(|(c, s)| c.metamagic_takes_full_round(s, action.metamagic));
        match spell.spell.cast_time {
            CastTime::Standard if full_round => Slot::FullRound,
            CastTime::Standard => Slot::Standard,
            CastTime::Swift | CastTime::Immediate => Slot::Swift,
            CastTime::Free | CastTime::Long => Slot::Free,
            CastTime::FullRound | CastTime::OneRound => Slot::FullRound,
        }
    }

    /// Whether `i`'s spells are an alchemist's extracts (APG "Alchemy").
    pub(crate) fn drinks_extracts(&self, i: usize) -> bool {
        self.prep.fighters[i].caster.as_deref().is_some_and(|c| c.extracts)
    }

    /// Whether `i` can cast at all this turn: nothing stops its casting and
    /// no one-round spell of its own is under way.
    pub(crate) fn can_cast_now(&self, i: usize) -> bool {
        let f = &self.fighters[i];
        !f.summary.flags.has(Flags::CANT_CAST)
            && !Behaviours(f.fx).has(Behaviours::CANNOT_CAST)
            && f.casting.pending.is_none()
    }

    /// Whether `i` can cast `spell` now with `metamagic`: it knows it, the
    /// engine plays it, a slot of the right level is left, it knows the
    /// metamagic, nothing stops it from casting. Targets are checked by the action.
    pub fn can_cast(&self, i: usize, spell: u16, metamagic: Metamagic) -> Result<(u8, u8), Reason> {
        let spec = &self.prep.fighters[i];
        let caster = spec.caster.as_deref().ok_or(Reason::UnknownSpell)?;
        let known = caster.known(spell).ok_or(Reason::UnknownSpell)?;
        let prepared = &self.prep.spells[usize::from(spell)];
        if prepared.unplayable.is_some() {
            return Err(Reason::SpellNotPlayable);
        }
        if prepared.spell.cast_time == CastTime::Long {
            return Err(Reason::DowngradedCastTime);
        }
        if !metamagic.is_empty() && caster.metamagic.0 & metamagic.0 != metamagic.0 {
            return Err(Reason::MissingFeat);
        }
        let f = &self.fighters[i];
        // A raging barbarian cannot cast spells (CRB "Rage").
        if f.summary.flags.has(Flags::CANT_CAST)
            || Behaviours(f.fx).has(Behaviours::CANNOT_CAST)
            || f.class.rage.is_some()
        {
            return Err(Reason::CannotCast);
        }
        let slot = known.level + metamagic.level_adjustment();
        if slot > 9 || (slot > 0 && f.casting.slots[usize::from(slot)] == 0) {
            return Err(Reason::NoSlot);
        }
        // No verbal component in a magical silence (CRB "Silence").
        if !self.zones.is_empty()
            && prepared.spell.components.contains(&crate::spell::model::Component::Verbal)
            && self.silenced(i)
        {
            return Err(Reason::Silenced);
        }
        // A prepared caster casts a prepared copy, with the metamagic it was
        // prepared with; a spontaneous conversion gives up any copy of its
        // slot level (some is left: the slot count above).
        let copy = if caster.is_prepared() && slot > 0 && !known.spontaneous {
            match caster.copy_to_cast(spell, metamagic, &f.casting.prepared_left) {
                Some(p) => Some(p),
                None => return Err(Reason::NotPrepared),
            }
        } else {
            None
        };
        // A domain slot holds only a domain spell (CRB "Cleric: Domains"):
        // any other casting, a spontaneous conversion included, needs a slot
        // of its level beyond the domain slots left.
        if slot > 0
            && !caster.takes_domain_slot(spell, slot, copy, &f.casting.domain_left)
            && f.casting.slots[usize::from(slot)] <= f.casting.domain_left[usize::from(slot)]
        {
            return Err(Reason::NoSlot);
        }
        if let Some(g) = known.group
            && self.prep.summon_groups[usize::from(g)].rows.clone().any(|r| !self.fighters[r].gone)
        {
            return Err(Reason::SummonsPresent);
        }
        Ok((known.level, slot))
    }

    /// The casting `i` would make with `action`, when it can cast it (slot
    /// and known spell checked; targets not yet).
    pub(crate) fn casting(&self, i: usize, action: &Action) -> Result<Cast, Reason> {
        let spell = action.spell.ok_or(Reason::UnknownSpell)?;
        let (_, slot) = self.can_cast(i, spell, action.metamagic)?;
        let spec = &self.prep.fighters[i];
        let caster = spec.caster.as_deref().ok_or(Reason::UnknownSpell)?;
        let known = caster.known(spell).ok_or(Reason::UnknownSpell)?;
        // Heighten raises the DC with the level; other metamagic does not.
        let heighten = if action.metamagic.has(Metamagic::HEIGHTEN) { 1 } else { 0 };
        // An extract affects only its drinker: it is aimed at nobody else
        // (another target is refused by `check_cast_targets`).
        let extract = caster.extracts;
        let (target, point) = match (extract, action.target) {
            (true, None) => (Some(i), None),
            (true, t) => (t, None),
            (false, t) => (t, action.destination),
        };
        Ok(Cast {
            caster: i,
            spell,
            slot,
            metamagic: action.metamagic,
            target,
            point,
            option: action.option,
            dc: known.dc + heighten,
            cl: caster.cl,
            weapon: None,
            extract,
        })
    }

    /// The concentration bonus of `i`: caster level + casting modifier + modifiers.
    pub(crate) fn concentration_bonus(&self, i: usize, defensive_or_grappled: bool) -> i32 {
        let caster = self.prep.fighters[i].caster.as_deref();
        let base = caster.map_or(0, |c| c.cl as i32 + c.ability_mod);
        base + self.concentration_modifier(i, defensive_or_grappled)
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// The cast action.
    pub(crate) fn cast_action(&mut self, i: usize, action: Action) -> Result<(), Reason> {
        let cast = self.st.casting(i, &action)?;
        self.check_cast_targets(&cast)?;
        self.begin_casting(i, cast, action.defensive)
    }

    /// Spends the slot and casts `cast` (targets already checked): the
    /// provocation and concentration checks, then the spell now, at the
    /// start of the next turn (one round), or held (a touch spell).
    pub(crate) fn begin_casting(&mut self, i: usize, cast: Cast, defensive: bool) -> Result<(), Reason> {
        let prep = self.st.prep;
        let prepared = &prep.spells[usize::from(cast.spell)];
        if cast.slot > 0 {
            let level = usize::from(cast.slot);
            let copy = self.st.copy_spent(i, &cast);
            let casting = &mut self.st.fighters[i].casting;
            if prep.fighters[i]
                .caster
                .as_deref()
                .is_some_and(|c| c.takes_domain_slot(cast.spell, cast.slot, copy, &casting.domain_left))
            {
                casting.domain_left[level] -= 1;
            }
            casting.slots[level] -= 1;
            self.spend_prepared(i, &cast);
        }
        if cast.extract {
            return self.drink_extract(i, cast);
        }
        if let Some(old) = self.st.fighters[i].casting.held.take() {
            let spell = prep.spells[usize::from(old.cast.spell)].spell.name.clone();
            emit!(self, Event::ChargeDissipates { who: i, spell });
        }
        let aims_at_nothing = prepared.spell.target.is_none() && prepared.spell.area.is_none();
        emit!(
            self,
            Event::Casts {
                who: i,
                spell: prepared.spell.name.clone(),
                metamagic: cast.metamagic.names().into_iter().map(String::from).collect(),
                // A summons aims at no creature: the foe it was cast
                // toward only chose where its creature appears.
                target: cast.target.filter(|_| !aims_at_nothing),
                point: if cast.target.is_none() { cast.point } else { None },
                slot: cast.slot,
                dc: prepared.spell.saving_throw.is_some().then_some(cast.dc),
                extract: false,
            }
        );
        if self.readied_count > 0 {
            self.check_readied(ReadyTrigger::EnemyCasts, i, None);
        }
        if !self.st.can_act(i) {
            let spell = prepared.spell.name.clone();
            emit!(self, Event::SpellLost { who: i, spell, why: SpellLoss::CannotAct });
            return Ok(());
        }
        if !self.concentrate_while_casting(i, cast.slot, defensive) {
            let spell = prepared.spell.name.clone();
            emit!(self, Event::SpellLost { who: i, spell, why: SpellLoss::Concentration });
            return Ok(());
        }
        let one_round =
            prepared.spell.cast_time == CastTime::OneRound && !cast.metamagic.has(Metamagic::QUICKEN);
        if one_round {
            let f = &self.st.fighters[i];
            let hp_at_cast = f.hp + f.temp_hp;
            self.st.fighters[i].casting.pending = Some(Box::new(Pending { cast, hp_at_cast }));
            emit!(self, Event::BeginsCasting { who: i, spell: prepared.spell.name.clone() });
            return Ok(());
        }
        self.deliver(cast);
        Ok(())
    }

    /// Drinks the extract `cast` (slot and copy already spent; APG
    /// "Alchemy"): "as if imbibing a potion", so it provokes attacks of
    /// opportunity in a threatened square (CRB Table 8-2) and cannot be
    /// drunk defensively; it is not a spell cast, so no concentration check
    /// (wounds, grapple, entanglement), no readied "enemy casts" trigger,
    /// no casting over a round; it affects only the drinker.
    fn drink_extract(&mut self, i: usize, cast: Cast) -> Result<(), Reason> {
        let prep = self.st.prep;
        let spell = &prep.spells[usize::from(cast.spell)].spell;
        emit!(
            self,
            Event::Casts {
                who: i,
                spell: spell.name.clone(),
                metamagic: Vec::new(),
                target: Some(i),
                point: None,
                slot: cast.slot,
                dc: spell.saving_throw.is_some().then_some(cast.dc),
                extract: true,
            }
        );
        if self.threatened(i) {
            self.provoke_in_place(i);
        }
        if !self.st.can_act(i) {
            emit!(self, Event::SpellLost { who: i, spell: spell.name.clone(), why: SpellLoss::CannotAct });
            return Ok(());
        }
        self.resolve(Cast { target: Some(i), point: None, ..cast });
        Ok(())
    }

    /// Casts `cast` now: a touch spell on a hostile creature makes its touch
    /// attack (holding the charge on a miss); everything else resolves.
    pub(crate) fn deliver(&mut self, cast: Cast) {
        let prep = self.st.prep;
        let spell = &prep.spells[usize::from(cast.spell)].spell;
        let touch = spell.attack.as_ref().is_some_and(|a| a.kind == AttackKind::MeleeTouch);
        if touch {
            let charges = spell
                .attack
                .as_ref()
                .and_then(|a| a.charges.as_ref())
                .map_or(1, |c| c.fixed_at(cast.cl).unwrap_or(1).max(1) as u32);
            let i = cast.caster;
            match cast.target {
                Some(t) if self.st.are_enemies(i, t) && self.st.is_active(t) => {
                    let cast = Cast { weapon: self.spellstrike_weapon(i, t), ..cast };
                    self.touch_with_charge(Held { cast, charges }, t);
                }
                Some(_) => self.resolve(cast),
                None => {
                    self.st.fighters[i].casting.held = Some(Held { cast, charges });
                    emit!(self, Event::HoldsCharge { who: i, spell: spell.name.clone() });
                }
            }
            return;
        }
        self.resolve(cast);
    }

    /// One touch with a held charge: a hit delivers the spell (and spends a
    /// charge), a miss keeps it held.
    pub(crate) fn touch_with_charge(&mut self, mut held: Held, t: usize) {
        let i = held.cast.caster;
        let cast = Cast { target: Some(t), ..held.cast };
        let delivered = self.resolve_touch(cast);
        if delivered {
            held.charges = held.charges.saturating_sub(1);
        }
        if held.charges > 0 && self.st.is_active(i) {
            self.st.fighters[i].casting.held = Some(held);
            if !delivered {
                let name = &self.st.prep.spells[usize::from(held.cast.spell)].spell.name;
                emit!(self, Event::HoldsCharge { who: i, spell: name.clone() });
            }
        }
    }

    /// Discharge: a melee touch attack with the held charge (a standard action).
    pub(crate) fn discharge_action(&mut self, i: usize, action: Action) -> Result<(), Reason> {
        let Some(held) = self.st.fighters[i].casting.held else { return Err(Reason::NothingHeld) };
        let t = action
            .target
            .filter(|&t| t < self.st.len() && self.st.is_active(t))
            .ok_or(Reason::MissingTarget)?;
        if !self.st.charge_reaches(&held, t) {
            return Err(Reason::OutOfRange);
        }
        self.st.fighters[i].casting.held = None;
        self.touch_with_charge(held, t);
        Ok(())
    }

    /// The attacks of opportunity of casting in a threatened square (unless
    /// cast defensively) and the concentration checks that may lose the
    /// spell (CRB "Concentration"): damage taken while casting (DC 10 +
    /// damage + spell level), casting defensively (DC 15 + twice the spell
    /// level), grappled (DC 10 + the grappler's CMB + spell level), entangled
    /// (DC 15 + spell level). Whether the spell survives.
    pub(crate) fn concentrate_while_casting(&mut self, i: usize, level: u8, defensive: bool) -> bool {
        let level = i32::from(level);
        if let Some(g) = self.st.fighters[i].grappled_with.filter(|&g| self.st.is_active(g)) {
            let cmb = self.st.cmb(g, crate::effects::Maneuver::Grapple, i);
            if !self.concentration(i, 10 + cmb + level, true, ConcentrationCause::Grappled) {
                return false;
            }
        } else if let Some(dc) = self.web_hold(i) {
            // Held by a web's strands (Web): the check a grappler whose CMD is
            // the web's DC would set, DC 10 + (DC − 10) + the spell level.
            if !self.concentration(i, dc + level, true, ConcentrationCause::Grappled) {
                return false;
            }
        } else if defensive {
            if !self.concentration(i, 15 + 2 * level, true, ConcentrationCause::Defensive) {
                return false;
            }
        } else if self.threatened(i) {
            let before = self.st.fighters[i].hp + self.st.fighters[i].temp_hp;
            self.provoke_in_place(i);
            if !self.st.can_act(i) {
                return false;
            }
            let f = &self.st.fighters[i];
            let damage = (before - f.hp - f.temp_hp).max(0);
            if damage > 0 && !self.concentration(i, 10 + damage + level, false, ConcentrationCause::Wounded) {
                return false;
            }
        }
        if self.st.has_condition(i, crate::effects::ConditionId::Entangled)
            && !self.concentration(i, 15 + level, false, ConcentrationCause::Entangled)
        {
            return false;
        }
        true
    }

    /// The DC of the web holding `i` grappled without a grappler (Web), if any.
    fn web_hold(&self, i: usize) -> Option<i32> {
        if !self.st.has_condition(i, crate::effects::ConditionId::Grappled) {
            return None;
        }
        self.st.bond(i).and_then(|(_, b)| b.cmb)
    }

    /// Whether an enemy threatens `i` (casting there provokes).
    pub(crate) fn threatened(&self, i: usize) -> bool {
        self.st.is_threatened(i)
    }

    /// A concentration check of `i` against `dc`; `defensive_or_grappled`
    /// lets Combat Casting's +4 apply.
    pub(crate) fn concentration(
        &mut self,
        i: usize,
        dc: i32,
        defensive_or_grappled: bool,
        cause: ConcentrationCause,
    ) -> bool {
        let bonus = self.st.concentration_bonus(i, defensive_or_grappled);
        let d20 = self.rng.roll(20) as i32;
        let ok = d20 + bonus >= dc;
        emit!(self, Event::Concentration { who: i, cause, d20, bonus, total: d20 + bonus, dc, success: ok });
        let ctx = Context::default();
        self.spend_one_shots(i, Targets::CONCENTRATION, &ctx);
        ok
    }

    /// The start of `i`'s turn with a spell cast over the last round: it takes
    /// effect now, unless the caster cannot act or fails the concentration
    /// check of the damage taken since it began (DC 10 + damage + spell level,
    /// the net loss of hit points; no Combat Casting).
    pub(crate) fn finish_pending(&mut self, i: usize) {
        let Some(pending) = self.st.fighters[i].casting.pending.take() else { return };
        let prep = self.st.prep;
        let name = &prep.spells[usize::from(pending.cast.spell)].spell.name;
        let able = matches!(self.st.life(i), LifeState::Fighting | LifeState::Disabled)
            && !self.st.flags(i).has(Flags::CANT_ACT);
        if !able {
            emit!(self, Event::SpellLost { who: i, spell: name.clone(), why: SpellLoss::CannotAct });
            return;
        }
        let f = &self.st.fighters[i];
        let lost = (pending.hp_at_cast - f.hp - f.temp_hp).max(0);
        if lost > 0
            && !self.concentration(
                i,
                10 + lost + i32::from(pending.cast.slot),
                false,
                ConcentrationCause::Wounded,
            )
        {
            emit!(self, Event::SpellLost { who: i, spell: name.clone(), why: SpellLoss::Fizzles });
            return;
        }
        emit!(self, Event::FinishesCasting { who: i, spell: name.clone() });
        let mut cast = pending.cast;
        // A creature target that fell or left: an area still goes off at its square.
        if let Some(t) = cast.target
            && !self.st.is_active(t)
        {
            cast.point = cast.point.or(Some(self.st.pos(t)));
            cast.target = None;
        }
        if self.check_cast_targets(&cast).is_err() {
            emit!(self, Event::SpellLost { who: i, spell: name.clone(), why: SpellLoss::NoTarget });
            return;
        }
        self.deliver(cast);
    }
}
