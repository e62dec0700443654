import CarFactory

/// How a session runs: what it does on errors, and what it refuses.
public struct SessionOptions: Sendable {
    /// Go on after a failed command (the run still fails).
    public var keepGoing = false
    /// Parse and resolve names only; run nothing.
    public var checkOnly = false
    /// Refuse commands that touch files.
    public var safe = false
    /// Accept only catalog definitions (a catalog file).
    public var definitionsOnly = false

    /// The defaults: stop at the first error, run everything, allow files.
    public init() {}
}

/// A catalog definition made in a session.
enum Definition {
    case option(OptionDefinition)
    case model(ModelDefinition)
    case rule(Rule)
    case currency(Currency)
}

/// One interpreter session: the catalog, the stock, and where results go.
public final class Session {
    /// The catalog in force (built-in plus definitions); changed only through `changeCatalog`.
    public private(set) var catalog: Catalog
    private var madeIndex: CatalogIndex?
    /// The catalog arranged for lookups from bytes: made once, then kept in step with the catalog.
    var index: CatalogIndex {
        if let madeIndex { return madeIndex }
        let index = CatalogIndex(catalog)
        madeIndex = index
        return index
    }
    /// Room for the arguments of running commands, one block per nesting depth, reused.
    let arguments = ArgumentSpace()
    /// The stock lines.
    public var stock = StockLedger()
    /// The command table dispatch reads.
    public let commands: CommandTable
    /// Where results and diagnostics go.
    public let renderer: any ResultRenderer
    /// The renderer's output, held directly: checked for a closed pipe after every command.
    let resultOutput: Output
    /// How errors and files are handled.
    public let options: SessionOptions
    /// The service center, for `services`.
    public let services: ServiceCenter?
    /// How many errors have been reported.
    public internal(set) var failureCount = 0
    /// Whether any command has failed: the run's exit status is then 1.
    public var hasFailed: Bool { failureCount > 0 }
    /// The scripts being run, outermost first (`source` nests them).
    var frames: [ScriptFrame] = []
    /// Each currency's rate when the session began, so `save` writes only the rates changed since.
    let initialRates: [String: DecimalNumber]
    /// The definitions made in this session, for `save` (written out only when saving).
    private(set) var definitions: [Definition] = []
    /// Whether `quit` was given.
    public internal(set) var quitRequested = false
    /// The status `quit N` asked for.
    public internal(set) var requestedExitStatus: Int32?
    /// Where a script a stop signal interrupted had got to (`FILE:LINE`), for the prompt to say.
    var interruptedAt: String?

    /// A session over `catalog` that renders with `renderer`.
    public init(catalog: Catalog, renderer: any ResultRenderer, options: SessionOptions = SessionOptions(),
                commands: CommandTable = .standard, services: ServiceCenter? = nil) {
        self.catalog = catalog
        initialRates = Dictionary(uniqueKeysWithValues: catalog.currencies.map { ($0.code, $0.rate) })
        self.renderer = renderer
        resultOutput = renderer.output
        self.options = options
        self.commands = commands
        self.services = services
    }

    /// Whether the program should run no further input.
    public var shouldStop: Bool {
        quitRequested || resultOutput.failed || stopRequested || (hasFailed && !options.keepGoing)
    }

    /// Writes a result of `command`.
    func emit(_ result: CommandResult, _ invocation: Invocation) {
        invocation.specRef.borrow { renderer.render(result, command: $0) }
    }
}

/// A change to a session's catalog.
enum CatalogChange {
    case option(OptionDefinition)
    case model(ModelDefinition)
    case rule(PartChoice, PartChoice)
    case currency(Currency)
    case rate(code: String, DecimalNumber)
}

extension Session {
    /// Makes `change` to the catalog, all or nothing, and keeps the index and the record of
    /// definitions (what `save` writes) in step with it: the one way the catalog changes.
    func changeCatalog(_ change: CatalogChange) throws(CarFactoryError) {
        switch change {
        case .option(let definition):
            let part = try catalog.define(definition)
            madeIndex?.add(part)
            definitions.append(.option(definition))
        case .model(let definition):
            let factory = try catalog.define(definition)
            madeIndex?.add(factory)
            definitions.append(.model(definition))
        case .rule(let first, let second):
            let rule = try catalog.rule(forbidding: first, with: second)
            if let line = stock.firstLine(breaking: rule) { throw .stockBreaksRule(line: line, rule) }
            try catalog.forbid(first, with: second)
            madeIndex?.update(catalog.ruleSet)
            definitions.append(.rule(rule))
        case .currency(let currency):
            try catalog.define(currency)
            madeIndex?.add(currency)
            definitions.append(.currency(currency))
        case .rate(let code, let rate):
            let position = try catalog.setRate(of: code, to: rate)
            madeIndex?.update(catalog.currencies[position], at: position)
        }
    }
}
