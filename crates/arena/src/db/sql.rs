//! One way to run SQL on either database: [`Sql`] is a connection (or a transaction) of
//! SQLite or PostgreSQL. Queries are written once, with SQLite's numbered parameters
//! (`?1`), bound with rusqlite's `params!`; on PostgreSQL they are rewritten (`$1`) and the
//! values converted to the column's type (`dialect.rs`). Rows come back as owned values read
//! with rusqlite's conversions, whichever database they came from.

use super::dialect;
use super::error::DbError;
use bytes::BytesMut;
use postgres::types::{IsNull, ToSql as PgToSql, Type};
use rusqlite::types::{FromSql, ToSqlOutput, Value, ValueRef};
use std::cell::RefCell;

/// What the store's functions return.
pub type SqlResult<T> = Result<T, DbError>;

/// The parameters of a query: rusqlite's `params![…]`, or `&[]`.
pub type Params<'p> = &'p [&'p dyn rusqlite::ToSql];

/// A connection or a transaction, of either database.
pub enum Sql<'c> {
    Lite(&'c rusqlite::Connection),
    Pg(RefCell<&'c mut postgres::Client>),
}

/// A row, its values owned.
pub struct Row(Vec<Value>);

impl Row {
    /// Column `i` as `T` (rusqlite's conversions: an integer reads as a bool, a u32, …).
    pub fn get<T: FromSql>(&self, i: usize) -> SqlResult<T> {
        let v = self.0.get(i).ok_or(DbError::Column(i))?;
        T::column_result(ValueRef::from(v)).map_err(|_| DbError::Column(i))
    }
}

fn owned(p: &dyn rusqlite::ToSql) -> SqlResult<Value> {
    Ok(match p.to_sql()? {
        ToSqlOutput::Borrowed(v) => match v {
            ValueRef::Null => Value::Null,
            ValueRef::Integer(i) => Value::Integer(i),
            ValueRef::Real(f) => Value::Real(f),
            ValueRef::Text(t) => Value::Text(String::from_utf8_lossy(t).into_owned()),
            ValueRef::Blob(b) => Value::Blob(b.to_vec()),
        },
        ToSqlOutput::Owned(v) => v,
        _ => return Err(DbError::Column(usize::MAX)),
    })
}

/// A value bound to a PostgreSQL parameter, converted to the parameter's type.
#[derive(Debug)]
struct Bound(Value);

type BoxError = Box<dyn std::error::Error + Sync + Send>;

impl PgToSql for Bound {
    fn to_sql(&self, ty: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
        match &self.0 {
            Value::Null => Ok(IsNull::Yes),
            Value::Integer(i) => match *ty {
                Type::INT2 => i16::try_from(*i)?.to_sql(ty, out),
                Type::INT4 => i32::try_from(*i)?.to_sql(ty, out),
                Type::BOOL => (*i != 0).to_sql(ty, out),
                #[allow(clippy::cast_precision_loss)]
                Type::FLOAT8 => (*i as f64).to_sql(ty, out),
                Type::TEXT | Type::VARCHAR => i.to_string().to_sql(ty, out),
                _ => i.to_sql(ty, out),
            },
            Value::Real(f) => f.to_sql(ty, out),
            Value::Text(s) => s.as_str().to_sql(ty, out),
            Value::Blob(b) => b.as_slice().to_sql(ty, out),
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    postgres::types::to_sql_checked!();
}

fn pg_value(row: &postgres::Row, i: usize) -> SqlResult<Value> {
    let ty = row
        .columns()
        .get(i)
        .ok_or(DbError::Column(i))?
        .type_()
        .clone();
    let v = match ty {
        Type::INT8 => row.try_get::<_, Option<i64>>(i)?.map(Value::Integer),
        Type::INT4 => row
            .try_get::<_, Option<i32>>(i)?
            .map(|v| Value::Integer(v.into())),
        Type::INT2 => row
            .try_get::<_, Option<i16>>(i)?
            .map(|v| Value::Integer(v.into())),
        Type::BOOL => row
            .try_get::<_, Option<bool>>(i)?
            .map(|v| Value::Integer(v.into())),
        Type::FLOAT8 => row.try_get::<_, Option<f64>>(i)?.map(Value::Real),
        Type::FLOAT4 => row
            .try_get::<_, Option<f32>>(i)?
            .map(|v| Value::Real(v.into())),
        Type::BYTEA => row.try_get::<_, Option<Vec<u8>>>(i)?.map(Value::Blob),
        _ => row.try_get::<_, Option<String>>(i)?.map(Value::Text),
    };
    Ok(v.unwrap_or(Value::Null))
}

impl Sql<'_> {
    /// Whether this is PostgreSQL.
    pub fn is_pg(&self) -> bool {
        matches!(self, Sql::Pg(_))
    }

    /// Runs a statement; the number of rows it changed.
    pub fn execute(&self, sql: &str, params: Params) -> SqlResult<usize> {
        match self {
            Sql::Lite(c) => Ok(c.prepare_cached(sql)?.execute(params)?),
            Sql::Pg(c) => {
                let bound = bind(params)?;
                let n = c
                    .borrow_mut()
                    .execute(dialect::pg(sql).as_str(), &refs(&bound))?;
                Ok(usize::try_from(n).unwrap_or(usize::MAX))
            }
        }
    }

    /// Runs several statements, without parameters (migrations, locks).
    pub fn batch(&self, sql: &str) -> SqlResult<()> {
        match self {
            Sql::Lite(c) => Ok(c.execute_batch(sql)?),
            Sql::Pg(c) => Ok(c.borrow_mut().batch_execute(sql)?),
        }
    }

    /// Every row of a query, each read by `f`.
    pub fn query<T>(
        &self,
        sql: &str,
        params: Params,
        mut f: impl FnMut(&Row) -> SqlResult<T>,
    ) -> SqlResult<Vec<T>> {
        match self {
            Sql::Lite(c) => {
                let mut st = c.prepare_cached(sql)?;
                let n = st.column_count();
                let mut rows = st.query(params)?;
                let mut out = Vec::new();
                while let Some(r) = rows.next()? {
                    let values = (0..n)
                        .map(|i| r.get::<_, Value>(i))
                        .collect::<Result<_, _>>()?;
                    out.push(f(&Row(values))?);
                }
                Ok(out)
            }
            Sql::Pg(c) => {
                let bound = bind(params)?;
                let rows = c
                    .borrow_mut()
                    .query(dialect::pg(sql).as_str(), &refs(&bound))?;
                rows.iter()
                    .map(|r| {
                        let values = (0..r.len())
                            .map(|i| pg_value(r, i))
                            .collect::<SqlResult<Vec<Value>>>()?;
                        f(&Row(values))
                    })
                    .collect()
            }
        }
    }

    /// The first row of a query, if any.
    pub fn query_opt<T>(
        &self,
        sql: &str,
        params: Params,
        f: impl FnMut(&Row) -> SqlResult<T>,
    ) -> SqlResult<Option<T>> {
        Ok(self.query(sql, params, f)?.into_iter().next())
    }

    /// The one row of a query (an error when there is none).
    pub fn query_row<T>(
        &self,
        sql: &str,
        params: Params,
        f: impl FnMut(&Row) -> SqlResult<T>,
    ) -> SqlResult<T> {
        self.query_opt(sql, params, f)?.ok_or(DbError::NoRow)
    }

    /// The database's clock, in milliseconds since 1970 (leases: every machine reads one
    /// clock).
    pub fn now_ms(&self) -> SqlResult<i64> {
        let sql = if self.is_pg() {
            dialect::PG_NOW_MS
        } else {
            dialect::LITE_NOW_MS
        };
        self.query_row(sql, &[], |r| r.get(0))
    }

    /// Runs `f` in a transaction, committed when it returns `Ok`. `serial`: no other serial
    /// transaction runs meanwhile, on any machine (SQLite's `BEGIN IMMEDIATE`; an advisory
    /// lock on PostgreSQL) — for the read-then-write of a submission, a claim, a ranking.
    pub fn transaction<T>(
        &self,
        serial: bool,
        f: impl FnOnce(&Sql) -> SqlResult<T>,
    ) -> SqlResult<T> {
        match self {
            Sql::Lite(c) => {
                c.execute_batch(if serial { "BEGIN IMMEDIATE" } else { "BEGIN" })?;
            }
            Sql::Pg(c) => {
                let mut c = c.borrow_mut();
                c.batch_execute("BEGIN")?;
                if serial && let Err(e) = c.batch_execute(dialect::PG_SERIAL) {
                    let _ = c.batch_execute("ROLLBACK");
                    return Err(e.into());
                }
            }
        }
        match f(self) {
            Ok(v) => {
                self.batch("COMMIT")?;
                Ok(v)
            }
            Err(e) => {
                let _ = self.batch("ROLLBACK");
                Err(e)
            }
        }
    }
}

fn bind(params: Params) -> SqlResult<Vec<Bound>> {
    params.iter().map(|p| Ok(Bound(owned(*p)?))).collect()
}

fn refs(bound: &[Bound]) -> Vec<&(dyn PgToSql + Sync)> {
    bound.iter().map(|b| b as &(dyn PgToSql + Sync)).collect()
}
