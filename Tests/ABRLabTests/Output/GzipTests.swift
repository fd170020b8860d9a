import ABRLab
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

    /// libdeflate's members are standard gzip: zlib reads them back, over 1.6 MB of rows that
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
