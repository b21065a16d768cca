// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "NavStore",
  // Observation's floor: the navigation model is `@Observable`.
  platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
  products: [
    .library(name: "NavCore", targets: ["NavCore"]),
    .library(name: "NavPersistence", targets: ["NavPersistence"]),
    .library(name: "NavReport", targets: ["NavReport"]),
    .library(name: "NavUpload", targets: ["NavUpload"]),
    .library(name: "NavTools", targets: ["NavTools"]),
    // For an app's test target: a recorded session replayed through the app's navigation logic.
    .library(name: "NavTesting", targets: ["NavTesting"]),
    .executable(name: "navstore", targets: ["navstore"]),
  ],
  // The collector's packages are conditioned on this trait, on by default: `swift build` here
  // builds everything, and an app that depends on NavStore with `traits: []` resolves only what
  // its libraries need (swift-crypto and swift-asn1), where it would otherwise resolve the
  // collector's server stack too, without building any of it.
  traits: [
    .trait(name: "Collector", description: "The navstore executable's collector and CLI packages."),
    .trait(
      name: "Fuzzing",
      description:
        "The fuzz targets run libFuzzer's driver (Fuzz/run.sh builds them so); without it, they replay files."),
    .default(enabledTraits: ["Collector"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    // The CLI's signal flag: a lock-free atomic a signal handler may set, on every system the
    // package supports (the standard library's `Atomic` needs macOS 15).
    .package(url: "https://github.com/apple/swift-atomics", from: "1.3.0"),
    .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3"),
    // `swift package generate-documentation`: the DocC catalogs of the library products.
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    // The collector (`navstore serve`), in targets no library product depends on, under the
    // `Collector` trait: an app that turns the trait off resolves none of them.
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    // HTTPS for the collector (also what Hummingbird's TLS channel is built on).
    .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    // HTTP/1 parts converted to Swift HTTP Types, below which the collector mends HTTP/1.0.
    .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
    // The collector's lifecycle: signals, and how long a drain may take.
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    // A fleet's store on PostgreSQL (`navstore serve --db postgres://...`), for NavFleet only.
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
  ],
  targets: [
    .systemLibrary(
      name: "CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"])]
    ),
    // Strict JSON (RFC 8259 parsing, RFC 8785 canonical form, Codable to and from a tree),
    // knowing nothing of navigation: the layer the wire format is written in.
    .target(name: "NavJSON"),
    .target(name: "NavCore", dependencies: ["NavJSON"]),
    // The collector's HTTP contract as Codable types (answers, heads, limits, the error body),
    // compiled by both sides: the collector encodes them, the uploader and `push` decode them.
    .target(
      name: "NavContract", dependencies: ["NavJSON", "NavCore", .product(name: "Crypto", package: "swift-crypto")]),
    // The rules and procedures of a history, whichever engine holds it: no SQLite, no NIO.
    .target(
      name: "NavHistory", dependencies: ["NavJSON", "NavCore", .product(name: "Crypto", package: "swift-crypto")]),
    // A history as it leaves a store, enters one and is sealed, whichever engine holds it: the
    // export tables and their encoders, JSON Lines read a line at a time, signed checkpoints
    // and proofs. No SQLite, no NIO; the tools build on it, an app never links it.
    .target(
      name: "NavArchive",
      dependencies: ["NavJSON", "NavCore", "NavHistory", .product(name: "Crypto", package: "swift-crypto")]),
    .target(
      name: "NavPersistence",
      dependencies: [
        "NavJSON", "NavCore", "NavContract", "NavHistory", "CSQLite", .product(name: "Crypto", package: "swift-crypto"),
      ],
      plugins: ["MigrationsPlugin"]
    ),
    // What tools do with a store file and an app never does: import, export, checkpoints and
    // proofs, the whole-store verify. The CLI, the collector and the benchmarks link it; an app
    // links NavPersistence alone and compiles none of it.
    .target(
      name: "NavTools",
      dependencies: ["NavJSON", "NavCore", "NavContract", "NavHistory", "NavArchive", "NavPersistence", "CSQLite"]
    ),
    .executableTarget(name: "embed-migrations", path: "Tools/EmbedMigrations"),
    .plugin(name: "MigrationsPlugin", capability: .buildTool(), dependencies: ["embed-migrations"]),
    .systemLibrary(
      name: "CZlib",
      pkgConfig: "zlib",
      providers: [.apt(["zlib1g-dev"])]
    ),
    // The uploader: a device's sessions to a collector, over URLSession and the system's zlib.
    // A product of its own, so an app that does not upload links no networking.
    .target(name: "NavUpload", dependencies: ["NavCore", "NavContract", "NavPersistence", "CZlib"]),
    // An upload's body read into lines, each line's outcome decided and uploads written
    // together, on any engine: the collector's parsing, which knows no store.
    .target(name: "NavIngest", dependencies: ["NavCore", "NavContract", "NavHistory", "CZlib"]),
    // The collector's store on either engine: apps, tokens, uploads taken in, the reads it
    // serves. Only the `navstore` executable (and the collector in it) builds it: nothing of it
    // is in an app. Its PostgreSQL engine, and what needs the server's packages, compile only
    // with the `Collector` trait (`#if Collector`), so that the fuzz target `fuzz-upload`
    // builds the SQLite engine's ingest without them.
    .target(
      name: "NavFleet",
      dependencies: [
        "NavCore", "NavContract", "NavArchive", "NavPersistence", "NavTools", "NavReport", "NavIngest",
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "Logging", package: "swift-log", condition: .collector),
        .product(name: "PostgresNIO", package: "postgres-nio", condition: .collector),
        .product(name: "NIOCore", package: "swift-nio", condition: .collector),
        .product(name: "NIOPosix", package: "swift-nio", condition: .collector),
        .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .collector),
      ],
      plugins: ["MigrationsPlugin"]
    ),
    // A recorded session (a fixture file, or a store and an id) replayed through an app's own
    // navigation logic and compared after every action: a ticket as a regression test. Linked
    // by an app's tests, never by the app; no test framework, so XCTest and Swift Testing alike.
    .target(name: "NavTesting", dependencies: ["NavCore", "NavPersistence"]),
    .target(
      name: "NavReport",
      dependencies: ["NavCore", "NavContract", "NavPersistence", .product(name: "Crypto", package: "swift-crypto")]
    ),
    // The collector: HTTP on Hummingbird, over the store. Only the `navstore` executable uses it.
    .target(
      name: "NavCollector",
      dependencies: [
        "NavCore",
        "NavContract",
        "NavArchive",
        "NavPersistence",
        "NavFleet",
        "NavIngest",
        "NavReport",
        "CZlib",
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "Hummingbird", package: "hummingbird", condition: .collector),
        .product(name: "HummingbirdCore", package: "hummingbird", condition: .collector),
        .product(name: "HummingbirdTLS", package: "hummingbird", condition: .collector),
        .product(name: "NIOCore", package: "swift-nio", condition: .collector),
        .product(name: "NIOHTTP1", package: "swift-nio", condition: .collector),
        .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .collector),
        .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras", condition: .collector),
        .product(name: "Logging", package: "swift-log", condition: .collector),
        .product(name: "Prometheus", package: "swift-prometheus", condition: .collector),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .collector),
      ]
    ),
    .executableTarget(
      name: "navstore",
      dependencies: [
        "NavCore",
        "NavContract",
        "NavPersistence",
        "NavReport",
        "NavArchive",
        "NavTools",
        "NavFleet",
        "NavCollector",
        "NavUpload",
        .product(name: "Hummingbird", package: "hummingbird", condition: .collector),
        .product(name: "Logging", package: "swift-log", condition: .collector),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .collector),
        .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .collector),
        .product(name: "Atomics", package: "swift-atomics", condition: .collector),
      ]
    ),
    .target(
      name: "NavTestSupport",
      dependencies: [
        "NavCore", "NavPersistence", "NavUpload", .product(name: "PropertyBased", package: "swift-property-based"),
      ],
      path: "Tests/NavTestSupport"
    ),
    .testTarget(
      name: "NavCoreTests",
      dependencies: [
        "NavJSON",
        "NavCore",
        "NavTestSupport",
        .product(name: "PropertyBased", package: "swift-property-based"),
        .product(name: "CustomDump", package: "swift-custom-dump"),
      ],
      // Read by path (#filePath), not bundled: the recorded codec outcomes.
      exclude: ["Fixtures"]
    ),
    // One app launch under the launch policy, run and killed by the policy's drills.
    .executableTarget(name: "launch-drill", dependencies: ["NavCore", "NavPersistence"], path: "Tests/LaunchDrill"),
    .testTarget(
      name: "NavPersistenceTests",
      dependencies: [
        "launch-drill",
        "NavPersistence",
        "NavArchive",
        "NavTools",
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
        "NavCore", "NavPersistence", "NavReport", "NavUpload", "NavTools", "NavTesting", "NavTestSupport",
      ],
      // The guide's ticket, recorded, which its regression test replays (read by path).
      exclude: ["Fixtures"],
      // Compiled as another package's code is, so that the docs' Swift can use only what an
      // app can: the `package` declarations the targets share stay out of reach here.
      packageAccess: false
    ),
    .testTarget(
      name: "NavFleetTests",
      dependencies: [
        "NavFleet", "NavIngest", "NavPersistence", "NavArchive", "NavTools", "NavCore", "NavTestSupport", "fuzz-upload",
        .product(name: "PropertyBased", package: "swift-property-based"),
        .product(name: "Logging", package: "swift-log", condition: .collector),
        .product(name: "NIOCore", package: "swift-nio", condition: .collector),
      ]
    ),
    .testTarget(
      name: "NavTestingTests",
      dependencies: [
        "NavTesting", "NavCore", "NavPersistence", "NavTestSupport",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]),
    .testTarget(
      name: "NavReportTests",
      dependencies: [
        "NavReport", "NavPersistence", "NavCore", "NavTestSupport",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]),
    .testTarget(
      name: "NavCollectorTests",
      dependencies: [
        "NavCollector", "NavFleet", "NavIngest", "NavUpload", "NavPersistence", "NavArchive", "NavTools", "NavCore",
        "NavTestSupport",
        .product(name: "HummingbirdTesting", package: "hummingbird", condition: .collector),
      ]
    ),
    // The uploader against a live collector on loopback (the tests may build the server; an app
    // that adds NavUpload never does).
    .testTarget(
      name: "NavUploadTests",
      dependencies: [
        "NavUpload", "NavCollector", "NavContract", "NavFleet", "NavIngest", "NavPersistence", "NavArchive", "NavTools",
        "NavCore", "NavTestSupport",
        .product(name: "HummingbirdTesting", package: "hummingbird", condition: .collector),
      ]
    ),
    // One app launch that uploads, run, killed and relaunched by the uploader's drills.
    .executableTarget(
      name: "upload-drill", dependencies: ["NavCore", "NavPersistence", "NavUpload", "NavTestSupport"],
      path: "Tests/UploadDrill"),
    .testTarget(
      name: "NavStoreCLITests",
      dependencies: [
        "navstore", "upload-drill", "NavJSON", "NavCore", "NavUpload", "NavPersistence", "NavFleet", "NavTesting",
        "NavTestSupport",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]
    ),
  ] + fuzzTargets,
  swiftLanguageModes: [.v6]
)

/// The libFuzzer targets (Fuzz/README.md), in this package's graph so that Fuzz/run.sh's build
/// (the Fuzzing trait and the sanitizers) compiles NavStore's modules once for all of them.
/// Without the trait, each replays the inputs it is given.
var fuzzTargets: [Target] {
  let targets: [(name: String, path: String, dependencies: [Target.Dependency])] = [
    ("fuzz-json", "Fuzz/Sources/fuzz-json", ["NavJSON", "NavCore"]),
    ("fuzz-event-line", "Fuzz/Sources/fuzz-event-line", ["NavJSON", "NavCore"]),
    ("fuzz-apply", "Fuzz/Sources/fuzz-apply", ["NavJSON", "NavCore"]),
    ("fuzz-planner", "Fuzz/Sources/fuzz-planner", ["NavJSON", "NavCore"]),
    ("fuzz-checkpoint", "Fuzz/Sources/fuzz-checkpoint", ["NavCore", "NavPersistence", "NavArchive", "NavTools"]),
    (
      "fuzz-store-file", "Fuzz/Sources/fuzz-store-file",
      ["NavJSON", "NavCore", "NavPersistence", "NavArchive", "NavTools"]
    ),
    ("fuzz-report", "Fuzz/Sources/fuzz-report", ["NavCore", "NavPersistence", "NavReport"]),
    // The collector's upload parsing and its store file's ingest, which are no product: why the
    // targets are this package's.
    ("fuzz-upload", "Fuzz/Upload", ["NavIngest", "NavFleet", "NavCore", "NavContract", "NavPersistence", "NavUpload"]),
  ]
  return [.target(name: "FuzzSupport", path: "Fuzz/Sources/FuzzSupport")]
    + targets.map { .executableTarget(name: $0.name, dependencies: ["FuzzSupport"] + $0.dependencies, path: $0.path) }
}

extension TargetDependencyCondition {
  /// Only with the `Collector` trait: the server's packages, which an app never resolves.
  static var collector: TargetDependencyCondition? { .when(traits: ["Collector"]) }
}
