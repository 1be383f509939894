//! Opt-in test against a real OpenAI-compatible endpoint. It runs only with
//! `PF1E_LLM_LIVE=1` (and `PF1E_LLM_BASE_URL`, `PF1E_LLM_MODEL`,
//! `PF1E_LLM_API_KEY` as needed); otherwise it returns at once, and no test
//! of this crate reaches beyond 127.0.0.1.
//!
//! `PF1E_LLM_LIVE=1 cargo test -p pf1e-llm --test live -- --nocapture`

use std::sync::Arc;

use pf1e_engine::strategy::TargetPriority;
use pf1e_llm::testing::french_pack_dir;
use pf1e_llm::{
    Budget, BudgetLimits, LlmClient, LlmConfig, MemoryCache, Pricing, PromptPack, ReportWriter, Side,
    StrategyCompiler,
};

#[tokio::test]
async fn a_real_model_compiles_a_sentence_and_writes_a_narrative_when_live_is_asked_for() {
    if std::env::var("PF1E_LLM_LIVE").as_deref() != Ok("1") {
        eprintln!("skipped: set PF1E_LLM_LIVE=1 to call the real endpoint");
        return;
    }
    let config = LlmConfig::from_env().expect("PF1E_LLM_* configuration");
    let budget =
        Budget::new(BudgetLimits { max_calls: Some(6), ..Default::default() }, Pricing::default()).unwrap();
    let client = LlmClient::new(config, Arc::new(MemoryCache::new()), Arc::new(budget)).unwrap();
    let pack = PromptPack::load(french_pack_dir()).unwrap();

    let compiled = StrategyCompiler::new(&pack)
        .unwrap()
        .compile(&client, Side::Party, "focus their healer, fall back below 30 %")
        .await
        .unwrap();
    eprintln!("compiled: {} ({} attempt(s))", compiled.name, compiled.attempts);
    assert_eq!(compiled.spec.target, TargetPriority::Healer);
    assert_eq!(compiled.spec.retreat_milli, 300);

    let facts = "=== Rapport d'équilibrage ===\n200 combats simulés (seed 3, plafond 100 rounds)\n\
                 Victoires players : 76.0% (152) — bande 3σ : [66.9%, 85.1%]\n\
                 Victoires monsters : 23.5% (47) — bande 3σ : [14.5%, 32.5%]\nNuls : 0.5% (1)\nRounds moyens : 3.7";
    let narrative = ReportWriter::new(&pack).unwrap().write(&client, facts).await.unwrap();
    eprintln!(
        "{}\nunsupported: {:?}\nmissing: {:?}",
        narrative.text, narrative.unsupported, narrative.missing_sections
    );
    assert!(!narrative.text.is_empty());
    eprintln!("spent: {:?}", client.budget().spent());
}
