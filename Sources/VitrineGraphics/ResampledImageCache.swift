import CMemory
import VitrineSystem

/// Copies of images resampled at device resolution, for images drawn again and again at the
/// same scale and sub-pixel phase (a photo under an animated mask): each row is filtered once,
/// when a draw first reads it, and later draws copy whole pixels. Only axis-aligned scales are
/// kept, a copy is made when an image is drawn with the same mapping in two frames in a row
/// (so an image whose scale animates is never copied) or in two places of one frame (it then
/// goes at once unless the next frame draws it too), at most a few copies are held, and a
/// copy not drawn for `BufferPool.idleFrames` frames is let go (the photo of a scene that has
/// ended).
///
/// A copy holds exactly the pixels filtering the image directly gives (`ImageSampler` steps
/// from the image's origin either way), so whether a draw finds its copy never changes what
/// it draws: only how long it takes.
struct ResampledImageCache {
    private struct Key: Equatable {
        let image: ObjectIdentifier
        let scaleX: Double, scaleY: Double
        /// Where the image's origin falls inside its device pixel.
        let phaseX: Double, phaseY: Double
    }

    /// A copy depends on the scale and the phase only: the same image drawn again at another
    /// whole-pixel place (or a second time elsewhere in the frame) reads the same copy there.
    private struct Entry {
        let key: Key
        /// Held so the identifier in the key cannot be reused by another image.
        let image: Image
        let resampled: Image
        /// The copy's rows not all filtered yet; nil once they are.
        var rows: ResampledRows?
        /// The frame (`endFrame` count) it was last drawn in.
        var lastUse: Int
        /// Made for a mapping drawn in two places in one frame rather than in two frames: if
        /// the next frame does not draw it (a pair of photos zooming together), it goes then.
        var isProvisional: Bool
    }

    private static let capacity = 4
    /// Copies larger than this many pixels (12 MB) are not made. An 800x800 photo on a 4K
    /// screen (1600x1600 device pixels, the masked photos of the default playlist) is copied:
    /// filtering it where an animated mask uncovers it cost more than half of those scenes'
    /// frames, and the copy lives only while the photo is drawn. A photo filling a 4K screen is
    /// filtered where it is drawn rather than kept twice, once at each size.
    private static let maximumPixels = 3 * 1024 * 1024
    private var entries: [Entry] = []
    private var next = 0
    private var frame = 0
    /// The mappings drawn in this frame and in the one before: a copy is made for one drawn
    /// in both.
    private var seenThisFrame: [Key] = []
    private var seenLastFrame: [Key] = []
    /// Where the mappings drawn in this frame had the image's origin: one drawn at a second
    /// place in the same frame (one photo shown twice, as a scene fading in shows it) is
    /// copied at once, and its other draws copy whole pixels from its first frame on. (A draw
    /// split into bands of rows draws at one place.)
    private var placesThisFrame: [(key: Key, x: Int, y: Int)] = []

    /// A sampler for `image` drawn under `imageToDevice`: from a resampled copy when the same
    /// mapping was drawn before, otherwise filtering the image itself.
    mutating func sampler(for image: Image, imageToDevice m: Transform2D, inverse: Transform2D) -> ImageSampler {
        // Positions are stepped from the device pixel where the image's origin lies: a copy
        // made from there holds the pixels drawing directly gives.
        let finitelyPlaced = m.tx.isFinite && m.ty.isFinite && abs(m.tx) < 1e7 && abs(m.ty) < 1e7
        let origin = finitelyPlaced ? (x: Int(m.tx.rounded(.down)), y: Int(m.ty.rounded(.down))) : (x: 0, y: 0)
        guard finitelyPlaced, m.b == 0, m.c == 0, m.a > 0, m.d > 0, m.a != 1 || m.d != 1 else {
            return ImageSampler(image: image, inverse: inverse, anchor: origin)
        }
        let originX = Double(origin.x), originY = Double(origin.y)
        let key = Key(
            image: ObjectIdentifier(image), scaleX: m.a, scaleY: m.d,
            phaseX: m.tx - originX, phaseY: m.ty - originY)
        // The copy's first pixel lands on device pixel (originX, originY) of this draw.
        let placed = Transform2D(translationX: -originX, y: -originY)
        if let index = entries.firstIndex(where: { $0.key == key && $0.image === image }) {
            if entries[index].lastUse != frame { entries[index].isProvisional = false }
            entries[index].lastUse = frame
            if let rows = entries[index].rows, rows.areAllFiltered { entries[index].rows = nil }
            return ImageSampler(image: entries[index].resampled, inverse: placed, filling: entries[index].rows)
        }
        // A few mappings are remembered (particles drawn at many scales are not copied).
        if seenThisFrame.count < 32, !seenThisFrame.contains(key) { seenThisFrame.append(key) }
        var drawnElsewhere = false
        if !seenLastFrame.contains(key) {
            drawnElsewhere = placesThisFrame.contains { $0.key == key && ($0.x, $0.y) != origin }
            if !drawnElsewhere, placesThisFrame.count < 32 { placesThisFrame.append((key, origin.x, origin.y)) }
        }
        let width = Int((m.a * Double(image.width) + key.phaseX).rounded(.up))
        let height = Int((m.d * Double(image.height) + key.phaseY).rounded(.up))
        guard seenLastFrame.contains(key) || drawnElsewhere, width > 0, height > 0, width * height <= Self.maximumPixels
        else {
            return ImageSampler(image: image, inverse: inverse, anchor: origin)
        }
        // The copy's rows sample exactly the device pixels a direct draw would (the same
        // anchored map, from column 0 of the anchor), each filtered when a draw first reads
        // it: by the thread drawing it, not here holding the lock while the threads drawing the
        // frame's other bands wait, and rows never drawn (a photo an animated mask has not
        // uncovered yet) cost nothing.
        let direct = ImageSampler(
            image: image, inverse: Transform2D(translationX: originX, y: originY).concatenating(inverse))
        let resampled = Image(width: width, height: height, unwrittenOpaque: image.isOpaque)
        let rows = ResampledRows(of: resampled, from: direct)
        let entry = Entry(
            key: key, image: image, resampled: resampled, rows: rows, lastUse: frame, isProvisional: drawnElsewhere)
        if entries.count < Self.capacity {
            entries.append(entry)
        } else {
            entries[next] = entry
            next = (next + 1) % Self.capacity
        }
        return ImageSampler(image: entry.resampled, inverse: placed, filling: rows)
    }

    /// Ends a frame: copies not drawn in the last `BufferPool.idleFrames` frames are released.
    mutating func endFrame() {
        frame &+= 1
        swap(&seenLastFrame, &seenThisFrame)
        seenThisFrame.removeAll(keepingCapacity: true)
        placesThisFrame.removeAll(keepingCapacity: true)
        let idle = frame &- BufferPool.idleFrames, lastFrame = frame &- 1
        releaseCopies { $0.lastUse < idle || ($0.isProvisional && $0.lastUse < lastFrame) }
    }

    /// Lets go of the copies the last frame did not draw (before a still frame, when nothing
    /// draws until something changes: a sprite sheet's copies are not held through the next
    /// scene's pauses).
    mutating func releaseUnused() {
        let lastFrame = frame &- 1
        releaseCopies { $0.lastUse < lastFrame }
    }

    private mutating func releaseCopies(where isDone: (Entry) -> Bool) {
        guard entries.contains(where: isDone) else { return }
        entries.removeAll(where: isDone)
        next = 0
    }

    /// Pixels held in copies (for tests and diagnostics).
    var retainedPixels: Int { entries.reduce(0) { $0 + $1.resampled.width * $1.resampled.height } }

    /// Rows of the copies that hold their pixels (for tests).
    var filteredRows: Int { entries.reduce(0) { $0 + ($1.rows?.filteredCount ?? $1.resampled.height) } }
}

/// The rows of a resampled copy, filtered from the image when a draw first reads each (the
/// thread drawing that row fills it; a thread reading a row another is filling waits for it).
/// Every row's pixels are the same whoever fills it and whenever.
final class ResampledRows: @unchecked Sendable {
    /// Held so the pixels outlive every reader of the rows.
    private let image: Image
    private let copy: UnsafeMutablePointer<UInt32>
    private let width: Int
    private let height: Int
    private let source: ImageSampler
    private let condition = Condition()
    /// Per row: 0 to filter, 1 being filtered, 2 filtered. Changed under `condition`, and read
    /// without it to find a filtered row (`vitrine_flag_load`, which also shows its pixels).
    private let states: UnsafeMutablePointer<UInt8>
    private var filtered = 0
    private static let toFilter: UInt8 = 0, filtering: UInt8 = 1, done: UInt8 = 2

    /// The rows of `copy` (made with `Image(width:height:unwrittenOpaque:)`), row y being
    /// `source`'s device row y from x = 0.
    init(of copy: Image, from source: ImageSampler) {
        image = copy
        self.copy = copy.unwrittenPixels
        width = copy.width
        height = copy.height
        self.source = source
        states = .allocate(capacity: max(1, height))
        states.initialize(repeating: Self.toFilter, count: max(1, height))
    }

    deinit { states.deallocate() }

    /// Makes sure row `y` (0..<height) holds its pixels, filtering it with the calling thread's
    /// `filteredRows` when it has to.
    func fill(_ y: Int, through filteredRows: FilteredRows? = nil) {
        // Almost every read finds its row filtered: no lock for those.
        let state = states + y
        if vitrine_flag_load(state) == Self.done { return }
        let claimed = condition.withLock { () -> Bool? in
            switch vitrine_flag_load(state) {
            case Self.done: return nil
            case Self.toFilter:
                vitrine_flag_store(state, Self.filtering)
                return true
            default: return false
            }
        }
        guard let claimed else { return }
        guard claimed else {
            condition.wait { vitrine_flag_load(state) == Self.done }
            return
        }
        var source = self.source
        source.filteredRows = filteredRows
        source.sample(x: 0, y: y, count: width, into: copy + y * width)
        condition.announce {
            vitrine_flag_store(state, Self.done)
            filtered += 1
        }
    }

    /// Whether every row holds its pixels (the copy is then read without asking).
    var areAllFiltered: Bool { condition.withLock { filtered == height } }

    /// How many rows hold their pixels.
    var filteredCount: Int { condition.withLock { filtered } }
}

/// One `ResampledImageCache` for the contexts drawing bands of the same frames on several
/// threads: a copy made by one serves the others.
final class SharedResampledImages: @unchecked Sendable {
    private let lock = Lock()
    private var cache = ResampledImageCache()

    func sampler(for image: Image, imageToDevice m: Transform2D, inverse: Transform2D) -> ImageSampler {
        lock.withLock { cache.sampler(for: image, imageToDevice: m, inverse: inverse) }
    }

    func endFrame() { lock.withLock { cache.endFrame() } }

    func releaseUnused() { lock.withLock { cache.releaseUnused() } }

    var retainedPixels: Int { lock.withLock { cache.retainedPixels } }

    var filteredRows: Int { lock.withLock { cache.filteredRows } }
}
