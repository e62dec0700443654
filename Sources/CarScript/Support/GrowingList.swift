/// A list that only grows, in raw storage owned by one object: the catalog index holds it by
/// a constant reference, so reading an element on the hot path counts no reference to an
/// array buffer, while definitions still add to it in place (in time proportional to what
/// they add).
final class GrowingList<Element> {
    // Fields of the hot path skip run-time exclusivity checks (see ARCHITECTURE.md).
    @exclusivity(unchecked) private var storage: UnsafeMutablePointer<Element>
    @exclusivity(unchecked) private var capacity: Int
    /// How many elements it holds.
    @exclusivity(unchecked) private(set) var count = 0

    /// A list of `elements`.
    init(_ elements: [Element]) {
        capacity = max(elements.count, 8)
        storage = .allocate(capacity: capacity)
        storage.initialize(from: elements, count: elements.count)
        count = elements.count
    }

    deinit {
        storage.deinitialize(count: count)
        storage.deallocate()
    }

    /// Element `index`.
    subscript(index: Int) -> Element {
        get {
            assert(index >= 0 && index < count, "index \(index) of \(count)")
            return storage[index]
        }
        set {
            precondition(index >= 0 && index < count, "index \(index) of \(count)")
            storage[index] = newValue
        }
    }

    /// Adds `element` at the end.
    func append(_ element: Element) {
        if count == capacity {
            let bigger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
            bigger.moveInitialize(from: storage, count: count)
            storage.deallocate()
            storage = bigger
            capacity *= 2
        }
        (storage + count).initialize(to: element)
        count += 1
    }

    /// Drops the last `k` elements (`undo` of a definition).
    func removeLast(_ k: Int) {
        precondition(k >= 0 && k <= count, "removing \(k) of \(count)")
        count -= k
        (storage + count).deinitialize(count: k)
    }

    /// Every element, in order.
    var all: [Element] { (0..<count).map { storage[$0] } }
}
