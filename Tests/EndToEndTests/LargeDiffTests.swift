import Foundation
import Testing

/// `carfab --diff` of two large stocks that differ throughout: the line matching is bounded
/// (every line between the common first and last ones removed and added, as GNU diff gives
/// up on the fewest changes in large files), so it ends in about a second where it took
/// (N + M) D steps: 16 s for 20,000 lines each, 64 s for 40,000 (quadratic).
@Suite struct LargeDiffTests {
    @Test(.timeLimit(.minutes(1))) func stocks_of_40000_lines_that_differ_throughout_compare_in_bounded_time() throws {
        let count = 40_000
        let a = (1...count).map { "car sports \($0)\n" }.joined()
        let b = (1...count).map { "car suv \($0)\n" }.joined()
        let dir = try temporaryDirectory(with: ["a.carfab": a, "b.carfab": b])
        let result = try carfab(["--diff", "a.carfab", "b.carfab"], directory: dir)
        #expect(result.status == 1)
        #expect(result.stderr == "")
        let rows = result.stdout.split(separator: "\n")
        // The header, a line changed (sports to suv) for each of the 40,000, the current line
        // (the same: the last) gives no row, and the totals.
        #expect(rows.count == 1 + count + 1)
        #expect(
            rows[1]
                == "changed  line   1 -> 1          car sports 1; set floorplan short suspension race drivetrain rear ($68,300.00)             car suv 1; set floorplan long suspension offroad drivetrain 4wd ($81,895.00)                         +$13,595.00"
        )
        #expect(rows.last?.hasPrefix("changed  total") == true)
    }
}
