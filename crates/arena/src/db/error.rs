//! The database's errors, of either database and of the migrations: what every query of
//! `sql.rs` and every opening of `mod.rs` returns.

#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("{0}")]
    Sql(#[from] rusqlite::Error),
    #[error("PostgreSQL: {0}")]
    Pg(#[from] postgres::Error),
    #[error("the database's schema is version {0}, newer than this robots knows ({1})")]
    Newer(i64, usize),
    #[error("migration {0} leaves {1} rows whose references lead nowhere")]
    Dangling(usize, i64),
    #[error("column {0} is missing or of another type")]
    Column(usize),
    #[error("the query returned no row")]
    NoRow,
    #[error("{0}")]
    Unsupported(&'static str),
    /// A room's write refused: its writer no longer owns the room (`dialect::room_guard`).
    #[error("the room is played by another server now")]
    Fenced,
}
