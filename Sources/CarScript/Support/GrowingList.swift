/// A list that only grows, in raw storage owned by one object: the catalog index holds it by
/// a constant reference, so reading an element on the hot path counts no reference to an
/// array buffer, while definitions still add to it in place (in time proportional to what
/// they add).
final class GrowingList<Element> {
    // The optimizer proves these fields' accesses never overlap and drops their run-time
    // exclusivity checks without an annotation (callgrind: no check left on the hot path).
    private var storage: UnsafeMutablePointer<Element>
    private var capacity: Int
    /// How many elements it holds.
    private(set) var count = 0

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
            // Checked in every build: one unsigned comparison checks both ends.
            precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "index \(index) of \(count)")
            return storage[index]
        }
        set {
            precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "index \(index) of \(count)")
            storage[index] = newValue
        }
    }

    /// Adds `element` at the end.
    func append(_ element: Element) {
        if count == capacity { (storage, capacity) = RawStorage.grow(storage, capacity: capacity, moving: count, toHold: count + 1) }
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
