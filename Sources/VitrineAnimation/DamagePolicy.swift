import VitrineGraphics

/// Turns the damage of a frame (`FrameUpdate.dirtyRects`, in the root's superlayer space)
/// into the pixel rectangles to repaint and present: mapped to device pixels, widened for
/// anti-aliased edges, merged where that costs little, and replaced by the whole frame when
/// repainting rectangle by rectangle would not save much.
public struct DamagePolicy: Sendable, Equatable {
    /// Pixels added on every side (anti-aliasing reaches half a pixel beyond an edge).
    public var outset: Int = 1
    /// Two rectangles merge when their bounding box is at most this many times their combined
    /// area (so adjacent ones and ones mostly overlapping merge, distant ones stay apart).
    public var mergeSlack: Double = 1.25
    /// More rectangles than this are merged, the pair that wastes the least area first, until
    /// this many remain (each rectangle costs a walk of the tree and one X request); scattered
    /// changes gathered on a grid are weighed by `pixelsPerRect` instead.
    public var maximumRectCount: Int = 12
    /// When the rectangles cover more than this fraction of the frame, the frame is repainted
    /// whole.
    public var fullFrameFraction: Double = 0.5
    /// What one more rectangle costs, in pixels repainted (a walk of the tree, one more
    /// request to the display server): scattered changes (more rectangles than pairwise
    /// merging takes, a particle emitter's) are gathered on the grid whose rectangles cost
    /// least so (`gatherOnGrid`). At least this, and at least `frameFractionPerRect` of the
    /// frame.
    public var pixelsPerRect: Int = 8192
    /// What one more rectangle costs at least, as a fraction of the frame's pixels: a
    /// rectangle's walk and request cost the same on any screen, while the grid's tiles grow
    /// with it (a 4K frame's are twice as wide as a 1080p frame's). Measured live with
    /// `confetti`: a 128th (16,200 pixels at 1080p, 64,800 at 4K) took about a sixth less CPU
    /// at 1080p and a fifth less at 4K than 8,192 pixels a rectangle.
    public var frameFractionPerRect: Double = 1.0 / 128

    /// The default policy: 1 px outset, slack 1.25, at most 12 rectangles, whole frame above 50 %.
    public init() {}

    /// The rectangles of `frame` (the bitmap's pixels) to repaint for damage `rects`, given in a
    /// space that `transform` maps to device pixels. Empty when nothing is damaged.
    public func deviceRects(for rects: [Rect], frame: IntRect, transform: Transform2D = .identity) -> [IntRect] {
        var out: [IntRect] = []
        deviceRects(for: rects, frame: frame, transform: transform, into: &out)
        return out
    }

    /// `deviceRects(for:frame:transform:)` written into `out`, whose storage is reused (a
    /// renderer keeps one array for every frame).
    public func deviceRects(
        for rects: [Rect], frame: IntRect, transform: Transform2D = .identity, into out: inout [IntRect]
    ) {
        out.removeAll(keepingCapacity: true)
        for r in rects where !r.isNull {
            let box = IntRect(enclosing: transform.isIdentity ? r : transform.apply(to: r))
            guard !box.isEmpty else { continue }
            let clipped = box.outset(by: outset).intersection(frame)
            if !clipped.isEmpty { out.append(clipped) }
        }
        // Pairwise merging is quadratic per round: past a few dozen (a particle emitter's
        // scattered changes), the rectangles are gathered on a grid instead.
        if out.count <= 64 {
            merge(&out)
            // Widely spaced changes (four squares across the screen) stay apart: only the
            // cheapest merges are made, never one bounding box over everything.
            while out.count > max(1, maximumRectCount) { mergeCheapestPair(&out) }
        } else {
            gatherOnGrid(&out, frame: frame)
        }
        let area = out.reduce(0) { $0 + $1.area }
        if Double(area) > fullFrameFraction * Double(frame.area) {
            out.removeAll(keepingCapacity: true)
            if !frame.isEmpty { out.append(frame) }
        }
    }

    /// Replaces `rects` (many, scattered) by the tiles they touch on a grid of at most 64 × 64
    /// square tiles over `frame`, gathered into rectangles: runs of touched tiles along a row,
    /// each grown down over the rows that touch the same tiles. Finer tiles waste fewer pixels
    /// but make more rectangles: of the grids with tiles 1, 2, 4 … times the finest, the one
    /// whose rectangles cost least, at `pixelsPerRect` a rectangle, is taken. No allocation:
    /// a grid is one 64-bit word a row, on the stack.
    func gatherOnGrid(_ rects: inout [IntRect], frame: IntRect) {
        guard !frame.isEmpty else { return rects.removeAll(keepingCapacity: true) }
        let finest = max(16, (frame.width + 63) / 64, (frame.height + 63) / 64)
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 128) { words in
            let touched = UnsafeMutableBufferPointer(rebasing: words[0..<64])
            let scratch = UnsafeMutableBufferPointer(rebasing: words[64..<128])
            Self.mark(rects, tile: finest, frame: frame, in: touched)
            // Each coarser grid from the one before (a tile touched where any of its four
            // was), until one tile covers the frame.
            let share = frameFractionPerRect.isFinite ? min(max(frameFractionPerRect, 0), 1) : 0
            let perRect = max(pixelsPerRect, Int(Double(frame.area) * share))
            var best = (level: 0, cost: Int.max)
            var level = 0, tile = finest
            while true {
                var count = 0, area = 0
                gather(touched, tile: tile, frame: frame, scratch: scratch) {
                    count += 1; area += $0.area
                }
                let cost = count * perRect + area
                if cost < best.cost { best = (level, cost) }
                if tile >= frame.width && tile >= frame.height { break }
                Self.halve(touched)
                level += 1
                tile *= 2
            }
            // The best grid again, marked at its own tile size.
            let bestTile = finest << best.level
            Self.mark(rects, tile: bestTile, frame: frame, in: touched)
            rects.removeAll(keepingCapacity: true)
            gather(touched, tile: bestTile, frame: frame, scratch: scratch) { rects.append($0) }
        }
    }

    /// Sets in `touched` (one word a row of `tile`-pixel tiles over `frame`) the tiles `rects`
    /// (inside `frame`) touch.
    private static func mark(
        _ rects: [IntRect], tile: Int, frame: IntRect, in touched: UnsafeMutableBufferPointer<UInt64>
    ) {
        touched.initialize(repeating: 0)
        for r in rects {
            let first = (r.x - frame.x) / tile, last = (r.maxX - 1 - frame.x) / tile
            let columns = (last - first == 63 ? ~0 : (UInt64(1) << UInt64(last - first + 1)) - 1) << UInt64(first)
            for row in (r.y - frame.y) / tile...(r.maxY - 1 - frame.y) / tile { touched[row] |= columns }
        }
    }

    /// Calls `body` with each rectangle of the touched tiles (`touched`, one word a row of
    /// `tile`-pixel tiles over `frame`): a run along a row, grown down while the rows below
    /// touch all of it.
    private func gather(
        _ touched: UnsafeMutableBufferPointer<UInt64>, tile: Int, frame: IntRect,
        scratch left: UnsafeMutableBufferPointer<UInt64>, _ body: (IntRect) -> Void
    ) {
        let rows = (frame.height + tile - 1) / tile
        for row in 0..<rows { left[row] = touched[row] }
        for row in 0..<rows {
            while left[row] != 0 {
                let start = left[row].trailingZeroBitCount
                let length = (~(left[row] >> UInt64(start))).trailingZeroBitCount
                let run = (length == 64 ? ~0 : (UInt64(1) << UInt64(length)) - 1) << UInt64(start)
                var end = row + 1
                while end < rows, left[end] & run == run {
                    left[end] &= ~run
                    end += 1
                }
                left[row] &= ~run
                body(
                    IntRect(
                        x: frame.x + start * tile, y: frame.y + row * tile, width: length * tile,
                        height: (end - row) * tile
                    )
                    .intersection(frame))
            }
        }
    }

    /// The grid of tiles twice the size: a tile touched where any of its four was.
    private static func halve(_ touched: UnsafeMutableBufferPointer<UInt64>) {
        for row in 0..<32 {
            let pair = touched[2 * row] | touched[2 * row + 1]
            var halved: UInt64 = 0
            for column in 0..<32 where pair >> UInt64(2 * column) & 3 != 0 { halved |= 1 << UInt64(column) }
            touched[row] = halved
        }
        for row in 32..<64 { touched[row] = 0 }
    }

    /// Replaces the two rectangles whose bounding box adds the least area by that box.
    func mergeCheapestPair(_ rects: inout [IntRect]) {
        var best = (i: 0, j: 1, waste: Int.max)
        for i in rects.indices {
            for j in rects.indices where j > i {
                let waste = rects[i].union(rects[j]).area - rects[i].area - rects[j].area
                if waste < best.waste { best = (i, j, waste) }
            }
        }
        rects[best.i] = rects[best.i].union(rects[best.j])
        rects.remove(at: best.j)
    }

    /// Merges pairs whose bounding box wastes little area until no pair does.
    func merge(_ out: inout [IntRect]) {
        var changed = true
        while changed {
            changed = false
            search: for i in out.indices {
                for j in out.indices where j > i {
                    // Overlapping rectangles merge only when their box wastes little too: a band
                    // of strips along a moving outline, each overlapping the next, must not
                    // become the box around the whole outline (the overlaps are repainted
                    // twice, the same pixels each time).
                    let u = out[i].union(out[j])
                    if Double(u.area) <= mergeSlack * Double(out[i].area + out[j].area) {
                        out[i] = u
                        out.remove(at: j)
                        changed = true
                        break search
                    }
                }
            }
        }
    }
}
