//! Bounds-checked little- and big-endian readers and writers over byte slices.
//!
//! [`ByteReader`] never panics: every read checks the bytes that remain and returns a
//! [`ErrorKind::Truncated`] error naming the format, the absolute offset and what was being read.
//! A sub-reader over exactly one chunk's bytes ([`ByteReader::sub`]) keeps absolute offsets, so
//! errors from inside a chunk still point into the whole file.

use crate::error::{Error, ErrorKind, Location, Result};
use crate::registry::Format;

/// A cursor over a byte slice that cannot read out of bounds.
#[derive(Debug, Clone)]
pub struct ByteReader<'a> {
    data: &'a [u8],
    pos: usize,
    /// Absolute offset of `data[0]` in the whole input, for error messages.
    base: u64,
    format: Format,
}

impl<'a> ByteReader<'a> {
    /// A reader over `data`, whose first byte is at absolute offset 0.
    pub fn new(format: Format, data: &'a [u8]) -> Self {
        ByteReader {
            data,
            pos: 0,
            base: 0,
            format,
        }
    }

    /// The format named in errors.
    pub fn format(&self) -> Format {
        self.format
    }

    /// Current position, relative to this reader's slice.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Current absolute offset in the whole input.
    pub fn offset(&self) -> u64 {
        self.base.saturating_add(self.pos as u64)
    }

    /// Bytes left to read.
    pub fn remaining(&self) -> usize {
        self.data.len().saturating_sub(self.pos)
    }

    /// The whole slice this reader covers.
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// An error at the current offset.
    pub fn error(&self, kind: ErrorKind, message: impl Into<String>) -> Error {
        Error::new(self.format, kind, Location::at(self.offset()), message)
    }

    /// Move to `pos` (relative to this reader's slice); `pos == len` is allowed.
    pub fn seek(&mut self, pos: usize, what: &str) -> Result<()> {
        if pos > self.data.len() {
            return Err(Error::new(
                self.format,
                ErrorKind::Truncated,
                Location::at(self.base.saturating_add(pos as u64)),
                format!(
                    "{what} at 0x{:x} is past the end of the data ({} bytes)",
                    self.base.saturating_add(pos as u64),
                    self.data.len()
                ),
            ));
        }
        self.pos = pos;
        Ok(())
    }

    /// Take the next `n` bytes, without copying.
    #[inline]
    pub fn bytes(&mut self, n: usize, what: &str) -> Result<&'a [u8]> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&end| end <= self.data.len());
        match end.and_then(|end| self.data.get(self.pos..end).map(|s| (s, end))) {
            Some((slice, end)) => {
                self.pos = end;
                Ok(slice)
            }
            None => Err(self.truncated(n, what)),
        }
    }

    /// The error for a read of `n` bytes that does not fit; out of line, so the happy path of
    /// every read stays a compare and a load.
    #[cold]
    #[inline(never)]
    fn truncated(&self, n: usize, what: &str) -> Error {
        self.error(
            ErrorKind::Truncated,
            format!(
                "{what} at 0x{:x} runs past the end of the data (needs {n} bytes, {} left)",
                self.offset(),
                self.remaining()
            ),
        )
    }

    /// Check that `count` items of `size` bytes each fit in what remains, before allocating them.
    pub fn ensure(&self, count: u64, size: u64, what: &str) -> Result<usize> {
        let need = count.checked_mul(size);
        match need {
            Some(need) if need <= self.remaining() as u64 => Ok(need as usize),
            _ => Err(self.error(
                ErrorKind::Truncated,
                format!(
                    "{what} at 0x{:x} claims {count} items of {size} bytes, but only {} bytes are left",
                    self.offset(),
                    self.remaining()
                ),
            )),
        }
    }

    /// A reader over the next `n` bytes, keeping absolute offsets; advances this reader past them.
    pub fn sub(&mut self, n: usize, what: &str) -> Result<ByteReader<'a>> {
        let base = self.offset();
        let data = self.bytes(n, what)?;
        Ok(ByteReader {
            data,
            pos: 0,
            base,
            format: self.format,
        })
    }

    /// Read a fixed-size array.
    #[inline]
    pub fn array<const N: usize>(&mut self, what: &str) -> Result<[u8; N]> {
        let slice = self.bytes(N, what)?;
        let mut out = [0u8; N];
        out.copy_from_slice(slice);
        Ok(out)
    }

    /// Read one byte.
    #[inline]
    pub fn u8(&mut self, what: &str) -> Result<u8> {
        Ok(self.array::<1>(what)?[0])
    }

    /// Read a little-endian u16.
    #[inline]
    pub fn u16_le(&mut self, what: &str) -> Result<u16> {
        Ok(u16::from_le_bytes(self.array(what)?))
    }

    /// Read a big-endian u16.
    #[inline]
    pub fn u16_be(&mut self, what: &str) -> Result<u16> {
        Ok(u16::from_be_bytes(self.array(what)?))
    }

    /// Read a little-endian u32.
    #[inline]
    pub fn u32_le(&mut self, what: &str) -> Result<u32> {
        Ok(u32::from_le_bytes(self.array(what)?))
    }

    /// Read a big-endian u32.
    #[inline]
    pub fn u32_be(&mut self, what: &str) -> Result<u32> {
        Ok(u32::from_be_bytes(self.array(what)?))
    }

    /// Read a little-endian i32.
    #[inline]
    pub fn i32_le(&mut self, what: &str) -> Result<i32> {
        Ok(i32::from_le_bytes(self.array(what)?))
    }

    /// Read a little-endian f32.
    #[inline]
    pub fn f32_le(&mut self, what: &str) -> Result<f32> {
        Ok(f32::from_le_bytes(self.array(what)?))
    }

    /// Read a big-endian f64.
    #[inline]
    pub fn f64_be(&mut self, what: &str) -> Result<f64> {
        Ok(f64::from_be_bytes(self.array(what)?))
    }

    /// Read bytes up to (not including) the next NUL, and skip the NUL.
    pub fn cstr(&mut self, what: &str) -> Result<&'a [u8]> {
        let rest = self.data.get(self.pos..).unwrap_or(&[]);
        match rest.iter().position(|&b| b == 0) {
            Some(len) => {
                let s = self.bytes(len, what)?;
                self.pos = self.pos.saturating_add(1);
                Ok(s)
            }
            None => Err(self.error(
                ErrorKind::Truncated,
                format!(
                    "{what} at 0x{:x} has no NUL terminator before the end of the data",
                    self.offset()
                ),
            )),
        }
    }

    /// Read `n` little-endian u32 values into a vector, after checking they fit.
    pub fn u32_le_vec(&mut self, n: usize, what: &str) -> Result<Vec<u32>> {
        let len = self.ensure(n as u64, 4, what)?;
        let bytes = self.bytes(len, what)?;
        Ok(bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(<[u8; 4]>::try_from(c).unwrap_or_default()))
            .collect())
    }
}

/// Little-endian fields of a record whose length was checked once, read without a check each:
/// parsers of fixed-size structures take the record's bytes with one [`ByteReader::bytes`] call
/// and decode the fields from here. Reading past the end yields zeros (which cannot happen when
/// the record length matches the fields read; each caller's tests pin that down).
#[derive(Debug, Clone)]
pub struct Fields<'a> {
    data: &'a [u8],
}

impl<'a> Fields<'a> {
    /// Fields over `data`.
    pub fn new(data: &'a [u8]) -> Self {
        Fields { data }
    }

    /// The next `N` bytes.
    #[inline]
    pub fn array<const N: usize>(&mut self) -> [u8; N] {
        match self.data.split_first_chunk::<N>() {
            Some((head, rest)) => {
                self.data = rest;
                *head
            }
            None => {
                self.data = &[];
                [0; N]
            }
        }
    }

    /// The next little-endian u32.
    #[inline]
    pub fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.array())
    }

    /// The next little-endian i32.
    #[inline]
    pub fn i32(&mut self) -> i32 {
        i32::from_le_bytes(self.array())
    }

    /// Bytes not read yet.
    pub fn remaining(&self) -> usize {
        self.data.len()
    }
}

/// An append-only byte buffer with little- and big-endian helpers, plus in-place patching for
/// offsets and checksums that are only known after later sections are written.
#[derive(Debug, Clone, Default)]
pub struct ByteWriter {
    buf: Vec<u8>,
}

impl ByteWriter {
    /// An empty writer.
    pub fn new() -> Self {
        ByteWriter::default()
    }

    /// An empty writer with room for `n` bytes.
    pub fn with_capacity(n: usize) -> Self {
        ByteWriter {
            buf: Vec::with_capacity(n),
        }
    }

    /// Bytes written so far.
    pub fn len(&self) -> usize {
        self.buf.len()
    }

    /// True when nothing has been written.
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// The bytes written so far.
    pub fn as_slice(&self) -> &[u8] {
        &self.buf
    }

    /// The finished buffer.
    pub fn into_inner(self) -> Vec<u8> {
        self.buf
    }

    /// Forget what was written, keeping the allocation.
    pub fn clear(&mut self) {
        self.buf.clear();
    }

    /// Append raw bytes.
    pub fn put_bytes(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    /// Append `n` copies of `byte`.
    pub fn put_fill(&mut self, byte: u8, n: usize) {
        self.buf.resize(self.buf.len().saturating_add(n), byte);
    }

    /// Append one byte.
    pub fn put_u8(&mut self, v: u8) {
        self.buf.push(v);
    }

    /// Append a little-endian u16.
    pub fn put_u16_le(&mut self, v: u16) {
        self.put_bytes(&v.to_le_bytes());
    }

    /// Append a big-endian u16.
    pub fn put_u16_be(&mut self, v: u16) {
        self.put_bytes(&v.to_be_bytes());
    }

    /// Append a little-endian u32.
    pub fn put_u32_le(&mut self, v: u32) {
        self.put_bytes(&v.to_le_bytes());
    }

    /// Append a big-endian u32.
    pub fn put_u32_be(&mut self, v: u32) {
        self.put_bytes(&v.to_be_bytes());
    }

    /// Append a little-endian i32.
    pub fn put_i32_le(&mut self, v: i32) {
        self.put_bytes(&v.to_le_bytes());
    }

    /// Append a little-endian f32.
    pub fn put_f32_le(&mut self, v: f32) {
        self.put_bytes(&v.to_le_bytes());
    }

    /// Append a big-endian f64.
    pub fn put_f64_be(&mut self, v: f64) {
        self.put_bytes(&v.to_be_bytes());
    }

    /// Overwrite four bytes at `at` with a little-endian u32 (extending the buffer with zeros if
    /// `at` is past its end).
    pub fn patch_u32_le(&mut self, at: usize, v: u32) {
        self.write_at(at, &v.to_le_bytes());
    }

    /// Overwrite bytes at `at`, extending the buffer with zeros if needed.
    pub fn write_at(&mut self, at: usize, bytes: &[u8]) {
        let end = at.saturating_add(bytes.len());
        if self.buf.len() < end {
            self.buf.resize(end, 0);
        }
        if let Some(dst) = self.buf.get_mut(at..end) {
            dst.copy_from_slice(bytes);
        }
    }
}

impl From<Vec<u8>> for ByteWriter {
    fn from(buf: Vec<u8>) -> Self {
        ByteWriter { buf }
    }
}
