import Foundation
import Testing

/// Trial 10's finding 7, as a user meets it: standard output, standard error and the status, whole.
@Suite struct Trial10DiffFindingTests {
    static let hybrid = "option drivetrain hybrid \"H\" price 1 alias electric\n"
    static let paint = "family p \"P\" default w \"W\"\noption p r \"R\" price 1\n"

    /// Finding 7: `diff` compares by meaning, as the catalog identifies its entries: a `forbid`
    /// of one pair named either way round (and by an alias), a model's family default written
    /// out or left to the family, the same aliases in another order are no difference (they
    /// were a removed and an added rule, a changed model, a changed option: status 1).
    @Test(arguments: [
        (hybrid + "forbid drivetrain hybrid with floorplan long\n", hybrid + "forbid floorplan long with drivetrain electric\n"),
        (
            paint + "model m \"M\" price 100000 floorplan short suspension race drivetrain rear p w\n",
            paint + "model m \"M\" price 100000 floorplan short suspension race drivetrain rear\n"
        ),
        (
            "option drivetrain hybrid \"H\" price 1 alias a1 alias b1\n",
            "option drivetrain hybrid \"H\" price 1.00 alias b1 alias a1\n"
        ),
        (
            hybrid + "model m \"M\" price 100000 floorplan short suspension race drivetrain hybrid\n",
            hybrid + "model m \"M\" price 100000 floorplan short suspension race drivetrain electric\n"
        )
    ])
    func the_same_meaning_written_otherwise_is_no_difference(_ pair: (String, String)) throws {
        let dir = try temporaryDirectory(with: ["a.carfab": pair.0, "b.carfab": pair.1])
        #expect(try carfab(["--diff", "a.carfab", "b.carfab"], directory: dir) == RunResult(stdout: "", stderr: "", status: 0))
        #expect(try carfab(["--diff", "b.carfab", "a.carfab"], directory: dir) == RunResult(stdout: "", stderr: "", status: 0))
    }

    /// A model's name as written is part of it: `models` and `list` show `Roadster` and
    /// `roadster` apart, so `diff` does (review of the change: it found them the same).
    @Test func a_model_whose_name_changed_case_is_changed() throws {
        let model = " \"Mazda MX-5\" price 31000 floorplan short suspension race drivetrain rear\ncar roadster\n"
        let dir = try temporaryDirectory(with: ["a.carfab": "model Roadster" + model, "b.carfab": "model roadster" + model])
        #expect(
            try carfab(["--diff", "a.carfab", "b.carfab"], directory: dir)
                == RunResult(
                    stdout: """
                        change   what   name      first                                                                                    second
                        changed  model  Roadster  model Roadster "Mazda MX-5" price 31000 floorplan short suspension race drivetrain rear  model roadster "Mazda MX-5" price 31000 floorplan short suspension race drivetrain rear

                        """, stderr: "", status: 1))
    }

    /// A `require` is directed: `require A with B` is not `require B with A`.
    @Test func a_require_the_other_way_round_is_another_rule() throws {
        let dir = try temporaryDirectory(with: [
            "a.carfab": Self.hybrid + Self.paint + "require p r with drivetrain hybrid\n",
            "b.carfab": Self.hybrid + Self.paint + "require drivetrain hybrid with p r\n"
        ])
        #expect(
            try carfab(["--diff", "a.carfab", "b.carfab"], directory: dir)
                == RunResult(
                    stdout: """
                        change   what  name                                first                               second
                        removed  rule  require p r with drivetrain hybrid  require p r with drivetrain hybrid
                        added    rule  require drivetrain hybrid with p r                                      require drivetrain hybrid with p r

                        """, stderr: "", status: 1))
    }

    /// A model that names no default of a family whose default differs: the model's cars differ
    /// (the built-in models' too), and each side of its row names its default, which the
    /// definitions as written leave out.
    @Test func a_model_whose_default_changed_with_its_family_shows_it() throws {
        let model = "model m \"M\" price 100000 floorplan short suspension race drivetrain rear\n"
        let dir = try temporaryDirectory(with: [
            "a.carfab": Self.paint + model,
            "b.carfab": "family p \"P\" default r \"R\" price 1\noption p w \"W\" price 0\n" + model
        ])
        #expect(
            try carfab(["--diff", "a.carfab", "b.carfab"], directory: dir)
                == RunResult(
                    stdout: """
                        change   what    name     first                                                                                           second
                        changed  family  p        family p "P" default w "W" price 0                                                              family p "P" default r "R" price 1
                        changed  model   compact  model compact "VW Golf" price 27995 floorplan standard suspension road drivetrain front p w     model compact "VW Golf" price 27995 floorplan standard suspension road drivetrain front p r
                        changed  model   sports   model sports "Porsche Boxster" price 68300 floorplan short suspension race drivetrain rear p w  model sports "Porsche Boxster" price 68300 floorplan short suspension race drivetrain rear p r
                        changed  model   suv      model suv "Cadillac Escalade" price 81895 floorplan long suspension offroad drivetrain 4wd p w  model suv "Cadillac Escalade" price 81895 floorplan long suspension offroad drivetrain 4wd p r
                        changed  model   m        model m "M" price 100000 floorplan short suspension race drivetrain rear p w                    model m "M" price 100000 floorplan short suspension race drivetrain rear p r
                        removed  option  p r      option p r "R" price 1
                        added    option  p w                                                                                                      option p w "W" price 0

                        """, stderr: "", status: 1))
        // Naming the option on both sides that is its default on both (`p r`): the same model.
        let named = try temporaryDirectory(with: [
            "a.carfab": Self.paint + model.dropLast() + " p r\n",
            "b.carfab": "family p \"P\" default r \"R\" price 1\noption p w \"W\" price 0\n" + model.dropLast() + " p r\n"
        ])
        let rows = try carfab(["--diff", "a.carfab", "b.carfab"], directory: named)
        #expect(rows.status == 1)
        #expect(rows.stdout.contains("changed  model   suv"))
        #expect(!rows.stdout.contains("model m "))
    }

    /// The family order's row writes each name as `save` does: joined bare, `pa int roof` and
    /// `roof pa int` could be three families as well as two (review of trial 10, 3's change).
    @Test func the_family_order_writes_names_as_save_does() throws {
        let paint = "family \"pa int\" \"P\" default white \"W\"\n"
        let roof = "family roof \"R\" default a \"A\"\n"
        let dir = try temporaryDirectory(with: ["a.carfab": paint + roof, "b.carfab": roof + paint])
        #expect(
            try carfab(["--diff", "a.carfab", "b.carfab"], directory: dir)
                == RunResult(
                    stdout: """
                        change   what          name  first          second
                        changed  family order        "pa int" roof  roof "pa int"

                        """, stderr: "", status: 1))
    }
}
