import Testing

@testable import CarScript

/// What resolution takes for granted of the command table: checked here rather than
/// trapped at run time.
@Suite struct CommandTableTests {
    @Test func everyCommandFitsTheArgumentSpace() {
        for spec in CommandTable.standard.specs {
            #expect(spec.arguments.count <= ArgumentSpace.capacity, "\(spec.name) takes too many arguments")
        }
    }

    @Test func everyOptionFollowsTheFamilyItNames() {
        for spec in CommandTable.standard.specs {
            for (position, argument) in spec.arguments.enumerated() {
                guard case .option(let familyArgument) = argument.kind else { continue }
                // Argument numbers are 1-based: the family stands before the option, and is required.
                #expect(familyArgument >= 1 && familyArgument <= position, "\(spec.name)'s option names no earlier argument")
                guard familyArgument >= 1 && familyArgument <= position else { continue }
                let family = spec.arguments[familyArgument - 1]
                #expect(family.kind.category == .family && !family.optional, "\(spec.name)'s option follows no required family")
            }
        }
    }

    @Test func everyAmountCurrencyFollowsAField() {
        for spec in CommandTable.standard.specs {
            for (position, argument) in spec.arguments.enumerated() {
                guard case .amountCurrency(let fieldArgument) = argument.kind else { continue }
                #expect(
                    fieldArgument >= 1 && fieldArgument <= position && spec.arguments[fieldArgument - 1].kind.isExpectField,
                    "\(spec.name)'s currency follows no field")
            }
        }
    }

    @Test func keywordsAndPlaceholdersReadAsBefore() {
        let model = CommandTable.standard.lookup("model")
        #expect(
            model?.usage == "model NAME \"CAR TYPE\" price AMOUNT floorplan OPTION suspension OPTION drivetrain OPTION [FAMILY OPTION]...")
        #expect(
            CommandTable.standard.lookup("family")?.usage == "family NAME \"SHOWN AS\" default OPTION \"OPTION SHOWN AS\" [price AMOUNT]")
        #expect(CommandTable.standard.lookup("echo")?.usage == "echo [TEXT...]")
    }
}
