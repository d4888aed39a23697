//! The arena's HTTP below the routes: its own accept loop on hyper (axum's `serve` sets no
//! timeout on a connection), the limits every request meets before its handler and the
//! answers kept out of shared caches (docs/ARENA.md, "Limits and timeouts").
//!
//! - A request's head must arrive within the head timeout (10 s), counted from its first
//!   byte or, on a kept-alive connection, from the end of the previous answer: an idle
//!   connection is closed after as long.
//! - A stop answers the requests in flight, then closes whatever is still open at the
//!   shutdown deadline (10 s): a client trickling bytes holds nobody.
//! - A body declared larger than `MAX_BODY` is refused at once (413), before it is read;
//!   a request not answered within the request timeout (30 s) is answered 408. Both in the
//!   API's JSON on `/api/` and `/healthz`, as a page elsewhere, with the usual headers.
//! - An answer that depends on who asks is `Cache-Control: private, no-store`.
//! - With a certificate and its key (`robots serve --tls-cert --tls-key`), every connection
//!   is TLS (rustls, HTTP/1.1): its handshake must end within the head timeout too.

use super::MAX_BODY;
use super::api::ApiError;
use super::auth::Caller;
use super::pages;
use axum::Router;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::future::Future;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinSet;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio_rustls::rustls::{self, ServerConfig};
use tower::ServiceExt;

/// How long a connection may take over its parts.
#[derive(Clone, Copy, Debug)]
pub struct Timeouts {
    /// A request's head, from its first byte or from the previous answer.
    pub head: Duration,
    /// From a stop to the closing of the connections still open.
    pub shutdown: Duration,
}

/// The files of `robots serve --tls-cert CERT --tls-key KEY`.
#[derive(Clone, Debug)]
pub struct TlsFiles {
    pub cert: std::path::PathBuf,
    pub key: std::path::PathBuf,
}

/// Why the certificate or its key cannot be used: in words that name the file and never
/// repeat its content.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    #[error("{file}: cannot read it: {kind}")]
    Read {
        file: String,
        kind: std::io::ErrorKind,
    },
    #[error("{file}: {what}")]
    Content { file: String, what: &'static str },
    #[error("the certificate and the key do not make a TLS server: {0}")]
    Config(String),
}

/// The TLS of `robots serve --tls-cert CERT --tls-key KEY`: CERT the server's certificate
/// chain in PEM (the server's first), KEY its private key in PEM (PKCS#8, PKCS#1 or SEC1).
pub fn tls_acceptor(cert: &Path, key: &Path) -> Result<TlsAcceptor, TlsError> {
    let read = |path: &Path| {
        std::fs::read(path).map_err(|e| TlsError::Read {
            file: path.display().to_string(),
            kind: e.kind(),
        })
    };
    let content = |path: &Path, what| TlsError::Content {
        file: path.display().to_string(),
        what,
    };
    let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_slice_iter(&read(cert)?)
        .collect::<Result<_, _>>()
        .map_err(|_| content(cert, "not a certificate chain in PEM"))?;
    if certs.is_empty() {
        return Err(content(
            cert,
            "holds no certificate (PEM `BEGIN CERTIFICATE`)",
        ));
    }
    let key = PrivateKeyDer::from_pem_slice(&read(key)?)
        .map_err(|_| content(key, "holds no private key in PEM (PKCS#8, PKCS#1 or SEC1)"))?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .and_then(|b| b.with_no_client_auth().with_single_cert(certs, key))
        // rustls's words name the problem (a key that does not match, an unknown algorithm),
        // never the bytes.
        .map_err(|e| TlsError::Config(robots_games::text::escape(&e.to_string()).into_owned()))?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(TlsAcceptor::from(Arc::new(config)))
}

/// Serves `router` on `listener` (over TLS with `tls`) until `stop`, then answers the
/// requests in flight for at most `timeouts.shutdown` and closes the connections left.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    timeouts: Timeouts,
    tls: Option<TlsAcceptor>,
    stop: impl Future<Output = ()>,
) {
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(timeouts.head)
        .keep_alive(true);
    let (tell, told) = watch::channel(false);
    let mut connections = JoinSet::new();
    tokio::pin!(stop);
    loop {
        let accepted = tokio::select! {
            () = &mut stop => break,
            Some(_) = connections.join_next() => continue,
            accepted = listener.accept() => accepted,
        };
        match accepted {
            Ok((stream, addr)) => {
                let (http, router, told) = (http.clone(), router.clone(), told.clone());
                let Some(tls) = tls.clone() else {
                    connections.spawn(connection(http, stream, addr, router, told));
                    continue;
                };
                connections.spawn(async move {
                    // A handshake too slow holds nobody: it is bounded as a head is.
                    match tokio::time::timeout(timeouts.head, tls.accept(stream)).await {
                        Ok(Ok(stream)) => connection(http, stream, addr, router, told).await,
                        Ok(Err(e)) => tracing::debug!(%addr, error = %e, "TLS handshake failed"),
                        Err(_) => tracing::debug!(%addr, "TLS handshake too slow"),
                    }
                });
            }
            Err(e) => {
                // Out of file descriptors, most likely: wait for connections to close.
                tracing::warn!(error = %e, "cannot accept a connection");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
    drop(listener);
    let _ = tell.send(true);
    let closing = async { while connections.join_next().await.is_some() {} };
    if tokio::time::timeout(timeouts.shutdown, closing)
        .await
        .is_err()
    {
        tracing::warn!(
            open = connections.len(),
            "the shutdown deadline passed: the connections still open are closed"
        );
        connections.shutdown().await;
    }
}

/// One connection: HTTP/1.1 with upgrades (the rooms' WebSockets), its client's address
/// given to the routes as `ConnectInfo`; told to stop, it finishes the request in flight
/// and closes.
async fn connection(
    http: http1::Builder,
    stream: impl AsyncRead + AsyncWrite + Unpin + Send + 'static,
    addr: SocketAddr,
    router: Router,
    mut stop: watch::Receiver<bool>,
) {
    let service = hyper::service::service_fn(move |mut req: Request<hyper::body::Incoming>| {
        req.extensions_mut().insert(ConnectInfo(addr));
        router.clone().oneshot(req)
    });
    let conn = http
        .serve_connection(TokioIo::new(stream), service)
        .with_upgrades();
    tokio::pin!(conn);
    let stopped = async move {
        let _ = stop.wait_for(|stopped| *stopped).await;
    };
    let done = tokio::select! {
        done = conn.as_mut() => done,
        () = stopped => {
            conn.as_mut().graceful_shutdown();
            conn.await
        }
    };
    if let Err(e) = done {
        // A client gone, a head too slow or malformed: the client's affair, not the server's.
        tracing::debug!(%addr, error = %e, "connection closed");
    }
}

/// Whether a path is the API's (answered in JSON).
fn is_api(path: &str) -> bool {
    path.starts_with("/api/") || path == "/healthz"
}

/// A refusal in the face of the path: the API's JSON, or a page.
fn refusal(path: &str, status: StatusCode, code: &'static str, detail: &str) -> Response {
    if is_api(path) {
        ApiError::new(status, code, detail).into_response()
    } else {
        pages::error_page(status, detail, &Caller::default())
    }
}

/// A body declared larger than `MAX_BODY` is refused before it is read (a chunked body is
/// cut at `MAX_BODY` by the extractors' limit); a request not answered within `timeout` is
/// answered 408.
pub async fn limits(State(timeout): State<Duration>, req: Request, next: Next) -> Response {
    let path = req.uri().path().to_string();
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_BODY as u64) {
        let mut refused = refusal(
            &path,
            StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
            "the body is larger than 256 KiB",
        );
        // The body is not read: the connection cannot serve another request.
        refused
            .headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
        return refused;
    }
    match tokio::time::timeout(timeout, next.run(req)).await {
        Ok(response) => response,
        Err(_) => refusal(
            &path,
            StatusCode::REQUEST_TIMEOUT,
            "timeout",
            "the request took too long",
        ),
    }
}

/// `Cache-Control: private, no-store` on every answer that depends on who asks, unless its
/// handler said otherwise (the static files are `public`): an answer to a request carrying a
/// cookie or a token, an answer that sets a cookie (every page's forms carry the visitor's
/// CSRF token), and an answer to anything but GET or HEAD (a new account's token).
pub async fn private_answers(req: Request, next: Next) -> Response {
    let asked_by_someone = req.headers().contains_key(header::COOKIE)
        || req.headers().contains_key(header::AUTHORIZATION)
        || !matches!(*req.method(), Method::GET | Method::HEAD);
    let mut response = next.run(req).await;
    let headers = response.headers_mut();
    if !headers.contains_key(header::CACHE_CONTROL)
        && (asked_by_someone || headers.contains_key(header::SET_COOKIE))
    {
        headers.insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static("private, no-store"),
        );
    }
    response
}

#[cfg(test)]
mod tests {
    use super::{Timeouts, serve};
    use axum::Router;
    use axum::extract::ws::WebSocketUpgrade;
    use axum::routing::get;
    use std::io::{Read, Write};
    use std::time::Duration;

    /// An echo over a WebSocket: the handshake through the accept loop, a masked frame
    /// echoed, and the upgraded connection kept past the head timeout (it is no longer HTTP).
    fn client(addr: std::net::SocketAddr) {
        let mut s = std::net::TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        s.write_all(b"GET /ws HTTP/1.1\r\nHost: arena\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").unwrap();
        let mut head = Vec::new();
        let mut byte = [0u8; 1];
        while !head.ends_with(b"\r\n\r\n") {
            s.read_exact(&mut byte).unwrap();
            head.push(byte[0]);
        }
        let head = String::from_utf8_lossy(&head);
        assert!(head.starts_with("HTTP/1.1 101"), "{head}");
        for _ in 0..2 {
            let mask = [1u8, 2, 3, 4];
            s.write_all(&[0x81, 0x82, 1, 2, 3, 4, b'h' ^ mask[0], b'i' ^ mask[1]])
                .unwrap();
            let mut echo = [0u8; 4];
            s.read_exact(&mut echo).unwrap();
            assert_eq!(echo, [0x81, 2, b'h', b'i']);
            std::thread::sleep(Duration::from_millis(1500));
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn websockets_are_upgraded_through_the_accept_loop() {
        let router = Router::new().route(
            "/ws",
            get(|ws: WebSocketUpgrade| async {
                ws.on_upgrade(|mut socket| async move {
                    while let Some(Ok(message)) = socket.recv().await {
                        if socket.send(message).await.is_err() {
                            break;
                        }
                    }
                })
            }),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let timeouts = Timeouts {
            head: Duration::from_secs(1),
            shutdown: Duration::from_secs(1),
        };
        let server = tokio::spawn(serve(listener, router, timeouts, None, async {
            let _ = stopped.await;
        }));
        tokio::task::spawn_blocking(move || client(addr))
            .await
            .unwrap();
        stop.send(()).unwrap();
        tokio::time::timeout(Duration::from_secs(3), server)
            .await
            .unwrap()
            .unwrap();
    }
}
