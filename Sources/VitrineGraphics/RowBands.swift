import Glibc
import VitrineSystem

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

    /// Runs `job` on bands of `rows` covering them, in parallel when the loop covers at least
    /// `minimumPixels` of `width`-pixel rows.
    public static func forEach<Job: RowBandJob>(rows: Range<Int>, width: Int, _ job: Job) {
        guard rows.count >= 2, rows.count * max(width, 0) >= minimumPixels else {
            job.run(rows: rows)
            return
        }
        pool.run(rows: rows, job)
    }

    /// Runs `job` on `items` (whole units of work, such as the bands of a frame), shared among
    /// the threads when there are at least two and the threads are free; a loop started from
    /// inside it runs on its caller's thread.
    public static func forEach<Job: RowBandJob>(items: Range<Int>, _ job: Job) {
        guard items.count >= 2 else { return job.run(rows: items) }
        pool.run(rows: items, job)
    }

    private static let pool = BandPool()
}

/// A loop over rows that `RowBands` may share among threads: a value holding what the loop
/// needs (a closure would be copied to the heap to reach the helpers, once per loop).
public protocol RowBandJob {
    /// Does the loop's work for `rows`, the same whatever band they are part of.
    func run(rows: Range<Int>)
}

extension RowBandJob {
    /// Runs the job of this type at `pointer`.
    fileprivate static func run(at pointer: UnsafeRawPointer, rows: Range<Int>) {
        pointer.assumingMemoryBound(to: Self.self).pointee.run(rows: rows)
    }
}

/// The helper threads of `RowBands`, and the hand-over of one loop to them.
private final class BandPool: @unchecked Sendable {
    let lock = Lock()
    var wanted = min(4, availableProcessorCount())
    var parallelLoops = 0
    /// Held for the length of one loop.
    private let running = Lock()
    private var helpers: [CountingSemaphore] = []
    private let finished = CountingSemaphore()
    /// The loop being run (where its job is, and the job's type) and its bands: written before
    /// the helpers are started, read by them until they signal `finished` (the semaphores order
    /// the accesses).
    private var job: (pointer: UnsafeRawPointer, type: any RowBandJob.Type)?
    private var rows = 0..<0
    private var bandCount = 1

    func run<Job: RowBandJob>(rows: Range<Int>, _ job: Job) {
        var bands = min(lock.withLock { wanted }, rows.count)
        guard bands > 1, running.try() else {
            job.run(rows: rows)
            return
        }
        defer { running.unlock() }
        while helpers.count < bands - 1, startHelper(index: helpers.count + 1) {}
        // A helper the system refused to start: the loop shares what there is.
        bands = min(bands, helpers.count + 1)
        guard bands > 1 else { return job.run(rows: rows) }
        lock.withLock { parallelLoops += 1 }
        withUnsafePointer(to: job) { pointer in
            self.job = (UnsafeRawPointer(pointer), Job.self)
            self.rows = rows
            bandCount = bands
            for start in helpers.prefix(bands - 1) { start.signal() }
            job.run(rows: band(0))
            for _ in 1..<bands { finished.wait() }
            self.job = nil
        }
    }

    /// Band `index` of the loop being run.
    private func band(_ index: Int) -> Range<Int> {
        let n = rows.count
        return (rows.lowerBound + n * index / bandCount)..<(rows.lowerBound + n * (index + 1) / bandCount)
    }

    /// Starts helper `index`; false when the system refused a thread.
    private func startHelper(index: Int) -> Bool {
        let start = CountingSemaphore()
        do {
            try SystemThread.start(name: "vitrine-rows-\(index)") { [unowned self] in
                while true {
                    start.wait()
                    if let job { job.type.run(at: job.pointer, rows: band(index)) }
                    finished.signal()
                }
            }
        } catch {
            return false
        }
        helpers.append(start)
        return true
    }
}
