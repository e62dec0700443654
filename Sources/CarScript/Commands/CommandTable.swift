import CarFactory

/// The one table of commands, looked up by name or alias, case-insensitively.
package final class CommandTable: Sendable {
    /// Every command, in `help` order.
    package let specs: [CommandSpec]
    private let index: NameIndex

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
    }

    /// The command called `name`, in any case.
    package func lookup(_ name: String) -> CommandSpec? {
        index.lookup(name).map { specs[$0] }
    }

    /// The position in `specs` of the command spelled by a lexed word, in any case.
    @inline(__always)
    func position(of word: PaddedBytes) -> Int? {
        index.lookup(word)
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
