import Foundation
import Testing

/// Tables and carets line up as the terminal draws wide and combining characters (issue 20 item 14).
@Suite struct DisplayWidthOutputTests {
    let definitions =
        "model tokyo \"東京 Car\" price 3900 floorplan short suspension race drivetrain rear; "
        + "model cafe \"Cafe\u{301}\" price 3900 floorplan short suspension race drivetrain rear"

    @Test func tables_pad_by_display_width() throws {
        let result = try carfab(["-e", definitions + "; car tokyo; car cafe; car sports; list; models"])
        #expect(
            result
                == RunResult(
                    stdout: """
                           #  model   car type         floorplan  suspension  drivetrain  count  unit price
                           1  tokyo   東京 Car         short      race        rear            1   $3,900.00
                           2  cafe    Cafe\u{301}             short      race        rear            1   $3,900.00
                        *  3  sports  Porsche Boxster  short      race        rear            1  $68,300.00
                        model    car type           base price  floorplan  suspension  drivetrain
                        compact  VW Golf            $27,995.00  standard   road        front
                        sports   Porsche Boxster    $68,300.00  short      race        rear
                        suv      Cadillac Escalade  $81,895.00  long       offroad     4wd
                        tokyo    東京 Car            $3,900.00  short      race        rear
                        cafe     Cafe\u{301}                $3,900.00  short      race        rear

                        """, stderr: "", status: 0))
    }

    @Test func the_caret_stands_under_the_first_character_of_the_word() throws {
        let result = try carfab(["-e", "echo 東京e\u{301}; car sprots"])
        // The column in the message counts scalars (as documented); the caret counts display columns.
        #expect(
            result.stderr == """
                <command-line>:1:16: error: unknown model 'sprots'; did you mean 'sports'?
                echo 東京e\u{301}; car sprots
                                ^~~~~~

                """)
    }
}
