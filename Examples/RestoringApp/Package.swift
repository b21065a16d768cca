// swift-tools-version: 6.1
// An app's navigation recorded, restored at the next launch step by step, and restored again
// by a later version of the app whose screens changed. A package of its own, beside the
// product, so that apps depending on NavStore never pull in an example.
// From this folder:
//   swift run RestoringApp                  a fresh store in a temporary folder
//   swift run RestoringApp --delay-ms 100   quicker steps
//   swift run RestoringApp --navstore ../../.build/debug/navstore
//                                           and a fourth launch that uploads to a collector
//   swift test                              support tickets replayed as regression tests
import PackageDescription

let package = Package(
  name: "RestoringApp",
  platforms: [.macOS(.v14)],
  dependencies: [
    // No traits: the collector's packages stay out of the app's graph, as the README says.
    .package(name: "NavStore", path: "../..", traits: [])
  ],
  targets: [
    .executableTarget(
      name: "RestoringApp",
      dependencies: [
        .product(name: "NavCore", package: "NavStore"),
        .product(name: "NavPersistence", package: "NavStore"),
        .product(name: "NavUpload", package: "NavStore"),
      ]
    ),
    // Recorded sessions (Fixtures, written by `navstore fixture`) replayed through the app's
    // `App`: each ticket a test.
    .testTarget(
      name: "RestoringAppTests",
      dependencies: ["RestoringApp", .product(name: "NavTesting", package: "NavStore")],
      exclude: ["Fixtures"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
