import CarScript
import Foundation
import Testing

@testable import CarfabCLI

/// Every command of the one table is written down: a production of grammar.md's EBNF (and an
/// alternative of its `command`), and an entry of the man page's LANGUAGE section. A command
/// added to the table without them fails here (`var` and `vars` once lacked their productions).
/// carfab's own commands (`services`, which it adds as the engine's host) are held to the same.
@Suite struct CommandDocumentationTests {
    /// Every command of carfab's sessions: the language's, then those carfab adds.
    private var commands: [CommandSpec] {
        var options = EngineOptions()
        ProgramCommands.add(to: &options, center: nil)
        return Engine(options: options).commands.specs
    }

    /// The productions of grammar.md's ```ebnf blocks: each left-hand name and its right-hand side.
    private func productions() throws -> [String: String] {
        let markdown = try String(contentsOf: packageRoot.appendingPathComponent("grammar.md"), encoding: .utf8)
        var rules: [String: String] = [:]
        var inEBNF = false
        var last: String?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inEBNF = line == "```ebnf"
                last = nil
                continue
            }
            guard inEBNF else { continue }
            // Comments are not part of a rule.
            let text = line.replacing(/\(\*.*?\*\)/, with: "")
            if let match = text.firstMatch(of: /^([A-Za-z_]+)\s*=(.*)$/) {
                last = String(match.1)
                rules[String(match.1)] = String(match.2)
            } else if let name = last {
                rules[name, default: ""] += " " + text
            }
        }
        return rules
    }

    /// The words set in bold by the `.B`, `.BR` and `.BI` lines of the man page's LANGUAGE section.
    private func boldWordsOfTheLanguageSection() throws -> Set<String> {
        let page = try String(contentsOf: packageRoot.appendingPathComponent("man/carfab.1"), encoding: .utf8)
        let lines = page.split(separator: "\n").drop { $0 != ".SH LANGUAGE" }.dropFirst().prefix { !$0.hasPrefix(".SH ") }
        var words: Set<String> = []
        for line in lines {
            let macro = line.prefix { $0 != " " }
            guard [".B", ".BR", ".BI"].contains(macro) else { continue }
            // The arguments, quoted or not; .BR and .BI set the 1st, 3rd, ... in bold, .B all.
            let arguments = line.dropFirst(macro.count).matches(of: /"([^"]*)"|(\S+)/).map { String($0.1 ?? $0.2 ?? "") }
            for (index, argument) in arguments.enumerated() where macro == ".B" || index % 2 == 0 {
                words.formUnion(argument.split(separator: " ").map(String.init))
            }
        }
        return words
    }

    @Test func every_command_has_its_production_in_the_grammar() throws {
        let rules = try productions()
        let alternatives = Set((rules["command"] ?? "").split(whereSeparator: { "|; ".contains($0) }).map(String.init))
        #expect(alternatives.count >= 20, "\(alternatives)")
        #expect(commands.contains { $0.name == "services" })
        for spec in commands {
            #expect(alternatives.contains(spec.name), "grammar.md's 'command' lacks \(spec.name)")
            let rule = rules[spec.name] ?? ""
            for name in [spec.name] + spec.aliases {
                #expect(rule.contains("\"\(name)\""), "grammar.md has no production for '\(name)': \(spec.name) = \(rule)")
            }
        }
    }

    @Test func every_command_has_its_entry_in_the_man_page() throws {
        let words = try boldWordsOfTheLanguageSection()
        #expect(words.contains("car") && words.contains("set"), "\(words)")
        for spec in commands {
            for name in [spec.name] + spec.aliases {
                #expect(words.contains(name), "man/carfab.1's LANGUAGE section does not name '\(name)'")
            }
        }
    }
}

extension CommandDocumentationTests {
    /// `help show` names each field `show` prints, and the currency of its price (it once said
    /// only "in the book's format").
    @Test func help_show_says_what_show_prints() throws {
        let shown = try carfab(["-e", "car sports; show"]).stdout
        let fields = shown.split(separator: "\n").compactMap { $0.split(separator: ":").first.map(String.init) }
        #expect(fields == ["Car type", "Seats", "Engine", "Suspension", "Drive", "Price"], "\(shown)")
        let help = try carfab(["-e", "help show"]).stdout.replacing("\n", with: " ").replacing(#/ +/#, with: " ")
        for field in fields { #expect(help.contains(field), "help show does not name \(field): \(help)") }
        #expect(help.contains("six lines") && help.contains("US dollars") && !help.contains("book"), "\(help)")
    }
}

extension CommandDocumentationTests {
    /// `undo N` and `redo N` stop at 2^30, not at the counts' 2^63 - 1: help, grammar.md, the
    /// README and the man page say so (the error named a cap written nowhere).
    @Test func the_range_of_undo_and_redo_is_written_down() throws {
        let error = try carfab(["-e", "undo 0"]).stderr
        #expect(error.contains("must be from 1 to 1073741824"), "\(error)")
        for command in ["undo", "redo"] {
            let help = try carfab(["-e", "help \(command)"]).stdout.replacing("\n", with: " ").replacing(#/ +/#, with: " ")
            #expect(help.contains("N is from 1 to 1073741824"), "\(help)")
        }
        for file in ["grammar.md", "README.md", "man/carfab.1"] {
            let text = try String(contentsOf: packageRoot.appendingPathComponent(file), encoding: .utf8)
            #expect(text.replacing("\n", with: " ").contains("1 to 1,073,741,824"), "\(file)")
        }
    }
}

extension CommandDocumentationTests {
    /// `help save` names what `save` writes, in the order it writes it (it once left out the
    /// variables, which come first, and said a `select` ends every script).
    @Test func help_save_says_what_save_writes_in_its_order() throws {
        let saved = try carfab(["-e", #"var a 1; option drivetrain h "H" price 1; rate GBP 0.5; car sports; car suv; select 1; save -"#])
            .stdout
        let kinds = saved.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(kinds == ["#", "var", "option", "rate", "car", "car", "select"], "\(saved)")
        #expect(try carfab(["-e", "car sports; car suv; save -"]).stdout.contains("select") == false)
        let help = try carfab(["-e", "help save"]).stdout.replacing("\n", with: " ").replacing(#/ +/#, with: " ")
        let parts = ["comment naming the carfab version", "the variables", "the definitions", "the rates", "each stock line", "'select'"]
        let places = parts.map { help.range(of: $0)?.lowerBound }
        #expect(!places.contains(nil), "\(help)")
        #expect(places.compactMap { $0 } == places.compactMap { $0 }.sorted(), "\(help)")
        #expect(help.contains("'select' for the current line if it is not the last"), "\(help)")
    }
}

extension CommandDocumentationTests {
    /// `echo` writes its words as they are, an escape sequence too, where a table shows a
    /// value's control characters escaped, and JSON escapes both: grammar.md says so (it said
    /// that text output, as JSON, never lets an 8-bit CSI reach the terminal raw).
    @Test func echo_writes_control_characters_as_they_are_and_tables_show_them_escaped() throws {
        let script = #"var x "\u{1B}[1m\u{9B}"; echo $x; vars"#
        #expect(try carfab(["-e", script]).stdout == "\u{1B}[1m\u{9B}\nname  value\nx     \\e[1m\\u{009B}\n")
        let json = try carfab(["--format", "json", "-e", script]).stdout
        #expect(json.hasPrefix(#"{"type":"result","command":"echo","text":"\u001b[1m\u009b"}"#), "\(json)")
        let grammar = try String(contentsOf: packageRoot.appendingPathComponent("grammar.md"), encoding: .utf8)
        #expect(grammar.contains("prints its words joined by single spaces, as they are"))
    }
}

extension CommandDocumentationTests {
    /// `help` names every name a command answers to: it listed `quit [STATUS]` alone, so a
    /// reader of the brief ("`quit` / `exit`, all listed by help") found no `exit` there.
    @Test func help_lists_every_name_of_every_command() throws {
        let overview = try carfab(["-e", "help"]).stdout
        let usages = Set(overview.split(separator: "\n").compactMap { $0.hasPrefix("  ") ? $0.split(separator: " ").first : nil })
        #expect(commands.contains { !$0.aliases.isEmpty })
        for spec in commands {
            #expect(usages.contains(Substring(spec.name)), "help has no usage line for '\(spec.name)'")
            for alias in spec.aliases { #expect(overview.contains("'\(alias)'"), "help does not name '\(alias)'") }
        }
    }
}
