//! The players at a token game's table: humans and computers, the roster a game starts with,
//! and the seats (the order round the table, to a player's left).

/// The computer players' names, in the order they take the seats the humans leave.
pub const COMPUTER_NAMES: [&str; 8] = [
    "Ada", "Blaise", "Carl", "Dora", "Emmy", "Felix", "Grace", "Hugo",
];

/// Players at a table: at least two, at most one per computer name.
pub const PLAYERS: std::ops::RangeInclusive<usize> = 2..=COMPUTER_NAMES.len();

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A computer player; what its strength means is the game's (the higher, the better).
    Computer { strength: u8 },
    /// A human player, who answers through the game's `Humans`.
    Human,
}

#[derive(Clone, Debug)]
pub struct Player {
    pub name: String,
    pub kind: Kind,
    pub tokens: u32,
}

/// Why a table cannot be seated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RosterError {
    #[error("a table seats 2 to 8 players, not {players}")]
    Size { players: usize },
    #[error("{humans} human players do not fit {players} seats")]
    TooManyHumans { humans: usize, players: usize },
}

/// The table: the humans first, in the order given, then computers of `strength` up to
/// `players` in all.
pub fn roster(humans: &[String], players: usize, strength: u8) -> Result<Vec<Player>, RosterError> {
    if !PLAYERS.contains(&players) {
        return Err(RosterError::Size { players });
    }
    if humans.len() > players {
        return Err(RosterError::TooManyHumans {
            humans: humans.len(),
            players,
        });
    }
    let humans = humans.iter().map(|name| Player {
        name: name.clone(),
        kind: Kind::Human,
        tokens: 0,
    });
    let computers = COMPUTER_NAMES.iter().map(|name| Player {
        name: (*name).to_string(),
        kind: Kind::Computer { strength },
        tokens: 0,
    });
    Ok(humans.chain(computers).take(players).collect())
}

/// How far round the table `player` sits from `first` (0: `first` itself, 1: on its left).
pub fn seat(first: usize, player: usize, players: usize) -> usize {
    (player + players - first) % players
}

/// The other players going round the table from `player`'s left.
pub fn left_of(player: usize, players: usize) -> impl Iterator<Item = usize> {
    (1..players).map(move |k| (player + k) % players)
}

/// A table with no humans: every game's `Humans` answers nothing for it.
pub struct NoHumans;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn humans_sit_first_and_computers_fill_the_table() {
        let table = roster(&["Zoe".to_string()], 3, 2).expect("fits");
        let names: Vec<&str> = table.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["Zoe", "Ada", "Blaise"]);
        assert_eq!(table[0].kind, Kind::Human);
        assert_eq!(table[2].kind, Kind::Computer { strength: 2 });
    }

    #[test]
    fn a_table_seats_two_to_eight() {
        assert_eq!(
            roster(&[], 1, 1).err(),
            Some(RosterError::Size { players: 1 })
        );
        assert_eq!(
            roster(&[], 9, 1).err(),
            Some(RosterError::Size { players: 9 })
        );
        let humans = vec!["a".to_string(), "b".to_string(), "c".to_string()];
        assert_eq!(
            roster(&humans, 2, 1).err(),
            Some(RosterError::TooManyHumans {
                humans: 3,
                players: 2
            })
        );
        assert_eq!(roster(&[], 8, 1).map(|t| t.len()), Ok(8));
    }

    #[test]
    fn seats_go_round_to_the_left() {
        assert_eq!(seat(2, 0, 4), 2);
        assert_eq!(seat(2, 2, 4), 0);
        assert_eq!(left_of(2, 4).collect::<Vec<_>>(), [3, 0, 1]);
    }
}
