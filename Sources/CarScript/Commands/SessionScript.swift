import CarFactory

/// The script `save` writes: replayed in a new session, it rebuilds the same state, and saved
/// again it is the same script, byte for byte.
///
/// Every name and value in it goes through `word` or `quoted`, the lexer's rules run
/// backwards; a state that cannot be written so that it reads back the same is refused,
/// never written.
package enum SessionScript {
    /// The script; `minimal` (`save --minimal`, Kconfig's savedefconfig) leaves out what replay
    /// would do anyway: the heading comment, and each count of 1. (Definitions are written as
    /// they were made, a later rate as a `rate`: replayed, the minimal script must save to the
    /// same bytes as the session it came from, and the definitions are what `save` writes.)
    static func text(of session: Session, minimal: Bool = false) throws(ScriptError.Kind) -> String {
        var head: [UInt8] = []
        func add(_ line: String, to bytes: inout [UInt8]) {
            bytes.append(contentsOf: line.utf8)
            bytes.append(0x0A)
        }
        if !minimal { add("# carfab session, saved by carfab \(Engine.version)", to: &head) }
        for name in session.variableNames {
            for line in try variableLines(name, session.variables[name] ?? "") { add(line, to: &head) }
        }
        for definition in session.definitions {
            let line =
                switch definition {
                case .family(let family): try fitting(Self.definition(of: family), "family '\(family.name)'")
                case .option(let option): try fitting(Self.definition(of: option), "option '\(option.name)'")
                case .model(let model): try fitting(Self.definition(of: model), "model '\(model.name)'")
                case .rule(let rule): try fitting(Self.definition(of: rule), "a rule on '\(rule.first.option)'")
                case .currency(let currency): try fitting(Self.definition(of: currency), "currency \(currency.code)")
                }
            add(line, to: &head)
        }
        // A rate is written if it changed since the session began, or since its currency was defined in it.
        // (Currencies defined in the session follow the initial ones, in the order defined.)
        var rates = session.initialRates
        for case .currency(let currency) in session.definitions { rates.append(currency.rate) }
        for (currency, rate) in zip(session.catalog.currencies, rates) where currency.code != Currency.base.code {
            if rate != currency.rate {
                add("rate \(word(currency.code)) \(currency.rate)", to: &head)
            }
        }
        var tail: [UInt8] = []
        if let current = session.stock.currentNumber, current != session.stock.lineCount {
            add("select \(current)", to: &tail)
        }
        // The stock is measured first, so that the script is made once, at its size: saving
        // a large stock takes memory for the script's text and little more.
        let stock = StockText(session.stock, catalog: session.catalog, minimal: minimal, stop: session.stop)
        let stockLength = try stock.measure()
        let length = head.count + stockLength + tail.count
        return String(unsafeUninitializedCapacity: length) { buffer in
            var position = 0
            for byte in head {
                buffer[position] = byte
                position += 1
            }
            position = stock.write(into: buffer, at: position)
            for byte in tail {
                buffer[position] = byte
                position += 1
            }
            return position
        }
    }

    /// Each stock line as `car MODEL COUNT`, then a `set` of every part that differs from the
    /// model's defaults, in one step: only the finished car must keep the rules, and a rule
    /// added after a car was built may forbid every car on the way to it one part at a time.
    /// A configuration's two pieces of text are made once, by its id, and copied for each line
    /// that holds it: a stock of a million lines is written at a few hundred instructions a line.
    private final class StockText {
        let stock: StockLedger
        let catalog: Catalog
        /// Whether a count of 1 is left out (`car sports`, not `car sports 1`).
        let minimal: Bool
        /// Looked at every 4,096 lines while they are measured, where a configuration's text is
        /// made: a stop ends a long save there, as it ends `list` between rows (a save of
        /// 50,000 wide cars went on 9-18 s after SIGINT or SIGTERM; trial 11, 1).
        let stop: StopRequest
        var made: [(car: [UInt8], set: [UInt8])?]

        init(_ stock: StockLedger, catalog: Catalog, minimal: Bool, stop: StopRequest) {
            self.stock = stock
            self.catalog = catalog
            self.minimal = minimal
            self.stop = stop
            made = Array(repeating: nil, count: stock.configurationCount)
        }

        /// The text of configuration `id`, made the first time.
        func text(_ id: Int32) -> (car: [UInt8], set: [UInt8]) {
            if let known = made[Int(id)] { return known }
            let car = Car(configuration: stock.configuration(id))
            let catalog = self.catalog
            let pairs = zip(catalog.families, catalog.parts(on: car)).compactMap { family, part in
                part === catalog.defaultPart(of: family, for: car.factory)
                    ? nil : "\(word(catalog.name(of: family))) \(word(part.name))"
            }
            let text = (
                Array("car \(word(car.factory.model)) ".utf8),
                pairs.isEmpty ? [] : Array(("set " + pairs.joined(separator: " ")).utf8)
            )
            made[Int(id)] = text
            return text
        }

        /// How many bytes the lines take; throws for the first line that would be too long, and
        /// `.reported` when a stop is asked for (the stop says it all).
        func measure() throws(ScriptError.Kind) -> Int {
            var length = 0
            for number in stride(from: 1, through: stock.lineCount, by: 1) {
                if number & 4095 == 0 && stop.isRequested { throw .reported }
                let (id, count) = stock.entry(number)
                let text = text(id)
                let carLine = minimal && count == 1 ? text.car.count - 1 : text.car.count + SessionScript.digits(count)
                guard carLine <= maximumLineLength && text.set.count <= maximumLineLength else {
                    throw lineTooLong("stock line \(number)")
                }
                length += carLine + 1 + (text.set.isEmpty ? 0 : text.set.count + 1)
            }
            return length
        }

        /// Writes the lines (measured first) into `buffer` from `position`; returns where they end.
        func write(into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
            var position = start
            func put(_ bytes: [UInt8]) {
                for byte in bytes {
                    buffer[position] = byte
                    position += 1
                }
            }
            for number in stride(from: 1, through: stock.lineCount, by: 1) {
                let (id, count) = stock.entry(number)
                let text = text(id)
                if minimal && count == 1 {
                    // `car MODEL ` without its blank.
                    put(text.car)
                    buffer[position - 1] = 0x0A
                    if !text.set.isEmpty {
                        put(text.set)
                        buffer[position] = 0x0A
                        position += 1
                    }
                    continue
                }
                put(text.car)
                var rest = count.magnitude
                let digits = SessionScript.digits(count)
                for offset in stride(from: digits - 1, through: 0, by: -1) {
                    buffer[position + offset] = UInt8(truncatingIfNeeded: rest % 10) &+ 0x30
                    rest /= 10
                }
                position += digits
                buffer[position] = 0x0A
                position += 1
                if !text.set.isEmpty {
                    put(text.set)
                    buffer[position] = 0x0A
                    position += 1
                }
            }
            return position
        }
    }

    /// How many decimal digits a count takes (counts are positive).
    static func digits(_ value: Int64) -> Int {
        var rest = value.magnitude
        var digits = 1
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        return digits
    }

    /// `line`, if it is short enough to be read back; else why it cannot be saved. The language
    /// never gets here: it bounds every name by what this script writes for it
    /// (`maximumNameLength`) and an option's line whole, so every line fits; only a catalog an
    /// embedding program defines in Swift, with longer names, can hold one that does not.
    private static func fitting(_ line: String, _ what: @autoclosure () -> String) throws(ScriptError.Kind) -> String {
        guard line.utf8.count <= maximumLineLength else { throw lineTooLong(what()) }
        return line
    }

    private static func lineTooLong(_ what: String) -> ScriptError.Kind {
        .io("cannot save: \(ScriptError.shown(what)) would be a line longer than the limit of \(maximumLineLength) bytes")
    }

    /// `var NAME VALUE`, or for a value too long to be quoted on one line, a `var` with its
    /// first part and more that each add a part (`var NAME "${NAME}..."`).
    static func variableLines(_ name: String, _ value: String) throws(ScriptError.Kind) -> [String] {
        let line = "var \(word(name)) \(word(value))"
        if line.utf8.count <= maximumLineLength { return [line] }
        // Parts are cut by their quoted length, not their own: an escape is up to 10 bytes
        // for a scalar of 1 to 4 (`\u{1B}` for one byte), so no ratio of raw bytes is safe.
        let partLength = maximumLineLength / 2
        guard name.utf8.count < partLength else { return [try fitting(line, "variable '\(name)'")] }
        var lines: [String] = []
        var part = ""
        var partBytes = 0
        func flush() throws(ScriptError.Kind) {
            let reference = lines.isEmpty ? "" : "${\(name)}"
            lines.append(try fitting("var \(name) \"\(reference)\(part)\"", "variable '\(name)'"))
            part = ""
            partBytes = 0
        }
        for scalar in value.unicodeScalars {
            let escape = self.escape(scalar)
            let length = escape?.utf8.count ?? UTF8.width(scalar)
            if partBytes + length > partLength { try flush() }
            if let escape { part += escape } else { part.unicodeScalars.append(scalar) }
            partBytes += length
        }
        if partBytes > 0 { try flush() }
        return lines
    }

    /// `option drivetrain hybrid "Hybrid AWD" price 6500 alias electric`.
    static func definition(of option: OptionDefinition) -> String {
        var words = ["option", word(option.familyName), word(option.name), quoted(option.shownAs), "price", amount(option.listPrice)]
        if let seats = option.seats { words += ["seats", String(seats)] }
        if let engine = option.engine { words += ["engine", nameKey(engine.rawValue)] }
        for name in option.otherNames { words.append(aliasText(name)) }
        return words.joined(separator: " ")
    }

    /// `alias NAME`, one of an option's other names in its line.
    static func aliasText(_ name: String) -> String { "alias " + word(name) }

    /// Whether `save` writes `text` in at most `limit` bytes: in quotes (`quoted`, as a shown-as
    /// text, a car type, a symbol), or as a name (`word`: bare where it may stand so). A text
    /// of at most (limit - 2) / 6 bytes is not counted, as no byte is written as more than 6
    /// (`\u{7F}` for one; a scalar of 2 to 4 bytes at most 7 to 10): the built-in catalog's
    /// definitions are checked at every start.
    static func writes(_ text: String, quoted: Bool, within limit: Int) -> Bool {
        text.utf8.count <= (limit - 2) / 6 || savedLength(of: text, quoted: quoted) <= limit
    }

    /// How many bytes `save` writes for `text`, in quotes or (not `quoted`) as `word` writes it.
    private static func savedLength(of text: String, quoted: Bool) -> Int {
        if !quoted && standsBare(text) { return text.utf8.count }
        var length = 2
        for scalar in text.unicodeScalars { length += escape(scalar)?.utf8.count ?? UTF8.width(scalar) }
        return length
    }

    /// `model roadster "Mazda MX-5" price 31000 floorplan short suspension race drivetrain rear`.
    static func definition(of model: ModelDefinition) -> String {
        [
            "model", word(model.name), quoted(model.carType), "price", amount(model.basePrice),
            "floorplan", word(model.floorplan), "suspension", word(model.suspension), "drivetrain", word(model.drivetrain)
        ]
        .joined(separator: " ") + model.others.map { " \(word($0.family)) \(word($0.option))" }.joined()
    }

    /// `family paint "Paint" default white "White" price 0`.
    static func definition(of family: FamilyDefinition) -> String {
        [
            "family", word(family.name), quoted(family.shownAs), "default", word(family.option), quoted(family.optionShownAs),
            "price", amount(family.listPrice)
        ].joined(separator: " ")
    }

    /// `forbid suspension race with floorplan long`, `require drivetrain 4wd with floorplan long`.
    static func definition(of rule: Rule) -> String {
        "\(rule.kind.rawValue) \(word(rule.first.familyName)) \(word(rule.first.option)) with \(word(rule.second.familyName)) \(word(rule.second.option))"
    }

    /// `currency CHF "CHF " digits 2 rate 0.88`.
    static func definition(of currency: Currency) -> String {
        "currency \(word(currency.code)) \(quoted(currency.symbol)) digits \(currency.digits) rate \(currency.rate)"
    }

    /// An amount of the base currency as a plain decimal: `6500`, `27995.5`.
    static func amount(_ money: Money) -> String {
        DecimalNumber(significand: money.minorUnits, scale: money.currency.digits).normalized.description
    }

    /// `name` as one script word that the lexer reads back as exactly `name`: bare where every
    /// scalar may stand in a bare word with no meaning of its own, else quoted.
    ///
    /// Decided per Unicode scalar, as the lexer reads bytes: never per `Character`, whose
    /// grapheme clusters hide a `"`, `#` or line break behind a combining mark (`"` + U+0301
    /// is one `Character`, and not `"`).
    package static func word(_ name: String) -> String {
        standsBare(name) ? name : quoted(name)
    }

    /// Whether `word` writes `name` bare: it is not empty and every scalar may stand so.
    private static func standsBare(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy(standsBare)
    }

    /// `text` quoted, with escapes for the lexer's syntax (`"`, `\`, `$`) and for every scalar a
    /// terminal would obey or hide or a reader could mistake for a line break (controls, bidi
    /// and other format characters, line and paragraph separators, noncharacters): the set
    /// messages and tables show escaped too (`DisplayText.isHidden`).
    static func quoted(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            if let escape = escape(scalar) { quoted += escape } else { quoted.unicodeScalars.append(scalar) }
        }
        return quoted + "\""
    }

    /// What `quoted` writes for `scalar` inside the quotes, or nil where it stands as itself.
    private static func escape(_ scalar: Unicode.Scalar) -> String? {
        switch scalar {
        case "\"": "\\\""
        case "\\": "\\\\"
        case "$": "\\$"
        case "\n": "\\n"
        case "\t": "\\t"
        case "\r": "\\r"
        default: DisplayText.isHidden(scalar) ? "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}" : nil
        }
    }

    /// Whether `scalar` may stand in a bare word and mean only itself: the ASCII the lexer
    /// copies without a look (`%` to `~` but `;` and `\`), or a visible non-ASCII scalar
    /// that is not a blank.
    private static func standsBare(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x25...0x7E: scalar != ";" && scalar != "\\"
        case 0..<0x80: false
        default: !DisplayText.isHidden(scalar) && scalar.properties.generalCategory != .spaceSeparator
        }
    }

}
