// swift-tools-version:6.0
import PackageDescription

// Three layers (ARCHITECTURE.md): the domain (CarFactory: no I/O), the engine (CarScript:
// the language, a library other Swift programs can depend on), and the program edge
// (CarfabCLI: arguments, services, prompt, history, signals, renderers), under a one-file
// executable. The engine touches no platform: its host (CarfabPOSIX here) gives it files,
// standard input and folders.
//
// No package dependencies: the start-up bar (below tclsh) rules out
// swift-argument-parser, and Foundation stays out of every shipped target.
// libedit (BSD licence, Debian's libedit-dev) gives the prompt line editing, history
// and completion; it is linked in, with the libraries it needs.
//
// The release executable is linked fully static (-static-executable): no shared library
// to find or relocate at start-up (1.05 ms against 1.96 ms with a static Swift runtime
// alone), and nothing but the kernel needed to run it. That flag is an unsafe one, so it
// sits on the executable's own target only: the CarScript library product, which other
// packages depend on, has no unsafe flags. Speed does not depend on flags at all: a plain
// `swift build -c release` is the build users and packagers get (see README).
let package = Package(
    name: "carfab",
    products: [
        .library(name: "CarScript", targets: ["CarScript"]),
        // The domain the engine's results and catalog are made of (`Car`, `Catalog`, `Money`,
        // `StockLedger`): an embedder that names those types imports it.
        .library(name: "CarFactory", targets: ["CarFactory"]),
        // The engine's host on a POSIX system (files, standard input, folders), as carfab has it.
        .library(name: "CarfabPOSIX", targets: ["CarfabPOSIX"]),
        .executable(name: "carfab", targets: ["carfab"])
    ],
    targets: [
        .target(name: "CarFactory"),
        .target(name: "CarScript", dependencies: ["CarFactory"]),
        // The platform, outside the engine: what CarScript asks of its `EngineHost`, by the C
        // library (and the rules carfab's program edge shares with it: links, atomic writes).
        .target(name: "CarfabPOSIX", dependencies: ["CarScript"]),
        .target(
            name: "CEditLine",
            linkerSettings: [
                .linkedLibrary("edit"), .linkedLibrary("tinfo"), .linkedLibrary("bsd"), .linkedLibrary("md")
            ]),
        .target(name: "CarfabCLI", dependencies: ["CarScript", "CarFactory", "CarfabPOSIX", "CEditLine"]),
        .executableTarget(
            name: "carfab", dependencies: ["CarfabCLI"],
            linkerSettings: [
                .unsafeFlags(["-static-executable", "-use-ld=lld"], .when(configuration: .release))
            ]),
        .executableTarget(name: "embed-example", dependencies: ["CarScript"], path: "Examples/Embed"),
        // What each fuzz input must keep: built with the package so it cannot stop building,
        // run over the corpus by the tests, and linked into libFuzzer's entry by Scripts/fuzz.
        .target(name: "CarfabFuzz", dependencies: ["CarScript", "CarFactory", "CarfabCLI"], path: "Fuzz/Case"),
        // Helpers both test tiers use; only the tests depend on it.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "CarFactoryTests", dependencies: ["CarFactory"]),
        .testTarget(name: "CarScriptTests", dependencies: ["CarScript", "CarFactory"]),
        .testTarget(
            name: "CarfabCLITests",
            dependencies: [
                "CarfabCLI", "CarScript", "CarFactory", "CarfabPOSIX", "TestSupport",
                "CarfabFuzz"
            ],
            exclude: ["Expected"]),
        .testTarget(name: "EndToEndTests", dependencies: ["TestSupport"], exclude: ["FuzzRegressions", "junit.xsd"])
    ],
    swiftLanguageModes: [.v6]
)
