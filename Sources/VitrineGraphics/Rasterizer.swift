import CMemory

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An edge as the rasterizer keeps it: 24.8 fixed point from the geometry's origin, as added,
/// and whether it starts where the edge before it ended with nothing skipped between.
struct FixedEdge {
    var x0: Int32, y0: Int32, x1: Int32, y1: Int32
    var connected: Bool
}

/// Whether a shape's cells are written watching who writes them (`Rasterizer.watchesWriters`):
/// a type for each answer, so that the accumulation is compiled once for each and tests
/// nothing per cell.
protocol CellWatch { static var watchesWriters: Bool { get } }
enum WatchedCells: CellWatch { static var watchesWriters: Bool { true } }
enum UnwatchedCells: CellWatch { static var watchesWriters: Bool { false } }

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
/// The sweep applies the fill rule to a pixel's mean winding, which is the mean of the fill
/// rule only where the winding inside the pixel takes at most two adjacent values. Where
/// contours overlap or cross inside a pixel it does not (two copies of an edge give the pixel
/// full coverage, not its area), so the cells watch who writes them (`chainTag`): a pixel whose
/// edges cannot be shown to leave two windings, or whose row holds ends of horizontal edges
/// (events) that change the winding along it, is computed exactly from the shape's edges
/// (`Rasterizer+ExactCoverage.swift`). That is a handful of pixels per shape, a thin stroke's
/// two sides cost a cheap test per pixel, and every other pixel keeps the fast path. A shape
/// that is one convex contour (a rounded rectangle, an ellipse, a pie's wedge), or a stroke's
/// outline the stroker vouches for (`Stroker.windsAtMostOnce`: a convex contour's ring, an open
/// line's simple polygon), winds 0 or 1 everywhere, so its mean winding is always right: its
/// cells are written without watching who writes them (`watchesWriters`), which saves a chain
/// word a cell and every test of a pixel's writers. So is any other shape whose edges, all
/// kept before its first cell is written, are shown to wind 0 or 1 (`StripWindingCheck`: a
/// simple outline such as a ring's arrow, or contours nested with alternate windings).
///
/// Geometry enters through `Rasterizer+Path.swift`, which flattens, culls and clips to the
/// target. One shape per `reset`: its region is fixed when it begins.
final class Rasterizer {
    /// Size of the target this rasterizer serves (`serve(width:height:)`).
    private(set) var width: Int
    private(set) var height: Int

    /// Rows of cells the buffer holds: the height of a band.
    static let bandHeight = 64

    /// Cells a row holds beyond the region's width: the right neighbour of its last pixel,
    /// and what a grouped sweep reads past it (the rest of a group of eight and its carry).
    static let cellPadding = 8

    // State read on the per-edge and per-cell paths is `@exclusivity(unchecked)`: a rasterizer
    // serves one thread, no access to it overlaps another, and the runtime checks cost more
    // than the accumulation they guard (they were 3 % of the instructions of a frame of
    // translucent circles).

    /// Accumulation cells: the current band's rows of `cellStride` values (a pixel's right
    /// neighbour may be written when an edge sits on the region's right border, and a grouped
    /// sweep reads a row's cells eight at a time, up to seven past its last pixel and the
    /// carry after them: `cellPadding`).
    @exclusivity(unchecked) private(set) var cells: UnsafeMutablePointer<Int32>
    /// One bit per written cell, `wordsPerRow` words per row.
    @exclusivity(unchecked) private(set) var marks: UnsafeMutablePointer<UInt64>
    /// Per cell, valid while its mark is set: which edges wrote it (see `chainTag`), so a
    /// cell whose pixel the accumulated area may get wrong is found as it is written.
    @exclusivity(unchecked) private var chains: UnsafeMutablePointer<UInt64>
    /// Whether the current shape's cells record who writes them (`chains`) and its chains' ends
    /// (`events`): off for a shape that winds 0 or 1 everywhere (one convex contour, a stroke's
    /// ring or simple outline), whose pixels never need exact coverage (set by `beginRegion`;
    /// turned off before the first band when `windingCheck` finds a shape's edges wind so).
    @exclusivity(unchecked) private(set) var watchesWriters = true
    /// Whether a shape known to wind 0 or 1 everywhere (a convex contour, a stroke's ring or
    /// simple outline) is rasterized without watching its writers (on; tests turn it off to
    /// compare the two).
    var trustsWindsAtMostOnce = true
    /// One bit per cell whose coverage is computed exactly (`exactCoverage`), laid out as `marks`.
    @exclusivity(unchecked) private(set) var conflicts: UnsafeMutablePointer<UInt64>
    /// How many cells (and chains), and how many mark (and conflict) words, the buffers hold.
    private var cellCapacity = 0, markCapacity = 0
    @exclusivity(unchecked) private(set) var cellStride = 0
    @exclusivity(unchecked) private(set) var wordsPerRow = 0

    /// The region rows (from `bounds.y`) the cells hold now: `bandTop ..< bandTop + bandRows`.
    @exclusivity(unchecked) private(set) var bandTop = 0
    @exclusivity(unchecked) private(set) var bandRows = 0
    /// Whether the shape's edges are kept in `edges` and accumulated band by band, rather than
    /// as they arrive: a shape taller than a band, and every watched one (whatever its size and
    /// the clip), whose edges `windingCheck` then sees before its first cell is written.
    @exclusivity(unchecked) private var keepsEdges = false
    private let windingCheck = StripWindingCheck()
    /// The current shape's edges, as added: replayed band by band when kept (`keepsEdges`), and
    /// read back for the pair test of `chainAgain` and the few pixels computed exactly. Raw
    /// storage, so the slow paths of the accumulation read it without exclusivity checks; its
    /// capacity is kept from shape to shape.
    @exclusivity(unchecked) private(set) var edges: UnsafeMutablePointer<FixedEdge>
    @exclusivity(unchecked) private(set) var edgeCount = 0
    @exclusivity(unchecked) private var edgeCapacity = 256

    /// Where the last edge added ended: an edge that starts there, with nothing skipped in
    /// between, continues its chain.
    @exclusivity(unchecked) private var lastEndX = -1, lastEndY = -1
    @exclusivity(unchecked) private var chainBroken = true
    /// Where the current chain started, and the index of its start event (−1: none).
    @exclusivity(unchecked) private var chainStartX = -1, chainStartY = -1, chainStartEvent = -1
    /// Unmatched chain ends inside a row (x, y in geometry fixed point; +1 where a chain starts,
    /// −1 where it ends): where the winding left of a pixel may change within the pixel's row
    /// (a horizontal edge ends there). Sorted by row, then x, when the sweep begins.
    @exclusivity(unchecked) var events: [(x: Int32, y: Int32, delta: Int32)] = []
    @exclusivity(unchecked) private var eventsReady = false
    /// Per band row: whether an event lies inside it (its sweep then consults the events).
    let rowHasEvents = UnsafeMutablePointer<Bool>.allocate(capacity: Rasterizer.bandHeight)
    /// Per band row: whether a pixel of it is computed exactly (`conflicts`), until it is swept.
    let rowHasConflicts = UnsafeMutablePointer<Bool>.allocate(capacity: Rasterizer.bandHeight)
    /// For the exact pixels of the current band: per band row, the indices of the edges that
    /// cross it (`rowEdgeStart[r] ..< rowEdgeStart[r + 1]` of `rowEdgeList`), built on first use.
    @exclusivity(unchecked) var rowEdgeStart: [Int] = []
    @exclusivity(unchecked) var rowEdgeList: [Int32] = []
    @exclusivity(unchecked) var rowIndexIsBuilt = false
    /// The pieces of the band row whose exact pixels were computed last (−1: none yet).
    @exclusivity(unchecked) var exactPieces: [ExactRowPiece] = []
    @exclusivity(unchecked) var exactPiecesRow = -1
    /// Scratch for `exactCoverage` and `sweepWithEvents`, kept from pixel to pixel.
    @exclusivity(unchecked) var exactScratch = ExactCoverageScratch()
    @exclusivity(unchecked) var windingProfile = WindingProfile()
    /// Whether `accumulate` adds a row piece inside the clip itself (one cell, two, or a walk
    /// across more), rather than through `addRowPiece` (the same cells; tests turn it off to
    /// compare).
    var inlinesShortPieces = true
    /// The last pair of edges `windOppositely` looked at.
    @exclusivity(unchecked) private var pair = PairLines()
    /// A thin stroke's two sides, as `mark` meets them cell after cell: a cell whose word is
    /// `strokeSideWord` (the tag of one edge, its only writer) and that `strokeOtherSide` (the
    /// tag of an edge the pair test answered for every pixel) writes again takes that edge as
    /// its second chain, without a call. 0 for none (no writer's tag is 0).
    @exclusivity(unchecked) private var strokeSideWord: UInt64 = 0
    @exclusivity(unchecked) private var strokeOtherSide: UInt64 = 0

    /// The device rectangle shapes are clipped to (within 0…width × 0…height).
    @exclusivity(unchecked) private(set) var clip = IntRect(x: 0, y: 0, width: 0, height: 0)
    /// The current shape's box within the target, whatever the clip: the origin its edges are
    /// quantized from.
    @exclusivity(unchecked) private(set) var geometry = IntRect(x: 0, y: 0, width: 0, height: 0)
    /// The device pixels the current shape may touch (`geometry` within `clip`): the sweep's
    /// domain and the origin of the cell layout.
    @exclusivity(unchecked) private(set) var bounds = IntRect(x: 0, y: 0, width: 0, height: 0)
    /// Where `bounds` starts in `geometry`, in pixels.
    @exclusivity(unchecked) private(set) var offsetX = 0, offsetY = 0

    /// A rasterizer serving a `width × height` target.
    init(width: Int, height: Int) {
        (self.width, self.height) = (0, 0)
        (cells, chains) = Rasterizer.zeroed(cells: 1)
        (marks, conflicts) = Rasterizer.zeroed(words: 1)
        (cellCapacity, markCapacity) = (1, 1)
        edges = UnsafeMutablePointer<FixedEdge>.allocate(capacity: edgeCapacity)
        rowHasEvents.initialize(repeating: false, count: Rasterizer.bandHeight)
        rowHasConflicts.initialize(repeating: false, count: Rasterizer.bandHeight)
        serve(width: width, height: height)
    }

    /// The calling thread's rasterizer. Every context drawing on a thread shares it (one shape
    /// is rasterized at a time): its cells are the largest buffers a context would otherwise
    /// keep for itself, 1.4 MB at 1920 pixels wide and 2.9 MB at 3840.
    static var ofThisThread: Rasterizer { perThread.value }
    private static let perThread = ThreadLocal { Rasterizer(width: 0, height: 0) }

    /// Makes the rasterizer serve a `width × height` target from the next `reset` on. The
    /// buffers grow to fit a band of its rows and never shrink: a thread's rasterizer is as
    /// large as the widest target drawn there.
    func serve(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        let rows = min(self.height, Rasterizer.bandHeight)
        let cellCount = (self.width + Rasterizer.cellPadding) * rows
        let markCount = ((self.width + 1) / 64 + 1) * rows
        if cellCount > cellCapacity {
            free(cells)
            free(chains)
            (cells, chains) = Rasterizer.zeroed(cells: cellCount)
            cellCapacity = cellCount
        }
        if markCount > markCapacity {
            free(marks)
            free(conflicts)
            (marks, conflicts) = Rasterizer.zeroed(words: markCount)
            markCapacity = markCount
        }
    }

    // calloc: zeroed pages the kernel maps lazily, so an unused region costs nothing (the sweep
    // leaves every cell and mark zero again).
    private static func zeroed(cells count: Int) -> (UnsafeMutablePointer<Int32>, UnsafeMutablePointer<UInt64>) {
        (
            calloc(count, MemoryLayout<Int32>.stride)!.bindMemory(to: Int32.self, capacity: count),
            calloc(count, MemoryLayout<UInt64>.stride)!.bindMemory(to: UInt64.self, capacity: count)
        )
    }

    private static func zeroed(words count: Int) -> (UnsafeMutablePointer<UInt64>, UnsafeMutablePointer<UInt64>) {
        (
            calloc(count, MemoryLayout<UInt64>.stride)!.bindMemory(to: UInt64.self, capacity: count),
            calloc(count, MemoryLayout<UInt64>.stride)!.bindMemory(to: UInt64.self, capacity: count)
        )
    }

    deinit {
        free(cells)
        free(marks)
        free(chains)
        free(conflicts)
        edges.deallocate()
        rowHasEvents.deallocate()
        rowHasConflicts.deallocate()
    }

    /// Starts a new shape clipped to `clip` (intersected with the rasterizer's own size).
    /// The previous shape must have been swept completely (or discarded).
    func reset(clip: IntRect) {
        self.clip = clip.intersection(IntRect(x: 0, y: 0, width: width, height: height))
        geometry = IntRect(x: 0, y: 0, width: 0, height: 0)
        bounds = IntRect(x: 0, y: 0, width: 0, height: 0)
        keepsEdges = false
        bandRows = 0
        resetChains()
    }

    /// Forgets the current shape's edges, chains and events.
    private func resetChains() {
        edgeCount = 0
        pair = PairLines()
        (strokeSideWord, strokeOtherSide) = (0, 0)
        events.removeAll(keepingCapacity: true)
        eventsReady = false
        lastEndX = -1
        lastEndY = -1
        chainBroken = true
        chainStartEvent = -1
        rowIndexIsBuilt = false
    }

    /// Fixes the current shape's `geometry` (`box` within the target) and its region (the
    /// geometry within the clip), and lays the cells out over the region. Once per `reset`.
    /// `windsAtMostOnce`: every point of the shape winds 0 or 1 (one convex contour, a stroke's
    /// ring or simple outline), so its accumulated area is exact everywhere and its writers are
    /// not watched.
    func beginRegion(_ box: IntRect, windsAtMostOnce: Bool = false) -> (geometry: IntRect, region: IntRect) {
        watchesWriters = !(windsAtMostOnce && trustsWindsAtMostOnce)
        geometry = box.intersection(IntRect(x: 0, y: 0, width: width, height: height))
        bounds = geometry.intersection(clip)
        offsetX = bounds.x &- geometry.x
        offsetY = bounds.y &- geometry.y
        cellStride = bounds.width &+ Rasterizer.cellPadding
        wordsPerRow = (bounds.width + 1) / 64 + 1
        keepsEdges =
            bounds.height > Rasterizer.bandHeight
            || watchesWriters && trustsWindsAtMostOnce
        resetChains()
        bandTop = 0
        bandRows = keepsEdges ? 0 : bounds.height
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
        // An unwatched shape's edges form no chains (no cell needs to know its writers).
        var connected = false
        if watchesWriters {
            connected = x0 == lastEndX && y0 == lastEndY && !chainBroken
            if !connected {
                endChain()
                chainStartX = x0
                chainStartY = y0
                chainStartEvent = addEvent(x: x0, y: y0, delta: 1)
            }
            lastEndX = x1
            lastEndY = y1
            chainBroken = false
        }
        if edgeCount == edgeCapacity {
            let grown = UnsafeMutablePointer<FixedEdge>.allocate(capacity: edgeCapacity * 2)
            grown.moveInitialize(from: edges, count: edgeCount)
            edges.deallocate()
            edges = grown
            edgeCapacity *= 2
        }
        let index = edgeCount
        (edges + index).initialize(
            to: FixedEdge(
                x0: Int32(truncatingIfNeeded: x0), y0: Int32(truncatingIfNeeded: y0),
                x1: Int32(truncatingIfNeeded: x1), y1: Int32(truncatingIfNeeded: y1), connected: connected))
        edgeCount = index &+ 1
        if keepsEdges { return }
        accumulate(index: index)
    }

    /// Tells the rasterizer that geometry was skipped since the last edge (culled outside the
    /// clip), so the next edge starts a new chain even if it starts where the last one ended:
    /// chains then do not depend on the clip.
    func breakChain() { chainBroken = true }

    /// Records the end of the current chain as an event, unless it closes back on its start
    /// (then the start's event goes too: the winding left of any pixel does not change there).
    func endChain() {
        guard lastEndX >= 0 else { return }
        if lastEndX == chainStartX && lastEndY == chainStartY {
            if chainStartEvent >= 0 { events[chainStartEvent].delta = 0 }
        } else {
            _ = addEvent(x: lastEndX, y: lastEndY, delta: -1)
        }
        lastEndX = -1
        lastEndY = -1
    }

    /// Adds an event strictly inside a row (on a row boundary it changes nothing); its index, or −1.
    private func addEvent(x: Int, y: Int, delta: Int32) -> Int {
        if y & 255 == 0 { return -1 }
        events.append((Int32(truncatingIfNeeded: x), Int32(truncatingIfNeeded: y), delta))
        return events.count &- 1
    }

    /// Accumulates the part of an edge (geometry coordinates) inside the current band's rows,
    /// by the accumulation compiled for whether its cells' writers are watched.
    private func accumulate(index: Int) {
        if watchesWriters {
            accumulate(index: index, WatchedCells.self)
        } else {
            accumulate(index: index, UnwatchedCells.self)
        }
    }

    private func accumulate<W: CellWatch>(index: Int, _ watch: W.Type) {
        let e = edges[index]
        var (xa, ya, xb, yb) = (Int(e.x0), Int(e.y0), Int(e.x1), Int(e.y1))
        var sign: Int32 = 1
        if ya > yb { swap(&xa, &xb); swap(&ya, &yb); sign = -1 }
        let writer = Rasterizer.chainTag(index: index, connected: e.connected, sign: sign)
        // Rows are the geometry's; the band holds rows offsetY + bandTop … of them.
        let edgeFirstRow = ya >> 8, edgeLastRow = (yb - 1) >> 8
        let bandFirstRow = offsetY &+ bandTop
        let firstRow = max(edgeFirstRow, bandFirstRow), lastRow = min(edgeLastRow, bandFirstRow &+ bandRows &- 1)
        guard firstRow <= lastRow else { return }
        let stride = cellStride, words = wordsPerRow

        if xa == xb {
            // Vertical: one cell per row, same sub-pixel x throughout.
            let cx = (xa >> 8) &- offsetX
            let twiceFx = Int32(xa & 255) << 1
            if cx >= bounds.width { return }  // right of the clip: affects nothing visible
            let isLeft = cx < 0  // left of it: only its cover reaches the clip
            var rowCells = cells + (firstRow &- bandFirstRow) &* stride
            var rowMarks = marks + (firstRow &- bandFirstRow) &* words
            var rowChains = chains + (firstRow &- bandFirstRow) &* stride
            var top = max(ya, firstRow << 8)
            var row = firstRow
            while row <= lastRow {
                let bottom = min(yb, (row &+ 1) << 8)
                let cover = sign &* Int32(truncatingIfNeeded: bottom &- top)
                if isLeft {
                    addFold(rowCells, rowMarks, cover: cover)
                } else {
                    addCell(rowCells, rowMarks, rowChains, x: cx, cover: cover, area: cover &* twiceFx, writer, watch)
                }
                top = bottom
                rowCells += stride
                rowMarks += words
                rowChains += stride
                row &+= 1
            }
            return
        }

        var rowCells = cells + (firstRow &- bandFirstRow) &* stride
        var rowMarks = marks + (firstRow &- bandFirstRow) &* words
        var rowChains = chains + (firstRow &- bandFirstRow) &* stride
        let rowTop = firstRow << 8
        // x at row boundary y is xa + ⌊(dx·(y − ya) + dy/2) / dy⌋ (rounded to nearest); nextX
        // and r hold that x and the division's remainder for the next boundary. An edge that
        // began in an earlier band starts at its crossing of this band's top, by the same
        // formula.
        let dx = xb &- xa, dy = yb &- ya
        let (q, firstRemainder) = Rasterizer.floorDivMod(dx &* (rowTop &+ 256 &- ya) &+ (dy >> 1), dy)
        var r = firstRemainder
        let (lift, rem) = Rasterizer.floorDivMod(dx << 8, dy)
        var x = xa, fy = ya &- rowTop
        if firstRow > edgeFirstRow {
            x = xa &+ Rasterizer.floorDivMod(dx &* (rowTop &- ya) &+ (dy >> 1), dy).0
            fy = 0
        }
        var row = firstRow
        // The clip's sides, read once: stores through the cell pointers would otherwise make
        // the compiler read them again for every row. (Without `inlinesShortPieces`, no piece
        // counts as inside them.)
        let lastColumn = bounds.width, shift = offsetX
        let left = inlinesShortPieces ? shift << 8 : Int.max, right = (shift &+ lastColumn) << 8
        // Whether every piece of the edge lies strictly inside the clip's sides (most edges).
        let inside = min(xa, xb) > left && max(xa, xb) < right
        // The rows the edge crosses to their bottom, then its last row (if in the band): the
        // loop need not tell them apart.
        var nextX = xa &+ q
        if inside && lift >= -256 && lift < 256 {
            // A steep edge inside the clip's sides (most edges): a loop of its own.
            let origin = shift << 8, fullRows = max(0, min(lastRow, edgeLastRow &- 1) &- row &+ 1)
            let endsInBand = edgeLastRow <= lastRow
            accumulateSteep(
                rowCells, rowMarks, rowChains, stride: stride, words: words, rows: fullRows,
                x: x &- origin, fy: fy, nextX: nextX &- origin, remainder: r, lift: lift, rem: rem, dy: dy,
                lastX: endsInBand ? xb &- origin : 0, lastFy: endsInBand ? yb &- (edgeLastRow << 8) : -1,
                sign: sign, writer, watch)
            return
        }
        while row <= min(lastRow, edgeLastRow &- 1) {
            if row &+ 2 <= lastRow {
                // Each row's cells lie a row of the band apart, beyond what the hardware
                // prefetcher follows: ask for the ones two rows down where the edge will be.
                let ahead = min(max(((nextX &+ lift) >> 8) &- shift, 0), lastColumn)
                vitrine_prefetch_for_write(rowCells + (2 &* stride &+ ahead))
                if W.watchesWriters { vitrine_prefetch_for_write(rowChains + (2 &* stride &+ ahead)) }
            }
            addPiece(
                rowCells, rowMarks, rowChains, x0: x, fy0: fy, x1: nextX, fy1: 256, sign: sign, writer, watch,
                left: left, right: right, inside: inside, columns: lastColumn, shift: shift)
            x = nextX
            fy = 0
            nextX &+= lift
            r &+= rem
            if r >= dy { r &-= dy; nextX &+= 1 }
            rowCells += stride
            rowMarks += words
            rowChains += stride
            row &+= 1
        }
        if row == edgeLastRow && row <= lastRow {
            addPiece(
                rowCells, rowMarks, rowChains, x0: x, fy0: fy, x1: xb, fy1: yb &- (row << 8), sign: sign, writer, watch,
                left: left, right: right, inside: inside, columns: lastColumn, shift: shift)
        }
    }

    /// The rows of a steep edge (at most a pixel across per row) inside the clip's sides, from
    /// the one whose cells start at `rowCells`: `rows` whole rows, then the edge's last row
    /// when it ends in the band (`lastFy` ≥ 0, where it ends: `lastX`). Each row piece lies in
    /// one cell or crosses one boundary. Positions are in the region's fixed point (no shift to
    /// carry); `x`, `nextX`, `remainder` and the steps are `accumulate`'s DDA. A function of
    /// its own: inside `accumulate` the loop kept the other cases' state in registers and
    /// spilled it row after row.
    @inline(never)
    private func accumulateSteep<W: CellWatch>(
        _ rowCells: UnsafeMutablePointer<Int32>, _ rowMarks: UnsafeMutablePointer<UInt64>,
        _ rowChains: UnsafeMutablePointer<UInt64>, stride: Int, words: Int, rows: Int,
        x: Int, fy: Int, nextX: Int, remainder: Int, lift: Int, rem: Int, dy: Int,
        lastX: Int, lastFy: Int, sign: Int32, _ writer: UInt64, _ watch: W.Type
    ) {
        var (rowCells, rowMarks, rowChains) = (rowCells, rowMarks, rowChains)
        var (x, fy, nextX, r) = (x, fy, nextX, remainder)
        for _ in 0..<rows {
            // Each row's cells lie a row of the band apart, beyond what the hardware prefetcher
            // follows: ask for the ones two rows down where the edge will be (a prefetch never
            // faults, so past the band's last row or outside the region is harmless).
            let ahead = 2 &* stride &+ (nextX &+ lift) >> 8
            vitrine_prefetch_for_write(rowCells + ahead)
            // Unwatched, chain words are not written: no line of them to fetch.
            if W.watchesWriters { vitrine_prefetch_for_write(rowChains + ahead) }
            addSteepPiece(
                rowCells, rowMarks, rowChains, x0: x, fy0: fy, x1: nextX, fy1: 256, sign: sign, writer, watch, shift: 0)
            x = nextX
            fy = 0
            nextX &+= lift
            r &+= rem
            if r >= dy { r &-= dy; nextX &+= 1 }
            rowCells += stride
            rowMarks += words
            rowChains += stride
        }
        if lastFy >= 0 {
            addSteepPiece(
                rowCells, rowMarks, rowChains, x0: x, fy0: fy, x1: lastX, fy1: lastFy, sign: sign, writer, watch,
                shift: 0)
        }
    }

    /// One row piece of `accumulate`: the cells `addRowPiece` adds for it, with the call and the
    /// clip's tests left out where the piece lies inside the clip (`left`, `right`: its sides in
    /// geometry fixed point; `inside`: the whole edge does).
    @inline(__always)
    private func addPiece<W: CellWatch>(
        _ rowCells: UnsafeMutablePointer<Int32>, _ rowMarks: UnsafeMutablePointer<UInt64>,
        _ rowChains: UnsafeMutablePointer<UInt64>,
        x0: Int, fy0: Int, x1: Int, fy1: Int, sign: Int32, _ writer: UInt64, _ watch: W.Type,
        left: Int, right: Int, inside: Bool, columns lastColumn: Int, shift: Int
    ) {
        let low = min(x0, x1), high = max(x0, x1), cell = low >> 8
        if !(inside || low >= left && high <= right && high > left && low < right) {
            // On a side of the clip (folded into the first column, or dropped).
            addRowPiece(rowCells, rowMarks, rowChains, x0: x0, fy0: fy0, x1: x1, fy1: fy1, sign: sign, writer, watch)
        } else if high > (cell &+ 2) << 8 {
            // Across three cells or more, inside the clip.
            walkCells(
                rowCells, rowMarks, rowChains, x0: x0, fy0: fy0, x1: x1, fy1: fy1, sign: sign, writer, watch,
                columns: lastColumn, shift: shift, crossesSide: false)
        } else {
            addSteepPiece(
                rowCells, rowMarks, rowChains, x0: x0, fy0: fy0, x1: x1, fy1: fy1, sign: sign, writer, watch,
                shift: shift)
        }
    }

    /// A row piece inside the clip's sides that lies in one cell or crosses one cell boundary:
    /// the cells `addRowPiece` would add, without the call.
    @inline(__always)
    private func addSteepPiece<W: CellWatch>(
        _ rowCells: UnsafeMutablePointer<Int32>, _ rowMarks: UnsafeMutablePointer<UInt64>,
        _ rowChains: UnsafeMutablePointer<UInt64>,
        x0: Int, fy0: Int, x1: Int, fy1: Int, sign: Int32, _ writer: UInt64, _ watch: W.Type, shift: Int
    ) {
        let low = min(x0, x1), high = max(x0, x1), cell = low >> 8
        if high <= (cell &+ 1) << 8 {
            // A steep piece inside one cell of the clip (most rows of most edges): the cell
            // `addRowPiece` would add, without the call.
            let cover = sign &* Int32(truncatingIfNeeded: fy1 &- fy0)
            let twiceX = Int32(truncatingIfNeeded: x0 &+ x1 &- (cell << 9))
            addCell(rowCells, rowMarks, rowChains, x: cell &- shift, cover: cover, area: cover &* twiceX, writer, watch)
        } else {
            // Across one cell boundary (a steep edge every few rows): the two cells
            // `addRowPiece` would add, with the height where the piece crosses the boundary
            // rounded as it rounds it.
            let boundary = (cell &+ 1) << 8
            let dx = UInt32(truncatingIfNeeded: high &- low), height = UInt32(truncatingIfNeeded: fy1 &- fy0)
            let crossing =
                (UInt32(truncatingIfNeeded: x0 < x1 ? boundary &- x0 : x0 &- boundary) &* height &+ (dx >> 1)) / dx
            let first = sign &* Int32(truncatingIfNeeded: crossing)
            let second = sign &* Int32(truncatingIfNeeded: height) &- first
            let local = cell &- shift
            if x0 < x1 {
                addCell(
                    rowCells, rowMarks, rowChains, x: local, cover: first,
                    area: first &* Int32(truncatingIfNeeded: x0 &- (cell << 8) &+ 256), writer, watch)
                addCell(
                    rowCells, rowMarks, rowChains, x: local &+ 1, cover: second,
                    area: second &* Int32(truncatingIfNeeded: x1 &- boundary), writer, watch)
            } else {
                addCell(
                    rowCells, rowMarks, rowChains, x: local &+ 1, cover: first,
                    area: first &* Int32(truncatingIfNeeded: x0 &- boundary), writer, watch)
                addCell(
                    rowCells, rowMarks, rowChains, x: local, cover: second,
                    area: second &* Int32(truncatingIfNeeded: x1 &- (cell << 8) &+ 256), writer, watch)
            }
        }
    }

    /// Makes the cells hold the band of region rows starting at `top` (a kept shape's
    /// cells are all zero between bands: the sweep clears them).
    private func accumulateBand(from top: Int) {
        // No band yet: the shape's edges are all in, and none of its cells is written.
        if bandRows == 0 { stopWatchingIfWindsAtMostOnce() }
        bandTop = top
        bandRows = min(Rasterizer.bandHeight, bounds.height &- top)
        let bandTopY = (offsetY &+ top) << 8, bandBottomY = (offsetY &+ top &+ bandRows) << 8
        for index in 0..<edgeCount {
            let y0 = Int(edges[index].y0), y1 = Int(edges[index].y1)
            if min(y0, y1) >= bandBottomY || max(y0, y1) <= bandTopY { continue }
            accumulate(index: index)
        }
    }

    /// Before a shape's first cell: a watched shape whose edges wind 0 or 1 everywhere (a
    /// simple outline: `StripWindingCheck`) is accumulated without watching its writers, and
    /// its chains' ends are forgotten (its mean winding is exact at every pixel).
    private func stopWatchingIfWindsAtMostOnce() {
        guard watchesWriters && trustsWindsAtMostOnce else { return }
        guard windingCheck.windsAtMostOnce(edges, count: edgeCount) else { return }
        watchesWriters = false
        events.removeAll(keepingCapacity: true)
        eventsReady = true
    }

    /// One edge piece inside a single row: `fy0 < fy1` are offsets from the row's top
    /// (0…256); walks the cells from `x0` to `x1` (geometry coordinates). A piece ending
    /// exactly on a cell's left side belongs to the cell before (its sub-pixel x is 256 there).
    ///
    /// Cells left of the clip add only their cover, to its first column (each cell's area
    /// and the area it carries right sum to cover·512 in every pixel to its right); cells
    /// right of it affect nothing visible.
    @inline(__always)
    private func addRowPiece<W: CellWatch>(
        _ rowCells: UnsafeMutablePointer<Int32>, _ rowMarks: UnsafeMutablePointer<UInt64>,
        _ rowChains: UnsafeMutablePointer<UInt64>,
        x0: Int, fy0: Int, x1: Int, fy1: Int, sign: Int32, _ writer: UInt64, _ watch: W.Type
    ) {
        let low = min(x0, x1), high = max(x0, x1)
        if low >= (offsetX &+ bounds.width) << 8 { return }
        if high <= offsetX << 8 {
            addFold(rowCells, rowMarks, cover: sign &* Int32(truncatingIfNeeded: fy1 &- fy0))
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
            put(
                rowCells, rowMarks, rowChains, firstCell &- shift, columns, crossesSide, writer, watch, cover,
                cover &* Int32(truncatingIfNeeded: x0 &+ x1 &- base &- base))
            return
        }
        walkCells(
            rowCells, rowMarks, rowChains, x0: x0, fy0: fy0, x1: x1, fy1: fy1, sign: sign, writer, watch,
            columns: columns, shift: shift, crossesSide: crossesSide)
    }

    /// The cells of a row piece crossing at least one cell boundary, from `x0` to `x1` (`columns`
    /// wide from geometry column `shift`; tested for the clip's sides only when `crossesSide`:
    /// there, as `put` places them, a cell left of the clip adds only its cover to the first
    /// column and one right of it nothing).
    ///
    /// Each cell adds its value and the area the cell before it (in the walk's direction)
    /// carries into it at once. Added a cell at a time (`addCell`), each cell's two values went
    /// out as one 8-byte store that the next cell's load half overlapped, which the processor
    /// cannot forward: every cell of a flat piece waited for the one before to reach the cache.
    @inline(__always)
    private func walkCells<W: CellWatch>(
        _ rowCells: UnsafeMutablePointer<Int32>, _ rowMarks: UnsafeMutablePointer<UInt64>,
        _ rowChains: UnsafeMutablePointer<UInt64>,
        x0: Int, fy0: Int, x1: Int, fy1: Int, sign: Int32, _ writer: UInt64, _ watch: W.Type,
        columns: Int, shift: Int, crossesSide: Bool
    ) {
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
            let (lift, rem) = Rasterizer.stepAcrossCells(dy: dy, dx: dx, cells: lastCell &- cell)
            // The area the cell before carries into this one.
            var carried: Int32 = 0
            while true {
                let isLast = cell == lastCell
                let nextY = isLast ? fy1 : fy0 &+ Int(q)
                let cover = sign &* Int32(truncatingIfNeeded: nextY &- y)
                let area = cover &* Int32(truncatingIfNeeded: isLast ? fx &+ x1 &- (cell << 8) : fx &+ 256)
                let local = cell &- shift
                if crossesSide && local >= columns { return }
                if crossesSide && local < 0 {
                    addFold(rowCells, rowMarks, cover: cover)
                    carried = 0
                } else {
                    rowCells[local] &+= (cover << 9) &- area &+ carried
                    carried = area
                    mark(rowCells, rowMarks, rowChains, x: local, writer, watch)
                }
                if isLast {
                    if carried != 0 { rowCells[local &+ 1] &+= carried }
                    return
                }
                y = nextY
                fx = 0
                cell &+= 1
                q &+= lift
                r &+= rem
                if r >= dx { r &-= dx; q &+= 1 }
            }
        } else {
            let dx = UInt32(truncatingIfNeeded: x0 &- x1)
            var cell = (x0 &- 1) >> 8
            let lastCell = x1 >> 8
            var fx = x0 &- (cell << 8)
            let first = UInt32(truncatingIfNeeded: fx) &* dy &+ (dx >> 1)
            var q = first / dx, r = first % dx
            let (lift, rem) = Rasterizer.stepAcrossCells(dy: dy, dx: dx, cells: cell &- lastCell)
            // Walking left, a cell's own value waits to be added with the area the next cell
            // (to its left) carries into it; `pending` is 0 when there is none.
            var pending: Int32 = 0
            while true {
                let isLast = cell == lastCell
                let nextY = isLast ? fy1 : fy0 &+ Int(q)
                let cover = sign &* Int32(truncatingIfNeeded: nextY &- y)
                let area = cover &* Int32(truncatingIfNeeded: isLast ? fx &+ x1 &- (cell << 8) : fx)
                let local = cell &- shift
                if crossesSide && local < 0 {
                    // Left of the clip: the cell to its right, if any, takes what it waited for
                    // alone, and every cell from here on folds.
                    if pending != 0 { rowCells[local &+ 1] &+= pending }
                    pending = 0
                    addFold(rowCells, rowMarks, cover: cover)
                } else if !(crossesSide && local >= columns) {
                    rowCells[local &+ 1] &+= pending &+ area
                    pending = (cover << 9) &- area
                    mark(rowCells, rowMarks, rowChains, x: local, writer, watch)
                }
                if isLast {
                    if pending != 0 { rowCells[local] &+= pending }
                    return
                }
                y = nextY
                fx = 256
                cell &-= 1
                q &+= lift
                r &+= rem
                if r >= dx { r &-= dx; q &+= 1 }
            }
        }
    }

    /// The rise of a row piece across one whole cell, as quotient and remainder of
    /// `dy · 256 / dx`; only a piece crossing more than two cells steps across a whole one, so
    /// the division is skipped for the others (most pieces of most edges).
    @inline(__always)
    private static func stepAcrossCells(dy: UInt32, dx: UInt32, cells: Int) -> (UInt32, UInt32) {
        if cells < 2 { return (0, 0) }
        let step = dy << 8
        return (step / dx, step % dx)
    }

    /// Adds a cell at column `local` of the region (`columns` wide). When the piece crosses a
    /// side of the clip, a cell left of it adds only its cover to column 0 and one right of
    /// it nothing.
    @inline(__always)
    private func put<W: CellWatch>(
        _ rowCells: UnsafeMutablePointer<Int32>, _ rowMarks: UnsafeMutablePointer<UInt64>,
        _ rowChains: UnsafeMutablePointer<UInt64>,
        _ local: Int, _ columns: Int, _ crossesSide: Bool, _ writer: UInt64, _ watch: W.Type, _ cover: Int32,
        _ area: Int32
    ) {
        if crossesSide {
            if local >= columns { return }
            if local < 0 {
                addFold(rowCells, rowMarks, cover: cover)
                return
            }
        }
        addCell(rowCells, rowMarks, rowChains, x: local, cover: cover, area: area, writer, watch)
    }

    /// Adds a cell's cover (height crossed, ±0…256) and area (cover × twice the mean
    /// sub-pixel x inside the cell), and marks the cell. The first writer of a cell leaves its
    /// chain tag; a later one goes through `chainAgain`.
    @inline(__always)
    private func addCell<W: CellWatch>(
        _ rowCells: UnsafeMutablePointer<Int32>, _ rowMarks: UnsafeMutablePointer<UInt64>,
        _ rowChains: UnsafeMutablePointer<UInt64>,
        x: Int, cover: Int32, area: Int32, _ writer: UInt64, _ watch: W.Type
    ) {
        // A piece of no height still writes the cell: rounded flat, it is a horizontal
        // boundary inside the pixel, which the chains must see.
        let p = rowCells + x
        p[0] &+= (cover << 9) &- area
        p[1] &+= area
        mark(rowCells, rowMarks, rowChains, x: x, writer, watch)
    }

    /// Marks the cell at `x` as written by `writer` (`addCell` without the values); where
    /// writers are not watched (`W`), only as written.
    @inline(__always)
    private func mark<W: CellWatch>(
        _ rowCells: UnsafeMutablePointer<Int32>, _ rowMarks: UnsafeMutablePointer<UInt64>,
        _ rowChains: UnsafeMutablePointer<UInt64>, x: Int, _ writer: UInt64, _ watch: W.Type
    ) {
        let bit: UInt64 = 1 &<< UInt64(truncatingIfNeeded: x & 63)
        let word = rowMarks[x >> 6]
        if !W.watchesWriters {
            rowMarks[x >> 6] = word | bit
            return
        }
        let chain = rowChains + x
        if word & bit == 0 {
            rowMarks[x >> 6] = word | bit
            chain.pointee = writer
        } else if chain.pointee == strokeSideWord && writer == strokeOtherSide {
            chain.pointee = Rasterizer.withSecondChain(of: writer, strokeSideWord)
        } else {
            chainAgain(chain, rowCells, rowMarks, x: x, writer)
        }
    }

    /// Cover from left of the clip, folded into the region's first column: not a writer of
    /// that pixel (it lies outside it), so its chain is left empty (0) if it was not written.
    @inline(__always)
    private func addFold(
        _ rowCells: UnsafeMutablePointer<Int32>, _ rowMarks: UnsafeMutablePointer<UInt64>, cover: Int32
    ) {
        if cover == 0 { return }
        rowCells[0] &+= cover << 9
        let word = rowMarks[0]
        if word & 1 == 0 {
            rowMarks[0] = word | 1
            chains[rowCells - cells] = 0
        }
    }

    // MARK: - Chains

    /// A cell's chain word: bits 6–31 the index of the last edge of its chain of writers,
    /// bits 0–1 whether that chain has a downward and an upward edge, bits 2–3 how many edges
    /// it has (1, 2, 3 or more); bits 34–63 the index (plus one, 0 for none) of the last edge
    /// of a second chain, bits 32–33 how many edges that has (1 or 2; 3 for an edge sharing
    /// an end with the first chain's only edge); bit 4 a conflict;
    /// bit 5 (in a writer's own tag) when the edge continues the one before it.
    ///
    /// The accumulated area is exact where the winding inside a pixel takes at most two
    /// adjacent values (k and k + 1: then the fill rule of the mean is the mean of the fill
    /// rule). The winding changes only across the edges inside the pixel (its writers), whose
    /// pieces cross it from side to side: an edge ending inside continues as another writer,
    /// or as a horizontal edge, which the events catch. Two points of the pixel differ by the
    /// signed crossings of the segment between them, so the pixel is right when its writers
    /// are:
    /// - a chain: one edge; two consecutive edges (a segment crosses a two-piece polyline at
    ///   most twice, in opposite directions); or consecutive edges all going down or all
    ///   going up (a graph x(y), which a segment crosses with net −1, 0 or +1);
    /// - two chains, the second of one or two edges, where every edge of one crosses no edge
    ///   of the other inside the pixel and winds opposite to it across it (`windOppositely`).
    ///   The chains cut the pixel into three parts, the middle one reached from the outer two
    ///   across one edge of each (along the shortest segment between the chains), and the
    ///   test says those two crossings change the winding in opposite directions, so the
    ///   outer parts agree. A thin stroke's two sides are such a pair.
    /// "Consecutive" needs the edges adjacent in the path, with nothing between (a horizontal
    /// edge, geometry skipped outside the clip would cross the pixel unseen). Anything else
    /// is a conflict, and its pixel is computed exactly (`exactCoverage`).
    @inline(__always)
    static func chainTag(index: Int, connected: Bool, sign: Int32) -> UInt64 {
        (UInt64(truncatingIfNeeded: index) << 6) | (connected ? 32 : 0) | 4 | (sign > 0 ? 1 : 2)
    }

    static let conflictTag: UInt64 = 16

    /// The word of a cell whose one chain is `word` (no second one) once the edge of tag
    /// `writer` starts its second chain, of one edge.
    @inline(__always)
    static func withSecondChain(of writer: UInt64, _ word: UInt64) -> UInt64 {
        ((writer >> 6 & 0x3FF_FFFF) &+ 1) << 34 | (1 << 32) | word
    }

    /// A second or later writer of a cell: extends one of the cell's chains, starts its second
    /// one, or marks a conflict.
    @inline(never)
    private func chainAgain(
        _ chain: UnsafeMutablePointer<UInt64>, _ rowCells: UnsafeMutablePointer<Int32>,
        _ rowMarks: UnsafeMutablePointer<UInt64>, x: Int, _ tag: UInt64
    ) {
        let old = chain.pointee
        if old == 0 {
            chain.pointee = tag
            return
        }
        if old & 16 != 0 { return }
        // The common case with one chain in the cell (after a thin stroke's sides, which `mark`
        // pairs), as `chainAgainInGeneral` concludes it, without taking the cell's word apart
        // or saving the registers its other cases need.
        let index = Int(truncatingIfNeeded: (tag >> 6) & 0x3FF_FFFF)
        let last = Int(truncatingIfNeeded: (old >> 6) & 0x3FF_FFFF)
        if old >> 32 == 0 {
            if tag & 32 != 0 && index == last &+ 1 {
                // The next edge of the chain, at a vertex inside the pixel.
                let longer = min(old & 12 &+ 4, 12), signs = (old | tag) & 3
                if longer < 12 || signs != 3 {
                    chain.pointee = (UInt64(index) << 6) | longer | signs
                    return
                }
            }
        }
        chainAgainInGeneral(chain, rowCells, rowMarks, x: x, tag, old: old)
    }

    /// `chainAgain` for a cell whose word `old` holds a chain (not a conflict).
    @inline(never)
    private func chainAgainInGeneral(
        _ chain: UnsafeMutablePointer<UInt64>, _ rowCells: UnsafeMutablePointer<Int32>,
        _ rowMarks: UnsafeMutablePointer<UInt64>, x: Int, _ tag: UInt64, old: UInt64
    ) {
        let index = Int(truncatingIfNeeded: (tag >> 6) & 0x3FF_FFFF), continues = tag & 32 != 0
        let last = Int(truncatingIfNeeded: (old >> 6) & 0x3FF_FFFF), count = Int(truncatingIfNeeded: (old >> 2) & 3)
        let otherLast = Int(truncatingIfNeeded: old >> 34) &- 1, otherCount = Int(truncatingIfNeeded: (old >> 32) & 3)
        let signs = (old | tag) & 3
        let longer = min(count &+ 1, 3)
        if continues && index == last &+ 1 && otherLast < 0 {
            // The common case: the next edge of the chain, at a vertex inside the pixel.
            if longer < 3 || signs != 3 {
                chain.pointee = (UInt64(index) << 6) | UInt64(longer << 2) | signs
                return
            }
        } else {
            if continues && index == last &+ 1 {
                if (longer < 3 || signs != 3) && otherCount < 3
                    && windOppositely(otherLast, index, cell: rowCells, x: x)
                    && (otherCount < 2 || windOppositely(otherLast &- 1, index, cell: rowCells, x: x))
                {
                    chain.pointee = (old & ~0xFFFF_FFFF) | (UInt64(index) << 6) | UInt64(longer << 2) | signs
                    return
                }
            } else if count < 3 && (otherLast < 0 || continues && index == otherLast &+ 1 && otherCount == 1) {
                if windOppositely(last, index, cell: rowCells, x: x)
                    && (count < 2 || windOppositely(last &- 1, index, cell: rowCells, x: x))
                {
                    chain.pointee = (UInt64(index &+ 1) << 34) | (UInt64(otherCount &+ 1) << 32) | (old & 0xFFFF_FFFF)
                    if count == 1 && otherLast < 0 && pair.uniform == true {
                        // A thin stroke's sides: `mark` pairs them in the cells that follow.
                        (strokeSideWord, strokeOtherSide) = (old, tag)
                    }
                    return
                }
                // Two edges sharing an end are one two-piece polyline, which nothing may join
                // (a second-chain count of 3).
                if otherLast < 0 && count == 1 && Rasterizer.shareAnEnd(edges[last], edges[index]) {
                    chain.pointee = (UInt64(index &+ 1) << 34) | (3 << 32) | (old & 0xFFFF_FFFF)
                    return
                }
            }
        }
        chain.pointee = Rasterizer.conflictTag
        let rowConflicts = conflicts + (rowMarks - marks)
        rowConflicts[x >> 6] |= 1 &<< UInt64(truncatingIfNeeded: x & 63)
        rowHasConflicts[(rowMarks - marks) / wordsPerRow] = true
    }

    /// Whether one edge starts where the other ends: a two-piece polyline.
    private static func shareAnEnd(_ a: FixedEdge, _ b: FixedEdge) -> Bool {
        (a.x1 == b.x0 && a.y1 == b.y0) || (b.x1 == a.x0 && b.y1 == a.y0)
    }

    /// The pair test of `chainTag` for two edges in the pixel of cell `x` of the band row whose
    /// cells start at `rowCells`: their lines meet at P outside the pixel (or never), so the
    /// pixel lies in one of the four angles they make, and crossing from one edge to the other
    /// changes the winding oppositely exactly when one edge runs towards P and the other away
    /// from it, seen from the pixel's centre (parallel edges: when they run oppositely). The
    /// pieces follow their lines to the 1/256-pixel rounding, so P is looked for in the pixel
    /// grown by two units: a crossing the test misses leaves at most a sliver that thin with a
    /// third winding.
    private func windOppositely(_ first: Int, _ second: Int, cell rowCells: UnsafeMutablePointer<Int32>, x: Int) -> Bool
    {
        // Along a thin stroke the same two sides meet cell after cell: where their lines meet
        // is kept from one to the next.
        if first != pair.first || second != pair.second {
            let a = edges[first], b = edges[second]
            let ax = Double(a.x0), ay = Double(a.y0), adx = Double(a.x1 &- a.x0), ady = Double(a.y1 &- a.y0)
            let bx = Double(b.x0), by = Double(b.y0), bdx = Double(b.x1 &- b.x0), bdy = Double(b.y1 &- b.y0)
            let denominator = adx * bdy - ady * bdx
            let t = denominator == 0 ? 0 : ((bx - ax) * bdy - (by - ay) * bdx) / denominator
            let px = ax + t * adx, py = ay + t * ady
            // When P lies beyond both edges' ends along their lines by two pixels or more, every
            // pixel both reach (its centre within a half-diagonal of each) sees it the same way,
            // and outside itself: one answer for all of them.
            let lengthA = (adx * adx + ady * ady).squareRoot(), lengthB = (bdx * bdx + bdy * bdy).squareRoot()
            let s = ((px - bx) * bdx + (py - by) * bdy) / (lengthB * lengthB)
            var uniform: Bool? = nil
            if denominator == 0 {
                uniform = adx * bdx + ady * bdy < 0
            } else if min(t, 1 - t) * lengthA < -512 && min(s, 1 - s) * lengthB < -512 {
                // Seen from A, P is ahead of it when it lies before A's start; likewise for B.
                uniform = (t < 0) != (s < 0)
            }
            pair = PairLines(
                first: first, second: second, uniform: uniform, px: px, py: py, adx: adx, ady: ady, bdx: bdx, bdy: bdy)
        }
        let p = pair
        if let uniform = p.uniform { return uniform }
        // The pixel's geometry column and row, worked out only here (a division).
        let column = offsetX &+ x, row = offsetY &+ bandTop &+ (rowCells - cells) / cellStride
        let left = Double(column << 8), top = Double(row << 8)
        if abs(p.px - left - 128) <= 130 && abs(p.py - top - 128) <= 130 { return false }
        // Which way each edge's piece in the pixel lies from P, along the edge: by the middle
        // of the part of the edge inside the pixel (the pixel's centre may lie the other way).
        let a = edges[first], b = edges[second]
        guard let ta = Rasterizer.middleInside(a, left: left, top: top),
            let tb = Rasterizer.middleInside(b, left: left, top: top)
        else { return false }
        let lengthA = p.adx * p.adx + p.ady * p.ady, lengthB = p.bdx * p.bdx + p.bdy * p.bdy
        let pa = ((p.px - Double(a.x0)) * p.adx + (p.py - Double(a.y0)) * p.ady) / lengthA
        let pb = ((p.px - Double(b.x0)) * p.bdx + (p.py - Double(b.y0)) * p.bdy) / lengthB
        return (ta > pa) != (tb > pb)
    }

    /// The parameter (0 at the edge's start, 1 at its end) of the middle of the part of the edge
    /// inside the pixel whose top-left corner is `left`, `top`; nil when no part is.
    private static func middleInside(_ e: FixedEdge, left: Double, top: Double) -> Double? {
        var low = 0.0, high = 1.0
        func clip(_ start: Double, _ delta: Double, _ from: Double) {
            if delta == 0 {
                if start < from || start > from + 256 { high = -1 }
                return
            }
            let t0 = (from - start) / delta, t1 = (from + 256 - start) / delta
            low = max(low, min(t0, t1))
            high = min(high, max(t0, t1))
        }
        clip(Double(e.x0), Double(e.x1 &- e.x0), left)
        clip(Double(e.y0), Double(e.y1 &- e.y0), top)
        return low <= high ? (low + high) / 2 : nil
    }

    /// Two edges' lines for `windOppositely`: where they meet, and their directions.
    struct PairLines {
        var first = -1, second = -1
        /// The answer for every pixel both edges reach, when it does not depend on the pixel.
        var uniform: Bool? = nil
        var px = 0.0, py = 0.0, adx = 0.0, ady = 0.0, bdx = 0.0, bdy = 0.0
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
        let bandRow = beginRow(y)
        if rowHasEvents[bandRow] {
            sweepWithEvents(bandRow: bandRow, rule: rule, into: &sink)
            return
        }
        rowHasConflicts[bandRow] = false
        let rowCells = cells + bandRow &* cellStride
        let rowMarks = marks + bandRow &* wordsPerRow
        let rowConflicts = conflicts + bandRow &* wordsPerRow
        let origin = bounds.x
        let end = bounds.width
        let evenOdd = rule == .evenOdd
        var sum: Int32 = 0
        var runStart = 0
        for w in 0..<wordsPerRow {
            var word = rowMarks[w]
            if word == 0 { continue }
            rowMarks[w] = 0
            let conflictWord = rowConflicts[w]
            if conflictWord != 0 { rowConflicts[w] = 0 }
            repeat {
                let bit = word & (0 &- word)
                let i = (w << 6) | word.trailingZeroBitCount
                word &= word &- 1
                constantRun(sum, evenOdd: evenOdd, from: runStart, to: i, origin: origin, into: &sink)
                sum &+= rowCells[i]
                rowCells[i] = 0
                var c = Rasterizer.coverage(sum, evenOdd: evenOdd)
                if conflictWord & bit != 0 {
                    c = exactCoverage(bandRow: bandRow, column: i, rule: rule, approximate: c)
                }
                if c != 0 && i < end { sink.run(x: origin &+ i, length: 1, coverage: c) }
                // The right neighbour may hold carried area without a mark of its own.
                sum &+= rowCells[i &+ 1]
                rowCells[i &+ 1] = 0
                runStart = i &+ 1
            } while word != 0
        }
        constantRun(sum, evenOdd: evenOdd, from: runStart, to: end, origin: origin, into: &sink)
    }

    /// The sweep for sinks that take eight pixels at once: the same coverage as the sweep above,
    /// pixel for pixel, but every group of eight cells holding a written one is turned into
    /// coverage with vector arithmetic (a prefix sum and the fill rule on eight lanes) and
    /// handed over whole, instead of one cell and one run at a time (or the cells themselves,
    /// to a sink that `sweepsCells`, when none of them is computed exactly). Between groups,
    /// runs of constant coverage go to `run` as before. A sink that `sweepsCells` sweeps a
    /// band's rows itself (`sweepRows`) up to one with events or a pixel computed exactly
    /// (`rowHasConflicts`), which is swept here.
    ///
    /// Sweeps device rows `rows` (every row of `bounds`, top to bottom, in one call or several),
    /// moving the sink to each row first. A function of its own (specialized for the sink, not
    /// inlined): inlined into `blendSolid`, the fades playlist took 400 M instructions more
    /// under callgrind. One call for all of a shape's rows: called row by row, setting itself
    /// up again for each took 7 % of the sweep and blend of a small square.
    @inline(never)
    func sweep<Sink: CoverageGroupSink>(rows: Range<Int>, rule: FillRule, into sink: inout Sink) {
        // Read once: the sink's calls may write any memory as far as the compiler knows, so a
        // field read in the loop would be read again for every row and group.
        let origin = bounds.x, end = bounds.width, words = wordsPerRow, stride = cellStride
        let cells = self.cells, marks = self.marks, conflicts = self.conflicts
        let evenOdd = rule == .evenOdd
        let zero = SIMD8<Int32>(repeating: 0)
        var sweptUpTo = rows.lowerBound
        for y in rows where y >= sweptUpTo {
            sink.moveToRow(y)
            let bandRow = beginRow(y)
            if rowHasEvents[bandRow] {
                sweepWithEvents(bandRow: bandRow, rule: rule, into: &sink)
                continue
            }
            if sink.sweepsCells && !rowHasConflicts[bandRow] {
                // The sink's own loop over the band's rows from here, up to one with events or
                // pixels computed exactly.
                let swept = sink.sweepRows(
                    cells: cells + bandRow &* stride, cellStride: stride, marks: marks + bandRow &* words,
                    words: words, events: rowHasEvents + bandRow, conflicted: rowHasConflicts + bandRow,
                    count: min(bandRows &- bandRow, rows.upperBound &- y), end: end, origin: origin, y: y,
                    evenOdd: evenOdd)
                if swept > 0 {
                    sweptUpTo = y &+ swept
                    continue
                }
            }
            rowHasConflicts[bandRow] = false
            let rowMarks = marks + bandRow &* words
            let rowConflicts = conflicts + bandRow &* words
            let rowCells = UnsafeMutableRawPointer(cells + bandRow &* stride)
            var sum: Int32 = 0
            var runStart = 0
            for w in 0..<words {
                var word = rowMarks[w]
                if word == 0 { continue }
                rowMarks[w] = 0
                let conflictWord = rowConflicts[w]
                if conflictWord != 0 { rowConflicts[w] = 0 }
                repeat {
                    let shift = word.trailingZeroBitCount & ~7
                    word &= ~(0xFF &<< UInt64(truncatingIfNeeded: shift))
                    let i = (w << 6) | shift
                    constantRun(sum, evenOdd: evenOdd, from: runStart, to: i, origin: origin, into: &sink)
                    var exact = (conflictWord >> UInt64(truncatingIfNeeded: shift)) & 0xFF
                    if exact == 0 && sink.sweepsCells {
                        let groupCells = (rowCells + i &* 4).assumingMemoryBound(to: Int32.self)
                        sum =
                            i &+ 8 <= end
                            ? sink.group(x: origin &+ i, cells: groupCells, sum: sum, evenOdd: evenOdd)
                            : sink.lastGroup(
                                x: origin &+ i, count: end &- i, cells: groupCells, sum: sum, evenOdd: evenOdd)
                        runStart = i &+ 8
                        continue
                    }
                    // The group's cells, and the carry into the cell after it (no mark of its own
                    // when the next group holds no written cell; otherwise that group reads a zero).
                    let offset = i &* 4
                    let v = rowCells.loadUnaligned(fromByteOffset: offset, as: SIMD8<Int32>.self)
                    rowCells.storeBytes(of: zero, toByteOffset: offset, as: SIMD8<Int32>.self)
                    let winding = Rasterizer.prefixSum(v) &+ SIMD8(repeating: sum)
                    sum = winding[7] &+ rowCells.load(fromByteOffset: offset &+ 32, as: Int32.self)
                    rowCells.storeBytes(of: 0, toByteOffset: offset &+ 32, as: Int32.self)
                    var coverage = Rasterizer.coverage(winding, evenOdd: evenOdd)
                    while exact != 0 {
                        let k = exact.trailingZeroBitCount
                        exact &= exact &- 1
                        coverage[k] = UInt32(
                            exactCoverage(
                                bandRow: bandRow, column: i &+ k, rule: rule,
                                approximate: Int32(truncatingIfNeeded: coverage[k])))
                    }
                    if i &+ 8 <= end {
                        // No test for a group of zeros (rare): it costs as much as blending them.
                        sink.group(x: origin &+ i, coverage: coverage)
                    } else {
                        // The row's last pixels: lanes past its end are not the region's.
                        for k in 0..<(end &- i) where coverage[k] != 0 {
                            sink.run(x: origin &+ i &+ k, length: 1, coverage: Int32(truncatingIfNeeded: coverage[k]))
                        }
                    }
                    runStart = i &+ 8
                } while word != 0
            }
            constantRun(sum, evenOdd: evenOdd, from: runStart, to: end, origin: origin, into: &sink)
        }
    }

    /// Hands `sink` the region columns `start ..< end`, between written cells, at the coverage
    /// the running winding `sum` gives them (nothing when it is 0 or the run is empty);
    /// `origin` is the region's first device column.
    @inline(__always)
    private func constantRun<Sink: CoverageSink>(
        _ sum: Int32, evenOdd: Bool, from start: Int, to end: Int, origin: Int, into sink: inout Sink
    ) {
        guard end > start else { return }
        let c = Rasterizer.coverage(sum, evenOdd: evenOdd)
        if c != 0 { sink.run(x: origin &+ start, length: end &- start, coverage: c) }
    }

    /// Prepares device row `y` for sweeping (accumulates its band, when its edges are kept, and
    /// readies the band's events at its first row); the row's index in the band.
    @inline(__always)
    private func beginRow(_ y: Int) -> Int {
        let local = y &- bounds.y
        if local >= bandTop &+ bandRows { accumulateBand(from: local) }
        if local == bandTop { beginBandSweep() }
        return local &- bandTop
    }

    /// Running sums of eight cells: lane k holds lanes 0…k of `v` added (the winding area each
    /// pixel of a group adds to what came before it).
    @inline(__always)
    static func prefixSum(_ v: SIMD8<Int32>) -> SIMD8<Int32> {
        @inline(__always) func prefix(_ a: SIMD4<Int32>) -> SIMD4<Int32> {
            let b = a &+ SIMD4(0, a[0], a[1], a[2])
            return b &+ SIMD4(0, 0, b[0], b[1])
        }
        let low = prefix(v.lowHalf)
        return SIMD8(lowHalf: low, highHalf: prefix(v.highHalf) &+ SIMD4(repeating: low[3]))
    }

    /// `coverage(_:evenOdd:)` on eight lanes, in shifts and adds (comparisons yielding lane
    /// masks, and 32-bit lane multiplies, are slow or missing on the SSE2 baseline).
    @inline(__always)
    static func coverage(_ value: SIMD8<Int32>, evenOdd: Bool) -> SIMD8<UInt32> {
        @inline(__always) func magnitude(_ v: SIMD8<Int32>) -> SIMD8<Int32> {
            let sign = v &>> 31
            return (v ^ sign) &- sign
        }
        let half = SIMD8<Int32>(repeating: 0x20000)
        var a = magnitude(value)
        if evenOdd {
            // Folded into a triangle wave: 0x20000 − |(a mod 0x40000) − 0x20000|.
            a = half &- magnitude((a & 0x3FFFF) &- half)
        } else {
            // At most one winding: 0x20000 plus the difference when it is negative.
            let over = a &- half
            a = half &+ (over & (over &>> 31))
        }
        return SIMD8<UInt32>(truncatingIfNeeded: ((a &<< 8) &- a &+ 0x10000) &>> 17)
    }

    /// Before the first row of a band (or of a shape accumulated as its edges arrived): the events
    /// are complete and sorted (once per shape), and each row of the band knows whether one lies
    /// inside it.
    func beginBandSweep() {
        if !eventsReady {
            endChain()
            events.removeAll { $0.delta == 0 }
            events.sort { ($0.y >> 8, $0.x) < ($1.y >> 8, $1.x) }
            eventsReady = true
        }
        rowIndexIsBuilt = false
        for r in 0..<bandRows { rowHasEvents[r] = false }
        let first = offsetY &+ bandTop
        for e in events {
            let r = Int(e.y >> 8) &- first
            if r >= 0 && r < bandRows { rowHasEvents[r] = true }
        }
    }

    /// Clears whatever the current shape accumulated, without producing spans.
    func discard() {
        for local in 0..<bandRows {
            rowHasConflicts[local] = false
            let rowMarks = marks + local * wordsPerRow
            let rowCells = cells + local * cellStride
            for w in 0..<wordsPerRow { conflicts[local * wordsPerRow + w] = 0 }
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
        resetChains()
        bandRows = 0
        keepsEdges = false
    }

    /// The most spans one row of a `width`-pixel target can produce: a run and a single pixel
    /// per cell, plus a tail.
    static func maxSpansPerRow(width: Int) -> Int { 2 * (max(0, width) + 2) + 1 }

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
