import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The init file: run before a prompt (issue 14), never for scripts or pipes unless named.
extension ReplTests {
    /// A config directory holding carfab/init.carfab with `text`.
    private func config(_ text: String) throws -> URL {
        let config = state.appendingPathComponent("config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: config.appendingPathComponent("carfab"), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: config.appendingPathComponent("carfab/init.carfab"))
        return config
    }

    @Test func the_prompt_runs_the_init_file_first() throws {
        let config = try config("var model suv\necho init ran\n")
        let terminal = try PseudoTerminal(environment: ["XDG_STATE_HOME": state.path, "XDG_CONFIG_HOME": config.path])
        #expect(terminal.waitFor("init ran\r\n"))
        #expect(terminal.enter("car $model; expect type Cadillac Escalade; echo ok", expecting: "ok\r\n"))
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
    }

    @Test func no_init_skips_it_and_home_is_the_default_place() throws {
        let home = state.appendingPathComponent("home-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home.appendingPathComponent(".config/carfab"), withIntermediateDirectories: true)
        try Data("echo from home\n".utf8).write(to: home.appendingPathComponent(".config/carfab/init.carfab"))
        let skipped = try PseudoTerminal(arguments: ["--no-init"], environment: ["XDG_STATE_HOME": state.path, "HOME": home.path])
        #expect(skipped.enter("echo prompt", expecting: "prompt\r\n"))
        skipped.type("\u{04}")
        #expect(skipped.exitStatus() == 0)
        #expect(!skipped.output.contains("from home"))
        let read = try PseudoTerminal(environment: ["XDG_STATE_HOME": state.path, "HOME": home.path])
        #expect(read.waitFor("from home\r\n"))
        read.type("\u{04}")
        #expect(read.exitStatus() == 0)
    }

    @Test func init_file_at_the_prompt_runs_instead_of_the_default_one_as_help_says() throws {
        let config = try config("echo default init ran\n")
        try Data("echo named init ran\n".utf8).write(to: config.appendingPathComponent("named.carfab"))
        let terminal = try PseudoTerminal(
            arguments: ["--init", config.appendingPathComponent("named.carfab").path],
            environment: ["XDG_STATE_HOME": state.path, "XDG_CONFIG_HOME": config.path])
        #expect(terminal.waitFor("named init ran\r\n"))
        #expect(terminal.enter("echo prompt", expecting: "prompt\r\n"))
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
        #expect(!terminal.output.contains("default init ran"))
        // What --help, the README and the man page say is that behaviour.
        let help = try carfab(["--help"]).stdout
        #expect(
            help.contains(
                """
                  --init FILE       run FILE first, instead of the init file, in any
                                    mode but --lsp (also for scripts and pipes)
                  --no-init         run no init file (the prompt runs
                                    $XDG_CONFIG_HOME/carfab/init.carfab first)
                """), "\(help)")
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(
            readme.contains(
                "| `--init FILE`, `--no-init` | run FILE first, instead of the init file, in any mode but `--lsp`; run no init file |"))
        #expect(readme.contains("`--init FILE` runs FILE first instead, in any mode but `--lsp`"))
        let man = try String(contentsOf: packageRoot.appendingPathComponent("man/carfab.1"), encoding: .utf8)
        #expect(man.contains("first, instead of the init file, whatever the mode but"))
    }

    @Test func a_broken_init_file_is_reported_and_no_prompt_follows() throws {
        let config = try config("echo first\ncar nosuch\necho never\n")
        let terminal = try PseudoTerminal(environment: ["XDG_STATE_HOME": state.path, "XDG_CONFIG_HOME": config.path])
        #expect(terminal.exitStatus() == 1)
        #expect(terminal.output.contains("first\r\n"))
        #expect(terminal.output.contains("/carfab/init.carfab:2:5: error: unknown model 'nosuch'"))
        #expect(!terminal.output.contains("never") && !terminal.output.contains("carfab> "))
    }
}

@Suite struct InitFileScriptTests {
    @Test func scripts_and_pipes_never_read_it_unless_named() throws {
        let config = try temporaryDirectory(with: [
            "carfab/init.carfab": "var model suv\necho init ran\n", "other.carfab": "var model sports\n"
        ])
        let environment = ["XDG_CONFIG_HOME": config.path]
        let script = try carfab(["-e", "echo $model"], environment: environment)
        #expect(script.stdout == "" && script.stderr.hasPrefix("<command-line>:1:6: error: unknown variable 'model'"))
        let pipe = try carfab([], stdin: "echo piped\n", environment: environment)
        #expect(pipe.stdout == "piped\n")
        let named = try carfab(["--init", "other.carfab", "-e", "echo $model"], directory: config)
        #expect(named.stdout == "sports\n" && named.status == 0)
        // -i reads it even without a terminal: its prompt is on the way.
        let interactive = try carfab(["-e", "echo $model", "-i"], stdin: "echo then\n", environment: environment)
        #expect(interactive.stdout == "init ran\nsuv\nthen\n", "\(interactive)")
    }

    @Test func an_init_file_that_cannot_be_read_is_an_error() throws {
        let config = try temporaryDirectory(with: [:])
        let missing = try carfab(["--init", "nowhere.carfab", "-e", "echo after"], directory: config)
        #expect(missing.stdout == "" && missing.stderr == "carfab: error: cannot open 'nowhere.carfab': No such file or directory\n")
        #expect(missing.status == 1)
        let both = try carfab(["--init", "a", "--no-init"])
        #expect(both.status == 64)
    }

    @Test func a_default_init_file_that_is_not_a_regular_file_is_refused_and_var_wins() throws {
        let config = try temporaryDirectory(with: ["carfab/.keep": "", "init2.carfab": "var who init\n"])
        let fifo = config.appendingPathComponent("carfab/init.carfab").path
        let run = try shell(
            "mkfifo '\(fifo)'; \"$CARFAB\" -i -e 'echo never' < /dev/null; echo \"status $?\"",
            environment: ["XDG_CONFIG_HOME": config.path])
        #expect(run.stdout == "status 1\n" && run.stderr == "carfab: error: cannot read '\(fifo)': not a regular file\n", "\(run)")
        let wins = try carfab(["-i", "--init", "init2.carfab", "--var", "who=cli"], stdin: "echo $who\n", directory: config)
        #expect(wins.stdout == "cli\n", "\(wins)")
    }
}
