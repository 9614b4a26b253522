import CMemory

/// What the rows of a context's bitmap hold from one drawing to the next: row `y` holds one
/// opaque pixel value everywhere but in the tiles (runs of columns, at most 64 to a row) that
/// drawing may have changed since. Filling a rectangle with that value again need only write
/// the rectangle's part of those tiles: a player's stage painting its background over a whole
/// frame (a dissolve repaints every pixel) then writes only where the frame before drew over
/// it, and under scattered drawing (confetti) only around each piece.
///
/// Kept by the contexts drawing one bitmap (the bands of a frame) and valid only while nothing
/// else writes the bitmap: `forget()` after something did. Two bands drawn at once may share
/// rows (damage rectangles side by side), never columns: their tiles' bits are set and cleared
/// atomically, and a row's colour changes only with a fill across the whole row, which no other
/// band then shares.
final class PlainRows {
    /// Whether the contexts keep the rows (off: every fill writes all its pixels).
    var isOn = false
    let width: Int
    let height: Int
    /// log2 of a tile's width: the narrowest power of two (at least 8 pixels) that covers a
    /// row in 64 tiles.
    let tileShift: Int
    /// Row `y` holds `pixels[y]` outside the tiles whose bits are set in `tiles[y]`; nothing is
    /// known of it when `pixels[y]` is not opaque.
    private let pixels: UnsafeMutablePointer<UInt32>
    private let tiles: UnsafeMutablePointer<UInt64>
    /// Pixels fills did not write because they held the colour already (for tests).
    let skippedPixels = SharedCount()

    init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        var shift = 3
        while (1 << shift) * 64 < self.width { shift += 1 }
        tileShift = shift
        pixels = .allocate(capacity: max(1, self.height))
        tiles = .allocate(capacity: max(1, self.height))
        forget()
    }

    deinit {
        pixels.deallocate()
        tiles.deallocate()
    }

    /// Nothing is known of any row any more.
    func forget() {
        pixels.update(repeating: 0, count: height)
        tiles.update(repeating: ~0, count: height)
    }

    /// The tiles holding any of columns `x..<maxX` (`x < maxX`, inside the row).
    @inline(__always)
    func tilesTouching(_ x: Int, _ maxX: Int) -> UInt64 {
        let first = x >> tileShift, last = (maxX &- 1) >> tileShift
        return ((~0 as UInt64) >> UInt64(63 &- (last &- first))) << UInt64(first)
    }

    /// The tiles all of whose columns lie in `x..<maxX` (inside the row): a tile past the
    /// row's end counts as ending with it.
    @inline(__always)
    private func tilesWithin(_ x: Int, _ maxX: Int) -> UInt64 {
        let first = (x &+ (1 << tileShift) &- 1) >> tileShift
        let end = maxX == width ? (width &+ (1 << tileShift) &- 1) >> tileShift : maxX >> tileShift
        guard first < end else { return 0 }
        return ((~0 as UInt64) >> UInt64(64 &- (end &- first))) << UInt64(first)
    }

    /// The tiles of row `y` that may not hold `pixel`: all of them when the row holds another
    /// colour.
    @inline(__always)
    func staleTiles(_ y: Int, for pixel: UInt32) -> UInt64 {
        pixels[y] == pixel ? vitrine_bits_load(tiles + y) : ~0
    }

    /// Calls `body` with each run of columns within `x..<maxX` (inside a row) of the tiles in
    /// `mask`, left to right.
    @inline(__always)
    func forEachRun(of mask: UInt64, _ x: Int, _ maxX: Int, _ body: (Int, Int) -> Void) {
        var runs = self.runs(of: mask, x, maxX)
        while let (start, end) = runs.next() { body(start, end) }
    }

    /// The runs of columns within `x..<maxX` (inside a row) of the tiles in `mask`, left to
    /// right (`forEachRun` without a closure).
    @inline(__always)
    func runs(of mask: UInt64, _ x: Int, _ maxX: Int) -> TileRuns {
        TileRuns(left: mask & tilesTouching(x, maxX), x: x, maxX: maxX, tileShift: tileShift)
    }

    struct TileRuns {
        var left: UInt64
        let x: Int, maxX: Int, tileShift: Int

        @inline(__always)
        mutating func next() -> (Int, Int)? {
            guard left != 0 else { return nil }
            let first = left.trailingZeroBitCount
            // The run of set bits from `first`: its length is the zeros after it in the inverse.
            let length = (~(left >> UInt64(first))).trailingZeroBitCount
            left = length == 64 ? 0 : left & ~(((~0 as UInt64) >> UInt64(64 &- length)) << UInt64(first))
            return (max(x, first << tileShift), min(maxX, (first &+ length) << tileShift))
        }
    }

    /// Drawing may have changed the pixels of `region`.
    func drawn(_ region: IntRect) {
        let r = region.intersection(IntRect(x: 0, y: 0, width: width, height: height))
        guard !r.isEmpty else { return }
        let touched = tilesTouching(r.x, r.maxX)
        for y in r.y..<r.maxY { drawn(row: y, tiles: touched) }
    }

    /// Drawing may have changed the `touched` tiles of row `y` (inside the bitmap). An atomic
    /// update only where a bit changes (most rows drawn on are marked already): no other band
    /// sets or clears these tiles, so the test cannot be overtaken.
    @inline(__always)
    func drawn(row y: Int, tiles touched: UInt64) {
        if vitrine_bits_load(tiles + y) & touched != touched { vitrine_bits_set(tiles + y, touched) }
    }

    /// All of `region` now holds `pixel`, opaque: the tiles of a row that lie inside it hold
    /// only `pixel` (when the row's other tiles did), and a row filled across its whole width
    /// holds it alone.
    func filled(_ region: IntRect, with pixel: UInt32) {
        let r = region.intersection(IntRect(x: 0, y: 0, width: width, height: height))
        guard !r.isEmpty else { return }
        let inside = tilesWithin(r.x, r.maxX), touched = tilesTouching(r.x, r.maxX)
        let wholeRows = r.x == 0 && r.width == width
        for y in r.y..<r.maxY {
            if pixels[y] == pixel {
                if vitrine_bits_load(tiles + y) & inside != 0 { vitrine_bits_clear(tiles + y, inside) }
            } else if wholeRows {
                pixels[y] = pixel
                tiles[y] = 0
            } else {
                // Another colour lies outside the region: only a whole row starts over.
                drawn(row: y, tiles: touched)
            }
        }
    }

    /// Counts pixels a fill left as they were.
    func skipped(_ count: Int) { skippedPixels.add(count) }
}

/// The rows of a rectangle set to one opaque pixel where they do not hold it already
/// (`PlainRows`), as a `RowBands` job.
struct StaleRowsFill: RowBandJob {
    let target: DrawTarget
    let rect: IntRect
    let pixel: UInt32
    let plain: PlainRows

    func run(rows: Range<Int>) {
        guard !rows.isEmpty else { return }
        // Per rectangle, not per row: the tiles it touches, and its first row's pixels (the
        // rows of scattered damage are short, and the per-row set-up was most of their cost).
        let touched = plain.tilesTouching(rect.x, rect.maxX)
        var row = target.row(rows.lowerBound) + rect.x
        var written = 0
        for y in rows {
            let stale = plain.staleTiles(y, for: pixel) & touched
            if stale == touched {
                // Every tile it touches (the usual case): the whole span.
                PixelFill.fill(row, pixel, count: rect.width)
                written &+= rect.width
            } else if stale != 0 {
                var runs = plain.runs(of: stale, rect.x, rect.maxX)
                while let (x, maxX) = runs.next() {
                    PixelFill.fill(row + (x &- rect.x), pixel, count: maxX &- x)
                    written &+= maxX &- x
                }
            }
            row += target.stride
        }
        plain.skipped(rows.count * rect.width - written)
    }
}
