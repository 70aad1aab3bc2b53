//! Reading on two cores: the parser runs on the calling thread and hands its statements,
//! in batches, to a second thread that feeds the sink (interning names and storing
//! points). The statements arrive in file order, so the result is the same as
//! [`super::read_into`]'s.

use std::io::Read;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};

use super::{read_into, ReadError, ReadOptions, Warning};
use crate::read::{HeaderField, Sink};

/// Statements per batch: large enough to make the channel cheap, small enough to keep
/// both threads busy.
const BATCH: usize = 16 * 1024;

#[derive(Debug, Clone, Copy)]
enum Event {
    Header(HeaderField, u32, u32),
    Mark(f64),
    Begin(f64),
    End,
    /// A data point; the name is `bytes[start..end]`.
    Data(u32, u32, f64),
}

#[derive(Default)]
struct Batch {
    events: Vec<Event>,
    bytes: Vec<u8>,
}

impl Batch {
    fn stash(&mut self, text: &[u8]) -> (u32, u32) {
        let start = self.bytes.len() as u32;
        self.bytes.extend_from_slice(text);
        (start, self.bytes.len() as u32)
    }

    fn replay<S: Sink>(&self, sink: &mut S) {
        for e in &self.events {
            match *e {
                Event::Header(f, a, b) => sink.header(f, &self.bytes[a as usize..b as usize]),
                Event::Mark(t) => sink.mark(t),
                Event::Begin(t) => sink.begin_sample(t),
                Event::End => sink.end_sample(),
                Event::Data(a, b, v) => sink.data(&self.bytes[a as usize..b as usize], v),
            }
        }
    }
}

enum Message {
    Batch(Batch),
    /// Flush everything, then call `discard_incomplete_sample` and answer.
    Discard,
}

/// The parser's side: collects statements and ships full batches.
struct Sender {
    batch: Batch,
    to_builder: SyncSender<Message>,
    recycled: Receiver<Batch>,
    answers: Receiver<bool>,
}

impl Sender {
    fn ship_if_full(&mut self) {
        // Names are short; the byte arena only grows past its limit with huge names.
        if self.batch.events.len() >= BATCH || self.batch.bytes.len() >= BATCH * 64 {
            self.ship();
        }
    }

    fn ship(&mut self) {
        let next = self.recycled.try_recv().unwrap_or_default();
        let full = std::mem::replace(&mut self.batch, next);
        // A send only fails when the builder thread has gone, i.e. panicked; the join in
        // `read_into_parallel` reports that.
        let _ = self.to_builder.send(Message::Batch(full));
    }
}

impl Sink for Sender {
    fn header(&mut self, field: HeaderField, text: &[u8]) {
        let (a, b) = self.batch.stash(text);
        self.batch.events.push(Event::Header(field, a, b));
        self.ship_if_full();
    }
    fn mark(&mut self, time: f64) {
        self.batch.events.push(Event::Mark(time));
        self.ship_if_full();
    }
    fn begin_sample(&mut self, time: f64) {
        self.batch.events.push(Event::Begin(time));
        self.ship_if_full();
    }
    fn end_sample(&mut self) {
        self.batch.events.push(Event::End);
        self.ship_if_full();
    }
    fn data(&mut self, name: &[u8], value: f64) {
        let (a, b) = self.batch.stash(name);
        self.batch.events.push(Event::Data(a, b, value));
        self.ship_if_full();
    }
    fn discard_incomplete_sample(&mut self) -> bool {
        self.ship();
        let _ = self.to_builder.send(Message::Discard);
        self.answers.recv().unwrap_or(false)
    }
}

/// Like [`read_into`], with the sink fed on a second thread.
pub fn read_into_parallel<R: Read, S: Sink + Send>(
    input: R,
    opts: &ReadOptions,
    sink: &mut S,
) -> Result<Vec<Warning>, ReadError> {
    let (to_builder, from_parser) = sync_channel::<Message>(4);
    let (recycle, recycled) = sync_channel::<Batch>(4);
    let (answer, answers) = sync_channel::<bool>(1);
    std::thread::scope(|scope| {
        let builder = scope.spawn(move || {
            for message in from_parser {
                match message {
                    Message::Batch(mut batch) => {
                        batch.replay(sink);
                        batch.events.clear();
                        batch.bytes.clear();
                        let _ = recycle.try_send(batch);
                    }
                    Message::Discard => {
                        let _ = answer.send(sink.discard_incomplete_sample());
                    }
                }
            }
        });
        let mut sender = Sender {
            batch: Batch::default(),
            to_builder,
            recycled,
            answers,
        };
        let result = read_into(input, opts, &mut sender);
        sender.ship();
        drop(sender);
        if builder.join().is_err() {
            // The sink panicked: a bug, not bad input. Re-raise it here.
            panic!("the profile builder thread panicked");
        }
        result
    })
}
