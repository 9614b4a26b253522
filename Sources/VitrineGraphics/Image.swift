/// Immutable premultiplied pixels to draw with (`GraphicsContext.draw(_:in:)`): decoded PNG
/// files, snapshots of bitmaps. Same pixel layout as `Bitmap`, `width` pixels per row.
public final class Image: @unchecked Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    private let storage: UnsafeMutablePointer<UInt32>
    /// Pixels the storage holds: at least `width × height`, more when the image was drawn in
    /// the storage of a larger one it replaced.
    let capacity: Int
    /// False once an image replacing this one has taken its storage over.
    private var ownsStorage = true
    /// Whether every pixel is opaque (a JPEG photo, most PNGs): filtered, it stays opaque, so a
    /// draw at full alpha and coverage writes its samples straight to the target. (Set once
    /// more only by a `DeferredImage`'s decoding, before anything reads it.)
    public internal(set) var isOpaque: Bool

    /// Takes ownership of `width × height` initialized premultiplied pixels, in storage of
    /// `capacity` pixels (by default just enough).
    init(width: Int, height: Int, adopting storage: UnsafeMutablePointer<UInt32>, capacity: Int? = nil) {
        self.width = width
        self.height = height
        self.storage = storage
        self.capacity = capacity ?? max(1, width * height)
        isOpaque = Image.allOpaque(storage, count: width * height)
    }

    /// Whether the `count` pixels at `pixels` are all opaque.
    static func allOpaque(_ pixels: UnsafePointer<UInt32>, count: Int) -> Bool {
        var alphas: UInt32 = 0xFF00_0000
        for i in 0..<count { alphas &= pixels[i] }
        return alphas == 0xFF00_0000
    }

    /// Storage for `width × height` pixels that are written after the image is made, each row
    /// before it is first read (`ResampledRows`), and that will all be opaque or not as
    /// `isOpaque` says. Nothing is written first: rows never drawn cost no time.
    init(width: Int, height: Int, unwrittenOpaque isOpaque: Bool) {
        self.width = max(0, width)
        self.height = max(0, height)
        capacity = max(1, self.width * self.height)
        storage = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
        self.isOpaque = isOpaque
    }

    /// An image from premultiplied pixels (A<<24 | R<<16 | G<<8 | B), row by row; nil when
    /// the size is negative or the array does not hold exactly `width × height` pixels.
    public convenience init?(width: Int, height: Int, premultipliedPixels: [UInt32]) {
        guard width >= 0, height >= 0, premultipliedPixels.count == width * height else { return nil }
        let p = UnsafeMutablePointer<UInt32>.allocate(capacity: max(1, width * height))
        premultipliedPixels.withUnsafeBufferPointer { source in
            if let base = source.baseAddress { p.initialize(from: base, count: source.count) }
        }
        self.init(width: width, height: height, adopting: p)
    }

    /// A snapshot of a bitmap's pixels.
    public convenience init(bitmap: Bitmap) {
        let p = UnsafeMutablePointer<UInt32>.allocate(capacity: max(1, bitmap.width * bitmap.height))
        for y in 0..<bitmap.height {
            (p + y * bitmap.width).initialize(from: bitmap.row(y), count: bitmap.width)
        }
        self.init(width: bitmap.width, height: bitmap.height, adopting: p)
    }

    /// An image of what `draw` draws into a transparent bitmap of its size: the bitmap's
    /// pixels become the image's, with no copy (a turning card's plane, made again as its
    /// scale changes, allocates its pixels once, not twice). The bitmap must not be kept.
    public convenience init(width: Int, height: Int, drawing draw: (Bitmap) -> Void) {
        var none: Image? = nil
        self.init(width: width, height: height, replacing: &none, drawing: draw)
    }

    /// An image of what `draw` draws into a transparent bitmap of its size, made in the pixels
    /// of `previous`, the image it replaces, when nothing else holds that one and its storage
    /// is large enough but not twice as large as `reserve` pixels (at least the image's);
    /// `previous` is nil afterwards either way, and let go before new storage is allocated, which
    /// holds `reserve` pixels, or half as many again as `previous` held when it outgrew it. A
    /// turning card's plane, drawn again at each step of its scale while the other threads wait
    /// for it, thus reuses memory already mapped instead of faulting new pages in: reserving
    /// what the card needs seen face-on, it keeps one storage through most of a turn.
    public convenience init(
        width: Int, height: Int, replacing previous: inout Image?, reserving reserve: Int = 0,
        drawing draw: (Bitmap) -> Void
    ) {
        let w = max(0, width), h = max(0, height), count = max(1, w * h)
        let capacity = max(count, reserve)
        // An image outgrowing the one it replaces is likely to grow on (a turning card coming
        // nearer): half as much again. Pages never written are never mapped in.
        var fresh = capacity
        if let old = previous, old.capacity < count { fresh = max(capacity, old.capacity + old.capacity / 2) }
        let (p, taken) =
            Image.takeStorage(of: &previous, count: count, reserve: capacity)
            ?? (UnsafeMutablePointer<UInt32>.allocate(capacity: fresh), fresh)
        p.initialize(repeating: 0, count: count)
        draw(Bitmap(wrapping: p, width: w, height: h, stride: w, release: {}))
        self.init(width: w, height: h, adopting: p, capacity: taken)
    }

    /// The storage of `image` for `count` pixels, taken over, when `image` is its only holder
    /// and the storage suits (`init(width:height:replacing:reserving:drawing:)`); `image` is nil
    /// after.
    private static func takeStorage(
        of image: inout Image?, count: Int, reserve: Int
    ) -> (UnsafeMutablePointer<UInt32>, capacity: Int)? {
        guard var old = image else { return nil }
        image = nil
        guard isKnownUniquelyReferenced(&old), old.capacity >= count, old.capacity < 2 * reserve else { return nil }
        old.ownsStorage = false
        return (old.storage, old.capacity)
    }

    deinit { if ownsStorage { storage.deallocate() } }

    /// The first pixel; rows follow `width` pixels apart.
    public var pixels: UnsafePointer<UInt32> { UnsafePointer(storage) }

    /// The pixels of an image made with `init(width:height:unwrittenOpaque:)`, to write its rows.
    var unwrittenPixels: UnsafeMutablePointer<UInt32> { storage }

    /// The image's size in pixels.
    public var size: Size { Size(width: Double(width), height: Double(height)) }

    /// The pixels of `rect` (clipped to the image) as an image of their own: a sprite-sheet
    /// cell or a nine-slice part that, filtered, never reads its neighbours.
    public func cropped(to rect: IntRect) -> Image {
        let r = rect.intersection(IntRect(x: 0, y: 0, width: width, height: height))
        let p = UnsafeMutablePointer<UInt32>.allocate(capacity: max(1, r.area))
        for y in 0..<r.height {
            (p + y * r.width).initialize(from: storage + (r.y + y) * width + r.x, count: r.width)
        }
        return Image(width: r.width, height: r.height, adopting: p)
    }

    /// The premultiplied pixel at (x, y); both must be in range.
    public subscript(x: Int, y: Int) -> UInt32 {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel outside the image")
        return storage[y * width + x]
    }
}

extension Bitmap {
    /// A bitmap holding a copy of an image's pixels.
    public convenience init(image: Image) {
        self.init(width: image.width, height: image.height)
        for y in 0..<image.height {
            row(y).update(from: image.pixels + y * image.width, count: image.width)
        }
    }
}
