/// The one table of commands, looked up by name or alias, case-insensitively.
public struct CommandTable: Sendable {
    /// Every command, in `help` order.
    public let specs: [CommandSpec]
    private let index: [String: Int]

    /// A table of `specs`; names and aliases must be unique.
    public init(_ specs: [CommandSpec]) {
        self.specs = specs
        var index: [String: Int] = [:]
        for (position, spec) in specs.enumerated() {
            for name in [spec.name] + spec.aliases {
                precondition(index.updateValue(position, forKey: name) == nil, "command '\(name)' is in the table twice")
            }
        }
        self.index = index
    }

    /// The command called `name`.
    public func lookup(_ name: String) -> CommandSpec? {
        if let position = index[name] { return specs[position] }
        return index[nameKey(name)].map { specs[$0] }
    }

    /// Every name and alias, for suggestions and completion.
    public var allNames: [String] { specs.flatMap { [$0.name] + $0.aliases } }

    /// carfab's commands.
    public static let standard = CommandTable(
        ConfigureCommands.all + ValueCommands.all + CatalogCommands.all + DefinitionCommands.all + ScriptCommands.all)
}

import CarFactory
