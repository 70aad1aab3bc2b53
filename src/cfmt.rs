//! TEMPORARY stand-in until the real module lands (same API).
pub fn push_fixed(out: &mut Vec<u8>, x: f64, prec: usize) {
    let s = if x.is_nan() { if x.is_sign_negative() { "-nan".to_string() } else { "nan".to_string() } }
        else if x.is_infinite() { if x < 0.0 { "-inf".into() } else { "inf".into() } }
        else { format!("{:.*}", prec, x) };
    out.extend_from_slice(s.as_bytes());
}
pub fn fixed(x: f64, prec: usize) -> String { let mut v = Vec::new(); push_fixed(&mut v, x, prec); String::from_utf8(v).unwrap() }
pub fn push_f6(out: &mut Vec<u8>, x: f64) { push_fixed(out, x, 6) }
pub fn push_thousands(out: &mut Vec<u8>, n: i64) {
    if n < 1000 { out.extend_from_slice((n as i32).to_string().as_bytes()); }
    else { push_thousands(out, n / 1000); out.extend_from_slice(format!(",{:03}", n % 1000).as_bytes()); }
}
pub fn thousands(n: i64) -> String { let mut v = Vec::new(); push_thousands(&mut v, n); String::from_utf8(v).unwrap() }
pub fn c_atoi(s: &[u8]) -> i32 { unsafe { libc_atoi(s) } }
unsafe fn libc_atoi(s: &[u8]) -> i32 { let st = std::str::from_utf8(s).unwrap_or("").trim_start(); let mut n: i64 = 0; let mut neg = false; let mut it = st.bytes().peekable(); if let Some(&c) = it.peek() { if c == b'-' || c == b'+' { neg = c == b'-'; it.next(); } } for c in it { if !c.is_ascii_digit() { break } n = n.saturating_mul(10).saturating_add((c - b'0') as i64); } (if neg { -n } else { n }) as i32 }
pub fn c_atof(s: &[u8]) -> f64 { let st = std::str::from_utf8(s).unwrap_or("").trim_start(); let mut best = 0.0; for end in (1..=st.len()).rev() { if let Ok(v) = st[..end].parse::<f64>() { best = v; break; } } best }
