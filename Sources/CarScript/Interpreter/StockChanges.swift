import CarFactory

// How `car` and `set` change the stock: by configuration id, through `ConfigurationCache`.
// What is not known yet is worked out by the rule set through `CarBuilder`, the one place a
// configuration is checked and priced, and remembered; a refusal is worked out again each
// time, so that it throws the error `CarBuilder` throws.
extension Session {
    /// The id of model `model`'s default configuration (a position in the catalog index);
    /// throws if it breaks a rule.
    @inline(__always)
    func defaultConfiguration(ofModel model: Int) throws(CarFactoryError) -> Int32 {
        validateConfigurations()
        let known = configurations.knownDefault(model)
        if known.id >= 0 { return known.id }
        return try learnDefault(ofModel: model)
    }

    /// The id of configuration `current` with option `option` of family `family` in place of
    /// its part of that family; throws if the change breaks a rule or the price.
    @inline(__always)
    func changedConfiguration(_ current: Int32, family: Int, option: Int) throws(CarFactoryError) -> Int32 {
        validateConfigurations()
        guard let key = TransitionTable.key(current, family: family, option: option) else {
            return try learnChange(of: current, family: family, option: option, key: nil)
        }
        let known = configurations.transitions.outcome(key)
        if known.id >= 0 { return known.id }
        // A refusal kept already is not kept again.
        return try learnChange(
            of: current, family: family, option: option,
            key: known.id == ConfigurationCache.Known.unknown.id ? key : nil)
    }

    // Each configuration and change is worked out once; kept out of line from the lookups
    // that usually find it done.

    @inline(never)
    private func learnDefault(ofModel model: Int) throws(CarFactoryError) -> Int32 {
        let car: Car
        do throws(CarFactoryError) {
            car = try CarBuilder(factory: index.factories[model], rules: index.rules).build()
        } catch {
            configurations.setDefault(.refused, for: model)
            throw error
        }
        let id = try stock.id(of: car.configuration)
        // Giving out the id may have renumbered the stock's configurations.
        validateConfigurations()
        configurations.setDefault(ConfigurationCache.Known(id: id), for: model)
        return id
    }

    @inline(never)
    private func learnChange(of current: Int32, family: Int, option: Int, key: UInt64?) throws(CarFactoryError) -> Int32 {
        let part = index.parts(family)[option]
        var builder = CarBuilder(car: Car(configuration: stock.configuration(current)), rules: index.rules)
        do throws(CarFactoryError) {
            try builder.set(part)
        } catch {
            if let key { configurations.transitions.keep(.refused, for: key) }
            throw error
        }
        let generation = stock.generation
        let id = try stock.id(of: try builder.build().configuration)
        // Renumbered: `key` names the old number of the current configuration, so it is not kept.
        if let key, stock.generation == generation { configurations.transitions.keep(ConfigurationCache.Known(id: id), for: key) }
        return id
    }

    /// Forgets what the cache remembers if the stock's ids or the rules have changed.
    @inline(__always)
    private func validateConfigurations() {
        configurations.validate(generation: stock.generation, rulesVersion: index.rulesVersion)
    }
}
