// The concrete parts behind the family protocols; only the catalog makes them.

final class CatalogFloorplan: Floorplan {
    let name: String
    let shownAs: String
    let otherNames: [String]
    let listPriceMinorUnits: Int64
    var listPrice: Money { .base(listPriceMinorUnits) }
    let seats: Int
    let engine: EnginePosition
    var family: PartFamily { .floorplan }
    var kind: PartKind { .floorplan(self) }

    init(_ definition: OptionDefinition, seats: Int, engine: EnginePosition) {
        name = definition.name
        shownAs = definition.shownAs
        otherNames = definition.otherNames
        listPriceMinorUnits = definition.listPrice.minorUnits
        self.seats = seats
        self.engine = engine
    }
}

final class CatalogSuspension: Suspension {
    let name: String
    let shownAs: String
    let otherNames: [String]
    let listPriceMinorUnits: Int64
    var listPrice: Money { .base(listPriceMinorUnits) }
    var family: PartFamily { .suspension }
    var kind: PartKind { .suspension(self) }

    init(_ definition: OptionDefinition) {
        name = definition.name
        shownAs = definition.shownAs
        otherNames = definition.otherNames
        listPriceMinorUnits = definition.listPrice.minorUnits
    }
}

final class CatalogDrivetrain: Drivetrain {
    let name: String
    let shownAs: String
    let otherNames: [String]
    let listPriceMinorUnits: Int64
    var listPrice: Money { .base(listPriceMinorUnits) }
    var family: PartFamily { .drivetrain }
    var kind: PartKind { .drivetrain(self) }

    init(_ definition: OptionDefinition) {
        name = definition.name
        shownAs = definition.shownAs
        otherNames = definition.otherNames
        listPriceMinorUnits = definition.listPrice.minorUnits
    }
}
