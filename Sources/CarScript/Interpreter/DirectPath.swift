import CarFactory

// The direct path: the command shapes a script is mostly made of (`car MODEL [COUNT]`,
// `set FAMILY OPTION`, `price`/`total [CURRENCY]`, `echo`, `show`, `clear`) are run straight
// from the line's tokens, without the general resolver, argument block or invocation. It
// only ever takes well-formed commands that succeed: anything else (a wrong word, a count
// out of range, a rule broken, no current car) returns false before changing anything,
// and the general path runs the command and reports exactly what it always reports.

/// A command the direct path knows.
enum DirectCommand {
    case car, set, price, total, echo, show, clear

    init?(name: String) {
        switch name {
        case "car": self = .car
        case "set": self = .set
        case "price": self = .price
        case "total": self = .total
        case "echo": self = .echo
        case "show": self = .show
        case "clear": self = .clear
        default: return nil
        }
    }
}

/// What a sink may take straight from the engine, without results made as values first:
/// carfab's text renderer writes these into its output buffer as they come.
package protocol DirectTextSink: ResultSink {
    /// `price`: an amount alone on its line.
    func writeAmount(_ minorUnits: Int64, _ valuation: CurrencyValuation)
    /// `total`: the count and value line.
    func writeTotal(count: Int64, value: Int64, _ valuation: CurrencyValuation)
    /// `echo`: the words, already joined by single spaces.
    func writeWords(_ text: UnsafeBufferPointer<UInt8>)
    /// `show`: a car in the book's format.
    func writeCar(_ car: Car)
}

extension Session {
    /// Runs the command of `words` directly if it is a well-formed one of `command` that
    /// succeeds; false (having changed nothing) otherwise.
    @inline(__always)
    func runDirectly(_ command: DirectCommand, _ words: Range<Int>, lexer: Lexer, spec: Unmanaged<CommandSpec>) -> Bool {
        let tokens = lexer.tokens
        let first = words.lowerBound + 1
        let arguments = words.count - 1
        switch command {
        case .car:
            guard arguments == 1 || arguments == 2,
                  let model = index.models.lookup(lexer.word(tokens[first])) else { return false }
            var count: Int64 = 1
            if arguments == 2 {
                guard let given = Self.count(lexer.bytes(tokens[first + 1])) else { return false }
                count = given
            }
            return (try? stock.add(defaultsOf: index.factories[model], count: count, rules: index.rules)) != nil
        case .set:
            guard arguments == 2, let family = CatalogIndex.families.lookup(lexer.word(tokens[first])) else { return false }
            guard let option = index.option(lexer.word(tokens[first + 1]), family: family) else { return false }
            return (try? stock.setCurrent(index.parts(family)[option], rules: index.rules)) != nil
        case .price, .total:
            guard arguments <= 1 else { return false }
            var valuation = index.base
            if arguments == 1 {
                guard let position = index.currencies.lookup(lexer.word(tokens[first])) else { return false }
                valuation = index.valuations[position]
            }
            if command == .total {
                guard let value = try? valuation.converter.convertMinorUnits(stock.valueMinorUnits) else { return false }
                if let direct = directSink {
                    direct.writeTotal(count: stock.carCount, value: value, valuation)
                } else {
                    spec.borrow { sink.receive(.total(count: stock.carCount, value: value, valuation), from: $0) }
                }
            } else {
                guard let unit = try? stock.currentPriceMinorUnits(),
                      let price = try? valuation.converter.convertMinorUnits(unit) else { return false }
                if let direct = directSink {
                    direct.writeAmount(price, valuation)
                } else {
                    spec.borrow { sink.receive(.amount(price, valuation), from: $0) }
                }
            }
            return true
        case .echo:
            guard let direct = directSink else { return false }
            // The words joined in a scratch buffer, handed over while they last.
            scratch.removeAll()
            for token in first..<words.upperBound {
                if token > first { scratch.append(0x20) }
                scratch.append(lexer.bytes(tokens[token]))
            }
            direct.writeWords(scratch.bytes)
            return true
        case .show:
            guard arguments == 0, let line = try? stock.currentLine() else { return false }
            if let direct = directSink {
                direct.writeCar(line.car)
            } else {
                spec.borrow { sink.receive(.car(line.car), from: $0) }
            }
            return true
        case .clear:
            guard arguments == 0 else { return false }
            stock.clear()
            return true
        }
    }

    /// A count as `car` takes it: decimal digits, from 1, within 64 bits.
    private static func count(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard !bytes.isEmpty else { return nil }
        var value: Int64 = 0
        for byte in bytes {
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = times10.addingReportingOverflow(Int64(byte &- 0x30))
            if o1 || o2 { return nil }
            value = next
        }
        return value >= 1 ? value : nil
    }
}
