//! Band names and the JOB line, built as the `.hp` of the same run has them.

use std::collections::HashMap;

/// The `-L` default of the RTS.
pub(crate) const DEFAULT_CCS_LENGTH: usize = 25;

/// A cost centre as the band names need it.
#[derive(Debug, Clone)]
pub(crate) struct CostCentre {
    pub(crate) label: Box<[u8]>,
    pub(crate) module: Box<[u8]>,
    /// Its source location (the time profile's; band names do without it).
    pub(crate) src: Box<[u8]>,
    pub(crate) is_caf: bool,
}

/// One level of a stack's path, as the `.hp` spells it.
enum Level<'a> {
    /// A CAF: `Module.CAF`.
    Caf(&'a [u8]),
    /// A cost centre's label.
    Label(&'a [u8]),
    /// An undefined ccid: `?<id>`.
    Unknown(u32),
}

impl Level<'_> {
    fn len(&self) -> usize {
        match self {
            Level::Caf(module) => module.len() + 4,
            Level::Label(label) => label.len(),
            Level::Unknown(id) => 1 + id.to_string().len(),
        }
    }

    fn write(&self, out: &mut Vec<u8>) {
        match self {
            Level::Caf(module) => {
                out.extend_from_slice(module);
                out.extend_from_slice(b".CAF");
            }
            Level::Label(label) => out.extend_from_slice(label),
            Level::Unknown(id) => out.extend_from_slice(format!("?{id}").as_bytes()),
        }
    }
}

/// The levels of a raw 163 stack (big-endian ccids, innermost first): the one place
/// that says how a ccid is spelt, for [`stack_path`] and [`stack_path_len`] alike.
fn levels<'a>(
    raw: &'a [u8],
    ccs: &'a HashMap<u32, CostCentre>,
) -> impl ExactSizeIterator<Item = Level<'a>> + 'a {
    raw.chunks_exact(4).map(|c| {
        let id = u32::from_be_bytes([c[0], c[1], c[2], c[3]]);
        match ccs.get(&id) {
            Some(cc) if cc.is_caf => Level::Caf(&cc.module),
            Some(cc) => Level::Label(&cc.label),
            None => Level::Unknown(id),
        }
    })
}

/// Appends the `.hp` path of a raw 163 stack (big-endian ccids, innermost first):
/// levels joined by `/`, a CAF level as `Module.CAF`, the empty stack as `MAIN`, an
/// undefined ccid as `?<id>`. Stops once `out` holds `limit` bytes (cut there): a stack
/// of 255 labels of 60 KB each would otherwise be a 15 MB name.
pub(crate) fn stack_path(
    raw: &[u8],
    ccs: &HashMap<u32, CostCentre>,
    out: &mut Vec<u8>,
    limit: usize,
) {
    let start = out.len();
    if raw.len() < 4 {
        out.extend_from_slice(b"MAIN");
    }
    for (i, level) in levels(raw, ccs).enumerate() {
        if out.len() - start >= limit {
            break;
        }
        if i > 0 {
            out.push(b'/');
        }
        level.write(out);
    }
    out.truncate(start.saturating_add(limit));
}

/// The length of the path [`stack_path`] writes for `raw` with no limit.
pub(crate) fn stack_path_len(raw: &[u8], ccs: &HashMap<u32, CostCentre>) -> usize {
    if raw.len() < 4 {
        return 4;
    }
    let levels = levels(raw, ccs);
    let separators = levels.len() - 1;
    separators + levels.map(|level| level.len()).sum::<usize>()
}

/// Cuts a path as the RTS does for `-L max`: its buffer holds `max + 1` bytes, so a path
/// longer than `max` bytes becomes its first `max - 4` bytes and `...` (`max - 1`
/// bytes). The cut is in bytes and may split a UTF-8 character, exactly as in the `.hp`.
/// `whole` is the length of the whole path, of which `path` may hold only the first
/// bytes (at least `max - 4` of them when it is cut).
pub(crate) fn cut_like_rts(path: &mut Vec<u8>, whole: usize, max: usize) {
    if whole > max {
        path.truncate(max.saturating_sub(4));
        path.extend_from_slice(b"...");
    }
}

/// The length of a name of `len` bytes after [`cut_like_rts`] to `max`.
pub(crate) fn cut_len(len: usize, max: usize) -> usize {
    if len > max {
        max.saturating_sub(4) + 3
    } else {
        len
    }
}

/// The longest a name may be so that names of `lengths` bytes, each cut to it, take at
/// most `budget` bytes together, and never more than `most`: the largest such cap, so
/// that only the longest names are cut (a few long names among many short ones keep
/// what they can).
pub(crate) fn name_cap(lengths: &[usize], most: usize, budget: usize) -> usize {
    let total: usize = lengths.iter().map(|&l| l.min(most)).sum();
    if total <= budget {
        return most;
    }
    let mut sorted: Vec<usize> = lengths.iter().map(|&l| l.min(most)).collect();
    sorted.sort_unstable();
    // With the names shorter than `sorted[i]` whole, the rest share what is left.
    let mut whole = 0usize;
    for (i, &len) in sorted.iter().enumerate() {
        let rest = sorted.len() - i;
        let share = budget.saturating_sub(whole) / rest;
        if share < len {
            return share;
        }
        whole += len;
    }
    most
}

/// The argv strings of a PROGRAM_ARGS payload (NUL-separated; a last string without NUL
/// still counts).
pub(crate) fn argv(raw: &[u8]) -> Vec<&[u8]> {
    let raw = raw.strip_suffix(b"\0").unwrap_or(raw);
    if raw.is_empty() {
        return Vec::new();
    }
    raw.split(|&b| b == 0).collect()
}

/// Splits argv (without argv[0]) into the program's arguments and the RTS options:
/// those between `+RTS` and `-RTS` (or the end); after `--RTS` everything is the
/// program's.
pub(crate) fn split_args<'a>(args: &[&'a [u8]]) -> (Vec<&'a [u8]>, Vec<&'a [u8]>) {
    let (mut prog, mut rts) = (Vec::new(), Vec::new());
    let mut in_rts = false;
    let mut rest = args.iter().skip(1);
    for &a in rest.by_ref() {
        match a {
            b"--RTS" => break,
            b"+RTS" => in_rts = true,
            b"-RTS" => in_rts = false,
            _ if in_rts => rts.push(a),
            _ => prog.push(a),
        }
    }
    prog.extend(rest.copied());
    (prog, rts)
}

/// The `-L` value among the RTS options, the last one winning.
pub(crate) fn ccs_length(args: &[&[u8]]) -> usize {
    let (_, rts) = split_args(args);
    let mut length = DEFAULT_CCS_LENGTH;
    for a in rts {
        if let Some(v) = a
            .strip_prefix(b"-L")
            .and_then(|n| std::str::from_utf8(n).ok())
            .and_then(|s| s.parse::<usize>().ok())
        {
            length = v;
        }
    }
    length
}

/// The `.hp` JOB: the program's base name, then (profiling runtimes only) its arguments
/// and ` +RTS` with the RTS options, as the runtime writes it. On the corpus this is
/// the argv without the closing `-RTS`. RTS options from `GHCRTS` or `-with-rtsopts`
/// are not in the eventlog, so they are missing here.
pub(crate) fn job(args: &[&[u8]], profiled: bool) -> Vec<u8> {
    let Some(first) = args.first() else {
        return Vec::new();
    };
    let base = match memchr::memrchr(b'/', first) {
        Some(i) => &first[i + 1..],
        None => first,
    };
    let mut job = base.to_vec();
    if profiled {
        let (prog, rts) = split_args(args);
        for a in prog {
            job.push(b' ');
            job.extend_from_slice(a);
        }
        if !rts.is_empty() {
            job.extend_from_slice(b" +RTS");
            for a in rts {
                job.push(b' ');
                job.extend_from_slice(a);
            }
        }
    }
    job
}

/// Whether an RTS identifier (`GHC-9.0.2 rts_thr_p`) names a profiling runtime.
pub(crate) fn is_profiled_rts(id: &[u8]) -> bool {
    rts_has_way(id, b"p")
}

/// Whether an RTS identifier (`GHC-9.0.2 rts_thr_p`) has the way `way` (`thr`, `p`, …).
pub(crate) fn rts_has_way(id: &[u8], way: &[u8]) -> bool {
    let ways = match memchr::memrchr(b' ', id) {
        Some(i) => &id[i + 1..],
        None => return false,
    };
    ways.split(|&b| b == b'_').skip(1).any(|w| w == way)
}

/// Turns line breaks into spaces. A `.hp` name or JOB can hold none (the format is made
/// of lines), and what reads a profile relies on that (the `.aux` file is written one
/// name per line); eventlog labels and arguments are arbitrary bytes.
pub(crate) fn one_line(text: &mut [u8]) {
    for b in text {
        if *b == b'\n' || *b == b'\r' {
            *b = b' ';
        }
    }
}

/// Makes names unique: stacks that the `-L` cut (or equal labels) make equal must stay
/// separate bands. Every name of such a group gets ` #k` appended, k = 1, 2, … in order
/// of first appearance (skipping any suffix that would equal another name).
pub(crate) fn disambiguate(names: &mut [Vec<u8>]) {
    let mut count: HashMap<Vec<u8>, u32> = HashMap::new();
    for n in names.iter() {
        *count.entry(n.clone()).or_insert(0) += 1;
    }
    if count.values().all(|&c| c == 1) {
        return;
    }
    let mut next: HashMap<Vec<u8>, u32> = HashMap::new();
    for n in names.iter_mut() {
        if count.get(n.as_slice()).copied().unwrap_or(0) < 2 {
            continue;
        }
        let k = next.entry(n.clone()).or_insert(0);
        loop {
            *k += 1;
            let mut cand = n.clone();
            cand.extend_from_slice(format!(" #{k}").as_bytes());
            if !count.contains_key(&cand) {
                count.insert(cand.clone(), 1);
                *n = cand;
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> HashMap<u32, CostCentre> {
        let mut t = HashMap::new();
        let mut add = |id, label: &[u8], module: &[u8], caf| {
            t.insert(
                id,
                CostCentre {
                    label: label.into(),
                    module: module.into(),
                    src: Box::default(),
                    is_caf: caf,
                },
            );
        };
        add(2, b"countWords", b"Main", false);
        add(6, b"main.m", b"Main", false);
        add(5, b"main", b"Main", false);
        add(10, b"CAF", b"Main", true);
        t
    }

    fn stack(ids: &[u32]) -> Vec<u8> {
        ids.iter().flat_map(|i| i.to_be_bytes()).collect()
    }

    #[test]
    fn paths_and_cut() {
        let t = table();
        let mut p = Vec::new();
        let s = stack(&[2, 6, 5, 10]);
        stack_path(&s, &t, &mut p, usize::MAX);
        assert_eq!(p, b"countWords/main.m/main/Main.CAF");
        assert_eq!(stack_path_len(&s, &t), p.len());
        cut_like_rts(&mut p, 31, 25);
        assert_eq!(p, b"countWords/main.m/mai...");
        assert_eq!(cut_len(31, 25), p.len());
        let mut p = Vec::new();
        stack_path(&s, &t, &mut p, 12);
        assert_eq!(p, b"countWords/m");
        let mut p = Vec::new();
        stack_path(&[], &t, &mut p, usize::MAX);
        assert_eq!(p, b"MAIN");
        assert_eq!(stack_path_len(&[], &t), 4);
        let mut p = Vec::new();
        stack_path(&stack(&[99, 10]), &t, &mut p, usize::MAX);
        assert_eq!(p, b"?99/Main.CAF");
        assert_eq!(stack_path_len(&stack(&[99, 10]), &t), p.len());
        // Exactly L bytes stays whole; L + 1 is cut; the cut splits UTF-8 bytes.
        let mut p = b"abcde".to_vec();
        cut_like_rts(&mut p, 5, 5);
        assert_eq!(p, b"abcde");
        let mut p = "größeBerechnen".as_bytes().to_vec();
        cut_like_rts(&mut p, 16, 7);
        assert_eq!(p, b"gr\xc3...");
    }

    #[test]
    fn the_cap_cuts_only_the_longest_names_to_fit_the_budget() {
        assert_eq!(name_cap(&[10, 20, 30], 100, 60), 100);
        assert_eq!(name_cap(&[10, 20, 300], 100, 1000), 100);
        // 10 and 20 whole, 30 of 60 left for the one long name.
        assert_eq!(name_cap(&[300, 10, 20], 1000, 60), 30);
        // All long: an equal share.
        assert_eq!(name_cap(&[500, 500, 500, 500], 1000, 1000), 250);
        assert_eq!(name_cap(&[], 1000, 0), 1000);
    }

    #[test]
    fn args_job_and_l() {
        let raw = b"./leakmap\0+RTS\0-hc\0-L7\0-l\0-RTS\0";
        let a = argv(raw);
        assert_eq!(ccs_length(&a), 7);
        assert_eq!(job(&a, true), b"leakmap +RTS -hc -L7 -l");
        assert_eq!(job(&a, false), b"leakmap");
        assert_eq!(ccs_length(&argv(b"./x\0-L3\0")), 25);
        let a = argv(b"./p\0in.txt\0+RTS\0-hc\0-RTS\0-v\0+RTS\0-L9\0--RTS\0+RTS\0");
        // After `--RTS`, `+RTS` is the program's own argument.
        assert_eq!(job(&a, true), b"p in.txt -v +RTS +RTS -hc -L9");
        assert_eq!(ccs_length(&a), 9);
        assert!(is_profiled_rts(b"GHC-9.0.2 rts_p"));
        assert!(is_profiled_rts(b"GHC-8.2.0 rts_thr_p"));
        assert!(!is_profiled_rts(b"GHC-9.0.2 rts_l"));
        assert!(rts_has_way(b"GHC-9.10.3 rts_thr_p", b"thr"));
        assert!(!rts_has_way(b"GHC-9.10.3 rts_p", b"thr"));
        assert!(!rts_has_way(b"thr_p", b"thr"));
    }

    #[test]
    fn line_breaks_become_spaces() {
        let mut n = b"a\nb\rc".to_vec();
        one_line(&mut n);
        assert_eq!(n, b"a b c");
    }

    #[test]
    fn unique_names() {
        let mut n = vec![b"a...".to_vec(), b"b".to_vec(), b"a...".to_vec()];
        disambiguate(&mut n);
        assert_eq!(
            n,
            vec![b"a... #1".to_vec(), b"b".to_vec(), b"a... #2".to_vec()]
        );
        let mut n = vec![b"x".to_vec(), b"x #1".to_vec(), b"x".to_vec()];
        disambiguate(&mut n);
        assert_eq!(
            n,
            vec![b"x #2".to_vec(), b"x #1".to_vec(), b"x #3".to_vec()]
        );
    }
}
