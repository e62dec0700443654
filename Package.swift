// swift-tools-version:6.0
import PackageDescription

// No package dependencies: the start-up bar (below tclsh) rules out
// swift-argument-parser, and Foundation stays out of every shipped target.
let package = Package(
    name: "carfab",
    products: [
        .executable(name: "carfab", targets: ["carfab"]),
    ],
    targets: [
        .target(name: "CarFactory"),
        .target(name: "CarScript", dependencies: ["CarFactory"]),
        .executableTarget(name: "carfab", dependencies: ["CarScript"]),
        .testTarget(name: "CarFactoryTests", dependencies: ["CarFactory"]),
        .testTarget(name: "CarScriptTests", dependencies: ["CarScript", "CarFactory"]),
        .testTarget(name: "EndToEndTests", exclude: ["Expected"]),
    ],
    swiftLanguageModes: [.v6]
)
