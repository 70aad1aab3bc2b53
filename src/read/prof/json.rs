//! `+RTS -pj`: the same report as JSON (GHC 8.2 and later).
//!
//! ```text
//! {"program": "arrays", "arguments": ["./arrays"], "rts_arguments": ["-pj"],
//!  "end_time": "Sat Nov 28 10:47 2026", "initial_capabilities": 0, "total_time": 7.86,
//!  "total_ticks": 7862, "tick_interval": 1000, "total_alloc": 13564927760,
//!  "cost_centres": [{"id": 191, "label": "IDLE", "module": "IDLE",
//!                    "src_loc": "<built-in>", "is_caf": false}, …],
//!  "profile": {"id": 185, "entries": 0, "alloc": 872, "ticks": 0, "children": […]}}
//! ```
//!
//! Read token by token ([`super::json_tokens`]): the stacks go to the builder as they
//! come, at their depth. A node is handed over when its `children` start or it ends,
//! whichever is first (numbers after its children, which GHC never writes, still
//! count). Keys it does not know are skipped; a file cut short gives the stacks read.

use std::collections::HashMap;

use super::error::{TimeProfileError, TimeProfileWarning};
use super::json_tokens::{Bad, Token, Tokens};
use super::TimeProfileOptions;
use crate::calltree::{CallTree, CcId, Columns, NodeId, Row, TreeBuilder};

/// Reads a `-pj` file.
pub(super) fn read_json(
    bytes: &[u8],
    opts: &TimeProfileOptions,
) -> Result<(CallTree, Vec<TimeProfileWarning>), TimeProfileError> {
    let mut b = TreeBuilder::new(Columns::counts(true, true));
    b.set_name_limit(opts.max_name_len);
    let mut r = Reader {
        t: Tokens::new(bytes),
        b,
        cut_at: None,
        max_name_len: opts.max_name_len,
        ccs: HashMap::new(),
        unknown: None,
        unknowns: 0,
        warnings: Vec::new(),
    };
    let at = r.t.offset();
    match r.t.next() {
        Ok(Token::Open(b'{')) => {}
        _ => return Err(r.not_a_profile(at, "'{', the start of -pj JSON")),
    }
    let top = r.top();
    if top.as_ref().is_ok_and(|&profile| !profile) {
        return Err(r.not_a_profile(at, "-pj JSON (its \"profile\" and \"cost_centres\")"));
    }
    if let Err(bad) = top {
        if r.b.is_empty() && r.ccs.is_empty() {
            return Err(r.not_a_profile(bad.0, "-pj JSON"));
        }
        let (line, _) = r.t.position(bad.0);
        r.warnings.push(TimeProfileWarning::Cut {
            line,
            what: "inside its JSON (the stacks read so far are kept)",
        });
    }
    Ok(r.finish())
}

struct Reader<'a> {
    t: Tokens<'a>,
    b: TreeBuilder,
    /// Where the first name longer than the limit was met, and the limit.
    cut_at: Option<usize>,
    max_name_len: usize,
    /// The file's cost-centre ids.
    ccs: HashMap<u64, CcId>,
    /// The first node whose id no cost centre has (named `?id`): its id and offset; and
    /// how many.
    unknown: Option<(u64, usize)>,
    unknowns: usize,
    warnings: Vec<TimeProfileWarning>,
}

/// A node being read: its level, numbers, cost centre, and the node once handed over.
struct Open {
    level: usize,
    id: Option<u64>,
    row: Row,
    pushed: Option<NodeId>,
    /// Whether its first key was read.
    started: bool,
}

impl Open {
    /// A node at `level`, its object's `{` just read.
    fn at(level: usize) -> Open {
        Open {
            level,
            id: None,
            row: Row::default(),
            pushed: None,
            started: false,
        }
    }
}

impl<'a> Reader<'a> {
    fn not_a_profile(&self, at: usize, expected: &'static str) -> TimeProfileError {
        let (line, column) = self.t.position(at);
        let found = match self.t.clone_at(at).next() {
            Ok(Token::End) => "the end of the input".to_string(),
            Ok(token) => format!("{token:?}"),
            Err((_, found)) => found,
        };
        TimeProfileError::NotAProfile {
            line,
            column,
            found,
            expected,
        }
    }

    fn expect(&mut self, want: Token<'_>, what: &str) -> Result<(), Bad> {
        let at = self.t.offset();
        match self.t.next()? {
            t if t == want => Ok(()),
            t => Err((at, format!("{t:?} where {what} belongs"))),
        }
    }

    /// The next key of an object (after `{` or a `,`), or `None` at its `}`.
    fn key(&mut self, first: bool) -> Result<Option<String>, Bad> {
        let at = self.t.offset();
        let token = self.t.next()?;
        let token = match (first, token) {
            (_, Token::Close(b'}')) => return Ok(None),
            (true, t) => t,
            (false, Token::Comma) => self.t.next()?,
            (false, t) => return Err((at, format!("{t:?} where ',' or '}}' belongs"))),
        };
        match token {
            Token::Str(k) => {
                self.expect(Token::Colon, "':'")?;
                Ok(Some(k.into_owned()))
            }
            t => Err((at, format!("{t:?} where a key belongs"))),
        }
    }

    /// Skips a value (of any depth, without recursion).
    fn skip(&mut self) -> Result<(), Bad> {
        let mut depth = 0usize;
        loop {
            let at = self.t.offset();
            match self.t.next()? {
                Token::Open(_) => depth += 1,
                Token::Close(_) if depth > 0 => depth -= 1,
                Token::End => return Err((at, "the end of the input".to_string())),
                Token::Close(_) | Token::Colon => return Err((at, "a value".to_string())),
                _ => {}
            }
            if depth == 0 {
                return Ok(());
            }
        }
    }

    fn string(&mut self) -> Result<String, Bad> {
        let at = self.t.offset();
        match self.t.next()? {
            Token::Str(s) => Ok(s.into_owned()),
            Token::Word("null") => Ok(String::new()),
            t => Err((at, format!("{t:?} where a string belongs"))),
        }
    }

    fn number(&mut self) -> Result<f64, Bad> {
        let at = self.t.offset();
        match self.t.next()? {
            Token::Number(n) => n.parse().map_err(|_| (at, format!("{n:?}"))),
            t => Err((at, format!("{t:?} where a number belongs"))),
        }
    }

    fn count(&mut self) -> Result<u64, Bad> {
        let at = self.t.offset();
        match self.t.next()? {
            Token::Number(n) => match n.parse::<u64>() {
                Ok(v) => Ok(v),
                Err(_) => n
                    .parse::<f64>()
                    .ok()
                    .filter(|v| *v >= 0.0)
                    .map(|v| v as u64)
                    .ok_or((at, format!("{n:?}"))),
            },
            t => Err((at, format!("{t:?} where a count belongs"))),
        }
    }

    fn strings(&mut self) -> Result<Vec<String>, Bad> {
        self.expect(Token::Open(b'['), "'['")?;
        let mut out = Vec::new();
        loop {
            let at = self.t.offset();
            match self.t.next()? {
                Token::Close(b']') => return Ok(out),
                Token::Comma if !out.is_empty() => out.push(self.string()?),
                Token::Str(s) if out.is_empty() => out.push(s.into_owned()),
                t => return Err((at, format!("{t:?} in a list of strings"))),
            }
        }
    }

    /// The top object's keys; whether it has a tree or cost centres.
    fn top(&mut self) -> Result<bool, Bad> {
        let mut first = true;
        let mut profile = false;
        while let Some(key) = self.key(first)? {
            first = false;
            match key.as_str() {
                "program" => self.b.header_mut().program = Some(self.string()?),
                // argv: the program as it was started, then its arguments.
                "arguments" => {
                    let argv = self.strings()?;
                    self.b.header_mut().arguments = argv.into_iter().skip(1).collect();
                }
                "rts_arguments" => self.b.header_mut().rts_options = self.strings()?,
                "end_time" => {
                    let date = Some(self.string()?).filter(|d| !d.is_empty());
                    self.b.header_mut().date = date;
                }
                "initial_capabilities" => {
                    let n = self.count()?;
                    self.b.header_mut().processors = u32::try_from(n).ok().filter(|&n| n > 0);
                }
                "total_time" => self.b.header_mut().total_time = Some(self.number()?),
                "total_ticks" => self.b.header_mut().total_ticks = Some(self.count()?),
                // Microseconds.
                "tick_interval" => self.b.header_mut().tick_interval = Some(self.number()? / 1e6),
                "total_alloc" => self.b.header_mut().total_alloc = Some(self.count()?),
                "cost_centres" => {
                    profile = true;
                    self.cost_centres()?
                }
                "profile" => {
                    profile = true;
                    self.profile()?
                }
                _ => self.skip()?,
            }
        }
        Ok(profile)
    }

    /// `[{"id": …, "label": …, "module": …, "src_loc": …, "is_caf": …}, …]`
    fn cost_centres(&mut self) -> Result<(), Bad> {
        self.expect(Token::Open(b'['), "'['")?;
        let mut first = true;
        loop {
            let at = self.t.offset();
            match (self.t.next()?, first) {
                (Token::Close(b']'), _) => return Ok(()),
                (Token::Open(b'{'), true) => {}
                (Token::Comma, false) => self.expect(Token::Open(b'{'), "'{'")?,
                (t, _) => return Err((at, format!("{t:?} in the cost centres"))),
            }
            first = false;
            let (mut id, mut label, mut module, mut src, mut caf) =
                (None, String::new(), String::new(), String::new(), false);
            let mut first_key = true;
            while let Some(key) = self.key(first_key)? {
                first_key = false;
                match key.as_str() {
                    "id" => id = Some(self.count()?),
                    "label" => label = self.string()?,
                    "module" => module = self.string()?,
                    "src_loc" => src = self.string()?,
                    "is_caf" => {
                        let at = self.t.offset();
                        caf = match self.t.next()? {
                            Token::Word("true") => true,
                            Token::Word("false") => false,
                            t => return Err((at, format!("{t:?} where true or false belongs"))),
                        }
                    }
                    _ => self.skip()?,
                }
            }
            let cut = self.b.names_cut();
            let cc = self.b.cost_centre(&label, &module, &src, caf);
            if self.b.names_cut() > cut && self.cut_at.is_none() {
                self.cut_at = Some(self.t.at);
            }
            if let Some(id) = id {
                self.ccs.insert(id, cc);
            }
        }
    }

    /// The tree: each node's object, its children in a list, without recursion.
    fn profile(&mut self) -> Result<(), Bad> {
        self.expect(Token::Open(b'{'), "'{'")?;
        // The open nodes, and whether each is past its first key.
        let mut stack: Vec<Open> = vec![Open::at(0)];
        while let Some(node) = stack.last_mut() {
            let first = !node.started;
            node.started = true;
            let key = self.key(first)?;
            let Some(key) = key else {
                // The node's `}`: hand it over if its children did not, then the `,` or
                // `]` after it in its parent's list.
                if let Some(node) = stack.pop() {
                    self.hand_over(node);
                }
                if stack.is_empty() {
                    return Ok(());
                }
                let at = self.t.offset();
                match self.t.next()? {
                    Token::Comma => {
                        self.expect(Token::Open(b'{'), "'{'")?;
                        let level = stack.len();
                        stack.push(Open::at(level));
                    }
                    Token::Close(b']') => {}
                    t => return Err((at, format!("{t:?} in a list of children"))),
                }
                continue;
            };
            let Some(node) = stack.last_mut() else {
                break;
            };
            match key.as_str() {
                "id" => node.id = Some(self.count()?),
                "entries" => node.row.entries = self.count()?,
                "alloc" => node.row.bytes = self.count()?,
                "ticks" => node.row.ticks = self.count()?,
                "children" => {
                    let level = node.level + 1;
                    self.hand_over_open(stack.len() - 1, &mut stack);
                    self.expect(Token::Open(b'['), "'['")?;
                    let at = self.t.offset();
                    match self.t.next()? {
                        Token::Close(b']') => {}
                        Token::Open(b'{') => stack.push(Open::at(level)),
                        t => return Err((at, format!("{t:?} in a list of children"))),
                    }
                }
                _ => self.skip()?,
            }
        }
        Ok(())
    }

    /// Hands the open node at `i` of `stack` over to the builder (once).
    fn hand_over_open(&mut self, i: usize, stack: &mut [Open]) {
        let node = &mut stack[i];
        if node.pushed.is_none() {
            let cc = self.cc_of(node.id);
            node.pushed = Some(self.b.push(node.level, cc, None, node.row));
        }
    }

    /// A node at its end: handed over, or its numbers brought up to date.
    fn hand_over(&mut self, node: Open) {
        match node.pushed {
            None => {
                let cc = self.cc_of(node.id);
                self.b.push(node.level, cc, None, node.row);
            }
            Some(n) => self.b.set_row(n, node.row),
        }
    }

    /// The cost centre of a node's id (`?id` when none has it).
    fn cc_of(&mut self, id: Option<u64>) -> CcId {
        let id = id.unwrap_or(u64::MAX);
        if let Some(&cc) = self.ccs.get(&id) {
            return cc;
        }
        self.unknowns += 1;
        if self.unknown.is_none() {
            self.unknown = Some((id, self.t.at));
        }
        let cc = self.b.cost_centre(&format!("?{id}"), "", "", false);
        self.ccs.insert(id, cc);
        cc
    }

    fn finish(mut self) -> (CallTree, Vec<TimeProfileWarning>) {
        // The command line as the report writes it, from what the file said.
        let h = self.b.header_mut();
        let mut line: Vec<&str> = h.program.iter().map(String::as_str).collect();
        line.extend(h.arguments.iter().map(String::as_str));
        if !h.rts_options.is_empty() {
            line.push("+RTS");
            line.extend(h.rts_options.iter().map(String::as_str));
            line.push("-RTS");
        }
        h.command_line = Some(line.join(" ")).filter(|l| !l.is_empty());
        if let Some((at, what)) = self.t.odd.first {
            let (line, column) = self.t.position(at);
            self.warnings.push(TimeProfileWarning::InvalidJson {
                line,
                column,
                what,
                count: self.t.odd.count,
            });
        }
        if let Some(at) = self.cut_at {
            self.warnings.push(TimeProfileWarning::NamesCut {
                line: self.t.position(at).0,
                count: self.b.names_cut(),
                to: self.max_name_len,
            });
        }
        if let Some((id, at)) = self.unknown {
            let (line, column) = self.t.position(at);
            self.warnings.push(TimeProfileWarning::UnknownCostCentre {
                line,
                column,
                id,
                count: self.unknowns,
            });
        }
        (self.b.finish(), self.warnings)
    }
}
