import Foundation
import Testing

/// The findings of the fourth trial of main (trial4), each shown fixed end to end.
@Suite struct Trial4FindingTests {
    /// T4: `models` heads a column with each defined family's name: escaped as the cells are,
    /// so a catalog cannot set the terminal's title or hide what follows.
    @Test func a_family_name_heading_a_models_column_is_escaped() throws {
        let script = #"family "p\u{1B}]0;PWNED\u{7}" "P" default w "W"; models"#
        #expect(
            try carfab(["-e", script])
                == RunResult(
                    stdout: #"""
                        model    car type           base price  floorplan  suspension  drivetrain  p\e]0;PWNED\x07
                        compact  VW Golf            $27,995.00  standard   road        front       w
                        sports   Porsche Boxster    $68,300.00  short      race        rear        w
                        suv      Cadillac Escalade  $81,895.00  long       offroad     4wd         w

                        """#, stderr: "", status: 0))
    }
}
