import CarFactory

/// The most bytes a name or text of a definition (a model's name and car type, a family's and
/// an option's names, shown-as texts and other names, a currency's symbol; its code is three
/// letters) or a variable's name may take as `save` writes it, quotes and escapes counted
/// (U+0001 is written `\u{1}`, 5 bytes for 1; any scalar at most 10).
///
/// Small enough that every line `save` writes fits a logical line (`maximumLineLength`, 1 MiB)
/// whatever the catalog holds, so that any session can be saved. Its longest lines, each name
/// at 4,096 bytes and an amount at most 21 (`-92233720368547758.08`):
/// - `model`: its name, car type and three options, then FAMILY OPTION for 61 defined families
///   (64 at most, `PartFamily.limit`): 127 names, 520,192 bytes, and 192 for keywords, amount
///   and blanks: 520,384;
/// - a stock line's `set`: FAMILY OPTION for 64 families: 128 names and 131 bytes, 524,419;
/// - a long variable's `var NAME "${NAME}PART"`: 2 names, a part of 524,288 bytes and 10: 532,490;
/// - `family` 4 names, `forbid` and `require` 4, `currency` 1, `car MODEL COUNT` 1: under 17,000;
/// - `option`: 3 names and aliases, as many as the line holds: its definition is refused if
///   its saved line would pass 1 MiB (`checkSavedLine`).
package let maximumNameLength = 1 << 12

/// `family`, `option`, `model`, `forbid`, `require`, `currency`: the catalog written in the language itself.
///
/// Each definition is checked whole against the catalog (and, for rules, the stock) and
/// registered only if every check passes.
enum DefinitionCommands {
    static let all: [CommandSpec] = [
        CommandSpec(
            name: "family", aliases: [], group: .definition,
            arguments: [
                .required("NAME", .name), .required("\"SHOWN AS\"", .text), .keyword(.default),
                .required("OPTION", .name), .required("\"OPTION SHOWN AS\"", .text),
                .optional("[price AMOUNT]", .words)
            ],
            summary: "define a new part family and its first option",
            details:
                "Every model has OPTION (list price AMOUNT, default 0, in US dollars) unless its 'model' line names another ('model ... drivetrain rear paint red'); cars already in stock take it. 'option NAME ...' adds more options. 'show' prints the family after Drive as 'SHOWN AS: OPTION SHOWN AS'. A catalog holds at most \(PartFamily.limit) families (the three built-in ones among them), a family at most \(PartFamily.optionLimit) options. NAME must not be another family's, nor 'in' (options, why, fit and cheapest read it as the start of 'in CURRENCY'), nor 'error' (expect reads it as the start of 'expect error'), nor the name of a column of list or models (base_price, car_type, count, current, line, model, unit_price), nor a field of expect (count, seats, engine, suspension, drive, type, price, total), nor one that list and models would key as another family's column ('a_b' beside 'a b': blanks are '_' there).",
            example: "family paint \"Paint\" default white \"White\" price 0",
            runsWhenChecking: true,
            run: { session, call throws(ScriptError) in
                var price: Int64 = 0
                if call.hasWords(6) {
                    let words = call.words(6)
                    let ranges = call.wordRanges
                    guard nameKey(words[0]) == "price" else {
                        throw ScriptError(.expectedKeyword("price", found: words[0]), at: ranges[0])
                    }
                    guard words.count >= 2 else {
                        throw ScriptError(
                            .missingArgument("an AMOUNT after 'price'", usage: call.spec.usage),
                            at: SourceRange(ranges[0].end, ranges[0].end + 1))
                    }
                    guard words.count == 2 else { throw ScriptError(.unexpectedArgument(words[2], usage: call.spec.usage), at: ranges[2]) }
                    do throws(CarFactoryError) {
                        price = try DecimalNumber(parsing: words[1]).minorUnits(digits: Currency.base.digits)
                    } catch {
                        throw ScriptError(.domain(error), at: ranges[1])
                    }
                }
                if let refusal = familyNameRefusal(call.word(1), among: session.catalog.familyNames) {
                    throw ScriptError(.refused(refusal), at: call.range(1))
                }
                let definition = FamilyDefinition(
                    name: try catalogText(call, 1, quoted: false), shownAs: try catalogText(call, 2, quoted: true),
                    option: try catalogText(call, 4, quoted: false), optionShownAs: try catalogText(call, 5, quoted: true),
                    listPrice: .base(price))
                try call.at(1) { () throws(CarFactoryError) in try session.changeCatalog(.family(definition)) }
            }),
        CommandSpec(
            name: "option", aliases: [], group: .definition,
            arguments: [
                .required("FAMILY", .family), .required("NAME", .name), .required("\"SHOWN AS\"", .text),
                .keyword(.price), .required("AMOUNT", .amount),
                .optional("[seats N engine POSITION] [alias NAME]...", .words)
            ],
            summary: "define a new option of a family",
            details:
                "AMOUNT is the list price in US dollars. A floorplan also needs 'seats N' (1 to 99) and 'engine POSITION' (front, mid or rear). 'alias NAME' (repeatable) adds another name the option answers to. Names must not clash with another option of the family. No car may cost below zero: the option is refused if, as its family's cheapest, it would make some model's base price plus, for each family, the cheapest option's list price less the model's default (where that is lower; rules not counted) less than zero.",
            example: "option drivetrain hybrid \"Hybrid AWD\" price 6500 alias electric",
            runsWhenChecking: true,
            run: { session, call throws(ScriptError) in
                let family = call.family(1) ?? .floorplan
                var definition = OptionDefinition(
                    family: family, familyName: session.catalog.name(of: family), name: try catalogText(call, 2, quoted: false),
                    shownAs: try catalogText(call, 3, quoted: true),
                    listPrice: call.amount(5))
                let aliases = try readExtras(call, into: &definition)
                try checkSavedLine(definition, aliases: aliases, call)
                do throws(CarFactoryError) {
                    try session.changeCatalog(.option(definition))
                } catch {
                    // A name that clashes is pointed at where it stands: the option's name or an alias.
                    var range = call.range(2)
                    switch error {
                    case .duplicateOption(let name, _, _) where nameKey(name) != nameKey(definition.name):
                        range = aliases.first { nameKey($0.name) == nameKey(name) }?.range ?? range
                    case .repeatedName(let name):
                        range = aliases.last { nameKey($0.name) == nameKey(name) }?.range ?? range
                    case .modelCouldCostLessThanNothing:
                        // The price that would take a model's cars below zero.
                        range = call.range(5)
                    default:
                        break
                    }
                    throw ScriptError(.domain(error), at: range)
                }
            }),
        CommandSpec(
            name: "model", aliases: [], group: .definition,
            arguments: [
                .required("NAME", .name), .required("\"CAR TYPE\"", .text), .keyword(.price), .required("AMOUNT", .amount),
                .keyword(.floorplan), .required("OPTION", .optionOf(.floorplan)),
                .keyword(.suspension), .required("OPTION", .optionOf(.suspension)),
                .keyword(.drivetrain), .required("OPTION", .optionOf(.drivetrain)),
                .optional("[FAMILY OPTION]...", .words)
            ],
            summary: "define a new model and its default options",
            details:
                "AMOUNT is the base price in US dollars. The default options must exist and keep every rule. A family defined with 'family' that the line does not name gives the model that family's first option. No car may cost below zero: the model is refused if its base price plus, for each family, the cheapest option's list price less the model's default (where that is lower; rules not counted) is less than zero.",
            example: "model roadster \"Mazda MX-5\" price 31000 floorplan short suspension race drivetrain rear",
            runsWhenChecking: true,
            run: { session, call throws(ScriptError) in
                let definition = ModelDefinition(
                    name: try catalogText(call, 1, quoted: false), carType: try catalogText(call, 2, quoted: true),
                    basePrice: call.amount(4),
                    floorplan: call.option(6).name, suspension: call.option(8).name, drivetrain: call.option(10).name,
                    others: try otherDefaults(call, session))
                do throws(CarFactoryError) {
                    try session.changeCatalog(.model(definition))
                } catch .modelCouldCostLessThanNothing(let model, let options, let price) {
                    throw ScriptError(
                        .domain(.modelCouldCostLessThanNothing(model: model, options: options, price: price)),
                        at: call.range(4))
                } catch {
                    throw ScriptError(.domain(error), at: call.range(1))
                }
            }),
        CommandSpec(
            name: "forbid", aliases: [], group: .definition,
            arguments: ruleArguments,
            summary: "forbid two options on one car",
            details:
                "The options must be of two different families. A rule that a model's default options, or a car already in stock, would break is refused.",
            example: "forbid drivetrain rear with floorplan long",
            runsWhenChecking: true,
            run: addRule(.forbid)),
        CommandSpec(
            name: "require", aliases: [], group: .definition,
            arguments: ruleArguments,
            summary: "allow an option only on a car that also has another",
            details:
                "The first option may go only on a car that also has the second (of another family). A rule that a model's default options, or a car already in stock, would break is refused.",
            example: "require drivetrain 4wd with floorplan long",
            runsWhenChecking: true,
            run: addRule(.require)),
        CommandSpec(
            name: "currency", aliases: [], group: .definition,
            arguments: [
                .required("CODE", .name), .required("\"SYMBOL\"", .text), .keyword(.digits),
                .required("N", .integer(.minorDigits)),
                .keyword(.rate), .required("RATE", .rate)
            ],
            summary: "define a new currency",
            details:
                "CODE is three letters (shown in capitals); SYMBOL is written before amounts (include a blank if one should follow it; it may not start or end with a digit or number, a sign or dash, ',' or '.', or a form of them); N is the number of minor digits, 0 to 4; RATE is how many units one US dollar buys, a positive decimal.",
            example: "currency CHF \"CHF \" digits 2 rate 0.88",
            runsWhenChecking: true,
            run: { session, call throws(ScriptError) in
                // The domain checks the currency; its error says which argument to point at.
                let currency: Currency
                let symbol = try catalogText(call, 2, quoted: true)
                do throws(CarFactoryError) {
                    currency = try Currency(
                        code: call.word(1).uppercased(), symbol: symbol,
                        digits: call.integer(4), rate: call.decimal(6))
                } catch .invalidCurrencyCode {
                    throw ScriptError(.domain(.invalidCurrencyCode(call.word(1))), at: call.range(1))
                } catch .invalidCurrencySymbol(let symbol) {
                    throw ScriptError(.domain(.invalidCurrencySymbol(symbol)), at: call.range(2))
                } catch .invalidDigits(let digits) {
                    throw ScriptError(.domain(.invalidDigits(digits)), at: call.range(4))
                } catch {
                    throw ScriptError(.domain(error), at: call.range(6))
                }
                try call.at(1) { () throws(CarFactoryError) in try session.changeCatalog(.currency(currency)) }
            })
    ]

    /// Argument `argument` of `call`, a name or (`quoted`) a text the catalog keeps; refused if
    /// `save` would write it in more than `maximumNameLength` bytes, so that every line it
    /// writes fits (and a definition made from a long variable's value, many times over, would
    /// otherwise hold that value as many times).
    private static func catalogText(_ call: Invocation, _ argument: Int, quoted: Bool) throws(ScriptError) -> String {
        try bounded(call.word(argument), quoted: quoted, at: call.range(argument))
    }

    /// `text` if `save` writes it (`quoted`, or as a name) in at most `maximumNameLength` bytes.
    private static func bounded(_ text: String, quoted: Bool, at range: SourceRange) throws(ScriptError) -> String {
        guard SessionScript.writes(text, quoted: quoted, within: maximumNameLength) else {
            throw ScriptError(.nameTooLong(limit: maximumNameLength), at: range)
        }
        return text
    }

    /// Refuses an option whose line `save` would write longer than a logical line, at the first
    /// alias past the limit: each name is bounded but not their number (80,000 aliases fit a
    /// line as typed, and escapes or variables' values make them longer as written).
    private static func checkSavedLine(
        _ definition: OptionDefinition, aliases: [(name: String, range: SourceRange)], _ call: Invocation
    ) throws(ScriptError) {
        // Up to 252 aliases the line fits whatever they hold: `option F N "S" price AMOUNT
        // seats 99 engine front` is 3 names and at most 59 bytes more (an amount 21), and
        // each ` alias NAME` a name and 7. Only a longer line is written out to be measured.
        guard aliases.count > (maximumLineLength - 59 - 3 * maximumNameLength) / (7 + maximumNameLength) else { return }
        var length = SessionScript.definition(of: definition).utf8.count
        guard length > maximumLineLength else { return }
        for alias in stride(from: aliases.count - 1, through: 0, by: -1) {
            length -= SessionScript.aliasText(aliases[alias].name).utf8.count + 1
            if length <= maximumLineLength {
                throw ScriptError(.definitionTooLong(limit: maximumLineLength), at: aliases[alias].range)
            }
        }
        // Not reached: without aliases the line holds three bounded names and a few words.
        throw ScriptError(.definitionTooLong(limit: maximumLineLength), at: call.range(2))
    }

    /// `forbid` and `require` read the same words: FAMILY OPTION with FAMILY OPTION.
    private static let ruleArguments: [ArgumentSpec] = [
        .required("FAMILY", .family), .required("OPTION", .option(familyArgument: 1)), .keyword(.with),
        .required("FAMILY", .family), .required("OPTION", .option(familyArgument: 4))
    ]

    /// Adds a rule of `kind` between the two options named: an error in one family is said at
    /// its second FAMILY, any other at the command.
    private static func addRule(_ kind: Rule.Kind) -> CommandSpec.Run {
        { session, call throws(ScriptError) in
            let first = PartChoice(call.option(2).family, call.option(2).name)
            let second = PartChoice(call.option(5).family, call.option(5).name)
            try call.at(first.family == second.family ? 4 : 0) { () throws(CarFactoryError) in
                let place = session.place(of: call) ?? ("", -1)
                try session.changeCatalog(.rule(kind, first, second, file: place.file, line: place.line))
            }
        }
    }

    /// The `FAMILY OPTION` pairs after a model's drivetrain: defined families only, each once,
    /// each option one of its family's (canonical names, as `save` writes them).
    private static func otherDefaults(_ call: Invocation, _ session: Session)
        throws(ScriptError) -> [(family: String, option: String)]
    {
        guard call.hasWords(11) else { return [] }
        let words = call.words(11)
        let ranges = call.wordRanges
        let catalog = session.catalog
        var named: [PartFamily] = []
        var pairs: [(family: String, option: String)] = []
        for index in stride(from: 0, to: words.count, by: 2) {
            let defined = Array(catalog.familyNames.dropFirst(3))
            guard let family = catalog.family(named: words[index]), !family.isBook else {
                throw Session.unknown("defined family", words[index], defined, at: ranges[index])
            }
            let name = catalog.name(of: family)
            guard !named.contains(family) else {
                throw ScriptError(.refused("\(name) is named twice; name each family once"), at: ranges[index])
            }
            guard index + 1 < words.count else {
                throw ScriptError(
                    .missingArgument("an option after '\(name)'", usage: call.spec.usage),
                    at: SourceRange(ranges[index].end, ranges[index].end + 1))
            }
            let table = catalog.options(of: family)
            guard let part = try? catalog.option(named: words[index + 1], in: family) else {
                throw Session.unknown(
                    "\(name) option", words[index + 1], table.parts.map(\.name),
                    suggestFrom: table.allNames, at: ranges[index + 1])
            }
            named.append(family)
            pairs.append((name, part.name))
        }
        return pairs
    }

    /// Reads `seats N`, `engine POSITION` and `alias NAME` pairs after an option's price; returns
    /// each alias with where it stands.
    private static func readExtras(_ call: Invocation, into definition: inout OptionDefinition)
        throws(ScriptError) -> [(name: String, range: SourceRange)]
    {
        let words = call.words(6)
        // Once: `wordRanges` makes the whole list each time it is read.
        let ranges = call.wordRanges
        var aliases: [(name: String, range: SourceRange)] = []
        var index = 0
        while index < words.count {
            let keyword = nameKey(words[index])
            let keywordRange = ranges[index]
            guard ["seats", "engine", "alias"].contains(keyword) else {
                throw Session.unknown("keyword", words[index], ["seats", "engine", "alias"], at: keywordRange)
            }
            guard index + 1 < words.count else {
                throw ScriptError(
                    .missingArgument("a value after '\(keyword)'", usage: call.spec.usage),
                    at: SourceRange(keywordRange.end, keywordRange.end + 1))
            }
            let value = words[index + 1]
            let valueRange = ranges[index + 1]
            switch keyword {
            case "seats":
                guard definition.seats == nil else { throw ScriptError(.refused("seats given twice"), at: keywordRange) }
                guard let seats = Int(value), (1...99).contains(seats), value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                    throw ScriptError(.domain(.invalidSeats(value)), at: valueRange)
                }
                definition.seats = seats
            case "engine":
                guard definition.engine == nil else { throw ScriptError(.refused("engine given twice"), at: keywordRange) }
                guard let engine = EnginePosition(named: value) else {
                    throw Session.unknown("engine position", value, EnginePosition.allCases.map { nameKey($0.rawValue) }, at: valueRange)
                }
                definition.engine = engine
            default:
                guard !value.isEmpty else { throw ScriptError(.emptyName, at: valueRange) }
                definition.otherNames.append(try bounded(value, quoted: false, at: valueRange))
                aliases.append((value, valueRange))
            }
            index += 2
        }
        return aliases
    }
}
