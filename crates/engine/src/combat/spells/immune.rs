//! What spells and abilities cannot do to a creature: its file's
//! `immunities` read as descriptors and conditions, and the traits of its
//! type (CRB "Undead Traits", "Construct Traits").

use crate::effects::{ConditionId, ConditionSet, Descriptor, Descriptors};
use crate::model::Combatant;
use crate::spell::model::{CreatureType, Subschool};

/// A creature's immunities to effects.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Immune {
    /// Effects with one of these descriptors do nothing to it.
    pub descriptors: Descriptors,
    /// Conditions it never gets.
    pub conditions: ConditionSet,
    /// Spells that allow spell resistance do nothing to it (a golem's immunity to magic).
    pub magic: bool,
    /// Effects that call for a Fortitude save do nothing to it, unless harmless (undead, constructs).
    pub fortitude: bool,
    /// Negative levels and ability damage do nothing to it (undead, constructs).
    pub drain: bool,
    /// Spells of these subschools do nothing to it (bit = `Subschool as u16`).
    pub subschools: u16,
    /// Gaze attacks do nothing to it (an ooze's blind trait).
    pub gaze: bool,
}

/// The descriptors undead and constructs ignore.
const NONLIVING: [Descriptor; 6] = [
    Descriptor::MindAffecting,
    Descriptor::Death,
    Descriptor::Disease,
    Descriptor::Paralysis,
    Descriptor::Poison,
    Descriptor::Sleep,
];

/// The conditions undead and constructs never get.
const NONLIVING_CONDITIONS: [ConditionId; 6] = [
    ConditionId::Stunned,
    ConditionId::Paralyzed,
    ConditionId::Asleep,
    ConditionId::Fatigued,
    ConditionId::Exhausted,
    ConditionId::Bleeding,
];

impl Immune {
    /// The immunities of `c`, of type `ctype`.
    pub fn of(c: &Combatant, ctype: Option<CreatureType>) -> Self {
        let mut desc: Vec<Descriptor> = Vec::new();
        let mut conds = ConditionSet::EMPTY;
        let mut me = Immune::default();
        let nonliving = matches!(ctype, Some(CreatureType::Undead | CreatureType::Construct))
            || c.abilities.con_score.is_none();
        if nonliving {
            desc.extend(NONLIVING);
            for k in NONLIVING_CONDITIONS {
                conds = conds.with(k);
            }
            me.fortitude = true;
            me.drain = true;
            if ctype == Some(CreatureType::Construct) {
                desc.push(Descriptor::Necromancy);
            }
        }
        for name in &c.immunities {
            let n = name.trim().to_lowercase().replace([' ', '-'], "_");
            if let Some(d) = Descriptor::from_name(&n) {
                desc.push(d);
            }
            match n.as_str() {
                "magic" => me.magic = true,
                "gaze" => me.gaze = true,
                "paralysis" => conds = conds.with(ConditionId::Paralyzed),
                "sleep" => conds = conds.with(ConditionId::Asleep),
                "stun" | "stunning" | "stunned" => conds = conds.with(ConditionId::Stunned),
                "phantasm" => me.subschools |= 1 << Subschool::Phantasm as u16,
                "polymorph" => me.subschools |= 1 << Subschool::Polymorph as u16,
                // Visual effects (an ooze's "blind" trait): what they do is
                // take sight away or dazzle it (Glitterdust, Color Spray's
                // blindness, Flare).
                "visual" => conds = conds.with(ConditionId::Blinded).with(ConditionId::Dazzled),
                other => {
                    if let Some(k) = ConditionId::from_name(other) {
                        conds = conds.with(k);
                    }
                }
            }
        }
        me.descriptors = Descriptors::of(&desc);
        me.conditions = conds;
        me
    }

    /// Whether a spell of subschool `sub` does nothing to it.
    pub fn subschool(&self, sub: Option<Subschool>) -> bool {
        sub.is_some_and(|s| self.subschools >> s as u16 & 1 == 1)
    }
}
