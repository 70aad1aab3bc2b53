//! The options of the CI gate (`--check[=RULES]`, `--baseline OLD`, `--check-format`)
//! and of the exports (`--at T` for a pprof profile's census): their definitions for
//! clap, how they reach the [`Invocation`], and the combinations they refuse.

use std::ffi::OsString;

use crate::check::Rules;
use crate::{Census, Format};
use clap::{value_parser, Arg, ArgMatches, ValueHint};

use super::{CheckRequest, Invocation, UsageError};

const GATE: &str = "CI gate (--check)";
const OUTPUT: &str = "Output";

/// The definitions.
pub(super) fn args() -> [Arg; 4] {
    [
        Arg::new("at")
            .long("at")
            .value_name("T")
            .value_parser(census)
            .allow_negative_numbers(true)
            .help(
                "The census a pprof profile holds: the one nearest time T, peak (the\n\
                 default), end (the last), or mean (every band's mean; the default with\n\
                 --from or --to)",
            )
            .help_heading(OUTPUT),
        Arg::new("check")
            .long("check")
            .value_name("RULES")
            .num_args(0..=1)
            .require_equals(true)
            .default_missing_value("")
            .help(
                "Judge one profile, exit 1 naming each rule that fails: peak,\n\
                 end, area or bands (every band's peak) against --baseline\n\
                 (peak:10%) or a limit (peak:200MiB); leak (a band growing all\n\
                 run long); noise:1% (the least growth judged). Default:\n\
                 peak:10%,bands:10%",
            )
            .help_heading(GATE),
        Arg::new("baseline")
            .long("baseline")
            .value_name("OLD")
            .value_parser(value_parser!(OsString))
            .value_hint(ValueHint::FilePath)
            .help("The profile --check compares with (bands matched by name)")
            .help_heading(GATE),
        Arg::new("check-format")
            .long("check-format")
            .value_name("FORMAT")
            .value_parser(["text", "json"])
            .hide_possible_values(true)
            .help("The verdict as text (the default) or one line of JSON")
            .help_heading(GATE),
    ]
}

/// `--at`'s value.
fn census(text: &str) -> Result<Census, String> {
    match text.trim() {
        "peak" => Ok(Census::Peak),
        "end" | "last" => Ok(Census::Last),
        "mean" => Ok(Census::Mean),
        t => match t.parse::<f64>() {
            Ok(t) if t.is_finite() => Ok(Census::At(t)),
            _ => Err("a time, peak, end or mean".to_string()),
        },
    }
}

/// What the options set.
pub(super) fn apply(m: &ArgMatches, inv: &mut Invocation) -> Result<(), UsageError> {
    let window = inv.window.from.is_some() || inv.window.to.is_some();
    inv.paint.census = match m.get_one::<Census>("at") {
        Some(&census) => census,
        // A window without a census: its mean.
        None if window => Census::Mean,
        None => Census::Peak,
    };
    inv.paint.metric_bands = usize::try_from(inv.render.aggregate.band_limit).unwrap_or(0);
    let baseline = m.get_one::<OsString>("baseline").cloned();
    let json = m
        .get_one::<String>("check-format")
        .is_some_and(|f| f == "json");
    let Some(text) = m.get_one::<String>("check") else {
        if baseline.is_some() || m.contains_id("check-format") {
            return Err(UsageError::Conflict(
                "--baseline and --check-format only go with --check",
            ));
        }
        return refuse_at(m, inv);
    };
    let rules: Rules = match text.as_str() {
        "" => Rules::default(),
        text => text
            .parse()
            .map_err(|e: crate::check::RuleError| UsageError::BadValue {
                arg: format!("--check={text}"),
                why: e.to_string(),
            })?,
    };
    if rules.need_baseline() && baseline.is_none() {
        return Err(UsageError::Conflict(
            "--check: a growth (peak:10%, the default rules) compares with a baseline: give \
             --baseline OLD, or a limit (peak:200MiB)",
        ));
    }
    inv.check = Some(CheckRequest {
        rules,
        baseline,
        json,
    });
    refuse_at(m, inv)
}

/// `--at` chooses a pprof profile's census, and nothing else's.
fn refuse_at(m: &ArgMatches, inv: &Invocation) -> Result<(), UsageError> {
    if m.contains_id("at") && inv.format() != Format::Pprof {
        return Err(UsageError::Conflict(
            "--at chooses the census of a pprof profile: --format pprof",
        ));
    }
    Ok(())
}

/// The combinations the gate and the exports refuse.
pub(super) fn check(inv: &Invocation) -> Result<(), UsageError> {
    let conflict = |why| Err(UsageError::Conflict(why));
    if inv.check.is_some() {
        if inv.files.len() != 1 {
            return conflict("--check judges one profile: give one file (and --baseline OLD)");
        }
        if inv.format.is_some()
            || inv.output.is_some()
            || inv.output_dir.is_some()
            || inv.summary.is_some()
            || inv.watch.is_some()
            || inv.serve.is_some()
            || inv.use_aux
        {
            return conflict(
                "--check writes its verdict only: --format, -o, --output-dir, --summary, \
                 --watch, --serve and -p do not go with it",
            );
        }
        return Ok(());
    }
    let format = inv.format();
    if !format.draws() && inv.use_aux {
        return conflict("-p reuses a chart's .aux; an export (prometheus, pprof) has none");
    }
    if !format.draws() && inv.render.aggregate.max_points.is_some() {
        return conflict("--max-points thins a drawing; an export keeps every sample");
    }
    if format == Format::Prometheus && inv.render.aggregate.band_limit < 1 {
        return conflict(
            "--format prometheus names the N biggest bands (-mN, at least 1): without a \
             limit every band would be a series of its own",
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::super::tests::inv;
    use super::*;

    #[test]
    fn exports_by_name_and_extension_with_their_options() {
        assert_eq!(inv(&["-o", "x.prom"]).format(), Format::Prometheus);
        assert_eq!(inv(&["-o", "dir/x.PB.GZ"]).format(), Format::Pprof);
        assert_eq!(inv(&["-o", "x.gz"]).format(), Format::Ps);
        let i = inv(&["--format", "prometheus", "-m5", "x.hp"]);
        assert!(i.render.needs.every_band && i.render.needs.heap_lines);
        assert!(i.load_options().heap_size, "an export loads the heap lines");
        assert_eq!(i.paint.metric_bands, 5);
        assert_eq!(inv(&["--format", "pprof"]).paint.census, Census::Peak);
        assert_eq!(
            inv(&["--format", "pprof", "--at", "1.5"]).paint.census,
            Census::At(1.5)
        );
        assert_eq!(
            inv(&["--format", "pprof", "--at", "end"]).paint.census,
            Census::Last
        );
        assert_eq!(
            inv(&["--format", "pprof", "--from", "1"]).paint.census,
            Census::Mean
        );
        assert_eq!(
            inv(&["--format", "pprof", "--from", "1", "--at", "peak"])
                .paint
                .census,
            Census::Peak
        );
        for bad in [
            &["--format", "prometheus", "-m0", "x.hp"][..],
            &["--format", "prometheus", "-l"],
            &["--format", "pprof", "-p", "x.hp"],
            &["--format", "pprof", "--max-points", "10", "x.hp"],
            &["--format", "svg", "--at", "1"],
            &["--format", "pprof", "--at", "soon"],
        ] {
            assert!(parse(bad.iter().map(OsString::from)).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn check_reads_its_rules_and_its_baseline() {
        let i = inv(&["--check", "--baseline", "old.hp", "new.hp"]);
        let c = i.check.expect("a check");
        assert_eq!(c.rules, Rules::default());
        assert_eq!(c.baseline, Some(OsString::from("old.hp")));
        assert!(!c.json);
        let i = inv(&[
            "--check=peak:200MiB,leak",
            "--check-format",
            "json",
            "new.hp",
        ]);
        let c = i.check.expect("a check");
        assert_eq!(c.rules.rules.len(), 2);
        assert!(c.json && c.baseline.is_none());
        for bad in [
            &["--check", "new.hp"][..],
            &["--check=peak:x", "new.hp"],
            &["--check=peak:1G"],
            &["--check=peak:1G", "-o", "x.ps", "new.hp"],
            &["--baseline", "old.hp", "new.hp"],
            &["--check-format", "json", "new.hp"],
            &["--check", "json", "new.hp"],
        ] {
            assert!(parse(bad.iter().map(OsString::from)).is_err(), "{bad:?}");
        }
    }
}
