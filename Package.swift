// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "NavStore",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [
    .library(name: "NavCore", targets: ["NavCore"]),
    .library(name: "NavPersistence", targets: ["NavPersistence"]),
    .library(name: "NavReport", targets: ["NavReport"]),
    .executable(name: "navstore", targets: ["navstore"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3"),
    .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
    // `swift package generate-documentation`: the DocC catalogs of the library products.
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
  ],
  targets: [
    .systemLibrary(
      name: "CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"])]
    ),
    .target(name: "NavCore"),
    .target(
      name: "NavPersistence",
      dependencies: ["NavCore", "CSQLite", .product(name: "Crypto", package: "swift-crypto")],
      plugins: ["MigrationsPlugin"]
    ),
    .executableTarget(name: "embed-migrations", path: "Tools/EmbedMigrations"),
    .plugin(name: "MigrationsPlugin", capability: .buildTool(), dependencies: ["embed-migrations"]),
    .target(
      name: "NavReport",
      dependencies: ["NavCore", "NavPersistence", .product(name: "Crypto", package: "swift-crypto")]
    ),
    .executableTarget(
      name: "navstore",
      dependencies: [
        "NavCore",
        "NavPersistence",
        "NavReport",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .target(
      name: "NavTestSupport",
      dependencies: ["NavCore", .product(name: "PropertyBased", package: "swift-property-based")],
      path: "Tests/NavTestSupport"
    ),
    .testTarget(
      name: "NavCoreTests",
      dependencies: [
        "NavCore",
        "NavTestSupport",
        .product(name: "PropertyBased", package: "swift-property-based"),
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "Clocks", package: "swift-clocks"),
      ],
      // Read by path (#filePath), not bundled: the recorded codec outcomes.
      exclude: ["Fixtures"]
    ),
    .testTarget(
      name: "NavPersistenceTests",
      dependencies: [
        "NavPersistence",
        "NavCore",
        "NavTestSupport",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]
    ),
    // The docs' Swift, compiled and run against the library products alone, as an app builds
    // it (NavTestSupport serves the tests' own setup, never a snippet); and every relative link
    // of the docs, checked offline.
    .testTarget(
      name: "DocTests",
      dependencies: [
        "NavCore", "NavPersistence", "NavReport", "NavTestSupport", .product(name: "Clocks", package: "swift-clocks"),
      ]
    ),
    .testTarget(name: "NavReportTests", dependencies: ["NavReport", "NavPersistence", "NavCore", "NavTestSupport"]),
    .testTarget(name: "NavStoreCLITests", dependencies: ["navstore", "NavCore", "NavTestSupport"]),
  ],
  swiftLanguageModes: [.v6]
)
