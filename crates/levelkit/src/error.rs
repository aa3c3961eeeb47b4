//! The one error type of the library, and the warnings and findings that reading, validating and
//! converting collect.
//!
//! Every message names the format first (`wwd: …`) and carries a [`Location`]: a byte offset for
//! binary formats, a line and column for text, and a structural path such as
//! `planes[2].objects[17]` wherever one is known.

use std::fmt;

use serde::Serialize;

use crate::registry::Format;

/// What went wrong, in a few broad classes callers can act on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ends before a structure it promises.
    Truncated,
    /// The bytes contradict the format (a bad size field, an impossible value).
    Malformed,
    /// A valid but unsupported variant (a tile-property type we do not know how to size).
    Unsupported,
    /// The input asks for more memory, items or depth than [`crate::Limits`] allow.
    LimitExceeded,
    /// An I/O error; the library itself never does I/O, but callers reuse the type.
    Io,
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ErrorKind::Truncated => "truncated",
            ErrorKind::Malformed => "malformed",
            ErrorKind::Unsupported => "unsupported",
            ErrorKind::LimitExceeded => "limit exceeded",
            ErrorKind::Io => "i/o",
        })
    }
}

/// Where in the input something was found. All parts are optional.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Location {
    /// Absolute byte offset in the (uncompressed) image of a binary file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<u64>,
    /// One-based line and column in a text file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line_col: Option<(u32, u32)>,
    /// A structural path such as `planes[2].objects[17].logic`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
}

impl Location {
    /// A location known only by its byte offset.
    pub fn at(offset: u64) -> Self {
        Location {
            offset: Some(offset),
            ..Location::default()
        }
    }

    /// A location known only by its structural path.
    pub fn path(path: impl Into<String>) -> Self {
        Location {
            path: Some(path.into()),
            ..Location::default()
        }
    }

    /// This location inside the structure at `path`: the path is prefixed to any path already
    /// set, so `records[3]` inside `tile_properties` becomes `tile_properties.records[3]`.
    pub fn with_path(mut self, path: impl Into<String>) -> Self {
        let outer = path.into();
        self.path = Some(match self.path.take() {
            None => outer,
            Some(inner) if inner.starts_with('[') => format!("{outer}{inner}"),
            Some(inner) => format!("{outer}.{inner}"),
        });
        self
    }

    /// True when nothing is known.
    pub fn is_empty(&self) -> bool {
        self.offset.is_none() && self.line_col.is_none() && self.path.is_none()
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut sep = "";
        if let Some(path) = &self.path {
            write!(f, "{path}")?;
            sep = ", ";
        }
        if let Some(offset) = self.offset {
            write!(f, "{sep}byte 0x{offset:x}")?;
            sep = ", ";
        }
        if let Some((line, col)) = self.line_col {
            write!(f, "{sep}line {line}, column {col}")?;
        }
        Ok(())
    }
}

/// The library's error: which format, what kind of failure, where, and a message saying what was
/// expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize)]
#[non_exhaustive]
pub struct Error {
    /// The format being read or written.
    pub format: Format,
    /// The class of failure.
    pub kind: ErrorKind,
    /// Where it happened.
    pub location: Location,
    /// What was found and what was expected.
    pub message: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.format.name(), self.message)?;
        if !self.location.is_empty() {
            write!(f, " (at {})", self.location)?;
        }
        Ok(())
    }
}

impl Error {
    /// A new error.
    pub fn new(
        format: Format,
        kind: ErrorKind,
        location: Location,
        message: impl Into<String>,
    ) -> Self {
        Error {
            format,
            kind,
            location,
            message: message.into(),
        }
    }

    /// A [`ErrorKind::Malformed`] error.
    pub fn malformed(format: Format, location: Location, message: impl Into<String>) -> Self {
        Error::new(format, ErrorKind::Malformed, location, message)
    }

    /// A [`ErrorKind::Unsupported`] error.
    pub fn unsupported(format: Format, location: Location, message: impl Into<String>) -> Self {
        Error::new(format, ErrorKind::Unsupported, location, message)
    }

    /// Place the error inside the structure at `path` (see [`Location::with_path`]).
    pub fn in_path(mut self, path: impl Into<String>) -> Self {
        self.location = self.location.with_path(path);
        self
    }
}

/// Shorthand for results of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// The original tools would still load the file.
    Warning,
    /// The file is unusable as it is.
    Error,
}

/// Something a validation pass or a conversion noticed: not fatal to the call that reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Warning {
    /// The format the finding is about.
    pub format: Format,
    /// How serious it is.
    pub severity: Severity,
    /// Where it is.
    pub location: Location,
    /// What it is.
    pub message: String,
}

#[allow(clippy::self_named_constructors)]
impl Warning {
    /// A finding of [`Severity::Warning`].
    pub fn warning(format: Format, location: Location, message: impl Into<String>) -> Self {
        Warning {
            format,
            severity: Severity::Warning,
            location,
            message: message.into(),
        }
    }

    /// A finding of [`Severity::Error`].
    pub fn error(format: Format, location: Location, message: impl Into<String>) -> Self {
        Warning {
            format,
            severity: Severity::Error,
            location,
            message: message.into(),
        }
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Warning => "warning",
            Severity::Error => "error",
        };
        write!(f, "{sev}: {}: {}", self.format.name(), self.message)?;
        if !self.location.is_empty() {
            write!(f, " (at {})", self.location)?;
        }
        Ok(())
    }
}

/// The error to report instead of `error` when a file was read as `format` because of its name
/// only and its content is text that carries none of that format's signatures: described (its
/// size, what the format would begin with), never quoted
/// ([`crate::registry::unrecognised_text`]). `None`: keep `error`.
pub fn unrecognised_content(format: Format, bytes: &[u8], error: &Error) -> Option<Error> {
    let message = crate::registry::unrecognised_text(format, bytes)?;
    Some(Error::new(format, error.kind, Location::default(), message))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn unrecognised_content_is_described_not_quoted() {
        let secret = b"root:x:0:0:root:/root:/bin/bash\n";
        let quoted = Error::malformed(
            Format::Nw,
            Location::at(0),
            "the first line is \"root:x:0:0:root:/root:/bin/bash\"",
        );
        let described = unrecognised_content(Format::Nw, secret, &quoted).expect("replaced");
        let text = described.to_string();
        assert!(!text.contains("root"), "{text}");
        assert!(text.contains("`GLEVNW01`"), "{text}");
        assert!(text.contains("32 bytes of text"), "{text}");
        assert_eq!(described.kind, quoted.kind);
        // A magic shown as hex.
        let described = unrecognised_content(Format::Pid, secret, &quoted).unwrap();
        assert!(described.message.contains("0a 00 00 00"), "{described}");
        // Binary or empty content (a level with a damaged header): the reader's message stays.
        assert_eq!(
            unrecognised_content(Format::Wwd, b"\x7fELF\0\0", &quoted),
            None
        );
        assert_eq!(unrecognised_content(Format::Wwd, b"", &quoted), None);
        // Content that is the format (a damaged level): the reader's own message stays.
        assert_eq!(
            unrecognised_content(Format::Nw, b"GLEVNW01\nBOARD x", &quoted),
            None
        );
        // A format told by name alone has nothing to check.
        assert_eq!(unrecognised_content(Format::Pal, secret, &quoted), None);
    }
}
