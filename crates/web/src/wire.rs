//! The module's exports: memory for a request, one function a method taking the request's
//! UTF-8 JSON by pointer and length (and freeing it), an answer as a 4-byte little-endian
//! length then its UTF-8 JSON, freed by [`robots_free_answer`]. The only unsafe code of the
//! crate, each block with the contract it relies on.

use std::alloc::{Layout, alloc, dealloc};

/// The most bytes a request may take: more is refused before it is copied in.
pub const MAX_REQUEST_BYTES: usize = 32 << 20;

/// The layout of `len` bytes (at least one, so that the pointer is never dangling).
fn layout(len: usize) -> Option<Layout> {
    Layout::array::<u8>(len.max(1)).ok()
}

/// Memory for a request of `len` bytes; null when `len` is over [`MAX_REQUEST_BYTES`] or the
/// memory cannot grow.
#[unsafe(no_mangle)]
pub extern "C" fn robots_alloc(len: usize) -> *mut u8 {
    match layout(len) {
        // SAFETY: the layout's size is not zero.
        Some(l) if len <= MAX_REQUEST_BYTES => unsafe { alloc(l) },
        _ => std::ptr::null_mut(),
    }
}

/// Frees memory from [`robots_alloc`] that was not given to a method.
///
/// # Safety
/// `ptr` came from `robots_alloc(len)` and was not freed since.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robots_free(ptr: *mut u8, len: usize) {
    if let (false, Some(l)) = (ptr.is_null(), layout(len)) {
        // SAFETY: the caller's contract: allocated with this layout, not yet freed.
        unsafe { dealloc(ptr, l) }
    }
}

/// Frees an answer.
///
/// # Safety
/// `answer` came from a method and was not freed since.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robots_free_answer(answer: *mut u8) {
    if answer.is_null() {
        return;
    }
    let mut prefix = [0u8; 4];
    // SAFETY: an answer starts with its 4-byte length.
    unsafe { std::ptr::copy_nonoverlapping(answer, prefix.as_mut_ptr(), 4) };
    let len = usize::try_from(u32::from_le_bytes(prefix)).unwrap_or(usize::MAX);
    if let Some(l) = len.checked_add(4).and_then(layout) {
        // SAFETY: allocated by `answer` with this layout.
        unsafe { dealloc(answer, l) }
    }
}

/// Runs `method` on the request at `ptr` (freed here) and returns its answer.
///
/// # Safety
/// `ptr` came from `robots_alloc(len)`, holds `len` written bytes and was not freed since.
unsafe fn serve(method: &str, ptr: *mut u8, len: usize) -> *mut u8 {
    let text = if ptr.is_null() {
        crate::answer::envelope(Err(too_large()))
    } else {
        // SAFETY: the caller's contract: `len` initialised bytes at `ptr`.
        let bytes = unsafe { std::slice::from_raw_parts(ptr, len) };
        let text = match std::str::from_utf8(bytes) {
            Ok(request) => crate::call(method, request),
            Err(_) => crate::answer::envelope(Err(crate::Failure::new(
                crate::ErrorKind::Request,
                "the request is not UTF-8 text",
            ))),
        };
        // SAFETY: the caller's contract; `bytes` is not used after this.
        unsafe { robots_free(ptr, len) };
        text
    };
    answer(&text)
}

fn too_large() -> crate::Failure {
    crate::Failure::new(
        crate::ErrorKind::Limit,
        format!(
            "the request is larger than {} MiB, the most the engine takes",
            MAX_REQUEST_BYTES >> 20
        ),
    )
}

/// `text` copied behind its length; null if the memory cannot grow (the wrapper says so).
fn answer(text: &str) -> *mut u8 {
    let Ok(len) = u32::try_from(text.len()) else {
        return std::ptr::null_mut();
    };
    let Some(l) = text.len().checked_add(4).and_then(layout) else {
        return std::ptr::null_mut();
    };
    // SAFETY: the layout's size is not zero.
    let ptr = unsafe { alloc(l) };
    if ptr.is_null() {
        return ptr;
    }
    // SAFETY: `ptr` holds 4 + len bytes, and neither source overlaps it.
    unsafe {
        std::ptr::copy_nonoverlapping(len.to_le_bytes().as_ptr(), ptr, 4);
        std::ptr::copy_nonoverlapping(text.as_ptr(), ptr.add(4), text.len());
    }
    ptr
}

/// One export a method of [`crate::call`].
macro_rules! export {
    ($($export:ident => $method:literal),* $(,)?) => {$(
        #[doc = concat!("The `", $method, "` method (`web/play/ENGINE.md`).")]
        ///
        /// # Safety
        /// `ptr` came from `robots_alloc(len)`, holds `len` written bytes and was not freed
        /// since; it is freed here.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $export(ptr: *mut u8, len: usize) -> *mut u8 {
            // SAFETY: the same contract.
            unsafe { serve($method, ptr, len) }
        }
    )*};
}

export! {
    robots_check => "check",
    robots_shipped => "shipped",
    robots_play => "play",
    robots_debug_open => "debugOpen",
    robots_debug_run => "debugRun",
    robots_debug_close => "debugClose",
    robots_duel => "duel",
    robots_bench => "bench",
    robots_bench_prepare => "benchPrepare",
    robots_ricochet_position => "ricochetPosition",
    robots_ricochet_solve => "ricochetSolve",
    robots_ricochet_all => "ricochetAll",
    robots_ricochet_hint => "ricochetHint",
    robots_ricochet_replay => "ricochetReplay",
    robots_ricochet_solve_many => "ricochetSolveMany",
    robots_ricochet_daily => "ricochetDaily",
    robots_ricochet_game => "ricochetGame",
    robots_micro_faces => "microFaces",
    robots_micro_board => "microBoard",
    robots_micro_roll => "microRoll",
    robots_micro_solve => "microSolve",
    robots_micro_check => "microCheck",
    robots_micro_hint => "microHint",
    robots_micro_analyse => "microAnalyse",
    robots_micro_race => "microRace",
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A request through the exports, as the JavaScript wrapper sends it.
    fn through_the_wire(
        export: unsafe extern "C" fn(*mut u8, usize) -> *mut u8,
        request: &str,
    ) -> String {
        let ptr = robots_alloc(request.len());
        assert!(!ptr.is_null());
        // SAFETY: `ptr` holds `request.len()` bytes.
        unsafe { std::ptr::copy_nonoverlapping(request.as_ptr(), ptr, request.len()) };
        // SAFETY: allocated above with this length.
        let answer = unsafe { export(ptr, request.len()) };
        let mut prefix = [0u8; 4];
        // SAFETY: an answer starts with its length, then that many bytes.
        let text = unsafe {
            std::ptr::copy_nonoverlapping(answer, prefix.as_mut_ptr(), 4);
            let len = u32::from_le_bytes(prefix) as usize;
            String::from_utf8(std::slice::from_raw_parts(answer.add(4), len).to_vec()).unwrap()
        };
        // SAFETY: an answer, freed once.
        unsafe { robots_free_answer(answer) };
        text
    }

    #[test]
    fn a_request_goes_in_and_an_answer_comes_out() {
        let text = through_the_wire(robots_check, r#"{"text": "1 GO 1\n"}"#);
        assert!(
            text.starts_with(r#"{"ok":{"summary":"program.robot: ok"#),
            "{text}"
        );
        let text = through_the_wire(robots_bench, "not json");
        assert!(text.starts_with(r#"{"error":{"kind":"request""#), "{text}");
    }

    #[test]
    fn a_request_over_the_limit_gets_no_memory() {
        assert!(robots_alloc(MAX_REQUEST_BYTES + 1).is_null());
        // SAFETY: a null request is answered with the limit's error.
        let answer = unsafe { serve("check", std::ptr::null_mut(), 0) };
        assert!(!answer.is_null());
        // SAFETY: an answer, freed once.
        unsafe { robots_free_answer(answer) };
    }
}
