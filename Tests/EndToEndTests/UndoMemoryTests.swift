import Foundation
import Testing

/// Definitions with an undo history on (`begin`, `try`, the prompt) keep a few words each, not
/// a copy of the catalog: a trial's catalog of a few thousand definitions, sourced so, took
/// gigabytes (2,000 rules: 723 MB; 4,000: 2.8 GB) and aborted past that. Run under an address
/// space limit of 256 MB, which each run here fitted many times over before and fits now.
@Suite struct UndoMemoryTests {
    static let addressSpace = 256_000_000

    /// Two families of 90 options and `count` distinct rules among their other options.
    static func rules(_ count: Int) -> String {
        var lines = ["family p \"P\" default p0 \"P0\"", "family q \"Q\" default q0 \"Q0\""]
        for family in ["p", "q"] {
            for option in 1..<90 { lines.append("option \(family) \(family)\(option) \"x\" price 1") }
        }
        for rule in 0..<count { lines.append("forbid p p\(rule % 89 + 1) with q q\(rule / 89 + 1)") }
        return lines.joined(separator: "\n") + "\n"
    }

    static func options(_ count: Int) -> String {
        (0..<count).map { "option drivetrain x\($0) \"X\" price 1\n" }.joined()
    }

    static func models(_ count: Int) -> String {
        (0..<count).map { "model m\($0) \"X\" price 30000 floorplan short suspension race drivetrain rear\n" }.joined()
    }

    @Test(arguments: [
        // One step: the `source`. Undone, the file can be sourced again (no definition left behind).
        "begin; source rules.carfab; commit; undo; source rules.carfab; echo done",
        // What `try` tries keeps a history of its own.
        "try source rules.carfab",
        // Every definition a step of its own, inside a transaction.
        "source steps.carfab; echo done",
        "begin; source options.carfab; source models.carfab; rollback; source options.carfab; echo done"
    ])
    func definitions_with_a_history_take_memory_in_proportion(script: String) throws {
        let dir = try temporaryDirectory(with: [
            "rules.carfab": Self.rules(2_000),
            "steps.carfab": "begin\n" + Self.rules(2_000) + "car sports\ncommit\nundo\n",
            "options.carfab": Self.options(4_000),
            "models.carfab": Self.models(2_000)
        ])
        let run = try launch("/usr/bin/prlimit", ["--as=\(Self.addressSpace)", carfabBinary, "-e", script], directory: dir)
        #expect(run.status == 0, "\(run.stderr.prefix(300))")
        #expect(run.stderr == "")
        if script.hasPrefix("try") {
            #expect(run.stdout.hasSuffix("change    +0       +$0.00\n"), "\(run.stdout)")
        } else {
            #expect(run.stdout == "done\n")
        }
    }
}
