//! Who is asking, and may they: passwords (argon2id), secrets for API tokens and sessions
//! (random, kept only as SHA-256 hashes), the CSRF token of the forms (a cookie the form
//! repeats, compared in constant time), and the rate limits of sign-up and sign-in.

use super::db::ids::AccountId;
use super::store::Account;
use argon2::password_hash::phc::{Output, ParamsString, PasswordHash, Salt};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use governor::{DefaultKeyedRateLimiter, Quota};
use sha2::{Digest, Sha256};
use std::net::IpAddr;
use std::num::NonZeroU32;
use subtle::ConstantTimeEq;

/// The session cookie (HttpOnly, SameSite=Lax) and the forms' CSRF cookie (SameSite=Strict).
pub const SESSION_COOKIE: &str = "robots_session";
pub const CSRF_COOKIE: &str = "robots_csrf";
/// How long a browser session lasts, in seconds (30 days).
pub const SESSION_SECONDS: i64 = 30 * 24 * 3600;

/// The longest password taken (argon2 works on the whole of it).
pub const MAX_PASSWORD: usize = 128;
pub const MIN_PASSWORD: usize = 8;
pub const MAX_ACCOUNT_NAME: usize = 32;

/// The caller of a request, as the route's guard found it.
#[derive(Clone, Debug, Default)]
pub struct Caller {
    pub account: Option<Account>,
    /// The CSRF token the page's forms carry.
    pub csrf: String,
    /// Set when the guard made a new CSRF token (the response sets its cookie).
    pub new_csrf: bool,
    pub ip: Option<IpAddr>,
}

impl Caller {
    pub fn is(&self, account: AccountId) -> bool {
        self.account.as_ref().is_some_and(|a| a.id == account)
    }
}

/// Whether `name` can name an account: 1 to 32 ASCII letters, digits, `_` and `-`.
pub fn is_account_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_ACCOUNT_NAME
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// What is wrong with a password, if anything.
pub fn password_problem(password: &str) -> Option<String> {
    (!(MIN_PASSWORD..=MAX_PASSWORD).contains(&password.len()))
        .then(|| format!("a password has {MIN_PASSWORD} to {MAX_PASSWORD} bytes"))
}

#[derive(Debug, thiserror::Error)]
#[error("the system's random source or the password hash failed")]
pub struct CryptoError;

thread_local! {
    /// The thread's argon2 memory (19 MiB), kept for the next hash: allocated once a thread
    /// rather than once a hash (the allocator would keep many such blocks).
    static MEMORY: std::cell::RefCell<Vec<Block>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Argon2id with `params` into `out`, on the thread's memory.
fn argon2id(
    params: &Params,
    password: &[u8],
    salt: &[u8],
    out: &mut [u8],
) -> Result<(), CryptoError> {
    let n = params.block_count();
    if n > MAX_BLOCKS {
        return Err(CryptoError);
    }
    let argon = Argon2::new(Algorithm::Argon2id, Version::V0x13, params.clone());
    MEMORY.with(|memory| {
        let mut memory = memory.borrow_mut();
        if memory.len() < n {
            memory.resize(n, Block::new());
        }
        argon
            .hash_password_into_with_memory(password, salt, out, &mut memory[..n])
            .map_err(|_| CryptoError)
    })
}

/// The most argon2 memory a stored hash may ask for (64 MiB of 1 KiB blocks).
const MAX_BLOCKS: usize = 64 * 1024;

/// The argon2id hash of a password (the crate's default parameters: 19 MiB, 2 passes), as a
/// PHC string with its salt and parameters.
pub fn hash_password(password: &str) -> Result<String, CryptoError> {
    let params = Params::default();
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).map_err(|_| CryptoError)?;
    let mut out = [0u8; 32];
    argon2id(&params, password.as_bytes(), &salt, &mut out)?;
    let phc = PasswordHash {
        algorithm: argon2::ARGON2ID_IDENT,
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(&params).map_err(|_| CryptoError)?,
        salt: Some(Salt::new(&salt).map_err(|_| CryptoError)?),
        hash: Some(Output::new(&out).map_err(|_| CryptoError)?),
    };
    Ok(phc.to_string())
}

/// Whether `password` matches `hash`. An unknown account is checked against a fixed hash, so
/// that both take the same time.
pub fn check_password(password: &str, hash: Option<&str>) -> bool {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let dummy = DUMMY.get_or_init(|| hash_password("no account has it").unwrap_or_default());
    let ok = matches_hash(password, hash.unwrap_or(dummy));
    ok && hash.is_some()
}

fn matches_hash(password: &str, hash: &str) -> bool {
    let Ok(phc) = PasswordHash::new(hash) else {
        return false;
    };
    let (Ok(params), Some(salt), Some(expected)) = (Params::try_from(&phc), phc.salt, phc.hash)
    else {
        return false;
    };
    if phc.algorithm != argon2::ARGON2ID_IDENT {
        return false;
    }
    let mut out = vec![0u8; expected.as_bytes().len()];
    argon2id(&params, password.as_bytes(), salt.as_ref(), &mut out).is_ok()
        && bool::from(out.as_slice().ct_eq(expected.as_bytes()))
}

/// A new secret: 32 random bytes from the system, in hex.
pub fn new_secret() -> Result<String, CryptoError> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|_| CryptoError)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// What the database keeps of a secret.
pub fn secret_hash(secret: &str) -> Vec<u8> {
    Sha256::digest(secret.as_bytes()).to_vec()
}

/// Whether two secrets are equal, in time that does not depend on where they differ.
pub fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len() && bool::from(a.as_bytes().ct_eq(b.as_bytes()))
}

/// Whether `text` has the shape of a secret (64 hex digits): anything else is not looked up.
pub fn looks_like_secret(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Sign-ups and sign-ins per client address.
pub struct Limits {
    auth: DefaultKeyedRateLimiter<IpAddr>,
}

impl Limits {
    pub fn new(per_minute: u32) -> Limits {
        let n = NonZeroU32::new(per_minute).unwrap_or(NonZeroU32::MIN);
        Limits {
            auth: DefaultKeyedRateLimiter::keyed(Quota::per_minute(n)),
        }
    }

    /// Whether `ip` may try to sign up or in now (an unknown address counts as one).
    pub fn auth(&self, ip: Option<IpAddr>) -> bool {
        if self.auth.len() > 100_000 {
            self.auth.retain_recent();
        }
        let ip = ip.unwrap_or(IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED));
        self.auth.check_key(&ip).is_ok()
    }
}

/// A cookie's value in a `Cookie` header.
pub fn cookie<'a>(header: &'a str, name: &str) -> Option<&'a str> {
    header.split(';').find_map(|part| {
        let (k, v) = part.trim().split_once('=')?;
        (k == name).then_some(v)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_hash_and_check() {
        let h = hash_password("correct horse").unwrap();
        assert!(h.starts_with("$argon2id$"));
        assert!(check_password("correct horse", Some(&h)));
        assert!(!check_password("wrong horse", Some(&h)));
        assert!(!check_password("correct horse", None));
        assert!(!check_password("x", Some("!")));
        // The crate's own verifier agrees with ours.
        use argon2::PasswordVerifier;
        assert!(
            Argon2::default()
                .verify_password(b"correct horse", h.as_str())
                .is_ok()
        );
    }

    #[test]
    fn secrets_are_fresh_hex_and_compared_whole() {
        let (a, b) = (new_secret().unwrap(), new_secret().unwrap());
        assert!(looks_like_secret(&a) && a != b);
        assert!(same_secret(&a, &a.clone()));
        assert!(!same_secret(&a, &b) && !same_secret(&a, &a[1..]));
        assert_eq!(secret_hash(&a).len(), 32);
    }

    #[test]
    fn cookies_are_found_by_name() {
        let h = "a=1; robots_csrf=xyz; robots_session=abc";
        assert_eq!(cookie(h, CSRF_COOKIE), Some("xyz"));
        assert_eq!(cookie(h, SESSION_COOKIE), Some("abc"));
        assert_eq!(cookie(h, "b"), None);
    }

    #[test]
    fn the_limit_counts_per_address() {
        let limits = Limits::new(2);
        let ip = Some("10.0.0.1".parse().unwrap());
        assert!(limits.auth(ip) && limits.auth(ip));
        assert!(!limits.auth(ip));
        assert!(limits.auth(Some("10.0.0.2".parse().unwrap())));
    }
}
