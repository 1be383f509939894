//! Globes that keep spells out (CRB "Globe of Invulnerability"): an
//! immobile sphere around the caster's square that "excludes all spell
//! effects of 4th level or lower": such spells "fail to affect any target
//! located within the globe", their areas leave it out, spell-like
//! abilities and items' spells included; any spell may be cast out of it
//! or through it, and spells already in effect when it is raised are not
//! affected. A spell's level is its level for the caster, as Heighten
//! Spell raises it ("a heightened spell ... counts as a higher level for
//! globe of invulnerability").
//!
//! The globe is a zone (`zone.rs`) whose rules name the highest level it
//! excludes; `passes_defenses` asks `globe_excludes` before anything else.

use super::book::Metamagic;
use super::casting::Cast;
use crate::combat::state::BattleState;

impl BattleState<'_> {
    /// The level `cast` has against a globe: the slot spent less the
    /// metamagic's added levels, plus Heighten's; without a slot (a
    /// spell-like ability, an item) the spell's level for its caster.
    pub(crate) fn cast_level(&self, cast: &Cast) -> u8 {
        if cast.slot == 0 {
            let spell = &self.prep.spells[usize::from(cast.spell)].spell;
            return self.level_as_cast_by(cast.caster, spell);
        }
        let heighten = u8::from(cast.metamagic.has(Metamagic::HEIGHTEN));
        cast.slot.saturating_sub(cast.metamagic.level_adjustment()) + heighten
    }

    /// Whether a globe around `t` keeps out a spell of `level`. `zone`: the
    /// spell acts through the lasting area `zones[zone]`, and only the
    /// globes raised before it keep it out (`zones` is in the order they
    /// were opened): an area already in effect when a globe is raised is
    /// not affected.
    pub(crate) fn globe_excludes(&self, t: usize, level: u8, zone: Option<usize>) -> bool {
        let raised_before = zone.unwrap_or(self.zones.len());
        self.zones[..raised_before.min(self.zones.len())].iter().any(|z| {
            self.zone_rules(z).excludes_spells_up_to_level.is_some_and(|up_to| level <= up_to)
                && self.stands_in(z, t)
        })
    }

    /// The highest spell level a globe would keep out of `i` standing on
    /// `q` (0: none stands there), for the policies: a caster does not
    /// step out of its globe.
    pub(crate) fn globe_level_at(&self, i: usize, q: crate::map::Pos) -> u8 {
        if self.zones.is_empty() {
            return 0;
        }
        self.zones
            .iter()
            .filter_map(|z| {
                let up_to = self.zone_rules(z).excludes_spells_up_to_level?;
                crate::grid::footprint(q, self.space(i)).any(|c| z.covers(self, c)).then_some(up_to)
            })
            .max()
            .unwrap_or(0)
    }

    /// Whether `i` casting `spell` (at its level for `i`) would be kept
    /// out of `t` by a globe (for the policies: a table does not waste a
    /// spell on a creature inside a shimmering globe).
    pub(crate) fn globe_shuts_out(&self, i: usize, t: usize, spell: u16) -> bool {
        !self.zones.is_empty()
            && self.globe_excludes(
                t,
                self.level_as_cast_by(i, &self.prep.spells[usize::from(spell)].spell),
                None,
            )
    }
}
