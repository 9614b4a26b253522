import Glibc
import VitrineGraphics
import VitrineSystem

/// Declares an animatable property of a `Layer` subclass in one line:
///
///     final class ArrowLayer: Layer {
///         @Animatable var lengthRadians: Double = 0
///     }
///
/// The property's name is its key (`"lengthRadians"`) for key paths, animations, actions and
/// `needsDisplay(forKey:)`; presentation copies carry its value; setting it on a rendered
/// layer runs the key's action (unless actions are disabled).
@propertyWrapper
public struct Animatable<Value: Interpolatable>: SlotHolder {
    let slot: AnimatableSlot<Value>

    /// A property with the given default value.
    public init(wrappedValue: Value) { slot = AnimatableSlot(wrappedValue) }

    @available(*, unavailable, message: "@Animatable is only for properties of Layer subclasses")
    public var wrappedValue: Value {
        get { fatalError("unreachable: wrappedValue is unavailable") }
        set { fatalError("unreachable: wrappedValue is unavailable") }
    }

    /// Reads and writes through the layer, so changes reach actions and redraw tracking.
    public static subscript<L: Layer>(
        _enclosingInstance layer: L,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<L, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<L, Animatable<Value>>
    ) -> Value {
        get { layer[keyPath: storageKeyPath].slot.value }
        set {
            let slot = layer[keyPath: storageKeyPath].slot
            let old = slot.value
            slot.value = newValue
            if old != newValue { layer.slotDidChange(slot, from: old) }
        }
    }

    var anySlot: AnyLayerSlot { slot }
}

/// Declares a stored, non-animatable property of a `Layer` subclass in one line (line cap,
/// gravity, text …): presentation copies carry it, changes count for redraw and damage, but
/// never animate. Its name is its key.
@propertyWrapper
public struct LayerProperty<Value>: SlotHolder {
    let slot: PropertySlot<Value>

    /// A property with the given default value, compared with `==`.
    public init(wrappedValue: Value) where Value: Equatable { slot = PropertySlot(wrappedValue, same: ==) }

    /// Layer contents, compared by identity.
    public init(wrappedValue: Value) where Value == (any LayerContents)? {
        slot = PropertySlot(wrappedValue, same: { $0 === $1 })
    }

    @available(*, unavailable, message: "@LayerProperty is only for properties of Layer subclasses")
    public var wrappedValue: Value {
        get { fatalError("unreachable: wrappedValue is unavailable") }
        set { fatalError("unreachable: wrappedValue is unavailable") }
    }

    /// Reads and writes through the layer, so changes reach redraw and damage tracking.
    public static subscript<L: Layer>(
        _enclosingInstance layer: L,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<L, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<L, LayerProperty<Value>>
    ) -> Value {
        get { layer[keyPath: storageKeyPath].slot.value }
        set {
            let slot = layer[keyPath: storageKeyPath].slot
            let changed = !slot.same(slot.value, newValue)
            slot.value = newValue
            if changed { layer.slotDidChange(slot, from: nil) }
        }
    }

    var anySlot: AnyLayerSlot { slot }
}

/// A property wrapper that stores its value in a slot the layer can find by name.
protocol SlotHolder { var anySlot: AnyLayerSlot { get } }

/// Type-erased access to one stored layer property. A slot registers itself with
/// `SlotCollector` when it is made, so the layer under construction finds its slots in order.
protocol AnyLayerSlot: AnyObject {
    var isAnimatable: Bool { get }
    /// The value as an animatable value (nil for non-animatable slots).
    var interpolatableValue: (any Interpolatable)? { get }
    /// Stores `value` if it has the slot's type; returns whether it did.
    func setInterpolatable(_ value: any Interpolatable) -> Bool
    /// Copies the value of `other`, which must be a slot of the same type (same class layout).
    func copyValue(fromSameType other: AnyLayerSlot)
    /// Compares with `other`, which must be a slot of the same type (same class layout).
    func hasSameValue(asSameType other: AnyLayerSlot) -> Bool
    /// A new slot of the same type holding the same value.
    func snapshot() -> AnyLayerSlot
    /// Sets the value (or its component at `subPath`) to what `animation` makes of it at
    /// `time` seconds into iteration `iteration`, in the slot's own type; nothing for a slot
    /// that is not animatable, a wrong sub-path or a value of another type.
    func animate(by animation: PropertyAnimation, subPath: Substring?, iterationTime time: Double, iteration: Int)
}

final class AnimatableSlot<Value: Interpolatable>: AnyLayerSlot {
    var value: Value
    init(_ value: Value) {
        self.value = value
        SlotCollector.current.append(self)
    }
    private init(snapshotOf value: Value) { self.value = value }

    var isAnimatable: Bool { true }
    var interpolatableValue: (any Interpolatable)? { value }
    func setInterpolatable(_ v: any Interpolatable) -> Bool {
        guard let typed = coerce(v, to: Value.self) else { return false }
        value = typed
        return true
    }
    func copyValue(fromSameType other: AnyLayerSlot) {
        value = unsafeDowncast(other, to: AnimatableSlot<Value>.self).value
    }
    func hasSameValue(asSameType other: AnyLayerSlot) -> Bool {
        unsafeDowncast(other, to: AnimatableSlot<Value>.self).value.isSame(as: value)
    }
    func snapshot() -> AnyLayerSlot { AnimatableSlot(snapshotOf: value) }
    func animate(by animation: PropertyAnimation, subPath: Substring?, iterationTime time: Double, iteration: Int) {
        guard let subPath else {
            if let v = animation.animatedValue(underlying: value, iterationTime: time, iteration: iteration) {
                value = v
            }
            return
        }
        // A component (a number, a point, a size) fits an existential without a box.
        guard let component = value.value(atSubPath: subPath) else { return }
        if let number = component as? Double {
            // The usual component (an angle, a scale, a coordinate) in the specialised path:
            // opening the existential looks up generic type metadata at run time, every frame.
            guard let v = animation.animatedValue(underlying: number, iterationTime: time, iteration: iteration),
                let replaced = value.replacing(atSubPath: subPath, with: v)
            else { return }
            value = replaced
            return
        }
        func open<Component: Interpolatable>(_ c: Component) -> Value? {
            guard let v = animation.animatedValue(underlying: c, iterationTime: time, iteration: iteration) else {
                return nil
            }
            return value.replacing(atSubPath: subPath, with: v)
        }
        if let replaced = open(component) { value = replaced }
    }
}

final class PropertySlot<Value>: AnyLayerSlot {
    var value: Value
    let same: (Value, Value) -> Bool
    init(_ value: Value, same: @escaping (Value, Value) -> Bool) {
        self.value = value
        self.same = same
        SlotCollector.current.append(self)
    }
    private init(snapshotOf value: Value, same: @escaping (Value, Value) -> Bool) {
        self.value = value; self.same = same
    }

    var isAnimatable: Bool { false }
    var interpolatableValue: (any Interpolatable)? { nil }
    func setInterpolatable(_ v: any Interpolatable) -> Bool { false }
    func animate(by animation: PropertyAnimation, subPath: Substring?, iterationTime time: Double, iteration: Int) {}
    func copyValue(fromSameType other: AnyLayerSlot) {
        value = unsafeDowncast(other, to: PropertySlot<Value>.self).value
    }
    func hasSameValue(asSameType other: AnyLayerSlot) -> Bool {
        same(unsafeDowncast(other, to: PropertySlot<Value>.self).value, value)
    }
    func snapshot() -> AnyLayerSlot { PropertySlot(snapshotOf: value, same: same) }
}

/// The slots made on this thread and not yet claimed by a layer. A layer's stored properties
/// are initialised before its `Layer.init` body runs — the subclass's first, each class's in
/// declaration order — so the last slots made are the new layer's own, in the order of its
/// class's `SlotLayout` (a layer made while initialising a property claims its slots first).
final class SlotCollector {
    private(set) var slots: [AnyLayerSlot] = []

    func append(_ slot: AnyLayerSlot) { slots.append(slot) }

    /// Removes and returns the last `layout.keys.count` slots if their types are the layout's;
    /// nil (taking nothing) otherwise.
    func claim(_ layout: SlotLayout) -> [AnyLayerSlot]? {
        let n = layout.slotTypes.count
        guard slots.count >= n else { return nil }
        let start = slots.count - n
        for i in 0..<n where ObjectIdentifier(type(of: slots[start + i])) != layout.slotTypes[i] { return nil }
        // Copied out element by element: an array made from the slice could share the
        // collector's buffer, and removing from a shared buffer reallocates it.
        var claimed: [AnyLayerSlot] = []
        claimed.reserveCapacity(n)
        for i in start..<slots.count { claimed.append(slots[i]) }
        slots.removeLast(n)
        return claimed
    }

    /// Removes these slots (found by reflection) wherever they are.
    func remove(_ found: [AnyLayerSlot]) {
        let ids = Set(found.map { ObjectIdentifier($0) })
        slots.removeAll { ids.contains(ObjectIdentifier($0)) }
    }

    private static let perThread = ThreadLocal { SlotCollector() }

    /// This thread's collector.
    static var current: SlotCollector { perThread.value }
}

/// The names and types of a layer class's slots, in the order its instances list them.
final class SlotLayout {
    let keys: [String]
    let index: [String: Int]
    /// The class of each slot (`AnimatableSlot<Double>` …), to check claimed slots against.
    let slotTypes: [ObjectIdentifier]
    /// Keys declared below the library's built-in layer classes (custom properties).
    let customKeys: Set<String>

    init(keys: [String], slotTypes: [ObjectIdentifier], customKeys: Set<String>) {
        self.keys = keys
        var index: [String: Int] = [:]
        for (i, k) in keys.enumerated() where index[k] == nil { index[k] = i }
        self.index = index
        self.slotTypes = slotTypes
        self.customKeys = customKeys
    }

    /// Slot indices of the keys the class names in `needsDisplay(forKey:)`: the one list of
    /// properties whose change redraws a layer's own content (the engine's redraw decision and
    /// the backing store's check both read it). Computed on first use, once per class.
    func drawingKeyIndices(of layerClass: Layer.Type) -> [Int] {
        SlotLayout.lock.lock()
        let known = drawingKeys
        SlotLayout.lock.unlock()
        if let known { return known }
        // Outside the lock: `needsDisplay(forKey:)` may look up layouts itself.
        let indices = keys.indices.filter { layerClass.needsDisplay(forKey: keys[$0]) }
        SlotLayout.lock.lock()
        drawingKeys = indices
        SlotLayout.lock.unlock()
        return indices
    }

    private var drawingKeys: [Int]?

    private static let lock = Lock()
    nonisolated(unsafe) private static var layouts: [ObjectIdentifier: SlotLayout] = [:]

    static func cached(for type: AnyClass) -> SlotLayout? {
        lock.lock(); defer { lock.unlock() }
        return layouts[ObjectIdentifier(type)]
    }

    static func store(_ layout: SlotLayout, for type: AnyClass) {
        lock.lock(); defer { lock.unlock() }
        layouts[ObjectIdentifier(type)] = layout
    }
}
