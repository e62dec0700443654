import Foundation
import Testing

/// `diff` writes its rows as they are made, as `list` does, instead of holding its whole table
/// to align the columns (trial 4, 12: two 400,000-line sessions took 489 MB, ~35 times the
/// sessions' own). What it prints must not change with that, byte for byte: the digests below
/// are of the output of carfab at 42e0986, before the rows were streamed, for sessions of
/// 25,000 lines with catalog, rate, variable and current-line changes, names that need
/// escaping and characters two columns wide, matched both ways large stocks are (the fewest
/// changes, and past the exact search's budget). Past the budget the lines were all removed
/// and added; they are now matched by the divided search (trial 5, 4), so the last three
/// digests are of this output since then (the first two, where the exact search ends, are
/// still of 42e0986's).
@Suite struct DiffStreamingTests {
    /// A little pseudo-random generator, so the sessions are the same on every run.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    static let catalog = """
        family färg "Färg 色" default vit "vit"
        option färg röd "röd 红" price 120
        option färg "blå\\tx" "blå" price 80
        model ζeta "Zeta 車" price 41000 floorplan short suspension race drivetrain rear färg röd

        """

    static func line(_ random: inout Generator) -> String {
        let model = ["suv", "compact", "sports", "ζeta"][random.next(4)]
        let drivetrain = ["4wd", "rear"][random.next(2)]
        let colour = ["vit", "röd", "\"blå\\tx\""][random.next(3)]
        return "car \(model) \(1 + random.next(5)); set drivetrain \(drivetrain) färg \(colour)"
    }

    /// `a`; `b`, `a` with 400 lines removed, added or changed and its catalog changed; `c`,
    /// lines of their own.
    static func sessions() -> [String: String] {
        var random = Generator(state: 12)
        let a = (0..<25_000).map { _ in line(&random) }
        var b = a
        for _ in 0..<400 {
            let place = random.next(b.count)
            switch random.next(4) {
            case 0: b.remove(at: place)
            case 1: b.insert(line(&random), at: place)
            case 2: b[place] = b[place].replacingOccurrences(of: "car suv", with: "car compact")
            default: b[place] = line(&random)
            }
        }
        let c = (0..<25_000).map { _ in line(&random) }
        let first = catalog + "var who Ann\n" + a.joined(separator: "\n") + "\nselect 3\n"
        let second =
            catalog + "option färg grön \"grön\" price 10\nrate GBP 0.5\nvar who \"Bo \u{1B}[1m\"\nvar new 1\n"
            + b.joined(separator: "\n") + "\nselect 7\n"
        return ["a.carfab": first, "b.carfab": second, "c.carfab": catalog + c.joined(separator: "\n") + "\n"]
    }

    /// FNV-1a, 64 bits, and the length: a digest of an output of megabytes.
    static func digest(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16) + " " + String(text.utf8.count)
    }

    @Test(
        .timeLimit(.minutes(1)),
        arguments: [
            (["--diff", "a.carfab", "b.carfab"], "d397cb0fd3065886 82807"),
            (["--format", "json", "--diff", "a.carfab", "b.carfab"], "8d8a3687c93d8530 87898"),
            (["--diff", "a.carfab", "c.carfab"], "139b9897af96b608 7046011"),
            (["--format", "json", "--diff", "b.carfab", "c.carfab"], "dc9b15ab67d67c99 7612750"),
            // In a session, against the session itself: a difference is no failure.
            (["-e", "source c.carfab; car sports 3; diff b.carfab"], "aa778057c1364c9a 7128244")
        ])
    func a_large_diff_prints_what_it_printed_when_it_held_its_rows(arguments: [String], expected: String) throws {
        let dir = try temporaryDirectory(with: Self.sessions())
        let result = try carfab(arguments, directory: dir)
        #expect(result.stderr == "")
        #expect(result.status == (arguments.first == "-e" ? 0 : 1))
        #expect(Self.digest(result.stdout) == expected)
    }

    /// The finding's sessions: 400,000 lines each, drawn at random from 20 kinds (13 MB files,
    /// ~15 MB each to run). Comparing them took 489 MB (327 MB after the lines were matched
    /// by numbers), and the same session with itself 163 MB; in 150 MB of address space
    /// both failed to allocate. The matching, the rows and the sessions now fit in half of it.
    @Test(.timeLimit(.minutes(1))) func two_sessions_of_400000_lines_compare_in_150_MB() throws {
        let dir = try temporaryDirectory(with: [:])
        let generate = { (seed: Int) in
            "python3 -c \"import random; r=random.Random(\(seed))\nfor i in range(400000): print('car %s %d; set drivetrain %s' % (r.choice(['suv','compact']), r.randint(1,5), r.choice(['4wd','rear'])))\""
        }
        let run = try shell(
            """
            \(generate(1)) > a.carfab && \(generate(2)) > b.carfab || exit 9
            prlimit --as=150000000 "$CARFAB" --diff a.carfab b.carfab | wc -l; echo "${PIPESTATUS[0]}"
            prlimit --as=150000000 "$CARFAB" --diff a.carfab a.carfab | wc -l; echo "${PIPESTATUS[0]}"
            """, directory: dir)
        #expect(run.stderr == "")
        let figures = run.stdout.split(separator: "\n").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        // Different throughout: the heading, more than a row a line, the total (1); the same: nothing (0).
        #expect(figures.count == 4)
        #expect(figures.first.flatMap { $0 }.map { $0 > 400_000 } == true, "\(run.stdout)")
        #expect(Array(figures.dropFirst()) == [1, 0, 0])
    }
}
