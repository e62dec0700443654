import Foundation
import TestSupport
import Testing

/// A `set` of several parts that a rule refuses: the rule's origin and the cheapest repair that
/// keeps every part named, as a `set` of one part gets (it got no notes at all).
@Suite struct RefusedSetTests {
    static let air = "option suspension air \"Air\" price 100; forbid suspension air with floorplan standard"

    @Test func the_rule_and_the_cheapest_repair_keeping_the_parts_named() throws {
        #expect(
            try carfab(["-e", "car sports; set suspension road drivetrain front"])
                == RunResult(
                    stdout: "",
                    stderr: """
                        <command-line>:1:17: error: front drivetrain cannot go with the short floorplan
                        car sports; set suspension road drivetrain front
                                        ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
                        note: the rule 'forbid drivetrain front with floorplan short' is part of the built-in catalog
                        note: the cheapest repair that keeps these parts also sets floorplan standard: 'set suspension road drivetrain front floorplan standard' (-$1,900.00)

                        """, status: 1))
        // Standard is out with the air suspension: the repair keeps air and takes the long
        // floorplan, though changing the suspension would cost less.
        let air = try carfab(["-e", Self.air, "-e", "car sports; set suspension air drivetrain front"])
        #expect(air.status == 1)
        #expect(
            air.stderr.hasSuffix(
                "note: the cheapest repair that keeps these parts also sets floorplan long: 'set suspension air drivetrain front floorplan long' (+$2,700.00)\n"
            ))
        let json = try carfab(["--format", "json", "-e", "car sports; set suspension road drivetrain front"])
        let notes = try #require(try jsonObjects(json.stderr).first?.value["notes"] as? [[String: Any]])
        #expect(
            notes.map { $0["message"] as? String } == [
                "the rule 'forbid drivetrain front with floorplan short' is part of the built-in catalog",
                "the cheapest repair that keeps these parts also sets floorplan standard: 'set suspension road drivetrain front floorplan standard' (-$1,900.00)"
            ])
    }

    @Test func no_repair_keeps_the_parts_named() throws {
        // The parts named clash with each other, or every floorplan is out: no repair is offered.
        let clash = try carfab(["-e", "car sports; set drivetrain front floorplan short"])
        #expect(
            clash.stderr.hasSuffix(
                """
                note: the rule 'forbid drivetrain front with floorplan short' is part of the built-in catalog
                note: no valid car has the front drivetrain and the short floorplan together, whatever else it has

                """))
        let three = try carfab([
            "-e", Self.air + "; forbid suspension air with floorplan long",
            "-e", "car sports; set suspension air drivetrain front"
        ])
        #expect(
            three.stderr.hasSuffix(
                "note: no valid car has the air suspension and the front drivetrain together, whatever else it has\n"))
    }

    @Test func a_rule_from_a_file_is_placed() throws {
        let dir = try temporaryDirectory(with: ["rules.carfab": "# rules\n" + Self.air + "\n"])
        let result = try carfab(["--catalog", "rules.carfab", "-e", "car compact; set suspension air drivetrain rear"], directory: dir)
        #expect(
            result
                == RunResult(
                    stdout: "",
                    stderr: """
                        <command-line>:1:18: error: air suspension cannot go with the standard floorplan
                        car compact; set suspension air drivetrain rear
                                         ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
                        rules.carfab:2: note: the rule 'forbid suspension air with floorplan standard' is defined here
                        note: the cheapest repair that keeps these parts also sets floorplan short: 'set suspension air drivetrain rear floorplan short' (-$400.00)

                        """, status: 1))
    }
}
