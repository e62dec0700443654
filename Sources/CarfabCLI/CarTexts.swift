import CarFactory

/// The text renderer's `show` texts, by configuration: a configuration is immutable and
/// shared by every car built the same way, so its text is made once and copied after.
///
/// Direct-mapped by the configuration's identity: each slot holds its configuration (so
/// the identity cannot be reused by another while it is kept) and that text. At most
/// `slots` texts of at most `longestText` bytes each, so it stays small whatever names a
/// catalog gives its models and options.
struct CarTexts {
    private struct Slot {
        var configuration: CarConfiguration?
        var text: [UInt8] = []
    }

    static let slots = 64
    static let longestText = 4096

    private var table = [Slot](repeating: Slot(), count: slots)

    /// Where `configuration`'s text is kept, if it is.
    private static func slot(_ configuration: CarConfiguration) -> Int {
        let address = UInt(bitPattern: ObjectIdentifier(configuration))
        // Objects are 16-byte aligned: the bits above those pick the slot.
        return Int((address >> 4) % UInt(slots))
    }

    /// Writes `configuration`'s text to `out`, made by `make` the first time.
    mutating func write(_ configuration: CarConfiguration, to out: Output, make: (Output) -> Void) {
        let slot = Self.slot(configuration)
        if table[slot].configuration === configuration {
            table[slot].text.withUnsafeBufferPointer { out.append($0) }
            return
        }
        let start = out.waiting
        make(out)
        guard out.waiting - start <= Self.longestText else { return }
        table[slot] = Slot(configuration: configuration, text: out.suffix(from: start))
    }
}
