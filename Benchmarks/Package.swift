// swift-tools-version: 6.1
// The benchmarks: a package of their own, so the product carries no benchmark dependency.
// From this folder:
//   swift run -c release navstore-benchmarks            all scenarios, full sizes
//   swift run -c release navstore-benchmarks --quick    small sizes, for CI (under a minute)
//   swift run -c release snapshot-interval              how the snapshot interval was chosen
import PackageDescription

let package = Package(
  name: "NavStoreBenchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "NavStore", path: ".."),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
  ],
  targets: [
    .target(name: "RawSQLiteAnchor", linkerSettings: [.linkedLibrary("sqlite3")]),
    .target(name: "GRDBAnchor", dependencies: [.product(name: "GRDB", package: "GRDB.swift")]),
    .executableTarget(
      name: "navstore-benchmarks",
      dependencies: [
        "RawSQLiteAnchor",
        "GRDBAnchor",
        .product(name: "NavPersistence", package: "NavStore"),
        .product(name: "NavCore", package: "NavStore"),
      ]
    ),
    .executableTarget(
      name: "snapshot-interval",
      dependencies: [
        .product(name: "NavPersistence", package: "NavStore"),
        .product(name: "NavCore", package: "NavStore"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
