//! The challenges' parts of other pages (docs/ARENA.md, "Challenges"): the form and the
//! list on one's program page, the fields that challenge from the submission page with its
//! unsaved text, a table of challenges. Markup only: the pages' handlers are `pages.rs`.

use crate::App;
use crate::api::bodies::ChallengeView;
use crate::api::{self, ApiError};
use crate::auth::Caller;
use crate::db::ids::ProgramId;
use crate::store::{self, Program, Status};
use maud::{Markup, html};
use robots_games::battle::files::shipped;
use std::sync::Arc;

/// The opponents a program of `hill` may challenge: the hill's placed programs but
/// `except`, and the shipped programs that load on it.
fn opponents(
    app: &App,
    hill: &store::Hill,
    except: Option<ProgramId>,
) -> Result<(Vec<Program>, Vec<&'static str>), ApiError> {
    let mut placed = app
        .db
        .read(|c| store::programs_of_hill(c, hill.id, &[Status::Placed]))?;
    placed.retain(|p| Some(p.id) != except);
    let ships = shipped::PROGRAMS
        .iter()
        .map(|(name, _)| *name)
        .filter(|name| super::shipped_entrant(name, hill).is_some())
        .collect();
    Ok((placed, ships))
}

/// The fields that pick an opponent and the seeds.
fn pick(placed: &[Program], ships: &[&str]) -> Markup {
    html! {
        label { "opponent "
            select #opponent name="opponent" required {
                optgroup label="on the hill" {
                    @for p in placed { option value={ "program:" (p.id) } { (p.name) " by " (p.author) } }
                }
                optgroup label="shipped" {
                    @for s in ships { option value={ "shipped:" (s) } { (s) } }
                }
            }
        }
        label { "seeds (each played both ways) " input #seeds name="seeds" type="number" min="1" max=(super::MAX_SEEDS) value="5" required; }
    }
}

/// The challenge form and the challenges of a program, for its author on its page (empty
/// for anyone else).
pub async fn program_section(app: &Arc<App>, caller: &Caller, p: &Program) -> Markup {
    if !caller.is(p.account) {
        return html! {};
    }
    let (app2, id, hill) = (Arc::clone(app), p.id, p.hill);
    let who = caller.account.as_ref().map(|a| a.id);
    let loaded = api::blocking(move || {
        let hill = app2
            .db
            .read(|c| store::hill_by_id(c, hill))?
            .ok_or_else(|| ApiError::not_found("hill"))?;
        let (placed, ships) = opponents(&app2, &hill, Some(id))?;
        let made = app2.db.read(|c| {
            let mut out = Vec::new();
            for ch in super::of_program(c, id, 50)? {
                let played = super::matches(c, ch.id)?;
                out.push(super::api::view(&ch, &played, who));
            }
            Ok(out)
        })?;
        Ok((placed, ships, made))
    })
    .await;
    let Ok((placed, ships, made)) = loaded else {
        return html! { p { "The challenges cannot be read now." } };
    };
    html! {
        h2 { "Challenge" }
        p { "Unranked: a few seeds against another program of the hill or a shipped one, both colours; the standings and ratings never count them. The results and replays are yours; the other author sees that it was played and its result." }
        form #challenge-form method="post" action={ "/programs/" (p.id) "/challenge" } {
            input type="hidden" name="csrf" value=(caller.csrf);
            (pick(&placed, &ships))
            button #challenge-button type="submit" { "Challenge" }
        }
        (table(&made))
    }
}

/// Challenges as a table, each a link to its page.
pub fn table(list: &[ChallengeView]) -> Markup {
    html! {
        div.scroll {
            table #challenges {
                tr { th { "challenge" } th { "by" } th { "against" } th { "seeds" } th { "state" } th { "won" } th { "drawn" } th { "lost" } }
                @for c in list {
                    tr data-challenge=(c.id) data-role=(c.role) {
                        td { a href={ "/challenges/" (c.id) } { (c.name) " v " (c.opponent.name) } }
                        td { (c.challenger) } td { (c.opponent.author.as_deref().unwrap_or("shipped")) }
                        td { (c.seeds) } td { (c.state) } td { (c.wins) } td { (c.draws) } td { (c.losses) }
                    }
                }
            }
        }
    }
}

/// The fields of the submission page that challenge with its unsaved text (its name and
/// text are the form's): the opponent, the seeds, the button.
pub async fn submit_fieldset(app: &Arc<App>, hill: &store::Hill) -> Markup {
    let (app2, hill2) = (Arc::clone(app), hill.clone());
    let Ok((placed, ships)) = api::blocking(move || opponents(&app2, &hill2, None)).await else {
        return html! {};
    };
    html! {
        fieldset #challenge-fields {
            legend { "Or challenge before submitting (unranked; the text is not saved as a program)" }
            (pick(&placed, &ships))
            button #challenge-button type="submit" formaction={ "/hills/" (hill.name) "/challenge" } { "Challenge" }
        }
    }
}
