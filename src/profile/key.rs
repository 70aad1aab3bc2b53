//! What names a band across runs: the same stack, type or closure in two builds of a
//! program (or in a `.hp` and an eventlog of one run) has a name that differs only in
//! the runtime's numbering. The page's colours by name (`layout::looks`), the page of
//! several runs (its matched bands), the exports' band labels (`paint::census`) and the
//! CI gate (`check`) all key bands by these two.

/// A band's name without the stack number a `.hp` puts in front of a cost-centre stack
/// (`(296)main/Main.CAF` is `main/Main.CAF`): the runtime numbers the stacks as it meets
/// them, so the same stack has another number in another build, and none in an eventlog.
pub(crate) fn name_key(name: &[u8]) -> &[u8] {
    let digits = name
        .iter()
        .skip(1)
        .take_while(|b| b.is_ascii_digit())
        .count();
    match (name.first(), name.get(1 + digits)) {
        (Some(b'('), Some(b')')) if digits > 0 => &name[digits + 2..],
        _ => name,
    }
}

/// What bands of several runs are matched by: the name without the stack number a
/// `.hp` puts in front ([`name_key`]) and without the ` #k` an eventlog adds to the
/// stacks that `-L` cut to one name, so that the `.hp`'s cut `countWords.step/count...`
/// and the eventlog's `countWords.step/count... #1` and `#2` are one band.
pub(crate) fn match_key(name: &[u8]) -> &[u8] {
    let name = name_key(name);
    let digits = name.iter().rev().take_while(|b| b.is_ascii_digit()).count();
    match name.len().checked_sub(digits + 2) {
        Some(at) if digits > 0 && &name[at..at + 2] == b" #" => &name[..at],
        _ => name,
    }
}
