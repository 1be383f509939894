//! Who receives a single-target buff: the ally it helps most, as a table
//! hands it out. Shield of Faith goes to the one the foes are hitting,
//! Bull's Strength to the one who hits hardest; the caster at the back
//! keeps a buff for itself only when it is the one in the fight (or nobody
//! else is within its touch).
//!
//! A buff's *aim* is read from its effects: bonuses on attack and damage
//! rolls, Strength, an extra attack or weapon qualities help the one who
//! deals damage; armor class, saves, Constitution, temporary hit points,
//! damage reduction, images and wards help the one who takes it. Dexterity
//! does both.

use crate::effects::ModTarget;
use crate::spell::Spell;
use crate::spell::effect::EffectKind;

use super::super::state::BattleState;
use super::futile::any_useful;
use super::worth::threat_of;

/// What a buff helps with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Aim {
    /// The damage its subject deals.
    pub(super) offense: bool,
    /// The damage its subject takes.
    pub(super) defense: bool,
}

/// What spell `s` helps its subject with.
pub(super) fn aim_of(s: &Spell) -> Aim {
    let mut aim = Aim::default();
    // A choice helps as its first option does (`spells::book`, the roles).
    let effects = s.effects.iter().flat_map(|e| match &e.kind {
        EffectKind::Choice(c) => c.options.first().map_or(&[][..], |o| &o.effects[..]),
        _ => std::slice::from_ref(e),
    });
    for e in effects {
        match &e.kind {
            EffectKind::Modifiers(m) => {
                for m in &m.modifiers {
                    use ModTarget as T;
                    match m.target {
                        T::Attack
                        | T::MeleeAttack
                        | T::RangedAttack
                        | T::Damage
                        | T::MeleeDamage
                        | T::RangedDamage
                        | T::Str
                        | T::Cmb
                        | T::CritConfirm => aim.offense = true,
                        T::Ac | T::Fort | T::Ref | T::Will | T::Saves | T::Con | T::Cmd => aim.defense = true,
                        T::Dex => {
                            aim.offense = true;
                            aim.defense = true;
                        }
                        _ => {}
                    }
                }
            }
            EffectKind::ExtraAttack(_)
            | EffectKind::WeaponQualities(_)
            | EffectKind::Keen(_)
            | EffectKind::OneShot(_)
            | EffectKind::SizeChange(_) => aim.offense = true,
            EffectKind::TempHp(_)
            | EffectKind::DamageReduction(_)
            | EffectKind::MirrorImages(_)
            | EffectKind::EnergyResistance(_)
            | EffectKind::EnergyAbsorption(_)
            | EffectKind::EnergyWard(_)
            | EffectKind::Retaliation(_)
            | EffectKind::AlignmentWard(_)
            | EffectKind::Immunity(_)
            | EffectKind::Sanctuary(_) => aim.defense = true,
            _ => {}
        }
    }
    aim
}

/// Whether all `s` does is guard against energy (Resist Energy,
/// Protection from Energy): worth nothing against foes that deal none.
pub(super) fn guards_energy_only(s: &Spell) -> bool {
    let mut energy = false;
    for e in &s.effects {
        match &e.kind {
            EffectKind::EnergyResistance(_) | EffectKind::EnergyAbsorption(_) | EffectKind::EnergyWard(_) => {
                energy = true
            }
            EffectKind::Choice(c) => {
                let only = c.options.iter().flat_map(|o| o.effects.iter()).all(|x| {
                    matches!(
                        x.kind,
                        EffectKind::EnergyResistance(_)
                            | EffectKind::EnergyAbsorption(_)
                            | EffectKind::EnergyWard(_)
                    )
                });
                if !only {
                    return false;
                }
                energy = true;
            }
            _ => return false,
        }
    }
    energy
}

/// Whether any able foe of `i` deals energy damage (`energy_dealt`).
pub(super) fn foes_deal_energy(b: &BattleState<'_>, i: usize) -> bool {
    (0..b.len()).any(|e| b.are_enemies(i, e) && b.is_active(e) && b.energy_dealt(e) != 0)
}

/// The damage per round aimed at `j`: the threat of every able foe that
/// can hurt `j` and has no nearer opponent it can hurt (a foe at the same
/// distance from several counts for each), since foes close in on the
/// nearest one their attacks are of use against (`policy::futile`).
pub(super) fn exposure(b: &BattleState<'_>, j: usize) -> f64 {
    (0..b.len())
        .filter(|&e| b.are_enemies(j, e) && b.is_active(e) && any_useful(b, e, j))
        .filter(|&e| {
            let d = b.distance(e, j);
            (0..b.len())
                .filter(|&a| a != j && b.are_enemies(e, a) && b.is_active(a) && b.distance(e, a) < d)
                .all(|a| !any_useful(b, e, a))
        })
        .map(|e| threat_of(b, e))
        .sum()
}

/// What a buff of aim `aim` on ally `j` is worth, in damage per round:
/// the damage `j` deals when it helps offense (nothing when none of `j`'s
/// attacks is of use), the damage aimed at `j` when it helps defense.
pub(super) fn worth_to(b: &BattleState<'_>, j: usize, aim: Aim) -> f64 {
    let mut w = 0.0;
    if aim.offense && !super::futile::all_futile(b, j) {
        w += threat_of(b, j);
    }
    if aim.defense {
        w += exposure(b, j);
    }
    w
}
