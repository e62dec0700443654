import Foundation
import Testing

/// `--check` checks the command inside `try COMMAND` as it checks the same command outside it,
/// and what that command defines is taken back, as running `try` takes it back.
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
}
