//! CPython's random generator, reproduced: the Mersenne Twister MT19937 with the seeding of
//! `random.Random(int)` and the integer draws the engine uses (`_randbelow`, `randrange(n)`,
//! `choice`, `shuffle`), so that a game seeded with N deals, shuffles and draws exactly as the
//! Python engine does. The state is `random.Random.getstate()`'s: 624 words and an index.

const N: usize = 624;
const M: usize = 397;

#[derive(Clone, Copy)]
pub struct Mt {
    pub state: [u32; N],
    pub index: u32,
}

impl Mt {
    fn init_genrand(s: u32) -> Mt {
        let mut mt = [0u32; N];
        mt[0] = s;
        for i in 1..N {
            mt[i] = 1812433253u32.wrapping_mul(mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_add(i as u32);
        }
        Mt { state: mt, index: N as u32 }
    }

    /// `random.Random(seed)` for an integer `seed >= 0` (CPython seeds with the 32-bit words
    /// of `abs(seed)`, least significant first; `[0]` for 0).
    pub fn from_seed(seed: u64) -> Mt {
        let key: Vec<u32> = if seed >> 32 != 0 { vec![seed as u32, (seed >> 32) as u32] } else { vec![seed as u32] };
        Mt::from_key(&key)
    }

    /// CPython's `init_by_array`.
    pub fn from_key(key: &[u32]) -> Mt {
        let mut r = Mt::init_genrand(19650218);
        let mt = &mut r.state;
        let (mut i, mut j) = (1usize, 0usize);
        let klen = key.len().max(1);
        for _ in 0..N.max(klen) {
            let prev = mt[i - 1] ^ (mt[i - 1] >> 30);
            mt[i] = (mt[i] ^ prev.wrapping_mul(1664525))
                .wrapping_add(key.get(j).copied().unwrap_or(0))
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
            if j >= klen {
                j = 0;
            }
        }
        for _ in 0..N - 1 {
            let prev = mt[i - 1] ^ (mt[i - 1] >> 30);
            mt[i] = (mt[i] ^ prev.wrapping_mul(1566083941)).wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
        }
        mt[0] = 0x8000_0000;
        r
    }

    /// From `random.Random.getstate()[1]`: 624 words, then the index (0-624).
    pub fn from_state(words: &[u32], index: u32) -> Option<Mt> {
        if words.len() != N || index as usize > N {
            return None;
        }
        let mut state = [0u32; N];
        state.copy_from_slice(words);
        Some(Mt { state, index })
    }

    fn generate(&mut self) {
        const UPPER: u32 = 0x8000_0000;
        const LOWER: u32 = 0x7fff_ffff;
        const MATRIX: u32 = 0x9908_b0df;
        let mt = &mut self.state;
        for kk in 0..N {
            let y = (mt[kk] & UPPER) | (mt[(kk + 1) % N] & LOWER);
            let mag = if y & 1 != 0 { MATRIX } else { 0 };
            mt[kk] = mt[(kk + M) % N] ^ (y >> 1) ^ mag;
        }
        self.index = 0;
    }

    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        if self.index as usize >= N {
            self.generate();
        }
        let mut y = self.state[self.index as usize];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^= y >> 18;
        y
    }

    /// `random.getrandbits(k)` for `1 <= k <= 32`.
    #[inline]
    fn getrandbits(&mut self, k: u32) -> u32 {
        self.next_u32() >> (32 - k)
    }

    /// `Random._randbelow(n)` for `n >= 1`: rejection sampling on `n.bit_length()` bits.
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n >= 1);
        let k = 32 - n.leading_zeros();
        loop {
            let r = self.getrandbits(k);
            if r < n {
                return r;
            }
        }
    }

    /// `random.shuffle(items)`.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            items.swap(i, j);
        }
    }

    /// `random.random()`: 53 random bits as a float in [0, 1).
    pub fn random(&mut self) -> f64 {
        let a = (self.next_u32() >> 5) as f64;
        let b = (self.next_u32() >> 6) as f64;
        (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values printed by CPython 3.11: `random.Random(1).getrandbits(32)` five times.
    #[test]
    fn seed_1_matches_cpython() {
        let mut r = Mt::from_seed(1);
        let got: Vec<u32> = (0..5).map(|_| r.next_u32()).collect();
        assert_eq!(got, vec![577090037, 2444712010, 3639700191, 3445702192, 3280387012]);
    }

    /// `random.Random(2**40 + 5)`: a seed of two 32-bit words.
    #[test]
    fn wide_seed_matches_cpython() {
        let mut r = Mt::from_seed((1u64 << 40) + 5);
        let got: Vec<u32> = (0..3).map(|_| r.next_u32()).collect();
        assert_eq!(got, vec![WIDE[0], WIDE[1], WIDE[2]]);
    }

    const WIDE: [u32; 3] = [2166296868, 2220160828, 1153647273];

    /// `random.Random(7)`: `[r.randrange(n) for n in (1, 2, 3, 10, 54, 1000)]`, then a
    /// shuffle of `list(range(10))`.
    #[test]
    fn randbelow_and_shuffle_match_cpython() {
        let mut r = Mt::from_seed(7);
        let got: Vec<u32> = [1u32, 2, 3, 10, 54, 1000].iter().map(|&n| r.below(n)).collect();
        assert_eq!(got, BELOW.to_vec());
        let mut xs: Vec<u32> = (0..10).collect();
        r.shuffle(&mut xs);
        assert_eq!(xs, SHUFFLED.to_vec());
    }

    const BELOW: [u32; 6] = [0, 0, 1, 0, 4, 840];
    const SHUFFLED: [u32; 10] = [3, 2, 7, 9, 6, 0, 4, 5, 1, 8];
}
