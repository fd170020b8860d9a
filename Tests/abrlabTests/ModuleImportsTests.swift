import Foundation
import Testing
import TestSupport

/// The modules' layering, held: each target's sources import only the modules its role allows,
/// and dependencies point down. The rules are written here once; docs/architecture.md draws them.
@Suite(.tags(.cli), .selectedByTags) struct ModuleImportsTests {
    /// What each module may import besides the system's own (Foundation, Glibc, Dispatch,
    /// Synchronization, Testing).
    static let allowed: [String: Set<String>] = [
        // The engine core: no other abrlab module and no C module.
        "ABRLab": [],
        // Input formats, on the core; libcrypto for SHA-256.
        "ABRLabFormats": ["ABRLab", "CCrypto"],
        // The seed's player kit: what shows or exports a session (indicator, timelines, playlists).
        "ABRLabPlayerKit": ["ABRLab", "ABRLabFormats"],
        // Results: rows, statistics, compression; it exports the kit's timelines.
        "ABRLabResults": ["ABRLab", "ABRLabPlayerKit", "CZlib", "CDeflate", "CRowsDeflate", "CZstd"],
        "ABRLabLua": ["ABRLab", "ABRLabFormats", "CLuaShim"],
        // The registry, the store, dataset ids; hashes from formats.
        "ABRLabDatasets": ["ABRLab", "ABRLabFormats"],
        // Settings by key, read by the core's table and resolved into sessions.
        "ABRLabSettings": ["ABRLab", "ABRLabFormats", "ABRLabResults", "ABRLabDatasets", "ABRLabLua"],
        "ABRLabCompare": ["ABRLab", "ABRLabFormats", "ABRLabResults", "ABRLabDatasets", "ABRLabSettings", "ABRLabLua"],
        // The only module that reaches the network.
        "ABRLabFetch": ["ABRLab", "ABRLabFormats", "ABRLabResults", "ABRLabDatasets", "ABRLabSettings", "ABRLabCompare", "FoundationNetworking"],
        // The Python library: no fetching, so it links no FoundationNetworking.
        "ABRLabC": ["ABRLab", "ABRLabFormats", "ABRLabResults", "ABRLabDatasets", "ABRLabSettings", "ABRLabLua", "ABRLabCompare"],
        "abrlab": ["ABRLab", "ABRLabFormats", "ABRLabResults", "ABRLabPlayerKit", "ABRLabDatasets", "ABRLabSettings", "ABRLabLua", "ABRLabCompare", "ABRLabFetch", "ArgumentParser"],
        "abrlab-bench": ["ABRLab", "ABRLabFormats", "ABRLabResults", "ABRLabDatasets", "ABRLabSettings", "ABRLabLua", "ABRLabCompare", "ArgumentParser"],
    ]

    static let system: Set<String> = ["Foundation", "Glibc", "Darwin", "Dispatch", "Synchronization"]

    /// Each `import X` of the target's Swift sources, as `file:line: X`.
    static func imports(of target: String) throws -> [(place: String, module: String)] {
        try imports(inFolder: "Sources/\(target)")
    }

    /// Each `import X` of the Swift files under `folder` (relative to the package root).
    static func imports(inFolder folder: String) throws -> [(place: String, module: String)] {
        let target = folder
        let root = PackageRoot.file(folder)
        let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted() ?? []
        var found: [(String, String)] = []
        for file in files {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let words = line.split(separator: " ")
                // `import X`, `@testable import X`, `package import X`, `import struct X.Y`.
                guard let at = words.firstIndex(of: "import"), words.prefix(at).allSatisfy({ $0.hasPrefix("@") || $0 == "package" || $0 == "public" || $0 == "internal" }),
                      at + 1 < words.count else { continue }
                let name = words.count > at + 2 && ["struct", "class", "enum", "func", "protocol", "typealias"].contains(String(words[at + 1])) ? words[at + 2] : words[at + 1]
                found.append(("\(target)/\(file):\(index + 1)", String(name.split(separator: ".")[0])))
            }
        }
        return found
    }

    @Test(arguments: allowed.keys.sorted())
    func aModuleImportsOnlyWhatItsRoleAllows(target: String) throws {
        let imports = try Self.imports(of: target)
        #expect(!imports.isEmpty, "no sources read for \(target)")
        for (place, module) in imports where !Self.system.contains(module) && !(Self.allowed[target]?.contains(module) ?? false) {
            Issue.record("\(place): \(target) imports \(module), which its role does not allow")
        }
    }

    /// Package.swift's dependencies agree with the rules: a target depends on no module it may not import.
    @Test func packageDependenciesFollowTheRules() throws {
        let targets = try Self.manifestTargets()
        var checked = 0
        for (name, target) in targets.sorted(by: { $0.key < $1.key }) {
            guard let rules = Self.allowed[name] else { continue }
            for dependency in target.dependencies where dependency != "swift-argument-parser" && !rules.contains(dependency) {
                Issue.record("Package.swift: \(name) depends on \(dependency), which its role does not allow")
            }
            checked += 1
        }
        #expect(checked == Self.allowed.count, "Package.swift's targets were not all found")
    }

    /// Package.swift's targets by name: each one's quoted dependencies and its folder.
    static func manifestTargets() throws -> [String: (dependencies: [String], folder: String)] {
        let manifest = try String(contentsOf: PackageRoot.file("Package.swift"), encoding: .utf8)
        let pattern = try NSRegularExpression(
            pattern: #"\.(target|executableTarget|testTarget)\(\s*name: "([^"]+)",\s*dependencies: \[([^\]]*)\](?:,\s*path: "([^"]+)")?"#
        )
        let quoted = try NSRegularExpression(pattern: #""([^"]+)""#)
        var targets: [String: (dependencies: [String], folder: String)] = [:]
        for match in pattern.matches(in: manifest, range: NSRange(manifest.startIndex..., in: manifest)) {
            let text = { (index: Int) in Range(match.range(at: index), in: manifest).map { String(manifest[$0]) } }
            guard let kind = text(1), let name = text(2), let list = text(3) else { continue }
            let dependencies = quoted.matches(in: list, range: NSRange(list.startIndex..., in: list)).compactMap {
                Range($0.range(at: 1), in: list).map { String(list[$0]) }
            }
            targets[name] = (dependencies, text(4) ?? (kind == "testTarget" ? "Tests/\(name)" : "Sources/\(name)"))
        }
        return targets
    }

    /// Every target, source or test, imports only modules its Package.swift dependencies reach:
    /// a module built already for another target imports in a warm build folder, and fails in a
    /// clean one.
    @Test func everyTargetImportsOnlyWhatItDependsOn() throws {
        let targets = try Self.manifestTargets()
        let dependencies = targets.mapValues(\.dependencies)
        let folders = targets.mapValues(\.folder)
        func reach(_ target: String, into seen: inout Set<String>) {
            for dependency in dependencies[target] ?? [] where seen.insert(dependency).inserted { reach(dependency, into: &seen) }
        }
        #expect(folders.count > 20, "Package.swift's targets were not found")
        let outside: Set<String> = Self.system.union(["Testing", "FoundationNetworking", "XCTest"])
        for (target, folder) in folders.sorted(by: { $0.key < $1.key }) {
            var reachable: Set<String> = [target]
            reach(target, into: &reachable)
            for (place, module) in try Self.imports(inFolder: folder) where !outside.contains(module) && !reachable.contains(module) {
                Issue.record("\(place): \(target) imports \(module), which Package.swift does not make it depend on")
            }
        }
    }

    /// Only the fetching module reaches the network: nothing else imports FoundationNetworking.
    @Test func onlyFetchingImportsFoundationNetworking() throws {
        let holders = try Self.allowed.keys.sorted().filter { try Self.imports(of: $0).contains { $0.module == "FoundationNetworking" } }
        #expect(holders == ["ABRLabFetch"])
    }

    /// The player kit is imported only by what shows a session (the command line's replay and
    /// export) or writes its timelines (results).
    @Test func onlyWhatShowsOrExportsImportsThePlayerKit() throws {
        let holders = try Self.allowed.keys.sorted().filter { try Self.imports(of: $0).contains { $0.module == "ABRLabPlayerKit" } }
        #expect(holders == ["ABRLabResults", "abrlab"])
    }
}
