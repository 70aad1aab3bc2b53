//! Painters: one per output format, all drawing the same [`crate::chart::Chart`].

pub mod ps;
