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
    /// `price`: an amount alone on its line, in `valuation`'s currency (borrowed: the engine keeps it).
    func writeAmount(_ minorUnits: Int64, _ valuation: Unmanaged<CurrencyValuation>)
    /// `total`: the count and value line.
    func writeTotal(count: Int64, value: Int64, _ valuation: Unmanaged<CurrencyValuation>)
    /// `echo`: the words, already joined by single spaces.
    func writeWords(_ text: UnsafeBufferPointer<UInt8>)
    /// `show`'s text for `car`: the engine keeps it, to write it with `writeText` each time
    /// the same configuration is shown.
    func carText(_ car: Car) -> [UInt8]
    /// Text this sink made earlier (`carText`), written as it is.
    func writeText(_ text: UnsafeBufferPointer<UInt8>)
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
            validateConfigurations()
            var known = configurations.knownDefault(model)
            if known.id < 0 {
                guard known.id == ConfigurationCache.Known.unknown.id, let learned = learnDefault(of: model) else { return false }
                known = learned
            }
            return (try? stock.add(configuration: known.id, price: known.price, count: count)) != nil
        case .set:
            guard arguments == 2, let family = index.families.lookup(lexer.word(tokens[first])),
                  let option = index.option(lexer.word(tokens[first + 1]), family: family),
                  let current = stock.currentConfiguration,
                  let key = TransitionTable.key(current, family: family, option: option) else { return false }
            validateConfigurations()
            var known = configurations.transitions.outcome(key)
            if known.id < 0 {
                guard known.id == ConfigurationCache.Known.unknown.id,
                      let learned = learnChange(of: current, to: option, of: family, key: key) else { return false }
                known = learned
            }
            return (try? stock.replaceCurrent(configuration: known.id, price: known.price)) != nil
        case .price, .total:
            guard arguments <= 1 else { return false }
            var position = 0
            if arguments == 1 {
                guard let named = index.currencies.lookup(lexer.word(tokens[first])) else { return false }
                position = named
            }
            let valuation = index.borrowedValuations[position]
            if command == .total {
                let count = stock.carCount
                let base = stock.valueMinorUnits
                guard let value = valuation.borrow({ try? $0.converter.convertMinorUnits(base) }) else { return false }
                if let direct = directSink {
                    direct.writeTotal(count: count, value: value, valuation)
                } else {
                    valuation.borrow { valuation in
                        spec.borrow { sink.receive(.total(count: count, value: value, valuation), from: $0) }
                    }
                }
            } else {
                guard let unit = try? stock.currentPriceMinorUnits(),
                      let price = valuation.borrow({ try? $0.converter.convertMinorUnits(unit) }) else { return false }
                if let direct = directSink {
                    direct.writeAmount(price, valuation)
                } else {
                    valuation.borrow { valuation in spec.borrow { sink.receive(.amount(price, valuation), from: $0) } }
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
            guard arguments == 0, let current = stock.currentConfiguration else { return false }
            guard let direct = directSink else {
                let car = Car(configuration: stock.configuration(current))
                spec.borrow { sink.receive(.car(car), from: $0) }
                return true
            }
            validateConfigurations()
            if let span = configurations.shownSpan(current) {
                direct.writeText(configurations.text(span))
            } else {
                writeText(of: current, to: direct)
            }
            return true
        case .clear:
            guard arguments == 0 else { return false }
            stock.clear()
            return true
        }
    }

    // Each configuration and change is worked out once, by the rule set as the general path
    // does; these are kept out of line from the lookups that usually find it done.

    /// Works out and keeps model `model`'s default configuration: nil (kept as refused) if
    /// it breaks a rule.
    @inline(never)
    private func learnDefault(of model: Int) -> ConfigurationCache.Known? {
        let configuration = index.rules.defaultConfiguration(of: index.factories[model])
        guard configuration.brokenRule == nil else {
            configurations.setDefault(.refused, for: model)
            return nil
        }
        let known = ConfigurationCache.Known(id: stock.id(of: configuration), price: configuration.priceMinorUnits)
        // Giving out the id may have renumbered the stock's configurations.
        validateConfigurations()
        configurations.setDefault(known, for: model)
        return known
    }

    /// Works out and keeps what putting option `option` of family `family` on configuration
    /// `current` makes: nil (kept as refused) if the change breaks a rule or the price.
    @inline(never)
    private func learnChange(of current: Int32, to option: Int, of family: Int, key: UInt64) -> ConfigurationCache.Known? {
        let part = index.parts(family)[option]
        guard let next = try? CarBuilder.configuration(stock.configuration(current), with: part, rules: index.rules) else {
            configurations.transitions.keep(.refused, for: key)
            return nil
        }
        let generation = stock.generation
        let known = ConfigurationCache.Known(id: stock.id(of: next), price: next.priceMinorUnits)
        // Renumbered: `key` names the old number of the current configuration, so it is not kept.
        guard stock.generation == generation else { return known }
        configurations.transitions.keep(known, for: key)
        return known
    }

    /// Has `direct` make configuration `current`'s `show` text, writes it, and keeps it if
    /// it is not too long.
    @inline(never)
    private func writeText(of current: Int32, to direct: any DirectTextSink) {
        let text = direct.carText(Car(configuration: stock.configuration(current)))
        if let span = configurations.keepText(text, for: current) {
            direct.writeText(configurations.text(span))
        } else {
            text.withUnsafeBufferPointer { direct.writeText($0) }
        }
    }

    /// Forgets what the direct path remembers if the stock's ids or the rules have changed.
    @inline(__always)
    private func validateConfigurations() {
        configurations.validate(generation: stock.generation, rulesVersion: index.rulesVersion)
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
