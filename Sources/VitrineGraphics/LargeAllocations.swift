import CMemory

/// How the process allocates frame-sized buffers.
public enum LargeAllocations {
    /// Maps every allocation of at least `bytes` on its own, so its memory returns to the system
    /// as soon as it is freed. Transparency layers, masks and backing stores of a frame's size
    /// come and go with scenes and transitions; by default glibc raises its mapping threshold
    /// after the first such buffer is freed, and from then on keeps freed frames in the heap,
    /// where they stay resident for good. Call once, early (a long-running player does).
    @discardableResult
    public static func returnToTheSystem(atLeast bytes: Int = 128 * 1024) -> Bool {
        vitrine_map_allocations_from(Int32(clamping: bytes)) != 0
    }

    /// Keeps every thread's allocations in one heap (glibc's main arena). By default each
    /// thread that allocates gets an arena of its own, whose free memory only that arena
    /// reuses: a player's loading, band and reload threads kept 150–450 KB more resident
    /// between them. Its threads allocate almost nothing per frame, so they hardly ever wait
    /// for each other on the one heap. Call once, before starting threads.
    @discardableResult
    public static func keepInOneHeap() -> Bool {
        vitrine_keep_allocations_in_one_heap() != 0
    }
}
