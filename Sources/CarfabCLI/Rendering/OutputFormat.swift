/// The output format of results and errors: a renderer of a session's results (`text`,
/// `json`) or a report of `--test` (`tap` too). A new format is a case here, and the
/// compiler then asks for it at each `switch` that chooses by format.
public enum OutputFormat: String, CaseIterable, Sendable {
    case text, json, tap

    /// The format when none is asked for.
    static let standard = OutputFormat.text

    /// What it prints, as the completion scripts describe it.
    var summary: String {
        switch self {
        case .text: "plain text (the default)"
        case .json: "one JSON object per line"
        case .tap: "TAP, with --test"
        }
    }

    /// Whether only `--test` writes it: a session's results have no TAP form.
    var isOnlyForTests: Bool {
        switch self {
        case .text, .json: false
        case .tap: true
        }
    }

    /// The format `--format` names.
    init(argument: String) throws(UsageError) {
        guard let format = OutputFormat(rawValue: argument) else {
            let names = Self.allCases.map { $0.rawValue + ($0.isOnlyForTests ? " with --test" : "") }
            throw UsageError(message: "unknown format '\(argument)' (use \(listed(names, serialComma: true)))")
        }
        self = format
    }

    /// The formats, as `--help` (with the default marked) and completion list them.
    static func choices(default marked: Bool) -> String {
        listed(
            allCases.map { format in
                format.rawValue + (marked && format == standard ? " (default)" : "") + (format.isOnlyForTests ? " (with --test)" : "")
            }, serialComma: true)
    }
}
