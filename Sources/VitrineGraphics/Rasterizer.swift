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
/// Cells live in a dense accumulation buffer laid out over the shape's own region (its
/// clipped bounding box), one `Int32` per pixel, holding `cover·512 − area` for the pixel and
/// the `area` carried into its right neighbour, so a prefix sum along the row yields the
/// winding area directly. Small shapes thus stay within a few cache lines. A bit per cell
/// records which cells were written; the sweep visits only those and treats everything
/// between two of them as a run of constant coverage. The cost of a shape is therefore
/// proportional to the cells its edges cross plus its rows, not to its area, and the sweep
/// leaves every cell and mark zero again, ready for the next shape without clearing.
///
/// The buffer holds `bandHeight` rows. A shape no taller is accumulated as its edges arrive;
/// a taller one keeps its edges and accumulates them a band at a time as the sweep reaches
/// each band, starting every edge's walk at the band's top exactly where the walk from its
/// start would be, so the result is the same to the bit. A frame-high shape thus needs a
/// band's worth of cells (half a megabyte at 1920 wide), not a frame's (8 MB).
///
/// Inside, coordinates are 24.8 fixed point relative to the top-left corner of the shape's
/// `geometry` box (an edge's sub-pixel position has 1/256 pixel resolution); cover and area
/// are exact integers, so a closed outline's rows sum back to exactly zero and a fully covered
/// pixel is exactly 255.
///
/// The clip never changes the geometry: edges are quantized on a grid that depends only on the
/// shape and the target, and the clip is applied to cells (rows outside it are skipped, cells
/// left of it add their cover to its first column, cells right of it are dropped). A shape
/// drawn through a small clip thus gets exactly the pixels it gets without one: damage-tracked
/// frames equal whole repaints to the bit.
///
/// Geometry enters through `Rasterizer+Path.swift`, which flattens, culls and clips to the
/// target. One shape per `reset`: its region is fixed when it begins.
final class Rasterizer {
    /// Size of the largest target this rasterizer serves.
    let width: Int
    let height: Int

    /// Rows of cells the buffer holds: the height of a band.
    static let bandHeight = 64

    /// Accumulation cells: the current band's rows of `cellStride` values (a pixel's right
    /// neighbour may be written when an edge sits on the region's right border).
    private let cells: UnsafeMutablePointer<Int32>
    /// One bit per written cell, `wordsPerRow` words per row.
    private let marks: UnsafeMutablePointer<UInt64>
    private var cellStride = 0
    private var wordsPerRow = 0

    /// The region rows (from `bounds.y`) the cells hold now: `bandTop ..< bandTop + bandRows`.
    private var bandTop = 0
    private var bandRows = 0
    /// Whether the shape is taller than a band, so edges are kept in `edges` and accumulated
    /// band by band, rather than as they arrive.
    private var isBanded = false
    /// The current shape's edges (24.8 fixed point from the geometry's origin, as added), kept
    /// while it is banded. Its capacity is kept from shape to shape.
    private var edges: [(x0: Int32, y0: Int32, x1: Int32, y1: Int32)] = []

    /// The device rectangle shapes are clipped to (within 0…width × 0…height).
    private(set) var clip = IntRect(x: 0, y: 0, width: 0, height: 0)
    /// The current shape's box within the target, whatever the clip: the origin its edges are
    /// quantized from.
    private(set) var geometry = IntRect(x: 0, y: 0, width: 0, height: 0)
    /// The device pixels the current shape may touch (`geometry` within `clip`): the sweep's
    /// domain and the origin of the cell layout.
    private(set) var bounds = IntRect(x: 0, y: 0, width: 0, height: 0)
    /// Where `bounds` starts in `geometry`, in pixels.
    private var offsetX = 0, offsetY = 0

    init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        let rows = min(self.height, Rasterizer.bandHeight)
        let cellCount = max(1, (self.width + 2) * rows)
        let markCount = max(1, ((self.width + 1) / 64 + 1) * rows)
        // calloc: zeroed pages the kernel maps lazily, so an unused region costs nothing.
        cells = calloc(cellCount, MemoryLayout<Int32>.stride)!.bindMemory(to: Int32.self, capacity: cellCount)
        marks = calloc(markCount, MemoryLayout<UInt64>.stride)!.bindMemory(to: UInt64.self, capacity: markCount)
    }

    deinit {
        free(cells)
        free(marks)
    }

    /// Starts a new shape clipped to `clip` (intersected with the rasterizer's own size).
    /// The previous shape must have been swept completely (or discarded).
    func reset(clip: IntRect) {
        self.clip = clip.intersection(IntRect(x: 0, y: 0, width: width, height: height))
        geometry = IntRect(x: 0, y: 0, width: 0, height: 0)
        bounds = IntRect(x: 0, y: 0, width: 0, height: 0)
        isBanded = false
        bandRows = 0
        edges.removeAll(keepingCapacity: true)
    }

    /// Fixes the current shape's `geometry` (`box` within the target) and its region (the
    /// geometry within the clip), and lays the cells out over the region. Once per `reset`.
    func beginRegion(_ box: IntRect) -> (geometry: IntRect, region: IntRect) {
        geometry = box.intersection(IntRect(x: 0, y: 0, width: width, height: height))
        bounds = geometry.intersection(clip)
        offsetX = bounds.x &- geometry.x
        offsetY = bounds.y &- geometry.y
        cellStride = bounds.width + 2
        wordsPerRow = (bounds.width + 1) / 64 + 1
        isBanded = bounds.height > Rasterizer.bandHeight
        edges.removeAll(keepingCapacity: true)
        bandTop = 0
        bandRows = isBanded ? 0 : bounds.height
        return (geometry, bounds)
    }

    // MARK: - Edges

    /// Adds one edge in 24.8 fixed point relative to the geometry's origin, already clipped to
    /// `0…geometry.width·256 × 0…geometry.height·256`. Downward edges wind positively, upward
    /// ones negatively.
    ///
    /// All integer: the x where the edge crosses each row boundary, and the y where a row's
    /// piece crosses each cell boundary, advance by a quotient and a remainder (a DDA), so
    /// each costs an add and a compare instead of a multiply, a division or a rounding.
    /// Boundary crossings are shared by the pieces on both sides, so covers telescope exactly.
    func addFixedEdge(x0: Int, y0: Int, x1: Int, y1: Int) {
        if y0 == y1 { return }
        if isBanded {
            edges.append(
                (
                    Int32(truncatingIfNeeded: x0), Int32(truncatingIfNeeded: y0),
                    Int32(truncatingIfNeeded: x1), Int32(truncatingIfNeeded: y1)
                ))
            return
        }
        accumulate(x0: x0, y0: y0, x1: x1, y1: y1)
    }

    /// Accumulates the part of an edge (geometry coordinates) inside the current band's rows.
    private func accumulate(x0: Int, y0: Int, x1: Int, y1: Int) {
        var (xa, ya, xb, yb) = (x0, y0, x1, y1)
        var sign: Int32 = 1
        if ya > yb { swap(&xa, &xb); swap(&ya, &yb); sign = -1 }
        // Rows are the geometry's; the band holds rows offsetY + bandTop … of them.
        let edgeFirstRow = ya >> 8, edgeLastRow = (yb - 1) >> 8
        let bandFirstRow = offsetY &+ bandTop
        let firstRow = max(edgeFirstRow, bandFirstRow), lastRow = min(edgeLastRow, bandFirstRow &+ bandRows &- 1)
        guard firstRow <= lastRow else { return }
        let stride = cellStride, words = wordsPerRow

        if xa == xb {
            // Vertical: one cell per row, same sub-pixel x throughout.
            var cx = (xa >> 8) &- offsetX
            var twiceFx = Int32(xa & 255) << 1
            if cx >= bounds.width { return }  // right of the clip: affects nothing visible
            if cx < 0 { cx = 0; twiceFx = 0 }  // left of it: only its cover reaches the clip
            var rowCells = cells + (firstRow &- bandFirstRow) &* stride
            var rowMarks = marks + (firstRow &- bandFirstRow) &* words
            var top = max(ya, firstRow << 8)
            var row = firstRow
            while row <= lastRow {
                let bottom = min(yb, (row &+ 1) << 8)
                let cover = sign &* Int32(truncatingIfNeeded: bottom &- top)
                Rasterizer.addCell(rowCells, rowMarks, x: cx, cover: cover, area: cover &* twiceFx)
                top = bottom
                rowCells += stride
                rowMarks += words
                row &+= 1
            }
            return
        }

        var rowCells = cells + (firstRow &- bandFirstRow) &* stride
        var rowMarks = marks + (firstRow &- bandFirstRow) &* words
        let rowTop = firstRow << 8
        // x at row boundary y is xa + ⌊(dx·(y − ya) + dy/2) / dy⌋ (rounded to nearest); q and r
        // hold that quotient and remainder for the next boundary. An edge that began in an
        // earlier band starts at its crossing of this band's top, by the same formula. (One
        // call site for the row piece, so it is inlined once.)
        let dx = xb &- xa, dy = yb &- ya
        var (q, r) = Rasterizer.floorDivMod(dx &* (rowTop &+ 256 &- ya) &+ (dy >> 1), dy)
        let (lift, rem) = Rasterizer.floorDivMod(dx << 8, dy)
        var x = xa, fy = ya &- rowTop
        if firstRow > edgeFirstRow {
            x = xa &+ Rasterizer.floorDivMod(dx &* (rowTop &- ya) &+ (dy >> 1), dy).0
            fy = 0
        }
        var row = firstRow
        while row <= lastRow {
            let isLast = row == edgeLastRow
            let nextX = isLast ? xb : xa &+ q
            let nextFy = isLast ? yb &- (row << 8) : 256
            addRowPiece(rowCells, rowMarks, x0: x, fy0: fy, x1: nextX, fy1: nextFy, sign: sign)
            x = nextX
            fy = 0
            q &+= lift
            r &+= rem
            if r >= dy { r &-= dy; q &+= 1 }
            rowCells += stride
            rowMarks += words
            row &+= 1
        }
    }

    /// Makes the cells hold the band of region rows starting at `top` (a banded shape's
    /// cells are all zero between bands: the sweep clears them).
    private func accumulateBand(from top: Int) {
        bandTop = top
        bandRows = min(Rasterizer.bandHeight, bounds.height &- top)
        let bandTopY = (offsetY &+ top) << 8, bandBottomY = (offsetY &+ top &+ bandRows) << 8
        for e in edges {
            let y0 = Int(e.y0), y1 = Int(e.y1)
            if min(y0, y1) >= bandBottomY || max(y0, y1) <= bandTopY { continue }
            accumulate(x0: Int(e.x0), y0: y0, x1: Int(e.x1), y1: y1)
        }
    }

    /// One edge piece inside a single row: `fy0 < fy1` are offsets from the row's top
    /// (0…256); walks the cells from `x0` to `x1` (geometry coordinates). A piece ending
    /// exactly on a cell's left side belongs to the cell before (its sub-pixel x is 256 there).
    ///
    /// Cells left of the clip add only their cover, to its first column (each cell's area
    /// and the area it carries right sum to cover·512 in every pixel to its right); cells
    /// right of it affect nothing visible.
    @inline(__always)
    private func addRowPiece(
        _ rowCells: UnsafeMutablePointer<Int32>, _ rowMarks: UnsafeMutablePointer<UInt64>,
        x0: Int, fy0: Int, x1: Int, fy1: Int, sign: Int32
    ) {
        let low = min(x0, x1), high = max(x0, x1)
        if low >= (offsetX &+ bounds.width) << 8 { return }
        if high <= offsetX << 8 {
            let cover = sign &* Int32(truncatingIfNeeded: fy1 &- fy0)
            Rasterizer.addCell(rowCells, rowMarks, x: 0, cover: cover, area: 0)
            return
        }
        // Within the clip, or across one of its sides: each cell is placed (or, across a side,
        // folded or dropped) by `put`, which tests for the sides only when the piece crosses one.
        let columns = bounds.width, shift = offsetX
        let crossesSide = low < shift << 8 || high > (shift &+ columns) << 8
        let firstCell = low >> 8
        if high <= (firstCell &+ 1) << 8 {
            // Inside one cell (possibly touching its right side).
            let base = firstCell << 8
            let cover = sign &* Int32(truncatingIfNeeded: fy1 &- fy0)
            Rasterizer.put(
                rowCells, rowMarks, firstCell &- shift, columns, crossesSide, cover,
                cover &* Int32(truncatingIfNeeded: x0 &+ x1 &- base &- base))
            return
        }
        // Crosses cell boundaries: y at boundary b is fy0 + ⌊(|b − x0|·dy + dx/2) / dx⌋ with
        // dx = |x1 − x0| > 0, dy = fy1 − fy0 in 1…256 (small enough for 32-bit division).
        let dy = UInt32(truncatingIfNeeded: fy1 &- fy0)
        var y = fy0
        if x0 < x1 {
            let dx = UInt32(truncatingIfNeeded: x1 &- x0)
            var cell = x0 >> 8
            let lastCell = (x1 &- 1) >> 8
            var fx = x0 &- (cell << 8)
            let first = UInt32(truncatingIfNeeded: ((cell &+ 1) << 8) &- x0) &* dy &+ (dx >> 1)
            var q = first / dx, r = first % dx
            let step = dy << 8, lift = step / dx, rem = step % dx
            while cell < lastCell {
                let nextY = fy0 &+ Int(q)
                let cover = sign &* Int32(truncatingIfNeeded: nextY &- y)
                Rasterizer.put(
                    rowCells, rowMarks, cell &- shift, columns, crossesSide, cover,
                    cover &* Int32(truncatingIfNeeded: fx &+ 256))
                y = nextY
                fx = 0
                cell &+= 1
                q &+= lift
                r &+= rem
                if r >= dx { r &-= dx; q &+= 1 }
            }
            let cover = sign &* Int32(truncatingIfNeeded: fy1 &- y)
            Rasterizer.put(
                rowCells, rowMarks, cell &- shift, columns, crossesSide, cover,
                cover &* Int32(truncatingIfNeeded: fx &+ x1 &- (cell << 8)))
        } else {
            let dx = UInt32(truncatingIfNeeded: x0 &- x1)
            var cell = (x0 &- 1) >> 8
            let lastCell = x1 >> 8
            var fx = x0 &- (cell << 8)
            let first = UInt32(truncatingIfNeeded: fx) &* dy &+ (dx >> 1)
            var q = first / dx, r = first % dx
            let step = dy << 8, lift = step / dx, rem = step % dx
            while cell > lastCell {
                let nextY = fy0 &+ Int(q)
                let cover = sign &* Int32(truncatingIfNeeded: nextY &- y)
                Rasterizer.put(
                    rowCells, rowMarks, cell &- shift, columns, crossesSide, cover,
                    cover &* Int32(truncatingIfNeeded: fx))
                y = nextY
                fx = 256
                cell &-= 1
                q &+= lift
                r &+= rem
                if r >= dx { r &-= dx; q &+= 1 }
            }
            let cover = sign &* Int32(truncatingIfNeeded: fy1 &- y)
            Rasterizer.put(
                rowCells, rowMarks, cell &- shift, columns, crossesSide, cover,
                cover &* Int32(truncatingIfNeeded: fx &+ x1 &- (cell << 8)))
        }
    }

    /// Adds a cell at column `local` of the region (`columns` wide). When the piece crosses a
    /// side of the clip, a cell left of it adds only its cover to column 0 and one right of
    /// it nothing.
    @inline(__always)
    private static func put(
        _ rowCells: UnsafeMutablePointer<Int32>, _ rowMarks: UnsafeMutablePointer<UInt64>,
        _ local: Int, _ columns: Int, _ crossesSide: Bool, _ cover: Int32, _ area: Int32
    ) {
        if crossesSide {
            if local >= columns { return }
            if local < 0 {
                addCell(rowCells, rowMarks, x: 0, cover: cover, area: 0)
                return
            }
        }
        addCell(rowCells, rowMarks, x: local, cover: cover, area: area)
    }

    /// Adds a cell's cover (height crossed, ±0…256) and area (cover × twice the mean
    /// sub-pixel x inside the cell), and marks the cell.
    @inline(__always)
    private static func addCell(
        _ rowCells: UnsafeMutablePointer<Int32>, _ rowMarks: UnsafeMutablePointer<UInt64>,
        x: Int, cover: Int32, area: Int32
    ) {
        if cover == 0 { return }
        let p = rowCells + x
        p[0] &+= (cover << 9) &- area
        p[1] &+= area
        rowMarks[x >> 6] |= 1 &<< UInt64(truncatingIfNeeded: x & 63)
    }

    /// Quotient rounded towards −∞ and the matching remainder in `0..<divisor` (`divisor > 0`).
    @inline(__always)
    static func floorDivMod(_ value: Int, _ divisor: Int) -> (Int, Int) {
        let q = value / divisor, r = value % divisor
        return r < 0 ? (q &- 1, r &+ divisor) : (q, r)
    }

    // MARK: - Sweep

    /// Turns device row `y` of the accumulated shape into coverage spans (left to right,
    /// coverage never 0) and clears the row's cells. Every row of `bounds` must be swept
    /// once, top to bottom. `spans` must hold `maxSpansPerRow` entries.
    func sweep(row y: Int, rule: FillRule, into spans: UnsafeMutablePointer<CoverageSpan>) -> Int {
        var list = CoverageSpanList(spans)
        sweep(row: y, rule: rule, into: &list)
        return list.count
    }

    /// Hands device row `y` of the accumulated shape to `sink` as runs of equal coverage
    /// (left to right, coverage never 0) and clears the row's cells. Every row of `bounds`
    /// must be swept once, top to bottom. Inlined into each caller, so a sink that composites
    /// pixels runs fused with the sweep, without a span list in between.
    @inline(__always)
    func sweep<Sink: CoverageSink>(row y: Int, rule: FillRule, into sink: inout Sink) {
        let local = y &- bounds.y
        if local >= bandTop &+ bandRows { accumulateBand(from: local) }
        let rowCells = cells + (local &- bandTop) &* cellStride
        let rowMarks = marks + (local &- bandTop) &* wordsPerRow
        let origin = bounds.x
        let end = bounds.width
        let evenOdd = rule == .evenOdd
        var sum: Int32 = 0
        var runStart = 0
        for w in 0..<wordsPerRow {
            var word = rowMarks[w]
            if word == 0 { continue }
            rowMarks[w] = 0
            repeat {
                let i = (w << 6) | word.trailingZeroBitCount
                word &= word &- 1
                if i > runStart {
                    let c = Rasterizer.coverage(sum, evenOdd: evenOdd)
                    if c != 0 { sink.run(x: origin &+ runStart, length: i &- runStart, coverage: c) }
                }
                sum &+= rowCells[i]
                rowCells[i] = 0
                let c = Rasterizer.coverage(sum, evenOdd: evenOdd)
                if c != 0 && i < end { sink.run(x: origin &+ i, length: 1, coverage: c) }
                // The right neighbour may hold carried area without a mark of its own.
                sum &+= rowCells[i &+ 1]
                rowCells[i &+ 1] = 0
                runStart = i &+ 1
            } while word != 0
        }
        if end > runStart {
            let c = Rasterizer.coverage(sum, evenOdd: evenOdd)
            if c != 0 { sink.run(x: origin &+ runStart, length: end &- runStart, coverage: c) }
        }
    }

    /// Clears whatever the current shape accumulated, without producing spans.
    func discard() {
        for local in 0..<bandRows {
            let rowMarks = marks + local * wordsPerRow
            let rowCells = cells + local * cellStride
            for w in 0..<wordsPerRow where rowMarks[w] != 0 {
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
        geometry = IntRect(x: 0, y: 0, width: 0, height: 0)
        bounds = IntRect(x: 0, y: 0, width: 0, height: 0)
        edges.removeAll(keepingCapacity: true)
        bandRows = 0
        isBanded = false
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
