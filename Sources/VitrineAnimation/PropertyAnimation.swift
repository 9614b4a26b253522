import Glibc
import VitrineGraphics

/// An animation of one layer property named by a key path (CAPropertyAnimation): `opacity`,
/// `position.x`, `bounds.size.width`, `transform.rotation.z`, or a custom property's name.
open class PropertyAnimation: Animation {
    /// The animated key path. Default nil (set from the key when run as an action).
    public var keyPath: String? { didSet { resolvedKeyPath = nil } }
    /// Where `keyPath` leads in the layers of one slot layout (the slot, and the component
    /// within it): found once, not split and looked up by name for every frame.
    private var resolvedKeyPath: (layout: SlotLayout, slot: Int?, subPath: Substring?)?
    /// Add the animated value to the value underneath (the model, or earlier animations)
    /// instead of replacing it. Default false.
    public var isAdditive = false
    /// Each repeat continues from the end of the previous one: iteration k adds k times the
    /// value at the end of a cycle. Default false.
    public var isCumulative = false

    /// An animation of `keyPath`.
    public convenience init(keyPath: String?) {
        self.init()
        self.keyPath = keyPath
    }

    open override func copyConfiguration(from other: Animation) {
        super.copyConfiguration(from: other)
        guard let o = other as? PropertyAnimation else { return }
        keyPath = o.keyPath; isAdditive = o.isAdditive; isCumulative = o.isCumulative
    }

    override func apply(to layer: Layer, iterationTime time: Double, iteration: Int) {
        guard let keyPath else { return }
        if layer.isPresentationCopy {
            // In the slot's own type: a value of more than three words (a transform, a rect, a
            // path) is not boxed on its way out and back, as it is through `any Interpolatable`.
            let layout: SlotLayout = layer.slotLayout
            if resolvedKeyPath?.layout !== layout {
                let (head, rest) = splitKeyPath(Substring(keyPath))
                resolvedKeyPath = (layout, layout.index[String(head)], rest)
            }
            if let resolved = resolvedKeyPath, let i = resolved.slot {
                layer.noteWrittenSlot(i)
                layer.slots[i].animate(by: self, subPath: resolved.subPath, iterationTime: time, iteration: iteration)
            }
            return
        }
        guard let underlying = layer.value(forKeyPath: keyPath) else { return }
        func open<T: Interpolatable>(_ u: T) {
            if let v = animatedValue(underlying: u, iterationTime: time, iteration: iteration) {
                layer.setValue(v, forKeyPath: keyPath)
            }
        }
        open(underlying)
    }

    /// The value this animation gives a property whose value underneath is `u`, at `time`
    /// seconds into iteration `iteration`; nil when the values do not fit the property's type.
    /// Specialised for the two types most animations run on (numbers, also a component of a
    /// transform, and points): called from a slot of any type, the generic code looks up the
    /// type of each optional it makes in the runtime, about 450 instructions a time.
    @_specialize(where T == Double)
    @_specialize(where T == Point)
    func animatedValue<T: Interpolatable>(underlying u: T, iterationTime time: Double, iteration: Int) -> T? {
        let base = isAdditive ? u.subtracting(u) : u
        guard var v = value(atIterationTime: time, underlying: base) else { return nil }
        if isCumulative && iteration > 0,
            let cycleEnd = value(atIterationTime: autoreverses ? 0 : simpleDuration, underlying: base)
        {
            v = v.adding(cycleEnd.scaled(by: Double(iteration)))
        }
        if isAdditive { v = u.adding(v) }
        return v
    }

    /// The animated value at `time` seconds into an iteration, given the value underneath
    /// (zero-like for additive animations); nil when the values do not fit the property's type.
    func value<T: Interpolatable>(atIterationTime time: Double, underlying: T) -> T? { nil }
}

/// Interpolates one property between two values (CABasicAnimation). The endpoints follow
/// Core Animation's eight combinations of the optional values, where "underneath" is the
/// value the property has below this animation (the model value, with earlier animations):
///
/// | set | from | to |
/// |---|---|---|
/// | from, to (or all three) | from | to |
/// | from, by | from | from + by |
/// | by, to | to − by | to |
/// | from | from | underneath |
/// | to | underneath | to |
/// | by | underneath | underneath + by |
/// | none | the value shown when the animation was added | underneath |
open class BasicAnimation: PropertyAnimation {
    /// The start value. Default nil.
    public var fromValue: (any Interpolatable)?
    /// The end value. Default nil.
    public var toValue: (any Interpolatable)?
    /// The change relative to the start or end. Default nil.
    public var byValue: (any Interpolatable)?

    open override func copyConfiguration(from other: Animation) {
        super.copyConfiguration(from: other)
        guard let o = other as? BasicAnimation else { return }
        fromValue = o.fromValue; toValue = o.toValue; byValue = o.byValue
    }

    /// The start and end values against `underlying`, or nil when a value has the wrong type.
    @_specialize(where T == Double)
    @_specialize(where T == Point)
    func endpoints<T: Interpolatable>(underlying u: T) -> (T, T)? {
        let from = coerce(fromValue, to: T.self), to = coerce(toValue, to: T.self), by = coerce(byValue, to: T.self)
        if (fromValue != nil && from == nil) || (toValue != nil && to == nil) || (byValue != nil && by == nil) {
            return nil
        }
        switch (from, to, by) {
        case let (f?, t?, _): return (f, t)
        case let (f?, nil, b?): return (f, f.adding(b))
        case let (nil, t?, b?): return (t.subtracting(b), t)
        case let (f?, nil, nil): return (f, u)
        case let (nil, t?, nil): return (u, t)
        case let (nil, nil, b?): return (u, u.adding(b))
        case (nil, nil, nil): return (coerce(runtime.capturedValue, to: T.self) ?? u, u)
        }
    }

    @_specialize(where T == Double)
    @_specialize(where T == Point)
    override func value<T: Interpolatable>(atIterationTime time: Double, underlying: T) -> T? {
        guard let (from, to) = endpoints(underlying: underlying) else { return nil }
        return from.interpolated(to: to, fraction: progress(atIterationTime: time))
    }
}
