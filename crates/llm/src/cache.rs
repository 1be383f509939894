//! The response cache: a composite key and a storage trait.
//!
//! A key is (model, sampling parameters, prompt version, schema version,
//! SHA-256 of the full rendered request: every message and the requested
//! response format). The API key is never part of it. A hit makes no HTTP
//! call and spends no budget, so a run that uses the LLM, run again, calls
//! no model at all.
//!
//! The coordinator stores entries in its redb file (key: [`CacheKey::digest`],
//! value: [`CachedCompletion::to_bytes`]); [`MemoryCache`] serves tests.

use std::collections::HashMap;
use std::fmt;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::budget::TokenUsage;

/// The composite key of a cached completion.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CacheKey {
    /// Model name.
    pub model: String,
    /// Canonical sampling parameters ([`crate::Sampling::canonical`]).
    pub sampling: String,
    /// Prompt version (`version:name:hash12`, see [`crate::PromptVersion`]).
    pub prompt_version: String,
    /// Version of the answer schema or of the input view.
    pub schema_version: u32,
    /// SHA-256 of the canonical rendered request.
    pub request_sha256: [u8; 32],
}

impl CacheKey {
    /// Domain tag of the key encoding; change it if the encoding changes.
    pub const ENCODING: &'static str = "pf1e-llm-key-v1";

    /// Unambiguous bytes: the tag, then each field length-prefixed.
    pub fn canonical_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(128);
        for field in [
            Self::ENCODING.as_bytes(),
            self.model.as_bytes(),
            self.sampling.as_bytes(),
            self.prompt_version.as_bytes(),
            &self.schema_version.to_le_bytes(),
            &self.request_sha256,
        ] {
            out.extend_from_slice(&(field.len() as u64).to_le_bytes());
            out.extend_from_slice(field);
        }
        out
    }

    /// SHA-256 of [`CacheKey::canonical_bytes`]: the storage key.
    pub fn digest(&self) -> [u8; 32] {
        Sha256::digest(self.canonical_bytes()).into()
    }
}

impl fmt::Display for CacheKey {
    /// `model|t=0;mt=1024;tp=1|1:strategy_compile:abcdef012345|schema=1|<sha256 hex>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}|{}|{}|schema={}|{}",
            self.model,
            self.sampling,
            self.prompt_version,
            self.schema_version,
            hex(&self.request_sha256)
        )
    }
}

/// Lower-case hexadecimal.
pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A stored completion.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CachedCompletion {
    /// The answer's text.
    pub text: String,
    /// Prompt tokens it cost.
    pub prompt_tokens: u64,
    /// Completion tokens it cost.
    pub completion_tokens: u64,
    /// Whether the counts were estimated (the server sent no `usage`).
    pub usage_estimated: bool,
    /// The server's `finish_reason`, if any.
    pub finish_reason: Option<String>,
}

impl CachedCompletion {
    /// Storage bytes (JSON).
    pub fn to_bytes(&self) -> Vec<u8> {
        // Serializing plain strings, numbers and booleans cannot fail.
        serde_json::to_vec(self).unwrap_or_default()
    }

    /// Reads storage bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, CacheError> {
        serde_json::from_slice(bytes).map_err(|e| CacheError::new("a stored completion is unreadable", e))
    }

    /// Its token counts.
    pub fn usage(&self) -> TokenUsage {
        TokenUsage { prompt_tokens: self.prompt_tokens, completion_tokens: self.completion_tokens }
    }
}

/// A cache that cannot be read or written.
#[derive(Debug, thiserror::Error)]
#[error("LLM response cache: {message}")]
pub struct CacheError {
    /// What failed.
    pub message: String,
    /// The underlying error.
    #[source]
    pub source: Option<Box<dyn std::error::Error + Send + Sync>>,
}

impl CacheError {
    /// An error with its cause.
    pub fn new(message: impl Into<String>, source: impl std::error::Error + Send + Sync + 'static) -> Self {
        Self { message: message.into(), source: Some(Box::new(source)) }
    }
}

/// Where completions are kept.
pub trait ResponseCache: Send + Sync {
    /// The completion stored under `key`, if any.
    fn get(&self, key: &CacheKey) -> Result<Option<CachedCompletion>, CacheError>;
    /// Stores a completion under `key` (replacing any).
    fn put(&self, key: &CacheKey, completion: &CachedCompletion) -> Result<(), CacheError>;
}

/// An in-memory cache (tests, one-shot commands).
#[derive(Debug, Default)]
pub struct MemoryCache {
    entries: Mutex<HashMap<[u8; 32], Vec<u8>>>,
}

impl MemoryCache {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether it is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<[u8; 32], Vec<u8>>> {
        self.entries.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl ResponseCache for MemoryCache {
    fn get(&self, key: &CacheKey) -> Result<Option<CachedCompletion>, CacheError> {
        // Entries go through the storage encoding, as they would in redb.
        self.lock().get(&key.digest()).map(|b| CachedCompletion::from_bytes(b)).transpose()
    }

    fn put(&self, key: &CacheKey, completion: &CachedCompletion) -> Result<(), CacheError> {
        self.lock().insert(key.digest(), completion.to_bytes());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> CacheKey {
        CacheKey {
            model: "m".into(),
            sampling: "t=0;mt=1024;tp=1".into(),
            prompt_version: "1:strategy_compile:0123456789ab".into(),
            schema_version: 1,
            request_sha256: [7; 32],
        }
    }

    #[test]
    fn every_component_changes_the_digest() {
        let base = key().digest();
        let mut variants = Vec::new();
        let mut k = key();
        k.model = "m2".into();
        variants.push(k);
        let mut k = key();
        k.sampling = "t=0.5;mt=1024;tp=1".into();
        variants.push(k);
        let mut k = key();
        k.prompt_version = "2:strategy_compile:0123456789ab".into();
        variants.push(k);
        let mut k = key();
        k.schema_version = 2;
        variants.push(k);
        let mut k = key();
        k.request_sha256[31] = 8;
        variants.push(k);
        for v in variants {
            assert_ne!(v.digest(), base, "{v}");
        }
        assert_eq!(key().digest(), base);
    }

    #[test]
    fn length_prefixes_keep_fields_apart() {
        let mut a = key();
        a.model = "a|b".into();
        a.sampling = "c".into();
        let mut b = key();
        b.model = "a".into();
        b.sampling = "b|c".into();
        assert_ne!(a.digest(), b.digest());
    }

    #[test]
    fn display_is_the_readable_composite() {
        let text = key().to_string();
        assert!(
            text.starts_with("m|t=0;mt=1024;tp=1|1:strategy_compile:0123456789ab|schema=1|0707"),
            "{text}"
        );
    }

    #[test]
    fn memory_cache_round_trips_through_the_storage_encoding() {
        let cache = MemoryCache::new();
        assert!(cache.get(&key()).unwrap().is_none());
        let value = CachedCompletion {
            text: "{}".into(),
            prompt_tokens: 3,
            completion_tokens: 1,
            usage_estimated: false,
            finish_reason: Some("stop".into()),
        };
        cache.put(&key(), &value).unwrap();
        assert_eq!(cache.get(&key()).unwrap(), Some(value));
        assert_eq!(cache.len(), 1);
        assert!(CachedCompletion::from_bytes(b"not json").is_err());
    }
}
