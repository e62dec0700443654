import CarScript

/// A shell carfab writes a completion script for.
public enum CompletionShell: String, CaseIterable, Sendable {
    case bash, zsh, fish

    /// The shell `--generate-completion-script` names.
    init(argument: String) throws(UsageError) {
        guard let shell = CompletionShell(rawValue: argument) else {
            throw UsageError(
                message: "no completion script for '\(argument)' (use \(listed(Self.allCases.map(\.rawValue), serialComma: false)))")
        }
        self = shell
    }
}

/// `carfab --generate-completion-script bash|zsh|fish`: completion of carfab's own command
/// line for each shell (the options of `ProgramOption.all`, the values of each kind: formats,
/// files, shells, job counts), and the built-in models and currencies as the values of
/// `--var NAME=`.
enum CompletionScripts {
    /// The job counts offered for `-j`.
    private static let jobCounts = ["1", "2", "4", "8"]

    /// The script for `shell`.
    static func script(for shell: CompletionShell) -> String {
        switch shell {
        case .bash:
            let catalog = Engine.builtInCatalog
            return bash(values: catalog.registry.factories.map(\.model) + catalog.currencies.map(\.code))
        case .zsh: return zsh()
        case .fish: return fish()
        }
    }

    /// An option's description in the scripts.
    private static func summary(of option: ProgramOption) -> String { option.modeNote + option.summary }

    /// The case of bash's `case $prev in`: what follows an option with a value of `kind`.
    private static func bashCase(_ kind: ProgramOption.Value) -> String? {
        let names = ProgramOption.all.filter { $0.value == kind }.flatMap(\.names)
        guard !names.isEmpty else { return nil }
        let action =
            switch kind {
            case .format:
                #"mapfile -t COMPREPLY < <(compgen -W "\#(OutputFormat.allCases.map(\.rawValue).joined(separator: " "))" -- "$cur")"#
            case .shell:
                #"mapfile -t COMPREPLY < <(compgen -W "\#(CompletionShell.allCases.map(\.rawValue).joined(separator: " "))" -- "$cur")"#
            case .file: #"compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$cur")"#
            case .jobs: #"mapfile -t COMPREPLY < <(compgen -W "\#(jobCounts.joined(separator: " "))" -- "$cur")"#
            case .text, .seconds, .pattern, .variable: "COMPREPLY=()"
            }
        return "        \(names.joined(separator: "|"))) \(action); return ;;"
    }

    private static func bash(values: [String]) -> String {
        """
        # bash completion for carfab (made by carfab --generate-completion-script bash)
        _carfab() {
            local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
            # bash splits `--var model=su` at `=`: the value after it is a model or a currency.
            if [[ $prev == = && ${COMP_WORDS[COMP_CWORD-3]} == --var ]] || [[ $cur == = && ${COMP_WORDS[COMP_CWORD-2]} == --var ]]; then
                [[ $cur == = ]] && cur=
                mapfile -t COMPREPLY < <(compgen -W "\(values.joined(separator: " "))" -- "$cur")
                return
            fi
            case $prev in
        \(ProgramOption.Value.allCases.compactMap(bashCase).joined(separator: "\n"))
            esac
            if [[ $cur == -* ]]; then
                mapfile -t COMPREPLY < <(compgen -W "\(ProgramOption.all.flatMap(\.names).joined(separator: " "))" -- "$cur")
            else
                # Scripts, and folders (of scripts, or of tests); one per line, so names may hold blanks.
                compopt -o filenames 2>/dev/null
                mapfile -t COMPREPLY < <(compgen -f -X '!*.carfab' -- "$cur"; compgen -d -- "$cur")
            fi
        }
        complete -F _carfab carfab

        """
    }

    private static func zsh() -> String {
        func specs(_ option: ProgramOption) -> [String] {
            let described = summary(of: option).replacing("'", with: "'\\''").replacing("[", with: "\\[").replacing("]", with: "\\]")
            let repeatable = option.repeatable ? "*" : ""
            let action: String =
                switch option.value {
                case .file: ":file:_files"
                case .format: ":format:(\(OutputFormat.allCases.map(\.rawValue).joined(separator: " ")))"
                case .shell: ":shell:(\(CompletionShell.allCases.map(\.rawValue).joined(separator: " ")))"
                case .jobs: ":jobs:(\(jobCounts.joined(separator: " ")))"
                case .variable: ":NAME=VALUE:"
                case .text: ":text:"
                case .seconds: ":seconds:"
                case .pattern: ":pattern:"
                case nil: ""
                }
            return option.names.map { "'\(repeatable)\($0)[\(described)]\(action)'" }
        }
        return """
            #compdef carfab
            # zsh completion for carfab (made by carfab --generate-completion-script zsh): put it in a
            # directory of $fpath as _carfab, or source it after compinit.
            _carfab() {
              _arguments -s \\
            \(ProgramOption.all.flatMap(specs).map { "    " + $0 + " \\" }.joined(separator: "\n"))
                '*:script:_files -g "*.carfab(-.)"'
            }
            if [[ ${zsh_eval_context[-1]} == loadautofunc ]]; then
              _carfab "$@"
            else
              compdef _carfab carfab
            fi

            """
    }

    private static func fish() -> String {
        var lines = [
            "# fish completion for carfab (made by carfab --generate-completion-script fish)",
            "complete -c carfab -k -F -a '(__fish_complete_suffix .carfab)'"
        ]
        // Each value with its own description (fish reads `VALUE\tDESCRIPTION` in -a):
        // without one, fish shows the option's description against every value.
        func values(_ pairs: [(String, String)]) -> String {
            " -x -a '" + pairs.map { "\($0.0)\\t\"\($0.1)\"" }.joined(separator: " ") + "'"
        }
        for option in ProgramOption.all {
            let action: String =
                switch option.value {
                case .file: " -r -F"
                case .format: values(OutputFormat.allCases.map { ($0.rawValue, $0.summary) })
                case .shell: values(CompletionShell.allCases.map { ($0.rawValue, "completion script for \($0.rawValue)") })
                case .jobs: values(jobCounts.map { ($0, $0 == "1" ? "one test file at a time" : "\($0) test files at a time") })
                case .variable, .text, .seconds, .pattern: " -x"
                case nil: ""
                }
            for name in option.names {
                let flag = name.hasPrefix("--") ? "-l \(name.dropFirst(2))" : "-s \(name.dropFirst())"
                lines.append("complete -c carfab \(flag)\(action) -d '\(summary(of: option).replacing("'", with: "\\'"))'")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
