import ABRLab
import CLuaShim

extension LuaSession {
    /// Lays `info` out for the shim: the ladder, every segment size (copied once per session
    /// for ctx.size_bytes), names and the effective params.
    static func withSessionInfo(
        _ info: SessionInfo, script: LuaScript, _ body: (UnsafePointer<abrl_session_info>) -> Int32
    ) -> Int32 {
        let video = info.video
        let levelsKbps = video.ladder.map(\.bitrateKbps)
        let levelsBps = video.ladder.map { Int64($0.bitrate) }
        var sizes: [Int64] = []
        sizes.reserveCapacity(video.segmentCount * video.levelCount)
        for segment in 0..<video.segmentCount {
            for level in 0..<video.levelCount {
                sizes.append(Int64(video.sizeBytes(segment: segment, level: level)))
            }
        }
        let packed = script.packedParams
        var host = script.resources.host
        return levelsKbps.withUnsafeBufferPointer { kbps in
            levelsBps.withUnsafeBufferPointer { bps in
                sizes.withUnsafeBufferPointer { sizes in
                    info.traceName.withCString { trace in
                        info.profileName.withCString { profile in
                            packed.text.withUnsafeBufferPointer { text in
                                packed.records.withUnsafeBufferPointer { records in
                                    var cInfo = abrl_session_info(
                                        segment_count: Int64(info.segmentCount),
                                        level_count: Int64(video.levelCount),
                                        size_segment_count: Int64(video.segmentCount),
                                        seed: Int64(bitPattern: info.seed),
                                        segment_duration_s: video.segmentDurationSeconds,
                                        max_buffer_s: info.maxBufferSeconds,
                                        levels_kbps: kbps.baseAddress,
                                        levels_bps: bps.baseAddress,
                                        sizes_bytes: sizes.baseAddress,
                                        trace: trace,
                                        trace_length: info.traceName.utf8.count,
                                        profile: profile,
                                        profile_length: info.profileName.utf8.count,
                                        param_text: text.baseAddress,
                                        params: records.baseAddress,
                                        param_count: records.count,
                                        form: script.form == .questions ? Int32(ABRL_FORM_SEED) : Int32(ABRL_FORM_SESSION),
                                        host: nil,
                                        quality: nil,
                                        target_latency_s: info.live?.targetLatencySeconds ?? .nan,
                                        chunk_duration_s: info.live?.chunkDuration(segmentSeconds: video.segmentDurationSeconds) ?? .nan
                                    )
                                    return withUnsafePointer(to: &host) { host in
                                        cInfo.host = host
                                        return withQuality(of: video) { quality in
                                            cInfo.quality = quality
                                            return body(&cInfo)
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
