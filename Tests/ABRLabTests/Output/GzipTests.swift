import ABRLab
import Testing

@Suite struct GzipTests {
    @Test func aMemberRoundTripsAndDependsOnlyOnItsInput() throws {
        let text = Array(String(repeating: "strategy,trace,1.25,true\n", count: 500).utf8)
        let member = Gzip.member(text)
        #expect(member.count < text.count / 10)
        #expect(Array(member.prefix(4)) == [0x1f, 0x8b, 8, 0], "gzip magic, deflate, no flags")
        #expect(Array(member[4..<8]) == [0, 0, 0, 0], "no timestamp")
        #expect(Gzip.member(text) == member)
        #expect(Gzip.decompress(member) == text)
    }

    @Test func concatenatedMembersReadAsOneFile() {
        let parts = [Array("a,b\n".utf8), [], Array("1,2\n3,4\n".utf8)]
        #expect(Gzip.decompress(parts.flatMap(Gzip.member)) == parts.flatMap { $0 })
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
