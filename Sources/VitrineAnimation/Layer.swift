import VitrineGraphics

/// A rectangle of content in a tree of layers (CALayer): geometry, appearance, sublayers,
/// animations. Setting a property changes the *model*; what is shown is the *presentation*,
/// a copy the engine computes for each frame with the animations applied.
///
/// Subclasses declare their own properties with `@Animatable` (animatable) or `@LayerProperty`
/// (stored, not animatable), one line each; presentation copies carry them and their keys are
/// their names. A subclass that draws itself overrides `needsDisplay(forKey:)` for the keys
/// that change its drawing.
open class Layer {
    // MARK: Geometry

    /// The layer's own coordinate space: origin and size. Defaults to `.zero`. Animatable.
    @Animatable public var bounds: Rect = .zero
    /// Where the anchor point sits in the superlayer's coordinates. Defaults to `.zero`. Animatable.
    @Animatable public var position: Point = .zero
    /// Stacking order among siblings: higher draws later (on top). Defaults to 0. Animatable.
    @Animatable public var zPosition: Double = 0
    /// The point of the bounds, in unit coordinates ((0, 0) top-left, (1, 1) bottom-right), that
    /// `position` places and `transform` turns about. Defaults to (0.5, 0.5). Animatable.
    @Animatable public var anchorPoint: Point = Point(x: 0.5, y: 0.5)
    /// A transform applied about the anchor point, in space (CATransform3D; `m34` for
    /// perspective). Defaults to identity. Animatable (by decomposition; also through
    /// `transform.rotation.z`, `transform.rotation.y`, `transform.scale` …).
    @Animatable public var transform: Transform3D = .identity
    /// Applied to the sublayers, about the anchor point (typically perspective: `m34`). Defaults
    /// to identity. Animatable.
    @Animatable public var sublayerTransform: Transform3D = .identity
    /// The anchor point's z. Defaults to 0. Animatable.
    @Animatable public var anchorPointZ: Double = 0
    /// Whether the layer shows when its back faces the eye. Defaults to true. Not animatable.
    @LayerProperty public var isDoubleSided: Bool = true

    // MARK: Appearance

    /// Opacity of the layer and its sublayers, 0…1, applied to the group. Defaults to 1. Animatable.
    @Animatable public var opacity: Double = 1
    /// Whether the layer and its sublayers are not drawn. Defaults to false. Animatable (switches
    /// at the midpoint).
    @Animatable public var isHidden: Bool = false
    /// Fill of the bounds (rounded by `cornerRadius`); nil draws nothing. Defaults to nil. Animatable.
    @Animatable public var backgroundColor: Color? = nil
    /// Radius of the corners of the background, border and `masksToBounds` clip. Defaults to 0.
    /// Animatable.
    @Animatable public var cornerRadius: Double = 0
    /// Width of the border drawn inside the bounds. Defaults to 0. Animatable.
    @Animatable public var borderWidth: Double = 0
    /// Colour of the border. Defaults to opaque black. Animatable.
    @Animatable public var borderColor: Color? = .black
    /// Whether sublayers (and contents) are clipped to the bounds and corner radius. Defaults to
    /// false. Animatable (switches at the midpoint).
    @Animatable public var masksToBounds: Bool = false
    /// An image drawn in the bounds, placed by `contentsGravity`. Defaults to nil. Not animatable
    /// (Core Animation cross-fades it; here it switches at once).
    @LayerProperty public var contents: (any LayerContents)? = nil
    /// How `contents` is placed in the bounds. Defaults to `.resize`. Not animatable.
    @LayerProperty public var contentsGravity: ContentsGravity = .resize
    /// The part of `contents` shown, in unit coordinates of the image: a sprite sheet's cell.
    /// Defaults to (0, 0, 1, 1), the whole image. Animatable (by discrete keyframes to step
    /// through cells).
    @Animatable public var contentsRect: Rect = Rect(x: 0, y: 0, width: 1, height: 1)
    /// The part of the (contentsRect) image that stretches, in its unit coordinates: the
    /// corners outside it keep their size, the edges stretch one way (nine-slice scaling).
    /// Defaults to (0, 0, 1, 1): the whole image stretches. Animatable.
    @Animatable public var contentsCenter: Rect = Rect(x: 0, y: 0, width: 1, height: 1)

    // MARK: Shadow

    /// Colour of the shadow cast by the layer's composited content (or by `shadowPath`).
    /// Defaults to opaque black. Animatable.
    @Animatable public var shadowColor: Color? = .black
    /// Opacity of the shadow, 0…1; 0 casts none and costs nothing. Defaults to 0. Animatable.
    @Animatable public var shadowOpacity: Double = 0
    /// How far the shadow is moved, in the layer's coordinates. Defaults to (0, −3), as in Core
    /// Animation. Animatable.
    @Animatable public var shadowOffset: Size = Size(width: 0, height: -3)
    /// Blur radius: a Gaussian of standard deviation radius / 2. Defaults to 3. Animatable.
    @Animatable public var shadowRadius: Double = 3
    /// The shape casting the shadow, in the layer's coordinates, instead of the content's alpha
    /// (cheaper, and cached as long as it does not change). Defaults to nil. Animatable.
    @Animatable public var shadowPath: Path? = nil

    // MARK: Transition

    /// Played when the scene changes `contents`, `string` or `isHidden` (instead of their own
    /// actions). Defaults to nil. Not animatable.
    @LayerProperty public var transition: LayerTransition? = nil

    // MARK: Timing

    /// When the layer's time starts, in its parent's time. Defaults to 0. Not animatable.
    @LayerProperty public var beginTime: Double = 0
    /// Rate of the layer's time relative to its parent's; multiplies down the tree; 0 pauses.
    /// Defaults to 1. Not animatable.
    @LayerProperty public var speed: Double = 1
    /// Offset added to the layer's time; scrubs a paused layer. Defaults to 0. Not animatable.
    @LayerProperty public var timeOffset: Double = 0

    // MARK: Other state

    /// A name for finding and debugging. Defaults to nil. Not animatable.
    @LayerProperty public var name: String? = nil

    /// The layer whose sublayers include this one (held weakly). Read-only; use the sublayer
    /// methods.
    public internal(set) var superlayer: Layer? {
        get { superlayerReference?.layer }
        set { superlayerReference = newValue?.reference }
    }
    /// A layer whose alpha masks this layer's rendering, in this layer's coordinates.
    /// Defaults to nil. Not animatable (its own properties are).
    public var mask: Layer? {
        get { maskStorage }
        set {
            let oldValue = maskStorage
            maskStorage = newValue
            guard newValue !== oldValue else { return }
            oldValue?.maskOwner = nil
            if let mask = newValue {
                mask.removeFromSuperlayer()
                mask.maskOwner?.mask = nil
                mask.maskOwner = self
            }
            modelDidChange()
        }
    }
    /// The mask, set directly by the engine on presentation copies.
    var maskStorage: Layer?
    /// The layer this layer masks, if it is a mask (held weakly).
    var maskOwner: Layer? {
        get { maskOwnerReference?.layer }
        set { maskOwnerReference = newValue?.reference }
    }
    /// Supplies actions and contents. Held weakly. Defaults to nil.
    public weak var delegate: LayerDelegate?
    /// Actions by key, consulted after the delegate; `NullAction.shared` disables a key.
    /// Defaults to empty.
    public var actions: [String: Action] = [:]
    /// Redraw when the bounds change. Defaults to false.
    open var needsDisplayOnBoundsChange = false {
        didSet { if needsDisplayOnBoundsChange != oldValue { modelDidChange() } }
    }

    // MARK: Internal state

    /// The sublayers, back to front.
    var sublayerStorage: [Layer] = []
    /// Stored properties by position in the class's `SlotLayout`.
    var slots: [AnyLayerSlot] = []
    var slotLayout: SlotLayout!
    /// Added animations, in order, with their keys.
    var animationEntries: [(key: String?, animation: Animation)] = []
    /// True for copies made by the engine for a frame.
    var isPresentationCopy = false
    /// The model layer of a presentation copy (held weakly).
    var modelLayer: Layer? {
        get { modelReference?.layer }
        set { modelReference = newValue?.reference }
    }
    /// What stands for this layer where it must not be kept alive, and what stands for the
    /// layers this one points to so (`LayerReference`: no weak references, which would send
    /// every retain and release of a layer down the runtime's slow path).
    let reference = LayerReference()
    private var superlayerReference: LayerReference?
    private var maskOwnerReference: LayerReference?
    private var modelReference: LayerReference?
    /// The engine has evaluated this layer in a frame (before that it does not animate).
    var hasBeenCommitted = false
    /// `setNeedsDisplay()` was called since the engine last reported a redraw.
    var needsDisplayFlag = false
    /// `setNeedsDisplay()` was called at least once: the layer has drawn contents from then on.
    var hasRequestedDisplay = false
    /// Presentation copies only: the transition running on the layer.
    var transitionState: TransitionState?
    /// A transition's old look (the copy shown when the change was made, kept while the
    /// transition plays): its drawing is stored apart from its model's, which the new look
    /// draws in the same frames.
    var isLeavingLook = false
    /// The engine running this tree (set on its root).
    weak var attachedEngine: Engine?
    /// The copy of the most recent frame (model layers only). The engine reuses it for the next
    /// frame while `modelVersion` is unchanged and every animation samples the same.
    var lastPresentation: Layer?
    /// Bumped by every change of this model layer: properties, sublayers, mask, animations,
    /// `setNeedsDisplay()`.
    var modelVersion: UInt64 = 0
    /// `modelVersion` when `lastPresentation` was made.
    var presentedVersion: UInt64 = .max
    /// Copies of earlier frames that no one holds any more (model layers only): the engine
    /// makes them the next copies this layer needs instead of allocating new ones.
    var spareCopies: [Layer] = []
    /// Presentation copies only: the model's `modelVersion` when every slot was last copied
    /// from it (nil when unknown), and the slots written since (animations, setters). While the
    /// model is at that version, making the copy over restores those slots alone: an animated
    /// layer's next copy does not touch its other fifty-odd slots.
    var copiedModelVersion: UInt64?
    var writtenSlots: [Int] = []
    /// Presentation copies only: what the copy's own properties say of its place
    /// (`ownGeometry`), kept from the first time it is asked until a property is written
    /// (`noteWrittenSlot`) or the copy is made over (`recycle`). Every frame asks it of every
    /// layer several times (the engine's damage, the renderer's extents and drawing).
    var keptGeometry: OwnGeometry?

    /// Bumped by every model change anywhere, so the engine knows whether to re-evaluate.
    nonisolated(unsafe) static var modelGeneration: UInt64 = 0

    // MARK: Life cycle

    deinit { reference.layer = nil }

    /// A layer with default properties.
    public required init() {
        slotLayout = claimSlots()
        reference.layer = self
    }

    /// A copy of `layer`'s properties (Core Animation's initWithLayer:, used for presentation
    /// copies). Every `@Animatable` and `@LayerProperty` value is copied; subclasses with other
    /// stored state override this, call super, and copy it. (The engine copies a layer again
    /// only when its model changed — a property, sublayers, mask, animations — or
    /// `setNeedsDisplay()` was called: call it after changing such other state.)
    public required init(layer: Layer) {
        slotLayout = claimSlots()
        reference.layer = self
        if layer.slotLayout === slotLayout {
            // Same class: the same slot types at the same positions.
            for i in slots.indices { slots[i].copyValue(fromSameType: layer.slots[i]) }
        } else {
            for (i, key) in slotLayout.keys.enumerated() {
                guard let j = layer.slotLayout.index[key] else { continue }
                let theirs = layer.slots[j]
                if type(of: theirs) == type(of: slots[i]) { slots[i].copyValue(fromSameType: theirs) }
            }
        }
        needsDisplayOnBoundsChange = layer.needsDisplayOnBoundsChange
    }

    /// Takes this instance's slots, made just now by its property wrappers, from the thread's
    /// `SlotCollector`. The first instance of a class finds them by reflection instead, and
    /// names them for the class's `SlotLayout`: its own class's and those of its superclasses up
    /// to the first whose layout is known, whose slots (made last: a class's properties are
    /// set before its superclass's) are then claimed as that layout's. Reflecting every class
    /// of the config's registry down to `Layer` took most of the loading before a first frame.
    private func claimSlots() -> SlotLayout {
        let collector = SlotCollector.current
        if let layout = SlotLayout.cached(for: type(of: self)), let claimed = collector.claim(layout) {
            slots = claimed
            return layout
        }
        var found: [AnyLayerSlot] = []
        var names: [String] = [], custom: Set<String> = []
        var inherited: (layout: SlotLayout, slots: [AnyLayerSlot])?
        var mirror: Mirror? = Mirror(reflecting: self)
        while let m = mirror {
            if m.subjectType != type(of: self), let superclass = m.subjectType as? AnyClass,
                let layout = SlotLayout.cached(for: superclass), let claimed = collector.claim(layout)
            {
                inherited = (layout, claimed)
                break
            }
            let builtIn = Layer.builtInClasses.contains(ObjectIdentifier(m.subjectType))
            for child in m.children {
                guard let holder = child.value as? SlotHolder else { continue }
                found.append(holder.anySlot)
                let label = child.label ?? ""
                let key = label.hasPrefix("_") ? String(label.dropFirst()) : label
                names.append(key)
                if !builtIn { custom.insert(key) }
            }
            mirror = m.superclassMirror
        }
        collector.remove(found)
        if let inherited {
            found += inherited.slots
            names += inherited.layout.keys
            custom.formUnion(inherited.layout.customKeys)
        }
        slots = found
        if let layout = SlotLayout.cached(for: type(of: self)) { return layout }
        let layout = SlotLayout(
            keys: names, slotTypes: found.map { ObjectIdentifier(type(of: $0)) }, customKeys: custom)
        SlotLayout.store(layout, for: type(of: self))
        return layout
    }

    static let builtInClasses: Set<ObjectIdentifier> = [
        ObjectIdentifier(Layer.self), ObjectIdentifier(ShapeLayer.self), ObjectIdentifier(TextLayer.self)
    ]

    /// The keys of the properties this class and its superclasses declare beyond the library's
    /// Layer, ShapeLayer and TextLayer (the custom properties, e.g. for `needsDisplay(forKey:)`).
    public class var customPropertyKeys: Set<String> {
        if let layout = SlotLayout.cached(for: self) { return layout.customKeys }
        return self.init().slotLayout.customKeys
    }

    /// The keys of every stored property of this layer (built-in and custom).
    public var propertyKeys: [String] { slotLayout.keys }

    /// Slot indices of the properties whose change redraws this layer's own content (the keys
    /// its class names in `needsDisplay(forKey:)`).
    var drawingKeyIndices: [Int] { slotLayout.drawingKeyIndices(of: type(of: self)) }

    /// Whether this layer's own drawing is what slots of `layout` (another copy's, or a
    /// snapshot a backing store kept) draw: the same class layout and equal values at every
    /// drawing key. The one rule for "must the content be drawn again", which the engine applies
    /// between frames and a backing store against what it holds.
    func drawsTheSame(as slots: [AnyLayerSlot], layout: SlotLayout?) -> Bool {
        guard layout === slotLayout else { return false }
        for i in drawingKeyIndices where !self.slots[i].hasSameValue(asSameType: slots[i]) { return false }
        return true
    }

    // MARK: Model changes

    /// A property changed on this layer: count it, and run its action on a rendered model layer.
    func slotDidChange(_ slot: AnyLayerSlot, from old: (any Interpolatable)?) {
        guard !isPresentationCopy else {
            if let i = slots.firstIndex(where: { $0 === slot }) { noteWrittenSlot(i) }
            return
        }
        modelDidChange()
        guard hasBeenCommitted, !Transaction.disableActions(), let i = slots.firstIndex(where: { $0 === slot }) else {
            return
        }
        let key = slotLayout.keys[i]
        // A layer's transition takes the place of the property's own action.
        if let transition, LayerTransition.triggerKeys.contains(key) {
            startTransition(transition)
            return
        }
        guard slot.isAnimatable, let action = action(forKey: key) else { return }
        action.run(forKey: key, object: self, arguments: nil)
    }

    func modelDidChange() {
        guard !isPresentationCopy else { return }
        modelVersion &+= 1
        Layer.modelGeneration &+= 1
        Transaction.noteModelChange()
    }

    // MARK: Actions

    /// The action for `key`: the delegate's answer, else `actions[key]`, else the class default,
    /// else (for the built-in animatable properties) the default implicit animation. A null
    /// action at any step ends the search with nil.
    open func action(forKey key: String) -> Action? {
        if let delegate, let a = delegate.action(for: self, forKey: key) { return a is NullAction ? nil : a }
        if let a = actions[key] { return a is NullAction ? nil : a }
        if let a = type(of: self).defaultAction(forKey: key) { return a is NullAction ? nil : a }
        return implicitAnimation(forKey: key)
    }

    /// The class's default action for `key`. Default nil (the built-in implicit animation).
    open class func defaultAction(forKey key: String) -> Action? { nil }

    // MARK: Presentation and model

    /// The layer as shown in the most recent frame, with animations applied; nil before the
    /// engine has shown it. A presentation copy returns itself.
    public func presentation() -> Self? {
        if isPresentationCopy { return self }
        return lastPresentation as? Self
    }

    /// The model layer: itself for a model layer, the layer it was copied from for a
    /// presentation copy.
    public func model() -> Self {
        if isPresentationCopy, let m = modelLayer as? Self { return m }
        return self
    }

    /// The layer whose renderer caches (backing store, shadow, flat image in space) this one
    /// draws through: its model layer, but a transition's old look its own (sharing its model's
    /// with the new look, each would be made again for one look and then the other, every frame
    /// of the transition).
    func cacheOwner() -> Layer {
        isLeavingLook ? self : model()
    }

    // MARK: Display

    /// Whether changing `key` requires the layer to redraw its contents. Default false; a layer
    /// that draws itself returns true for the keys its drawing reads.
    open class func needsDisplay(forKey key: String) -> Bool { false }

    /// Marks the contents for redrawing in the next frame.
    public func setNeedsDisplay() {
        guard !isPresentationCopy else { return }
        needsDisplayFlag = true
        hasRequestedDisplay = true
        modelDidChange()
    }

    /// Whether `setNeedsDisplay()` was called since the last frame redrew the layer.
    public func needsDisplay() -> Bool { needsDisplayFlag }

    /// Draws the layer's own content, in its own coordinates, between its background and its
    /// sublayers (CALayer's drawInContext:). The renderer calls it on the presentation copy, so
    /// animated values are current, and keeps the result in a backing store until a key named by
    /// `needsDisplay(forKey:)` changes or `setNeedsDisplay()` is called. The default asks the
    /// model layer's delegate (`LayerDelegate.draw(_:in:)`); subclasses override it.
    open func draw(in ctx: GraphicsContext) {
        model().delegate?.draw(self, in: ctx)
    }

    /// The layer's visible extent in its own coordinates, for damage tracking: the bounds, plus
    /// whatever a subclass draws outside them.
    open func visualExtent() -> Rect { bounds.standardized }

    /// For damage tracking: where this presentation's own drawing differs from `previous`'s (a
    /// presentation of the same layer in an earlier frame), in layer coordinates, when only the
    /// properties named in `changedKeys` differ — or nil, meaning anywhere in either extent.
    /// The engine asks only when nothing else about the layer changed (its place, opacity,
    /// sublayers, mask). A class answers for the keys it understands and returns nil for any
    /// other; the default is always nil. The area must hold every pixel the change can touch,
    /// anti-aliasing included: pixels outside it are not repainted.
    open func changedDrawingArea(since previous: Layer, changedKeys: [String]) -> Rect? { nil }

    /// `changedDrawingArea` as several rectangles, for a change spread thinly over a large area
    /// (a path's outline moving across the screen): the same contract, the union of the
    /// rectangles appended to `areas` being the area; false means anywhere. (Appending to the
    /// engine's array spares an allocation per frame.) The default is `changedDrawingArea`'s
    /// one rectangle.
    open func changedDrawingAreas(since previous: Layer, changedKeys: [String], into areas: inout [Rect]) -> Bool {
        guard let area = changedDrawingArea(since: previous, changedKeys: changedKeys) else { return false }
        areas.append(area)
        return true
    }

    /// Whether the layer paints anything of its own across its bounds: a visible background,
    /// a border or contents.
    public var paintsItsBounds: Bool {
        (backgroundColor.map { $0.alpha > 0 } ?? false) || (borderWidth > 0 && borderColor != nil) || contents != nil
    }

    /// Whether the layer has drawn contents of its own besides background, contents and border
    /// (a text layer's glyphs, a delegate's drawing; shape layers draw directly, not counted).
    var drawsItself: Bool {
        !(self is ShapeLayer)
            && (!drawingKeyIndices.isEmpty || needsDisplayOnBoundsChange || model().hasRequestedDisplay)
    }

    /// Whether the layer can draw nothing but its background colour: a plain layer (this class,
    /// not a subclass) with no contents, border or drawing of its own, such as one that only
    /// holds sublayers.
    var drawsAtMostItsBackground: Bool {
        type(of: self) == Layer.self && contents == nil && !(borderWidth > 0 && (borderColor?.alpha ?? 0) > 0)
            && !drawsItself
    }

    /// `cornerRadius` as drawn: not negative, 0 when not finite.
    var clampedCornerRadius: Double { cornerRadius.isFinite ? max(0, cornerRadius) : 0 }

    /// Whether the layer casts a shadow that can show.
    var castsShadow: Bool {
        guard shadowOpacity > 0, let color = shadowColor, color.alpha > 0 else { return false }
        return shadowRadius.isFinite && shadowOffset.width.isFinite && shadowOffset.height.isFinite
    }

    /// The layer's shadow as the renderer paints it (see `castsShadow`).
    var shadow: Shadow {
        Shadow(
            color: shadowColor ?? .clear, opacity: min(1, shadowOpacity),
            offset: Point(x: shadowOffset.width, y: shadowOffset.height), radius: max(0, shadowRadius))
    }

    /// `visualExtent()`, computed once for a presentation copy (copies do not change after
    /// their frame, and the engine keeps unchanged ones from frame to frame).
    var presentedExtent: Rect {
        guard isPresentationCopy else { return visualExtent() }
        if let cachedExtent { return cachedExtent }
        let extent = visualExtent()
        cachedExtent = extent
        return extent
    }
    private var cachedExtent: Rect?

    /// The library's classes whose presentation copies hold nothing but their slots, the
    /// engine's own fields and what `recycle(asCopyOf:)` resets, so a copy no one holds can
    /// become a later frame's copy in place (no allocation per frame). A subclass may copy
    /// state of its own in `init(layer:)`, and the pie does: its copies are always new.
    static let recyclableCopyClasses: Set<ObjectIdentifier> = [
        ObjectIdentifier(Layer.self), ObjectIdentifier(ShapeLayer.self), ObjectIdentifier(TextLayer.self),
        ObjectIdentifier(ArrowLayer.self), ObjectIdentifier(ProgressLayer.self), ObjectIdentifier(SectorLayer.self),
        ObjectIdentifier(GradientLayer.self), ObjectIdentifier(TransformLayer.self),
        ObjectIdentifier(SliceLayer.self), ObjectIdentifier(ReplicatorLayer.self), ObjectIdentifier(EmitterLayer.self)
    ]

    /// Empties a presentation copy that no frame shows any more and no one else holds, ready to
    /// be recycled: no sublayers, mask, instances or transition (the arrays keep their
    /// storage). The copies it let go of go to `released`: they may be unheld now.
    func retire(releasingInto released: inout [Layer]) {
        released.append(contentsOf: sublayerStorage)
        sublayerStorage.removeAll(keepingCapacity: true)
        if let mask = maskStorage { released.append(mask) }
        maskStorage = nil
        if let replicator = self as? ReplicatorLayer {
            for i in replicator.delayedInstances.indices {
                released.append(contentsOf: replicator.delayedInstances[i])
                replicator.delayedInstances[i].removeAll(keepingCapacity: true)
            }
        }
        transitionState = nil
        isLeavingLook = false
        superlayer = nil
        maskOwner = nil
    }

    /// Makes this retired copy what `init(layer: model)` makes of its model: the model's values
    /// in the same slots, and nothing computed from the old ones.
    func recycle(asCopyOf model: Layer) {
        if copiedModelVersion == model.modelVersion {
            for i in writtenSlots { slots[i].copyValue(fromSameType: model.slots[i]) }
        } else {
            for i in slots.indices { slots[i].copyValue(fromSameType: model.slots[i]) }
            copiedModelVersion = model.modelVersion
        }
        writtenSlots.removeAll(keepingCapacity: true)
        needsDisplayOnBoundsChange = model.needsDisplayOnBoundsChange
        cachedExtent = nil
        keptGeometry = nil
    }

    /// Records that slot `i` of this presentation copy may no longer hold its model's value.
    func noteWrittenSlot(_ i: Int) {
        keptGeometry = nil
        cachedExtent = nil
        // Written over and over (a copy someone keeps setting): copied whole next time instead.
        guard writtenSlots.count < slots.count else {
            copiedModelVersion = nil
            writtenSlots.removeAll(keepingCapacity: true)
            return
        }
        writtenSlots.append(i)
    }
}

extension Layer {
    /// Whether all the layer shows is its background colour, in its own plane: a plain layer
    /// without sublayers, contents, border, mask, shadow or transition (a spinner's blade, a
    /// bar, a progress fill).
    var showsOnlyItsBackground: Bool {
        sublayerStorage.isEmpty && drawsAtMostItsBackground && maskStorage == nil && !castsShadow
            && transitionState == nil && !isProjected
    }
}

extension Layer: CustomStringConvertible {
    public var description: String {
        "<\(type(of: self))\(name.map { " \"\($0)\"" } ?? "") position=\(position) bounds=\(bounds)>"
    }
}
