import CarFactory
import CarScript
import Testing

/// Random scripts run through the engine and through `ModelSession`, a small model of the
/// language written for this test alone: after every script the two must hold the same
/// state, whole (every stock line's model, parts and count, the current line, the running
/// count and value, the rules, the rates and the variables), and `price` and `total` must
/// have printed the same amounts. Only the catalog's data (models, options, names, prices,
/// the built-in rules) is read from the engine, once, before the script runs.
@Suite struct SessionStateDifferentialTests {
    /// The domain's seeded generator, so a failure names a seed that reproduces it (the other
    /// random-session tests use it by this name).
    typealias SplitMix = SplitMix64

    /// One command of the script's vocabulary, with words that are sometimes wrong.
    static func command(_ random: inout SplitMix64) -> String {
        func pick(_ words: [String]) -> String { words[Int.random(in: 0..<words.count, using: &random)] }
        let roll = Int.random(in: 0..<100, using: &random)
        switch roll {
        case 0..<20:
            return "car " + pick(["compact", "sports", "suv", "SUV", "nosuch"])
                + pick(["", "", " 1", " 3", " 0", " x", " 9223372036854775807", " 4611686018427387904"])
        case 20..<50:
            return "set "
                + pick([
                    "floorplan short", "floorplan standard", "floorplan long", "suspension road",
                    "suspension race", "suspension sports", "suspension soft", "drivetrain front",
                    "drivetrain rear", "drivetrain 4wd", "drivetrain AWD", "drivetrain nosuch",
                    "colour red"
                ])
        case 50..<58: return "price" + pick(["", "", " XYZ"])
        case 58..<66: return "total" + pick(["", "", " XYZ"])
        case 66..<70: return pick(["show", "show 1", "show 2"])
        case 70..<74: return pick(["clear", "remove", "remove 1", "remove 2", "select 1", "select 2", "select 9"])
        case 74..<78: return "echo \"it's here\" and  there"
        case 78..<84:
            return "forbid " + pick(["drivetrain rear", "drivetrain 4wd", "floorplan long"]) + " with "
                + pick(["suspension soft", "suspension race", "floorplan standard", "floorplan short"])
        case 84..<90: return "rate " + pick(["GBP", "EUR", "JPY", "XYZ"]) + " " + pick(["0.5", "1.25", "2", "0", "x"])
        default: return "var " + pick(["a", "b", "c"]) + " " + pick(["one", "\"two words\"", "3"])
        }
    }

    static func script(seed: UInt64, lines: Int) -> String {
        var random = SplitMix64(state: seed)
        var text: [String] = []
        for _ in 0..<lines {
            text.append((0..<Int.random(in: 1...3, using: &random)).map { _ in command(&random) }.joined(separator: "; "))
        }
        return text.joined(separator: "\n") + "\n"
    }

    @Test(arguments: Array(1...24) as [UInt64])
    func random_scripts_leave_the_state_the_model_predicts(seed: UInt64) throws {
        let script = Self.script(seed: seed, lines: 400)
        var options = EngineOptions()
        options.keepGoing = true
        options.fileAccess = .refused(by: "in this test")
        let engine = Engine(options: options)
        var model = ModelSession(catalog: engine.catalog)
        let run = engine.evaluate(script, name: "random.carfab")
        var printed: [Int64] = []
        for line in script.split(separator: "\n") {
            for command in line.split(separator: ";") { model.run(command.split(separator: " ").map(String.init), printed: &printed) }
        }
        // Amounts printed in the base currency, by `price` and `total` alike.
        let amounts: [Int64] = run.results.compactMap {
            switch $0.result {
            case .amount(let minorUnits, _): minorUnits
            case .total(_, let value, _): value
            default: nil
            }
        }
        #expect(amounts == printed, "seed \(seed)")
        #expect(ModelSession.state(of: engine) == model.state, "seed \(seed)")
        #expect(run.diagnostics.count == model.failures, "seed \(seed)")
        // The scripts reach the states that matter: lines, refusals, rules, rates.
        #expect(model.reached.isSuperset(of: ["line", "refused", "rule", "rate", "select", "remove"]), "seed \(seed)")
    }
}

/// The state a session holds, as plain values to compare whole.
struct ModelState: Equatable, CustomStringConvertible {
    struct Line: Equatable {
        var model: String
        var parts: [String]
        var count: Int64
    }

    var lines: [Line]
    var current: Int?
    var carCount: Int64
    var value: Int64
    var rules: Set<String>
    var rates: [String: String]
    var variables: [String: String]

    var description: String {
        "lines \(lines.map { "\($0.model) \($0.parts) x\($0.count)" }), current \(current.map(String.init) ?? "none"), "
            + "count \(carCount), value \(value), rules \(rules.sorted()), rates \(rates), variables \(variables)"
    }
}

/// carfab's core language over the built-in catalog's data, written plainly for the
/// differential test: lines are arrays of part names, a change is checked against every rule.
struct ModelSession {
    struct Option {
        var name: String
        var price: Int64
    }

    struct Model {
        var name: String
        var base: Int64
        var defaults: [String]
    }

    private let families = PartFamily.book

    /// The book's family called `name`, in any case.
    private static func family(named name: String) -> PartFamily? {
        PartFamily.bookNames.firstIndex(of: name.lowercased()).map(PartFamily.init(index:))
    }
    private var options: [[Option]] = []
    /// Every name an option answers to, folded, to its canonical name, per family.
    private var names: [[String: String]] = []
    private var models: [String: Model] = [:]
    private var rules: [(PartChoice, PartChoice)] = []
    private var rates: [String: String] = [:]
    private var variables: [String: String] = [:]
    private var lines: [ModelState.Line] = []
    private var current: Int?
    /// How many commands failed.
    private(set) var failures = 0
    /// What the script got to do, to check that it tested something.
    private(set) var reached: Set<String> = []

    init(catalog: Catalog) {
        for family in families {
            let table = catalog.options(of: family)
            options.append(table.parts.map { Option(name: $0.name, price: $0.listPriceMinorUnits) })
            var byName: [String: String] = [:]
            for part in table.parts { for name in [part.name] + part.otherNames { byName[name.lowercased()] = part.name } }
            names.append(byName)
        }
        for factory in catalog.registry.factories {
            models[factory.model.lowercased()] = Model(
                name: factory.model, base: factory.basePriceMinorUnits,
                defaults: families.map { factory.defaultPart(of: $0)?.name ?? "" })
        }
        rules = catalog.rules.map { ($0.first, $0.second) }
        for currency in catalog.currencies { rates[currency.code] = currency.rate.description }
    }

    /// The state of `engine`'s session, read through its public API.
    static func state(of engine: Engine) -> ModelState {
        let stock = engine.stock
        return ModelState(
            lines: stock.lines.map { line in
                ModelState.Line(
                    model: line.car.factory.model, parts: PartFamily.book.map { line.car.part(of: $0)?.name ?? "" },
                    count: line.count)
            },
            current: stock.currentNumber, carCount: stock.carCount, value: stock.valueMinorUnits,
            rules: Set(
                engine.catalog.rules.map {
                    "\($0.first.family) \($0.first.option.lowercased()) \($0.second.family) \($0.second.option.lowercased())"
                }),
            rates: Dictionary(uniqueKeysWithValues: engine.catalog.currencies.map { ($0.code, $0.rate.description) }),
            variables: Dictionary(uniqueKeysWithValues: engine.variables.map { ($0.name, $0.value) }))
    }

    var state: ModelState {
        ModelState(
            lines: lines, current: current, carCount: lines.reduce(0) { $0 + $1.count },
            value: lines.reduce(0) { $0 + price(of: $1) * $1.count },
            rules: Set(rules.map { "\($0.0.family) \($0.0.option.lowercased()) \($0.1.family) \($0.1.option.lowercased())" }),
            rates: rates, variables: variables)
    }

    private func price(of line: ModelState.Line) -> Int64 {
        guard let model = models[line.model.lowercased()] else { return 0 }
        var total = model.base
        for (family, part) in line.parts.enumerated() {
            let listed = { (name: String) in options[family].first { $0.name == name }?.price ?? 0 }
            total += listed(part) - listed(model.defaults[family])
        }
        return total
    }

    private func breaksARule(_ parts: [String]) -> Bool {
        rules.contains { rule in
            [rule.0, rule.1].allSatisfy { choice in parts[choice.family.index].lowercased() == choice.option.lowercased() }
        }
    }

    /// The sums the stock keeps, checked for overflow as the ledger checks them.
    private func fits(_ lines: [ModelState.Line]) -> Bool {
        var count: Int64 = 0
        var value: Int64 = 0
        for line in lines {
            let (c, o1) = count.addingReportingOverflow(line.count)
            let (product, o2) = price(of: line).multipliedReportingOverflow(by: line.count)
            let (v, o3) = value.addingReportingOverflow(product)
            if o1 || o2 || o3 { return false }
            count = c
            value = v
        }
        return true
    }

    /// Runs one command's words; a failure changes nothing.
    mutating func run(_ words: [String], printed: inout [Int64]) {
        let words = words.filter { !$0.isEmpty }
        guard let name = words.first else { return }
        if !apply(name, Array(words.dropFirst()), printed: &printed) { failures += 1 }
    }

    private mutating func apply(_ name: String, _ arguments: [String], printed: inout [Int64]) -> Bool {
        switch name {
        case "car":
            guard (1...2).contains(arguments.count), let model = models[arguments[0].lowercased()] else { return false }
            var count: Int64 = 1
            if arguments.count == 2 {
                guard let given = Int64(arguments[1]), given >= 1, arguments[1].allSatisfy(\.isNumber) else { return false }
                count = given
            }
            guard !breaksARule(model.defaults) else { return false }
            let next = lines + [ModelState.Line(model: model.name, parts: model.defaults, count: count)]
            guard fits(next) else { return false }
            lines = next
            current = lines.count
            reached.insert("line")
            return true
        case "set":
            guard arguments.count == 2, let family = Self.family(named: arguments[0]),
                let option = names[family.index][arguments[1].lowercased()], let number = current
            else { return false }
            var line = lines[number - 1]
            line.parts[family.index] = option
            guard !breaksARule(line.parts) else {
                reached.insert("refused")
                return false
            }
            var next = lines
            next[number - 1] = line
            guard fits(next) else { return false }
            lines = next
            return true
        case "price", "total":
            guard arguments.isEmpty else { return false }
            if name == "total" {
                printed.append(state.value)
                return true
            }
            guard let number = current else { return false }
            printed.append(price(of: lines[number - 1]))
            return true
        case "show":
            guard let number = arguments.isEmpty ? current : Int(arguments[0]) else { return false }
            return number >= 1 && number <= lines.count
        case "clear":
            lines = []
            current = nil
            return true
        case "select":
            guard let number = Int(arguments[0]), number >= 1 && number <= lines.count else { return false }
            current = number
            reached.insert("select")
            return true
        case "remove":
            guard let target = arguments.isEmpty ? current : Int(arguments[0]), target >= 1 && target <= lines.count else {
                return false
            }
            lines.remove(at: target - 1)
            if let number = current {
                if number == target { current = lines.isEmpty ? nil : lines.count } else if number > target { current = number - 1 }
            }
            reached.insert("remove")
            return true
        case "echo", "var":
            if name == "var" {
                variables[arguments[0]] = arguments.dropFirst().joined(separator: " ").replacingOccurrences(of: "\"", with: "")
            }
            return true
        case "forbid":
            guard arguments.count == 5, let first = Self.family(named: arguments[0]), let second = Self.family(named: arguments[3]),
                let one = names[first.index][arguments[1].lowercased()], let two = names[second.index][arguments[4].lowercased()]
            else { return false }
            let rule = (PartChoice(first, one), PartChoice(second, two))
            let both = { (parts: [String]) in parts[first.index] == one && parts[second.index] == two }
            // One family twice, a pair forbidden already (either way round), a model's own
            // defaults, or a car in stock: refused.
            guard first != second, !rules.contains(where: { Set([$0.0, $0.1]) == Set([rule.0, rule.1]) }),
                !models.values.contains(where: { both($0.defaults) })
            else { return false }
            guard !lines.contains(where: { both($0.parts) }) else {
                reached.insert("refused")
                return false
            }
            rules.append(rule)
            reached.insert("rule")
            return true
        case "rate":
            guard arguments.count == 2, rates[arguments[0]] != nil, arguments[0] != Currency.base.code,
                let rate = try? DecimalNumber(parsing: arguments[1]), rate.significand > 0
            else { return false }
            rates[arguments[0]] = rate.description
            reached.insert("rate")
            return true
        default:
            return false
        }
    }
}
