import Foundation
import Testing

/// `list` as a whole: a stock of many configurations (some repeated, some side by side), names
/// that need escaping, wide characters, a foreign currency defined and used, in text and JSON.
/// The expected output is the one `list` wrote before its rows were made into a reused buffer
/// grouped by configuration (issue 21): the rows must not change by a byte.
@Suite struct ListOutputTests {
    static let script = #"""
        model m "A\u{1B}[31mB" price 70000 floorplan short suspension race drivetrain rear
        model tokyo "東京 Roadster" price 41000.5 floorplan short suspension road drivetrain rear
        option suspension x "S\u{202E}x" price 1 alias "x\u{7}y"
        option drivetrain 東輪 "Wide Drive" price 1234.56
        currency XYZ "\u{1B}[1m" digits 3 rate 1.25
        car m
        car tokyo 12
        set drivetrain 東輪
        car sports 3
        set suspension x
        car m 1000000
        set suspension x
        car tokyo
        car sports 2
        set drivetrain 4wd
        car suv 7
        car sports 1
        car tokyo 2
        set suspension x
        car m
        car sports 11
        set drivetrain 4wd
        car suv 9
        car suv 4
        select 4
        total XYZ
        list
        """#

    @Test func list_of_many_configurations_is_unchanged_in_text() throws {
        let result = try carfab(["-e", Self.script])
        #expect(
            result
                == RunResult(
                    stdout: #"""
                        1000054 Cars in Stock. Total Value: \e[1m84,505,720,159.025
                            #  model   car type           floorplan  suspension  drivetrain    count  unit price
                            1  m       A\e[31mB           short      race        rear              1  $70,000.00
                            2  tokyo   東京 Roadster      short      road        東輪             12  $40,735.06
                            3  sports  Porsche Boxster    short      x           rear              3  $65,901.00
                        *   4  m       A\e[31mB           short      x           rear        1000000  $67,601.00
                            5  tokyo   東京 Roadster      short      road        rear              1  $41,000.50
                            6  sports  Porsche Boxster    short      race        4wd               2  $70,800.00
                            7  suv     Cadillac Escalade  long       offroad     4wd               7  $81,895.00
                            8  sports  Porsche Boxster    short      race        rear              1  $68,300.00
                            9  tokyo   東京 Roadster      short      x           rear              2  $41,001.50
                           10  m       A\e[31mB           short      race        rear              1  $70,000.00
                           11  sports  Porsche Boxster    short      race        4wd              11  $70,800.00
                           12  suv     Cadillac Escalade  long       offroad     4wd               9  $81,895.00
                           13  suv     Cadillac Escalade  long       offroad     4wd               4  $81,895.00

                        """#, stderr: "", status: 0))
    }

    @Test func list_of_many_configurations_is_unchanged_in_json() throws {
        let result = try carfab(["--format", "json", "-e", Self.script])
        let last = result.stdout.split(separator: "\n").last.map(String.init)
        #expect(result.status == 0 && result.stderr.isEmpty)
        #expect(last == Self.expectedJSON)
    }

    /// The JSON result of `list`, a row to a line here, one line in the output.
    static let expectedJSON = [
        #"{"type":"result","command":"list","rows":[{"current":false,"line":1,"model":"m","car_type":"A\u001b[31mB","floorplan":"short","suspension":"race","drivetrain":"rear","count":1,"unit_price":{"currency":"USD","minor_units":7000000,"amount":"70000.00","formatted":"$70,000.00"}}"#,
        #"{"current":false,"line":2,"model":"tokyo","car_type":"東京 Roadster","floorplan":"short","suspension":"road","drivetrain":"東輪","count":12,"unit_price":{"currency":"USD","minor_units":4073506,"amount":"40735.06","formatted":"$40,735.06"}}"#,
        #"{"current":false,"line":3,"model":"sports","car_type":"Porsche Boxster","floorplan":"short","suspension":"x","drivetrain":"rear","count":3,"unit_price":{"currency":"USD","minor_units":6590100,"amount":"65901.00","formatted":"$65,901.00"}}"#,
        #"{"current":true,"line":4,"model":"m","car_type":"A\u001b[31mB","floorplan":"short","suspension":"x","drivetrain":"rear","count":1000000,"unit_price":{"currency":"USD","minor_units":6760100,"amount":"67601.00","formatted":"$67,601.00"}}"#,
        #"{"current":false,"line":5,"model":"tokyo","car_type":"東京 Roadster","floorplan":"short","suspension":"road","drivetrain":"rear","count":1,"unit_price":{"currency":"USD","minor_units":4100050,"amount":"41000.50","formatted":"$41,000.50"}}"#,
        #"{"current":false,"line":6,"model":"sports","car_type":"Porsche Boxster","floorplan":"short","suspension":"race","drivetrain":"4wd","count":2,"unit_price":{"currency":"USD","minor_units":7080000,"amount":"70800.00","formatted":"$70,800.00"}}"#,
        #"{"current":false,"line":7,"model":"suv","car_type":"Cadillac Escalade","floorplan":"long","suspension":"offroad","drivetrain":"4wd","count":7,"unit_price":{"currency":"USD","minor_units":8189500,"amount":"81895.00","formatted":"$81,895.00"}}"#,
        #"{"current":false,"line":8,"model":"sports","car_type":"Porsche Boxster","floorplan":"short","suspension":"race","drivetrain":"rear","count":1,"unit_price":{"currency":"USD","minor_units":6830000,"amount":"68300.00","formatted":"$68,300.00"}}"#,
        #"{"current":false,"line":9,"model":"tokyo","car_type":"東京 Roadster","floorplan":"short","suspension":"x","drivetrain":"rear","count":2,"unit_price":{"currency":"USD","minor_units":4100150,"amount":"41001.50","formatted":"$41,001.50"}}"#,
        #"{"current":false,"line":10,"model":"m","car_type":"A\u001b[31mB","floorplan":"short","suspension":"race","drivetrain":"rear","count":1,"unit_price":{"currency":"USD","minor_units":7000000,"amount":"70000.00","formatted":"$70,000.00"}}"#,
        #"{"current":false,"line":11,"model":"sports","car_type":"Porsche Boxster","floorplan":"short","suspension":"race","drivetrain":"4wd","count":11,"unit_price":{"currency":"USD","minor_units":7080000,"amount":"70800.00","formatted":"$70,800.00"}}"#,
        #"{"current":false,"line":12,"model":"suv","car_type":"Cadillac Escalade","floorplan":"long","suspension":"offroad","drivetrain":"4wd","count":9,"unit_price":{"currency":"USD","minor_units":8189500,"amount":"81895.00","formatted":"$81,895.00"}}"#,
        #"{"current":false,"line":13,"model":"suv","car_type":"Cadillac Escalade","floorplan":"long","suspension":"offroad","drivetrain":"4wd","count":4,"unit_price":{"currency":"USD","minor_units":8189500,"amount":"81895.00","formatted":"$81,895.00"}}]}"#
    ].joined(separator: ",")
}
