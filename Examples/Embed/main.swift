// Embedding carfab's engine: a few lines of Swift give another program the language, its
// catalog and its exact money. Built and run by the tests (also under AddressSanitizer).
import CarScript

let engine = Engine()
let run = engine.evaluate("car sports; set drivetrain 4wd; show; total GBP; car sprots", name: "example")

for (command, result) in run.results {
    switch result {
    case .car(let car): print("\(command): \(car.carType), \(car.price)")
    case .total(let count, let value, let valuation): print("\(command): \(count) car(s), \(valuation.money(value))")
    default: print("\(command): \(result)")
    }
}
for problem in run.diagnostics {
    print("\(problem.file):\(problem.line):\(problem.column): \(problem.id) \(problem.severity): \(problem.message)")
}
