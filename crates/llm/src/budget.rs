//! The spending ledger: calls, tokens and estimated cost, with ceilings
//! checked **before** every HTTP attempt.
//!
//! Before an attempt the client reserves its worst case (one call, the
//! estimated prompt tokens plus `max_tokens`, and their price); the
//! reservation is refused when it could cross a ceiling, so a budget is a
//! hard limit even with concurrent calls. When the attempt ends the
//! reservation is replaced by what was really used (the response's `usage`,
//! or nothing for a failed attempt). Every attempt counts as a call,
//! retries included; cache hits spend nothing.

use std::sync::Mutex;

use crate::config::ConfigError;

/// Tokens of one completion.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TokenUsage {
    /// Prompt (input) tokens.
    pub prompt_tokens: u64,
    /// Completion (output) tokens.
    pub completion_tokens: u64,
}

impl TokenUsage {
    /// Both counts together.
    pub fn total(&self) -> u64 {
        self.prompt_tokens + self.completion_tokens
    }
}

/// A rough token count for text whose usage the server did not report:
/// one token per four bytes, at least one.
pub fn estimate_tokens(text: &str) -> u64 {
    (text.len() as u64 / 4).max(1)
}

/// Price in US dollars per 1,000 tokens.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pricing {
    /// Per 1,000 prompt (input) tokens.
    pub input_per_1k_usd: f64,
    /// Per 1,000 completion (output) tokens.
    pub output_per_1k_usd: f64,
}

impl Pricing {
    /// The price of `usage`.
    pub fn cost_usd(&self, usage: TokenUsage) -> f64 {
        usage.prompt_tokens as f64 / 1000.0 * self.input_per_1k_usd
            + usage.completion_tokens as f64 / 1000.0 * self.output_per_1k_usd
    }
}

/// Ceilings; `None` is unlimited.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BudgetLimits {
    /// HTTP attempts.
    pub max_calls: Option<u64>,
    /// Prompt plus completion tokens.
    pub max_total_tokens: Option<u64>,
    /// Estimated cost in US dollars (needs a [`Pricing`]).
    pub max_cost_usd: Option<f64>,
}

/// What has been spent so far.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BudgetSpent {
    /// HTTP attempts made (including failed ones and retries).
    pub calls: u64,
    /// Prompt tokens of successful attempts.
    pub prompt_tokens: u64,
    /// Completion tokens of successful attempts.
    pub completion_tokens: u64,
    /// Estimated cost in US dollars.
    pub cost_usd: f64,
}

/// Which ceiling refused a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BudgetResource {
    /// `max_calls`.
    Calls,
    /// `max_total_tokens`.
    Tokens,
    /// `max_cost_usd`.
    Cost,
}

/// A call refused because it could cross a ceiling.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BudgetExhausted {
    /// `max_calls` reached.
    #[error("LLM budget exhausted: max_calls = {limit} reached ({spent} calls made); no call was made")]
    Calls {
        /// The ceiling.
        limit: u64,
        /// Calls made or in flight.
        spent: u64,
    },
    /// `max_total_tokens` could be crossed.
    #[error(
        "LLM budget exhausted: max_total_tokens = {limit} could be crossed ({spent} spent or reserved, up to {needed} more for this call); no call was made"
    )]
    Tokens {
        /// The ceiling.
        limit: u64,
        /// Tokens spent or reserved.
        spent: u64,
        /// This call's worst case.
        needed: u64,
    },
    /// `max_cost_usd` could be crossed.
    #[error(
        "LLM budget exhausted: max_cost_usd = {limit} could be crossed ({spent:.6} USD spent or reserved, up to {needed:.6} more for this call); no call was made"
    )]
    Cost {
        /// The ceiling.
        limit: f64,
        /// Cost spent or reserved.
        spent: f64,
        /// This call's worst case.
        needed: f64,
    },
}

impl BudgetExhausted {
    /// Which ceiling refused.
    pub fn resource(&self) -> BudgetResource {
        match self {
            BudgetExhausted::Calls { .. } => BudgetResource::Calls,
            BudgetExhausted::Tokens { .. } => BudgetResource::Tokens,
            BudgetExhausted::Cost { .. } => BudgetResource::Cost,
        }
    }
}

#[derive(Default)]
struct Ledger {
    spent: BudgetSpent,
    reserved_tokens: u64,
    reserved_cost: f64,
}

/// A shared budget (one per campaign: compile, proposals and report calls
/// can draw from the same one).
pub struct Budget {
    limits: BudgetLimits,
    pricing: Pricing,
    ledger: Mutex<Ledger>,
}

impl std::fmt::Debug for Budget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Budget")
            .field("limits", &self.limits)
            .field("pricing", &self.pricing)
            .field("spent", &self.spent())
            .finish()
    }
}

impl Budget {
    /// A budget with these ceilings and prices.
    pub fn new(limits: BudgetLimits, pricing: Pricing) -> Result<Self, ConfigError> {
        let bad = |field, problem: String| Err(ConfigError::Invalid { field, problem });
        for (field, price) in
            [("input_per_1k_usd", pricing.input_per_1k_usd), ("output_per_1k_usd", pricing.output_per_1k_usd)]
        {
            if !(price.is_finite() && price >= 0.0) {
                return bad(field, format!("{price} is not a non-negative price"));
            }
        }
        if let Some(cost) = limits.max_cost_usd {
            if !(cost.is_finite() && cost >= 0.0) {
                return bad("max_cost_usd", format!("{cost} is not a non-negative amount"));
            }
            if pricing == Pricing::default() {
                return bad("max_cost_usd", "needs a price per 1k input/output tokens".into());
            }
        }
        Ok(Self { limits, pricing, ledger: Mutex::new(Ledger::default()) })
    }

    /// No ceiling, no price.
    pub fn unlimited() -> Self {
        Self {
            limits: BudgetLimits::default(),
            pricing: Pricing::default(),
            ledger: Mutex::new(Ledger::default()),
        }
    }

    /// The ceilings.
    pub fn limits(&self) -> BudgetLimits {
        self.limits
    }

    /// The prices.
    pub fn pricing(&self) -> Pricing {
        self.pricing
    }

    /// What has been spent (reservations in flight not included).
    pub fn spent(&self) -> BudgetSpent {
        self.lock().spent
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Ledger> {
        // A poisoned ledger only means a panic elsewhere; its numbers are whole.
        self.ledger.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Reserves one call's worst case, or refuses it.
    pub fn reserve(
        &self,
        prompt_tokens: u64,
        max_completion_tokens: u64,
    ) -> Result<Reservation<'_>, BudgetExhausted> {
        let worst = TokenUsage { prompt_tokens, completion_tokens: max_completion_tokens };
        let tokens = worst.total();
        let cost = self.pricing.cost_usd(worst);
        let mut ledger = self.lock();
        if let Some(limit) = self.limits.max_calls
            && ledger.spent.calls >= limit
        {
            return Err(BudgetExhausted::Calls { limit, spent: ledger.spent.calls });
        }
        if let Some(limit) = self.limits.max_total_tokens {
            let spent = ledger.spent.prompt_tokens + ledger.spent.completion_tokens + ledger.reserved_tokens;
            if spent + tokens > limit {
                return Err(BudgetExhausted::Tokens { limit, spent, needed: tokens });
            }
        }
        if let Some(limit) = self.limits.max_cost_usd {
            let spent = ledger.spent.cost_usd + ledger.reserved_cost;
            if spent + cost > limit {
                return Err(BudgetExhausted::Cost { limit, spent, needed: cost });
            }
        }
        ledger.spent.calls += 1;
        ledger.reserved_tokens += tokens;
        ledger.reserved_cost += cost;
        Ok(Reservation { budget: self, tokens, cost, settled: false })
    }
}

/// One attempt's reserved worst case. Settle it with the real usage; dropped
/// unsettled, it counts as a call that used no tokens.
#[must_use = "settle the reservation with the attempt's usage"]
pub struct Reservation<'a> {
    budget: &'a Budget,
    tokens: u64,
    cost: f64,
    settled: bool,
}

impl Reservation<'_> {
    /// Replaces the worst case by what the attempt used (`None`: it failed).
    pub fn settle(mut self, used: Option<TokenUsage>) {
        self.release(used);
    }

    fn release(&mut self, used: Option<TokenUsage>) {
        if self.settled {
            return;
        }
        self.settled = true;
        let mut ledger = self.budget.lock();
        ledger.reserved_tokens -= self.tokens;
        ledger.reserved_cost = (ledger.reserved_cost - self.cost).max(0.0);
        if let Some(usage) = used {
            ledger.spent.prompt_tokens += usage.prompt_tokens;
            ledger.spent.completion_tokens += usage.completion_tokens;
            ledger.spent.cost_usd += self.budget.pricing.cost_usd(usage);
        }
    }
}

impl Drop for Reservation<'_> {
    fn drop(&mut self) {
        self.release(None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn usage(p: u64, c: u64) -> Option<TokenUsage> {
        Some(TokenUsage { prompt_tokens: p, completion_tokens: c })
    }

    #[test]
    fn max_calls_refuses_the_call_after_the_last_allowed_one() {
        let b = Budget::new(BudgetLimits { max_calls: Some(2), ..Default::default() }, Pricing::default())
            .unwrap();
        b.reserve(10, 10).unwrap().settle(usage(10, 5));
        b.reserve(10, 10).unwrap().settle(None);
        let e = b.reserve(10, 10).err().unwrap();
        assert_eq!(e.resource(), BudgetResource::Calls);
        assert!(e.to_string().contains("max_calls = 2"), "{e}");
        assert_eq!(b.spent().calls, 2);
        assert_eq!(b.spent().prompt_tokens, 10);
    }

    #[test]
    fn tokens_are_checked_against_the_worst_case_before_the_call() {
        let limits = BudgetLimits { max_total_tokens: Some(1000), ..Default::default() };
        let b = Budget::new(limits, Pricing::default()).unwrap();
        let r = b.reserve(300, 500).unwrap();
        // In flight: 800 reserved, so another 300 + 500 cannot start.
        assert_eq!(b.reserve(300, 500).err().unwrap().resource(), BudgetResource::Tokens);
        r.settle(usage(300, 100));
        // Spent 400: 400 + 600 fits exactly, 400 + 601 does not.
        b.reserve(100, 500).unwrap().settle(usage(100, 50));
        assert_eq!(b.spent().prompt_tokens + b.spent().completion_tokens, 550);
        assert!(b.reserve(1, 450).is_err());
        b.reserve(1, 449).unwrap().settle(None);
    }

    #[test]
    fn cost_uses_the_prices_and_needs_them() {
        let pricing = Pricing { input_per_1k_usd: 1.0, output_per_1k_usd: 2.0 };
        let b =
            Budget::new(BudgetLimits { max_cost_usd: Some(0.01), ..Default::default() }, pricing).unwrap();
        // Worst case 1000 prompt + 1000 completion = 3 USD > 0.01.
        assert_eq!(b.reserve(1000, 1000).err().unwrap().resource(), BudgetResource::Cost);
        b.reserve(2, 3).unwrap().settle(usage(2, 3));
        assert!((b.spent().cost_usd - 0.008).abs() < 1e-12);
        assert!(
            Budget::new(BudgetLimits { max_cost_usd: Some(1.0), ..Default::default() }, Pricing::default())
                .is_err()
        );
        assert!(
            Budget::new(BudgetLimits::default(), Pricing { input_per_1k_usd: -1.0, output_per_1k_usd: 0.0 })
                .is_err()
        );
    }

    #[test]
    fn a_dropped_reservation_counts_the_call_and_frees_the_tokens() {
        let b = Budget::new(
            BudgetLimits { max_total_tokens: Some(100), ..Default::default() },
            Pricing::default(),
        )
        .unwrap();
        drop(b.reserve(50, 50).unwrap());
        assert_eq!(b.spent().calls, 1);
        b.reserve(50, 50).unwrap().settle(None);
    }

    #[test]
    fn estimates_are_a_quarter_of_the_bytes_and_at_least_one() {
        assert_eq!(estimate_tokens(""), 1);
        assert_eq!(estimate_tokens("abcdefgh"), 2);
    }
}
