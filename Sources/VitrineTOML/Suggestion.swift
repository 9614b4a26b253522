/// The candidate most likely meant by a mistyped `key`, for "did you mean …?" hints.
///
/// A candidate equal to `key` ignoring case wins outright. Otherwise the candidate at the
/// smallest optimal-string-alignment distance (Levenshtein plus swaps of adjacent characters,
/// compared case-insensitively) is chosen, if that distance is at most a third of the key's
/// length (at least 1); ties go to the earlier candidate. Returns nil when nothing is close, or
/// when `key` is itself a candidate.
public func suggestion(for key: String, among candidates: [String]) -> String? {
    if candidates.contains(key) { return nil }
    let typed = Array(key.lowercased())
    if let exact = candidates.first(where: { $0.lowercased() == key.lowercased() }) {
        return exact
    }
    let threshold = max(typed.count, 3) / 3
    var best: (candidate: String, distance: Int)?
    for candidate in candidates {
        let other = Array(candidate.lowercased())
        if abs(other.count - typed.count) > threshold { continue }
        let distance = editDistance(typed, other)
        if distance <= threshold && distance < (best?.distance ?? .max) {
            best = (candidate, distance)
        }
    }
    return best?.candidate
}

/// Optimal string alignment distance: insertions, deletions, substitutions and transpositions of
/// adjacent characters each cost 1. Three rolling rows keep memory linear.
func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var beforePrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            var d = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = min(d, beforePrevious[j - 2] + 1)
            }
            current[j] = d
        }
        swap(&beforePrevious, &previous)
        swap(&previous, &current)
    }
    return previous[b.count]
}
