//! The object types of the maps levelkit makes, for Tiled's property editor: each Claw and
//! Gruntz logic and each kind of Graal object with its fields, typed and at their defaults.
//!
//! Tiled 1.8 reads object types from an object types file (`objecttypes.xml`, named by a
//! project's `objectTypesFile`): an object whose type is `TreasurePowerup` or `link` then shows
//! every field of that type in the property editor, with the map's own values over the
//! defaults. Tiled 1.9 and later read the same types as the project's `propertyTypes` classes
//! used as objects (and import the object types file once). [`project_json`] writes both, so one
//! generated `.tiled-project` serves every Tiled since 1.8.
//!
//! A property a map does not hold is its type's default when the map becomes a level: a WWD
//! object placed in Tiled needs only the fields its user changed (and is given the next free
//! `wwd_id`); a Graal link needs its destination, a chest its item, a baddy its type.

use serde_json::{Map, Value, json};

use crate::formats::wwd;
use crate::tilemap::{Properties, PropertyValue};

/// One object type: the `type` (Tiled 1.9: `class`) of the objects it describes, the colour
/// Tiled draws them in, and their fields with their default values.
#[derive(Debug, Clone, PartialEq)]
pub struct ObjectType {
    /// The object's type: a WWD logic (`TreasurePowerup`) or a Graal object kind (`link`).
    pub name: String,
    /// `#AARRGGBB`.
    pub color: String,
    /// The fields, typed, at their defaults.
    pub properties: Properties,
}

/// The logics of Captain Claw and Gruntz objects in the real levels levelkit is tested on;
/// [`object_types`] adds those of the levels it is given.
pub const WAP32_LOGICS: &[&str] = &[
    "AmbientSound",
    "AmmoPowerup",
    "AniRope",
    "BackStackedCrates",
    "BehindAniCandy",
    "BehindCandy",
    "BehindCandyAni",
    "BehindCrate",
    "BehindStackedCrates",
    "BigSoundTrigger",
    "BossStager",
    "BossWarp",
    "Checkpoint",
    "ClawDialogBigSoundTrigger",
    "ClawDialogSmallSoundTrigger",
    "CoveredPowerup",
    "CrazyHook",
    "CrumblingPeg",
    "CursePowerup",
    "DoNothing",
    "DoNothingNormal",
    "Elevator",
    "ExitTrigger",
    "EyeCandy",
    "FirstSuperCheckpoint",
    "FortressFlag",
    "FrontAniCandy",
    "FrontCandy",
    "FrontCrate",
    "FrontStackedCrates",
    "GlitterlessPowerup",
    "GlobalAmbientSound",
    "GooVent",
    "GroundBlower",
    "GruntCreationPoint",
    "GruntPuddle",
    "GruntStartingPoint",
    "HealthPowerup",
    "InGameIcon",
    "JumpSwitch",
    "MagicPowerup",
    "Marrow",
    "MarrowFloor",
    "Officer",
    "OneWayTriggerElevator",
    "Parrot",
    "PegLeg",
    "PowderKeg",
    "Rat",
    "RollingBall",
    "Seagull",
    "SecondSuperCheckpoint",
    "SecretTeleporterTrigger",
    "SmallSoundTrigger",
    "Soldier",
    "SoundTrigger",
    "SpecialPowerup",
    "SpotAmbientSound",
    "StartElevator",
    "TProjectile",
    "Teleporter",
    "TileSecretTrigger",
    "TileTrigger",
    "TileTriggerSwitch",
    "TogglePeg",
    "TogglePeg2",
    "TogglePeg3",
    "TogglePeg4",
    "TownGuard1",
    "TownGuard2",
    "TreasurePowerup",
    "TriggerElevator",
    "Wolvington",
];

/// The object types of every map levelkit makes: the Graal object kinds (`link`, `sign`,
/// `chest`, `baddy`, `npc`), then one type per WAP32 logic, [`WAP32_LOGICS`] and `logics`
/// (the logics of the user's own levels), sorted, each once. A logic that is not a usable type
/// name (empty, or with control characters) is left out.
pub fn object_types(logics: &[String]) -> Vec<ObjectType> {
    let mut types = graal_types();
    let mut names: Vec<&str> = WAP32_LOGICS
        .iter()
        .copied()
        .chain(logics.iter().map(String::as_str))
        .filter(|n| !n.is_empty() && !n.chars().any(char::is_control))
        .collect();
    names.sort_unstable();
    names.dedup();
    let fields = wwd::object_type_properties();
    types.extend(names.into_iter().map(|name| ObjectType {
        name: name.to_string(),
        color: "#ff3c8cdc".into(),
        properties: fields.clone(),
    }));
    types
}

fn graal_types() -> Vec<ObjectType> {
    let kind = |name: &str, color: &str, fill: &dyn Fn(&mut Properties)| {
        let mut properties = Properties::new();
        fill(&mut properties);
        ObjectType {
            name: name.into(),
            color: color.into(),
            properties,
        }
    };
    vec![
        kind("link", "#ffff5050", &|p| {
            // The destination level and where the player lands: tiles, or `playerx`/`playery`.
            p.string("dest", "")
                .string("dest_x", "0")
                .string("dest_y", "0");
        }),
        kind("sign", "#ffffd24c", &|p| {
            p.string("text", "");
        }),
        kind("chest", "#ffb4783c", &|p| {
            // The item's number (0 green rupee, 2 red rupee, ...) and its sign (-1: none).
            p.int("item", 0).int("sign", -1);
        }),
        kind("baddy", "#ffc83cc8", &|p| {
            p.int("type", 0)
                .string("verse_sight", "")
                .string("verse_hurt", "")
                .string("verse_attack", "");
        }),
        kind("npc", "#ff50c850", &|p| {
            p.string("image", "").string("script", "");
        }),
    ]
}

/// Tiled's name of a property's type and its default as text.
fn typed(value: &PropertyValue) -> (&'static str, String) {
    match value {
        PropertyValue::String(s) => ("string", s.clone()),
        PropertyValue::Int(i) => ("int", i.to_string()),
        PropertyValue::Float(f) => ("float", f.to_string()),
        PropertyValue::Bool(b) => ("bool", b.to_string()),
        PropertyValue::Color(c) => ("color", c.clone()),
        PropertyValue::File(f) => ("file", f.clone()),
        PropertyValue::Object(o) => ("object", o.to_string()),
    }
}

/// The types as Tiled's object types file (`objecttypes.xml`).
pub fn object_types_xml(types: &[ObjectType]) -> String {
    use quick_xml::escape::escape;
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<objecttypes>\n");
    for t in types {
        out.push_str(&format!(
            " <objecttype name=\"{}\" color=\"{}\">\n",
            escape(&t.name),
            escape(&t.color)
        ));
        for p in &t.properties.0 {
            let (kind, default) = typed(&p.value);
            out.push_str(&format!(
                "  <property name=\"{}\" type=\"{kind}\" default=\"{}\"/>\n",
                escape(&p.name),
                escape(&default)
            ));
        }
        out.push_str(" </objecttype>\n");
    }
    out.push_str("</objecttypes>\n");
    out
}

/// The JSON value of a default, as Tiled's project file holds it.
fn json_value(value: &PropertyValue) -> Value {
    match value {
        PropertyValue::String(s) | PropertyValue::Color(s) | PropertyValue::File(s) => {
            Value::String(s.clone())
        }
        PropertyValue::Int(i) => json!(i),
        PropertyValue::Float(f) => json!(f),
        PropertyValue::Bool(b) => json!(b),
        PropertyValue::Object(o) => json!(o),
    }
}

/// A Tiled project (`.tiled-project`) naming `object_types_file` (relative to the project)
/// and holding `types` as class property types used as objects. `existing` is the project file
/// already there: everything in it is kept but its `objectTypesFile` and the property types of
/// the same names, which are replaced (their ids kept); new types get ids after the largest.
/// An error names what in `existing` is not a Tiled project.
pub fn project_json(
    existing: Option<&str>,
    types: &[ObjectType],
    object_types_file: &str,
) -> Result<String, String> {
    let mut project: Map<String, Value> = match existing {
        Some(text) => match serde_json::from_str(text) {
            Ok(Value::Object(map)) => map,
            Ok(_) => return Err("the project file is not a JSON object".into()),
            Err(e) => return Err(format!("the project file is not JSON: {e}")),
        },
        None => {
            let mut p = Map::new();
            p.insert("automappingRulesFile".into(), "".into());
            p.insert("commands".into(), json!([]));
            p.insert("extensionsPath".into(), "extensions".into());
            p.insert("folders".into(), json!(["."]));
            p
        }
    };
    project.insert("objectTypesFile".into(), object_types_file.into());
    let mut property_types = match project.remove("propertyTypes") {
        Some(Value::Array(list)) => list,
        None | Some(Value::Null) => Vec::new(),
        Some(_) => return Err("the project's \"propertyTypes\" is not a list".into()),
    };
    let mut next_id = property_types
        .iter()
        .filter_map(|t| t.get("id").and_then(Value::as_u64))
        .max()
        .unwrap_or(0);
    for t in types {
        let members: Vec<Value> = t
            .properties
            .0
            .iter()
            .map(|p| {
                let (kind, _) = typed(&p.value);
                json!({"name": p.name, "type": kind, "value": json_value(&p.value)})
            })
            .collect();
        let same = property_types
            .iter()
            .position(|e| e.get("name").and_then(Value::as_str) == Some(t.name.as_str()));
        let id = match same.and_then(|i| property_types.get(i)?.get("id")?.as_u64()) {
            Some(id) => id,
            None => {
                next_id = next_id.saturating_add(1);
                next_id
            }
        };
        let class = json!({
            "id": id,
            "name": t.name,
            "type": "class",
            "color": t.color,
            "drawFill": true,
            "useAs": ["object"],
            "members": members,
        });
        match same.and_then(|i| property_types.get_mut(i)) {
            Some(slot) => *slot = class,
            None => property_types.push(class),
        }
    }
    project.insert("propertyTypes".into(), Value::Array(property_types));
    serde_json::to_string_pretty(&Value::Object(project))
        .map(|mut s| {
            s.push('\n');
            s
        })
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    type TestResult = Result<(), String>;

    #[test]
    fn every_logic_gets_the_wwd_fields_and_graal_kinds_come_first() -> TestResult {
        let types = object_types(&["MyLogic".into(), "Officer".into(), "odd\u{1}".into()]);
        let names: Vec<&str> = types.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(
            names.get(..5),
            Some(&["link", "sign", "chest", "baddy", "npc"][..])
        );
        assert!(names.contains(&"MyLogic"));
        assert_eq!(names.iter().filter(|n| **n == "Officer").count(), 1);
        assert!(!names.iter().any(|n| n.starts_with("odd")));
        let officer = types
            .iter()
            .find(|t| t.name == "Officer")
            .map(|t| &t.properties)
            .ok_or("no Officer")?;
        assert_eq!(officer.get("score"), Some(&PropertyValue::Int(0)));
        assert_eq!(
            officer.get("move_rect"),
            Some(&PropertyValue::String("0,0,0,0".into()))
        );
        assert!(officer.get("wwd_id").is_none());
        Ok(())
    }

    #[test]
    fn the_xml_escapes_and_types_each_field() {
        let xml = object_types_xml(&object_types(&["A&B".into()]));
        assert!(xml.contains("<objecttype name=\"A&amp;B\""));
        assert!(xml.contains("<property name=\"dest\" type=\"string\" default=\"\"/>"));
        assert!(xml.contains("<property name=\"sign\" type=\"int\" default=\"-1\"/>"));
    }

    #[test]
    fn a_project_keeps_what_it_had_and_replaces_types_of_the_same_name() -> TestResult {
        let old = r##"{"folders": ["maps"], "propertyTypes": [
            {"id": 7, "name": "link", "type": "class", "members": []},
            {"id": 9, "name": "Mine", "type": "enum", "values": ["a"]}]}"##;
        let text = project_json(Some(old), &object_types(&[]), "lk.xml")?;
        let v: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
        assert_eq!(v["folders"], json!(["maps"]));
        assert_eq!(v["objectTypesFile"], "lk.xml");
        let types = v["propertyTypes"].as_array().ok_or("no list")?;
        let link = types
            .iter()
            .find(|t| t["name"] == "link")
            .ok_or("no link")?;
        assert_eq!(link["id"], 7);
        assert_eq!(link["members"][0]["name"], "dest");
        assert!(types.iter().any(|t| t["name"] == "Mine" && t["id"] == 9));
        let officer = types
            .iter()
            .find(|t| t["name"] == "Officer")
            .ok_or("no Officer")?;
        assert!(officer["id"].as_u64() > Some(9));
        assert!(project_json(Some("[1]"), &[], "x").is_err());
        assert!(project_json(Some("{"), &[], "x").is_err());
        Ok(())
    }
}
