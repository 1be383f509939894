//! How the default policy and compiled strategies use spells and class
//! abilities (the predecessor's order, `docs/rules/magic.md` §7): a held
//! charge is delivered; class abilities come first when they fit the moment
//! (inspire courage, channel energy to heal or to harm undead, hexes, the
//! arcane pool and Arcane Accuracy, deeds); then spells: heal an ally under half its hit
//! points, summon, open with buffs when the lever says so, the best
//! offensive spell when it beats the weapon attack (expected damage, or a
//! condition's worth, times the chance it lands: attack roll, spell
//! resistance, save), a buff when nothing better is at hand; the magus
//! folds its spell into spell combat. Everything is evaluated from where the
//! caster stands; a caster with nothing to cast falls back to the attack ladder.

use crate::effects::{Behaviours, ConditionId, Flags, SaveKind};
use crate::feats::{Deed, Hex};
use crate::spell::Spell;
use crate::spell::effect::{EffectKind, EffectSave, SpellEffect};
use crate::spell::model::{AttackKind, CreatureType, Origin, Range, SaveOutcome, TargetKind};
use crate::strategy::SpellPolicy;

use super::super::abilities::{AbilitySpec, hex_mark};
use super::super::action::{Action, ActionKind, ClassAbilityUse};
use super::super::odds::hit_chance;
use super::super::spells::{Cast, Known, Metamagic, PreparedSpell};
use super::super::state::BattleState;
use super::heal::{self, HealPlan, needs_healing};
use super::worth::{severity, threat_of};

/// The magic levers of a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Magic {
    pub spells: SpellPolicy,
    pub abilities: bool,
    pub open_with_buffs: bool,
    pub save_heals: bool,
    pub area_min: u8,
    /// Potions, wands, scrolls and flasks are spent (the `consumables` lever).
    pub items: bool,
}

impl Magic {
    /// The default policy's.
    pub const DEFAULT: Magic = Magic {
        spells: SpellPolicy::Default,
        abilities: true,
        open_with_buffs: false,
        save_heals: false,
        area_min: 2,
        items: true,
    };
}

/// A spell option: what to cast, and its worth.
#[derive(Clone, Copy, Debug)]
pub(super) struct Option_ {
    pub(super) spell: u16,
    pub(super) target: Option<usize>,
    point: Option<crate::map::Pos>,
    metamagic: Metamagic,
    score: f64,
}

impl Option_ {
    /// The cast this option plays.
    fn action(&self) -> Action {
        let mut a = Action::cast(self.spell, self.target).with_metamagic(self.metamagic);
        a.destination = self.point;
        a
    }
}

/// Whether `i` has anything the magic layer plays.
#[inline]
pub(crate) fn has_magic(b: &BattleState<'_>, i: usize) -> bool {
    let spec = &b.prep.fighters[i];
    spec.caster.is_some() || spec.abilities.is_some() || b.fighters[i].casting.held.is_some()
}

/// Plans `i`'s turn with spells and class abilities against target `t`;
/// `false` when nothing magical is worth it (the attack ladder plays).
pub(crate) fn plan_magic(b: &BattleState<'_>, i: usize, t: usize, m: Magic, out: &mut Vec<Action>) -> bool {
    let f = &b.fighters[i];
    if f.summary.flags.has(Flags::MUST_FLEE) {
        return false;
    }
    // An area of its own that holds or harms as many allies as foes is dismissed.
    if let Some(spell) = area_to_dismiss(b, i) {
        let mut a = Action::new(ActionKind::DismissSpell);
        a.spell = Some(spell);
        out.push(a);
        return true;
    }
    let spec = &b.prep.fighters[i];
    let abilities = spec.abilities.as_deref().filter(|_| m.abilities);
    // A held charge: touch with it.
    if let Some(held) = f.casting.held {
        let target = held.cast.target.filter(|&x| b.is_active(x)).unwrap_or(t);
        if b.charge_reaches(&held, target) {
            out.push(Action::at(ActionKind::DischargeSpell, target));
            return true;
        }
    }
    if let Some(a) = abilities
        && plan_abilities(b, i, t, a, m, out)
    {
        return true;
    }
    // An alchemist's extracts are planned by `policy::alchemist`.
    if m.spells == SpellPolicy::None
        || spec.caster.as_deref().is_none_or(|c| c.extracts)
        || !b.can_cast_now(i)
    {
        return false;
    }
    plan_spells(b, i, t, m, abilities, out)
}

/// The spell of a dismissible lasting area of `i`'s that a table would end
/// now: one that acts on the creatures in it (Black Tentacles' grapple,
/// Web's strands, Entangle's plants, effects each round) and meets or
/// holds at least one of `i`'s allies (itself included) and no more
/// active foes than allies: holding a friend costs as much as holding a foe gains.
fn area_to_dismiss(b: &BattleState<'_>, i: usize) -> Option<u16> {
    (0..b.zones.len()).find_map(|k| {
        let z = &b.zones[k];
        let spell = z.cast.spell;
        if z.cast.caster != i
            || !b.prep.spells[usize::from(spell)].spell.duration.dismissible
            || !b.zone_hinders(k)
        {
            return None;
        }
        let (mut allies, mut foes) = (0usize, 0usize);
        for t in b.zone_catches(k) {
            if !b.are_enemies(i, t) && !b.fighters[t].dead {
                allies += 1;
            } else if b.are_enemies(i, t) && b.is_active(t) {
                foes += 1;
            }
        }
        (allies > 0 && allies >= foes).then_some(spell)
    })
}

// ---- class abilities ----

/// Whether the gunslinger `i` pistol-whips `t` this turn: `t` is adjacent
/// and threatens her, so a shot (or a reload that is not free) would provoke
/// its attack of opportunity while the whip provokes nothing; her firearm is
/// still in hand; and she has grit beyond the point gunslinger's dodge keeps
/// in reserve; and no 5-foot step takes her out of every foe's reach to
/// shoot from there (`ranged::step_out`: then she steps and shoots, which
/// provokes nothing either). A foe that does not threaten her (no melee reach) is shot:
/// the firearm's damage beats the club's.
fn pistol_whips(b: &BattleState<'_>, i: usize, t: usize, a: &AbilitySpec) -> bool {
    let reserve = u16::from(a.has_deed(Deed::GunslingersDodge));
    a.has_deed(Deed::PistolWhip)
        && b.fighters[i].class.pools.grit > reserve
        && b.is_active(t)
        && b.distance(i, t) <= 5
        && b.threatens(t, i)
        && b.pistol_whip_firearm(i).is_some()
        // A 5-foot step out of every foe's reach makes the shot safe.
        && super::ranged::step_out(b, i, t).is_none()
}

fn plan_abilities(
    b: &BattleState<'_>,
    i: usize,
    t: usize,
    a: &AbilitySpec,
    m: Magic,
    out: &mut Vec<Action>,
) -> bool {
    let f = &b.fighters[i];
    // Inspire courage: started on the first turn the bard sees a fight.
    if a.inspire_courage > 0 && !f.class.performing && f.class.pools.bardic_rounds > 0 && !b.silenced(i) {
        out.push(Action::new(ActionKind::InspireCourage));
        if b.weapon_for(i, t, b.pos(i)).is_err() && !b.flags(i).has(Flags::CANT_MOVE) {
            out.push(Action::at(ActionKind::Move, t));
        }
        return true;
    }
    // A cavalier rallies on a turn it cannot attack, and challenges the foe it fights.
    if (a.challenge.is_some() || a.tactician_rounds > 0 || a.lions_call.is_some())
        && super::cavalier::plan(b, i, t, a, out)
    {
        return true;
    }
    // Channel energy: heal the wounded living around, or harm grouped undead.
    // A paladin's channel (paid with lay on hands) is weighed by `policy::paladin`.
    if let Some(ch) = b.channel_ready(i).filter(|c| !c.from_hands) {
        let scope = heal::channel_scope(b, i, ch, a.selective);
        if scope.wounded >= 1 {
            // One wounded ally is better served by a cure when the caster has
            // one; a scroll is not spent where a channel serves.
            let cure = m.spells != SpellPolicy::None
                && b.can_cast_now(i)
                && heal::plan(b, i, m.items).is_some_and(|p| !p.reads_scroll(b, i));
            if scope.foes_healed < scope.wounded && (scope.wounded >= 2 || !cure) {
                out.push(Action::new(ActionKind::ChannelEnergy).with_option(0));
                return true;
            }
        }
        if scope.foes_harmed >= 2 {
            out.push(Action::new(ActionKind::ChannelEnergy).with_option(1));
            return true;
        }
    }
    // Arcane pool: a swift action before the magus's first melee.
    if a.arcane_enhancement > 0
        && f.class.pools.arcane_pool > 0
        && !f.turn.swift_used
        && !f.effects.iter().any(|e| &*e.effect.name == "arcane pool")
        && b.distance(i, t) <= 30
    {
        out.push(Action::new(ActionKind::ArcanePool));
    } else if a.arcane_accuracy > 0
        && f.class.pools.arcane_pool > 0
        && !f.turn.swift_used
        && b.is_active(t)
        && b.melee_weapon_from(i, t, b.pos(i)).is_some()
        && !f.effects.iter().any(|e| &*e.effect.name == super::super::abilities::ARCANE_ACCURACY)
    {
        // Arcane Accuracy: the swift action of a turn it fights in melee from
        // where it stands (a full attack or spell combat), once the weapon is enhanced.
        out.push(Action::new(ActionKind::ArcaneAccuracy));
    }
    // Deeds: clear a misfired firearm, declare the grit deeds before a shot.
    if !a.deeds.is_empty() {
        let attacks = &b.prep.fighters[i].offense.attacks;
        let misfired =
            (0..attacks.len()).any(|w| attacks[w].firearm && b.is_broken(i, w) && !b.sundered(i, w));
        if pistol_whips(b, i, t, a) {
            out.push(Action::at(ActionKind::Deed, t).with_ability(ClassAbilityUse::Deed(Deed::PistolWhip)));
            return true;
        }
        if misfired && a.has_deed(Deed::QuickClear) && f.class.pools.grit > 0 {
            // A move action spending grit, then the shot.
            out.push(Action::new(ActionKind::Deed).with_ability(ClassAbilityUse::Deed(Deed::QuickClear)));
            out.push(Action::at(ActionKind::Attack, t));
            return true;
        } else if let Ok(w) = b.weapon_for(i, t, b.pos(i))
            && attacks[w].firearm
            && f.class.pools.grit > 0
        {
            if a.has_deed(Deed::UpCloseAndDeadly) {
                out.push(
                    Action::new(ActionKind::Deed).with_ability(ClassAbilityUse::Deed(Deed::UpCloseAndDeadly)),
                );
            } else if a.has_deed(Deed::Deadeye) && b.distance(i, t) > attacks[w].increment {
                out.push(Action::new(ActionKind::Deed).with_ability(ClassAbilityUse::Deed(Deed::Deadeye)));
            }
        }
    }
    if !a.hexes.is_empty()
        && f.class.pools.hexes != Some(0)
        && let Some(hex) = choose_hex(b, i, t, a, m)
    {
        out.push(hex);
        return true;
    }
    // A domain or school power's touch, when it beats the weapon and the best spell.
    if !a.powers.is_empty()
        && let Some(touch) = super::domain::best_touch(b, i, a)
    {
        let spell = if m.spells != SpellPolicy::None && b.can_cast_now(i) {
            best_offense(b, i, t, m).map_or(0.0, |o| o.score)
        } else {
            0.0
        };
        if touch.value > spell && touch.value > weapon_value(b, i, touch.target) {
            out.push(touch.action());
            return true;
        }
    }
    false
}

/// The hex a witch uses now, if one is worth it.
fn choose_hex(b: &BattleState<'_>, i: usize, t: usize, a: &AbilitySpec, m: Magic) -> Option<Action> {
    let _ = m;
    let near = |j: usize| {
        b.distance(i, j) <= super::super::abilities::HEX_RANGE_FT && b.line_of_effect_from(i, b.pos(i), j)
    };
    let once = |j: usize, h: Hex| !b.fighters[j].marks.contains(&(i, hex_mark(h)));
    // Healing an adjacent ally in need.
    if a.has_hex(Hex::Healing)
        && let Some(j) = (0..b.len()).find(|&j| {
            !b.are_enemies(i, j)
                && needs_healing(b, j)
                && b.touch_reaches(i, j)
                && once(j, Hex::Healing)
                && b.healing_odds(j, b.prep.fighters[i].nature.hd) > 0.0
        })
    {
        return Some(hex_action(Hex::Healing, j));
    }
    // A ward on an ally who fights in melee, once.
    if a.has_hex(Hex::Ward)
        && !(0..b.len())
            .any(|j| b.fighters[j].effects.iter().any(|e| &*e.effect.name == "ward" && e.source == Some(i)))
        && let Some(j) = (0..b.len()).find(|&j| j != i && !b.are_enemies(i, j) && b.is_active(j) && near(j))
    {
        return Some(hex_action(Hex::Ward, j));
    }
    if !b.is_active(t) || !near(t) {
        return None;
    }
    let mind_immune =
        b.prep.fighters[t].defense.immune.descriptors.has(crate::effects::Descriptor::MindAffecting);
    if a.has_hex(Hex::Slumber)
        && once(t, Hex::Slumber)
        && !mind_immune
        && !b.prep.fighters[t].defense.immune.conditions.has(ConditionId::Asleep)
        && !b.is_helpless(t)
    {
        return Some(hex_action(Hex::Slumber, t));
    }
    let eyed = b.fighters[t].effects.iter().any(|e| &*e.effect.name == "evil eye" && e.source == Some(i));
    if a.has_hex(Hex::EvilEye) && !eyed && !mind_immune {
        return Some(hex_action(Hex::EvilEye, t));
    }
    if a.has_hex(Hex::Misfortune) && once(t, Hex::Misfortune) {
        return Some(hex_action(Hex::Misfortune, t));
    }
    None
}

fn hex_action(h: Hex, target: usize) -> Action {
    Action::at(ActionKind::Hex, target).with_ability(ClassAbilityUse::Hex(h))
}

// ---- spells ----

fn plan_spells(
    b: &BattleState<'_>,
    i: usize,
    t: usize,
    m: Magic,
    abilities: Option<&AbilitySpec>,
    out: &mut Vec<Action>,
) -> bool {
    let caster = b.prep.fighters[i].caster.as_deref().expect("checked by the caller");
    // 1. Heal an ally under half its hit points, walking to it if need be.
    match heal::plan(b, i, m.items) {
        Some(HealPlan::Cast(h)) if h.item.is_some() => {
            out.push(h.action());
            return true;
        }
        Some(HealPlan::Cast(h)) => {
            let o = Option_ {
                spell: h.spell,
                target: Some(h.patient),
                point: None,
                metamagic: Metamagic::NONE,
                score: 0.0,
            };
            push_cast(b, i, o, out);
            return true;
        }
        Some(p) => {
            heal::push(p, out);
            return true;
        }
        None => {}
    }
    // 1b. Teleport out of a melee that would fell it within two rounds, or
    // out of a grapple (Dimension Door, `policy::escape`).
    if let Some((spell, to)) = caster
        .known
        .iter()
        .filter(|k| b.prep.spells[usize::from(k.spell)].role.teleport)
        .filter(|k| allowed(b, i, m, k.spell, Metamagic::NONE))
        .find_map(|k| super::escape::escape_to(b, i, k.spell, caster.cl).map(|q| (k.spell, q)))
    {
        // Defensively whatever the odds: each attack of opportunity that hit
        // would ask a harder check (10 + its damage + the level) on top of
        // the damage the caster is fleeing.
        let o = Option_ { spell, target: None, point: Some(to), metamagic: Metamagic::NONE, score: 0.0 };
        let a = o.action();
        out.push(if threatened(b, i) { a.defensively() } else { a });
        return true;
    }
    // What its weapon does this turn: nothing when none of its attacks is
    // of use against any foe (`policy::futile`: only a natural 20 hits, or
    // damage reduction swallows every blow), whatever a lucky roll may do.
    let weapon = if super::futile::all_futile(b, i) { 0.0 } else { weapon_value(b, i, t) };
    // A True Strike waiting for its blow: the weapon plays it when it
    // reaches after one move (a spell with an attack roll spends it too).
    let striking = super::true_strike::holds(b, i) && super::true_strike::weapon_follows(b, i, t);
    // 1c. A globe that keeps the foes' spells out (Globe of
    // Invulnerability), when what they can still throw at the caster that
    // it stops, over the next rounds, outweighs the caster's weapon or best
    // spell this round (`policy::globe`).
    if let Some((spell, worth)) =
        super::globe::best_globe(b, i, |s| allowed(b, i, m, s, Metamagic::NONE), |j, s| spell_on(b, j, i, s))
    {
        let o = Option_ { spell, target: None, point: None, metamagic: Metamagic::NONE, score: worth };
        if worth * casting_odds(b, i, &o) > weapon.max(best_offense(b, i, t, m).map_or(0.0, |x| x.score)) {
            push_cast(b, i, o, out);
            return true;
        }
    }
    // 1d. Dispel a foe's lasting area that holds or harms the caster's
    // friends, or silences one who casts, or a foe's spell that keeps a
    // friend from acting, when freeing them over the next rounds outweighs
    // the caster's weapon or best spell this round (`policy::dispel`).
    let area = super::dispel::best_area_dispel(b, i, |s| allowed(b, i, m, s, Metamagic::NONE))
        .map(|(spell, p, worth)| (spell, None, Some(p), worth));
    let friend = super::dispel::best_friend_dispel(b, i, |s| allowed(b, i, m, s, Metamagic::NONE))
        .map(|(spell, t, worth)| (spell, Some(t), None, worth));
    if let Some((spell, target, point, worth)) =
        area.into_iter().chain(friend).max_by(|x, y| x.3.total_cmp(&y.3))
    {
        let o = Option_ { spell, target, point, metamagic: Metamagic::NONE, score: worth };
        if worth * casting_odds(b, i, &o) > weapon.max(best_offense(b, i, t, m).map_or(0.0, |x| x.score)) {
            push_cast(b, i, o, out);
            return true;
        }
    }
    // 2. Summon when none of the caster's creatures is still fighting (a new
    // casting would only replace it) and the creature is worth the round the
    // casting takes: more damage over its stay than the caster's own best
    // this round.
    if !summons_out(b, i)
        && let Some((k, worth)) = caster
            .known
            .iter()
            .filter(|k| b.prep.spells[usize::from(k.spell)].role.summon)
            .filter(|k| allowed(b, i, m, k.spell, Metamagic::NONE))
            .filter(|k| b.can_cast(i, k.spell, Metamagic::NONE).is_ok())
            .map(|k| (k, summon_worth(b, i, k, t)))
            .max_by(|x, y| x.1.total_cmp(&y.1))
        && worth > weapon.max(best_offense(b, i, t, m).map_or(0.0, |o| o.score))
    {
        out.push(Action::cast(k.spell, Some(t)));
        return true;
    }
    // 2b. A construct that strikes on its own (Spiritual Weapon) when none
    // of the caster's is fighting and its damage over the rounds counted on,
    // weighed by the chance the casting goes off, beats the caster's weapon
    // and best spell this round (`policy::construct`).
    if let Some((spell, j, worth)) = best_construct(b, i, t, m) {
        let o = Option_ { spell, target: Some(j), point: None, metamagic: Metamagic::NONE, score: worth };
        if worth * casting_odds(b, i, &o) > weapon.max(best_offense(b, i, t, m).map_or(0.0, |o| o.score)) {
            push_cast(b, i, o, out);
            return true;
        }
    }
    // 3. Open with buffs.
    if m.open_with_buffs
        && b.round() <= 2
        && let Some(o) = best_buff(b, i, m)
    {
        push_buff(b, i, o, out);
        return true;
    }
    // 3c. A shield that burns those who strike the caster (Fire Shield),
    // once foes are in melee with it and their blows over the next rounds
    // would cost them more than the caster's weapon or best spell does now
    // (`policy::strike_back`). Among those foes, it is cast after a step
    // out of their reach or defensively, never at the mercy of their
    // attacks of opportunity: a caster who cannot make it likely keeps to
    // its other spells.
    if let Some((spell, option, worth)) =
        super::strike_back::best_shield(b, i, |s| allowed(b, i, m, s, Metamagic::NONE))
    {
        let o = Option_ { spell, target: Some(i), point: None, metamagic: Metamagic::NONE, score: worth };
        let odds = if !threatened(b, i) || step_to_cast(b, i, &o.action()).is_some() {
            1.0
        } else {
            defensive_odds(b, i, spell, Metamagic::NONE)
        };
        if odds >= 0.5 && worth * odds > weapon.max(best_offense(b, i, t, m).map_or(0.0, |x| x.score)) {
            push_cast(b, i, o, out);
            if let Some(cast) = out.last_mut() {
                cast.option = option;
            }
            return true;
        }
    }
    // 3d. A spectral hand, when the touch spells it would carry to foes
    // out of reach gain more over the next castings than the round it
    // costs (`policy::hand`).
    if let Some((spell, gain, alt)) = super::hand::best_hand(
        b,
        i,
        || weapon.max(best_offense(b, i, t, m).map_or(0.0, |x| x.score)),
        |s| allowed(b, i, m, s, Metamagic::NONE),
        |j, s, bonus| touch_worth(b, i, j, s, bonus),
    ) {
        let o = Option_ { spell, target: None, point: None, metamagic: Metamagic::NONE, score: gain };
        if gain * casting_odds(b, i, &o) > alt {
            push_cast(b, i, o, out);
            return true;
        }
    }
    // 3b. Grow an ally who fights in melee (Enlarge Person) in the first
    // rounds, when the damage it gains over the next rounds beats what the
    // caster's own weapon or best spell does this round.
    if b.round() <= 2
        && let Some(o) = best_growth(b, i, m)
        && o.score > weapon.max(best_offense(b, i, t, m).map_or(0.0, |x| x.score))
    {
        push_cast(b, i, o, out);
        return true;
    }
    // 4a. A scroll of an offensive spell it has no slot left for (or one
    // off its list), when it beats the weapon and the best spell.
    let offense = best_offense(b, i, t, m).filter(|o| !striking || makes_attack_roll(b, o.spell));
    if striking && offense.is_none() {
        return false;
    }
    // 3c. True Strike when the blow it prepares for next turn gains more
    // than the weapon (from here, or one blow after a move) or the best
    // spell does this turn (`policy::true_strike`).
    if let Some((spell, gain)) = super::true_strike::best(b, i, t, |s| allowed(b, i, m, s, Metamagic::NONE))
        && gain
            > weapon
                .max(super::true_strike::blow_after_move(b, i, t))
                .max(offense.map_or(0.0, |o| o.score * casting_odds(b, i, &o)))
    {
        let o = Option_ { spell, target: Some(i), point: None, metamagic: Metamagic::NONE, score: gain };
        push_cast(b, i, o, out);
        return true;
    }
    if m.items
        && let Some((k, score)) = best_scroll(b, i, t)
        && score > weapon.max(offense.map_or(0.0, |o| o.score))
    {
        out.push(Action::use_item(k, t));
        return true;
    }
    // 4. The best offensive spell, when it beats the weapon once weighed
    // by the chance it goes off (a threatened caster's concentration).
    if let Some(o) = offense
        && o.score * casting_odds(b, i, &o) > weapon
    {
        // The magus folds a standard-action spell into spell combat when its weapon reaches.
        let spell = &b.prep.spells[usize::from(o.spell)].spell;
        let combat = abilities.is_some_and(|a| a.spell_combat)
            && b.melee_weapon_from(i, t, b.pos(i)).is_some()
            && spell.cast_time == crate::spell::model::CastTime::Standard
            && o.metamagic.is_empty();
        if combat {
            let mut a = Action::at(ActionKind::SpellCombat, t);
            a.spell = Some(o.spell);
            a.destination = o.point;
            if spell.target.is_some() && o.target != Some(t) {
                a.target = o.target;
            }
            if threatened(b, i) && defensive_odds(b, i, o.spell, o.metamagic) >= 0.5 {
                a.defensive = true;
            }
            out.push(a);
            return true;
        }
        push_cast(b, i, o, out);
        add_quickened(b, i, t, m, out);
        return true;
    }
    // 5. A buff when the weapon cannot reach the target from here, or is
    // of no use against any foe; a scroll of one when no slot buffs.
    if weapon == 0.0
        && let Some(o) = best_buff(b, i, m).or_else(|| if m.items { scroll_buff(b, i) } else { None })
    {
        push_buff(b, i, o, out);
        return true;
    }
    false
}

/// Whether one of the creatures `i` summoned is on the battlefield and fighting.
fn summons_out(b: &BattleState<'_>, i: usize) -> bool {
    b.prep
        .summon_groups
        .iter()
        .filter(|g| g.caster == i)
        .flat_map(|g| g.rows.clone())
        .any(|r| !b.fighters[r].gone && b.is_active(r))
}

/// The construct spell `i` would cast (none of its own of that spell
/// fighting), the foe it would strike (`construct::target`) and its worth
/// there (`construct::worth`, weighed by the chance to pass spell resistance).
fn best_construct(b: &BattleState<'_>, i: usize, t: usize, m: Magic) -> Option<(u16, usize, f64)> {
    let caster = b.prep.fighters[i].caster.as_deref()?;
    caster
        .known
        .iter()
        .filter(|k| b.prep.spells[usize::from(k.spell)].role.construct)
        .filter(|k| b.construct_of(i, k.spell).is_none() && allowed(b, i, m, k.spell, Metamagic::NONE))
        .filter_map(|k| {
            let j = super::construct::target(b, i, k.spell, Some(t))?;
            let s = &b.prep.spells[usize::from(k.spell)].spell;
            Some((k.spell, j, p_through(b, i, j, s) * super::construct::worth(b, i, k.spell, j)))
        })
        .max_by(|x, y| x.2.total_cmp(&y.2))
}

/// Rounds a summoned creature is counted on: a battle rarely lasts longer
/// once it arrives, and the creature may fall sooner.
const SUMMON_HORIZON: u32 = 3;

/// The damage the creatures of summoning spell `k` are expected to deal to
/// `t` over their stay (at most [`SUMMON_HORIZON`] rounds): each one's full
/// round of attacks at `t`'s armor class, less its damage reduction, times
/// the mean number that come.
fn summon_worth(b: &BattleState<'_>, i: usize, k: &Known, t: usize) -> f64 {
    let Some(group) = k.group.and_then(|g| b.prep.summon_groups.get(usize::from(g))) else { return 0.0 };
    let Some(r) = group.rows.clone().next() else { return 0.0 };
    let (spec, foe) = (&b.prep.fighters[r], &b.prep.fighters[t]);
    let routine = b.routine(r, 0);
    let per_round: f64 = spec
        .offense
        .attacks
        .iter()
        .enumerate()
        .filter(|&(w, _)| w < 64 && routine >> w & 1 == 1)
        .map(|(_, a)| {
            let ac = if a.vs_touch { foe.defense.ac.touch } else { foe.defense.ac.total };
            let dr = a.vs.get(t).map_or(0, |v| v.dr);
            hit_chance(a.bonus, ac) * (a.mean_damage - f64::from(dr)).max(0.0) * f64::from(a.count.max(1))
        })
        .sum();
    let cl = b.prep.fighters[i].caster.as_deref().map_or(1, |c| c.cl);
    let count = group.count.mean_at(cl).clamp(1.0, group.rows.len() as f64);
    per_round * count * f64::from(cl.clamp(1, SUMMON_HORIZON))
}

/// Whether `i` is threatened where it stands.
fn threatened(b: &BattleState<'_>, i: usize) -> bool {
    b.is_threatened(i)
}

/// The chance of `i`'s concentration check to cast `spell` defensively.
fn defensive_odds(b: &BattleState<'_>, i: usize, spell: u16, mm: Metamagic) -> f64 {
    let Ok((_, slot)) = b.can_cast(i, spell, mm) else { return 0.0 };
    let dc = 15 + 2 * i32::from(slot);
    let bonus = b.concentration_bonus(i, true);
    (f64::from(21 - (dc - bonus)) / 20.0).clamp(0.0, 1.0)
}

/// The square of a 5-foot step out of every foe's reach from which `i`'s
/// `cast` still does what it was aimed to do (`ranged::step_before_casting`,
/// `cast_from::cast_holds_from`). A cone or a line, shaped from where the
/// caster stands, and a cast without target or point (an area around the
/// caster, a summons) are cast where it stands.
fn step_to_cast(b: &BattleState<'_>, i: usize, cast: &Action) -> Option<crate::map::Pos> {
    if cast.target.is_none() && cast.destination.is_none() {
        return None;
    }
    super::ranged::step_before_casting(b, i, |q| super::cast_from::cast_holds_from(b, i, cast, q))
}

/// The chance that `i`'s cast of `o` goes off: sure when no foe threatens
/// it or a 5-foot step takes it out of reach first (`step_to_cast`); else its concentration check to cast defensively,
/// which it makes when that is likelier than not, and an even chance when
/// it provokes instead (the attack of opportunity may miss, the check after
/// a hit may succeed). A GM does not spend round after round on a
/// defensive cast that fails one time in two when a blow does as well.
fn casting_odds(b: &BattleState<'_>, i: usize, o: &Option_) -> f64 {
    if !threatened(b, i) || step_to_cast(b, i, &o.action()).is_some() {
        return 1.0;
    }
    defensive_odds(b, i, o.spell, o.metamagic).max(0.5)
}

/// Appends the cast of `o`: defensively when threatened and the check is
/// likely, after a move when the target is out of touch.
/// In a square a foe threatens, with nothing done yet this turn, it is cast
/// after a 5-foot step out of every foe's reach when one keeps the spell
/// where it was aimed (`step_to_cast`); else defensively when that is
/// likely to work.
fn push_cast(b: &BattleState<'_>, i: usize, o: Option_, out: &mut Vec<Action>) {
    let mut a = o.action();
    if threatened(b, i) {
        let step = if out.is_empty() { step_to_cast(b, i, &a) } else { None };
        if let Some(q) = step {
            out.push(Action::new(ActionKind::FiveFootStep).with_destination(q));
        } else if defensive_odds(b, i, o.spell, o.metamagic) >= 0.5 {
            a = a.defensively();
        }
    }
    out.push(a);
}

/// A buff's cast, after its walk when it has one.
fn push_buff(b: &BattleState<'_>, i: usize, o: Buff, out: &mut Vec<Action>) {
    if let (Some(k), Some(t)) = (o.scroll, o.cast.target) {
        out.push(Action::use_item(k, t));
        return;
    }
    if let Some(q) = o.walk {
        out.push(Action::new(ActionKind::Move).with_destination(q));
    }
    push_cast(b, i, o.cast, out);
}

/// A quickened damage spell as the turn's swift action, when the caster knows Quicken Spell.
fn add_quickened(b: &BattleState<'_>, i: usize, t: usize, m: Magic, out: &mut Vec<Action>) {
    let caster = b.prep.fighters[i].caster.as_deref().expect("a caster");
    if !caster.metamagic.has(Metamagic::QUICKEN) || b.fighters[i].turn.swift_used {
        return;
    }
    let mut best: Option<Option_> = None;
    for k in &caster.known {
        let prepared = &b.prep.spells[usize::from(k.spell)];
        if !prepared.role.damage || prepared.role.area || !allowed(b, i, m, k.spell, Metamagic::QUICKEN) {
            continue;
        }
        if out.iter().any(|a| a.spell == Some(k.spell))
            && b.fighters[i].casting.slots[usize::from(k.level + 4).min(9)] < 2
        {
            continue;
        }
        if let Some(o) = score_offense(b, i, t, k.spell, Metamagic::QUICKEN, m, &mut None)
            && best.is_none_or(|x| o.score > x.score)
        {
            best = Some(o);
        }
    }
    if let Some(o) = best {
        out.push(Action::cast(o.spell, o.target).with_metamagic(o.metamagic));
    }
}

/// Whether `i` may spend a slot on `spell` with `mm` under the levers
/// (Save heals keeps the last slot of each level a healing spell it knows needs).
fn allowed(b: &BattleState<'_>, i: usize, m: Magic, spell: u16, mm: Metamagic) -> bool {
    let Ok((_, slot)) = b.can_cast(i, spell, mm) else { return false };
    let prepared = &b.prep.spells[usize::from(spell)];
    if !m.save_heals || slot == 0 || prepared.role.heal {
        return true;
    }
    let caster = b.prep.fighters[i].caster.as_deref().expect("a caster");
    let heals_here =
        caster.known.iter().any(|k| k.level == slot && b.prep.spells[usize::from(k.spell)].role.heal);
    !heals_here || b.fighters[i].casting.slots[usize::from(slot)] > 1
}

/// The expected damage of `i`'s weapon against `t` this turn from where it
/// stands (0 when nothing reaches): hit chance × mean damage, iterative attacks included.
pub(super) fn weapon_value(b: &BattleState<'_>, i: usize, t: usize) -> f64 {
    let Ok(w) = b.weapon_for(i, t, b.pos(i)) else { return 0.0 };
    let spec = &b.prep.fighters[i];
    let atk = &spec.offense.attacks[w];
    let s = b.situation(i, w, t, super::super::odds::Swing::default());
    let per = hit_chance(s.attack, s.ac) * atk.mean_damage * f64::from(atk.count);
    let iters = if atk.iterates { super::super::odds::iterations(spec.offense.bab) } else { 1 };
    per * f64::from(iters.max(1))
}

/// The chance that `t` fails a save of `kind` against `dc`.
fn p_fail(b: &BattleState<'_>, t: usize, kind: SaveKind, dc: i32) -> f64 {
    let bonus = b.save_bonus(t, kind, &crate::effects::Context { spell: true, ..Default::default() });
    let needed = (dc - bonus).clamp(2, 20);
    f64::from(needed - 1) / 20.0
}

/// The chance `i`'s spell gets through `t`'s spell resistance.
fn p_through(b: &BattleState<'_>, i: usize, t: usize, spell: &Spell) -> f64 {
    let sr = b.prep.fighters[t].defense.spell_resistance as i32;
    if !spell.spell_resistance || sr == 0 {
        return 1.0;
    }
    let caster = b.prep.fighters[i].caster.as_deref().expect("a caster");
    let bonus = caster.cl as i32 + caster.penetration;
    (f64::from(21 - (sr - bonus)) / 20.0).clamp(0.0, 1.0)
}

/// Whether `t` ignores `i`'s `spell` outright (immunities of its type and
/// file, and of its effects: Shield against Magic Missile; a globe around
/// it that keeps the spell out).
fn immune(b: &BattleState<'_>, i: usize, t: usize, spell: u16) -> bool {
    let prepared = &b.prep.spells[usize::from(spell)];
    let im = &b.prep.fighters[t].defense.immune;
    let by_effect = Behaviours(b.fighters[t].fx).has(Behaviours::IMMUNITY)
        && b.fighters[t].effects.iter().flat_map(|e| e.effect.behaviours.iter()).any(|x| match x {
            crate::effects::Behaviour::Immunity { spells, descriptors, .. } => {
                spells.contains(&spell)
                    || crate::effects::Descriptor::ALL
                        .iter()
                        .any(|&d| prepared.descriptors.has(d) && descriptors.has(d))
            }
            _ => false,
        });
    // A spell that leaves its target immune afterwards (Daze) is not cast on it again.
    let immune_after =
        prepared.spell.immunity_after.is_some() && b.fighters[t].marks.contains(&(usize::MAX, spell));
    by_effect
        || immune_after
        || b.globe_shuts_out(i, t, spell)
        || crate::effects::Descriptor::ALL
            .iter()
            .any(|&d| prepared.descriptors.has(d) && im.descriptors.has(d))
        || im.subschool(prepared.subschool)
        || (im.magic && prepared.spell.spell_resistance && !slows_golem(b, t, spell))
        || heals_golem(b, t, spell)
        || (im.fortitude && prepared.spell.saving_throw.as_ref().is_some_and(|s| s.kind == SaveKind::Fort))
}

/// The energy bits of `spell`'s damage effects.
fn damage_energies(b: &BattleState<'_>, spell: u16) -> u8 {
    b.prep.spells[usize::from(spell)]
        .spell
        .effects
        .iter()
        .filter_map(|e| match &e.kind {
            crate::spell::effect::EffectKind::Damage(d) => {
                Some(crate::combat::prepared::monster::energy_bits(&d.types))
            }
            _ => None,
        })
        .fold(0, |acc, x| acc | x)
}

/// Whether `spell` slows golem `t` through its immunity to magic (a flesh
/// golem's fire and cold): worth casting for the slow (`monster::golem`).
fn slows_golem(b: &BattleState<'_>, t: usize, spell: u16) -> bool {
    b.prep.fighters[t].monster.as_deref().is_some_and(|m| m.magic_energy.is_some())
        && b.magic_energy(t, damage_energies(b, spell)).1
}

/// Whether `spell` heals golem `t` (a flesh golem's electricity, a clay
/// golem's acid): never cast at it.
fn heals_golem(b: &BattleState<'_>, t: usize, spell: u16) -> bool {
    b.prep.fighters[t].monster.as_deref().is_some_and(|m| m.magic_energy.is_some())
        && b.magic_energy(t, damage_energies(b, spell)).0
}

/// Whom one casting of a spell aims at and catches: its creature target,
/// its point, and the active enemies it reaches (`None`: it reaches nobody
/// worth it). It does not depend on metamagic, so the variants of one spell
/// share it.
type Reach = Option<(Option<usize>, Option<crate::map::Pos>, Vec<usize>)>;

/// How much one casting of `spell` with `mm` is worth against `t` (and the
/// creatures an area catches): expected damage, or a condition's worth.
/// `reach` memoizes whom the spell catches across metamagic variants.
fn score_offense(
    b: &BattleState<'_>,
    i: usize,
    t: usize,
    spell: u16,
    mm: Metamagic,
    m: Magic,
    reach: &mut Option<Reach>,
) -> Option<Option_> {
    let prep = b.prep;
    let prepared = &prep.spells[usize::from(spell)];
    let s = &prepared.spell;
    if prepared.unplayable.is_some() || !(prepared.role.damage || prepared.role.control) || s.harmless {
        return None;
    }
    let action = Action::cast(spell, Some(t)).with_metamagic(mm);
    let mut cast = b.casting(i, &action).ok()?;
    let m = Magic { area_min: area_floor(m.area_min, prepared.role.control && !deals_damage(s)), ..m };
    let (target, point, caught) = reach.get_or_insert_with(|| reach_of(b, i, t, s, &cast, m)).as_ref()?;
    cast.target = *target;
    cast.point = *point;
    let mut score = 0.0;
    for &j in caught {
        if immune(b, i, j, spell) {
            continue;
        }
        let through = p_through(b, i, j, s);
        score += through * spell_hit_chance(b, i, j, s) * value_on(b, i, j, &cast, s, mm);
    }
    (score > 0.0).then_some(Option_ { spell, target: cast.target, point: cast.point, metamagic: mm, score })
}

/// What `i`'s harmful `spell` is worth on `j` alone, wherever they stand
/// (for weighing what a foe could do to a caster): the chance it gets
/// through, lands and what it does (`value_on`); 0 for a spell that helps
/// or that `j` ignores.
fn spell_on(b: &BattleState<'_>, i: usize, j: usize, spell: u16) -> f64 {
    let prepared = &b.prep.spells[usize::from(spell)];
    let s = &prepared.spell;
    if prepared.unplayable.is_some()
        || !(prepared.role.damage || prepared.role.control)
        || s.harmless
        || immune(b, i, j, spell)
    {
        return 0.0;
    }
    let Ok(cast) = b.casting(i, &Action::cast(spell, Some(j))) else { return 0.0 };
    p_through(b, i, j, s) * spell_hit_chance(b, i, j, s) * value_on(b, i, j, &cast, s, Metamagic::NONE)
}

/// What a magical silence on `j` (a foe of `i`) takes from it over
/// [`SILENCE_ROUNDS`]: its best spell with a verbal component that it can
/// still cast (a Silence of its own aside), on the creature of `i`'s side
/// it would hurt most (`spell_on`); nothing when it is silenced already.
fn silence_worth(b: &BattleState<'_>, i: usize, j: usize) -> f64 {
    let Some(foe) = b.prep.fighters[j].caster.as_deref() else { return 0.0 };
    if b.silenced(j) {
        return 0.0;
    }
    let side: Vec<usize> = (0..b.len()).filter(|&a| !b.are_enemies(i, a) && b.is_active(a)).collect();
    let best = foe
        .known
        .iter()
        .filter(|k| {
            let s = &b.prep.spells[usize::from(k.spell)].spell;
            // Its own Silence is left out: weighing it would weigh this again.
            let silences = s.effects.iter().any(|e| matches!(&e.kind, EffectKind::Zone(z) if z.silence));
            s.components.contains(&crate::spell::model::Component::Verbal)
                && !silences
                && b.can_cast(j, k.spell, Metamagic::NONE).is_ok()
        })
        .flat_map(|k| side.iter().map(move |&a| (k.spell, a)))
        .map(|(s, a)| spell_on(b, j, a, s))
        .fold(0.0, f64::max);
    best * SILENCE_ROUNDS
}

/// The chance `i`'s spell `s` lands its attack roll on `j` (1 without
/// one): a melee touch through `i`'s spectral hand gains the hand's bonus
/// and loses any flanking (`hand_for`).
fn spell_hit_chance(b: &BattleState<'_>, i: usize, j: usize, s: &Spell) -> f64 {
    match s.attack.as_ref().map(|a| a.kind) {
        Some(AttackKind::MeleeTouch) => {
            let sit = b.touch_situation(i, j, true);
            let hand = b.hand_for(i, s).map_or(0, |h| h.bonus - b.flank_bonus(i, j));
            hit_chance(sit.attack + hand, sit.ac)
        }
        Some(_) => {
            let sit = b.touch_situation(i, j, false);
            hit_chance(sit.attack, sit.ac)
        }
        None => 1.0,
    }
}

/// What `i`'s melee touch spell `spell` is worth on foe `j` with `bonus`
/// more on the touch and no flanking (a spectral hand's delivery): the
/// chance it passes spell resistance and hits, times its worth there.
fn touch_worth(b: &BattleState<'_>, i: usize, j: usize, spell: u16, bonus: i32) -> f64 {
    let prepared = &b.prep.spells[usize::from(spell)];
    let s = &prepared.spell;
    if prepared.unplayable.is_some() || !(prepared.role.damage || prepared.role.control) || s.harmless {
        return 0.0;
    }
    if immune(b, i, j, spell) || !s.attack.as_ref().is_some_and(|a| a.kind == AttackKind::MeleeTouch) {
        return 0.0;
    }
    let Ok(cast) = b.casting(i, &Action::cast(spell, Some(j))) else { return 0.0 };
    let sit = b.touch_situation(i, j, true);
    let hit = hit_chance(sit.attack + bonus - b.flank_bonus(i, j), sit.ac);
    p_through(b, i, j, s) * hit * value_on(b, i, j, &cast, s, Metamagic::NONE)
}

/// The fewest enemies an area spell of this role must catch under the
/// `area_min` lever: one fewer for an area that only hinders (Glitterdust,
/// Web, Stinking Cloud), never under one. A table spends a Fireball on a
/// group, but blinds or holds the one brute who matters with the control
/// spell it prepared for that; the lever stays monotone (1: both on one
/// foe; 3: control on two, damage on three).
fn area_floor(area_min: u8, hinders_only: bool) -> u8 {
    if hinders_only { area_min.saturating_sub(1).max(1) } else { area_min.max(1) }
}

/// Whether `spell` makes an attack roll (a ray, a touch): what spends a True Strike.
fn makes_attack_roll(b: &BattleState<'_>, spell: u16) -> bool {
    b.prep.spells[usize::from(spell)].spell.attack.is_some()
}

/// Whether `s` deals hit point damage by any of its effects: its own, a
/// lasting area's (Cloudkill's each round) or a maneuver's (Black
/// Tentacles' grapple).
fn deals_damage(s: &Spell) -> bool {
    fn any(effects: &[SpellEffect]) -> bool {
        effects.iter().any(|e| match &e.kind {
            EffectKind::Damage(_) => true,
            EffectKind::Zone(z) => any(&z.on_appear) || any(&z.on_enter) || any(&z.each_round),
            EffectKind::Maneuver(mv) => any(&mv.effects),
            _ => false,
        })
    }
    any(&s.effects)
}

/// Whom `cast` of `s` (aimed at `t`) catches: for an area, the enemies in its
/// template when they are at least `area_min` and no ally is caught; else
/// its target when it reaches it and passes the spell's filter.
fn reach_of(b: &BattleState<'_>, i: usize, t: usize, s: &Spell, cast: &Cast, m: Magic) -> Reach {
    let mut cast = *cast;
    // Who it catches.
    let mut caught: Vec<usize> = Vec::new();
    let area = s.area.as_ref().filter(|_| s.target.is_none());
    if let Some(area) = area {
        if area.origin == Origin::Caster
            && !matches!(area.shape, crate::spell::model::Shape::Cone | crate::spell::model::Shape::Line)
        {
            cast.target = None;
        } else if area.origin == Origin::Point
            && !matches!(area.shape, crate::spell::model::Shape::Cone | crate::spell::model::Shape::Line)
        {
            // A burst, spread or lasting area aimed at a point: where the most foes cluster.
            cast.target = None;
            let (point, caught) = cluster_aim(b, i, t, s, area, &cast, m)?;
            return Some((None, Some(point), caught));
        } else if area.origin == Origin::Caster {
            // A cone or a line from the caster: turned to catch the most foes.
            let (point, caught) = shaped_aim(b, i, t, s, area, &cast, m)?;
            return Some((None, Some(point), caught));
        } else {
            cast.point = Some(b.pos(t));
            cast.target = None;
            if area.origin == Origin::Point {
                let r = b.spell_range(i, s, cast.cl).unwrap_or(u32::MAX);
                if crate::grid::distance_ft(b.pos(i), b.pos(t)) > r
                    || !b.prep.line_of_effect(b.pos(i), b.pos(t))
                {
                    return None;
                }
            }
        }
        let template = b.template(&cast, area)?;
        b.in_template(&cast, s, &template, &mut caught);
        let allies = caught.iter().filter(|&&j| !b.are_enemies(i, j)).count();
        let foes = caught.iter().filter(|&&j| b.are_enemies(i, j) && b.is_active(j)).count();
        if allies > 0 || foes < usize::from(m.area_min.max(1)) {
            return None;
        }
        caught.retain(|&j| b.are_enemies(i, j) && b.is_active(j));
    } else {
        if s.target.as_ref().is_some_and(|tg| tg.kind == TargetKind::Caster) || s.range == Range::Personal {
            return None;
        }
        if b.spell_reaches(i, t, s, cast.cl).is_err() || !b.passes(i, t, &s.target.as_ref()?.filter) {
            return None;
        }
        caught.push(t);
    }
    Some((cast.target, cast.point, caught))
}

/// Where to aim an area centred on a point (a burst, a spread, a lasting
/// area such as Black Tentacles) as a table would: among the squares of the
/// active enemies, the squares halfway between two of them (close
/// enough for one area to catch both) and, past an enemy who stands within
/// the radius of a friend, the squares one and two beyond it, within range and line of effect,
/// the point whose area catches the most active enemies not already in an
/// area of the same spell, at least `area_min`, and none of the caster's allies; ties go to the point that
/// catches the policy's target `t`, then to the one nearest `t`, then to
/// the first found (encounter order, deterministic). Returns the point and
/// the enemies caught.
fn cluster_aim(
    b: &BattleState<'_>,
    i: usize,
    t: usize,
    s: &Spell,
    area: &crate::spell::model::Area,
    cast: &Cast,
    m: Magic,
) -> Option<(crate::map::Pos, Vec<usize>)> {
    use crate::grid::distance_ft;
    let foes: Vec<usize> = (0..b.len()).filter(|&j| b.are_enemies(i, j) && b.is_active(j)).collect();
    let repeats =
        s.effects.iter().any(|e| matches!(&e.kind, EffectKind::Zone(z) if !z.each_round.is_empty()));
    let radius = match area.shape {
        crate::spell::model::Shape::Square => area.side_ft.unwrap_or(5) / 2,
        _ => area.radius_ft.as_ref().and_then(|r| r.fixed_at(cast.cl)).unwrap_or(0).max(0) as u32,
    };
    let mut points: Vec<crate::map::Pos> = foes.iter().map(|&j| b.pos(j)).collect();
    // A foe within the radius of a friend (the caster itself, beside the
    // brute it would blind): the points one and two squares beyond the foe,
    // away from the nearest such friend, where the area may still catch the
    // foe and spare the friend.
    for &x in &foes {
        let p = b.pos(x);
        let friend = (0..b.len())
            .filter(|&k| !b.are_enemies(i, k) && b.is_active(k) && distance_ft(b.pos(k), p) <= radius)
            .min_by_key(|&k| distance_ft(b.pos(k), p));
        if let Some(k) = friend {
            let q = b.pos(k);
            let (dr, dc) = ((p.row - q.row).signum(), (p.col - q.col).signum());
            if (dr, dc) != (0, 0) {
                points.extend((1..=2).map(|n| crate::map::Pos::new(p.row + n * dr, p.col + n * dc)));
            }
        }
    }
    for (k, &x) in foes.iter().enumerate() {
        for &y in &foes[k + 1..] {
            let (p, q) = (b.pos(x), b.pos(y));
            if distance_ft(p, q) <= 2 * radius {
                points
                    .push(crate::map::Pos::new((p.row + q.row).div_euclid(2), (p.col + q.col).div_euclid(2)));
            }
        }
    }
    let range = b.spell_range(i, s, cast.cl).unwrap_or(u32::MAX);
    let map = b.map();
    let usable = |p: crate::map::Pos| {
        map.in_bounds(p)
            && !map.blocks_los(p)
            && distance_ft(b.pos(i), p) <= range
            && b.prep.line_of_effect(b.pos(i), p)
    };
    best_aim_point(b, i, t, s, area, cast, m, points, usable, repeats)
}

/// Among `points` (repeats skipped) that `usable` accepts, the aim of
/// `cast` of `s` whose `area` catches the most active enemies of `i`, at
/// least `area_min`, and none of its allies, leaving out (when the area
/// `repeats` each round) the foes already in an area of the spell; ties go
/// to the point that catches `t`, then to the one nearest `t`, then to the
/// first. Returns the point and the enemies caught.
#[allow(clippy::too_many_arguments)]
fn best_aim_point(
    b: &BattleState<'_>,
    i: usize,
    t: usize,
    s: &Spell,
    area: &crate::spell::model::Area,
    cast: &Cast,
    m: Magic,
    points: Vec<crate::map::Pos>,
    usable: impl Fn(crate::map::Pos) -> bool,
    repeats: bool,
) -> Option<(crate::map::Pos, Vec<usize>)> {
    use crate::grid::distance_ft;
    let mut cast = *cast;
    cast.target = None;
    let mut caught: Vec<usize> = Vec::new();
    // (foes caught, catches t, −distance to t) and the point and the foes.
    type Rank = (usize, bool, i64);
    let mut best: Option<(Rank, crate::map::Pos, Vec<usize>)> = None;
    let mut seen: Vec<crate::map::Pos> = Vec::with_capacity(points.len());
    for p in points {
        if seen.contains(&p) {
            continue;
        }
        seen.push(p);
        if !usable(p) {
            continue;
        }
        cast.point = Some(p);
        let Some(template) = b.template(&cast, area) else { continue };
        b.in_template(&cast, s, &template, &mut caught);
        if caught.iter().any(|&j| !b.are_enemies(i, j)) {
            continue;
        }
        // Foes already in an area of this spell that meets them each round
        // (Stinking Cloud, Cloudkill) gain nothing from a second: areas of
        // one spell do not stack. A second Web still catches those who
        // saved against the first (its arrival asks a new save).
        caught.retain(|&j| b.is_active(j) && !(repeats && b.in_area_of(j, cast.spell)));
        if caught.len() < usize::from(m.area_min.max(1)) {
            continue;
        }
        let key = (caught.len(), caught.contains(&t), -i64::from(distance_ft(p, b.pos(t))));
        if best.as_ref().is_none_or(|(k, _, _)| key > *k) {
            best = Some((key, p, caught.clone()));
        }
    }
    best.map(|(_, p, c)| (p, c))
}

/// Where to turn a cone or a line shaped from the caster, as a table
/// would: toward the square of the active enemy whose aim catches the most
/// active enemies, at least `area_min`, and none of the caster's allies;
/// ties go to the aim that catches the policy's target `t`, then to the
/// aim nearest `t`, then to the first in encounter order (`t` is weighed
/// first). The breath weapon's choice (`monster::best_aim`) for a spell.
fn shaped_aim(
    b: &BattleState<'_>,
    i: usize,
    t: usize,
    s: &Spell,
    area: &crate::spell::model::Area,
    cast: &Cast,
    m: Magic,
) -> Option<(crate::map::Pos, Vec<usize>)> {
    let foes = (0..b.len()).filter(|&j| j != t && b.are_enemies(i, j) && b.is_active(j));
    let aims: Vec<crate::map::Pos> = std::iter::once(t).chain(foes).map(|j| b.pos(j)).collect();
    best_aim_point(b, i, t, s, area, cast, m, aims, |p| p != b.pos(i), false)
}

/// The worth of `s`'s effects on `j` once it lands: expected damage after
/// its save, plus each condition's worth (the creature's threat times how
/// much the condition takes away) times the chance of a failed save.
fn value_on(b: &BattleState<'_>, i: usize, j: usize, cast: &Cast, s: &Spell, mm: Metamagic) -> f64 {
    let ctype = b.prep.fighters[j].nature.ctype;
    // A creature that already cannot act is not worth a control spell.
    let out_of_fight = b.flags(j).has(Flags::CANT_ACT);
    // The same spell does not stack with itself (CRB "Combining Magic
    // Effects"): a target that still carries it gains nothing lasting from
    // it again (an Ill Omen not yet spent, a Bless in force).
    let carries = b.fighters[j].effects.iter().any(|e| e.effect.spell == Some(cast.spell));
    let threat = if out_of_fight || carries { 0.0 } else { threat_of(b, j) };
    let mut value = 0.0;
    // A lasting area is worth what it does when it appears and once more for its next round.
    let effects = s.effects.iter().flat_map(|e| {
        let (appear, each_round): (&[SpellEffect], &[SpellEffect]) = match &e.kind {
            EffectKind::Zone(z) => (&z.on_appear, &z.each_round),
            _ => (&[], &[]),
        };
        std::iter::once(e).chain(appear).chain(each_round)
    });
    // A spell's maneuver (Black Tentacles) is worth its effects times its chance.
    let mut weighed: Vec<(&SpellEffect, f64)> = Vec::new();
    for e in effects {
        match &e.kind {
            EffectKind::Maneuver(mv) => {
                let p = b.spell_maneuver_chance(j, mv, cast.cl);
                weighed.extend(mv.effects.iter().map(|c| (c, p)));
            }
            _ => weighed.push((e, 1.0)),
        }
    }
    for (e, weight) in weighed {
        if !b.passes(i, j, &e.only) {
            continue;
        }
        let (kind, outcome) = match &s.saving_throw {
            Some(st) => (
                e.save_kind.unwrap_or(st.kind),
                e.save.unwrap_or(match st.outcome {
                    SaveOutcome::Half => EffectSave::Half,
                    SaveOutcome::Partial => EffectSave::None,
                    _ => EffectSave::Negates,
                }),
            ),
            None => (SaveKind::Will, EffectSave::None),
        };
        let fail = if outcome == EffectSave::None { 1.0 } else { p_fail(b, j, kind, cast.dc) };
        let kept = weight
            * match outcome {
                EffectSave::Half => fail + (1.0 - fail) / 2.0,
                EffectSave::Negates => fail,
                EffectSave::None => 1.0,
            };
        match &e.kind {
            EffectKind::Damage(d) => {
                if d.heals_undead && ctype == Some(CreatureType::Undead) {
                    return 0.0;
                }
                let amount =
                    d.vs.iter()
                        .find(|v| ctype == Some(v.creature_type))
                        .and_then(|v| v.amount.as_ref())
                        .unwrap_or(&d.amount);
                let mut mean = amount.mean_at(cast.cl).max(0.0);
                if mm.has(Metamagic::MAXIMIZE) {
                    mean = f64::from(amount.bounds_at(cast.cl).1.max(0));
                }
                if mm.has(Metamagic::EMPOWER) {
                    mean *= 1.5;
                }
                let n = d.projectiles.as_ref().and_then(|p| p.fixed_at(cast.cl)).unwrap_or(1).max(1);
                let hp = f64::from((b.fighters[j].hp + b.fighters[j].temp_hp).max(1));
                value += (mean * f64::from(n) * kept).min(hp * 1.2);
            }
            EffectKind::Heal(h) if h.harms_undead && ctype == Some(CreatureType::Undead) => {
                value += h.amount.mean_at(cast.cl) * kept;
            }
            EffectKind::Condition(c) => {
                let immune = b.prep.fighters[j].defense.immune.conditions;
                let worth =
                    c.conditions
                        .iter()
                        .filter(|&&k| !immune.has(k))
                        .map(|&k| {
                            if k == ConditionId::Blinded && b.sees_without_eyes(j) {
                                0.3
                            } else {
                                severity(k)
                            }
                        })
                        .fold(0.0, f64::max);
                let already = c.conditions.iter().all(|&k| b.has_condition(j, k));
                if !already {
                    value += threat * worth * kept;
                }
            }
            EffectKind::Death(_) => value += f64::from(b.fighters[j].hp.max(1)) * kept,
            EffectKind::Compel(_) => value += threat * 2.0 * kept,
            EffectKind::NegativeLevels(_) | EffectKind::AbilityDamage(_) => value += threat * 0.5 * kept,
            EffectKind::Modifiers(mm) if mm.modifiers.iter().any(|x| x.value.bounds_at(cast.cl).1 < 0) => {
                value += threat * 0.3 * kept;
            }
            EffectKind::Choice(_) | EffectKind::ActionLoss(_) | EffectKind::Reroll(_) => {
                value += threat * 0.5 * kept
            }
            // Silence on a foe caster: the spells it could no longer cast.
            EffectKind::Zone(z) if z.silence => value += silence_worth(b, i, j) * kept,
            // Shrinking a foe (Reduce Person): the damage it loses over the next rounds.
            EffectKind::SizeChange(sc) if sc.steps < 0 && threat > 0.0 && b.size_steps(j) == 0 => {
                value += (-size_change_gain(b, j, sc.steps)).max(0.0) * SIZE_ROUNDS * kept;
            }
            _ => {}
        }
    }
    value
}

/// The best offensive option of `i` against `t` (metamagic variants included).
fn best_offense(b: &BattleState<'_>, i: usize, t: usize, m: Magic) -> Option<Option_> {
    let caster = b.prep.fighters[i].caster.as_deref()?;
    let mut best: Option<Option_> = None;
    let variants = [Metamagic::NONE, Metamagic::MAXIMIZE, Metamagic::EMPOWER];
    for k in &caster.known {
        let mut reach = None;
        for &mm in &variants {
            if !mm.is_empty() && !caster.metamagic.has(mm) {
                continue;
            }
            if !allowed(b, i, m, k.spell, mm) {
                continue;
            }
            if let Some(o) = score_offense(b, i, t, k.spell, mm, m, &mut reach) {
                // Prefer the cheaper slot on a tie.
                if best.is_none_or(|x| o.score > x.score + 1e-9) {
                    best = Some(o);
                }
            }
        }
    }
    best
}

/// The scroll of `i` worth reading at `t` now, and its worth: a scroll of
/// an offensive single-target spell (damage or a condition) that `i`
/// cannot cast from a slot now (none left, or a spell it does not know),
/// read from a square no foe threatens (reading provokes as casting does),
/// worth what the spell would be (`value_on`, the chance it lands) times
/// the chance the reading works (Use Magic Device or the caster level
/// check, `item_odds`).
fn best_scroll(b: &BattleState<'_>, i: usize, t: usize) -> Option<(u8, f64)> {
    let spec = &b.prep.fighters[i];
    if b.is_threatened(i) {
        return None;
    }
    let mut best: Option<(u8, f64)> = None;
    for (k, it) in spec.items.iter().enumerate() {
        let Ok(k) = u8::try_from(k) else { break };
        if it.kind != super::super::items::ItemKind::Scroll {
            continue;
        }
        let prepared = &b.prep.spells[usize::from(it.spell)];
        let s = &prepared.spell;
        let offensive = prepared.role.damage || prepared.role.control;
        if !offensive || prepared.unplayable.is_some() || s.harmless || s.area.is_some() || s.target.is_none()
        {
            continue;
        }
        if b.can_cast(i, it.spell, Metamagic::NONE).is_ok() || b.item_use(i, k, t).is_err() {
            continue;
        }
        if !s.target.as_ref().is_some_and(|tg| tg.kind != TargetKind::Caster && b.passes(i, t, &tg.filter)) {
            continue;
        }
        if immune(b, i, t, it.spell) {
            continue;
        }
        let cast = b.item_cast(i, k, t);
        let score = p_through(b, i, t, s)
            * spell_hit_chance(b, i, t, s)
            * value_on(b, i, t, &cast, s, Metamagic::NONE)
            * b.item_odds(i, k);
        if score > 0.0 && best.is_none_or(|(_, x)| score > x) {
            best = Some((k, score));
        }
    }
    best
}

/// A buff to cast, and where the caster first walks to touch its recipient.
#[derive(Clone, Copy, Debug)]
pub(super) struct Buff {
    pub(super) cast: Option_,
    pub(super) walk: Option<crate::map::Pos>,
    /// The scroll read for it, when it is not cast from a slot.
    pub(super) scroll: Option<u8>,
}

/// Whether `prepared` is a buff the policy hands out: a buff that neither
/// deals damage nor heals, and no growth (Enlarge Person is weighed by
/// `best_growth`).
fn is_buff(prepared: &PreparedSpell) -> bool {
    prepared.role.buff
        // A shield that strikes back is worth what the foes in melee lose
        // to it (`policy::strike_back`), nothing before they come.
        && !prepared.role.retaliation
        && !prepared.role.damage
        && !prepared.role.heal
        && growth_of(&prepared.spell).is_none()
        && super::true_strike::next_attack_bonus(&prepared.spell).is_none()
}

/// A buff not yet on its recipient: the highest spell level first (Bless
/// before Guidance: a table does not open on a cantrip when its 1st-level
/// buff waits), then the file's order; a single-target one goes to the
/// ally it helps most among those the caster touches from here or after
/// one move to a square no foe threatens (`policy::recipient`).
pub(super) fn best_buff(b: &BattleState<'_>, i: usize, m: Magic) -> Option<Buff> {
    let caster = b.prep.fighters[i].caster.as_deref()?;
    let mut known: Vec<&Known> = caster.known.iter().collect();
    known.sort_by_key(|k| std::cmp::Reverse(k.level));
    known
        .into_iter()
        .filter(|k| {
            is_buff(&b.prep.spells[usize::from(k.spell)]) && allowed(b, i, m, k.spell, Metamagic::NONE)
        })
        .find_map(|k| buff_for(b, i, k.spell, caster.cl, caster.extracts, None))
}

/// A scroll of a buff `i` reads when it would buff but has no slot for
/// one (`best_buff` found nothing): a single-target harmless buff it
/// cannot cast from a slot now, read from a square no foe threatens
/// (reading provokes), on the recipient `best_buff` would choose among
/// those the scroll reaches from here (taking it out is the turn's move
/// action: no walk); the highest spell level first, then the file's order,
/// and only a reading with a chance to work (`item_odds`).
fn scroll_buff(b: &BattleState<'_>, i: usize) -> Option<Buff> {
    if b.is_threatened(i) {
        return None;
    }
    let items = &b.prep.fighters[i].items;
    let mut scrolls: Vec<(u8, u8)> = (0..items.len())
        .filter_map(|k| {
            let it = &items[k];
            let prepared = &b.prep.spells[usize::from(it.spell)];
            let k = u8::try_from(k).ok()?;
            let readable = it.kind == super::super::items::ItemKind::Scroll
                && is_buff(prepared)
                && prepared.unplayable.is_none()
                && prepared.spell.harmless
                && prepared.spell.target.is_some()
                && b.can_cast(i, it.spell, Metamagic::NONE).is_err()
                && b.item_odds(i, k) > 0.0;
            readable.then(|| (k, prepared.spell.lowest_level().unwrap_or(1)))
        })
        .collect();
    scrolls.sort_by_key(|&(_, level)| std::cmp::Reverse(level));
    scrolls.into_iter().find_map(|(k, _)| {
        let it = &items[usize::from(k)];
        buff_for(b, i, it.spell, it.cl, false, Some(k))
    })
}

/// Where `i`'s buff `spell` (at caster level `cl`; `extracts`: an
/// alchemist's, which affects only its drinker; `scroll`: read from that
/// scroll) goes, if anywhere.
fn buff_for(
    b: &BattleState<'_>,
    i: usize,
    spell: u16,
    cl: u32,
    extracts: bool,
    scroll: Option<u8>,
) -> Option<Buff> {
    let s = &b.prep.spells[usize::from(spell)].spell;
    // A ward against energy when no foe deals any: nothing to gain.
    if super::recipient::guards_energy_only(s) && !super::recipient::foes_deal_energy(b, i) {
        return None;
    }
    // Under it already, or inside a globe that keeps it out: nothing to gain.
    let on = |j: usize| {
        b.fighters[j].effects.iter().any(|e| e.effect.spell == Some(spell)) || b.globe_shuts_out(i, j, spell)
    };
    // An alchemist's extract affects only its drinker (APG "Alchemy").
    let self_only = extracts
        || s.range == Range::Personal
        || s.target.as_ref().is_some_and(|t| t.kind == TargetKind::Caster);
    if s.target.is_none() {
        // An area buff (Bless): worth it when it reaches two allies not yet under it.
        let allies = (0..b.len())
            .filter(|&j| !b.are_enemies(i, j) && b.is_active(j) && !on(j) && b.distance(i, j) <= 50)
            .count();
        if allies >= 2 && scroll.is_none() {
            let cast = Option_ { spell, target: None, point: None, metamagic: Metamagic::NONE, score: 1.0 };
            return Some(Buff { cast, walk: None, scroll });
        }
        return None;
    }
    let recipients: Vec<usize> = if self_only {
        vec![i]
    } else {
        (0..b.len()).filter(|&j| !b.are_enemies(i, j) && b.is_active(j)).collect()
    };
    // Who it helps most (`policy::recipient`): the one who fights, the
    // caster first only on a tie, then the nearest.
    let aim = super::recipient::aim_of(s);
    let mut ranked: Vec<(f64, usize)> = recipients
        .into_iter()
        .filter(|&j| !on(j) && s.target.as_ref().is_none_or(|tg| b.passes(i, j, &tg.filter)))
        .map(|j| (if self_only { 0.0 } else { super::recipient::worth_to(b, j, aim) }, j))
        .collect();
    ranked.sort_by(|x, y| {
        y.0.total_cmp(&x.0)
            .then_with(|| (x.1 != i, b.distance(i, x.1), x.1).cmp(&(y.1 != i, b.distance(i, y.1), y.1)))
    });
    // A touch buff may be carried to an ally one safe move away, when
    // that ally is worth more than every one touched from here (not a
    // scroll's: taking it out is the move action).
    let mut walked = scroll.is_some();
    for (_, j) in ranked {
        let cast = Option_ { spell, target: Some(j), point: None, metamagic: Metamagic::NONE, score: 1.0 };
        let reaches = match scroll {
            Some(k) => b.item_use(i, k, j).is_ok(),
            None => j == i || b.spell_reaches(i, j, s, cl).is_ok(),
        };
        if reaches {
            return Some(Buff { cast, walk: None, scroll });
        }
        if walked || s.range != Range::Touch || b.is_threatened(i) {
            continue;
        }
        walked = true;
        if let Some((q, None)) = heal::approach(b, i, j)
            && !b.threatened_at(i, q)
        {
            return Some(Buff { cast, walk: Some(q), scroll });
        }
    }
    None
}

/// Rounds over which the policy counts a size change's worth (a fight
/// rarely lasts longer than the 1 minute per level the spells last).
const SIZE_ROUNDS: f64 = 3.0;

/// Rounds of spells a silenced foe caster is counted to lose (the silence
/// moves with it; the fight rarely lasts longer, and the Will save that
/// could negate it is weighed apart).
const SILENCE_ROUNDS: f64 = 2.0;

/// The categories a spell makes its target grow (Enlarge Person), if it does.
pub(super) fn growth_of(s: &Spell) -> Option<i8> {
    s.effects.iter().find_map(|e| match &e.kind {
        EffectKind::SizeChange(sc) if sc.steps > 0 => Some(sc.steps),
        _ => None,
    })
}

/// How much more melee damage per round `j` deals once `steps` categories
/// larger (negative: smaller) than its own size, against the AC of its
/// nearest enemy: its best melee attack's weapon dice (`damage::resized_dice`),
/// the Strength change of the ±2 size bonus on damage (×1.5 two-handed, ×½
/// secondary), and the attack roll's change (size modifier and Strength), on
/// every attack of a full attack. 0 without a melee attack or an enemy.
pub(crate) fn size_change_gain(b: &BattleState<'_>, j: usize, steps: i8) -> f64 {
    let spec = &b.prep.fighters[j];
    let Some(foe) = (0..b.len())
        .filter(|&e| b.are_enemies(j, e) && b.is_active(e))
        .min_by_key(|&e| (b.distance(j, e), e))
    else {
        return 0.0;
    };
    let ac = b.prep.fighters[foe].defense.ac.total;
    let attacks = &spec.offense.attacks;
    let Some(w) = (0..attacks.len())
        .filter(|&w| attacks[w].melee && attacks[w].weapon_damage && b.is_usable(j, w))
        .max_by(|&x, &y| {
            let v = |w: usize| attacks[w].mean_damage * f64::from(attacks[w].count);
            v(x).total_cmp(&v(y))
        })
    else {
        return 0.0;
    };
    let atk = &attacks[w];
    let own = spec.nature.size;
    let str_score = spec.scores.str_score;
    let str_change = crate::dice::ability_modifier(str_score + 2 * i32::from(steps.signum()))
        - crate::dice::ability_modifier(str_score);
    let damage_change = f64::from(str_change)
        * if atk.two_handed {
            1.5
        } else if atk.secondary {
            0.5
        } else {
            1.0
        };
    let mean = |(count, sides): (u32, u32)| f64::from(count) * f64::from(sides + 1) / 2.0;
    let dice_change = atk
        .bonus_component
        .and_then(|k| atk.components[k].dice.first_dice())
        .map_or(0.0, |d| mean(super::super::damage::resized_dice(d, own, steps)) - mean(d));
    let attack_change = own.shifted(i32::from(steps)).modifier() - own.modifier() + str_change;
    let before = hit_chance(atk.bonus, ac) * atk.mean_damage;
    let after = hit_chance(atk.bonus + attack_change, ac) * (atk.mean_damage + dice_change + damage_change);
    let iters = if atk.iterates { super::super::odds::iterations(spec.offense.bab).max(1) } else { 1 };
    (after - before) * f64::from(atk.count) * f64::from(iters)
}

/// The best ally for `i` to grow with a spell (Enlarge Person): an active
/// ally in range (the caster itself only when it fights in melee: a base
/// attack bonus of at least ¾ of its Hit Dice), of its own size, with room to grow, that deals more melee
/// damage once larger; scored by that gain over `SIZE_ROUNDS` rounds.
fn best_growth(b: &BattleState<'_>, i: usize, m: Magic) -> Option<Option_> {
    let caster = b.prep.fighters[i].caster.as_deref()?;
    let mut best: Option<Option_> = None;
    for k in &caster.known {
        let s = &b.prep.spells[usize::from(k.spell)].spell;
        let Some(steps) = growth_of(s) else { continue };
        if !allowed(b, i, m, k.spell, Metamagic::NONE) {
            continue;
        }
        let spec = &b.prep.fighters[i];
        let fighter = 4 * spec.offense.bab >= 3 * spec.nature.hd as i32;
        for j in (0..b.len()).filter(|&j| (j != i || fighter) && !b.are_enemies(i, j) && b.is_active(j)) {
            let on = b.fighters[j].effects.iter().any(|e| e.effect.spell == Some(k.spell));
            if on
                || b.size_steps(j) != 0
                || b.room_for(j, b.size(j).shifted(i32::from(steps))).is_none()
                || (j != i && b.spell_reaches(i, j, s, caster.cl).is_err())
                || b.globe_shuts_out(i, j, k.spell)
                || !s.target.as_ref().is_none_or(|tg| b.passes(i, j, &tg.filter))
            {
                continue;
            }
            let score = size_change_gain(b, j, steps) * SIZE_ROUNDS;
            if score > 0.0 && best.is_none_or(|x| score > x.score) {
                best = Some(Option_ {
                    spell: k.spell,
                    target: Some(j),
                    point: None,
                    metamagic: Metamagic::NONE,
                    score,
                });
            }
        }
    }
    best
}
