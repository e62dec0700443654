import CarFactory

/// The cheapest repair's price change for each option a completion lists that a rule refuses:
/// one configurator over the catalog and one budget of steps for all of them. A search per
/// option, each with its own configurator and its own 1,000,000 steps, made Tab on a family
/// of 15,000 such options take over 20 seconds.
final class RepairPricing {
    /// What the search said about one option.
    enum Price {
        /// Its cheapest repair changes the price by this much.
        case repair(priceChange: Int64)
        /// A stop request ended the search: the completion is abandoned.
        case stopped
        /// No price to show: no valid car has it, the budget is spent, or the car is not in the catalog's terms.
        case none
    }

    private let catalog: Catalog
    /// Nil where the catalog is too wide for one (`catalogTooWide`): no option is priced.
    private let configurator: Configurator?
    /// The car as the configurator sees it; nil if it has an option the catalog no longer lists.
    private let current: [Int]?
    private let budget: SearchBudget
    /// Whether the budget ran out: the options after it are not searched.
    private var spent = false
    /// Each family's options by identity, to their place in it (made when first needed).
    private var places: [Int: [ObjectIdentifier: Int]] = [:]

    init(catalog: Catalog, car: Car, steps: Int, budget: SearchBudget, stop: StopRequest?) {
        self.catalog = catalog
        self.budget = budget
        let space = ConfigurationSpace(catalog)
        configurator = try? Configurator(
            space: space, limits: SearchLimits(steps: steps, repairs: 1), shouldStop: { stop?.isRequested ?? false })
        current = ConfigurationSpace.options(of: car, in: catalog)
    }

    /// The cheapest repair's price change for putting `part` on the car.
    func cheapest(for part: any Part) -> Price {
        guard !spent, let configurator, let current, let option = place(of: part) else { return .none }
        do throws(CarFactoryError) {
            let repairs = try configurator.repairs(of: current, wanting: .init(part.family.index, option), limit: 1, spending: budget)
            return repairs.first.map { .repair(priceChange: $0.priceChange) } ?? .none
        } catch {
            switch error {
            case .searchStopped: return .stopped
            case .searchLimitReached:
                spent = true
                return .none
            default: return .none
            }
        }
    }

    /// `part`'s place among its family's options.
    private func place(of part: any Part) -> Int? {
        let family = part.family.index
        if places[family] == nil {
            let parts = catalog.options(of: part.family).parts
            places[family] = Dictionary(parts.indices.map { (ObjectIdentifier(parts[$0]), $0) }) { first, _ in first }
        }
        return places[family]?[ObjectIdentifier(part)]
    }
}
