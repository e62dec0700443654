import Foundation
import Testing

/// Every input the fuzzer ever crashed on (`FuzzRegressions/`), replayed through the binary
/// as the fuzzer ran it (--safe --keep-going): it must end with status 0 or 1, never by a signal.
@Suite struct FuzzRegressionTests {
    static let inputs: [String] = {
        let directory = packageRoot.appendingPathComponent("Tests/EndToEndTests/FuzzRegressions")
        return ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }()

    @Test(arguments: inputs)
    func a_crash_input_is_now_an_ordinary_run(name: String) throws {
        let data = try Data(contentsOf: packageRoot.appendingPathComponent("Tests/EndToEndTests/FuzzRegressions/\(name)"))
        for format in ["text", "json"] {
            let result = try carfab(["--safe", "--keep-going", "--format", format], stdinData: data)
            #expect(result.status == 0 || result.status == 1, "\(name): \(result.status)\n\(result.stderr)")
        }
    }

    @Test func select_show_and_remove_on_an_empty_stock_are_errors() throws {
        for command in ["select 1", "show 1", "remove 1", "remove"] {
            let result = try carfab(["-e", command])
            #expect(result.status == 1, "\(command)")
            #expect(result.stderr.contains("error: no"), "\(command): \(result.stderr)")
        }
    }
}
