/// Whether a shape's edges wind 0 or 1 everywhere (or 0 or −1): then the accumulated area of
/// every pixel is exact and its writers need no watching (`Rasterizer.watchesWriters`). A
/// simple polygon (a progress ring's arrow, a morphing blob, a letter with its holes wound the
/// other way) passes; a self-crossing one, or one overlapping itself, fails.
///
/// The edges fall into monotone chains: runs of consecutive edges going one way in y, each a
/// graph x(y). A sweep from top to bottom stops where a chain starts or ends, and keeps the
/// chains crossing the rows below it left to right. Down to the next stop, no two chains cross
/// when each stays left of the next, which is checked at every end of an edge of either
/// (straight lines between); they are in order at the stop itself, from the stop before or,
/// for a chain joining, by where it starts and heads. The winding left of a point then counts
/// the chains before it, so it stays 0 or the shape's sign when their directions alternate
/// from left to right starting with that sign. Touching at a point or along an edge is allowed
/// (it covers no area).
///
/// Exact: positions are compared as integer cross products of the rasterizer's 24.8 fixed-point
/// edges (up to 2^20, a 4096-pixel target; a larger shape, or one of more than 65,536 edges, is
/// not checked). A chain's edges are visited twice (once beside each neighbour) besides a step
/// a chain at every stop, so the check costs about a tenth of accumulating the same edges; a
/// shape with so many chains that the steps pass sixteen an edge is answered `false`.
final class StripWindingCheck {
    /// A monotone chain: edges `first ... last` in the path, going down (`direction` 1) or up,
    /// from its top to `bottom`. `current` is the edge the sweep is at (the chain's edges from
    /// the top: ascending indices going down, descending going up).
    private struct Chain {
        var first: Int, last: Int, direction: Int, current: Int, bottom: Int
        var isAtBottom: Bool { current == (direction > 0 ? last : first) }
    }

    /// An edge from its top end (`x0`, `y0`) down by (`dx`, `dy`).
    private struct Span {
        var x0: Int, y0: Int, dx: Int, dy: Int
        var y1: Int { y0 &+ dy }
    }

    /// The largest coordinate checked: products of three stay below 2^63.
    static let coordinateLimit = 1 << 20
    /// The most edges checked: the buffers take about 100 bytes an edge, and stay as large as
    /// the largest shape checked.
    static let edgeLimit = 1 << 16

    /// Every edge from its top, by index.
    private var spans: UnsafeMutablePointer<Span>
    private var chains: UnsafeMutablePointer<Chain>
    /// Chains as (top y) << 32 | index, sorted by top, and the merge sort's other half.
    private var order: UnsafeMutablePointer<UInt64>, scratch: UnsafeMutablePointer<UInt64>
    /// The chains crossing the sweep's row, left to right.
    private var active: UnsafeMutablePointer<Int>
    private var capacity = 0

    init() {
        spans = .allocate(capacity: 1)
        chains = .allocate(capacity: 1)
        order = .allocate(capacity: 1)
        scratch = .allocate(capacity: 1)
        active = .allocate(capacity: 1)
        capacity = 1
    }

    deinit { deallocateBuffers() }

    /// Whether every point off the edges winds 0 or ±1 (one sign for the whole shape), the
    /// winding left of a point being the sum of the directions of the edges crossing its row
    /// to its left. `edges` are as the rasterizer keeps them (no horizontal one), `connected`
    /// where an edge starts where the one before it ended.
    func windsAtMostOnce(_ edges: UnsafePointer<FixedEdge>, count: Int) -> Bool {
        guard count > 0 else { return true }
        guard count <= StripWindingCheck.edgeLimit else { return false }
        reserve(count)
        let limit = StripWindingCheck.coordinateLimit
        var chainCount = 0
        for index in 0..<count {
            let e = edges[index]
            guard min(e.x0, e.y0, e.x1, e.y1) >= 0 && max(e.x0, e.y0, e.x1, e.y1) <= limit && e.y0 != e.y1 else {
                return false
            }
            let direction = e.y0 < e.y1 ? 1 : -1
            spans[index] =
                direction > 0
                ? Span(x0: Int(e.x0), y0: Int(e.y0), dx: Int(e.x1) &- Int(e.x0), dy: Int(e.y1) &- Int(e.y0))
                : Span(x0: Int(e.x1), y0: Int(e.y1), dx: Int(e.x0) &- Int(e.x1), dy: Int(e.y0) &- Int(e.y1))
            if chainCount > 0 && e.connected && chains[chainCount &- 1].direction == direction {
                chains[chainCount &- 1].last = index
            } else {
                chains[chainCount] = Chain(first: index, last: index, direction: direction, current: 0, bottom: 0)
                chainCount &+= 1
            }
        }
        for c in 0..<chainCount {
            chains[c].current = chains[c].direction > 0 ? chains[c].first : chains[c].last
            chains[c].bottom = spans[chains[c].direction > 0 ? chains[c].last : chains[c].first].y1
            let top = spans[chains[c].current].y0
            order[c] = UInt64(truncatingIfNeeded: top) << 32 | UInt64(truncatingIfNeeded: c)
        }
        sortOrder(chainCount)

        var steps = 0
        let allowedSteps = 16 &* count &+ 1024
        var sign = 0
        var next = 0, activeCount = 0
        var y = Int(truncatingIfNeeded: order[0] >> 32)
        while true {
            // Chains ending here leave; those starting here join in order: by x here, then by
            // heading.
            var kept = 0
            for i in 0..<activeCount where chains[active[i]].bottom != y {
                active[kept] = active[i]
                kept &+= 1
            }
            var changed = kept != activeCount
            activeCount = kept
            while next < chainCount && Int(truncatingIfNeeded: order[next] >> 32) == y {
                let c = Int(truncatingIfNeeded: order[next] & 0xFFFF_FFFF)
                var slot = activeCount
                while slot > 0 && startsLeft(chains[c].current, of: chains[active[slot &- 1]].current, at: y) {
                    active[slot] = active[slot &- 1]
                    slot &-= 1
                }
                active[slot] = c
                steps &+= activeCount &- slot
                activeCount &+= 1
                next &+= 1
                changed = true
            }
            if activeCount == 0 {
                if next == chainCount { return true }
                y = Int(truncatingIfNeeded: order[next] >> 32)
                continue
            }
            // Down to where the next chain joins or leaves: the directions alternate, and each
            // chain stays left of the next.
            var below = next < chainCount ? Int(truncatingIfNeeded: order[next] >> 32) : Int.max
            var winding = 0
            for i in 0..<activeCount {
                let c = active[i]
                below = min(below, chains[c].bottom)
                if changed {
                    winding &+= chains[c].direction
                    if sign == 0 { sign = winding }
                    if winding != 0 && winding != sign { return false }
                }
            }
            for i in 1..<activeCount {
                guard staysLeft(active[i &- 1], of: active[i], down: below, steps: &steps) else { return false }
            }
            // Each chain at its edge crossing `below` (or its last edge, if it ends there).
            for i in 0..<activeCount {
                let c = active[i]
                while spans[chains[c].current].y1 <= below && !chains[c].isAtBottom {
                    chains[c].current &+= chains[c].direction
                }
            }
            steps &+= activeCount
            if steps > allowedSteps { return false }
            y = below
        }
    }

    /// Whether chain `a`, left of chain `b` (or touching it) where their current edges are,
    /// stays so down to `below` (where neither has ended): compared at every end of an edge of
    /// either, straight lines between.
    @inline(__always)
    private func staysLeft(_ a: Int, of b: Int, down below: Int, steps: inout Int) -> Bool {
        var (p, q) = (chains[a].current, chains[b].current)
        let (stepA, stepB) = (chains[a].direction, chains[b].direction)
        while true {
            let endA = spans[p].y1, endB = spans[q].y1
            let end = min(endA, endB, below)
            if compareX(p, q, at: end) > 0 { return false }
            if end == below { return true }
            if endA == end { p &+= stepA }
            if endB == end { q &+= stepB }
            steps &+= 1
        }
    }

    /// The sign of x_a(y) − x_b(y) for edges `a` and `b`, both crossing the row at `y`.
    @inline(__always)
    private func compareX(_ a: Int, _ b: Int, at y: Int) -> Int {
        let p = spans[a], q = spans[b]
        // x·dy of each (below 2^41), then over the common denominator dy_a·dy_b (below 2^61).
        let left = (p.x0 &* p.dy &+ p.dx &* (y &- p.y0)) &* q.dy
        let right = (q.x0 &* q.dy &+ q.dx &* (y &- q.y0)) &* p.dy
        return left < right ? -1 : (left > right ? 1 : 0)
    }

    /// Whether edge `a`, starting at `y`, lies left of edge `b` just below `y`: left of it at
    /// `y`, or at the same point and heading further left.
    @inline(__always)
    private func startsLeft(_ a: Int, of b: Int, at y: Int) -> Bool {
        let order = compareX(a, b, at: y)
        if order != 0 { return order < 0 }
        let p = spans[a], q = spans[b]
        return p.dx &* q.dy < q.dx &* p.dy
    }

    /// Sorts `order[0 ..< n]` (bottom-up merges through `scratch`).
    private func sortOrder(_ n: Int) {
        var source = order, target = scratch
        var width = 1
        while width < n {
            var start = 0
            while start < n {
                let middle = min(start &+ width, n), end = min(start &+ 2 &* width, n)
                var (i, j, k) = (start, middle, start)
                while k < end {
                    if j == end || i < middle && source[i] <= source[j] {
                        target[k] = source[i]
                        i &+= 1
                    } else {
                        target[k] = source[j]
                        j &+= 1
                    }
                    k &+= 1
                }
                start = end
            }
            swap(&source, &target)
            width &*= 2
        }
        if source != order { order.update(from: source, count: n) }
    }

    private func reserve(_ count: Int) {
        guard count > capacity else { return }
        let grown = max(count, capacity &* 2)
        deallocateBuffers()
        spans = .allocate(capacity: grown)
        chains = .allocate(capacity: grown)
        order = .allocate(capacity: grown)
        scratch = .allocate(capacity: grown)
        active = .allocate(capacity: grown)
        capacity = grown
    }

    private func deallocateBuffers() {
        spans.deallocate()
        chains.deallocate()
        order.deallocate()
        scratch.deallocate()
        active.deallocate()
    }
}
