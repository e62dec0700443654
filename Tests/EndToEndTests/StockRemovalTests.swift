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

}
