//! Programs against each other: duels, round robins and hills ([`tournament`]), the
//! [`evolve`]r, and the fixed workload of the benchmark ([`bench`](mod@bench)).

pub mod bench;
pub mod evolve;
pub mod tournament;
