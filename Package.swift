// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "abrlab",
    products: [
        .library(name: "ABRLab", targets: ["ABRLab"]),
        .library(name: "ABRLabFormats", targets: ["ABRLabFormats"]),
        .library(name: "ABRLabResults", targets: ["ABRLabResults"]),
        .library(name: "ABRLabPlayerKit", targets: ["ABRLabPlayerKit"]),
        .library(name: "ABRLabLua", targets: ["ABRLabLua"]),
        .library(name: "ABRLabDatasets", targets: ["ABRLabDatasets"]),
        .library(name: "ABRLabSettings", targets: ["ABRLabSettings"]),
        .library(name: "ABRLabCompare", targets: ["ABRLabCompare"]),
        .library(name: "ABRLabFetch", targets: ["ABRLabFetch"]),
        .executable(name: "abrlab", targets: ["abrlab"]),
        .executable(name: "abrlab-bench", targets: ["abrlab-bench"]),
        // The C interface the Python package (python/) loads: Gymnasium environments on the engine.
        .library(name: "ABRLabC", type: .dynamic, targets: ["ABRLabC"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // The engine core: the session engine and its plan, network walking, the strategy API and
        // native strategies, estimation, QoE, learned policies, the video model and generators.
        // Imports no other abrlab module and no C module.
        .target(name: "ABRLab", dependencies: []),
        // Input formats: trace and video loaders and writers, HLS, DASH (XML, sidx), SHA-256.
        .target(name: "ABRLabFormats", dependencies: ["ABRLab", "CCrypto"]),
        // The seed documents' player-side kit: buffering indicator, buffer bar and timeline, format
        // timeline and monitor, HLS playlist writer, the seed's bandwidth estimator and state machine.
        // Imported only by what shows or exports it.
        .target(name: "ABRLabPlayerKit", dependencies: ["ABRLab", "ABRLabFormats"]),
        // Results: output folders, CSV rows and readers, statistics and ranking, compression.
        .target(name: "ABRLabResults", dependencies: ["ABRLab", "ABRLabPlayerKit", "CZlib", "CDeflate", "CRowsDeflate", "CZstd"]),
        // The deflate encoder segments.csv.gz is written with: matches only where a CSV cell
        // begins, faster than libdeflate at its size (docs/output.md).
        .target(name: "CRowsDeflate"),
        // The system zlib (Debian zlib1g-dev): CRC-32 of every output file, and reading gzip back.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // libdeflate (Debian libdeflate-dev): the yardstick `abrlab-bench --only output` measures
        // the rows encoder against, level by level.
        .systemLibrary(
            name: "CDeflate",
            pkgConfig: "libdeflate",
            providers: [.apt(["libdeflate-dev"])]
        ),
        // The system libzstd (Debian libzstd-dev), for segments.csv.zst.
        .systemLibrary(
            name: "CZstd",
            pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"])]
        ),
        // Debian's Lua 5.4, found through pkg-config.
        .systemLibrary(
            name: "CLua",
            pkgConfig: "lua5.4",
            providers: [.apt(["liblua5.4-dev"])]
        ),
        // OpenSSL's libcrypto (Debian libssl-dev): SHA-256 of every input a run records and of
        // every file a script loads. Every shard hashes every trace of its plan, and libcrypto
        // uses the CPU's SHA instructions.
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // Every call that can raise a Lua error lives here, so no longjmp crosses a Swift frame.
        .target(name: "CLuaShim", dependencies: ["CLua"]),
        .target(name: "ABRLabLua", dependencies: ["ABRLab", "ABRLabFormats", "CLuaShim"]),
        // Datasets: the registry, the local store and its checks, dataset ids as inputs, and where
        // the shipped files are found (`Defaults`).
        .target(name: "ABRLabDatasets", dependencies: ["ABRLab", "ABRLabFormats"]),
        // Settings resolution: settings by key (`ExperimentSettings`), read from text by the core's
        // table, resolved into the sessions compare and Python share, rendered as docs and JSON.
        .target(name: "ABRLabSettings", dependencies: ["ABRLab", "ABRLabFormats", "ABRLabResults", "ABRLabDatasets", "ABRLabLua"]),
        // The compare pipeline: the strategy catalogue, trace sets, the plan's fingerprint and
        // records, shards and merging, behind `Comparison`.
        .target(name: "ABRLabCompare", dependencies: ["ABRLab", "ABRLabFormats", "ABRLabResults", "ABRLabDatasets", "ABRLabSettings", "ABRLabLua"]),
        // Fetching from the network: datasets over HTTP or from a mirror folder, and `abrlab
        // reproduce`. The one module that imports FoundationNetworking, and only the command
        // line imports it, so the Python library (ABRLabC) does not link it.
        .target(name: "ABRLabFetch", dependencies: ["ABRLab", "ABRLabFormats", "ABRLabResults", "ABRLabDatasets", "ABRLabSettings", "ABRLabCompare"]),
        // `@_cdecl` functions over `StreamingSession` for python/ (docs/python.md).
        .target(name: "ABRLabC", dependencies: ["ABRLab", "ABRLabFormats", "ABRLabResults", "ABRLabDatasets", "ABRLabSettings", "ABRLabLua", "ABRLabCompare"]),
        .executableTarget(
            name: "abrlab",
            dependencies: [
                "ABRLab",
                "ABRLabFormats",
                "ABRLabResults",
                "ABRLabPlayerKit",
                "ABRLabDatasets",
                "ABRLabSettings",
                "ABRLabLua",
                "ABRLabCompare",
                "ABRLabFetch",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Speed and memory figures, apart from the user's binary; it times the `abrlab` built beside it.
        .executableTarget(
            name: "abrlab-bench",
            dependencies: [
                "ABRLab",
                "ABRLabFormats",
                "ABRLabResults",
                "ABRLabDatasets",
                "ABRLabSettings",
                "ABRLabLua",
                "ABRLabCompare",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // What every test target shares: the package root, the dataset locator, the tags and
        // the trait that selects tests by tag.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // Small inputs the library's test targets share: a two-level video, a flat trace, an ideal
        // profile, scripted strategies, playlist text.
        .target(name: "EngineFixtures", dependencies: ["ABRLab", "ABRLabFormats", "TestSupport"], path: "Tests/EngineFixtures"),
        .testTarget(name: "ABRLabTests", dependencies: ["ABRLab", "ABRLabFormats", "EngineFixtures", "TestSupport"]),
        .testTarget(name: "ABRLabFormatsTests", dependencies: ["ABRLabFormats", "ABRLab", "EngineFixtures", "TestSupport"]),
        .testTarget(name: "ABRLabPlayerKitTests", dependencies: ["ABRLabPlayerKit", "ABRLabFormats", "ABRLab", "EngineFixtures", "TestSupport"]),
        .testTarget(name: "ABRLabResultsTests", dependencies: ["ABRLabResults", "ABRLabPlayerKit", "ABRLab", "EngineFixtures", "TestSupport"]),
        .testTarget(name: "ABRLabLuaTests", dependencies: ["ABRLabLua", "ABRLab", "ABRLabFormats", "ABRLabResults", "TestSupport"]),
        // The C interface, called as Python calls it.
        .testTarget(name: "ABRLabCTests", dependencies: ["ABRLabC", "ABRLabCompare", "ABRLabFetch", "ABRLabFormats", "ABRLabResults", "ABRLabDatasets", "ABRLabSettings", "TestSupport"]),
        .testTarget(name: "ABRLabDatasetsTests", dependencies: ["ABRLabDatasets", "ABRLabFormats", "ABRLab", "TestSupport"]),
        .testTarget(name: "ABRLabSettingsTests", dependencies: ["ABRLabSettings", "ABRLab", "ABRLabFormats", "ABRLabResults", "ABRLabDatasets", "ABRLabLua", "TestSupport"]),
        .testTarget(name: "ABRLabCompareTests", dependencies: ["ABRLabCompare", "ABRLab", "ABRLabFormats", "ABRLabResults", "ABRLabDatasets", "ABRLabSettings", "TestSupport"]),
        // Runs the built `abrlab` binary and compares its output with golden files.
        .testTarget(name: "abrlabTests", dependencies: ["abrlab", "ABRLabC", "TestSupport"], exclude: ["Golden", "Fixtures"]),
    ]
)
