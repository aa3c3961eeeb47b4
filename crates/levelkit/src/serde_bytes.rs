//! Byte vectors in the JSON form of the models, for `#[serde(with = "crate::serde_bytes::…")]`:
//! [`hex`] (one lowercase hex string), [`opt_hex`] (the same, or `null`), [`hex_list`] (a list
//! of hex strings), and [`base64`] / [`opt_base64`] (standard base64, for the HMP model's large
//! blocks). A leaf module: the scene, MDL, PID, WDB and WMB models all use it.
//!
//! Every hex variant writes `hex::encode` (lowercase, two digits a byte, `""` for no bytes) and
//! reads what `hex::decode` accepts (either case, an even number of digits), refusing anything
//! else with "not hex bytes: …".

use serde::de;

fn from_hex<E: de::Error>(text: &str) -> Result<Vec<u8>, E> {
    ::hex::decode(text.as_bytes()).map_err(|e| E::custom(format!("not hex bytes: {e}")))
}

/// Bytes shown as lowercase hex, written in pieces: serde_json streams a `collect_str` into its
/// output, so the JSON of a large picture never holds a second copy of it as one hex string.
struct Hex<'a>(&'a [u8]);

impl std::fmt::Display for Hex<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut text = [0u8; 8192];
        for chunk in self.0.chunks(text.len() / 2) {
            let out = text.get_mut(..chunk.len() * 2).unwrap_or_default();
            ::hex::encode_to_slice(chunk, out).map_err(|_| std::fmt::Error)?;
            f.write_str(std::str::from_utf8(out).map_err(|_| std::fmt::Error)?)?;
        }
        Ok(())
    }
}

impl serde::Serialize for Hex<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Bytes as one lowercase hex string.
pub(crate) mod hex {
    use serde::{Deserialize, Deserializer, Serializer};

    /// Serialise.
    pub fn serialize<S: Serializer>(bytes: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&super::Hex(bytes))
    }

    /// Deserialise.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        let text = std::borrow::Cow::<str>::deserialize(d)?;
        super::from_hex(&text)
    }
}

/// Optional bytes as a hex string, `None` as `null`.
pub(crate) mod opt_hex {
    use serde::{Deserialize, Deserializer, Serializer};

    /// Serialise.
    pub fn serialize<S: Serializer>(bytes: &Option<Vec<u8>>, s: S) -> Result<S::Ok, S::Error> {
        match bytes {
            Some(b) => s.serialize_some(&super::Hex(b)),
            None => s.serialize_none(),
        }
    }

    /// Deserialise.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<u8>>, D::Error> {
        let text = Option::<std::borrow::Cow<str>>::deserialize(d)?;
        text.map(|t| super::from_hex(&t)).transpose()
    }
}

/// A list of byte vectors as a list of hex strings.
pub(crate) mod hex_list {
    use serde::{Deserialize, Deserializer, Serializer};

    /// Serialise.
    pub fn serialize<S: Serializer>(list: &[Vec<u8>], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(list.iter().map(|b| super::Hex(b)))
    }

    /// Deserialise.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Vec<u8>>, D::Error> {
        let texts = Vec::<std::borrow::Cow<str>>::deserialize(d)?;
        texts.iter().map(|t| super::from_hex(t)).collect()
    }
}

/// Bytes as standard base64.
pub(crate) mod base64 {
    use serde::{Deserialize, Deserializer, Serializer};

    /// Serialise.
    pub fn serialize<S: Serializer>(bytes: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&crate::encoding::base64_encode(bytes))
    }

    /// Deserialise.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        let text = String::deserialize(d)?;
        crate::encoding::base64_decode(&text).map_err(serde::de::Error::custom)
    }
}

/// Optional bytes as standard base64, `None` as `null`.
pub(crate) mod opt_base64 {
    use serde::{Deserialize, Deserializer, Serializer};

    /// Serialise.
    pub fn serialize<S: Serializer>(bytes: &Option<Vec<u8>>, s: S) -> Result<S::Ok, S::Error> {
        match bytes {
            Some(b) => s.serialize_some(&crate::encoding::base64_encode(b)),
            None => s.serialize_none(),
        }
    }

    /// Deserialise.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<u8>>, D::Error> {
        let text = Option::<String>::deserialize(d)?;
        text.map(|t| crate::encoding::base64_decode(&t).map_err(serde::de::Error::custom))
            .transpose()
    }
}

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Serialize};

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Row {
        #[serde(with = "super::hex")]
        a: Vec<u8>,
        #[serde(with = "super::opt_hex")]
        b: Option<Vec<u8>>,
        #[serde(with = "super::hex_list")]
        c: Vec<Vec<u8>>,
    }

    #[test]
    fn hex_is_lowercase_and_reads_back() {
        let row = Row {
            a: vec![0xAB, 0x01],
            b: None,
            c: vec![vec![], vec![0xFF]],
        };
        let text = serde_json::to_string(&row).unwrap_or_default();
        assert_eq!(text, r#"{"a":"ab01","b":null,"c":["","ff"]}"#);
        assert_eq!(serde_json::from_str::<Row>(&text).ok(), Some(row));
        let bad = serde_json::from_str::<Row>(r#"{"a":"abc","b":null,"c":[]}"#);
        assert!(bad.is_err_and(|e| e.to_string().contains("not hex bytes")));
    }
}
