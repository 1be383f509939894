//! The paladin's channel positive energy (CRB "Paladin", 4th level): the
//! cleric's positive channel at the paladin's level, paid with two uses of
//! lay on hands; its load errors; and the default policy's choice between
//! it and a lay on hands over many seeds.

use serde_json::json;

use super::paladin::{refused, seeded};
use super::support::*;
use crate::combat::SimOptions;
use crate::combat::abilities::Channel;
use crate::combat::action::{Action, ActionKind, Reason};
use crate::combat::event::{Event, Record};
use crate::combat::prepared::PreparedEncounter;

/// A paladin of `level` (Cha 14: +2) with lay on hands, channel positive
/// energy, five uses of lay on hands and a mundane longsword.
fn paladin(level: u32) -> crate::model::Combatant {
    super::paladin::paladin_with(level, vec![json!("Lay On Hands"), json!("Channel Positive Energy")])
}

/// An undead foe of `hp` hit points, Will +2.
fn undead(name: &str, hp: i32) -> crate::model::Combatant {
    creature(
        name,
        json!({ "hp_max": hp, "creature_type": "undead", "alignment": "NE",
                "saves": { "fort": 0, "ref": 0, "will": 2 },
                "attacks": [melee("claw", 2, "1d3")] }),
    )
}

/// The compiled channel of the encounter's first combatant.
fn channel_of(prep: &PreparedEncounter) -> Option<Channel> {
    prep.fighters[0].abilities.as_deref().and_then(|a| a.channel)
}

// ---- the rule ----

#[test]
fn a_paladin_channels_half_her_level_rounded_up_d6_at_dc_10_half_level_cha_and_a_reference_paladin_too() {
    for (level, dice, dc) in [(4, 2, 14), (5, 3, 14), (6, 3, 15), (8, 4, 16)] {
        let prep = prepare(arena(3, 6), vec![("a", paladin(level), at(1, 1))]);
        let ch = channel_of(&prep).expect("a channel");
        assert_eq!(
            ch,
            Channel { positive: true, dice, dc, sun: 0, from_hands: true },
            "paladin {level}: (level + 1) / 2 d6, DC 10 + level / 2 + Cha 2"
        );
    }
    // The reference paladins: Cha 14 at 4th level, 16 at 6th and 8th.
    for (file, dice, dc) in [
        ("data/pcs/paladin4.json", 2, 14),
        ("data/pcs/paladin6.json", 3, 16),
        ("data/pcs/paladin8.json", 4, 17),
    ] {
        let prep = prepare_magic(arena(3, 6), vec![("a", data_combatant(file), at(1, 1))]);
        let ch = channel_of(&prep).expect(file);
        assert_eq!((ch.positive, ch.dice, ch.dc, ch.from_hands), (true, dice, dc, true), "{file}");
    }
    // The paladin 2 has none yet; a cleric's channel is paid with its own uses.
    let prep = prepare_magic(arena(3, 6), vec![("a", data_combatant("data/pcs/paladin2.json"), at(1, 1))]);
    assert_eq!(channel_of(&prep), None);
    let prep = prepare_magic(arena(3, 6), vec![("a", data_combatant("data/pcs/oni.json"), at(1, 1))]);
    assert!(channel_of(&prep).is_some_and(|c| !c.from_hands));
}

/// A paladin 6 at (1, 1), two wounded allies beside her and one 35 ft
/// away, two undead foes within the burst.
fn burst_scene() -> PreparedEncounter {
    let ally = |name: &str| creature(name, json!({ "hp_max": 30 }));
    prepare(
        arena(4, 10),
        vec![
            ("a", paladin(6), at(1, 1)),
            ("a", ally("Near"), at(1, 2)),
            ("a", ally("Far"), at(1, 8)),
            ("b", undead("Ghoul", 40), at(2, 2)),
            ("b", undead("Wight", 40), at(3, 3)),
        ],
    )
}

#[test]
fn a_channel_heals_everyone_living_in_30_ft_and_spends_two_uses_of_lay_on_hands() {
    let prep = burst_scene();
    let mut b = Bench::new(&[2, 3, 4]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.st.fighters[0].hp = 30;
    e.st.fighters[1].hp = 10;
    e.st.fighters[2].hp = 10;
    turn(&mut e, 0, vec![Action::new(ActionKind::ChannelEnergy).with_option(0)]);
    // 3d6 = 9 to herself and the near ally; the far ally is 35 ft away; undead are not healed.
    assert_eq!((e.st.hp(0), e.st.hp(1), e.st.hp(2)), (39, 19, 10));
    assert_eq!((e.st.hp(3), e.st.hp(4)), (40, 40));
    assert_eq!(e.st.fighters[0].class.pools.lay_on_hands, 3, "two of five uses");
    assert_eq!(e.st.fighters[0].class.pools.channel_energy, 0, "no channel energy pool is touched");
    drop(e);
    let channels: Vec<(u32, bool, u32)> = b
        .events
        .iter()
        .filter_map(|r| match r.event {
            Event::ChannelsEnergy { who: 0, positive: true, dice, heals, creatures } => {
                Some((dice, heals, creatures))
            }
            _ => None,
        })
        .collect();
    assert_eq!(channels, vec![(3, true, 2)]);
}

#[test]
fn a_channel_harms_undead_will_half_at_the_paladin_dc_and_is_refused_with_one_use_left() {
    let prep = burst_scene();
    // 3d6 = 12; the ghoul fails (d20 1), the wight saves (d20 20): 12 and 6.
    let mut b = Bench::new(&[4, 4, 4, 1, 20]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::new(ActionKind::ChannelEnergy).with_option(1)]);
    assert_eq!((e.st.hp(3), e.st.hp(4)), (28, 34));
    assert_eq!(e.st.fighters[0].class.pools.lay_on_hands, 3);
    // One use left: refused, nothing spent, nothing rolled.
    e.st.fighters[0].class.pools.lay_on_hands = 1;
    turn(&mut e, 0, vec![Action::new(ActionKind::ChannelEnergy).with_option(1)]);
    assert_eq!(e.st.last_results(0)[0].reason, Some(Reason::NoAbility));
    assert_eq!(e.st.fighters[0].class.pools.lay_on_hands, 1);
    assert_eq!((e.st.hp(3), e.st.hp(4)), (28, 34));
    drop(e);
    let saves: Vec<(usize, i32)> = b
        .events
        .iter()
        .filter_map(|r| match r.event {
            Event::Save { who, dc, .. } => Some((who, dc)),
            _ => None,
        })
        .collect();
    assert_eq!(saves, vec![(3, 15), (4, 15)], "Will DC 10 + 3 + 2, once per undead");
    let channels = b.events.iter().filter(|r| matches!(r.event, Event::ChannelsEnergy { .. })).count();
    assert_eq!(channels, 1, "the refused channel emits nothing");
}

#[test]
fn over_many_seeds_each_channel_rolls_its_dice_and_spends_two_uses() {
    for (level, dice) in [(4u32, 2u32), (6, 3), (8, 4)] {
        let prep = prepare(
            arena(4, 10),
            vec![
                ("a", paladin(level), at(1, 1)),
                ("a", creature("Ally", json!({ "hp_max": 60 })), at(1, 2)),
                ("b", creature("Foe", json!({ "hp_max": 40 })), at(3, 9)),
            ],
        );
        for seed in 0..24 {
            let mut rng = crate::rng::SeededRng::for_run(72, seed);
            let mut events = Vec::new();
            let mut e = crate::combat::engine::Engine::new(
                &prep,
                &SimOptions::default(),
                &mut rng,
                Some(&mut events),
            );
            e.st.fighters[1].hp = 1;
            // Five uses: two channels, then one use is too few.
            for (k, expected) in [3u16, 1, 1].into_iter().enumerate() {
                let before = e.st.hp(1);
                e.take_turn(0, &mut script(vec![Action::new(ActionKind::ChannelEnergy).with_option(0)]));
                assert_eq!(e.st.fighters[0].class.pools.lay_on_hands, expected, "level {level}, seed {seed}");
                let healed = e.st.hp(1) - before;
                if k == 2 {
                    assert_eq!(healed, 0, "refused with one use left");
                } else {
                    assert!((dice as i32..=6 * dice as i32).contains(&healed), "{healed} from {dice}d6");
                }
            }
            drop(e);
            let rolled: Vec<u32> = events
                .iter()
                .filter_map(|r| match r.event {
                    Event::ChannelsEnergy { dice, .. } => Some(dice),
                    _ => None,
                })
                .collect();
            assert_eq!(rolled, vec![dice, dice], "level {level}, seed {seed}");
        }
    }
}

// ---- load errors ----

#[test]
fn channel_positive_energy_is_refused_below_4th_level_without_lay_on_hands_twice_or_beside_channel_energy() {
    let early = refused(3, json!(["Lay On Hands", "Channel Positive Energy"]));
    assert!(
        early.contains(
            "\"Channel Positive Energy\" is a paladin ability of level 4 or more; this combatant is level 3"
        ),
        "{early}"
    );
    let cleric = refused(6, json!(["Channel Positive Energy"]));
    assert!(cleric.contains("this combatant has no \"Lay On Hands\""), "{cleric}");
    let both = refused(6, json!(["Lay On Hands", "Channel Energy", "Channel Positive Energy"]));
    assert!(both.contains("one channel per combatant"), "{both}");
    let twice = refused(6, json!(["Lay On Hands", "Channel Positive Energy", "Channel Positive Energy"]));
    assert!(twice.contains("listed twice"), "{twice}");
    // Lay On Hands may be listed after it.
    assert_eq!(refused(4, json!(["Channel Positive Energy", "Lay On Hands"])), "");
}

// ---- the policy ----

/// The first healing act of combatant 0: a channel (`true` when it heals,
/// `false` when it harms) or a lay on hands (its target).
#[derive(Debug, PartialEq)]
enum First {
    Channel(bool),
    Hands(usize),
}

fn first_act(events: &[Record]) -> Option<First> {
    events.iter().find_map(|r| match r.event {
        Event::ChannelsEnergy { who: 0, heals, .. } => Some(First::Channel(heals)),
        Event::LaysOnHands { who: 0, target, .. } => Some(First::Hands(target)),
        _ => None,
    })
}

/// The reference paladin 6 at (2, 2), three allies of 40 hit points within
/// 30 ft of her, a brute 100 ft away (out of the burst after its charge).
fn party_scene() -> PreparedEncounter {
    // Archers: they shoot from where they stand and stay in her burst.
    let ally =
        |name: &str| creature(name, json!({ "hp_max": 40, "attacks": [ranged("longbow", 6, "1d8", 100)] }));
    prepare_magic(
        arena(6, 24),
        vec![
            ("players", data_combatant("data/pcs/paladin6.json"), at(2, 2)),
            ("players", ally("Ann"), at(2, 3)),
            ("players", ally("Bob"), at(3, 4)),
            ("players", ally("Cid"), at(4, 2)),
            (
                "monsters",
                creature(
                    "Brute",
                    json!({ "hp_max": 120, "alignment": "CE", "speed_land_ft": 20,
                                          "attacks": [melee("club", 6, "2d6+4")] }),
                ),
                at(2, 22),
            ),
        ],
    )
}

#[test]
fn the_policy_channels_for_three_wounded_allies_and_lays_hands_on_a_lone_dying_one() {
    let prep = party_scene();
    for events in seeded(&prep, 73, 16, |e| {
        for j in 1..=3 {
            e.st.fighters[j].hp = 12;
        }
    }) {
        assert_eq!(first_act(&events), Some(First::Channel(true)));
        // Her first action: the channel, before any swing; it catches her three allies and herself.
        let channel = events.iter().position(|r| matches!(r.event, Event::ChannelsEnergy { who: 0, .. }));
        let swing = events.iter().position(|r| matches!(&r.event, Event::Attack(a) if a.who == 0));
        assert!(channel < swing.or(Some(usize::MAX)), "channeled after swinging");
        let caught = events.iter().find_map(|r| match r.event {
            Event::ChannelsEnergy { who: 0, creatures, .. } => Some(creatures),
            _ => None,
        });
        assert_eq!(caught, Some(4), "{:#?}", english(&prep, &events));
    }
    // One dying ally, the others unhurt: a lay on hands (one use), not a
    // channel (two). Judged in the battles where she acts before the dying
    // ally may stabilize (initiative events come in initiative order).
    let mut before_bob = 0;
    for events in seeded(&prep, 73, 24, |e| e.st.fighters[2].hp = -3) {
        let rank = |j: usize| {
            events.iter().position(|r| matches!(r.event, Event::Initiative { who, .. } if who == j))
        };
        if rank(0) < rank(2) {
            before_bob += 1;
            assert_eq!(first_act(&events), Some(First::Hands(2)), "{:#?}", english(&prep, &events));
        }
        let early_channel = events
            .iter()
            .take_while(|r| r.round <= 1)
            .any(|r| matches!(r.event, Event::ChannelsEnergy { who: 0, .. }));
        assert!(!early_channel, "channeled for one ally");
    }
    assert!(before_bob >= 6, "she acted before the dying ally in {before_bob} of 24 battles");
    // One ally under half, conscious: not worth two uses.
    for events in seeded(&prep, 73, 16, |e| e.st.fighters[1].hp = 12) {
        let early_channel = events
            .iter()
            .take_while(|r| r.round <= 1)
            .any(|r| matches!(r.event, Event::ChannelsEnergy { who: 0, .. }));
        assert!(!early_channel, "channeled for one ally");
    }
}

#[test]
fn the_policy_channels_to_harm_three_zombies_in_the_burst() {
    let placed = |n: usize| {
        let mut v = vec![("players", data_combatant("data/pcs/paladin6.json"), at(3, 3))];
        for p in [at(2, 5), at(4, 5), at(3, 6)].into_iter().take(n) {
            v.push(("monsters", data_combatant("data/monsters/human_zombie.json"), p));
        }
        v
    };
    let prep = prepare_magic(arena(7, 12), placed(3));
    for events in seeded(&prep, 73, 16, |_| {}) {
        assert_eq!(first_act(&events), Some(First::Channel(false)));
        let harmed = events.iter().find_map(|r| match r.event {
            Event::ChannelsEnergy { who: 0, heals: false, creatures, .. } => Some(creatures),
            _ => None,
        });
        assert_eq!(harmed, Some(3), "the three zombies in the burst");
        // Six uses, one kept for healing: two channels at most.
        let channels =
            events.iter().filter(|r| matches!(r.event, Event::ChannelsEnergy { who: 0, .. })).count();
        assert!(channels <= 2, "{channels} channels");
    }
    // A lone zombie: her sword, never a channel.
    let prep = prepare_magic(arena(7, 12), placed(1));
    for events in seeded(&prep, 73, 16, |_| {}) {
        assert!(
            !events.iter().any(|r| matches!(r.event, Event::ChannelsEnergy { .. })),
            "channeled on one zombie"
        );
    }
}
