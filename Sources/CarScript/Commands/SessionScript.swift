import CarFactory

/// The script `save` writes: replayed in a new session, it rebuilds the same state.
enum SessionScript {
    static func text(of session: Session) throws(ScriptError.Kind) -> String {
        var lines = ["# carfab session, saved by carfab \(Engine.version)"]
        for name in session.variableNames { lines.append("var \(name) \(word(session.variables[name] ?? ""))") }
        for definition in session.definitions {
            switch definition {
            case .option(let option): lines.append(Self.definition(of: option))
            case .model(let model): lines.append(Self.definition(of: model))
            case .rule(let rule): lines.append(rule.description)
            case .currency(let currency): lines.append(Self.definition(of: currency))
            }
        }
        // A rate is written if it changed since the session began, or since its currency was defined in it.
        // (Currencies defined in the session follow the initial ones, in the order defined.)
        var rates = session.initialRates
        for case .currency(let currency) in session.definitions { rates.append(currency.rate) }
        for (currency, rate) in zip(session.catalog.currencies, rates) where currency.code != Currency.base.code {
            if rate != currency.rate {
                lines.append("rate \(currency.code) \(currency.rate)")
            }
        }
        let stock = session.stock
        for number in stride(from: 1, through: stock.lineCount, by: 1) {
            guard let line = try? stock.line(number) else { break }
            lines.append("car \(word(line.car.factory.model)) \(line.count)")
            guard let steps = session.catalog.changes(toReach: line.car) else {
                throw .io("cannot save: no sequence of 'set' commands rebuilds stock line \(number)")
            }
            for part in steps { lines.append("set \(part.family) \(word(part.name))") }
        }
        if let current = session.stock.currentNumber, current != stock.lineCount {
            lines.append("select \(current)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `option drivetrain hybrid "Hybrid AWD" price 6500 alias electric`.
    static func definition(of option: OptionDefinition) -> String {
        var words = ["option", option.family.rawValue, word(option.name), quoted(option.shownAs), "price", amount(option.listPrice)]
        if let seats = option.seats { words += ["seats", String(seats)] }
        if let engine = option.engine { words += ["engine", nameKey(engine.rawValue)] }
        for name in option.otherNames { words += ["alias", word(name)] }
        return words.joined(separator: " ")
    }

    /// `model roadster "Mazda MX-5" price 31000 floorplan short suspension race drivetrain rear`.
    static func definition(of model: ModelDefinition) -> String {
        ["model", word(model.name), quoted(model.carType), "price", amount(model.basePrice),
         "floorplan", word(model.floorplan), "suspension", word(model.suspension), "drivetrain", word(model.drivetrain)]
            .joined(separator: " ")
    }

    /// `currency CHF "CHF " digits 2 rate 0.88`.
    static func definition(of currency: Currency) -> String {
        "currency \(currency.code) \(quoted(currency.symbol)) digits \(currency.digits) rate \(currency.rate)"
    }

    /// An amount of the base currency as a plain decimal: `6500`, `27995.5`.
    static func amount(_ money: Money) -> String {
        DecimalNumber(significand: money.minorUnits, scale: money.currency.digits).normalized.description
    }

    /// `name` as a script word: bare if it can be, else quoted with escapes.
    static func word(_ name: String) -> String {
        // Every byte the lexer reads as a blank (VT and FF too) or as syntax makes a name quoted.
        let special: Set<Character> = [" ", "\t", ";", "#", "\"", "\\", "\n", "\r", "$", "\u{0B}", "\u{0C}"]
        if !name.isEmpty && !name.contains(where: special.contains) { return name }
        return quoted(name)
    }

    /// `text` quoted, with escapes.
    static func quoted(_ text: String) -> String {
        var quoted = "\""
        for character in text {
            switch character {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "$": quoted += "\\$"
            case "\n": quoted += "\\n"
            case "\t": quoted += "\\t"
            default: quoted.append(character)
            }
        }
        return quoted + "\""
    }
}
