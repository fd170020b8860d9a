import ABRLab
@testable import ABRLabResults
import Foundation
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct JournaledFileTests {
    /// Chunks of whole lines: `sizes` lines each, some long enough to need several blocks.
    static func batches(_ sizes: [Int], seed: UInt64) -> [[UInt8]] {
        var generator = SeededGenerator(seed: seed)
        return sizes.enumerated().map { batch, lines in
            (0..<lines).flatMap { Array("s\(batch),t\(batch),\($0),\(Double(generator.next() % 1_000_000) / 7)\n".utf8) }
        }
    }

    /// The blocks a batch is cut into: each ends at the first line end at or past the block size.
    static func expectedBlocks(of batch: [UInt8], _ compression: FileCompression) -> [[UInt8]] {
        var blocks: [[UInt8]] = []
        var start = 0
        while batch.count - start >= compression.blockBytes,
              let end = batch[(start + compression.blockBytes - 1)...].firstIndex(of: UInt8(ascii: "\n")) {
            blocks.append(Array(batch[start...end]))
            start = end + 1
        }
        if start < batch.count { blocks.append(Array(batch[start...])) }
        return blocks
    }

    /// Writes `batches` in parts of whole lines, `linesPerPart` at a time, with a helper thread
    /// compressing blocks while they are written; returns the file's bytes and each batch's
    /// length in the file.
    static func write(
        _ batches: [[UInt8]], compression: FileCompression, linesPerPart: Int, helper: Bool, in folder: URL
    ) throws -> (bytes: [UInt8], chunkLengths: [UInt64]) {
        let queue = CompressionQueue()
        let url = folder.appendingPathComponent("segments-\(linesPerPart)-\(helper)")
        let file = try JournaledFile(creating: url, name: "segments", encoding: .compressed(compression, queue), header: "a,b\n")
        let stop = ManagedAtomicFlag()
        let helping = Thread {
            while !stop.isSet {
                queue.compressWaiting()
                usleep(200)
            }
        }
        if helper { helping.start() }
        defer { stop.set() }
        var lengths: [UInt64] = []
        try file.sync()
        for batch in batches {
            let before = file.length
            var lines = batch.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast().map { Array($0) + [10] }[...]
            while !lines.isEmpty {
                try file.append(part: lines.prefix(linesPerPart).flatMap { $0 })
                lines = lines.dropFirst(linesPerPart)
            }
            try file.endBatch()
            try file.sync()
            lengths.append(file.length - before)
        }
        let bytes = [UInt8](try Data(contentsOf: url))
        #expect(UInt64(bytes.count) == file.length)
        #expect(Gzip.crc32(bytes) == file.crc)
        return (bytes, lengths)
    }

    /// A compressed file is the header's block, then each batch's blocks: cut at the first line
    /// end past the format's block size and never across batches, whatever the parts the rows
    /// came in and whichever thread compressed them; a batch with no rows writes nothing.
    @Test(arguments: FileCompression.allCases)
    func chunksAreCutIntoTheSameBlocksHoweverTheyAreWritten(compression: FileCompression) throws {
        let folder = try FixtureDirectory()
        let batches = Self.batches([3, 0, 60_000, 1, 35_000], seed: 3)
        let expected = [compression.block(Array("a,b\n".utf8))] + batches.map { Self.expectedBlocks(of: $0, compression).flatMap(compression.block) }
        #expect(Self.expectedBlocks(of: batches[2], compression).count >= 2, "the test needs a batch of several blocks")
        for (linesPerPart, helper) in [(1, false), (700, true), (1_000_000, false)] {
            let written = try Self.write(batches, compression: compression, linesPerPart: linesPerPart, helper: helper, in: folder.url)
            #expect(written.bytes == expected.flatMap { $0 }, "\(linesPerPart) lines a part, helper \(helper)")
            #expect(written.chunkLengths == expected.dropFirst().map { UInt64($0.count) })
            #expect(compression.decompress(written.bytes) == Array("a,b\n".utf8) + batches.flatMap { $0 })
        }
    }

    /// With no worker compressing, a batch of many times the pending bound still holds at most
    /// that many bytes of rows waiting: the writer compresses the oldest blocks itself, in order.
    @Test(arguments: FileCompression.allCases)
    func rowsWaitingForTheirBlocksStayBoundedWhenNoWorkerHelps(compression: FileCompression) throws {
        let folder = try FixtureDirectory()
        let batch = Self.batches([700_000], seed: 5)[0]
        #expect(batch.count > 2 * JournaledFile.maximumPendingBytes)
        let url = folder.url.appendingPathComponent("segments")
        let file = try JournaledFile(creating: url, name: "segments", encoding: .compressed(compression, CompressionQueue()), header: "a,b\n")
        var most = 0
        var start = 0
        while start < batch.count {
            let end = batch[min(batch.count - 1, start + 100_000)...].firstIndex(of: UInt8(ascii: "\n"))!
            try file.append(part: Array(batch[start...end]))
            most = max(most, file.pendingBytes)
            start = end + 1
        }
        try file.endBatch()
        try file.sync()
        #expect(most > 0 && most <= JournaledFile.maximumPendingBytes, "\(most) bytes waited")
        let expected = [compression.block(Array("a,b\n".utf8))] + Self.expectedBlocks(of: batch, compression).map(compression.block)
        #expect([UInt8](try Data(contentsOf: url)) == expected.flatMap { $0 })
    }
}

/// A flag one thread sets and another polls.
private final class ManagedAtomicFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
