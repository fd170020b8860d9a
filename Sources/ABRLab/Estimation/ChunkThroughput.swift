/// dash.js's low-latency throughput of a chunked download: the mean of per-chunk throughputs,
/// each chunk's bits over the time from its first to its last byte, so time the transfer spent
/// waiting for the encoder never lowers it.
///
/// Follows `calculateThroughputByChunkData` in dash.js 4.x `src/streaming/net/FetchLoader.js`
/// (the `abr.fetchThroughputCalculationMode` "moof parsing" default): chunks that took at most
/// 1 ms are pooled with their successors until the pooled span exceeds 1 ms (the chunk that
/// closes a pool counts in its span but, as in dash.js, not in its bytes).
public enum ChunkThroughput {
    /// The throughput in kbps (bits per millisecond), or `nil` when no chunk or pool took over 1 ms.
    public static func kbps(_ chunks: [ChunkRecord]) -> Double? {
        var sum = 0.0
        var count = 0
        var pooledBytes = 0.0
        var poolStartMs: Double?
        for chunk in chunks {
            let startMs = chunk.firstByteSeconds * 1000
            let endMs = chunk.arrivalSeconds * 1000
            let bytes = Double(chunk.sizeBytes)
            if endMs - startMs > 1 {
                sum += 8 * bytes / (endMs - startMs)
                count += 1
                continue
            }
            let poolStart = poolStartMs ?? startMs
            if endMs - poolStart > 1 {
                sum += 8 * pooledBytes / (endMs - poolStart)
                count += 1
                pooledBytes = 0
                poolStartMs = nil
            } else {
                poolStartMs = poolStart
                pooledBytes += bytes
            }
        }
        return count > 0 ? sum / Double(count) : nil
    }
}
