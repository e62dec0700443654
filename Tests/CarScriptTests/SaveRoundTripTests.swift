import CarFactory
import CarScript
import Testing

/// `save` then replay is a law: random sessions whose names and values are drawn from hostile
/// alphabets save to a script that rebuilds the same state in a fresh engine, and saving that
/// gives the same script byte for byte. Names go in through variables, so the sessions are made
/// without quoting anything: the writer under test is the only one.
@Suite struct SaveRoundTripTests {
    /// Lines that share a configuration share its text (made once); a line too long to read
    /// back is refused by its number, and nothing is written.
    @Test func a_stock_line_too_long_to_read_back_is_named_and_refused() throws {
        var catalog = Engine.builtInCatalog
        let name = String(repeating: "m", count: maximumLineLength - 6)
        _ = try catalog.define(
            ModelDefinition(
                name: name, carType: "Long", basePrice: .base(10_000_000), floorplan: "short",
                suspension: "race", drivetrain: "rear"))
        let engine = Engine(catalog: catalog)
        let fits = engine.evaluate("car \(name) 9\ncar sports 3; set drivetrain 4wd; car sports 2; set drivetrain 4wd; select 2; save -")
        guard case .text(let text)? = fits.results.last?.result else {
            Issue.record("save - printed no text")
            return
        }
        #expect(text.hasSuffix("\ncar sports 3\nset drivetrain 4wd\ncar sports 2\nset drivetrain 4wd\nselect 2"))
        #expect(text.contains("\ncar \(name) 9\n"))
        let over = engine.evaluate("car \(name) 10\nsave -")
        #expect(over.results.isEmpty)
        #expect(
            over.diagnostics.map(\.message) == [
                "cannot save: stock line 4 would be a line longer than the limit of \(maximumLineLength) bytes"
            ])
    }

    @Test func random_hostile_sessions_save_and_replay_to_the_same_state() throws {
        var saved = 0
        var withFamilies = 0
        var longValues = 0
        for round in 0..<2_500 {
            let engine = Engine()
            var maker = SessionMaker(random: SplitMix(seed: 0x5EED_CA4F_AB &+ UInt64(round) &* 0x2545_F491_4F6C_DD1D))
            maker.make(in: engine, commands: 6 + round % 20)
            try checkRoundTrip(engine, round: round)
            saved += 1
            longValues += maker.longValues
            if engine.catalog.familyNames.count > 3 { withFamilies += 1 }
        }
        #expect(saved == 2_500)
        // Many sessions define families of their own (hostile names among them).
        #expect(withFamilies > 500, "\(withFamilies) sessions defined a family")
        // Some values are long enough that their quoted form needs more than one line.
        #expect(longValues > 5, "\(longValues) long values")
    }

    @Test func values_near_the_line_limit_are_saved_in_parts_that_rebuild_them() throws {
        // Quoting doubles a value of quotes: it no longer fits one line, so it is written as a
        // first part and parts added to it.
        for value in [
            String(repeating: "\"", count: 600_000), String(repeating: "é\u{1B}\"$", count: 100_000) + "x",
            String(repeating: "a", count: maximumLineLength - 10), String(repeating: "\u{301}", count: 300_000),
            // A byte that quotes to six (`\u{1B}`): 175 KB of them no longer fit one line.
            String(repeating: "\u{1B}", count: 175_000), String(repeating: "\u{7F}", count: 200_000),
            String(repeating: "\u{1B}\u{7F}\u{202E}\\", count: 60_000)
        ] {
            let engine = Engine()
            #expect(engine.setVariable("big", to: value))
            #expect(engine.setVariable("after", to: "x"))
            let script = try checkRoundTrip(engine, round: value.utf8.count)
            #expect(script.split(separator: "\n").allSatisfy { $0.utf8.count <= maximumLineLength })
        }
    }

    @Test func a_word_with_a_mark_on_a_quote_or_a_line_break_is_quoted() throws {
        // Each of these is one grapheme cluster that is not `"`, `#`, `;`, a blank or a line break.
        for value in [
            "x\"\u{301};echo INJECTED;save victim.txt;#", "a#\u{301}b", "a \u{301}b", "a;\u{301}b", "1\r\n2",
            "\u{202E}x", "\u{FEFF}", "\u{FFFE}", "line\u{2028}break", "\u{85}", "\\\u{301}"
        ] {
            let engine = Engine()
            #expect(engine.setVariable("note", to: value))
            engine.evaluate(
                "option drivetrain $note \"$note\" price 1 alias a$note; model m$note $note price 1 floorplan short suspension race drivetrain rear"
            )
            engine.evaluate("forbid drivetrain $note with floorplan long; car m$note; set drivetrain a$note")
            // Replaying printed nothing (no `echo` ran) and wrote nothing (no `save` ran): checkRoundTrip.
            try checkRoundTrip(engine, round: 0)
        }
    }

    @Test func a_car_whose_way_there_a_later_rule_blocks_is_saved() throws {
        // The compact gets a short floorplan only after it loses front drive; a rule added later
        // forbids the car on the way (standard floorplan with rear drive), not the car itself.
        let engine = Engine()
        let run = engine.evaluate(
            """
            car compact; set drivetrain rear; set floorplan short
            forbid drivetrain rear with floorplan standard
            """)
        #expect(run.diagnostics.isEmpty)
        let script = try checkRoundTrip(engine, round: 0)
        #expect(script.hasSuffix("forbid drivetrain rear with floorplan standard\ncar compact 1\nset floorplan short drivetrain rear\n"))
    }

    /// Saves `engine`'s session, replays it in a fresh engine and saves again: the states and
    /// the two scripts must be the same. Returns the script.
    @discardableResult
    func checkRoundTrip(_ engine: Engine, round: Int) throws -> String {
        let first = try savedScript(engine)
        // Files refused: an injected `save` or `source` would be an error here, not a write.
        var options = EngineOptions()
        options.fileAccess = .refused(by: "a replay in the tests")
        let replayed = Engine(options: options)
        let replay = replayed.evaluate(first, name: "saved")
        try #require(
            replay.diagnostics.isEmpty,
            "round \(round): replay failed: \(replay.diagnostics.map(\.message))\n\(first.prefix(2_000))")
        // A saved script only defines and builds: a command that prints (an injected `echo`) is an escape.
        #expect(replay.results.isEmpty, "round \(round): replaying printed \(replay.results.map(\.command))")
        #expect(SessionState(replayed) == SessionState(engine), "round \(round): a different state from\n\(first.prefix(2_000))")
        let second = try savedScript(replayed)
        #expect(first == second, "round \(round): the second save differs")
        return first
    }

    func savedScript(_ engine: Engine) throws -> String {
        let run = engine.evaluate("save -")
        try #require(run.diagnostics.isEmpty, "save failed: \(run.diagnostics.map(\.message))")
        guard case .text(let text)? = run.results.last?.result else {
            Issue.record("save - printed no text")
            return ""
        }
        return text + "\n"
    }
}

/// Everything `save` promises to keep, read through the public API.
private struct SessionState: Equatable {
    var variables: [String]
    var definitions: [String]
    var rules: Set<String>
    var currencies: [String]
    var stock: [String]
    var current: Int?

    init(_ engine: Engine) {
        variables = engine.variables.map { "\($0.name)=\($0.value)" }
        let catalog = engine.catalog
        definitions = []
        rules = []
        for definition in catalog.definitions.dropFirst(Engine.builtInCatalog.definitions.count) {
            switch definition {
            case .family(let f):
                definitions.append("family|\(f.name)|\(f.shownAs)|\(f.option)|\(f.optionShownAs)|\(f.listPrice.minorUnits)")
            case .option(let o):
                definitions.append(
                    "option|\(o.familyName)|\(o.name)|\(o.shownAs)|\(o.otherNames)|\(o.listPrice.minorUnits)|\(String(describing: o.seats))|\(String(describing: o.engine))"
                )
            case .model(let m):
                definitions.append(
                    "model|\(m.name)|\(m.carType)|\(m.basePrice.minorUnits)|\(m.floorplan)|\(m.suspension)|\(m.drivetrain)|\(m.others.map { "\($0.family) \($0.option)" })"
                )
            case .rule(let r):
                // The session's rules are saved after its stock: their order among the other definitions is not kept.
                rules.insert("\(r.kind)|\(r.first.familyName)|\(r.first.option)|\(r.second.familyName)|\(r.second.option)")
            case .currency(let c):
                definitions.append("currency|\(c.code)|\(c.symbol)|\(c.digits)|\(c.rate)")
            }
        }
        currencies = catalog.currencies.map { "\($0.code)|\($0.symbol)|\($0.digits)|\($0.rate)" }
        stock = engine.stock.lines.map { line in
            "\(line.count)|\(line.car.factory.model)|"
                + catalog.families.map { catalog.part(of: $0, on: line.car).name }.joined(separator: "|")
        }
        current = engine.stock.currentNumber
    }
}

/// A small, fast generator with a fixed seed: the same sessions on every run.
struct SplitMix {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}

/// Makes random sessions: definitions, rates, variables and stock, with names and values from
/// hostile alphabets, through variables (`option drivetrain $n0 ...`). Commands that fail are
/// part of the game: the state is whatever the others built.
struct SessionMaker {
    var random: SplitMix
    private var variable = 0
    /// How many values it made of a sixth of the line limit or more (a value may quote to six times its length).
    private(set) var longValues = 0
    private var options: [(family: String, reference: String)] = [
        ("floorplan", "short"), ("floorplan", "standard"), ("floorplan", "long"),
        ("suspension", "road"), ("suspension", "race"), ("suspension", "offroad"),
        ("drivetrain", "front"), ("drivetrain", "rear"), ("drivetrain", "4wd")
    ]
    private var models = ["compact", "sports", "suv"]
    /// The families, by reference: the book's three, then those the session defines.
    private var families = ["floorplan", "suspension", "drivetrain"]
    private var currencies = ["GBP", "EUR", "JPY"]

    init(random: SplitMix) { self.random = random }

    /// Pieces that are syntax, or hide syntax, or drive a terminal.
    static let hostile = [
        "a", "Z", "0", "_", "-", ".", "%", "!", "'", "~", "{", "}", "é", "日", "😀", " ", "  ", "\t", "\"", "\\", "$",
        "$x", "${x}", "\\$", "#", ";", "\u{301}", "\"\u{301}", "#\u{301}", ";\u{301}", " \u{301}", "\\\u{301}",
        "\r", "\n", "\r\n", "\u{1}", "\u{1B}[31m", "\u{7F}", "\u{85}", "\u{9B}", "\u{A0}", "\u{202E}", "\u{2066}",
        "\u{200B}", "\u{FEFF}", "\u{FFFE}", "\u{2028}", "\u{E000}", "\u{10FFFF}", "\\n", "\\u{41}"
    ]

    mutating func text(nonEmpty: Bool) -> String {
        var text = ""
        for _ in 0..<(random.below(6) + (nonEmpty ? 1 : 0)) { text += random.pick(Self.hostile) }
        return text
    }

    /// A new variable holding `value`; its reference.
    mutating func bind(_ value: String, in engine: Engine) -> String {
        variable += 1
        let name = "v\(variable)"
        _ = engine.setVariable(name, to: value)
        return "${\(name)}"
    }

    mutating func amount() -> String {
        random.pick(["0", "1", "12.5", "999.99", "27995", "0.01", "92233720368547758.07", "1000000"])
    }

    mutating func make(in engine: Engine, commands: Int) {
        for _ in 0..<commands {
            var line: String
            switch random.below(13) {
            case 12:
                // A family of its own (a hostile name), with its first option.
                let name = bind(text(nonEmpty: true), in: engine)
                let option = bind(text(nonEmpty: true), in: engine)
                line =
                    "family \(name) \(bind(text(nonEmpty: false), in: engine)) default \(option) \(bind(text(nonEmpty: false), in: engine))"
                if random.below(2) == 0 { line += " price \(amount())" }
                if engine.evaluate(line).diagnostics.isEmpty {
                    families.append(name)
                    options.append((name, option))
                }
                continue
            case 0:
                let family = random.pick(families)
                let name = bind(text(nonEmpty: true), in: engine)
                line = "option \(family) \(name) \(bind(text(nonEmpty: false), in: engine)) price \(amount())"
                if family == "floorplan" { line += " seats \(random.below(99) + 1) engine \(random.pick(["front", "mid", "rear"]))" }
                if random.below(2) == 0 { line += " alias \(bind(text(nonEmpty: true), in: engine))" }
                if engine.evaluate(line).diagnostics.isEmpty { options.append((family, name)) }
                continue
            case 1:
                let name = bind(text(nonEmpty: true), in: engine)
                // The book's three, then some defined families (the rest take their first options).
                let named = families.prefix(3) + families.dropFirst(3).filter { _ in random.below(2) == 0 }
                let parts = named.map { family in
                    "\(family) \(random.pick(options.filter { $0.family == family }).reference)"
                }
                line = "model \(name) \(bind(text(nonEmpty: false), in: engine)) price \(amount()) " + parts.joined(separator: " ")
                if engine.evaluate(line).diagnostics.isEmpty { models.append(name) }
                continue
            case 2:
                let first = random.pick(options)
                let second = random.pick(options)
                line = "\(random.pick(["forbid", "require"])) \(first.family) \(first.reference) with \(second.family) \(second.reference)"
            case 3:
                let code = String((0..<3).map { _ in random.pick(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")) })
                line =
                    "currency \(code) \(bind(text(nonEmpty: false), in: engine)) digits \(random.below(5)) rate \(random.pick(["1", "0.5", "151.5", "0.000001", "12345.6789"]))"
                if engine.evaluate(line).diagnostics.isEmpty { currencies.append(code) }
                continue
            case 4:
                line = "rate \(random.pick(currencies)) \(random.pick(["0.60338", "2", "0.0001", "99999"]))"
            case 5:
                // Now and then a long value (up to 320 KB) of hostile pieces, which quotes to
                // more than one line can hold.
                var value = text(nonEmpty: false)
                if random.below(60) == 0 { value = String(repeating: value, count: 1 + random.below(80_000)) }
                if value.utf8.count > maximumLineLength / 6 && value.utf8.count <= maximumLineLength { longValues += 1 }
                _ = bind(value, in: engine)
                continue
            case 6, 7:
                line = "car \(random.pick(models)) \(random.pick(["1", "2", "9223372036854775807", "40"]))"
            case 8, 9:
                let option = random.pick(options)
                line = "set \(option.family) \(option.reference)"
            case 10:
                line = random.pick(["select 1", "select 2", "remove", "remove 1", "clear", "car nosuchmodel"])
            default:
                line = "set drivetrain \(bind(text(nonEmpty: true), in: engine))"
            }
            engine.evaluate(line)
        }
    }
}
