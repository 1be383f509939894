//! What a combatant carries from one battle of an adventuring day into the
//! next (`docs/days.md`), and what its party does with it between battles:
//! first aid after a fight, healing during a short rest, a night's rest.
//!
//! Between battles nobody stands on a square and no round is counted, so
//! these procedures work on [`Carried`] states and the party's statistics
//! ([`PreparedEncounter`]) rather than on a battle: positions do not matter
//! to a cleric who has ten minutes to touch everyone.

use serde::{Deserialize, Serialize};

use crate::dice::ability_modifier;
use crate::effects::ConditionId;
use crate::model::Combatant;
use crate::rng::Dice;
use crate::spell::effect::EffectKind;
use crate::spell::model::{Range, TargetKind};

use super::abilities::Pools;

/// Hit points lost per negative level (UMR "Energy Drain"): kept with the
/// state a day carries, which caps healing by it.
pub(crate) const HP_PER_NEGATIVE_LEVEL: u32 = 5;
use super::items::{ItemKind, PreparedItem};
use super::prepared::PreparedEncounter;

/// Rounds in a minute (CRB "Duration": a round is 6 seconds).
pub const ROUNDS_PER_MINUTE: u32 = 10;
/// Rounds a short rest lasts (`docs/days.md`: ten minutes).
pub const SHORT_REST_ROUNDS: u32 = 10 * ROUNDS_PER_MINUTE;
/// Rounds a night's rest lasts (CRB "Natural Healing": 8 hours).
pub const LONG_REST_ROUNDS: u32 = 8 * 60 * ROUNDS_PER_MINUTE;

/// An effect a combatant carries out of a battle into the next one of its
/// day (`docs/days.md`): a spell of minutes or hours, a condition that
/// lasts, with the rounds it has left.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CarriedEffect {
    /// The effect, its spell index and source left behind with the battle
    /// (a carried effect counts its rounds on its bearer's turns).
    pub effect: crate::effects::Effect,
    /// The spell it comes from, by name: found again among the next
    /// encounter's spells (dispelling and the same-spell rule need it).
    pub spell: Option<std::sync::Arc<str>>,
    /// Rounds left (`None`: until something removes it, a curse, a
    /// blindness, a fatigue only rest ends).
    pub rounds: Option<u32>,
}

impl CarriedEffect {
    /// `rounds` pass; whether it still lasts.
    fn pass(&mut self, rounds: u32) -> bool {
        match &mut self.rounds {
            Some(n) if *n > rounds => {
                *n -= rounds;
                true
            }
            Some(_) => false,
            None => true,
        }
    }
}

/// The state of a combatant that outlasts a battle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Carried {
    /// Hit points (below 0: unconscious, dying unless `stable`).
    pub hp: i32,
    /// Nonlethal damage.
    pub nonlethal: i32,
    /// Dead: it stays dead for the rest of the day.
    pub dead: bool,
    /// Below 0 hit points and no longer losing them.
    pub stable: bool,
    /// Spells left per spell level (level 0, cantrips, is never spent).
    pub slots: [u8; 10],
    /// A prepared caster's copies left, one per entry of its prepared list.
    pub prepared_left: Vec<u8>,
    /// Of `slots`, the domain slots left per level.
    pub domain_left: [u8; 10],
    /// Class ability pools left.
    pub pools: Pools,
    /// Shots fired with each attack whose ammunition is counted (index:
    /// attack); none is recovered between fights.
    pub shots: Vec<u16>,
    /// Uses left of each wand and potion (`combat::items`); never restored.
    pub items_left: Vec<u32>,
    /// Negative levels (UMR "Energy Drain"): a night's rest removes none
    /// (a temporary one gets its save only 24 hours after it was gained).
    pub negative_levels: u32,
    /// Ability damage to Strength, Dexterity, Constitution, Intelligence,
    /// Wisdom and Charisma: a night's rest heals 1 point of each.
    pub ability_damage: [i32; 6],
    /// Effects that outlast the battle they began in, with their rounds left.
    pub effects: Vec<CarriedEffect>,
}

impl Carried {
    /// `rounds` rounds pass between battles: carried effects count them
    /// down, and those used up end.
    pub fn pass(&mut self, rounds: u32) {
        let mut lost = 0;
        self.effects.retain_mut(|e| {
            let lasts = e.pass(rounds);
            if !lasts {
                lost += e.effect.hp_bonus as i32;
            }
            lasts
        });
        // A temporary Constitution bonus that ends takes its hit points with
        // it (CRB "Ability Score Bonuses"); the next battle finds the bearer
        // dead when that leaves it at minus its Constitution score.
        if lost > 0 && !self.dead {
            self.hp -= lost;
        }
    }

    /// Combatant `i` of `prep` as it enters its first battle of the day: at its
    /// starting hit points, with all its spells and pools.
    pub fn fresh(prep: &PreparedEncounter, i: usize) -> Self {
        let f = &prep.fighters[i];
        Carried {
            hp: f.start_hp,
            nonlethal: 0,
            dead: false,
            stable: false,
            slots: f.caster.as_ref().map_or([0; 10], |c| c.slots),
            prepared_left: f
                .caster
                .as_ref()
                .map_or_else(Vec::new, |c| c.prepared.iter().map(|p| p.count).collect()),
            domain_left: f.caster.as_ref().map_or([0; 10], |c| c.domain),
            pools: f.pools,
            shots: Vec::new(),
            items_left: f.items.iter().map(|x| x.uses).collect(),
            negative_levels: 0,
            ability_damage: [0; 6],
            effects: Vec::new(),
        }
    }

    /// The most hit points it can heal to: its maximum, less 5 per negative
    /// level (UMR "Energy Drain") and the hit points its Constitution damage
    /// takes (its lower Constitution modifier times its Hit Dice).
    pub(crate) fn hp_cap(&self, f: &super::prepared::FighterSpec) -> i32 {
        let drained = HP_PER_NEGATIVE_LEVEL as i32 * self.negative_levels as i32;
        let con = f.scores.con_score.map_or(0, |score| {
            let left = (score - self.ability_damage[2]).max(0);
            (crate::dice::ability_modifier(score) - crate::dice::ability_modifier(left))
                * f.nature.hd.max(1) as i32
        });
        // A temporary Constitution bonus still working raises the maximum.
        let bonus: u32 = self.effects.iter().map(|e| e.effect.hp_bonus).sum();
        f.hp_max - drained - con + bonus as i32
    }

    /// Below 0 hit points, alive and not stable: it loses a hit point a round.
    pub fn dying(&self) -> bool {
        !self.dead && self.hp < 0 && !self.stable
    }

    /// Spell slots left, levels 1 to 9.
    pub fn slots_left(&self) -> u32 {
        self.slots.iter().skip(1).map(|&s| u32::from(s)).sum()
    }

    /// Uses left in its class ability pools (unlimited hexes count 0).
    pub fn uses_left(&self) -> u32 {
        self.pools.counted().iter().map(|&u| u32::from(u)).sum()
    }

    /// Heals `amount` hit points (capped at `hp_max`); nonlethal damage heals
    /// as much (CRB "Nonlethal Damage": healing cures both). Returns the hit
    /// points restored.
    fn heal(&mut self, amount: i32, hp_max: i32) -> i32 {
        if self.dead || amount <= 0 {
            return 0;
        }
        let before = self.hp;
        self.hp = (self.hp + amount).min(hp_max.max(before));
        if self.hp >= 0 {
            self.stable = false;
        }
        self.nonlethal = (self.nonlethal - amount).max(0);
        self.hp - before
    }
}

/// What the party spends during a short rest.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RestSpending {
    /// Channels, then cure spells, as long as someone is hurt enough.
    #[default]
    All,
    /// Channels only: every spell slot is saved for the next fights.
    Channels,
    /// Nothing: only first aid.
    Nothing,
}

/// What happened between two battles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tending {
    /// Hit points restored.
    pub healed: u32,
    /// Spell slots spent on healing.
    pub slots_spent: u32,
    /// Channels spent on healing.
    pub channels_spent: u32,
    /// Wand charges spent on healing.
    #[serde(default)]
    pub charges_spent: u32,
    /// Dying members who were stabilized.
    pub stabilized: u32,
    /// Dying members who died before anyone could help them.
    pub died: u32,
}

/// The DC of a Heal check to give first aid (CRB "Heal": first aid, DC 15).
pub const FIRST_AID_DC: i32 = 15;

/// Rounds of first aid before the party gives up on a dying member: at one
/// check a round by the best healer, the chance it never succeeds in this
/// many rounds is negligible for a healer with a bonus of +0 or more.
const FIRST_AID_ROUNDS: u32 = 60;

/// The Heal bonus of `c`: the sheet's bonus when it gives one, else ranks,
/// +3 for a trained class skill, and the Wisdom modifier.
pub fn heal_bonus(c: &Combatant) -> i32 {
    let wis = ability_modifier(c.abilities.wis_score);
    match c.skills.get("Heal").or_else(|| c.skills.get("heal")) {
        Some(s) => s.bonus.unwrap_or(s.rank + if s.class_skill && s.rank > 0 { 3 } else { 0 } + wis),
        None => wis,
    }
}

/// The party between battles: its members (combatant indices in `prep`,
/// where their statistics are) and their files (for skills).
pub struct Party<'a> {
    /// An encounter the party fights in (its statistics and spells).
    pub prep: &'a PreparedEncounter,
    /// Combatant index in `prep` of each member.
    pub members: &'a [usize],
    /// The file of each member.
    pub files: &'a [&'a Combatant],
}

impl Party<'_> {
    /// The most hit points member `m`, as it is in `states`, heals to.
    fn hp_max_of(&self, m: usize, state: &Carried) -> i32 {
        state.hp_cap(&self.prep.fighters[self.members[m]])
    }

    /// A cure `m` can cast out of battle with a slot left: (spell level, mean
    /// hit points restored, the spell), the lowest level first.
    fn cures(&self, m: usize, state: &Carried) -> Vec<(u8, f64, u16)> {
        let Some(caster) = self.prep.fighters[self.members[m]].caster.as_deref() else {
            return Vec::new();
        };
        // An alchemist's healing extracts heal only the alchemist, and are
        // kept for the battles (`docs/rules/class-abilities.md`, §16).
        if caster.extracts {
            return Vec::new();
        }
        let mut out: Vec<(u8, f64, u16)> = caster
            .known
            .iter()
            .filter(|k| k.level > 0 && state.slots[usize::from(k.level)] > 0)
            .filter(|k| {
                let copy = self.copy_for(m, state, k.spell, k.level);
                let level = usize::from(k.level);
                (copy.is_some() || !caster.is_prepared())
                    && (caster.takes_domain_slot(k.spell, k.level, copy, &state.domain_left)
                        || state.slots[level] > state.domain_left[level])
            })
            .filter_map(|k| {
                let p = &self.prep.spells[usize::from(k.spell)];
                let on_others = p.spell.range != Range::Personal
                    && p.spell.target.as_ref().is_some_and(|t| t.kind != TargetKind::Caster);
                if !p.role.heal || p.role.damage || p.unplayable.is_some() || !on_others {
                    return None;
                }
                let mean: f64 = p
                    .spell
                    .effects
                    .iter()
                    .filter_map(|e| match &e.kind {
                        EffectKind::Heal(h) => Some(h.amount.mean_at(caster.cl)),
                        _ => None,
                    })
                    .sum();
                Some((k.level, mean, k.spell))
            })
            .collect();
        out.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
        out
    }

    /// The prepared copy member `m` gives for a cure `spell` of `level`: its
    /// own copy, or for a spontaneous cure a copy of the same level, one that
    /// does not heal and the last of the list first (as in battle). `None`
    /// for a spontaneous caster, or when nothing is left.
    fn copy_for(&self, m: usize, state: &Carried, spell: u16, level: u8) -> Option<usize> {
        let caster = self.prep.fighters[self.members[m]].caster.as_deref()?;
        if !caster.is_prepared() {
            return None;
        }
        let left = |p: usize| state.prepared_left.get(p).copied().unwrap_or(0) > 0;
        if let Some(p) = caster.copy_to_cast(spell, super::spells::Metamagic::NONE, &state.prepared_left) {
            return Some(p);
        }
        if !caster.known(spell).is_some_and(|k| k.spontaneous) {
            return None;
        }
        let at_level =
            |p: &usize| caster.prepared[*p].slot == level && left(*p) && !caster.prepared[*p].domain;
        let heals = |p: usize| self.prep.spells[usize::from(caster.prepared[p].spell)].role.heal;
        let mut candidates = (0..caster.prepared.len()).rev().filter(at_level);
        candidates.clone().find(|&p| !heals(p)).or_else(|| candidates.next())
    }

    /// Spends member `m`'s slot (and prepared copy) for a cure of `level`.
    fn spend_cure(&self, m: usize, state: &mut Carried, spell: u16, level: u8) {
        let copy = self.copy_for(m, state, spell, level);
        if let Some(p) = copy {
            state.prepared_left[p] -= 1;
        }
        let caster = self.prep.fighters[self.members[m]].caster.as_deref();
        if caster.is_some_and(|c| c.takes_domain_slot(spell, level, copy, &state.domain_left)) {
            state.domain_left[usize::from(level)] -= 1;
        }
        state.slots[usize::from(level)] -= 1;
    }

    /// Rolls spell `spell` of member `m`'s healing (its caster level).
    fn roll_cure(&self, m: usize, spell: u16, rng: &mut impl Dice) -> i32 {
        let cl = self.prep.fighters[self.members[m]].caster.as_deref().map_or(1, |c| c.cl);
        self.prep.spells[usize::from(spell)]
            .spell
            .effects
            .iter()
            .filter_map(|e| match &e.kind {
                EffectKind::Heal(h) => Some(h.amount.roll(cl, rng)),
                _ => None,
            })
            .sum()
    }

    /// The healing effects of `item`'s spell.
    fn item_heals<'s>(&'s self, item: &PreparedItem) -> impl Iterator<Item = &'s crate::spell::Scaled> + 's {
        self.prep.spells[usize::from(item.spell)].spell.effects.iter().filter_map(|e| match &e.kind {
            EffectKind::Heal(h) => Some(&h.amount),
            _ => None,
        })
    }

    /// The mean healing of one use of `item` (at its caster level).
    fn item_mean(&self, item: &PreparedItem) -> f64 {
        let cl = item.cl;
        self.item_heals(item).map(|a| a.mean_at(cl)).sum()
    }

    /// Rolls the healing of one use of `item`.
    fn roll_item(&self, item: &PreparedItem, rng: &mut impl Dice) -> i32 {
        let cl = item.cl;
        self.item_heals(item).map(|a| a.roll(cl, rng)).sum()
    }

    /// Member `m`'s positive channel, as dice of d6. A paladin's (paid
    /// with lay on hands) is not spent between battles: the rests spend no
    /// lay on hands either.
    fn channel_dice(&self, m: usize) -> Option<u32> {
        let a = self.prep.fighters[self.members[m]].abilities.as_deref()?;
        a.channel.filter(|c| c.positive && !c.from_hands).map(|c| c.dice)
    }

    /// Whether member `m` can act between battles (alive and conscious).
    fn can_help(state: &Carried) -> bool {
        !state.dead && state.hp > 0 && state.nonlethal < state.hp
    }

    /// The member who needs healing most: dying first, then the smallest
    /// fraction of hit points; `None` when nobody misses at least `min` hit points.
    fn patient(&self, states: &[Carried], min: f64) -> Option<usize> {
        (0..states.len())
            .filter(|&m| !states[m].dead)
            .filter(|&m| f64::from(self.hp_max_of(m, &states[m]) - states[m].hp) >= min || states[m].hp < 0)
            .min_by_key(|&m| {
                (
                    !states[m].dying(),
                    i64::from(states[m].hp) * 1000 / i64::from(self.hp_max_of(m, &states[m]).max(1)),
                    m,
                )
            })
    }

    /// Right after a won battle: the dying are stabilized. A member with a
    /// cure cures the dying (it ends the bleeding: CRB "Injury and Death");
    /// one knowing Stabilize casts it; otherwise the best healer gives first
    /// aid (Heal DC 15) once a round while each dying member makes its own
    /// Constitution check (DC 10, minus its negative hit points) or loses a
    /// hit point, and dies at minus its Constitution score.
    pub fn first_aid(&self, states: &mut [Carried], rng: &mut impl Dice) -> Tending {
        let mut out = Tending::default();
        if !states.iter().any(Carried::dying) {
            return out;
        }
        // Cures first: a healer who can close the wound does.
        while let Some(p) = (0..states.len()).find(|&m| states[m].dying()) {
            let Some((healer, spell, level)) = (0..states.len())
                .filter(|&h| Self::can_help(&states[h]))
                .find_map(|h| self.cures(h, &states[h]).first().map(|&(level, _, spell)| (h, spell, level)))
            else {
                break;
            };
            self.spend_cure(healer, &mut states[healer], spell, level);
            out.slots_spent += 1;
            let amount = self.roll_cure(healer, spell, rng);
            out.healed += states[p].heal(amount, self.hp_max_of(p, &states[p])).max(0) as u32;
            if states[p].hp < 0 {
                states[p].stable = true;
            }
            out.stabilized += 1;
        }
        let helpers: Vec<usize> = (0..states.len()).filter(|&h| Self::can_help(&states[h])).collect();
        let knows_stabilize = helpers.iter().any(|&h| {
            self.prep.fighters[self.members[h]].caster.as_deref().is_some_and(|c| {
                c.known.iter().any(|k| k.level == 0 && self.prep.spells[usize::from(k.spell)].role.stabilize)
            })
        });
        let best_heal = helpers.iter().map(|&h| heal_bonus(self.files[h])).max();
        for (m, state) in states.iter_mut().enumerate() {
            if !state.dying() {
                continue;
            }
            if knows_stabilize {
                state.stable = true;
                out.stabilized += 1;
                continue;
            }
            let con = self.prep.fighters[self.members[m]].scores.con_score.unwrap_or(10);
            let con_mod = ability_modifier(con);
            for _ in 0..FIRST_AID_ROUNDS {
                if let Some(bonus) = best_heal
                    && rng.roll(20) as i32 + bonus >= FIRST_AID_DC
                {
                    state.stable = true;
                    out.stabilized += 1;
                    break;
                }
                if rng.roll(20) as i32 + con_mod + state.hp >= 10 {
                    state.stable = true;
                    out.stabilized += 1;
                    break;
                }
                state.hp -= 1;
                if state.hp <= -con {
                    state.dead = true;
                    out.died += 1;
                    break;
                }
            }
        }
        out
    }

    /// A short rest (minutes): nothing recovers by itself in PF1e, so the
    /// party heals what it chooses to spend (`docs/days.md`). Channels first,
    /// while at least two members each miss the channel's mean healing; then
    /// cure spells, the lowest level first, on the member who needs it most,
    /// while someone misses at least the cure's mean healing.
    pub fn short_rest(&self, states: &mut [Carried], spending: RestSpending, rng: &mut impl Dice) -> Tending {
        let out = self.tend(states, spending, rng);
        // Ten minutes pass (`SHORT_REST_ROUNDS`): the effects they use up end.
        for s in states.iter_mut() {
            s.pass(SHORT_REST_ROUNDS);
        }
        out
    }

    /// The healing of a short rest ([`Party::short_rest`]).
    fn tend(&self, states: &mut [Carried], spending: RestSpending, rng: &mut impl Dice) -> Tending {
        let mut out = self.first_aid(states, rng);
        if spending == RestSpending::Nothing {
            return out;
        }
        // A healing wand first: a charge is the cheapest hit point a party has,
        // and a table tops everyone up with it before touching a spell.
        for h in 0..states.len() {
            for (w, item) in self.prep.fighters[self.members[h]].items.iter().enumerate() {
                // Use Magic Device cannot take 10 or 20: between battles only a
                // member whose list has the spell uses a wand.
                if item.kind != ItemKind::Wand || !item.usable || item.umd.is_some() {
                    continue;
                }
                let mean = self.item_mean(item);
                if mean <= 0.0 {
                    continue;
                }
                while Self::can_help(&states[h]) && states[h].items_left.get(w).is_some_and(|&c| c > 0) {
                    let Some(p) = self.patient(states, mean) else { break };
                    states[h].items_left[w] -= 1;
                    out.charges_spent += 1;
                    let amount = self.roll_item(item, rng);
                    out.healed += states[p].heal(amount, self.hp_max_of(p, &states[p])).max(0) as u32;
                }
            }
        }
        for h in 0..states.len() {
            let Some(dice) = self.channel_dice(h) else { continue };
            let mean = 3.5 * f64::from(dice);
            while Self::can_help(&states[h]) && states[h].pools.channel_energy > 0 {
                let wounded = (0..states.len())
                    .filter(|&m| {
                        !states[m].dead && f64::from(self.hp_max_of(m, &states[m]) - states[m].hp) >= mean
                    })
                    .count();
                if wounded < 2 {
                    break;
                }
                states[h].pools.channel_energy -= 1;
                out.channels_spent += 1;
                let amount: i32 = (0..dice).map(|_| rng.roll(6) as i32).sum();
                for (m, state) in states.iter_mut().enumerate() {
                    let cap = self.hp_max_of(m, state);
                    out.healed += state.heal(amount, cap).max(0) as u32;
                }
            }
        }
        if spending == RestSpending::Channels {
            return out;
        }
        for h in 0..states.len() {
            loop {
                if !Self::can_help(&states[h]) {
                    break;
                }
                let Some(&(level, mean, spell)) = self.cures(h, &states[h]).first() else { break };
                let Some(p) = self.patient(states, mean) else { break };
                self.spend_cure(h, &mut states[h], spell, level);
                out.slots_spent += 1;
                let amount = self.roll_cure(h, spell, rng);
                out.healed += states[p].heal(amount, self.hp_max_of(p, &states[p])).max(0) as u32;
            }
        }
        out
    }

    /// A night's rest (8 hours, CRB "Natural Healing" and "Preparing
    /// Spells"): 1 hit point per character level, nonlethal damage at 1 per
    /// hour per level, every spell and daily pool back. The dead stay dead.
    pub fn long_rest(&self, states: &mut [Carried]) {
        for (m, state) in states.iter_mut().enumerate() {
            state.pass(LONG_REST_ROUNDS);
            if state.dead {
                continue;
            }
            // CRB "Fatigued", "Exhausted": 8 hours of complete rest end
            // fatigue; an hour turns exhaustion into fatigue (which the
            // seven hours left do not end).
            state.effects.retain_mut(|e| {
                if e.rounds.is_some() {
                    return true;
                }
                let c = e.effect.conditions;
                if c.has(ConditionId::Exhausted) {
                    e.effect.conditions = c.without(ConditionId::Exhausted).with(ConditionId::Fatigued);
                    return true;
                }
                !(c.has(ConditionId::Fatigued) && e.effect.mods.is_empty() && e.effect.behaviours.is_empty())
            });
            let level = self.files[m].level.max(1) as i32;
            let spec = &self.prep.fighters[self.members[m]];
            // CRB "Natural Healing": 1 point of each damaged ability a night.
            for d in &mut state.ability_damage {
                *d = (*d - 1).max(0);
            }
            state.hp = (state.hp + level).min(state.hp_cap(spec).max(state.hp));
            state.nonlethal = (state.nonlethal - 8 * level).max(0);
            if state.hp >= 0 {
                state.stable = false;
            }
            let fresh = Carried::fresh(self.prep, self.members[m]);
            state.slots = fresh.slots;
            state.prepared_left = fresh.prepared_left;
            state.domain_left = fresh.domain_left;
            state.pools = fresh.pools;
        }
    }
}
