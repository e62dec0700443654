import Foundation
import Testing

/// Trial 8's findings in `--check` (1 and 6), as a user meets them: standard output,
/// standard error and the status, whole.
@Suite struct Trial8CheckFindingTests {
    /// A scratch folder of files d0 ... dN, each but the last sourcing the next twice (a run
    /// of d0 runs the last 2^N times), the last holding `last`; and `main.carfab`, if given.
    static func tree(depth: Int, last: String, main: String? = nil) throws -> URL {
        var files: [String: String] = [:]
        for n in 0..<depth { files["d\(n).carfab"] = "source d\(n + 1).carfab\nsource d\(n + 1).carfab\n" }
        files["d\(depth).carfab"] = last
        if let main { files["main.carfab"] = main }
        return try temporaryDirectory(with: files)
    }

    /// Finding 1: 41 files of 5 KB, 2^40 commands, no cycle: `--check` never ended. A file
    /// sourced again is not followed again when nothing it could change has changed.
    @Test func a_check_of_a_tree_of_sources_ends() throws {
        let dir = try Self.tree(depth: 40, last: "var x 1\n")
        // `timeout` ends a check that does not end (status 124): the old one.
        let clean = try shell(#"timeout 120 "$CARFAB" --check d0.carfab"#, directory: dir)
        #expect(clean.stdout == "" && clean.stderr == "" && clean.status == 0, "\(clean)")
        // A problem in the last file is still found (once; a run would report it 2^40 times).
        try "var x 1\nset drivetrain hover\n".write(toFile: dir.path + "/d40.carfab", atomically: true, encoding: .utf8)
        let broken = try shell(#"timeout 120 "$CARFAB" --check --keep-going --format json d0.carfab"#, directory: dir)
        let errors = try jsonObjects(broken.stderr).map(\.1)
        #expect(broken.stdout == "" && broken.status == 1, "\(broken)")
        #expect(errors.count == 2 && errors.allSatisfy { $0["id"] as? String == "unknown-option" }, "\(broken)")
    }

    /// A tree whose files are each reached two ways, directly and through a wrapper: the files
    /// around a following are part of what it is known by, so such a tree has as many keys as
    /// paths, and only the bound on following a file again ends its check.
    @Test func a_tree_reached_two_ways_at_each_level_ends() throws {
        var files: [String: String] = ["l30.carfab": "var x 1\n"]
        for n in 0..<30 {
            files["l\(n).carfab"] = "source w\(n).carfab\nsource l\(n + 1).carfab\n"
            files["w\(n).carfab"] = "source l\(n + 1).carfab\n"
        }
        let dir = try temporaryDirectory(with: files)
        let result = try shell(#"timeout 120 "$CARFAB" --check l0.carfab"#, directory: dir)
        #expect(result.status == 0 && result.stdout == "", "\(result)")
        #expect(result.stderr.contains("warning: the check has followed files it had followed already 65536 times"), "\(result)")
    }

    /// Followings that keep changing what the check reads (a step in a transaction each time)
    /// are followed, at most 65,536 times in all: then the check stops there with a warning,
    /// finding less than a run may, never more (the error after it is not reported).
    @Test func a_check_that_keeps_changing_stops_at_its_bound() throws {
        let dir = try Self.tree(depth: 20, last: "car sports\n", main: "begin\nsource d0.carfab\ncommit\nset drivetrain hover\n")
        let result = try shell(#"timeout 120 "$CARFAB" --check main.carfab"#, directory: dir)
        // Where the 65,537th following of a file followed already comes (d4's second `source` above it).
        let chain = ["main.carfab:2"] + (0...17).map { "d\($0).carfab:\($0 == 4 ? 2 : 1)" }
        #expect(
            result.stderr == chain.map { "In file included from \($0):\n" }.joined() + """
                d18.carfab:2:8: warning: the check has followed files it had followed already 65536 times, as many as it may: it stops here, and the lines after this are not checked
                source d19.carfab
                       ^~~~~~~~~~

                """, "\(result)")
        #expect(result.stdout == "" && result.status == 0, "\(result)")
    }

    /// A file sourced again is followed again when its last following changed what the check
    /// reads: here the second `source` makes `front`, which a check that skipped it would
    /// report as an unknown option `fron` (more than the run finds: it finds nothing).
    @Test func a_file_is_followed_again_where_that_could_find_more() throws {
        let dir = try temporaryDirectory(with: [
            "s.carfab": "var d fron\nvar p \"\"\nsource f.carfab\nsource f.carfab\nset drivetrain ${d}\n",
            "f.carfab": "var d \"${d}${p}\"\nvar p t\n"
        ])
        let result = try carfab(["--check", "s.carfab"], directory: dir)
        #expect(result.stdout == "" && result.stderr == "" && result.status == 0, "\(result)")
    }

    /// Inside `try`, a file whose last following reported an error is followed again: the
    /// error fails the `try`, which rolls back the transaction open outside it, so `m` may be
    /// defined again after it, as running finds (a check that skipped it reported `m` twice).
    @Test func a_failing_file_is_followed_again_inside_try() throws {
        let model = #"model m "M" price 90000 floorplan short suspension race drivetrain rear"#
        let dir = try temporaryDirectory(with: [
            "s.carfab": "source f.carfab\nbegin\n\(model)\ntry source f.carfab\n\(model)\n", "f.carfab": "car nosuch\n"
        ])
        let expected = """
            In file included from s.carfab:1:
            f.carfab:1:5: error: unknown model 'nosuch'; valid models: compact, sports, suv
            car nosuch
                ^~~~~~
            In file included from s.carfab:4:
            f.carfab:1:5: error: unknown model 'nosuch'; valid models: compact, sports, suv, m
            car nosuch
                ^~~~~~
            note: the open transaction was rolled back

            """
        for mode in [["--check"], []] {
            let result = try carfab(mode + ["--keep-going", "s.carfab"], directory: dir)
            #expect(result.stdout == "" && result.stderr == expected && result.status == 1, "\(mode) \(result)")
        }
    }

    /// The files of each case where a skipped following once found more than the run (review
    /// of the skip): a file that quit inside `try`, then outside it; a `save` refused only
    /// inside `try`; a `source` too deep only from elsewhere; a cycle only under other files
    /// (`g` sources `b`, a cycle under `b` alone); a link to a file from another
    /// folder, whose relative `source` reads another file; the bound passed inside a `try`,
    /// which took its stop back. Each then ends in an error the run never reaches.
    static let skipCases: [String: [String: String]] = [
        "quit": ["q.carfab": "quit\n", "top.carfab": "try source q.carfab\nsource q.carfab\ncar nosuch\n"],
        "save": ["f.carfab": "save x.carfab\n", "top.carfab": "source f.carfab\ntry source f.carfab\ncar nosuch\n"],
        "depth": Dictionary(uniqueKeysWithValues: (1...63).map { ("c\($0).carfab", $0 == 63 ? "" : "source c\($0 + 1).carfab\n") })
            .merging(["w.carfab": "source c1.carfab\n", "top.carfab": "source c1.carfab\nsource w.carfab\ncar nosuch\n"]) { a, _ in a },
        "cycle": [
            "a.carfab": "source g.carfab\n", "b.carfab": "source g.carfab\n",
            "g.carfab": "expect error source-cycle try source b.carfab\n",
            "top.carfab": "source b.carfab\nsource a.carfab\nnonsense\n"
        ],
        "link": [
            "b/real.carfab": "source x.carfab\n", "b/x.carfab": "echo fine\n", "a/x.carfab": "car nosuch\n",
            "top.carfab": "source b/real.carfab\nsource a/link.carfab\n"
        ],
        "bound": Dictionary(
            uniqueKeysWithValues: (1...17).map {
                ("t\($0).carfab", String(repeating: $0 == 17 ? "source g.carfab\n" : "source t\($0 + 1).carfab\n", count: 2))
            }
        )
        .merging([
            "g.carfab": "var t $x; var x $y; var y $t\n", "tried.carfab": "var x a; var y b; source t1.carfab; car nosuch\n",
            "top.carfab": "try source tried.carfab\nexpect count 5\ncar alsonosuch\n"
        ]) { a, _ in a }
    ]

    /// What a skipped following may not do: report an error the run does not (`--check` may
    /// find less than running, never more).
    @Test(arguments: ["quit", "save", "depth", "cycle", "link", "bound"])
    func a_skipped_following_never_finds_more_than_the_run(_ name: String) throws {
        let dir = try temporaryDirectory(with: Self.skipCases[name] ?? [:])
        if name == "link" {
            try FileManager.default.createSymbolicLink(atPath: dir.path + "/a/link.carfab", withDestinationPath: "../b/real.carfab")
        }
        let run = try shell(#"timeout 120 "$CARFAB" top.carfab"#, directory: dir)
        let check = try shell(#"timeout 120 "$CARFAB" --check top.carfab"#, directory: dir)
        func errors(_ text: String) -> Set<String> {
            Set(text.split(separator: "\n").filter { $0.contains(": error: ") }.map { String($0.prefix { $0 != " " }) })
        }
        #expect(check.status != 124 && errors(check.stderr).isSubset(of: errors(run.stderr)), "run: \(run)\ncheck: \(check)")
        #expect(name == "bound" || check.status == run.status, "run: \(run)\ncheck: \(check)")
    }

    /// Finding 6: the check stops where the run stops, at `quit` (in a sourced file too);
    /// `quit N`'s status is the run's, not the check's.
    @Test(arguments: [
        "car sports\nquit\n# notes for later\nset drivetrain hover\n", "car sports\nquit 3\ncar nosuch\n",
        "source q.carfab\ncar nosuch\n"
    ])
    func a_check_stops_at_quit(_ script: String) throws {
        let dir = try temporaryDirectory(with: ["s.carfab": script, "q.carfab": "quit 3\n"])
        let result = try carfab(["--check", "s.carfab"], directory: dir)
        #expect(result.stdout == "" && result.stderr == "" && result.status == 0, "\(result)")
    }

    /// `try source FILE` that quits ends only the file, running or checked: the lines after it are checked.
    @Test func a_quit_in_a_tried_file_ends_only_the_file() throws {
        let dir = try temporaryDirectory(with: ["s.carfab": "try source q.carfab\ncar nosuch\n", "q.carfab": "quit\n"])
        let result = try carfab(["--check", "s.carfab"], directory: dir)
        #expect(
            result.stderr == """
                s.carfab:2:5: error: unknown model 'nosuch'; valid models: compact, sports, suv
                car nosuch
                    ^~~~~~

                """, "\(result)")
        #expect(result.stdout == "" && result.status == 1, "\(result)")
    }
}
