import VitrineBench
import XCTest

final class SampleStatisticsTests: XCTestCase {
    func testMeanSpreadAndTail() {
        let stats = SampleStatistics([4, 1, 3, 2])
        XCTAssertEqual(stats.mean, 2.5)
        XCTAssertEqual(stats.standardDeviation, 1.25.squareRoot(), accuracy: 1e-12)
        XCTAssertEqual(stats.percentile99, 4)
        XCTAssertEqual([stats.minimum, stats.maximum], [1, 4])
        // Nearest rank: of 200 samples 1...200, the 99th percentile is the 198th.
        XCTAssertEqual(SampleStatistics((1...200).map(Double.init)).percentile99, 198)
        XCTAssertEqual(SampleStatistics([]).count, 0)
    }

    func testMedianIsTheMiddleValue() {
        XCTAssertEqual(SampleStatistics([4, 1, 3, 2]).median, 2.5)
        XCTAssertEqual(SampleStatistics([9, 1, 5]).median, 5)
        XCTAssertEqual(SampleStatistics([]).median, 0)
    }
}
