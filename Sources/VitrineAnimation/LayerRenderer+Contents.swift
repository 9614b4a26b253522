import VitrineGraphics

extension Layer {
    /// The part of an image of `size` pixels that `contentsRect` shows, in image pixels (unit
    /// coordinates scaled; not clipped to the image).
    func contentsSource(forImageOf size: Size) -> Rect {
        let r = contentsRect.standardized
        return Rect(
            x: r.minX * size.width, y: r.minY * size.height, width: r.width * size.width, height: r.height * size.height
        )
    }

    /// Where `image` (its `contentsRect` part) is drawn in the bounds, by `contentsGravity`.
    func contentsPlacement(of image: Image) -> Rect {
        contentsGravity.rect(forContentsOf: contentsSource(forImageOf: image.size).size, in: bounds.standardized)
    }

    /// Whether `contentsCenter` leaves corners and edges unstretched.
    var isNineSliced: Bool { contentsCenter.standardized != Rect(x: 0, y: 0, width: 1, height: 1) }
}

/// Layer contents: the `contentsRect` part of the image placed by `contentsGravity`, and
/// nine-slice scaling by `contentsCenter`. Parts are drawn from crops of their own (cached in
/// `ImageCrops`), so filtering at a cell's edge never reads the next cell.
extension LayerRenderer {
    func drawContents(_ image: Image, of layer: Layer, in ctx: GraphicsContext) {
        let source = layer.contentsSource(forImageOf: image.size)
        let placed = layer.contentsPlacement(of: image)
        guard source.width > 0, source.height > 0, placed.width > 0, placed.height > 0,
            [source.minX, source.minY, source.maxX, source.maxY].allSatisfy({ $0.isFinite && abs($0) < 1e9 })
        else { return }
        guard layer.isNineSliced else {
            draw(image, part: source, in: placed, ctx: ctx)
            return
        }
        // The part's columns and rows: fixed-size corners, stretched middles. Corners wider than
        // the placement shrink together, as Core Animation shrinks them.
        let center = layer.contentsCenter.standardized
        let xs = [0, center.minX, center.maxX, 1].map { source.minX + min(max($0, 0), 1) * source.width }
        let ys = [0, center.minY, center.maxY, 1].map { source.minY + min(max($0, 0), 1) * source.height }
        let to = ctx.transform
        func edges(_ cuts: [Double], from start: Double, length: Double, snap: (Double) -> Double) -> [Double] {
            let first = cuts[1] - cuts[0], last = cuts[3] - cuts[2]
            let shrink = first + last > length ? length / (first + last) : 1
            return [start, start + first * shrink, start + length - last * shrink, start + length].map(snap)
        }
        // On an axis-aligned device mapping the cuts land on whole device pixels: neighbouring
        // parts then share their edge pixels exactly, with no seam.
        let aligned = to.b == 0 && to.c == 0 && to.a != 0 && to.d != 0
        let dx = edges(xs, from: placed.minX, length: placed.width) { x in
            aligned ? ((to.a * x + to.tx).rounded() - to.tx) / to.a : x
        }
        let dy = edges(ys, from: placed.minY, length: placed.height) { y in
            aligned ? ((to.d * y + to.ty).rounded() - to.ty) / to.d : y
        }
        for row in 0..<3 {
            for column in 0..<3 {
                let part = Rect(
                    x: xs[column], y: ys[row], width: xs[column + 1] - xs[column], height: ys[row + 1] - ys[row])
                let target = Rect(
                    x: dx[column], y: dy[row], width: dx[column + 1] - dx[column], height: dy[row + 1] - dy[row])
                if part.width > 0, part.height > 0, target.width > 0, target.height > 0 {
                    draw(image, part: part, in: target, ctx: ctx)
                }
            }
        }
    }

    /// Draws the `part` of `image` (image pixels) into `rect`: the whole pixels around the part
    /// are cut out and drawn scaled so that the part fills `rect`, clipped to it.
    private func draw(_ image: Image, part: Rect, in rect: Rect, ctx: GraphicsContext) {
        let whole = IntRect(x: 0, y: 0, width: image.width, height: image.height)
        if part == Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height)) {
            ctx.draw(image, in: rect)
            return
        }
        let cut = IntRect(enclosing: part).intersection(whole)
        guard !cut.isEmpty else { return }
        let crop = cacheLock.withLock { crops.image(image, cut: cut, pass: pass) }
        let sx = rect.width / part.width, sy = rect.height / part.height
        let spread = Rect(
            x: rect.minX - (part.minX - Double(cut.x)) * sx, y: rect.minY - (part.minY - Double(cut.y)) * sy,
            width: Double(cut.width) * sx, height: Double(cut.height) * sy)
        if spread == rect {
            ctx.draw(crop, in: rect)
        } else {
            ctx.saveGState()
            ctx.clip(to: rect)
            ctx.draw(crop, in: spread)
            ctx.restoreGState()
        }
    }
}

/// Crops of contents images (sprite-sheet cells, nine-slice parts), kept while they are drawn
/// in consecutive passes: a sprite animation cuts each cell once.
final class ImageCrops {
    private struct Key: Hashable {
        let image: ObjectIdentifier
        let cut: IntRect
    }
    private final class Entry {
        let source: Image
        let crop: Image
        var lastPass: Int
        init(source: Image, crop: Image, pass: Int) {
            self.source = source
            self.crop = crop
            lastPass = pass
        }
    }
    private var entries: [Key: Entry] = [:]

    func image(_ image: Image, cut: IntRect, pass: Int) -> Image {
        let key = Key(image: ObjectIdentifier(image), cut: cut)
        if let entry = entries[key], entry.source === image {
            entry.lastPass = pass
            return entry.crop
        }
        let crop = image.cropped(to: cut)
        entries[key] = Entry(source: image, crop: crop, pass: pass)
        return crop
    }

    /// Every 64 passes, drops the crops not drawn in the last 64: a sprite's cells stay cut
    /// while it plays, and a sheet no longer shown is let go.
    func endPass(_ pass: Int) {
        guard !entries.isEmpty, pass % 64 == 0 else { return }
        entries = entries.filter { pass - $0.value.lastPass < 64 }
    }
}
