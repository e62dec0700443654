// The concrete parts behind the family protocols; only the catalog makes them.

/// What every catalog option holds, whatever its family.
struct OptionFields: Sendable {
    let name: String
    let shownAs: String
    let otherNames: [String]
    let listPriceMinorUnits: Int64

    init(_ definition: OptionDefinition) {
        name = definition.name
        shownAs = definition.shownAs
        otherNames = definition.otherNames
        listPriceMinorUnits = definition.listPrice.minorUnits
    }
}

/// A part made from a catalog definition.
protocol CatalogOption: Part {
    var fields: OptionFields { get }
}

extension CatalogOption {
    var name: String { fields.name }
    var shownAs: String { fields.shownAs }
    var otherNames: [String] { fields.otherNames }
    var listPriceMinorUnits: Int64 { fields.listPriceMinorUnits }
    var listPrice: Money { .base(fields.listPriceMinorUnits) }
}

final class CatalogFloorplan: Floorplan, CatalogOption {
    let fields: OptionFields
    let seats: Int
    let engine: EnginePosition
    var family: PartFamily { .floorplan }
    var familyName: String { "floorplan" }
    var kind: PartKind { .floorplan(self) }

    init(_ definition: OptionDefinition, seats: Int, engine: EnginePosition) {
        fields = OptionFields(definition)
        self.seats = seats
        self.engine = engine
    }
}

final class CatalogSuspension: Suspension, CatalogOption {
    let fields: OptionFields
    var family: PartFamily { .suspension }
    var familyName: String { "suspension" }
    var kind: PartKind { .suspension(self) }

    init(_ definition: OptionDefinition) { fields = OptionFields(definition) }
}

final class CatalogDrivetrain: Drivetrain, CatalogOption {
    let fields: OptionFields
    var family: PartFamily { .drivetrain }
    var familyName: String { "drivetrain" }
    var kind: PartKind { .drivetrain(self) }

    init(_ definition: OptionDefinition) { fields = OptionFields(definition) }
}

final class CatalogDefinedOption: DefinedOption, CatalogOption {
    let fields: OptionFields
    let family: PartFamily
    let label: FamilyLabel
    var familyName: String { label.name }
    var kind: PartKind { .defined(self) }

    init(_ definition: OptionDefinition, label: FamilyLabel) {
        fields = OptionFields(definition)
        family = definition.family
        self.label = label
    }
}
