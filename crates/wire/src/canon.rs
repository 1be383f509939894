//! The canonical writer of content hashes: every field is length-prefixed or
//! fixed-width, so two different contents never write the same bytes.

/// A 32-byte blake3 content hash.
pub type ContentHash = [u8; 32];

/// Length-prefixed canonical writer for content hashes.
pub struct Canon(blake3::Hasher);

impl Canon {
    /// A writer for the domain `domain` (a name and a format version, such as
    /// `pf1e-shard-v3`): hashes of different domains never collide.
    pub fn new(domain: &str) -> Self {
        let mut c = Canon(blake3::Hasher::new());
        c.bytes(domain.as_bytes());
        c
    }

    /// Writes a byte string with its length.
    pub fn bytes(&mut self, b: &[u8]) -> &mut Self {
        self.0.update(&(b.len() as u64).to_le_bytes());
        self.0.update(b);
        self
    }

    /// Writes an integer.
    pub fn u64(&mut self, v: u64) -> &mut Self {
        self.0.update(&v.to_le_bytes());
        self
    }

    /// The hash of everything written.
    pub fn finish(&self) -> ContentHash {
        *self.0.finalize().as_bytes()
    }
}

/// Lower-case hex of a hash.
pub fn hex(h: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(h.len() * 2);
    for b in h {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    out
}

/// A hash from its lower- or upper-case hex form; `None` when `text` is not
/// 64 hex digits.
pub fn parse_hex(text: &str) -> Option<ContentHash> {
    let bytes = text.as_bytes();
    if bytes.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (o, pair) in out.iter_mut().zip(bytes.chunks_exact(2)) {
        let digit = |c: u8| (c as char).to_digit(16);
        *o = u8::try_from(digit(pair[0])? * 16 + digit(pair[1])?).ok()?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips_and_refuses_what_is_not_a_hash() {
        let h = Canon::new("t").bytes(b"x").u64(3).finish();
        assert_eq!(parse_hex(&hex(&h)), Some(h));
        assert_eq!(parse_hex(&hex(&h).to_uppercase()), Some(h));
        assert_eq!(parse_hex("abc"), None);
        assert_eq!(parse_hex(&"g".repeat(64)), None);
        assert_eq!(hex(&[0x00, 0x0f, 0xa0, 0xff]), "000fa0ff");
    }

    #[test]
    fn lengths_are_part_of_the_hash() {
        let ab_c = Canon::new("t").bytes(b"ab").bytes(b"c").finish();
        let a_bc = Canon::new("t").bytes(b"a").bytes(b"bc").finish();
        assert_ne!(ab_c, a_bc);
        assert_ne!(Canon::new("t").finish(), Canon::new("u").finish());
    }
}
