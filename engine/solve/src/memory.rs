//! Hints to the memory system: the only `unsafe` of the engine besides
//! mapping a table file (`mancala-tables`). Both change how fast
//! memory is reached, never what it holds.
//!
//! The transposition table and the table builder read memory at random
//! over gigabytes, so nearly every read misses the caches: a prefetch lets
//! several misses overlap (both use it). With 4 KiB pages the table's
//! probes miss the TLB as well; 2 MiB pages let one TLB entry cover 512
//! times as much (the table asks for them; the builder measured no gain).

/// Asks the processor to bring `x`'s cache line in (a hint: it reads or
/// writes nothing).
#[inline(always)]
pub fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    #[allow(unsafe_code)]
    // SAFETY: a prefetch has no effect on memory or on the program's
    // state, whatever the address; this one is a live reference anyway.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
            x as *const T as *const i8,
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

/// Size of a transparent huge page on Linux (x86-64 and most others).
#[cfg(target_os = "linux")]
const HUGE_PAGE: usize = 2 << 20;

/// Asks the kernel to back the whole 2 MiB pages inside `bytes` bytes
/// from `start` with huge pages (Linux's `madvise(MADV_HUGEPAGE)`, which
/// the default `transparent_hugepage=madvise` setting waits for). Call it
/// before the memory is first written: the pages are chosen when they are
/// faulted in. Elsewhere, or when the kernel declines, nothing happens.
pub(crate) fn advise_huge_pages(start: *const u8, bytes: usize) {
    #[cfg(target_os = "linux")]
    {
        let from = (start as usize).next_multiple_of(HUGE_PAGE);
        let to = (start as usize).saturating_add(bytes) / HUGE_PAGE * HUGE_PAGE;
        if to > from {
            #[allow(unsafe_code)]
            // SAFETY: `madvise` with `MADV_HUGEPAGE` changes how the range's
            // pages are backed, not what they hold; the range lies within
            // the caller's allocation (`from..to` is inside
            // `start..start + bytes`), and a failure is only a declined hint.
            let _ = unsafe {
                rustix::mm::madvise(
                    from as *mut std::ffi::c_void,
                    to - from,
                    rustix::mm::Advice::LinuxHugepage,
                )
            };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, bytes);
}
