//! 128-bit fingerprints of states (`exec::revisit`): two hashes of the same bytes, so that two
//! states are told apart unless both collide.

use std::hash::Hasher;

/// Two hashes of the same bytes: SipHash (64 bits) and a multiplicative one over 8-byte words
/// (64 more, at a fraction of the cost): states are told apart unless both collide.
#[derive(Default)]
pub struct Fingerprinter {
    sip: std::collections::hash_map::DefaultHasher,
    words: u64,
}

impl Fingerprinter {
    pub fn finish128(&self) -> u128 {
        (self.sip.finish() as u128) << 64 | self.words as u128
    }
}

impl Hasher for Fingerprinter {
    fn write(&mut self, bytes: &[u8]) {
        self.sip.write(bytes);
        let mix = |h: u64, w: u64| (h.rotate_left(5) ^ w).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.words = mix(self.words, u64::from_le_bytes(c.try_into().unwrap()));
        }
        let mut tail = [0u8; 8];
        tail[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
        // The length too, so that trailing zeros are not lost.
        self.words = mix(
            self.words,
            u64::from_le_bytes(tail) ^ (bytes.len() as u64) << 56,
        );
    }

    fn finish(&self) -> u64 {
        self.sip.finish()
    }
}

/// The fingerprint of `bytes` alone.
pub fn hash128(bytes: &[u8]) -> u128 {
    let mut h = Fingerprinter::default();
    h.write(bytes);
    h.finish128()
}
