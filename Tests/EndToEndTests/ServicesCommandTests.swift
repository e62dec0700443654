import Foundation
import Testing

/// `services`, the command carfab adds to the language as its engine's host (PRODUCT.md §2's
/// "system" group): the service center's services in start order and their states. It was
/// `unknown command` once the engine left the platform to its host (trial 3, §15).
@Suite struct ServicesCommandTests {
    @Test func services_lists_the_running_services_in_start_order() throws {
        #expect(
            try carfab(["-e", "services"])
                == RunResult(stdout: "service  state\ncatalog  running\noutput   running\n", stderr: "", status: 0))
        // Its name in any case, as every command's.
        #expect(try carfab(["-e", "SERVICES"]).stdout == "service  state\ncatalog  running\noutput   running\n")
    }

    @Test func services_in_json_is_a_table_of_rows() throws {
        #expect(
            try carfab(["--format", "json", "-e", "services"])
                == RunResult(
                    stdout:
                        #"{"type":"result","command":"services","rows":[{"service":"catalog","state":"running"},{"service":"output","state":"running"}]}"#
                        + "\n", stderr: "", status: 0))
    }

    @Test func services_takes_no_argument() throws {
        #expect(
            try carfab(["-e", "car suv; services now"])
                == RunResult(
                    stdout: "",
                    stderr: """
                        <command-line>:1:19: error: unexpected argument 'now'; usage: services
                        car suv; services now
                                          ^~~

                        """, status: 1))
    }

    @Test func help_lists_it_under_system_and_describes_it() throws {
        let overview = try carfab(["-e", "help"])
        #expect(overview.status == 0 && overview.stderr.isEmpty)
        #expect(
            overview.stdout.hasSuffix(
                """
                system:
                  services                    list the program's services and their states
                Type 'help COMMAND' for details.
                Type 'help keys' for the keys that edit a line at the prompt.

                """), "\(overview.stdout)")
        #expect(
            try carfab(["-e", "help services"])
                == RunResult(
                    stdout: """
                        usage: services

                        One row per service of carfab's service center, in the order they are set up and
                        started (they are stopped in reverse on every way out): catalog (the built-in
                        catalog and --catalog files), output (standard output and error, flushed when it
                        stops) and, at the prompt, history (the prompt's history file, saved when it
                        stops). While a command runs, each is running, but the history is off when it
                        has no file (no HOME) or leaves its file alone (carfab warns why as it starts: a
                        symbolic link, not a regular file, not a history file, a folder it cannot make);
                        this session's commands are still recalled.
                        Example: services

                        """, stderr: "", status: 0))
    }

    @Test func check_knows_it_and_suggests_it() throws {
        #expect(try carfab(["--check", "-e", "services"]) == RunResult(stdout: "", stderr: "", status: 0))
        #expect(
            try carfab(["--check", "-e", "servics"])
                == RunResult(
                    stdout: "",
                    stderr: """
                        <command-line>:1:1: error: unknown command 'servics'; did you mean 'services'?
                        servics
                        ^~~~~~~

                        """, status: 1))
    }

    @Test func save_writes_the_same_session_with_or_without_it() throws {
        let plain = try carfab(["-e", "car sports 2; set drivetrain 4wd; save -"])
        let listed = try carfab(["-e", "services; car sports 2; services; set drivetrain 4wd; save -"])
        #expect(plain.status == 0 && plain.stdout.contains("car sports 2"))
        #expect(
            listed.stdout == "service  state\ncatalog  running\noutput   running\n" + "service  state\ncatalog  running\noutput   running\n"
                + plain.stdout)
    }

    @Test func a_catalog_file_may_not_hold_it_as_it_may_hold_no_other_command() throws {
        let dir = try temporaryDirectory(with: ["catalog.carfab": "services\n"])
        #expect(
            try carfab(["--catalog", "catalog.carfab", "-e", "echo x"], directory: dir)
                == RunResult(
                    stdout: "",
                    stderr: """
                        catalog.carfab:1:1: error: a catalog file holds only definitions (family, option, model, forbid, require, currency), not 'services'
                        services
                        ^~~~~~~~

                        """, status: 1))
    }

    @Test func a_test_file_may_use_it() throws {
        let dir = try temporaryDirectory(with: ["uses-services.carfab": "services\ncar suv\nexpect count 1\n"])
        let result = try carfab(["--test", "uses-services.carfab"], directory: dir)
        #expect(result.status == 0 && result.stdout == "ok uses-services.carfab (1 expect)\n1 passed, 0 failed\n", "\(result)")
    }
}

extension ReplTests {
    /// At the prompt the history is a service too, started after the catalog and the output.
    @Test func services_at_the_prompt_include_the_history() throws {
        let terminal = try start()
        let table = "service  state\r\ncatalog  running\r\noutput   running\r\nhistory  running\r\n"
        #expect(terminal.enter("services", expecting: table), "\(terminal.output)")
        // Tab completes its name, as any command's.
        terminal.type("serv\t\r")
        #expect(terminal.waitFor(table, times: 2), "\(terminal.output)")
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
    }
}
