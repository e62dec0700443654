import CarFactory
import CarScript
import CarfabPOSIX

#if canImport(Glibc)
import Glibc
#endif

/// `textDocument/completion` from the prompt's completer: the same candidates and
/// descriptions (a command's summary, a model's type and price, an option's price change on
/// the current car or the rule that forbids it), with the session as it stands at the line.
enum CompletionProvider {
    /// What the client may type to ask for completion without asking: a blank begins the
    /// next argument, `$` a variable.
    static let triggerCharacters = [" ", "$"]

    /// A `CompletionList` for `position` in `analysis`'s document.
    static func completions(in analysis: DocumentAnalysis, at position: TextPosition, catalog: Catalog) -> JSONValue {
        let document = analysis.document
        let line = min(position.line, document.lineCount - 1)
        let cursor = document.offset(of: TextPosition(line: line, character: position.line == line ? position.character : Int.max))
        let prefix = Array(document.bytes[document.lineRange(line).lowerBound..<cursor])
        let engine = analysis.state(before: line, catalog: catalog)
        // The prompt's completer, which completes a command typed after others on its line
        // against the state they leave (trial 12, 2: after `car suv; set drivetrain ` the
        // options were priced for the car of the line above).
        var completer = engine.completer(
            workingDirectory: analysis.directory, completesFiles: analysis.path != nil && !analysis.settings.safe)
        // `~/` in a file name is the home folder, as for running (no files under --safe).
        let home = getenv("HOME").flatMap { String(validatingCString: $0) }
        func served(_ completer: inout Completer) {
            completer.host = POSIXHost()
            completer.home = home
            // A stop signal ends the server: the completion under way is not finished first.
            completer.stop = programStop
        }
        served(&completer)
        completer.rehearse = completer.rehearse.map { rehearse in
            { earlier in
                var later = rehearse(earlier)
                served(&later)
                return later
            }
        }
        let completion = completer.complete(String(decoding: prefix, as: UTF8.self))
        let kind = itemKind(prefix: prefix, commands: engine.commands, verbatim: completion.verbatim)
        let typedUnits = TextDocument.utf16Count(Array(completion.typed.utf8)[...])
        let end = document.position(of: cursor)
        let start = TextPosition(line: end.line, character: max(end.character - typedUnits, 0))
        var items: [JSONValue] = []
        // At most `itemLimit` items, the allowed options first (as `sortText` orders them); the
        // list is then incomplete, and the client asks again as more of the word is typed.
        var sent = completion.candidates.indices.map { _ in true }
        let truncated = completion.candidates.count > Self.itemLimit
        if truncated {
            let forbidden = { (index: Int) in index < completion.forbidden.count && completion.forbidden[index] }
            let kept = completion.candidates.indices.filter { !forbidden($0) } + completion.candidates.indices.filter(forbidden)
            sent = completion.candidates.indices.map { _ in false }
            for index in kept.prefix(Self.itemLimit) { sent[index] = true }
        }
        for (index, candidate) in completion.candidates.enumerated() where sent[index] {
            let description = index < completion.descriptions.count ? completion.descriptions[index] : ""
            let forbidden = index < completion.forbidden.count && completion.forbidden[index]
            var single = Completion(
                partial: completion.partial, candidates: [candidate], typed: completion.typed,
                verbatim: completion.verbatim)
            single.descriptions = [description]
            var newText = single.replacement ?? candidate
            if newText.hasSuffix(" ") { newText.removeLast() }
            var members: [JSONMember] = [
                JSONMember(key: "label", value: .string(candidate)),
                JSONMember(key: "kind", value: .integer(candidate.hasSuffix("/") ? 19 : kind))
            ]
            if !description.isEmpty { members.append(JSONMember(key: "detail", value: .string(description))) }
            if let documentation = documentation(
                of: candidate, kind: kind, forbidden: forbidden, description: description,
                commands: engine.commands)
            {
                members.append(
                    JSONMember(
                        key: "documentation",
                        value: .object(["kind": .string("markdown"), "value": .string(documentation)])))
            }
            // Options a rule forbids come after the allowed ones; otherwise the catalog's order.
            let order = String(index)
            members.append(
                JSONMember(
                    key: "sortText",
                    value: .string(
                        (forbidden ? "1" : "0")
                            + String(repeating: "0", count: max(0, 6 - order.count)) + order)))
            members.append(JSONMember(key: "filterText", value: .string(newText)))
            members.append(
                JSONMember(
                    key: "textEdit",
                    value: .object([
                        "range": .object(["start": start.json, "end": end.json]),
                        "newText": .string(newText)
                    ])))
            items.append(.object(members))
        }
        return .object(["isIncomplete": .bool(completion.stopped || truncated), "items": .array(items)])
    }

    /// The most items one completion answers with: a family of 60,000 options sent them all,
    /// 13 MB of JSON at every keystroke of the word (trial 4, 10).
    static let itemLimit = 5_000

    /// LSP's `CompletionItemKind` for what the word at the end of `prefix` stands for.
    private static func itemKind(prefix: [UInt8], commands: CommandTable, verbatim: Bool) -> Int {
        if verbatim { return 6 }
        // A letter in place of the word being typed, so that there is a word to ask about.
        guard let (words, index) = Completer.command(in: prefix + [UInt8(ascii: "x")], at: prefix.count) else { return 1 }
        if index == 0 { return 3 }
        guard let spec = commands.lookup(words[0].text), index - 1 < spec.arguments.count else { return 1 }
        switch spec.arguments[index - 1].kind.category {
        case .model: return 7
        case .family: return 13
        case .option: return 20
        case .currency: return 11
        case .file: return 17
        case .command: return 3
        case .variable: return 6
        case .field: return 5
        case .keyword: return 14
        case .value: return 1
        }
    }

    /// More about a candidate than its one-line detail: a command's usage and details, why a rule forbids an option.
    private static func documentation(
        of candidate: String, kind: Int, forbidden: Bool, description: String,
        commands: CommandTable
    ) -> String? {
        if kind == 3, let spec = commands.lookup(candidate) {
            return HoverProvider.commandText(spec)
        }
        if forbidden { return "A rule forbids this option on the current car: \(description)" }
        return nil
    }
}
