//! The healer's turn (`docs/strategy.md`, "The healer heals"): which ally
//! to heal, with what, and how to get there.
//!
//! A table's cleric does not cure only whoever happens to stand next to
//! her: she walks to the ally who is dying (first) or badly hurt (under half
//! its hit points) and touches it. So: the patients in order (dying and
//! unstable first, then by the fraction of hit points left); for the first
//! one a cure reaches from here, the cure that covers the most missing hit
//! points (the cheapest on a tie); otherwise, with a touch cure in hand, a
//! move to a square from which to touch the first patient and the cure;
//! otherwise Stabilize on a dying patient it reaches from here; otherwise,
//! when two moves reach a dying first patient, a double move toward it (the
//! cure follows next turn). A cure is worth what it heals times the chance
//! it works: on a clay golem's cursed-wound victim whose caster level check
//! cannot succeed, nothing (the healer turns to another patient, or to
//! other actions). A scroll of a cure is the last resort: read only when
//! no cure spell and no wand charge is left, on a patient it reaches from
//! where the reader stands, unthreatened (`scroll_for`).

use crate::effects::{Context, Flags, SaveKind};
use crate::grid::Access;
use crate::map::Pos;
use crate::spell::effect::EffectKind;
use crate::spell::model::{CreatureType, Range, TargetKind};

use super::super::abilities::{CHANNEL_RADIUS_FT, Channel};
use super::super::action::{Action, ActionKind};
use super::super::items::ItemKind;
use super::super::spells::Metamagic;
use super::super::state::{BattleState, LifeState};

/// How many patients, most urgent first, the healer considers.
const PATIENTS: usize = 3;

/// Whether ally `j` is under half its hit points (dying included). A
/// summoned creature never is: it leaves in a few rounds, and no table
/// spends a cure or a channel on it (it is healed only when a burst meant
/// for the party catches it).
pub(super) fn needs_healing(b: &BattleState<'_>, j: usize) -> bool {
    let f = &b.fighters[j];
    let spec = &b.prep.fighters[j];
    spec.reserve.is_none() && !f.dead && !f.gone && b.life(j) != LifeState::Dead && 2 * f.hp < spec.hp_max
}

/// What a channel of `i` would do from where it stands: the measure the
/// cleric's policy (`policy::magic`) and the paladin's (`policy::paladin`)
/// both decide by.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct ChannelScope {
    /// Allies of the healed kind in the burst under half their hit points
    /// (`needs_healing`; a clay golem's cursed wound the channeler's level
    /// cannot overcome aside).
    pub wounded: usize,
    /// Active foes of the healed kind in the burst the healing catches too
    /// (less those Selective Channeling may leave out).
    pub foes_healed: usize,
    /// Active foes of the harmed kind in the burst.
    pub foes_harmed: usize,
    /// Hit points the healing channel is expected to restore to allies
    /// (each capped at what it misses, times the chance a cursed wound
    /// lets it through), less what it restores to the foes it catches.
    pub heal_worth: f64,
    /// Damage the harming channel is expected to deal to foes (halved on a
    /// saved Will save and on an incorporeal foe).
    pub harm_worth: f64,
}

/// The chance that `t` fails its Will save against `i`'s channel `ch`
/// (channel resistance counts, as the rule rolls it: `abilities::channel`).
fn channel_save_fails(b: &BattleState<'_>, i: usize, t: usize, ch: Channel) -> f64 {
    let ignores = ch.sun != 0 && b.prep.fighters[t].nature.ctype == Some(CreatureType::Undead);
    let ctx = Context {
        other_alignment: b.prep.fighters[i].nature.alignment,
        channel: !ignores,
        ..Context::default()
    };
    let needed = (ch.dc - b.save_bonus(t, SaveKind::Will, &ctx)).clamp(2, 20);
    f64::from(needed - 1) / 20.0
}

/// The scope of `i`'s channel `ch` from where it stands (`selective`: it
/// has Selective Channeling).
pub(super) fn channel_scope(b: &BattleState<'_>, i: usize, ch: Channel, selective: bool) -> ChannelScope {
    let in_burst = |j: usize| {
        b.is_present(j) && b.distance(i, j) <= CHANNEL_RADIUS_FT && b.line_of_effect_from(i, b.pos(i), j)
    };
    // Positive energy heals the living and harms undead; negative the reverse.
    let healed_kind =
        |j: usize| (b.prep.fighters[j].nature.ctype == Some(CreatureType::Undead)) != ch.positive;
    let cl = b.prep.fighters[i].nature.hd;
    let mean = 3.5 * f64::from(ch.dice);
    let restores = |j: usize| {
        let missing = f64::from((b.prep.fighters[j].hp_max - b.fighters[j].hp).max(0));
        let odds = if ch.positive { b.healing_odds(j, cl) } else { 1.0 };
        mean.min(missing) * odds
    };
    let spared = if selective { b.prep.fighters[i].scores.cha_mod.max(0) as usize } else { 0 };
    let mut scope = ChannelScope::default();
    let mut foe_heals = Vec::new();
    for j in (0..b.len()).filter(|&j| in_burst(j)) {
        let foe = b.are_enemies(i, j);
        if healed_kind(j) {
            if !foe {
                let cursed = ch.positive && b.healing_odds(j, cl) <= 0.0;
                scope.wounded += usize::from(needs_healing(b, j) && !cursed);
                // A summoned creature counts for nothing (`needs_healing`).
                if b.prep.fighters[j].reserve.is_none() {
                    scope.heal_worth += restores(j);
                }
            } else {
                scope.foes_healed += usize::from(b.is_active(j));
                foe_heals.push(restores(j));
            }
        } else if foe && b.is_active(j) {
            scope.foes_harmed += 1;
            let bonus =
                if b.prep.fighters[j].nature.ctype == Some(CreatureType::Undead) { ch.sun } else { 0 };
            let full = mean + f64::from(bonus);
            let fails = channel_save_fails(b, i, j, ch);
            let dealt = full * (fails + (1.0 - fails) / 2.0);
            let dealt = if b.incorporeal(j) { dealt / 2.0 } else { dealt };
            // Damage past what the foe has left is wasted.
            scope.harm_worth += dealt.min(f64::from(b.hp(j).max(1)));
        }
    }
    scope.foes_healed = scope.foes_healed.saturating_sub(spared);
    // Selective Channeling leaves out the first foes of the encounter's
    // order (as the rule does); the others' healing counts against it.
    scope.heal_worth -= foe_heals.iter().skip(spared).sum::<f64>();
    scope
}

/// A heal to cast: the spell (from a wand or a scroll when `item` names
/// one) and whom on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Heal {
    pub spell: u16,
    pub item: Option<u8>,
    pub patient: usize,
    score: f64,
}

impl Heal {
    /// The action that delivers it.
    pub(super) fn action(self) -> Action {
        match self.item {
            Some(w) => Action::use_item(w, self.patient),
            None => Action::cast(self.spell, Some(self.patient)),
        }
    }
}

/// What the healer does: cast now, or move (once or twice) first.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum HealPlan {
    /// Cast from where it stands.
    Cast(Heal),
    /// Move to the square, then cast (a touch heal).
    MoveAndCast(Pos, Heal),
    /// A double move toward a dying ally too far for one move.
    DoubleMove(Pos, Pos),
}

/// `i`'s allies in need, most urgent first: dying and not stable, then the
/// smallest fraction of hit points left, then encounter order. Undead are
/// left out (positive energy harms them).
pub(super) fn patients(b: &BattleState<'_>, i: usize) -> Vec<usize> {
    let mut p: Vec<usize> = (0..b.len())
        .filter(|&j| !b.are_enemies(i, j) && needs_healing(b, j))
        .filter(|&j| b.prep.fighters[j].nature.ctype != Some(CreatureType::Undead))
        .collect();
    p.sort_by_key(|&j| {
        let dying = b.life(j) == LifeState::Dying;
        (!dying, i64::from(b.fighters[j].hp) * 1000 / i64::from(b.prep.fighters[j].hp_max.max(1)), j)
    });
    p.truncate(PATIENTS);
    p
}

/// Whether the heal spell `spell` of `i` may go to `patient` at all, and
/// whether it is a touch spell (then the caster may walk to deliver it).
fn fits(b: &BattleState<'_>, i: usize, spell: u16, patient: usize) -> Option<bool> {
    // A globe around the patient keeps a cure of its levels out.
    if b.globe_shuts_out(i, patient, spell) {
        return None;
    }
    let s = &b.prep.spells[usize::from(spell)].spell;
    match (&s.target, &s.area) {
        (Some(tg), _) if tg.kind == TargetKind::Caster || s.range == Range::Personal => {
            (patient == i).then_some(false)
        }
        (Some(tg), _) => b.passes(i, patient, &tg.filter).then_some(s.range == Range::Touch),
        (None, Some(_)) => Some(false),
        _ => None,
    }
}

/// Whether the heal spell `spell` of `i` reaches `patient` from where `i` stands.
fn reaches_now(b: &BattleState<'_>, i: usize, spell: u16, patient: usize, cl: u32) -> bool {
    let s = &b.prep.spells[usize::from(spell)].spell;
    match (&s.target, &s.area) {
        (Some(_), _) => b.spell_reaches(i, patient, s, cl).is_ok(),
        (None, Some(_)) => b.distance(i, patient) <= 30,
        _ => false,
    }
}

/// The worth of `spell` on `patient`: the hit points it restores (what is
/// missing at most) times the chance that it works (a clay golem's cursed
/// wound: `BattleState::healing_odds` at `cl`; none: worth nothing), a
/// little less for a higher level; Stabilize is worth 1 on a dying patient
/// and nothing on another.
fn worth(b: &BattleState<'_>, spell: u16, level: u8, patient: usize, cl: u32) -> f64 {
    let prepared = &b.prep.spells[usize::from(spell)];
    if !prepared.role.heal {
        return if b.life(patient) == LifeState::Dying { 1.0 } else { 0.0 };
    }
    let mean = prepared
        .spell
        .effects
        .iter()
        .filter_map(|e| match &e.kind {
            EffectKind::Heal(h) => Some(h.amount.mean_at(cl)),
            _ => None,
        })
        .sum::<f64>();
    let missing = f64::from(b.prep.fighters[patient].hp_max - b.fighters[patient].hp);
    // Healing beyond what is missing is wasted: the cheapest spell that covers it wins.
    mean.min(missing) * b.healing_odds(patient, cl) - 0.01 * f64::from(level)
}

/// The best heal of `i` for `patient`: among those reaching it from here
/// (`touch_only` false), or among the touch heals (`touch_only` true); cures
/// (`cures`), or else Stabilize on a dying patient.
fn best_for(
    b: &BattleState<'_>,
    i: usize,
    patient: usize,
    touch_only: bool,
    cures: bool,
    items: bool,
) -> Option<Heal> {
    let caster = b.prep.fighters[i].caster.as_deref()?;
    let mut best: Option<Heal> = None;
    for k in &caster.known {
        let prepared = &b.prep.spells[usize::from(k.spell)];
        let useful = if cures {
            prepared.role.heal
        } else {
            prepared.role.stabilize && b.life(patient) == LifeState::Dying
        };
        if !useful || prepared.role.damage || b.can_cast(i, k.spell, Metamagic::NONE).is_err() {
            continue;
        }
        // An alchemist's extract heals only its drinker (APG "Alchemy").
        if caster.extracts && patient != i {
            continue;
        }
        let Some(touch) = fits(b, i, k.spell, patient) else { continue };
        let touch = touch && !caster.extracts;
        let ok = if touch_only { touch } else { reaches_now(b, i, k.spell, patient, caster.cl) };
        if !ok {
            continue;
        }
        let score = worth(b, k.spell, k.level, patient, caster.cl);
        if score > 0.0 && best.is_none_or(|x| score > x.score) {
            best = Some(Heal { spell: k.spell, item: None, patient, score });
        }
    }
    if !cures || !items {
        return best;
    }
    // Its healing wands: a wand's cure is worth what it heals at the wand's
    // caster level; on a tie the wand wins (a charge is cheaper than a slot).
    // After a move only a wand already in hand fits the turn (drawing one is
    // the move action).
    for (w, it) in b.prep.fighters[i].items.iter().enumerate() {
        let Ok(w) = u8::try_from(w) else { break };
        if it.kind != ItemKind::Wand || !b.prep.spells[usize::from(it.spell)].role.heal {
            continue;
        }
        let charged = it.usable
            && b.fighters[i].gear.items_left[usize::from(w)] > 0
            && (w >= 64 || b.fighters[i].gear.items_barred >> w & 1 == 0);
        if !charged {
            continue;
        }
        let Some(touch) = fits(b, i, it.spell, patient) else { continue };
        let ok = if touch_only {
            touch && b.fighters[i].gear.wand_in_hand == Some(w)
        } else {
            reaches_now(b, i, it.spell, patient, it.cl)
        };
        if !ok {
            continue;
        }
        let level = b.prep.spells[usize::from(it.spell)].spell.lowest_level().unwrap_or(1);
        // A wand used by Use Magic Device is worth its chance to work.
        let score = (worth(b, it.spell, level, patient, it.cl) + 0.001) * b.item_odds(i, w);
        if score > 0.0 && best.is_none_or(|x| score > x.score) {
            best = Some(Heal { spell: it.spell, item: Some(w), patient, score });
        }
    }
    best
}

/// The scroll of a cure `i` would read on `patient` from where it stands,
/// if any: a scroll it can read (its list or Use Magic Device: the item is
/// usable, with a use left, not barred), of a heal spell that reaches the
/// patient from here at the scroll's caster level (taking the scroll out
/// is the turn's move action, so there is no walk before it), read only
/// where no foe threatens the reader (reading provokes as casting does).
/// Worth what the cure heals at the scroll's caster level times the
/// chance the reading works (`BattleState::item_odds`).
fn scroll_for(b: &BattleState<'_>, i: usize, patient: usize) -> Option<Heal> {
    if b.is_threatened(i) {
        return None;
    }
    let mut best: Option<Heal> = None;
    for (k, it) in b.prep.fighters[i].items.iter().enumerate() {
        let Ok(k) = u8::try_from(k) else { break };
        let prepared = &b.prep.spells[usize::from(it.spell)];
        if it.kind != ItemKind::Scroll
            || !prepared.role.heal
            || prepared.role.damage
            || prepared.unplayable.is_some()
            || fits(b, i, it.spell, patient).is_none()
            || b.item_use(i, k, patient).is_err()
        {
            continue;
        }
        let level = prepared.spell.lowest_level().unwrap_or(1);
        let score = worth(b, it.spell, level, patient, it.cl) * b.item_odds(i, k);
        if score > 0.0 && best.is_none_or(|x| score > x.score) {
            best = Some(Heal { spell: it.spell, item: Some(k), patient, score });
        }
    }
    best
}

/// The scroll of a cure a carrier who casts no spells (a rogue with Use
/// Magic Device) reads now, if any: on the most urgent patient it reaches
/// from here for whom `unattended` holds (no healer of the party will get
/// there: the scroll is the last resort).
pub(super) fn scroll_cure(
    b: &BattleState<'_>,
    i: usize,
    unattended: impl Fn(usize) -> bool,
) -> Option<Action> {
    if b.prep.fighters[i].caster.is_some() || b.life(i) != LifeState::Fighting {
        return None;
    }
    patients(b, i).into_iter().filter(|&j| unattended(j)).find_map(|j| scroll_for(b, i, j)).map(Heal::action)
}

/// The healing extract an alchemist `i` under half its hit points would
/// drink now (APG "Alchemy": it heals only the drinker), if any: the one
/// that covers the most of what it misses, as a healer chooses its cure.
pub(super) fn self_cure(b: &BattleState<'_>, i: usize) -> Option<u16> {
    if !b.drinks_extracts(i) || !needs_healing(b, i) {
        return None;
    }
    best_for(b, i, i, false, true, false).filter(|h| h.item.is_none()).map(|h| h.spell)
}

/// Whether `i` has a cure at hand this turn: a heal spell it can cast now
/// (from a slot or spontaneously), or a charged healing wand (scrolls
/// aside: they are the last resort).
pub(super) fn has_cure(b: &BattleState<'_>, i: usize) -> bool {
    let spells = b.prep.fighters[i].caster.as_deref().is_some_and(|c| {
        !c.extracts
            && b.can_cast_now(i)
            && c.known.iter().any(|k| {
                let role = &b.prep.spells[usize::from(k.spell)].role;
                role.heal && !role.damage && b.can_cast(i, k.spell, Metamagic::NONE).is_ok()
            })
    });
    spells
        || b.prep.fighters[i].items.iter().enumerate().any(|(w, it)| {
            it.kind == ItemKind::Wand
                && it.usable
                && b.prep.spells[usize::from(it.spell)].role.heal
                && b.fighters[i].gear.items_left[w] > 0
                && (w >= 64 || b.fighters[i].gear.items_barred >> w & 1 == 0)
        })
}

/// What `i` does to heal this turn, if anything: a cure reaching a patient
/// from here; a move and a touch cure on the most urgent patient; Stabilize
/// on a dying patient from here; a double move toward a dying patient.
/// Wands only when `items` (the `consumables` lever); a scroll of a cure
/// (`scroll_for`) only when `items` and nothing else cures (`has_cure`).
pub(super) fn plan(b: &BattleState<'_>, i: usize, items: bool) -> Option<HealPlan> {
    b.prep.fighters[i].caster.as_deref()?;
    let patients = patients(b, i);
    let &first = patients.first()?;
    if let Some(h) = patients.iter().find_map(|&j| best_for(b, i, j, false, true, items)) {
        return Some(HealPlan::Cast(h));
    }
    let mobile = !b.flags(i).has(Flags::CANT_MOVE) && b.life(i) == LifeState::Fighting;
    let touch = best_for(b, i, first, true, true, items).filter(|_| mobile);
    let way = touch.and_then(|_| approach(b, i, first));
    if let (Some(h), Some((near, None))) = (touch, way) {
        return Some(HealPlan::MoveAndCast(near, h));
    }
    // A scroll of a cure only when no slot and no wand charge is left to
    // cure with: scrolls are scarcer than charges.
    if items
        && !has_cure(b, i)
        && let Some(h) = patients.iter().find_map(|&j| scroll_for(b, i, j))
    {
        return Some(HealPlan::Cast(h));
    }
    if let Some(h) = patients.iter().find_map(|&j| best_for(b, i, j, false, false, items)) {
        return Some(HealPlan::Cast(h));
    }
    match way {
        Some((near, Some(far))) if b.life(first) == LifeState::Dying => Some(HealPlan::DoubleMove(near, far)),
        _ => None,
    }
}

impl HealPlan {
    /// Whether the plan reads one of `i`'s scrolls.
    pub(super) fn reads_scroll(self, b: &BattleState<'_>, i: usize) -> bool {
        let item = match self {
            HealPlan::Cast(h) | HealPlan::MoveAndCast(_, h) => h.item,
            HealPlan::DoubleMove(..) => None,
        };
        item.is_some_and(|k| b.prep.fighters[i].items[usize::from(k)].kind == ItemKind::Scroll)
    }
}

/// Appends `plan` to the turn.
pub(super) fn push(plan: HealPlan, out: &mut Vec<Action>) {
    match plan {
        HealPlan::Cast(h) => out.push(h.action()),
        HealPlan::MoveAndCast(q, h) => {
            out.push(Action::new(ActionKind::Move).with_destination(q));
            out.push(h.action());
        }
        HealPlan::DoubleMove(q, r) => {
            out.push(Action::new(ActionKind::Move).with_destination(q));
            out.push(Action::new(ActionKind::Move).with_destination(r));
        }
    }
}

/// The nearest dying ally of `i` (below 0 hit points, not stable; not a
/// summoned creature), ties by encounter order.
pub(super) fn nearest_dying(b: &BattleState<'_>, i: usize) -> Option<usize> {
    (0..b.len())
        .filter(|&j| j != i && !b.are_enemies(i, j) && b.life(j) == LifeState::Dying)
        .filter(|&j| b.prep.fighters[j].reserve.is_none())
        .min_by_key(|&j| (b.distance(i, j), j))
}

/// Plans a touch `kind` (lay on hands, Rebuke Death) on `patient`: from
/// here when `touches_now`, else after one move; `true` when planned.
pub(super) fn touch_aid(
    b: &BattleState<'_>,
    i: usize,
    patient: usize,
    kind: ActionKind,
    touches_now: bool,
    out: &mut Vec<Action>,
) -> bool {
    if touches_now {
        out.push(Action::at(kind, patient));
        return true;
    }
    match approach(b, i, patient) {
        Some((q, None)) => {
            out.push(Action::new(ActionKind::Move).with_destination(q));
            out.push(Action::at(kind, patient));
            true
        }
        _ => false,
    }
}

/// How `i` gets within touch of `j`: the cheapest square from which it
/// touches `j` and `None` when one move reaches it; else the squares where
/// a first and a second move end along the way, when two moves reach it.
pub(super) fn approach(b: &BattleState<'_>, i: usize, j: usize) -> Option<(Pos, Option<Pos>)> {
    let map = b.map();
    let budget = b.move_budget(i);
    let reach = b.touch_reach(i);
    let mut pf = b.prepared().pathfinder.clone();
    let start = b.pos(i);
    pf.run(map, start, Some(2 * budget), &|p| b.access(i, p));
    let touches = |q: Pos| b.distance_from(i, q, j) <= reach && b.line_of_effect_from(i, q, j);
    let mut best: Option<(u32, Pos)> = None;
    for row in 0..map.height {
        for col in 0..map.width {
            let q = Pos::new(row, col);
            let Some(c) = pf.cost(q) else { continue };
            if best.is_some_and(|(bc, _)| bc <= c) || b.access(i, q) != Access::Open || !touches(q) {
                continue;
            }
            best = Some((c, q));
        }
    }
    let (cost, dest) = best?;
    if cost <= budget {
        return (dest != start).then_some((dest, None));
    }
    // Two moves: the first ends on the last free square of the path within
    // one move; the second is planned from there.
    let mut path = Vec::new();
    pf.path_to(dest, &mut path);
    let near = path
        .iter()
        .rev()
        .copied()
        .find(|&p| pf.cost(p).is_some_and(|c| c <= budget) && b.access(i, p) == Access::Open)?;
    pf.run(map, near, Some(budget), &|p| b.access(i, p));
    let far = pf.cost(dest).map(|_| dest).or_else(|| {
        path.iter().rev().copied().find(|&p| pf.cost(p).is_some() && b.access(i, p) == Access::Open)
    })?;
    Some((near, Some(far)))
}
