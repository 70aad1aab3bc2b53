//! From argv to a [`Command`]: hp2ps's short flags by hand, the rest through clap.

use std::ffi::OsString;
use std::time::Duration;

use crate::needs::XLabels;
use crate::read::window::WindowOptions;
use crate::{BandFilter, Format, IpeNames, NameOrder, Palette, SharedAxes, TimeAxis, ValueUnits};
use clap::ArgMatches;

use super::definition::command;
use super::rules::check;
use super::short_flags::short_flags;
use super::{
    Command, Generate, GenerateKind, Invocation, ServeOptions, SummaryFormat, UsageError,
    WatchOptions,
};

/// Reads the arguments after the program name.
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Command, UsageError> {
    let mut inv = Invocation::default();
    let definition = command();
    // The options clap parses, in order, after the program name.
    let mut for_clap: Vec<OsString> = vec![OsString::from("hp2ps")];
    let mut args = args.into_iter();
    let mut after_summary = false;
    while let Some(arg) = args.next() {
        // On Unix the argument's bytes; elsewhere its encoded form (WTF-8 on Windows),
        // which is ASCII wherever the argument is, as every flag is.
        let bytes = arg.as_encoded_bytes();
        let follows_summary = std::mem::replace(&mut after_summary, bytes == b"--summary");
        let text = String::from_utf8_lossy(bytes).into_owned();
        match bytes {
            b"--help" => return Ok(Command::Help),
            b"--version" | b"-V" => return Ok(Command::Version),
            // hp2ps accepts a lone `-` and ignores it.
            b"-" => {}
            // A long option: clap parses it, with the next argument as its value when
            // the definition says it takes one and none is glued on with `=`.
            [b'-', b'-', name @ ..] if !name.is_empty() => {
                for_clap.push(arg.clone());
                let glued = name.contains(&b'=');
                let takes_separate_value = definition
                    .get_arguments()
                    .find(|a| a.get_long().is_some_and(|l| l.as_bytes() == name))
                    .is_some_and(|a| {
                        a.get_action().takes_values()
                            && !a.is_require_equals_set()
                            && a.get_num_args().map_or(true, |n| n.min_values() > 0)
                    });
                if !glued && takes_separate_value {
                    let value = args
                        .next()
                        .ok_or_else(|| UsageError::MissingValue(text.clone()))?;
                    for_clap.push(value);
                }
            }
            // `-o` and `-j` are not hp2ps letters: clap parses them too, value glued on
            // (`-ox.svg`, `-j4`) or in the next argument.
            [b'-', b'o' | b'j', rest @ ..] => {
                for_clap.push(arg.clone());
                if rest.is_empty() {
                    let value = args
                        .next()
                        .ok_or_else(|| UsageError::MissingValue(text.clone()))?;
                    for_clap.push(value);
                }
            }
            [b'-', flags @ ..] => {
                if let Some(cmd) = short_flags(flags, &text, &mut inv)? {
                    return Ok(cmd);
                }
            }
            // `--summary json` would read `json.hp`: the format needs `=`.
            b"json" | b"text" if follows_summary => {
                return Err(UsageError::BadValue {
                    arg: format!("--summary {text}"),
                    why: format!("write --summary={text} (the format is joined with =)"),
                })
            }
            _ => inv.files.push(arg),
        }
    }
    let matches = definition
        .try_get_matches_from(for_clap)
        .map_err(|e| UsageError::Option(first_line(&e.to_string())))?;
    if let Some(cmd) = apply_options(&matches, &mut inv)? {
        return Ok(cmd);
    }
    check(&inv)?;
    Ok(Command::Render(Box::new(inv)))
}

/// clap's message without its `error: ` prefix, usage and tips, on one line.
fn first_line(message: &str) -> String {
    let line = message.lines().next().unwrap_or("bad option");
    line.strip_prefix("error: ").unwrap_or(line).to_string()
}

fn apply_options(m: &ArgMatches, inv: &mut Invocation) -> Result<Option<Command>, UsageError> {
    if let Some(kind) = m.get_one::<String>("generate") {
        let kind = GenerateKind::from_name(kind).unwrap_or(GenerateKind::Man);
        if inv.files.len() > 1 {
            return Err(UsageError::Conflict(
                "--generate writes into at most one directory",
            ));
        }
        return Ok(Some(Command::Generate(Generate {
            kind,
            dir: inv.files.first().cloned(),
        })));
    }
    if let Some(f) = m.get_one::<String>("format") {
        inv.format = Format::from_name(f);
    }
    inv.output = m.get_one::<OsString>("output").cloned();
    inv.output_dir = m.get_one::<OsString>("output-dir").cloned();
    inv.jobs = m.get_one::<u32>("jobs").map(|&j| j as usize);
    if m.get_flag("watch") {
        let mut watch = WatchOptions::default();
        if let Some(&i) = m.get_one::<Duration>("interval") {
            watch.interval = i;
        }
        watch.max_renders = m.get_one::<u64>("watch-max-renders").copied();
        inv.watch = Some(watch);
    } else if m.contains_id("interval") || m.contains_id("watch-max-renders") {
        return Err(UsageError::Conflict(
            "--interval and --watch-max-renders only go with --watch",
        ));
    }
    if m.get_flag("serve") {
        let mut serve = ServeOptions::default();
        if let Some(&bind) = m.get_one::<std::net::IpAddr>("bind") {
            serve.bind = bind;
        }
        serve.port = m.get_one::<u16>("port").copied().unwrap_or(0);
        serve.detail = m.get_one::<usize>("serve-detail").copied();
        serve.whole_run = m.get_flag("serve-whole-run");
        serve.spool = m.get_one::<std::path::PathBuf>("spool").cloned();
        serve.spool_max = m.get_one::<u64>("spool-max").copied();
        serve.whole_run_capped = m.get_flag("serve-whole-run-capped");
        serve.whole_run_bytes = m.get_one::<u64>("serve-whole-run-bytes").copied();
        inv.serve = Some(serve);
        // The live page is the interactive page, and so is the whole run's (-o).
        if inv.format() != Format::Html && (inv.format.is_some() || inv.output.is_some()) {
            return Err(UsageError::Conflict(
                "--serve draws the interactive page: --format html (and -o FILE.html)",
            ));
        }
        inv.format = Some(Format::Html);
    } else if ["bind", "port", "serve-detail", "spool", "spool-max"]
        .iter()
        .any(|id| m.contains_id(id))
        || m.get_flag("serve-whole-run")
        || m.get_flag("serve-whole-run-capped")
        || m.contains_id("serve-whole-run-bytes")
    {
        return Err(UsageError::Conflict(
            "--bind, --port, --spool and --spool-max only go with --serve",
        ));
    }
    inv.window = WindowOptions::new(
        m.get_one::<f64>("from").copied(),
        m.get_one::<f64>("to").copied(),
    );
    inv.summary = m.get_one::<String>("summary").map(|s| match s.as_str() {
        "json" => SummaryFormat::Json,
        _ => SummaryFormat::Text,
    });
    if let Some(&top) = m.get_one::<usize>("top") {
        inv.summary_options.top = top;
    }
    inv.uniform_scale = m
        .get_one::<String>("uniform-scale")
        .map(|axes| match axes.as_str() {
            "time" => SharedAxes::Time,
            "memory" => SharedAxes::Memory,
            _ => SharedAxes::Both,
        });
    apply_selection(m, inv)?;
    if let Some(axis) = m.get_one::<String>("time") {
        inv.eventlog.time = match axis.as_str() {
            "elapsed" => TimeAxis::Elapsed,
            _ => TimeAxis::Mutator,
        };
    } else if inv.serve.is_some() {
        // A service waits most of its life: live, the x axis is the wall clock's.
        inv.eventlog.time = TimeAxis::Elapsed;
    }
    inv.eventlog.full_names = m.get_flag("full-names");
    inv.heap_size = m.get_flag("heap-size");
    if let Some(how) = m.get_one::<String>("ipe-names") {
        inv.symbolize.names = IpeNames::from_name(how).unwrap_or_default();
    }
    inv.binary = m.get_one::<OsString>("binary").cloned();
    inv.render.layout.fit_key_labels = m
        .get_one::<String>("key-labels")
        .is_some_and(|k| k == "fit");
    inv.render.needs = inv.format().needs();
    // hp2ps's PostScript labels the x ticks with one decimal, repeated on a short run;
    // the formats it does not have show as many as the step needs (`Format::needs`).
    // `--x-labels` picks either for any format (exact PS and EPS are no longer hp2ps's
    // bytes).
    if let Some(how) = m.get_one::<String>("x-labels") {
        inv.render.needs.x_labels = match how.as_str() {
            "exact" => XLabels::ByStep,
            _ => XLabels::Hp2ps,
        };
    }
    inv.render.aggregate.max_points = m.get_one::<usize>("max-points").copied();
    // A format read on a screen (the page) takes the palette and units made for one,
    // unless asked otherwise.
    let screen = inv.render.needs.screen;
    let layout = &mut inv.render.layout;
    layout.palette = match m.get_one::<String>("palette") {
        Some(name) => Palette::from_name(name),
        None => screen.then_some(Palette::Screen),
    };
    layout.value_units = match m.get_one::<String>("units") {
        Some(name) => ValueUnits::from_name(name).unwrap_or_default(),
        None if screen => ValueUnits::Binary,
        None => ValueUnits::Hp2ps,
    };
    if let Some(key) = m.get_one::<String>("colour-by") {
        layout.colour_by_name = key == "name";
    }
    layout.pattern = m.get_flag("pattern");
    super::gate::apply(m, inv)?;
    Ok(None)
}

/// `--include`, `--exclude`, `--sort` and `--reverse`.
fn apply_selection(m: &ArgMatches, inv: &mut Invocation) -> Result<(), UsageError> {
    let patterns = |id: &str| m.get_many::<String>(id).into_iter().flatten();
    for (id, add) in [
        (
            "include",
            BandFilter::include as fn(&mut BandFilter, &str) -> _,
        ),
        ("exclude", BandFilter::exclude),
    ] {
        for pattern in patterns(id) {
            add(&mut inv.filter, pattern).map_err(|e| UsageError::BadValue {
                arg: format!("--{id} {pattern}"),
                // The last line of regex's message says what is wrong.
                why: e
                    .to_string()
                    .lines()
                    .last()
                    .map_or_else(String::new, |l| l.trim_start_matches("error: ").to_string()),
            })?;
        }
    }
    let agg = &mut inv.render.aggregate;
    // `--sort` names the one order, so it replaces `-d` and `-i`.
    if let Some(key) = m.get_one::<String>("sort") {
        agg.by_deviation = key == "stddev";
        agg.by_name = (key == "name").then_some(NameOrder::Ascending);
        // Unlike -i (hp2ps's byte order), `--sort name` puts era 2 before era 10.
        agg.numeric_names = key == "name";
        agg.by_growth = key == "growth";
    }
    agg.reverse = m.get_flag("reverse");
    inv.summary_options.slopes = inv.render.aggregate.by_growth;
    Ok(())
}
