import CMemory

/// A count that threads add to without a lock: the renderer's statistics, which the threads
/// drawing a frame's bands bump while others may hold the cache lock for a long fill. Relaxed:
/// it orders nothing else, and is read once the threads adding to it are done.
public final class SharedCount: @unchecked Sendable {
    private let cell = UnsafeMutablePointer<Int>.allocate(capacity: 1)

    public init() { cell.initialize(to: 0) }

    deinit { cell.deallocate() }

    public func add(_ amount: Int) { _ = vitrine_count_add(cell, amount) }

    public var value: Int { vitrine_count_load(cell) }
}
