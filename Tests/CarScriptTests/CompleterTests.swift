import CarFactory
import Testing

@testable import CarScript

@Suite struct CompleterTests {
    let completer = Completer(commands: .standard, catalog: .builtIn)

    func complete(_ line: String) -> [String] { completer.complete(line).candidates }

    @Test func commands_at_the_start_of_each_command() {
        #expect(complete("se") == ["set", "select"])
        #expect(complete("car suv; to") == ["total"])
        #expect(complete("EX") == ["expect", "exit"])
        #expect(complete("").count == CommandTable.standard.allNames.count)
    }

    @Test func models_families_and_the_options_of_the_chosen_family() {
        #expect(complete("car s") == ["sports", "suv"])
        #expect(complete("car ") == ["compact", "sports", "suv"])
        #expect(complete("set dri") == ["drivetrain"])
        #expect(complete("set drivetrain ") == ["front", "rear", "4wd", "all", "awd"])
        #expect(complete("set suspension s") == ["standard", "sports", "soft"])
        #expect(complete("set floorplan s") == ["short", "standard"])
        #expect(complete("set nothing ") == [])
        #expect(complete("car sports ") == [])
    }

    @Test func the_word_lists_of_options_and_cheapest() {
        // They only rang the bell: `options` takes a family, `cheapest` a model or family,
        // then options of a family named.
        // `in CURRENCY` may come first too.
        #expect(complete("options ") == ["floorplan", "suspension", "drivetrain", "in"])
        #expect(complete("options d") == ["drivetrain"])
        #expect(complete("options drivetrain ") == ["in"])
        #expect(complete("options drivetrain in ") == ["USD", "GBP", "EUR", "JPY"])
        #expect(complete("options drivetrain in GBP ") == [])
        #expect(complete("cheapest ") == ["compact", "sports", "suv", "floorplan", "suspension", "drivetrain", "in"])
        #expect(complete("cheapest s") == ["sports", "suv", "suspension"])
        #expect(complete("cheapest suv ") == ["floorplan", "suspension", "drivetrain", "in"])
        #expect(complete("cheapest drivetrain ") == ["front", "rear", "4wd", "all", "awd"])
        #expect(complete("cheapest suv drivetrain 4wd ") == ["floorplan", "suspension", "in"])
        #expect(complete("cheapest suv drivetrain 4wd floorplan s") == ["short", "standard"])
        #expect(complete("cheapest nothing ") == [])
        #expect(complete("cheapest in e") == ["EUR"])
    }

    @Test func currencies_commands_and_fields() {
        #expect(complete("total ") == ["USD", "GBP", "EUR", "JPY"])
        #expect(complete("price g") == ["GBP"])
        #expect(complete("rate e") == ["EUR"])
        #expect(complete("help s") == ["set", "show", "select", "source", "save"])
        // `help keys` is a topic, not a command (issue 20).
        #expect(complete("help k") == ["keys"])
        #expect(completer.complete("help k").descriptions == ["the keys that edit a line at the prompt"])
        #expect(complete("expect p") == ["price"])
        #expect(complete("expect price ") == ["USD", "GBP", "EUR", "JPY"])
        // What the field after `expect` can be (issue 20 item 13).
        #expect(complete("expect drive ") == ["front", "rear", "4wd", "all", "awd"])
        #expect(complete("expect suspension f") == ["firm"])
        #expect(complete("expect engine ") == ["Mid", "Front"])
        #expect(complete("expect type P") == ["Porsche Boxster"])
        #expect(completer.complete("expect type P").replacement == "\"Porsche Boxster\" ")
        #expect(complete("expect count ") == [])
        // `rate` never takes the base currency.
        #expect(complete("rate ") == ["GBP", "EUR", "JPY"])
        #expect(complete("rate u") == [])
    }

    @Test func nothing_after_a_backslash_or_in_a_comment() {
        #expect(complete("car \\") == [])
        #expect(complete("car suv # c") == [])
        #expect(complete("# s") == [])
        #expect(complete("echo \"#\"; se") == ["set", "select"])
    }

    @Test func a_name_opened_by_a_quote_is_completed_inside_it() {
        #expect(complete("car \"spo") == ["sports"])
        #expect(completer.complete("car \"spo").replacement == "\"sports\" ")
        #expect(completer.complete("car \"spo").typed == "\"spo")
        #expect(complete("car \"sports\"") == [])
    }

    @Test func file_names_after_source_and_save() throws {
        let files = MemoryHost(["work/scripts/quote.carfab": "", "work/scripts/quiet.carfab": "", "work/.hidden": ""])
        var completer = Completer(commands: .standard, catalog: .builtIn, workingDirectory: "work")
        // No host, no file names.
        #expect(completer.complete("source ").candidates == [])
        completer.host = files
        func complete(_ line: String) -> [String] { completer.complete(line).candidates }
        #expect(complete("source ") == ["scripts/"])
        #expect(complete("save scripts/q") == ["scripts/quiet.carfab", "scripts/quote.carfab"])
        #expect(complete("source scripts/quo") == ["scripts/quote.carfab"])
        #expect(complete("source .h") == [".hidden"])
        // A name with a blank is quoted, as the language reads it.
        files.files["work/my fleet.carfab"] = []
        #expect(completer.complete("source my").replacement == "\"my fleet.carfab\" ")
        #expect(completer.complete("source \"my f").replacement == "\"my fleet.carfab\" ")
        files.folders.insert("work/old scripts")
        #expect(completer.complete("source ol").replacement == "\"old scripts/")
        #expect(complete("source \"old scripts/") == [])
    }

    /// `~/` is the home folder when completing, as when running `source` and `save` (trial 6,
    /// finding 3: nothing was completed after it); the name keeps its `~/`.
    @Test func file_names_after_a_leading_tilde_slash_are_in_the_home_folder() {
        let files = MemoryHost(["h/quotes/fleet.carfab": "", "h/quotes/fast.carfab": "", "work/x.carfab": ""])
        var options = EngineOptions()
        options.host = files
        options.environment = .reading { $0 == "HOME" ? Array("/h".utf8) : nil }
        let engine = Engine(options: options)
        let completer = engine.completer(workingDirectory: "work")
        #expect(completer.complete("source ~/").candidates == ["~/quotes/"])
        #expect(completer.complete("source ~/").replacement == "~/quotes/")
        #expect(completer.complete("save ~/quotes/f").candidates == ["~/quotes/fast.carfab", "~/quotes/fleet.carfab"])
        #expect(completer.complete("source ~/quotes/fl").replacement == "~/quotes/fleet.carfab ")
        #expect(completer.complete("car sports; source ~/quotes/fl").replacement == "~/quotes/fleet.carfab ")
        #expect(completer.complete("source ~").replacement == "~/")
        // Not a home folder elsewhere in a name; none where the environment is refused.
        #expect(completer.complete("source x~/").candidates == [])
        #expect(Engine(options: EngineOptions()).completer().complete("source ~/").candidates == [])
    }

    /// `expect error ID COMMAND` completes COMMAND as `try COMMAND` does (trial 6, finding 10:
    /// nothing was completed), to any depth.
    @Test func the_command_that_expect_error_runs_is_completed_as_if_typed_alone() {
        #expect(completer.complete("expect error rule-violation ").candidates == completer.complete("").candidates)
        #expect(completer.complete("expect error rule-violation ca").candidates == ["car"])
        #expect(completer.complete("expect error unknown-model car s").candidates == ["sports", "suv"])
        #expect(
            completer.complete("expect error rule-violation set drivetrain ").candidates
                == completer.complete("set drivetrain ").candidates)
        #expect(completer.complete("try expect error refused try car s").candidates == ["sports", "suv"])
        #expect(completer.complete("try car s").candidates == ["sports", "suv"])
    }

    @Test func the_replacement_is_the_only_candidate_or_the_shared_prefix() {
        #expect(completer.complete("car spo").replacement == "sports ")
        #expect(completer.complete("set dri").replacement == "drivetrain ")
        #expect(completer.complete("set drivetrain 4").replacement == "4wd ")
        #expect(completer.complete("car s").replacement == nil)
        #expect(completer.complete("se").replacement == nil)
        #expect(Completion(partial: "s", candidates: ["scripts/"]).replacement == "scripts/")
        #expect(Completion(partial: "s", candidates: ["sports", "sporty"]).replacement == "sport")
    }

    @Test func tab_after_set_of_a_defined_family_marks_the_options_that_need_a_repair_with_its_price_change() throws {
        let engine = Engine()
        engine.evaluate(
            """
            car sports
            family paint "Paint" default white "White"
            option paint red "Red" price 500
            option paint gold "Gold" price 9000
            option drivetrain hover "Hover" price 1
            forbid paint red with floorplan short
            require paint gold with drivetrain hover
            """)
        let car = try #require(try? engine.stock.currentLine().car)
        let completer = Completer(commands: .standard, catalog: engine.catalog, currentCar: car)
        let options = completer.complete("set paint ")
        #expect(options.candidates == ["white", "red", "gold"])
        // Red: a standard floorplan too (+$2,000.00) and the paint (+$500.00). Gold: a hover
        // drivetrain too (+$1.00 less rear's $1,500.00) and the paint (+$9,000.00).
        #expect(
            options.descriptions == [
                "(current)", "repair +$2,500.00 (not with the short floorplan)",
                "repair +$7,501.00 (needs the hover drivetrain)"
            ])
        #expect(options.forbidden == [false, true, true])
    }

    /// A family is a field of `expect` (trial 7): offered after `expect`, and its options after it.
    @Test func expect_completes_a_family_and_its_options() {
        let engine = Engine()
        engine.evaluate(
            """
            family paint "Paint" default white "White"
            option paint red "Red" price 500 alias crimson
            """)
        let completer = Completer(commands: .standard, catalog: engine.catalog)
        #expect(completer.complete("expect pa").candidates == ["paint"])
        #expect(completer.complete("expect f").candidates == ["floorplan"])
        #expect(completer.complete("expect paint ").candidates == ["white", "red", "crimson"])
    }

    @Test func options_are_described_for_the_current_car_and_forbidden_ones_never_completed() throws {
        let sports = try Catalog.builtIn.builder(for: "sports").build()
        let completer = Completer(commands: .standard, catalog: .builtIn, currentCar: sports)
        let options = completer.complete("set drivetrain ")
        #expect(options.candidates == ["front", "rear", "4wd", "all", "awd"])
        // Front needs a repair (a standard floorplan, +$2,000.00, less the drivetrain's -$1,500.00).
        #expect(
            options.descriptions == [
                "repair +$500.00 (not with the short floorplan)", "(current)", "+$2,500.00",
                "(4wd) +$2,500.00", "(4wd) +$2,500.00"
            ])
        #expect(options.forbidden == [true, false, false, false, false])
        let front = completer.complete("set drivetrain f")
        #expect(front.candidates == ["front"] && front.replacement == nil && front.needsList)
        #expect(completer.complete("set suspension r").descriptions == ["-$2,400.00", "(current)"])
        // Without a car, an option shows its list price.
        #expect(self.completer.complete("set drivetrain r").descriptions == ["$1,500.00"])
    }

    @Test func hints_show_currency_only_after_an_amount_field() {
        #expect(completer.hint(for: "expect ") == "FIELD [CURRENCY] VALUE...")
        #expect(completer.hint(for: "expect drive ") == "VALUE...")
        #expect(completer.hint(for: "expect drive") == " VALUE...")
        #expect(completer.hint(for: "expect drive 4wd") == nil)
        #expect(completer.hint(for: "expect price ") == "[CURRENCY] VALUE...")
        #expect(completer.hint(for: "expect price GBP ") == "VALUE...")
        #expect(completer.hint(for: "expect price 100") == nil)
        #expect(completer.hint(for: "car suv ") == "[COUNT]")
        #expect(completer.hint(for: "car") == " MODEL [COUNT]")
        #expect(completer.hint(for: "echo a b ") == nil)
    }

    @Test func try_completes_and_hints_the_command_it_tries() {
        #expect(complete("tr") == ["try"])
        #expect(complete("try se") == complete("se"))
        #expect(complete("try se").contains("select"))
        #expect(complete("TRY set drivetrain r") == ["rear"])
        #expect(complete("car sports; try car s") == ["sports", "suv"])
        #expect(completer.complete("try to").descriptions == [CommandTable.standard.lookup("total")?.summary ?? "?"])
        #expect(completer.hint(for: "try") == " COMMAND...")
        #expect(completer.hint(for: "try ") == "COMMAND...")
        #expect(completer.hint(for: "try car ") == "MODEL [COUNT]")
        #expect(completer.hint(for: "try set drivetrain") == completer.hint(for: "set drivetrain"))
    }

    @Test func models_currencies_and_commands_say_what_they_are() {
        #expect(completer.complete("car s").descriptions == ["Porsche Boxster  $68,300.00", "Cadillac Escalade  $81,895.00"])
        #expect(completer.complete("total g").descriptions == ["£  0.60338"])
        #expect(completer.complete("to").descriptions == ["count the cars in stock and their value (default: USD)"])
        #expect(completer.complete("help to").descriptions == ["count the cars in stock and their value (default: USD)"])
    }
}

/// Completion after earlier commands on the same line (issue 20 item 11).
@Suite struct CompletionAfterEarlierCommandsTests {
    @Test func a_command_after_others_is_completed_against_the_state_they_would_leave() {
        let engine = Engine()
        engine.evaluate("car suv")
        let completer = engine.completer()
        // The sports car's own race suspension is current on it, not forbidden as on the SUV's long floorplan.
        let after = completer.complete("car sports; set suspension ")
        #expect(after.candidates == ["road", "race", "offroad", "standard", "sports", "firm", "soft"])
        #expect(after.descriptions[1] == "(current)")
        #expect(after.forbidden == [false, false, false, false, false, false, false])
        // Without the earlier command, the SUV is described.
        #expect(completer.complete("set suspension ").forbidden[1])
        // `select`, `set` and `var` before the cursor count too.
        engine.evaluate("car sports")
        #expect(engine.completer().complete("select 1; set suspension r").forbidden == [false, true])
        #expect(engine.completer().complete("set suspension road; set floorplan long; set suspension ra").forbidden == [true])
        #expect(engine.completer().complete("var fleet suv; car $fl").candidates == ["$fleet"])
        #expect(engine.completer().complete("option drivetrain hybrid \"Hybrid\" price 1; set drivetrain h").candidates == ["hybrid"])
    }

    /// After `undo`, `redo` or `rollback` earlier on the line, the car is not known (what they
    /// take back may lie before the line): options are listed without a car's prices, not with
    /// those of the car the line took back (trial 6, finding 4).
    @Test func after_a_command_that_takes_back_the_car_is_not_described() {
        let engine = Engine()
        engine.evaluate("car sports")
        let completer = engine.completer()
        let unknown = Engine().completer().complete("set drivetrain ").descriptions
        for line in [
            "set drivetrain 4wd; undo; set drivetrain ", "begin; set drivetrain 4wd; rollback; set drivetrain ",
            "car suv; UNDO; set drivetrain ", "set drivetrain 4wd; undo; redo; set drivetrain ", "redo; set drivetrain "
        ] {
            #expect(completer.complete(line).descriptions == unknown, "\(line)")
        }
        // Without one, the car the line makes is described.
        #expect(completer.complete("begin; set drivetrain 4wd; commit; set drivetrain ").descriptions[2] == "(current)")
        #expect(completer.complete("set drivetrain ").descriptions[1] == "(current)")
    }

    /// With the undo history kept (as at the prompt), the line's `undo`, `redo` and `rollback`
    /// are followed: a model they take back is not offered, one they put back is, and the car
    /// is the one they leave (a model defined and undone was offered: the names were those of
    /// the catalog as it stood before the `undo`).
    @Test func names_taken_back_on_the_line_or_before_it_are_not_offered() {
        var options = EngineOptions()
        options.keepsUndoHistory = true
        options.leavesTransactionOpen = true
        let engine = Engine(options: options)
        // The history starts with the first input, as at the prompt.
        engine.evaluate("")
        let model = "model m1 \"M\" price 9000 floorplan short suspension race drivetrain rear"
        let completer = engine.completer()
        #expect(completer.complete("\(model); car m").candidates == ["m1"])
        #expect(completer.complete("\(model); undo; car m").candidates == [])
        #expect(completer.complete("begin; \(model); rollback; car m").candidates == [])
        #expect(completer.complete("\(model); undo; redo; car m").candidates == ["m1"])
        // Taken back from an earlier line.
        engine.evaluate("begin")
        engine.evaluate(model)
        #expect(engine.completer().complete("car m").candidates == ["m1"])
        #expect(engine.completer().complete("rollback; car m").candidates == [])
        #expect(engine.completer().complete("undo; car m").candidates == [])
        #expect(engine.completer().complete("undo; redo; car m").candidates == ["m1"])
        // The car the line leaves is described: the drivetrain undone is not current.
        engine.evaluate("car sports")
        #expect(engine.completer().complete("set drivetrain 4wd; undo; set drivetrain ").descriptions[1] == "(current)")
        // Completing took nothing back.
        #expect(engine.completer().complete("car m").candidates == ["m1"])
    }

    @Test func completing_changes_nothing_and_prints_nothing() throws {
        let files = MemoryHost()
        files.standardInput = "car suv\n"
        var options = EngineOptions()
        options.host = files
        let sink = Evaluation()
        let engine = Engine(options: options, sink: sink)
        engine.evaluate("car compact")
        let line =
            "car sports 3; var v 1; option drivetrain hybrid \"Hybrid\" price 1; rate GBP 2; echo hi; show; "
            + "save saved.carfab; source saved.carfab; source -; quit 3; set suspension "
        _ = engine.completer().complete(line)
        #expect(engine.stock.lineCount == 1 && engine.stock.carCount == 1)
        #expect((try? engine.stock.currentLine().car.carType) == "VW Golf")
        #expect(engine.variables.isEmpty)
        #expect((try? engine.catalog.option(named: "hybrid", in: .drivetrain)) == nil)
        #expect(engine.catalog.currencies.first { $0.code == "GBP" }?.rate.description == "0.60338")
        #expect(!engine.quitRequested && engine.requestedExitStatus == nil && engine.failureCount == 0)
        #expect(sink.results.isEmpty && sink.diagnostics.isEmpty)
        #expect(files.files.isEmpty)
    }
}

/// Completion decides by Unicode scalars, as the lexer reads, never by grapheme clusters (issue 19 item 18).
@Suite struct CompletionByScalarsTests {
    let completer: Completer

    init() {
        let files = MemoryHost(
            Dictionary(
                uniqueKeysWithValues: [
                    "w\"\u{301}.carfab", "q\"\u{301}a.carfab", "q\"\u{301}b.carfab", "\u{301}x.carfab", "sub/\u{301}y.carfab"
                ].map { ($0, "") }))
        var completer = Completer(commands: .standard, catalog: .builtIn)
        completer.host = files
        self.completer = completer
    }

    /// `line` with its typed word replaced by the completion, as the prompt does.
    func completed(_ line: String) -> String? {
        let completion = completer.complete(line)
        guard let replacement = completion.replacement else { return nil }
        let kept = line.unicodeScalars.dropLast(completion.typed.unicodeScalars.count)
        return String(String.UnicodeScalarView(kept)) + replacement
    }

    /// The words the lexer reads in `line`, or nil if it does not lex whole.
    func words(_ line: String) -> [String]? {
        let lexer = Lexer()
        let bytes = Array(line.utf8)
        guard let outcome = try? bytes.withUnsafeBufferPointer({ (buffer) throws(ScriptError) in try lexer.tokenize(buffer) }),
            outcome == .complete
        else { return nil }
        return lexer.tokens.map(lexer.string)
    }

    @Test func a_name_with_a_quote_and_a_combining_mark_goes_in_quoted_and_reads_back() {
        #expect(words(completed("source w") ?? "") == ["source", "w\"\u{301}.carfab"])
        #expect(words(completed("source \"w") ?? "") == ["source", "w\"\u{301}.carfab"])
    }

    @Test func a_quote_followed_by_a_combining_mark_is_kept_as_the_quote_it_is() {
        // `"` + U+0301 opens a string: the completion keeps it open and closes it.
        #expect(completed("source \"\u{301}") == "source \"\u{301}x.carfab\" ")
        #expect(words(completed("source \"\u{301}") ?? "") == ["source", "\u{301}x.carfab"])
    }

    @Test func a_shared_start_left_open_can_be_completed_further() {
        let first = completed("source q")
        #expect(first == "source \"q\\\"\u{301}")
        // The escape in the open quote is read as the lexer reads it.
        #expect(completed((first ?? "") + "b") == "source \"q\\\"\u{301}b.carfab\" ")
    }

    @Test func a_slash_followed_by_a_combining_mark_still_separates_folders() {
        #expect(completer.complete("source sub/\u{301}").candidates == ["sub/\u{301}y.carfab"])
    }

    /// A name typed in another Unicode normal form completes to the name the engine would
    /// resolve it to (`car cafe\u{301}` runs the model defined as `caf\u{E9}`), as the
    /// engine's lookups match names: the Tab list and the language server's completion alike.
    @Test func a_name_typed_in_another_normal_form_completes_as_the_engine_resolves_it() {
        let engine = Engine()
        let defined = engine.evaluate(
            "model caf\u{E9} \"C\" price 30000 floorplan short suspension race drivetrain rear; "
                + "family p\u{E9}int \"P\" default caf\u{E9}r \"R\"; option p\u{E9}int \u{E9}clat \"E\" price 1; car cafe\u{301}")
        #expect(defined.diagnostics.isEmpty, "\(defined.diagnostics.map(\.message))")
        let completer = engine.completer()
        #expect(completer.complete("car cafe\u{301}").candidates == ["caf\u{E9}"])
        #expect(completer.complete("car CAFE\u{301}").candidates == ["caf\u{E9}"])
        #expect(completer.complete("set pe\u{301}").candidates == ["p\u{E9}int"])
        #expect(completer.complete("set pe\u{301}int e\u{301}").candidates == ["\u{E9}clat"])
        #expect(completer.complete("cheapest cafe\u{301}").candidates == ["caf\u{E9}"])
        // Bytes that begin the name still do (the start of a decomposed letter is not a whole one).
        #expect(completer.complete("car caf").candidates == ["caf\u{E9}"])
        // And a name defined decomposed completes from the composed form.
        _ = engine.evaluate("model pe\u{301}che \"P\" price 30000 floorplan short suspension race drivetrain rear")
        #expect(engine.completer().complete("car p\u{E9}").candidates == ["pe\u{301}che"])
    }
}
