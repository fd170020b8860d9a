import ABRLab
import Foundation

extension RankedTable {
    /// What a table's numbers come from: its first line names them, so a table pasted apart from
    /// its command still says which profile, QoE model, video and traces made it.
    public struct Source: Sendable, Equatable {
        public let profile: String
        public let qoe: String
        public let video: String
        /// The trace sets as named (`Traces/3g`, `pensieve/test`), or the shipped default's path.
        public let traces: [String]

        public init(profile: String, qoe: String, video: String, traces: [String]) {
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
                  let video = (member("video", indent: 4) as? [String: Any])?["name"] as? String else { return nil }
            self.init(profile: profile, qoe: qoe, video: video, traces: (member("settings", indent: 2) as? [String: Any])?["traces"] as? [String] ?? [])
        }

        var line: String {
            // As given; a path the run resolved (the shipped default) by its last two parts.
            let names = traces.map { $0.hasPrefix("/") ? URL(fileURLWithPath: $0).pathComponents.suffix(2).joined(separator: "/") : $0 }
            return "profile \(profile), QoE \(qoe), video \(video), traces \(names.isEmpty ? "-" : names.joined(separator: " "))\n"
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
