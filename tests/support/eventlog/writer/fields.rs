//! The `.hp`'s times, DATE and JOB as the eventlog carries them, and back: the rules of
//! the module's round trip (see the writer's module doc).

/// Seconds (as the `.hp` has them) to eventlog nanoseconds.
///
/// Rule: `ns = round(t × 1e9)`, then the neighbours `ns ± 1` are tried so that
/// `ns as f64 / 1e9 == t` holds whenever some integer satisfies it. Because `ns` and `1e9`
/// are exact doubles and IEEE division is correctly rounded, `ns as f64 / 1e9` is the
/// double nearest to the rational ns/10⁹; a `.hp` time written with at most 9 decimals
/// (GHC writes 6) is parsed to the double nearest to the same rational, so such times
/// round-trip exactly as long as ns < 2⁵³ (about 104 days). Returns `(ns, exact)`;
/// negative, NaN and too large times give `(0, false)` / a saturated value.
pub fn seconds_to_ns(t: f64) -> (u64, bool) {
    if t.is_nan() || t < 0.0 {
        return (0, false);
    }
    let scaled = (t * 1e9).round();
    if scaled >= 18_446_744_073_709_551_615.0 {
        return (u64::MAX, false);
    }
    let n = scaled as u64;
    for cand in [n, n.wrapping_sub(1), n.saturating_add(1)] {
        if ns_to_seconds(cand) == t {
            return (cand, true);
        }
    }
    (n, false)
}

/// The conversion a reader is expected to use: float division of the u64 by 1e9.
pub fn ns_to_seconds(ns: u64) -> f64 {
    ns as f64 / 1e9
}

const WEEKDAYS: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// Formats a Unix time the way GHC 9.0.2 writes the `.hp` DATE on a UTC machine:
/// C `strftime("%a %b %d %H:%M %Y")` (day zero-padded), e.g. `Sat Nov 21 05:17 2026`.
/// This is the string a reader should make from WALL_CLOCK_TIME's `sec` (in UTC).
pub fn format_hp_date(unix_sec: u64) -> String {
    let secs = unix_sec as i64;
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    let wd = (days + 4).rem_euclid(7) as usize; // 1970-01-01 was a Thursday
    format!(
        "{} {} {:02} {:02}:{:02} {}",
        WEEKDAYS[wd],
        MONTHS[(m - 1) as usize],
        d,
        rem / 3600,
        (rem % 3600) / 60,
        y
    )
}

/// The inverse of [`format_hp_date`]: the Unix time of the minute a DATE names, or `None`
/// unless formatting that time gives back exactly the same bytes (so a wrong weekday,
/// another layout or a pre-1970 date are refused).
pub fn parse_hp_date(date: &[u8]) -> Option<u64> {
    let s = std::str::from_utf8(date).ok()?;
    let parts: Vec<&str> = s.split(' ').collect();
    if parts.len() != 5 {
        return None;
    }
    let month = MONTHS.iter().position(|m| *m == parts[1])? as i64 + 1;
    let day: i64 = parts[2].parse().ok()?;
    let (hh, mm) = parts[3].split_once(':')?;
    let (hh, mm): (i64, i64) = (hh.parse().ok()?, mm.parse().ok()?);
    let year: i64 = parts[4].parse().ok()?;
    // The year bound keeps the day arithmetic far from i64 overflow.
    if !(1..=31).contains(&day)
        || !(0..24).contains(&hh)
        || !(0..60).contains(&mm)
        || !(1970..=999_999).contains(&year)
    {
        return None;
    }
    let secs = days_from_civil(year, month, day) * 86_400 + hh * 3600 + mm * 60;
    let secs = u64::try_from(secs).ok()?;
    (format_hp_date(secs) == s).then_some(secs)
}

/// The JOB string a reader should rebuild from PROGRAM_ARGS, as a profiling runtime
/// writes it into the `.hp` (FINDINGS §4): the basename of argv[0], then the program's
/// arguments, then ` +RTS` and the RTS options (the words between `+RTS` and `-RTS` or
/// the end; after `--RTS` every word is the program's), joined by single spaces. So
/// `prog +RTS -hc -RTS 5` gives `prog 5 +RTS -hc`.
pub fn job_from_args<A: AsRef<[u8]>>(args: &[A]) -> Vec<u8> {
    let words: Vec<&[u8]> = args.iter().map(|a| a.as_ref()).collect();
    let Some(first) = words.first() else {
        return Vec::new();
    };
    let mut out = match first.iter().rposition(|&b| b == b'/') {
        Some(p) => first[p + 1..].to_vec(),
        None => first.to_vec(),
    };
    let (mut prog, mut rts): (Vec<&[u8]>, Vec<&[u8]>) = (Vec::new(), Vec::new());
    let mut in_rts = false;
    let mut rest = words.iter().skip(1);
    for &w in rest.by_ref() {
        match w {
            b"--RTS" => break,
            b"+RTS" => in_rts = true,
            b"-RTS" => in_rts = false,
            _ if in_rts => rts.push(w),
            _ => prog.push(w),
        }
    }
    prog.extend(rest.copied());
    for w in prog {
        out.push(b' ');
        out.extend_from_slice(w);
    }
    if !rts.is_empty() {
        out.extend_from_slice(b" +RTS");
        for w in rts {
            out.push(b' ');
            out.extend_from_slice(w);
        }
    }
    out
}
