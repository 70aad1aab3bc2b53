//! pprof's `profile.proto` (github.com/google/pprof, `proto/profile.proto`, package
//! `perftools.profiles`), its messages declared here for prost's derive, field by field
//! with the schema's numbers, so that nothing runs `protoc` at build time. Strings are
//! indices into `string_table`, whose first entry is the empty string.

/// A whole profile.
#[derive(Clone, PartialEq, prost::Message)]
pub(super) struct Profile {
    /// What each sample's values are: here one, `inuse_space` in `bytes`.
    #[prost(message, repeated, tag = "1")]
    pub(super) sample_type: Vec<ValueType>,
    #[prost(message, repeated, tag = "2")]
    pub(super) sample: Vec<Sample>,
    #[prost(message, repeated, tag = "3")]
    pub(super) mapping: Vec<Mapping>,
    #[prost(message, repeated, tag = "4")]
    pub(super) location: Vec<Location>,
    #[prost(message, repeated, tag = "5")]
    pub(super) function: Vec<Function>,
    #[prost(string, repeated, tag = "6")]
    pub(super) string_table: Vec<String>,
    #[prost(int64, tag = "7")]
    pub(super) drop_frames: i64,
    #[prost(int64, tag = "8")]
    pub(super) keep_frames: i64,
    /// When the profile was taken, in nanoseconds since the epoch (0: not said).
    #[prost(int64, tag = "9")]
    pub(super) time_nanos: i64,
    /// The time it covers, in nanoseconds.
    #[prost(int64, tag = "10")]
    pub(super) duration_nanos: i64,
    #[prost(message, optional, tag = "11")]
    pub(super) period_type: Option<ValueType>,
    #[prost(int64, tag = "12")]
    pub(super) period: i64,
    /// Free-form lines, as string indices.
    #[prost(int64, repeated, tag = "13")]
    pub(super) comment: Vec<i64>,
    /// The index in `string_table` of the sample type shown first.
    #[prost(int64, tag = "14")]
    pub(super) default_sample_type: i64,
}

/// A type of value and its unit.
#[derive(Clone, PartialEq, prost::Message)]
pub(super) struct ValueType {
    #[prost(int64, tag = "1")]
    pub(super) r#type: i64,
    #[prost(int64, tag = "2")]
    pub(super) unit: i64,
}

/// Values at one stack.
#[derive(Clone, PartialEq, prost::Message)]
pub(super) struct Sample {
    /// The stack, the innermost (leaf) location first.
    #[prost(uint64, repeated, tag = "1")]
    pub(super) location_id: Vec<u64>,
    #[prost(int64, repeated, tag = "2")]
    pub(super) value: Vec<i64>,
    #[prost(message, repeated, tag = "3")]
    pub(super) label: Vec<Label>,
}

/// A sample's label: a string (`str`) or a number.
#[derive(Clone, PartialEq, prost::Message)]
pub(super) struct Label {
    #[prost(int64, tag = "1")]
    pub(super) key: i64,
    #[prost(int64, tag = "2")]
    pub(super) str: i64,
    #[prost(int64, tag = "3")]
    pub(super) num: i64,
    #[prost(int64, tag = "4")]
    pub(super) num_unit: i64,
}

/// A binary's place in memory (none here: a heap profile's stacks are not addresses).
#[derive(Clone, PartialEq, prost::Message)]
pub(super) struct Mapping {
    #[prost(uint64, tag = "1")]
    pub(super) id: u64,
    #[prost(uint64, tag = "2")]
    pub(super) memory_start: u64,
    #[prost(uint64, tag = "3")]
    pub(super) memory_limit: u64,
    #[prost(uint64, tag = "4")]
    pub(super) file_offset: u64,
    #[prost(int64, tag = "5")]
    pub(super) filename: i64,
    #[prost(int64, tag = "6")]
    pub(super) build_id: i64,
    #[prost(bool, tag = "7")]
    pub(super) has_functions: bool,
    #[prost(bool, tag = "8")]
    pub(super) has_filenames: bool,
    #[prost(bool, tag = "9")]
    pub(super) has_line_numbers: bool,
    #[prost(bool, tag = "10")]
    pub(super) has_inline_frames: bool,
}

/// A place in the program: here one function (and line) each.
#[derive(Clone, PartialEq, prost::Message)]
pub(super) struct Location {
    #[prost(uint64, tag = "1")]
    pub(super) id: u64,
    #[prost(uint64, tag = "2")]
    pub(super) mapping_id: u64,
    #[prost(uint64, tag = "3")]
    pub(super) address: u64,
    #[prost(message, repeated, tag = "4")]
    pub(super) line: Vec<Line>,
    #[prost(bool, tag = "5")]
    pub(super) is_folded: bool,
}

/// A function at a line.
#[derive(Clone, PartialEq, prost::Message)]
pub(super) struct Line {
    #[prost(uint64, tag = "1")]
    pub(super) function_id: u64,
    #[prost(int64, tag = "2")]
    pub(super) line: i64,
}

/// A function: its name and where it is.
#[derive(Clone, PartialEq, prost::Message)]
pub(super) struct Function {
    #[prost(uint64, tag = "1")]
    pub(super) id: u64,
    #[prost(int64, tag = "2")]
    pub(super) name: i64,
    #[prost(int64, tag = "3")]
    pub(super) system_name: i64,
    #[prost(int64, tag = "4")]
    pub(super) filename: i64,
    #[prost(int64, tag = "5")]
    pub(super) start_line: i64,
}
