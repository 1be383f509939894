//! The observation of one turn: a compact, versioned copy of what the acting
//! combatant needs to choose its actions, and its line-based text form.
//!
//! Kept: every combatant's position, hit points, armor class, speed,
//! conditions, timed effects (spells' included) and attacks, and who
//! summoned a summoned creature; the acting combatant's magic (spells by
//! level with the slots left, metamagic feats, class abilities and their
//! pools, a held charge or a spell being cast); for the acting combatant and each
//! other one, the distance, line of effect, the attack that reaches, whether
//! a charge or a 5-foot step makes an attack possible, and who threatens
//! whom; the terrain that is not plain floor, as runs of squares. Left out
//! (the raw snapshot has them): the combatants' full data files (feats,
//! skills, spells' text, defenses), every plain square, and every pair of
//! combatants not involving the acting one. Numbers are integers, so two
//! observations of the same state are equal bit for bit.

use serde::{Deserialize, Serialize};

use crate::combat::{BattleState, LifeState};
use crate::map::Pos;

/// Version of [`Observation`]: bump it when a field is removed or changes
/// meaning (adding one does not). Part of every LLM cache key and replay log.
pub const OBSERVATION_SCHEMA_VERSION: u32 = 1;

/// What the acting combatant sees at the start of its turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Observation {
    /// [`OBSERVATION_SCHEMA_VERSION`].
    pub schema_version: u32,
    /// The round (1 for the first).
    pub round: u32,
    /// Id of the acting combatant.
    pub acting: String,
    /// The battlefield.
    pub map: MapView,
    /// Combatant ids in initiative order.
    pub initiative: Vec<String>,
    /// Every combatant not dead, in encounter order.
    pub combatants: Vec<CombatantView>,
    /// The acting combatant against each other living one, in encounter order.
    pub pairs: Vec<PairView>,
    /// What the acting combatant's previous turn produced: `kind:ok` or `kind:reason`.
    pub last_results: Vec<String>,
    /// The acting combatant's spells and class abilities; `None` when it has neither.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub magic: Option<MagicView>,
}

/// The acting combatant's spells and class abilities.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MagicView {
    /// Caster level (0: no spells).
    pub caster_level: u32,
    /// Spells by level, lowest first: every level with a known spell or a slot.
    pub spell_levels: Vec<SpellLevelView>,
    /// Metamagic feats it can apply (`empower`…), as an action names them.
    pub metamagic: Vec<String>,
    /// Class abilities it plays (`channel_positive_2d6`, `hex_evil_eye`, `deed_deadeye`…).
    pub abilities: Vec<String>,
    /// Uses left of its pools (`channel_energy`, `hexes`, `grit`, `arcane_pool`,
    /// `bardic_rounds`), those it has.
    pub pools: Vec<PoolView>,
    /// The spell whose charge it holds (a touch to deliver).
    pub held: Option<String>,
    /// The spell it is casting over the round (resolved at its next turn).
    pub casting: Option<String>,
    /// Inspiring courage.
    pub performing: bool,
}

/// The spells of one level.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpellLevelView {
    /// Spell level.
    pub level: u8,
    /// Slots left; `None`: cast at will (cantrips and orisons).
    pub slots_left: Option<u32>,
    /// The spells it can cast at this level, by identifier (what an action's `spell` names).
    pub spells: Vec<String>,
}

/// A pool of uses.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PoolView {
    /// Its name.
    pub name: String,
    /// Uses left.
    pub left: u32,
}

/// The battlefield: its size and the squares that are not plain floor.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapView {
    /// Display name.
    pub name: String,
    /// Columns.
    pub width: i32,
    /// Rows.
    pub height: i32,
    /// Side of a square in feet.
    pub square_ft: u32,
    /// Runs of squares that cost more to enter, block movement or line of
    /// effect, give cover, or stand above the ground.
    pub terrain: Vec<TerrainRun>,
}

/// A horizontal run of identical special squares.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainRun {
    /// Row.
    pub row: i32,
    /// First column.
    pub from_col: i32,
    /// Last column (inclusive).
    pub to_col: i32,
    /// Terrain type (`wall`, `rubble`…).
    pub kind: String,
    /// Movement cost multiplier; `None`: impassable.
    pub move_cost: Option<u32>,
    /// Blocks line of effect.
    pub blocks_los: bool,
    /// Cover bonus it grants.
    pub cover: u8,
    /// Ground height.
    pub elevation: u8,
}

/// One combatant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CombatantView {
    /// Unique id.
    pub id: String,
    /// Side name.
    pub side: String,
    /// Top-left square `[row, col]`.
    pub pos: [i32; 2],
    /// Side of its space in squares.
    pub space: i32,
    /// Size category (`medium`…).
    pub size: String,
    /// Hit points now.
    pub hp: i32,
    /// Maximum hit points.
    pub hp_max: i32,
    /// Temporary hit points.
    pub temp_hp: i32,
    /// `fighting`, `disabled`, `dying` or `stable`.
    pub state: String,
    /// Armor class as printed: total, touch, flat-footed.
    pub ac: [i32; 3],
    /// Land speed now, in feet (conditions and effects included).
    pub speed_ft: u32,
    /// Attacks of opportunity left this round.
    pub aoo_left: u32,
    /// Power Attack declared this turn.
    pub power_attack: bool,
    /// Has the Power Attack feat.
    pub power_attack_feat: bool,
    /// Conditions in force.
    pub conditions: Vec<String>,
    /// Effects on it.
    pub effects: Vec<EffectView>,
    /// Its attacks, in data file order (an action names one by index).
    pub attacks: Vec<AttackView>,
    /// A summoned creature: who summoned it and its rounds left.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summoned: Option<SummonView>,
}

/// Where a summoned creature comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SummonView {
    /// Id of its summoner.
    pub by: String,
    /// Rounds left before it vanishes.
    pub rounds_left: u32,
}

/// An effect on a combatant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EffectView {
    /// Its name.
    pub name: String,
    /// Rounds left; `None` until removed.
    pub rounds_left: Option<u32>,
}

/// One attack.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttackView {
    /// Name.
    pub name: String,
    /// Melee (else ranged).
    pub melee: bool,
    /// Attack bonus as printed.
    pub bonus: i32,
    /// Damage of a hit (`1d8+3`, `2d6+1d6`).
    pub damage: String,
    /// Threat range and multiplier (`19-20/x2`).
    pub crit: String,
    /// Melee reach, or ranged range increment, in feet.
    pub reach_or_increment_ft: u32,
    /// Attacks of this kind in a full attack.
    pub count: u32,
    /// `dropped` or `broken` when it cannot be used now.
    pub unusable: Option<String>,
}

/// The acting combatant and one other.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairView {
    /// The other combatant's id.
    pub other: String,
    /// Whether it is an enemy.
    pub enemy: bool,
    /// Distance in feet (5-10-5, between the closest squares).
    pub distance_ft: u32,
    /// Line of effect from here.
    pub line_of_effect: bool,
    /// Enemies: the attack that can hit it from here, by index.
    pub weapon: Option<usize>,
    /// Enemies without such an attack: why (`out_of_range`, `no_line_of_effect`, `no_weapon`).
    pub weapon_reason: Option<String>,
    /// Enemies: a charge can reach it.
    pub can_charge: bool,
    /// Enemies: a 5-foot step to this square makes an attack possible.
    pub step_to_attack: Option<[i32; 2]>,
    /// It threatens the acting combatant.
    pub threatens_me: bool,
    /// The acting combatant threatens it.
    pub i_threaten: bool,
    /// Enemies: an ally of the acting combatant flanks it with it.
    pub flanking: bool,
}

fn life_name(life: LifeState) -> &'static str {
    match life {
        LifeState::Fighting => "fighting",
        LifeState::Disabled => "disabled",
        LifeState::Dying => "dying",
        LifeState::Stable => "stable",
        LifeState::Dead => "dead",
    }
}

fn pos(p: Pos) -> [i32; 2] {
    [p.row, p.col]
}

fn map_view(b: &BattleState<'_>) -> MapView {
    let map = b.map();
    let mut terrain: Vec<TerrainRun> = Vec::new();
    for row in 0..map.height {
        for col in 0..map.width {
            let p = Pos::new(row, col);
            let t = map.terrain(p);
            let elevation = map.elevation[map.index(p)];
            if t.move_cost == Some(1) && !t.blocks_los && t.cover_bonus == 0 && elevation == 0 {
                continue;
            }
            if let Some(last) = terrain.last_mut()
                && last.row == row
                && last.to_col == col - 1
                && last.kind == t.kind
                && last.move_cost == t.move_cost
                && last.blocks_los == t.blocks_los
                && last.cover == t.cover_bonus
                && last.elevation == elevation
            {
                last.to_col = col;
                continue;
            }
            terrain.push(TerrainRun {
                row,
                from_col: col,
                to_col: col,
                kind: t.kind.clone(),
                move_cost: t.move_cost,
                blocks_los: t.blocks_los,
                cover: t.cover_bonus,
                elevation,
            });
        }
    }
    MapView {
        name: map.name.clone(),
        width: map.width,
        height: map.height,
        square_ft: map.square_size_ft,
        terrain,
    }
}

fn combatant_view(b: &BattleState<'_>, i: usize) -> CombatantView {
    let spec = &b.prep.fighters[i];
    let f = &b.fighters[i];
    let attacks = spec
        .offense
        .attacks
        .iter()
        .enumerate()
        .map(|(w, a)| {
            let mut damage: Vec<String> = a.components.iter().map(|c| c.dice.to_string()).collect();
            if damage.is_empty() {
                damage.push("0".into());
            }
            let mut damage = damage.join("+");
            if a.damage_bonus != 0 {
                damage.push_str(&format!("{:+}", a.damage_bonus));
            }
            let threat = if a.threat_min >= 20 { "20".to_string() } else { format!("{}-20", a.threat_min) };
            AttackView {
                name: a.name.clone(),
                melee: a.melee,
                bonus: a.bonus,
                damage,
                crit: format!("{threat}/x{}", a.crit_mult),
                reach_or_increment_ft: if a.melee { a.reach_max } else { a.increment },
                count: a.count,
                unusable: if b.is_dropped(i, w) {
                    Some("dropped".into())
                } else if b.is_broken(i, w) {
                    Some("broken".into())
                } else {
                    None
                },
            }
        })
        .collect();
    CombatantView {
        id: spec.id.clone(),
        side: b.prep.sides[spec.side].clone(),
        pos: pos(f.pos),
        space: b.space(i),
        size: format!("{:?}", spec.nature.size).to_lowercase(),
        hp: f.hp,
        hp_max: spec.hp_max,
        temp_hp: f.temp_hp,
        state: life_name(b.life(i)).to_string(),
        ac: [spec.defense.ac.total, spec.defense.ac.touch, spec.defense.ac.flat_footed],
        speed_ft: b.speed(i),
        aoo_left: f.turn.aoo_left,
        power_attack: f.turn.power_attack,
        power_attack_feat: spec.feats.power_attack,
        conditions: f.conds.iter().map(|c| c.name().to_string()).collect(),
        effects: f
            .effects
            .iter()
            .map(|e| EffectView { name: e.effect.name.to_string(), rounds_left: e.rounds_left })
            .collect(),
        attacks,
        summoned: spec.reserve.map(|g| SummonView {
            by: b.id(b.prep.summon_groups[usize::from(g)].caster).to_string(),
            rounds_left: f.summon_left,
        }),
    }
}

/// The acting combatant's spells and abilities, if it has any.
fn magic_view(b: &BattleState<'_>, i: usize) -> Option<MagicView> {
    let spec = &b.prep.fighters[i];
    let f = &b.fighters[i];
    let caster = spec.caster.as_deref();
    let abilities = spec.abilities.as_deref();
    if caster.is_none() && abilities.is_none() && f.casting.held.is_none() {
        return None;
    }
    let spell_id = |k: u16| b.prep.spells[usize::from(k)].id.clone();
    let mut spell_levels: Vec<SpellLevelView> = Vec::new();
    if let Some(c) = caster {
        for level in 0..=9u8 {
            let spells: Vec<String> = c
                .known
                .iter()
                .filter(|k| k.level == level && b.prep.spells[usize::from(k.spell)].unplayable.is_none())
                .map(|k| spell_id(k.spell))
                .collect();
            let slots = c.slots[usize::from(level)];
            if spells.is_empty() && (level == 0 || slots == 0) {
                continue;
            }
            let slots_left = (level > 0).then(|| u32::from(f.casting.slots[usize::from(level)]));
            spell_levels.push(SpellLevelView { level, slots_left, spells });
        }
    }
    let mut names: Vec<String> = Vec::new();
    if let Some(a) = abilities {
        if let Some(ch) = a.channel {
            let energy = if ch.positive { "positive" } else { "negative" };
            names.push(format!("channel_{energy}_{}d6_dc{}", ch.dice, ch.dc));
        }
        names.extend(a.hexes.iter().map(|h| format!("hex_{}", h.name())));
        names.extend(a.deeds.iter().map(|d| format!("deed_{}", d.name())));
        if a.inspire_courage > 0 {
            names.push(format!("inspire_courage_{}", a.inspire_courage));
        }
        if a.spell_combat {
            names.push("spell_combat".into());
        }
        if a.spellstrike {
            names.push("spellstrike".into());
        }
        if a.arcane_enhancement > 0 {
            names.push(format!("arcane_pool_{}", a.arcane_enhancement));
        }
        // A power's index is the `option` of its `domain_power` action.
        names.extend(
            a.powers
                .iter()
                .enumerate()
                .map(|(k, p)| format!("power_{k}_{}", crate::feats::catalog::power_resource_key(&p.name))),
        );
        if let Some(m) = a.mutagen {
            names.push(format!("mutagen_{}", m.score.name()));
        }
    }
    let p = &f.class.pools;
    let pools = [
        ("channel_energy", Some(p.channel_energy), abilities.is_some_and(|a| a.channel.is_some())),
        ("hexes", p.hexes, true),
        ("grit", Some(p.grit), abilities.is_some_and(|a| !a.deeds.is_empty())),
        ("arcane_pool", Some(p.arcane_pool), abilities.is_some_and(|a| a.arcane_enhancement > 0)),
        ("bardic_rounds", Some(p.bardic_rounds), abilities.is_some_and(|a| a.inspire_courage > 0)),
    ]
    .into_iter()
    .filter_map(|(name, left, has)| {
        left.filter(|_| has).map(|left| PoolView { name: name.to_string(), left: u32::from(left) })
    })
    .chain(abilities.into_iter().flat_map(|a| {
        a.powers.iter().zip(p.powers).map(|(power, left)| PoolView {
            name: crate::feats::catalog::power_resource_key(&power.name),
            left: u32::from(left),
        })
    }))
    .chain(
        abilities
            .filter(|a| a.mutagen.is_some())
            .map(|_| PoolView { name: "mutagen".to_string(), left: u32::from(p.mutagen) }),
    )
    .collect();
    Some(MagicView {
        caster_level: caster.map_or(0, |c| c.cl),
        spell_levels,
        metamagic: caster
            .map_or_else(Vec::new, |c| c.metamagic.short_names().into_iter().map(str::to_string).collect()),
        abilities: names,
        pools,
        held: f.casting.held.map(|h| spell_id(h.cast.spell)),
        casting: f.casting.pending.as_ref().map(|p| spell_id(p.cast.spell)),
        performing: f.class.performing,
    })
}

fn pair_view(b: &BattleState<'_>, i: usize, j: usize) -> PairView {
    let here = b.pos(i);
    let enemy = b.are_enemies(i, j);
    let active = b.is_active(j);
    let (weapon, weapon_reason) = if enemy && active {
        match b.weapon_for(i, j, here) {
            Ok(w) => (Some(w), None),
            Err(reason) => (None, Some(reason.as_str().to_string())),
        }
    } else {
        (None, None)
    };
    let may_charge = b.life(i) != LifeState::Disabled
        && !b.flags(i).has(crate::effects::Flags::NO_RUN_CHARGE)
        && !b.flags(i).has(crate::effects::Flags::CANT_MOVE);
    PairView {
        other: b.id(j).to_string(),
        enemy,
        distance_ft: b.distance(i, j),
        line_of_effect: b.line_of_effect_from(i, here, j),
        weapon,
        weapon_reason,
        can_charge: enemy && active && may_charge && b.charge_end(i, j).is_ok(),
        step_to_attack: if enemy && active && weapon.is_none() {
            b.step_to_attack(i, j).map(pos)
        } else {
            None
        },
        threatens_me: b.threatens(j, i),
        i_threaten: b.threatens(i, j),
        flanking: enemy && active && b.flanked(i, j),
    }
}

/// The observation of `acting`'s turn in `battle`.
pub fn observe(battle: &BattleState<'_>, acting: usize) -> Observation {
    let n = battle.len();
    // Rows reserved for summoned creatures not on the battlefield are left out.
    let alive = |j: usize| battle.life(j) != LifeState::Dead && !battle.fighters[j].gone;
    Observation {
        schema_version: OBSERVATION_SCHEMA_VERSION,
        round: battle.round(),
        acting: battle.id(acting).to_string(),
        map: map_view(battle),
        initiative: battle.initiative_order().iter().map(|&j| battle.id(j).to_string()).collect(),
        combatants: (0..n).filter(|&j| alive(j)).map(|j| combatant_view(battle, j)).collect(),
        pairs: (0..n).filter(|&j| j != acting && alive(j)).map(|j| pair_view(battle, acting, j)).collect(),
        last_results: battle
            .last_results(acting)
            .iter()
            .map(|r| match (r.ok, r.reason) {
                (true, None) => format!("{}:ok", r.kind.name()),
                (true, Some(reason)) => format!("{}:ok:{}", r.kind.name(), reason.as_str()),
                (false, reason) => {
                    format!("{}:{}", r.kind.name(), reason.map_or("failed", |x| x.as_str()))
                }
            })
            .collect(),
        magic: magic_view(battle, acting),
    }
}

fn flag(b: bool) -> u8 {
    u8::from(b)
}

fn opt<T: std::fmt::Display>(v: &Option<T>) -> String {
    v.as_ref().map_or_else(|| "-".to_string(), T::to_string)
}

fn list(items: &[String]) -> String {
    if items.is_empty() { "-".into() } else { items.join(",") }
}

/// Text fields may not contain the separators of the compact form.
fn clean(text: &str) -> String {
    text.chars().map(|c| if matches!(c, ';' | ':' | '\n' | '\r' | ',') { ' ' } else { c }).collect()
}

impl Observation {
    /// The compact text form sent to a model: one `key=value` line per
    /// item, starting with `schema_version=`; attacks are positional tuples
    /// described once by the `attack_fields=` legend; booleans are 1/0;
    /// `-` marks an absent value.
    pub fn render(&self) -> String {
        let mut out = String::with_capacity(2048);
        let mut line = |text: String| {
            out.push_str(&text);
            out.push('\n');
        };
        line(format!("schema_version={}", self.schema_version));
        line(format!("round={} acting={}", self.round, self.acting));
        let m = &self.map;
        line(format!("map={} size={}x{} square_ft={}", clean(&m.name), m.width, m.height, m.square_ft));
        for t in &m.terrain {
            line(format!(
                "terrain row={} cols={}-{} type={} cost={} blocks_los={} cover={} elevation={}",
                t.row,
                t.from_col,
                t.to_col,
                clean(&t.kind),
                opt(&t.move_cost),
                flag(t.blocks_los),
                t.cover,
                t.elevation
            ));
        }
        line(format!("initiative={}", list(&self.initiative)));
        line("attack_fields=index:name:melee:bonus:damage:crit:reach_or_increment_ft:count:unusable".into());
        for c in &self.combatants {
            let effects: Vec<String> =
                c.effects.iter().map(|e| format!("{}:{}", clean(&e.name), opt(&e.rounds_left))).collect();
            let attacks: Vec<String> = c
                .attacks
                .iter()
                .enumerate()
                .map(|(w, a)| {
                    format!(
                        "{w}:{}:{}:{:+}:{}:{}:{}:{}:{}",
                        clean(&a.name),
                        flag(a.melee),
                        a.bonus,
                        a.damage,
                        a.crit,
                        a.reach_or_increment_ft,
                        a.count,
                        opt(&a.unusable)
                    )
                })
                .collect();
            line(format!(
                "combatant id={} side={} pos={},{} space={} size={} hp={}/{} temp_hp={} state={} ac={}/{}/{} speed={} aoo_left={} power_attack={}{} conditions={} effects={} attacks={}{}",
                c.id,
                c.side,
                c.pos[0],
                c.pos[1],
                c.space,
                c.size,
                c.hp,
                c.hp_max,
                c.temp_hp,
                c.state,
                c.ac[0],
                c.ac[1],
                c.ac[2],
                c.speed_ft,
                c.aoo_left,
                flag(c.power_attack),
                if c.power_attack_feat { " power_attack_feat=1" } else { "" },
                list(&c.conditions),
                if effects.is_empty() { "-".into() } else { effects.join(";") },
                if attacks.is_empty() { "-".into() } else { attacks.join(";") },
                c.summoned.as_ref().map_or_else(String::new, |s| format!(
                    " summoned_by={} summon_rounds_left={}",
                    s.by, s.rounds_left
                )),
            ));
        }
        if let Some(m) = &self.magic {
            line(format!(
                "magic caster_level={} metamagic={} abilities={} pools={} held={} casting={} performing={}",
                m.caster_level,
                list(&m.metamagic),
                list(&m.abilities),
                list(&m.pools.iter().map(|p| format!("{}:{}", p.name, p.left)).collect::<Vec<_>>()),
                opt(&m.held),
                opt(&m.casting),
                flag(m.performing)
            ));
            for l in &m.spell_levels {
                let left = l.slots_left.map_or_else(|| "at_will".to_string(), |n| n.to_string());
                line(format!("spells level={} left={} known={}", l.level, left, list(&l.spells)));
            }
        }
        for p in &self.pairs {
            let step = p.step_to_attack.map_or_else(|| "-".to_string(), |[r, c]| format!("{r},{c}"));
            line(format!(
                "pair other={} enemy={} distance_ft={} line_of_effect={} weapon={} why={} can_charge={} step_to_attack={} threatens_me={} i_threaten={} flanking={}",
                p.other,
                flag(p.enemy),
                p.distance_ft,
                flag(p.line_of_effect),
                opt(&p.weapon),
                opt(&p.weapon_reason),
                flag(p.can_charge),
                step,
                flag(p.threatens_me),
                flag(p.i_threaten),
                flag(p.flanking)
            ));
        }
        line(format!("last_results={}", list(&self.last_results)));
        out
    }
}
