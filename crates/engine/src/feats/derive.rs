//! Printed statistics recomputed from base values: ability scores, base
//! attack bonus, base saves, hit dice, equipment bonuses and resolved feats.
//!
//! The engine plays the final values of the data files; this pure function
//! is how a test proves those values right (a PC's sheet against its class,
//! level, abilities and feats) and the place where the feats that are
//! "included in final values" (Weapon Focus, Iron Will, Toughness, Dodge,
//! Improved Critical, Multiattack, Weapon Finesse…) take effect.

use crate::dice::ability_modifier;
use crate::effects::stacking::{Tally, counts_for_cmd, counts_vs_touch, kept_when_denied_dex};
use crate::effects::{BonusType, ModTarget, Modifier};
use crate::model::{Abilities, ArmorClass, AttackKind, Saves, Size};

use super::resolve::ResolvedFeatures;

/// One weapon or natural attack, before any number is added to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BaseWeapon {
    /// Name (what feat weapon filters match).
    pub name: String,
    /// Melee, ranged or touch (touch without range: melee).
    pub kind: AttackKind,
    /// Has a range increment (thrown or projectile; ranged touch).
    pub ranged: bool,
    /// Enhancement bonus (attack and damage).
    pub enhancement: i32,
    /// A light or finesse weapon (Weapon Finesse applies).
    pub finesse: bool,
    /// Wielded in two hands (1.5 × Strength to damage).
    pub two_handed: bool,
    /// A secondary natural attack (−5, ½ Strength to damage).
    pub secondary: bool,
    /// Strength adds to its damage (melee, thrown, composite bows).
    pub strength_to_damage: bool,
    /// Lowest natural roll that threatens, before Improved Critical.
    pub crit_range: u32,
}

/// What a character sheet is computed from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BaseStatistics {
    /// Ability scores.
    pub abilities: Abilities,
    /// Size.
    pub size: Size,
    /// Base attack bonus.
    pub bab: i32,
    /// Hit Dice.
    pub hit_dice: u32,
    /// Hit points from the Hit Dice alone (before Constitution and feats).
    pub hit_die_hp: i32,
    /// Base saves of the class(es) and racial Hit Dice.
    pub base_saves: Saves,
    /// Bonuses from equipment, race and nature on the printed numbers: AC
    /// (`armor`, `shield`, `natural_armor`, `deflection`…), saves (a cloak's
    /// `resistance`), initiative, attack and damage (a masterwork weapon's
    /// `+1 enhancement` with its `weapon`). Only unconditioned modifiers are
    /// printed numbers; the others are ignored here.
    pub bonuses: Vec<Modifier>,
    /// The lowest maximum Dexterity bonus of the armor and shield worn
    /// (`None`: no limit). It caps Dexterity in AC and touch AC, not in CMD.
    pub max_dex: Option<i32>,
    /// Attacks.
    pub weapons: Vec<BaseWeapon>,
}

/// One derived attack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DerivedAttack {
    /// Attack bonus.
    pub attack_bonus: i32,
    /// Flat damage bonus (the `+N` of the printed damage).
    pub damage_bonus: i32,
    /// Lowest natural roll that threatens.
    pub crit_range: u32,
}

/// The printed statistics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DerivedStatistics {
    /// Armor classes.
    pub ac: ArmorClass,
    /// Saves.
    pub saves: Saves,
    /// Initiative modifier.
    pub initiative: i32,
    /// Maximum hit points.
    pub hp_max: i32,
    /// One per base weapon, in order.
    pub attacks: Vec<DerivedAttack>,
    /// Combat maneuver bonus.
    pub cmb: i32,
    /// Combat maneuver defense.
    pub cmd: i32,
}

/// The combat maneuver bonus from its parts (CRB "Combat Maneuver Bonus":
/// BAB + Strength + special size; Tiny and smaller, or Agile Maneuvers, use
/// Dexterity).
pub fn cmb(bab: i32, str_mod: i32, dex_mod: i32, size: Size, agile: bool) -> i32 {
    let ability = if size <= Size::Tiny || agile { dex_mod } else { str_mod };
    bab + ability + size.special_modifier()
}

/// The combat maneuver defense from its parts (CRB "Combat Maneuver
/// Defense": 10 + BAB + Strength + Dexterity + special size), before AC
/// bonuses of the eight types and penalties.
pub fn cmd(bab: i32, str_mod: i32, dex_mod: i32, size: Size) -> i32 {
    10 + bab + str_mod + dex_mod + size.special_modifier()
}

/// A threat range doubled by Improved Critical (CRB: 20 → 19–20, 19–20 → 17–20, 18–20 → 15–20).
pub const fn doubled_threat(crit_range: u32) -> u32 {
    let width = 21u32.saturating_sub(crit_range);
    21u32.saturating_sub(2 * width)
}

fn matches_weapon(m: &Modifier, weapon: &str) -> bool {
    m.weapon.as_deref().is_none_or(|w| weapon.to_lowercase().contains(&w.trim().to_lowercase()))
}

/// Sums the final-value modifiers of `features` on `targets` (optionally for one weapon).
fn feat_tally(features: &ResolvedFeatures, targets: &[ModTarget], weapon: Option<&str>) -> Tally {
    let mut t = Tally::new();
    for m in features.in_final_values().filter(|m| targets.contains(&m.target)) {
        let ok = match (weapon, &m.weapon) {
            (_, None) => true,
            (Some(w), Some(_)) => matches_weapon(m, w),
            (None, Some(_)) => false,
        };
        if ok {
            t.add(m.bonus_type, m.value);
        }
    }
    t
}

/// Adds the unconditioned `bonuses` of `base` on `targets` (optionally for one weapon) to `t`.
fn add_bonuses(t: &mut Tally, base: &BaseStatistics, targets: &[ModTarget], weapon: Option<&str>) {
    for m in base.bonuses.iter().filter(|m| m.condition.is_none() && targets.contains(&m.target)) {
        let ok = match (weapon, &m.weapon) {
            (_, None) => true,
            (Some(w), Some(_)) => matches_weapon(m, w),
            (None, Some(_)) => false,
        };
        if ok {
            t.add(m.bonus_type, m.value);
        }
    }
}

/// Recomputes the printed statistics.
pub fn derive(base: &BaseStatistics, features: &ResolvedFeatures) -> DerivedStatistics {
    let a = &base.abilities;
    let (str_mod, dex_mod) = (ability_modifier(a.str_score), ability_modifier(a.dex_score));
    let con_mod = a.con_score.map_or(0, ability_modifier);
    let wis_mod = ability_modifier(a.wis_score);
    let rules = &features.rules;
    let size = base.size.modifier();

    // Armor class: equipment and feats through the stacking rule.
    let mut ac = feat_tally(features, &[ModTarget::Ac], None);
    add_bonuses(&mut ac, base, &[ModTarget::Ac], None);
    ac.add(BonusType::Size, size);
    let dex_to_ac = base.max_dex.map_or(dex_mod, |max| dex_mod.min(max));
    let total = 10 + dex_to_ac + ac.total();
    let touch = 10 + dex_to_ac + ac.total_where(counts_vs_touch);
    let flat_footed = 10 + dex_to_ac.min(0) + ac.total_where(kept_when_denied_dex);

    let save = |own: ModTarget, base_save: i32, ability: i32| {
        let mut t = feat_tally(features, &[ModTarget::Saves, own], None);
        add_bonuses(&mut t, base, &[ModTarget::Saves, own], None);
        base_save + ability + t.total()
    };
    let saves = Saves {
        fort: save(ModTarget::Fort, base.base_saves.fort, con_mod),
        reflex: save(ModTarget::Ref, base.base_saves.reflex, dex_mod),
        will: save(ModTarget::Will, base.base_saves.will, wis_mod),
    };
    let mut init = feat_tally(features, &[ModTarget::Initiative], None);
    add_bonuses(&mut init, base, &[ModTarget::Initiative], None);
    let initiative = dex_mod + init.total();
    let toughness = if rules.toughness { (base.hit_dice as i32).max(3) } else { 0 };
    let hp_max = base.hit_die_hp + con_mod * base.hit_dice as i32 + toughness;

    let attacks = base
        .weapons
        .iter()
        .map(|w| {
            let melee = !w.ranged;
            let ability = if melee {
                if rules.weapon_finesse && w.finesse { str_mod.max(dex_mod) } else { str_mod }
            } else {
                dex_mod
            };
            let (attack_targets, damage_targets): (&[ModTarget], &[ModTarget]) = if melee {
                (&[ModTarget::Attack, ModTarget::MeleeAttack], &[ModTarget::Damage, ModTarget::MeleeDamage])
            } else {
                (&[ModTarget::Attack, ModTarget::RangedAttack], &[ModTarget::Damage, ModTarget::RangedDamage])
            };
            let secondary = if w.secondary { if rules.multiattack { -2 } else { -5 } } else { 0 };
            let mut attack = feat_tally(features, attack_targets, Some(&w.name));
            add_bonuses(&mut attack, base, attack_targets, Some(&w.name));
            let attack_bonus = base.bab + ability + size + w.enhancement + secondary + attack.total();
            let strength = if !w.strength_to_damage {
                0
            } else if w.two_handed && str_mod > 0 {
                str_mod * 3 / 2
            } else if w.secondary && str_mod > 0 {
                str_mod / 2
            } else {
                str_mod
            };
            let mut damage = feat_tally(features, damage_targets, Some(&w.name));
            add_bonuses(&mut damage, base, damage_targets, Some(&w.name));
            let damage_bonus = strength + w.enhancement + damage.total();
            let improved = rules.improved_critical.iter().any(|filter| {
                filter.as_deref().is_none_or(|f| w.name.to_lowercase().contains(&f.trim().to_lowercase()))
            });
            let crit_range = if improved { doubled_threat(w.crit_range) } else { w.crit_range };
            DerivedAttack { attack_bonus, damage_bonus, crit_range }
        })
        .collect();

    let mut cmb_bonus = feat_tally(features, &[ModTarget::Cmb], None);
    add_bonuses(&mut cmb_bonus, base, &[ModTarget::Cmb], None);
    let cmb_value = cmb(base.bab, str_mod, dex_mod, base.size, rules.agile_maneuvers) + cmb_bonus.total();
    let cmd_bab = if rules.defensive_combat_training { base.hit_dice as i32 } else { base.bab };
    let mut cmd_ac = feat_tally(features, &[ModTarget::Ac], None);
    add_bonuses(&mut cmd_ac, base, &[ModTarget::Ac], None);
    let mut cmd_bonus = feat_tally(features, &[ModTarget::Cmd], None);
    add_bonuses(&mut cmd_bonus, base, &[ModTarget::Cmd], None);
    let cmd_value =
        cmd(cmd_bab, str_mod, dex_mod, base.size) + cmd_ac.total_where(counts_for_cmd) + cmd_bonus.total();

    DerivedStatistics {
        ac: ArmorClass { total, touch, flat_footed },
        saves,
        initiative,
        hp_max,
        attacks,
        cmb: cmb_value,
        cmd: cmd_value,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::feats::{FeatCatalog, resolve};
    use crate::model::Combatant;

    fn shipped(rel: &str) -> Combatant {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data").join(rel);
        crate::model::load_combatant(&path).expect("shipped combatant")
    }

    fn ac(ty: BonusType, value: i32) -> Modifier {
        Modifier::new(ModTarget::Ac, value, ty)
    }

    fn weapon(name: &str, ranged: bool, two_handed: bool, crit_range: u32) -> BaseWeapon {
        BaseWeapon {
            name: name.into(),
            kind: if ranged { AttackKind::Ranged } else { AttackKind::Melee },
            ranged,
            enhancement: 0,
            finesse: false,
            two_handed,
            secondary: false,
            strength_to_damage: !ranged,
            crit_range,
        }
    }

    /// The printed numbers of a shipped file, as `derive` returns them.
    fn printed(c: &Combatant) -> (ArmorClass, Saves, i32, i32, Vec<DerivedAttack>) {
        let attacks = c
            .attacks
            .iter()
            .map(|a| {
                let dice = crate::dice::DiceExpr::parse(&a.damage[0].formula).expect("formula");
                let bonus = dice
                    .terms()
                    .iter()
                    .map(|t| if let crate::dice::Term::Flat(v) = t { *v } else { 0 })
                    .sum::<i32>()
                    + a.damage_bonus;
                DerivedAttack { attack_bonus: a.attack_bonus, damage_bonus: bonus, crit_range: a.crit_range }
            })
            .collect();
        (c.ac, c.saves, c.initiative_mod, c.hp_max, attacks)
    }

    #[test]
    fn the_shipped_fighter_is_recomputed_from_class_level_abilities_and_feats() {
        // NPC Codex "Superstitious Mercenary": human fighter 1, breastplate,
        // heavy wooden shield, longsword, cold iron dagger, heavy crossbow;
        // d10 hit die at maximum; base saves Fort +2, Ref +0, Will +0.
        let c = shipped("pcs/fighter.json");
        let feats = resolve(&c, FeatCatalog::builtin().unwrap()).unwrap();
        let base = BaseStatistics {
            abilities: c.abilities.clone(),
            size: c.size,
            bab: 1,
            hit_dice: 1,
            hit_die_hp: 10,
            base_saves: Saves { fort: 2, reflex: 0, will: 0 },
            bonuses: vec![ac(BonusType::Armor, 6), ac(BonusType::Shield, 2)],
            max_dex: Some(3),
            weapons: vec![
                weapon("longsword", false, false, 19),
                weapon("cold iron dagger", false, false, 19),
                weapon("heavy crossbow", true, false, 19),
            ],
        };
        let d = derive(&base, &feats);
        let (ac, saves, init, hp, attacks) = printed(&c);
        assert_eq!((d.ac, d.saves, d.initiative, d.hp_max), (ac, saves, init, hp));
        assert_eq!(d.attacks, attacks);
        assert_eq!((d.cmb, d.cmd), (4, 16));
    }

    #[test]
    fn the_shipped_orc_holds_its_weapon_focus_in_the_printed_bonus() {
        // Bestiary orc: warrior 1 (base Fort +2), studded leather, falchion two-handed.
        let c = shipped("monsters/orc.json");
        let feats = resolve(&c, FeatCatalog::builtin().unwrap()).unwrap();
        let base = BaseStatistics {
            abilities: c.abilities.clone(),
            size: c.size,
            bab: 1,
            hit_dice: 1,
            hit_die_hp: 5,
            base_saves: Saves { fort: 2, reflex: 0, will: 0 },
            bonuses: vec![ac(BonusType::Armor, 3)],
            max_dex: Some(5),
            weapons: vec![weapon("falchion", false, true, 18)],
        };
        let d = derive(&base, &feats);
        let (ac, saves, init, hp, attacks) = printed(&c);
        assert_eq!((d.ac, d.saves, d.initiative, d.hp_max), (ac, saves, init, hp));
        assert_eq!(d.attacks, attacks, "+5 = BAB 1 + Str 3 + Weapon Focus 1; 2d4+4 = 1.5 × Str 3");
        // Without the feat the derivation gives one less: nothing is counted twice.
        let bare = derive(&base, &ResolvedFeatures::default());
        assert_eq!(bare.attacks[0].attack_bonus, 4);
    }

    #[test]
    fn improved_critical_multiattack_finesse_and_dodge_shape_the_printed_numbers() {
        let c = shipped("monsters/goblin.json");
        let mut with = c.clone();
        with.features = ["Improved Critical (rapier)", "Multiattack", "Weapon Finesse", "Dodge", "Toughness"]
            .map(|f| crate::model::Feature::Name(f.into()))
            .to_vec();
        let feats = resolve(&with, FeatCatalog::builtin().unwrap()).unwrap();
        let mut rapier = weapon("rapier", false, false, 18);
        rapier.finesse = true;
        let mut bite = weapon("bite", false, false, 20);
        bite.secondary = true;
        let base = BaseStatistics {
            abilities: crate::model::Abilities {
                str_score: 8,
                dex_score: 16,
                con_score: Some(10),
                ..c.abilities.clone()
            },
            size: Size::Medium,
            bab: 2,
            hit_dice: 5,
            hit_die_hp: 20,
            base_saves: Saves { fort: 0, reflex: 0, will: 0 },
            bonuses: vec![],
            max_dex: None,
            weapons: vec![rapier, bite],
        };
        let d = derive(&base, &feats);
        assert_eq!(d.attacks[0].crit_range, 15, "18-20 doubled");
        assert_eq!(d.attacks[0].attack_bonus, 2 + 3, "finesse: Dex");
        assert_eq!(d.attacks[1].crit_range, 20, "Improved Critical (rapier) only");
        assert_eq!(d.attacks[1].attack_bonus, 2 - 1 - 2, "Multiattack: secondary at -2, Str -1");
        assert_eq!(d.ac, ArmorClass { total: 14, touch: 14, flat_footed: 10 }, "Dodge is lost flat-footed");
        assert_eq!(d.hp_max, 20 + 5, "Toughness: +1 per Hit Die from 3 up");
        assert_eq!(d.cmd, 10 + 2 - 1 + 3 + 1, "the dodge bonus counts toward CMD");
        assert_eq!(doubled_threat(20), 19);
        assert_eq!(doubled_threat(19), 17);
    }

    #[test]
    fn item_bonuses_reach_saves_initiative_and_one_weapon_and_armor_caps_dexterity() {
        let c = shipped("monsters/goblin.json");
        let bonus = |target, ty, value, weapon: Option<&str>| Modifier {
            weapon: weapon.map(String::from),
            ..Modifier::new(target, value, ty)
        };
        let base = BaseStatistics {
            abilities: crate::model::Abilities { str_score: 10, dex_score: 18, ..c.abilities.clone() },
            size: Size::Medium,
            bab: 3,
            hit_dice: 3,
            hit_die_hp: 18,
            base_saves: Saves { fort: 1, reflex: 1, will: 3 },
            bonuses: vec![
                ac(BonusType::Armor, 9),
                bonus(ModTarget::Saves, BonusType::Resistance, 1, None),
                bonus(ModTarget::Saves, BonusType::Resistance, 2, None),
                bonus(ModTarget::Initiative, BonusType::Untyped, 1, None),
                bonus(ModTarget::Attack, BonusType::Enhancement, 1, Some("longsword")),
            ],
            max_dex: Some(1),
            weapons: vec![weapon("longsword", false, false, 19), weapon("dagger", false, false, 19)],
        };
        let d = derive(&base, &ResolvedFeatures::default());
        assert_eq!(
            d.ac,
            ArmorClass { total: 20, touch: 11, flat_footed: 19 },
            "full plate: Dex +4 capped at +1"
        );
        assert_eq!(d.saves, Saves { fort: 4, reflex: 7, will: 4 }, "resistance bonuses do not stack: +2");
        assert_eq!(d.initiative, 5);
        assert_eq!(
            (d.attacks[0].attack_bonus, d.attacks[1].attack_bonus),
            (4, 3),
            "masterwork longsword only"
        );
        assert_eq!(d.cmd, 10 + 3 + 4, "the armor's cap leaves CMD alone");
    }
}
