//! The raw snapshot: everything the engine knows of a battle at one turn,
//! serialized as is. It is the yardstick of the compact [`Observation`]
//! (what a model would get without a view: every combatant's whole data
//! file, every square of the map, every pair of combatants) and is never
//! sent to a model.
//!
//! [`Observation`]: super::Observation

use serde_json::{Value, json};

use crate::combat::BattleState;
use crate::encounter::Encounter;
use crate::map::Pos;

/// The raw snapshot of `acting`'s turn. `encounter` must be the one
/// `battle` was prepared from (its combatants' data files are included).
pub fn raw_snapshot(encounter: &Encounter, battle: &BattleState<'_>, acting: usize) -> Value {
    let map = battle.map();
    let mut cells = Vec::with_capacity((map.width.max(0) * map.height.max(0)) as usize);
    for row in 0..map.height {
        for col in 0..map.width {
            let p = Pos::new(row, col);
            let t = map.terrain(p);
            cells.push(json!({
                "row": row,
                "col": col,
                "type": t.kind,
                "move_cost": t.move_cost,
                "blocks_los": t.blocks_los,
                "cover_bonus": t.cover_bonus,
                "elevation": map.elevation(p),
                "zone": map.zones[map.index(p)].map(String::from),
                "occupant": battle.occupant(p).map(|j| battle.id(j)),
            }));
        }
    }
    let n = battle.len();
    let combatants: Vec<Value> = (0..n)
        .map(|i| {
            let f = &battle.fighters[i];
            json!({
                "id": battle.id(i),
                "side": battle.prep.sides[battle.side(i)],
                "data": encounter.combatants.get(i).map(|d| serde_json::to_value(d.spec.as_ref()).unwrap_or(Value::Null)),
                "pos": [f.pos.row, f.pos.col],
                "hp": f.hp,
                "temp_hp": f.temp_hp,
                "dead": f.dead,
                "stable": f.stable,
                "aoo_left": f.turn.aoo_left,
                "charged": f.turn.charged,
                "moved": f.turn.moved,
                "stepped": f.turn.stepped,
                "conditions": f.conds.iter().map(|c| c.name()).collect::<Vec<_>>(),
                "effects": f.effects.iter().map(|e| json!({
                    "name": e.effect.name.as_ref(),
                    "rounds_left": e.rounds_left,
                    "conditions": e.effect.conditions.iter().map(|c| c.name()).collect::<Vec<_>>(),
                    "modifiers": e.effect.mods.len(),
                })).collect::<Vec<_>>(),
                "power_attack": f.turn.power_attack,
                "bleed": f.bleed,
                "dropped": f.gear.dropped,
                "broken": f.gear.broken,
                "wear": f.gear.wear,
                "grappled_with": f.grappled_with.map(|j| battle.id(j)),
                "fighting_defensively": f.turn.defensive,
                "total_defense": f.turn.total_defense,
                "aid_attack": f.turn.aid_attack,
                "aid_ac": f.turn.aid_ac,
                "running": f.run.running,
                "run_rounds": f.run.run_rounds,
                "delayed_in": f.turn.delayed_in,
                "readied": f.turn.readied.is_some(),
                "speed_ft": battle.speed(i),
                "last_results": battle.last_results(i).iter().map(|r| json!({
                    "kind": r.kind.name(), "ok": r.ok, "reason": r.reason.map(|x| x.as_str()),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let mut pairs = Vec::with_capacity(n * n);
    for i in 0..n {
        for j in (0..n).filter(|&j| j != i) {
            let here = battle.pos(i);
            pairs.push(json!({
                "from": battle.id(i),
                "to": battle.id(j),
                "distance_ft": battle.distance(i, j),
                "line_of_effect": battle.line_of_effect_from(i, here, j),
                "weapon": battle.weapon_for(i, j, here).ok(),
                "threatens": battle.threatens(i, j),
                "charge": battle.charge_end(i, j).ok().map(|(p, w)| json!({"end": [p.row, p.col], "weapon": w})),
            }));
        }
    }
    json!({
        "round": battle.round(),
        "acting": battle.id(acting),
        "initiative": battle.initiative_order().iter().map(|&j| battle.id(j)).collect::<Vec<_>>(),
        "map": {
            "name": map.name,
            "width": map.width,
            "height": map.height,
            "square_size_ft": map.square_size_ft,
            "cells": cells,
        },
        "combatants": combatants,
        "pairs": pairs,
    })
}
