//! The worker's engine evaluator against the engine's own batch runner:
//! a shard is exactly the runs the engine plays, whatever the variant.

use pf1e_e2e::data_dir;
use pf1e_engine::combat::SimOptions;
use pf1e_engine::strategy::StrategySpec;
use pf1e_engine::summary::Summary;
use pf1e_wire::evaluate::ShardEvaluator;
use pf1e_wire::scenario::{Scenario, ScenarioSide};
use pf1e_wire::shard::ShardSpec;
use pf1e_wire::variant::{HpFraction, SideVariant, apply_hp};
use pf1e_worker::EngineEvaluator;

fn data(p: &str) -> Vec<u8> {
    std::fs::read(data_dir().join(p)).unwrap()
}

#[test]
fn shards_equal_the_engine_batch_runner() {
    let scenario = Scenario::new(
        "sample_arena.yaml".into(),
        data("maps/sample_arena.yaml"),
        vec![
            ScenarioSide {
                name: "monsters".into(),
                zone: Some('B'),
                combatants: vec![("o".into(), data("monsters/orc.json"))],
            },
            ScenarioSide {
                name: "players".into(),
                zone: Some('A'),
                combatants: vec![("g".into(), data("monsters/goblin.json")); 2],
            },
        ],
        SimOptions::default(),
    );
    let eval = EngineEvaluator::new();
    for ppm in [500_000, 1_000_000] {
        let side = |side: &str, ppm| SideVariant {
            side: side.into(),
            hp: HpFraction(ppm),
            aware: None,
            copies: vec![],
            removed: vec![],
            roster: vec![],
        };
        let variant = vec![side("monsters", 1_000_000), side("players", ppm)];
        let spec = ShardSpec {
            scenario: scenario.hash,
            variant: variant.clone(),
            party: "players".into(),
            party_strategy: StrategySpec::default_spec(),
            adversary_strategy: StrategySpec::default_spec(),
            seed: 5,
            runs: 3..11,
            day: None,
        };
        let r = eval.evaluate(&scenario, &spec).unwrap();
        let mut enc = scenario.encounter().unwrap();
        apply_hp(&mut enc, &variant);
        assert_eq!(enc.combatants[0].start_hp, if ppm == 500_000 { 3 } else { 6 });
        let expected = pf1e_engine::runner::run_batch(&enc, &scenario.options, 5, 3..11);
        assert_eq!(r.winner, expected.iter().map(|o| o.winner.map_or(-1, |w| w as i32)).collect::<Vec<_>>());
        assert_eq!(r.rounds, expected.iter().map(|o| o.rounds).collect::<Vec<_>>());
        let hp: Vec<i32> = expected.iter().flat_map(|o| o.combatants.iter().map(|c| c.final_hp)).collect();
        assert_eq!(r.final_hp, hp);
        assert_eq!(r.summary, Summary::from_outcomes(2, 3, &expected));
        assert_eq!(
            r.combatants.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(),
            ["goblin", "goblin-2", "orc"]
        );
    }
    let stranger = ShardSpec {
        scenario: scenario.hash,
        variant: vec![],
        party: "heroes".into(),
        party_strategy: StrategySpec::parse("lowest_hp").unwrap(),
        adversary_strategy: StrategySpec::default_spec(),
        seed: 1,
        runs: 0..1,
        day: None,
    };
    assert!(eval.evaluate(&scenario, &stranger).unwrap_err().to_string().contains("heroes"));
}
