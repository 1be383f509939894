//! Candidate spells and class abilities, from the engine's own checks: a
//! spell the caster knows and has a slot for ([`BattleState::can_cast`]),
//! aimed where the cast action's own check accepts it (range, line of
//! effect, the target's filter, an area's point); the creatures an area
//! would catch, as the casting would lay it out; a class ability when its
//! pool has uses and someone is there for it.
//!
//! A few aims per spell and per hex ([`AIMS_PER_SPELL`]), and at most
//! [`SPELL_CANDIDATES`] spells in all, so that a caster's list leaves room
//! for moving and defending under the overall cap.

use crate::combat::abilities::{DEADEYE, HEX_RANGE_FT, UP_CLOSE, hex_mark};
use crate::combat::{Action, ActionKind, BattleState, ClassAbilityUse, Metamagic};
use crate::effects::Flags;
use crate::feats::{Deed, Hex};
use crate::spell::model::{CastTime, CreatureType, Origin, Range, Shape, TargetKind};

/// Aims listed for one spell, hex or spell combat (the nearest first).
pub const AIMS_PER_SPELL: usize = 2;

/// Most spell candidates (held charges included) listed for one turn.
pub const SPELL_CANDIDATES: usize = 12;

/// Spell combat candidates listed for one turn.
const SPELL_COMBAT_CANDIDATES: usize = 3;

/// Reach of channel energy and of most hexes, in feet.
const CHANNEL_FT: u32 = 30;

/// Enemies of `i` able to fight, nearest first (encounter order on a tie).
fn enemies_by_distance(b: &BattleState<'_>, i: usize) -> Vec<usize> {
    let mut v: Vec<usize> = (0..b.len()).filter(|&j| b.are_enemies(i, j) && b.is_active(j)).collect();
    v.sort_by_key(|&j| (b.distance(i, j), j));
    v
}

/// Allies of `i` on the battlefield (itself included), itself first, then nearest.
fn allies_by_distance(b: &BattleState<'_>, i: usize) -> Vec<usize> {
    let mut v: Vec<usize> = (0..b.len()).filter(|&j| !b.are_enemies(i, j) && b.is_present(j)).collect();
    v.sort_by_key(|&j| (j != i, b.distance(i, j), j));
    v
}

fn threatened(b: &BattleState<'_>, i: usize) -> bool {
    (0..b.len()).any(|e| b.are_enemies(e, i) && b.threatens(e, i))
}

/// Whether `j` is under an effect of spell `spell`.
fn under(b: &BattleState<'_>, j: usize, spell: u16) -> bool {
    b.fighters[j].effects.iter().any(|e| e.effect.spell == Some(spell))
}

/// Whether the cast action would accept `a` as aimed (slot, known spell, target, area point).
fn accepted(b: &BattleState<'_>, i: usize, a: &Action) -> bool {
    b.casting(i, a).is_ok_and(|cast| b.check_cast_targets(&cast).is_ok())
}

/// The creatures the area of `a` would catch: (enemies able to fight, allies).
fn caught(b: &BattleState<'_>, i: usize, a: &Action) -> (usize, usize) {
    let Ok(cast) = b.casting(i, a) else { return (0, 0) };
    let spell = &b.prep.spells[usize::from(cast.spell)].spell;
    let Some(template) = spell.area.as_ref().and_then(|area| b.template(&cast, area)) else { return (0, 0) };
    let mut inside = Vec::new();
    b.in_template(&cast, spell, &template, &mut inside);
    let foes = inside.iter().filter(|&&j| b.are_enemies(i, j) && b.is_active(j)).count();
    (foes, inside.len() - inside.iter().filter(|&&j| b.are_enemies(i, j)).count())
}

/// Casting spells: each spell `i` can cast now, aimed at a few plausible
/// targets or area points; a held charge, at the enemies it can touch.
pub(super) fn spells(b: &BattleState<'_>, i: usize, out: &mut Vec<Action>) {
    let start = out.len();
    if b.fighters[i].casting.held.is_some() {
        out.extend(
            enemies_by_distance(b, i)
                .into_iter()
                .filter(|&j| b.touch_reaches(i, j))
                .take(AIMS_PER_SPELL)
                .map(|j| Action::at(ActionKind::DischargeSpell, j)),
        );
    }
    let Some(caster) = b.prep.fighters[i].caster.as_deref() else { return };
    if b.fighters[i].casting.pending.is_some() {
        return;
    }
    let staggered = b.turn_limits(i).staggered;
    let wary = threatened(b, i);
    let mut aims = Vec::new();
    for k in &caster.known {
        let Ok((_, slot)) = b.can_cast(i, k.spell, Metamagic::NONE) else { continue };
        let spell = &b.prep.spells[usize::from(k.spell)].spell;
        if staggered && matches!(spell.cast_time, CastTime::FullRound | CastTime::OneRound) {
            continue;
        }
        aims.clear();
        aim_spell(b, i, k.spell, &mut aims);
        // Threatened: cast defensively when the concentration check is likely.
        let defensive = wary && {
            let dc = 15 + 2 * i32::from(slot);
            21 - (dc - b.concentration_bonus(i, true)) >= 10
        };
        out.extend(aims.iter().take(AIMS_PER_SPELL).map(|&a| if defensive { a.defensively() } else { a }));
        if out.len() - start >= SPELL_CANDIDATES {
            break;
        }
    }
    out.truncate(start + SPELL_CANDIDATES);
}

/// The plausible aims of `spell` for `i`, best first.
fn aim_spell(b: &BattleState<'_>, i: usize, spell: u16, out: &mut Vec<Action>) {
    let prepared = &b.prep.spells[usize::from(spell)];
    let (s, role) = (&prepared.spell, prepared.role);
    let helpful = s.harmless || (!role.damage && !role.control && (role.heal || role.buff || role.stabilize));
    let mut push = |a: Action| {
        if accepted(b, i, &a) {
            out.push(a);
        }
    };
    let self_only =
        s.range == Range::Personal || s.target.as_ref().is_some_and(|t| t.kind == TargetKind::Caster);
    if self_only {
        if !under(b, i, spell) {
            push(Action::cast(spell, None));
        }
        return;
    }
    if role.summon {
        push(Action::cast(spell, None));
        return;
    }
    if s.target.is_some() {
        let undead = |j: usize| b.prep.fighters[j].nature.ctype == Some(CreatureType::Undead);
        let who = if helpful { allies_by_distance(b, i) } else { enemies_by_distance(b, i) };
        for j in who {
            let worth = if !helpful {
                // Some effect of the spell applies to it (Disrupt Undead: undead only).
                s.effects.iter().any(|e| b.passes(i, j, &e.only))
            } else if role.heal {
                // Positive energy harms an undead ally.
                b.hp(j) < b.hp_max(j) && !undead(j)
            } else {
                !under(b, j, spell)
            };
            if worth {
                push(Action::cast(spell, Some(j)));
            }
        }
        return;
    }
    let Some(area) = &s.area else {
        push(Action::cast(spell, None));
        return;
    };
    if area.origin == Origin::Caster && !matches!(area.shape, Shape::Cone | Shape::Line) {
        let a = Action::cast(spell, None);
        let (foes, allies) = caught(b, i, &a);
        let worth = if helpful {
            allies_by_distance(b, i).into_iter().any(|j| !under(b, j, spell) && b.distance(i, j) <= 50)
        } else {
            foes > 0 && allies == 0
        };
        if worth {
            push(a);
        }
        return;
    }
    if helpful {
        return;
    }
    // Aimed at an enemy's square (or the enemy itself for an area around a
    // target): the aims that catch enemies and no ally, most enemies first.
    let mut scored: Vec<(usize, Action)> = Vec::new();
    for j in enemies_by_distance(b, i) {
        let a = if area.origin == Origin::Target {
            Action::cast(spell, Some(j))
        } else {
            Action::cast(spell, None).with_destination(b.pos(j))
        };
        if !accepted(b, i, &a) {
            continue;
        }
        let (foes, allies) = caught(b, i, &a);
        if foes > 0 && allies == 0 {
            scored.push((foes, a));
        }
    }
    scored.sort_by_key(|&(foes, _)| std::cmp::Reverse(foes));
    out.extend(scored.into_iter().map(|(_, a)| a));
}

/// Class abilities: inspire courage, channel energy, the arcane pool,
/// deeds, hexes, spell combat, domain, school and bloodline powers, when
/// the pool has uses and someone is there for them; an alchemist's
/// mutagen when it has a dose and none works.
pub(super) fn class_abilities(b: &BattleState<'_>, i: usize, out: &mut Vec<Action>) {
    let Some(a) = b.prep.fighters[i].abilities.as_deref() else { return };
    let f = &b.fighters[i];
    let here = b.pos(i);
    if a.inspire_courage > 0 && f.class.pools.bardic_rounds > 0 && !f.class.performing {
        out.push(Action::new(ActionKind::InspireCourage));
    }
    if let Some(ch) = a.channel
        && f.class.pools.channel_energy > 0
    {
        let undead = |j: usize| b.prep.fighters[j].nature.ctype == Some(CreatureType::Undead);
        let living = |j: usize| !b.prep.fighters[j].defense.immune.drain;
        let reached =
            |j: usize| b.is_present(j) && b.distance(i, j) <= CHANNEL_FT && b.line_of_effect_from(i, here, j);
        // Healing reaches the living with positive energy, undead with negative.
        let healed = |j: usize| if ch.positive { living(j) } else { undead(j) };
        let harmed = |j: usize| if ch.positive { undead(j) } else { living(j) };
        if (0..b.len()).any(|j| !b.are_enemies(i, j) && reached(j) && healed(j) && b.hp(j) < b.hp_max(j)) {
            out.push(Action::new(ActionKind::ChannelEnergy).with_option(0));
        }
        if (0..b.len()).any(|j| b.are_enemies(i, j) && b.is_active(j) && reached(j) && harmed(j)) {
            out.push(Action::new(ActionKind::ChannelEnergy).with_option(1));
        }
    }
    if a.arcane_enhancement > 0
        && f.class.pools.arcane_pool > 0
        && !f.turn.swift_used
        && b.held_weapon(i).is_some()
        && !f.effects.iter().any(|e| &*e.effect.name == "arcane pool")
    {
        out.push(Action::new(ActionKind::ArcanePool));
    }
    deeds(b, i, &a.deeds, out);
    if f.class.pools.hexes != Some(0) {
        for &h in &a.hexes {
            hexes(b, i, h, out);
        }
    }
    if a.spell_combat {
        spell_combat(b, i, out);
    }
    powers(b, i, out);
    if b.mutagen_ready(i).is_some() && !b.mutated(i) {
        out.push(Action::new(ActionKind::Mutagen));
    }
}

/// Domain, school and bloodline powers with a use left (`option`: the
/// power's index, as the `magic` line's `power_<k>_<name>` lists it): one on
/// itself (copycat) while it has no mirror image; a touch at up to two
/// enemies it touches from here and the power can affect.
fn powers(b: &BattleState<'_>, i: usize, out: &mut Vec<Action>) {
    let Some(a) = b.prep.fighters[i].abilities.as_deref() else { return };
    for (k, p) in a.powers.iter().enumerate() {
        if b.power_ready(i, k).is_none() {
            continue;
        }
        let option = k as u8;
        if p.on_itself() {
            if !b.has_images(i) {
                out.push(Action::new(ActionKind::DomainPower).with_option(option));
            }
            continue;
        }
        out.extend(
            enemies_by_distance(b, i)
                .into_iter()
                .filter(|&j| b.touch_reaches(i, j) && b.power_affects(p, j))
                .take(AIMS_PER_SPELL)
                .map(|j| Action::at(ActionKind::DomainPower, j).with_option(option)),
        );
    }
}

fn deeds(b: &BattleState<'_>, i: usize, deeds: &[Deed], out: &mut Vec<Action>) {
    let f = &b.fighters[i];
    if f.class.pools.grit == 0 {
        return;
    }
    let attacks = &b.prep.fighters[i].offense.attacks;
    let firearm_at = |j: usize| b.weapon_for(i, j, b.pos(i)).ok().filter(|&w| attacks[w].firearm);
    for &d in deeds {
        let plausible = match d {
            // Declared before a shot: an enemy a firearm reaches now.
            Deed::UpCloseAndDeadly => {
                f.turn.deeds & UP_CLOSE == 0
                    && (0..b.len()).any(|j| b.are_enemies(i, j) && b.is_active(j) && firearm_at(j).is_some())
            }
            // Beyond the first range increment.
            Deed::Deadeye => {
                f.turn.deeds & DEADEYE == 0
                    && (0..b.len()).any(|j| {
                        b.are_enemies(i, j)
                            && b.is_active(j)
                            && firearm_at(j).is_some_and(|w| b.distance(i, j) > attacks[w].increment)
                    })
            }
            Deed::QuickClear => {
                (0..attacks.len()).any(|w| attacks[w].firearm && b.is_broken(i, w) && !b.sundered(i, w))
            }
            // An immediate action the engine takes when a ranged attack comes.
            Deed::GunslingersDodge => false,
            // A standard action against each adjacent foe, with a firearm in hand.
            Deed::PistolWhip => {
                if b.pistol_whip_firearm(i).is_some() {
                    for j in (0..b.len())
                        .filter(|&j| b.are_enemies(i, j) && b.is_active(j) && b.distance(i, j) <= 5)
                    {
                        out.push(Action::at(ActionKind::Deed, j).with_ability(ClassAbilityUse::Deed(d)));
                    }
                }
                false
            }
        };
        if plausible {
            out.push(Action::new(ActionKind::Deed).with_ability(ClassAbilityUse::Deed(d)));
        }
    }
}

fn hexes(b: &BattleState<'_>, i: usize, h: Hex, out: &mut Vec<Action>) {
    let here = b.pos(i);
    let hex = |j: usize| Action::at(ActionKind::Hex, j).with_ability(ClassAbilityUse::Hex(h));
    let once = |j: usize| !b.fighters[j].marks.contains(&(i, hex_mark(h)));
    let mine = |j: usize, name: &str| {
        b.fighters[j].effects.iter().any(|e| &*e.effect.name == name && e.source == Some(i))
    };
    let within = |j: usize, ft: u32| j == i || (b.distance(i, j) <= ft && b.line_of_effect_from(i, here, j));
    let mut picked: Vec<usize> = match h {
        Hex::Cackle => {
            let extends = (0..b.len()).any(|j| {
                b.is_present(j)
                    && b.distance(i, j) <= HEX_RANGE_FT
                    && ["evil eye", "misfortune", "fortune"].iter().any(|n| mine(j, n))
            });
            if extends {
                out.push(Action::new(ActionKind::Hex).with_ability(ClassAbilityUse::Hex(h)));
            }
            return;
        }
        Hex::EvilEye | Hex::Slumber | Hex::Misfortune => enemies_by_distance(b, i)
            .into_iter()
            .filter(|&j| within(j, HEX_RANGE_FT))
            .filter(|&j| match h {
                Hex::EvilEye => !mine(j, "evil eye"),
                Hex::Slumber => once(j) && !b.is_helpless(j),
                _ => once(j),
            })
            .collect(),
        Hex::Fortune => allies_by_distance(b, i)
            .into_iter()
            .filter(|&j| b.is_active(j) && within(j, HEX_RANGE_FT) && once(j))
            .collect(),
        Hex::Healing => allies_by_distance(b, i)
            .into_iter()
            .filter(|&j| within(j, b.touch_reach(i)) && once(j) && b.hp(j) < b.hp_max(j))
            .collect(),
        Hex::Ward => allies_by_distance(b, i)
            .into_iter()
            .filter(|&j| j != i && b.is_active(j))
            .filter(|&j| within(j, HEX_RANGE_FT) && !mine(j, "ward"))
            .collect(),
    };
    picked.truncate(AIMS_PER_SPELL);
    out.extend(picked.into_iter().map(hex));
}

/// Spell combat: a harmful spell aimed at an enemy the magus's melee weapon
/// reaches, then the full attack on it.
fn spell_combat(b: &BattleState<'_>, i: usize, out: &mut Vec<Action>) {
    let Some(caster) = b.prep.fighters[i].caster.as_deref() else { return };
    if b.turn_limits(i).staggered
        || b.flags(i).has(Flags::NO_ATTACK)
        || b.fighters[i].casting.pending.is_some()
        || b.fighters[i].casting.held.is_some()
    {
        return;
    }
    let mut n = 0;
    for j in enemies_by_distance(b, i) {
        if b.melee_weapon_from(i, j, b.pos(i)).is_none() {
            continue;
        }
        for k in &caster.known {
            let prepared = &b.prep.spells[usize::from(k.spell)];
            let s = &prepared.spell;
            let quick = matches!(
                s.cast_time,
                CastTime::Standard | CastTime::Swift | CastTime::Immediate | CastTime::Free
            );
            if !quick || s.harmless || s.target.is_none() || !(prepared.role.damage || prepared.role.control)
            {
                continue;
            }
            let mut a = Action::at(ActionKind::SpellCombat, j);
            a.spell = Some(k.spell);
            if accepted(b, i, &a) {
                out.push(a);
                n += 1;
                if n >= SPELL_COMBAT_CANDIDATES {
                    return;
                }
            }
        }
    }
}
