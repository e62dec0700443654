import Foundation
import Testing

@testable import CarfabCLI

/// A refused change explains itself: the rule, where it was defined, and what is allowed (issue 15).
@Suite struct RefusalNotesTests {
    @Test func json_errors_carry_the_notes() throws {
        let run = try carfab(["--format", "json", "-e", "car sports; set drivetrain front"])
        let object = try JSONSerialization.jsonObject(with: Data(run.stderr.utf8)) as? [String: Any] ?? [:]
        let notes = object["notes"] as? [[String: Any]] ?? []
        #expect(notes.count == 3)
        #expect(
            notes.first?["message"] as? String == "the rule 'forbid drivetrain front with floorplan short' is part of the built-in catalog")
        #expect(notes.first?["place"] is NSNull)
        #expect(notes[1]["message"] as? String == "drivetrain options allowed for this car: 4wd (+$2,500.00)")
        #expect(notes.last?["message"] as? String == "'fit drivetrain front' would also set floorplan standard (+$500.00)")
    }

    @Test func a_catalog_files_rule_is_placed_at_its_forbid() throws {
        let directory = try temporaryDirectory(with: ["rules.carfab": "# house rules\n\nforbid suspension road with drivetrain 4wd\n"])
        let catalog = directory.appendingPathComponent("rules.carfab")
        let run = try carfab(["--catalog", catalog.path, "-e", "car compact\nset drivetrain 4wd"])
        #expect(
            run.stderr == """
                <command-line>:2:16: error: road suspension cannot go with the 4wd drivetrain
                set drivetrain 4wd
                               ^~~
                \(catalog.path):3: note: the rule 'forbid suspension road with drivetrain 4wd' is defined here
                note: drivetrain options allowed for this car: rear (+$1,500.00)
                note: 'fit drivetrain 4wd' would also set suspension offroad (+$5,800.00)

                """)
    }

    @Test func only_the_first_options_are_looked_at() throws {
        let options = (1...40).map { "option drivetrain d\($0) \"D\($0)\" price \($0)" }.joined(separator: "\n")
        let run = try carfab(["-e", options + "\nforbid drivetrain d40 with floorplan short\ncar sports; set drivetrain d40"])
        let allowed = (["4wd (+$2,500.00)"] + (1...29).map { "d\($0) (-$1,\(500 - $0).00)" }).joined(separator: ", ")
        #expect(
            run.stderr.hasSuffix(
                "note: drivetrain options allowed for this car: \(allowed) (11 more options not checked)\n"
                    + "note: 'fit drivetrain d40' would also set floorplan standard (+$540.00)\n"),
            "\(run)")
    }
}
