//! Pages with a time profile (`--format html`): a time profile's page alone (`hp2ps
//! --format html prog.prof`); a heap profile's run with the time profile of the same
//! run (its page is `linked.rs`'s, or a bare `prog`'s with `prog.prof` beside it; a `-p
//! -hc -l` eventlog's own time samples make one too); and several time profiles compared
//! (`hp2ps --format html -o diff.html old.prof new.prof`). Each is one page of the page
//! builder, written atomically; what a page left out is said on stderr too.

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::calltree::Sampled;
use crate::load::TimeProfileKind;
use crate::paint::html::{LinkKind, Page, RunPage, TimeKind, TimePanel, TimeParts};
use crate::profile::ProfileFacts;
use crate::{Chart, TimeProfile};

use super::atomic::write_output;
use super::time_read::read_time;
use crate::cli::Invocation;

/// A time profile read for a page: the profile, its file's name, its warnings.
pub(crate) struct TimeRead {
    pub(crate) profile: TimeProfile,
    pub(crate) name: String,
    pub(crate) warnings: Vec<String>,
}

impl TimeRead {
    /// The time profile of file `path`.
    pub(crate) fn of(path: &std::path::Path) -> Result<TimeRead, String> {
        let (profile, warnings) = read_time(path.as_os_str(), true)?;
        Ok(TimeRead {
            profile,
            name: path.display().to_string(),
            warnings,
        })
    }

    /// An eventlog's time samples as a time profile of its own.
    fn of_samples(s: &Sampled, name: &str) -> TimeRead {
        TimeRead {
            profile: TimeProfile {
                tree: s.tree().clone(),
                sampled: None,
                kind: TimeProfileKind::Eventlog,
                warnings: Vec::new(),
            },
            name: name.to_string(),
            warnings: Vec::new(),
        }
    }

    fn parts<'a>(&'a self, samples: Option<&'a Sampled>) -> TimeParts<'a> {
        TimeParts {
            tree: &self.profile.tree,
            kind: match self.profile.kind {
                TimeProfileKind::Report => TimeKind::Report,
                TimeProfileKind::Json => TimeKind::Json,
                TimeProfileKind::Eventlog => TimeKind::Eventlog,
            },
            file: Some(&self.name),
            samples: samples.or(self.profile.sampled.as_ref()),
            warnings: self.warnings.clone(),
            heap: None,
            before: None,
        }
    }
}

/// The page of a time profile alone.
pub(crate) fn time_only(read: &TimeRead) -> Page {
    Page::of(&[RunPage::time(read.parts(None))])
}

/// A heap profile's run (`chart` of `source`, whose input told `facts` and whose
/// eventlog may have had time `samples`) with its time profile (`time`, else its
/// samples').
pub(crate) fn heap_run(
    chart: &Chart,
    source: Option<&str>,
    facts: &ProfileFacts,
    time: Option<&TimeRead>,
    samples: Option<&Sampled>,
) -> io::Result<RunPage> {
    let own;
    let time = match (time, samples) {
        (Some(t), _) => Some(t),
        (None, Some(s)) => {
            own = TimeRead::of_samples(s, source.unwrap_or("samples"));
            Some(&own)
        }
        (None, None) => None,
    };
    let Some(time) = time else {
        return RunPage::heap(chart, source, facts, 1);
    };
    let mut parts = time.parts(samples);
    let bands = (chart.data.as_deref())
        .map(|d| {
            d.table
                .iter()
                .map(|b| String::from_utf8_lossy(&b.name).into_owned())
                .collect()
        })
        .unwrap_or_default();
    parts.heap = LinkKind::of(facts.breakdown.as_deref(), &chart.job).map(|k| (k, bands));
    if time.profile.kind == TimeProfileKind::Eventlog && time.profile.sampled.is_none() {
        // The samples' own tree is the profile's.
        parts.samples = samples;
    }
    RunPage::heap_with(chart, source, facts, 1, vec![Box::new(TimePanel { parts })])
}

/// Several time profiles on one page (`-o`): each its panel, each after the first
/// compared with the first.
pub(crate) fn run_compare(inv: &Invocation) -> ExitCode {
    let result = (|| -> Result<Option<PathBuf>, String> {
        let reads = (inv.files.iter())
            .map(|f| TimeRead::of(std::path::Path::new(f)))
            .collect::<Result<Vec<_>, _>>()?;
        for w in reads.iter().flat_map(|r| &r.warnings) {
            say!("{w}");
        }
        let first = &reads[0];
        let runs: Vec<RunPage> = (reads.iter().enumerate())
            .map(|(i, r)| {
                let mut parts = r.parts(None);
                if i > 0 {
                    parts.before = Some((&first.profile.tree, first.name.as_str()));
                }
                RunPage::time(parts)
            })
            .collect();
        let page = Page::of(&runs);
        for (notes, r) in page.notes.iter().zip(&reads) {
            for n in notes {
                say!("hp2ps: warning: {}: {n}", r.name);
            }
        }
        let output = inv.output.clone().unwrap_or_default();
        write_output(Some(&output), &PathBuf::from(&output), |mut out| {
            page.write(&mut out)
        })
    })();
    finish(result)
}

/// What a page left out, on stderr.
pub(super) fn say_notes(page: &Page, input: &str) {
    for n in page.notes.iter().flatten() {
        say!("hp2ps: warning: {input}: {n}");
    }
}

/// The exit status of a page written, its failure said.
pub(super) fn finish(result: Result<Option<PathBuf>, String>) -> ExitCode {
    match result {
        Ok(_) => ExitCode::SUCCESS,
        Err(message) => {
            say!("hp2ps: {message}");
            ExitCode::FAILURE
        }
    }
}
