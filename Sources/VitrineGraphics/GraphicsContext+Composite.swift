/// Pixel-exact compositing of pre-rendered pixels (a layer's backing store) onto the target.
extension GraphicsContext {
    /// Blends the pixels of `source` inside `sourceRect` source-over onto the target, the
    /// rectangle's top-left corner landing on device pixel (`x`, `y`): no transform and no
    /// filtering, through the clip, multiplied by the global alpha.
    public func composite(_ source: Bitmap, from sourceRect: IntRect, toX x: Int, y: Int) {
        guard !discardsDrawing else { return }
        let src = sourceRect.intersection(IntRect(x: 0, y: 0, width: source.width, height: source.height))
        guard !src.isEmpty else { return }
        // Device position of the source pixel (sx, sy) is (sx + dx, sy + dy).
        let dx = x - sourceRect.x, dy = y - sourceRect.y
        let region = IntRect(x: src.x + dx, y: src.y + dy, width: src.width, height: src.height)
            .intersection(state.clipBox)
        let factor = PixelMath.unitByte(state.alpha)
        guard !region.isEmpty, factor != 0 else { return }
        let mask = state.clipMask
        for row in region.y..<region.maxY {
            let pixels = UnsafePointer(source.row(row - dy) + (region.x - dx))
            SpanBlitter.blendPixels(
                target.row(row), x: region.x, pixels, count: region.width, factor: factor,
                mask: mask.map { UnsafePointer($0.deviceRow(row)) })
        }
        markDrawn(region)
    }
}
