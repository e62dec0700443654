// File names as the language means them, worked out on the names alone (the host resolves
// them against the file system).

/// The directory part of `path` (`.` if it has none).
package func directoryName(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
}

/// `path` resolved against `directory` unless it is absolute.
package func resolvePath(_ path: String, against directory: String) -> String {
    if path.hasPrefix("/") || directory == "." { return path }
    return directory.hasSuffix("/") ? directory + path : directory + "/" + path
}
