//! Programs against each other: `duel` and `tournament` (with shards and Slurm scripts,
//! [`tournament`]), `hill` ([`hill`], its folder's files in [`hill_store`]), and `evolve`.

pub mod evolve;
pub mod hill;
pub mod hill_store;
pub mod tournament;
