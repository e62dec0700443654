// Case-insensitive names: every catalog name is looked up by its folded key.

/// Folds a name to the key it is looked up by (names are case-insensitive everywhere).
// Inlinable so callers in other modules get a copy specialized for their String or Substring:
// the unspecialized generic looked up StringProtocol's associated types at run time, ~188k
// instructions of the first run's start-up (callgrind), each lookup paid once per process.
@inlinable
public func nameKey(_ name: some StringProtocol) -> String {
    var isASCII = true
    var hasUpper = false
    for byte in name.utf8 {
        if byte >= 0x80 {
            isASCII = false
            break
        }
        if byte >= 0x41 && byte <= 0x5A { hasUpper = true }
    }
    guard isASCII else { return name.lowercased() }
    guard hasUpper else { return String(name) }
    return String(decoding: name.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
}

/// Whether `name` begins with `typed` as names are matched (Tab completion, an editor's):
/// both folded as `nameKey` folds them, then compared as `String` compares, so that a word in
/// another Unicode normal form (`e` and U+0301 for `\u{E9}`) begins the name the catalog's
/// lookups would resolve it to; or as bytes, so that a letter typed before its combining mark
/// still begins the name that holds both.
@inlinable
public func nameBegins(_ name: some StringProtocol, with typed: some StringProtocol) -> Bool {
    let name = nameKey(name)
    let key = nameKey(typed)
    return name.utf8.starts(with: key.utf8) || name.hasPrefix(key)
}
