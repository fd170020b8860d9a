import Foundation
import Testing
import TestSupport

/// Numbers in error messages read back as the value that caused them: NaN is `NaN` whatever its
/// sign bit, and a level of 2.0000000000000004 is not shown as the valid-looking 2.
@Suite(.tags(.cli), .selectedByTags) struct ErrorNumberTests {
    @Test(arguments: [
        ("return 0/0", "choose returned NaN; levels are 1…6 (segment 1 of 3g_1)"),
        ("return 2.0000000000000004", "choose returned 2.0000000000000004; levels are 1…6 (segment 1 of 3g_1)"),
        ("return 1, 0/0", "choose returned a delay of NaN; delays are nil or 0…86400 s (the session limit) (segment 1 of 3g_1)"),
        ("return 1, -1e-310", "choose returned a delay of -1e-310; delays are nil or 0…86400 s (the session limit) (segment 1 of 3g_1)"),
        ("return -math.huge", "choose returned -inf; levels are 1…6 (segment 1 of 3g_1)"),
    ])
    func aStrategysBadNumberIsPrintedExactly(body: String, message: String) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("bad.lua")
        try "return { choose = function(ctx) \(body) end }\n".write(to: script, atomically: true, encoding: .utf8)
        let result = try CLI.run(["run", "--strategy", script.path, "--trace", "Traces/3g/3g_1.csv"])
        #expect(result.status == 1)
        #expect(result.stderr == "abrlab: \(script.path): \(message)\n")
        #expect(result.stdout.isEmpty)
    }
}
