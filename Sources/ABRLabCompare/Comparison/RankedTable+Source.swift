import ABRLab
import ABRLabResults
import Foundation

extension RankedTable {
    /// What a table's numbers come from: its first line names them, so a table pasted apart from
    /// its command still says which profile, QoE model, video and traces made it.
    public struct Source: Sendable, Equatable {
        /// What a table says of its video: how it was given, and its shape, so two encodes that
        /// share a file name (`manifest.mpd`) still read apart.
        public struct Video: Sendable, Equatable {
            /// The video as given (`Traces/video.json`, `enc/4s/manifest.mpd`, `pensieve/video`).
            public let spec: String
            public let ladderKbps: [Double]
            public let segmentCount: Int
            public let segmentDurationSeconds: Double
            /// Segments each session plays; nil where a live session plays as long as its trace.
            public let segmentsPlayed: Int?

            public init(spec: String, ladderKbps: [Double], segmentCount: Int, segmentDurationSeconds: Double, segmentsPlayed: Int?) {
                self.spec = spec
                self.ladderKbps = ladderKbps
                self.segmentCount = segmentCount
                self.segmentDurationSeconds = segmentDurationSeconds
                self.segmentsPlayed = segmentsPlayed
            }

            /// `Traces/video.json (6 levels 300–4300 kbps, 48 segments of 4 s, 48 played)`.
            func text(spec: String) -> String {
                let range = ladderKbps.count > 1
                    ? "\(NumberText.plain(ladderKbps[0]))–\(NumberText.plain(ladderKbps[ladderKbps.count - 1])) kbps"
                    : ladderKbps.first.map { "\(NumberText.plain($0)) kbps" } ?? "-"
                let levels = ladderKbps.count == 1 ? "1 level" : "\(ladderKbps.count) levels"
                let played = segmentsPlayed.map { ", \($0) played" } ?? ", repeated live"
                return "\(spec) (\(levels) \(range), \(segmentCount) segments of \(NumberText.plain(segmentDurationSeconds)) s\(played))"
            }
        }

        public let profile: String
        public let qoe: String
        public let video: Video
        /// The trace sets as named (`Traces/3g`, `pensieve/test`), or the shipped default's path.
        public let traces: [String]

        public init(profile: String, qoe: String, video: Video, traces: [String]) {
            self.profile = profile
            self.qoe = qoe
            self.video = video
            self.traces = traces
        }

        /// The source a `run.json` records (a merged run's table); nil when it records none. Only
        /// the members it needs are decoded: a grid's run.json runs to millions of lines.
        public init?(manifest text: String) {
            func member(_ key: String, indent: Int) -> Any? {
                let pad = String(repeating: " ", count: indent)
                guard let key = text.range(of: "\n\(pad)\"\(key)\" : ") else { return nil }
                let rest = text[key.upperBound...]
                let end: String.Index?
                switch rest.first {
                case "{": end = rest.range(of: "\n\(pad)}")?.upperBound
                case "[": end = rest.range(of: "\n\(pad)]")?.upperBound
                default: end = rest.firstIndex(where: { $0 == "," || $0 == "\n" })
                }
                return try? JSONSerialization.jsonObject(with: Data(rest[..<(end ?? rest.endIndex)].utf8), options: .fragmentsAllowed)
            }
            guard let profile = (member("profile", indent: 2) as? [String: Any])?["name"] as? String,
                  let qoe = member("qoe", indent: 2) as? String,
                  let video = member("video", indent: 4) as? [String: Any],
                  let spec = video["spec"] as? String,
                  let ladder = video["bitrates_kbps"] as? [NSNumber],
                  let segments = (video["segment_count"] as? NSNumber)?.intValue,
                  let duration = (video["segment_duration_s"] as? NSNumber)?.doubleValue else { return nil }
            self.init(
                profile: profile, qoe: qoe,
                video: Video(
                    spec: spec, ladderKbps: ladder.map(\.doubleValue), segmentCount: segments, segmentDurationSeconds: duration,
                    segmentsPlayed: (member("segments_played", indent: 2) as? NSNumber)?.intValue
                ),
                traces: (member("settings", indent: 2) as? [String: Any])?["traces"] as? [String] ?? []
            )
        }

        var line: String {
            // As given; a path the run resolved (the shipped default) by its last two parts.
            func shown(_ path: String) -> String {
                path.hasPrefix("/") ? URL(fileURLWithPath: path).pathComponents.suffix(2).joined(separator: "/") : path
            }
            let names = traces.map(shown)
            return "profile \(profile), QoE \(qoe), video \(video.text(spec: shown(video.spec))), traces \(names.isEmpty ? "-" : names.joined(separator: " "))\n"
        }

        /// What the columns hold, below the table: a table pasted alone still says what its
        /// percentages are of and what scale its QoE is on.
        func legend(live: Bool, grouped: Bool) -> String {
            "columns, each a mean over sessions (docs/output.md): QoE = session total of \(qoe) per-segment scores (docs/qoe.md); "
                + "bitrate kbps = of the segments played; rebuffer % = stall time / (stall + media time); switches = level changes; startup s = wait before playback"
                + (live ? "; latency s = live latency; rate dev = |1 − playback rate|" : "")
                + (grouped ? "; jain = Jain's index of a group's bitrates; util % = share of the link's capacity used" : "")
                + "\n"
        }
    }

    /// A note when the 95 % intervals of the top places overlap the first place's: the traces are
    /// too few to tell those strategies apart, whatever order the means give.
    public static func overlapNote(_ ranking: Ranking) -> String? {
        guard ranking.ranked.count >= 2 else { return nil }
        let first = ranking.ranked[0].qoeTotalInterval
        let overlapping = ranking.ranked.dropFirst().prefix { $0.qoeTotalInterval.lower <= first.upper && $0.qoeTotalInterval.upper >= first.lower }
        guard !overlapping.isEmpty else { return nil }
        let places = overlapping.count + 1
        return "note: the 95 % intervals of the top \(places) places overlap the first's: \(ranking.comparedTraceCount) traces are too few to rank them apart (a paired comparison, --baseline, may still tell them apart)"
    }
}
