import Foundation
import Testing

/// `diff` numbers a configuration by the names of its model and of each family's option. Joined
/// with a blank, which quoted names may hold, family `pa int` with option `x` was family `pa`
/// with option `int x`: the cars' line was called the same (review of wide12's numbering).
@Suite struct DiffNameSeparatorTests {
    @Test func a_blank_in_a_family_s_or_option_s_name_does_not_join_two_configurations() throws {
        let dir = try temporaryDirectory(with: [
            "a.carfab": "family \"pa int\" \"P\" default x \"X\"\ncar sports\n",
            "b.carfab": "family pa \"P\" default \"int x\" \"X\"\ncar sports\n"
        ])
        #expect(
            try carfab(["--diff", "a.carfab", "b.carfab"], directory: dir)
                == RunResult(
                    stdout: """
                        change   what    name    first                                      second                                     difference
                        removed  family  pa int  family "pa int" "P" default x "X" price 0
                        added    family  pa                                                 family pa "P" default "int x" "X" price 0
                        changed  line    1 -> 1  car sports 1; set "pa int" x ($68,300.00)  car sports 1; set pa "int x" ($68,300.00)      +$0.00
                        same     total           1 car, $68,300.00                          1 car, $68,300.00                              +$0.00

                        """, stderr: "", status: 1))
    }
}
