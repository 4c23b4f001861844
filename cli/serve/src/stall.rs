//! A connection whose writes may not stall: a client that stops reading
//! (it pipelines requests and never reads the answers) would otherwise
//! hold its connection, and a place among [`MAX_CONNECTIONS`], for ever
//! once the system's send buffer is full. A write that makes no progress
//! for [`WRITE_TIMEOUT`] fails, and hyper closes the connection.
//!
//! [`MAX_CONNECTIONS`]: super::MAX_CONNECTIONS
//! [`WRITE_TIMEOUT`]: super::WRITE_TIMEOUT

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// `io` whose writes fail after `limit` without progress.
pub struct Stalling<T> {
    io: T,
    limit: Duration,
    /// Armed when a write first waits; disarmed by any progress.
    waiting: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl<T> Stalling<T> {
    /// Wraps `io`.
    pub fn new(io: T, limit: Duration) -> Self {
        Stalling {
            io,
            limit,
            waiting: None,
        }
    }

    /// What a write that waits answers: wait on, or fail once it has
    /// waited `limit` (the timer wakes the task then).
    fn waited<A>(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<A>> {
        let limit = self.limit;
        let timer = self
            .waiting
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        match timer.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client read nothing for too long",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }

    /// A write's answer, the timer armed or disarmed by it.
    fn answer<A>(
        &mut self,
        cx: &mut Context<'_>,
        poll: Poll<io::Result<A>>,
    ) -> Poll<io::Result<A>> {
        match poll {
            Poll::Pending => self.waited(cx),
            ready => {
                self.waiting = None;
                ready
            }
        }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for Stalling<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Stalling<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.io).poll_write(cx, buf);
        self.answer(cx, poll)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.io).poll_write_vectored(cx, bufs);
        self.answer(cx, poll)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let poll = Pin::new(&mut self.io).poll_flush(cx);
        self.answer(cx, poll)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let poll = Pin::new(&mut self.io).poll_shutdown(cx);
        self.answer(cx, poll)
    }
}
