//! Numbers written for people rather than for hp2ps's PostScript: the summary's text and
//! the tooltips of the chart (SVG, PDF, the HTML page) share one way of writing them.

/// A number for people: thousands separated by commas (as in the chart's title), at most
/// two decimals, no trailing zeros.
pub(crate) fn number(v: f64) -> String {
    let text = if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else {
        let s = format!("{v:.2}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    let (sign, unsigned) = match text.strip_prefix('-') {
        Some(rest) if rest.bytes().any(|b| b.is_ascii_digit() && b != b'0') => ("-", rest),
        Some(rest) => ("", rest),
        None => ("", text.as_str()),
    };
    let (int, frac) = unsigned.split_at(unsigned.find('.').unwrap_or(unsigned.len()));
    if !int.bytes().all(|b| b.is_ascii_digit()) {
        return text; // inf, NaN
    }
    let mut grouped = String::with_capacity(int.len() + int.len() / 3);
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(c);
    }
    format!("{sign}{grouped}{frac}")
}

#[cfg(test)]
mod tests {
    use super::number;

    #[test]
    fn numbers_for_people() {
        assert_eq!(number(648.6800000000001), "648.68");
        assert_eq!(number(2.0), "2");
        assert_eq!(number(0.05), "0.05");
        assert_eq!(number(1.5), "1.5");
        assert_eq!(number(-0.001), "0");
        assert_eq!(number(99159496.0), "99,159,496");
        assert_eq!(number(32334570.2), "32,334,570.2");
        assert_eq!(number(-1234.5), "-1,234.5");
        assert_eq!(number(999.0), "999");
        assert_eq!(number(f64::INFINITY), "inf");
    }
}
