//! `robots duel A B --replay-worst FILE` / `--html FILE`: the match of a duel its player
//! most wants to watch, written as a replay or a replay page — A's worst loss (the quickest;
//! ties to the lowest seed, A green first), A's worst result when it lost none, or with
//! `--seed N` the match of that seed index with A green.

use crate::cli::args::flags::DuelArgs;
use crate::cli::io::output::Failure;
use robots_games::battle::compare::tournament::{Config, Entrant, Game, GameResult, Score, setup};
use robots_games::battle::engine::Match;
use robots_games::text::{count, escape};

/// Whether the duel writes a match, and where: checked before any match is played.
pub(super) fn check(args: &DuelArgs) -> Result<(), Failure> {
    if let Some(path) = &args.replay_worst {
        crate::cli::io::files::writable(path, "the replay")?;
    }
    if let Some(path) = &args.html {
        crate::cli::io::files::writable(path, "the page")?;
    }
    if let Some(n) = args.seed
        && !args.seeds.0.contains(&n)
    {
        return Err(Failure::Bad(format!(
            "--seed: error: {n} is not one of the duel's seed indices ({}..{})",
            args.seeds.0.start(),
            args.seeds.0.end()
        )));
    }
    Ok(())
}

/// The match chosen among `played` (A's side): the one of `--seed`, or the worst for A.
fn choose(played: &[GameResult], seed: Option<u32>) -> Option<&GameResult> {
    if let Some(n) = seed {
        return played
            .iter()
            .find(|r| r.game.seed_index == n && !r.game.swapped);
    }
    let rank = |s: Score| match s {
        Score::Loss => 0,
        Score::Draw => 1,
        Score::Win => 2,
    };
    played.iter().min_by_key(|r| {
        let g = r.game;
        (rank(r.score), r.rounds, g.seed_index, g.swapped)
    })
}

/// Writes the chosen match as asked (`--replay-worst`, `--html`), and says which it is.
pub(super) fn write(
    list: &[Entrant],
    config: &Config,
    played: &[GameResult],
    args: &DuelArgs,
) -> Result<(), Failure> {
    if args.replay_worst.is_none() && args.html.is_none() {
        return Ok(());
    }
    let Some(chosen) = choose(played, args.seed) else {
        return Err(Failure::NoAnswer(
            "no match was played: nothing to write".into(),
        ));
    };
    let game: Game = chosen.game;
    let match_setup = setup(list, config, game);
    let a = escape(&list[0].name);
    let colour = if game.swapped { "violet" } else { "green" };
    let what = match (args.seed, chosen.score) {
        (Some(_), _) => "the chosen match".to_string(),
        (None, Score::Loss) => format!("{a}'s worst loss"),
        (None, _) => format!("{a}'s worst result ({a} lost no match)"),
    };
    let verdict = match chosen.score {
        Score::Loss => "lost",
        Score::Draw => "drawn",
        Score::Win => "won",
    };
    let about = format!(
        "{what}: seed {}, {a} {colour}, {verdict} after {}",
        game.seed_index,
        count(chosen.rounds, "round")
    );
    if let Some(path) = &args.replay_worst {
        let mut game = Match::new(&match_setup).map_err(|e| Failure::Bad(e.to_string()))?;
        let recorder = crate::cli::replay::Recorder::create(path, &match_setup, &game)?;
        crate::cli::battle::play_to_the_end(&mut game, false, Some(recorder))?;
        outln!(
            "wrote the replay of {about} to {} (robots replay, robots debug --replay)",
            escape(&path.display().to_string())
        );
    }
    if let Some(path) = &args.html {
        crate::cli::viewer::write_html(&match_setup, path)?;
        outln!("the page shows {about}");
    }
    Ok(())
}
