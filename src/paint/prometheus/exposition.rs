//! Prometheus's text exposition format (version 0.0.4, what node_exporter's textfile
//! collector, the Pushgateway and every scraper read) and OpenMetrics 1.0's text format,
//! which differ here only in their metadata lines (OpenMetrics adds `# UNIT` and ends
//! with `# EOF`). Both escape a label value's `\`, `"` and line feed, and a help text's
//! `\` and line feed, and nothing else: any other character of valid UTF-8 stands for
//! itself (`tests/prometheus.rs` has `promtool check metrics` read the hostile names
//! of `tests/data`). Every family is a gauge: each says how things stand now.

use std::borrow::Cow;
use std::io::{self, Write};

/// A writer of one exposition, family by family.
pub(super) struct Exposition<'w, W: Write> {
    out: &'w mut W,
    openmetrics: bool,
}

/// A gauge family: its name, its unit (the suffix of its name, for OpenMetrics's
/// `# UNIT`) and what it means.
pub(super) struct Family {
    pub(super) name: &'static str,
    pub(super) unit: Option<&'static str>,
    pub(super) help: String,
}

impl<'w, W: Write> Exposition<'w, W> {
    pub(super) fn new(out: &'w mut W, openmetrics: bool) -> Self {
        Exposition { out, openmetrics }
    }

    /// A family's metadata; its samples follow.
    pub(super) fn family(&mut self, family: &Family) -> io::Result<()> {
        let (name, help) = (family.name, escape_help(&family.help));
        if self.openmetrics {
            writeln!(self.out, "# TYPE {name} gauge")?;
            if let Some(unit) = family.unit {
                writeln!(self.out, "# UNIT {name} {unit}")?;
            }
            writeln!(self.out, "# HELP {name} {help}")
        } else {
            writeln!(self.out, "# HELP {name} {help}")?;
            writeln!(self.out, "# TYPE {name} gauge")
        }
    }

    /// One sample of the family last begun.
    pub(super) fn sample(
        &mut self,
        family: &Family,
        labels: &[(&str, &str)],
        value: f64,
    ) -> io::Result<()> {
        self.out.write_all(family.name.as_bytes())?;
        for (i, (name, value)) in labels.iter().enumerate() {
            let open = if i == 0 { "{" } else { "," };
            write!(self.out, "{open}{name}=\"{}\"", escape_label_value(value))?;
        }
        if !labels.is_empty() {
            self.out.write_all(b"}")?;
        }
        writeln!(self.out, " {}", number(value))
    }

    /// The end of the exposition (OpenMetrics's `# EOF`).
    pub(super) fn finish(self) -> io::Result<()> {
        if self.openmetrics {
            self.out.write_all(b"# EOF\n")?;
        }
        Ok(())
    }
}

/// A label value as the formats write it: `\`, `"` and line feed escaped.
pub(crate) fn escape_label_value(value: &str) -> Cow<'_, str> {
    escape(value, true)
}

/// A help text: `\` and line feed escaped.
fn escape_help(text: &str) -> Cow<'_, str> {
    escape(text, false)
}

fn escape(text: &str, quotes: bool) -> Cow<'_, str> {
    let special = |c: char| c == '\\' || c == '\n' || (quotes && c == '"');
    if !text.contains(special) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '"' if quotes => out.push_str("\\\""),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// A value as Go's `strconv.ParseFloat` reads it back exactly: a whole number without a
/// fraction (bytes are), else the shortest decimal that is the same double; `NaN`,
/// `+Inf`, `-Inf`.
pub(crate) fn number(v: f64) -> String {
    const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
    if v.is_nan() {
        "NaN".to_string()
    } else if v.is_infinite() {
        if v > 0.0 { "+Inf" } else { "-Inf" }.to_string()
    } else if v.fract() == 0.0 && v.abs() <= EXACT {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn label_values_escape_what_the_format_says_and_nothing_else() {
        assert_eq!(escape_label_value("plain"), "plain");
        assert_eq!(
            escape_label_value("a\"b\\c\nd\te\u{1b}é"),
            "a\\\"b\\\\c\\nd\te\u{1b}é"
        );
        assert_eq!(escape_help("a\"b\\c\nd"), "a\"b\\\\c\\nd");
    }

    #[test]
    fn numbers_read_back_as_the_same_double() {
        assert_eq!(number(43_033_512.0), "43033512");
        assert_eq!(number(-0.0), "0");
        assert_eq!(number(0.56), "0.56");
        assert_eq!(number(1e21), format!("1{}", "0".repeat(21)));
        assert_eq!(number(f64::NAN), "NaN");
        assert_eq!(number(f64::NEG_INFINITY), "-Inf");
    }

    #[test]
    fn the_two_formats_differ_in_their_metadata_only() {
        let family = Family {
            name: "hp2ps_peak_bytes",
            unit: Some("bytes"),
            help: "The peak\\n".to_string(),
        };
        let write = |openmetrics| {
            let mut out = Vec::new();
            let mut e = Exposition::new(&mut out, openmetrics);
            e.family(&family).unwrap();
            e.sample(&family, &[("program", "p"), ("band", "x\"")], 12.0)
                .unwrap();
            e.finish().unwrap();
            String::from_utf8(out).unwrap()
        };
        assert_eq!(
            write(false),
            "# HELP hp2ps_peak_bytes The peak\\\\n\n# TYPE hp2ps_peak_bytes gauge\n\
             hp2ps_peak_bytes{program=\"p\",band=\"x\\\"\"} 12\n"
        );
        assert_eq!(
            write(true),
            "# TYPE hp2ps_peak_bytes gauge\n# UNIT hp2ps_peak_bytes bytes\n\
             # HELP hp2ps_peak_bytes The peak\\\\n\n\
             hp2ps_peak_bytes{program=\"p\",band=\"x\\\"\"} 12\n# EOF\n"
        );
    }
}
