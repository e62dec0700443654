import Foundation
import Testing

/// `--check` checks the command inside `try COMMAND` as it checks the same command outside it,
/// and what that command defines is taken back, as running `try` takes it back; and it reads
/// the configurator commands' word lists as running them does.
@Suite struct CheckTryTests {
    @Test func an_unknown_name_inside_try_is_found_by_check_at_its_place() throws {
        let error = """
            <command-line>:1:21: error: unknown model 'nosuch'; valid models: compact, sports, suv
            car sports; try car nosuch
                                ^~~~~~

            """
        #expect(try carfab(["--check", "-e", "car sports; try car nosuch"]) == RunResult(stdout: "", stderr: error, status: 1))
        // Running it says the same.
        #expect(try carfab(["-e", "car sports; try car nosuch"]) == RunResult(stdout: "", stderr: error, status: 1))
        #expect(
            try carfab(["--check", "--format", "json", "-e", "try set drivetrain hover"])
                == RunResult(
                    stdout: "",
                    stderr: #"""
                        {"type":"error","id":"unknown-option","severity":"error","file":"<command-line>","line":1,"column":20,"end_column":25,"message":"unknown drivetrain option 'hover'; valid drivetrain options: front, rear, 4wd","source":"try set drivetrain hover","source_column":1,"included_from":[],"notes":[],"fixits":[]}

                        """#, status: 1))
    }

    @Test func check_refuses_what_try_refuses_and_keeps_no_definition_made_inside_try() throws {
        #expect(
            try carfab(["--check", "-e", "car sports; try undo"])
                == RunResult(
                    stdout: "",
                    stderr: """
                        <command-line>:1:17: error: 'try' tries a change, and 'undo' changes the history itself: to try several changes together, use 'begin' ... 'rollback'
                        car sports; try undo
                                        ^~~~

                        """, status: 1))
        // The family tried is gone after 'try', when checking as when running.
        let script = #"try family paint "P" default w "W"; car sports; set paint w"#
        let error = """
            <command-line>:1:53: error: unknown family 'paint'; valid families: floorplan, suspension, drivetrain
            try family paint "P" default w "W"; car sports; set paint w
                                                                ^~~~~

            """
        #expect(try carfab(["--check", "-e", script]) == RunResult(stdout: "", stderr: error, status: 1))
        #expect(
            try carfab(["-e", script])
                == RunResult(
                    stdout: """
                                cars  total value
                        before     0        $0.00
                        after      0        $0.00
                        change    +0       +$0.00

                        """, stderr: error, status: 1))
        // A command that is right inside 'try' checks clean, and prints nothing.
        #expect(
            try carfab(["--check", "-e", "car sports; try set drivetrain 4wd; try family paint \"P\" default w \"W\""])
                == RunResult(stdout: "", stderr: "", status: 0))
    }

    /// The configurator commands' words (a model, family and option pairs, `in CURRENCY`) are
    /// checked by `--check` as running reads them: they passed it unread.
    @Test func check_reads_the_configurator_commands_words() throws {
        let result = try carfab([
            "--check", "--keep-going", "-e", "cheapest drivetrain hover", "-e", "cheapest sprots",
            "-e", "cheapest suv floorplan long floorplan short", "-e", "car sports; options paintx",
            "-e", "why drivetrain rear in XYZ", "-e", "fit drivetrain rear in GBP extra",
            "-e", #"family paint "Paint" default white "White"; cheapest paint red"#
        ])
        #expect(
            result
                == RunResult(
                    stdout: "",
                    stderr: """
                        <command-line 1>:1:21: error: unknown drivetrain option 'hover'; valid drivetrain options: front, rear, 4wd
                        cheapest drivetrain hover
                                            ^~~~~
                        <command-line 2>:1:10: error: unknown model 'sprots'; did you mean 'sports'?
                        cheapest sprots
                                 ^~~~~~
                        <command-line 3>:1:29: error: floorplan is named twice; name each family once
                        cheapest suv floorplan long floorplan short
                                                    ^~~~~~~~~
                        <command-line 4>:1:21: error: unknown family 'paintx'; valid families: floorplan, suspension, drivetrain
                        car sports; options paintx
                                            ^~~~~~
                        <command-line 5>:1:24: error: unknown currency 'XYZ'; valid currencies: USD, GBP, EUR, JPY
                        why drivetrain rear in XYZ
                                               ^~~
                        <command-line 6>:1:28: error: unexpected argument 'extra'; usage: fit FAMILY OPTION [in CURRENCY]
                        fit drivetrain rear in GBP extra
                                                   ^~~~~
                        <command-line 7>:1:60: error: unknown paint option 'red'; valid paint options: white
                        family paint "Paint" default white "White"; cheapest paint red
                                                                                   ^~~

                        """, status: 1))
        // Words that are right check clean (no car is built when checking, so none is needed).
        #expect(
            try carfab([
                "--check", "-e",
                "cheapest suv drivetrain rear in GBP; options drivetrain in EUR; why drivetrain front in JPY; fit drivetrain front; cheapest"
            ]) == RunResult(stdout: "", stderr: "", status: 0))
    }
}
