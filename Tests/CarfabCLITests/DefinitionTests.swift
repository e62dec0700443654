import Foundation
import Testing

@testable import CarfabCLI

/// Catalog definitions: the four forms, `--catalog`, and every validation error.
@Suite struct DefinitionTests {
    static let roadsters = "Scripts/examples/catalogs/roadsters.carfab"

    @Test func the_forms_of_the_brief_define_what_every_command_then_uses() throws {
        let script = """
            option drivetrain hybrid "Hybrid AWD" price 6500
            model roadster "Mazda MX-5" price 31000 floorplan short suspension race drivetrain rear
            forbid suspension race with floorplan long
            currency CHF "CHF " digits 2 rate 0.88
            car roadster; set drivetrain hybrid; show; price CHF; total chf
            """
        // `forbid suspension race with floorplan long` is the built-in rule: a duplicate.
        let duplicate = try carfab([], stdin: script)
        #expect(duplicate.status == 1)
        #expect(
            duplicate.stderr.hasPrefix("<stdin>:3:1: error: the rule 'forbid suspension race with floorplan long' is already defined\n"))
        let result = try carfab(
            [],
            stdin: script.replacingOccurrences(
                of: "forbid suspension race with floorplan long", with: "forbid drivetrain hybrid with floorplan long"))
        #expect(
            result
                == RunResult(
                    stdout: """
                        Car type: Mazda MX-5
                        Seats: 2
                        Engine: Mid
                        Suspension: Firm
                        Drive: Hybrid AWD
                        Price: $36,000.00
                        CHF 31,680.00
                        1 Car in Stock. Total Value: CHF 31,680.00

                        """, stderr: "", status: 0))
    }

    /// README shows `roadsters.carfab` as the catalog that uses every form of definition; it
    /// had no `family` and no `require` (trial 10, 10).
    @Test func the_example_catalog_uses_every_form_of_definition() throws {
        let text = try String(contentsOf: packageRoot.appendingPathComponent(Self.roadsters), encoding: .utf8)
        let firstWords = Set(text.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) })
        for form in ["family", "option", "model", "forbid", "require", "currency"] {
            #expect(firstWords.contains(form), "\(form)")
        }
    }

    @Test func a_catalog_file_loads_before_the_scripts() throws {
        let result = try carfab(["--catalog", Self.roadsters, "-e", "models; currencies"])
        #expect(
            result
                == RunResult(
                    stdout: """
                        model        car type            base price  floorplan  suspension  drivetrain  paint
                        compact      VW Golf             $27,995.00  standard   road        front       white
                        sports       Porsche Boxster     $68,300.00  short      race        rear        white
                        suv          Cadillac Escalade   $81,895.00  long       offroad     4wd         white
                        roadster     Mazda MX-5          $31,000.00  roadster   race        rear        red
                        grandtourer  Aston Martin DB12  $245,000.00  standard   track       rear        white
                        code  symbol  digits  rate
                        USD   $            2  1
                        GBP   £            2  0.60338
                        EUR   €            2  0.92
                        JPY   ¥            0  151.5
                        CHF   CHF          2  0.88
                        KRW   ₩            0  1383.25

                        """, stderr: "", status: 0))
    }

    @Test(arguments: [
        ("model suv \"Another\" price 1 floorplan long suspension soft drivetrain 4wd", "1:7", "model 'suv' is already defined"),
        ("option drivetrain AWD \"x\" price 0", "1:19", "drivetrain option name 'AWD' is already taken by '4wd'"),
        ("option drivetrain x \"x\" price 0 alias Rear", "1:39", "drivetrain option name 'Rear' is already taken by 'rear'"),
        ("option drivetrain y \"y\" price 0 alias y", "1:39", "'y' is named twice in this definition"),
        ("option drivetrain y \"y\" price 0 alias z alias Z", "1:47", "'Z' is named twice in this definition"),
        ("option drivetrain y \"y\" price 0 alias \"\"", "1:39", "a name cannot be empty"),
        (
            "model cheap \"C\" price 0 floorplan standard suspension road drivetrain 4wd", "1:23",
            "'cheap' with short floorplan, front drivetrain would cost -$6,000.00: a price cannot be below zero"
        ),
        ("rate usd 2", "1:6", "USD is the base currency; its rate is always 1"),
        ("rate gbp 1.0000000000001", "1:10", "'1.0000000000001' has more than 12 decimal places"),
        ("currency gbp \"£\" digits 2 rate 1", "1:10", "currency 'GBP' is already defined"),
        ("option engine v8 \"V8\" price 0", "1:8", "unknown family 'engine'; valid families: floorplan, suspension, drivetrain"),
        (
            "model m \"M\" price 1 floorplan tiny suspension race drivetrain rear", "1:31",
            "unknown floorplan option 'tiny'; valid floorplan options: short, standard, long"
        ),
        (
            "model m \"M\" price 1 floorplan long suspension race drivetrain rear", "1:7",
            "the default options of 'm' break a rule: race suspension cannot go with the long floorplan"
        ),
        (
            "forbid drivetrain rear with floorplan huge", "1:39",
            "unknown floorplan option 'huge'; valid floorplan options: short, standard, long"
        ),
        (
            "forbid drivetrain hover with floorplan long", "1:19",
            "unknown drivetrain option 'hover'; valid drivetrain options: front, rear, 4wd"
        ),
        ("forbid drivetrain rear with drivetrain front", "1:29", "a rule must join two different families, not drivetrain with drivetrain"),
        ("forbid drivetrain rear without floorplan long", "1:24", "expected 'with', not 'without'"),
        (
            "forbid suspension road with floorplan standard", "1:1",
            "the default options of 'compact' break a rule: road suspension cannot go with the standard floorplan"
        ),
        (
            "car sports; set drivetrain 4wd; forbid drivetrain 4wd with floorplan short", "1:33",
            "stock line 1 already breaks this rule: 4wd drivetrain cannot go with the short floorplan"
        ),
        (
            "require drivetrain rear with floorplan huge", "1:40",
            "unknown floorplan option 'huge'; valid floorplan options: short, standard, long"
        ),
        (
            "require drivetrain rear with drivetrain front", "1:30",
            "a rule must join two different families, not drivetrain with drivetrain"
        ),
        (
            "require drivetrain front with floorplan long", "1:1",
            "the default options of 'compact' break a rule: front drivetrain needs the long floorplan"
        ),
        (
            "require floorplan long with suspension offroad; require floorplan long with suspension offroad", "1:49",
            "the rule 'require floorplan long with suspension offroad' is already defined"
        ),
        (
            "car suv; set suspension road; require floorplan long with suspension offroad", "1:31",
            "stock line 1 already breaks this rule: long floorplan needs the offroad suspension"
        ),
        (
            "require floorplan long with suspension offroad; model m \"M\" price 1 floorplan long suspension road drivetrain rear", "1:55",
            "the default options of 'm' break a rule: long floorplan needs the offroad suspension"
        ),
        (
            "require floorplan long with suspension offroad; car compact; set floorplan long", "1:76",
            "long floorplan needs the offroad suspension"
        ),
        ("currency SFR1 \"x\" digits 2 rate 1", "1:10", "'SFR1' is not a currency code (three letters, like CHF)"),
        ("currency CHFX \"x\" digits 2 rate 1", "1:10", "'CHFX' is not a currency code (three letters, like CHF)"),
        ("currency CHF \"x\" digits 5 rate 1", "1:25", "minor digits must be from 0 to 4, not 5"),
        ("currency CHF \"x\" digits -1 rate 1", "1:25", "'-1' is not a whole number"),
        ("currency CHF \"x\" digits 2 rate 0", "1:32", "rate '0' is not a positive decimal"),
        ("currency CHF \"x\" digits 2 rate -0.5", "1:32", "'-0.5' is not a decimal number"),
        ("currency CHF \"x\" digits 2 rate abc", "1:32", "'abc' is not a decimal number"),
        ("option floorplan xl \"XL\" price 9000", "1:18", "floorplan option 'xl' needs 'seats N engine POSITION'"),
        ("option floorplan xl \"XL\" price 9000 seats 0 engine front", "1:43", "seats must be a whole number from 1 to 99, not '0'"),
        (
            "option floorplan xl \"XL\" price 9000 seats 9 engine side", "1:52",
            "unknown engine position 'side'; valid engine positions: front, mid, rear"
        ),
        ("option drivetrain x \"X\" price 1 seats 2", "1:19", "seats and engine apply to floorplans, not to drivetrain"),
        ("option drivetrain x \"X\" price 1.005", "1:31", "'1.005' has more than 2 decimal places"),
        ("option drivetrain x \"X\" price 1 colour red", "1:33", "unknown keyword 'colour'; valid keywords: seats, engine, alias"),
        ("option drivetrain \"\" \"X\" price 1", "1:19", "a name cannot be empty")
    ])
    func a_bad_definition_is_a_positioned_error_and_registers_nothing(line: String, position: String, message: String) throws {
        let result = try carfab(["--keep-going", "-e", line, "-e", "models; parts; currencies"])
        let baseline = try carfab([
            "-e", line.hasPrefix("car ") ? "car sports; set drivetrain 4wd; models; parts; currencies" : "models; parts; currencies"
        ])
        #expect(result.stderr.hasPrefix("<command-line 1>:\(position): error: \(message)\n"), "\(result.stderr)")
        #expect(result.stdout == baseline.stdout.replacingOccurrences(of: "Car type", with: "Car type"), "nothing registered")
        #expect(result.status == 1)
    }

}
