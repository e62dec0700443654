// Embedding carfab's engine: a few lines of Swift give another program the language, its
// catalog and its exact money, and a command of its own. Built and run by the tests (also
// under AddressSanitizer); it sees only the engine's public API.
import CarScript

var options = EngineOptions()
options.addCommand(
    HostCommand(
        name: "greet", summary: "greet a model", details: "Says hello to MODEL.",
        arguments: [.required("MODEL", .model)]
    ) { call in
        guard case .model(let model) = call.arguments[0] else { return nil }
        return .text("hello \(model)")
    })
let engine = Engine(options: options)
let run = engine.evaluate("car sports; set drivetrain 4wd; show; total GBP; greet suv; car sprots", name: "example")

for (command, result) in run.results {
    switch result {
    case .car(let car): print("\(command): \(car.carType), \(car.price)")
    case .total(let count, let value, let valuation): print("\(command): \(count) car(s), \(valuation.money(value))")
    case .text(let text): print("\(command): \(text)")
    default: print("\(command): \(result)")
    }
}
for problem in run.diagnostics {
    print("\(problem.file):\(problem.line):\(problem.column): \(problem.id) \(problem.severity): \(problem.message)")
}
