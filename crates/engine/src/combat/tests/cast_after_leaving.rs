//! A caster who starts its turn in a foe's harmful area moves out first
//! (`policy::areas`) and keeps the spell it planned only when the spell
//! still does its work from where it gets out (`policy::cast_from`): a
//! ray at a foe 30 ft away, out of its 35-ft range once it has stepped
//! back out of the cloud, gives way to another action, never to a cast
//! refused for range.

use serde_json::json;

use super::support::*;
use crate::combat::action::{Action, ActionKind, Reason};
use crate::combat::decide::Policy;
use crate::combat::policy::DefaultPolicy;
use crate::rng::SeededRng;

#[test]
fn a_caster_leaving_a_cloud_drops_a_ray_the_way_out_takes_out_of_range() {
    // The stinking cloud (20-ft radius around (5, 10)) covers columns 6 to
    // 14 of row 5; the wizard on (5, 7) gets out westward in 10 ft, to
    // (5, 5), 45 ft from the brute on (5, 14): out of the ray's 35 ft (25
    // + 5 per two levels), which reaches it from (5, 7).
    let prep = prepare_magic(
        arena(12, 34),
        vec![
            (
                "a",
                caster("Wizard", &["Ray of Enfeeblement"], json!({ "spell_list": "wizard", "hp_max": 300 })),
                at(5, 7),
            ),
            (
                "b",
                caster("Stinker", &["Stinking Cloud"], json!({ "spell_list": "wizard", "hp_max": 300 })),
                at(5, 32),
            ),
            ("b", club_ogre(json!({ "hp_max": 300 })), at(5, 14)),
        ],
    );
    let cloud = prep.spell_index("Stinking Cloud").expect("the spell");
    let ray = prep.spell_index("Ray of Enfeeblement").expect("the spell");
    let (mut kept, mut dropped) = (0, 0);
    for seed in 0..40 {
        let mut rng = SeededRng::for_run(91, seed);
        let mut e = started(&prep, &mut rng, None);
        let mut a = Action::cast(cloud, None);
        a.destination = Some(at(5, 10));
        assert!(e.execute_for_test(1, a).ok);
        e.start_round();
        let mut plan = Vec::new();
        DefaultPolicy.plan(&e.st, 0, &mut plan);
        let leaves =
            plan.first().is_some_and(|a| matches!(a.kind, ActionKind::Move | ActionKind::FiveFootStep));
        if !leaves {
            continue;
        }
        let casts = plan.iter().any(|a| a.spell == Some(ray));
        for a in plan {
            let r = e.execute_for_test(0, a);
            assert_ne!(r.reason, Some(Reason::OutOfRange), "seed {seed}: a cast refused for range");
        }
        if casts { kept += 1 } else { dropped += 1 }
    }
    assert!(dropped > 0, "the way out never took the ray out of range ({kept} kept)");
}
