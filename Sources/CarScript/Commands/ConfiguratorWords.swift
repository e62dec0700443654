import CarFactory

/// How the words after `options`, `why`, `fit` and `cheapest` read: the one reader that the
/// commands (running and `--check`), Tab completion and the language server all use, so they
/// cannot disagree about what a word is.
///
/// The grammars: `options [FAMILY] [in CURRENCY]`, `why FAMILY OPTION [in CURRENCY]`, `fit
/// FAMILY OPTION [in CURRENCY]`, `cheapest [MODEL] [FAMILY OPTION]... [in CURRENCY]`. `in` starts
/// `in CURRENCY` wherever that may come (no family may be named `in`; after a FAMILY, `in` is
/// its option). `cheapest`'s first word may name a model and also a family, or be `in` and
/// name a model: it is read the way that reads the whole command, and at most one way can,
/// since pairs and `in CURRENCY` are two words each (`cheapest in GBP` is any model priced in
/// GBP; `cheapest in` and `cheapest in drivetrain 4wd` are the model `in`). When neither way
/// reads, the error is the one found later in the words, the family's or `in`'s on a tie.
package struct ConfiguratorWords: Equatable {
    /// What a word stands for.
    package enum Role: Equatable {
        case model
        case family(PartFamily)
        /// An option (by any of its names) of the family named before it.
        case option(PartFamily)
        /// The `in` of `in CURRENCY`.
        case `in`
        case currency
        /// A word that names nothing that may stand there (`problem` says what may).
        case unknown
        /// A word the command does not read: after its last, or after a problem.
        case extra
        /// A word whose value is not known where it is read (a variable, to an editor): taken
        /// as whatever may stand there.
        case unresolved
    }

    /// What may stand at a place.
    package enum Expected: Equatable {
        case models
        /// The families that may (each family is named once).
        case families([PartFamily])
        case options(PartFamily)
        case `in`
        case currencies
    }

    /// Why the words do not make a whole command: the first thing wrong.
    package enum Problem: Equatable {
        /// Word `at` names none of `expected`.
        case unknown(at: Int, expected: [Expected])
        /// The words end where one of `expected` must come.
        case missing([Expected])
        /// Word `at` comes after the command's last.
        case extra(at: Int)
        /// Word `at` names a family named before it.
        case namedTwice(at: Int)
    }

    /// Each word's role, in order.
    package fileprivate(set) var roles: [Role]
    /// The first thing wrong; nil if the words are a whole command.
    package fileprivate(set) var problem: Problem?
    /// What may come after the last word (empty once a word is wrong): what Tab offers.
    package fileprivate(set) var next: [Expected] = []

    fileprivate init(roles: [Role]) { self.roles = roles }

    /// The commands whose words this reads.
    package static let commands: Set<String> = ["options", "why", "fit", "cheapest"]

    /// Reads `words` (those after the command's name) of `command`, with the names `catalog`
    /// knows (a nil word's value is not known: it is taken as whatever may stand there); nil
    /// if `command` is not one of `commands`.
    package static func read(_ command: String, _ words: [String?], catalog: Catalog) -> ConfiguratorWords? {
        switch nameKey(command) {
        case "options":
            var reader = Reader(words, catalog)
            reader.readOptions()
            return reader.result
        case "why", "fit":
            var reader = Reader(words, catalog)
            reader.readFamilyOption()
            return reader.result
        case "cheapest":
            return readCheapest(words, catalog)
        default:
            return nil
        }
    }

    /// `cheapest`'s words: a first word that may be read two ways is read both ways, and the
    /// way that reads the words (or, failing that, reads further) is kept.
    private static func readCheapest(_ words: [String?], _ catalog: Catalog) -> ConfiguratorWords {
        let model: Bool
        let other: Bool
        switch words.first {
        case .none: (model, other) = (false, true)
        case .some(.none): (model, other) = (true, true)
        case .some(.some(let word)):
            model = catalog.registry.contains(word)
            other = catalog.family(named: word) != nil || nameKey(word) == "in"
        }
        var asModel = Reader(words, catalog)
        if model { asModel.readCheapest(withModel: true) }
        var asOther = Reader(words, catalog)
        if other || !model { asOther.readCheapest(withModel: false) }
        guard model && other else { return model ? asModel.result : asOther.result }
        let (modelReading, otherReading) = (asModel.result, asOther.result)
        var kept: ConfiguratorWords
        switch (modelReading.problem, otherReading.problem) {
        case (nil, _): kept = modelReading
        case (_, nil): kept = otherReading
        default: kept = modelReading.reach > otherReading.reach ? modelReading : otherReading
        }
        // Tab offers what may come after either way that is not yet wrong.
        kept.next = []
        for reading in [modelReading, otherReading] where reading.next.isEmpty == false {
            for expected in reading.next where !kept.next.contains(expected) { kept.next.append(expected) }
        }
        return kept
    }

    /// How far the words read before a problem (the words' count if they end too soon).
    private var reach: Int {
        switch problem {
        case .unknown(let at, _), .extra(let at), .namedTwice(let at): at
        case .missing, nil: roles.count
        }
    }

    /// What `name`, one of `nextNames`, is (the first of `next` it names); nil for `in`.
    package func subject(of name: String, in catalog: Catalog) -> ArgumentSubject? {
        for expected in next {
            switch expected {
            case .models where catalog.registry.contains(name): return .model
            case .families(let families) where families.contains(where: { nameKey(catalog.name(of: $0)) == nameKey(name) }):
                return .family
            case .options(let family) where (try? catalog.option(named: name, in: family)) != nil: return .option(family)
            case .currencies where (try? catalog.currency(named: name)) != nil: return .currency
            default: continue
            }
        }
        return nil
    }

    /// The names of what `next` says may come, in order, each once.
    package func nextNames(in catalog: Catalog) -> [String] {
        var names: [String] = []
        for expected in next {
            let more: [String]
            switch expected {
            case .models: more = catalog.registry.factories.map(\.model)
            case .families(let families): more = families.map { catalog.name(of: $0) }
            case .options(let family): more = catalog.options(of: family).allNames
            case .in: more = ["in"]
            case .currencies: more = catalog.currencies.map(\.code)
            }
            for name in more where !names.contains(where: { nameKey($0) == nameKey(name) }) { names.append(name) }
        }
        return names
    }
}

/// One left-to-right reading of the words; it stops at the first problem.
private struct Reader {
    let words: [String?]
    let catalog: Catalog
    var result: ConfiguratorWords
    var index = 0

    init(_ words: [String?], _ catalog: Catalog) {
        self.words = words
        self.catalog = catalog
        result = ConfiguratorWords(roles: Array(repeating: .extra, count: words.count))
    }

    private var atEnd: Bool { index == words.count }
    private var atIn: Bool { index < words.count && words[index].map { nameKey($0) == "in" } == true }
    /// Whether the word here has no value known: it is taken as what may stand here.
    private var atUnresolved: Bool { index < words.count && words[index] == nil }

    /// `[FAMILY] [in CURRENCY]`.
    mutating func readOptions() {
        let all = ConfiguratorWords.Expected.families(catalog.families)
        if atEnd { return ends(allowing: [all, .in]) }
        if atUnresolved {
            take(.unresolved)
        } else if !atIn {
            guard let family = words[index].flatMap(catalog.family(named:)) else { return unknown([all, .in]) }
            take(.family(family))
        }
        readCurrency()
    }

    /// `FAMILY OPTION [in CURRENCY]`.
    mutating func readFamilyOption() {
        let all = ConfiguratorWords.Expected.families(catalog.families)
        if atEnd { return missing([all]) }
        if atUnresolved {
            take(.unresolved)
            guard readOption(of: nil) else { return }
            return readCurrency()
        }
        guard let family = words[index].flatMap(catalog.family(named:)) else { return unknown([all]) }
        take(.family(family))
        guard readOption(of: family) else { return }
        readCurrency()
    }

    /// `[MODEL] [FAMILY OPTION]... [in CURRENCY]`, with the first word as the model or not.
    mutating func readCheapest(withModel: Bool) {
        if withModel { take(atUnresolved ? .unresolved : .model) }
        var named: [PartFamily] = []
        while !atEnd && !atIn {
            if atUnresolved {
                take(.unresolved)
                guard readOption(of: nil) else { return }
                continue
            }
            guard let family = words[index].flatMap(catalog.family(named:)) else {
                let families = ConfiguratorWords.Expected.families(catalog.families.filter { !named.contains($0) })
                return unknown(index == 0 ? [.models, families, .in] : [families, .in])
            }
            if named.contains(family) {
                result.roles[index] = .family(family)
                result.problem = .namedTwice(at: index)
                return
            }
            take(.family(family))
            guard readOption(of: family) else { return }
            named.append(family)
        }
        let rest = ConfiguratorWords.Expected.families(catalog.families.filter { !named.contains($0) })
        if atEnd { return ends(allowing: (index == 0 ? [.models] : []) + [rest, .in]) }
        readCurrency()
    }

    /// An option of `family` (of a family not known, if nil); false after a problem.
    private mutating func readOption(of family: PartFamily?) -> Bool {
        if atEnd {
            missing(family.map { [.options($0)] } ?? [])
            return false
        }
        guard let family, let word = words[index] else {
            take(.unresolved)
            return true
        }
        guard (try? catalog.option(named: word, in: family)) != nil else {
            unknown([.options(family)])
            return false
        }
        take(.option(family))
        return true
    }

    /// `[in CURRENCY]` and the end of the words.
    private mutating func readCurrency() {
        if atEnd { return ends(allowing: [.in]) }
        guard atIn else {
            result.problem = .extra(at: index)
            return
        }
        take(.in)
        if atEnd { return missing([.currencies]) }
        if atUnresolved {
            take(.unresolved)
        } else {
            guard (try? catalog.currency(named: words[index] ?? "")) != nil else { return unknown([.currencies]) }
            take(.currency)
        }
        if !atEnd { result.problem = .extra(at: index) }
    }

    private mutating func take(_ role: ConfiguratorWords.Role) {
        result.roles[index] = role
        index += 1
    }

    /// The words end where `expected` may come, and need not.
    private mutating func ends(allowing expected: [ConfiguratorWords.Expected]) {
        result.next = expected
    }

    /// The words end where one of `expected` must come.
    private mutating func missing(_ expected: [ConfiguratorWords.Expected]) {
        result.problem = .missing(expected)
        result.next = expected
    }

    /// The word here is none of `expected`.
    private mutating func unknown(_ expected: [ConfiguratorWords.Expected]) {
        result.roles[index] = .unknown
        result.problem = .unknown(at: index, expected: expected)
    }
}
