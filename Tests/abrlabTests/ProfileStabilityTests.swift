import Foundation
import Testing
import TestSupport

/// The `default` and `pensieve` profiles give, in every column that existed before the
/// request-level engine, exactly what they gave before it: the shipped trace sets under `default`,
/// and Pensieve's video and 142 test traces under `pensieve` (skipped without the datasets).
@Suite(.tags(.cli), .selectedByTags) struct ProfileStabilityTests {
    /// FESTIVE is its rule from before issue 31 (`Fixtures/stability/festive.lua`): this suite pins
    /// the engine, and the shipped FESTIVE changed its numbers on purpose since.
    static let strategies = [
        "Strategies/bba.lua", "Strategies/bola.lua", "Strategies/dynamic.lua", "Tests/abrlabTests/Fixtures/stability/festive.lua", "Strategies/rb.lua",
        "Strategies/robust_mpc.lua", "Strategies/throughput.lua", "conservative", "bba-native", "robust_mpc-native",
    ]
    static let oldColumns = [
        "sessions.csv": "strategy,trace,profile,qoe_model,segments,qoe,qoe_mean,avg_bitrate_kbps,rebuffer_s,rebuffer_ratio,stalls,switches,startup_s,seed,error",
        "segments.csv": "strategy,trace,segment,level,bitrate_kbps,size_bytes,download_start_s,download_end_s,download_time_s,latency_s,throughput_kbps,buffer_before_s,buffer_after_s,rebuffer_s,wait_s,buffer_state,buffer_progress,fill_rate_s_per_s,likely_to_keep_up,network_active_share,estimate_kbps,network_quality,qoe",
    ].mapValues { $0.split(separator: ",").map(String.init) }

    /// Columns renamed since (issue 16), by file: the old name's values are read from the new column.
    static let renamedColumns = ["sessions.csv": ["qoe": "qoe_total", "qoe_mean": "qoe_per_segment"]]
    /// Columns that were 0-based then and are 1-based now: projected back to 0-based.
    static let rebasedColumns: Set<String> = ["segment", "level"]
    /// Columns of integers and of text (a trace may be named `1`). Every other column's numbers
    /// were written as Swift writes a double then, whole ones with `.0` (`331.0`), and are
    /// projected back to that form from today's `331`.
    static let notDoubleColumns: Set<String> = [
        "segments", "stalls", "switches", "seed", "segment", "level", "size_bytes",
        "strategy", "trace", "profile", "qoe_model", "error", "action", "from", "to",
    ]

    /// `set file` → hash, from the fixture.
    static let expected: [String: String] = {
        let url = CLI.packageRoot.appendingPathComponent("Tests/abrlabTests/Fixtures/profile-stability.txt")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        var hashes: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: " ")
            if fields.count == 3 { hashes["\(fields[0]) \(fields[1])"] = String(fields[2]) }
        }
        return hashes
    }()

    static var datasets: URL { Datasets.url("pensieve") }

    @Test(arguments: ["default", "3g", "4g", "broadband", "lossy"])
    func defaultProfileIsUnchanged(set: String) throws {
        try check(set: set, arguments: ["--traces", "Traces/\(set)"])
    }

    @Test(.tags(.datasets, .reference), .needsDatasets("pensieve"))
    func pensieveProfileIsUnchanged() throws {
        let p = Self.datasets.path
        try check(set: "pensieve", arguments: [
            "--profile", "pensieve", "--video", "\(p)/video_sizes", "--ladder-kbps", "300,750,1200,1850,2850,4300",
            "--segment-duration-s", "4", "--traces", "\(p)/cooked_test_traces",
        ])
    }

    private func check(set: String, arguments: [String]) throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("abrlab-stability-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        // robust_mpc.lua read the segments being chosen until it took Pensieve's look-ahead as
        // its native twin does; the fixture's hashes are of that setting.
        let pinned = ["--param", "robust_mpc.lookahead_offset=0"]
        let result = try CLI.run(["compare", "--strategies"] + Self.strategies + arguments + pinned + ["--out", out.path, "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        for file in ["sessions.csv", "segments.csv", "transitions.csv"] {
            let text = try CLI.read(out.appendingPathComponent(file))
            let header = text.prefix { $0 != "\n" }
            // transitions.csv is hashed whole: its header, then every column.
            let whole = { String(header) + "\n" + Self.project(text, columns: header.split(separator: ",").map(String.init)) }
            let hashed = try Self.sha256(Self.oldColumns[file].map { Self.project(text, columns: $0, renamed: Self.renamedColumns[file] ?? [:]) } ?? whole())
            #expect(hashed == Self.expected["\(set) \(file)"], "\(set) \(file) changed")
        }
    }

    /// The rows restricted to `columns`, joined by commas (the checked files have no quoted fields),
    /// numbers in the form they had then.
    static func project(_ text: String, columns: [String], renamed: [String: String] = [:]) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        guard let header = lines.first?.split(separator: ",").map(String.init) else { return "" }
        let indices = columns.map { header.firstIndex(of: renamed[$0] ?? $0) ?? -1 }
        var projected = ""
        for line in lines.dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            projected += zip(indices, columns).map { index, column in
                guard index >= 0, index < fields.count else { return "?" }
                if rebasedColumns.contains(column) { return Int(fields[index]).map { String($0 - 1) } ?? "?" }
                return oldNumberForm(fields[index], column: column)
            }.joined(separator: ",") + "\n"
        }
        return projected
    }

    /// `field` as abrlab wrote it then: a double in Swift's `description` (`331.0`, `0.1`), any
    /// other field as it is.
    static func oldNumberForm(_ field: Substring, column: String) -> String {
        guard !notDoubleColumns.contains(column), let value = Double(field), value.isFinite else { return String(field) }
        return value.description
    }

    static func sha256(_ text: String) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("abrlab-hash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try text.write(to: file, atomically: true, encoding: .utf8)
        let result = try CLI.runTool("/usr/bin/sha256sum", [file.path])
        return String(result.stdout.prefix(64))
    }
}
