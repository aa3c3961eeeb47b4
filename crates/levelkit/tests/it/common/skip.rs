//! Counting the corpus tests that did not run, shared by every test binary (the CLI's harness
//! includes this file by path): a passing test's own output is captured by the test harness, so
//! without this a newcomer's `cargo test` would skip the real-file tests in silence. The first
//! skip registers an exit handler that prints one line, after the binary's `test result:` line:
//! `SKIP: 42 corpus tests of it not run: LEVELKIT_CORPUS is not set (...)`.

use std::collections::BTreeSet;
use std::io::Write as _;
use std::sync::Mutex;

/// The names of the tests (their threads' names) that found no corpus.
static SKIPPED: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());

/// Notes that the running test skipped its real-file part because `LEVELKIT_CORPUS` is unset.
pub fn note_corpus_skip() {
    let name = std::thread::current().name().unwrap_or("main").to_owned();
    let Ok(mut skipped) = SKIPPED.lock() else {
        return;
    };
    if skipped.is_empty() {
        // SAFETY: `atexit` only records a plain `extern "C"` function with no arguments, which
        // runs once at process exit; it touches nothing but a static and standard error.
        #[allow(unsafe_code)]
        unsafe {
            libc::atexit(report);
        }
    }
    skipped.insert(name);
}

/// Prints the one line, bypassing the harness's capture (a direct write to standard error).
extern "C" fn report() {
    let count = SKIPPED.lock().map(|s| s.len()).unwrap_or(0);
    let binary = std::env::args()
        .next()
        .as_deref()
        .and_then(|p| {
            std::path::Path::new(p)
                .file_stem()?
                .to_str()
                .map(str::to_owned)
        })
        .map(|stem| {
            stem.rsplit_once('-')
                .map_or(stem.clone(), |(name, _)| name.to_owned())
        })
        .unwrap_or_default();
    let _ = writeln!(
        std::io::stderr(),
        "SKIP: {count} corpus test{} of {binary} not run: LEVELKIT_CORPUS is not set \
         (`LEVELKIT_CORPUS=../shared/corpus cargo test --workspace` runs them)",
        if count == 1 { "" } else { "s" }
    );
}
