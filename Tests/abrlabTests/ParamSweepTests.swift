import Foundation
import Testing
import TestSupport

/// `--param` sweeps: one row per setting, named `id[key=value,...]`, in a documented order.
@Suite(.tags(.cli), .selectedByTags) struct ParamSweepTests {
    static let base = ["compare", "--traces", "Traces/default/4g_1.csv", "--video", "Traces/video.json", "--quiet"]

    /// A `--param` whose bytes are not UTF-8 reached its script as U+FFFD, and two different
    /// such values were refused as one value twice; now it is refused naming the parameter, with
    /// its bytes escaped, before anything runs. The bytes go through a shell: a Swift `String`
    /// argument cannot hold them.
    @Test(arguments: [
        (#"--param "$(printf 'x.label=\377\376')""#, #"abrlab: --param x.label: 'x.label=\xFF\xFE' is not UTF-8 text; a parameter reaches its script unchanged, so give its value as UTF-8"#),
        (#""--param=$(printf 'x.label=a\351,b')""#, #"abrlab: --param x.label: 'x.label=a\xE9,b' is not UTF-8 text; a parameter reaches its script unchanged, so give its value as UTF-8"#),
        (#"--traces "$(printf 'caf\351')""#, #"abrlab: --traces: 'caf\xE9' is not UTF-8 text; abrlab reads its arguments as UTF-8"#),
    ])
    func anArgumentThatIsNotUTF8IsRefusedNamingIt(argument: String, message: String) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        let script = #"exec "$0" compare "# + argument + #" --strategies bba --out "$1""#
        let result = try CLI.runTool("/bin/sh", ["-c", script, CLI.binary.path, out.path])
        #expect(result.status == 1)
        #expect(result.stderr == message + "\n")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test func everySettingIsItsOwnRowInProductOrder() throws {
        let out = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try CLI.run(Self.base + [
            "--strategies", "Strategies/bola.lua", "Strategies/bba.lua", "--param", "bola.gp=3,8", "--param", "bola.capacity_s=0,20",
            "--param", "bba.reservoir_s=5.5", "--baseline", "bola[capacity_s=0,gp=3]", "--out", out.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        // Sessions run in row order: the product with capacity_s (first by name) varying slowest.
        let sessions = try CLI.read(out.appendingPathComponent("sessions.csv")).split(separator: "\n").dropFirst()
        #expect(sessions.map { $0.hasPrefix("bba,") ? "bba" : String($0.prefix { $0 != "]" }) + "]\"" } == [
            "\"bola[capacity_s=0,gp=3]\"", "\"bola[capacity_s=0,gp=8]\"", "\"bola[capacity_s=20,gp=3]\"", "\"bola[capacity_s=20,gp=8]\"", "bba",
        ])
        #expect(try CLI.read(out.appendingPathComponent("summary.csv")).contains(",\"bola[capacity_s=0,gp=3]\","), "the baseline row")
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("run.json"))) as? [String: Any]
        let strategies = manifest?["strategies"] as? [[String: Any]] ?? []
        #expect(strategies.map { $0["id"] as? String ?? "" } == [
            "bola[capacity_s=0,gp=3]", "bola[capacity_s=0,gp=8]", "bola[capacity_s=20,gp=3]", "bola[capacity_s=20,gp=8]", "bba",
        ])
        func values(_ strategy: [String: Any]?) -> [String: Double] {
            let params = strategy?["params"] as? [[String: Any]] ?? []
            return Dictionary(uniqueKeysWithValues: params.compactMap { param in
                (param["value"] as? NSNumber).map { (param["key"] as? String ?? "", $0.doubleValue) }
            })
        }
        #expect(values(strategies.last)["reservoir_s"] == 5.5)
        #expect(values(strategies.first) == ["capacity_s": 0, "gp": 3])
    }

    @Test(arguments: [
        (["--param", "bba.reservoir_s=5", "--param", "bba.reservoir_s=6"],
         "abrlab: --param: bba.reservoir_s is given twice; list several values as bba.reservoir_s=a,b,c to sweep them\n"),
        (["--param", "bba.reservoir_s=5,,6"], "abrlab: --param: 'bba.reservoir_s=5,,6' has an empty value in its list\n"),
        (["--param", "bba.reservoir_s=5,6,5"], "abrlab: --param: 'bba.reservoir_s=5,6,5' lists 5 twice\n"),
    ] as [([String], String)])
    func badSweepsGetOneLine(arguments: [String], message: String) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("results")
        let result = try CLI.run(Self.base + ["--strategies", "Strategies/bba.lua", "--out", out.path] + arguments)
        #expect(result.status == 1)
        #expect(result.stderr == message)
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test func singleSessionCommandsRefuseASweep() throws {
        let result = try CLI.run(["run", "--strategy", "Strategies/bba.lua", "--trace", "Traces/default/4g_1.csv", "--video", "Traces/video.json", "--param", "bba.reservoir_s=5,6"])
        #expect(result.status == 1)
        #expect(result.stderr == "abrlab: --param: a parameter sweep runs several settings; use abrlab compare for it\n")
    }
}
