import Foundation
import Testing

@testable import CarfabCLI

/// The table of command-line options is the one source of `--help`, the man page's options,
/// the completion scripts and the guess for an unknown option.
@Suite struct ProgramOptionTests {
    private let names = ProgramOption.all.flatMap(\.names)

    @Test func help_lists_each_option_of_the_table_and_no_other() {
        // An option's line starts at column 3 with its names.
        var listed: [String] = []
        for line in ProgramArguments.helpText.split(separator: "\n") where line.hasPrefix("  -") {
            for word in line.split(separator: " ") {
                let name = word.trimmingCharacters(in: CharacterSet(charactersIn: ","))
                if name.hasPrefix("-") { listed.append(name) } else { break }
            }
        }
        #expect(listed == names)
        // --diff's operands stand beside it (they were left out).
        #expect(ProgramArguments.helpText.contains("\n  --diff A B "))
        for option in ProgramOption.all {
            let names =
                option.names.joined(separator: ", ") + (option.value.map { " " + $0.placeholder } ?? "")
                + (option.operands.map { " " + $0 } ?? "")
            let help = ProgramArguments.helpText
            #expect(help.contains("\n  \(names) ") || help.contains("\n  \(names)\n"), "\(names)")
            // The help says which options may be given again; zsh's completion offers them again.
            #expect(option.help.joined().contains("repeatable") == option.repeatable, "\(option.name)")
        }
    }

    @Test func the_man_page_describes_each_option_of_the_table_in_its_order() throws {
        let page = try String(contentsOf: packageRoot.appendingPathComponent("man/carfab.1"), encoding: .utf8)
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: ".SH OPTIONS"),
            let end = lines[start...].dropFirst().firstIndex(where: { $0.hasPrefix(".SH ") })
        else {
            Issue.record("no OPTIONS section")
            return
        }
        // Each option is a `.TP` paragraph whose tag names it: `.B` for a flag, `.BI` with a value.
        var described: [String] = []
        var takesValue: [String: Bool] = [:]
        for (index, line) in lines[start..<end].enumerated() where line == ".TP" {
            let tag = lines[start + index + 1].split(separator: " ")
            for word in tag.dropFirst() where word.hasPrefix("\\-") {
                let name = String(word).replacing("\\-", with: "-")
                described.append(name)
                takesValue[name] = tag.first == ".BI"
            }
        }
        #expect(described == names)
        for option in ProgramOption.all {
            for name in option.names { #expect(takesValue[name] == (option.value != nil || option.operands != nil), "\(name)") }
        }
    }

    @Test func each_completion_script_offers_each_option_of_the_table() {
        let bash = CompletionScripts.script(for: .bash).split(separator: "\n")
        let offered = bash.first { $0.contains(#"compgen -W "-"#) }?.split(separator: "\"").dropFirst().first
        #expect(offered?.split(separator: " ").map(String.init) == names)
        // After an option with a value, bash completes the value: a case of `case $prev` names it.
        let cased = bash.filter { $0.hasPrefix("        -") && $0.contains(") ") }
            .flatMap { $0.trimmingCharacters(in: .whitespaces).prefix { $0 != ")" }.split(separator: "|").map(String.init) }
        #expect(cased.count == Set(cased).count && Set(cased) == Set(ProgramOption.all.filter { $0.value != nil }.flatMap(\.names)))
        let zsh = CompletionScripts.script(for: .zsh)
        let fish = CompletionScripts.script(for: .fish)
        for option in ProgramOption.all {
            for name in option.names {
                #expect(zsh.contains("    '\(option.repeatable ? "*" : "")\(name)["), "zsh lacks \(name)")
                let flag = name.hasPrefix("--") ? "-l \(name.dropFirst(2))" : "-s \(name.dropFirst())"
                #expect(fish.contains("\ncomplete -c carfab \(flag) "), "fish lacks \(name)")
            }
        }
    }

    @Test func an_unknown_option_is_guessed_among_every_name_of_the_table() throws {
        for name in names {
            // A long name with its last two letters swapped (or, where they are the same, as in
            // `--diff`, without its last one); a short one written long (`--i`).
            let swapped = String(name.dropLast(2)) + String(name.suffix(2).reversed())
            let typo = name.hasPrefix("--") ? (swapped == name ? String(name.dropLast()) : swapped) : "-" + name
            #expect(throws: UsageError(message: "unknown option '\(typo)'; did you mean '\(name)'?")) {
                try ProgramArguments(parsing: [typo])
            }
        }
    }

    @Test func an_option_for_tests_only_is_refused_elsewhere_by_its_name() throws {
        let forTests = ProgramOption.all.filter { $0.mode == .test }
        #expect(forTests.map(\.name) == ["-j", "--junit", "--timeout", "--filter", "--list"])
        for option in forTests {
            let arguments: [String] = option.value == nil ? [option.name] : [option.name, option.value == .jobs ? "2" : "1"]
            #expect(throws: UsageError(message: "\(option.name) is for --test")) {
                try ProgramArguments(parsing: arguments + ["-e", "total"])
            }
        }
    }

    @Test func formats_are_described_from_their_cases() throws {
        #expect(OutputFormat.choices(default: true) == "text (default), json, or tap (with --test)")
        #expect(throws: UsageError(message: "unknown format 'xml' (use text, json, or tap with --test)")) {
            try ProgramArguments(parsing: ["--format", "xml"])
        }
        for format in OutputFormat.allCases {
            #expect(try ProgramArguments(parsing: ["--test", "t", "--format=\(format.rawValue)"]).format == format)
        }
    }
}
