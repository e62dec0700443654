import CarFactory

/// The script `save` writes: replayed in a new session, it rebuilds the same state.
enum SessionScript {
    static func text(of session: Session) throws(ScriptError.Kind) -> String {
        var lines = ["# carfab session, saved by carfab \(Program.version)"]
        for currency in session.catalog.currencies where currency.code != Currency.base.code {
            if session.initialRates[currency.code] != currency.rate {
                lines.append("rate \(currency.code) \(currency.rate)")
            }
        }
        for line in session.stock.lines {
            lines.append("car \(word(line.car.factory.model)) \(line.count)")
            guard let steps = session.catalog.changes(toReach: line.car) else {
                throw .io("cannot save: no sequence of 'set' commands rebuilds stock line \(lines.count)")
            }
            for part in steps { lines.append("set \(part.family) \(word(part.name))") }
        }
        if let current = session.stock.currentNumber, current != session.stock.lines.count {
            lines.append("select \(current)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `name` as a script word: bare if it can be, else quoted with escapes.
    static func word(_ name: String) -> String {
        let special: Set<Character> = [" ", "\t", ";", "#", "\"", "\\", "\n", "\r"]
        if !name.isEmpty && !name.contains(where: special.contains) { return name }
        var quoted = "\""
        for character in name {
            switch character {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\t": quoted += "\\t"
            default: quoted.append(character)
            }
        }
        return quoted + "\""
    }
}
