//! A turn's methods, in one folder: the turn in progress (`ongoing.rs`), the robot's turn
//! (`robot.rs`: its steps read, planned before play in `plan.rs` and fused with its tests in
//! `brain.rs`, the TI-57 keywords in `calc.rs`), its action (`act.rs`), and the end of a team's turn (`team.rs`). Each part
//! calls only parts below it: the order of play (`play.rs`) calls `team.rs` and `robot.rs`,
//! `robot.rs` calls `act.rs` and `calc.rs`, and every part `ongoing.rs`.

pub(crate) mod act;
pub(crate) mod brain;
pub(crate) mod calc;
pub(crate) mod ongoing;
pub(crate) mod plan;
pub(crate) mod robot;
pub(crate) mod team;
