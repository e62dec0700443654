import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The prompt's defects from issues 19 and 20, driven through a pseudo-terminal.
extension ReplTests {
    @Test func tab_after_earlier_commands_on_the_line_describes_the_car_they_make() throws {
        let terminal = try start()
        #expect(terminal.enter("car suv", expecting: "carfab> "))
        terminal.type("car sports; set suspension \t")
        // On the sports car race suspension is its own; on the SUV's long floorplan it is forbidden.
        #expect(terminal.waitFor("race     (current)"), "\(terminal.output.debugDescription)")
        terminal.interrupt()
        #expect(terminal.enter("list", expecting: "suv"))
        #expect(!terminal.output.contains("Porsche"))
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
    }
}
