import ABRLab
import ABRLabFormats
import ABRLabResults
import Foundation
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct GzipTests {
    @Test func aMemberRoundTripsAndDependsOnlyOnItsInput() throws {
        let text = Array(String(repeating: "strategy,trace,1.25,true\n", count: 500).utf8)
        let member = Gzip.member(text)
        #expect(member.count < text.count / 10)
        #expect(Array(member.prefix(4)) == [0x1f, 0x8b, 8, 0], "gzip magic, deflate, no flags")
        #expect(Array(member[4..<8]) == [0, 0, 0, 0], "no timestamp")
        #expect(Gzip.member(text) == member)
        #expect(Gzip.decompress(member) == text)
    }

    /// Members are standard gzip: zlib reads them back, over 1.6 MB of rows that
    /// span many deflate blocks and windows, and the same rows always give the same bytes.
    @Test(arguments: [UInt64(1), 2, 3])
    func aLargeMemberIsStandardGzipAndDependsOnlyOnItsInput(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var text: [UInt8] = []
        for row in 0..<40_000 {
            text += Array("bola[gp=\(row % 97)],trace_\(row % 13).csv,\(row),\(Double(generator.next() % 100_000) / 7)\n".utf8)
        }
        let member = Gzip.member(text)
        #expect(member.count < text.count / 2)
        #expect(Gzip.decompress(member) == text)
        #expect(Gzip.member(text) == member)
        #expect(Gzip.decompress(Gzip.member([])) == [])
    }

    /// Inputs the rows encoder meets at its edges: empty, shorter than a hash, runs of one
    /// separator, random bytes (stored), repeats farther back than deflate's 32 KiB window,
    /// matches longer than deflate's 258 bytes, and each size around a stored block's 65,535.
    @Test(arguments: RowsInput.allCases, [0, 1, 3, 5, 6, 7, 100, 258, 259, 32_768, 32_769, 65_535, 65_536, 140_000])
    func everyInputReadsBackAndDependsOnlyOnItself(kind: RowsInput, size: Int) {
        let input = kind.bytes(count: size)
        let member = Gzip.member(input)
        #expect(Gzip.decompress(member) == input)
        #expect(Gzip.member(input) == member)
        #expect(member.count <= input.count + 5 * (input.count / 65_535 + 1) + 18, "more than stored blocks would take")
    }

    /// On segment rows of the shipped `Traces/default` set (three native strategies, cut into the
    /// blocks a run makes) the encoder writes fewer bytes than libdeflate's level 1 and about as
    /// few as its level 2, the two it replaced.
    @Test func segmentRowsCompressAsWellAsLibdeflate() throws {
        let folder = PackageRoot.file("Traces/default")
        let traces = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".csv") }.sorted().map {
            try TraceLoader.load(folder.appendingPathComponent($0)).trace
        }
        let plan = ExperimentPlan(
            strategies: [.conservative, .bufferBased, .robustMPC], traces: traces, video: try VideoLoader.load(PackageRoot.file("Traces/video.json").path),
            emulator: SessionEmulator(profile: .default), qoe: .linear, seed: 1
        )
        var rows = (0..<plan.sessionCount).flatMap {
            Array(SessionCSV(outcome: plan.runSession(index: $0), profile: "default", qoeModel: "linear").segmentLines.utf8)
        }[...]
        var blocks: [[UInt8]] = []
        while let end = FileCompression.gzip.blockEnd(in: rows, filled: 0) {
            blocks.append(Array(rows[...end]))
            rows = rows[(end + 1)...]
        }
        blocks.append(Array(rows))
        let encoded = blocks.reduce(0) { $0 + Gzip.member($1).count }
        #expect(encoded < blocks.reduce(0) { $0 + Gzip.libdeflateMember($1, level: 1).count })
        #expect(Double(encoded) < 1.02 * Double(blocks.reduce(0) { $0 + Gzip.libdeflateMember($1, level: 2).count }))
        #expect(blocks.allSatisfy { Gzip.decompress(Gzip.member($0)) == $0 })
    }

    @Test func concatenatedMembersReadAsOneFile() {
        let parts = [Array("a,b\n".utf8), [], Array("1,2\n3,4\n".utf8)]
        #expect(Gzip.decompress(parts.flatMap { Gzip.member($0) }) == parts.flatMap { $0 })
    }

    @Test func damagedBytesAreNotGzip() {
        var member = Gzip.member(Array("hello\n".utf8))
        member[member.count - 6] ^= 0xff
        #expect(Gzip.decompress(member) == nil)
        #expect(Gzip.decompress([1, 2, 3]) == nil)
    }

    @Test func crc32MatchesTheStandardCheckValue() {
        #expect(Gzip.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(Gzip.crc32(Array("56789".utf8), continuing: Gzip.crc32(Array("1234".utf8))) == 0xCBF4_3926)
    }
}

/// Kinds of input for the rows encoder's edges.
enum RowsInput: String, CaseIterable, CustomTestStringConvertible {
    case random, commas, digitsAndSeparators, farRepeats, longLines

    var testDescription: String { rawValue }

    func bytes(count: Int) -> [UInt8] {
        var generator = SeededGenerator(seed: UInt64(count) + 1)
        let cells = Array("0123456789,\n".utf8)
        let line = Array(String(repeating: "fair,0.23,1,0,", count: 40).utf8) + [UInt8(ascii: "\n")]
        return (0..<count).map { index in
            switch self {
            case .random: UInt8(truncatingIfNeeded: generator.next())
            case .commas: UInt8(ascii: ",")
            case .digitsAndSeparators: cells[Int(generator.next() % UInt64(cells.count))]
            // A 20,000-byte stretch of rows, then random bytes, then the rows again, 40,000
            // bytes after: some repeats are within reach, some past it.
            case .farRepeats: index % 40_000 < 20_000 ? line[index % line.count] : UInt8(truncatingIfNeeded: generator.next())
            case .longLines: line[index % line.count]
            }
        }
    }
}
