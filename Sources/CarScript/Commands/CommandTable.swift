import CarFactory

/// The one table of commands, looked up by name or alias, case-insensitively.
package final class CommandTable: Sendable {
    /// Every command, in `help` order.
    package let specs: [CommandSpec]
    private let index: NameIndex
    /// Where the host's commands (`HostCommand`) begin in `specs`, after the language's: they
    /// are looked for only when `index` finds no name, one by one (a host adds a few), so the
    /// language's commands are found as fast with them as without, and an engine's start
    /// builds nothing for them but this table's list.
    private let hostStart: Int

    /// A table of `specs`; names and aliases must be unique.
    package init(_ specs: [CommandSpec]) {
        self.specs = specs
        var index = NameIndex(capacity: specs.count * 2)
        for (position, spec) in specs.enumerated() {
            for name in [spec.name] + spec.aliases {
                precondition(index.lookup(name) == nil, "command '\(name)' is in the table twice")
                index.insert(name, value: position)
            }
        }
        index.arrange()
        self.index = index
        hostStart = specs.count
    }

    /// `base` with the host's commands `added` after its own (see `HostCommand`); their names
    /// must be new.
    init(_ base: CommandTable, adding added: [CommandSpec]) {
        specs = base.specs + added
        index = base.index
        hostStart = base.specs.count
        for (offset, spec) in added.enumerated() {
            precondition(
                base.lookup(spec.name) == nil && !added[..<offset].contains { Self.sameName($0.name, spec.name) },
                "command '\(spec.name)' is in the table twice")
        }
    }

    /// The command called `name`, in any case.
    package func lookup(_ name: String) -> CommandSpec? {
        if let position = index.lookup(name) { return specs[position] }
        return specs[hostStart...].first { Self.sameName($0.name, name) }
    }

    /// The position in `specs` of the command spelled by a lexed word, in any case.
    @inline(__always)
    func position(of word: PaddedBytes) -> Int? {
        if let position = index.lookup(word) { return position }
        return hostPosition(of: word)
    }

    /// The position of a host's command spelled by `word`: out of line, as only a word that
    /// names none of the language's commands comes here.
    @inline(never)
    private func hostPosition(of word: PaddedBytes) -> Int? {
        specs[hostStart...].firstIndex { Self.sameName($0.name, word.bytes) }
    }

    /// Whether two names are one in any case (a host's command's name is ASCII: see `HostCommand.isCommandName`).
    private static func sameName(_ name: String, _ other: some Collection<UInt8>) -> Bool {
        name.utf8.count == other.count && zip(name.utf8, other).allSatisfy { Self.folded($0) == Self.folded($1) }
    }

    private static func sameName(_ name: String, _ other: String) -> Bool { sameName(name, other.utf8) }

    private static func folded(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// Runs `body` with the command at `position`, borrowed from the table without counting a
    /// reference (the table outlives every command). Taken from `specs` as a counted reference
    /// instead, each command retained and released it: 1,354 -> 1,331 instructions a command on
    /// the benchmark mix, 1,349 -> 1,326 on set/show (callgrind, 10^5 commands).
    @inline(__always)
    func withSpec(at position: Int, _ body: (CommandSpec) throws(ScriptError) -> Void) throws(ScriptError) {
        try Unmanaged.passUnretained(specs[position]).borrowThrowing(body)
    }

    /// Every name and alias, for suggestions and completion.
    package var allNames: [String] { specs.flatMap { [$0.name] + $0.aliases } }

    /// carfab's commands.
    package static let standard = CommandTable(
        ConfigureCommands.all + ConfiguratorCommands.all + ValueCommands.all + CatalogCommands.all + DefinitionCommands.all
            + HistoryCommands.all + ScriptCommands.all)
}
