import CarFactory

// "did you mean 'sports'?": the closest valid name by edit distance.

/// The candidate closest to `name` by edit distance, if it is close enough to be a likely typo.
///
/// The work is bounded whatever the input: a name longer than `suggestionLength` is no
/// typo worth a guess, candidates whose length alone rules them out are skipped, and at
/// most `suggestionCandidates` are compared.
package func closestName(to name: String, in candidates: [String]) -> String? {
    let target = Array(nameKey(name).unicodeScalars)
    guard target.count <= suggestionLength else { return nil }
    var best: (name: String, distance: Int)?
    for candidate in candidates.prefix(suggestionCandidates) {
        let other = Array(nameKey(candidate).unicodeScalars)
        // One edit for short names, about a third of the name for longer ones.
        let allowed = max(1, min(target.count, other.count) / 3)
        guard abs(other.count - target.count) <= allowed else { continue }
        let distance = editDistance(target, other)
        if distance <= allowed && distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
    }
    return best?.name
}

/// The longest name a suggestion is looked for.
let suggestionLength = 64
/// The most candidates compared for one suggestion.
let suggestionCandidates = 4096

/// Levenshtein distance with adjacent transpositions counted as one edit.
func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous2 = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                value = min(value, previous2[j - 2] + 1)
            }
            current[j] = value
        }
        (previous2, previous, current) = (previous, current, previous2)
    }
    return previous[b.count]
}
