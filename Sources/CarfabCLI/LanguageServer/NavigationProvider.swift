import CarFactory
import CarScript

/// `textDocument/definition`, `textDocument/references` and `textDocument/rename` over a
/// `ScriptIndex` of the document and the files it sources.
///
/// The built-in catalog has no file: a built-in model, family, option or currency has no definition
/// to go to (the answer is null and the client is told why, in a message), and it cannot be
/// renamed. Its references are found like any other name's.
struct NavigationProvider {
    let analysis: DocumentAnalysis
    let index: ScriptIndex
    /// The session after the whole document: its catalog and variables.
    let engine: Engine

    init(_ analysis: DocumentAnalysis, catalog: Catalog) {
        self.analysis = analysis
        engine = analysis.wholeSession(catalog: catalog)
        index = ScriptIndex(analysis, catalog: engine.catalog, commands: engine.commands)
    }

    /// What a request answers: a result, or an error message, and perhaps a message for the user.
    enum Answer {
        case result(JSONValue, message: String? = nil)
        case failure(String)
    }

    private func occurrence(at position: TextPosition) -> SymbolOccurrence? {
        let document = analysis.document
        return index.occurrence(in: document.uri, at: document.offset(of: position))
    }

    /// The locations that define the name at `position`; for a `source`d file, its start.
    func definition(at position: TextPosition) -> Answer {
        guard let occurrence = occurrence(at: position) else { return .result(.null) }
        if occurrence.key.kind == .file {
            guard !analysis.settings.safe else { return .result(.null, message: "files are not read under --safe") }
            guard DocumentAnalysis.read(occurrence.key.name, upTo: 0) != nil else {
                return .result(.null, message: "'\(occurrence.written)' cannot be read as a file")
            }
            let start = TextPosition(line: 0, character: 0).json
            return .result(
                .array([
                    .object([
                        "uri": .string(DocumentURI.uri(of: occurrence.key.name)),
                        "range": .object(["start": start, "end": start])
                    ])
                ]))
        }
        let definitions = index.occurrences(of: occurrence.key, where: \.isDefinition, keeping: Self.locationLimit)
        guard definitions.count > 0 else {
            let key = occurrence.key
            return .result(
                .null,
                message: key.kind == .variable || !isBuiltIn(key)
                    ? notDefined(key) : "\(notDefined(key)): carfab's own catalog defines it, in no file (hover shows its entry)")
        }
        return locations(definitions, of: occurrence, counted: "defined")
    }

    /// Every place the name at `position` is used, its definitions too if `includeDeclaration`.
    func references(at position: TextPosition, includeDeclaration: Bool) -> Answer {
        guard let occurrence = occurrence(at: position) else { return .result(.null) }
        let found = index.occurrences(of: occurrence.key, where: { includeDeclaration || !$0.isDefinition }, keeping: Self.locationLimit)
        return locations(found, of: occurrence, counted: "named")
    }

    /// The most locations a definition or references answer lists (as completion's items are
    /// bounded, `CompletionProvider.itemLimit`): a name used on each of a 4 MiB document's
    /// 381,300 lines answered 47.8 MiB of references (trial 9, 1). LSP has no mark for a list
    /// cut short, so the user is told in a message; nor does a rename edit more places.
    static let locationLimit = 5_000

    /// The places `found` (those the name is `counted`: defined, named) as the answer's
    /// `Location`s; the message says what is left out: the places past `locationLimit`, and
    /// the sourced files not searched.
    private func locations(
        _ found: (kept: [SymbolOccurrence], count: Int), of occurrence: SymbolOccurrence, counted: String
    ) -> Answer {
        var notes: [String] = []
        if found.count > found.kept.count {
            notes.append(
                "'\(DisplayText.quotedName(occurrence.written))' is \(counted) in \(found.count) places: the first \(found.kept.count) are listed"
            )
        }
        if let unsearched = unsearchedNote { notes.append(unsearched) }
        return .result(.array(found.kept.map(index.location)), message: notes.isEmpty ? nil : notes.joined(separator: "; "))
    }

    /// What says that sourced files were left out of the index; nil if none were.
    private var unsearchedNote: String? {
        guard let first = index.unsearched.first else { return nil }
        let more = index.unsearched.count > 1 ? " and \(index.unsearched.count - 1) more" : ""
        let why =
            switch first.reason {
            case .tooLarge: "the files this document sources are more than the \(ReplayFiles.largest >> 20) MiB the editor analyses in all"
            case .tooDeep: "it is sourced more than \(maximumSourceDepth) deep"
            case .notRead: "the editor's analysis did not source it"
            }
        return "'\(DisplayText.quotedName(first.file))'\(more) not searched: \(why)"
    }

    /// The edits that rename the name at `position` to `newName` everywhere it is used, as a
    /// `WorkspaceEdit`; refused for a built-in name, a file, or a new name that is not one or is taken.
    func rename(at position: TextPosition, to newName: String) -> Answer {
        guard let occurrence = occurrence(at: position) else {
            return .failure("there is no model, family, option, currency or variable here to rename")
        }
        let key = occurrence.key
        if key.kind == .file {
            return .failure("a sourced file is not renamed by the editor: rename it on disk and change the 'source' line")
        }
        guard index.occurrences(of: key, where: \.isDefinition, keeping: 0).count > 0 else {
            return .failure("\(notDefined(key)), so it cannot be renamed: only names the script (or a file it sources) defines can be")
        }
        if let refused = refusal(of: newName, for: key, renaming: occurrence.written) { return .failure(refused) }
        // A rename that cannot edit every place would leave the script naming what is gone.
        if let unsearched = unsearchedNote { return .failure("not renamed: \(unsearched)") }
        // An option is renamed by the name used here: its own name, or one of its other names.
        let written = occurrence.written.lowercased()
        let (renamed, count) = index.occurrences(
            of: key, where: { key.kind == .variable || $0.written.lowercased() == written }, keeping: Self.locationLimit)
        guard count == renamed.count else {
            return .failure(
                "not renamed: \(count) places name '\(DisplayText.quotedName(occurrence.written))', more than the \(Self.locationLimit) a rename edits"
            )
        }
        var changes: [JSONMember] = []
        for uri in Set(renamed.map(\.uri)).sorted() {
            let edits = renamed.filter { $0.uri == uri }.sorted { $0.range.lowerBound < $1.range.lowerBound }
                .map { JSONValue.object(["range": index.range($0), "newText": .string(newName)]) }
            changes.append(JSONMember(key: uri, value: .array(edits)))
        }
        return .result(.object(["changes": .object(changes)]))
    }

    /// Why `newName` cannot replace `old` as `key`'s name; nil if it can.
    private func refusal(of newName: String, for key: SymbolKey, renaming old: String) -> String? {
        // A new name is written bare (checked below), so what `save` writes for it is its bytes:
        // the bound every definition and `var` holds a name to.
        guard newName.utf8.count <= maximumNameLength else {
            return "the new name is longer than \(maximumNameLength) bytes, the most a name may take"
        }
        if key.kind == .variable {
            let valid = Array(newName.utf8).withUnsafeBufferPointer { VariableSyntax.isName($0) }
            guard valid else {
                return
                    "'\(DisplayText.escaped(newName))' is not a variable name: an ASCII letter or '_', then ASCII letters, digits and '_'"
            }
            if newName != old
                && index.occurrences.contains(where: { $0.key == SymbolKey(kind: .variable, name: newName) && $0.isDefinition })
            {
                return "the variable $\(newName) is set already"
            }
            return nil
        }
        let shown = DisplayText.escaped(newName)
        let lines = ScriptLines.read(Array(newName.utf8))
        guard lines.count == 1, lines[0].commands.count == 1, lines[0].commands[0].count == 1, lines[0].comment == nil,
            lines[0].commands[0][0].text == newName, lines[0].commands[0][0].range == 0..<newName.utf8.count,
            !newName.contains("$")
        else {
            return "'\(shown)' is not a name: one word, without blanks, quotes, ';', '#' or '$'"
        }
        // The new name is written as it is, so it must be one `save` writes bare: no control,
        // bidi, zero-width or other invisible character, no line separator (save would quote
        // and escape it as `\u{202E}`; written raw, the script would show what it does not say).
        guard SessionScript.word(newName) == newName else {
            return
                "'\(shown)' is not a name a script shows as it is: it has a blank, control or invisible character, which 'save' would write quoted"
        }
        // Nor may it begin with a combining mark, which would join the blank or quote before it.
        if let first = newName.unicodeScalars.first,
            [.nonspacingMark, .spacingMark, .enclosingMark].contains(first.properties.generalCategory)
        {
            return "'\(shown)' is not a name a script shows as it is: it begins with a combining mark, which joins the character before it"
        }
        guard newName.lowercased() != old.lowercased() else { return nil }
        let catalog = engine.catalog
        switch key.kind {
        case .model:
            if (try? catalog.registry.factory(named: newName)) != nil { return "a model named '\(newName)' exists already" }
        case .family:
            if catalog.family(named: newName) != nil { return "a family named '\(newName)' exists already" }
            // What the language refuses as a family's name (`in`, `count`, another family's
            // column key), the rename refuses; the family's own old name is no clash.
            let others = catalog.familyNames.filter { nameKey($0) != nameKey(old) }
            if let refusal = familyNameRefusal(newName, among: others) { return refusal }
        case .option(let family):
            if (try? catalog.option(named: newName, in: family)) != nil {
                return "a \(catalog.name(of: family)) option named '\(newName)' exists already"
            }
        case .currency:
            guard newName.unicodeScalars.count == 3, newName.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic }) else {
                return "'\(shown)' is not a currency code: three letters"
            }
            if (try? catalog.currency(named: newName)) != nil { return "a currency '\(newName)' exists already" }
        case .variable, .file:
            break
        }
        return nil
    }

    /// Whether the catalog knows `key` (which the script does not define): then it is built in (or from --catalog).
    private func isBuiltIn(_ key: SymbolKey) -> Bool {
        switch key.kind {
        case .model: (try? engine.catalog.registry.factory(named: key.name)) != nil
        case .family: engine.catalog.family(named: key.name) != nil
        case .option(let family): (try? engine.catalog.option(named: key.name, in: family)) != nil
        case .currency: (try? engine.catalog.currency(named: key.name)) != nil
        case .variable, .file: false
        }
    }

    /// What `key` is, when the script does not define it.
    private func notDefined(_ key: SymbolKey) -> String {
        if key.kind == .variable { return "$\(key.name) is not set by this script" }
        return isBuiltIn(key)
            ? "'\(key.name)' is a built-in \(key.noun(in: engine.catalog))"
            : "'\(key.name)' is not a \(key.noun(in: engine.catalog)) the catalog or this script defines"
    }
}
