import VitrineGraphics

extension DrawSpec {
    /// The spec drawn into a new bitmap of its size.
    public func render() -> Bitmap {
        let bitmap = Bitmap(width: width, height: height)
        render(into: GraphicsContext(bitmap: bitmap))
        return bitmap
    }

    /// Draws the spec into `context`: background, then every item in source order.
    public func render(into context: GraphicsContext) {
        context.clear(background ?? .clear)
        for item in items {
            switch item {
            case .shape(let shape): DrawSpec.draw(shape, in: context)
            case .text(let text): DrawSpec.draw(text, in: context)
            }
        }
    }

    static func draw(_ shape: Shape, in context: GraphicsContext) {
        context.saveGState()
        defer { context.restoreGState() }
        context.concatenate(shape.transform)
        // A translucent shape is one group: its shadow inside it, fading with it (as a layer's).
        let grouped = shape.opacity < 1
        if grouped { context.beginTransparencyLayer(alpha: shape.opacity) }
        if let shadow = shape.shadow {
            context.drawWithShadow(shadow, casterBounds: paintBounds(of: shape)) { drawPaint(of: shape, in: context) }
        } else {
            drawPaint(of: shape, in: context)
        }
        if grouped { context.endTransparencyLayer() }
    }

    /// Where the shape's fill and stroke can paint (user space), or nil through a projection.
    private static func paintBounds(of shape: Shape) -> Rect? {
        guard shape.projection == nil else { return nil }
        let bounds = shape.path.bounds
        guard shape.strokeColor != nil || shape.strokeGradient != nil else { return bounds }
        let reach = shape.path.strokeReach(shape.strokeStyle)
        return bounds.insetBy(dx: -reach, dy: -reach)
    }

    /// The fill, then the stroke.
    private static func drawPaint(of shape: Shape, in context: GraphicsContext) {
        if let projection = shape.projection {
            if let fill = shape.fillColor {
                context.fill(shape.path, color: fill, rule: shape.fillRule, through: projection)
            }
            if let stroke = shape.strokeColor {
                context.stroke(
                    shape.path, color: stroke, style: shape.strokeStyle, strokeStart: shape.strokeStart,
                    strokeEnd: shape.strokeEnd, through: projection)
            }
            return
        }
        if let gradient = shape.fillGradient {
            context.fill(shape.path, gradient: gradient, rule: shape.fillRule)
        } else if let fill = shape.fillColor {
            context.fill(shape.path, color: fill, rule: shape.fillRule)
        }
        if let gradient = shape.strokeGradient {
            context.stroke(
                shape.path, gradient: gradient, style: shape.strokeStyle,
                strokeStart: shape.strokeStart, strokeEnd: shape.strokeEnd)
        } else if let stroke = shape.strokeColor {
            context.stroke(
                shape.path, color: stroke, style: shape.strokeStyle,
                strokeStart: shape.strokeStart, strokeEnd: shape.strokeEnd)
        }
    }

    static func draw(_ text: Text, in context: GraphicsContext) {
        guard let font = try? Font(family: text.font, size: text.fontSize) else { return }
        context.fill(font.path(for: text.string, at: text.position), color: text.color)
    }
}
