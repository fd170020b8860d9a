import Foundation
import Testing
import TestSupport

/// The figures live in a program of their own, beside the user's `abrlab`.
@Suite(.tags(.cli), .selectedByTags) struct BenchCommandTests {
    static var bench: String { CLI.binary.deletingLastPathComponent().appendingPathComponent("abrlab-bench").path }

    @Test func anUnknownSectionIsOneLine() throws {
        let result = try CLI.runTool(Self.bench, ["--only", "floor,nope"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("abrlab-bench: --only: unknown section 'nope'; sections: engine, floor,"), "\(result.stderr)")
    }

    @Test func theUsersBinaryHasNoBench() throws {
        let result = try CLI.run(["bench"])
        #expect(result.status != 0)
        #expect(try !CLI.read(CLI.goldenFolder.appendingPathComponent("help.txt")).contains("bench"))
    }
}
