//! pf1e coordinator (see the sweep service issue).
