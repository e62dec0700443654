import Testing

@testable import CarFactory

/// The catalog's positions by name key (`NameMap`): more names than its first 8 slots hold
/// half of, so it grows while holding them.
@Suite struct NameMapTests {
    let names = (0..<40).map { "name\($0)" }

    @Test func holds_what_it_was_given_and_nothing_else() {
        var map = NameMap()
        #expect(map[names[0]] == nil)
        let held = 30
        for (position, name) in names[..<held].enumerated() { map.set(position, for: name) }
        #expect(map.count == held)
        for (position, name) in names.enumerated() {
            #expect(map[name] == (position < held ? position : nil), "name \(position)")
        }
        #expect(map[""] == nil)
    }

    @Test func set_again_replaces_and_a_copy_keeps_its_own() {
        var map = NameMap()
        map.set(7, for: "paint")
        let copy = map
        map.set(9, for: "paint")
        #expect(map["paint"] == 9)
        #expect(map.count == 1)
        #expect(copy["paint"] == 7)
    }

    @Test func the_catalog_finds_its_families_currencies_options_and_models_by_any_case() throws {
        let catalog = Catalog.standard
        #expect(catalog.family(named: "SUSPENSION") == .suspension)
        #expect(catalog.family(named: "paint") == nil)
        #expect(catalog.options(of: .drivetrain).part(named: "4WD") != nil)
        #expect(catalog.registry.contains("Sports"))
        #expect(!catalog.registry.contains("truck"))
    }
}
