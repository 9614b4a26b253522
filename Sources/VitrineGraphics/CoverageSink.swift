/// Where `Rasterizer.sweep` delivers a row's coverage: runs of pixels sharing one coverage
/// value, left to right. Sinks are value types the sweep is specialized for, so a call is
/// inlined code, not dispatch.
protocol CoverageSink {
    /// `length` (≥ 1) pixels from device x `x`, each with `coverage` (1…255).
    mutating func run(x: Int, length: Int, coverage: Int32)
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
