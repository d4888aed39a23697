//! A match driven a turn at a time for a person: the [`debug`]ger's core (a timeline with
//! breakpoints and watches) and a game at the table ([`hot_seat`]).

pub mod debug;
pub mod hot_seat;
