//! The replay page (`robots run --html FILE`, docs/VIEWER.md): one self-contained HTML file,
//! the template, style sheet and scripts of `web/` (`battle::show::page`) with the match's
//! document (`battle::show::view`) inlined as JSON, written. The page loads nothing from the
//! network.

use crate::cli::io::output::Failure;
use robots_games::battle::engine::MatchSetup;
use robots_games::battle::show::page::page;
use robots_games::battle::show::view::{MAX_DOC_BYTES, MAX_TURNS, view_doc};
use std::path::Path;

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
