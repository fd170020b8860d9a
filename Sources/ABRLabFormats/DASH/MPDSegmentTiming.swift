import ABRLab

/// When a Representation's segments start and how long each lasts, in ticks of its timescale:
/// from a `SegmentTimeline`, or from a nominal `@duration` with the count the Period's length gives.
enum MPDSegmentTiming: Equatable, Sendable {
    case duration(ticks: Int)
    case timeline([Entry])

    /// One `S` element: a start (nil: where the previous one ends), a duration and a repeat count
    /// (-1: up to the next `S` or the end of the Period).
    struct Entry: Equatable, Sendable {
        let startTicks: Int?
        let durationTicks: Int
        let repeatCount: Int
        let line: Int
    }

    /// One segment: its `$Number$`, its `$Time$` and its duration.
    struct Segment: Equatable, Sendable {
        let number: Int
        let startTicks: Int
        let durationTicks: Int
    }

    /// Most segments one Representation may have: a day of 0.1 s segments, far above any
    /// on-demand video, so a hostile repeat count fails at once instead of filling memory.
    static let maximumSegments = 864_000

    /// The segments, numbered from `startNumber`, within a Period of `periodSeconds` (nil when the
    /// MPD gives no length); errors are about `file` at `line`, the element holding the timing.
    func segments(
        timescale: Int, startNumber: Int, presentationTimeOffsetTicks: Int, periodSeconds: Double?, file: String, line: Int
    ) throws(InputError) -> [Segment] {
        let periodTicks = periodSeconds.map { $0 * Double(timescale) }
        switch self {
        case .duration(let ticks):
            guard let periodTicks else {
                throw InputError(file: file, line: line, "segments have a @duration but the MPD gives neither Period@duration nor mediaPresentationDuration to count them")
            }
            let exact = periodTicks / Double(ticks)
            // Within a millionth of a segment counts as whole: durations are written rounded.
            let count = (exact - 1e-6).rounded(.up)
            guard count >= 1 else { throw InputError(file: file, line: line, "the Period is too short for one segment") }
            guard count <= Double(Self.maximumSegments) else { throw tooMany(file: file, line: line) }
            let whole = Int(count)
            let lastTicks = min(ticks, max(1, Int((periodTicks - Double((whole - 1) * ticks)).rounded())))
            return (0..<whole).map { index in
                Segment(
                    number: startNumber + index, startTicks: presentationTimeOffsetTicks + index * ticks,
                    durationTicks: index == whole - 1 ? lastTicks : ticks
                )
            }
        case .timeline(let entries):
            guard !entries.isEmpty else { throw InputError(file: file, line: line, "the SegmentTimeline has no S elements") }
            var segments: [Segment] = []
            var time = 0
            let periodEnd = periodTicks.map { Double(presentationTimeOffsetTicks) + $0 }
            let seconds = { (ticks: Double) in NumberText.plain((ticks / Double(timescale) * 1000).rounded() / 1000) }
            for (index, entry) in entries.enumerated() {
                let named = "SegmentTimeline S #\(index + 1)" + (entry.startTicks.map { " (t=\"\($0)\")" } ?? "")
                if let start = entry.startTicks {
                    // A timeline that goes back plays media twice; the segments would not be the video's.
                    guard segments.isEmpty || start >= time else {
                        throw InputError(
                            file: file, line: entry.line,
                            "\(named) starts at \(seconds(Double(start))) s, before the previous segment ends at \(seconds(Double(time))) s; a timeline runs forward"
                        )
                    }
                    time = start
                }
                if let periodEnd, Double(time) >= periodEnd {
                    throw InputError(
                        file: file, line: entry.line,
                        "\(named) starts at \(seconds(Double(time))) s, at or past the Period's end at \(seconds(periodEnd)) s; its segments are not in the video"
                    )
                }
                var repeats = entry.repeatCount
                if repeats < 0 {
                    let end: Double
                    if index + 1 < entries.count, let next = entries[index + 1].startTicks {
                        end = Double(next)
                    } else if let periodTicks {
                        end = Double(presentationTimeOffsetTicks) + periodTicks
                    } else {
                        throw InputError(file: file, line: entry.line, "S@r=\"-1\" repeats to the end of the Period, but the MPD gives no Period length")
                    }
                    let count = ((end - Double(time)) / Double(entry.durationTicks) - 1e-6).rounded(.up)
                    guard count < Double(Self.maximumSegments) else { throw tooMany(file: file, line: entry.line) }
                    repeats = max(0, Int(count) - 1)
                }
                guard repeats < Self.maximumSegments - segments.count else { throw tooMany(file: file, line: entry.line) }
                for copy in 0...repeats {
                    if copy > 0, let periodEnd, Double(time) >= periodEnd {
                        throw InputError(
                            file: file, line: entry.line,
                            "\(named) repeats past the Period's end: its segment \(copy + 1) starts at \(seconds(Double(time))) s, and the Period ends at "
                                + "\(seconds(periodEnd)) s; r counts the repeats after the first"
                        )
                    }
                    segments.append(Segment(number: startNumber + segments.count, startTicks: time, durationTicks: entry.durationTicks))
                    let (next, overflow) = time.addingReportingOverflow(entry.durationTicks)
                    guard !overflow else { throw InputError(file: file, line: entry.line, "S times run past \(Int.max)") }
                    time = next
                }
            }
            return segments
        }
    }

    private func tooMany(file: String, line: Int) -> InputError {
        InputError(file: file, line: line, "more than \(Self.maximumSegments) segments in one Representation")
    }
}
