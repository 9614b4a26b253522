import XCTest
@testable import VitrineGraphics

#if canImport(Glibc)
    import Glibc
#endif

/// Offscreen buffers sized to the clip box, reused across frames, released when idle; and the
/// pixels of layers and masks drawn through them at an offset from the device origin.
final class BufferPoolTests: XCTestCase {
    func testSizeClassesRoundUpByAtMostAQuarter() {
        XCTAssertEqual(BufferPool.sizeClass(for: 0), 4096)
        XCTAssertEqual(BufferPool.sizeClass(for: 4096), 4096)
        // 4097 lies in 2^12…2^13; steps of 2^13 / 8 = 1024.
        XCTAssertEqual(BufferPool.sizeClass(for: 4097), 5120)
        XCTAssertEqual(BufferPool.sizeClass(for: 8192), 8192)
        // 1920 × 1080 = 2 073 600 lies in 2^20…2^21; steps of 2^18 = 262 144: 8 steps.
        XCTAssertEqual(BufferPool.sizeClass(for: 1920 * 1080), 2_097_152)
        var previous = 0
        for area in stride(from: 4097, to: 3_000_000, by: 977) {
            let c = BufferPool.sizeClass(for: area)
            XCTAssertGreaterThanOrEqual(c, area)
            XCTAssertLessThanOrEqual(Double(c), Double(area) * 1.25)
            XCTAssertGreaterThanOrEqual(c, previous)
            previous = c
        }
    }

    func testTransparencyLayerBufferCoversOnlyTheClipBox() {
        let ctx = GraphicsContext(bitmap: Bitmap(width: 1000, height: 1000))
        ctx.clip(to: Rect(x: 300, y: 200, width: 100, height: 50))
        ctx.beginTransparencyLayer(alpha: 0.5)
        ctx.fill(Rect(x: 0, y: 0, width: 1000, height: 1000), color: .black)
        ctx.endTransparencyLayer()
        // 5000 pixels → the 5120-pixel class, 4 bytes each; not the 4 MB of the whole target.
        XCTAssertEqual(ctx.pooledBufferBytes, 5120 * 4)
    }

    func testLayerAtAnOffsetCompositesInPlace() {
        let bitmap = Bitmap(width: 80, height: 60)
        bitmap.fill(0xFFFF_FFFF)
        let ctx = GraphicsContext(bitmap: bitmap)
        ctx.saveGState()
        ctx.clip(to: Rect(x: 30, y: 20, width: 20, height: 10))
        ctx.beginTransparencyLayer(alpha: 1)
        // Partly outside the clip: only the clipped part may land, at the same device pixels.
        ctx.fill(Rect(x: 25, y: 15, width: 20, height: 20), color: .black)
        ctx.endTransparencyLayer()
        ctx.restoreGState()
        for y in 0..<60 {
            for x in 0..<80 {
                let inside = (30..<45).contains(x) && (20..<30).contains(y)
                XCTAssertEqual(bitmap[x, y], inside ? 0xFF00_0000 : 0xFFFF_FFFF, "(\(x), \(y))")
            }
        }
    }

    func testNestedLayersWithShrinkingClips() {
        let bitmap = Bitmap(width: 64, height: 64)
        let ctx = GraphicsContext(bitmap: bitmap)
        ctx.clip(to: Rect(x: 8, y: 8, width: 48, height: 48))
        ctx.beginTransparencyLayer(alpha: 1)
        ctx.fill(Rect(x: 0, y: 0, width: 20, height: 64), color: .black)
        ctx.saveGState()
        ctx.clip(to: Rect(x: 40, y: 40, width: 10, height: 10))
        ctx.beginTransparencyLayer(alpha: 0.5)
        ctx.fill(Rect(x: 0, y: 0, width: 64, height: 64), color: .black)
        ctx.endTransparencyLayer()
        ctx.restoreGState()
        ctx.endTransparencyLayer()
        XCTAssertEqual(bitmap[10, 10] >> 24, 255)
        XCTAssertEqual(bitmap[5, 10] >> 24, 0)  // outside the outer clip
        XCTAssertEqual(bitmap[25, 25] >> 24, 0)
        XCTAssertEqual(bitmap[45, 45] >> 24, 128)  // black at 50 %
        XCTAssertEqual(bitmap[52, 45] >> 24, 0)
    }

    func testMaskCaptureAtAnOffsetKeepsDeviceCoordinates() {
        let ctx = GraphicsContext(bitmap: Bitmap(width: 100, height: 100))
        ctx.clip(to: Rect(x: 40, y: 30, width: 30, height: 30))
        let mask = ctx.renderAlphaMask {
            ctx.fill(Rect(x: 50, y: 50, width: 40, height: 40), color: Color(red: 0, green: 0, blue: 0, alpha: 0.5))
        }
        XCTAssertEqual(mask.bounds, IntRect(x: 50, y: 50, width: 20, height: 10))
        XCTAssertEqual(mask[55, 55], 128)
        XCTAssertEqual(mask[45, 45], 0)
    }

    func testRepeatedDrawsReuseTheirBuffers() {
        let pool = BufferPool()
        let bounds = IntRect(x: 700, y: 300, width: 120, height: 90)
        let first = pool.bitmap(bounds: bounds)
        let id = ObjectIdentifier(first)
        _ = consume first
        for frame in 0..<5 {
            // Same size at another place, then smaller: the pooled bitmap serves both.
            let b = pool.bitmap(bounds: IntRect(x: frame * 10, y: 0, width: 120, height: 90))
            XCTAssertEqual(ObjectIdentifier(b), id)
            XCTAssertEqual(b.bounds, IntRect(x: frame * 10, y: 0, width: 120, height: 90))
            pool.endFrame()
        }
        let smaller = pool.bitmap(bounds: IntRect(x: 0, y: 0, width: 30, height: 30))
        XCTAssertEqual(ObjectIdentifier(smaller), id)
    }

    func testBuffersInUseAreNotHandedOutTwice() {
        let pool = BufferPool()
        let a = pool.bitmap(bounds: IntRect(x: 0, y: 0, width: 10, height: 10))
        let b = pool.bitmap(bounds: IntRect(x: 0, y: 0, width: 10, height: 10))
        XCTAssertFalse(a === b)
        let m = pool.mask(bounds: IntRect(x: 0, y: 0, width: 10, height: 10))
        let n = pool.mask(bounds: IntRect(x: 0, y: 0, width: 10, height: 10))
        XCTAssertFalse(m === n)
    }

    func testABufferUsedEveryFrameIsKept() {
        let ctx = GraphicsContext(bitmap: Bitmap(width: 200, height: 200))
        let drawGroup = {
            ctx.beginTransparencyLayer(alpha: 0.5)
            ctx.fill(Rect(x: 0, y: 0, width: 10, height: 10), color: .black)
            ctx.endTransparencyLayer()
        }
        drawGroup()
        let used = ctx.pooledBufferBytes
        XCTAssertEqual(used, BufferPool.sizeClass(for: 200 * 200) * 4)
        // Used every frame: kept, and no new buffer.
        for _ in 0..<(BufferPool.idleFrames * 2) {
            drawGroup()
            ctx.endFrame()
        }
        XCTAssertEqual(ctx.pooledBufferBytes, used)
        // Not used any more, but the largest of its kind: kept for the next transition.
        for _ in 0..<(BufferPool.idleFrames * 2) { ctx.endFrame() }
        XCTAssertEqual(ctx.pooledBufferBytes, used)
    }

    /// Idle buffers go at the end of the `idleFrames`th frame without use, all but the largest
    /// of each kind, so a buffer needed now and then (a transition's) is not mapped anew.
    func testIdleBuffersAreReleasedButTheLargest() {
        let pool = Self.poolWithFreeBuffers(bitmapSides: [200, 100], maskSides: [50])
        let all = pool.retainedBytes
        for _ in 0..<BufferPool.idleFrames { pool.endFrame() }
        XCTAssertEqual(pool.retainedBytes, all)
        pool.endFrame()
        XCTAssertEqual(
            pool.retainedBytes, BufferPool.sizeClass(for: 200 * 200) * 4 + BufferPool.sizeClass(for: 50 * 50))
    }

    /// Before a still frame the pool lets go at once of what the frame just ended did not hand
    /// out, but keeps what it did and the largest buffer of each kind.
    func testReleasingWhatTheLastFrameDidNotUse() {
        let pool = Self.poolWithFreeBuffers(bitmapSides: [200, 100, 90])
        pool.endFrame()
        // The next frame uses the 100x100 buffer only.
        XCTAssertNotNil(pool.bitmap(bounds: IntRect(x: 0, y: 0, width: 100, height: 100)))
        pool.endFrame()
        pool.releaseUnused()
        XCTAssertEqual(
            pool.retainedBytes, (BufferPool.sizeClass(for: 200 * 200) + BufferPool.sizeClass(for: 100 * 100)) * 4)
        // Nothing used in the frame after: only the largest stays.
        pool.endFrame()
        pool.releaseUnused()
        XCTAssertEqual(pool.retainedBytes, BufferPool.sizeClass(for: 200 * 200) * 4)
    }

    /// An image drawn in place of another takes over its storage when nothing else holds it
    /// and it fits (not more than twice the size needed), and starts transparent all the same.
    func testAnImageReplacingAnotherReusesItsStorage() {
        func image(_ width: Int, _ height: Int, replacing previous: inout Image?) -> Image {
            Image(width: width, height: height, replacing: &previous) { bitmap in
                for x in 0..<(width / 2) { bitmap.row(0)[x] = 0xFF00_00FF }
            }
        }
        var none: Image? = nil
        var previous: Image? = image(8, 8, replacing: &none)
        let storage = previous!.pixels
        // Smaller, but more than half of it: the same storage, the old pixels gone.
        let smaller = image(6, 7, replacing: &previous)
        XCTAssertNil(previous)
        XCTAssertEqual(smaller.pixels, storage)
        XCTAssertEqual(smaller.capacity, 64)
        XCTAssertEqual(
            Array(UnsafeBufferPointer(start: smaller.pixels, count: 6 * 7)),
            Array(repeating: 0xFF00_00FF, count: 3) + Array(repeating: 0, count: 6 * 7 - 3))
        // Held elsewhere (a thread still drawing with it): not taken, and left intact.
        previous = smaller
        let fresh = image(6, 7, replacing: &previous)
        XCTAssertNil(previous)
        XCTAssertEqual(fresh.capacity, 42)
        XCTAssertEqual(smaller.pixels, storage)
        XCTAssertEqual(smaller.pixels[0], 0xFF00_00FF)
        // Twice the size needed or more, or too small: new storage.
        previous = image(8, 8, replacing: &none)
        XCTAssertEqual(image(4, 8, replacing: &previous).capacity, 32)
        previous = image(4, 4, replacing: &none)
        XCTAssertEqual(image(5, 5, replacing: &previous).capacity, 25)
        previous = image(5, 5, replacing: &none)
        XCTAssertEqual(image(4, 5, replacing: &previous).capacity, 25, "reused")
    }

    /// An image that reserves storage for a larger size (a turning card's plane, for the card
    /// seen face-on) gets it when new, and keeps reusing it while it is less than twice the
    /// reserve: shrinking and growing again within it allocate nothing.
    func testAnImageReservingStorageKeepsItThroughSmallerSizes() {
        func image(_ width: Int, _ height: Int, replacing previous: inout Image?, reserving reserve: Int) -> Image {
            Image(width: width, height: height, replacing: &previous, reserving: reserve) { bitmap in
                bitmap.row(height - 1)[width - 1] = 0xFF00_FF00
            }
        }
        var none: Image? = nil
        var previous: Image? = image(8, 8, replacing: &none, reserving: 100)
        XCTAssertEqual(previous?.capacity, 100)
        let storage = previous?.pixels
        // A quarter of the reserve, then more than the first size: the same storage each time.
        previous = image(5, 5, replacing: &previous, reserving: 100)
        XCTAssertEqual(previous?.pixels, storage)
        XCTAssertEqual(previous?[4, 4], 0xFF00_FF00)
        XCTAssertEqual(previous?[3, 4], 0, "the old pixels are gone")
        previous = image(10, 9, replacing: &previous, reserving: 100)
        XCTAssertEqual(previous?.pixels, storage)
        // Past the reserve: new storage, half as large again as the one it outgrew (or as
        // large as reserved, when that is more).
        XCTAssertEqual(image(11, 10, replacing: &previous, reserving: 110).capacity, 150)
        previous = image(10, 10, replacing: &none, reserving: 100)
        XCTAssertEqual(image(11, 10, replacing: &previous, reserving: 200).capacity, 200)
        // Reserving less than half of what the storage holds: not reused.
        previous = image(10, 10, replacing: &previous, reserving: 100)
        XCTAssertEqual(image(4, 4, replacing: &previous, reserving: 40).capacity, 40)
    }

    /// A pool that handed out square bitmaps and masks of these sides all at once (so each is
    /// a buffer of its own) and holds them, free again.
    private static func poolWithFreeBuffers(bitmapSides: [Int], maskSides: [Int] = []) -> BufferPool {
        let pool = BufferPool()
        var held: [AnyObject] = bitmapSides.map { pool.bitmap(bounds: IntRect(x: 0, y: 0, width: $0, height: $0)) }
        held += maskSides.map { pool.mask(bounds: IntRect(x: 0, y: 0, width: $0, height: $0)) }
        held.removeAll()
        return pool
    }

    #if os(Linux)
        /// A level's pixels are read before they are written (blending onto them, a composite
        /// consuming them). Pages a bitmap's bounds reach for the first time are made writable as
        /// it is handed out, so that reading and then writing them costs no page fault at all
        /// (lazily zeroed pages first read would fault twice, and the second fault interrupts
        /// every core the process runs on); capacity beyond the bounds stays untouched.
        func testPixelsBoundsReachAreWritableBeforeTheyAreRead() throws {
            // A sanitizer's allocator serves the capacity from memory of its own (under
            // ThreadSanitizer, already resident): what glibc's fresh mapping shows is not there.
            if let sanitizer = ProcessInfo.processInfo.environment["VITRINE_SANITIZER"] {
                throw XCTSkip("the \(sanitizer) sanitizer's allocator, not glibc's, serves the capacity")
            }
            let pageBytes = Int(sysconf(Int32(_SC_PAGESIZE)))
            // 128 MB: above the largest mapping threshold glibc's malloc raises its own to (32 MB)
            // and twice the most its heap keeps free untrimmed, so always a fresh mapping with
            // nothing resident yet, whatever the tests before freed (a 4 MB one was once served
            // from recycled heap memory, already resident).
            let capacity = 32 << 20
            let bitmap = OffscreenBitmap(capacity: capacity)
            let bounds = IntRect(x: 40, y: 30, width: 512, height: 256)
            bitmap.reshape(to: bounds)
            let before = pageFaults()
            let pixels = bitmap.pixels
            var sum: UInt32 = 0
            for i in 0..<bounds.area { sum |= pixels[i] }
            for i in stride(from: 0, to: bounds.area, by: 16) { pixels[i] = sum }
            let faults = pageFaults() - before
            // Lazily, each page would fault twice (256 and more); populated, only the pages of the
            // loops' own code and stack may, in a fresh process, and the first and last pages of
            // the bounds, which they share with the allocation's header and the capacity beyond.
            let pages = bounds.area * 4 / pageBytes
            XCTAssertLessThan(faults, pages / 8, "page faults reading then writing \(pages) pages")
            XCTAssertEqual(sum, 0, "a pooled bitmap is transparent (and the writes kept it so)")
            // Beyond the bounds, nothing became resident: checked past the 2 MB a transparent
            // huge page holding the bounds' last pixels could reach.
            let hugePageBytes = 2 << 20
            let pageMask = ~UInt(pageBytes - 1)
            let start = (UInt(bitPattern: pixels + bounds.area) + UInt(hugePageBytes + pageBytes)) & pageMask
            let end = UInt(bitPattern: pixels + capacity) & pageMask
            var resident = [UInt8](repeating: 0, count: Int(end - start) / pageBytes)
            XCTAssertEqual(mincore(UnsafeMutableRawPointer(bitPattern: start), Int(end - start), &resident), 0)
            XCTAssertEqual(resident.filter { $0 & 1 != 0 }.count, 0, "capacity beyond the bounds stays unpopulated")
        }

        /// Minor page faults of the calling thread so far (RUSAGE_THREAD, which Glibc's module
        /// leaves out).
        private func pageFaults() -> Int {
            var usage = rusage()
            getrusage(1, &usage)
            return usage.ru_minflt
        }
    #endif
}
