//! Sealed records: every value the store writes carries a checksum of its
//! table, its key and its content, checked on every read.
//!
//! redb checks its own pages only partly: a flipped byte inside a value
//! comes back as a valid-looking record, so a corrupted cache would serve
//! other numbers. A sealed value is `MAGIC ‖ blake3(table ‖ 0 ‖ key ‖
//! payload)[..16] ‖ payload`; a value that does not open is treated as
//! absent (a shard is computed again) and reported by `pf1e cache verify`.
//! The table name is in the sum so a record copied under another table or
//! key does not open either.

/// The first bytes of a sealed value (version 1 of the seal); also the
/// prefix of a sealed text.
const MAGIC: [u8; 4] = *b"pfs1";
/// Bytes of the checksum kept (128 bits: corruption, not an adversary with
/// write access to the file, is what this detects).
const SUM: usize = 16;

fn sum(table: &str, key: &[u8], payload: &[u8]) -> [u8; SUM] {
    let mut h = blake3::Hasher::new();
    h.update(table.as_bytes());
    h.update(&[0]);
    h.update(&(key.len() as u64).to_le_bytes());
    h.update(key);
    h.update(payload);
    let mut out = [0; SUM];
    out.copy_from_slice(&h.finalize().as_bytes()[..SUM]);
    out
}

/// Seals `payload`, stored under `key` in `table`.
pub fn seal(table: &str, key: &[u8], payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(MAGIC.len() + SUM + payload.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&sum(table, key, payload));
    out.extend_from_slice(payload);
    out
}

/// The payload of a sealed value, or `None` when the value is not sealed
/// or its checksum does not match its table, key and content.
pub fn open<'a>(table: &str, key: &[u8], value: &'a [u8]) -> Option<&'a [u8]> {
    let rest = value.strip_prefix(&MAGIC)?;
    if rest.len() < SUM {
        return None;
    }
    let (stored, payload) = rest.split_at(SUM);
    (stored == sum(table, key, payload)).then_some(payload)
}

/// Seals a text value (the JSON journal): the checksum in hex, a space, the text.
pub fn seal_text(table: &str, key: &[u8], text: &str) -> String {
    let hex: String = sum(table, key, text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
    format!("pfs1{hex} {text}")
}

/// The text of a sealed text value, or `None` when it does not check out.
pub fn open_text<'a>(table: &str, key: &[u8], value: &'a str) -> Option<&'a str> {
    let rest = value.strip_prefix("pfs1")?;
    let (hex, text) = rest.split_once(' ')?;
    let expect: String = sum(table, key, text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
    (hex == expect).then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_value_opens_under_its_table_and_key_only() {
        let v = seal("t", b"k", b"payload");
        assert_eq!(open("t", b"k", &v), Some(&b"payload"[..]));
        assert_eq!(open("t", b"j", &v), None);
        assert_eq!(open("u", b"k", &v), None);
        assert_eq!(open("t", b"k", b"payload"), None, "an unsealed value");
        assert_eq!(open("t", b"k", &v[..10]), None, "a truncated value");
    }

    #[test]
    fn every_single_byte_flip_is_detected() {
        let v = seal("shards", &[7; 32], &(0..200u8).collect::<Vec<_>>());
        for i in 0..v.len() {
            for bit in 0..8 {
                let mut w = v.clone();
                w[i] ^= 1 << bit;
                assert_eq!(open("shards", &[7; 32], &w), None, "byte {i} bit {bit}");
            }
        }
    }

    #[test]
    fn sealed_text_round_trips_and_detects_changes() {
        let v = seal_text("state", &1u64.to_le_bytes(), "{\"a\":1}");
        assert_eq!(open_text("state", &1u64.to_le_bytes(), &v), Some("{\"a\":1}"));
        assert_eq!(open_text("state", &2u64.to_le_bytes(), &v), None);
        assert_eq!(open_text("state", &1u64.to_le_bytes(), &v.replace(":1", ":2")), None);
        assert_eq!(open_text("state", &1u64.to_le_bytes(), "{\"a\":1}"), None);
    }
}
