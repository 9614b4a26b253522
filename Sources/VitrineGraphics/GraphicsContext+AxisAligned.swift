/// Rectangles, rounded or not, that the transform keeps axis-aligned: a layer's background,
/// a progress bar, a bar of an equaliser scaled on one axis. Between its corners a row of
/// such a rectangle is crossed by its two straight sides only, so its coverage is one pixel at
/// each end and a run between; only the rows its corners reach need the rasterizer.
extension GraphicsContext {
    /// Fewer rows than this between the corners go through the rasterizer with the rest (the
    /// corners' own passes would then be most of the work).
    static let fewestStraightRows = 4

    /// Fills `rect`, its corners rounded by `cornerRadius` (0: square; clamped as
    /// `Rasterizer.addRoundedRect` clamps it), with the premultiplied `pixel` when the transform
    /// keeps it axis-aligned: the rows between its corners straight from the coverage of its
    /// two sides, the others through the rasterizer clipped to them. The pixels are the
    /// rasterizer's to the bit: its sides are vertical edges quantized as the rasterizer
    /// quantizes them, its coverage of a row between two vertical edges is exact area, the
    /// clip never moves an edge, and the runs go through the blender the sweep uses. False,
    /// drawing nothing, when this does not apply (a clip mask, a rotation or skew, a rectangle
    /// reaching past the target, too few rows between the corners).
    func fillsAxisAligned(_ rect: Rect, cornerRadius: Double, pixel: UInt32) -> Bool {
        let t = state.transform
        guard splitsAxisAlignedFills, state.clipMask == nil, t.b == 0, t.c == 0, !rect.isNull else { return false }
        let s = rect.standardized
        let r = Rasterizer.clampedCornerRadius(cornerRadius, of: s)
        // The device points the rasterizer's outline starts from: two opposite corners (the
        // bounds), and the ends of the right side (the left side's are level with them).
        let corner0 = t.apply(to: Point(x: s.minX, y: s.minY)), corner1 = t.apply(to: Point(x: s.maxX, y: s.maxY))
        let sideStart = t.apply(to: Point(x: s.maxX, y: s.minY + r)).y
        let sideEnd = t.apply(to: Point(x: s.maxX, y: s.maxY - r)).y
        let minX = min(corner0.x, corner1.x), maxX = max(corner0.x, corner1.x)
        let minY = min(corner0.y, corner1.y), maxY = max(corner0.y, corner1.y)
        // Inside the target (nothing for the rasterizer to clip or clamp), and finite.
        let width = Double(bitmap.width), height = Double(bitmap.height)
        guard minX >= 0, maxX <= width, minY >= 0, maxY <= height, minX < maxX, minY < maxY,
            sideStart.isFinite, sideEnd.isFinite
        else { return false }
        let clip = state.clipBox.intersection(IntRect(x: 0, y: 0, width: bitmap.width, height: bitmap.height))
        let geometry = Rasterizer.geometryBox(
            minX: minX, minY: minY, maxX: maxX, maxY: maxY, width: bitmap.width, height: bitmap.height)
        let region = geometry.intersection(clip)
        guard !region.isEmpty else { return false }
        // The sides quantized as the rasterizer quantizes every edge, and the rows (from the
        // geometry's origin) they cross from top to bottom.
        let gx0 = Double(geometry.x), gx1 = Double(geometry.maxX), gy0 = Double(geometry.y), gy1 = Double(geometry.maxY)
        let left = Rasterizer.fixedPoint(minX, from: gx0, to: gx1),
            right = Rasterizer.fixedPoint(maxX, from: gx0, to: gx1)
        let top = Rasterizer.fixedPoint(min(sideStart, sideEnd), from: gy0, to: gy1)
        let bottom = Rasterizer.fixedPoint(max(sideStart, sideEnd), from: gy0, to: gy1)
        let straightTop = max(geometry.y &+ (top &+ 255) >> 8, region.y)
        let straightBottom = min(geometry.y &+ bottom >> 8, region.maxY)
        guard straightBottom &- straightTop >= GraphicsContext.fewestStraightRows else { return false }

        // The rows the corners reach, above and below, through the rasterizer.
        func rasterize(rows first: Int, to end: Int) {
            guard end > first else { return }
            startShape(clip: IntRect(x: clip.x, y: first, width: clip.width, height: end &- first))
            rasterizer.addRoundedRect(rect, cornerRadius: cornerRadius, transform: t)
            blendSolid(pixel, rule: .nonZero)
        }
        rasterize(rows: region.y, to: straightTop)
        rasterize(rows: straightBottom, to: region.maxY)

        // The rows between: a vertical edge at sub-pixel x f leaves 256 − f of its pixel's 256
        // columns right of it, each a full row high (512 units of winding area), through the
        // rasterizer's own rounding to bytes.
        @inline(__always) func coverage(_ columns: Int) -> Int32 {
            Rasterizer.coverage(Int32(truncatingIfNeeded: columns &* 512), evenOdd: false)
        }
        let firstColumn = geometry.x &+ left >> 8, lastColumn = geometry.x &+ right >> 8
        let leftFraction = left & 255, rightFraction = right & 255
        // One partly covered pixel at each end and a run between (or one pixel for both
        // sides), each cut to the region: (first, end) and the coverage.
        @inline(__always) func cut(_ x: Int, _ length: Int) -> (Int, Int) {
            (max(x, region.x), min(x &+ length, region.maxX))
        }
        let single = firstColumn == lastColumn
        let head = cut(firstColumn, 1), run = cut(firstColumn &+ 1, lastColumn &- firstColumn &- 1)
        let tail = cut(lastColumn, 1)
        let headCoverage = coverage(single ? rightFraction &- leftFraction : 256 &- leftFraction)
        let tailCoverage = single ? 0 : coverage(rightFraction)
        for y in straightTop..<straightBottom {
            var blender = SpanBlitter.SolidBlender(row: target.row(y), color: pixel)
            if head.1 > head.0 && headCoverage != 0 { blender.run(x: head.0, length: 1, coverage: headCoverage) }
            if run.1 > run.0 { blender.run(x: run.0, length: run.1 &- run.0, coverage: 255) }
            if tail.1 > tail.0 && tailCoverage != 0 { blender.run(x: tail.0, length: 1, coverage: tailCoverage) }
        }
        markDrawn(IntRect(x: region.x, y: straightTop, width: region.width, height: straightBottom &- straightTop))
        return true
    }
}
