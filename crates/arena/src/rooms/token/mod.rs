//! The rooms played in turns of questions: Ricochet Robots (`ricochet.rs`) and Micro Robots
//! (`micro.rs`), each the game of the command line played on the room's thread around one
//! `Table` (`table.rs`: the seating, the messages taken one at a time, the answers stored in
//! order, the end).

pub mod micro;
pub mod ricochet;
pub mod table;
#[cfg(test)]
mod turn_tests;
