//! A time profile (a `.prof` report, `-pj`, an eventlog's time samples: the call tree)
//! as pprof's `profile.proto` (`--format pprof prog.prof`): one sample per cost-centre
//! stack with costs of its own, its locations the stack's cost centres, the innermost
//! first (as pprof wants), of two types: `cpu` in `nanoseconds` (the stack's ticks ×
//! the tick interval) and `alloc_space` in `bytes`. So pprof's totals are the report's:
//! every stack's ticks × the interval, and every stack's bytes. A report without the
//! ticks and bytes of each stack (`+RTS -p`: shares only, rounded to a tenth of a
//! percent) is refused with a word, rather than given made-up numbers.

use std::io::{self, Write};

use super::frames::Frame;
use super::{proto, write_gzipped, Builder};
use crate::calltree::{CallTree, NodeId};

/// Writes `tree` as a gzipped pprof profile.
pub(crate) fn write_time_pprof<W: Write>(tree: &CallTree, out: &mut W) -> io::Result<()> {
    let refuse = |why: &str| Err(io::Error::new(io::ErrorKind::InvalidInput, why.to_string()));
    let columns = tree.columns();
    if !columns.ticks {
        return refuse(
            "a pprof profile of a time profile needs each stack's ticks: a report made \
             with +RTS -P or -pa, -pj, or an eventlog's time samples (+RTS -p's shares \
             are rounded)",
        );
    }
    let header = tree.header();
    let Some(interval) = header.tick_interval.filter(|i| i.is_finite() && *i > 0.0) else {
        return refuse("the time profile does not say the time between its ticks");
    };
    let tick_ns = (interval * 1e9).round() as i64;
    let mut b = Builder::default();
    let cpu = proto::ValueType {
        r#type: b.string("cpu"),
        unit: b.string("nanoseconds"),
    };
    let mut sample_type = vec![cpu.clone()];
    if columns.bytes {
        sample_type.push(proto::ValueType {
            r#type: b.string("alloc_space"),
            unit: b.string("bytes"),
        });
    }
    let mut samples = Vec::new();
    let mut ticks_total = 0u64;
    for n in tree.nodes() {
        let ticks = tree.ticks(n).unwrap_or(0);
        let bytes = tree.bytes(n).unwrap_or(0);
        if ticks == 0 && bytes == 0 {
            continue;
        }
        ticks_total += ticks;
        let mut value = vec![saturating(ticks).saturating_mul(tick_ns)];
        if columns.bytes {
            value.push(saturating(bytes));
        }
        let location_id = (tree.path(n).iter().rev())
            .map(|&at| b.location(&frame(tree, at)))
            .collect();
        samples.push(proto::Sample {
            location_id,
            value,
            label: Vec::new(),
        });
    }
    let text = |s: &Option<String>| s.clone().unwrap_or_default();
    let comments = [
        format!(
            "hp2ps {}: a time profile's costs by cost-centre stack",
            env!("CARGO_PKG_VERSION")
        ),
        format!("COMMAND {}", text(&header.command_line)),
        format!("DATE {}", text(&header.date)),
    ];
    let comment = comments.iter().map(|c| b.string(c)).collect();
    let profile = proto::Profile {
        default_sample_type: cpu.r#type,
        period_type: Some(cpu.clone()),
        period: tick_ns,
        sample_type,
        sample: samples,
        location: b.locations,
        function: b.functions,
        comment,
        duration_nanos: saturating(ticks_total).saturating_mul(tick_ns),
        string_table: b.strings,
        ..proto::Profile::default()
    };
    write_gzipped(&profile, out)
}

fn saturating(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

/// The frame of node `n` of a stack: its cost centre as `Module.label`, at its source
/// file and first line.
fn frame(tree: &CallTree, n: NodeId) -> Frame {
    let cc = tree.cost_centre(tree.cc(n));
    let (file, line) = file_and_line(cc.src);
    Frame {
        name: format!("{}.{}", cc.module, cc.label),
        file: file.to_string(),
        line,
    }
}

/// A source location's file and first line: `A.hs:40:45-66` and `A.hs:(37,26)-(40,66)`
/// are `A.hs` at 40; `<built-in>` and `<no location info>` are no file.
fn file_and_line(src: &str) -> (&str, i64) {
    if src.starts_with('<') {
        return ("", 0);
    }
    let Some((file, rest)) = src.split_once(':') else {
        return (src, 0);
    };
    let digits: String = (rest.trim_start_matches('('))
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    (file, digits.parse().unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::file_and_line;

    #[test]
    fn a_source_location_gives_its_file_and_first_line() {
        assert_eq!(
            file_and_line("programs/A.hs:40:45-66"),
            ("programs/A.hs", 40)
        );
        assert_eq!(file_and_line("A.hs:(37,26)-(40,66)"), ("A.hs", 37));
        assert_eq!(file_and_line("<built-in>"), ("", 0));
        assert_eq!(file_and_line("<no location info>"), ("", 0));
        assert_eq!(file_and_line(""), ("", 0));
        assert_eq!(file_and_line("A.hs"), ("A.hs", 0));
    }
}
