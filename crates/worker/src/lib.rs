//! pf1e worker (see the sweep service issue).
