import ABRLab

/// How a Representation addresses its segments (ISO/IEC 23009-1 §5.3.9), after inheritance: a
/// `SegmentList`, `SegmentBase` or `SegmentTemplate` at the Period, Adaptation Set and
/// Representation levels merge, the lower level's attributes winning.
enum MPDSegmentAddressing: Equatable, Sendable {
    case list(List)
    case base(Base)
    case template(Template)

    /// `SegmentURL`s, each a media file (nil: the Representation's BaseURL) and a byte range
    /// (nil: the whole file).
    struct List: Equatable, Sendable {
        struct Entry: Equatable, Sendable {
            let media: String?
            let range: MPDByteRange?
            let line: Int
        }

        let entries: [Entry]
        let timescale: Int
        let timing: MPDSegmentTiming
        let line: Int
    }

    /// One media file indexed by its `sidx` box, at `indexRange` (nil: found among the file's
    /// top-level boxes).
    struct Base: Equatable, Sendable {
        let indexRange: MPDByteRange?
        let line: Int
    }

    /// One file per segment, named by expanding `media`.
    struct Template: Equatable, Sendable {
        let media: MPDURLTemplate
        let timescale: Int
        let timing: MPDSegmentTiming
        let startNumber: Int
        let presentationTimeOffsetTicks: Int
        let line: Int
    }

    /// The addressing of the Representation at the end of `chain` (Period, Adaptation Set,
    /// Representation); nil when no level has any. A `SegmentList` wins over a `SegmentBase`,
    /// which wins over a `SegmentTemplate`.
    static func resolve(_ chain: [XMLElementNode], file: String) throws(InputError) -> MPDSegmentAddressing? {
        if let merged = merge(chain, "SegmentList", file: file) {
            let urls = chain.compactMap { $0.child(named: "SegmentList") }.last { !$0.children(named: "SegmentURL").isEmpty }
            var entries: [List.Entry] = []
            for url in urls?.children(named: "SegmentURL") ?? [] {
                let attributes = MPDAttributes(url, file: file)
                entries.append(List.Entry(media: attributes.string("media"), range: try attributes.byteRange("mediaRange"), line: url.line))
            }
            guard !entries.isEmpty else { throw merged.attributes.error("lists no SegmentURL; the Representation has no segments") }
            let timing = try self.timing(merged, kind: "SegmentList", file: file)
            return .list(List(entries: entries, timescale: try timescale(merged.attributes), timing: timing, line: merged.attributes.element.line))
        }
        if let merged = merge(chain, "SegmentBase", file: file) {
            return .base(Base(indexRange: try merged.attributes.byteRange("indexRange"), line: merged.attributes.element.line))
        }
        if let merged = merge(chain, "SegmentTemplate", file: file) {
            let attributes = merged.attributes
            guard let mediaText = attributes.string("media") else {
                throw attributes.error("has no @media; abrlab needs it to find the segment files")
            }
            let media: MPDURLTemplate
            switch MPDURLTemplate.parse(mediaText) {
            case .success(let parsed): media = parsed
            case .failure(let failure): throw attributes.error("media=\"\(InputError.excerpt(mediaText))\" \(failure.message)")
            }
            if media.uses(.time), case .duration = try timing(merged, kind: "SegmentTemplate", file: file) {
                throw attributes.error("media uses $Time$, which needs a SegmentTimeline")
            }
            return .template(Template(
                media: media, timescale: try timescale(attributes), timing: try timing(merged, kind: "SegmentTemplate", file: file),
                startNumber: try attributes.unsigned("startNumber", maximum: Int(UInt32.max)) ?? 1,
                presentationTimeOffsetTicks: try attributes.unsigned("presentationTimeOffset", maximum: 1 << 53) ?? 0,
                line: attributes.element.line
            ))
        }
        return nil
    }

    /// The element `kind` as the chain's levels merge it, and the most specific `SegmentTimeline`.
    private struct Merged {
        let attributes: MPDAttributes
        let timeline: XMLElementNode?
    }

    private static func merge(_ chain: [XMLElementNode], _ kind: String, file: String) -> Merged? {
        let levels = chain.compactMap { $0.child(named: kind) }
        guard let last = levels.last else { return nil }
        var attributes: [String: String] = [:]
        for level in levels { attributes.merge(level.attributes) { $1 } }
        let element = XMLElementNode(name: kind, attributes: attributes, children: [], text: "", line: last.line)
        let timeline = levels.compactMap { $0.child(named: "SegmentTimeline") }.last
        return Merged(attributes: MPDAttributes(element, file: file), timeline: timeline)
    }

    private static func timescale(_ attributes: MPDAttributes) throws(InputError) -> Int {
        try attributes.positive("timescale", maximum: Int(UInt32.max)) ?? 1
    }

    private static func timing(_ merged: Merged, kind: String, file: String) throws(InputError) -> MPDSegmentTiming {
        if let timeline = merged.timeline {
            var entries: [MPDSegmentTiming.Entry] = []
            for element in timeline.children(named: "S") {
                let s = MPDAttributes(element, file: file)
                guard let duration = try s.positive("d", maximum: 1 << 40) else { throw s.error("has no @d") }
                let repeats = try s.integer("r") ?? 0
                guard repeats >= -1 else { throw s.error("r=\"\(repeats)\"; a repeat count is -1 or more") }
                entries.append(MPDSegmentTiming.Entry(
                    startTicks: try s.unsigned("t", maximum: 1 << 53), durationTicks: duration, repeatCount: repeats, line: element.line
                ))
            }
            return .timeline(entries)
        }
        guard let duration = try merged.attributes.positive("duration", maximum: 1 << 40) else {
            throw merged.attributes.error("has neither @duration nor a SegmentTimeline, so its segments have no duration")
        }
        return .duration(ticks: duration)
    }
}
