import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `save` and `diff` of a stock of many distinct cars over 61 families stop at a signal
/// between rows, as `list` does: they spent ~0.3 ms a configuration completing it again for
/// each family, with no look at a stop, and a signal waited 9-38 s (trial 11, 1).
@Suite struct WideStockStopTests {
    /// 61 families of 8 options, and `lines` distinct cars of them (the first six families
    /// count the line in octal; the rest vary with it).
    static func wideSession(lines: Int) -> String {
        var text = ""
        for family in 0..<61 {
            text += "family f\(family) \"F\(family)\" default o0 \"O0\"\n"
            for option in 1..<8 { text += "option f\(family) o\(option) \"O\(option)\" price \(option * 10 + family)\n" }
        }
        for line in 0..<lines {
            text += "car compact; set"
            for family in 0..<61 {
                let option = family < 6 ? (line >> (3 * family)) & 7 : (line &* (family + 1) >> 2) & 7
                text += " f\(family) o\(option)"
            }
            text += "\n"
        }
        return text
    }

    /// Runs `command` after the wide session has loaded and `sync.fifo` has been opened and
    /// closed by the test, sends `signal` once carfab has spent CPU time on the command (so the
    /// signal comes while it works, not before it starts), and gives the exit status within 5 s
    /// (nil if carfab went on).
    static func stopped(_ command: String, by signal: Int32) throws -> (status: Int32?, stdout: String, stderr: String, dir: URL) {
        let dir = try temporaryDirectory(with: ["wide.carfab": wideSession(lines: 30_000), "empty.carfab": ""])
        let fifo = dir.appendingPathComponent("sync.fifo").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let running = try RunningCarfab(["wide.carfab", "-e", "source sync.fifo; \(command)"], directory: dir)
        // Opening the FIFO's write end without blocking fails until carfab opens it to read:
        // then the session has loaded.
        var writer: Int32 = -1
        #expect(
            running.wait(timeout: 60) {
                writer = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
                return writer >= 0
            })
        let loaded = processorTicks(running.pid)
        close(writer)
        // Three clock ticks of work after the FIFO's end: inside the command, which takes
        // hundreds of milliseconds even when it is quick.
        #expect(running.wait(timeout: 60) { processorTicks(running.pid) >= loaded + 3 })
        kill(running.pid, signal)
        return (running.exitStatus(timeout: 5), running.stdout, running.stderr, dir)
    }

    @Test(arguments: [(Int32(SIGINT), Int32(130)), (Int32(SIGTERM), Int32(143)), (Int32(SIGHUP), Int32(129))])
    func a_signal_stops_save_of_a_wide_stock(signal: Int32, status: Int32) throws {
        let printed = try Self.stopped("save -", by: signal)
        #expect(printed.status == status)
        #expect(printed.stdout == "" && printed.stderr == "")
        // A save to a file writes nothing.
        let written = try Self.stopped("save saved.carfab", by: signal)
        #expect(written.status == status)
        #expect(written.stdout == "" && written.stderr == "")
        #expect(!FileManager.default.fileExists(atPath: written.dir.appendingPathComponent("saved.carfab").path))
    }

    @Test(arguments: [(Int32(SIGINT), Int32(130)), (Int32(SIGTERM), Int32(143))])
    func a_signal_stops_diff_of_a_wide_stock(signal: Int32, status: Int32) throws {
        // An empty session loads at once: the time goes to comparing the wide stock.
        let compared = try Self.stopped("diff empty.carfab", by: signal)
        #expect(compared.status == status)
        #expect(compared.stdout == "" && compared.stderr == "")
    }

    /// What `save` and `diff` write of wide cars is what they wrote when every family's part
    /// was found on its own: the parts that differ from the model's defaults, in family order
    /// for `save`, by family name for `diff`, families defined in another order the same.
    @Test func save_and_diff_of_wide_cars_are_unchanged() throws {
        var catalog = ""
        for family in [2, 0, 1] {
            catalog += "family f\(family) \"F\(family)\" default o0 \"O0\"\noption f\(family) o1 \"O1\" price \(family + 1)\n"
        }
        let dir = try temporaryDirectory(with: [
            "a.carfab": catalog + "car compact; set f0 o1 f2 o1\ncar suv 2; set f1 o1\ncar compact\n",
            "b.carfab": catalog + "car compact; set f2 o1 f0 o1\ncar suv 2; set f1 o0\ncar sports\n"
        ])
        let saved = try carfab(["a.carfab", "-e", "save --minimal -"], directory: dir)
        #expect(
            saved
                == RunResult(
                    stdout: """
                        family f2 "F2" default o0 "O0" price 0
                        option f2 o1 "O1" price 3
                        family f0 "F0" default o0 "O0" price 0
                        option f0 o1 "O1" price 1
                        family f1 "F1" default o0 "O0" price 0
                        option f1 o1 "O1" price 2
                        car compact
                        set f2 o1 f0 o1
                        car suv 2
                        set f1 o1
                        car compact

                        """, stderr: "", status: 0))
        let compared = try carfab(["--diff", "a.carfab", "b.carfab"], directory: dir)
        #expect(compared.status == 1 && compared.stderr == "")
        #expect(
            compared.stdout == """
                change   what   name    first                                                                                second                                                                           difference
                changed  line   2 -> 2  car suv 2; set f1 o1 ($163,794.00)                                                   car suv 2; set f1 o0 ($163,790.00)                                                   -$4.00
                changed  line   3 -> 3  car compact 1; set floorplan standard suspension road drivetrain front ($27,995.00)  car sports 1; set floorplan short suspension race drivetrain rear ($68,300.00)  +$40,305.00
                changed  total          4 cars, $219,788.00                                                                  4 cars, $260,089.00                                                             +$40,301.00

                """)
    }
}
