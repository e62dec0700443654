import CarFactory
import Testing

@testable import CarScript

@Suite struct DiagnosticTests {
    func diagnostic(_ text: String, _ range: SourceRange, starts: [Int] = [0], first: Int = 1) -> Diagnostic {
        var lines = SourceLines(file: "f.carfab")
        lines.bytes = Array(text.utf8)
        lines.lineStarts = starts
        lines.firstLine = first
        return lines.diagnostic(message: "m", range: range)
    }

    @Test func columns_count_characters_not_bytes() {
        let d = diagnostic("echo £é; car sprots", SourceRange(15, 21))
        #expect(d.line == 1 && d.column == 14 && d.endColumn == 20)
        #expect(d.source == SourceExcerpt("echo £é; car sprots"))
    }

    @Test func continued_lines_point_into_the_right_physical_line() {
        let d = diagnostic("car \\\n  sprots 2", SourceRange(8, 14), starts: [0, 6], first: 7)
        #expect(d.line == 8 && d.column == 3 && d.endColumn == 9 && d.source?.text == "  sprots 2")
    }

    @Test func many_errors_on_one_line_are_positioned_in_order() {
        var lines = SourceLines(file: "f")
        lines.bytes = Array(String(repeating: "ab £ ", count: 1000).utf8)
        var columns: [Int] = []
        for index in stride(from: 0, to: 6000, by: 600) {
            columns.append(lines.diagnostic(message: "m", range: SourceRange(index, index + 1)).column)
        }
        // Every 600 bytes is 100 repetitions of 6 bytes, 5 characters.
        #expect(columns == stride(from: 0, to: 10, by: 1).map { $0 * 500 + 1 })
        // And one before the last still counts from the start.
        #expect(lines.diagnostic(message: "m", range: SourceRange(6, 7)).column == 6)
    }

    @Test func suggestions_by_edit_distance() {
        #expect(closestName(to: "sprots", in: ["compact", "sports", "suv"]) == "sports")
        #expect(closestName(to: "SUB", in: ["compact", "sports", "suv"]) == "suv")
        #expect(closestName(to: "cra", in: ["car", "clear"]) == "car")
        #expect(closestName(to: "xyz", in: ["compact", "sports", "suv"]) == nil)
        #expect(closestName(to: "drivetrian", in: ["floorplan", "suspension", "drivetrain"]) == "drivetrain")
        #expect(closestName(to: "racing", in: ["road", "race", "offroad"]) == nil)
    }

    /// What `closestName` answered by the whole table, before it counted by bit vectors.
    func closestByTable(to name: String, in candidates: [String]) -> String? {
        let target = Array(nameKey(name).unicodeScalars)
        guard target.count <= suggestionLength else { return nil }
        var best: (name: String, distance: Int)?
        for candidate in candidates.prefix(suggestionCandidates) {
            let other = Array(nameKey(candidate).unicodeScalars)
            let allowed = max(1, min(target.count, other.count) / 3)
            guard abs(other.count - target.count) <= allowed else { continue }
            let distance = editDistance(target, other)
            if distance <= allowed && distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        return best?.name
    }

    @Test func suggestions_agree_with_the_whole_table_on_random_names() {
        var random = SplitMix64(state: 0x5EED_CA4F)
        // Few letters (some upper case, some beyond ASCII; `İ` lowers to two scalars, `Σ` and
        // `K` (the Kelvin sign) to one of another script), so that names come close.
        let letters: [Character] = ["a", "b", "c", "A", "é", "É", "ß", "😀", "-", "İ", "Σ", "σ", "\u{212A}", "k"]
        func name(_ lengths: ClosedRange<Int>) -> String {
            String((0..<Int.random(in: lengths, using: &random)).map { _ in letters.randomElement(using: &random)! })
        }
        func mutated(_ base: String) -> String {
            var characters = Array(base)
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                let at = Int.random(in: 0...characters.count, using: &random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0: characters.insert(letters.randomElement(using: &random)!, at: at)
                case 1 where at < characters.count: characters.remove(at: at)
                case 2 where at < characters.count: characters[at] = letters.randomElement(using: &random)!
                case 3 where at + 1 < characters.count: characters.swapAt(at, at + 1)
                default: break
                }
            }
            return String(characters)
        }
        for round in 0..<400 {
            let lengths = round % 4 == 0 ? 55...70 : 0...12
            let candidates = (0..<Int.random(in: 1...40, using: &random)).map { _ in name(lengths) }
            let typed = Bool.random(using: &random) ? mutated(candidates.randomElement(using: &random)!) : name(lengths)
            #expect(closestName(to: typed, in: candidates) == closestByTable(to: typed, in: candidates), "\(typed) in \(candidates)")
            // And each distance, at every bound.
            let target = Array(nameKey(typed).unicodeScalars)
            guard let bounded = BoundedEditDistance(nameKey(typed)) else { continue }
            for candidate in candidates {
                let other = nameKey(candidate).unicodeScalars
                let exact = editDistance(target, Array(other))
                for limit in [0, 1, exact - 1, exact, exact + 1, 100] where limit >= 0 {
                    #expect(
                        bounded.distance(to: other, count: other.count, atMost: limit, mask: bounded.mask(of:))
                            == (exact <= limit ? exact : nil))
                }
            }
        }
    }
}
