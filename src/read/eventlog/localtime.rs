//! The `.hp` DATE (`%a %b %d %H:%M %Y` in local time) from a Unix time, without the C
//! library: the runtime used `localtime`, which follows `TZ` or `/etc/localtime`. This
//! reads the same zone files (TZif, RFC 8536, with the POSIX-TZ footer for times after
//! the last transition) and plain POSIX `TZ` strings. Safe code, no dependency.

use std::path::{Path, PathBuf};

/// Formats `unix` seconds as the `.hp` DATE in the process's local zone. The error says
/// why the zone was unreadable; the caller then falls back to UTC.
pub(crate) fn hp_date(unix: i64) -> (String, Option<String>) {
    match local_zone().and_then(|z| z.offset_at(unix).ok_or_else(|| "no rule".to_string())) {
        Ok(off) => (format_date(unix + off), None),
        Err(why) => (format_date(unix), Some(why)),
    }
}

/// `%a %b %d %H:%M %Y` of a (local) Unix time.
pub(crate) fn format_date(t: i64) -> String {
    const DAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let days = t.div_euclid(86_400);
    let secs = t.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{} {} {:02} {:02}:{:02} {}",
        DAYS[days.rem_euclid(7) as usize],
        MONTHS[(m - 1) as usize],
        d,
        secs / 3600,
        secs / 60 % 60,
        y
    )
}

/// (year, month 1–12, day 1–31) of a day count since 1970-01-01 (H. Hinnant's method).
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn is_leap(y: i64) -> bool {
    y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
}

/// A time zone: TZif transitions and/or a POSIX rule.
#[derive(Debug, Default)]
pub(crate) struct Zone {
    transitions: Vec<(i64, i64)>,
    first_offset: i64,
    rule: Option<Rule>,
}

impl Zone {
    /// UTC offset (seconds east) at Unix time `t`.
    pub(crate) fn offset_at(&self, t: i64) -> Option<i64> {
        let n = self.transitions.partition_point(|&(at, _)| at <= t);
        if n == self.transitions.len() {
            if let Some(r) = &self.rule {
                return Some(r.offset_at(t));
            }
        }
        match n {
            0 => Some(self.first_offset),
            _ => Some(self.transitions[n - 1].1),
        }
    }
}

fn local_zone() -> Result<Zone, String> {
    let path: PathBuf = match std::env::var_os("TZ") {
        None => PathBuf::from("/etc/localtime"),
        Some(tz) => {
            let tz = tz.to_string_lossy().into_owned();
            let name = tz.strip_prefix(':').unwrap_or(&tz);
            if name.is_empty() {
                return Ok(Zone::default());
            }
            let p = Path::new(name);
            if p.is_absolute() {
                p.to_path_buf()
            } else if !name.contains("..") && Path::new("/usr/share/zoneinfo").join(p).is_file() {
                Path::new("/usr/share/zoneinfo").join(p)
            } else {
                return Rule::parse(name.as_bytes())
                    .map(|r| Zone {
                        rule: Some(r),
                        ..Zone::default()
                    })
                    .ok_or_else(|| format!("TZ={name} is neither a zone file nor a rule"));
            }
        }
    };
    let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse_tzif(&bytes).ok_or_else(|| format!("{}: not a TZif zone file", path.display()))
}

fn be32(b: &[u8], at: usize) -> Option<i64> {
    let s = b.get(at..at + 4)?;
    Some(i64::from(i32::from_be_bytes([s[0], s[1], s[2], s[3]])))
}

/// Reads a TZif file (version 1, or the 64-bit part and footer of versions 2+).
pub(crate) fn parse_tzif(b: &[u8]) -> Option<Zone> {
    if !b.starts_with(b"TZif") {
        return None;
    }
    let counts = |at: usize| -> Option<[usize; 6]> {
        let mut c = [0usize; 6];
        for (i, v) in c.iter_mut().enumerate() {
            *v = usize::try_from(be32(b, at + 20 + 4 * i)?).ok()?;
        }
        Some(c)
    };
    let v1 = counts(0)?;
    let (mut at, width) = (44usize, 4usize);
    let (c, width) = if b.get(4).copied().unwrap_or(0) >= b'2' {
        // Skip the 32-bit body, read the 64-bit one.
        at += v1[3] * 5 + v1[4] * 6 + v1[5] + v1[2] * 8 + v1[1] + v1[0];
        let c = counts(at)?;
        at += 44;
        (c, 8)
    } else {
        (v1, width)
    };
    let [isut, isstd, leap, timecnt, typecnt, charcnt] = c;
    let times_at = at;
    let idx_at = times_at + timecnt * width;
    let types_at = idx_at + timecnt;
    let utoff = |i: usize| be32(b, types_at + 6 * i);
    let mut zone = Zone {
        first_offset: utoff(0)?,
        ..Zone::default()
    };
    for i in 0..timecnt {
        let p = times_at + i * width;
        let t = if width == 8 {
            i64::from_be_bytes(b.get(p..p + 8)?.try_into().ok()?)
        } else {
            be32(b, p)?
        };
        let ty = usize::from(*b.get(idx_at + i)?);
        if ty >= typecnt {
            return None;
        }
        zone.transitions.push((t, utoff(ty)?));
    }
    if width == 8 {
        let end = types_at + typecnt * 6 + charcnt + leap * 12 + isstd + isut;
        let footer = b.get(end..)?;
        let footer = footer.strip_prefix(b"\n").unwrap_or(footer);
        let line = footer.split(|&c| c == b'\n').next().unwrap_or(&[]);
        zone.rule = Rule::parse(line);
    }
    Some(zone)
}

/// A POSIX TZ rule: `std offset [dst [offset] [,start[/time],end[/time]]]`.
#[derive(Debug)]
struct Rule {
    std: i64,
    dst: Option<(i64, DateRule, i64, DateRule, i64)>,
}

#[derive(Debug, Clone, Copy)]
enum DateRule {
    /// `Jn`: day 1–365, February 29 never counted.
    Julian(i64),
    /// `n`: day 0–365, February 29 counted.
    Zero(i64),
    /// `Mm.w.d`.
    Month(i64, i64, i64),
}

struct P<'a>(&'a [u8]);

impl P<'_> {
    fn peek(&self) -> Option<u8> {
        self.0.first().copied()
    }
    fn eat(&mut self, c: u8) -> bool {
        let yes = self.peek() == Some(c);
        if yes {
            self.0 = &self.0[1..];
        }
        yes
    }
    fn num(&mut self) -> Option<i64> {
        let n = self.0.iter().take_while(|c| c.is_ascii_digit()).count();
        if n == 0 || n > 9 {
            return None;
        }
        let v = std::str::from_utf8(&self.0[..n]).ok()?.parse().ok()?;
        self.0 = &self.0[n..];
        Some(v)
    }
    fn name(&mut self) -> Option<()> {
        let n = if self.eat(b'<') {
            let n = self.0.iter().position(|&c| c == b'>')?;
            self.0 = &self.0[n + 1..];
            return Some(());
        } else {
            self.0
                .iter()
                .take_while(|c| c.is_ascii_alphabetic())
                .count()
        };
        if n < 3 {
            return None;
        }
        self.0 = &self.0[n..];
        Some(())
    }
    /// `[+-]hh[:mm[:ss]]` in seconds.
    fn hms(&mut self) -> Option<i64> {
        let neg = if self.eat(b'-') {
            true
        } else {
            self.eat(b'+');
            false
        };
        let mut v = self.num()? * 3600;
        if self.eat(b':') {
            v += self.num()? * 60;
            if self.eat(b':') {
                v += self.num()?;
            }
        }
        Some(if neg { -v } else { v })
    }
    fn date(&mut self) -> Option<(DateRule, i64)> {
        let d = if self.eat(b'J') {
            DateRule::Julian(self.num()?)
        } else if self.eat(b'M') {
            let m = self.num()?;
            self.eat(b'.').then_some(())?;
            let w = self.num()?;
            self.eat(b'.').then_some(())?;
            DateRule::Month(m, w, self.num()?)
        } else {
            DateRule::Zero(self.num()?)
        };
        let t = if self.eat(b'/') { self.hms()? } else { 7200 };
        Some((d, t))
    }
}

impl Rule {
    fn parse(s: &[u8]) -> Option<Rule> {
        let mut p = P(s);
        p.name()?;
        let std = -p.hms()?;
        if p.0.is_empty() {
            return Some(Rule { std, dst: None });
        }
        p.name()?;
        let dst = match p.peek() {
            Some(b',') | None => std + 3600,
            _ => -p.hms()?,
        };
        let (start, st, end, et) = if p.eat(b',') {
            let (a, at) = p.date()?;
            p.eat(b',').then_some(())?;
            let (b, bt) = p.date()?;
            (a, at, b, bt)
        } else {
            (
                DateRule::Month(3, 2, 0),
                7200,
                DateRule::Month(11, 1, 0),
                7200,
            )
        };
        Some(Rule {
            std,
            dst: Some((dst, start, st, end, et)),
        })
    }

    fn offset_at(&self, t: i64) -> i64 {
        let Some((dst, start, st, end, et)) = self.dst else {
            return self.std;
        };
        let (y, _, _) = civil_from_days((t + self.std).div_euclid(86_400));
        let on = day_of(start, y) * 86_400 + st - self.std;
        let off = day_of(end, y) * 86_400 + et - dst;
        let in_dst = if on < off {
            on <= t && t < off
        } else {
            !(off <= t && t < on)
        };
        if in_dst {
            dst
        } else {
            self.std
        }
    }
}

/// Days since 1970 of a rule's date in year `y`.
fn day_of(r: DateRule, y: i64) -> i64 {
    let jan1 = days_from_civil(y, 1, 1);
    match r {
        DateRule::Julian(n) => jan1 + n - 1 + i64::from(is_leap(y) && n >= 60),
        DateRule::Zero(n) => jan1 + n,
        DateRule::Month(m, w, d) => {
            let m = m.clamp(1, 12);
            let first = days_from_civil(y, m, 1);
            let wd_first = (first + 4).rem_euclid(7); // 1970-01-01 was a Thursday (4)
            let mut day = first + (d - wd_first).rem_euclid(7) + (w.clamp(1, 5) - 1) * 7;
            let next = if m == 12 {
                days_from_civil(y + 1, 1, 1)
            } else {
                days_from_civil(y, m + 1, 1)
            };
            while day >= next {
                day -= 7;
            }
            day
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_like_the_hp() {
        // 2026-11-21 06:24:10 UTC, a Saturday.
        let t = days_from_civil(2026, 11, 21) * 86_400 + 6 * 3600 + 24 * 60 + 10;
        assert_eq!(format_date(t), "Sat Nov 21 06:24 2026");
        assert_eq!(format_date(0), "Thu Jan 01 00:00 1970");
        assert_eq!(civil_from_days(days_from_civil(2000, 2, 29)), (2000, 2, 29));
    }

    #[test]
    fn posix_rules() {
        let r = Rule::parse(b"CET-1CEST,M3.5.0,M10.5.0/3").unwrap();
        let summer = days_from_civil(2026, 7, 1) * 86_400;
        let winter = days_from_civil(2026, 1, 1) * 86_400;
        assert_eq!(r.offset_at(summer), 7200);
        assert_eq!(r.offset_at(winter), 3600);
        // Southern hemisphere: DST across the new year.
        let r = Rule::parse(b"AEST-10AEDT,M10.1.0,M4.1.0/3").unwrap();
        assert_eq!(r.offset_at(winter), 11 * 3600);
        assert_eq!(r.offset_at(summer), 10 * 3600);
        let r = Rule::parse(b"<+0330>-3:30").unwrap();
        assert_eq!(r.offset_at(0), 12_600);
        assert!(Rule::parse(b"x").is_none());
    }

    /// The zone files of this machine, when it has them, agree with `date`.
    #[test]
    fn real_zone_files() {
        let cases = [
            ("Europe/Berlin", 1_782_000_000, "Sun Jun 21 02:00 2026"),
            ("Europe/Berlin", 1_766_000_000, "Wed Dec 17 20:33 2025"),
            ("America/New_York", 1_782_000_000, "Sat Jun 20 20:00 2026"),
            ("Australia/Sydney", 1_782_000_000, "Sun Jun 21 10:00 2026"),
            // Far beyond the transitions: the footer's rule decides.
            ("Europe/Berlin", 4_117_996_800, "Wed Jun 30 02:00 2100"),
        ];
        for (name, t, want) in cases {
            let Ok(bytes) = std::fs::read(Path::new("/usr/share/zoneinfo").join(name)) else {
                continue;
            };
            let zone = parse_tzif(&bytes).expect(name);
            let off = zone.offset_at(t).expect(name);
            assert_eq!(format_date(t + off), want, "{name} at {t}");
        }
    }

    #[test]
    fn tzif_garbage_is_rejected_not_a_panic() {
        assert!(parse_tzif(b"TZif2").is_none());
        let mut b = b"TZif2".to_vec();
        b.resize(44, 0xFF);
        assert!(parse_tzif(&b).is_none());
    }
}
