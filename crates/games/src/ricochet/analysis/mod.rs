//! Beyond one optimal solution: [`all`] lists every optimal solution of a position (`ricochet
//! solve --all`, `ricochet hint`), [`hardest`] finds the start positions of a target that
//! need the most moves (`ricochet hardest`).

pub mod all;
pub mod hardest;
