import CarFactory

/// `source`, `save`, `expect`, `var`, `vars`, `echo`, `help`, `quit`.
enum ScriptCommands {
    static let all: [CommandSpec] = [
        CommandSpec(
            name: "source", aliases: [], group: .script,
            arguments: [.required("FILE", .file)],
            summary: "run the commands of FILE in this session ('-': standard input)",
            details:
                "FILE is relative to the directory of the script that names it (the current directory for -e text, standard input and the prompt); a leading ~/ is your home folder; '-' is standard input. Files may source others up to \(maximumSourceDepth) deep; a file that sources itself, directly or not, is an error. In a script read from standard input, 'source -' is an error: standard input already holds that script. Refused with --safe (but for '-').",
            example: "source Scripts/examples/quote.carfab",
            runsWhenChecking: true,
            run: { session, call throws(ScriptError) in try session.source(call) }),
        CommandSpec(
            name: "save", aliases: [], group: .script,
            arguments: [.optional("--minimal", .keyword(.minimal)), .required("FILE", .file)],
            summary: "write the session as a script that rebuilds it ('-': print it)",
            details:
                "Writes a comment naming the carfab version, the variables (as 'var' commands), the definitions made in this session, the rates changed in it, then each stock line as 'car' and 'set' commands (only the parts that differ from the model's defaults), then 'select' for the current line if it is not the last: replayed in a new session, it rebuilds the same state. --minimal writes only what differs from the catalog the session began with (as Kconfig's savedefconfig): no heading comment, no count of 1 ('car sports', not 'car sports 1'); replayed, it rebuilds the same session, which saves to the same bytes. FILE is replaced whole through a temporary file beside it, so a failure leaves an old FILE as it was; a symbolic link (to the file or to a folder on the way) is followed, the file keeping its mode, unless another user planted it in a sticky folder anyone may write to (the kernel's protected_symlinks rule); anything but a regular file this user may write is refused, and so is a process's open stream (/dev/stdout, /proc/PID/fd/N). '-' prints the script instead. Paths resolve as for 'source'. Refused with --safe (but for '-').",
            example: "save /tmp/fleet.carfab",
            // `--check` writes nothing, but asks the file gate as running does (`--safe`,
            // inside `try`, in a session `diff` loads), so that it reports the refusal running
            // gives, where it gives it. An editor's analysis reads files only for its own sake
            // (`.readOnly` in the session it analyses): the run it stands for writes them.
            check: { session, call throws(ScriptError) in
                guard session.options.checkOnly, call.word(2) != "-" else { return }
                let analysisOnly = if case .readOnly = session.options.fileAccess { session.comparisonDepth == 0 } else { false }
                if !analysisOnly || session.whatIfDepth > 0 { try session.admitFiles(for: call, writing: true) }
                // What the file holds from here is known only when run (see `SavedFiles.swift`).
                session.noteSaved(try session.filePath(call.word(2), for: call, argument: 2))
            },
            run: { session, call throws(ScriptError) in
                let minimal = if case .absent = call.value(1) { false } else { true }
                let name = call.word(2)
                if name != "-" { try session.admitFiles(for: call, writing: true) }
                var script: String
                do throws(ScriptError.Kind) {
                    script = try SessionScript.text(of: session, minimal: minimal)
                } catch {
                    throw ScriptError(error, at: call.range(2))
                }
                if name == "-" {
                    // A minimal script of a session like a new one is empty: nothing is printed.
                    guard !script.isEmpty else { return }
                    script.removeLast()
                    session.emit(.text(script), call)
                    return
                }
                // The file is argument 2 (after the optional --minimal).
                try session.writeFile(
                    Array(script.utf8), to: session.filePath(name, for: call, argument: 2), for: call, argument: 2)
            }),
        CommandSpec(
            name: "diff", aliases: [], group: .script,
            arguments: [.required("FILE", .file), .optional("FILE", .file)],
            summary: "compare a saved session with this one (or with a second FILE), by meaning",
            details:
                "Loads FILE (and the second FILE) as 'source' would, each in a fresh session made from the catalog this one began with, which reads files but writes none (a 'save' in it is an error) and stops at its first error, with that error's id (a file that leaves a transaction open is compared rolled back, as its end leaves it, with a warning; a file that compares or sources itself, directly or not, is one; files nest at most \(maximumSourceDepth) deep in all, and sessions loaded to compare at most \(maximumComparisonDepth) deep); then compares the first with the second, or with this session: models, options, rules, currencies, rates and variables added, removed or changed; stock lines added, removed or changed (matched as diff(1) matches lines), with their configurations and values; the current line; and, if a stock line or the total value differs, the total of each (cars and value) and the difference of the values, in the base currency. Sessions that are the same print nothing. 'carfab --diff A B' does the same from the command line, with diff(1)'s exit status. '-' is standard input (one FILE at most). Refused with --safe (but for '-').",
            example: "diff /dev/null",
            // `--check` follows it into its files, as `source` (it compares nothing then).
            runsWhenChecking: true,
            run: { session, call throws(ScriptError) in try session.compare(call) }),
        CommandSpec(
            name: "expect", aliases: [], group: .script,
            arguments: [
                .required("FIELD", .field), .optional("CURRENCY", .amountCurrency(fieldArgument: 1)),
                .required("VALUE", .words)
            ],
            summary: "fail unless FIELD of the stock or current car is VALUE (or line N's, or a command fails)",
            details:
                "FIELD is one of: count (cars in stock), seats, engine, suspension, drive, type (of the current car), price (the current car's unit price), total (the stock's value), or a family (floorplan, drivetrain, one defined with 'family'): the current car's option of it. 'expect line N FIELD [CURRENCY] VALUE' checks stock line N instead (its count, its cars, its value). 'expect error ID COMMAND...' runs COMMAND, which must fail with that error id (as --format json shows it: unknown-model, rule-violation, ...); the expected failure is not reported and changes nothing. price and total take an optional CURRENCY, before VALUE, and a VALUE written as they print it, with or without the symbol, or as a plain number (£42,719.30, 42,719.30 or 42719.3); count and seats take a whole number. Words are compared case-insensitively; suspension, drive and a family also match option names. A failure shows both values.",
            example: "expect drive 4WD",
            check: { session, call throws(ScriptError) in try ExpectCommand.check(session, call) },
            run: { session, call throws(ScriptError) in try ExpectCommand.run(session, call) }),
        CommandSpec(
            name: "var", aliases: [], group: .script,
            arguments: [.required("NAME", .variable), .required("VALUE", .text)],
            summary: "set variable NAME to VALUE, which $NAME and ${NAME} then stand for",
            details:
                "A name is an ASCII letter or '_', then ASCII letters, digits and '_' (case matters). $NAME and ${NAME} are replaced by the value in unquoted words and inside double quotes, before the command's names are looked up, so a variable can stand for a model, a count, a currency or a file. A $ before anything else is a dollar sign ($70,800.00), and so is \\$. The value is one word: quote it to hold blanks. --var NAME=VALUE sets one from the command line. Using a variable never set is an error.",
            example: "var model suv",
            runsWhenChecking: true,
            run: { session, call throws(ScriptError) in
                do throws(ScriptError.Kind) {
                    try session.setVariable(call.word(1), to: call.word(2))
                } catch .nameTooLong(let limit) {
                    throw ScriptError(.nameTooLong(limit: limit), at: call.range(1))
                } catch {
                    throw ScriptError(error, at: call.range(2))
                }
            }),
        CommandSpec(
            name: "vars", aliases: [], group: .script,
            arguments: [],
            summary: "list the variables and their values",
            details: "One row per variable, in the order they were first set.",
            example: "vars",
            run: { session, call throws(ScriptError) in
                var table = Table([.init("name"), .init("value")], emptyMessage: "No variables are set.")
                for name in session.variableNames { table.append([.text(name), .text(session.variables[name] ?? "")]) }
                session.emit(.table(table), call)
            }),
        CommandSpec(
            name: "echo", aliases: [], group: .script,
            arguments: [.optional("TEXT", .words)],
            summary: "print the words, joined by single spaces",
            details: "Quote text to keep ';', '#' or several blanks in it.",
            example: "echo \"a;b\" c",
            run: { session, call throws(ScriptError) in
                session.emitWords(call, 1)
            }),
        CommandSpec(
            name: "help", aliases: [], group: .script,
            arguments: [.optional("COMMAND", .helpTopic)],
            summary: "list the commands, or describe COMMAND ('help keys': the editing keys)",
            details:
                "Without a command, lists every command with a one-line summary. 'help keys' lists the keys that edit a line at the prompt.",
            example: "help set",
            run: { session, call throws(ScriptError) in
                if call.count >= 1, call.command(1, in: session.commands) == nil,
                    let topic = HelpPage.topics.first(where: { $0.name == nameKey(call.word(1)) })
                {
                    session.emit(.help(topic.page), call)
                    return
                }
                session.emit(.help(HelpPage.page(for: call.command(1, in: session.commands), in: session.commands)), call)
            }),
        CommandSpec(
            name: "quit", aliases: ["exit"], group: .script,
            arguments: [.optional("STATUS", .integer(.exitStatus))],
            summary: "stop reading commands (and exit with STATUS); 'exit' is the same",
            details:
                "Ends the session. Without STATUS the exit status says whether any command failed; with it (0 to 255), carfab exits with STATUS, as sh's exit does, except that 'quit 0' after a failed command (under --keep-going) still exits 1.",
            example: "exit 2",
            // A check stops where the run would: the lines after `quit` are never run, so
            // nothing in them can fail the script. Its status stays the check's own (problems
            // found or not), not STATUS.
            runsWhenChecking: true,
            run: { session, call throws(ScriptError) in
                session.quitRequested = true
                guard !session.options.checkOnly else { return }
                if case .integer(let status) = call.value(1) { session.requestedExitStatus = Int32(status) }
            })
    ]
}
