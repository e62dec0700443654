import Foundation
import Testing

/// Trial 10's findings on definitions (its report's 2, 4, 8, 9 and 10), as a user meets them:
/// standard output, standard error and the status, whole.
@Suite struct Trial10DefinitionFindingTests {
    /// Finding 4: families named `a b` and `a_b` were both accepted, and every JSON row of
    /// `list` and `models` then held the key `a_b` twice (a reader kept one, losing the other's
    /// option). The second is refused at its name, as a clash with a column is, and nothing
    /// of it is defined; `--check` finds it too.
    @Test func a_family_whose_column_key_is_another_familys_is_refused() throws {
        let script = """
            family "a b" "Trim" default x "X"
            family A_B "Wheels" default y "Y"
            car sports
            list

            """
        let dir = try temporaryDirectory(with: ["dupkey.carfab": script])
        let refused = """
            dupkey.carfab:2:8: error: 'A_B' cannot name a family: rows of list or models would key its column as they key the family 'a b' ('a_b')
            family A_B "Wheels" default y "Y"
                   ^~~

            """
        for options in [[], ["--check"]] {
            let run = try carfab(options + ["dupkey.carfab"], directory: dir)
            #expect(run == RunResult(stdout: "", stderr: refused, status: 1), "\(options)")
        }
        let json = try carfab(["--format", "json", "--keep-going", "dupkey.carfab"], directory: dir)
        #expect(json.status == 1)
        #expect(json.stderr.contains(#""id":"refused""#))
        // Nothing of the refused family is defined: one `a_b` key in the row.
        #expect(
            json.stdout.contains(#""drivetrain":"rear","a_b":"x","count":1"#) && !json.stdout.contains(#""a_b":"y""#),
            "\(json.stdout)")
    }

    /// Finding 8: a family could be named as a field of `expect` (`type`, `drive`, `engine`,
    /// `seats`, `price`, `total`), but `expect type coupe` then checked the car type, and
    /// `--check` passed it. Every field's name is refused at `family`, with the reason.
    @Test func a_family_may_not_take_the_name_of_a_field_of_expect() throws {
        for field in ["type", "Drive", "engine", "seats", "price", "TOTAL"] {
            let refused = """
                <command-line>:1:8: error: '\(field.lowercased())' cannot name a family: expect reads it as its field '\(field.lowercased())', not as the family
                family \(field) "Body" default sedan "Sedan"; echo not reached
                       ^\(String(repeating: "~", count: field.count - 1))

                """
            for options in [[], ["--check"]] {
                let run = try carfab(options + ["-e", "family \(field) \"Body\" default sedan \"Sedan\"; echo not reached"])
                #expect(run == RunResult(stdout: "", stderr: refused, status: 1), "\(field) \(options)")
            }
        }
        // A name that only begins like one is a family like any other.
        let typed = try carfab(["-e", "family types \"Body\" default sedan \"Sedan\"; car sports; expect types sedan"])
        #expect(typed == RunResult(stdout: "", stderr: "", status: 0))
    }
}
