import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The prompt that teaches (issue 15): options listed with their price changes and the rules
/// that forbid them, argument hints drawn dimmed after the cursor and never kept, refusals
/// explained, lists fitted to the terminal.
extension ReplTests {
    /// A prompt on a terminal that shows styles (hints and colour), 100 columns wide.
    private func styled(_ arguments: [String] = []) throws -> PseudoTerminal {
        try PseudoTerminal(
            arguments: arguments,
            environment: [
                "XDG_STATE_HOME": state.path, "HOME": state.path,
                "TERM": "xterm", "NO_COLOR": ""
            ])
    }

    @Test func tab_lists_options_with_price_changes_the_rules_that_forbid_them_and_the_repairs_they_need() throws {
        let terminal = try start()
        #expect(terminal.enter("car sports", expecting: "carfab> "))
        terminal.type("set drivetrain \t")
        #expect(terminal.waitFor("front  repair +$500.00 (not with the short floorplan)\r\nrear   (current)\r\n4wd    +$2,500.00\r\n"))
        // The one option a rule forbids is listed, never put in silently.
        terminal.type("\u{15}set drivetrain f\t")
        #expect(terminal.waitFor("\r\nfront  repair +$500.00 (not with the short floorplan)\r\n"))
        terminal.type("\u{15}car s\t")
        #expect(terminal.waitFor("sports  Porsche Boxster    $68,300.00\r\nsuv     Cadillac Escalade  $81,895.00\r\n"))
        // One candidate is put in: the line runs as `total GBP`.
        terminal.type("\u{15}total g\t\r")
        #expect(terminal.waitFor("1 Car in Stock. Total Value: £41,210.85\r\n"))
        terminal.type("\u{15}\u{04}")
        #expect(terminal.exitStatus() == 0)
    }

    @Test func lists_are_cut_to_the_terminal_width() throws {
        let terminal = try start()
        let long = String(repeating: "Long ", count: 40)
        #expect(
            terminal.enter(
                "model wide \"\(long)\" price 9000 floorplan short suspension race drivetrain rear",
                expecting: "carfab> "))
        terminal.type("car \t")
        #expect(terminal.waitFor("wide     Long Long"))
        #expect(terminal.waitFor("...\r\n"))
        // No listed line is wider than the terminal's 100 columns.
        let lines = terminal.output.components(separatedBy: "\r\n").filter { $0.hasPrefix("wide ") }
        #expect(!lines.isEmpty && lines.allSatisfy { $0.count < 100 }, "\(lines)")
        terminal.type("\u{15}\u{04}")
        #expect(terminal.exitStatus() == 0)
    }

    /// The prompt after a script (`file` in the test's state) that adds a family of 1,000
    /// paints, p0 ($0, the default) to p999 ($999), and makes a sports car.
    private func startWithAThousandPaints(file: String) throws -> PseudoTerminal {
        let catalog = state.appendingPathComponent(file)
        try writeFile(
            "family paint \"Paint\" default p0 \"P0\" price 0\n"
                + (1..<1000).map { "option paint p\($0) \"P\($0)\" price \($0)\n" }.joined() + "car sports\n",
            to: catalog)
        let terminal = try start([catalog.path, "-i"])
        #expect(terminal.waitFor("carfab> ", timeout: 30))
        return terminal
    }

    /// Trial 9, finding 10: a list taller than the screen is cut to it, its last line saying
    /// how many more there are (a family of 65,536 options wrote 1.3 MB for one Tab Tab).
    @Test func a_list_taller_than_the_terminal_is_cut_with_how_many_more() throws {
        let terminal = try startWithAThousandPaints(file: "paints.carfab")
        let prompts = terminal.count("carfab> ")
        // Every option starts with p: a Tab after it lists them.
        terminal.type("set paint p\t")
        #expect(terminal.waitFor("carfab> ", times: prompts + 1))
        // 24 rows: 21 candidates and the line that counts the rest, then the line typed and
        // the prompt drawn again.
        let listed =
            "\r\np0   (current)\r\n" + (1...9).map { "p\($0)   +$\($0).00\r\n" }.joined()
            + (10...20).map { "p\($0)  +$\($0).00\r\n" }.joined()
            + "... and 979 more: type more of the name to narrow the list\r\n"
        // (libedit goes back to the line's start and clears it, `\r\e[K`, to draw the prompt again.)
        #expect(
            terminal.output.contains("set paint p" + listed + "\r\u{1B}[Kcarfab> set paint p"),
            "\(terminal.output.suffix(2000).debugDescription)")
        #expect(terminal.count("p21") == 0)
        terminal.type("\u{15}\u{04}")
        #expect(terminal.exitStatus() == 0)
    }

    /// The cut leaves room for every row of the line typed: a line that wraps onto a second
    /// row gets a list a row shorter (counted as one row, the list's first row went off the
    /// screen when the prompt was drawn again).
    @Test func a_list_is_cut_to_leave_room_for_a_line_that_wraps() throws {
        let terminal = try startWithAThousandPaints(file: "paints-wrapped.carfab")
        // 8 columns of prompt, 100 blanks and `set paint p`: two rows of the 100-column terminal.
        terminal.type(String(repeating: " ", count: 100) + "set paint p\t")
        // The line drawn again after the list: its second row (the first ends in blanks,
        // which libedit leaves out).
        #expect(terminal.waitFor("narrow the list\r\n"), "\(terminal.output.suffix(3000).debugDescription)")
        #expect(terminal.waitFor("carfab>\r\n        set paint p"), "\(terminal.output.suffix(3000).debugDescription)")
        // 24 rows: 20 candidates and the line that counts the rest, then the two rows of the line
        // drawn again, and one to spare.
        let listed =
            "\r\np0   (current)\r\n" + (1...9).map { "p\($0)   +$\($0).00\r\n" }.joined()
            + (10...19).map { "p\($0)  +$\($0).00\r\n" }.joined()
            + "... and 980 more: type more of the name to narrow the list\r\n"
        #expect(terminal.output.contains("set paint p" + listed), "\(terminal.output.suffix(2000).debugDescription)")
        #expect(terminal.count("p20") == 0)
        terminal.type("\u{15}\u{04}")
        #expect(terminal.exitStatus() == 0)
    }

    @Test func a_hint_is_drawn_dimmed_after_the_cursor_and_never_kept() throws {
        let terminal = try styled()
        terminal.type("car")
        #expect(terminal.waitFor("car\u{1B}[2m MODEL [COUNT]\u{1B}[0m\u{1B}[14D"))
        terminal.type(" suv")
        #expect(terminal.waitFor("\u{1B}[K suv\u{1B}[2m [COUNT]\u{1B}[0m\u{1B}[8D"))
        terminal.type(" 2\r")
        #expect(terminal.waitFor("carfab>", times: 2))
        #expect(terminal.enter("expect count 2; echo kept", expecting: "kept\r\n"))
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
        let history = try String(contentsOf: state.appendingPathComponent("carfab/history"), encoding: .utf8)
        #expect(history == "_HiStOrY_V2_\ncar\\040suv\\0402\nexpect\\040count\\0402;\\040echo\\040kept\n", "\(history)")
    }

    @Test func no_hint_on_a_dumb_terminal_or_without_room() throws {
        let dumb = try PseudoTerminal(environment: ["XDG_STATE_HOME": state.path, "TERM": "dumb", "NO_COLOR": ""])
        dumb.type("car")
        #expect(dumb.waitFor("car"))
        dumb.type(" suv\r")
        #expect(dumb.waitFor("carfab> ", times: 2))
        #expect(!dumb.output.contains("MODEL"))
        dumb.type("\u{04}")
        #expect(dumb.exitStatus() == 0)
        let narrow = try styled()
        let long = "echo " + String(repeating: "x", count: 85)
        narrow.type(long)
        narrow.type(" ")
        #expect(narrow.waitFor(String(repeating: "x", count: 85)))
        narrow.type("\r")
        #expect(narrow.waitFor("carfab>", times: 2))
        #expect(!narrow.output.contains("\u{1B}[2m"))
        narrow.type("\u{04}")
        #expect(narrow.exitStatus() == 0)
    }

    @Test func a_refused_change_explains_itself_at_the_prompt() throws {
        let terminal = try start()
        #expect(
            terminal.enter(
                "car sports; set drivetrain front",
                expecting: "note: drivetrain options allowed for this car: 4wd (+$2,500.00)\r\n"))
        #expect(terminal.output.contains("note: the rule 'forbid drivetrain front with floorplan short' is part of the built-in catalog"))
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
    }

    @Test func a_long_help_page_goes_through_the_pager_at_a_terminal_only() throws {
        let terminal = try PseudoTerminal(environment: ["XDG_STATE_HOME": state.path, "PAGER": "sed 's/^/paged: /'"])
        #expect(terminal.enter("help", expecting: "paged: configure:"))
        #expect(terminal.waitFor("paged:   quit [STATUS]"))
        #expect(terminal.enter("help car", expecting: "usage: car MODEL [COUNT]"))
        #expect(!terminal.output.contains("paged: usage: car"))
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
        // Not at a terminal: never.
        let piped = try carfab(["-e", "help"], environment: ["PAGER": "sed 's/^/paged: /'"])
        #expect(piped.status == 0 && !piped.stdout.contains("paged:"))
    }

    @Test func a_pager_that_cannot_be_run_leaves_the_help_to_carfab() throws {
        let terminal = try PseudoTerminal(environment: ["XDG_STATE_HOME": state.path, "PAGER": "no-such-pager-xyz"])
        #expect(terminal.enter("help", expecting: "quit [STATUS]"))
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
    }
}
