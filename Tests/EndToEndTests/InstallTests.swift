import Foundation
import Testing

/// carfab installed like any tool (issue 15): the man page, the completion scripts in real
/// shells, Scripts/install into a prefix and out again, and the Debian package.
@Suite struct InstallTests {
    private let manPage = packageRoot.appendingPathComponent("man/carfab.1").path

    /// The options `--help` lists (`-h`, `--help`, `--var`, ...).
    private func helpOptions() throws -> [String] {
        let help = try carfab(["--help"]).stdout
        var options: [String] = []
        for line in help.split(separator: "\n") where line.hasPrefix("  -") {
            for word in line.split(separator: " ") {
                let name = word.trimmingCharacters(in: CharacterSet(charactersIn: ","))
                if name.hasPrefix("-") { options.append(name) } else { break }
            }
        }
        return options
    }

    @Test func the_man_page_has_no_warnings_and_every_option_of_help() throws {
        let lint = try launch("/usr/bin/groff", ["-man", "-ww", "-z", manPage])
        #expect(lint.status == 0 && lint.stderr.isEmpty, "\(lint)")
        let source = try String(contentsOfFile: manPage, encoding: .utf8)
        let options = try helpOptions()
        #expect(options.count >= 17, "\(options)")
        for option in options {
            #expect(source.contains(option.replacing("-", with: "\\-")), "the man page lacks \(option)")
        }
        for section in ["SYNOPSIS", "OPTIONS", "LANGUAGE", "FILES", "ENVIRONMENT", "EXIT STATUS", "EXAMPLES"] {
            #expect(source.contains(".SH \(section)"))
        }
        let shown = try launch("/usr/bin/man", ["-l", manPage], environment: ["MANPAGER": "cat", "MANWIDTH": "80"])
        #expect(shown.status == 0 && shown.stdout.contains("carfab - a scriptable car-factory shell"), "\(shown)")
    }

    @Test func bash_completes_options_formats_files_and_var_values() throws {
        let directory = try temporaryDirectory(with: [
            "quote.carfab": "", "notes.txt": "", "tests/a.carfab": "",
            "my fleet.carfab": ""
        ])
        let run = try shell(
            """
            source <("$CARFAB" --generate-completion-script bash)
            complete -p carfab
            show() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _carfab; printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' '; echo; }
            show carfab --for
            show carfab --format ''
            show carfab --generate-completion-script z
            show carfab ''
            show carfab --var model = s
            show carfab --catalog no
            show carfab my
            """, directory: directory)
        #expect(
            run.stdout == """
                complete -F _carfab carfab
                --format 
                json tap text 
                zsh 
                my fleet.carfab quote.carfab tests 
                sports suv 
                notes.txt 
                my fleet.carfab 

                """, "\(run)")
        // Every option --help lists is offered.
        let options = try shell(
            """
            source <("$CARFAB" --generate-completion-script bash)
            COMP_WORDS=(carfab -); COMP_CWORD=1; _carfab; printf '%s\\n' "${COMPREPLY[@]}"
            """)
        #expect(Set(options.stdout.split(separator: "\n").map(String.init)) == Set(try helpOptions()))
    }

    @Test func zsh_completes_in_a_real_interactive_zsh_and_fish_from_its_own() throws {
        // An interactive zsh on a pseudo-terminal (zsh's own zpty): Tab after each partial
        // line, and what zsh then shows, until it shows what is looked for (or 10 s pass).
        let driver = #"""
            zmodload zsh/zpty
            typeset -F SECONDS
            zpty z 'zsh -f -i'
            zpty -w z 'PS1="> "; autoload -U compinit; compinit -u -D; source ./_carfab; print ready'
            wait_for() { local chunk all="" end=$((SECONDS + 10)); while (( SECONDS < end )); do
                if zpty -r -t z chunk; then all+=$chunk; [[ $all == *$1* ]] && { print -r -- found; return; }; fi; done
                print -r -- "missing $1 in: ${(q)all}"; }
            wait_for ready
            zpty -w -n z $'carfab --form\t'; wait_for 'carfab --format'
            zpty -w -n z $'\x15carfab --format \t'; wait_for 'json  tap   text'
            zpty -w -n z $'\x15carfab my\t'; wait_for 'carfab my\ quote.carfab'
            zpty -w -n z $'\x15carfab --generate-completion-script z\t'; wait_for 'completion-script zsh'
            zpty -d z
            """#
        let directory = try temporaryDirectory(with: ["my quote.carfab": "", "drive.zsh": driver])
        let zsh = try shell(
            """
            "$CARFAB" --generate-completion-script zsh > _carfab
            zsh -n _carfab && zsh -f drive.zsh
            """, directory: directory)
        #expect(zsh.stdout == "found\nfound\nfound\nfound\nfound\n" && zsh.stderr.isEmpty, "\(zsh)")
        let fish = try shell(
            """
            export HOME=$(pwd) XDG_CONFIG_HOME=$(pwd) XDG_DATA_HOME=$(pwd)
            fish --no-config -c '"$CARFAB" --generate-completion-script fish | source; complete -C "carfab --form"
                complete -C "carfab --format "; complete -C "carfab --generate-completion-script "; complete -C "carfab -j "'
            """, directory: try temporaryDirectory(with: [:]))
        // The option is described once; each of its values by what it is.
        #expect(
            fish.stdout == """
                --format\ttext, json, or tap (with --test)
                json\tone JSON object per line
                tap\tTAP, with --test
                text\tplain text (the default)
                bash\tcompletion script for bash
                fish\tcompletion script for fish
                zsh\tcompletion script for zsh
                1\tone test file at a time
                2\t2 test files at a time
                4\t4 test files at a time
                8\t8 test files at a time

                """, "\(fish)")
        let unknown = try carfab(["--generate-completion-script", "tcsh"])
        #expect(unknown.status == 64 && unknown.stderr.hasPrefix("carfab: error: no completion script for 'tcsh' (use bash, zsh or fish)"))
    }

    @Test func install_puts_each_file_in_its_place_and_uninstall_takes_exactly_those_away() throws {
        let prefix = try temporaryDirectory(with: ["share/man/man1/other.1": "kept\n"])
        let install = packageRoot.appendingPathComponent("Scripts/install").path
        let installed = try launch(install, [prefix.path], environment: ["CARFAB": carfabBinary])
        #expect(installed.status == 0, "\(installed)")
        let files = [
            "bin/carfab", "share/man/man1/carfab.1", "share/bash-completion/completions/carfab",
            "share/zsh/site-functions/_carfab", "share/fish/vendor_completions.d/carfab.fish"
        ]
        for file in files { #expect(FileManager.default.fileExists(atPath: prefix.appendingPathComponent(file).path), "\(file)") }
        let run = try shell(
            """
            "$PREFIX/bin/carfab" -e 'car suv; total GBP'
            MANPAGER=cat man -l "$PREFIX/share/man/man1/carfab.1" | head -1
            source "$PREFIX/share/bash-completion/completions/carfab"
            COMP_WORDS=(carfab --test --jun); COMP_CWORD=2; _carfab; echo "${COMPREPLY[@]}"
            """, environment: ["PREFIX": prefix.path])
        #expect(run.stdout.hasPrefix("1 Car in Stock. Total Value: £49,413.81\nCARFAB(1)"), "\(run)")
        #expect(run.stdout.hasSuffix("--junit\n"))
        // The manifest lists each file with its checksum, as sha256sum checks it.
        let manifest = try String(contentsOf: prefix.appendingPathComponent("share/carfab/install-manifest"), encoding: .utf8)
        #expect(manifest.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { String($0.dropFirst(66)) } == files, "\(manifest)")
        let checked = try shell("grep -v '^#' share/carfab/install-manifest | sha256sum --check --quiet", directory: prefix)
        #expect(checked == RunResult(stdout: "", stderr: "", status: 0), "\(checked)")
        let removed = try launch(install, ["--uninstall", prefix.path])
        #expect(removed.status == 0 && removed.stderr.isEmpty, "\(removed)")
        for file in files + ["share/carfab"] {
            #expect(!FileManager.default.fileExists(atPath: prefix.appendingPathComponent(file).path), "\(file)")
        }
        #expect(FileManager.default.fileExists(atPath: prefix.appendingPathComponent("share/man/man1/other.1").path))
    }

    /// The folders an install made below PREFIX go again with --uninstall when empty, also
    /// after a second install over the first (trial 6, finding 10: bin/, share/man/man1/ and
    /// the completion folders stayed, empty); one holding another file stays.
    @Test func uninstall_removes_the_empty_folders_the_install_made() throws {
        let prefix = try temporaryDirectory(with: ["share/man/man1/other.1": "kept\n"])
        let install = packageRoot.appendingPathComponent("Scripts/install").path
        for _ in 1...2 {
            let installed = try launch(install, [prefix.path], environment: ["CARFAB": carfabBinary])
            #expect(installed.status == 0, "\(installed)")
        }
        let removed = try launch(install, ["--uninstall", prefix.path])
        #expect(removed.status == 0 && removed.stderr.isEmpty, "\(removed)")
        #expect(removed.stdout.contains("removed folder \(prefix.path)/share/zsh/site-functions\n"), "\(removed)")
        let left = try shell("find . | sort", directory: prefix)
        #expect(left.stdout == ".\n./share\n./share/man\n./share/man/man1\n./share/man/man1/other.1\n", "\(left)")
    }

    @Test func uninstall_leaves_what_it_did_not_install_and_says_so() throws {
        // After the install, the user put their own bin/carfab in its place, and moved the
        // man folder elsewhere, leaving a link to it.
        let prefix = try temporaryDirectory(with: [:])
        let elsewhere = try temporaryDirectory(with: [:])
        let install = packageRoot.appendingPathComponent("Scripts/install").path
        #expect(try launch(install, [prefix.path], environment: ["CARFAB": carfabBinary]).status == 0)
        let own = prefix.appendingPathComponent("bin/carfab")
        try FileManager.default.removeItem(at: own)
        try Data("#!/bin/sh\necho mine\n".utf8).write(to: own)
        let man1 = prefix.appendingPathComponent("share/man/man1")
        try FileManager.default.moveItem(at: man1, to: elsewhere.appendingPathComponent("man1"))
        try FileManager.default.createSymbolicLink(at: man1, withDestinationURL: elsewhere.appendingPathComponent("man1"))

        let removed = try launch(install, ["--uninstall", prefix.path])
        let path = prefix.path
        #expect(
            removed
                == RunResult(
                    stdout: """
                        removed \(path)/share/bash-completion/completions/carfab
                        removed \(path)/share/zsh/site-functions/_carfab
                        removed \(path)/share/fish/vendor_completions.d/carfab.fish

                        """,
                    stderr: """
                        Scripts/install: left \(path)/bin/carfab: it is not the file installed (its checksum differs)
                        Scripts/install: left \(path)/share/man/man1/carfab.1: it is reached through a symbolic link (\(path)/share/man/man1), so it may not be the file installed
                        Scripts/install: kept \(path)/share/carfab/install-manifest: run --uninstall again once the files above are dealt with

                        """, status: 1))
        #expect(try String(contentsOf: own, encoding: .utf8) == "#!/bin/sh\necho mine\n")
        #expect(FileManager.default.fileExists(atPath: elsewhere.appendingPathComponent("man1/carfab.1").path))
        #expect(FileManager.default.fileExists(atPath: prefix.appendingPathComponent("share/carfab/install-manifest").path))

        // Once the user has dealt with them, the manifest goes too.
        try FileManager.default.removeItem(at: own)
        try FileManager.default.removeItem(at: man1)
        let again = try launch(install, ["--uninstall", prefix.path])
        #expect(again.status == 0 && again.stderr.isEmpty, "\(again)")
        #expect(again.stdout.hasPrefix("already gone: \(path)/bin/carfab\nalready gone: \(path)/share/man/man1/carfab.1\n"))
        #expect(!FileManager.default.fileExists(atPath: prefix.appendingPathComponent("share/carfab").path))
    }

    @Test func install_says_what_fish_needs_where_fish_does_not_look() throws {
        // Debian's fish reads vendor completions from /usr/share and XDG_DATA_DIRS only: for
        // another prefix Scripts/install says what to set, and what it says works. (A HOME of
        // the test's own: fish writes under it.)
        let home = try temporaryDirectory(with: [:])
        let prefix = home.appendingPathComponent("prefix").path
        let install = packageRoot.appendingPathComponent("Scripts/install").path
        let environment = [
            "CARFAB": carfabBinary, "HOME": home.path, "XDG_CONFIG_HOME": home.path + "/.config",
            "XDG_DATA_HOME": home.path + "/.local/share", "XDG_DATA_DIRS": "/usr/share"
        ]
        let installed = try launch(install, [prefix], environment: environment)
        let directory = prefix + "/share/fish/vendor_completions.d"
        #expect(
            installed.status == 0
                && installed.stderr == """
                    Scripts/install: fish does not look in \(directory); for carfab's completion in fish,
                      put \(prefix)/share in XDG_DATA_DIRS (as XDG_DATA_DIRS=\(prefix)/share:${XDG_DATA_DIRS:-/usr/local/share:/usr/share}),
                      or add to ~/.config/fish/config.fish: set -p fish_complete_path \(directory)

                    """,
            "\(installed)")
        let complete = #"complete -C "carfab --form""#
        let run = try shell(
            """
            export PATH="$PREFIX/bin:$PATH"
            fish -c '\(complete)'; echo without
            fish -c 'set -p fish_complete_path $PREFIX/share/fish/vendor_completions.d; \(complete)'
            XDG_DATA_DIRS="$PREFIX/share:/usr/share" fish -c '\(complete)'
            """, environment: environment.merging(["PREFIX": prefix]) { _, new in new })
        #expect(
            run.stdout == """
                without
                --format\ttext, json, or tap (with --test)
                --format\ttext, json, or tap (with --test)

                """, "\(run)")
        // Where fish looks, no word of it.
        let again = try launch(
            install, [prefix], environment: environment.merging(["XDG_DATA_DIRS": prefix + "/share:/usr/share"]) { _, new in new })
        #expect(again.status == 0 && again.stderr.isEmpty, "\(again)")
    }

    @Test func the_debian_package_installs_and_removes_cleanly() throws {
        let out = try temporaryDirectory(with: [:])
        let built = try launch(
            packageRoot.appendingPathComponent("Scripts/package").path, [out.path],
            environment: ["CARFAB": carfabBinary])
        #expect(built.status == 0, "\(built)")
        let package = built.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(package.hasSuffix(".deb") && package.contains("carfab_0.1.0_"))
        let info = try launch("/usr/bin/dpkg-deb", ["--field", package, "Package", "Version", "Suggests"])
        #expect(info.stdout == "Package: carfab\nVersion: 0.1.0\nSuggests: less\n", "\(info)")
        let contents = try launch("/usr/bin/dpkg-deb", ["--contents", package]).stdout
        for path in [
            "./usr/bin/carfab", "./usr/share/man/man1/carfab.1.gz", "./usr/share/bash-completion/completions/carfab",
            "./usr/share/zsh/site-functions/_carfab", "./usr/share/fish/vendor_completions.d/carfab.fish",
            "./usr/share/doc/carfab/copyright", "./usr/share/doc/carfab/changelog.gz",
            "./usr/share/doc/carfab/README.md", "./usr/share/doc/carfab/grammar.md",
            "./usr/share/doc/carfab/ARCHITECTURE.md"
        ] {
            #expect(contents.contains(" \(path)\n"), "\(path)")
        }
        // Every file the shipped documents link to is shipped beside them (the README once
        // linked ARCHITECTURE.md, which the package lacked).
        let shipped = Set(contents.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) })
        for document in ["README.md", "grammar.md", "ARCHITECTURE.md"] {
            let text = try String(contentsOf: packageRoot.appendingPathComponent(document), encoding: .utf8)
            for link in text.matches(of: /\]\(([^)#:]+)(#[^)]*)?\)/).map({ String($0.1) }) {
                #expect(shipped.contains("./usr/share/doc/carfab/\(link)"), "\(document) links \(link), which the package lacks")
            }
        }
        // A changelog entry for this version, and a copyright notice with a year.
        let documents = try shell(
            """
            dpkg-deb --fsys-tarfile "$PACKAGE" | tar -xO ./usr/share/doc/carfab/changelog.gz | gzip -d | head -1
            dpkg-deb --fsys-tarfile "$PACKAGE" | tar -xO ./usr/share/doc/carfab/copyright | grep '^Copyright:'
            """, environment: ["PACKAGE": package])
        #expect(documents.stdout.hasPrefix("carfab (0.1.0) unstable; urgency=medium\nCopyright: 20"), "\(documents)")
        #expect(contents.contains("drwxr-xr-x root/root         0") && !contents.contains("drwx------"))
        // Into a root of its own: dpkg's database, the files, and nothing outside it.
        let root = try temporaryDirectory(with: ["var/lib/dpkg/status": ""])
        let run = try shell(
            """
            mkdir -p "$ROOT/var/lib/dpkg/info" "$ROOT/var/lib/dpkg/updates"
            dpkg() { command dpkg --root="$ROOT" --log="$ROOT/dpkg.log" --force-not-root "$@"; }
            dpkg -i "$PACKAGE" > /dev/null && "$ROOT/usr/bin/carfab" -e 'echo installed'
            dpkg -l carfab | tail -1 | cut -c1-12
            dpkg -r carfab > /dev/null && find "$ROOT/usr" -type f | wc -l
            """, environment: ["ROOT": root.path, "PACKAGE": package])
        #expect(run.stdout == "installed\nii  carfab  \n0\n", "\(run)")
    }

    /// lintian's path: `LINTIAN` if set, else Debian's /usr/bin/lintian if installed.
    static let lintian: String? =
        ProcessInfo.processInfo.environment["LINTIAN"]
        ?? (FileManager.default.isExecutableFile(atPath: "/usr/bin/lintian") ? "/usr/bin/lintian" : nil)

    /// What lintian may still say of the package, and why it stays: the binary is static by
    /// design (the README: copy it anywhere, it needs nothing), so it carries libedit and
    /// ncurses's terminfo library rather than depending on Debian's.
    static let lintianAllowed: Set<String> = ["statically-linked-binary", "embedded-library"]

    @Test(.enabled(if: lintian != nil, "lintian is not installed (Scripts/test does not install it: on Debian 12 it upgrades perl)"))
    func lintian_finds_no_error_or_warning_beyond_the_allowed() throws {
        let out = try temporaryDirectory(with: [:])
        let built = try launch(
            packageRoot.appendingPathComponent("Scripts/package").path, [out.path],
            environment: ["CARFAB": carfabBinary])
        #expect(built.status == 0, "\(built)")
        let package = built.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let lint = try shell(
            #""$LINTIAN" --no-cfg --fail-on none "$PACKAGE" 2>&1"#,
            environment: ["LINTIAN": Self.lintian ?? "", "PACKAGE": package])
        #expect(lint.status == 0, "\(lint)")
        // "E: carfab: TAG [details]" and "W: ...": errors and warnings, by tag.
        let tags = lint.stdout.split(separator: "\n").filter { $0.hasPrefix("E: ") || $0.hasPrefix("W: ") }
            .compactMap { $0.split(separator: " ").dropFirst(2).first.map(String.init) }
        // Exactly those: a tag that no longer shows leaves the list too.
        #expect(Set(tags) == Self.lintianAllowed, "\(lint.stdout)")
    }

    @Test func install_reads_its_arguments_carefully() throws {
        let install = packageRoot.appendingPathComponent("Scripts/install").path
        let help = try launch(install, ["--help"])
        #expect(help.status == 0 && help.stdout.hasPrefix("usage: Scripts/install [--uninstall] [PREFIX]"))
        let bogus = try launch(install, ["--bogus"])
        #expect(bogus.status == 64 && bogus.stderr.hasPrefix("Scripts/install: unknown option '--bogus'"))
        let prefix = try temporaryDirectory(with: [:])
        let two = try launch(install, [prefix.path, prefix.path + "/other"])
        #expect(two.status == 64)
        // --uninstall after PREFIX still uninstalls (and installs nothing); with no manifest,
        // it removes nothing and says why.
        let after = try launch(install, [prefix.path, "--uninstall"], environment: ["CARFAB": carfabBinary])
        #expect(
            after
                == RunResult(
                    stdout: "",
                    stderr: """
                        Scripts/install: nothing removed: no install manifest at \(prefix.path)/share/carfab/install-manifest \
                        (nothing installed under \(prefix.path) by this script, or installed before it kept one: remove such files by hand)

                        """, status: 1))
        #expect(!FileManager.default.fileExists(atPath: prefix.appendingPathComponent("bin").path))
    }
}
