import CarScript

/// Writes test outcomes as they come, in file order: text (one line per file, its problems
/// indented below a failure), TAP version 13 (a test point per file, problems in a YAML
/// block), or JSON lines (one object per file and a summary).
struct TestReporter {
    let format: OutputFormat
    let out: Output

    func begin(count: Int) {
        switch format {
        case .text, .json: break
        case .tap:
            // Version 13, which Perl's TAP::Harness (prove) and tappy both read; 14 adds nothing used here.
            out.write("TAP version 13\n1..\(count)\n")
        }
    }

    func report(_ outcome: TestOutcome, number: Int) {
        switch format {
        case .text: text(outcome)
        case .tap: tap(outcome, number: number)
        case .json: json(outcome)
        }
        out.flushIfFull()
    }

    func end(passed: Int, failed: Int) {
        switch format {
        case .text: out.write("\(passed) passed, \(failed) failed\n")
        case .tap: out.write("# \(passed) passed, \(failed) failed\n")
        case .json:
            var object = JSONObject()
            object.add("type", string: "summary")
            object.add("passed", raw: String(passed))
            object.add("failed", raw: String(failed))
            out.write(object.text + "\n")
        }
    }

    /// The lines of `problems` as text output shows them, without the last line break of each.
    static func lines(_ problems: [TestProblem]) -> [String] {
        problems.flatMap { $0.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
    }

    private static func expects(_ count: Int) -> String { count == 1 ? "1 expect" : "\(count) expects" }

    private func text(_ outcome: TestOutcome) {
        let path = DisplayText.escaped(outcome.path)
        // A file that passes shows its warnings below as a failure shows its problems (an
        // open transaction rolled back at the end: changes the test never kept).
        out.write(outcome.passed ? "ok \(path) (\(Self.expects(outcome.expects)))\n" : "FAIL \(path)\n")
        for line in Self.lines(outcome.problems) { out.write("    " + line + "\n") }
        guard !outcome.passed else { return }
        if let note = outcome.note { out.write("    (\(DisplayText.escaped(note)))\n") }
    }

    private func tap(_ outcome: TestOutcome, number: Int) {
        let description = Self.tapDescription(outcome.path)
        guard !outcome.passed else {
            out.write("ok \(number) - \(description) (\(Self.expects(outcome.expects)))\n")
            // Warnings of a file that passes as diagnostic lines, which TAP consumers show as they are.
            for line in Self.lines(outcome.problems) { out.write("# " + Self.visible(line) + "\n") }
            return
        }
        out.write("not ok \(number) - \(description)\n")
        out.write("  ---\n")
        let first = outcome.problems.first
        out.write("  message: \(Self.yaml(first?.message ?? outcome.note ?? "failed"))\n")
        out.write("  severity: fail\n")
        if let first, first.line > 0 {
            out.write("  at:\n")
            out.write("    file: \(Self.yaml(first.file))\n")
            out.write("    line: \(first.line)\n")
            out.write("    column: \(first.column)\n")
        }
        out.write("  expects: \(outcome.expects)\n")
        if let note = outcome.note { out.write("  note: \(Self.yaml(note))\n") }
        if !outcome.problems.isEmpty {
            // One quoted scalar, its lines joined by `\n`: TAP::Parser's YAMLish reader takes no
            // block scalar with an indentation indicator, and reads a list item holding `: `
            // as a hash.
            out.write("  diagnostics: \(Self.yaml(lines: Self.lines(outcome.problems)))\n")
        }
        out.write("  ...\n")
    }

    /// A test point's description: the path as `visible` shows it, `\` escaped as TAP says,
    /// and `#` written `\x23` (as carfab shows a byte it escapes), so no name reads as a
    /// directive (`x # TODO.carfab` failing is not a passing TODO). TAP's own `\#` is not
    /// enough: tappy ends the description at any `#`, escaped or not.
    static func tapDescription(_ path: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in visible(path).unicodeScalars {
            switch scalar {
            case "\\": result.append(contentsOf: "\\\\".unicodeScalars)
            case "#": result.append(contentsOf: "\\x23".unicodeScalars)
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    /// `text` as shown in TAP: as everywhere carfab shows a script's text (`\u{202E}`, `\e`);
    /// noncharacters (U+FFFE), which YAML readers refuse, are among the escaped.
    static func visible(_ text: String) -> String {
        DisplayText.escaped(text)
    }

    /// One line of text as a YAML double-quoted scalar (see `yaml(lines:)`).
    static func yaml(_ text: String) -> String {
        yaml(lines: [text])
    }

    /// `lines` as one YAML double-quoted scalar, read alike by TAP::Parser's YAMLish reader and
    /// by YAML libraries: each line shown as `visible` makes it, so nothing but printable
    /// characters and tabs remain; the only escapes are `\\`, `\"`, `\t` and `\n` between lines.
    static func yaml(lines: [String]) -> String {
        var result = "\""
        for (index, line) in lines.enumerated() {
            if index > 0 { result += "\\n" }
            for scalar in visible(line).unicodeScalars {
                switch scalar {
                case "\\": result += "\\\\"
                case "\"": result += "\\\""
                case "\t": result += "\\t"
                default: result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    private func json(_ outcome: TestOutcome) {
        var object = JSONObject()
        object.add("type", string: "test")
        object.add("file", string: outcome.path)
        object.add("status", string: outcome.passed ? "pass" : "fail")
        object.add("expects", raw: String(outcome.expects))
        object.add("diagnostics", raw: "[" + outcome.problems.map(\.json).joined(separator: ",") + "]")
        object.add("note", raw: outcome.note.map(JSONObject.quote) ?? "null")
        out.write(object.text + "\n")
    }

}

/// The JUnit XML report GitLab, Jenkins and others read: one test suite for the run, one
/// test case per file, a failure with the first problem's message and every problem's text.
enum JUnitReport {
    static func xml(_ outcomes: [TestOutcome], seconds: Double, timestamp: String, hostname: String) -> String {
        let failed = outcomes.filter { !$0.passed }.count
        let time = TestRunner.formatSeconds(seconds)
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"carfab\" tests=\"\(outcomes.count)\" failures=\"\(failed)\" errors=\"0\" time=\"\(time)\">\n"
        xml +=
            "  <testsuite name=\"carfab --test\" tests=\"\(outcomes.count)\" failures=\"\(failed)\" errors=\"0\""
            + " time=\"\(time)\" timestamp=\"\(timestamp)\" hostname=\"\(escaped(hostname))\">\n"
        for outcome in outcomes {
            let directory = outcome.path.split(separator: "/").dropLast().joined(separator: "/")
            // Only the attributes every reader's schema allows (name, classname, time).
            xml +=
                "    <testcase name=\"\(escaped(outcome.path))\" classname=\"\(escaped(directory.isEmpty ? "." : directory))\""
                + " time=\"\(TestRunner.formatSeconds(outcome.seconds))\""
            if outcome.passed {
                // Warnings of a file that passes (an open transaction rolled back) as its standard error.
                let warnings = outcome.problems.map(\.text).joined()
                xml +=
                    warnings.isEmpty
                    ? "/>\n" : ">\n      <system-err>\(escaped(warnings, inAttribute: false))</system-err>\n    </testcase>\n"
                continue
            }
            xml += ">\n"
            let first = outcome.problems.first
            var message = first?.message ?? outcome.note ?? "failed"
            if let first, first.line > 0 { message = "\(first.file):\(first.line):\(first.column): " + message }
            var details = outcome.problems.map(\.text).joined()
            if let note = outcome.note { details += note + "\n" }
            xml +=
                "      <failure message=\"\(escaped(message))\" type=\"\(escaped(first?.id ?? "failed"))\">"
                + escaped(details, inAttribute: false) + "</failure>\n"
            xml += "    </testcase>\n"
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    /// `text` for an XML attribute (or element content): markup characters as entities (and,
    /// in an attribute, line breaks and tabs, which would otherwise be read as blanks), and
    /// characters XML 1.0 cannot hold (most control characters) as U+FFFD.
    static func escaped(_ text: String, inAttribute: Bool = true) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result.append(contentsOf: "&amp;".unicodeScalars)
            case "<": result.append(contentsOf: "&lt;".unicodeScalars)
            case ">": result.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": result.append(contentsOf: "&quot;".unicodeScalars)
            case "\n", "\t":
                if inAttribute { result.append(contentsOf: "&#\(scalar.value);".unicodeScalars) } else { result.append(scalar) }
            case "\r": result.append(contentsOf: "&#13;".unicodeScalars)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                result.append("\u{FFFD}")
            default: result.append(scalar)
            }
        }
        return String(result)
    }
}
