/// Maps model names to their factories; built-in and defined factories sit side by side.
public struct FactoryRegistry: Sendable {
    /// Each factory's place in `factories`, by its model's name.
    private var byKey = NameMap()
    /// Every factory, in the order registered.
    public private(set) var factories: [any CarFactory] = []

    /// An empty registry.
    public init() {}

    /// The factory for `model` (case-insensitive).
    public func factory(named model: some StringProtocol) throws(CarFactoryError) -> any CarFactory {
        guard let position = byKey[nameKey(model)] else { throw .unknownModel(String(model)) }
        return factories[position]
    }

    /// Whether a model of that name is registered.
    public func contains(_ model: some StringProtocol) -> Bool { byKey[nameKey(model)] != nil }

    /// Adds a factory; a model name can be registered once.
    public mutating func register(_ factory: any CarFactory) throws(CarFactoryError) {
        let key = nameKey(factory.model)
        guard byKey[key] == nil else { throw .duplicateModel(factory.model) }
        byKey.set(factories.count, for: key)
        factories.append(factory)
    }

    /// Adds a factory whose model's name is known to be free (its own again, for `redo`).
    mutating func append(_ factory: any CarFactory) {
        byKey.set(factories.count, for: nameKey(factory.model))
        factories.append(factory)
    }

    /// Takes the last factory off (`undo`).
    mutating func removeLast() -> (any CarFactory)? {
        guard let factory = factories.popLast() else { return nil }
        byKey.remove(nameKey(factory.model))
        return factory
    }
}
