/// Where `Rasterizer.sweep` delivers a row's coverage: runs of pixels sharing one coverage
/// value, left to right. Sinks are value types the sweep is specialized for, so a call is
/// inlined code, not dispatch.
protocol CoverageSink {
    /// `length` (≥ 1) pixels from device x `x`, each with `coverage` (1…255).
    mutating func run(x: Int, length: Int, coverage: Int32)
}

/// A sink that also takes the coverage of eight neighbouring pixels at once, so the sweep turns
/// a group of cells into coverage with vector arithmetic. For each pixel, `group` must leave
/// what `run` of one pixel with that coverage leaves (and nothing where it is 0): then the
/// grouped sweep draws what the run-by-run sweep draws, to the bit.
protocol CoverageGroupSink: CoverageSink {
    /// Makes the sink take device row `y` next (the grouped sweep calls it before each row).
    mutating func moveToRow(_ y: Int)

    /// Eight pixels from device x `x`, each with its coverage (0…255; 0 leaves a pixel as is).
    mutating func group(x: Int, coverage: SIMD8<UInt32>)

    /// Whether the sink turns cells into pixels itself (`group(x:cells:sum:evenOdd:)`, and whole
    /// rows: `sweepRows`).
    var sweepsCells: Bool { get }

    /// Eight pixels from device x `x` whose coverage the rasterizer's eight cells at `cells`
    /// give, after the running winding `sum`: the pixels `group(x:coverage:)` leaves for that
    /// coverage. Clears those cells and the carry after them; returns the winding after it.
    mutating func group(x: Int, cells: UnsafeMutablePointer<Int32>, sum: Int32, evenOdd: Bool) -> Int32

    /// The same for a row's last group, of which only the first `count` (0…7) pixels are the
    /// region's (each left as `run` of one pixel leaves it); the others are not touched.
    mutating func lastGroup(
        x: Int, count: Int, cells: UnsafeMutablePointer<Int32>, sum: Int32, evenOdd: Bool
    )
        -> Int32

    /// The grouped sweep itself (when the sink `sweepsCells`) of up to `count` consecutive band
    /// rows from device row `y`, whose cells start at `cells` (`cellStride` apart) and marks at
    /// `marks` (`words` apart), `end` columns wide from device column `origin`: the pixels the
    /// sweep would hand over, the cells and marks left zero. Stops before the first row whose
    /// `events` or `conflicted` flag is set, leaving it untouched; returns how many rows it swept
    /// (0: none, and the sweep does them).
    mutating func sweepRows(
        cells: UnsafeMutablePointer<Int32>, cellStride: Int, marks: UnsafeMutablePointer<UInt64>, words: Int,
        events: UnsafeMutablePointer<Bool>, conflicted: UnsafeMutablePointer<Bool>, count: Int, end: Int,
        origin: Int, y: Int, evenOdd: Bool
    ) -> Int
}

/// Collects runs as `CoverageSpan`s into a caller's buffer of `Rasterizer.maxSpansPerRow`
/// entries, for consumers that need the whole row first (images, masks, clipped fills).
struct CoverageSpanList: CoverageSink {
    let spans: UnsafeMutablePointer<CoverageSpan>
    private(set) var count = 0

    init(_ spans: UnsafeMutablePointer<CoverageSpan>) { self.spans = spans }

    @inline(__always)
    mutating func run(x: Int, length: Int, coverage: Int32) {
        spans[count] = CoverageSpan(
            x: Int32(truncatingIfNeeded: x), length: Int32(truncatingIfNeeded: length),
            coverage: coverage)
        count &+= 1
    }
}
