// swift-tools-version:6.0
// Coverage-guided fuzz harnesses for abrlab's input parsers, built apart from the main package so
// `swift build` and `swift test` stay untouched. Build and run them with `scripts/fuzz`, which
// also builds abrlab with -enable-testing so the internal JSON reader is fuzzed on its own.
import PackageDescription

let package = Package(
    name: "abrlab-fuzz",
    dependencies: [
        .package(name: "abrlab", path: "../.."),
    ],
    targets: [
        // One libFuzzer binary; ABRLAB_FUZZ_TARGET selects the parser it feeds.
        .executableTarget(
            name: "abrlab-fuzz",
            dependencies: [
                .product(name: "ABRLab", package: "abrlab"),
                .product(name: "ABRLabFormats", package: "abrlab"),
                .product(name: "ABRLabResults", package: "abrlab"),
                .product(name: "ABRLabLua", package: "abrlab"),
                .product(name: "ABRLabCompare", package: "abrlab"),
            ]
        ),
    ]
)
