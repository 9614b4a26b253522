#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A run of pixels in one row that share one coverage value.
struct CoverageSpan {
    /// First pixel (device x).
    var x: Int32
    /// Number of pixels.
    var length: Int32
    /// Coverage, 0…255 (never 0 in a sweep's output).
    var coverage: Int32
}

/// Exact-area anti-aliased scan conversion, in the manner of FreeType's "smooth" rasterizer
/// and Blend2D: every edge adds, to each pixel cell it crosses, its signed height (`cover`)
/// and the signed area it leaves to its left; a sweep along each row accumulates these into
/// the exact fraction of each pixel inside the outline. There is no supersampling.
///
/// Cells live in a dense per-pixel accumulation buffer, one `Int32` per pixel, holding
/// `cover·512 − area` for the pixel and the `area` carried into its right neighbour, so a
/// prefix sum along the row yields the winding area directly. A bit per cell records which
/// cells were written; the sweep visits only those and treats everything between two of them
/// as a run of constant coverage. The cost of a shape is therefore proportional to the cells
/// its edges cross plus its rows, not to its bounding box, and the sweep leaves every cell
/// and mark zero again, ready for the next shape without clearing.
///
/// Coordinates are 24.8 fixed point inside the rasterizer (an edge's sub-pixel position has
/// 1/256 pixel resolution); cover and area are exact integers, so a closed outline's rows sum
/// back to exactly zero and a fully covered pixel is exactly 255.
///
/// Geometry enters through `Rasterizer+Path.swift`, which flattens, culls and clips.
final class Rasterizer {
    /// Size of the largest target this rasterizer serves.
    let width: Int
    let height: Int

    /// Fixed-point one pixel.
    static let one: Int = 256
    /// A fully covered pixel's accumulated value: one pixel of cover (256) times 2·256.
    static let fullCoverage: Int32 = 1 << 17

    /// Accumulation cells: `height` rows of `cellStride` values (a pixel and its right
    /// neighbour may be written when an edge sits on the target's right border).
    private let cells: UnsafeMutablePointer<Int32>
    private let cellStride: Int
    /// One bit per written cell, `wordsPerRow` words per row.
    private let marks: UnsafeMutablePointer<UInt64>
    private let wordsPerRow: Int

    /// The device rectangle shapes are clipped to (within 0…width × 0…height).
    private(set) var clip = IntRect(x: 0, y: 0, width: 0, height: 0)
    /// Pixels the shapes added since `reset` may touch (within `clip`); the sweep's domain.
    private(set) var bounds = IntRect(x: 0, y: 0, width: 0, height: 0)

    init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cellStride = self.width + 2
        wordsPerRow = (self.width + 1) / 64 + 1
        // calloc: zeroed pages the kernel maps lazily, so an unused region costs nothing.
        cells = calloc(max(1, cellStride * self.height), MemoryLayout<Int32>.stride)!
            .bindMemory(to: Int32.self, capacity: max(1, cellStride * self.height))
        marks = calloc(max(1, wordsPerRow * self.height), MemoryLayout<UInt64>.stride)!
            .bindMemory(to: UInt64.self, capacity: max(1, wordsPerRow * self.height))
    }

    deinit {
        free(cells)
        free(marks)
    }

    /// Starts a new shape clipped to `clip` (intersected with the rasterizer's own size).
    /// The previous shape must have been swept completely.
    func reset(clip: IntRect) {
        self.clip = clip.intersection(IntRect(x: 0, y: 0, width: width, height: height))
        bounds = IntRect(x: 0, y: 0, width: 0, height: 0)
    }

    /// Widens the sweep's domain to include `r` (clipped).
    func include(_ r: IntRect) {
        bounds = bounds.union(r.intersection(clip))
    }

    // MARK: - Edges

    /// Adds one edge in 24.8 fixed-point device coordinates, already clipped so that
    /// `clip.x·256 ≤ x ≤ clip.maxX·256` and `clip.y·256 ≤ y ≤ clip.maxY·256`.
    /// Direction matters: downward edges wind positively, upward ones negatively.
    func addFixedEdge(x0: Int, y0: Int, x1: Int, y1: Int) {
        if y0 == y1 { return }
        var (xa, ya, xb, yb) = (x0, y0, x1, y1)
        var sign: Int32 = 1
        if ya > yb { swap(&xa, &xb); swap(&ya, &yb); sign = -1 }
        let firstRow = ya >> 8, lastRow = (yb - 1) >> 8

        if xa == xb {
            // Vertical: one cell per row, same sub-pixel x throughout.
            let cx = xa >> 8
            if cx >= clip.maxX { return } // on the right border: affects nothing visible
            let twiceFx = Int32(xa & 255) << 1
            for row in firstRow...lastRow {
                let top = max(ya, row << 8), bottom = min(yb, (row + 1) << 8)
                let cover = sign &* Int32(bottom - top)
                addCell(row: row, x: cx, cover: cover, area: cover &* twiceFx)
            }
            return
        }

        // Walk rows; the x where the edge crosses each row boundary is computed once and
        // shared by the pieces above and below it, so covers telescope exactly.
        let slope = Double(xb - xa) / Double(yb - ya)
        let xLow = min(xa, xb), xHigh = max(xa, xb)
        var x = xa, y = ya
        for row in firstRow...lastRow {
            let rowTop = row << 8
            let nextY = min(yb, rowTop + 256)
            var nextX = xb
            if nextY != yb {
                nextX = xa + Int((Double(nextY - ya) * slope).rounded())
                nextX = min(max(nextX, xLow), xHigh)
            }
            addRowPiece(row: row, x0: x, fy0: y - rowTop, x1: nextX, fy1: nextY - rowTop, sign: sign)
            x = nextX
            y = nextY
        }
    }

    /// One edge piece inside a single row: `fy0 < fy1` are offsets from the row's top
    /// (0…256); walks the cells from `x0` to `x1`.
    @inline(__always)
    private func addRowPiece(row: Int, x0: Int, fy0: Int, x1: Int, fy1: Int, sign: Int32) {
        let low = min(x0, x1), high = max(x0, x1)
        let firstCell = low >> 8
        if high <= (firstCell + 1) << 8 {
            // Inside one cell (possibly touching its right side).
            if firstCell >= clip.maxX { return }
            let base = firstCell << 8
            let cover = sign &* Int32(fy1 - fy0)
            addCell(row: row, x: firstCell, cover: cover, area: cover &* Int32(x0 - base + x1 - base))
            return
        }
        // Crosses cell boundaries: the y at each boundary comes from the piece's own slope.
        let ySlope = Double(fy1 - fy0) / Double(x1 - x0)
        var y = fy0
        if x0 < x1 {
            var cell = x0 >> 8
            var fx = x0 - (cell << 8)
            while true {
                let right = (cell + 1) << 8
                if x1 <= right {
                    let cover = sign &* Int32(fy1 - y)
                    addCell(row: row, x: cell, cover: cover, area: cover &* Int32(fx + x1 - (cell << 8)))
                    return
                }
                let nextY = min(max(fy0 + Int((Double(right - x0) * ySlope).rounded()), y), fy1)
                let cover = sign &* Int32(nextY - y)
                addCell(row: row, x: cell, cover: cover, area: cover &* Int32(fx + 256))
                y = nextY
                fx = 0
                cell += 1
            }
        } else {
            var cell = (x0 - 1) >> 8
            var fx = x0 - (cell << 8)
            while true {
                let left = cell << 8
                if x1 >= left {
                    let cover = sign &* Int32(fy1 - y)
                    addCell(row: row, x: cell, cover: cover, area: cover &* Int32(fx + x1 - left))
                    return
                }
                let nextY = min(max(fy0 + Int((Double(left - x0) * ySlope).rounded()), y), fy1)
                let cover = sign &* Int32(nextY - y)
                addCell(row: row, x: cell, cover: cover, area: cover &* Int32(fx))
                y = nextY
                fx = 256
                cell -= 1
            }
        }
    }

    /// Adds a cell's cover (height crossed, ±0…256) and area (cover × twice the mean
    /// sub-pixel x inside the cell).
    @inline(__always)
    private func addCell(row: Int, x: Int, cover: Int32, area: Int32) {
        if cover == 0 { return }
        let p = cells + row * cellStride + x
        p[0] &+= (cover << 9) &- area
        p[1] &+= area
        marks[row * wordsPerRow + (x >> 6)] |= 1 << UInt64(x & 63)
    }

    // MARK: - Sweep

    /// Turns row `y` of the accumulated shape into coverage spans (left to right, coverage
    /// never 0) and clears the row's cells. Every row of `bounds` must be swept once.
    /// `spans` must hold `maxSpansPerRow` entries.
    func sweep(row y: Int, rule: FillRule, into spans: UnsafeMutablePointer<CoverageSpan>) -> Int {
        let rowCells = cells + y * cellStride
        let rowMarks = marks + y * wordsPerRow
        let end = bounds.maxX
        let evenOdd = rule == .evenOdd
        var count = 0
        var sum: Int32 = 0
        var runStart = bounds.x
        for w in (bounds.x >> 6)...(end >> 6) {
            var word = rowMarks[w]
            if word == 0 { continue }
            rowMarks[w] = 0
            repeat {
                let i = (w << 6) | word.trailingZeroBitCount
                word &= word &- 1
                if i > runStart {
                    let c = Rasterizer.coverage(sum, evenOdd: evenOdd)
                    if c != 0 {
                        spans[count] = CoverageSpan(x: Int32(runStart), length: Int32(i - runStart), coverage: c)
                        count += 1
                    }
                }
                sum &+= rowCells[i]
                rowCells[i] = 0
                let c = Rasterizer.coverage(sum, evenOdd: evenOdd)
                if c != 0 && i < end {
                    spans[count] = CoverageSpan(x: Int32(i), length: 1, coverage: c)
                    count += 1
                }
                // The right neighbour may hold carried area without a mark of its own.
                sum &+= rowCells[i + 1]
                rowCells[i + 1] = 0
                runStart = i + 1
            } while word != 0
        }
        if end > runStart {
            let c = Rasterizer.coverage(sum, evenOdd: evenOdd)
            if c != 0 {
                spans[count] = CoverageSpan(x: Int32(runStart), length: Int32(end - runStart), coverage: c)
                count += 1
            }
        }
        return count
    }

    /// Clears whatever the current shape accumulated, without producing spans.
    func discard() {
        guard !bounds.isEmpty else { return }
        for y in bounds.y..<bounds.maxY {
            let rowMarks = marks + y * wordsPerRow
            let rowCells = cells + y * cellStride
            for w in (bounds.x >> 6)...(bounds.maxX >> 6) where rowMarks[w] != 0 {
                var word = rowMarks[w]
                rowMarks[w] = 0
                while word != 0 {
                    let i = (w << 6) | word.trailingZeroBitCount
                    word &= word &- 1
                    rowCells[i] = 0
                    rowCells[i + 1] = 0
                }
            }
        }
        bounds = IntRect(x: 0, y: 0, width: 0, height: 0)
    }

    /// The most spans one row can produce: a run and a single pixel per cell, plus a tail.
    var maxSpansPerRow: Int { 2 * (width + 2) + 1 }

    /// Pixel coverage (0…255) from an accumulated winding area: nonzero clamps |area| to one
    /// pixel; even-odd folds it into a triangle wave of period two windings.
    @inline(__always)
    static func coverage(_ value: Int32, evenOdd: Bool) -> Int32 {
        var a = value.magnitude
        if evenOdd {
            a &= 0x3FFFF
            if a > 0x20000 { a = 0x40000 - a }
        } else if a > 0x20000 {
            a = 0x20000
        }
        return Int32(truncatingIfNeeded: (a &* 255 &+ 0x10000) >> 17)
    }
}
