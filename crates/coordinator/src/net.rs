//! Connection limits of the coordinator's ports (gRPC and HTTP): at most so
//! many connections per listener, and a connection that stays silent is
//! closed.
//!
//! Without them a client that opens connections and sends nothing holds a
//! file descriptor each, forever: 1,100 of them exhaust a 1,024-descriptor
//! limit and the coordinator can no longer accept its workers, nor open its
//! database. With them:
//! - each listener holds at most [`Limits::max_connections`]; a connection
//!   past that is accepted and closed at once (its descriptor comes back),
//!   so one flooded port never starves the others;
//! - a connection that sends nothing within [`Limits::first_byte`] (a
//!   request's headers never come) is closed;
//! - a connection with neither a read nor a write for [`Limits::idle`] is
//!   closed. Live streams are not idle: the event stream writes a
//!   heartbeat every 2 s and gRPC sends HTTP/2 pings.
//!
//! Every accepted socket gets `TCP_NODELAY`: the protocol's small messages
//! (leases, reports, heartbeats) must not wait for Nagle's algorithm.

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::{Instant, Sleep};

/// The limits of one listener.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Connections held at once.
    pub max_connections: usize,
    /// Longest wait for a connection's first byte (its first request's headers).
    pub first_byte: Duration,
    /// Longest time without a read or a write.
    pub idle: Duration,
}

impl Limits {
    /// The gRPC port: workers, `ctl`, probes.
    pub const GRPC: Limits =
        Limits { max_connections: 512, first_byte: Duration::from_secs(10), idle: Duration::from_secs(120) };
    /// An HTTP port: the dashboard, its event streams, the API, metrics.
    pub const HTTP: Limits =
        Limits { max_connections: 192, first_byte: Duration::from_secs(10), idle: Duration::from_secs(60) };
}

/// A connection under [`Limits`]: it holds its listener's permit until
/// dropped, and fails with `TimedOut` once silent too long.
pub struct Guarded<S> {
    inner: S,
    _permit: OwnedSemaphorePermit,
    idle: Duration,
    started: bool,
    deadline: Pin<Box<Sleep>>,
}

impl<S> Guarded<S> {
    fn new(inner: S, permit: OwnedSemaphorePermit, limits: Limits) -> Self {
        Self {
            inner,
            _permit: permit,
            idle: limits.idle,
            started: false,
            deadline: Box::pin(tokio::time::sleep(limits.first_byte)),
        }
    }

    /// The wrapped connection.
    pub fn get_ref(&self) -> &S {
        &self.inner
    }

    fn active(&mut self) {
        self.started = true;
        let next = Instant::now() + self.idle;
        self.deadline.as_mut().reset(next);
    }

    /// A write's outcome: bytes written on a started connection count as
    /// activity; a peer that reads nothing is as idle as one that sends nothing.
    fn wrote(&mut self, cx: &mut Context<'_>, polled: Poll<io::Result<usize>>) -> Poll<io::Result<usize>> {
        match polled {
            Poll::Ready(Ok(n)) => {
                if n > 0 && self.started {
                    self.active();
                }
                Poll::Ready(Ok(n))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => self.expired(cx).map(Err),
        }
    }

    fn expired(&mut self, cx: &mut Context<'_>) -> Poll<io::Error> {
        match self.deadline.as_mut().poll(cx) {
            Poll::Ready(()) => {
                let what = if self.started { "idle" } else { "silent since it opened" };
                Poll::Ready(io::Error::new(io::ErrorKind::TimedOut, format!("connection {what} too long")))
            }
            Poll::Pending => Poll::Pending,
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Guarded<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        match Pin::new(&mut self.inner).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                if buf.filled().len() > before {
                    self.active();
                }
                Poll::Ready(Ok(()))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => self.expired(cx).map(Err),
        }
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Guarded<S> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, data: &[u8]) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.inner).poll_write(cx, data);
        self.wrote(cx, polled)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        self.wrote(cx, polled)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

impl tonic::transport::server::Connected for Guarded<TcpStream> {
    type ConnectInfo = <TcpStream as tonic::transport::server::Connected>::ConnectInfo;

    fn connect_info(&self) -> Self::ConnectInfo {
        self.inner.connect_info()
    }
}

/// A listener that hands out [`Guarded`] connections.
pub struct GuardedListener {
    listener: TcpListener,
    permits: Arc<Semaphore>,
    limits: Limits,
}

impl GuardedListener {
    /// Guards `listener` with `limits`.
    pub fn new(listener: TcpListener, limits: Limits) -> Self {
        Self { permits: Arc::new(Semaphore::new(limits.max_connections)), listener, limits }
    }

    /// The bound address.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// The next connection within the limits. Connections past the limit
    /// are closed as they arrive; accept errors (descriptors exhausted)
    /// are waited out.
    pub async fn accept_guarded(&mut self) -> (Guarded<TcpStream>, SocketAddr) {
        loop {
            let (sock, peer) = match self.listener.accept().await {
                Ok(c) => c,
                Err(e) => {
                    tracing::debug!("accept: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            };
            let Ok(permit) = Arc::clone(&self.permits).try_acquire_owned() else {
                tracing::warn!(%peer, max = self.limits.max_connections, "connection limit reached: connection closed");
                drop(sock);
                continue;
            };
            let _ = sock.set_nodelay(true);
            return (Guarded::new(sock, permit, self.limits), peer);
        }
    }

    /// The connections as a stream (tonic's incoming).
    pub fn into_stream(self) -> impl futures::Stream<Item = io::Result<Guarded<TcpStream>>> {
        futures::stream::unfold(self, |mut l| async move {
            let (conn, _) = l.accept_guarded().await;
            Some((Ok(conn), l))
        })
    }
}

impl axum::serve::Listener for GuardedListener {
    type Io = Guarded<TcpStream>;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        self.accept_guarded().await
    }

    fn local_addr(&self) -> io::Result<Self::Addr> {
        self.listener.local_addr()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    fn limits(max: usize) -> Limits {
        Limits {
            max_connections: max,
            first_byte: Duration::from_millis(200),
            idle: Duration::from_millis(400),
        }
    }

    #[tokio::test]
    async fn a_silent_connection_is_closed_and_one_past_the_limit_at_once() {
        let l = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = l.local_addr().unwrap();
        let mut guarded = GuardedListener::new(l, limits(1));
        let (tx, mut ended) = tokio::sync::mpsc::unbounded_channel();
        tokio::spawn(async move {
            loop {
                let (mut conn, _) = guarded.accept_guarded().await;
                let tx = tx.clone();
                tokio::spawn(async move {
                    let mut buf = [0u8; 4];
                    let r = match conn.read_exact(&mut buf).await {
                        Ok(_) => conn.write_all(&buf).await,
                        Err(e) => Err(e),
                    };
                    drop(conn);
                    let _ = tx.send(r.map_err(|e| e.kind()));
                });
            }
        });
        let mut first = TcpStream::connect(addr).await.unwrap();
        tokio::time::sleep(Duration::from_millis(50)).await;
        // Past the limit: closed at once.
        let mut second = TcpStream::connect(addr).await.unwrap();
        let mut buf = [0u8; 4];
        let n =
            tokio::time::timeout(Duration::from_secs(5), second.read(&mut buf)).await.unwrap().unwrap_or(0);
        assert_eq!(n, 0, "the connection past the limit is closed");
        // The silent first one is closed after its first-byte wait.
        let n =
            tokio::time::timeout(Duration::from_secs(5), first.read(&mut buf)).await.unwrap().unwrap_or(0);
        assert_eq!(n, 0);
        assert_eq!(ended.recv().await, Some(Err(io::ErrorKind::TimedOut)));
        // Its place is free: a new connection is served.
        let mut third = TcpStream::connect(addr).await.unwrap();
        third.write_all(b"ping").await.unwrap();
        tokio::time::timeout(Duration::from_secs(5), third.read_exact(&mut buf)).await.unwrap().unwrap();
        assert_eq!(&buf, b"ping");
        assert_eq!(ended.recv().await, Some(Ok(())));
    }
}
