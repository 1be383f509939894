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
            totals: false,
            packed: false,
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
        totals: false,
        packed: false,
    };
    assert!(eval.evaluate(&scenario, &stranger).unwrap_err().to_string().contains("heroes"));
}

#[test]
fn synthetic_shards_have_the_real_shape_are_deterministic_and_take_the_time_asked() {
    use pf1e_worker::SyntheticEvaluator;
    use std::time::{Duration, Instant};
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
    let side = |side: &str, ppm| SideVariant {
        side: side.into(),
        hp: HpFraction(ppm),
        aware: None,
        copies: vec![],
        removed: vec![],
        roster: vec![],
    };
    let spec = |seed, runs: std::ops::Range<u64>| ShardSpec {
        scenario: scenario.hash,
        variant: vec![side("monsters", 1_000_000), side("players", 500_000)],
        party: "players".into(),
        party_strategy: StrategySpec::default_spec(),
        adversary_strategy: StrategySpec::default_spec(),
        seed,
        runs,
        day: None,
        totals: false,
        packed: false,
    };
    // 200 µs a battle: 100 runs take at least 20 ms.
    let synthetic = SyntheticEvaluator::new(Duration::from_micros(200));
    let start = Instant::now();
    let a = synthetic.evaluate(&scenario, &spec(5, 0..100)).unwrap();
    assert!(start.elapsed() >= Duration::from_millis(20), "{:?}", start.elapsed());
    assert_eq!(a.check(100), Ok(()), "sums and tables agree");
    // The cell's real sides and combatants, HP fraction applied.
    let real = EngineEvaluator::new().evaluate(&scenario, &spec(5, 0..1)).unwrap();
    assert_eq!((&a.sides, &a.combatants), (&real.sides, &real.combatants));
    assert_eq!(a.combatants[0].start_hp, 3);
    // A function of the seed and the run indices only: the same again, the
    // runs of a split shard the same runs, another seed other battles.
    let fast = SyntheticEvaluator::new(Duration::ZERO);
    assert_eq!(fast.evaluate(&scenario, &spec(5, 0..100)).unwrap(), a);
    let tail = fast.evaluate(&scenario, &spec(5, 40..100)).unwrap();
    assert_eq!(tail.winner[..], a.winner[40..]);
    assert_eq!(tail.final_hp[..], a.final_hp[40 * 3..]);
    assert_ne!(fast.evaluate(&scenario, &spec(6, 0..100)).unwrap().winner, a.winner);
    // Plausible: every side wins sometimes, survivors of the winner are up,
    // and the winner's side never has a dead member.
    for s in 0..2 {
        assert!(a.winner.contains(&s), "side {s} never wins");
    }
    for (run, &w) in a.winner.iter().enumerate() {
        for (c, info) in a.combatants.iter().enumerate() {
            let (hp, dead) = (a.final_hp[run * 3 + c], a.dead[run * 3 + c]);
            if w == info.side as i32 {
                assert!((1..=info.start_hp).contains(&hp) && !dead, "run {run}: {hp}");
            }
        }
    }
}
