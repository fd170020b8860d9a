// The browser under dash.js 5.1.1 on the `live` profile: a low-latency live stream (MPD `type="dynamic"`,
// `availabilityTimeComplete="false"`), what its records add to the on-demand ones (spec C.1, C.2, D, E.2, G.8).
// - The session header says `isDynamic` and `lowLatencyMode` (InsufficientBufferRule off, catch-up on by default;
//   PlaybackController.js:836-848, MediaPlayerModel.js:177-183) and the `liveDelay`, the target latency
//   (MediaPlayerModel.getBufferTimeDefault = min(bufferTimeDefault, liveDelay), MediaPlayerModel.js:226-231).
// - Each quality and catch-up record carries the player's `currentLiveLatency` (PlaybackController.getCurrentLiveLatency:
//   seconds to 3 decimals, at least 0), `playbackRate` and `time` (the playhead's media time).
// - A segment comes over the fetch loader (`fileLoaderType` "fetch_loader"), whose MOOF_PARSING mode reports one
//   progress trace at the end with `d` = bytes·8 / the mean chunk throughput (FetchLoader.js `_calculateThroughputByChunkData`):
//   the live engine's chunk measure (ChunkThroughput, the download's `throughputKbps`), so ThroughputModel's fetch
//   path (ThroughputModel.js:161-179) samples exactly that throughput. No Resource Timing entry is used there.
// - A timeupdate (every 250 ms of playback) is a BufferLevel metric of the engine's buffer, then the catch-up record
//   (PLAYBACK_TIME_UPDATED, CatchupController.js:180-243).
// - A seek to the live edge that catch-up asked for (`seekToCurrentLive`) is played by the engine when the segment
//   under way has arrived: PLAYBACK_SEEKING and PLAYBACK_SEEKED then, after that segment's events.

extension DashJSBrowser {
    /// `PlaybackController.getCurrentLiveLatency`: `Math.max(parseFloat(latency.toFixed(3)), 0)`, seconds.
    static func liveLatency(_ seconds: Double) -> Double { max((seconds * 1000).rounded() / 1000, 0) }

    /// Adds the live player's state to a record (the harness keeps each until changed; every live record says it).
    static func addLive(_ built: inout Built, latencySeconds: Double, playbackRate: Double, timeSeconds: Double) {
        let latency = liveLatency(latencySeconds)
        built.record.currentLiveLatencySeconds = read(latency)
        built.record.playbackRate = read(playbackRate)
        built.record.timeSeconds = read(timeSeconds)
        built.members?.append(contentsOf: [("currentLiveLatency", .number(latency)), ("playbackRate", .number(playbackRate)),
                                           ("time", .number(timeSeconds))])
    }

    /// A live segment delivered at `endSeconds` over the fetch loader: its HttpList entry with the one MOOF_PARSING
    /// trace, MEDIA_FRAGMENT_LOADED, the append, the seek to the live edge at media time `seekSeconds` when the
    /// engine made one then, and the new level (spec E.3's order).
    mutating func downloadedLive(_ record: DownloadRecord, representationId: String, endSeconds: Double, bufferSeconds: Double,
                                 seekSeconds: Double? = nil) {
        let endMs = Self.dateMs(endSeconds)
        let index = Double(record.segmentIndex)
        let segmentSeconds = self.segmentSeconds
        let startSeconds = endSeconds - record.downloadTimeSeconds
        let startMs = Self.dateMs(startSeconds)
        let firstByteMs = Self.dateMs(startSeconds + record.latencySeconds)
        let sizeBytes = Double(record.sizeBytes)
        // FetchLoader: `calculatedTime = bytesReceived * 8 / calculatedThroughput` (kbit/s = bits/ms), not rounded.
        let durationMs = sizeBytes * 8 / record.throughputKbps
        let url = "segment-\(record.segmentIndex)-\(representationId).m4s"
        let readStartMs = Self.read(startMs) ?? .nan
        let trace = DashJSHTTPRequest.Trace(durationMs: Self.read(durationMs) ?? .nan, bytes: Self.read(sizeBytes) ?? .nan)
        let request = DashJSHTTPRequest(startMs: readStartMs, firstByteMs: Self.read(firstByteMs) ?? readStartMs,
                                        endMs: Self.read(endMs) ?? .nan, traces: [trace], resourceTiming: nil,
                                        isFetchLoader: true, isMediaSegment: true, url: url)
        add(.httpRequest(request, representationId: representationId, atMs: Self.read(endMs)), Self.httpRequestMembers(
            request: request, startMs: startMs, firstByteMs: firstByteMs, endMs: endMs,
            traces: .array([.object([("s", .number(startMs)), ("d", .number(durationMs)), ("b", .number(sizeBytes))])]),
            resourceTiming: .null, index: index, segmentSeconds: segmentSeconds, representationId: representationId))
        fragmentAppended(index: index, representationId: representationId, endMs: endMs)
        if let seekSeconds {
            add(.seeking(atMs: Self.read(endMs)),
                .object([("e", .string("seeking")), ("seekTime", .number(seekSeconds)), ("atMs", .number(endMs))]))
            add(.seeked(atMs: Self.read(endMs)), .object([("e", .string("seeked")), ("atMs", .number(endMs))]))
        }
        bufferLevel(bufferSeconds, atSeconds: endSeconds)
    }

    /// The catch-up record of a timeupdate at session time `seconds`: the BufferLevel metric of the engine's buffer
    /// then (the level `playbackController.getBufferLevel()` reads), and PLAYBACK_TIME_UPDATED.
    mutating func catchupRecord(atSeconds seconds: Double, bufferSeconds: Double, currentId: String) -> Built {
        bufferLevel(bufferSeconds, atSeconds: seconds)
        return record(kind: .catchup, atSeconds: seconds, currentId: currentId)
    }
}
