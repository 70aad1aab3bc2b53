//! The page's data: one JSON document in a `<script type="application/json">` element,
//! which the page's script reads.
//!
//! It is a list of runs (one today; several charts in one page later), each with its own
//! columns: the drawn samples' times once, and each drawn band's values as integers (when
//! they are: a `.hp` value may have a fraction), decimated as the SVG is, so that what
//! the script redraws is the picture the SVG shows. Then the scale and tick rules of the
//! layout ([`DataScale`]), the lines and marks, and the band table: every band of the
//! profile with its numbers, column by column. The format is described field by field in
//! `docs/formats.md`.
//!
//! Escaping: the JSON sits inside an HTML `<script>` element, which ends at the first
//! `</script` whatever JSON thinks of it. So `<`, `>` and `&` are written as `\u003c`,
//! `\u003e` and `\u0026` (which only occur inside JSON strings), and so are U+2028 and
//! U+2029, which some JavaScript parsers took for line ends. A band named `</script>`
//! stays a string.

use crate::layout::chart::{Axes, Chart, ChartData, DataScale, Fill, Graph, KeyEntry};
use crate::layout::palettes::{line_colour, DARK_BACKGROUND, LIGHT_BACKGROUND};
use crate::paint::svg::hex;
use crate::profile::{BandNumbers, Fate};

/// A JSON text being written.
pub(super) struct Json {
    out: Vec<u8>,
}

impl Json {
    pub(super) fn new() -> Json {
        Json { out: Vec::new() }
    }

    /// The text, escaped for a `<script>` element (see the module docs). Byte by byte:
    /// the characters replaced are ASCII, or U+2028 and U+2029 (E2 80 A8, E2 80 A9), and
    /// the text is UTF-8 (written from strings), so no replacement splits a character.
    pub(super) fn into_script_text(self) -> String {
        let text = self.out;
        let mut safe = Vec::with_capacity(text.len() + text.len() / 64);
        let mut i = 0;
        while i < text.len() {
            match text[i] {
                b'<' => safe.extend_from_slice(b"\\u003c"),
                b'>' => safe.extend_from_slice(b"\\u003e"),
                b'&' => safe.extend_from_slice(b"\\u0026"),
                0xE2 if text.get(i + 1) == Some(&0x80)
                    && matches!(text.get(i + 2), Some(0xA8 | 0xA9)) =>
                {
                    let last = if text[i + 2] == 0xA8 { b'8' } else { b'9' };
                    safe.extend_from_slice(b"\\u202");
                    safe.push(last);
                    i += 2;
                }
                b => safe.push(b),
            }
            i += 1;
        }
        String::from_utf8(safe)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }

    fn raw(&mut self, s: &str) {
        self.out.extend_from_slice(s.as_bytes());
    }

    /// `"key":`, after a comma unless it opens the object.
    fn key(&mut self, key: &str) {
        if !matches!(self.out.last(), Some(b'{')) {
            self.out.push(b',');
        }
        self.string(key);
        self.out.push(b':');
    }

    /// A JSON string.
    fn string(&mut self, s: &str) {
        // serde_json escapes quotes, backslashes and control characters; writing into a
        // vector cannot fail.
        if serde_json::to_writer(&mut self.out, s).is_err() {
            self.raw("\"\"");
        }
    }

    fn bytes(&mut self, b: &[u8]) {
        self.string(&String::from_utf8_lossy(b));
    }

    /// A number: an integer when it is one (values of a `.hp` are), else the shortest
    /// text that reads back as the same double; `null` when not finite.
    fn number(&mut self, v: f64) {
        const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
        if !v.is_finite() {
            self.raw("null");
        } else if v.fract() == 0.0 && v.abs() <= EXACT {
            self.raw(&(v as i64).to_string());
        } else {
            // Debug is the shortest round trip, with an exponent for huge and tiny
            // numbers (which JSON allows).
            self.raw(&format!("{v:?}"));
        }
    }

    fn numbers(&mut self, vs: impl IntoIterator<Item = f64>) {
        self.list(vs, |j, v| j.number(v));
    }

    fn list<T>(&mut self, items: impl IntoIterator<Item = T>, mut item: impl FnMut(&mut Json, T)) {
        self.out.push(b'[');
        for (i, x) in items.into_iter().enumerate() {
            if i > 0 {
                self.out.push(b',');
            }
            item(self, x);
        }
        self.out.push(b']');
    }

    fn object(&mut self, fields: impl FnOnce(&mut Json)) {
        self.out.push(b'{');
        fields(self);
        self.out.push(b'}');
    }
}

/// The document: `{"format":"hp2ps-page","version":1,"font":…,"runs":[…]}`.
pub(super) fn document(runs: &[Run<'_>], font: &Font) -> Json {
    let mut j = Json::new();
    j.object(|j| {
        j.key("format");
        j.string("hp2ps-page");
        j.key("version");
        j.number(1.0);
        j.key("font");
        j.object(|j| {
            j.key("family");
            j.string(font.family);
            j.key("firstCode");
            j.number(f64::from(font.first));
            j.key("widths");
            j.numbers(font.widths.iter().map(|&w| f64::from(w)));
        });
        j.key("runs");
        j.list(runs, run);
    });
    j
}

/// What the script needs to place tick labels glyph by glyph as the SVG does: the
/// family, and the Helvetica advance (1/1000 em) of every character from `first` on.
pub(super) struct Font {
    pub(super) family: &'static str,
    pub(super) first: u8,
    pub(super) widths: Vec<u16>,
}

/// One chart of the page.
pub(super) struct Run<'a> {
    /// The input's file name, if known.
    pub(super) file: Option<&'a str>,
    /// What the header says of the profile besides its JOB.
    pub(super) facts: &'a super::ProfileFacts,
    /// What the page left out, a line each.
    pub(super) notes: &'a [String],
    pub(super) chart: &'a Chart,
    pub(super) graph: &'a Graph,
    /// The graph page's axes (where tick labels go).
    pub(super) axes: Option<&'a Axes>,
    /// The key entries of the lines over the bands (the bands' come from the graph).
    pub(super) line_keys: Vec<&'a KeyEntry>,
    pub(super) data: &'a ChartData,
}

fn run(j: &mut Json, r: &Run<'_>) {
    let (chart, graph, data) = (r.chart, r.graph, r.data);
    j.object(|j| {
        j.key("file");
        optional(j, r.file);
        j.key("facts");
        j.object(|j| {
            let f = r.facts;
            j.key("breakdown");
            optional(j, f.breakdown.as_deref());
            j.key("interval");
            j.number(f.interval.unwrap_or(f64::NAN));
            j.key("runtime");
            optional(j, f.runtime.as_deref());
        });
        j.key("notes");
        j.list(r.notes, |j, n| j.string(n));
        j.key("tableLeftOut");
        match data.left_out {
            Some(left) => j.object(|j| {
                for (key, v) in [
                    ("bands", left.bands as f64),
                    ("area", left.area),
                    ("share", left.share),
                    ("peak", left.peak),
                ] {
                    j.key(key);
                    j.number(v);
                }
            }),
            None => j.raw("null"),
        }
        j.key("job");
        j.bytes(&chart.job);
        j.key("date");
        j.bytes(&chart.date);
        j.key("sampleUnit");
        j.bytes(&data.sample_unit);
        j.key("valueUnit");
        j.bytes(&data.value_unit);
        j.key("samples");
        j.number(data.samples as f64);
        j.key("keyLabels");
        j.string(if data.fit_key_labels { "fit" } else { "cut" });
        j.key("scale");
        scale(j, &graph.scale, r.axes);
        j.key("times");
        j.numbers(data.times.iter().copied());
        j.key("bands");
        j.list(graph.bands.iter().enumerate(), |j, (i, band)| {
            j.object(|j| {
                j.key("name");
                j.bytes(&band.name);
                fill(j, &band.fill);
                j.key("line");
                lines_of(j, band.fill.srgb());
                j.key("row");
                match data.rows.get(i).copied().flatten() {
                    Some(row) => j.number(row as f64),
                    None => j.raw("null"),
                }
                j.key("peak");
                j.number(band.stats.peak);
                j.key("peakTime");
                j.number(band.stats.peak_time);
                j.key("share");
                j.number(band.stats.share);
            });
        });
        j.key("values");
        columns(j, &data.values);
        j.key("totals");
        j.numbers(data.totals.iter().copied());
        j.key("rest");
        if data.rest_rows.is_empty() {
            j.raw("null");
        } else {
            j.object(|j| {
                j.key("rows");
                j.numbers(data.rest_rows.iter().map(|&r| r as f64));
                j.key("samples");
                match &data.rest_samples {
                    Some(places) => j.numbers(places.iter().map(|&p| p as f64)),
                    None => j.raw("null"),
                }
                j.key("values");
                columns(j, &data.rest);
            });
        }
        j.key("detail");
        j.list(&data.detail, |j, level| {
            j.object(|j| {
                j.key("whole");
                j.raw(if level.whole { "true" } else { "false" });
                j.key("rest");
                j.raw(if level.rest { "true" } else { "false" });
                j.key("tiles");
                j.list(&level.tiles, |j, tile| {
                    j.object(|j| {
                        j.key("times");
                        j.numbers(tile.times.iter().copied());
                        j.key("values");
                        columns(j, &tile.values);
                        j.key("totals");
                        j.numbers(tile.totals.iter().copied());
                    });
                });
            });
        });
        j.key("lines");
        lines(j, r);
        j.key("marks");
        j.object(|j| {
            j.key("t");
            j.numbers(data.marks.iter().copied());
            j.key("text");
            let texts = (0..data.marks.len()).map(|i| graph.mark_texts.get(i));
            j.list(texts, |j, text| {
                j.bytes(text.map_or(&[][..], Vec::as_slice))
            });
        });
        j.key("spare");
        j.list(&data.spare_colours, |j, &c| {
            j.object(|j| {
                j.key("colour");
                j.string(&hex(c));
                j.key("line");
                lines_of(j, c);
            })
        });
        j.key("table");
        table(j, &data.table, &data.info);
    });
}

/// A string, or `null`.
fn optional(j: &mut Json, s: Option<&str>) {
    match s {
        Some(s) => j.string(s),
        None => j.raw("null"),
    }
}

/// The colours a band of colour `c` is drawn in as a line, on the page's light and dark
/// backgrounds (see [`line_colour`]).
fn lines_of(j: &mut Json, c: [u8; 3]) {
    j.list([LIGHT_BACKGROUND, DARK_BACKGROUND], |j, background| {
        j.string(&hex(line_colour(c, background)))
    });
}

/// Columns of values, one list per band.
fn columns(j: &mut Json, columns: &[Vec<f64>]) {
    j.list(columns, |j, values| j.numbers(values.iter().copied()));
}

/// The data scale, and where the tick labels go (`xLabelY`: the x labels' baseline,
/// `yLabelX`: where the y labels end).
fn scale(j: &mut Json, s: &DataScale, axes: Option<&Axes>) {
    j.object(|j| {
        if let Some(a) = axes {
            j.key("xLabelY");
            j.number(a.x_legend_y);
            j.key("yLabelX");
            j.number(a.y_label_x);
        }
        for (key, v) in [
            ("x0", s.x0),
            ("y0", s.y0),
            ("width", s.width),
            ("height", s.height),
            ("t0", s.t0),
            ("tSpan", s.t_span),
            ("vSpan", s.v_span),
            ("tEnd", s.t_end),
            ("xRoom", s.x_tick_room),
            ("yRoom", s.y_tick_room),
            ("ticks", s.target_ticks),
            ("xDecimals", s.x_label_decimals as f64),
        ] {
            j.key(key);
            j.number(v);
        }
        j.key("units");
        j.string(s.value_units.name());
    });
}

/// `"colour":"#rrggbb","pattern":null|{…}`: the colour a pattern shows is its background.
fn fill(j: &mut Json, fill: &Fill) {
    j.key("colour");
    j.string(&hex(fill.srgb()));
    j.key("pattern");
    let Fill::Pattern(p) = fill else {
        return j.raw("null");
    };
    j.object(|j| {
        j.key("hatches");
        j.list(p.hatches, |j, h| j.numbers([h.angle, h.spacing, h.width]));
        j.key("dots");
        match p.dots {
            Some(d) => j.numbers([d.spacing, d.side]),
            None => j.raw("null"),
        }
    });
}

/// The lines over the bands: name, stroke and points, columnar.
fn lines(j: &mut Json, r: &Run<'_>) {
    let styled = r.graph.lines.iter().zip(&r.data.lines);
    j.list(styled.enumerate(), |j, (i, (line, series))| {
        j.object(|j| {
            j.key("name");
            j.bytes(&line.name);
            j.key("tooltip");
            j.bytes(&line.tooltip);
            j.key("colour");
            j.string(&hex(line.style.srgb()));
            j.key("line");
            lines_of(j, line.style.srgb());
            j.key("width");
            j.number(line.style.width);
            j.key("dash");
            match line.style.dash {
                Some((on, off)) => j.numbers([on, off]),
                None => j.raw("null"),
            }
            j.key("key");
            j.bytes(r.line_keys.get(i).map_or(&line.name, |k| &k.label));
            j.key("t");
            j.numbers(series.points.iter().map(|p| p.0));
            j.key("v");
            j.numbers(series.points.iter().map(|p| p.1));
        });
    });
}

/// How a column of the table is read from a band's numbers.
type Column = fn(&BandNumbers) -> f64;

/// Every band's numbers, column by column; the sparkline as whole percents of the
/// band's own highest point in it.
fn table(j: &mut Json, rows: &[BandNumbers], info: &[Vec<String>]) {
    j.object(|j| {
        j.key("name");
        j.list(rows, |j, b| j.bytes(&b.name));
        let columns: [(&str, Column); 5] = [
            ("peak", |b| b.peak),
            ("peakTime", |b| b.peak_time),
            ("area", |b| b.area),
            ("share", |b| b.share),
            ("slope", |b| b.slope),
        ];
        for (key, column) in columns {
            j.key(key);
            j.numbers(rows.iter().map(column));
        }
        j.key("fate");
        j.list(rows, |j, b| {
            j.string(match b.fate {
                Fate::Drawn => "drawn",
                Fate::Other => "other",
                Fate::Trace => "trace",
                Fate::Dropped => "dropped",
            })
        });
        j.key("spark");
        j.list(rows, |j, b| {
            let top = b.spark.iter().fold(0.0, |m: f64, &v| m.max(v));
            let scaled = b.spark.iter().map(|&v| match top > 0.0 {
                true => (v / top * 100.0).round(),
                false => 0.0,
            });
            j.numbers(scaled);
        });
        j.key("info");
        if info.is_empty() {
            return j.raw("null");
        }
        j.list(info, |j, lines| j.list(lines, |j, line| j.string(line)));
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_integers_when_they_are_and_never_invalid_json() {
        let mut j = Json::new();
        j.numbers([
            3.0,
            -0.0,
            0.25,
            1e300,
            1e-7,
            f64::NAN,
            f64::INFINITY,
            9.007e15,
        ]);
        let text = j.into_script_text();
        assert_eq!(text, "[3,0,0.25,1e300,1e-7,null,null,9007000000000000]");
        let back: Vec<Option<f64>> = serde_json::from_str(&text).expect("valid JSON");
        assert_eq!(back[2], Some(0.25));
    }

    #[test]
    fn nothing_in_a_string_can_end_the_script_element() {
        let mut j = Json::new();
        j.list(
            [
                "</script><script>alert(1)</script>",
                "a & b",
                "<!--",
                "\u{2028}\u{2029}",
                "\"\\\n",
            ],
            |j, s| j.string(s),
        );
        let text = j.into_script_text();
        for bad in ["<", ">", "&", "\u{2028}", "\u{2029}", "\n"] {
            assert!(!text.contains(bad), "{bad:?} in {text}");
        }
        let back: Vec<String> = serde_json::from_str(&text).expect("valid JSON");
        assert_eq!(back[0], "</script><script>alert(1)</script>");
        assert_eq!(back[3], "\u{2028}\u{2029}");
        assert_eq!(back[4], "\"\\\n");
    }
}
