import CarScript

/// `carfab --generate-completion-script bash|zsh|fish`: completion of carfab's own command
/// line for each shell (options, `--format` values, files, shells), and the built-in models
/// and currencies as the values of `--var NAME=`.
enum CompletionScripts {
    /// The shells a script is made for.
    static let shells = ["bash", "zsh", "fish"]

    /// The values of `--format`, with what each prints.
    static let formats: [(String, String)] = [
        ("text", "plain text (the default)"),
        ("json", "one JSON object per line"),
        ("tap", "TAP, with --test"),
    ]

    /// An option as the scripts offer it.
    struct Option {
        let name: String
        /// What its value is: nil for a flag, `file`, `format`, `shell`, `jobs`, `variable`, `text`.
        let value: String?
        let summary: String
    }

    /// Every option `--help` lists (a test keeps the two in step).
    static let options: [Option] = [
        Option(name: "-e", value: "text", summary: "run TEXT as commands"),
        Option(name: "-i", value: nil, summary: "then read commands at the prompt"),
        Option(name: "--catalog", value: "file", summary: "load catalog definitions from FILE first"),
        Option(name: "--format", value: "format", summary: "text, json, or tap (with --test)"),
        Option(name: "--check", value: nil, summary: "parse and resolve names only; run nothing"),
        Option(name: "--keep-going", value: nil, summary: "go on after a failed command"),
        Option(name: "--safe", value: nil, summary: "refuse commands that touch files"),
        Option(name: "--var", value: "variable", summary: "set variable NAME"),
        Option(name: "--init", value: "file", summary: "run FILE first"),
        Option(name: "--no-init", value: nil, summary: "skip the init file"),
        Option(name: "--test", value: nil, summary: "run files and folders of tests"),
        Option(name: "-j", value: "jobs", summary: "with --test: test files at a time"),
        Option(name: "--junit", value: "file", summary: "with --test: write a JUnit XML report"),
        Option(name: "--timeout", value: "text", summary: "with --test: seconds a test file may take"),
        Option(name: "--filter", value: "text", summary: "with --test: run the test files matching a glob"),
        Option(name: "--list", value: nil, summary: "with --test: list the test files, run none"),
        Option(name: "--generate-completion-script", value: "shell", summary: "print a completion script"),
        Option(name: "--lsp", value: nil, summary: "serve the Language Server Protocol"),
        Option(name: "--version", value: nil, summary: "print the version"),
        Option(name: "-h", value: nil, summary: "print the help"),
        Option(name: "--help", value: nil, summary: "print the help"),
    ]

    /// The script for `shell`, or nil if carfab has none for it.
    static func script(for shell: String) -> String? {
        let catalog = Engine.builtInCatalog
        let values = catalog.registry.factories.map(\.model) + catalog.currencies.map(\.code)
        switch shell {
        case "bash": return bash(values: values)
        case "zsh": return zsh()
        case "fish": return fish()
        default: return nil
        }
    }

    private static func names(withValue kind: String) -> String {
        options.filter { $0.value == kind }.map(\.name).joined(separator: "|")
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
                \(names(withValue: "format"))) mapfile -t COMPREPLY < <(compgen -W "text json tap" -- "$cur"); return ;;
                \(names(withValue: "shell"))) mapfile -t COMPREPLY < <(compgen -W "\(shells.joined(separator: " "))" -- "$cur"); return ;;
                \(names(withValue: "file"))) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return ;;
                \(names(withValue: "jobs"))) mapfile -t COMPREPLY < <(compgen -W "1 2 4 8" -- "$cur"); return ;;
                \(names(withValue: "text"))|\(names(withValue: "variable"))) COMPREPLY=(); return ;;
            esac
            if [[ $cur == -* ]]; then
                mapfile -t COMPREPLY < <(compgen -W "\(options.map(\.name).joined(separator: " "))" -- "$cur")
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
        func spec(_ option: Option) -> String {
            let summary = option.summary.replacing("'", with: "'\\''").replacing("[", with: "\\[").replacing("]", with: "\\]")
            let repeatable = ["-e", "--catalog", "--var", "--filter"].contains(option.name) ? "*" : ""
            let action: String = switch option.value {
            case "file": ":file:_files"
            case "format": ":format:(text json tap)"
            case "shell": ":shell:(\(shells.joined(separator: " ")))"
            case "jobs": ":jobs:(1 2 4 8)"
            case "variable": ":NAME=VALUE:"
            case "text": ":text:"
            default: ""
            }
            return "'\(repeatable)\(option.name)[\(summary)]\(action)'"
        }
        return """
            #compdef carfab
            # zsh completion for carfab (made by carfab --generate-completion-script zsh): put it in a
            # directory of $fpath as _carfab, or source it after compinit.
            _carfab() {
              _arguments -s \\
            \(options.map { "    " + spec($0) + " \\" }.joined(separator: "\n"))
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
        var lines = ["# fish completion for carfab (made by carfab --generate-completion-script fish)",
                     "complete -c carfab -k -F -a '(__fish_complete_suffix .carfab)'"]
        for option in options {
            let flag = option.name.hasPrefix("--") ? "-l \(option.name.dropFirst(2))" : "-s \(option.name.dropFirst())"
            // Each value with its own description (fish reads `VALUE\tDESCRIPTION` in -a):
            // without one, fish shows the option's description against every value.
            func values(_ pairs: [(String, String)]) -> String {
                " -x -a '" + pairs.map { "\($0.0)\\t\"\($0.1)\"" }.joined(separator: " ") + "'"
            }
            let action: String = switch option.value {
            case "file": " -r -F"
            case "format": values(formats)
            case "shell": values(shells.map { ($0, "completion script for \($0)") })
            case "jobs": values(["1", "2", "4", "8"].map { ($0, $0 == "1" ? "one test file at a time" : "\($0) test files at a time") })
            case "variable", "text": " -x"
            default: ""
            }
            lines.append("complete -c carfab \(flag)\(action) -d '\(option.summary.replacing("'", with: "\\'"))'")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
