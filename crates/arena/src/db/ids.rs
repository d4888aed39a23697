//! The arena's ids, one type for each kind of row (as zed's collab server does with its
//! `id_type!`): an account's id cannot be passed where a hill's is wanted. Each is the row's
//! `INTEGER` key, bound and read through rusqlite's conversions (so on both databases,
//! `sql.rs`), written in JSON and in URLs as the plain number.

use rusqlite::types::{FromSql, FromSqlResult, ToSql, ToSqlOutput, ValueRef};
use std::fmt;
use std::str::FromStr;

macro_rules! id_type {
    ($($(#[$doc:meta])* $name:ident;)*) => {$(
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[derive(serde::Serialize, serde::Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub i64);

        impl $name {
            /// The row's key, as stored.
            pub fn get(self) -> i64 {
                self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }

        impl FromStr for $name {
            type Err = std::num::ParseIntError;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                s.parse().map($name)
            }
        }

        impl ToSql for $name {
            fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
                self.0.to_sql()
            }
        }

        impl FromSql for $name {
            fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
                i64::column_result(value).map($name)
            }
        }
    )*};
}

id_type! {
    /// A row of `accounts`: a player or an administrator.
    AccountId;
    /// A row of `hills`.
    HillId;
    /// A row of `programs`: one program submitted to one hill.
    ProgramId;
    /// A row of `matches`: one match played on a hill.
    MatchId;
    /// A row of `rooms`: a live room of one of the three games.
    RoomId;
    /// A row of `jobs`: a program's placement on its hill.
    JobId;
    /// A row of `pieces`: some of a placement's matches, claimed by one worker at a time.
    PieceId;
    /// A row of `challenges`: a program against another, unranked.
    ChallengeId;
    /// A row of `events`: an administrator's dated round robin on a hill.
    EventId;
    /// A row of `event_pieces`: some of an event's matches, claimed by one worker at a time.
    EventPieceId;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_is_its_number_in_json_urls_and_sql() {
        let id = HillId(42);
        assert_eq!(serde_json::to_string(&id).unwrap(), "42");
        assert_eq!(serde_json::from_str::<HillId>("42").unwrap(), id);
        assert_eq!("42".parse::<HillId>().unwrap(), id);
        assert!("4x".parse::<HillId>().is_err());
        assert_eq!(id.to_string(), "42");
        let db = rusqlite::Connection::open_in_memory().unwrap();
        let back: HillId = db.query_row("SELECT ?1 + 1", [id], |r| r.get(0)).unwrap();
        assert_eq!(back, HillId(43));
    }
}
