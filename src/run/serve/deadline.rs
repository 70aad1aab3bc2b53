//! A connection whose writes have a deadline: a write that cannot go on for
//! [`WRITE_TIMEOUT`] (the client reads nothing: its receive window and our send buffer
//! are full) fails, and the connection ends. hyper has no write timeout of its own;
//! without one a client that stops reading holds its connection, and an event stream
//! its viewer's slot, for ever.
//!
//! Reads need no deadline here: hyper's `header_read_timeout` covers a request's head
//! and the wait for the next one, and nothing else is read (a request's body is refused
//! unread).

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::time::Sleep;

/// The longest a write may wait for the client to read.
pub(super) const WRITE_TIMEOUT: Duration = Duration::from_secs(20);

/// A TCP connection whose writes fail after [`WRITE_TIMEOUT`] without progress.
pub(super) struct Deadline {
    io: TcpStream,
    /// Set when a write first waits; cleared when one goes through.
    waiting: Option<Pin<Box<Sleep>>>,
}

impl Deadline {
    pub(super) fn new(io: TcpStream) -> Deadline {
        Deadline { io, waiting: None }
    }

    /// What a write that returned `poll` gives: its result, or an error once it has
    /// waited too long.
    fn timed<T>(&mut self, poll: Poll<io::Result<T>>, cx: &mut Context<'_>) -> Poll<io::Result<T>> {
        match poll {
            Poll::Ready(r) => {
                self.waiting = None;
                Poll::Ready(r)
            }
            Poll::Pending => {
                let timer = (self.waiting)
                    .get_or_insert_with(|| Box::pin(tokio::time::sleep(WRITE_TIMEOUT)));
                match timer.as_mut().poll(cx) {
                    Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                        io::ErrorKind::TimedOut,
                        "the client read nothing for too long",
                    ))),
                    Poll::Pending => Poll::Pending,
                }
            }
        }
    }
}

impl AsyncRead for Deadline {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_read(cx, buf)
    }
}

impl AsyncWrite for Deadline {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.io).poll_write(cx, buf);
        this.timed(poll, cx)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.io).poll_write_vectored(cx, bufs);
        this.timed(poll, cx)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.io).poll_flush(cx);
        this.timed(poll, cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.io).poll_shutdown(cx);
        this.timed(poll, cx)
    }
}
