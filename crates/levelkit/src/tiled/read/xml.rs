//! A small element tree over quick-xml, with each element's byte position.

use super::*;

/// One element: name, attributes (unescaped, normalised), children, text content.
#[derive(Debug, Default)]
pub(super) struct El {
    pub name: String,
    pub attrs: Vec<(String, String)>,
    pub children: Vec<El>,
    pub text: String,
    pub pos: usize,
}

impl El {
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a El> + 'a {
        self.children.iter().filter(move |c| c.name == name)
    }
}

pub(super) struct Doc<'b> {
    pub root: El,
    pub lines: Lines<'b>,
}

/// Elements may nest this deep (Tiled's deepest is a group's tile's object's properties).
const MAX_DEPTH: usize = 256;

pub(super) fn parse(bytes: &[u8]) -> Result<Doc<'_>> {
    let lines = Lines::new(bytes);
    let err = |pos: usize, msg: String| {
        Error::malformed(
            TMX,
            Location {
                line_col: lines.line_col(pos),
                ..Location::default()
            },
            msg,
        )
    };
    let text = std::str::from_utf8(bytes).map_err(|e| {
        err(
            e.valid_up_to(),
            "the file is not UTF-8 text (Tiled writes TMX as UTF-8)".into(),
        )
    })?;
    let bom = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let text = text.get(bom..).unwrap_or("");
    let mut reader = Reader::from_str(text);
    let mut stack: Vec<El> = vec![El::default()];
    let pos_of = |p: u64| usize::try_from(p).unwrap_or(usize::MAX).saturating_add(bom);
    loop {
        let pos = pos_of(reader.buffer_position());
        let event = reader.read_event().map_err(|e| {
            err(
                pos_of(reader.error_position()),
                format!("not well-formed XML: {e}"),
            )
        })?;
        match event {
            Event::Start(e) => {
                if stack.len() > MAX_DEPTH {
                    return Err(err(
                        pos,
                        format!("elements nest more than {MAX_DEPTH} deep"),
                    ));
                }
                stack.push(element(&e, pos).map_err(|m| err(pos, m))?);
            }
            Event::Empty(e) => {
                let el = element(&e, pos).map_err(|m| err(pos, m))?;
                if let Some(parent) = stack.last_mut() {
                    parent.children.push(el);
                }
            }
            Event::End(_) => {
                let done = stack.pop();
                match (done, stack.last_mut()) {
                    (Some(done), Some(parent)) => parent.children.push(done),
                    _ => return Err(err(pos, "an end tag closes nothing".into())),
                }
            }
            Event::Text(t) => {
                let s = t
                    .xml10_content()
                    .map_err(|e| err(pos, format!("bad text: {e}")))?;
                if let Some(el) = stack.last_mut() {
                    el.text.push_str(&s);
                }
            }
            Event::CData(t) => {
                let s = t
                    .xml10_content()
                    .map_err(|e| err(pos, format!("bad CDATA: {e}")))?;
                if let Some(el) = stack.last_mut() {
                    el.text.push_str(&s);
                }
            }
            Event::GeneralRef(r) => {
                let c = resolve(&r).map_err(|m| err(pos, m))?;
                if let Some(el) = stack.last_mut() {
                    el.text.push_str(&c);
                }
            }
            Event::Eof => break,
            Event::Decl(_) | Event::PI(_) | Event::Comment(_) | Event::DocType(_) => {}
        }
    }
    let end = bytes.len();
    if stack.len() != 1 {
        return Err(err(end, "the file ends inside an element".into()));
    }
    let mut top = stack.pop().unwrap_or_default();
    if top.children.len() != 1 {
        return Err(err(
            end,
            format!(
                "a TMX file holds one <map> element; this one has {} top-level elements",
                top.children.len()
            ),
        ));
    }
    let root = top.children.pop().unwrap_or_default();
    Ok(Doc { root, lines })
}

fn resolve(r: &quick_xml::events::BytesRef<'_>) -> std::result::Result<String, String> {
    if let Some(c) = r
        .resolve_char_ref()
        .map_err(|e| format!("bad character reference: {e}"))?
    {
        return Ok(c.to_string());
    }
    let name = r.decode().map_err(|e| e.to_string())?;
    quick_xml::escape::resolve_predefined_entity(&name)
        .map(str::to_string)
        .ok_or_else(|| format!("unknown entity &{name};"))
}

fn element(e: &BytesStart<'_>, pos: usize) -> std::result::Result<El, String> {
    let name = String::from_utf8_lossy(e.name().as_ref()).into_owned();
    let mut attrs = Vec::new();
    for a in e.attributes() {
        let a = a.map_err(|e| format!("bad attribute in <{name}>: {e}"))?;
        let key = String::from_utf8_lossy(a.key.as_ref()).into_owned();
        let raw = std::str::from_utf8(&a.value)
            .map_err(|_| format!("attribute {key} of <{name}> is not UTF-8"))?;
        // XML 1.0 attribute-value normalisation: literal line ends and tabs become spaces;
        // character references (`&#10;`) are kept.
        let normalised = raw.replace("\r\n", " ").replace(['\r', '\n', '\t'], " ");
        let value = quick_xml::escape::unescape(&normalised)
            .map_err(|e| format!("attribute {key} of <{name}>: {e}"))?
            .into_owned();
        attrs.push((key, value));
    }
    Ok(El {
        name,
        attrs,
        children: Vec::new(),
        text: String::new(),
        pos,
    })
}
