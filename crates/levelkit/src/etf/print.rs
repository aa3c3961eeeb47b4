//! `Display` for [`Term`]: Erlang syntax exactly as `io_lib:format("~w", [T])` writes it in
//! Erlang/OTP 25 (atoms quoted and escaped as `io_lib:write_atom_as_latin1/1` does, floats in the
//! shortest form that reads back, chosen between plain and exponent notation as
//! `io_lib_format:fwrite_g/1` chooses). The tests compare it with Erlang's own output.
//!
//! The printer walks the term with an explicit stack, so any depth prints without recursion.

use std::fmt::{self, Write};

use super::{Big, Term};

/// A pending piece of output.
enum Tok<'a> {
    Term(&'a Term),
    Str(&'static str),
    /// The rest of a list after at least one element: `]`, `,More…` or `|Tail]`.
    Rest(&'a Term),
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut stack = vec![Tok::Term(self)];
        while let Some(tok) = stack.pop() {
            match tok {
                Tok::Str(s) => f.write_str(s)?,
                Tok::Rest(tail) => match tail {
                    Term::Nil => f.write_str("]")?,
                    Term::String(bytes) => {
                        for b in bytes {
                            write!(f, ",{b}")?;
                        }
                        f.write_str("]")?;
                    }
                    Term::List(items, tail) => {
                        stack.push(Tok::Rest(tail));
                        for item in items.iter().rev() {
                            stack.push(Tok::Term(item));
                            stack.push(Tok::Str(","));
                        }
                    }
                    other => {
                        f.write_str("|")?;
                        stack.push(Tok::Str("]"));
                        stack.push(Tok::Term(other));
                    }
                },
                Tok::Term(term) => match term {
                    Term::Int(v) => write!(f, "{v}")?,
                    Term::Big(b) => write_big(f, b)?,
                    Term::Float(x) => f.write_str(&erlang_float(x.value))?,
                    Term::Atom(a) => write_atom(f, &a.name)?,
                    Term::Nil => f.write_str("[]")?,
                    Term::String(bytes) => {
                        f.write_char('[')?;
                        for (i, b) in bytes.iter().enumerate() {
                            if i > 0 {
                                f.write_char(',')?;
                            }
                            write!(f, "{b}")?;
                        }
                        f.write_char(']')?;
                    }
                    Term::List(items, tail) => match items.split_first() {
                        // `[]` cells (which Erlang never writes) leave just the tail.
                        None => stack.push(Tok::Term(tail)),
                        Some((first, rest)) => {
                            f.write_char('[')?;
                            stack.push(Tok::Rest(tail));
                            for item in rest.iter().rev() {
                                stack.push(Tok::Term(item));
                                stack.push(Tok::Str(","));
                            }
                            stack.push(Tok::Term(first));
                        }
                    },
                    Term::Tuple(items) => {
                        f.write_char('{')?;
                        stack.push(Tok::Str("}"));
                        for (i, item) in items.iter().enumerate().rev() {
                            stack.push(Tok::Term(item));
                            if i > 0 {
                                stack.push(Tok::Str(","));
                            }
                        }
                    }
                    Term::Map(pairs) => {
                        f.write_str("#{")?;
                        stack.push(Tok::Str("}"));
                        for (i, (k, v)) in pairs.iter().enumerate().rev() {
                            stack.push(Tok::Term(v));
                            stack.push(Tok::Str(" => "));
                            stack.push(Tok::Term(k));
                            if i > 0 {
                                stack.push(Tok::Str(","));
                            }
                        }
                    }
                    Term::Binary(bytes) => write_bits(f, bytes, 8)?,
                    Term::BitBinary(bytes, bits) => write_bits(f, bytes, *bits)?,
                },
            }
        }
        Ok(())
    }
}

fn write_bits(f: &mut fmt::Formatter<'_>, bytes: &[u8], bits: u8) -> fmt::Result {
    f.write_str("<<")?;
    let n = bytes.len();
    for (i, b) in bytes.iter().enumerate() {
        if i > 0 {
            f.write_char(',')?;
        }
        if i + 1 == n && (1..8).contains(&bits) {
            write!(f, "{}:{bits}", b >> (8 - bits))?;
        } else {
            write!(f, "{b}")?;
        }
    }
    f.write_str(">>")
}

/// A big integer in decimal: repeated division of 32-bit limbs by 10^9.
fn write_big(f: &mut fmt::Formatter<'_>, b: &Big) -> fmt::Result {
    let mut limbs: Vec<u32> = b
        .magnitude
        .chunks(4)
        .map(|c| {
            let mut le = [0u8; 4];
            le[..c.len()].copy_from_slice(c);
            u32::from_le_bytes(le)
        })
        .collect();
    let mut groups = Vec::new();
    loop {
        while limbs.last() == Some(&0) {
            limbs.pop();
        }
        if limbs.is_empty() {
            break;
        }
        let mut rem = 0u64;
        for limb in limbs.iter_mut().rev() {
            let cur = (rem << 32) | u64::from(*limb);
            *limb = (cur / 1_000_000_000) as u32;
            rem = cur % 1_000_000_000;
        }
        groups.push(rem as u32);
    }
    if b.negative && !groups.is_empty() {
        f.write_char('-')?;
    }
    match groups.split_last() {
        None => f.write_char('0'),
        Some((top, rest)) => {
            write!(f, "{top}")?;
            for g in rest.iter().rev() {
                write!(f, "{g:09}")?;
            }
            Ok(())
        }
    }
}

/// Erlang's reserved words (OTP 25, no features enabled), which `~w` quotes.
const RESERVED: &[&str] = &[
    "after", "and", "andalso", "band", "begin", "bnot", "bor", "bsl", "bsr", "bxor", "case",
    "catch", "cond", "div", "end", "fun", "if", "let", "not", "of", "or", "orelse", "receive",
    "rem", "try", "when", "xor",
];

fn is_lower(c: char) -> bool {
    c.is_ascii_lowercase() || (('\u{DF}'..='\u{FF}').contains(&c) && c != '\u{F7}')
}

fn is_name_char(c: char) -> bool {
    is_lower(c)
        || c.is_ascii_uppercase()
        || (('\u{C0}'..='\u{DE}').contains(&c) && c != '\u{D7}')
        || c.is_ascii_digit()
        || c == '_'
        || c == '@'
}

fn write_atom(f: &mut fmt::Formatter<'_>, name: &str) -> fmt::Result {
    let mut chars = name.chars();
    let plain =
        chars.next().is_some_and(is_lower) && chars.all(is_name_char) && !RESERVED.contains(&name);
    if plain {
        return f.write_str(name);
    }
    f.write_char('\'')?;
    for c in name.chars() {
        match c {
            '\'' => f.write_str("\\'")?,
            '\\' => f.write_str("\\\\")?,
            ' '..='~' | '\u{A0}'..='\u{FF}' => f.write_char(c)?,
            '\n' => f.write_str("\\n")?,
            '\r' => f.write_str("\\r")?,
            '\t' => f.write_str("\\t")?,
            '\u{0B}' => f.write_str("\\v")?,
            '\u{08}' => f.write_str("\\b")?,
            '\u{0C}' => f.write_str("\\f")?,
            '\u{1B}' => f.write_str("\\e")?,
            '\u{7F}' => f.write_str("\\d")?,
            c if u32::from(c) < 0xA0 => write!(f, "\\{:03o}", u32::from(c))?,
            c => write!(f, "\\x{{{:X}}}", u32::from(c))?,
        }
    }
    f.write_char('\'')
}

/// A float as Erlang's `~w` writes it: the shortest digits that read back, in plain notation
/// (`100.0`, `0.0012`) unless exponent notation (`1.0e3`, `1.2e-4`) is shorter, and always in
/// exponent notation from 2^53 up, where not every integer is representable.
pub(crate) fn erlang_float(v: f64) -> String {
    if v == 0.0 {
        return if v.is_sign_negative() { "-0.0" } else { "0.0" }.to_owned();
    }
    let sign = if v < 0.0 { "-" } else { "" };
    // Rust's `{:e}` without a precision gives the shortest digits that round-trip.
    let sci = format!("{:e}", v.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i64 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let len = digits.len() as i64;
    let place = exp - (len - 1);
    let fixed = if place >= 0 {
        format!("{digits}{}.0", "0".repeat(place as usize))
    } else if exp >= 0 {
        let (int, frac) = digits.split_at((exp + 1) as usize);
        format!("{int}.{frac}")
    } else {
        format!("0.{}{digits}", "0".repeat((-exp - 1) as usize))
    };
    let expo = if len == 1 {
        format!("{digits}.0e{exp}")
    } else {
        let (first, rest) = digits.split_at(1);
        format!("{first}.{rest}e{exp}")
    };
    let body = if v.abs() < 9_007_199_254_740_992.0 && fixed.len() <= expo.len() {
        fixed
    } else {
        expo
    };
    format!("{sign}{body}")
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::super::{Atom, AtomTag, Big, Term};
    use super::erlang_float;

    /// Erlang/OTP 25's `io_lib:format("~w", [F])` of each float.
    #[test]
    fn floats_as_erlang_writes_them() {
        let cases = [
            (100.0, "100.0"),
            (1000.0, "1.0e3"),
            (0.0001, "0.0001"),
            (0.00012, "1.2e-4"),
            (0.00123, "0.00123"),
            (1.2345e-7, "1.2345e-7"),
            (9007199254740991.0, "9007199254740991.0"),
            (9007199254740992.0, "9.007199254740992e15"),
            (123456789012.0, "123456789012.0"),
            (5e-324, "5.0e-324"),
            (1.7976931348623157e308, "1.7976931348623157e308"),
            (123.456, "123.456"),
            (-1.5, "-1.5"),
            (0.0, "0.0"),
            (-0.0, "-0.0"),
        ];
        for (v, text) in cases {
            assert_eq!(erlang_float(v), text, "{v:e}");
        }
    }

    #[test]
    fn terms_as_erlang_writes_them() {
        let atom = |s: &str| Term::Atom(Atom::new(s));
        let cases = [
            (atom(""), "''"),
            (atom("and"), "'and'"),
            (atom("maybe"), "maybe"),
            (atom("ab@c"), "ab@c"),
            (atom("Ab"), "'Ab'"),
            (atom("ß"), "ß"),
            (
                atom("a'\\\n\u{1}\u{7F}\u{A0}"),
                "'a\\'\\\\\\n\\001\\d\u{A0}'",
            ),
            (atom("你a"), "'\\x{4F60}a'"),
            (
                Term::Atom(Atom {
                    name: "x".into(),
                    tag: AtomTag::AtomUtf8,
                }),
                "x",
            ),
            (Term::String(b"ab".to_vec()), "[97,98]"),
            (
                Term::List(vec![Term::Int(1)], Box::new(Term::String(vec![2]))),
                "[1,2]",
            ),
            (
                Term::List(
                    vec![Term::Int(1)],
                    Box::new(Term::List(vec![], Box::new(Term::Int(2)))),
                ),
                "[1|2]",
            ),
            (Term::List(vec![], Box::new(Term::Nil)), "[]"),
            (Term::Tuple(vec![]), "{}"),
            (
                Term::Map(vec![(atom("a"), Term::Int(1)), (atom("b"), Term::Nil)]),
                "#{a => 1,b => []}",
            ),
            (Term::BitBinary(vec![1, 2, 24], 5), "<<1,2,3:5>>"),
            (Term::BitBinary(vec![], 0), "<<>>"),
            (
                Term::Big(Big {
                    negative: true,
                    magnitude: vec![0, 0, 0, 0, 0, 0, 0, 0, 64],
                }),
                "-1180591620717411303424",
            ),
        ];
        for (term, text) in cases {
            assert_eq!(term.to_string(), text);
        }
    }
}
