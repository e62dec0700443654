import CarFactory

/// `total`, `price`, `rate`.
enum ValueCommands {
    static let all: [CommandSpec] = [
        CommandSpec(
            name: "total", aliases: [], group: .value,
            arguments: [.optional("CURRENCY", .currency)],
            summary: "count the cars in stock and their value (default: USD)",
            details:
                "Prints 'N Cars in Stock. Total Value: AMOUNT'. The value is summed in the base currency and converted once, rounding half to even.",
            example: "total GBP",
            run: { session, call throws(ScriptError) in
                let count = session.stock.carCount
                let base = session.stock.valueMinorUnits
                let failure = call.withValuationOrBase(1) { valuation -> ScriptError? in
                    do throws(CarFactoryError) {
                        let value = try valuation.converter.convertMinorUnits(base)
                        session.emit(total: count, value: value, in: valuation, call)
                        return nil
                    } catch {
                        return ScriptError(.domain(error), at: call.range(1))
                    }
                }
                if let failure { throw failure }
            }),
        CommandSpec(
            name: "price", aliases: [], group: .value,
            arguments: [.optional("CURRENCY", .currency)],
            summary: "print the current car's unit price (default: USD)",
            details: "Prints the formatted amount alone on its line.",
            example: "price EUR",
            run: { session, call throws(ScriptError) in
                let unitPrice = try call.at(0) { () throws(CarFactoryError) in try session.stock.currentPriceMinorUnits() }
                let failure = call.withValuationOrBase(1) { valuation -> ScriptError? in
                    do throws(CarFactoryError) {
                        let price = try valuation.converter.convertMinorUnits(unitPrice)
                        session.emit(amount: price, in: valuation, call)
                        return nil
                    } catch {
                        return ScriptError(.domain(error), at: call.range(1))
                    }
                }
                if let failure { throw failure }
            }),
        CommandSpec(
            name: "rate", aliases: [], group: .value,
            arguments: [.required("CURRENCY", .foreignCurrency), .required("VALUE", .rate)],
            summary: "set how many units of CURRENCY one US dollar buys",
            details: "VALUE is a positive decimal such as 0.61. The base currency's rate is always 1.",
            example: "rate GBP 0.61",
            run: { session, call throws(ScriptError) in
                let code = call.currency(1)?.code ?? ""
                try call.at(2) { () throws(CarFactoryError) in try session.changeCatalog(.rate(code: code, call.decimal(2))) }
            })
    ]
}
