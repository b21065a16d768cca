// swift-tools-version: 6.0
// Coverage-guided fuzzing of NavStore's input surfaces with libFuzzer, under AddressSanitizer.
// A package of its own, so the product gains no dependency. Build and run with `bash run.sh
// SECONDS` (README, "Fuzzing"): every target is built with `-sanitize=fuzzer,address`.
import PackageDescription

// The sanitizers are given on the command line (run.sh), so that NavCore and NavPersistence are
// instrumented for coverage too.
let fuzzTarget: [SwiftSetting] = []

let package = Package(
  name: "NavStoreFuzz",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "NavStore", path: "..")],
  targets: [
    .target(name: "FuzzSupport", dependencies: [.product(name: "NavCore", package: "NavStore")]),
    .executableTarget(
      name: "fuzz-json", dependencies: ["FuzzSupport", .product(name: "NavCore", package: "NavStore")],
      swiftSettings: fuzzTarget),
    .executableTarget(
      name: "fuzz-event-line", dependencies: ["FuzzSupport", .product(name: "NavCore", package: "NavStore")],
      swiftSettings: fuzzTarget),
    .executableTarget(
      name: "fuzz-apply", dependencies: ["FuzzSupport", .product(name: "NavCore", package: "NavStore")],
      swiftSettings: fuzzTarget),
    .executableTarget(
      name: "fuzz-planner", dependencies: ["FuzzSupport", .product(name: "NavCore", package: "NavStore")],
      swiftSettings: fuzzTarget),
    .executableTarget(
      name: "fuzz-checkpoint",
      dependencies: ["FuzzSupport", .product(name: "NavPersistence", package: "NavStore")],
      swiftSettings: fuzzTarget),
    .executableTarget(
      name: "fuzz-store-file",
      dependencies: [
        "FuzzSupport", .product(name: "NavCore", package: "NavStore"), .product(name: "NavPersistence", package: "NavStore"),
      ],
      swiftSettings: fuzzTarget),
  ],
  swiftLanguageModes: [.v6]
)
