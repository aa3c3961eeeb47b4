//! Resource limits for reading untrusted input, and the accounting that enforces them.
//!
//! Every reader checks each count against the bytes that remain before it allocates, so a
//! well-formed but hostile file can only make it allocate in proportion to its own size. What a
//! size check cannot bound (the output of a decompressor, the nesting of a term) is charged to a
//! [`Budget`] built from these limits.

use crate::error::{Error, ErrorKind, Location, Result};
use crate::registry::Format;

/// Upper bounds a reader honours. The defaults are far above any real level or model and far
/// below what would hurt a desktop machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most bytes a reader may allocate for one input (decompressed images included).
    pub max_alloc: usize,
    /// Most items (objects, tiles, records, terms) one input may declare.
    pub max_count: usize,
    /// Deepest nesting a recursive structure may have.
    pub max_depth: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_alloc: 512 << 20,
            max_count: 64 << 20,
            max_depth: 256,
        }
    }
}

impl Limits {
    /// Limits for fuzzing and tests: small enough that a wrong bound shows up quickly.
    pub fn strict() -> Self {
        Limits {
            max_alloc: 16 << 20,
            max_count: 1 << 20,
            max_depth: 64,
        }
    }

    /// A budget that charges allocations of one input against these limits.
    pub fn budget(&self, format: Format) -> Budget {
        Budget {
            format,
            limits: *self,
            allocated: 0,
        }
    }
}

/// Running totals for one input, checked against [`Limits`].
#[derive(Debug, Clone)]
pub struct Budget {
    format: Format,
    limits: Limits,
    allocated: usize,
}

impl Budget {
    /// The limits this budget enforces.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Bytes charged so far.
    pub fn allocated(&self) -> usize {
        self.allocated
    }

    /// Charge `bytes` of allocation for `what`, failing once the total passes `max_alloc`.
    pub fn charge(&mut self, bytes: usize, what: &str, location: Location) -> Result<()> {
        let total = self.allocated.saturating_add(bytes);
        if total > self.limits.max_alloc {
            return Err(Error::new(
                self.format,
                ErrorKind::LimitExceeded,
                location,
                format!(
                    "{what} needs {bytes} bytes, which would bring this input to {total} bytes \
                     of memory; the limit is {}",
                    self.limits.max_alloc
                ),
            ));
        }
        self.allocated = total;
        Ok(())
    }

    /// Check a declared item count against `max_count`.
    pub fn count(&self, count: u64, what: &str, location: Location) -> Result<usize> {
        match usize::try_from(count) {
            Ok(n) if n <= self.limits.max_count => Ok(n),
            _ => Err(Error::new(
                self.format,
                ErrorKind::LimitExceeded,
                location,
                format!(
                    "{what} count {count} is over the limit of {}",
                    self.limits.max_count
                ),
            )),
        }
    }
}

impl Limits {
    /// Refuse an export step (a picture's pixels, a texture, an encoded file, a JSON text) that
    /// would allocate `bytes` for `what`, over [`Limits::max_alloc`]; checked before allocating.
    pub fn check_export(&self, format: Format, bytes: u64, what: &str) -> Result<()> {
        if bytes <= self.max_alloc as u64 {
            return Ok(());
        }
        Err(Error::new(
            format,
            ErrorKind::LimitExceeded,
            Location::default(),
            format!(
                "{what} would take {bytes} bytes of memory; the limit is {} \
                 (a picture this large is refused rather than written)",
                self.max_alloc
            ),
        ))
    }

    /// Check the RGBA pixels of a `width × height` picture (4 bytes each) against
    /// [`Limits::check_export`].
    pub fn check_picture(&self, format: Format, width: u64, height: u64, what: &str) -> Result<()> {
        let bytes = width.saturating_mul(height).saturating_mul(4);
        self.check_export(
            format,
            bytes,
            &format!("{what} ({width} x {height} pixels in RGBA)"),
        )
    }

    /// `value` as pretty JSON, refused once the text passes [`Limits::max_alloc`] (the JSON of
    /// a large picture is a string of twice its bytes).
    pub fn json_pretty<T: serde::Serialize + ?Sized>(&self, value: &T) -> Result<Vec<u8>> {
        let mut out = Capped {
            bytes: Vec::new(),
            max: self.max_alloc,
        };
        match serde_json::to_writer_pretty(&mut out, value) {
            Ok(()) => Ok(out.bytes),
            Err(e) if e.is_io() => Err(Error::new(
                Format::Json,
                ErrorKind::LimitExceeded,
                Location::default(),
                format!(
                    "the JSON text passes the limit of {} bytes of memory",
                    self.max_alloc
                ),
            )),
            Err(e) => Err(Error::new(
                Format::Json,
                ErrorKind::Malformed,
                Location::default(),
                e.to_string(),
            )),
        }
    }
}

/// A growing buffer that fails a write past `max` bytes.
struct Capped {
    bytes: Vec<u8>,
    max: usize,
}

impl std::io::Write for Capped {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.bytes.len().saturating_add(buf.len()) > self.max {
            return Err(std::io::Error::other("over the memory limit"));
        }
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
