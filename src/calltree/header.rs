//! [`Header`]: what a time profile says of its run, besides the tree (the report's
//! first lines, or the `-pj` file's fields before its tree), and [`RetainerSet`], a
//! row of the `Retainer sets created during profiling:` table of a `-p -hr` run.

/// What a profile says of its run. Each field is `None` (or empty) when the file does
/// not say it.
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct Header {
    /// When the report was written, as the file spells it (`Sat Nov 28 10:38 2026`).
    pub date: Option<String>,
    /// The program (`arrays`).
    pub program: Option<String>,
    /// The whole command line as the report gives it (`arrays +RTS -P -RTS`); for
    /// `-pj`, its arguments and RTS options joined so.
    pub command_line: Option<String>,
    /// The program's own arguments (without the program and the RTS options).
    pub arguments: Vec<String>,
    /// The RTS options (`-P`, `-N2`): between `+RTS` and `-RTS` on the command line.
    pub rts_options: Vec<String>,
    /// `total time`, in seconds.
    pub total_time: Option<f64>,
    /// The ticks of `total time` (a tick's samples of every capability count once).
    pub total_ticks: Option<u64>,
    /// The time between ticks, in seconds (`@ 1000 us`: 0.001; `@ 20 ms`: 0.02).
    pub tick_interval: Option<f64>,
    /// The capabilities (`1 processor`, `32 processors`; `-pj`'s
    /// `initial_capabilities`); the 2011 layout does not say.
    pub processors: Option<u32>,
    /// `total alloc`, in bytes (profiling overheads excluded; `-pj` and `-pa` count
    /// `OVERHEAD_of` and `SYSTEM` too).
    pub total_alloc: Option<u64>,
}

impl Header {
    /// Fills `program`, `arguments` and `rts_options` from a command line as the report
    /// writes it: the program, then its arguments with the RTS options between `+RTS`
    /// and `-RTS` (or to the end), and `--RTS` ending the RTS's say.
    pub(crate) fn split_command_line(&mut self, line: &str) {
        let mut words = line.split_whitespace();
        self.program = words.next().map(str::to_string);
        let mut rts = false;
        let mut rts_over = false;
        for w in words {
            match w {
                "--RTS" if !rts_over => (rts, rts_over) = (false, true),
                "+RTS" if !rts_over => rts = true,
                "-RTS" if rts && !rts_over => rts = false,
                _ if rts => self.rts_options.push(w.to_string()),
                _ => self.arguments.push(w.to_string()),
            }
        }
        self.command_line = Some(line.to_string());
    }
}

/// One retainer set of a `-p -hr` run (`SET 68 = {<Main.f,Main.main>, <SYSTEM.SYSTEM>}`):
/// the `.hp` names its band `(68)…`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct RetainerSet {
    /// The set's number.
    pub id: u64,
    /// Its members, each a cost-centre stack as the report writes it, innermost first
    /// (`Main.f,Main.main`; empty for `<>`).
    pub members: Vec<String>,
}

impl RetainerSet {
    /// Reads `{<a>, <b,c>}`, the text after `SET n = `; `None` when it is not a set.
    pub(crate) fn parse_members(text: &str) -> Option<Vec<String>> {
        let inner = text.trim().strip_prefix('{')?.strip_suffix('}')?.trim();
        if inner.is_empty() {
            return Some(Vec::new());
        }
        let inner = inner.strip_prefix('<')?.strip_suffix('>')?;
        // Members are `<…>` joined by `, `: the joint is `>, <`, which a label holding
        // `>, <` would fake (a label is rarely so).
        Some(inner.split(">, <").map(str::to_string).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_line_splits_into_program_arguments_and_rts_options() {
        let mut h = Header::default();
        h.split_command_line("purs +RTS -N -p -RTS compile examples/a.purs");
        assert_eq!(h.program.as_deref(), Some("purs"));
        assert_eq!(h.rts_options, ["-N", "-p"]);
        assert_eq!(h.arguments, ["compile", "examples/a.purs"]);
        let mut h = Header::default();
        h.split_command_line("a +RTS -p --RTS +RTS x");
        assert_eq!(
            (h.rts_options, h.arguments),
            (vec!["-p".into()], vec!["+RTS".into(), "x".into()])
        );
    }

    #[test]
    fn retainer_set_members() {
        let m = RetainerSet::parse_members("{<GHC.Conc.Sync.CAF>, <Main.f,Main.main>}");
        assert_eq!(m.unwrap(), ["GHC.Conc.Sync.CAF", "Main.f,Main.main"]);
        assert_eq!(RetainerSet::parse_members("{<>}").unwrap(), [""]);
        assert_eq!(
            RetainerSet::parse_members("{}").unwrap(),
            Vec::<String>::new()
        );
        assert_eq!(RetainerSet::parse_members("nothing"), None);
    }
}
