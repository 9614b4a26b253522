/// Mean, spread and tail of a set of measurements (all in one unit, e.g. milliseconds).
public struct SampleStatistics: Equatable, Sendable, CustomStringConvertible {
    public var count: Int
    public var mean: Double
    /// Population standard deviation.
    public var standardDeviation: Double
    /// The middle value (the mean of the two middle ones for an even count).
    public var median: Double
    /// The 99th percentile (nearest rank).
    public var percentile99: Double
    public var minimum: Double
    public var maximum: Double

    /// The statistics of `samples` (all zero when there are none).
    public init(_ samples: [Double]) {
        count = samples.count
        guard !samples.isEmpty else {
            mean = 0; standardDeviation = 0; median = 0; percentile99 = 0; minimum = 0; maximum = 0
            return
        }
        let sorted = samples.sorted()
        let n = Double(samples.count)
        mean = samples.reduce(0, +) / n
        let m = mean
        standardDeviation = (samples.reduce(0) { $0 + ($1 - m) * ($1 - m) } / n).squareRoot()
        let middle = sorted.count / 2
        median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        let rank = Int((0.99 * n).rounded(.up))
        percentile99 = sorted[min(sorted.count - 1, max(0, rank - 1))]
        minimum = sorted[0]
        maximum = sorted[sorted.count - 1]
    }

    public var description: String {
        "mean \(format(mean)) sd \(format(standardDeviation)) p99 \(format(percentile99)) max \(format(maximum)) (n=\(count))"
    }
}

/// `value` with three decimals.
func format(_ value: Double) -> String {
    let scaled = (value * 1000).rounded()
    let sign = scaled < 0 ? "-" : ""
    let magnitude = Int(abs(scaled))
    let fraction = String(magnitude % 1000)
    return "\(sign)\(magnitude / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
}
