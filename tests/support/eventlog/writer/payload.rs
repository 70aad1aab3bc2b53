//! The payloads of the heap-profile events, shared by [`EventlogWriter`] and [`RawLog`].

use super::{push_cstr, HeapProfBegin};

/// HEAP_PROF_BEGIN (160): profile id 0, period, breakdown, the 7 filters.
pub fn heap_prof_begin(begin: &HeapProfBegin) -> Vec<u8> {
    let mut p = vec![0u8]; // heap_prof_id, always 0
    p.extend_from_slice(&begin.sampling_period_ns.to_be_bytes());
    p.extend_from_slice(&begin.breakdown.to_be_bytes());
    for f in &begin.filters {
        push_cstr(&mut p, f);
    }
    p
}

/// HEAP_PROF_COST_CENTRE (161). CAF cost centres carry flags 0x63 ('c') in real files.
pub fn cost_centre(ccid: u32, label: &[u8], module: &[u8], srcloc: &[u8], caf: bool) -> Vec<u8> {
    let mut p = ccid.to_be_bytes().to_vec();
    push_cstr(&mut p, label);
    push_cstr(&mut p, module);
    push_cstr(&mut p, srcloc);
    p.push(if caf { b'c' } else { 0 });
    p
}

/// HEAP_PROF_SAMPLE_COST_CENTRE (163); `stack` innermost first, at most 255 deep.
pub fn cost_centre_sample(residency: u64, stack: &[u32]) -> Vec<u8> {
    let stack = &stack[..stack.len().min(255)];
    let mut p = vec![0u8];
    p.extend_from_slice(&residency.to_be_bytes());
    p.push(stack.len() as u8);
    for cc in stack {
        p.extend_from_slice(&cc.to_be_bytes());
    }
    p
}

/// HEAP_PROF_SAMPLE_STRING (164).
pub fn string_sample(residency: u64, label: &[u8]) -> Vec<u8> {
    let mut p = vec![0u8];
    p.extend_from_slice(&residency.to_be_bytes());
    push_cstr(&mut p, label);
    p
}
