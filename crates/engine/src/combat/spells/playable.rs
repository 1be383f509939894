//! Which spells the engine casts: every effect kind and field of the format
//! is either played by a rule of this module's siblings or named here as the
//! reason a spell is refused. A refused spell is never cast (the policies
//! skip it; a requested cast is answered `spell_not_playable` without
//! spending anything), and `docs/rules/magic.md` lists every refused spell
//! with this reason (a test keeps the two in step).

use crate::spell::Spell;
use crate::spell::effect::{ControlAction, EffectKind, EscapeDc, RerollMode, SpellEffect, ZoneEffect};
use crate::spell::model::{CastTime, DurationUnit, Shape, TargetKind};

/// Why the engine cannot cast `spell`, if it cannot: the first unplayed
/// kind or field found, as `JSON path: reason`.
pub(crate) fn unplayable(spell: &Spell) -> Option<String> {
    if spell.cast_time == CastTime::Long {
        return Some("$.cast_time: longer than a round: not cast in a fight".into());
    }
    if spell.effects.is_empty() {
        return Some("$.effects: no combat effect (see the file's simplifications)".into());
    }
    if let Some(t) = &spell.target
        && t.kind == TargetKind::Object
    {
        return Some("$.target.kind: objects are not modelled".into());
    }
    if let Some(a) = &spell.area
        && a.shape == Shape::Wall
    {
        return Some("$.area.shape: walls are not played".into());
    }
    match spell.duration.unit {
        DurationUnit::Concentration => {
            return Some("$.duration.unit: concentration durations are not played".into());
        }
        DurationUnit::InArea => return Some("$.duration.unit: lasting areas are not played".into()),
        _ => {}
    }
    for (i, e) in spell.effects.iter().enumerate() {
        if let Some(why) = effect_unplayable(&format!("$.effects[{i}]"), e) {
            return Some(why);
        }
        // A lasting area centred on a creature moves with it (Silence):
        // played for an emanation of a fixed radius from its target.
        let on_creature = spell.target.is_some()
            && spell.area.as_ref().is_some_and(|a| {
                a.origin == crate::spell::model::Origin::Target
                    && a.spread == crate::spell::model::Spread::Emanation
                    && a.radius_ft.is_some()
            });
        if matches!(e.kind, EffectKind::Zone(_))
            && !on_creature
            && (spell.target.is_some() || spell.area.is_none())
        {
            return Some(format!(
                "$.effects[{i}].zone: a lasting area that is not the spell's own area (centred on a creature) is not played"
            ));
        }
    }
    None
}

/// The first field of a lasting area the engine does not play, as `field: reason`.
fn zone_unplayable(z: &ZoneEffect) -> Option<String> {
    let why = if z.light_change != 0 {
        "light_change: light levels are not modelled"
    } else if z.blocks_movement || z.blocks_sight || !z.on_pass_through.is_empty() {
        "blocks_movement: walls are not played"
    } else if z.hp_per_section.is_some() || z.break_dc.is_some() {
        "hp_per_section: walls are not played"
    } else if z.moves.as_ref().is_some_and(|m| !m.away_from_caster) {
        "moves: areas moving other than away from their caster are not played"
    } else if !z.radiates.is_empty() {
        "radiates: effects radiating around an area are not played"
    } else {
        return None;
    };
    Some(why.to_string())
}

fn effect_unplayable(path: &str, e: &SpellEffect) -> Option<String> {
    let kpath = format!("{path}.{}", e.kind.name());
    if let Some(d) = &e.duration {
        match d.unit {
            // A condition of a zone may last while its bearer stays in the area (`zone.rs`).
            DurationUnit::InArea if path.contains(".zone.") && matches!(e.kind, EffectKind::Condition(_)) => {
            }
            DurationUnit::Concentration | DurationUnit::InArea => {
                return Some(format!("{path}.duration.unit: {:?} durations are not played", d.unit));
            }
            _ => {}
        }
    }
    let refuse = |what: &str| Some(format!("{kpath}: {what}"));
    match &e.kind {
        EffectKind::Condition(c) => {
            // The CMD of a spell's grapple is known under its maneuver (`grasp.rs`).
            if let Some(x) = &c.escape
                && x.dc != EscapeDc::SpellDc
                && !(x.dc == EscapeDc::ManeuverCmd && path.contains(".maneuver."))
            {
                return Some(format!(
                    "{kpath}.escape.dc: escape DCs other than the spell's (or its maneuver's CMD) are not played"
                ));
            }
        }
        EffectKind::Reroll(r) if r.mode == RerollMode::RerollFailedSave => {
            return refuse("rerolling a failed save out of turn is not played");
        }
        // Fire Shield's answer to melee blows is played by `retaliation.rs`:
        // damage only.
        EffectKind::Retaliation(r) if r.effects.iter().any(|x| !matches!(x.kind, EffectKind::Damage(_))) => {
            return refuse("effects: retaliation effects other than damage are not played");
        }
        EffectKind::Zone(z) => {
            if let Some(why) = zone_unplayable(z) {
                return Some(format!("{kpath}.{why}"));
            }
        }
        EffectKind::Controlled(c) => {
            // A weapon that strikes on its own is played (`construct.rs`).
            let why = if c.action != ControlAction::Automatic {
                "action: constructs the caster directs with an action each round are not played"
            } else if c.attack.is_none() {
                "attack: constructs without an attack roll are not played"
            } else if c.area.is_some() || c.moves_ft.is_some() || c.uses.is_some() {
                "area: constructs that move or strike an area are not played"
            } else if c.effects.iter().any(|x| !matches!(x.kind, EffectKind::Damage(_))) {
                "effects: a construct's effects other than damage are not played"
            } else {
                return None;
            };
            return Some(format!("{kpath}.{why}"));
        }
        EffectKind::GrantedAttack(_) => return refuse("attacks granted for the duration are not played"),
        // A lasting area's grapple (Black Tentacles) is played by `grasp.rs`.
        EffectKind::Maneuver(_) if !path.contains(".zone.") => {
            return refuse("combat maneuvers outside a lasting area are not played");
        }
        EffectKind::Push(_) => return refuse("pushes are not played"),
        EffectKind::Dash(_) => return refuse("moves with an attack on the way are not played"),
        _ => {}
    }
    for (p, child) in e.children(path) {
        if let Some(why) = effect_unplayable(&p, child) {
            return Some(why);
        }
    }
    None
}
