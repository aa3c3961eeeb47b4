//! Floats in the JSON form, exactly: a finite value is a JSON number (serde_json writes the
//! shortest text that reads back to the same bits, `-0.0` included), anything else (NaN with
//! its payload, an infinity) is its bit pattern as a hex string, `"0x7fc00000"`. Real worlds
//! hold NaN texture coordinates, so the lossless model can not refuse them.
//!
//! Used through `#[serde(with = "…")]`: [`one`] for a float, [`array`] for `[T; N]`,
//! [`vec_array`] for `Vec<[T; N]>`.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A float that can be written as a number or as its bits.
pub trait Float: Copy + Serialize + for<'de> Deserialize<'de> {
    /// Whether it is finite.
    fn finite(self) -> bool;
    /// `0x…` with the bits.
    fn bits_text(self) -> String;
    /// From `0x…`.
    fn from_bits_text(text: &str) -> Option<Self>;
}

impl Float for f32 {
    fn finite(self) -> bool {
        self.is_finite()
    }
    fn bits_text(self) -> String {
        format!("0x{:08x}", self.to_bits())
    }
    fn from_bits_text(text: &str) -> Option<f32> {
        let digits = text.strip_prefix("0x")?;
        (digits.len() == 8)
            .then(|| u32::from_str_radix(digits, 16).ok().map(f32::from_bits))
            .flatten()
    }
}

impl Float for f64 {
    fn finite(self) -> bool {
        self.is_finite()
    }
    fn bits_text(self) -> String {
        format!("0x{:016x}", self.to_bits())
    }
    fn from_bits_text(text: &str) -> Option<f64> {
        let digits = text.strip_prefix("0x")?;
        (digits.len() == 16)
            .then(|| u64::from_str_radix(digits, 16).ok().map(f64::from_bits))
            .flatten()
    }
}

#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum Repr<T> {
    Number(T),
    Bits(String),
}

impl<T: Float> Repr<T> {
    fn of(v: T) -> Repr<T> {
        if v.finite() {
            Repr::Number(v)
        } else {
            Repr::Bits(v.bits_text())
        }
    }

    fn value<E: serde::de::Error>(self) -> Result<T, E> {
        match self {
            Repr::Number(v) => Ok(v),
            Repr::Bits(text) => T::from_bits_text(&text).ok_or_else(|| {
                E::custom(format!(
                    "{text:?} is not a float's bits (\"0x\" and 8 or 16 hex digits)"
                ))
            }),
        }
    }
}

/// One float.
pub mod one {
    use super::*;

    /// Serialize.
    pub fn serialize<S: Serializer, T: Float>(v: &T, s: S) -> Result<S::Ok, S::Error> {
        Repr::of(*v).serialize(s)
    }

    /// Deserialize.
    pub fn deserialize<'de, D: Deserializer<'de>, T: Float>(d: D) -> Result<T, D::Error> {
        Repr::<T>::deserialize(d)?.value()
    }
}

fn to_array<T: Float, const N: usize, E: serde::de::Error>(
    items: Vec<Repr<T>>,
) -> Result<[T; N], E> {
    let len = items.len();
    let values = items
        .into_iter()
        .map(Repr::value)
        .collect::<Result<Vec<T>, E>>()?;
    values
        .try_into()
        .map_err(|_| E::custom(format!("expected {N} numbers, found {len}")))
}

/// `[T; N]`.
pub mod array {
    use super::*;

    /// Serialize.
    pub fn serialize<S: Serializer, T: Float, const N: usize>(
        v: &[T; N],
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.collect_seq(v.iter().map(|&x| Repr::of(x)))
    }

    /// Deserialize.
    pub fn deserialize<'de, D: Deserializer<'de>, T: Float, const N: usize>(
        d: D,
    ) -> Result<[T; N], D::Error> {
        to_array(Vec::<Repr<T>>::deserialize(d)?)
    }
}

/// `Vec<[T; N]>`.
pub mod vec_array {
    use super::*;

    /// Serialize.
    pub fn serialize<S: Serializer, T: Float, const N: usize>(
        v: &[[T; N]],
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.collect_seq(
            v.iter()
                .map(|item| item.iter().map(|&x| Repr::of(x)).collect::<Vec<_>>()),
        )
    }

    /// Deserialize.
    pub fn deserialize<'de, D: Deserializer<'de>, T: Float, const N: usize>(
        d: D,
    ) -> Result<Vec<[T; N]>, D::Error> {
        Vec::<Vec<Repr<T>>>::deserialize(d)?
            .into_iter()
            .map(to_array::<T, N, D::Error>)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Serialize, Deserialize)]
    struct Probe {
        #[serde(with = "one")]
        a: f32,
        #[serde(with = "array")]
        b: [f64; 2],
        #[serde(with = "vec_array")]
        c: Vec<[f32; 2]>,
    }

    #[test]
    fn every_bit_pattern_survives_json() {
        let nan = f32::from_bits(0x7fc0_1234);
        let p = Probe {
            a: -0.0,
            b: [f64::INFINITY, 0.1],
            c: vec![[nan, f32::from_bits(0xcdcd_cdcd)], [1.5, f32::NEG_INFINITY]],
        };
        let text = serde_json::to_string(&p).unwrap_or_default();
        assert!(text.contains("\"0x7fc01234\""), "{text}");
        let back: Probe = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
        assert_eq!(back.a.to_bits(), p.a.to_bits());
        assert_eq!(back.b.map(f64::to_bits), p.b.map(f64::to_bits));
        let bits = |v: &Vec<[f32; 2]>| v.iter().flatten().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&back.c), bits(&p.c));
        assert!(serde_json::from_str::<Probe>(r#"{"a":"0x12","b":[1,2],"c":[]}"#).is_err());
        assert!(serde_json::from_str::<Probe>(r#"{"a":1,"b":[1],"c":[]}"#).is_err());
    }
}
