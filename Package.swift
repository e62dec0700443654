// swift-tools-version:6.0
import PackageDescription

// Three layers (ARCHITECTURE.md): the domain (CarFactory: no I/O), the engine (CarScript:
// the language, a library other Swift programs can depend on), and the program edge
// (CarfabCLI: arguments, services, prompt, history, signals, renderers), under a one-file
// executable.
//
// No package dependencies: the start-up bar (below tclsh) rules out
// swift-argument-parser, and Foundation stays out of every shipped target.
// libedit (BSD licence, Debian's libedit-dev) gives the prompt line editing, history
// and completion; CEditLine loads it with dlopen only when a prompt starts, so scripts
// and pipes start without it.
let package = Package(
    name: "carfab",
    products: [
        .library(name: "CarScript", targets: ["CarScript"]),
        .executable(name: "carfab", targets: ["carfab"]),
    ],
    targets: [
        .target(name: "CarFactory"),
        .target(name: "CarScript", dependencies: ["CarFactory"]),
        .target(name: "CEditLine"),
        .target(name: "CarfabCLI", dependencies: ["CarScript", "CarFactory", "CEditLine"]),
        .executableTarget(name: "carfab", dependencies: ["CarfabCLI"]),
        .executableTarget(name: "embed-example", dependencies: ["CarScript"], path: "Examples/Embed"),
        .testTarget(name: "CarFactoryTests", dependencies: ["CarFactory"]),
        .testTarget(name: "CarScriptTests", dependencies: ["CarScript", "CarFactory", "CarfabCLI"]),
        .testTarget(name: "CarfabCLITests", dependencies: ["CarfabCLI", "CarScript", "CarFactory"], exclude: ["Expected"]),
        .testTarget(name: "EndToEndTests", exclude: ["FuzzRegressions"]),
    ],
    swiftLanguageModes: [.v6]
)
