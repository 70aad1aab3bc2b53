//! Bands: each a name and a shape over time (how its value rises, falls and spikes).

use std::collections::HashSet;

use super::names::{ccs_name, closure_name, TYPES};
use super::{mix, Rng};

#[derive(Clone, Copy)]
enum Shape {
    /// CAF-like: the same value every sample, no noise.
    Constant,
    /// A leak: grows linearly over the band's lifetime.
    Leak,
    /// Build-up and collection: ramps, drops to `floor`, ramps again.
    Sawtooth { cycles: f64, phase: f64, floor: f64 },
    /// Mostly absent, with a few short bursts.
    Burst { bumps: [(f64, f64); 4], n: usize },
    /// Large at first, then decays away (and disappears when it rounds to 0).
    Decay { rate: f64 },
    /// Oscillates around a mean.
    Wave { cycles: f64, phase: f64 },
}

pub(super) struct Band {
    /// The identifier followed by a TAB, ready to copy into the output.
    pub(super) prefix: Vec<u8>,
    shape: Shape,
    /// Peak size in bytes.
    amp: f64,
    /// Lifetime as fractions of the run; outside it the band is absent.
    start: f64,
    end: f64,
    /// Chance of being absent from a sample inside its lifetime (small
    /// bands flicker in and out of GHC's censuses).
    flicker: f64,
    /// Relative multiplicative noise.
    noise: f64,
    /// Values are multiples of this (heap objects are whole words).
    quantum: f64,
}

impl Band {
    /// The value at run fraction `t`, or 0 when absent. Draws from `rng`
    /// only while alive, keeping a sample a pure function of its seed.
    #[inline]
    pub(super) fn value(&self, t: f64, rng: &mut Rng) -> u64 {
        if t < self.start || t >= self.end {
            return 0;
        }
        let r = rng.next_u64();
        // Two uniform numbers from one draw: cheap, and plenty of precision.
        let u1 = (r >> 40) as f64 * (1.0 / (1u64 << 24) as f64);
        let u2 = (r & 0xff_ffff) as f64 * (1.0 / (1u64 << 24) as f64);
        if u1 < self.flicker {
            return 0;
        }
        // Position inside the band's lifetime (may exceed 1 when a --size
        // run goes past its estimated length; all shapes extend smoothly).
        let u = (t - self.start) / (self.end.min(1.0) - self.start).max(1e-9);
        let level = match self.shape {
            Shape::Constant => 1.0,
            Shape::Leak => 0.03 + 0.97 * u,
            Shape::Sawtooth {
                cycles,
                phase,
                floor,
            } => {
                let x = u * cycles + phase;
                floor + (1.0 - floor) * (x - x.floor())
            }
            Shape::Burst { bumps, n } => {
                let mut m: f64 = 0.0;
                for &(c, w) in &bumps[..n] {
                    let d = (u - c) / w;
                    if d.abs() < 3.0 {
                        m = m.max((-d * d).exp());
                    }
                }
                if m < 0.02 {
                    return 0;
                }
                m
            }
            Shape::Decay { rate } => {
                let v = (-rate * u).exp();
                if v < 0.005 {
                    return 0;
                }
                v
            }
            Shape::Wave { cycles, phase } => {
                0.55 + 0.45 * (std::f64::consts::TAU * (u * cycles + phase)).sin()
            }
        };
        let v = self.amp * level * (1.0 + self.noise * (2.0 * u2 - 1.0));
        ((v / self.quantum).round() * self.quantum).max(0.0) as u64
    }
}

pub(super) fn make_bands(n: usize, seed: u64, name_limit: usize) -> Vec<Band> {
    // A separate stream from the per-sample ones.
    let mut rng = Rng::new(mix(seed ^ 0x05ee_d0fb_a4d5));
    let mut seen: HashSet<Vec<u8>> = HashSet::new();
    let mut types: Vec<&str> = TYPES.to_vec();
    // Cost-centre ids increase with small gaps, starting where a real
    // program's would (the RTS and base libraries use the first hundred).
    let mut ccid: u64 = 1100 + rng.below(600) as u64;
    // Magnitude ranks in random order, so that size is unrelated to name.
    let mut ranks: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        ranks.swap(i, rng.below(i + 1));
    }
    let mut bands = Vec::with_capacity(n);
    for (i, &rank) in ranks.iter().enumerate() {
        let name = loop {
            let name = if i == 0 {
                b"MAIN".to_vec()
            } else if i == 1 {
                ccid += 1;
                format!("({ccid})PINNED").into_bytes()
            } else {
                match rng.below(100) {
                    0..=11 => closure_name(&mut rng),
                    12..=17 if !types.is_empty() => types
                        .swap_remove(rng.below(types.len()))
                        .as_bytes()
                        .to_vec(),
                    _ => {
                        ccid += 1 + rng.below(12) as u64;
                        ccs_name(&mut rng, ccid, name_limit)
                    }
                }
            };
            if seen.insert(name.clone()) {
                break name;
            }
        };
        let mut prefix = name;
        prefix.push(b'\t');

        // A few big bands and a long tail of small ones: log10(peak) runs
        // from ~8 (100 MB) for rank 0 down to ~1.3 (20 bytes).
        let r = rank as f64 / n.max(1) as f64;
        let amp = 10f64.powf(2.7 + 5.6 * (1.0 - r).powi(2) + rng.range(-0.3, 0.3));

        let shape = match rng.below(100) {
            0..=17 => Shape::Constant,
            18..=35 => Shape::Leak,
            36..=53 => Shape::Sawtooth {
                cycles: rng.range(2.0, 40.0),
                phase: rng.f64(),
                floor: rng.range(0.05, 0.5),
            },
            54..=67 => {
                let mut bumps = [(0.0, 0.0); 4];
                for b in bumps.iter_mut() {
                    *b = (rng.f64(), rng.range(0.01, 0.08));
                }
                Shape::Burst {
                    bumps,
                    n: 1 + rng.below(4),
                }
            }
            68..=81 => Shape::Decay {
                rate: rng.range(1.0, 8.0),
            },
            _ => Shape::Wave {
                cycles: rng.range(0.5, 12.0),
                phase: rng.f64(),
            },
        };
        let (start, end) = match rng.below(100) {
            // Present from (nearly) the start to the end.
            0..=49 => (rng.range(0.0, 0.02), f64::INFINITY),
            // Appears late.
            50..=69 => (rng.range(0.1, 0.8), f64::INFINITY),
            // Disappears early.
            70..=85 => (0.0, rng.range(0.1, 0.9)),
            // Lives only in the middle.
            _ => {
                let s = rng.range(0.0, 0.8);
                (s, s + rng.range(0.05, 0.5))
            }
        };
        let constant = matches!(shape, Shape::Constant);
        bands.push(Band {
            prefix,
            shape,
            amp,
            start,
            end,
            // Only small bands flicker: a big structure does not vanish
            // between two censuses.
            flicker: if !constant && r > 0.3 && rng.chance(0.8) {
                rng.range(0.2, 0.9)
            } else {
                0.0
            },
            noise: if constant { 0.0 } else { rng.range(0.0, 0.15) },
            quantum: 8.0 * [1.0, 1.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0][rng.below(8)],
        });
    }
    bands
}
