import Foundation
import Testing

/// The configurator on wide catalogs, end to end (trial 10, 1 and 6): a catalog whose
/// configurator tables would pass their bound is refused at the question, with what fits,
/// before the memory is taken; a refused `set` says so in its note; a refused `set` whose
/// repair search reaches the limit says that, with `fit`'s advice.
@Suite struct WideCatalogLimitTests {
    /// 4 families of `options` options, and a `require` from an option of each family to one
    /// of every other family: each option gets an edge to every other family.
    static func wide(options: Int) -> String {
        var lines: [String] = []
        for f in 0..<4 {
            lines.append("family f\(f) \"F\(f)\" default a \"A\"")
            for o in 1..<options { lines.append("option f\(f) o\(o) \"O\" price \(o % 97)") }
        }
        for f in 0..<4 {
            for g in 0..<4 where g != f { lines.append("require f\(f) o\(1 + f) with f\(g) o\(1 + g)") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func a_catalog_too_wide_for_the_configurator_is_refused_with_what_fits() throws {
        let dir = try temporaryDirectory(with: ["wide.carfab": Self.wide(options: 16_000)])
        let result = try carfab(
            ["--keep-going", "-e", "source wide.carfab", "-e", "car sports; why f1 o2", "-e", "set f1 o2"], directory: dir)
        let tables = "the configurator's tables for this catalog's rules would take 382 MiB, past its bound of 256 MiB"
        let allowed = (1...31).filter { $0 != 2 }.map { "o\($0) (+$\($0).00)" }.joined(separator: ", ")
        #expect(
            result
                == RunResult(
                    stdout: "",
                    stderr: """
                        <command-line 2>:1:13: error: \(tables)
                        car sports; why f1 o2
                                    ^~~
                        note: a rule gives the option it names a table of the other family's options, and a 'require' gives one to every other option of its second family too: fewer rules between large families, or smaller families, fit
                        <command-line 3>:1:8: error: o2 f1 needs the o1 f0
                        set f1 o2
                               ^~
                        wide.carfab:64004: note: the rule 'require f1 o2 with f0 o1' is defined here
                        note: f1 options allowed for this car: \(allowed) (15968 more options not checked)
                        note: no repair was searched for: \(tables)

                        """, status: 1))
    }

    /// As the trial's php.py: a switch whose `on` needs every one of `pigeons` families off
    /// `none`, and `holes` options each that no two of them may share.
    static func pigeonhole(pigeons: Int, holes: Int) -> String {
        var lines = ["family sw \"Switch\" default off \"Off\"", "option sw on \"On\" price 1"]
        for i in 0..<pigeons {
            lines.append("family p\(i) \"P\(i)\" default none \"None\"")
            for k in 1...holes { lines.append("option p\(i) h\(k) \"H\(k)\" price \(k)") }
            lines.append("require p\(i) none with sw off")
        }
        for k in 1...holes {
            for i in 0..<pigeons {
                for j in i + 1..<pigeons { lines.append("forbid p\(i) h\(k) with p\(j) h\(k)") }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test(.timeLimit(.minutes(2))) func a_refused_set_whose_repair_search_reaches_the_limit_says_so() throws {
        let dir = try temporaryDirectory(with: ["php.carfab": Self.pigeonhole(pigeons: 13, holes: 12)])
        let result = try carfab(["-e", "source php.carfab", "-e", "car compact; set sw on"], directory: dir)
        #expect(
            result
                == RunResult(
                    stdout: "",
                    stderr: """
                        <command-line 2>:1:21: error: none p0 needs the off sw
                        car compact; set sw on
                                            ^~
                        php.carfab:16: note: the rule 'require p0 none with sw off' is defined here
                        note: no other sw option is allowed for this car
                        note: the search for a repair took more than 1000000 steps and was stopped: choose the other changes yourself: 'set sw on FAMILY OPTION ...' sets several parts in one step

                        """, status: 1))
    }
}
