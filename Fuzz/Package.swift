// swift-tools-version: 6.0
// Coverage-guided fuzzing of NavStore's input surfaces with libFuzzer, under AddressSanitizer.
// A package of its own, so the product gains no dependency. Build and run with `bash run.sh
// SECONDS` (Fuzz/README.md). The sanitizers are given on the command line there, so that
// NavCore and NavPersistence are instrumented for coverage too.
import PackageDescription

let navCore = Target.Dependency.product(name: "NavCore", package: "NavStore")
let navPersistence = Target.Dependency.product(name: "NavPersistence", package: "NavStore")
let navReport = Target.Dependency.product(name: "NavReport", package: "NavStore")

/// Each fuzz target with what it reads beside the support module.
let fuzzTargets: [(name: String, dependencies: [Target.Dependency])] = [
  ("fuzz-json", [navCore]),
  ("fuzz-event-line", [navCore]),
  ("fuzz-apply", [navCore]),
  ("fuzz-planner", [navCore]),
  ("fuzz-checkpoint", [navPersistence]),
  ("fuzz-store-file", [navCore, navPersistence]),
  ("fuzz-report", [navCore, navPersistence, navReport]),
]

let package = Package(
  name: "NavStoreFuzz",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "NavStore", path: "..")],
  targets: [.target(name: "FuzzSupport", dependencies: [navCore])]
    + fuzzTargets.map { .executableTarget(name: $0.name, dependencies: ["FuzzSupport"] + $0.dependencies) },
  swiftLanguageModes: [.v6]
)
