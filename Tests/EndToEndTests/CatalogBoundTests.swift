import Foundation
import Testing

/// The names and texts a catalog's definitions hold are bounded in all (16 MiB), as the
/// variables are: a few lines that `source` one another define no more than that, however
/// many times they run.
@Suite struct CatalogBoundTests {
    /// A leaf that defines one option of about 32 KiB of names (a 2 KiB name, text and 14
    /// aliases: a name holds at most 4 KiB as saved), and files that each run the one below
    /// twice: `l9` runs the leaf 512 times.
    static func files(_ main: String) -> [String: String] {
        let aliases = "abcdefghijklmn".map { " alias ${b}\($0)$i" }.joined()
        var files = ["l0.carfab": "var i \"${i}x\"; option paint $b$i $b price 0\(aliases)\n", "main.carfab": main]
        for level in 1...9 { files["l\(level).carfab"] = "source l\(level - 1).carfab\nsource l\(level - 1).carfab\n" }
        return files
    }

    /// `var b` of 2 KiB, a counter, and the family the options join.
    static let setUp = "var b x\n" + String(repeating: "var b $b$b\n", count: 11) + "var i x\nfamily paint \"Paint\" default w \"W\"\n"

    @Test func definitions_past_16_MiB_of_names_are_an_error_and_nothing_is_defined() throws {
        // Before the bound, 32 options of 0.5 MiB (names were bounded at 64 KiB) took 71 MB,
        // and 2,048 of them 2.1 GB, from 467 bytes of files.
        let dir = try temporaryDirectory(with: Self.files(Self.setUp + "source l9.carfab\necho done\n"))
        #expect(
            try carfab(["main.carfab"], directory: dir)
                == RunResult(
                    stdout: "",
                    stderr: """
                        In file included from main.carfab:15:
                        In file included from l9.carfab:2:
                        In file included from l8.carfab:2:
                        In file included from l7.carfab:2:
                        In file included from l6.carfab:1:
                        In file included from l5.carfab:1:
                        In file included from l4.carfab:2:
                        In file included from l3.carfab:2:
                        In file included from l2.carfab:1:
                        In file included from l1.carfab:1:
                        l0.carfab:1:29: error: the catalog's definitions would pass 16 MiB (16777216 bytes) in all (their names and texts, and a fixed size each): nothing is defined
                        ...i "${i}x"; option paint $b$i $b price 0 alias ${b}a$i alias ${b}b$i alias ...
                                                   ^~~~

                        """, status: 1))
        let json = try carfab(["--format", "json", "main.carfab"], directory: dir)
        #expect(json.stderr.contains(#""id":"catalog-too-large""#))
    }

    @Test func what_a_rollback_takes_back_no_longer_counts() throws {
        // 256 options (8.9 MiB) twice would pass the bound; taken back in between, they fit.
        let main = Self.setUp + "begin; source l8.carfab; rollback\nsource l8.carfab\necho done\n"
        let dir = try temporaryDirectory(with: Self.files(main))
        #expect(try carfab(["main.carfab"], directory: dir) == RunResult(stdout: "done\n", stderr: "", status: 0))
        let twice = try temporaryDirectory(with: Self.files(Self.setUp + "source l8.carfab\nsource l8.carfab\necho done\n"))
        #expect(try carfab(["main.carfab"], directory: twice).status == 1)
    }
}
