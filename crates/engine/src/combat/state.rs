//! The mutable state of one battle and its read-only queries for policies.

use crate::effects::conditions::Summary;
use crate::effects::{ActiveEffect, ConditionId, ConditionSet};
use crate::grid::{footprint, footprint_distance_ft, natural_reach_ft, space_squares};
use crate::map::{Map, Pos};
use crate::model::Size;

use super::action::ActionResult;
use super::carry::Carried;
use super::prepared::PreparedEncounter;
use super::spells::Outlasts;
use super::{CombatantOutcome, SimOptions};
use crate::effects::Behaviour;
use std::sync::Arc;

mod fighter;
pub(crate) use fighter::{CastingState, ClassState, Fighter, GearState, Mobility, RunState, TurnState};

/// Damage a weapon takes from sunder attempts before it breaks (seed
/// `_WEAPON_DURABILITY`: a sunder deals Strength modifier + 2).
pub(crate) const WEAPON_DURABILITY: u8 = 10;

/// Marks an empty square in the occupancy grid.
pub(crate) const EMPTY: u16 = u16::MAX;

/// Where a combatant stands between life and death (CRB "Injury and Death").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LifeState {
    /// Above 0 hit points.
    Fighting,
    /// Exactly 0 hit points: staggered, acts at a cost; also a creature
    /// with ferocity below 0 (staggered, losing 1 hit point a round).
    Disabled,
    /// Below 0, unconscious, loses 1 hit point per failed Constitution check.
    Dying,
    /// Below 0, unconscious, no longer losing hit points.
    Stable,
    /// Dead or destroyed.
    Dead,
}

/// A battle in progress: what policies see.
#[derive(Debug)]
pub struct BattleState<'p> {
    pub(crate) prep: &'p PreparedEncounter,
    pub(crate) options: SimOptions,
    pub(crate) fighters: Vec<Fighter>,
    /// Combatant standing on each square (row-major), `EMPTY` if none. Dead
    /// combatants are removed; dying ones stay (they can be passed, not ended on).
    pub(crate) occ: Vec<u16>,
    /// The same for Tiny and smaller creatures, which may share a square with
    /// a larger one (CRB "Big and Little Creatures in Combat").
    pub(crate) occ_small: Vec<u16>,
    pub(crate) round: u32,
    /// Initiative order (combatant indices).
    pub(crate) order: Vec<usize>,
    /// `move_aoo[attacker * n + mover]`: round in which the attacker last made
    /// an attack of opportunity against the mover's movement.
    pub(crate) move_aoo: Vec<u32>,
    pub(crate) last_results: Vec<Vec<ActionResult>>,
    /// Space side and "Tiny or smaller" of each combatant, kept compact for the hot paths.
    pub(crate) shape: Vec<(i32, bool)>,
    /// Effects with a duration on any combatant (0: no turn needs to count rounds).
    pub(crate) timed_effects: u32,
    /// Lasting areas of spells on the map (empty in most battles).
    pub(crate) zones: Vec<super::spells::Zone>,
    /// Spell constructs fighting on the battlefield (Spiritual Weapon; empty in most battles).
    pub(crate) constructs: Vec<super::spells::Construct>,
    /// (spell, creature, round): a lasting area of that spell did its
    /// round's work on the creature (areas of one spell do not stack).
    pub(crate) zone_met: Vec<(u16, usize, u32)>,
    /// The spells and pools each combatant carried into this battle of a
    /// day (empty for a lone battle): what it spent is counted from there.
    pub(crate) entered_with: Vec<Option<([u8; 10], super::abilities::Pools)>>,
}

impl BattleState<'_> {
    /// What combatant `i` carries out of the battle it fought.
    pub(crate) fn carry_out(&self, i: usize) -> Carried {
        let f = &self.fighters[i];
        let dead = f.dead && !f.mobility.left;
        Carried {
            // A rage ends with the battle: its hit points go (CRB "Rage").
            hp: f.hp - f.class.rage.map_or(0, |r| r.hp),
            nonlethal: f.nonlethal,
            // Who left the battle is alive.
            dead,
            stable: f.stable,
            slots: f.casting.slots,
            prepared_left: f.casting.prepared_left.clone(),
            domain_left: f.casting.domain_left,
            pools: f.class.pools,
            shots: f.gear.shots.clone(),
            items_left: f.gear.items_left.clone(),
            negative_levels: f.monster.negative_levels,
            ability_damage: f.monster.ability_damage,
            effects: if dead { Vec::new() } else { self.lasting_effects(i) },
        }
    }

    /// The fatigue a rage that ends with the battle leaves (CRB "Rage":
    /// fatigued for twice the rounds it lasted), as the effect `end_rage`
    /// puts on a barbarian whose rage ends in battle; carried into the next
    /// fight of its day like any timed effect.
    fn rage_fatigue(&self, i: usize) -> Option<super::carry::CarriedEffect> {
        let rounds = 2 * self.fighters[i].class.rage?.rounds;
        (rounds > 0).then(|| super::carry::CarriedEffect {
            effect: crate::effects::Effect::new(
                super::abilities::RAGE_FATIGUE_EFFECT,
                crate::effects::Duration::Rounds(rounds),
            )
            .with_conditions(ConditionSet::of(ConditionId::Fatigued)),
            spell: None,
            rounds: Some(rounds),
        })
    }

    /// The effects on `i` that outlast the battle (`docs/days.md`), with
    /// their rounds left: a timed effect its rounds left; one the battle
    /// keeps for its whole length, a spell of minutes, hours or days, its
    /// duration by the SRD less the rounds since it began; a permanent one
    /// (a curse, a blindness, Waves of Fatigue's fatigue) without end.
    /// Not carried: what belongs to this battle by its nature — a lasting
    /// area's effects (the area stays behind), a compulsion (its caster
    /// stays behind), bonds, a size change (the next battle deploys the
    /// bearer at its own size), a concentration spell, class abilities
    /// kept for the battle (a rage; the fatigue its end leaves is carried),
    /// and the penalties of ability damage
    /// and negative levels (carried as such, `Carried`).
    fn lasting_effects(&self, i: usize) -> Vec<super::carry::CarriedEffect> {
        let f = &self.fighters[i];
        let mut kept: Vec<super::carry::CarriedEffect> = f
            .effects
            .iter()
            .filter_map(|a| {
                let e = &a.effect;
                let bound_here = e.behaviours.iter().any(|b| {
                    matches!(b, Behaviour::Compel { .. } | Behaviour::Bound(_) | Behaviour::SizeChange { .. })
                });
                let spell = e.spell.map(|s| &self.prep.spells[usize::from(s)].spell);
                if bound_here || spell.is_some_and(|s| super::spells::zone_effect(&s.effects).is_some()) {
                    return None;
                }
                if e.behaviours.iter().any(|b| matches!(b, Behaviour::EndsWithoutNonlethal))
                    && f.nonlethal <= 0
                {
                    return None;
                }
                let rounds = match a.rounds_left {
                    Some(n) => Some(n),
                    None => match super::spells::outlasts(spell?, u32::from(e.caster_level)) {
                        Outlasts::Rounds(total) => {
                            let elapsed = self.round.saturating_sub(a.since) + 1;
                            Some(total.checked_sub(elapsed).filter(|&n| n > 0)?)
                        }
                        Outlasts::Forever => None,
                        Outlasts::Battle => return None,
                    },
                };
                let mut effect = e.clone();
                effect.spell = None;
                // Temporary hit points: what is left of them, if they are this effect's.
                effect.temp_hp =
                    if f.temp_hp_from.as_ref() == Some(&e.name) { f.temp_hp.max(0) as u32 } else { 0 };
                Some(super::carry::CarriedEffect {
                    effect,
                    spell: spell.map(|s| Arc::from(s.name.as_str())),
                    rounds,
                })
            })
            .collect();
        kept.extend(self.rage_fatigue(i));
        kept
    }
}

impl<'p> BattleState<'p> {
    /// A fresh battle: everyone at full hit points on their starting square.
    pub fn new(prep: &'p PreparedEncounter, options: &SimOptions) -> Self {
        Self::carried_in(prep, options, &[])
    }

    /// A battle of an adventuring day: combatant `i` enters it as `start[i]`
    /// says when it says something (hit points, death, spells and pools
    /// left), fresh otherwise.
    pub fn carried_in(prep: &'p PreparedEncounter, options: &SimOptions, start: &[Option<Carried>]) -> Self {
        let map = prep.map();
        let n = prep.fighters.len();
        let mut occ = vec![EMPTY; (map.width.max(0) * map.height.max(0)) as usize];
        let mut occ_small = occ.clone();
        let fighters = prep
            .fighters
            .iter()
            .enumerate()
            .map(|(i, f)| {
                // A scenario may start a combatant wounded, even past its death threshold.
                let dies_at_zero = f.nature.destroyed_at_zero || (options.simple_monster_death && !f.is_pc);
                // A row beyond the deployed ones waits for a summons or a split.
                let reserved = i >= prep.deployed;
                let carried = start.get(i).and_then(Option::as_ref);
                let hp = carried.map_or(f.start_hp, |c| c.hp);
                let dead = reserved
                    || carried.is_some_and(|c| c.dead)
                    || if dies_at_zero { hp <= 0 } else { hp <= -f.scores.con_score.unwrap_or(0) };
                if !dead {
                    let grid = if f.nature.size <= Size::Tiny { &mut occ_small } else { &mut occ };
                    for c in footprint(f.start, f.nature.space).filter(|&c| map.in_bounds(c)) {
                        grid[map.index(c)] = i as u16;
                    }
                }
                let mut fighter = Self::fresh_fighter(f, f.start);
                fighter.dead = dead;
                fighter.hp = hp;
                fighter.gone = reserved;
                fighter.out.final_hp = hp;
                if let Some(c) = carried {
                    fighter.nonlethal = c.nonlethal;
                    fighter.stable = c.stable;
                    fighter.casting.slots = c.slots;
                    fighter.casting.prepared_left.clone_from(&c.prepared_left);
                    fighter.casting.domain_left = c.domain_left;
                    fighter.class.pools = c.pools;
                    fighter.gear.shots.clone_from(&c.shots);
                    if c.items_left.len() == fighter.gear.items_left.len() {
                        fighter.gear.items_left.clone_from(&c.items_left);
                    }
                    // Their penalties are effects, put back by `Engine::carried_in`.
                    fighter.monster.negative_levels = c.negative_levels;
                    fighter.monster.ability_damage = c.ability_damage;
                }
                fighter
            })
            .collect();
        let mut st = Self {
            prep,
            options: options.clone(),
            fighters,
            occ,
            occ_small,
            round: 0,
            order: (0..prep.deployed.min(n)).collect(),
            move_aoo: vec![u32::MAX; n * n],
            shape: prep.fighters.iter().map(|f| (f.nature.space, f.nature.size <= Size::Tiny)).collect(),
            last_results: vec![Vec::new(); n],
            timed_effects: 0,
            zones: Vec::new(),
            constructs: Vec::new(),
            zone_met: Vec::new(),
            entered_with: start.iter().map(|c| c.as_ref().map(|c| (c.slots, c.pools))).collect(),
        };
        st.seat_riders();
        st
    }

    /// Puts each rider able to fight on its mount, if the mount can carry it
    /// (`PreparedEncounter` paired them; `combat::mounted` plays the rest).
    fn seat_riders(&mut self) {
        for r in 0..self.prep.fighters.len() {
            let Some(m) = self.prep.fighters[r].rider.mount else { continue };
            let up = |f: &Fighter| !f.dead && f.hp > 0;
            if up(&self.fighters[r]) && up(&self.fighters[m]) {
                self.mount(r, m);
            }
        }
    }

    /// Rider `r` climbs on `m`: off the occupancy grid, into `m`'s space.
    pub(crate) fn mount(&mut self, r: usize, m: usize) {
        self.vacate(r);
        self.fighters[r].pos = self.fighters[m].pos;
        self.shape[r] = self.shape[m];
        self.fighters[r].mobility.riding = Some(m);
        self.fighters[m].mobility.ridden_by = Some(r);
    }

    /// Rider `r` leaves its mount for square `to` (on the grid unless dead).
    pub(crate) fn dismount(&mut self, r: usize, to: Pos) {
        if let Some(m) = self.fighters[r].mobility.riding.take() {
            self.fighters[m].mobility.ridden_by = None;
            self.fighters[m].mobility.mount_used = 0;
        }
        self.shape[r] = Self::shape_of(self.size(r));
        if self.fighters[r].dead {
            self.fighters[r].pos = to;
        } else {
            self.relocate(r, to);
        }
    }

    /// The mount `i` rides, if it rides.
    #[inline]
    pub fn riding(&self, i: usize) -> Option<usize> {
        self.fighters[i].mobility.riding
    }

    /// The rider on `i`'s back, if any.
    #[inline]
    pub fn ridden_by(&self, i: usize) -> Option<usize> {
        self.fighters[i].mobility.ridden_by
    }

    /// Whether attack `w` of `a` is a lance.
    pub(crate) fn is_lance(&self, a: usize, w: usize) -> bool {
        let atk = &self.prep.fighters[a].offense.attacks[w];
        let word = |s: &str| s.split(|c: char| !c.is_alphanumeric()).any(|x| x.eq_ignore_ascii_case("lance"));
        atk.melee && !atk.natural && (word(&atk.name) || word(&atk.id))
    }

    /// A mounted rider wields its two-handed lance in one hand (CRB
    /// "Lance"): the damage its file prints for two hands (1½ × Strength,
    /// Power Attack's 1½) less what one hand loses. 0 otherwise.
    pub(crate) fn one_handed_lance_loss(&self, a: usize, w: usize, power_attack: i32) -> i32 {
        let atk = &self.prep.fighters[a].offense.attacks[w];
        if !atk.two_handed || self.fighters[a].mobility.riding.is_none() || !self.is_lance(a, w) {
            return 0;
        }
        self.prep.fighters[a].scores.str_mod.max(0) / 2 + if power_attack > 0 { power_attack } else { 0 }
    }

    /// The damage multiplier of a hit of attack `w` of `a` at the end of a
    /// charge: on horseback ×2 with a lance, ×3 with a lance and Spirited
    /// Charge, ×2 with another melee weapon and Spirited Charge (CRB
    /// "Mounted Combat", "Spirited Charge"); 1 otherwise.
    pub(crate) fn charge_multiplier(&self, a: usize, w: usize, charge: bool) -> u32 {
        if !charge
            || self.fighters[a].mobility.riding.is_none()
            || !self.prep.fighters[a].offense.attacks[w].melee
        {
            return 1;
        }
        let spirited = self.prep.fighters[a].features.rules.martial.spirited_charge;
        match (self.is_lance(a, w), spirited) {
            (true, true) => 3,
            (true, false) | (false, true) => 2,
            (false, false) => 1,
        }
    }

    /// Higher ground on horseback: a mounted `a` against a foe on foot
    /// smaller than its mount (CRB "Mounted Combat": +1 on melee attacks).
    #[inline]
    pub(crate) fn mounted_high_ground(&self, a: usize, t: usize) -> bool {
        match self.fighters[a].mobility.riding {
            Some(m) => self.fighters[t].mobility.riding.is_none() && self.size(t) < self.size(m),
            None => false,
        }
    }

    /// Whether `j` is `i` itself or the mount `i` rides (a rider's own space).
    #[inline]
    pub(crate) fn is_self(&self, i: usize, j: usize) -> bool {
        j == i || self.fighters[i].mobility.riding == Some(j)
    }

    /// A combatant as it enters the battle: at full hit points on square
    /// `at`, with its slots and pools, nothing on it.
    pub(crate) fn fresh_fighter(f: &super::prepared::FighterSpec, at: Pos) -> Fighter {
        Fighter {
            side: f.side,
            pos: at,
            hp: f.hp_max,
            dead: false,
            stable: false,
            conds: ConditionSet::EMPTY,
            base_conds: ConditionSet::EMPTY,
            summary: Summary::default(),
            effects: Vec::new(),
            mod_targets: f.mod_targets,
            miss_chance: 0,
            no_aoo: false,
            temp_hp: 0,
            temp_hp_from: None,
            nonlethal: 0,
            monster: Default::default(),
            bleed: 0,
            grappled_with: None,
            out: CombatantOutcome { final_hp: f.hp_max, ..CombatantOutcome::default() },
            gone: false,
            summon_left: 0,
            fx: 0,
            marks: Vec::new(),
            turn: TurnState {
                aoo_left: f.offense.aoo_per_round,
                charged: false,
                moved: false,
                stepped: false,
                power_attack: false,
                martial: Default::default(),
                defensive: false,
                total_defense: false,
                aid_attack: 0,
                aid_ac: 0,
                readied: None,
                delayed_in: 0,
                immediate_used: false,
                swift_used: false,
                immediate_round: u32::MAX,
                has_acted: false,
                deeds: 0,
                ended: false,
                attack_penalty: 0,
            },
            run: RunState { running: false, run_rounds: 0, run_checks: 0, run_rest: 0 },
            gear: GearState {
                dropped: 0,
                wear: Vec::new(),
                stolen_items: 0,
                broken: 0,
                // A splash weapon's first flask is still in the pack (`combat::splash`).
                unloaded: f
                    .offense
                    .attacks
                    .iter()
                    .take(64)
                    .enumerate()
                    .filter(|(_, a)| a.drawn)
                    .fold(0, |m, (k, _)| m | 1 << k),
                shots: Vec::new(),
                items_left: f.items.iter().map(|x| x.uses).collect(),
                wand_in_hand: None,
                items_barred: 0,
            },
            casting: CastingState {
                slots: f.caster.as_ref().map_or([0; 10], |c| c.slots),
                prepared_left: f
                    .caster
                    .as_ref()
                    .map_or_else(Vec::new, |c| c.prepared.iter().map(|p| p.count).collect()),
                domain_left: f.caster.as_ref().map_or([0; 10], |c| c.domain),
                pending: None,
                held: None,
            },
            class: ClassState {
                pools: f.pools,
                performing: false,
                challenged: None,
                bond: None,
                rage: None,
                smite_first: false,
                monk: Default::default(),
            },
            mobility: Mobility {
                alt: 0,
                flown: 0,
                riding: None,
                ridden_by: None,
                mount_used: 0,
                mounted_combat_round: 0,
                saddle_kept: false,
                size: f.nature.size,
                left: false,
            },
        }
    }

    /// The prepared encounter.
    pub fn prepared(&self) -> &'p PreparedEncounter {
        self.prep
    }

    /// The battlefield.
    pub fn map(&self) -> &'p Map {
        self.prep.map()
    }

    /// Current round (0 before the first round).
    pub fn round(&self) -> u32 {
        self.round
    }

    /// Number of combatants.
    pub fn len(&self) -> usize {
        self.fighters.len()
    }

    /// Whether there is no combatant.
    pub fn is_empty(&self) -> bool {
        self.fighters.is_empty()
    }

    /// Initiative order of the battle (combatant indices).
    pub fn initiative_order(&self) -> &[usize] {
        &self.order
    }

    /// Id of combatant `i`.
    pub fn id(&self, i: usize) -> &'p str {
        &self.prep.fighters[i].id
    }

    /// The side combatant `i` fights on now: its own, or its dominator's
    /// (`monster::dominate`).
    #[inline]
    pub fn side(&self, i: usize) -> usize {
        self.fighters[i].side
    }

    /// Square of combatant `i`.
    pub fn pos(&self, i: usize) -> Pos {
        self.fighters[i].pos
    }

    /// Current hit points of combatant `i`.
    pub fn hp(&self, i: usize) -> i32 {
        self.fighters[i].hp
    }

    /// Maximum hit points of combatant `i` (a barbarian's rage and the
    /// effects of a temporary Constitution bonus raise it while they last).
    pub fn hp_max(&self, i: usize) -> i32 {
        let f = &self.fighters[i];
        let bonus: u32 = f.effects.iter().map(|e| e.effect.hp_bonus).sum();
        self.prep.fighters[i].hp_max + self.rage_hp(i) + bonus as i32
    }

    /// Attacks of opportunity combatant `i` has left this round.
    pub fn aoo_left(&self, i: usize) -> u32 {
        self.fighters[i].turn.aoo_left
    }

    /// The life state of combatant `i`.
    pub fn life(&self, i: usize) -> LifeState {
        let f = &self.fighters[i];
        match () {
            _ if f.dead => LifeState::Dead,
            _ if f.hp > 0 => LifeState::Fighting,
            _ if f.hp == 0 => LifeState::Disabled,
            // Ferocity (UMR): conscious and staggered below 0, as if disabled.
            _ if self.prep.fighters[i].monster.as_ref().is_some_and(|m| m.ferocity) => LifeState::Disabled,
            _ if f.stable => LifeState::Stable,
            _ => LifeState::Dying,
        }
    }

    /// Whether combatant `i` dies as soon as it reaches 0 hit points: undead,
    /// constructs, creatures without Constitution, and monsters under
    /// `simple_monster_death` (never player characters).
    pub fn dies_at_zero(&self, i: usize) -> bool {
        let spec = &self.prep.fighters[i];
        spec.nature.destroyed_at_zero || (self.options.simple_monster_death && !spec.is_pc)
    }

    /// Whether `t` is inside a creature that swallowed it (`combat::monster`,
    /// swallow whole): off the map, out of reach and of every area.
    #[inline]
    pub fn is_swallowed(&self, t: usize) -> bool {
        self.fighters[t].monster.swallowed_by.is_some()
    }

    /// Whether combatant `i` standing on `p` could leave the battle from there:
    /// a square of its space is an exit of the map (`Map::is_exit`).
    pub fn is_exit_for(&self, i: usize, p: Pos) -> bool {
        let map = self.map();
        crate::grid::footprint(p, self.space(i)).any(|c| map.is_exit(c))
    }

    /// Whether combatant `i` is on the battlefield, alive (dying ones included).
    #[inline]
    pub fn is_present(&self, i: usize) -> bool {
        let f = &self.fighters[i];
        !f.dead && !f.gone
    }

    /// The budget slot of an action whose slot depends on its spell or ability.
    pub(crate) fn data_slot(&self, i: usize, a: &super::action::Action) -> Option<super::action::Slot> {
        use super::action::{ActionKind, ClassAbilityUse, Slot};
        match (a.kind, a.ability) {
            (ActionKind::CastSpell, _) => Some(self.cast_slot(i, a)),
            (ActionKind::Reload, _) => Some(self.reload_slot(i, a)),
            (ActionKind::BreakFree, _) => Some(self.break_free_slot(i)),
            (ActionKind::UseItem, _) => Some(self.item_slot(i, a)),
            (ActionKind::Deed, Some(ClassAbilityUse::Deed(d))) => Some(self.deed_slot(i, d)),
            (ActionKind::Hex, Some(ClassAbilityUse::Hex(crate::feats::Hex::Cackle))) => Some(Slot::Move),
            // A power on itself (copycat) is a move action; a touch a standard one.
            (ActionKind::DomainPower, _) => self.prep.fighters[i]
                .abilities
                .as_deref()
                .and_then(|spec| spec.powers.get(usize::from(a.option)))
                .map(|p| if p.on_itself() { Slot::Move } else { Slot::Standard }),
            // Lay on hands: swift on itself, standard on another (CRB "Lay On Hands").
            (ActionKind::LayOnHands, _) if a.target.is_none_or(|t| t == i) => Some(Slot::Swift),
            // Leaving by a withdraw: full-round, or a standard action when restricted (`combat::leave`).
            (ActionKind::LeaveBattle, _) if a.destination.is_some() => {
                Some(if self.turn_limits(i).staggered { Slot::Standard } else { Slot::FullRound })
            }
            _ => None,
        }
    }

    /// Whether combatant `i` can act (at 0 hit points or more, or below with
    /// ferocity; not dead, not knocked out by nonlethal damage above its hit
    /// points).
    #[inline]
    pub fn is_active(&self, i: usize) -> bool {
        let f = &self.fighters[i];
        if f.hp >= 0 {
            return !f.dead && f.nonlethal <= f.hp;
        }
        // Below 0: only a creature fighting on with ferocity (UMR), unless
        // nonlethal damage knocked it out.
        !f.dead && f.nonlethal == 0 && self.prep.fighters[i].monster.as_ref().is_some_and(|m| m.ferocity)
    }

    /// Whether combatant `i` can still act now: active, and no condition
    /// gained since its turn began (paralysis from an attack of
    /// opportunity, a stun) forbids actions.
    #[inline]
    pub fn can_act(&self, i: usize) -> bool {
        self.is_active(i) && !self.fighters[i].summary.flags.has(crate::effects::Flags::CANT_ACT)
    }

    /// Whether `a` and `b` are on different sides, or one of them is a
    /// berserk golem, every other creature's enemy (`monster::golem`).
    #[inline]
    pub fn are_enemies(&self, a: usize, b: usize) -> bool {
        let (x, y) = (&self.fighters[a], &self.fighters[b]);
        x.side != y.side || (a != b && (x.monster.berserk || y.monster.berserk))
    }

    /// What combatant `i`'s last turn produced, one result per requested action.
    pub fn last_results(&self, i: usize) -> &[ActionResult] {
        &self.last_results[i]
    }

    /// The combatant standing on `p`, if any (dying ones included, dead ones
    /// not); the larger one when a Tiny creature shares the square.
    #[inline]
    pub fn occupant(&self, p: Pos) -> Option<usize> {
        let map = self.map();
        if !map.in_bounds(p) {
            return None;
        }
        let k = map.index(p);
        let o = if self.occ[k] != EMPTY { self.occ[k] } else { self.occ_small[k] };
        (o != EMPTY).then_some(o as usize)
    }

    /// The Tiny or smaller combatant standing on `p`, if any.
    #[inline]
    pub(crate) fn small_occupant(&self, p: Pos) -> Option<usize> {
        let map = self.map();
        if !map.in_bounds(p) {
            return None;
        }
        let o = self.occ_small[map.index(p)];
        (o != EMPTY).then_some(o as usize)
    }

    /// The larger (not Tiny or smaller) combatant standing on `p`, if any.
    #[inline]
    pub(crate) fn large_occupant(&self, p: Pos) -> Option<usize> {
        let map = self.map();
        if !map.in_bounds(p) {
            return None;
        }
        let o = self.occ[map.index(p)];
        (o != EMPTY).then_some(o as usize)
    }

    /// Whether combatant `i` is prone.
    pub fn is_prone(&self, i: usize) -> bool {
        self.fighters[i].conds.has(ConditionId::Prone)
    }

    /// Whether combatant `i` has condition `c`.
    #[inline]
    pub fn has_condition(&self, i: usize, c: ConditionId) -> bool {
        self.fighters[i].conds.has(c)
    }

    /// The conditions of combatant `i`.
    pub fn conditions(&self, i: usize) -> ConditionSet {
        self.fighters[i].conds
    }

    /// The effects on combatant `i`.
    pub fn effects(&self, i: usize) -> &[ActiveEffect] {
        &self.fighters[i].effects
    }

    /// Temporary hit points of combatant `i`.
    pub fn temp_hp(&self, i: usize) -> i32 {
        self.fighters[i].temp_hp
    }

    /// Whether combatant `i` has Power Attack declared for this turn.
    pub fn power_attack_on(&self, i: usize) -> bool {
        self.fighters[i].turn.power_attack
    }

    /// Whether attack `w` of combatant `i` is broken (a firearm that misfired, a sundered weapon).
    #[inline]
    pub fn is_broken(&self, i: usize, w: usize) -> bool {
        w < 64 && self.fighters[i].gear.broken >> w & 1 == 1
    }

    /// Whether attack `w` of combatant `i` lies on the ground (disarmed).
    #[inline]
    pub fn is_dropped(&self, i: usize, w: usize) -> bool {
        w < 64 && self.fighters[i].gear.dropped >> w & 1 == 1
    }

    /// Attacks of combatant `i` it cannot use now (broken, dropped or unloaded), bit k: attack k.
    #[inline]
    pub(crate) fn unusable(&self, i: usize) -> u64 {
        let f = &self.fighters[i];
        f.gear.broken | f.gear.dropped | f.gear.unloaded
    }

    /// Whether attack `w` of combatant `i` can be used (not broken, dropped or unloaded).
    #[inline]
    pub fn is_usable(&self, i: usize, w: usize) -> bool {
        w >= 64 || self.unusable(i) >> w & 1 == 0
    }

    /// Size category of combatant `i` now (an effect may have changed it).
    #[inline]
    pub fn size(&self, i: usize) -> Size {
        self.fighters[i].mobility.size
    }

    /// Categories `i` is above (positive) or below its own size now.
    #[inline]
    pub(crate) fn size_steps(&self, i: usize) -> i32 {
        self.size(i) as i32 - self.prep.fighters[i].nature.size as i32
    }

    /// Its own size and its change, when an effect changed its size (the
    /// weapon dice of `damage::roll_damage`).
    #[inline]
    pub(crate) fn resize_of(&self, i: usize) -> Option<(Size, i8)> {
        let steps = self.size_steps(i);
        (steps != 0).then(|| (self.prep.fighters[i].nature.size, steps as i8))
    }

    /// How much `i`'s size modifier to attack rolls and AC changed with its
    /// size (CRB Table 8-1; Enlarge Person −1); the special size modifier of
    /// CMB and CMD changes by the opposite.
    #[inline]
    pub(crate) fn size_modifier_change(&self, i: usize) -> i32 {
        self.size(i).modifier() - self.prep.fighters[i].nature.size.modifier()
    }

    /// The reach `(min, max)` in feet of melee attack `w` of `i` at its size
    /// now: natural reach follows the size (CRB Table 8-4), and a reach
    /// weapon's reach twice the natural reach (CRB "Reach Weapons").
    #[inline]
    pub(crate) fn reach(&self, i: usize, w: usize) -> (u32, u32) {
        let atk = &self.prep.fighters[i].offense.attacks[w];
        let base = self.prep.fighters[i].nature.size;
        let now = self.size(i);
        if now == base || !atk.melee {
            return (atk.reach_min, atk.reach_max);
        }
        let change = natural_reach_ft(now) as i32 - natural_reach_ft(base) as i32;
        if atk.reach_min > 0 {
            // A reach weapon: not against the squares its natural reach covers.
            let min = (atk.reach_min as i32 + change).max(1) as u32;
            (min, (atk.reach_max as i32 + 2 * change).max(min as i32) as u32)
        } else {
            (0, (atk.reach_max as i32 + change).max(0) as u32)
        }
    }

    /// The longest reach or range in feet of `i`'s attacks at its size now.
    pub(crate) fn longest_reach(&self, i: usize) -> Option<u32> {
        let attacks = &self.prep.fighters[i].offense.attacks;
        (0..attacks.len()).map(|w| self.reach(i, w).1.max(attacks[w].max_range_ft)).max()
    }

    /// Whether attack `w` of `i` can hit something `dist` feet away at its size now.
    #[inline]
    pub(crate) fn reaches(&self, i: usize, w: usize, dist: u32) -> bool {
        let atk = &self.prep.fighters[i].offense.attacks[w];
        if !atk.melee || self.fighters[i].mobility.size == self.prep.fighters[i].nature.size {
            return atk.reaches(dist);
        }
        let (min, max) = self.reach(i, w);
        dist >= min && dist <= max
    }

    /// The space side and Tiny-or-smaller flag of a creature of `size`.
    #[inline]
    pub(crate) fn shape_of(size: Size) -> (i32, bool) {
        (space_squares(size), size <= Size::Tiny)
    }

    /// Side in squares of the space combatant `i` takes up (1 up to Medium, Large 2…).
    #[inline]
    pub fn space(&self, i: usize) -> i32 {
        self.shape[i].0
    }

    /// Whether combatant `i` is Tiny or smaller.
    #[inline]
    pub(crate) fn is_small(&self, i: usize) -> bool {
        self.shape[i].1
    }

    /// The squares combatant `i` takes up, row-major.
    pub fn cells(&self, i: usize) -> impl Iterator<Item = Pos> + Clone {
        footprint(self.fighters[i].pos, self.space(i))
    }

    /// Distance in feet (5-10-5) between combatants `a` and `b`: between
    /// their closest squares, 0 when they share one; in three dimensions
    /// when one of them is aloft (`combat::flight`).
    #[inline]
    pub fn distance(&self, a: usize, b: usize) -> u32 {
        self.distance_from(a, self.fighters[a].pos, b)
    }

    /// Distance in feet from `i` standing with its top-left square on `from` to `t`.
    #[inline(always)]
    pub fn distance_from(&self, i: usize, from: Pos, t: usize) -> u32 {
        let (si, st) = (self.shape[i].0, self.shape[t].0);
        let to = self.fighters[t].pos;
        let h = if si == 1 && st == 1 {
            crate::grid::distance_ft(from, to)
        } else {
            footprint_distance_ft(from, si, to, st)
        };
        // Altitude adds a third axis (`combat::flight`).
        if self.fighters[i].mobility.alt | self.fighters[t].mobility.alt == 0 {
            h
        } else {
            self.lifted(i, t, h)
        }
    }

    /// Whether `i` standing on `from` has line of effect to `t`: from any of
    /// its squares to any of the target's (the best pair).
    #[inline]
    pub fn line_of_effect_from(&self, i: usize, from: Pos, t: usize) -> bool {
        let (si, st) = (self.space(i), self.space(t));
        let to = self.fighters[t].pos;
        if si == 1 && st == 1 {
            return self.prep.line_of_effect(from, to);
        }
        self.line_of_effect_spaces(from, si, to, st)
    }

    /// Line of effect between two footprints: the best pair of squares.
    #[cold]
    pub(crate) fn line_of_effect_spaces(&self, from: Pos, si: i32, to: Pos, st: i32) -> bool {
        let map = self.map();
        footprint(from, si)
            .filter(|&a| map.in_bounds(a))
            .any(|a| footprint(to, st).any(|b| map.in_bounds(b) && self.prep.line_of_effect(a, b)))
    }

    /// Terrain cover of `t` against `i` standing on `from`: the best pair of
    /// squares (least cover) among those with line of effect; melee between
    /// adjacent squares uses the adjacent-melee rule.
    #[inline]
    pub(crate) fn terrain_cover_from(&self, i: usize, from: Pos, t: usize, melee: bool) -> u8 {
        let (si, st) = (self.space(i), self.space(t));
        let to = self.fighters[t].pos;
        if si == 1 && st == 1 {
            let adjacent = melee && crate::grid::distance_ft(from, to) == 5;
            return self.prep.terrain_cover(from, to, adjacent);
        }
        self.terrain_cover_spaces(from, si, to, st, melee)
    }

    /// `terrain_cover_from` between footprints: the best pair with line of effect.
    #[cold]
    fn terrain_cover_spaces(&self, from: Pos, si: i32, to: Pos, st: i32, melee: bool) -> u8 {
        let map = self.map();
        let mut best: Option<u8> = None;
        for a in footprint(from, si).filter(|&a| map.in_bounds(a)) {
            for b in footprint(to, st).filter(|&b| map.in_bounds(b)) {
                if !self.prep.line_of_effect(a, b) {
                    continue;
                }
                let adjacent = melee && crate::grid::distance_ft(a, b) == 5;
                let c = self.prep.terrain_cover(a, b, adjacent);
                best = Some(best.map_or(c, |x| x.min(c)));
            }
        }
        best.unwrap_or(0)
    }

    /// The nearest enemy of `i` able to fight (5-10-5 distance, ties by encounter order).
    pub fn nearest_enemy(&self, i: usize) -> Option<usize> {
        (0..self.len())
            .filter(|&j| self.are_enemies(i, j) && self.is_active(j) && !self.is_swallowed(j))
            .min_by_key(|&j| (self.distance(i, j), j))
    }

    /// Takes combatant `i` out of the battle (a summon dismissed, a
    /// combatant who left the field): its timed effects end, its squares
    /// are freed, and it is `gone` (and `dead` for every count of who can
    /// still act; the outcome reads `gone` apart).
    pub(crate) fn take_off_field(&mut self, i: usize) {
        let timed = self.fighters[i].effects.iter().filter(|e| e.rounds_left.is_some()).count() as u32;
        self.timed_effects -= timed;
        self.fighters[i].effects.clear();
        self.vacate(i);
        let f = &mut self.fighters[i];
        f.gone = true;
        f.dead = true;
    }

    /// Takes combatant `i` off the occupancy grid (its squares at its current position).
    pub(crate) fn vacate(&mut self, i: usize) {
        let map = self.prep.map();
        let (at, s) = (self.fighters[i].pos, self.space(i));
        let grid = if self.is_small(i) { &mut self.occ_small } else { &mut self.occ };
        for c in footprint(at, s).filter(|&c| map.in_bounds(c)) {
            let k = map.index(c);
            if grid[k] == i as u16 {
                grid[k] = EMPTY;
            }
        }
    }

    /// Moves combatant `i` to `to` in the occupancy grid. A rider moves its
    /// mount, and a mount its rider (`combat::mounted`).
    pub(crate) fn relocate(&mut self, i: usize, to: Pos) {
        if let Some(m) = self.fighters[i].mobility.riding {
            self.relocate(m, to);
            return;
        }
        if let Some(r) = self.fighters[i].mobility.ridden_by {
            self.fighters[r].pos = to;
        }
        self.vacate(i);
        let map = self.prep.map();
        let s = self.space(i);
        let grid = if self.is_small(i) { &mut self.occ_small } else { &mut self.occ };
        for c in footprint(to, s).filter(|&c| map.in_bounds(c)) {
            grid[map.index(c)] = i as u16;
        }
        self.fighters[i].pos = to;
        if self.fighters[i].monster.swallowing > 0 {
            // What it swallowed goes where it goes (off the map).
            for f in self.fighters.iter_mut().filter(|f| f.monster.swallowed_by == Some(i)) {
                f.pos = to;
            }
        }
    }
}
