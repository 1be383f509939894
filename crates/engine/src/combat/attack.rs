//! Attack rolls: weapon choice, situational modifiers, hit, threat and
//! confirmation, and the attack and full-attack actions.

use crate::effects::stacking::{counts_vs_touch, kept_when_denied_dex};
use crate::effects::{Behaviours, BonusType, ConditionId, Context, Flags, Tally, Targets};
use crate::map::Pos;
use crate::rng::Dice;

use super::action::{Action, Reason};
use super::damage::{Extra, roll_damage};
use super::engine::Engine;
use super::event::{AcKind, Attack as AttackEvent, AttackNote, AttackStep, Event, ModSource};
use super::odds::{Situation, Swing, iterations};
use super::odds::{opposite_borders, opposite_sides};
use super::style::{CLEAVE_AC_PENALTY, RAPID_SHOT_PENALTY, Style, two_weapon_penalties};

use super::state::BattleState;

/// Flanking bonus on melee attack rolls (CRB "Flanking").
const FLANK_BONUS: i32 = 2;
/// Charge bonus on the attack roll, and the charger's AC penalty (CRB "Charge").
pub(crate) const CHARGE_BONUS: i32 = 2;
/// The penalty on an attack of opportunity against a trampling creature (UMR "Trample").
pub(crate) const TRAMPLE_AOO_PENALTY: i32 = 4;
/// Prone: attacker's penalty, and the AC change of a prone target (−4 melee, +4 ranged).
const PRONE: i32 = 4;
/// Shooting into melee (CRB "Shooting or Throwing into a Melee").
const INTO_MELEE: i32 = 4;
/// Fighting defensively: attack penalty (CRB "Fight Defensively").
pub(crate) const DEFENSIVE_PENALTY: i32 = 4;
/// Dodge bonus of total defense (CRB "Total Defense").
pub(crate) const TOTAL_DEFENSE_AC: i32 = 4;
/// Dodge bonus of fighting defensively (CRB "Fight Defensively").
pub(crate) const DEFENSIVE_AC: i32 = 2;
/// An invisible attacker's bonus (CRB "Invisible").
const INVISIBLE_BONUS: i32 = 2;
/// Melee attacks against a helpless target (CRB "Helpless Defenders").
const HELPLESS_BONUS: i32 = 4;
/// Miss chance a blinded attacker sees on every target (CRB "Blinded": total concealment).
pub(crate) const BLIND_MISS_CHANCE: u8 = 50;

/// The profile of attack `w` of `a` as `swing` makes it: its monster
/// variant (a rake, a powerful charge: the same attack with the printed
/// bonus and dice) when it names one.
#[inline]
pub(crate) fn profile(
    prep: &super::prepared::PreparedEncounter,
    a: usize,
    w: usize,
    swing: Swing,
) -> &super::prepared::AttackProfile {
    let spec = &prep.fighters[a];
    if swing.variant > 0
        && let Some(p) = spec.monster.as_deref().and_then(|m| m.strikes.get(usize::from(swing.variant) - 1))
    {
        return p;
    }
    &spec.offense.attacks[w]
}

impl BattleState<'_> {
    /// The first attack of `i` (file order) able to hit `t` from square `from`:
    /// in reach or range, with line of effect. The error tells why none is.
    // Inlined: the route searches call it for every candidate square.
    #[inline]
    pub fn weapon_for(&self, i: usize, t: usize, from: Pos) -> Result<usize, Reason> {
        let attacks = &self.prep.fighters[i].offense.attacks;
        if attacks.is_empty() {
            return Err(Reason::NoWeapon);
        }
        let (si, st) = (self.shape[i].0, self.shape[t].0);
        let to = self.fighters[t].pos;
        let one = si == 1 && st == 1;
        let h = if one {
            crate::grid::distance_ft(from, to)
        } else {
            crate::grid::footprint_distance_ft(from, si, to, st)
        };
        let dist = if self.fighters[i].mobility.alt | self.fighters[t].mobility.alt == 0 {
            h
        } else {
            self.lifted(i, t, h)
        };
        let unusable = self.unusable(i);
        // An off-hand weapon is never the weapon of a single attack (model::hands).
        let found = if unusable == 0 && self.size_steps(i) == 0 {
            attacks.iter().position(|a| !a.off_hand && a.reaches(dist))
        } else {
            (0..attacks.len())
                .find(|&w| !attacks[w].off_hand && self.reaches(i, w, dist) && self.is_usable(i, w))
        };
        let Some(w) = found else { return Err(Reason::OutOfRange) };
        let loe = if one {
            self.prep.line_of_effect(from, to)
        } else {
            self.line_of_effect_spaces(from, si, to, st)
        };
        if loe { Ok(w) } else { Err(Reason::NoLineOfEffect) }
    }

    /// The attacks a full attack with attack `w` of `i` makes (bit k: attack
    /// k): the first routine of its file holding `w`; else, for a natural
    /// attack, every natural attack; else `w` alone.
    #[inline]
    pub(crate) fn routine(&self, i: usize, w: usize) -> u64 {
        let spec = &self.prep.fighters[i];
        let bit = if w < 64 { 1u64 << w } else { 0 };
        if let Some(&r) = spec.offense.routines.iter().find(|&&r| r & bit != 0) {
            return r;
        }
        if spec.offense.attacks.get(w).is_some_and(|a| a.natural) { spec.offense.natural_mask } else { bit }
    }

    /// Whether attack `w` of `i` can hit `t` from square `from`.
    pub fn weapon_reaches(&self, i: usize, w: usize, t: usize, from: Pos) -> bool {
        let dist = self.distance_from(i, from, t);
        w < self.prep.fighters[i].offense.attacks.len()
            && self.reaches(i, w, dist)
            && self.is_usable(i, w)
            && self.line_of_effect_from(i, from, t)
    }

    /// Whether `i` could attack `t` in melee from square `from`; the attack if so.
    pub fn melee_weapon_from(&self, i: usize, t: usize, from: Pos) -> Option<usize> {
        let dist = self.distance_from(i, from, t);
        let attacks = &self.prep.fighters[i].offense.attacks;
        let w = (0..attacks.len())
            .find(|&w| attacks[w].melee && self.reaches(i, w, dist) && self.is_usable(i, w))?;
        self.line_of_effect_from(i, from, t).then_some(w)
    }

    /// Whether an ally of `attacker` able to act threatens `target` with a
    /// melee attack from the opposite side (CRB "Flanking"): the line between
    /// a square of each crosses opposite borders of the target's space.
    pub fn flanked(&self, attacker: usize, target: usize) -> bool {
        (0..self.len()).any(|ally| self.flanks_with(attacker, target, ally))
    }

    /// Whether `ally` flanks `target` with `attacker` (see [`Self::flanked`]).
    #[inline]
    fn flanks_with(&self, attacker: usize, target: usize, ally: usize) -> bool {
        let t = self.fighters[target].pos;
        let s = self.space(target);
        ally != attacker
            && ally != target
            && !self.are_enemies(ally, attacker)
            && self.threatens(ally, target)
            && if self.space(attacker) == 1 && s == 1 && self.space(ally) == 1 {
                opposite_sides(self.fighters[attacker].pos, self.fighters[ally].pos, t)
            } else {
                self.cells(attacker).any(|a| self.cells(ally).any(|b| opposite_borders(a, b, t, s)))
            }
    }

    /// The flanking bonus of `attacker` on a melee attack against `target`:
    /// 0 when not flanking, +2, or +4 when it and a flanking ally both have
    /// Outflank (APG "Outflank").
    pub(crate) fn flank_bonus(&self, attacker: usize, target: usize) -> i32 {
        if !self.has_outflank(attacker) {
            return if self.flanked(attacker, target) { FLANK_BONUS } else { 0 };
        }
        let mut bonus = 0;
        for ally in 0..self.len() {
            if self.flanks_with(attacker, target, ally) {
                if self.has_outflank(ally) {
                    return super::abilities::OUTFLANK_BONUS;
                }
                bonus = FLANK_BONUS;
            }
        }
        bonus
    }

    /// The flanking bonus a one-square `attacker` would have on a melee
    /// attack against `target` standing on `from` (for the policies: where
    /// to move or step to flank), the others where they stand.
    pub(crate) fn flank_bonus_at(&self, attacker: usize, target: usize, from: Pos) -> i32 {
        let (t, s) = (self.fighters[target].pos, self.space(target));
        let outflank = self.has_outflank(attacker);
        let mut bonus = 0;
        for ally in 0..self.len() {
            if ally == attacker
                || ally == target
                || self.are_enemies(ally, attacker)
                || !self.threatens(ally, target)
                || !self.cells(ally).any(|c| opposite_borders(from, c, t, s))
            {
                continue;
            }
            if outflank && self.has_outflank(ally) {
                return super::abilities::OUTFLANK_BONUS;
            }
            bonus = FLANK_BONUS;
        }
        bonus
    }

    /// The bonuses and penalties of where `a` and `t` stand and of how `a`
    /// fights, shared by weapon and spell attack rolls: flanking and high
    /// ground in melee, shooting into melee at range, fighting defensively,
    /// aid another and attack penalties.
    #[inline]
    fn position_and_stance(&self, a: usize, t: usize, melee: bool, s: &mut Situation, roll: &mut Tally) {
        if melee {
            let map = self.map();
            let flank = self.flank_bonus(a, t);
            s.flank = flank > 0;
            s.outflank = flank > FLANK_BONUS;
            s.high_ground = map.elevation(self.fighters[a].pos) > map.elevation(self.fighters[t].pos)
                || self.mounted_high_ground(a, t);
            roll.untyped(flank);
            if s.high_ground {
                roll.untyped(1);
            }
        } else {
            s.into_melee = !self.prep.fighters[a].feats.precise_shot && self.engaged(a, t);
            if s.into_melee {
                roll.untyped(-INTO_MELEE);
            }
        }
        let me = &self.fighters[a];
        if me.turn.defensive {
            roll.untyped(-DEFENSIVE_PENALTY);
        }
        roll.untyped(me.turn.aid_attack - me.turn.attack_penalty);
    }

    /// An invisible attacker's bonus against a target that cannot see it, and
    /// the melee bonus against a helpless target.
    #[inline]
    fn unseen_or_helpless(&self, a: usize, t: usize, melee: bool, s: &mut Situation, roll: &mut Tally) {
        s.invisible = self.fighters[a].summary.flags.has(Flags::INVISIBLE)
            && !self.sees_invisible(t)
            && !self.perceives_by_blindsight(t, a);
        if s.invisible {
            roll.untyped(INVISIBLE_BONUS);
        }
        // A harpy's captive beside it offers no resistance to its attacks (`monster::song`).
        s.helpless = melee && (self.is_helpless(t) || self.captive_of(t, a));
        if s.helpless {
            roll.untyped(HELPLESS_BONUS);
        }
    }

    /// The cover `t` has against an attack by `a`: terrain in melee; at range,
    /// terrain and creatures, none with Improved Precise Shot.
    #[inline]
    fn attack_cover(&self, a: usize, t: usize, melee: bool) -> i32 {
        let zone = if self.zones.is_empty() { 0 } else { self.zone_cover(self.fighters[a].pos, t) };
        i32::from(zone).max(self.base_attack_cover(a, t, melee))
    }

    /// `attack_cover` from the map and the creatures alone.
    #[inline]
    fn base_attack_cover(&self, a: usize, t: usize, melee: bool) -> i32 {
        i32::from(if melee {
            self.terrain_cover_from(a, self.fighters[a].pos, t, true)
        } else if self.prep.fighters[a].feats.improved_precise_shot {
            0
        } else {
            self.ranged_cover(a, t)
        })
    }

    /// The situational modifiers of attack `w` of `a` against `t` from
    /// where they stand. Every modifier beyond the printed attack bonus and
    /// AC goes through the stacking resolver: the engine's own (charge,
    /// flanking, high ground, range, shooting into melee, fighting
    /// defensively, aid, Power Attack, cover, total defense…) and those of
    /// conditions, effects and features.
    pub(crate) fn situation(&self, a: usize, w: usize, t: usize, swing: Swing) -> Situation {
        let spec_a = &self.prep.fighters[a];
        let atk = profile(self.prep, a, w, swing);
        let dist = self.distance(a, t);
        let mut s = Situation::default();
        let mut roll = Tally::new();
        if swing.charge {
            roll.untyped(CHARGE_BONUS);
        }
        if !atk.melee {
            let per_increment = if spec_a.feats.far_shot { 1 } else { 2 };
            s.range_penalty = per_increment * ((dist.max(1) - 1) / atk.increment) as i32;
            roll.untyped(-s.range_penalty);
        }
        self.position_and_stance(a, t, atk.melee, &mut s, &mut roll);
        let me = &self.fighters[a];
        if me.turn.power_attack && atk.melee {
            s.power_attack = super::power_attack::step(spec_a.offense.bab);
            roll.untyped(-s.power_attack);
        }
        self.martial_attack(a, w, swing, &mut s, &mut roll);
        if swing.flurry {
            roll.untyped(self.flurry_attack(a));
        }
        roll.untyped(self.smite_attack(a, t));
        roll.untyped(self.favored_enemy(a, t));
        let spec = &self.prep.fighters[t];
        let ctx = Context {
            melee: atk.melee,
            ranged: !atk.melee,
            within_30ft: !atk.melee && dist <= 30,
            aoo: swing.aoo,
            charging: swing.charge,
            other_type: spec.nature.creature_type,
            weapon: Some(w),
            other_alignment: spec.nature.alignment,
            ..Context::default()
        };
        let attack_targets = if atk.melee { Targets::MELEE_ATTACK } else { Targets::RANGED_ATTACK };
        self.collect_mods(a, attack_targets, &ctx, &mut roll);
        if me.mod_targets.meets(Targets::STR_DEX) {
            let (str_delta, dex_delta) = self.ability_deltas(a);
            roll.untyped(if atk.melee { str_delta } else { dex_delta });
        }
        self.unseen_or_helpless(a, t, atk.melee, &mut s, &mut roll);
        let trample = if swing.trample { TRAMPLE_AOO_PENALTY } else { 0 };
        s.attack = atk.bonus - swing.penalty - trample + self.size_modifier_change(a) + roll.total();

        s.touch = atk.vs_touch || (atk.firearm && dist <= atk.increment);
        s.cover = self.attack_cover(a, t, atk.melee);
        s.denied = self.denied_dex(t, Some(a));
        s.ac = self.armor_class(a, t, atk.melee, s.touch, s.denied, swing.aoo, s.cover);
        s
    }

    /// The situation of a spell's touch attack or ray by `a` against `t`
    /// (CRB "Touch Spells in Combat", "Ray"): base attack bonus, Strength
    /// (melee) or Dexterity (ranged), size, and the modifiers of any attack
    /// roll except range increments, against touch AC.
    pub(crate) fn touch_situation(&self, a: usize, t: usize, melee: bool) -> Situation {
        let spec_a = &self.prep.fighters[a];
        let mut s = Situation { touch: true, ..Situation::default() };
        let mut roll = Tally::new();
        self.position_and_stance(a, t, melee, &mut s, &mut roll);
        let spec = &self.prep.fighters[t];
        let ctx = Context {
            melee,
            ranged: !melee,
            other_type: spec.nature.creature_type,
            other_alignment: spec.nature.alignment,
            ..Context::default()
        };
        self.collect_mods(
            a,
            if melee { Targets::MELEE_ATTACK } else { Targets::RANGED_ATTACK },
            &ctx,
            &mut roll,
        );
        let (str_delta, dex_delta) = self.ability_deltas(a);
        let ability =
            if melee { spec_a.scores.str_mod + str_delta } else { spec_a.scores.dex_mod + dex_delta };
        self.unseen_or_helpless(a, t, melee, &mut s, &mut roll);
        s.attack = spec_a.offense.bab + ability + self.size(a).modifier() + roll.total();
        s.cover = self.attack_cover(a, t, melee);
        s.denied = self.denied_dex(t, Some(a));
        s.ac = self.armor_class(a, t, melee, true, s.denied, false, s.cover);
        s
    }

    /// The armor class `t` opposes to an attack by `a`: normal or touch,
    /// denied its Dexterity or not, with `cover`, a charge penalty, total
    /// defense, fighting defensively, aid another, and every AC modifier of
    /// conditions, effects and features through the stacking resolver.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn armor_class(
        &self,
        a: usize,
        t: usize,
        melee: bool,
        touch: bool,
        denied: bool,
        aoo: bool,
        cover: i32,
    ) -> i32 {
        let spec_a = &self.prep.fighters[a];
        let spec = &self.prep.fighters[t];
        let target = &self.fighters[t];
        let def = &spec.defense.ac;
        let base = match (touch, denied) {
            (false, false) => def.total,
            (true, false) => def.touch,
            (false, true) => def.flat_footed,
            (true, true) => def.touch - spec.scores.dex_mod.max(0) - spec.defense.printed_dodge,
        };
        // Helpless: effective Dexterity 0 (a −5 modifier in place of its own).
        let helpless_dex = if self.is_helpless(t) || self.captive_of(t, a) {
            -5 - spec.scores.dex_mod.min(0) - self.monk_ac_lost(t)
        } else {
            0
        };
        let mut guard = Tally::new();
        guard.untyped(cover);
        if target.turn.charged {
            guard.untyped(-CHARGE_BONUS);
        }
        if target.turn.total_defense {
            guard.add(BonusType::Dodge, TOTAL_DEFENSE_AC);
        }
        if target.turn.defensive {
            guard.add(BonusType::Dodge, DEFENSIVE_AC);
        }
        guard.untyped(target.turn.aid_ac);
        self.martial_ac(t, touch, &mut guard);
        if !touch {
            // Rusted armor and shields (touch AC never had their bonus).
            guard.untyped(-self.rust_ac_loss(t));
        }
        self.challenge_guard(a, t, &mut guard);
        let smite_ac = self.smite_ac(a, t);
        if smite_ac != 0 {
            guard.add(BonusType::Deflection, smite_ac);
        }
        let dctx = Context {
            melee,
            ranged: !melee,
            aoo,
            other_type: spec_a.nature.creature_type,
            other_alignment: spec_a.nature.alignment,
            ..Context::default()
        };
        self.collect_mods(t, Targets::AC, &dctx, &mut guard);
        if target.mod_targets.meets(Targets::STR_DEX) {
            let dex_delta = self.ability_deltas(t).1;
            let dex = spec.scores.dex_mod;
            // A lower Dexterity still costs AC when its bonus is denied.
            guard.untyped(if denied { (dex + dex_delta).min(0) - dex.min(0) } else { dex_delta });
        }
        let keep = |ty| (!touch || counts_vs_touch(ty)) && (!denied || kept_when_denied_dex(ty));
        base + helpless_dex + self.size_modifier_change(t) + guard.total_where(keep)
    }

    /// The flat damage a hit of attack `w` of `a` on `t` adds to the
    /// weapon's damage (Power Attack, damage modifiers of conditions,
    /// effects and features, a change of Strength), multiplied on a critical hit.
    #[inline]
    pub(crate) fn damage_bonus(&self, a: usize, w: usize, t: usize, s: &Situation, swing: Swing) -> i32 {
        let atk = &self.prep.fighters[a].offense.attacks[w];
        let mut bonus = if s.power_attack > 0 { super::power_attack::damage(s.power_attack, atk) } else { 0 };
        if atk.two_handed && self.fighters[a].mobility.riding.is_some() {
            bonus -= self.one_handed_lance_loss(a, w, s.power_attack);
        }
        bonus += self.martial_damage(a, w, s, swing);
        bonus +=
            self.challenge_damage(a, atk.melee, t) + self.smite_damage(a, t) + self.smite_first_hit(a, t);
        bonus += self.favored_enemy(a, t);
        let f = &self.fighters[a];
        let targets = if atk.melee { Targets::MELEE_DAMAGE } else { Targets::RANGED_DAMAGE };
        if f.mod_targets.meets(targets) {
            let ctx = Context {
                melee: atk.melee,
                ranged: !atk.melee,
                within_30ft: !atk.melee && self.distance(a, t) <= 30,
                aoo: swing.aoo,
                charging: swing.charge,
                other_type: self.prep.fighters[t].nature.creature_type,
                weapon: Some(w),
                other_alignment: self.prep.fighters[t].nature.alignment,
                ..Context::default()
            };
            bonus += self.modifier(a, targets, &ctx);
        }
        if atk.melee && atk.weapon_damage && f.mod_targets.meets(Targets::STR_DEX) {
            let str_delta = self.ability_deltas(a).0;
            bonus += if atk.two_handed {
                str_delta * 3 / 2
            } else if atk.secondary {
                str_delta / 2
            } else {
                str_delta
            };
        }
        bonus
    }

    /// Whether `t` is engaged in melee for a shot by `a`: another creature
    /// hostile to `t`, able to act, threatens it from less than 10 ft away
    /// (CRB "Shooting or Throwing into a Melee": at 10 ft or more from the
    /// nearest friendly character the penalty is avoided).
    fn engaged(&self, a: usize, t: usize) -> bool {
        (0..self.len()).any(|j| {
            j != a && j != t && self.are_enemies(j, t) && self.distance(j, t) < 10 && self.threatens(j, t)
        })
    }

    /// Cover of `t` against a ranged attack by `a`: terrain, and soft cover
    /// (+4) from able creatures other than the two whose squares the lines
    /// cross; between larger creatures, the best pair of squares.
    fn ranged_cover(&self, a: usize, t: usize) -> u8 {
        let (from, to) = (self.fighters[a].pos, self.fighters[t].pos);
        let (sa, st) = (self.space(a), self.space(t));
        let (r0, r1) = (from.row.min(to.row), (from.row + sa - 1).max(to.row + st - 1));
        let (c0, c1) = (from.col.min(to.col), (from.col + sa - 1).max(to.col + st - 1));
        // Only a creature overlapping the bounding box of the two spaces can be in the way.
        let overlaps = |j: usize| {
            let (p, s) = (self.fighters[j].pos, self.space(j));
            p.row <= r1 && p.row + s > r0 && p.col <= c1 && p.col + s > c0
        };
        let between = |j: usize| j != a && j != t && self.is_active(j) && overlaps(j);
        let mut near = [Pos::default(); 16];
        let mut count = 0;
        let mut crowded: Option<Vec<Pos>> = None;
        'gather: for j in (0..self.len()).filter(|&j| between(j)) {
            if self.space(j) == 1 && count < near.len() {
                near[count] = self.fighters[j].pos;
                count += 1;
                continue;
            }
            for c in self.cells(j) {
                if count == near.len() {
                    // Crowded: fall back to a list of every square in the box.
                    crowded =
                        Some((0..self.len()).filter(|&j| between(j)).flat_map(|j| self.cells(j)).collect());
                    break 'gather;
                }
                near[count] = c;
                count += 1;
            }
        }
        let creatures = crowded.as_deref().unwrap_or(&near[..count]);
        if sa == 1 && st == 1 {
            return self.prep.ranged_cover(from, to, creatures);
        }
        let map = self.map();
        let mut best: Option<u8> = None;
        for p in self.cells(a).filter(|&p| map.in_bounds(p)) {
            for q in self.cells(t).filter(|&q| map.in_bounds(q)) {
                if self.prep.line_of_effect(p, q) {
                    let c = self.prep.ranged_cover(p, q, creatures);
                    if c == 0 {
                        return 0; // no pair can do better
                    }
                    best = Some(best.map_or(c, |x| x.min(c)));
                }
            }
        }
        best.unwrap_or(0)
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// The attack and full-attack actions. A full attack makes every attack
    /// of its routine (`BattleState::routine`) that reaches the target, a
    /// manufactured weapon with its iterative attacks; Haste adds one attack
    /// at full bonus with the first.
    pub(crate) fn attack_action(&mut self, i: usize, action: Action, full: bool) -> Result<(), Reason> {
        let t = self.enemy_target(i, action)?;
        let from = self.st.fighters[i].pos;
        let w = match action.weapon {
            Some(w) if self.st.weapon_reaches(i, w, t, from) => w,
            Some(_) => return Err(Reason::WeaponUnavailable),
            None => self.st.weapon_for(i, t, from)?,
        };
        if full {
            self.attack_routine(i, w, t, true, false);
        } else {
            self.attack_action_single(i, w, t);
        }
        Ok(())
    }

    /// The attacks of an attack (`full`: a full attack) with attack `w` on
    /// `t`; `charge` at the end of a charge (a pounce: +2 on each).
    pub(crate) fn attack_routine(&mut self, i: usize, w: usize, t: usize, full: bool, charge: bool) {
        let routine = if full { self.st.routine(i, w) } else { 0 };
        let haste = full && Behaviours(self.st.fighters[i].fx).has(Behaviours::EXTRA_ATTACK);
        self.weapon_attacks(i, w, t, full, haste, Swing { charge, ..Swing::default() });
        // The other attacks of the routine, in file order. A foe that falls
        // does not end the routine: each remaining attack goes to the
        // nearest other foe it reaches, if any (the attacks of a full attack
        // may be split between foes: CRB "Full Attack").
        let mut rest = routine & !(1u64 << w.min(63));
        let mut t = t;
        while rest != 0 {
            let r = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if !self.st.can_act(i) {
                break;
            }
            let from = self.st.fighters[i].pos;
            if !self.st.is_active(t) {
                let next = (0..self.st.len())
                    .filter(|&e| self.st.are_enemies(i, e) && self.st.is_active(e))
                    .filter(|&e| self.st.weapon_reaches(i, r, e, from))
                    .min_by_key(|&e| (self.st.distance(i, e), e));
                match next {
                    Some(e) => t = e,
                    None => continue,
                }
            }
            if self.st.weapon_reaches(i, r, t, from) {
                self.weapon_attacks(i, r, t, true, false, Swing { charge, ..Swing::default() });
            }
        }
    }

    /// The attacks of one attack entry `w` on `t`, each made as `base`
    /// says: on a full attack `count` of them and the iterative ones of a
    /// manufactured weapon (one more at full bonus when `extra`, and one
    /// more with Rapid Shot), Manyshot's two arrows on the first, the
    /// off-hand attacks after those of the main hand when fighting with two
    /// weapons (`combat::martial`); a standard attack makes one ("2 claws"
    /// are two attacks, which only a full attack allows: CRB "Attack", "Full Attack").
    pub(crate) fn weapon_attacks(
        &mut self,
        i: usize,
        w: usize,
        t: usize,
        full: bool,
        extra: bool,
        base: Swing,
    ) {
        let flurry = full && self.flurries(i, w);
        let ki = flurry && self.take_ki_attack(i);
        let spec = &self.st.prep.fighters[i];
        let atk = &spec.offense.attacks[w];
        let (melee, count) = (atk.melee, if full { atk.count } else { 1 });
        // A flurry's base attack bonus is the monk level (CRB "Flurry of Blows").
        let bab = if flurry {
            self.st.monk(i).map_or(spec.offense.bab, |m| m.level as i32)
        } else {
            spec.offense.bab
        };
        let iters = if full && atk.iterates { iterations(bab) } else { 1 };
        let extras = if flurry { super::abilities::flurry_extra_attacks(bab as u32) } else { &[] };
        let martial = spec.features.rules.martial;
        let rapid = full && !melee && martial.rapid_shot && self.st.declared(i, Style::RapidShot);
        let mut manyshot = full && !melee && !atk.firearm && atk.weapon_damage && martial.manyshot;
        let two_weapon = full
            && !flurry
            && melee
            && atk.iterates
            && !atk.two_handed
            && !atk.off_hand
            && self.st.declared(i, Style::TwoWeapon)
            && self.st.off_hand_weapon(i, t).is_some();
        let main_penalty = if two_weapon {
            let light = self.st.off_hand_weapon(i, t).is_some_and(|o| spec.offense.attacks[o].light);
            two_weapon_penalties(martial.two_weapon > 0, light).0
        } else {
            0
        };
        // Haste's, Rapid Shot's and ki's attacks at the highest bonus, then
        // the iterative ones, each with the flurry's extra attack at that
        // penalty (its second at −5, its third at −10).
        let penalties = std::iter::once(0)
            .filter(|_| extra)
            .chain(std::iter::once(0).filter(|_| rapid))
            .chain(std::iter::once(0).filter(|_| ki))
            .chain((0..iters).flat_map(move |j| {
                let p = 5 * j;
                std::iter::once(p).chain(extras.iter().copied().filter(move |&e| e == p))
            }));
        'all: for penalty in penalties {
            for _ in 0..count {
                if !self.st.is_active(t) || !self.st.can_act(i) {
                    break 'all;
                }
                if !melee {
                    // A crossbow fired once waits for its reload (`combat::reload`).
                    if !self.st.is_usable(i, w) {
                        break 'all;
                    }
                    self.provoke_shot(i);
                    if !self.st.can_act(i) {
                        break 'all;
                    }
                }
                let swing = Swing { penalty, rapid, two_weapon: main_penalty, manyshot, flurry, ..base };
                manyshot = false;
                self.strike(i, w, t, swing);
            }
        }
        if two_weapon {
            self.off_hand_attacks(i, t);
        }
    }

    /// The target of an offensive action: an enemy able to fight.
    pub(crate) fn enemy_target(&self, i: usize, action: Action) -> Result<usize, Reason> {
        match action.target {
            Some(t) if t < self.st.len() && self.st.are_enemies(i, t) && self.st.is_active(t) => Ok(t),
            _ => Err(Reason::MissingTarget),
        }
    }

    /// One attack roll of attack `w` of `a` against `t`, with its damage:
    /// the roll, the confirmation of a threat, the miss chance of
    /// concealment (rolled after both), then damage with sneak attack.
    /// Spells and class abilities join in: Sanctuary and Protection from Evil
    /// may stop the attack, deeds change it, Mirror Image may take it, a
    /// held charge rides a spellstrike, the lich's touch paralyzes.
    /// Returns whether it hit and whether it was a confirmed critical hit.
    pub(crate) fn strike(&mut self, a: usize, w: usize, t: usize, swing: Swing) -> (bool, bool) {
        if !self.st.fighters[a].class.monk.stunning_armed || !self.spend_stunning_fist(a, w) {
            return self.strike_roll(a, w, t, swing);
        }
        // A declared Stunning Fist rides this unarmed attack (`abilities::monk`).
        let before = self.st.fighters[t].out.damage_taken;
        let (hit, crit) = self.strike_roll(a, w, t, swing);
        let dealt = self.st.fighters[t].out.damage_taken - before;
        self.stunning_fist_lands(a, t, hit, dealt);
        (hit, crit)
    }

    /// The attack roll of `strike` and what follows it.
    fn strike_roll(&mut self, a: usize, w: usize, t: usize, swing: Swing) -> (bool, bool) {
        let magic = self.st.fighters[a].fx | self.st.fighters[t].fx != 0
            || self.st.prep.fighters[a].abilities.is_some()
            || self.st.prep.fighters[t].abilities.is_some()
            || self.st.prep.fighters[a].reserve.is_some()
            // A smite's damage reduction bypass (`riders::defense_now`).
            || self.st.fighters[a].monster.smiting == Some(t);
        let mut s = self.st.situation(a, w, t, swing);
        if self.st.prep.fighters[a].offense.attacks[w].tracks_shots {
            self.fire(a, w);
        }
        if magic && !self.attack_allowed(a, w, t, &mut s) {
            self.after_attack(a, t, false);
            return (false, false);
        }
        let d20 = self.d20_for(a);
        let total = d20 + s.attack;
        let hit = d20 != 1 && (d20 == 20 || total >= s.ac);
        let atk = profile(self.st.prep, a, w, swing);
        let threat_min = if magic { self.threat_min(a, w) } else { atk.threat_min as i32 };
        if atk.two_handed
            && self.st.prep.fighters[a].defense.shield_ac > 0
            && self.st.one_handed_lance_loss(a, w, 1) == 0
        {
            // A two-handed weapon lets go of the shield (model::hands).
            self.st.fighters[a].turn.martial.shield_off = true;
        }
        let threat = hit && d20 >= threat_min;
        let mut ev =
            if self.log.on() { Some(self.attack_event(a, w, t, swing, &s, d20, total)) } else { None };
        // Aid another bonuses are spent by the first attack roll they apply to.
        self.st.fighters[a].turn.aid_attack = 0;
        self.st.fighters[t].turn.aid_ac = 0;
        let true_strike = Behaviours(self.st.fighters[a].fx).has(Behaviours::TRUE_STRIKE);
        if !self.st.fighters[a].effects.is_empty() {
            let ctx = Context { melee: atk.melee, ranged: !atk.melee, weapon: Some(w), ..Context::default() };
            let targets = if atk.melee { Targets::MELEE_ATTACK } else { Targets::RANGED_ATTACK };
            self.spend_one_shots(a, targets, &ctx);
        }
        let atk = profile(self.st.prep, a, w, swing);
        let up_close = atk.firearm && self.st.fighters[a].turn.deeds & super::abilities::UP_CLOSE != 0;
        if magic {
            self.st.fighters[a].turn.deeds = 0;
        }
        if !hit {
            if d20 == 1 && atk.firearm && w < 64 {
                // UC "Misfires": a natural 1 breaks the firearm (misfire value 1).
                self.st.fighters[a].gear.broken |= 1 << w;
                self.emit_attack(ev, AttackStep::Miss { misfire: true });
            } else {
                self.emit_attack(ev, AttackStep::Miss { misfire: false });
            }
            if up_close {
                self.graze(a, t);
            }
            if atk.splash.is_some() {
                self.splash_miss(a, w, t);
            }
            self.after_attack(a, t, false);
            return (false, false);
        }
        let mut crit = false;
        if threat {
            let c20 = self.rng.roll(20) as i32;
            let confirm = s.attack + self.confirm_bonus(a, w);
            let ctotal = c20 + confirm;
            crit = c20 != 1 && (c20 == 20 || ctotal >= s.ac);
            if let Some(ev) = ev.as_mut() {
                let crit_mult = crit.then_some(profile(self.st.prep, a, w, swing).crit_mult);
                ev.steps.push(AttackStep::Threat { d20: c20, bonus: confirm, total: ctotal, crit_mult });
            }
        } else if let Some(ev) = ev.as_mut() {
            ev.steps.push(AttackStep::Hit);
        }
        let melee = self.st.prep.fighters[a].offense.attacks[w].melee;
        let miss_chance = if true_strike { 0 } else { self.st.miss_chance(a, t, melee) };
        if miss_chance > 0 && self.concealment_misses(a, melee, miss_chance, &mut ev) {
            self.emit_attack(ev, None);
            if atk.splash.is_some() {
                self.splash_miss(a, w, t);
            }
            self.after_attack(a, t, false);
            return (false, false);
        }
        if magic && self.image_takes_hit(a, t, s.attack, d20, &mut ev) {
            self.emit_attack(ev, None);
            self.after_attack(a, t, false);
            return (false, false);
        }
        if self.st.fighters[t].mobility.ridden_by.is_some() && self.mounted_combat_negates(a, t, total) {
            self.emit_attack(ev, None);
            self.after_attack(a, t, false);
            return (false, false);
        }
        let mut extra = Extra {
            flat: self.st.damage_bonus(a, w, t, &s, swing),
            // CRB "Splash Weapons": "cannot deal precision-based damage".
            precision_d6: if atk.splash.is_some() {
                0
            } else {
                self.st.sneak_attack_dice(a, w, t, &s, miss_chance)
            },
            vital: u32::from(swing.vital),
            mult: self.st.charge_multiplier(a, w, swing.charge) - 1,
            resize: self.st.resize_of(a),
            half: false,
        };
        self.smite_hit(a, t);
        if let Some(ev) = ev.as_mut().filter(|_| swing.vital > 0) {
            ev.steps.push(AttackStep::VitalStrike { rolls: u32::from(swing.vital) + 1 });
        }
        if let Some(ev) = ev.as_mut().filter(|_| extra.precision_d6 > 0) {
            ev.steps.push(AttackStep::SneakAttack { dice: extra.precision_d6 });
        }
        if up_close {
            let dice = self.up_close_dice(a);
            extra.precision_d6 += dice;
            if let Some(ev) = ev.as_mut() {
                ev.steps.push(AttackStep::UpClose { dice });
            }
        }
        let atk = profile(self.st.prep, a, w, swing);
        let defense = if magic { self.st.defense_now(a, w, t, atk) } else { None };
        let mut dmg = roll_damage(atk, defense.as_ref().unwrap_or(&atk.vs[t]), crit, extra, self.rng);
        if dmg.absorbable != [0; 5] {
            self.absorb_energy(t, &mut dmg);
        }
        if magic && dmg.physical > 0 {
            let absorbed = self.spell_dr(a, w, t, dmg.physical);
            dmg.dealt -= absorbed;
        }
        if swing.manyshot {
            dmg = self.second_arrow(a, w, t, extra.flat, magic, dmg, &mut ev);
        }
        if self.st.prep.fighters[t].monster.is_some() {
            dmg = self.monster_damage(a, w, t, dmg);
        }
        let hp_before = self.st.fighters[t].hp;
        {
            let out = &mut self.st.fighters[a].out;
            out.hits += 1;
            out.crits += u32::from(crit);
            out.damage_dealt += dmg.dealt;
        }
        self.st.fighters[t].out.damage_taken += dmg.dealt;
        if ev.is_some() {
            let temp = self.st.fighters[t].temp_hp;
            let absorbed = temp.min(dmg.dealt as i32).max(0);
            let after = hp_before - (dmg.dealt as i32 - absorbed);
            let step = AttackStep::Damage {
                dealt: dmg.dealt,
                rolled: dmg.rolled,
                hp_before,
                hp_after: after,
                temp: absorbed,
            };
            self.emit_attack(ev, step);
        }
        self.wound(t, dmg.dealt);
        if dmg.splits {
            self.split(t);
        }
        // Electricity on a shambling mound raises its Constitution (`monster::fortitude`).
        if self.st.prep.fighters[t].monster.is_some() && atk.vs[t].comps.iter().any(|c| c.fortifies) {
            self.energy_fortitude(t);
        }
        if dmg.bleed > 0 {
            self.start_bleeding(t, dmg.bleed);
        }
        if atk.splash.is_some() {
            self.splash_hit(a, w, t);
        }
        if dmg.nonlethal | dmg.healed > 0 || self.st.prep.fighters[a].monster.is_some() {
            self.after_hit_damage(a, w, t, &dmg);
        }
        if magic {
            self.after_magic_hit(a, w, t, crit);
        }
        if swing.charge && self.st.fighters[t].mobility.riding.is_some() {
            self.unseat(a, w, t);
        }
        self.after_attack(a, t, dmg.dealt > 0);
        (true, crit)
    }

    /// Modifiers that apply only to confirming a critical hit (Critical Focus).
    fn confirm_bonus(&self, a: usize, w: usize) -> i32 {
        if !self.st.fighters[a].mod_targets.meets(Targets::CRIT_CONFIRM) {
            return 0;
        }
        let melee = self.st.prep.fighters[a].offense.attacks[w].melee;
        let ctx = Context { melee, ranged: !melee, weapon: Some(w), ..Context::default() };
        self.st.modifier(a, Targets::CRIT_CONFIRM, &ctx)
    }

    /// The d100 of concealment against a hit (CRB "Concealment Miss
    /// Chance"): whether it misses after all. Blind-Fight rerolls a melee
    /// miss once.
    fn concealment_misses(
        &mut self,
        a: usize,
        melee: bool,
        miss_chance: u8,
        ev: &mut Option<Box<AttackEvent>>,
    ) -> bool {
        let d100 = self.rng.roll(100);
        let mut missed = d100 <= u32::from(miss_chance);
        let blinded = self.st.flags(a).has(Flags::BLIND);
        if let Some(ev) = ev.as_mut() {
            ev.steps.push(AttackStep::MissChance { blinded, chance: miss_chance, d100, missed });
        }
        if missed && melee && self.st.prep.fighters[a].feats.blind_fight {
            let again = self.rng.roll(100);
            missed = again <= u32::from(miss_chance);
            if let Some(ev) = ev.as_mut() {
                ev.steps.push(AttackStep::BlindFightReroll { d100: again, missed });
            }
        }
        missed
    }

    /// Emits the attack event `ev` (if the log is on) after adding its last step.
    fn emit_attack(&mut self, ev: Option<Box<AttackEvent>>, last: impl Into<Option<AttackStep>>) {
        if let Some(mut ev) = ev {
            ev.steps.extend(last.into());
            self.log.push(self.st.round, Event::Attack(ev));
        }
    }

    /// The event of an attack roll, before what follows it (built only when the log is on).
    #[allow(clippy::too_many_arguments)]
    fn attack_event(
        &self,
        a: usize,
        w: usize,
        t: usize,
        swing: Swing,
        s: &Situation,
        d20: i32,
        total: i32,
    ) -> Box<AttackEvent> {
        let atk = profile(self.st.prep, a, w, swing);
        let mut notes: Vec<AttackNote> = Vec::new();
        let mut add = |source: ModSource, value: i32| notes.push(AttackNote::Modifier { source, value });
        if swing.penalty != 0 {
            add(ModSource::Iterative, -swing.penalty);
        }
        if swing.charge {
            add(ModSource::Charge, CHARGE_BONUS);
        }
        if swing.trample {
            add(ModSource::Trample, -TRAMPLE_AOO_PENALTY);
        }
        if s.flank {
            add(ModSource::Flanking, if s.outflank { super::abilities::OUTFLANK_BONUS } else { FLANK_BONUS });
        }
        if s.high_ground {
            add(ModSource::HighGround, 1);
        }
        if s.range_penalty != 0 {
            add(ModSource::Range, -s.range_penalty);
        }
        if s.cover != 0 {
            add(ModSource::Cover, s.cover);
        }
        if self.st.fighters[t].turn.charged {
            add(ModSource::TargetCharged, -CHARGE_BONUS);
        }
        let (me, them) = (&self.st.fighters[a], &self.st.fighters[t]);
        if s.into_melee {
            add(ModSource::IntoMelee, -INTO_MELEE);
        }
        if me.conds.has(ConditionId::Prone) {
            add(ModSource::Prone, -PRONE);
        }
        if me.turn.defensive {
            add(ModSource::FightingDefensively, -DEFENSIVE_PENALTY);
        }
        if me.turn.aid_attack != 0 {
            add(ModSource::Aided, me.turn.aid_attack);
        }
        if s.power_attack != 0 {
            add(ModSource::PowerAttack, -s.power_attack);
        }
        if s.deadly_aim != 0 {
            add(ModSource::DeadlyAim, -s.deadly_aim);
        }
        if s.expertise != 0 {
            add(ModSource::CombatExpertise, -s.expertise);
        }
        if swing.rapid {
            add(ModSource::RapidShot, -RAPID_SHOT_PENALTY);
        }
        if swing.two_weapon != 0 {
            add(ModSource::TwoWeapon, -swing.two_weapon);
        }
        if s.invisible {
            add(ModSource::Invisible, INVISIBLE_BONUS);
        }
        if s.helpless {
            add(ModSource::TargetHelpless, HELPLESS_BONUS);
        }
        let others = |set: crate::effects::ConditionSet| {
            set.without(ConditionId::Prone).iter().map(|c| c.name().to_string()).collect::<Vec<_>>()
        };
        if me.conds.without(ConditionId::Prone) != crate::effects::ConditionSet::EMPTY {
            notes.push(AttackNote::AttackerConditions { names: others(me.conds) });
        }
        if !me.effects.is_empty() {
            let names = me.effects.iter().map(|e| e.effect.name.to_string()).collect();
            notes.push(AttackNote::AttackerEffects { names });
        }
        let mut add = |source: ModSource, value: i32| notes.push(AttackNote::Modifier { source, value });
        if them.conds.has(ConditionId::Prone) {
            add(ModSource::TargetProne, if atk.melee { -PRONE } else { PRONE });
        }
        let dodge = if them.turn.total_defense { TOTAL_DEFENSE_AC } else { 0 }
            + if them.turn.defensive { DEFENSIVE_AC } else { 0 }
            + self.st.expertise_ac(t);
        if dodge != 0 && !s.denied {
            add(ModSource::Dodge, dodge);
        }
        if them.turn.aid_ac != 0 {
            add(ModSource::TargetAided, them.turn.aid_ac);
        }
        if them.turn.martial.has(Style::Cleave) {
            add(ModSource::TargetCleaving, -CLEAVE_AC_PENALTY);
        }
        let smite = self.st.smite_attack(a, t);
        if smite != 0 {
            add(ModSource::Smite, smite);
        }
        // A bond higher than the attacker's own favored enemy replaces it (they do not stack).
        let (own, bond) = (self.st.own_favored_enemy(a, t), self.st.hunters_bond(a, t));
        if bond > own {
            add(ModSource::HuntersBond, bond);
        } else if own != 0 {
            add(ModSource::FavoredEnemy, own);
        }
        if swing.flurry {
            add(ModSource::Flurry, self.st.flurry_attack(a));
        }
        let smite_ac = self.st.smite_ac(a, t);
        if smite_ac != 0 {
            add(ModSource::TargetSmiting, smite_ac);
        }
        match self.st.challenge_ac(a, t) {
            (0, _) => {}
            (v, _) if v > 0 && s.denied => {}
            (v, _) => add(ModSource::TargetChallenging, v),
        }
        if them.turn.martial.shield_off && !s.touch {
            add(ModSource::TargetNoShield, -self.st.prep.fighters[t].defense.shield_ac);
        }
        let rusted = self.st.rust_ac_loss(t);
        if rusted != 0 && !s.touch {
            add(ModSource::TargetRusted, -rusted);
        }
        if them.run.running && !self.st.prep.fighters[t].feats.run_feat {
            notes.push(AttackNote::TargetRunningNoDex);
        } else if s.denied {
            notes.push(AttackNote::TargetDeniedDex);
        }
        if them.conds.without(ConditionId::Prone) != crate::effects::ConditionSet::EMPTY {
            notes.push(AttackNote::TargetConditions { names: others(them.conds) });
        }
        if !them.effects.is_empty() {
            let names = them.effects.iter().map(|e| e.effect.name.to_string()).collect();
            notes.push(AttackNote::TargetEffects { names });
        }
        Box::new(AttackEvent {
            who: a,
            target: t,
            weapon: atk.name.clone(),
            aoo: swing.aoo,
            d20,
            bonus: s.attack,
            total,
            ac_kind: if s.touch { AcKind::Touch } else { AcKind::Normal },
            ac: s.ac,
            notes,
            steps: Vec::new(),
        })
    }
}
