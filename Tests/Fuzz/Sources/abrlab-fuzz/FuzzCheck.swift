import ABRLab

/// Properties every parser keeps on any input, checked after each call.
enum FuzzCheck {
    /// Bad input gets one clear line naming the file: the error is for `file` and has no line break.
    /// An error about a folder may name a file in it.
    static func rejection(_ error: InputError, file: String, orInside: Bool = false) {
        let named = error.file == file || (orInside && error.file.hasPrefix(file + "/"))
        expect(named, "error names '\(error.file)' instead of '\(file)': \(error)")
        expect(!error.description.contains(where: \.isNewline), "error spans several lines: \(error)")
        expect(error.line.map { $0 >= 1 } ?? true, "error has line \(error.line ?? 0): \(error)")
    }

    /// A trace that loads is one the emulator can play.
    static func trace(_ trace: NetworkTrace) {
        expect(!trace.periodEndSeconds.isEmpty, "trace has no periods")
        var previous = 0.0
        for end in trace.periodEndSeconds {
            expect(end.isFinite && end > previous, "period ends are not strictly increasing: \(end) after \(previous)")
            previous = end
        }
        expect(trace.bandwidthBitsPerSecond.allSatisfy { $0.isFinite && $0 >= 0 }, "bandwidth not finite and ≥ 0")
        expect(trace.latencySeconds?.allSatisfy { $0.isFinite && $0 >= 0 } ?? true, "latency not finite and ≥ 0")
    }

    /// Segments whose sizes `video` checks, so a long video costs no more than a short one.
    private static let checkedSegments = 1000

    /// A video that loads has a ladder, segments, and a positive size for every segment and level.
    static func video(_ video: Video) {
        expect(!video.ladder.isEmpty && video.segmentCount > 0, "video has no levels or no segments")
        expect(video.segmentDurationSeconds.isFinite && video.segmentDurationSeconds > 0, "segment duration \(video.segmentDurationSeconds)")
        for segment in 0..<min(video.segmentCount, checkedSegments) {
            for level in video.ladder.indices {
                expect(video.sizeBytes(segment: segment, level: level) > 0, "segment \(segment) level \(level) has no bytes")
            }
        }
    }

    /// Traps with `message` when `condition` fails, so libFuzzer saves the input as a crash.
    static func expect(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
        if !condition() { fatalError("property broken: \(message())") }
    }
}
