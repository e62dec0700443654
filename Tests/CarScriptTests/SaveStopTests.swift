import CarFactory
import Testing

@testable import CarScript

/// A stop asked for while `save` makes its script ends it between lines, as `list` ends
/// between rows: the script of a large stock was made to its end first (trial 11, 1).
@Suite struct SaveStopTests {
    @Test func a_stop_ends_the_making_of_a_saved_script() throws {
        let engine = Engine()
        _ = engine.evaluate(String(repeating: "car sports; car suv; set drivetrain rear\n", count: 3_000))
        #expect(try SessionScript.text(of: engine.session).hasSuffix("car suv 1\nset drivetrain rear\n"))
        engine.session.stop.request(2)
        #expect(throws: ScriptError.Kind.reported) { try SessionScript.text(of: engine.session) }
        #expect(throws: ScriptError.Kind.reported) { try SessionScript.text(of: engine.session, minimal: true) }
    }
}
