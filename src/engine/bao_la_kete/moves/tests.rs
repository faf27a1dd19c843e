//! The bit tricks of the start sets against the bytes read one by one.

use super::occupied_bits;

/// The gathered bits are the bytes read one by one, on every single-hole row and on random rows with
/// empty holes among full ones (bytes of 0 to 255, so the carries of the sum are tried).
#[test]
fn occupied_bits_reads_each_byte() {
    let one_by_one = |row: u64| {
        (0..8).fold(0u32, |bits, i| {
            bits | u32::from((row >> (8 * i)) & 0xFF != 0) << i
        })
    };
    let mut rng = crate::engine::Rng::new(0x0CC0);
    for i in 0..8 {
        for seeds in 0..=255u64 {
            assert_eq!(
                occupied_bits(seeds << (8 * i)),
                one_by_one(seeds << (8 * i))
            );
        }
    }
    for _ in 0..100_000 {
        let mut row = 0u64;
        for i in 0..8 {
            let seeds = match rng.below(4) {
                0 => 0,
                1 => 1,
                2 => rng.below(256) as u64,
                _ => 0x7F + rng.below(3) as u64,
            };
            row |= seeds << (8 * i);
        }
        assert_eq!(occupied_bits(row), one_by_one(row), "{row:#018x}");
    }
}
