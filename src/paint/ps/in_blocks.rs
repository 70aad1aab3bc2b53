//! The many lines of a long chart's edge made on two threads: the lines are cut into
//! blocks, a second thread makes every other block into a buffer of its own while the
//! calling thread makes the others in place, and the blocks are written in order. The
//! same bytes as making every line in turn; a few blocks of memory.

use std::io::{self, Write};
use std::sync::mpsc::sync_channel;

use super::Buffered;

/// Lines in a block.
const BLOCK: usize = 4096;

/// Appends lines `0..count` to `out`, line `j` being what `line(buf, j)` appends to
/// `buf`; what is gathered is passed on after each block.
pub(super) fn write_lines<W: Write>(
    out: &mut Buffered<'_, W>,
    count: usize,
    line: &(impl Fn(&mut Vec<u8>, usize) + Sync),
) -> io::Result<()> {
    let blocks = count.div_ceil(BLOCK);
    let block = |buf: &mut Vec<u8>, b: usize| {
        for j in b * BLOCK..((b + 1) * BLOCK).min(count) {
            line(buf, j);
        }
    };
    if blocks < 4 {
        // Too few to be worth a thread.
        for b in 0..blocks {
            block(&mut out.buf, b);
            out.flush_if_large()?;
        }
        return Ok(());
    }
    std::thread::scope(|scope| {
        // The odd blocks, made at most two ahead; their buffers come back to be reused.
        let (made_tx, made) = sync_channel::<Vec<u8>>(2);
        let (spare, spare_rx) = sync_channel::<Vec<u8>>(4);
        let other = std::thread::Builder::new().spawn_scoped(scope, move || {
            for b in (1..blocks).step_by(2) {
                let mut buf = spare_rx.try_recv().unwrap_or_default();
                buf.clear();
                block(&mut buf, b);
                if made_tx.send(buf).is_err() {
                    // The calling thread stopped (its output failed).
                    return;
                }
            }
        });
        if other.is_err() {
            // No thread to be had: every block here.
            return (0..blocks).try_for_each(|b| {
                block(&mut out.buf, b);
                out.flush_if_large()
            });
        }
        for b in 0..blocks {
            if b % 2 == 0 {
                block(&mut out.buf, b);
            } else {
                // Only a panic of the other thread ends it early; the scope passes it on.
                let Ok(buf) = made.recv() else {
                    return Err(io::Error::other("a painting thread stopped"));
                };
                out.buf.extend_from_slice(&buf);
                let _ = spare.try_send(buf);
            }
            out.flush_if_large()?;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every count of lines near the block sizes: the lines in order, as one thread
    /// makes them.
    #[test]
    fn the_lines_come_in_order() {
        let line = |buf: &mut Vec<u8>, j: usize| {
            buf.extend_from_slice(format!("{j} {}\n", "x".repeat(j % 13)).as_bytes())
        };
        for count in [
            0,
            1,
            BLOCK,
            3 * BLOCK + 1,
            4 * BLOCK,
            9 * BLOCK + 17,
            40 * BLOCK,
        ] {
            let mut want = Vec::new();
            (0..count).for_each(|j| line(&mut want, j));
            let mut got = Vec::new();
            let mut out = Buffered::new(&mut got);
            write_lines(&mut out, count, &line).unwrap();
            out.pass_on().unwrap();
            assert!(got == want, "{count}");
        }
    }

    /// An output that fails stops the writing with its error, the other thread too.
    #[test]
    fn a_failing_output_stops_both_threads() {
        struct Full;
        impl Write for Full {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::Error::other("disk full"))
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let mut full = Full;
        let mut out = Buffered::new(&mut full);
        let line = |buf: &mut Vec<u8>, j: usize| buf.extend_from_slice(format!("{j}\n").as_bytes());
        let e = write_lines(&mut out, 100 * BLOCK, &line).unwrap_err();
        assert_eq!(e.to_string(), "disk full");
    }
}
