/// What the rows of a context's bitmap hold from one drawing to the next: row `y` holds one
/// opaque pixel value everywhere outside a run of columns that may hold anything. Filling a
/// rectangle with that value again need only write the rectangle's part of the run: a player's
/// stage painting its background over a whole frame (a dissolve repaints every pixel) then
/// writes only where the frame before drew over it.
///
/// Kept by the contexts drawing one bitmap (the bands of a frame, each on rows of its own) and
/// valid only while nothing else writes the bitmap: `forget()` after something did.
final class PlainRows {
    /// Row `y`: `pixel` outside `first..<end` (all of it when `end <= first`); nothing known when
    /// `pixel` is not opaque.
    struct Row {
        var pixel: UInt32
        var first: Int32
        var end: Int32
    }

    /// Whether the contexts keep the rows (off: every fill writes all its pixels).
    var isOn = false
    let width: Int
    let height: Int
    private let rows: UnsafeMutablePointer<Row>
    /// Pixels fills did not write because they held the colour already (for tests).
    let skippedPixels = SharedCount()

    init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        rows = .allocate(capacity: max(1, self.height))
        forget()
    }

    deinit { rows.deallocate() }

    /// Nothing is known of any row any more.
    func forget() {
        rows.update(repeating: Row(pixel: 0, first: 0, end: Int32(width)), count: height)
    }

    /// The columns of row `y` within `x..<maxX` that do not hold `pixel` already (as a range,
    /// possibly empty).
    @inline(__always)
    func stale(_ y: Int, _ x: Int, _ maxX: Int, for pixel: UInt32) -> Range<Int> {
        let row = rows[y]
        guard row.pixel == pixel else { return x..<maxX }
        let first = max(x, Int(row.first)), end = min(maxX, Int(row.end))
        return first < end ? first..<end : x..<x
    }

    /// Drawing may have changed the pixels of `region`.
    func drawn(_ region: IntRect) {
        let r = region.intersection(IntRect(x: 0, y: 0, width: width, height: height))
        guard !r.isEmpty else { return }
        let x = Int32(r.x), maxX = Int32(r.maxX)
        for y in r.y..<r.maxY where !(rows[y].first <= x && maxX <= rows[y].end) {
            if rows[y].end <= rows[y].first {
                (rows[y].first, rows[y].end) = (x, maxX)
            } else {
                (rows[y].first, rows[y].end) = (min(rows[y].first, x), max(rows[y].end, maxX))
            }
        }
    }

    /// All of `region` now holds `pixel`, opaque: what a row held of it outside the region stays
    /// known, and a row filled across its whole width holds it alone.
    func filled(_ region: IntRect, with pixel: UInt32) {
        let r = region.intersection(IntRect(x: 0, y: 0, width: width, height: height))
        guard !r.isEmpty else { return }
        let x = Int32(r.x), maxX = Int32(r.maxX)
        let wholeRows = r.x == 0 && r.width == width
        for y in r.y..<r.maxY {
            var row = rows[y]
            if row.pixel != pixel {
                // Another colour lies outside the region: only a whole row starts over.
                guard wholeRows else {
                    drawn(IntRect(x: r.x, y: y, width: r.width, height: 1))
                    continue
                }
                row = Row(pixel: pixel, first: 0, end: 0)
            } else if row.first < row.end {
                // What is left of the run either side of the region, as one run.
                let left = row.first < x, right = row.end > maxX
                switch (left, right) {
                case (true, true): break
                case (true, false): row.end = min(row.end, x)
                case (false, true): row.first = max(row.first, maxX)
                case (false, false): row.end = row.first
                }
            }
            rows[y] = row
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
        var written = 0
        for y in rows {
            let columns = plain.stale(y, rect.x, rect.maxX, for: pixel)
            guard !columns.isEmpty else { continue }
            PixelFill.fill(target.row(y) + columns.lowerBound, pixel, count: columns.count)
            written += columns.count
        }
        plain.skipped(rows.count * rect.width - written)
    }
}
