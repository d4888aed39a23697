//! A game at the table: [`game`] draws targets and plays rounds, [`bidding`] decides a
//! round's bids as data, [`record`] says what happened as notes (the log's words).

pub mod bidding;
pub mod game;
pub mod record;
