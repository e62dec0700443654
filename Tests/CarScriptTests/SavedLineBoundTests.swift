import CarScript
import Testing

/// Every state the language can make can be saved (trial 9's finding 3): a name or text of a
/// definition, and a variable's name, is bounded by what `save` writes for it (quotes and
/// escapes counted), so that no line `save` writes can pass a logical line, and an option
/// whose line would pass it (its aliases are not counted) is refused where it is defined.
@Suite struct SavedLineBoundTests {
    static let limit = maximumNameLength

    /// A name that `save` writes quoted in exactly `length` bytes: `prefix` (plain ASCII), then
    /// U+0001s (`\u{1}`, 5 bytes each) and `a`s to make up the rest.
    static func escaped(_ prefix: String, savedLength length: Int) -> String {
        let room = length - 2 - prefix.utf8.count
        return prefix + String(repeating: "\u{1}", count: room / 5) + String(repeating: "a", count: room % 5)
    }

    /// Each word a definition keeps, at the limit as `save` writes it and one byte past it: the
    /// first is defined, the second refused with `name-too-long` at that word, changing nothing.
    @Test(arguments: [
        ("model $w \"M\" price 9000 floorplan short suspension race drivetrain rear", 7),
        ("model w \"$w\" price 9000 floorplan short suspension race drivetrain rear", 9),
        ("family $w \"F\" default o \"O\"", 8),
        ("family f \"$w\" default o \"O\"", 10),
        ("family f \"F\" default $w \"O\"", 22),
        ("family f \"F\" default o \"$w\"", 24),
        ("option drivetrain $w \"O\" price 0", 19),
        ("option drivetrain o \"$w\" price 0", 21),
        ("option drivetrain o \"O\" price 0 alias $w", 39),
        ("currency QQQ \"Q$w\" digits 2 rate 1", 14)
    ])
    func a_name_at_the_limit_as_saved_is_defined_and_one_byte_more_refused(line: String, column: Int) throws {
        let engine = Engine()
        // Shown-as texts, car types and symbols are always quoted; names here are too (they hold controls).
        let symbol = line.contains("\"Q$w\"")
        engine.setVariable("w", to: Self.escaped(symbol ? "" : "w", savedLength: Self.limit - (symbol ? 1 : 0)))
        let fits = engine.evaluate(line)
        #expect(fits.diagnostics.map(\.message) == [], "\(line)")
        let engineOver = Engine()
        engineOver.setVariable("w", to: Self.escaped(symbol ? "" : "w", savedLength: Self.limit + 1 - (symbol ? 1 : 0)))
        let over = engineOver.evaluate(line)
        #expect(over.diagnostics.map(\.id) == ["name-too-long"], "\(line)")
        #expect(over.diagnostics.map(\.column) == [column], "\(line)")
        #expect(
            over.diagnostics.first?.message
                == "a name or text longer than 4 KiB (4096 bytes) as save writes it (quotes and escapes counted: \\u{1} is 5 bytes for one character)"
        )
        // Nothing was defined.
        #expect(engineOver.catalog.definitions.count == Engine().catalog.definitions.count)
    }

    @Test func a_variables_name_at_the_limit_is_set_and_one_byte_more_refused() throws {
        let engine = Engine()
        let name = "v" + String(repeating: "x", count: Self.limit - 1)
        #expect(engine.setVariable(name, to: "1"))
        #expect(!engine.setVariable(name + "x", to: "1"))
        let over = engine.evaluate("var \(name)x 2")
        #expect(over.diagnostics.map(\.id) == ["name-too-long"])
        #expect(over.diagnostics.map(\.column) == [5])
        #expect(engine.variables.map(\.name) == [name])
    }

    /// A catalog at every bound at once: 64 families, every name and text at the limit as
    /// saved, a model naming an option of each, a stock line setting them all, an option of as
    /// many aliases as its line holds (exactly 1 MiB as saved), a rule, a currency and its
    /// rate, and a variable of the longest name and value. It saves, replays to the same state
    /// and saves to the same bytes; no line passes the limit. One alias more is refused.
    @Test func a_catalog_at_every_limit_saves_and_replays_to_the_same_script() throws {
        let engine = Engine()
        var count = 0
        /// A fresh variable holding a name of `savedLength` bytes as saved; its reference.
        func name(_ savedLength: Int = Self.limit) -> String {
            count += 1
            engine.setVariable("n\(count)", to: Self.escaped("n\(count)-", savedLength: savedLength))
            return "$n\(count)"
        }
        func run(_ line: String) {
            let run = engine.evaluate(line)
            #expect(run.diagnostics.map(\.message) == [], "\(line.prefix(200))")
        }
        // Two options of each built-in family (the model's and the car's), then 61 families of two.
        var families: [(family: String, model: String, car: String)] = []
        for family in ["floorplan", "suspension", "drivetrain"] {
            let (first, second) = (name(), name())
            let layout = family == "floorplan" ? " seats 2 engine mid" : ""
            run("option \(family) \(first) \(name()) price 0\(layout); option \(family) \(second) \(name()) price 0\(layout)")
            families.append((family, first, second))
        }
        for _ in 3..<64 {
            let (family, first, second) = (name(), name(), name())
            run("family \(family) \(name()) default \(first) \(name()) price 0; option \(family) \(second) \(name()) price 0")
            families.append((family, second, first))
        }
        let model = name()
        let defaults = families.map { "\($0.family) \($0.model)" }
        run(
            "model \(model) \(name()) price 0 floorplan \(families[0].model) suspension \(families[1].model) drivetrain \(families[2].model) "
                + defaults.dropFirst(3).joined(separator: " "))
        run("car \(model) 999999999999999999; set " + families.map { "\($0.family) \($0.car)" }.joined(separator: " "))
        // An option of family 3 with aliases up to exactly a line as saved: 17 bytes of words and
        // blanks and 3 names (`option F N "S" price 0`), then ` alias NAME` (7 bytes and a name) each.
        let fixed = 17 + 3 * Self.limit
        let full = (maximumLineLength - fixed) / (7 + Self.limit)
        let last = maximumLineLength - fixed - full * (7 + Self.limit) - 7
        let aliases = (0..<full).map { _ in " alias \(name())" }.joined() + " alias \(name(last))"
        let option = name()
        let head = "option \(families[3].family) \(option) \(name()) price 0"
        let tooMany = engine.evaluate(head + aliases + " alias b")
        #expect(tooMany.diagnostics.map(\.id) == ["definition-too-long"])
        #expect(tooMany.diagnostics.map(\.column) == [head.utf8.count + aliases.utf8.count + 8])
        run(head + aliases)
        run("forbid \(families[3].family) \(option) with \(families[4].family) \(families[4].model)")
        run("currency QQQ \"Q\(name(Self.limit - 1))\" digits 4 rate 2; rate QQQ 3; car sports; select 1")
        #expect(engine.setVariable("v" + String(repeating: "x", count: Self.limit - 1), to: String(repeating: "\u{1}", count: 1 << 20)))
        let script = try SaveRoundTripTests().checkRoundTrip(engine, round: 0)
        let lines = script.utf8.split(separator: 0x0A)
        #expect(lines.allSatisfy { $0.count <= maximumLineLength })
        // The option's line is exactly as long as a line may be; the model's and the stock line's are the longest others.
        #expect(lines.filter { $0.count == maximumLineLength }.count == 1)
        let longest = lines.map(\.count).filter { $0 < maximumLineLength }.max() ?? 0
        #expect(longest < maximumLineLength / 2 + 20_000, "\(longest)")
    }
}
