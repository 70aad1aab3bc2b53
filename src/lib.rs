//! hp2ps: render GHC heap profiles (`.hp`) as PostScript, byte-identical to GHC's
//! hp2ps 0.25, plus EPS, SVG and PDF.
//!
//! Data flows one way: [`hp`] (the streaming reader) → [`profile::Profile`] →
//! [`aggregate`] → [`layout`] builds a [`chart::Chart`] → a painter in [`paint`].
//! [`render::prepare`] runs the middle of the pipeline in one call.
#![doc = include_str!("../docs/library.md")]

pub mod aggregate;
pub mod aux_file;
pub mod cfmt;
pub mod chart;
pub mod hp;
pub mod layout;
pub mod paint;
pub mod profile;
pub mod render;
pub mod shade;
pub mod sort;
pub mod summary;
pub mod window;
