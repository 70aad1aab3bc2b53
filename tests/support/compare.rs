//! Deciding whether our output equals hp2ps's, and driving single runs and
//! `-p` round trips through that decision.

use super::case::{self, Exit, Outcome, Run, AUX, OURS_TIMEOUT, REFERENCE_TIMEOUT};
use super::scan;
use super::tools::Programs;

/// The result of one differential case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Identical,
    /// Not comparable; the reason is tallied in the summary.
    Skipped(String),
    /// One line per differing output.
    Mismatch(Vec<String>),
}

/// Why hp2ps's own outcome cannot serve as the expected output, judged only
/// from what it observably did. `None` = it succeeded and can be compared.
pub fn reference_not_comparable(reference: &Outcome) -> Option<String> {
    match reference.exit {
        Exit::Code(0) => {}
        Exit::Code(c) => return Some(format!("hp2ps exit {c}: {}", error_kind(&reference.stderr))),
        Exit::Signal(s) => return Some(format!("hp2ps killed by signal {s}")),
        Exit::TimedOut | Exit::OutputLimit => {
            return Some(format!("hp2ps {}", reference.exit.describe()))
        }
    }
    // Its option errors print usage on stdout and exit 0; ours exits 2 there.
    if reference.stdout.starts_with(b"error: ") || reference.stdout.starts_with(b"usage: ") {
        return Some("hp2ps usage (option error)".into());
    }
    None
}

/// The kind of an hp2ps error message without file name and line number, so
/// skip reasons group well: `hp2ps: t.hp, line 7: integer must follow
/// identifier` → `integer must follow identifier`.
fn error_kind(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    let line = text.lines().next().unwrap_or("").trim();
    let line = line.strip_prefix("hp2ps:").unwrap_or(line).trim();
    let after_line_no = line.find(", line ").map(|i| {
        let rest = &line[i + ", line ".len()..];
        rest.trim_start_matches(|c: char| c.is_ascii_digit())
            .trim_start_matches([',', ':'])
            .trim()
    });
    let kind = match after_line_no {
        Some(rest) => rest,
        None => line
            .strip_prefix("t.hp: ")
            .or_else(|| line.strip_prefix("stdin: "))
            .unwrap_or(line),
    };
    if kind.is_empty() {
        "no message".into()
    } else {
        kind.into()
    }
}

/// The part of a PostScript file that must be identical: everything after the
/// first `%%EndComments` line (the header comments legitimately differ), and
/// the number of lines before it (all of `ps` and 0 when there is none).
pub fn ps_body(ps: &[u8]) -> (&[u8], usize) {
    let mut start = 0;
    let mut line_no = 0;
    while start < ps.len() {
        line_no += 1;
        let end = ps[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(ps.len(), |i| start + i);
        if &ps[start..end] == b"%%EndComments" {
            return (&ps[(end + 1).min(ps.len())..], line_no);
        }
        start = end + 1;
    }
    (ps, 0)
}

/// Renders bytes for a report line: escaped, cut to a readable length.
fn show(bytes: &[u8]) -> String {
    const MAX: usize = 160;
    let text: String = bytes.escape_ascii().to_string();
    if text.len() > MAX {
        let cut = text.char_indices().nth(MAX).map_or(text.len(), |(i, _)| i);
        format!("{}…", &text[..cut])
    } else {
        text
    }
}

/// Describes the first difference between two byte strings, line by line.
/// `offset` = number of lines before `a`/`b` in their files (for line numbers).
pub fn first_difference(
    what: &str,
    reference: &[u8],
    ours: &[u8],
    offset: usize,
    who: &str,
) -> Option<String> {
    if reference == ours {
        return None;
    }
    let mut ref_lines = reference.split(|&b| b == b'\n');
    let mut our_lines = ours.split(|&b| b == b'\n');
    let mut n = 0;
    loop {
        n += 1;
        match (ref_lines.next(), our_lines.next()) {
            (Some(r), Some(o)) if r == o => continue,
            (Some(r), Some(o)) => {
                return Some(format!(
                    "{what} line {}: hp2ps `{}` | {who} `{}`",
                    n + offset,
                    show(r),
                    show(o)
                ))
            }
            (Some(r), None) => {
                return Some(format!(
                    "{what}: {who} ends before line {} (hp2ps: `{}`)",
                    n + offset,
                    show(r)
                ))
            }
            (None, Some(o)) => {
                return Some(format!(
                    "{what}: {who} has extra line {} `{}`",
                    n + offset,
                    show(o)
                ))
            }
            (None, None) => unreachable!("equal inputs were handled above"),
        }
    }
}

/// The EPS trailer our tool adds after the final `showpage` (docs/compat.md:
/// EPS files must end with it; a comment that draws nothing).
const EPS_TRAILER: &[u8] = b"%%EOF\n";

/// Compares PostScript from `%%EndComments` on. In EPS mode (`-e`), one
/// trailing `%%EOF` line of ours is a documented difference and ignored.
fn compare_ps(what: &str, reference: &[u8], ours: &[u8], eps: bool, who: &str) -> Option<String> {
    let (ref_body, ref_header_lines) = ps_body(reference);
    let (mut our_body, _) = ps_body(ours);
    if eps && our_body.ends_with(EPS_TRAILER) && !ref_body.ends_with(EPS_TRAILER) {
        our_body = &our_body[..our_body.len() - EPS_TRAILER.len()];
    }
    // Line numbers refer to hp2ps's file.
    first_difference(what, ref_body, our_body, ref_header_lines, who)
}

/// All differences between a successful hp2ps run and ours (empty = identical):
/// exit status, stdout (as PostScript in filter mode), and every file left in
/// the run directory (`.ps` compared after `%%EndComments`, the rest raw).
pub fn compare_outcomes(reference: &Outcome, ours: &Outcome, run: &Run) -> Vec<String> {
    compare_outcomes_as(reference, ours, run, "ours")
}

/// [`compare_outcomes`] with `who` naming the compared run in the report
/// (e.g. hp2ps itself reading our aux file).
pub fn compare_outcomes_as(
    reference: &Outcome,
    ours: &Outcome,
    run: &Run,
    who: &str,
) -> Vec<String> {
    let eps = scan::scan_options(&run.args)
        .iter()
        .any(|o| o.letter == 'e');
    let mut diffs = Vec::new();
    if ours.exit != reference.exit {
        diffs.push(format!(
            "status: hp2ps {} | {who} {} (stderr `{}`)",
            reference.exit.describe(),
            ours.exit.describe(),
            show(&ours.stderr)
        ));
    }
    let stdout_diff = if run.stdin {
        compare_ps("stdout", &reference.stdout, &ours.stdout, eps, who)
    } else {
        first_difference("stdout", &reference.stdout, &ours.stdout, 0, who)
    };
    diffs.extend(stdout_diff);
    let names: std::collections::BTreeSet<&String> =
        reference.files.keys().chain(ours.files.keys()).collect();
    for name in names {
        match (reference.files.get(name), ours.files.get(name)) {
            (Some(r), Some(o)) if name.ends_with(".ps") => {
                diffs.extend(compare_ps(name, r, o, eps, who))
            }
            (Some(r), Some(o)) => diffs.extend(first_difference(name, r, o, 0, who)),
            (Some(_), None) => diffs.push(format!("{name}: written by hp2ps, not by {who}")),
            (None, Some(_)) => diffs.push(format!("{name}: written by {who}, not by hp2ps")),
            (None, None) => {}
        }
    }
    diffs
}

fn run_reference(progs: &Programs, input: &[u8], aux: Option<&[u8]>, run: &Run) -> Outcome {
    case::run_program(&progs.reference, input, aux, run, REFERENCE_TIMEOUT)
}

fn run_ours(progs: &Programs, input: &[u8], aux: Option<&[u8]>, run: &Run) -> Outcome {
    case::run_program(&progs.ours, input, aux, run, OURS_TIMEOUT)
}

/// Classifies hp2ps's outcome first, then the documented deliberate
/// differences; `None` = the case is comparable.
fn skip_reason(reference: &Outcome, input: &[u8], run: &Run) -> Option<String> {
    reference_not_comparable(reference).or_else(|| scan::deliberate_difference(input, run))
}

/// One run of both programs on the same input (and the same aux file, if any).
pub fn single(progs: &Programs, input: &[u8], aux: Option<&[u8]>, run: &Run) -> Verdict {
    let reference = run_reference(progs, input, aux, run);
    if let Some(reason) = skip_reason(&reference, input, run) {
        return Verdict::Skipped(reason);
    }
    let ours = run_ours(progs, input, aux, run);
    verdict(compare_outcomes(&reference, &ours, run))
}

fn verdict(diffs: Vec<String>) -> Verdict {
    if diffs.is_empty() {
        Verdict::Identical
    } else {
        Verdict::Mismatch(diffs)
    }
}

fn prefixed(prefix: &str, diffs: Vec<String>) -> impl Iterator<Item = String> + '_ {
    diffs.into_iter().map(move |d| format!("{prefix}: {d}"))
}

/// A `-p` round trip: `first` (normally without `-p`) writes `t.aux`, then
/// `second` reads it. Checked: step 1 equal; step 2 with each program's own
/// aux equal; and the cross runs — ours reading hp2ps's aux and hp2ps reading
/// ours — both equal to hp2ps reading its own aux.
pub fn round_trip(progs: &Programs, input: &[u8], first: &Run, second: &Run) -> Verdict {
    round_trip_between(progs, input, input, first, second)
}

/// Like [`round_trip`], but the aux file comes from a run on another profile
/// (`-p` reuses one graph's scale, order and shades for the next one).
pub fn round_trip_between(
    progs: &Programs,
    first_input: &[u8],
    input: &[u8],
    first: &Run,
    second: &Run,
) -> Verdict {
    let ref1 = run_reference(progs, first_input, None, first);
    if let Some(reason) = skip_reason(&ref1, first_input, first) {
        return Verdict::Skipped(format!("step 1: {reason}"));
    }
    let Some(ref_aux) = ref1.file(AUX).map(<[u8]>::to_vec) else {
        return Verdict::Skipped("step 1: hp2ps wrote no t.aux".into());
    };
    let ours1 = run_ours(progs, first_input, None, first);
    let mut diffs: Vec<String> =
        prefixed("step 1", compare_outcomes(&ref1, &ours1, first)).collect();
    let our_aux = ours1.file(AUX).map(<[u8]>::to_vec);

    let ref2 = run_reference(progs, input, Some(&ref_aux), second);
    if let Some(reason) = skip_reason(&ref2, input, second) {
        // hp2ps cannot finish the round trip (e.g. an identifier it cannot
        // read back); only step 1 was comparable.
        return if diffs.is_empty() {
            Verdict::Skipped(format!("step 2: {reason}"))
        } else {
            Verdict::Mismatch(diffs)
        };
    }
    let ours_own_aux = our_aux.as_deref().unwrap_or(&ref_aux);
    let own = run_ours(progs, input, Some(ours_own_aux), second);
    diffs.extend(prefixed(
        "step 2 (own aux)",
        compare_outcomes(&ref2, &own, second),
    ));
    let ours_reads_ref = run_ours(progs, input, Some(&ref_aux), second);
    diffs.extend(prefixed(
        "step 2 (ours reads hp2ps's aux)",
        compare_outcomes(&ref2, &ours_reads_ref, second),
    ));
    if let Some(our_aux) = &our_aux {
        let ref_reads_ours = run_reference(progs, input, Some(our_aux), second);
        diffs.extend(prefixed(
            "step 2 (hp2ps reads our aux)",
            compare_outcomes_as(&ref2, &ref_reads_ours, second, "hp2ps with our aux"),
        ));
    }
    verdict(diffs)
}

/// Maps `f` over `items` on a few threads, keeping the order of the results.
pub fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .clamp(2, 4)
        .min(items.len().max(1));
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= items.len() {
                    break;
                }
                let r = f(&items[i]);
                results.lock().expect("results lock")[i] = Some(r);
            });
        }
    });
    results
        .into_inner()
        .expect("results lock")
        .into_iter()
        .map(|r| r.expect("every item was processed"))
        .collect()
}
