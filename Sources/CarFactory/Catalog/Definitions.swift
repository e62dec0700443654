// What a definition says, before the catalog checks and registers it.

/// A new option of one family: `option drivetrain hybrid "Hybrid AWD" price 6500`.
public struct OptionDefinition: Sendable {
    /// The family the option joins.
    public var family: PartFamily
    /// That family's name (`drivetrain`, `paint`), as a script names it.
    public var familyName: String
    /// The catalog name.
    public var name: String
    /// How the option is shown on a car.
    public var shownAs: String
    /// Other names the option answers to.
    public var otherNames: [String]
    /// The list price in the base currency.
    public var listPrice: Money
    /// Seats, for a floorplan.
    public var seats: Int?
    /// Engine position, for a floorplan.
    public var engine: EnginePosition?

    /// Describes an option; `seats` and `engine` are for floorplans only.
    public init(
        family: PartFamily, familyName: String? = nil, name: String, shownAs: String, otherNames: [String] = [],
        listPrice: Money, seats: Int? = nil, engine: EnginePosition? = nil
    ) {
        self.family = family
        self.familyName = familyName ?? family.description
        self.name = name
        self.shownAs = shownAs
        self.otherNames = otherNames
        self.listPrice = listPrice
        self.seats = seats
        self.engine = engine
    }
}

/// A new model: `model roadster "Mazda MX-5" price 31000 floorplan short suspension race drivetrain rear`.
public struct ModelDefinition: Sendable {
    /// The model name cars are ordered by.
    public var name: String
    /// The car type shown on the car.
    public var carType: String
    /// The base price in the base currency.
    public var basePrice: Money
    /// Default option names, by family.
    public var floorplan: String, suspension: String, drivetrain: String
    /// Default options of defined families (`paint red`), by family name; a defined family
    /// not named here gives the model its own default option.
    public var others: [(family: String, option: String)]

    /// Describes a model and its default options.
    public init(
        name: String, carType: String, basePrice: Money,
        floorplan: String, suspension: String, drivetrain: String,
        others: [(family: String, option: String)] = []
    ) {
        self.name = name
        self.carType = carType
        self.basePrice = basePrice
        self.floorplan = floorplan
        self.suspension = suspension
        self.drivetrain = drivetrain
        self.others = others
    }
}

/// A new part family and its first option, every model's default of it unless the model
/// names another: `family paint "Paint" default white "White" price 0`.
public struct FamilyDefinition: Sendable {
    /// The family's name, as `set` and rules name it.
    public var name: String
    /// How the family is shown on a car (`Paint: White`).
    public var shownAs: String
    /// The first option's name.
    public var option: String
    /// How the first option is shown on a car.
    public var optionShownAs: String
    /// The first option's list price in the base currency.
    public var listPrice: Money

    /// Describes a family and its default option.
    public init(name: String, shownAs: String, option: String, optionShownAs: String, listPrice: Money) {
        self.name = name
        self.shownAs = shownAs
        self.option = option
        self.optionShownAs = optionShownAs
        self.listPrice = listPrice
    }
}

/// One definition a catalog was made of, as it was given.
public enum CatalogDefinition: Sendable {
    case family(FamilyDefinition)
    case option(OptionDefinition)
    case model(ModelDefinition)
    case rule(Rule)
    case currency(Currency)
}
