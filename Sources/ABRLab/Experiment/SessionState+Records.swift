/// What the segment-buffer mechanics record: one row per delivered segment, one download record
/// per request, and the session's playback summary.
extension SessionState {
    /// Records a request on the segment buffer. Stall time since the last delivered segment goes
    /// to the next one delivered; abandoned requests add to the wasted bytes of their segment.
    mutating func recordSegmentRequest(
        _ record: DownloadRecord, delivered: Bool, startMs: Double, bufferBeforeMs: Double, wastedBits: Double
    ) {
        var record = record
        pendingRequests += 1
        pendingWastedBytes += wastedBits / 8
        if delivered {
            record.rebufferSeconds = unattributedStallMs / 1000
            let downloadSeconds = record.downloadTimeSeconds
            var row = SegmentRecord(
                index: record.segmentIndex, level: record.level, bitrateKbps: video.ladder[record.level].bitrateKbps,
                sizeBytes: record.sizeBytes, downloadStartSeconds: startMs / 1000, downloadEndSeconds: elapsedMs / 1000,
                downloadTimeSeconds: downloadSeconds, latencySeconds: record.latencySeconds,
                throughputKbps: record.throughputKbps, bufferBeforeSeconds: bufferBeforeMs / 1000,
                bufferAfterSeconds: record.bufferSeconds, rebufferSeconds: unattributedStallMs / 1000, waitSeconds: 0,
                bufferState: BufferState(bufferSeconds: record.bufferSeconds),
                estimateKbps: estimateBitsPerSecond / 1000,
                networkQuality: NetworkQuality(bitsPerSecond: estimateBitsPerSecond)
            )
            row.requests = pendingRequests
            row.wastedBytes = pendingWastedBytes
            segments.append(row)
            unattributedStallMs = 0
            pendingRequests = 0
            pendingWastedBytes = 0
            lastLevel = record.level
        } else if record.isReplacement {
            pendingRequests -= 1
            pendingWastedBytes -= wastedBits / 8
            if record.segmentIndex < segments.count {
                segments[record.segmentIndex].requests += 1
                segments[record.segmentIndex].wastedBytes += wastedBits / 8
            }
        }
        downloads.append(record)
        if !record.abandoned {
            clock.elapsedSeconds = elapsedMs / 1000
            estimator.recordSample(
                bytes: UInt64(record.sizeBytes), duration: record.downloadTimeSeconds,
                at: Date(timeIntervalSinceReferenceDate: elapsedMs / 1000)
            )
            estimateBitsPerSecond = estimator.estimatedBandwidth(at: Date(timeIntervalSinceReferenceDate: elapsedMs / 1000))
            if delivered, var last = segments.popLast() {
                last.estimateKbps = estimateBitsPerSecond / 1000
                last.networkQuality = NetworkQuality(bitsPerSecond: estimateBitsPerSecond)
                segments.append(last)
            }
        }
    }

    /// Scores the estimate held before a request against what the request measured (not for the
    /// first), then adds the sample to the estimator unless it is to be dropped (abandoned requests).
    mutating func sampleThroughput(transferMs: Double, bits: Double, latencyMs: Double, first: Bool, keep: Bool) {
        guard var estimator = throughput else { return }
        throughput = nil
        let sampleKbps = bits / transferMs
        if !first { accuracy.record(estimateKbps: estimator.throughputKbps, sampleKbps: sampleKbps) }
        if keep { estimator.add(transferMs: transferMs, throughputKbps: sampleKbps, latencyMs: latencyMs) }
        throughput = estimator
    }

    /// A replacement overwrote buffered segment `segment`: its row now shows what plays.
    mutating func noteReplacement(segment: Int, from previous: Int, to level: Int) {
        guard segment < segments.count else { return }
        if segments[segment].replacedLevel == nil { segments[segment].replacedLevel = previous }
        segments[segment].level = level
        segments[segment].bitrateKbps = video.ladder[level].bitrateKbps
        segments[segment].sizeBytes = video.sizeBytes(segment: segment, level: level)
    }

    /// The session's playback summary; the segment buffer knows what started playing when, the
    /// level buffer plays segments in download order.
    func playbackSummary(endMs: Double) -> PlaybackSummary {
        var summary = PlaybackSummary(
            sessionSeconds: endMs / 1000, segmentDurationSeconds: video.segmentDurationSeconds,
            rebufferSeconds: rebufferMs / 1000, rebufferEvents: stallCount, accuracy: throughput == nil ? nil : accuracy
        )
        if let buffer = segmentBuffer {
            summary.playedUtility = buffer.played.utility
            summary.playedBitrateKbps = buffer.played.bitrateKbps
            summary.bitrateChangeKbps = buffer.played.bitrateChangeKbps
            summary.logBitrateChange = buffer.played.logBitrateChange
            summary.rampUpSeconds = (buffer.rampUpMs ?? Double(count) * segmentMs) / 1000
            summary.reactionSeconds = buffer.reactions.totalMs / 1000
            summary.rebufferSeconds = buffer.stallMs / 1000
        } else {
            let kbps = video.bitratesKbps
            let utilities = kbps.map { Foundation.log($0) + (0 - Foundation.log(kbps[0])) }
            var previous: Int?
            for segment in segments {
                summary.playedUtility += utilities[segment.level]
                summary.playedBitrateKbps += kbps[segment.level]
                if let previous, previous != segment.level {
                    summary.bitrateChangeKbps += abs(kbps[segment.level] - kbps[previous])
                    summary.logBitrateChange += abs(Foundation.log(kbps[segment.level] / kbps[previous]))
                }
                previous = segment.level
            }
        }
        return summary
    }
}

import Foundation
