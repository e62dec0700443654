import Foundation
import Testing

/// `carfab --lsp` with real clients: the release binary as a child of the client, over pipes.
@Suite struct LanguageServerEndToEndTests {
    /// Neovim's own client (Debian's 0.7, headless, no configuration): diagnostics, completion
    /// and hover as Neovim turns them into its own values. Neovim converts LSP's UTF-16
    /// columns into byte columns of the line: `🚗sprots` marked at bytes 4..<14 shows that the
    /// server counted the car as two UTF-16 units, not as one character or four bytes.
    @Test func neovim_shows_diagnostics_completes_and_hovers() throws {
        let script = "car sports\nset suspension rcae\nset drivetrain \ncar 🚗sprots\n"
        let directory = try temporaryDirectory(with: ["quote 🚗.carfab": script, "client.lua": Self.client])
        // Everything Neovim might write (logs, state) stays in the scratch folder, not under HOME.
        let home = directory.appendingPathComponent("nvim").path
        let result = try shell(
            "nvim --headless -u NONE -i NONE -n -c 'luafile client.lua'", directory: directory,
            environment: [
                "XDG_CONFIG_HOME": home, "XDG_DATA_HOME": home, "XDG_CACHE_HOME": home, "XDG_STATE_HOME": home,
                "SCRIPT": directory.appendingPathComponent("quote 🚗.carfab").path,
                "RESULT": directory.appendingPathComponent("result.txt").path
            ])
        #expect(result.status == 0, "\(result)")
        let seen = try String(contentsOf: directory.appendingPathComponent("result.txt"), encoding: .utf8)
        #expect(
            seen == #"""
                diagnostic {"code":"unknown-option","col":15,"end_col":19,"lnum":1,"message":"unknown suspension option 'rcae'; did you mean 'race'?","severity":1}
                diagnostic {"code":"missing-argument","col":14,"end_col":15,"lnum":2,"message":"missing OPTION; usage: set FAMILY OPTION [FAMILY OPTION]...","severity":1}
                diagnostic {"code":"unknown-model","col":4,"end_col":14,"lnum":3,"message":"unknown model '🚗sprots'; did you mean 'sports'?","severity":1}
                completion front repair +$500.00 (not with the short floorplan)
                completion rear (current)
                completion 4wd +$2,500.00
                completion all (4wd) +$2,500.00
                completion awd (4wd) +$2,500.00
                hover set FAMILY OPTION [FAMILY OPTION]...|change parts of the current car
                exit 0

                """#)
    }

    /// The client: opens the script, attaches a `carfab --lsp` client, waits for the
    /// diagnostics, asks for completion after `set drivetrain ` and hover on `set`, stops the
    /// client and writes what it saw (keys sorted, so the lines compare whole).
    static let client = #"""
        local lines = {}
        local function sorted(t)
          local keys = {}
          for k in pairs(t) do table.insert(keys, k) end
          table.sort(keys)
          local parts = {}
          for _, k in ipairs(keys) do table.insert(parts, vim.json.encode(k) .. ":" .. vim.json.encode(t[k])) end
          return "{" .. table.concat(parts, ",") .. "}"
        end
        local ran, failure = pcall(function()
          pcall(vim.lsp.set_log_level, "ERROR")
          local file = os.getenv("SCRIPT")
          vim.cmd("edit " .. vim.fn.fnameescape(file))
          local buf = vim.api.nvim_get_current_buf()
          local exited
          local client = vim.lsp.start_client({ name = "carfab", cmd = { os.getenv("CARFAB"), "--lsp" },
            root_dir = vim.fn.fnamemodify(file, ":h"), on_exit = function(code) exited = code end })
          vim.lsp.buf_attach_client(buf, client)
          vim.wait(10000, function() return #vim.diagnostic.get(buf) >= 3 end, 10)
          local diagnostics = vim.diagnostic.get(buf)
          table.sort(diagnostics, function(a, b) return a.lnum < b.lnum end)
          for _, d in ipairs(diagnostics) do
            table.insert(lines, "diagnostic " .. sorted({ lnum = d.lnum, col = d.col, end_col = d.end_col,
              severity = d.severity, code = d.code, message = d.message }))
          end
          local uri = vim.uri_from_bufnr(buf)
          local function ask(method, line, character)
            local replies = vim.lsp.buf_request_sync(buf, method,
              { textDocument = { uri = uri }, position = { line = line, character = character } }, 10000)
            return replies and replies[client] and replies[client].result
          end
          local completion = ask("textDocument/completion", 2, 15)
          for _, item in ipairs(completion and completion.items or {}) do
            table.insert(lines, "completion " .. item.label .. " " .. (item.detail or ""))
          end
          local hover = ask("textDocument/hover", 1, 2)
          local value = hover and hover.contents.value or ""
          local usage, summary = value:match("```\n(.-)\n```\n([^\n]*)")
          table.insert(lines, "hover " .. tostring(usage) .. "|" .. tostring(summary))
          vim.lsp.stop_client(client)
          vim.wait(10000, function() return exited ~= nil end, 10)
          table.insert(lines, "exit " .. tostring(exited))
        end)
        if not ran then table.insert(lines, "error " .. tostring(failure)) end
        local f = io.open(os.getenv("RESULT"), "w")
        f:write(table.concat(lines, "\n") .. "\n")
        f:close()
        vim.cmd("qa!")
        """#

    /// Neovim applying what the server answers, with its own edit functions: definition in
    /// a sourced file, rename across both files (and a built-in name refused), the code
    /// actions (a fix-it, the configurator's repair of a refused `set`), formatting.
    @Test func neovim_goes_to_definitions_renames_applies_code_actions_and_formats() throws {
        let script = "source defs.carfab\ncar   roadster 2\nset drivetrain electric\ncar sprots\ncar sports; set floorplan long\n"
        let definitions =
            "model roadster \"Mazda MX-5\" price 31000 floorplan short suspension race drivetrain rear\n"
            + "option drivetrain hybrid \"Hybrid AWD\" price 6500 alias electric\n"
        let directory = try temporaryDirectory(with: [
            "quote 🚗.carfab": script, "defs.carfab": definitions,
            "client.lua": Self.editingClient
        ])
        let home = directory.appendingPathComponent("nvim").path
        let result = try shell(
            "nvim --headless -u NONE -i NONE -n -c 'luafile client.lua'", directory: directory,
            environment: [
                "XDG_CONFIG_HOME": home, "XDG_DATA_HOME": home, "XDG_CACHE_HOME": home, "XDG_STATE_HOME": home,
                "SCRIPT": directory.appendingPathComponent("quote 🚗.carfab").path,
                "RESULT": directory.appendingPathComponent("result.txt").path
            ])
        #expect(result.status == 0, "\(result)")
        let seen = try String(contentsOf: directory.appendingPathComponent("result.txt"), encoding: .utf8)
        #expect(
            seen == #"""
                definition defs.carfab 0:6
                renamed in defs.carfab: model miata "Mazda MX-5" price 31000 floorplan short suspension race drivetrain rear
                rename refused: 'sports' is a built-in model, so it cannot be renamed: only names the script (or a file it sources) defines can be
                code action Change 'sprots' to 'sports'
                code action Fit floorplan long: also set suspension road (+$4,100.00)
                | source defs.carfab
                | car miata 2
                | set drivetrain electric
                | car sports
                | car sports; set floorplan long suspension road
                exit 0

                """#)
        // The edits went to Neovim's buffers; the files are as they were.
        #expect(try String(contentsOf: directory.appendingPathComponent("defs.carfab"), encoding: .utf8) == definitions)
    }

    /// The client for the editing test: asks, applies each answer with Neovim's own
    /// `apply_workspace_edit`/`apply_text_edits` (UTF-16), and writes the buffer after.
    static let editingClient = #"""
        local lines = {}
        local ran, failure = pcall(function()
          pcall(vim.lsp.set_log_level, "ERROR")
          local file = os.getenv("SCRIPT")
          vim.cmd("edit " .. vim.fn.fnameescape(file))
          local buf = vim.api.nvim_get_current_buf()
          local exited
          local client = vim.lsp.start_client({ name = "carfab", cmd = { os.getenv("CARFAB"), "--lsp" },
            root_dir = vim.fn.fnamemodify(file, ":h"), on_exit = function(code) exited = code end })
          vim.lsp.buf_attach_client(buf, client)
          vim.wait(10000, function() return #vim.diagnostic.get(buf) >= 1 end, 10)
          local uri = vim.uri_from_bufnr(buf)
          local function ask(method, params)
            params.textDocument = { uri = uri }
            local replies = vim.lsp.buf_request_sync(buf, method, params, 10000)
            return replies and replies[client] and replies[client].result
          end
          local function at(line, character) return { line = line, character = character } end
          local definition = ask("textDocument/definition", { position = at(1, 8) })
          for _, location in ipairs(definition or {}) do
            table.insert(lines, "definition " .. vim.fn.fnamemodify(vim.uri_to_fname(location.uri), ":t") .. " "
              .. location.range.start.line .. ":" .. location.range.start.character)
          end
          local renamed = ask("textDocument/rename", { position = at(1, 8), newName = "miata" })
          vim.lsp.util.apply_workspace_edit(renamed, "utf-16")
          local defs = vim.fn.bufnr(vim.fn.fnamemodify(file, ":h") .. "/defs.carfab")
          table.insert(lines, "renamed in defs.carfab: " .. vim.api.nvim_buf_get_lines(defs, 0, 1, false)[1])
          local refused = vim.lsp.buf_request_sync(buf, "textDocument/rename",
            { textDocument = { uri = uri }, position = at(4, 5), newName = "x" }, 10000)
          table.insert(lines, "rename refused: " .. tostring(refused[client].error and refused[client].error.message))
          for _, line in ipairs({ 3, 4 }) do
            local actions = ask("textDocument/codeAction", { range = { start = at(line, 0), ["end"] = at(line, 0) },
              context = { diagnostics = vim.diagnostic.get(buf, { lnum = line }) } })
            for _, action in ipairs(actions or {}) do
              table.insert(lines, "code action " .. action.title)
              vim.lsp.util.apply_workspace_edit(action.edit, "utf-16")
            end
          end
          local edits = ask("textDocument/formatting", { options = { tabSize = 4, insertSpaces = true } })
          vim.lsp.util.apply_text_edits(edits, buf, "utf-16")
          for _, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do table.insert(lines, "| " .. line) end
          vim.lsp.stop_client(client)
          vim.wait(10000, function() return exited ~= nil end, 10)
          table.insert(lines, "exit " .. tostring(exited))
        end)
        if not ran then table.insert(lines, "error " .. tostring(failure)) end
        local f = io.open(os.getenv("RESULT"), "w")
        f:write(table.concat(lines, "\n") .. "\n")
        f:close()
        vim.cmd("qa!")
        """#
}
