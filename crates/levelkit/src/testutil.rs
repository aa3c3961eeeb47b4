//! Shared by the unit tests: a tiny deterministic random source for garbage sweeps.

/// Xorshift64 from a fixed seed: the same sequence on every run, so a failing sweep repeats.
pub(crate) fn xorshift() -> impl FnMut() -> u64 {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}
