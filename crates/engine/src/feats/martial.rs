//! The martial feats that decide damage, as the catalogue names them
//! (`"rule": "rapid_shot"`…), and what a combatant's features switch on.
//! The rules themselves are played by `combat::martial`
//! (docs/rules/feats.md §6).

crate::named_enum! {
    /// A martial feat the engine plays.
    MartialFeat {
        /// Rapid Shot: one more ranged attack at the highest bonus on a full attack, −2 on all.
        RapidShot => "rapid_shot",
        /// Manyshot: the first attack of a full attack with a bow fires two arrows.
        Manyshot => "manyshot",
        /// Deadly Aim: −1 on ranged attacks, +2 damage, per 4 points of BAB.
        DeadlyAim => "deadly_aim",
        /// Combat Expertise: −1 on melee attacks and CMB, +1 dodge AC, per 4 points of BAB.
        CombatExpertise => "combat_expertise",
        /// Two-Weapon Fighting: two-weapon penalties lessened by 2 (main) and 6 (off hand).
        TwoWeaponFighting => "two_weapon_fighting",
        /// Improved Two-Weapon Fighting: a second off-hand attack at −5.
        ImprovedTwoWeaponFighting => "improved_two_weapon_fighting",
        /// Greater Two-Weapon Fighting: a third off-hand attack at −10.
        GreaterTwoWeaponFighting => "greater_two_weapon_fighting",
        /// Double Slice: the full Strength bonus on off-hand damage.
        DoubleSlice => "double_slice",
        /// Vital Strike: the attack action rolls the weapon dice twice.
        VitalStrike => "vital_strike",
        /// Improved Vital Strike: three times.
        ImprovedVitalStrike => "improved_vital_strike",
        /// Greater Vital Strike: four times.
        GreaterVitalStrike => "greater_vital_strike",
        /// Cleave: after a hit, one attack on a foe adjacent to the first; −2 AC.
        Cleave => "cleave",
        /// Great Cleave: the chain goes on while the attacks hit.
        GreatCleave => "great_cleave",
        /// Mounted Combat: once a round, a Ride check to negate a hit on its mount.
        MountedCombat => "mounted_combat",
        /// Spirited Charge: a mounted charge deals double damage (triple with a lance).
        SpiritedCharge => "spirited_charge",
        /// Unseat: a lance hit of a mounted charge on a rider is followed by a free bull rush that unhorses it.
        Unseat => "unseat",
    }
}

/// The martial feats a combatant has.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Martial {
    /// Rapid Shot.
    pub rapid_shot: bool,
    /// Manyshot.
    pub manyshot: bool,
    /// Deadly Aim.
    pub deadly_aim: bool,
    /// Combat Expertise.
    pub combat_expertise: bool,
    /// Off-hand attacks of a two-weapon full attack: 0 without the feat
    /// (one attack, full penalties), 1 with Two-Weapon Fighting, 2 with
    /// Improved, 3 with Greater.
    pub two_weapon: u8,
    /// Double Slice.
    pub double_slice: bool,
    /// Extra rolls of the weapon dice on the attack action: 1 (Vital
    /// Strike), 2 (Improved), 3 (Greater); 0 without the feat.
    pub vital_strike: u8,
    /// Cleave: 1; Great Cleave: 2; 0 without either.
    pub cleave: u8,
    /// Mounted Combat (`combat::mounted`).
    pub mounted_combat: bool,
    /// Spirited Charge (`combat::mounted`).
    pub spirited_charge: bool,
    /// Unseat (`combat::mounted`).
    pub unseat: bool,
}

impl Martial {
    /// Records feat `f`. The Improved and Greater feats count as the lesser
    /// ones (their prerequisites), whatever the order of the file.
    pub fn set(&mut self, f: MartialFeat) {
        use MartialFeat as M;
        match f {
            M::RapidShot => self.rapid_shot = true,
            M::Manyshot => self.manyshot = true,
            M::DeadlyAim => self.deadly_aim = true,
            M::CombatExpertise => self.combat_expertise = true,
            M::TwoWeaponFighting => self.two_weapon = self.two_weapon.max(1),
            M::ImprovedTwoWeaponFighting => self.two_weapon = self.two_weapon.max(2),
            M::GreaterTwoWeaponFighting => self.two_weapon = self.two_weapon.max(3),
            M::DoubleSlice => self.double_slice = true,
            M::VitalStrike => self.vital_strike = self.vital_strike.max(1),
            M::ImprovedVitalStrike => self.vital_strike = self.vital_strike.max(2),
            M::GreaterVitalStrike => self.vital_strike = self.vital_strike.max(3),
            M::Cleave => self.cleave = self.cleave.max(1),
            M::GreatCleave => self.cleave = 2,
            M::MountedCombat => self.mounted_combat = true,
            M::SpiritedCharge => self.spirited_charge = true,
            M::Unseat => self.unseat = true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn improved_feats_include_the_lesser_ones_in_any_order() {
        let mut m = Martial::default();
        m.set(MartialFeat::ImprovedVitalStrike);
        m.set(MartialFeat::VitalStrike);
        m.set(MartialFeat::GreatCleave);
        m.set(MartialFeat::Cleave);
        m.set(MartialFeat::TwoWeaponFighting);
        assert_eq!((m.vital_strike, m.cleave, m.two_weapon), (2, 2, 1));
    }

    #[test]
    fn names_round_trip_through_serde() {
        for &f in MartialFeat::ALL {
            let json = serde_json::to_string(&f).unwrap();
            assert_eq!(json, format!("\"{}\"", f.name()));
            assert_eq!(serde_json::from_str::<MartialFeat>(&json).unwrap(), f);
        }
    }
}
