//! One robot's turn: its steps read (planned before play, or one by one, with the TI-57
//! keywords under that rule) and its action carried out.

pub(crate) mod calc;
pub(crate) mod plan;
pub(crate) mod robot;
