//! [`ValueUnits`]: how the y tick labels write values (`--units`).

/// How the y tick labels write values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum ValueUnits {
    /// As hp2ps: decimal steps of 1, 2 or 5, in thousands (`k`) or millions (`M`) when
    /// the step is that large ("35M"); the y legend is VALUE_UNIT.
    #[default]
    Hp2ps,
    /// A VALUE_UNIT of bytes in bytes, KiB, MiB, GiB or TiB (powers of 1024), at steps
    /// of 1, 2 or 5 of the unit times a power of ten: a number alone on each tick, the
    /// unit in the y legend. Other units as [`ValueUnits::Decimal`].
    Binary,
    /// Powers of 1000: bytes as kB, MB, GB or TB, other units with a prefix (`k`, `M`,
    /// `G`, `T`).
    Decimal,
}

impl ValueUnits {
    /// Every choice, in the order `--help` lists them.
    pub const ALL: [ValueUnits; 3] = [ValueUnits::Hp2ps, ValueUnits::Binary, ValueUnits::Decimal];

    /// The name on the command line: `hp2ps`, `binary` or `decimal`.
    pub fn name(self) -> &'static str {
        match self {
            ValueUnits::Hp2ps => "hp2ps",
            ValueUnits::Binary => "binary",
            ValueUnits::Decimal => "decimal",
        }
    }

    /// The units of that name.
    pub fn from_name(name: &str) -> Option<ValueUnits> {
        ValueUnits::ALL.into_iter().find(|u| u.name() == name)
    }
}
