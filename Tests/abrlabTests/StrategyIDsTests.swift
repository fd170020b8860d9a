import Foundation
import Testing
import TestSupport

/// One id, one algorithm: a script under Strategies/ is known by its path there (`sabre/bola`),
/// however it is named, so Sabre's BOLA and BOLA-BASIC run side by side; two different
/// algorithms under one id in one run are refused.
@Suite(.tags(.cli), .selectedByTags) struct StrategyIDsTests {
    static let traces = ["--traces", "Traces/3g/3g_1.csv", "Traces/3g/3g_2.csv"]

    static func column(_ file: URL, _ index: Int = 0) throws -> [String] {
        try CLI.read(file).split(separator: "\n").dropFirst().map { String($0.split(separator: ",", omittingEmptySubsequences: false)[index]) }
    }

    @Test func sabreBolaAndBolaCoexist() throws {
        let out = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try CLI.run([
            "compare", "--profile", "sabre", "--strategies", "bola", "Strategies/sabre", "--param", "sabre/bola.gp=3,5",
            "--baseline", "sabre/bola[gp=3]", "--out", out.path,
        ] + Self.traces)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let ids = ["bola", "sabre/bola[gp=3]", "sabre/bola[gp=5]", "sabre/bolae", "sabre/dynamic", "sabre/dynamicdash", "sabre/throughput"]
        #expect(Set(try Self.column(out.appendingPathComponent("summary.csv"))) == Set(ids))
        #expect(try Self.column(out.appendingPathComponent("sessions.csv")).count == 2 * ids.count)
        #expect(result.stdout.contains("against sabre/bola[gp=3], paired on the traces both completed:"))
        // Each id is its own algorithm: BOLA-BASIC's and Sabre's BOLA-U's sessions differ.
        let sessions = try CLI.read(out.appendingPathComponent("sessions.csv")).split(separator: "\n")
        let basic = sessions.first { $0.hasPrefix("bola,3g_1,") }.map { $0.split(separator: ",")[5] }
        let sabre = sessions.first { $0.hasPrefix("sabre/bola[gp=5],3g_1,") }.map { $0.split(separator: ",")[5] }
        #expect(basic != nil && sabre != nil && basic != sabre)

        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("run.json"))) as? [String: Any])
        let strategies = try #require(manifest["strategies"] as? [[String: Any]])
        func source(_ id: String) -> String? {
            strategies.first { $0["id"] as? String == id }?["source"] as? String
        }
        #expect(source("bola") == "Strategies/bola.lua")
        #expect(source("sabre/bola[gp=3]") == "Strategies/sabre/bola.lua")
    }

    /// By id, by file, by a roundabout path or by its folder: the same id.
    @Test(arguments: [["sabre/bola"], ["Strategies/sabre/bola.lua"], ["./Strategies/live/../sabre/bola.lua"]])
    func aScriptHasOneIdHoweverItIsNamed(arguments: [String]) throws {
        let out = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try CLI.run(["compare", "--profile", "sabre", "--strategies"] + arguments + ["--traces", "Traces/3g/3g_1.csv", "--out", out.path, "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.column(out.appendingPathComponent("summary.csv")) == ["sabre/bola"])
    }

    /// Naming the same script twice runs it once; two different scripts, or a script and a
    /// native strategy, under one id are refused with one line and no output.
    @Test func oneIdRunsOneAlgorithm() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        let twice = try CLI.run(["compare", "--strategies", "bola", "Strategies/bola.lua", "bba-native", "bba-native", "--out", out.path, "--quiet"] + Self.traces)
        #expect(twice.status == 0, "\(twice.stderr)")
        #expect(try Self.column(out.appendingPathComponent("summary.csv")).sorted() == ["bba-native", "bola"])

        let copy = folder.appendingPathComponent("bola.lua")
        try (try CLI.read(CLI.packageRoot.appendingPathComponent("Strategies/bola.lua")) + "-- edited\n").write(to: copy, atomically: true, encoding: .utf8)
        let fresh = folder.appendingPathComponent("fresh")
        let two = try CLI.run(["compare", "--strategies", "bola", copy.path, "--out", fresh.path] + Self.traces)
        #expect(two.status == 1)
        #expect(two.stderr == "abrlab: \(copy.path): has the id 'bola' of Strategies/bola.lua, a different script; one id runs one algorithm in a run: rename one of them\n")
        #expect(!FileManager.default.fileExists(atPath: fresh.path))

        let native = try CLI.run(["compare", "--strategies", "conservative", "Strategies/conservative.lua", "--out", fresh.path] + Self.traces)
        #expect(native.status == 1)
        #expect(native.stderr == "abrlab: Strategies/conservative.lua: has the id of the native strategy 'conservative', which this run also names; one id runs one algorithm in a run: name one of them\n")
        #expect(!FileManager.default.fileExists(atPath: fresh.path))
    }

    /// `lib/` folders hold modules: no id reaches into them, and listings skip them.
    @Test func libFoldersHoldNoStrategies() throws {
        let result = try CLI.run(["compare", "--strategies", "sabre/lib/bola_abandon", "--out", "/nonexistent/out"] + Self.traces)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("abrlab: sabre/lib/bola_abandon: no such strategy: not a native id"))
        let list = try CLI.run(["strategies", "list", "--folder", "Strategies/sabre"])
        #expect(list.status == 0, "\(list.stderr)")
        let ids = list.stdout.split(separator: "\n").dropFirst().map { String($0.prefix { $0 != " " }) }
        let natives = ["sabre/bola-native", "sabre/bolae-native", "sabre/dynamic-native", "sabre/dynamicdash-native", "sabre/throughput-native",
                       "dashjs", "dashjs/bola", "dashjs/throughput", "dashjs/l2a", "dashjs/lolp"]
        #expect(ids == ["conservative", "bba-native", "robust_mpc-native", "pensieve-native", "genet", "mlp"] + natives + ["sabre/bola", "sabre/bolae", "sabre/dynamic", "sabre/dynamicdash", "sabre/throughput"])
    }

    /// `strategies check` takes a namespaced id and names the file.
    @Test func checkTakesANamespacedID() throws {
        let result = try CLI.run(["strategies", "check", "sabre/throughput"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("Strategies/sabre/throughput.lua: all checks passed\n"))
    }

    /// Outside Strategies/ a script is known by its file name, and a folder's sub-folders there
    /// are listed with that id too.
    @Test func scriptsElsewhereKeepTheirFileName() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("more/lib"), withIntermediateDirectories: true)
        try "return { choose = function(ctx) return 1 end }\n".write(to: folder.appendingPathComponent("more/low.lua"), atomically: true, encoding: .utf8)
        try "return { choose = function(ctx) return 1 end }\n".write(to: folder.appendingPathComponent("more/lib/helper.lua"), atomically: true, encoding: .utf8)
        let list = try CLI.run(["strategies", "list", "--folder", folder.path])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("\nlow "))
        #expect(!list.stdout.contains("helper"))
    }
}
