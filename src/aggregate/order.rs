//! The band orders: hp2ps's initial hash-bucket order (§3.1), which breaks every later
//! tie, and the `-d` (§3.4), `-i` (§3.5) and `-p` (§3.6) sorts. Section numbers refer to
//! `docs/reference/hp2ps-behaviour.md`.

use std::cmp::Reverse;

use super::selection_sort::{f64_key, selection_sort};
use crate::aux_file::Aux;
use crate::profile::stack_on;
use crate::profile::Band;

/// Direction of the `-i` name order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameOrder {
    /// `-i`, `-i+`: smallest name at the bottom.
    Ascending,
    /// `-i-`: greatest name at the bottom.
    Descending,
}

/// hp2ps's identifier hash (§3.1): h = 3h + b over signed bytes, 32-bit.
pub(crate) fn hash_bucket(name: &[u8]) -> u32 {
    let mut h: i32 = 0;
    for &b in name {
        h = h.wrapping_mul(3).wrapping_add(i32::from(b as i8));
    }
    h.unsigned_abs() % BUCKETS as u32
}

/// The number of hp2ps's hash buckets.
const BUCKETS: usize = 513;

/// Puts bands into hp2ps's initial order: hash bucket 0…512, and within a bucket the most
/// recently created identifier first. Every later sort breaks ties by this order.
#[cfg(test)]
pub(crate) fn hash_order(bands: &mut Vec<Band>) {
    let order = hash_order_of(bands);
    let sorted = super::selection_sort::take_in_order(bands, &order);
    *bands = sorted;
}

/// The indices of `bands` in hp2ps's initial order (see [`hash_order`]).
pub(crate) fn hash_order_of(bands: &[Band]) -> Vec<u32> {
    hash_order_of_names(bands.iter().map(|b| b.name.as_slice()))
}

/// [`hash_order_of`] of the bands of these names, in order of first appearance.
pub(crate) fn hash_order_of_names<'a>(names: impl Iterator<Item = &'a [u8]>) -> Vec<u32> {
    // A counting sort: buckets are few, and walking the bands from the newest fills each
    // bucket in its order.
    let buckets: Vec<u16> = names.map(|name| hash_bucket(name) as u16).collect();
    let mut next = [0u32; BUCKETS + 1];
    for &b in &buckets {
        next[b as usize + 1] += 1;
    }
    for b in 1..=BUCKETS {
        next[b] += next[b - 1];
    }
    let mut order = vec![0u32; buckets.len()];
    for (created, &b) in buckets.iter().enumerate().rev() {
        let at = &mut next[b as usize];
        order[*at as usize] = created as u32;
        *at += 1;
    }
    order
}

/// The `-d` key: absent samples count as zeros in the mean but not in the sum of squares.
pub(crate) fn deviation(band: &Band, nsamples: usize) -> f64 {
    let n = nsamples as f64;
    let sum = band.points.iter().fold(0.0, |s, p| s + p.value);
    let mean = sum / n;
    let sumsq = band
        .points
        .iter()
        .fold(0.0, |s, p| s + (p.value - mean) * (p.value - mean));
    (sumsq / (n - 1.0)).sqrt()
}

/// The slope of the least-squares line through a band's values over the sample times, in
/// VALUE_UNIT per SAMPLE_UNIT (eventlog2html's "gradient"). Absent samples count as 0, as
/// in the chart; a profile with fewer than two distinct times has slope 0.
pub(super) fn growth(band: &Band, times: &[f64]) -> f64 {
    let n = times.len();
    if n < 2 {
        return 0.0;
    }
    let mut values = vec![0.0; n];
    stack_on(&mut values, band);
    growth_of_column(times, &values)
}

/// [`growth`] of a band given as its value at every sample (`values[i]` at `times[i]`).
pub(crate) fn growth_of_column(times: &[f64], values: &[f64]) -> f64 {
    let n = times.len();
    if n < 2 || values.len() != n {
        return 0.0;
    }
    let mean_t = times.iter().sum::<f64>() / n as f64;
    let mean_v = values.iter().sum::<f64>() / n as f64;
    let (mut num, mut den) = (0.0, 0.0);
    for (t, v) in times.iter().zip(values) {
        num += (t - mean_t) * (v - mean_v);
        den += (t - mean_t) * (t - mean_t);
    }
    if den > 0.0 {
        num / den
    } else {
        0.0
    }
}

/// `--sort growth`: by [`growth`], the fastest-growing band on top of the stack.
pub(crate) fn sort_by_growth(bands: &mut [Band], times: &[f64]) {
    let keys = bands.iter().map(|b| f64_key(growth(b, times))).collect();
    selection_sort(bands, keys);
}

/// §3.4, `-d`: by standard deviation, smallest at the bottom.
pub(crate) fn sort_by_deviation(bands: &mut [Band], nsamples: usize) {
    let keys = bands
        .iter()
        .map(|b| f64_key(deviation(b, nsamples)))
        .collect();
    selection_sort(bands, keys);
}

/// §3.5, `-i`: by name, in byte order; with `numeric`, whole decimal numbers first, by
/// value ([`name_key`]).
pub(crate) fn sort_by_name(bands: &mut [Band], order: NameOrder, numeric: bool) {
    if numeric {
        sort_by_key(bands, order, |b| name_key(&b.name));
    } else {
        sort_by_key(bands, order, |b| b.name.clone());
    }
}

/// Sorts by `key`, ascending or descending.
fn sort_by_key<K: Ord>(bands: &mut [Band], order: NameOrder, key: impl Fn(&Band) -> K) {
    match order {
        NameOrder::Ascending => {
            let keys = bands.iter().map(|b| Some(key(b))).collect();
            selection_sort(bands, keys);
        }
        NameOrder::Descending => {
            let keys = bands.iter().map(|b| Some(Reverse(key(b)))).collect();
            selection_sort(bands, keys);
        }
    }
}

/// The key of `--sort name`: a whole decimal number (`10`, `007`) sorts by its value
/// (fewer digits without leading zeros first, then digit by digit; equal values by
/// their bytes), before every other name, which sort by bytes. A total order, unlike
/// comparing numbers only when both names are numbers.
pub(crate) fn name_key(name: &[u8]) -> (bool, usize, Vec<u8>) {
    if !name.is_empty() && name.iter().all(u8::is_ascii_digit) {
        let zeros = name.iter().take_while(|&&b| b == b'0').count();
        let mut digits = name[zeros..].to_vec();
        // Equal values (`7`, `007`) then part by their whole bytes.
        digits.push(b'/');
        digits.extend_from_slice(name);
        (false, name.len() - zeros, digits)
    } else {
        (true, 0, name.to_vec())
    }
}

/// §3.6, `-p`: in the order of the previous run's `.aux`; names it lacks sort as 0.
pub(crate) fn sort_by_aux(bands: &mut [Band], aux: &Aux) {
    let order = aux.order_map();
    let keys = bands
        .iter()
        .map(|b| Some(order.get(b.name.as_slice()).copied().unwrap_or(0)))
        .collect();
    selection_sort(bands, keys);
}
