/// Exact coverage for the few pixels where the accumulated area is not: a pixel whose winding
/// takes more than two adjacent values (contours overlapping or crossing inside it, found by
/// the chain tags and the events of `Rasterizer`) is computed from the edges that cross it.
///
/// The edges are re-cut exactly as the accumulation cut them (the same rounded row and cell
/// crossings), so the pixel sees the same quantized outline: the winding along its left side
/// comes from the pieces left of it, and inside it the pieces split its height into strips
/// where no two cross. In each strip the covered length changes linearly with y, so its value
/// at mid-height times the strip's height is the strip's exact covered area. Everything is
/// computed from the shape's geometry alone, in an order that does not depend on the clip or
/// the band, so these pixels too are the same to the bit however the shape is cut.
///
/// The work is bounded: a row crossed by more than `exactRowEdgeLimit` edges, or a pixel cut
/// into more than `exactPieceLimit` pieces (degenerate geometry: dashes shorter than a pixel, a
/// path folded on itself thousands of times), keeps the accumulated area, `approximate` — the
/// cost of the exact area grows with the cube of the pieces, and such a pixel is a blur anyway.
extension Rasterizer {
    static let exactRowEdgeLimit = 1024
    static let exactPieceLimit = 24

    /// Coverage (0…255) of the pixel at `column` of the region in band row `bandRow`, or
    /// `approximate` (the accumulated area's) where the exact one would cost too much.
    func exactCoverage(bandRow: Int, column: Int, rule: FillRule, approximate: Int32) -> Int32 {
        if !rowIndexIsBuilt { buildRowIndex() }
        if rowEdgeStart[bandRow &+ 1] &- rowEdgeStart[bandRow] > Rasterizer.exactRowEdgeLimit { return approximate }
        // A row's exact pixels share its pieces, cut once (a glyph row holds hundreds).
        if exactPiecesRow != bandRow { cutExactPieces(bandRow: bandRow) }
        let cell = offsetX &+ column
        let scratch = exactScratch
        scratch.removeAll()
        // Through the buffer: iterating the array itself cost a tenth more here.
        exactPieces.withUnsafeBufferPointer { pieces in for p in pieces { scratch.add(p, cell: cell) } }
        guard scratch.pieceCount <= Rasterizer.exactPieceLimit else { return approximate }
        let area = scratch.coveredArea(evenOdd: rule == .evenOdd)
        return Int32(min(255, max(0, Int(area * (255.0 / 65536.0) + 0.5))))
    }

    /// Cuts the edges crossing band row `bandRow` to the row, each rounded as `accumulate`
    /// rounds it, in the row index's order.
    private func cutExactPieces(bandRow: Int) {
        exactPiecesRow = bandRow
        exactPieces.removeAll(keepingCapacity: true)
        let geometryRow = offsetY &+ bandTop &+ bandRow
        let rowTop = geometryRow << 8
        for k in rowEdgeStart[bandRow]..<rowEdgeStart[bandRow &+ 1] {
            let e = edges[Int(rowEdgeList[k])]
            var (xa, ya, xb, yb) = (Int(e.x0), Int(e.y0), Int(e.x1), Int(e.y1))
            var sign = 1
            if ya > yb { swap(&xa, &xb); swap(&ya, &yb); sign = -1 }
            let dx = xb &- xa, dy = yb &- ya
            var x0 = xa, fy0 = ya &- rowTop, x1 = xb, fy1 = yb &- rowTop
            if ya >> 8 < geometryRow {
                x0 = xa &+ Rasterizer.floorDivMod(dx &* (rowTop &- ya) &+ (dy >> 1), dy).0
                fy0 = 0
            }
            if (yb &- 1) >> 8 > geometryRow {
                x1 = xa &+ Rasterizer.floorDivMod(dx &* (rowTop &+ 256 &- ya) &+ (dy >> 1), dy).0
                fy1 = 256
            }
            exactPieces.append(ExactRowPiece(x0: x0, fy0: fy0, x1: x1, fy1: fy1, sign: sign))
        }
    }

    /// Lists, for each row of the current band, the edges that cross it.
    private func buildRowIndex() {
        rowIndexIsBuilt = true
        exactPiecesRow = -1
        let first = offsetY &+ bandTop, last = first &+ bandRows &- 1, rows = bandRows
        let edges = self.edges, count = edgeCount
        // The band rows an edge crosses (none when the first is past the last).
        @inline(__always) func span(_ index: Int) -> (first: Int, last: Int) {
            let e = edges[index]
            let top = Int(min(e.y0, e.y1)), bottom = Int(max(e.y0, e.y1))
            return (max(top >> 8, first) &- first, min((bottom &- 1) >> 8, last) &- first)
        }
        // Each row's count, then where it ends; filling each row from its end backwards leaves
        // where it starts, in place. Through the buffers: the arrays' own subscripts checked
        // bounds and uniqueness for every row of every edge (32 instructions a row).
        rowEdgeStart.removeAll(keepingCapacity: true)
        rowEdgeStart.append(contentsOf: repeatElement(0, count: rows &+ 1))
        let total = rowEdgeStart.withUnsafeMutableBufferPointer { start in
            for index in 0..<count {
                let (a, b) = span(index)
                if a > b { continue }
                for row in a...b { start[row] &+= 1 }
            }
            for row in 0..<rows { start[row &+ 1] &+= start[row] }
            return start[rows]
        }
        rowEdgeList.removeAll(keepingCapacity: true)
        rowEdgeList.append(contentsOf: repeatElement(0, count: total))
        rowEdgeStart.withUnsafeMutableBufferPointer { start in
            rowEdgeList.withUnsafeMutableBufferPointer { list in
                for index in (0..<count).reversed() {
                    let (a, b) = span(index)
                    if a > b { continue }
                    for row in a...b {
                        start[row] &-= 1
                        list[start[row]] = Int32(truncatingIfNeeded: index)
                    }
                }
            }
        }
    }

    /// Sweeps band row `bandRow` when events lie in it: horizontal edges end inside the row,
    /// so the winding along a pixel's left side may change within the pixel. Each pixel knows
    /// the events left of it; where they leave that winding constant, the pixel is decided as
    /// in the plain sweep. Otherwise a written pixel, or one with an event inside, is computed
    /// exactly, and so is an unwritten run whose left-side winding spans more than two values.
    func sweepWithEvents<Sink: CoverageSink>(bandRow: Int, rule: FillRule, into sink: inout Sink) {
        rowHasConflicts[bandRow] = false
        let rowCells = cells + bandRow &* cellStride
        let rowMarks = marks + bandRow &* wordsPerRow
        let rowConflicts = conflicts + bandRow &* wordsPerRow
        let geometryRow = offsetY &+ bandTop &+ bandRow
        var k = firstEvent(inRow: geometryRow)
        let kEnd = firstEvent(inRow: geometryRow &+ 1)
        let profile = windingProfile
        profile.removeAll()
        let clipLeft = offsetX << 8
        while k < kEnd && Int(events[k].x) < clipLeft {
            profile.add(y: Int(events[k].y & 255), delta: Int(events[k].delta))
            k &+= 1
        }
        let origin = bounds.x, end = bounds.width
        let evenOdd = rule == .evenOdd
        var sum: Int32 = 0
        var runStart = 0
        @inline(__always) func eventColumn(_ k: Int) -> Int { (Int(events[k].x) >> 8) &- offsetX }
        /// Emits the unwritten pixels from `runStart` up to `limit`.
        func run(to limit: Int, _ sink: inout Sink) {
            while runStart < limit {
                let column = k < kEnd ? eventColumn(k) : Int.max
                let stop = min(column, limit)
                if stop > runStart {
                    let c =
                        profile.range <= 1
                        ? Rasterizer.coverage(sum, evenOdd: evenOdd)
                        : exactCoverage(
                            bandRow: bandRow, column: runStart, rule: rule,
                            approximate: Rasterizer.coverage(sum, evenOdd: evenOdd))
                    if c != 0 { sink.run(x: origin &+ runStart, length: stop &- runStart, coverage: c) }
                    runStart = stop
                    continue
                }
                // An event inside this unwritten pixel.
                let c = exactCoverage(
                    bandRow: bandRow, column: runStart, rule: rule,
                    approximate: Rasterizer.coverage(sum, evenOdd: evenOdd))
                if c != 0 { sink.run(x: origin &+ runStart, length: 1, coverage: c) }
                while k < kEnd && eventColumn(k) == runStart {
                    profile.add(y: Int(events[k].y & 255), delta: Int(events[k].delta))
                    k &+= 1
                }
                runStart &+= 1
            }
        }
        for w in 0..<wordsPerRow {
            var word = rowMarks[w]
            if word == 0 { continue }
            rowMarks[w] = 0
            let conflictWord = rowConflicts[w]
            rowConflicts[w] = 0
            repeat {
                let bit = word & (0 &- word)
                let i = (w << 6) | word.trailingZeroBitCount
                word &= word &- 1
                run(to: i, &sink)
                let eventInside = k < kEnd && eventColumn(k) == i
                sum &+= rowCells[i]
                rowCells[i] = 0
                let c =
                    conflictWord & bit != 0 || eventInside || !profile.isConstant
                    ? exactCoverage(
                        bandRow: bandRow, column: i, rule: rule, approximate: Rasterizer.coverage(sum, evenOdd: evenOdd)
                    )
                    : Rasterizer.coverage(sum, evenOdd: evenOdd)
                if c != 0 && i < end { sink.run(x: origin &+ i, length: 1, coverage: c) }
                while k < kEnd && eventColumn(k) == i {
                    profile.add(y: Int(events[k].y & 255), delta: Int(events[k].delta))
                    k &+= 1
                }
                sum &+= rowCells[i &+ 1]
                rowCells[i &+ 1] = 0
                runStart = i &+ 1
            } while word != 0
        }
        run(to: end, &sink)
    }

    /// Index of the first event in geometry row `row` or below it (events are sorted by row).
    private func firstEvent(inRow row: Int) -> Int {
        var low = 0, high = events.count
        while low < high {
            let mid = (low &+ high) >> 1
            if Int(events[mid].y >> 8) < row { low = mid &+ 1 } else { high = mid }
        }
        return low
    }
}

/// An edge's piece in one row, in geometry x and heights 0…256 of the row, top to bottom, with
/// its winding sign; and the cells it reaches as `Rasterizer.addRowPiece` places it: a cell
/// left of `lowCell` holds none of it, and a cell right of `highCell` has all of it on its left.
struct ExactRowPiece {
    var x0: Int, fy0: Int, x1: Int, fy1: Int, sign: Int
    var lowCell: Int, highCell: Int

    init(x0: Int, fy0: Int, x1: Int, fy1: Int, sign: Int) {
        (self.x0, self.fy0, self.x1, self.fy1, self.sign) = (x0, fy0, x1, fy1, sign)
        // A vertical piece on a cell's left side is in that cell; a slanted one ending there is not.
        if x0 == x1 {
            (lowCell, highCell) = (x0 >> 8, x0 >> 8)
        } else {
            (lowCell, highCell) = (min(x0, x1) >> 8, (max(x0, x1) &- 1) >> 8)
        }
    }
}

/// The steps of the winding along a pixel's left side within its row, from the events left of
/// it: (height 0…256, change), at most one per height, none zero.
final class WindingProfile {
    private var steps: [(y: Int, delta: Int)] = []

    func removeAll() {
        steps.removeAll(keepingCapacity: true)
        range = 0
    }

    /// Whether the winding is the same all along the side.
    var isConstant: Bool { steps.isEmpty }

    /// How many values apart its highest and lowest winding are.
    private(set) var range = 0

    func add(y: Int, delta: Int) {
        if let i = steps.firstIndex(where: { $0.y == y }) {
            steps[i].delta &+= delta
            if steps[i].delta == 0 { steps.remove(at: i) }
        } else {
            steps.append((y, delta))
            steps.sortShort { $0.y < $1.y }
        }
        var w = 0, low = 0, high = 0
        for s in steps {
            w &+= s.delta
            low = min(low, w)
            high = max(high, w)
        }
        range = high &- low
    }
}

/// What `Rasterizer.exactCoverage` gathers for one pixel, kept to reuse its storage.
final class ExactCoverageScratch {
    /// The pieces inside the pixel, top to bottom, in 24.8 fixed point from its top-left corner
    /// (x 0…256, y 0…256), with their winding sign.
    private var pieces: [(x0: Int, y0: Int, x1: Int, y1: Int, sign: Int)] = []
    /// How many pieces cross the pixel.
    var pieceCount: Int { pieces.count }
    /// The winding along the left side at its top, from the pieces left of the pixel that reach
    /// it, and its changes further down (none at the bottom, which no strip lies below): summed
    /// per height as they come (a curve's short pieces mostly cancel at the heights where they
    /// meet), with the heights touched, then the net changes in order.
    private var base = 0
    private var stepDelta = [Int](repeating: 0, count: 257)
    private var stepHeights: [Int] = []
    private var steps: [(y: Int, delta: Int)] = []
    private var cuts: [Double] = []
    private var crossings: [(x: Double, sign: Int)] = []

    func removeAll() {
        pieces.removeAll(keepingCapacity: true)
        base = 0
        for y in stepHeights { stepDelta[y] = 0 }
        stepHeights.removeAll(keepingCapacity: true)
        steps.removeAll(keepingCapacity: true)
        cuts.removeAll(keepingCapacity: true)
        crossings.removeAll(keepingCapacity: true)
    }

    /// Takes one row piece apart for the pixel in `cell` as `Rasterizer.addRowPiece` does: a
    /// piece all right of the pixel adds nothing to it, one all left of it only winds its left
    /// side over the part of the row it spans; one reaching the pixel is cut at its sides.
    @inline(__always)
    func add(_ p: ExactRowPiece, cell: Int) {
        if p.lowCell > cell { return }
        if p.highCell < cell {
            addStep(top: p.fy0, bottom: p.fy1, sign: p.sign)
            return
        }
        addReaching(p, cell: cell)
    }

    /// A piece with `lowCell ≤ cell ≤ highCell`: the part left of the pixel becomes a step of
    /// its left side's winding, the part inside it a piece.
    private func addReaching(_ p: ExactRowPiece, cell: Int) {
        let (x0, fy0, x1, fy1, sign) = (p.x0, p.fy0, p.x1, p.fy1, p.sign)
        let left = cell << 8, right = left &+ 256
        if x0 == x1 {
            addPiece(x0 &- left, fy0, x0 &- left, fy1, sign)
            return
        }
        let dy = fy1 &- fy0, dx = abs(x1 &- x0)
        @inline(__always) func y(at b: Int) -> Int { fy0 &+ (abs(b &- x0) &* dy &+ (dx >> 1)) / dx }
        // Left to right the piece starts in `lowCell`; right to left, in `highCell`.
        if p.lowCell < cell {
            if x0 < x1 {
                addStep(top: fy0, bottom: y(at: left), sign: sign)
            } else {
                addStep(top: y(at: left), bottom: fy1, sign: sign)
            }
        }
        let (startCell, endCell) = x0 < x1 ? (p.lowCell, p.highCell) : (p.highCell, p.lowCell)
        let (entry, exit) = x0 < x1 ? (left, right) : (right, left)
        let top = startCell == cell ? (x0, fy0) : (entry, y(at: entry))
        let bottom = endCell == cell ? (x1, fy1) : (exit, y(at: exit))
        addPiece(top.0 &- left, top.1, bottom.0 &- left, bottom.1, sign)
    }

    /// A piece left of the pixel from height `top` to `bottom` of its row (0…256): the left
    /// side's winding changes by `sign` over it. Most span the row, and only change the base.
    func addStep(top: Int, bottom: Int, sign: Int) {
        if top >= bottom { return }
        if top == 0 { base &+= sign } else { addChange(at: top, sign) }
        if bottom != 256 { addChange(at: bottom, 0 &- sign) }
    }

    @inline(__always)
    private func addChange(at y: Int, _ delta: Int) {
        if stepDelta[y] == 0 { stepHeights.append(y) }
        stepDelta[y] &+= delta
    }

    private func addPiece(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, _ sign: Int) {
        if y0 < y1 { pieces.append((x0, y0, x1, y1, sign)) }
    }

    /// The covered area of the pixel, in 1/65536ths: the strips between every height where a
    /// piece ends, two pieces cross or the left side's winding changes.
    func coveredArea(evenOdd: Bool) -> Double {
        // Net steps only: a height where the winding does not change is no cut, so the cuts
        // do not depend on how the geometry left of the pixel was split (the clip's chords).
        // A height listed twice (its sum went back to 0 and on) is taken once: taking it clears it.
        for y in stepHeights where stepDelta[y] != 0 {
            steps.append((y, stepDelta[y]))
            stepDelta[y] = 0
        }
        stepHeights.removeAll(keepingCapacity: true)
        steps.sortShort { $0.y < $1.y }
        cuts.append(0)
        cuts.append(256)
        for s in steps { cuts.append(Double(s.y)) }
        for p in pieces {
            cuts.append(Double(p.y0))
            cuts.append(Double(p.y1))
        }
        for i in pieces.indices {
            for j in pieces.indices where j > i {
                if let y = ExactCoverageScratch.crossing(pieces[i], pieces[j]) { cuts.append(y) }
            }
        }
        cuts.sortShort(by: <)
        var area = 0.0
        var stepIndex = 0, base = self.base
        var top = cuts[0]
        for bottom in cuts.dropFirst() where bottom > top {
            let middle = (top + bottom) / 2
            while stepIndex < steps.count && Double(steps[stepIndex].y) < middle {
                base &+= steps[stepIndex].delta
                stepIndex &+= 1
            }
            crossings.removeAll(keepingCapacity: true)
            for p in pieces where Double(p.y0) < middle && middle < Double(p.y1) {
                let t = (middle - Double(p.y0)) / Double(p.y1 &- p.y0)
                crossings.append((Double(p.x0) + Double(p.x1 &- p.x0) * t, p.sign))
            }
            crossings.sortShort { $0.x < $1.x }
            var winding = base, x = 0.0, covered = 0.0
            for c in crossings {
                if ExactCoverageScratch.isInside(winding, evenOdd: evenOdd) { covered += c.x - x }
                x = c.x
                winding &+= c.sign
            }
            if ExactCoverageScratch.isInside(winding, evenOdd: evenOdd) { covered += 256 - x }
            area += covered * (bottom - top)
            top = bottom
        }
        return area
    }

    @inline(__always)
    private static func isInside(_ winding: Int, evenOdd: Bool) -> Bool {
        evenOdd ? winding & 1 != 0 : winding != 0
    }

    /// The height where two pieces cross strictly inside both, if they do. The pair is put in
    /// a fixed order first, so the result does not depend on the order the pieces came in.
    private static func crossing(
        _ a: (x0: Int, y0: Int, x1: Int, y1: Int, sign: Int), _ b: (x0: Int, y0: Int, x1: Int, y1: Int, sign: Int)
    ) -> Double? {
        let (p, q) = (a.x0, a.y0, a.x1, a.y1) < (b.x0, b.y0, b.x1, b.y1) ? (a, b) : (b, a)
        let top = max(p.y0, q.y0), bottom = min(p.y1, q.y1)
        if top >= bottom { return nil }
        // x of each at the shared range's ends, scaled by both heights to stay integer.
        let hp = p.y1 &- p.y0, hq = q.y1 &- q.y0
        func x(_ s: (x0: Int, y0: Int, x1: Int, y1: Int, sign: Int), _ y: Int, _ h: Int) -> Int {
            s.x0 &* h &+ (s.x1 &- s.x0) &* (y &- s.y0)
        }
        let dTop = x(p, top, hp) &* hq &- x(q, top, hq) &* hp
        let dBottom = x(p, bottom, hp) &* hq &- x(q, bottom, hq) &* hp
        if (dTop < 0) == (dBottom < 0) || dTop == 0 || dBottom == 0 { return nil }
        let t = Double(dTop) / Double(dTop &- dBottom)
        return Double(top) + Double(bottom &- top) * t
    }
}

extension Array {
    /// Sorts stably by `areInIncreasingOrder`: by insertion when there are at most 128 elements,
    /// as a pixel's pieces are (the standard library's sort takes a buffer for its merges, an
    /// allocation per pixel), else with `sort(by:)`.
    mutating func sortShort(by areInIncreasingOrder: (Element, Element) -> Bool) {
        guard count <= 128 else { return sort(by: areInIncreasingOrder) }
        for i in indices.dropFirst() {
            var j = i
            while j > 0, areInIncreasingOrder(self[j], self[j - 1]) {
                swapAt(j, j - 1)
                j -= 1
            }
        }
    }
}
