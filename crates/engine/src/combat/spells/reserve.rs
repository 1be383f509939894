//! Which creature a caster's summoning spell calls, and the rows reserved
//! for it in the encounter when it is prepared (so that every battle of an
//! encounter reports the same combatants). Their arrival and departure in
//! battle: `spells::summon`. Data floor: no rule module.

use std::ops::Range;
use std::sync::Arc;

use crate::encounter::id_base;
use crate::library::{Leaning, Library, summon_candidates};
use crate::map::Pos;
use crate::model::Combatant;
use crate::spell::Scaled;
use crate::spell::effect::EffectKind;

use super::book::{CasterSpec, PreparedSpell};

/// The creatures one caster's summoning spell brings, and their rows.
#[derive(Clone, Debug)]
pub(crate) struct SummonGroup {
    /// The caster.
    pub caster: usize,
    /// How many come per casting.
    pub count: Scaled,
    /// The reserved rows (fighter indices), as many as the most that can come.
    pub rows: Range<usize>,
}

/// A row of the encounter: id, side, statistics, square, starting hit points, awareness.
pub(crate) type Row = (String, usize, Arc<Combatant>, Pos, i32, bool);

/// The options a summoning spell offers its caster: (creature id, its statistics, count).
fn options<'l>(
    library: &'l Library,
    spell_id: &str,
    count_override: Option<&Scaled>,
    leaning: Leaning,
    depth: u32,
    out: &mut Vec<(String, &'l Arc<Combatant>, Scaled)>,
    looked_for: &mut Vec<String>,
) {
    let Some(spell) = library.spells.get(spell_id) else { return };
    for e in &spell.effects {
        let EffectKind::Summon(s) = &e.kind else { continue };
        for o in &s.options {
            let count = count_override.unwrap_or(&o.count);
            if let Some(m) = &o.monster {
                let candidates = summon_candidates(m, o.template, leaning);
                match candidates.iter().find_map(|id| library.creatures.get_key_value(id)) {
                    Some((id, c)) => out.push((id.clone(), c, count.clone())),
                    None => looked_for.extend(candidates),
                }
            }
            if let Some(lower) = &o.from_spell
                && depth < 4
            {
                options(library, lower, Some(count), leaning, depth + 1, out, looked_for);
            }
        }
    }
}

/// How much a summoned creature is worth in a fight, for the choice of option:
/// its hit points plus four times the mean damage of a full round of attacks.
fn worth(c: &Combatant) -> f64 {
    let damage: f64 = c
        .attacks
        .iter()
        .filter(|a| a.natural)
        .map(|a| {
            let per_hit: f64 = a
                .damage
                .iter()
                .filter_map(|d| crate::dice::DiceExpr::parse(&d.formula).ok())
                .map(|d| d.mean())
                .sum::<f64>()
                + f64::from(a.damage_bonus);
            per_hit * f64::from(a.count.max(1))
        })
        .sum();
    let weapon = c
        .attacks
        .iter()
        .find(|a| !a.natural)
        .map(|a| {
            a.damage
                .iter()
                .filter_map(|d| crate::dice::DiceExpr::parse(&d.formula).ok())
                .map(|d| d.mean())
                .sum::<f64>()
        })
        .unwrap_or(0.0);
    f64::from(c.hp_max) + 4.0 * damage.max(weapon)
}

/// Reserves rows for the creatures caster `k`'s summoning spells call: for
/// each such spell, the option worth most in a fight (mean count × worth;
/// the first listed on a tie), with as many rows as the most that can come.
/// A summoning spell none of whose options has a creature file is refused.
pub(crate) fn reserve_summons(
    k: usize,
    c: &Combatant,
    caster: &mut CasterSpec,
    library: &Library,
    spells: &mut [PreparedSpell],
    groups: &mut Vec<SummonGroup>,
    rows: &mut Vec<Row>,
) -> Result<(), (String, String)> {
    let leaning = Leaning::of(&c.alignment);
    let side = rows[k].1;
    let pos = rows[k].3;
    for (n, known) in caster.known.iter_mut().enumerate() {
        let prepared = &spells[usize::from(known.spell)];
        if !prepared.role.summon || prepared.unplayable.is_some() {
            continue;
        }
        let mut found = Vec::new();
        let mut looked_for = Vec::new();
        options(library, &prepared.id, None, leaning, 0, &mut found, &mut looked_for);
        let cl = caster.cl;
        let best = found
            .iter()
            .enumerate()
            .map(|(i, (_, c, count))| (i, count.mean_at(cl).max(1.0) * worth(c)))
            .fold(
                None,
                |acc: Option<(usize, f64)>, x| if acc.is_none_or(|a| x.1 > a.1) { Some(x) } else { acc },
            );
        let Some((best, _)) = best else {
            looked_for.sort();
            looked_for.dedup();
            return Err((
                format!("$.spells[{n}]"),
                format!(
                    "no option of {:?} has a creature file in the scenario (looked for {})",
                    prepared.spell.name,
                    looked_for.join(", ")
                ),
            ));
        };
        let (_, creature, count) = found.swap_remove(best);
        let most = count.bounds_at(cl).1.max(1) as usize;
        let start = rows.len();
        for _ in 0..most {
            let base = id_base(&creature.name);
            let mut row_id = base.clone();
            let mut m = 1;
            while rows.iter().any(|r| r.0 == row_id) {
                m += 1;
                row_id = format!("{base}-{m}");
            }
            rows.push((row_id, side, Arc::clone(creature), pos, creature.hp_max, true));
        }
        known.group = Some(groups.len() as u16);
        groups.push(SummonGroup { caster: k, count, rows: start..rows.len() });
    }
    Ok(())
}
