// swift-tools-version: 6.1
// The benchmarks, a package of their own so the product carries no benchmark dependency.
// Run from this folder: swift run -c release snapshot-interval
import PackageDescription

let package = Package(
  name: "NavStoreBenchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "NavStore", path: "..")],
  targets: [
    .executableTarget(
      name: "snapshot-interval",
      dependencies: [
        .product(name: "NavPersistence", package: "NavStore"),
        .product(name: "NavCore", package: "NavStore"),
      ]
    )
  ],
  swiftLanguageModes: [.v6]
)
