// The three part families a car factory hands out, as protocols.

/// A family of parts; a car has exactly one part of each.
public enum PartFamily: String, CaseIterable, Sendable, CustomStringConvertible {
    case floorplan, suspension, drivetrain

    /// The family named `name` (case-insensitive), if any.
    public init?(named name: some StringProtocol) {
        self.init(rawValue: nameKey(name))
    }

    /// The name, as typed (interpolation uses it directly, without reflection).
    public var description: String { rawValue }

    /// The family at position `index` of `allCases` (0, 1 or 2), without making the array.
    public init(index: Int) {
        switch index {
        case 0: self = .floorplan
        case 1: self = .suspension
        default: self = .drivetrain
        }
    }

    /// The family's position in `allCases`.
    public var index: Int {
        switch self {
        case .floorplan: 0
        case .suspension: 1
        case .drivetrain: 2
        }
    }
}

/// Where a floorplan puts the engine.
public enum EnginePosition: String, CaseIterable, Sendable, CustomStringConvertible {
    case front = "Front", mid = "Mid", rear = "Rear"

    /// How it is shown: `Mid`.
    public var description: String { rawValue }

    /// The position named `name` (case-insensitive), if any.
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
