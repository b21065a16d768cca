// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "NavStore",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [
    .library(name: "NavCore", targets: ["NavCore"]),
    .library(name: "NavPersistence", targets: ["NavPersistence"]),
    .executable(name: "navstore", targets: ["navstore"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3"),
  ],
  targets: [
    .systemLibrary(
      name: "CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"])]
    ),
    .target(name: "NavCore"),
    .target(name: "NavPersistence", dependencies: ["NavCore", "CSQLite"]),
    .executableTarget(
      name: "navstore",
      dependencies: [
        "NavCore",
        "NavPersistence",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .testTarget(
      name: "NavCoreTests",
      dependencies: [
        "NavCore",
        .product(name: "PropertyBased", package: "swift-property-based"),
        .product(name: "CustomDump", package: "swift-custom-dump"),
      ]
    ),
    .testTarget(name: "NavPersistenceTests", dependencies: ["NavPersistence"]),
    .testTarget(name: "NavStoreCLITests", dependencies: ["navstore", "NavCore"]),
  ],
  swiftLanguageModes: [.v6]
)
