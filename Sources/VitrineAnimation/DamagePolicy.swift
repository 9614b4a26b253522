import VitrineGraphics

/// Turns the damage of a frame (`FrameUpdate.dirtyRects`, in the root's superlayer space)
/// into the pixel rectangles to repaint and present: mapped to device pixels, widened for
/// anti-aliased edges, merged where that costs little, and replaced by the whole frame when
/// repainting rectangle by rectangle would not save much.
public struct DamagePolicy: Sendable, Equatable {
    /// Pixels added on every side (anti-aliasing reaches half a pixel beyond an edge).
    public var outset: Int = 1
    /// Two rectangles merge when their bounding box is at most this many times their combined
    /// area (so adjacent ones and ones mostly overlapping merge, distant ones stay apart).
    public var mergeSlack: Double = 1.25
    /// More rectangles than this are merged, the pair that wastes the least area first, until
    /// this many remain (each rectangle costs a walk of the tree and one X request).
    public var maximumRectCount: Int = 12
    /// When the rectangles cover more than this fraction of the frame, the frame is repainted
    /// whole.
    public var fullFrameFraction: Double = 0.5

    /// The default policy: 1 px outset, slack 1.25, at most 12 rectangles, whole frame above 50 %.
    public init() {}

    /// The rectangles of `frame` (the bitmap's pixels) to repaint for damage `rects`, given in a
    /// space that `transform` maps to device pixels. Empty when nothing is damaged.
    public func deviceRects(for rects: [Rect], frame: IntRect, transform: Transform2D = .identity) -> [IntRect] {
        var out: [IntRect] = []
        deviceRects(for: rects, frame: frame, transform: transform, into: &out)
        return out
    }

    /// `deviceRects(for:frame:transform:)` written into `out`, whose storage is reused (a
    /// renderer keeps one array for every frame).
    public func deviceRects(
        for rects: [Rect], frame: IntRect, transform: Transform2D = .identity, into out: inout [IntRect]
    ) {
        out.removeAll(keepingCapacity: true)
        for r in rects where !r.isNull {
            let box = IntRect(enclosing: transform.isIdentity ? r : transform.apply(to: r))
            guard !box.isEmpty else { continue }
            let clipped = box.outset(by: outset).intersection(frame)
            if !clipped.isEmpty { out.append(clipped) }
        }
        // Pairwise merging is quadratic per round: past a few dozen, take the bounding box.
        if out.count <= 64 {
            merge(&out)
        } else {
            let box = out.dropFirst().reduce(out[0]) { $0.union($1) }
            out.removeAll(keepingCapacity: true)
            out.append(box)
        }
        // Widely spaced changes (four squares across the screen) stay apart: only the cheapest
        // merges are made, never one bounding box over everything.
        while out.count > max(1, maximumRectCount) { mergeCheapestPair(&out) }
        let area = out.reduce(0) { $0 + $1.area }
        if Double(area) > fullFrameFraction * Double(frame.area) {
            out.removeAll(keepingCapacity: true)
            if !frame.isEmpty { out.append(frame) }
        }
    }

    /// Replaces the two rectangles whose bounding box adds the least area by that box.
    func mergeCheapestPair(_ rects: inout [IntRect]) {
        var best = (i: 0, j: 1, waste: Int.max)
        for i in rects.indices {
            for j in rects.indices where j > i {
                let waste = rects[i].union(rects[j]).area - rects[i].area - rects[j].area
                if waste < best.waste { best = (i, j, waste) }
            }
        }
        rects[best.i] = rects[best.i].union(rects[best.j])
        rects.remove(at: best.j)
    }

    /// Merges pairs whose bounding box wastes little area until no pair does.
    func merge(_ out: inout [IntRect]) {
        var changed = true
        while changed {
            changed = false
            search: for i in out.indices {
                for j in out.indices where j > i {
                    // Overlapping rectangles merge only when their box wastes little too: a band
                    // of strips along a moving outline, each overlapping the next, must not
                    // become the box around the whole outline (the overlaps are repainted
                    // twice, the same pixels each time).
                    let u = out[i].union(out[j])
                    if Double(u.area) <= mergeSlack * Double(out[i].area + out[j].area) {
                        out[i] = u
                        out.remove(at: j)
                        changed = true
                        break search
                    }
                }
            }
        }
    }
}
