import Foundation
import Testing
import TestSupport

/// Every profile's per-session and per-segment output, byte for byte, on the shipped trace sets
/// and on Pensieve's and Sabre's, alone and in groups on a shared link: the engine may be
/// reshaped, its numbers may not change. Each case's `sessions.csv`, `segments.csv` and
/// `transitions.csv` (and a grouped case's `groups.csv`) are hashed against
/// `Fixtures/engine-outputs.txt`; `ABRLAB_UPDATE_FIXTURES=1` rewrites it (only for a change
/// that is meant to alter results, said in its commit).
@Suite(.tags(.cli, .scale), .selectedByTags) struct EngineOutputsTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let arguments: [String]
        /// Needs the public datasets.
        let datasets: Bool
        /// Groups on a shared link, which also write `groups.csv`.
        var grouped = false
        var testDescription: String { name }

        var files: [String] { EngineOutputsTests.files + (grouped ? ["groups.csv"] : []) }
    }

    static let datasets = Datasets.root
    static let fixture = CLI.packageRoot.appendingPathComponent("Tests/abrlabTests/Fixtures/engine-outputs.txt")
    static let files = ["sessions.csv", "segments.csv", "transitions.csv"]

    static let cases: [Case] = {
        let pensieve = datasets.appendingPathComponent("pensieve").path
        let sabre = datasets.appendingPathComponent("sabre").path
        let shipped = [
            "bba", "bola", "dynamic", "festive", "rb", "robust_mpc", "throughput", "pensieve",
            "conservative", "bba-native", "robust_mpc-native", "pensieve-native",
        ]
        let pensieveVideo = [
            "--video", "\(pensieve)/video_sizes", "--ladder-kbps", "300,750,1200,1850,2850,4300", "--segment-duration-s", "4",
        ]
        let sabreScripts = ["sabre/bola", "sabre/bolae", "sabre/dynamic", "sabre/dynamicdash", "sabre/throughput"]
        let live = ["live/l2a", "live/ll-throughput", "live/lolp"]
        func shippedSet(_ set: String) -> Case {
            Case(name: "default-\(set)", arguments: ["--strategies"] + shipped + ["--traces", "Traces/\(set)"], datasets: false)
        }
        return ["default", "3g", "4g", "broadband", "lossy"].map(shippedSet) + [
            Case(name: "default-sabre3g", arguments: ["--strategies", "bba", "bola", "rb", "robust_mpc", "conservative"] + sabreScripts
                + ["--video", "\(sabre)/movie.json", "--traces", "\(sabre)/mmsys18/3Glogs"], datasets: true),
            Case(name: "default-pensieve", arguments: ["--strategies"] + shipped + pensieveVideo + ["--traces", "\(pensieve)/cooked_test_traces"], datasets: true),
            Case(name: "pensieve-pensieve", arguments: ["--profile", "pensieve", "--strategies"] + shipped + pensieveVideo
                + ["--traces", "\(pensieve)/cooked_test_traces"], datasets: true),
            Case(name: "pensieve-3g", arguments: ["--profile", "pensieve", "--strategies"] + shipped + ["--traces", "Traces/3g"], datasets: false),
            Case(name: "sabre-3g", arguments: ["--profile", "sabre", "--strategies"] + sabreScripts
                + ["--video", "\(sabre)/mmsys18/bbb.json", "--traces", "\(sabre)/mmsys18/3Glogs"], datasets: true),
            Case(name: "sabre-4g", arguments: ["--profile", "sabre", "--strategies"] + sabreScripts
                + ["--video", "\(sabre)/mmsys18/bbb4k.json", "--traces", "\(sabre)/mmsys18/4Glogs"], datasets: true),
            Case(name: "sabre-replace", arguments: ["--profile", "sabre", "--replace", "left", "--strategies", "sabre/bolae", "sabre/dynamicdash",
                "--video", "\(sabre)/mmsys18/bbb.json", "--traces", "\(sabre)/mmsys18/3Glogs"], datasets: true),
            Case(name: "sabre-shipped", arguments: ["--profile", "sabre", "--strategies"] + sabreScripts
                + ["bba", "rb", "conservative", "--traces", "Traces/4g", "Traces/broadband"], datasets: false),
            Case(name: "live-twitch", arguments: ["--profile", "live", "--video", "twitch-ll", "--qoe", "nqoe", "--strategies"] + live
                + ["conservative", "--traces", "Traces/twitch-ll"], datasets: false),
            Case(name: "live-shipped", arguments: ["--profile", "live", "--strategies"] + live + ["rb", "--traces", "Traces/broadband"], datasets: false),
            Case(name: "groups-default", arguments: ["--strategies", "bba", "bola", "festive", "robust_mpc", "--players", "4", "--stagger-s", "2",
                "--traces", "Traces/3g"], datasets: false, grouped: true),
            Case(name: "groups-sabre-mix", arguments: ["--profile", "sabre", "--mix", "sabre/bola,sabre/dynamic,bba,shared/panda", "--players", "6",
                "--stagger-s", "1.5", "--traces", "Traces/4g", "Traces/broadband"], datasets: false, grouped: true),
            Case(name: "groups-sabre3g", arguments: ["--profile", "sabre", "--strategies"] + sabreScripts + ["--players", "8",
                "--video", "\(sabre)/movie.json", "--traces", "\(sabre)/mmsys18/3Glogs"], datasets: true, grouped: true),
        ]
    }()

    /// `case file` → SHA-256, from the fixture.
    static let expected: [String: String] = {
        let text = (try? String(contentsOf: fixture, encoding: .utf8)) ?? ""
        var hashes: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: " ")
            if fields.count == 3 { hashes["\(fields[0]) \(fields[1])"] = String(fields[2]) }
        }
        return hashes
    }()

    @Test(arguments: cases.filter { !$0.datasets })
    func shippedSetsGiveTheSameOutputs(_ test: Case) throws {
        try check(test)
    }

    @Test(.tags(.datasets, .reference), .needsDatasets, arguments: cases.filter(\.datasets))
    func datasetsGiveTheSameOutputs(_ test: Case) throws {
        try check(test)
    }

    private func check(_ test: Case) throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("abrlab-engine-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try CLI.run(["compare"] + test.arguments + ["--out", out.path, "--quiet", "--jobs", "2"])
        #expect(result.status == 0, "\(result.stderr)")
        var lines: [String] = []
        for file in test.files {
            let hash = try CLI.runTool("/usr/bin/sha256sum", [out.appendingPathComponent(file).path]).stdout.prefix(64)
            lines.append("\(test.name) \(file) \(hash)")
            if ProcessInfo.processInfo.environment["ABRLAB_UPDATE_FIXTURES"] == nil {
                #expect(String(hash) == Self.expected["\(test.name) \(file)"], "\(test.name) \(file) changed")
            }
        }
        if ProcessInfo.processInfo.environment["ABRLAB_UPDATE_FIXTURES"] != nil { try Self.update(lines) }
    }

    /// Replaces this case's lines in the fixture (cases run in parallel, so under a lock).
    private static func update(_ lines: [String]) throws {
        try lock.withLock {
            let text = (try? String(contentsOf: fixture, encoding: .utf8)) ?? ""
            let names = Set(lines.map { $0.split(separator: " ").prefix(2).joined(separator: " ") })
            var kept = text.split(separator: "\n").map(String.init).filter { line in
                line.hasPrefix("#") || !names.contains(line.split(separator: " ").prefix(2).joined(separator: " "))
            }
            if kept.isEmpty { kept = ["# case file sha256: compare outputs that the engine must keep (EngineOutputsTests)"] }
            let body = (kept.filter { !$0.hasPrefix("#") } + lines).sorted()
            try ((kept.filter { $0.hasPrefix("#") } + body).joined(separator: "\n") + "\n").write(to: fixture, atomically: true, encoding: .utf8)
        }
    }

    private static let lock = NSLock()
}
