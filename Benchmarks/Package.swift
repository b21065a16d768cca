// swift-tools-version: 6.1
// The benchmarks: a package of their own, so the product carries no benchmark dependency.
// From this folder:
//   swift run -c release navstore-benchmarks            all scenarios, full sizes
//   swift run -c release navstore-benchmarks --quick    small sizes, for CI (under a minute)
//   swift run -c release snapshot-interval              how the snapshot interval was chosen
//   swift run -c release collector-load [--quick]       the collector under load (needs navstore built)
import PackageDescription

let package = Package(
  name: "NavStoreBenchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "NavStore", path: ".."),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
    .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
  ],
  targets: [
    .target(name: "RawSQLiteAnchor", linkerSettings: [.linkedLibrary("sqlite3")]),
    .target(name: "GRDBAnchor", dependencies: [.product(name: "GRDB", package: "GRDB.swift")]),
    .executableTarget(
      name: "navstore-benchmarks",
      dependencies: [
        "RawSQLiteAnchor",
        "GRDBAnchor",
        "BenchmarkProcesses",
        .product(name: "NavPersistence", package: "NavStore"),
        .product(name: "NavTools", package: "NavStore"),
        .product(name: "NavCore", package: "NavStore"),
      ]
    ),
    .target(name: "ZlibGzip", linkerSettings: [.linkedLibrary("z")]),
    // Running navstore and its collector as child processes, for both executables below.
    .target(name: "BenchmarkProcesses"),
    // The load driver is an executable of its own: its HTTP client (AsyncHTTPClient, on SwiftNIO)
    // stays out of navstore-benchmarks, whose children's memory the other scenarios measure.
    .executableTarget(
      name: "collector-load",
      dependencies: [
        "ZlibGzip",
        "BenchmarkProcesses",
        .product(name: "NavCore", package: "NavStore"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "Histogram", package: "hdrhistogram-swift"),
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .executableTarget(
      name: "snapshot-interval",
      dependencies: [
        .product(name: "NavPersistence", package: "NavStore"),
        .product(name: "NavTools", package: "NavStore"),
        .product(name: "NavCore", package: "NavStore"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
