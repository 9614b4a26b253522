import Foundation

/// Large pixel loops shared among the cores by bands of rows: compositing a group or clearing
/// a frame at 4K moves tens of megabytes, which one core cannot do within a frame's time when a
/// fade or a full-screen change comes. Each band is computed exactly as on one thread (rows do
/// not depend on each other), so a frame is bit-identical whatever the number of threads. Small
/// loops stay on the calling thread: waking another costs more than it saves.
///
/// The helper threads are started once, on first use, and wait between loops. One loop runs at
/// a time; a loop started while another runs (on another thread) runs on its caller alone.
public enum RowBands {
    /// How many threads share a large loop, the caller's included (1: no helpers). At most 8;
    /// by default the number of cores, at most 4. Set before the first frame, or from one
    /// thread between frames.
    public static var threadCount: Int {
        get { pool.lock.withLock { pool.wanted } }
        set { pool.lock.withLock { pool.wanted = min(max(newValue, 1), 8) } }
    }

    /// A loop over fewer pixels than this stays on one thread.
    public static let minimumPixels = 512 * 1024

    /// How many loops have run on more than one thread since the process started (tests check
    /// that the parallel path ran).
    public static var parallelLoopCount: Int { pool.lock.withLock { pool.parallelLoops } }

    /// Calls `body` with bands of `rows` covering them in order, in parallel when the loop
    /// covers at least `minimumPixels` of `width`-pixel rows.
    public static func forEach(rows: Range<Int>, width: Int, _ body: (Range<Int>) -> Void) {
        guard rows.count >= 2, rows.count * max(width, 0) >= minimumPixels else {
            body(rows)
            return
        }
        pool.run(rows: rows, body)
    }

    private static let pool = BandPool()
}

/// The helper threads of `RowBands`, and the hand-over of one loop to them.
private final class BandPool: @unchecked Sendable {
    let lock = NSLock()
    var wanted = min(4, max(1, ProcessInfo.processInfo.activeProcessorCount))
    var parallelLoops = 0
    /// Held for the length of one loop.
    private let running = NSLock()
    private var helpers: [(start: DispatchSemaphore, thread: Thread)] = []
    private let finished = DispatchSemaphore(value: 0)
    /// The loop being run and its bands: written before the helpers are started, read by them
    /// until they signal `finished` (the semaphores order the accesses).
    private var body: ((Range<Int>) -> Void)?
    private var rows = 0..<0
    private var bandCount = 1

    func run(rows: Range<Int>, _ body: (Range<Int>) -> Void) {
        let bands = min(lock.withLock { wanted }, rows.count)
        guard bands > 1, running.try() else {
            body(rows)
            return
        }
        defer { running.unlock() }
        lock.withLock { parallelLoops += 1 }
        while helpers.count < bands - 1 { startHelper(index: helpers.count + 1) }
        withoutActuallyEscaping(body) { body in
            self.body = body
            self.rows = rows
            bandCount = bands
            for helper in helpers.prefix(bands - 1) { helper.start.signal() }
            body(band(0))
            for _ in 1..<bands { finished.wait() }
            self.body = nil
        }
    }

    /// Band `index` of the loop being run.
    private func band(_ index: Int) -> Range<Int> {
        let n = rows.count
        return (rows.lowerBound + n * index / bandCount)..<(rows.lowerBound + n * (index + 1) / bandCount)
    }

    private func startHelper(index: Int) {
        let start = DispatchSemaphore(value: 0)
        let thread = Thread { [unowned self] in
            while true {
                start.wait()
                body?(band(index))
                finished.signal()
            }
        }
        thread.name = "vitrine-rows-\(index)"
        thread.start()
        helpers.append((start, thread))
    }
}
