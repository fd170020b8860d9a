import ABRLab
import ABRLabResults
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct ZstdTests {
    @Test func aFrameRoundTripsAndDependsOnlyOnItsInput() {
        let text = Array(String(repeating: "strategy,trace,1.25,true\n", count: 500).utf8)
        let frame = Zstd.frame(text)
        #expect(frame.count < text.count / 10)
        #expect(Array(frame.prefix(4)) == [0x28, 0xB5, 0x2F, 0xFD], "Zstandard magic number")
        #expect(Zstd.frame(text) == frame)
        #expect(Zstd.decompress(frame) == text)
    }

    /// Frames concatenate into one file, as a compressed data file's blocks do; an empty frame
    /// and an empty file read as nothing.
    @Test func concatenatedFramesReadAsOneFile() {
        let parts = [Array("a,b\n".utf8), [], Array("1,2\n3,4\n".utf8), Array(String(repeating: "5,6\n", count: 100_000).utf8)]
        #expect(Zstd.decompress(parts.flatMap { Zstd.frame($0) }) == parts.flatMap { $0 })
        #expect(Zstd.decompress(Zstd.frame([])) == [])
        #expect(Zstd.decompress([]) == [])
    }

    /// Every frame carries a checksum of its content: a flipped bit in the data or a file cut
    /// short is an error, never other rows.
    @Test func damagedOrTruncatedBytesAreNotZstandard() {
        var generator = SeededGenerator(seed: 5)
        let text = (0..<2_000).flatMap { Array("row \($0),\(generator.next() % 1_000)\n".utf8) }
        let frame = Zstd.frame(text)
        var damaged = frame
        damaged[damaged.count / 2] ^= 0x10
        #expect(Zstd.decompress(damaged) == nil)
        #expect(Zstd.decompress(Array(frame.dropLast(3))) == nil)
        #expect(Zstd.decompress(frame + Array(frame.prefix(10))) == nil)
        #expect(Zstd.decompress([1, 2, 3]) == nil)
    }
}
