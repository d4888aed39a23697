//! The replay page's assembly (docs/VIEWER.md, web/README.md): the template, style sheet and
//! scripts of `web/`, embedded, and the text put into them. Pure text: the binary writes the
//! self-contained page of `robots run --html` ([`page`]), the arena serves the same template
//! with its style and scripts as files of the site.

use super::view::{ViewDoc, script_json};

pub const TEMPLATE: &str = include_str!("../../../../../web/viewer.html");
pub const STYLE: &str = include_str!("../../../../../web/viewer.css");
/// The scripts, inlined in this order (web/README.md).
pub const SCRIPTS: [&str; 5] = [
    include_str!("../../../../../web/js/palette.js"),
    include_str!("../../../../../web/js/model.js"),
    include_str!("../../../../../web/js/board.js"),
    include_str!("../../../../../web/js/panels.js"),
    include_str!("../../../../../web/js/app.js"),
];

/// The whole page: the template with its title, style, data and scripts filled in.
pub fn page(doc: &ViewDoc) -> Result<String, serde_json::Error> {
    let scripts: String = SCRIPTS.concat();
    Ok(fill(
        TEMPLATE,
        &[
            ("{{TITLE}}", &markup_text(&doc.name)),
            ("{{STYLE}}", STYLE),
            ("{{DATA}}", &script_json(doc)?),
            ("{{SCRIPT}}", &scripts),
        ],
    ))
}

/// The template with each marker replaced once, where the template has it: text put in is
/// never searched for markers.
pub fn fill(template: &str, parts: &[(&str, &str)]) -> String {
    let mut places: Vec<(usize, &str, &str)> = parts
        .iter()
        .filter_map(|&(marker, text)| template.find(marker).map(|at| (at, marker, text)))
        .collect();
    places.sort_unstable();
    let mut out =
        String::with_capacity(template.len() + parts.iter().map(|p| p.1.len()).sum::<usize>());
    let mut from = 0;
    for (at, marker, text) in places {
        out.push_str(&template[from..at]);
        out.push_str(text);
        from = at + marker.len();
    }
    out.push_str(&template[from..]);
    out
}

/// Text for HTML or XML content or an attribute's value (in double quotes): the one escaper
/// of the pages and the arena's SVG plots.
pub fn markup_text(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The embedded files never close their own element early, and every marker is used.
    #[test]
    fn the_embedded_files_fit_their_elements() {
        for script in SCRIPTS {
            assert!(!script.to_ascii_lowercase().contains("</script"));
            assert!(!script.contains("<!--"));
        }
        assert!(!STYLE.to_ascii_lowercase().contains("</style"));
        for marker in ["{{TITLE}}", "{{STYLE}}", "{{DATA}}", "{{SCRIPT}}"] {
            assert_eq!(TEMPLATE.matches(marker).count(), 1, "{marker}");
        }
    }

    #[test]
    fn markers_in_the_text_put_in_stay_as_they_are() {
        let filled = fill("a{{X}}b{{Y}}c", &[("{{Y}}", "{{X}}"), ("{{X}}", "<{{Y}}>")]);
        assert_eq!(filled, "a<{{Y}}>b{{X}}c");
        assert_eq!(markup_text("<a & \"b\">"), "&lt;a &amp; &quot;b&quot;&gt;");
    }
}
