//! The replay page (`robots run --html FILE`, docs/VIEWER.md): one self-contained HTML file,
//! the template, style sheet and scripts of `web/` embedded in the binary, with the match's
//! document (`battle::show::view`) inlined as JSON. The page loads nothing from the network.

use crate::cli::io::output::Failure;
use robots_games::battle::engine::MatchSetup;
use robots_games::battle::show::view::{MAX_DOC_BYTES, ViewDoc, script_json, view_doc};
use std::path::Path;

/// The longest match a page shows, in robot turns (a 1,000-round match of 12 robots).
pub const MAX_TURNS: u64 = 100_000;

pub const TEMPLATE: &str = include_str!("../../web/viewer.html");
pub const STYLE: &str = include_str!("../../web/viewer.css");
/// The scripts, inlined in this order (web/README.md).
pub const SCRIPTS: [&str; 5] = [
    include_str!("../../web/js/palette.js"),
    include_str!("../../web/js/model.js"),
    include_str!("../../web/js/board.js"),
    include_str!("../../web/js/panels.js"),
    include_str!("../../web/js/app.js"),
];

/// Plays the match and writes its replay page to `path` (`-`: standard output).
pub fn write_html(setup: &MatchSetup, path: &Path) -> Result<(), Failure> {
    let doc = view_doc(setup, MAX_TURNS, MAX_DOC_BYTES).map_err(|e| Failure::Bad(e.to_string()))?;
    let html = page(&doc).map_err(|e| format!("cannot write the page: {e}"))?;
    if path.as_os_str() == "-" {
        out!("{html}");
        return Ok(());
    }
    let shown = robots_games::text::escape(&path.display().to_string()).into_owned();
    std::fs::write(path, &html)
        .map_err(|e| format!("{shown}: error: cannot write the page: {e}"))?;
    let turns = doc.frames.len() - 1;
    let end = doc.end.as_ref().map_or(String::new(), |e| {
        format!(
            ", {} after {}",
            e.verdict,
            robots_games::text::count(e.rounds, "round")
        )
    });
    outln!(
        "{shown}: the replay of {} ({} robot turns{end}, {} bytes)",
        doc.name,
        turns,
        html.len()
    );
    Ok(())
}

/// The whole page: the template with its title, style, data and scripts filled in.
pub fn page(doc: &ViewDoc) -> Result<String, serde_json::Error> {
    let scripts: String = SCRIPTS.concat();
    Ok(fill(
        TEMPLATE,
        &[
            ("{{TITLE}}", &html_text(&doc.name)),
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

/// Text for an HTML element's content.
pub fn html_text(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
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

    /// A program's origin comes from a file: `</script>` in it stays inside the data.
    #[test]
    fn an_origin_cannot_close_the_script_element() {
        let confine = robots_games::text::confine::Confine::Inside;
        let mut setup = super::super::battle::load_match("run", None, confine, None).unwrap();
        let origin = "</SCRIPT><script>alert(1)</script><!--";
        setup.teams[0].robots[0].origin = origin.into();
        let html = page(&view_doc(&setup, 1_000, MAX_DOC_BYTES).unwrap()).unwrap();
        assert_eq!(html.to_ascii_lowercase().matches("</script").count(), 2);
        assert!(!html.contains("<!--"));
        assert!(html.contains(r"\u003c/SCRIPT>\u003cscript>alert(1)\u003c/script>\u003c!--"));
    }

    #[test]
    fn markers_in_the_text_put_in_stay_as_they_are() {
        let filled = fill("a{{X}}b{{Y}}c", &[("{{Y}}", "{{X}}"), ("{{X}}", "<{{Y}}>")]);
        assert_eq!(filled, "a<{{Y}}>b{{X}}c");
        assert_eq!(html_text("<a & b>"), "&lt;a &amp; b&gt;");
    }
}
