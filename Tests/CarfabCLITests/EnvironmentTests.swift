import Testing

/// `${env:NAME}` and `~` read the environment carfab was started with (issue 20, "Missed
/// most"), never under `--safe`, and never in an engine whose host gives none.
@Suite struct EnvironmentTests {
    @Test func an_environment_reference_is_the_variables_value() throws {
        let run = try carfab(
            ["-e", "echo ${env:QUOTE_MODEL} \"${env:QUOTE_MODEL}s\"; car ${env:QUOTE_MODEL}; show"],
            environment: ["QUOTE_MODEL": "suv"])
        #expect(run.stdout.hasPrefix("suv suvs\nCar type: Cadillac Escalade\n") && run.status == 0, "\(run)")
    }

    @Test func an_unset_environment_variable_is_an_error_at_its_reference() throws {
        let run = try carfab(["--format", "json", "-e", "echo ${env:NOT_SET_HERE}"])
        #expect(run.status == 1)
        #expect(run.stderr.contains(#""id":"unset-environment-variable""#), "\(run)")
        #expect(run.stderr.contains(#""message":"environment variable 'NOT_SET_HERE' is not set""#), "\(run)")
        #expect(run.stderr.contains(#""column":6,"end_column":25"#), "\(run)")
    }

    @Test func safe_refuses_the_environment() throws {
        let run = try carfab(["--safe", "-e", "echo ${env:HOME}"], environment: ["HOME": "/home/x"])
        #expect(
            run
                == RunResult(
                    stdout: "",
                    stderr: """
                        <command-line>:1:6: error: reading the environment is refused by --safe
                        echo ${env:HOME}
                             ^~~~~~~~~~~

                        """, status: 1))
    }

    @Test func a_name_after_env_must_be_a_name() throws {
        let run = try carfab(["-e", "echo ${env:A-B}"])
        #expect(run.stderr.hasPrefix("<command-line>:1:6: error: 'env:A-B' is not a variable name"), "\(run)")
    }

    @Test func a_leading_tilde_is_the_home_folder_for_source_and_save() throws {
        let home = try temporaryDirectory(with: ["quote.carfab": "car sports; echo sourced\n"])
        let run = try carfab(
            ["-e", "source ~/quote.carfab; save ~/saved.carfab; source \"~/quote.carfab\""],
            environment: ["HOME": home.path])
        #expect(run.stdout == "sourced\nsourced\n" && run.status == 0, "\(run)")
        let saved = try String(contentsOf: home.appendingPathComponent("saved.carfab"), encoding: .utf8)
        #expect(saved == "# carfab session, saved by carfab 0.1.0\ncar sports 1\n")
        // Without HOME, or under --safe, the tilde is an error at the file name.
        let noHome = try carfab(["-e", "source ~/quote.carfab"])
        #expect(noHome.stderr.hasPrefix("<command-line>:1:8: error: environment variable 'HOME' is not set"), "\(noHome)")
        // `save`'s file is its second argument, after the optional --minimal: the error is
        // at the tilde with or without it (it was at --minimal), and the check says the same.
        for flags in [[], ["--check"]] {
            let plain = try carfab(flags + ["-e", "save ~/x.carfab"])
            #expect(plain.stderr.hasPrefix("<command-line>:1:6: error: environment variable 'HOME' is not set"), "\(plain)")
            let minimal = try carfab(flags + ["-e", "save --minimal ~/x.carfab"])
            #expect(minimal.stderr.hasPrefix("<command-line>:1:16: error: environment variable 'HOME' is not set"), "\(minimal)")
        }
    }

    @Test func a_tilde_inside_a_name_is_a_character() throws {
        let dir = try temporaryDirectory(with: ["a~b.carfab": "echo plain\n"])
        let run = try carfab(["-e", "source \(dir.path)/a~b.carfab"])
        #expect(run.stdout == "plain\n", "\(run)")
    }
}
