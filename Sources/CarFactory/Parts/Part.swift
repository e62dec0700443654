// The three part families a car factory hands out, as protocols.

/// A family of parts, by its place among a catalog's families; a car has exactly one part of each.
///
/// The book's three families are always the first three of every catalog (and keep their typed
/// views: seats and engine position on floorplans); a catalog may define more (`family paint
/// ...`), up to `limit` in all. Only the place is kept, so the value is plain data that an
/// argument can hold; its name is the catalog's (`Catalog.name(of:)`, or a part's `familyName`).
public struct PartFamily: Hashable, Sendable, BitwiseCopyable, CustomStringConvertible {
    /// The family's place among the catalog's families (0, 1, 2 for the book's).
    public let index: Int

    /// The family at place `index` of a catalog's families.
    public init(index: Int) { self.index = index }

    /// The book's floorplans.
    public static let floorplan = PartFamily(index: 0)
    /// The book's suspensions.
    public static let suspension = PartFamily(index: 1)
    /// The book's drivetrains.
    public static let drivetrain = PartFamily(index: 2)
    /// The book's three families, first in every catalog.
    public static let book: [PartFamily] = [.floorplan, .suspension, .drivetrain]
    /// The book's families' names.
    public static let bookNames = ["floorplan", "suspension", "drivetrain"]
    /// The most families a catalog holds, the book's three among them: a car's parts and a
    /// change's cache key stay small (the change cache packs a family into six bits).
    public static let limit = 64
    /// The most options one family holds.
    public static let optionLimit = 1 << 16

    /// Whether it is one of the book's three.
    public var isBook: Bool { index < 3 }

    /// The book family's name; `family N` for a defined one (its name is the catalog's).
    public var description: String { isBook ? Self.bookNames[index] : "family \(index)" }
}

/// Where a floorplan puts the engine.
public enum EnginePosition: String, CaseIterable, Sendable, CustomStringConvertible {
    case front = "Front"
    case mid = "Mid"
    case rear = "Rear"

    /// How it is shown: `Mid`.
    public var description: String { rawValue }

    /// The position named `name` (case-insensitive), if any.
    // Inlinable so a caller in another module gets a copy specialized for its text: the
    // unspecialized one looked up StringProtocol's associated types at run time, a first-time
    // cost (~92k instructions) of every start-up, whose built-in catalog names an engine.
    @inlinable
    public init?(named name: some StringProtocol) {
        let key = nameKey(name)
        guard let match = Self.allCases.first(where: { nameKey($0.rawValue) == key }) else { return nil }
        self = match
    }
}

/// One option of a family as the catalog lists it.
///
/// Parts are catalog entries shared by every car that uses them, so they are
/// immutable classes: a car refers to its parts and never copies them.
public protocol Part: AnyObject, Sendable {
    /// The family this part belongs to.
    var family: PartFamily { get }
    /// The name of that family, e.g. `suspension`, `paint`.
    var familyName: String { get }
    /// The catalog name, e.g. `race`.
    var name: String { get }
    /// How the part is shown on a car, e.g. `Firm`.
    var shownAs: String { get }
    /// Other names the option answers to, e.g. `sports`, `firm`.
    var otherNames: [String] { get }
    /// The list price in the base currency.
    var listPrice: Money { get }
    /// The list price in minor units of the base currency (what price arithmetic uses).
    var listPriceMinorUnits: Int64 { get }
    /// The part as its own family's type, so callers switch instead of casting.
    var kind: PartKind { get }
}

/// A part as the type of its family.
public enum PartKind {
    case floorplan(any Floorplan)
    case suspension(any Suspension)
    case drivetrain(any Drivetrain)
    /// An option of a family the catalog defines (`family paint ...`).
    case defined(any DefinedOption)
}

/// The floor of a car: how many it seats and where its engine sits.
public protocol Floorplan: Part {
    /// Number of seats.
    var seats: Int { get }
    /// Engine position.
    var engine: EnginePosition { get }
}

/// How a car rides.
public protocol Suspension: Part {}

/// Which wheels are driven.
public protocol Drivetrain: Part {}

/// An option of a family defined in the catalog (`Paint: Red`).
public protocol DefinedOption: Part {
    /// Its family's name and how the family is shown on a car.
    var label: FamilyLabel { get }
}

/// A defined family's name and how it is shown (`paint`, `Paint`), one per definition and
/// shared by its options: a part kept from an earlier definition of the same place is told
/// apart by identity.
public final class FamilyLabel: Sendable {
    /// The family's name, e.g. `paint`.
    public let name: String
    /// How the family is shown on a car, e.g. `Paint`.
    public let shownAs: String
    /// The name of its first option, which every model has that names none of the family.
    let defaultOption: String

    init(name: String, shownAs: String, defaultOption: String) {
        self.name = name
        self.shownAs = shownAs
        self.defaultOption = defaultOption
    }
}
