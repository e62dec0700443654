// swift-tools-version:6.0
import PackageDescription

// No package dependencies: the start-up bar (below tclsh) rules out
// swift-argument-parser, and Foundation stays out of every shipped target.
// libedit (BSD licence, Debian's libedit-dev) gives the prompt line editing, history
// and completion; CEditLine loads it with dlopen only when a prompt starts, so scripts
// and pipes start without it.
let package = Package(
    name: "carfab",
    products: [
        .executable(name: "carfab", targets: ["carfab"]),
    ],
    targets: [
        .target(name: "CarFactory"),
        .target(name: "CEditLine"),
        .target(name: "CarScript", dependencies: ["CarFactory", "CEditLine"]),
        .executableTarget(name: "carfab", dependencies: ["CarScript"]),
        .testTarget(name: "CarFactoryTests", dependencies: ["CarFactory"]),
        .testTarget(name: "CarScriptTests", dependencies: ["CarScript", "CarFactory"]),
        .testTarget(name: "EndToEndTests", exclude: ["Expected", "FuzzRegressions"]),
    ],
    swiftLanguageModes: [.v6]
)
