//! Shared by the tests, unit and integration alike (`levelkit::testutil`, hidden from the docs):
//! one tiny deterministic random source for the garbage and mutation sweeps.

/// Xorshift64 (shifts 13, 7, 17) for the garbage and mutation sweeps: a fixed seed gives the same
/// sequence on every run, so a failing sweep repeats. The seed must not be 0.
#[derive(Debug, Clone)]
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits. (Named `next`, not an `Iterator`: the sweeps call it as they
    /// called the copies this replaced.)
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// The unit tests' source: [`Rng`] from the fixed seed `0x2545_F491_4F6C_DD1D`, as a closure.
#[cfg(test)]
pub(crate) fn xorshift() -> impl FnMut() -> u64 {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    move || rng.next()
}
