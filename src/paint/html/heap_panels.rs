//! The heap profile's panels, read from its chart: the chart itself (its picture and
//! the data the script redraws it from: the drawn samples' columns, the scale and tick
//! rules of the layout, the levels of detail), the heap lines under it, the marks, the
//! legend, the cost-centre icicle and the band table. The data's format is
//! `docs/formats.md`'s, field by field.

use super::json::Json;
use super::panel::{Panel, Place};
use crate::layout::chart::{Axes, Chart, ChartData, DataScale, Fill, Graph, KeyEntry};
use crate::layout::palettes::{line_colour, DARK_BACKGROUND, LIGHT_BACKGROUND};
use crate::paint::svg::hex;
use crate::profile::{BandNumbers, Fate};

/// What the heap panels read: the chart, its graph page's graph and axes, its data.
#[derive(Clone, Copy)]
pub(crate) struct HeapParts<'a> {
    pub(crate) chart: &'a Chart,
    pub(crate) graph: &'a Graph,
    /// The graph page's axes (where tick labels go).
    pub(crate) axes: Option<&'a Axes>,
    pub(crate) data: &'a ChartData,
}

/// The heap profile's panels, in the page's order, with `svg` the chart's picture
/// (`parts`: `None` for a chart without data, whose page shows the picture alone).
pub(crate) fn heap_panels<'a>(
    parts: Option<HeapParts<'a>>,
    svg: &'a str,
) -> Vec<Box<dyn Panel + 'a>> {
    vec![
        Box::new(HeapChart { parts, svg }),
        Box::new(HeapLines { parts }),
        Box::new(Marks { parts }),
        Box::new(Legend { parts }),
        Box::new(Icicle),
        Box::new(BandTable { parts }),
    ]
}

/// The chart: its picture (the SVG painter's, which shows before any script runs), the
/// pointer's readout and the overview; its data are the drawn samples and what the
/// script redraws them by.
struct HeapChart<'a> {
    parts: Option<HeapParts<'a>>,
    svg: &'a str,
}

impl Panel for HeapChart<'_> {
    fn place(&self) -> Place {
        Place::Column
    }

    fn html(&self, out: &mut String) {
        out.push_str(
            "<figure class=\"chart\" tabindex=\"0\" aria-label=\"The chart: point at it for \
             values, drag across it to zoom, double-click to zoom out; arrow keys move \
             along it\">\n",
        );
        out.push_str(self.svg.trim_end());
        out.push_str(
            "\n<div class=\"readout\" role=\"status\" hidden></div>\n</figure>\n\
             <div class=\"overview\" hidden></div>\n",
        );
    }

    fn data(&self, j: &mut Json) {
        let Some(HeapParts {
            graph, data, axes, ..
        }) = self.parts
        else {
            return;
        };
        j.key("keyLabels");
        j.string(if data.fit_key_labels { "fit" } else { "cut" });
        j.key("scale");
        scale(j, &graph.scale, axes);
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
    }
}

/// The lines over the bands (`--heap-size`), in a panel of their own under the chart,
/// which the script draws from their data: name, stroke and points, columnar.
struct HeapLines<'a> {
    parts: Option<HeapParts<'a>>,
}

impl Panel for HeapLines<'_> {
    fn place(&self) -> Place {
        Place::Column
    }

    fn html(&self, _: &mut String) {}

    fn data(&self, j: &mut Json) {
        let Some(HeapParts {
            chart, graph, data, ..
        }) = self.parts
        else {
            return;
        };
        // The key entries of the lines (the bands' come from the graph).
        let keys: Vec<&KeyEntry> = (chart.pages.iter().flat_map(|p| &p.key))
            .filter(|k| k.line.is_some())
            .collect();
        j.key("lines");
        let styled = graph.lines.iter().zip(&data.lines);
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
                j.bytes(keys.get(i).map_or(&line.name, |k| &k.label));
                j.key("t");
                j.numbers(series.points.iter().map(|p| p.0));
                j.key("v");
                j.numbers(series.points.iter().map(|p| p.1));
            });
        });
    }
}

/// The marks, and the list of them under the chart.
struct Marks<'a> {
    parts: Option<HeapParts<'a>>,
}

impl Panel for Marks<'_> {
    fn place(&self) -> Place {
        Place::Column
    }

    fn html(&self, out: &mut String) {
        out.push_str("<details class=\"marks-panel\" hidden></details>\n");
    }

    fn data(&self, j: &mut Json) {
        let Some(HeapParts { graph, data, .. }) = self.parts else {
            return;
        };
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
    }
}

/// The legend beside the chart (the script's, from the bands' data), with the colours
/// kept for bands the page may draw later.
struct Legend<'a> {
    parts: Option<HeapParts<'a>>,
}

impl Panel for Legend<'_> {
    fn place(&self) -> Place {
        Place::Side
    }

    fn html(&self, out: &mut String) {
        out.push_str(
            "<div class=\"splitter\" role=\"separator\" aria-orientation=\"vertical\" \
             aria-label=\"Legend width\" tabindex=\"0\"></div>\n\
             <aside class=\"legend\" aria-label=\"Legend\"></aside>\n",
        );
    }

    fn data(&self, j: &mut Json) {
        let Some(HeapParts { data, .. }) = self.parts else {
            return;
        };
        j.key("spare");
        j.list(&data.spare_colours, |j, &c| {
            j.object(|j| {
                j.key("colour");
                j.string(&hex(c));
                j.key("line");
                lines_of(j, c);
            })
        });
    }
}

/// The cost-centre stacks of a `-hc` profile as an icicle, which the script draws from
/// the band table's names.
struct Icicle;

impl Panel for Icicle {
    fn place(&self) -> Place {
        Place::Below
    }

    fn html(&self, out: &mut String) {
        out.push_str(
            "<section class=\"icicle\" aria-label=\"Cost-centre stacks\" hidden></section>\n",
        );
    }

    fn data(&self, _: &mut Json) {}
}

/// The band table: every band of the profile with its numbers, column by column.
struct BandTable<'a> {
    parts: Option<HeapParts<'a>>,
}

/// How a column of the table is read from a band's numbers.
type Column = fn(&BandNumbers) -> f64;

impl Panel for BandTable<'_> {
    fn place(&self) -> Place {
        Place::Below
    }

    fn html(&self, out: &mut String) {
        out.push_str("<section class=\"table\">\n<table class=\"bands\"></table>\n</section>\n");
    }

    /// The sparkline as whole percents of the band's own highest point in it.
    fn data(&self, j: &mut Json) {
        let Some(HeapParts { data, .. }) = self.parts else {
            return;
        };
        let (rows, info) = (&data.table, &data.info);
        j.key("table");
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
