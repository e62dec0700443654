import CarFactory
import Testing

@testable import CarScript

/// A refused `set` whose repair search reaches the limit says so, with `fit`'s advice (trial
/// 10, 6: the note was dropped without a word); inside `expect error`, where no note is
/// shown, no repair is searched, but a file that `try source` runs there reports its errors whole.
@Suite struct RefusedSetLimitNoteTests {
    static func engine(steps: Int) -> Engine {
        var options = EngineOptions()
        options.searchLimits = SearchLimits(steps: steps, repairs: 10)
        return Engine(options: options)
    }

    @Test func the_note_says_the_search_stopped_at_its_limit() {
        let run = Self.engine(steps: 1).evaluate("car sports; set drivetrain front")
        #expect(run.diagnostics.map(\.id) == ["rule-violation"])
        #expect(
            run.diagnostics.first?.notes.map(\.message) == [
                "the rule 'forbid drivetrain front with floorplan short' is part of the built-in catalog",
                "drivetrain options allowed for this car: 4wd (+$2,500.00)",
                "the search for a repair took more than 1 steps and was stopped: choose the other changes yourself: 'set drivetrain front FAMILY OPTION ...' sets several parts in one step"
            ])
    }

    @Test func a_refused_set_of_several_parts_says_so_too() {
        let run = Self.engine(steps: 1).evaluate("car sports; set drivetrain front suspension road")
        #expect(run.diagnostics.map(\.id) == ["rule-violation"])
        #expect(
            run.diagnostics.first?.notes.last?.message
                == "the search for a repair took more than 1 steps and was stopped: choose the other changes yourself: 'set drivetrain front suspension road FAMILY OPTION ...' sets several parts in one step"
        )
    }

    @Test func within_the_limit_the_note_is_the_repair() {
        let run = Self.engine(steps: 1_000_000).evaluate("car sports; set drivetrain front")
        #expect(run.diagnostics.first?.notes.last?.message == "'fit drivetrain front' would also set floorplan standard (+$500.00)")
    }

    @Test func inside_expect_error_no_repair_is_searched() {
        let run = Self.engine(steps: 1_000_000).evaluate(
            "car sports; expect error rule-violation set drivetrain front; expect error rule-violation try set drivetrain front")
        #expect(run.diagnostics.isEmpty)
    }
}
