import ABRLab
import Testing
import TestSupport

/// dash.js's low-latency throughput: per-chunk throughputs averaged, production gaps left out.
@Suite(.tags(.core), .selectedByTags) struct ChunkThroughputTests {
    static func chunk(_ index: Int, bytes: Int, firstMs: Double, lastMs: Double) -> ChunkRecord {
        ChunkRecord(index: index, sizeBytes: bytes, availableSeconds: firstMs / 1000, firstByteSeconds: firstMs / 1000, arrivalSeconds: lastMs / 1000)
    }

    @Test func gapsBetweenChunksDoNotCount() {
        // 1000 bytes in 10 ms each (800 kbps), 100 ms apart: over the whole span 3000 B / 230 ms ≈ 104 kbps.
        let chunks = [
            Self.chunk(0, bytes: 1000, firstMs: 0, lastMs: 10),
            Self.chunk(1, bytes: 1000, firstMs: 110, lastMs: 120),
            Self.chunk(2, bytes: 1000, firstMs: 220, lastMs: 230),
        ]
        #expect(abs(ChunkThroughput.kbps(chunks)! - 800) < 1e-9)
    }

    @Test func chunksOfAMillisecondOrLessArePooled() {
        // The first two take 0.5 ms each; the pool closes at the second (1.1 ms from the first's
        // first byte) with the first's 100 bytes: 800 / 1.1 kbps. The third: 8000 / 10 = 800.
        let chunks = [
            Self.chunk(0, bytes: 100, firstMs: 0, lastMs: 0.5),
            Self.chunk(1, bytes: 100, firstMs: 0.6, lastMs: 1.1),
            Self.chunk(2, bytes: 1000, firstMs: 5, lastMs: 15),
        ]
        #expect(abs(ChunkThroughput.kbps(chunks)! - (800 / 1.1 + 800) / 2) < 1e-9)
    }

    @Test func noMeasurableChunkGivesNil() {
        #expect(ChunkThroughput.kbps([]) == nil)
        #expect(ChunkThroughput.kbps([Self.chunk(0, bytes: 10, firstMs: 0, lastMs: 0.5)]) == nil)
    }
}
