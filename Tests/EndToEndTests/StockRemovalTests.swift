import Testing

/// Lines taken from the front and the middle of a stock of many blocks, and a `clear` taken
/// back by `rollback` and `try` (trial 9, 2: each cost a walk of the stock, now none): the
/// stock a script leaves lists as one made directly in that order does, line numbers and
/// current line included.
@Suite struct StockRemovalTests {
    static let models = ["sports", "suv", "compact"]

    /// `car MODEL COUNT` for each count, the model by the count.
    static func cars(_ counts: some Sequence<Int>) -> String {
        counts.map { "car \(models[$0 % 3]) \($0)\n" }.joined()
    }

    @Test func lines_removed_from_the_front_and_the_middle_and_a_clear_taken_back_list_as_made_directly() throws {
        // 700 lines (three blocks of lines and more); 300 from the front leave 301...700, then
        // line 200 100 times takes 500...599 away.
        let script =
            Self.cars(1...700) + String(repeating: "remove 1\n", count: 300) + String(repeating: "remove 200\n", count: 100)
            + "select 250\nbegin\nclear\nrollback\ntry clear\nbegin\nremove 1\nclear\ncar suv\nrollback\nlist\ntotal\nshow\n"
        let direct = Self.cars(Array(301...499) + Array(600...700)) + "select 250\nlist\ntotal\nshow\n"
        let made = try carfab([], stdin: script)
        let expected = try carfab([], stdin: direct)
        #expect(expected.status == 0 && expected.stderr.isEmpty && expected.stdout.contains("*  250  compact"))
        // `try clear` says what it would change; the rest is the same output.
        let tried = """
                       cars         total value
            before   145250   $8,658,337,430.00
            after         0               $0.00
            change  -145250  -$8,658,337,430.00

            """
        #expect(made == RunResult(stdout: tried + expected.stdout, stderr: "", status: 0))
    }

    /// A `try clear` takes back the ledger it journaled: it is not charged to the history's
    /// bound after. It was, for good, to the step made next: the 64 MiB bound was passed by a
    /// transaction after 12 tries on 200,000 lines (before: 60, the lines packed) and the
    /// script failed with history-too-large (trial 9, 2).
    @Test func tries_of_clear_between_transactions_are_not_charged_to_the_history() throws {
        let script =
            String(repeating: "car sports\n", count: 200_000) + String(repeating: "try clear\nbegin; clear; rollback\n", count: 100)
            + "total\n"
        let tried = """
                       cars          total value
            before   200000   $13,660,000,000.00
            after         0                $0.00
            change  -200000  -$13,660,000,000.00

            """
        let result = try carfab([], stdin: script)
        #expect(
            result
                == RunResult(
                    stdout: String(repeating: tried, count: 100) + "200000 Cars in Stock. Total Value: $13,660,000,000.00\n", stderr: "",
                    status: 0))
    }

    /// Review of stock11, 1: a `clear` of a stock past 2^21 lines was refused
    /// (history-too-large): its line storage, 2^22 slots of 16 bytes once doubled, was charged
    /// 64 MiB, the whole bound. Its lines are packed into 4 bytes each now, as before stock11
    /// (which cleared some 16 M), and come back in order, the current line with them.
    @Test func a_clear_of_a_stock_past_two_million_lines_is_kept_and_taken_back() throws {
        let lines = 2_200_000
        let script =
            String(repeating: "car sports\n", count: 1_000_000) + "car suv 3\n"
            + String(repeating: "car sports\n", count: lines - 1_000_001)
            + "select 1000001\nbegin; clear; commit\ntotal\nundo\ntotal\nshow\nredo\ntotal\nundo\nremove 1\nshow\n"
            + "try clear\nbegin; clear; rollback\ntotal\n"
        let suv = """
            Car type: Cadillac Escalade
            Seats: 8
            Engine: Front
            Suspension: Soft
            Drive: 4WD
            Price: $81,895.00

            """
        let tried = """
                        cars           total value
            before   2200001   $150,260,109,085.00
            after          0                 $0.00
            change  -2200001  -$150,260,109,085.00

            """
        let result = try carfab([], stdin: script)
        #expect(
            result
                == RunResult(
                    stdout: "0 Cars in Stock. Total Value: $0.00\n2200002 Cars in Stock. Total Value: $150,260,177,385.00\n" + suv
                        + "0 Cars in Stock. Total Value: $0.00\n" + suv + tried
                        + "2200001 Cars in Stock. Total Value: $150,260,109,085.00\n", stderr: "", status: 0))
    }
}
