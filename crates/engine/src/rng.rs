//! Random number sources: a seeded ChaCha stream per run and a scripted source for tests.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

/// A source of die rolls. Every random decision of the engine goes through it.
pub trait Dice {
    /// Rolls one die with `sides` faces (`sides >= 1`) and returns a value in `1..=sides`.
    fn roll(&mut self, sides: u32) -> u32;
}

/// The deterministic stream of run `run` of a batch seeded with `seed`.
///
/// The stream depends only on `(seed, run)`: whichever thread, worker or
/// shard plays the run, it sees the same dice.
#[derive(Clone, Debug)]
pub struct SeededRng {
    inner: ChaCha8Rng,
}

impl SeededRng {
    /// The stream for run index `run` of a batch with seed `seed`.
    pub fn for_run(seed: u64, run: u64) -> Self {
        let mut inner = ChaCha8Rng::seed_from_u64(seed);
        inner.set_stream(run);
        Self { inner }
    }

    /// Draws a uniform integer in `0..n` without modulo bias (`n >= 1`).
    ///
    /// Rejects the low tail `[0, 2^32 mod n)`: that interval is empty when `n`
    /// divides 2^32 (every power of two), so no threshold can overflow.
    pub fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n >= 1);
        let threshold = n.wrapping_neg() % n;
        loop {
            let x = self.inner.next_u32();
            if x >= threshold {
                return x % n;
            }
        }
    }
}

impl Dice for SeededRng {
    fn roll(&mut self, sides: u32) -> u32 {
        self.below(sides.max(1)) + 1
    }
}

/// A scripted sequence of die faces, for pinned transcripts in tests.
///
/// Each roll takes the next face; a face larger than the die, or running out
/// of faces, is a bug in the test and panics with a clear message.
#[derive(Clone, Debug, Default)]
pub struct ScriptedRng {
    faces: Vec<u32>,
    next: usize,
}

impl ScriptedRng {
    /// A source that returns `faces` in order.
    pub fn new(faces: impl Into<Vec<u32>>) -> Self {
        Self { faces: faces.into(), next: 0 }
    }

    /// How many scripted faces have been consumed so far.
    pub fn consumed(&self) -> usize {
        self.next
    }

    /// How many scripted faces remain.
    pub fn remaining(&self) -> usize {
        self.faces.len() - self.next
    }
}

impl Dice for ScriptedRng {
    fn roll(&mut self, sides: u32) -> u32 {
        let Some(&face) = self.faces.get(self.next) else {
            panic!("scripted dice exhausted after {} rolls (wanted a d{sides})", self.next);
        };
        assert!(
            (1..=sides).contains(&face),
            "scripted face {face} at position {} does not fit a d{sides}",
            self.next
        );
        self.next += 1;
        face
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_and_run_give_the_same_stream() {
        let mut a = SeededRng::for_run(7, 3);
        let mut b = SeededRng::for_run(7, 3);
        let xs: Vec<u32> = (0..64).map(|_| a.roll(20)).collect();
        let ys: Vec<u32> = (0..64).map(|_| b.roll(20)).collect();
        assert_eq!(xs, ys);
    }

    #[test]
    fn different_runs_give_different_streams() {
        let mut a = SeededRng::for_run(7, 3);
        let mut b = SeededRng::for_run(7, 4);
        let xs: Vec<u32> = (0..64).map(|_| a.roll(20)).collect();
        let ys: Vec<u32> = (0..64).map(|_| b.roll(20)).collect();
        assert_ne!(xs, ys);
    }

    fn check_uniform(sides: u32) {
        let mut rng = SeededRng::for_run(1, 0);
        let draws = 20_000 * sides as usize;
        let mut counts = vec![0usize; sides as usize];
        for _ in 0..draws {
            let face = rng.roll(sides);
            assert!((1..=sides).contains(&face));
            counts[(face - 1) as usize] += 1;
        }
        let mean = draws as f64 / sides as f64;
        for (i, &c) in counts.iter().enumerate() {
            let dev = (c as f64 - mean).abs() / mean;
            assert!(dev < 0.05, "d{sides} face {} is off by {:.1}%", i + 1, dev * 100.0);
        }
    }

    #[test]
    fn power_of_two_dice_terminate_and_are_uniform() {
        for sides in [2, 4, 8, 16] {
            check_uniform(sides);
        }
    }

    #[test]
    fn common_dice_are_uniform() {
        for sides in [3, 6, 10, 12, 20, 100] {
            check_uniform(sides);
        }
    }

    #[test]
    fn one_sided_die_is_always_one() {
        let mut rng = SeededRng::for_run(1, 0);
        assert!((0..100).all(|_| rng.roll(1) == 1));
    }

    #[test]
    fn scripted_rng_replays_faces_in_order() {
        let mut rng = ScriptedRng::new([3, 20, 1]);
        assert_eq!(rng.roll(4), 3);
        assert_eq!(rng.roll(20), 20);
        assert_eq!(rng.roll(6), 1);
        assert_eq!(rng.remaining(), 0);
    }

    #[test]
    #[should_panic(expected = "does not fit a d4")]
    fn scripted_face_too_large_panics() {
        let mut rng = ScriptedRng::new([5]);
        rng.roll(4);
    }
}
