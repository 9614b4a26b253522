import Glibc
import VitrineGraphics

/// One kind of particle an emitter makes (CAEmitterCell's main properties). Ranges spread a
/// value evenly either way of it for each particle; speeds change a value over a particle's life.
public struct EmitterCell: Equatable, Sendable {
    /// Particles made per second.
    public var birthRate: Double = 0
    /// Seconds a particle lives, ± `lifetimeRange`.
    public var lifetime: Double = 0
    public var lifetimeRange: Double = 0
    /// Initial speed in units per second, ± `velocityRange`.
    public var velocity: Double = 0
    public var velocityRange: Double = 0
    /// Direction of emission in radians, clockwise on screen from +x, ± `emissionRange`.
    public var emissionLongitude: Double = 0
    public var emissionRange: Double = 0
    /// Acceleration in units per second², e.g. gravity as a positive `yAcceleration`.
    public var xAcceleration: Double = 0
    public var yAcceleration: Double = 0
    /// Size factor of the image, ± `scaleRange`, changing by `scaleSpeed` per second.
    public var scale: Double = 1
    public var scaleRange: Double = 0
    public var scaleSpeed: Double = 0
    /// Turning speed in radians per second, ± `spinRange`.
    public var spin: Double = 0
    public var spinRange: Double = 0
    /// Change of the colour's alpha per second (a negative value fades particles out).
    public var alphaSpeed: Double = 0
    /// Multiplies the image, ± each channel's range.
    public var color: Color = .white
    public var redRange: Double = 0
    public var greenRange: Double = 0
    public var blueRange: Double = 0
    public var alphaRange: Double = 0
    /// The particle's image; without one, a square of `EmitterCell.squareSize` in the colour.
    public var contents: Image? = nil

    /// The side of the square a cell without an image draws (Vitrine's; Core Animation draws
    /// nothing without contents).
    public static let squareSize = 10.0

    public init() {}

    /// The longest a particle of this cell lives.
    public var longestLife: Double { max(0, lifetime + abs(lifetimeRange)) }

    /// How many particles of this cell can be alive at once (its birth rate times the longest
    /// life), the figure the config limits.
    public var mostAlive: Double { max(0, birthRate) * longestLife }

    public static func == (a: EmitterCell, b: EmitterCell) -> Bool {
        a.birthRate == b.birthRate && a.lifetime == b.lifetime && a.lifetimeRange == b.lifetimeRange
            && a.velocity == b.velocity && a.velocityRange == b.velocityRange
            && a.emissionLongitude == b.emissionLongitude && a.emissionRange == b.emissionRange
            && a.xAcceleration == b.xAcceleration && a.yAcceleration == b.yAcceleration && a.scale == b.scale
            && a.scaleRange == b.scaleRange && a.scaleSpeed == b.scaleSpeed && a.spin == b.spin
            && a.spinRange == b.spinRange && a.alphaSpeed == b.alphaSpeed && a.color == b.color
            && a.redRange == b.redRange && a.greenRange == b.greenRange && a.blueRange == b.blueRange
            && a.alphaRange == b.alphaRange && a.contents === b.contents
    }
}

/// Where an emitter's particles are born (kCAEmitterLayer… shapes): at `emitterPosition`,
/// along a horizontal line `emitterSize.width` long, in a rectangle of `emitterSize`, or in a
/// circle of diameter `emitterSize.width`, all centred on the position.
public enum EmitterShape: String, Sendable, CaseIterable { case point, line, rectangle, circle }

/// How particles are composited: over one another, or added to what is below (a glow).
public enum EmitterRenderMode: String, Sendable, CaseIterable { case unordered, additive }

/// A particle system (CAEmitterLayer). Unlike Core Animation's, it keeps no state: particle k
/// of a cell is born at k / birthRate seconds after the emitter starts, and everything about it
/// (place of birth, direction, speed, life, spin, scale, colour) comes from a generator seeded
/// by the emitter's `seed`, the cell and k. The frame at any time is thus a function of that
/// time alone: rendering at 5 s gives the same picture whether or not 0–5 s were drawn, and
/// scrubbing works.
open class EmitterLayer: Layer {
    /// The kinds of particle made. Defaults to none. Not animatable.
    @LayerProperty public var emitterCells: [EmitterCell] = []
    /// Centre of the emission shape, in the layer's coordinates. Defaults to (0, 0). Animatable.
    @Animatable public var emitterPosition: Point = .zero
    /// Size of the emission shape. Defaults to (0, 0). Animatable.
    @Animatable public var emitterSize: Size = Size(width: 0, height: 0)
    /// The emission shape. Defaults to `.point`. Not animatable.
    @LayerProperty public var emitterShape: EmitterShape = .point
    /// How particles composite. Defaults to `.unordered`. Not animatable.
    @LayerProperty public var renderMode: EmitterRenderMode = .unordered
    /// Multiplies every cell's birth rate (0 stops emission; particles alive live on).
    /// Defaults to 1. Not animatable (a change reshapes the whole closed-form history).
    @LayerProperty public var birthRate: Double = 1
    /// Seeds the particles' randomness. Defaults to 0. Not animatable.
    @LayerProperty public var seed: Int = 0
    /// Seconds of the layer's time since 0: kept by the layer's own animation under
    /// `EmitterLayer.clockKey`, so pausing, speed and timeOffset apply as to any animation.
    @Animatable public var emitterTime: Double = 0

    /// The key of the animation that runs `emitterTime`.
    public static let clockKey = "emitterClock"
    /// The most particles drawn in one frame, whatever the cells ask (the config refuses more).
    public static let maximumParticles = 20_000

    public required init() {
        super.init()
        let clock = BasicAnimation(keyPath: "emitterTime")
        clock.fromValue = 0.0
        clock.toValue = EmitterLayer.clockSpan
        clock.duration = EmitterLayer.clockSpan
        clock.timingFunction = .linear
        // From the layer's time 0 (a scene's start), not from when a frame first meets it: the
        // particles at a scene time are then the same however the scene came on screen.
        clock.beginTime = (0.0).nextDown
        add(clock, forKey: EmitterLayer.clockKey)
    }

    public required init(layer: Layer) { super.init(layer: layer) }

    /// A hundred years: the clock runs as long as a kiosk does.
    static let clockSpan = 3.15e9

    open override class func needsDisplay(forKey key: String) -> Bool {
        [
            "emitterCells", "emitterPosition", "emitterSize", "emitterShape", "renderMode", "birthRate", "seed",
            "emitterTime"
        ]
        .contains(key) || super.needsDisplay(forKey: key)
    }

    /// One particle, where and how it is at the emitter's time.
    struct Particle {
        let cell: Int
        let position: Point
        let angle: Double
        let scale: Double
        let color: Color
        /// Half the diagonal of its turned square (or image), and a pixel of anti-aliasing:
        /// nothing it paints is farther from `position` along either axis.
        let reach: Double

        /// A box around everything it paints.
        var box: Rect { Rect(x: position.x - reach, y: position.y - reach, width: 2 * reach, height: 2 * reach) }
    }

    /// The particles at `emitterTime`: computed once for a presentation copy (its frame draws
    /// them and the next frame's damage compares them), each time for a model layer.
    var currentParticles: [Particle] {
        guard isPresentationCopy else { return particles(at: emitterTime) }
        if !shownParticlesAreCurrent {
            particles(at: emitterTime, into: &shownParticles)
            shownParticlesAreCurrent = true
        }
        return shownParticles
    }
    /// A copy's particles, and whether they are its time's: a recycled copy computes them
    /// again into the same storage (no allocation per frame).
    private var shownParticles: [Particle] = []
    private var shownParticlesAreCurrent = false

    override func recycle(asCopyOf model: Layer) {
        super.recycle(asCopyOf: model)
        shownParticlesAreCurrent = false
    }

    /// How many particles are alive at `time` seconds of the emitter (at most `maximumParticles`).
    public func particleCount(at time: Double) -> Int { particles(at: time).count }

    /// The particles alive at `time` seconds, oldest first, at most `maximumParticles`.
    func particles(at time: Double) -> [Particle] {
        var out: [Particle] = []
        particles(at: time, into: &out)
        return out
    }

    /// `particles(at:)` written into `out`, whose storage is reused.
    private func particles(at time: Double, into out: inout [Particle]) {
        out.removeAll(keepingCapacity: true)
        guard time.isFinite, time >= 0 else { return }
        for (index, cell) in emitterCells.enumerated() {
            let rate = cell.birthRate * birthRate
            guard rate > 0, rate.isFinite, cell.longestLife > 0, cell.longestLife.isFinite else { continue }
            // Born at k / rate: those still possibly alive were born in (time − longestLife, time].
            let first = max(0, Int(((time - cell.longestLife) * rate).rounded(.down)))
            let last = Int((time * rate).rounded(.down))
            guard last >= first else { continue }
            for k in first...last {
                if out.count >= EmitterLayer.maximumParticles { return }
                if let p = particle(k, of: cell, index: index, rate: rate, at: time) { out.append(p) }
            }
        }
    }

    private func particle(_ k: Int, of cell: EmitterCell, index: Int, rate: Double, at time: Double) -> Particle? {
        let age = time - Double(k) / rate
        var random = SplitMix(state: UInt64(bitPattern: Int64(seed)) &* 0x9E37_79B9 ^ UInt64(index) << 48 ^ UInt64(k))
        // Each quantity draws in a fixed order, so changing one range does not move the others.
        func spread(_ value: Double, _ range: Double) -> Double { value + range * (2 * random.next() - 1) }
        let life = spread(cell.lifetime, cell.lifetimeRange)
        guard age >= 0, age < life else { return nil }
        let origin = birthPlace(&random)
        let direction = spread(cell.emissionLongitude, cell.emissionRange)
        let speed = spread(cell.velocity, cell.velocityRange)
        let scale = spread(cell.scale, cell.scaleRange) + cell.scaleSpeed * age
        let spin = spread(cell.spin, cell.spinRange)
        let phase = 2 * Double.pi * random.next()
        let unit = { (v: Double) in min(max(v, 0), 1) }
        let color = Color(
            red: unit(spread(cell.color.red, cell.redRange)), green: unit(spread(cell.color.green, cell.greenRange)),
            blue: unit(spread(cell.color.blue, cell.blueRange)),
            alpha: unit(spread(cell.color.alpha, cell.alphaRange) + cell.alphaSpeed * age))
        guard scale > 0, color.alpha > 0 else { return nil }
        let position = Point(
            x: origin.x + speed * cos(direction) * age + cell.xAcceleration * age * age / 2,
            y: origin.y + speed * sin(direction) * age + cell.yAcceleration * age * age / 2)
        let side = cell.contents.map { Double(max($0.width, $0.height)) } ?? EmitterCell.squareSize
        return Particle(
            cell: index, position: position, angle: phase + spin * age, scale: scale, color: color,
            reach: scale * side * 0.7072 + 1)
    }

    private func birthPlace(_ random: inout SplitMix) -> Point {
        let c = emitterPosition, size = emitterSize
        let u = random.next(), v = random.next()
        switch emitterShape {
        case .point: return c
        case .line: return Point(x: c.x + (u - 0.5) * size.width, y: c.y)
        case .rectangle: return Point(x: c.x + (u - 0.5) * size.width, y: c.y + (v - 0.5) * size.height)
        case .circle:
            let r = size.width / 2 * v.squareRoot(), a = 2 * Double.pi * u
            return Point(x: c.x + r * cos(a), y: c.y + r * sin(a))
        }
    }

    /// The particles at `emitterTime`, oldest first (in additive mode, added to what is below).
    open override func draw(in ctx: GraphicsContext) {
        let alive = currentParticles
        guard !alive.isEmpty else { return }
        if renderMode == .additive { ctx.beginAdditiveTransparencyLayer(alpha: 1) }
        // Scattered damage repaints many small rectangles, each drawing the layer: particles
        // wholly outside the one being repainted are passed over.
        let visible = ctx.transform.inverted().map { $0.apply(to: ctx.clipBoundingBox.rect) }
        for p in alive {
            if let visible,
                abs(p.position.x - visible.midX) >= p.reach + visible.width / 2
                    || abs(p.position.y - visible.midY) >= p.reach + visible.height / 2
            {
                continue
            }
            let cell = emitterCells[p.cell]
            ctx.saveGState()
            ctx.concatenate(
                Transform2D(scaleX: p.scale, y: p.scale).concatenating(Transform2D(rotationAngle: p.angle))
                    .concatenating(Transform2D(translationX: p.position.x, y: p.position.y)))
            if let image = cell.contents {
                let w = Double(image.width), h = Double(image.height)
                ctx.draw(image, in: Rect(x: -w / 2, y: -h / 2, width: w, height: h), tint: p.color)
            } else {
                let s = EmitterCell.squareSize
                ctx.fill(Rect(x: -s / 2, y: -s / 2, width: s, height: s), color: p.color)
            }
            ctx.restoreGState()
        }
        if renderMode == .additive { ctx.endTransparencyLayer() }
    }

    /// When only time moved on: the boxes of the particles then and now.
    open override func changedDrawingArea(since previous: Layer, changedKeys: [String]) -> Rect? {
        guard changedKeys == ["emitterTime"], let previous = previous as? EmitterLayer else { return nil }
        var area = Rect.null
        for p in currentParticles { area = area.union(p.box) }
        for p in previous.currentParticles { area = area.union(p.box) }
        return area
    }

    /// When only time moved on: each particle's box then and now, one rectangle each (scattered
    /// pieces of confetti repaint around themselves, not the screen between them); past
    /// `separateDamageLimit` particles, their one bounding box.
    open override func changedDrawingAreas(
        since previous: Layer, changedKeys: [String], into areas: inout [Rect]
    ) -> Bool {
        guard changedKeys == ["emitterTime"], let previous = previous as? EmitterLayer else { return false }
        let now = currentParticles, before = previous.currentParticles
        guard now.count + before.count <= EmitterLayer.separateDamageLimit else {
            return super.changedDrawingAreas(since: previous, changedKeys: changedKeys, into: &areas)
        }
        for p in now { areas.append(p.box) }
        for p in before { areas.append(p.box) }
        return true
    }

    /// Particles, then and now together, whose boxes are damaged one by one.
    static let separateDamageLimit = 2048

    /// Where particles can be: the bounds, and every cell's reach from the emission shape
    /// (fastest speed for the longest life, plus acceleration, plus the largest particle).
    open override func visualExtent() -> Rect {
        let shape = Rect(
            x: emitterPosition.x - abs(emitterSize.width) / 2, y: emitterPosition.y - abs(emitterSize.height) / 2,
            width: abs(emitterSize.width), height: abs(emitterSize.height))
        var extent = bounds.standardized
        for cell in emitterCells where cell.birthRate > 0 {
            let life = cell.longestLife
            let speed = abs(cell.velocity) + abs(cell.velocityRange)
            let ax = cell.xAcceleration * life * life / 2, ay = cell.yAcceleration * life * life / 2
            let largest =
                max(abs(cell.scale) + abs(cell.scaleRange) + max(0, cell.scaleSpeed * life), 0)
                * (cell.contents.map { Double(max($0.width, $0.height)) } ?? EmitterCell.squareSize)
            let reach = speed * life + largest
            let area = Rect(
                x: shape.minX - reach + min(0, ax), y: shape.minY - reach + min(0, ay),
                width: shape.width + 2 * reach + abs(ax), height: shape.height + 2 * reach + abs(ay))
            if [area.minX, area.minY, area.maxX, area.maxY].allSatisfy({ $0.isFinite }) { extent = extent.union(area) }
        }
        return extent
    }
}
