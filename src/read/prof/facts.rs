//! The facts of a text report's first lines:
//!
//! ```text
//!         Sat Nov 28 10:38 2026 Time and Allocation Profiling Report  (Final)
//!
//!            arrays +RTS -P -RTS
//!
//!         total time  =        4.66 secs   (4656 ticks @ 1000 us, 1 processor)
//!         total alloc = 11,008,306,616 bytes  (excludes profiling overheads)
//! ```
//!
//! (each line starts with a TAB.)
//!
//! (GHC 7.0's `(51 ticks @ 20 ms)` names no processors.) A line that does not read as
//! expected leaves its facts unknown.

use crate::calltree::Header;

/// The words of the title line, after the date.
pub(super) const TITLE: &str = "Time and Allocation Profiling Report";

/// Takes in a line of the report's head (between the title and the first table).
pub(super) fn head_line(header: &mut Header, line: &str) {
    let line = line.trim();
    if line.is_empty() {
        return;
    }
    if let Some(rest) = line.strip_prefix("total time") {
        total_time(header, rest);
    } else if let Some(rest) = line.strip_prefix("total alloc") {
        let amount = rest
            .trim_start()
            .strip_prefix('=')
            .unwrap_or(rest)
            .trim_start();
        let number: String = amount
            .split_whitespace()
            .next()
            .unwrap_or("")
            .chars()
            .filter(|&c| c != ',')
            .collect();
        header.total_alloc = number.parse().ok();
    } else if header.command_line.is_none() {
        header.split_command_line(line);
    }
}

/// `=        4.66 secs   (4656 ticks @ 1000 us, 1 processor)`
fn total_time(header: &mut Header, rest: &str) {
    let rest = rest.trim_start().strip_prefix('=').unwrap_or(rest);
    let (secs, paren) = rest.split_once('(').unwrap_or((rest, ""));
    header.total_time = secs.split_whitespace().next().and_then(|s| s.parse().ok());
    let paren = paren.trim_end().trim_end_matches(')');
    let (ticks, rest) = paren.split_once('@').unwrap_or((paren, ""));
    header.total_ticks = ticks.split_whitespace().next().and_then(|s| s.parse().ok());
    let (interval, processors) = rest.split_once(',').unwrap_or((rest, ""));
    let mut words = interval.split_whitespace();
    let amount: Option<f64> = words.next().and_then(|s| s.parse().ok());
    let unit = match words.next() {
        Some("us") => Some(1e-6),
        Some("ms") => Some(1e-3),
        Some("s") | Some("secs") => Some(1.0),
        Some("ns") => Some(1e-9),
        _ => None,
    };
    header.tick_interval = amount.zip(unit).map(|(a, u)| a * u);
    header.processors = processors
        .split_whitespace()
        .next()
        .and_then(|s| s.parse().ok());
}

/// The date of a title line (`Sat Nov 28 10:38 2026`), if it is one.
pub(super) fn title_date(line: &str) -> Option<String> {
    let at = line.find(TITLE)?;
    let date = line[..at].trim();
    Some(date.to_string()).filter(|d| !d.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_layout_of_the_totals() {
        let mut h = Header::default();
        head_line(&mut h, "\t   arrays +RTS -P -RTS");
        head_line(
            &mut h,
            "\ttotal time  =        4.66 secs   (4656 ticks @ 1000 us, 1 processor)",
        );
        head_line(
            &mut h,
            "\ttotal alloc = 11,008,306,616 bytes  (excludes profiling overheads)",
        );
        assert_eq!(h.program.as_deref(), Some("arrays"));
        assert_eq!(h.rts_options, ["-P"]);
        assert_eq!(h.total_time, Some(4.66));
        assert_eq!(h.total_ticks, Some(4656));
        assert_eq!(h.tick_interval, Some(0.001));
        assert_eq!(h.processors, Some(1));
        assert_eq!(h.total_alloc, Some(11_008_306_616));
        let mut h = Header::default();
        head_line(
            &mut h,
            "\ttotal time  =        1.02 secs   (51 ticks @ 20 ms)",
        );
        assert_eq!(
            (h.total_ticks, h.tick_interval, h.processors),
            (Some(51), Some(0.02), None)
        );
        head_line(
            &mut h,
            "total time  =  10.25 secs   (19827 ticks @ 1000 us, 32 processors)",
        );
        assert_eq!(h.processors, Some(32));
        let mut h = Header::default();
        head_line(&mut h, "\ttotal time  = garbled");
        assert_eq!((h.total_time, h.total_ticks), (None, None));
        assert_eq!(
            title_date("\tSat Nov 28 10:38 2026 Time and Allocation Profiling Report  (Final)"),
            Some("Sat Nov 28 10:38 2026".to_string())
        );
        assert_eq!(title_date("COST CENTRE"), None);
    }
}
