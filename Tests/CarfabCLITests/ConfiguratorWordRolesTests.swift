import CarFactory
import CarScript
import Foundation
import Testing

@testable import CarfabCLI

/// The roles the language server gives the words after `options`, `why`, `fit` and `cheapest`
/// (what definition, references, rename and semantic tokens go by) are the ones the commands
/// read them as (`ConfiguratorWordsTests` has what the commands do with the same words).
@Suite struct ConfiguratorWordRolesTests {
    /// A model named as a family (`paint`), a model named `in`, an option named `in`.
    private let definitions = """
        family paint "Paint" default white "White"
        option paint in "Indigo" price 700
        model paint "Paint Shop Special" price 20000 floorplan short suspension road drivetrain rear
        model in "Inner City" price 18000 floorplan short suspension road drivetrain rear
        """

    /// Each word's role after the command's name, as text.
    private func roles(_ command: String) -> [String] {
        let engine = Engine()
        #expect(engine.evaluate(definitions).diagnostics.isEmpty)
        let words = ScriptLines.read(Array(command.utf8))[0].commands[0]
        return ScriptIndex.roles(of: words, in: Array(command.utf8), commands: engine.commands, catalog: engine.catalog).dropFirst().map {
            switch $0 {
            case .model: "model"
            case .family: "family"
            case .option(let family, _, _): "option of \(family.map { engine.catalog.name(of: $0) } ?? "?")"
            case .currency: "currency"
            case .keyword: "keyword"
            case .variable, .file, .other: "other"
            }
        }
    }

    /// Before: `paint` was a family with no option (no role); `cheapest paint` runs the model.
    @Test func a_word_that_is_both_a_model_and_a_family_is_the_model_when_the_command_reads_it_so() {
        #expect(roles("cheapest paint") == ["model"])
        #expect(roles("cheapest paint drivetrain 4wd") == ["model", "family", "option of drivetrain"])
        #expect(roles("cheapest paint white") == ["family", "option of paint"])
    }

    /// Before: `in` was the keyword and `drivetrain` a currency.
    @Test func a_model_named_in() {
        #expect(roles("cheapest in drivetrain 4wd") == ["model", "family", "option of drivetrain"])
        #expect(roles("cheapest in") == ["model"])
        #expect(roles("cheapest in GBP") == ["keyword", "currency"])
        #expect(roles("cheapest sports paint in") == ["model", "family", "option of paint"])
    }

    /// Before: an unknown first word was a model, and words the command refuses (after its
    /// last, after an error) were families and options.
    @Test func words_the_command_refuses_name_nothing() {
        #expect(roles("cheapest nosuch drivetrain 4wd") == ["other", "other", "other"])
        #expect(roles("why drivetrain front floorplan long") == ["family", "option of drivetrain", "other", "other"])
        #expect(
            roles("fit drivetrain front in GBP floorplan long") == [
                "family", "option of drivetrain", "keyword", "currency", "other", "other"
            ])
        #expect(roles("cheapest in GBP drivetrain 4wd") == ["keyword", "currency", "other", "other"])
    }

    /// A word with a variable in it is taken as what may stand there, so the words after it
    /// keep their roles (the variable itself is indexed as a variable).
    @Test func a_variable_stands_for_what_may_stand_there() {
        #expect(roles("cheapest $m paint white") == ["other", "family", "option of paint"])
        #expect(roles("cheapest $f white drivetrain 4wd") == ["other", "other", "family", "option of drivetrain"])
        #expect(roles("cheapest sports paint white in $c") == ["model", "family", "option of paint", "keyword", "other"])
        #expect(roles("why $f front in GBP") == ["other", "other", "keyword", "currency"])
    }

    /// Before: `in` at the end had no role; and `in` was a keyword in any word list (`echo in GBP`).
    @Test func in_is_a_keyword_only_where_the_commands_read_it() {
        #expect(roles("options paint in") == ["family", "keyword"])
        #expect(roles("echo in GBP") == ["other", "other"])
    }

    /// Before: hover said nothing on `cheapest`'s and `options`' words (their word list has no
    /// argument kind); now it describes what the reader says each is.
    @Test func hover_describes_the_words_as_the_reader_reads_them() throws {
        let uri = "file:///tmp/hover.carfab"
        let text = "car sports\ncheapest suv drivetrain 4wd in GBP\noptions paint\n"
        let session = try serve(
            initializeRequest + didOpen(uri, definitions + "\n" + text)
                + request(2, "textDocument/hover", at(uri, 5, 10)) + request(3, "textDocument/hover", at(uri, 5, 18))
                + request(4, "textDocument/hover", at(uri, 5, 32)) + request(5, "textDocument/hover", at(uri, 6, 10))
                + request(6, "textDocument/hover", at(uri, 5, 29)) + shutdownAndExit)
        let hover = { (id: Int) in
            (((session.response(id)?["result"] as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String)?
                .split(separator: "\n").first.map(String.init)
        }
        #expect(hover(2) == "**suv**: Cadillac Escalade")
        #expect(hover(3) == "**drivetrain** options: front, rear, 4wd")
        #expect(hover(4) == "**GBP**: symbol \"£\", 2 minor digits, rate 0.60338 per USD")
        #expect(hover(5) == "**paint** options: white, in")
        #expect(hover(6) == nil)  // `in`
    }
}
