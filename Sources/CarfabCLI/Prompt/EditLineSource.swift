import CEditLine
import CarScript
import CarfabPOSIX

// The line source for a person at a terminal: libedit's line editing, history and tab
// completion. Pipes and files never reach this file (see `openLineSource`).
#if canImport(Glibc)
import Glibc
#endif

/// History kept by libedit for recall: bounded, consecutive duplicates collapsed; `HistoryService` fills it and keeps the file.
final class HistoryStore {
    let history: OpaquePointer
    private var event = HistEventW()
    /// How many entries are kept.
    static let size = Int32(HistoryService.size)

    init?() {
        guard let history = cf_history_init() else { return nil }
        self.history = history
        cf_history_setsize(history, &event, Self.size)
        cf_history_setunique(history, &event, 1)
    }

    deinit { cf_history_end(history) }

    /// Adds an entry: its bytes, read as the terminal's are (a byte that is not UTF-8, or a
    /// NUL, is recalled as the escape typing it gave, and runs as that byte again).
    func add(_ entry: [UInt8]) {
        cf_history_enter(history, &event, TerminalBytes.wide(of: entry) + [0])
    }
}

/// Reads lines through libedit with the prompt `carfab> ` (and `   ...> ` inside an open line).
final class EditLineSource: LineSource {
    let name = "<stdin>"
    var path: String? { nil }
    var isInteractive: Bool { true }

    /// The prompt, if standard input is a terminal and libedit loads; else nil (the caller
    /// reads standard input as a stream).
    static func open(
        history: HistoryService?, color: Bool, terminal: Int32, stop: StopRequest,
        completer: @escaping () -> Completer, beforePrompt: @escaping () -> Void
    ) -> EditLineSource? {
        guard isatty(0) == 1 else { return nil }
        useUTF8Locale()
        return EditLineSource(
            history: history, color: color, terminal: terminal, stop: stop,
            completer: completer, beforePrompt: beforePrompt)
    }

    /// Where Ctrl-C and the stop signals are noted.
    private let stop: StopRequest

    private let editor: OpaquePointer
    /// The terminal opened anew, non-blocking: a Ctrl-C that flushes typed input between
    /// "readable" and the read must not leave a blocking read waiting. Its own open file
    /// description keeps the shell's standard input flags untouched.
    private let input: Int32
    private let history: HistoryService?
    private let prompts: (primary: UnsafeMutablePointer<CChar>, continuation: UnsafeMutablePointer<CChar>)
    private var continuing = false
    /// Makes the completer from the session's current catalog.
    private let completer: () -> Completer
    /// Writes out pending results before each prompt.
    private let beforePrompt: () -> Void

    /// The descriptor of the terminal the prompt is drawn on.
    private let terminal: Int32
    /// Whether the rest of a command's usage is drawn, dimmed, after what is typed (only on
    /// a terminal that shows styles: the same test as colour).
    private let hints: Bool
    /// How many columns of hint stand after the cursor now.
    private var hintShown = 0
    /// Bytes read from the terminal but not yet handed to libedit: the rest of a sequence that
    /// turned out not to be UTF-8, each read again on its own; the Enter that ends a pasted line.
    fileprivate var unread: [UInt8] = []
    /// Whether the terminal is asked to bracket pasted text (`\e[200~` ... `\e[201~`), so that
    /// it is inserted as it is: not on a dumb terminal (TERM unset, empty or `dumb`), nor when
    /// the prompt's output is a file or pipe (the request would go there, not to the terminal).
    private let bracketsPaste: Bool
    /// What a paste held after its first line end, taken a line at a time by the prompts
    /// that follow, from `pastedStart` on.
    private var pasted: [wchar_t] = []
    private var pastedStart = 0

    private init?(
        history: HistoryService?, color: Bool, terminal: Int32, stop: StopRequest,
        completer: @escaping () -> Completer, beforePrompt: @escaping () -> Void
    ) {
        guard let editor = cf_el_init("carfab", terminal) else { return nil }
        self.editor = editor
        self.terminal = terminal
        self.stop = stop
        hints = color
        bracketsPaste =
            cf_el_edits_terminal(editor) != 0 && (getenv("TERM").map { String(cString: $0) }.map { !$0.isEmpty && $0 != "dumb" } ?? false)
        input = Glibc.open("/proc/self/fd/0", O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        self.history = history
        self.completer = completer
        self.beforePrompt = beforePrompt
        // \u{1} brackets the colour codes so libedit does not count them as columns.
        let (on, off) = color ? ("\u{1}\u{1B}[1;32m\u{1}", "\u{1}\u{1B}[0m\u{1}") : ("", "")
        prompts = (strdup(on + "carfab>" + off + " ")!, strdup(on + "   ...>" + off + " ")!)
        cf_el_set_editor(editor, "emacs")
        // Signals stay ours: libedit's own handling re-sends them to the whole process group.
        cf_el_set_signal(editor, 0)
        // libedit's C callbacks carry one context pointer back: this source, unretained (it
        // outlives its editor). `Unmanaged` here is C interop, not speed.
        cf_el_set_clientdata(editor, Unmanaged.passUnretained(self).toOpaque())
        cf_el_set_prompt_esc(
            editor,
            { editor in
                guard let editor, let data = cf_el_get_clientdata(editor) else { return nil }
                let source = Unmanaged<EditLineSource>.fromOpaque(data).takeUnretainedValue()
                return source.continuing ? source.prompts.continuation : source.prompts.primary
            }, 1)
        if let store = history?.store { cf_el_set_hist(editor, store.history) }
        cf_el_set_getcfn(
            editor,
            { editor, character in
                guard let editor, let character, let data = cf_el_get_clientdata(editor) else { return -1 }
                let source = Unmanaged<EditLineSource>.fromOpaque(data).takeUnretainedValue()
                return readCharacter(
                    from: source.input >= 0 ? source.input : 0, into: character, unread: &source.unread,
                    stop: source.stop, suspended: { source.suspend() }, resumed: { cf_el_resume(editor, source.terminal) },
                    waiting: { source.drawHint() }, woken: { source.eraseHint() })
            })
        cf_watch_resume()
        cf_el_addfn(
            editor, "carfab-complete", "complete the word before the cursor",
            { editor, _ in
                guard let editor, let data = cf_el_get_clientdata(editor) else { return UInt8(CC_ERROR) }
                return Unmanaged<EditLineSource>.fromOpaque(data).takeUnretainedValue().complete()
            })
        cf_el_bind(editor, "^I", "carfab-complete")
        // The user's ~/.editrc, as every libedit program reads it.
        cf_el_source(editor)
        // `bind -v` there makes new key maps, in which Tab inserts itself: Tab completes
        // there too, unless the file binds Tab itself.
        if cf_el_is_vi(editor) != 0 && !Self.editrcBindsTab() { cf_el_bind(editor, "^I", "carfab-complete") }
        // A paste, bracketed by the terminal, is inserted as it is: a Tab in it completes nothing.
        cf_el_addfn(
            editor, "carfab-paste", "insert pasted text as it is",
            { editor, _ in
                guard let editor, let data = cf_el_get_clientdata(editor) else { return UInt8(CC_ERROR) }
                return Unmanaged<EditLineSource>.fromOpaque(data).takeUnretainedValue().paste()
            })
        cf_el_bind(editor, "\\e[200~", "carfab-paste")
    }

    /// Whether the editrc libedit reads (`EDITRC`, else `~/.editrc`) has a line binding Tab.
    private static func editrcBindsTab() -> Bool {
        let name: String
        if let editrc = getenv("EDITRC") {
            name = String(cString: editrc)
        } else if let home = getenv("HOME") {
            name = String(cString: home) + "/.editrc"
        } else {
            return false
        }
        let file = Glibc.open(name, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard file >= 0 else { return false }
        defer { close(file) }
        guard let text = try? readWhole(file, atMost: 1 << 20) else { return false }
        return String(decoding: text, as: UTF8.self).split(separator: "\n").contains { line in
            line.contains("bind") && (line.contains("^I") || line.contains("\\t") || line.contains("\\011"))
        }
    }

    deinit {
        cf_el_end(editor)
        if input >= 0 { close(input) }
        free(prompts.primary)
        free(prompts.continuation)
    }

    func readLine(continuation: Bool) throws(LineSourceFailure) -> [UInt8]? {
        beforePrompt()
        continuing = continuation
        var count: Int32 = 0
        // Pasted text comes bracketed only while a line is read: a command that runs, or the
        // shell after carfab, gets the terminal as it was.
        if bracketsPaste { writeToTerminal("\u{1B}[?2004h") }
        // Ctrl-Z gives the shell the terminal as it was before stopping (see `suspend`).
        cf_catch_suspend(1)
        // The wide line, turned into bytes here: libedit's own conversion would drop what is
        // not UTF-8, and scripts report such bytes (and NUL) as errors where they stand.
        let read = cf_el_wgets(editor, &count)
        let failure = errno
        if bracketsPaste { writeToTerminal("\u{1B}[?2004l") }
        cf_catch_suspend(0)
        errno = failure
        guard let line = read else {
            if count < 0 && errno == EINTR {
                if stop.withdraw(SIGINT) {
                    // Ctrl-C: abandon what was typed (and the rest of a paste) and prompt again.
                    dropPaste()
                    writeToTerminal("\n")
                    cf_el_reset(editor)
                    throw .abandoned
                }
                // Another stop signal: end the prompt's line, so the shell's prompt starts on its own.
                writeToTerminal("\n")
                throw .interrupted
            }
            // Ctrl-D on an empty line: end the shell's prompt line too.
            writeToTerminal("\n")
            return nil
        }
        var length = Int(count)
        while length > 0 && (line[length - 1] == 0x0A || line[length - 1] == 0x0D) { length -= 1 }
        return TerminalBytes.bytes(of: UnsafeBufferPointer(start: line, count: length))
    }

    /// The line being edited, as bytes: up to the cursor, or all of it.
    private func lineBytes(toCursor: Bool) -> [UInt8]? {
        guard let info = cf_el_wline(editor), let buffer = info.pointee.buffer,
            let end = toCursor ? info.pointee.cursor : info.pointee.lastchar
        else { return nil }
        return TerminalBytes.bytes(of: UnsafeBufferPointer(start: buffer, count: buffer.distance(to: end)))
    }

    /// Ctrl-C (SIGINT, which the signal handler stored) ends what was running, not the session.
    func withdrawInterrupt(from stop: StopRequest) -> Bool {
        guard stop.withdraw(SIGINT) else { return false }
        // As a shell drops what was typed ahead: the pasted lines not yet run are not run.
        dropPaste()
        return true
    }

    func interrupted(at place: String?) {
        writeToTerminal("\n" + (place.map { "carfab: interrupted at \(DisplayText.escaped($0))\n" } ?? ""))
    }

    /// A whole command goes into the history; the physical lines it was typed on and lines
    /// abandoned with Ctrl-C do not.
    func record(_ command: [UInt8]) {
        history?.record(command)
    }

    private func complete() -> UInt8 {
        guard let bytes = lineBytes(toCursor: true) else { return UInt8(CC_ERROR) }
        // A byte that is not UTF-8 stops the lexer, so nothing is completed over it.
        let typed = String(decoding: bytes, as: UTF8.self)
        let completion = completer().complete(typed)
        // Ctrl-C or a stop signal came while it was worked out: the next read sees the
        // request and abandons the line (or ends carfab), as if it had come while waiting.
        if completion.stopped { return UInt8(CC_NORM) }
        if let replacement = completion.replacement {
            cf_el_deletestr(editor, Int32(completion.typed.unicodeScalars.count))
            cf_el_insertstr(editor, replacement)
            return UInt8(CC_REFRESH)
        }
        guard completion.needsList else { return UInt8(CC_REFRESH_BEEP) }
        let width = Int(cf_terminal_columns(terminal))
        // The redisplay clears the edit's rows upward from the row libedit believes its cursor
        // on: that many blank rows below the list keep every candidate on the screen when the
        // line wraps.
        let line = cf_el_wline(editor).map { info in
            (
                cursor: Self.cursorRow(
                    UnsafeBufferPointer(start: info.pointee.buffer, count: info.pointee.buffer.distance(to: info.pointee.cursor)),
                    columns: width),
                last: Self.cursorRow(
                    UnsafeBufferPointer(start: info.pointee.buffer, count: info.pointee.buffer.distance(to: info.pointee.lastchar)),
                    columns: width)
            )
        }
        // The list, then the prompt and the line typed drawn again (from the first of those
        // blank rows, over as many rows as the line takes), fit the screen with a row to spare
        // (24 rows when its size was never set). A line that wraps takes more than one: counted
        // as one, it pushed the list's first row off the screen.
        let rows = Int(cf_terminal_rows(terminal))
        let lineRows = (line?.last ?? 0) + 1
        writeToTerminal(
            "\n" + Self.list(completion, width: width, lines: max((rows > 0 ? rows : 24) - 1 - lineRows, 2))
                + String(repeating: "\n", count: line?.cursor ?? 0))
        return UInt8(CC_REDISPLAY)
    }

    /// The candidates in at most `lines` lines: described one to a line, else in columns; past
    /// that, as many as the lines but one hold, then a line saying how many more there are (a
    /// family may hold 65,536 options: a screenful is what a person reads, typing narrows them).
    static func list(_ completion: Completion, width: Int, lines: Int) -> String {
        let described = completion.descriptions.contains { !$0.isEmpty }
        func laidOut(_ count: Int) -> String {
            let names = Array(completion.candidates.prefix(count))
            return described
                ? rows(names, Array(completion.descriptionColumns.prefix(count)), width: width)
                : columns(names, width: width)
        }
        let perLine = described ? 1 : columnLayout(completion.candidates.map(DisplayText.escaped), width: width).perLine
        let total = completion.candidates.count
        guard total > lines * perLine else { return laidOut(total) }
        let shown = (lines - 1) * perLine
        // The whole sentence where it fits, else the count alone: cut, a narrow terminal lost
        // the number (`... and ...` at 12 columns).
        let room = (width > 0 ? width : 80) - 1
        let hidden = total - shown
        let more =
            ["... and \(hidden) more: type more of the name to narrow the list", "... and \(hidden) more", "+\(hidden)"]
            .first { DisplayText.width($0) <= room } ?? "+\(hidden)"
        return laidOut(shown) + more + "\n"
    }

    /// Inserts a bracketed paste as it is (a Tab is a Tab, a byte that is not UTF-8 stands
    /// for itself), as bash 5.1 and zsh do. A pasted line end is Enter: the lines run one
    /// after another as if typed, each at its own prompt, and what follows the last line end
    /// stays on the line to be edited.
    private func paste() -> UInt8 {
        if pasted.isEmpty {
            // The terminal's paste, up to the bracket that ends it.
            guard let text = readPaste() else { return UInt8(CC_REFRESH) }
            (pasted, pastedStart) = (text, 0)
        } else if stop.isRequested {
            // Ctrl-C between two pasted lines: the next read abandons the line, and the paste.
            dropPaste()
            return UInt8(CC_NORM)
        }
        let end = pasted[pastedStart...].firstIndex { $0 == 0x0A || $0 == 0x0D } ?? pasted.endIndex
        if end > pastedStart { cf_el_winsertstr(editor, Array(pasted[pastedStart..<end]) + [0]) }
        guard end < pasted.endIndex else {
            dropPaste()
            return UInt8(CC_REFRESH)
        }
        // CR LF is one line end.
        pastedStart = end + (pasted[end] == 0x0D && end + 1 < pasted.endIndex && pasted[end + 1] == 0x0A ? 2 : 1)
        let enter: [UInt8] = [0x0D]
        if pastedStart == pasted.endIndex {
            dropPaste()
            unread.insert(contentsOf: enter, at: 0)
        } else {
            // Enter, then the rest again as a paste at the next prompt.
            unread.insert(contentsOf: enter + Array("\u{1B}[200~".utf8), at: 0)
        }
        return UInt8(CC_REFRESH)
    }

    /// The characters of a paste up to `\e[201~` (or the end of input); nil if a stop
    /// signal came first.
    private func readPaste() -> [wchar_t]? {
        let close: [wchar_t] = Array("\u{1B}[201~".unicodeScalars.map { wchar_t($0.value) })
        var text: [wchar_t] = []
        var character: wchar_t = 0
        while true {
            let result = readCharacter(
                from: input >= 0 ? input : 0, into: &character, unread: &unread, stop: stop,
                suspended: { suspend() }, resumed: { [editor, terminal] in cf_el_resume(editor, terminal) }, waiting: {}, woken: {})
            guard result == 1 else { return result == 0 ? text : nil }
            text.append(character)
            if text.count >= close.count && text[(text.count - close.count)...].elementsEqual(close) {
                return Array(text.dropLast(close.count))
            }
        }
    }

    /// Ctrl-Z at the prompt: stops carfab with the terminal as the shell left it, bracketed
    /// paste off (the shell would get pasted text wrapped in `\e[200~`), as bash's readline
    /// does; continued, on again, and the line is drawn again (`resumed`).
    fileprivate func suspend() {
        cf_el_suspend(editor, terminal, bracketsPaste ? 1 : 0) { programStop.isRequested ? 1 : 0 }
    }

    /// Forgets the rest of a paste (and the Enter and bracket queued for it).
    private func dropPaste() {
        (pasted, pastedStart) = ([], 0)
        unread.removeAll()
    }

    /// The screen row, counted from the prompt's, that libedit draws the cursor on after
    /// `typed`, as its refresh lays a line out: the prompt's 8 columns, then each character
    /// (a control character as `^X`, one that is not text as `\U+XXXX`, a Tab to the next
    /// multiple of 8), a wide character moved whole to the next row, a full row ending at the
    /// next one's start.
    static func cursorRow(_ typed: UnsafeBufferPointer<wchar_t>, columns: Int) -> Int {
        guard columns > 0 else { return 0 }
        var row = 0
        var column = 8
        func put(_ width: Int) {
            while width > 1 && column + width > columns {
                column += 1
                if column >= columns { (row, column) = (row + 1, 0) }
            }
            column += width
            if column >= columns { (row, column) = (row + 1, 0) }
        }
        for character in typed {
            let value = UInt32(bitPattern: character)
            if value == 0x09 {
                repeat { put(1) } while column % 8 != 0
            } else if value < 0x20 || (0x7F...0x9F).contains(value) {
                put(1)
                put(1)
            } else if case let width = cf_wcwidth(character), width >= 0 {
                put(Int(width))
            } else {
                for _ in 0..<(value > 0xFFFF ? 8 : 7) { put(1) }
            }
        }
        return row
    }

    /// Draws the rest of the command's usage, dimmed, after the cursor while the program waits
    /// for a key (as redis-cli does): only with the cursor at the end of a line of plain
    /// ASCII that leaves room for it on the terminal's line, so libedit's picture of the
    /// screen is never disturbed; the cursor goes back where libedit left it.
    fileprivate func drawHint() {
        guard hints, hintShown == 0, let info = cf_el_wline(editor), info.pointee.cursor == info.pointee.lastchar,
            let typed = lineBytes(toCursor: false)
        else { return }
        guard typed.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }),
            let hint = completer().hint(for: String(decoding: typed, as: UTF8.self)),
            hint.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F })
        else { return }
        // The prompts are 8 columns wide; the hint must end before the last column.
        let columns = Int(cf_terminal_columns(terminal))
        guard columns > 0, 8 + typed.count + hint.count < columns else { return }
        writeToTerminal("\u{1B}[2m" + hint + "\u{1B}[0m\u{1B}[\(hint.count)D")
        hintShown = hint.count
    }

    /// Takes the hint away before libedit acts on a key: it clears from the cursor to the end
    /// of the line, where only the hint stands.
    fileprivate func eraseHint() {
        guard hintShown > 0 else { return }
        writeToTerminal("\u{1B}[K")
        hintShown = 0
    }

    /// Candidates one to a line with what each is, the columns of the descriptions lined up
    /// (a model's car type, then its price), cut to the terminal's width.
    static func rows(_ names: [String], _ descriptions: [[String]], width: Int) -> String {
        let width = width > 0 ? width : 80
        let table = zip(names, descriptions).map { name, cells in
            ([name] + cells).map(DisplayText.escaped)
        }
        let columnCount = table.map(\.count).max() ?? 0
        // Every column but the last is padded to its widest cell; the names to at most half the line.
        var widths = (0..<columnCount).map { column in
            table.map { column < $0.count ? DisplayText.width($0[column]) : 0 }.max() ?? 0
        }
        if !widths.isEmpty { widths[0] = min(widths[0], width / 2) }
        var text = ""
        for row in table {
            let cells = row.enumerated().filter { $0.offset == 0 || !$0.element.isEmpty }
            var line = ""
            for (position, (column, cell)) in cells.enumerated() {
                if column > 0 { line += "  " }
                line += cell
                if position < cells.count - 1 {
                    line += String(repeating: " ", count: max(widths[column] - DisplayText.width(cell), 0))
                }
            }
            text += DisplayText.cut(line, toWidth: width - 1) + "\n"
        }
        return text
    }

    /// Candidates in columns, as shells list them, padded by the columns the terminal gives them.
    static func columns(_ names: [String], width: Int) -> String {
        let shown = names.map(DisplayText.escaped)
        let (cell, perLine) = columnLayout(shown, width: width)
        var text = ""
        for (index, name) in shown.enumerated() {
            let last = index % perLine == perLine - 1 || index == names.count - 1
            text += last ? name + "\n" : DisplayText.padded(name, toWidth: cell)
        }
        return text
    }

    /// How wide a column of names `shown` (escaped) is, and how many columns a line of `width` holds.
    private static func columnLayout(_ shown: [String], width: Int) -> (cell: Int, perLine: Int) {
        // A terminal whose size was never set reports 0 columns: lay out for 80, as `rows` does.
        let width = width > 0 ? width : 80
        let cell = min((shown.map(DisplayText.width).max() ?? 0) + 2, width)
        return (cell, max(1, width / max(cell, 1)))
    }

    private func writeToTerminal(_ text: String) {
        // Nothing from the background (`kill %1` ended carfab stopped): the screen and the
        // terminal's modes are the shell's (its prompt may bracket pastes), and under
        // `stty tostop` the write would stop carfab again (SIGTTOU).
        guard cf_in_background() == 0 else { return }
        // Output and errors sent to a file (`carfab > out.txt 2>&1`): what ends a line on the
        // screen is not the file's (trial 12, 7: Ctrl-D left a blank line at its end).
        guard isatty(terminal) == 1 else { return }
        var bytes = Array(text.utf8)
        _ = write(terminal, &bytes, bytes.count)
    }
}

/// Reads one UTF-8 character from the terminal for libedit: 1 with the character, 0 at the
/// end of input, -1 with errno EINTR when a stop signal (Ctrl-C) is pending, even one that
/// arrived while libedit was busy and not yet reading.
///
/// Ctrl-Z while waiting calls `suspended`, which stops carfab. After `fg` (or any stop and
/// continue) the shell hands the terminal back in its own mode, which would echo every key
/// twice: `resumed` puts libedit's mode back first.
private func readCharacter(
    from fd: Int32, into character: UnsafeMutablePointer<wchar_t>, unread: inout [UInt8],
    stop: StopRequest, suspended: () -> Void, resumed: () -> Void, waiting: () -> Void, woken: () -> Void
) -> Int32 {
    /// The next byte: one put back first, else one from the terminal; nil with `result` at the end or on an error.
    var result: Int32 = 1
    func next(first: Bool) -> UInt8? {
        if !unread.isEmpty { return unread.removeFirst() }
        var byte: UInt8 = 0
        while true {
            // A hint is drawn only when a person is about to be waited for: not while keys
            // typed ahead or pasted are still coming.
            if first {
                var item = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                if poll(&item, 1, 0) == 0 { waiting() }
            }
            let ready = cf_wait_readable(fd, { programStop.isRequested ? 1 : 0 })
            woken()
            let interrupted = ready < 0 && errno == EINTR
            if cf_take_suspended() != 0 { suspended() }
            if cf_take_resumed() != 0 { resumed() }
            // Another signal (SIGCONT, SIGWINCH) only woke the wait.
            if interrupted && !stop.isRequested { continue }
            if ready < 0 {
                result = -1
                return nil
            }
            let n = read(fd, &byte, 1)
            if n == 0 {
                result = 0
                return nil
            }
            if n < 0 {
                // Flushed by Ctrl-C after poll said readable, or interrupted: check the signal again.
                if errno == EINTR || errno == EAGAIN { continue }
                result = -1
                return nil
            }
            return byte
        }
    }
    guard let lead = next(first: true) else { return result }
    let (decoded, again) = TerminalBytes.character(startingWith: lead) { next(first: false) }
    // Cut short by an error or a stop signal: that is the answer.
    if result < 0 { return result }
    // Not UTF-8, or cut short by the end of input: what followed the lead is read again.
    unread.insert(contentsOf: again, at: 0)
    character.pointee = decoded
    return 1
}

/// How bytes from the terminal that are not text pass through libedit, which holds a line as
/// wide characters: a byte that is not UTF-8, or a NUL (which libedit would take as a key),
/// becomes the lone surrogate U+DC00 + byte, which no UTF-8 decodes to (libedit shows it as
/// `\U+DCFF`), and is turned back into that byte when the line is read. The engine then sees
/// the bytes typed and reports them where they stand, as it does in a script.
enum TerminalBytes {
    static func escaped(_ byte: UInt8) -> wchar_t { wchar_t(0xDC00) + wchar_t(byte) }

    /// How long the UTF-8 sequence `lead` begins is (0 if no sequence begins with it), and
    /// the range its second byte must fall in: the lexer's rules, so no overlong form or
    /// surrogate slips through.
    static func sequence(startingWith lead: UInt8) -> (length: Int, second: (UInt8, UInt8)) {
        switch lead {
        case 0x00...0x7F: (1, (0x80, 0xBF))
        case 0xC2...0xDF: (2, (0x80, 0xBF))
        case 0xE0: (3, (0xA0, 0xBF))
        case 0xE1...0xEC, 0xEE...0xEF: (3, (0x80, 0xBF))
        case 0xED: (3, (0x80, 0x9F))
        case 0xF0: (4, (0x90, 0xBF))
        case 0xF1...0xF3: (4, (0x80, 0xBF))
        case 0xF4: (4, (0x80, 0x8F))
        default: (0, (0x80, 0xBF))
        }
    }

    /// The character the UTF-8 sequence `lead` begins makes, its further bytes taken from `next`
    /// (nil: there are no more), and the bytes taken past the character, to be read again: a
    /// lead that no sequence (or not the bytes after it) completes, or a NUL, is escaped.
    static func character(startingWith lead: UInt8, next: () -> UInt8?) -> (character: wchar_t, again: [UInt8]) {
        let sequence = sequence(startingWith: lead)
        var scalar = UInt32(lead) & UInt32(0xFF >> (sequence.length + 1))
        var taken: [UInt8] = []
        for index in 1..<max(sequence.length, 1) {
            guard let byte = next() else { return (escaped(lead), taken) }
            let (low, high) = index == 1 ? sequence.second : (UInt8(0x80), UInt8(0xBF))
            guard byte >= low && byte <= high else { return (escaped(lead), taken + [byte]) }
            taken.append(byte)
            scalar = scalar << 6 | UInt32(byte & 0x3F)
        }
        switch sequence.length {
        case 0: return (escaped(lead), [])
        case 1: return (lead == 0 ? escaped(0) : wchar_t(lead), [])
        default: return (wchar_t(bitPattern: scalar), [])
        }
    }

    /// The wide characters `bytes` make, as typed at the terminal: the inverse of `bytes(of:)`.
    static func wide(of bytes: [UInt8]) -> [wchar_t] {
        var wide: [wchar_t] = []
        wide.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            index += 1
            let (decoded, again) = character(startingWith: lead) {
                guard index < bytes.count else { return nil }
                defer { index += 1 }
                return bytes[index]
            }
            index -= again.count
            wide.append(decoded)
        }
        return wide
    }

    /// The bytes a line of wide characters stands for: UTF-8, with each escaped byte as itself.
    static func bytes(of wide: UnsafeBufferPointer<wchar_t>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(wide.count)
        for character in wide {
            let value = UInt32(bitPattern: character)
            if value >= 0xDC00 && value <= 0xDCFF {
                bytes.append(UInt8(value - 0xDC00))
            } else if let scalar = Unicode.Scalar(value) {
                bytes.append(contentsOf: String(scalar).utf8)
            }
        }
        return bytes
    }
}

/// Makes libedit read and write UTF-8 (`£`, `é`) whatever the locale says.
func useUTF8Locale() {
    setlocale(LC_CTYPE, "")
    if let codeset = nl_langinfo(nl_item(CODESET)), String(cString: codeset) != "UTF-8" {
        setlocale(LC_CTYPE, "C.UTF-8")
    }
}
