/// A small deterministic generator (SplitMix64): built-in benchmark scenes are the same every
/// run, and an emitter's particles are the same whenever they are drawn.
public struct SplitMix {
    public init(state: UInt64) { self.state = state }

    public var state: UInt64
    public mutating func next() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
    }
    public mutating func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * next() }
}
