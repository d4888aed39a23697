//! Text plumbing shared by the three games: located [`diagnostic`]s and [`yaml`], the only
//! module that names the YAML crate.

pub mod diagnostic;
pub mod yaml;
