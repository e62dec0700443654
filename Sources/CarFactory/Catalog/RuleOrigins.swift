/// Where each rule of a catalog was defined (`FILE:LINE`, as `why` and the notes of a refused
/// `set` show it), each file's name kept once.
///
/// What a catalog counts against its bound is what it defines, not how its files were named:
/// each file rules come from counts `fileCost` bytes (its name's, if more), whatever path
/// named it, and a rule's line counts nothing beyond the rule's own entry. Each origin counted
/// whole made a catalog near the bound load or not by the directory carfab ran in (5,000 rules
/// through a path 16 bytes longer counted 80 KB more; trial 10, 9).
struct RuleOrigins: Sendable {
    /// Where one rule was defined: line `line` (-1: none given) of `file` (empty: not known).
    struct Origin: Sendable {
        let file: String
        let line: Int

        init(file: String, line: Int) {
            self.file = file
            self.line = line
        }

        /// `FILE:LINE` (`""`: not known).
        init(parsing text: String) {
            (file, line) = RuleOrigins.split(text)
        }

        /// As `why` shows it: `FILE:LINE`.
        var text: String { file.isEmpty ? "" : line >= 0 ? "\(file):\(line)" : file }
    }

    /// What each file rules come from counts: a path's longest (PATH_MAX), so a file counts
    /// the same by any name a system takes.
    static let fileCost = 4096

    /// What the origins hold, in one object the catalog's copies share until one changes (as
    /// `NameIndex`'s table): its five lists as fields of the catalog made every copy of it
    /// (start-up makes some twenty) retain and release each, ~15,000 instructions a start.
    private final class Storage: @unchecked Sendable {
        /// Per rule, in rule order: its file's place in `files` (-1: not known), and its line
        /// (-1: none given).
        var fileOfRule: [Int] = []
        var lineOfRule: [Int] = []
        /// The files rules come from, in the order they first did, and how many rules each holds.
        var files: [String] = []
        var rulesOfFile: [Int] = []
        /// Each file's place in `files`, by name, once there are two (rules mostly come one
        /// file after another, and the last is looked at first: the built-in catalog's rules,
        /// at every start, hash no name).
        var fileIndex = NameMap()

        init() {}

        init(copying other: Storage) {
            fileOfRule = other.fileOfRule
            lineOfRule = other.lineOfRule
            files = other.files
            rulesOfFile = other.rulesOfFile
            fileIndex = other.fileIndex
        }
    }

    private var storage = Storage()

    /// The storage, this value's own before it changes.
    private mutating func owned() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(copying: storage) }
        return storage
    }

    /// The bytes `origin` would add to the catalog's count: its file's cost, if no rule
    /// comes from it yet.
    func cost(of origin: Origin) -> Int {
        guard !origin.file.isEmpty, place(of: origin.file) == nil else { return 0 }
        return max(Self.fileCost, origin.file.utf8.count)
    }

    /// `file`'s place in the files, if a rule comes from it.
    private func place(of file: String) -> Int? {
        if let last = storage.files.last, last == file { return storage.files.count - 1 }
        return storage.fileIndex[file]
    }

    /// Adds the origin of the next rule.
    mutating func append(_ origin: Origin) {
        let known = origin.file.isEmpty ? -1 : place(of: origin.file)
        let storage = owned()
        guard !origin.file.isEmpty else {
            storage.fileOfRule.append(-1)
            storage.lineOfRule.append(-1)
            return
        }
        let position: Int
        if let known {
            position = known
        } else {
            position = storage.files.count
            if position == 1 { storage.fileIndex.set(0, for: storage.files[0]) }
            storage.files.append(origin.file)
            storage.rulesOfFile.append(0)
            if position > 0 { storage.fileIndex.set(position, for: origin.file) }
        }
        storage.rulesOfFile[position] += 1
        storage.fileOfRule.append(position)
        storage.lineOfRule.append(origin.line)
    }

    /// Takes the last rule's origin off, and returns it. A file no rule comes from then goes:
    /// it is the last, as rules are taken off last first.
    mutating func removeLast() -> Origin {
        let storage = owned()
        guard let file = storage.fileOfRule.popLast(), let line = storage.lineOfRule.popLast() else {
            return Origin(file: "", line: -1)
        }
        guard file >= 0 else { return Origin(file: "", line: line) }
        let origin = Origin(file: storage.files[file], line: line)
        storage.rulesOfFile[file] -= 1
        if storage.rulesOfFile[file] == 0 && file == storage.files.count - 1 {
            storage.fileIndex.remove(storage.files[file])
            storage.files.removeLast()
            storage.rulesOfFile.removeLast()
            if storage.files.count == 1 { storage.fileIndex.remove(storage.files[0]) }
        }
        return origin
    }

    /// The origin of the rule at `position`, if known.
    func origin(at position: Int) -> String? {
        guard position < storage.fileOfRule.count, storage.fileOfRule[position] >= 0 else { return nil }
        return Origin(file: storage.files[storage.fileOfRule[position]], line: storage.lineOfRule[position]).text
    }

    /// `FILE:LINE` as its file and line (-1 if it ends in no line number that fits).
    fileprivate static func split(_ origin: String) -> (file: String, line: Int) {
        let utf8 = origin.utf8
        var index = utf8.endIndex
        var line = 0
        var scale = 1
        while index > utf8.startIndex {
            let before = utf8.index(before: index)
            let byte = utf8[before]
            if byte == UInt8(ascii: ":") {
                guard index < utf8.endIndex else { break }
                return (String(origin[..<before]), line)
            }
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"), scale <= 100_000_000_000_000_000 else { break }
            line += Int(byte - UInt8(ascii: "0")) * scale
            scale *= 10
            index = before
        }
        return (origin, -1)
    }
}
