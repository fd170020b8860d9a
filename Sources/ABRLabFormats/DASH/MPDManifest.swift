import ABRLab
import Foundation

/// What abrlab reads of a static MPD (ISO/IEC 23009-1): its one Period's length and the
/// Representations of its video Adaptation Set, each with where its media lies and how its
/// segments are addressed. Other Adaptation Sets are ignored, with one warning.
struct MPDManifest: Sendable {
    struct Representation: Equatable, Sendable {
        let id: String
        let bandwidthBitsPerSecond: Int
        let heightPixels: Int?
        /// Frames per second (`@frameRate` here or on the Adaptation Set), for hints; nil when
        /// not given or not a rate.
        let frameRate: Double?
        /// Where the Representation's BaseURL chain points.
        let location: MPDLocation
        let addressing: MPDSegmentAddressing
        let line: Int
    }

    /// How long the segments of the first audio Adaptation Set last, and its line: an encoder
    /// cuts audio where asked, so they show what segment duration the video was meant to have.
    struct AudioSegments: Sendable {
        let seconds: Double
        let line: Int
    }

    let representations: [Representation]
    /// The Period's length, when the MPD gives it.
    let periodSeconds: Double?
    let warnings: [InputWarning]
    var audioSegments: AudioSegments? = nil

    /// Highest `@bandwidth` read: 1 Tbit/s, the ladder's own bound.
    static let maximumBandwidth = 1_000_000_000_000

    /// Parses the MPD at `location` from its bytes; `file` names it in errors.
    static func parse(_ data: Data, location: MPDLocation, file: String) throws(InputError) -> MPDManifest {
        let root = try XMLElementNode.parseDocument(data, file: file)
        let mpd = MPDAttributes(root, file: file)
        guard root.name == "MPD" else { throw InputError(file: file, line: root.line, "the root element is \(InputError.excerpt(root.name)), not MPD") }
        let type = mpd.string("type") ?? "static"
        guard type == "static" else {
            if type == "dynamic" { throw mpd.error("type=\"dynamic\" is a live MPD; abrlab reads static (on-demand) MPDs only") }
            throw mpd.error("type=\"\(InputError.excerpt(type))\" is neither static nor dynamic")
        }
        let periods = root.children(named: "Period")
        guard let period = periods.first else { throw mpd.error("has no Period") }
        guard periods.count == 1 else {
            throw InputError(file: file, line: periods[1].line, "a second Period; abrlab reads MPDs of one Period")
        }
        try refuseRemoteElement(period, file: file)
        let periodAttributes = MPDAttributes(period, file: file)
        let periodSeconds: Double?
        if let duration = try periodAttributes.durationSeconds("duration") {
            periodSeconds = duration
        } else if let total = try mpd.durationSeconds("mediaPresentationDuration") {
            periodSeconds = total - (try periodAttributes.durationSeconds("start") ?? 0)
        } else {
            periodSeconds = nil
        }
        var location = location
        for element in [root, period] { location = try baseURL(of: element, against: location, file: file) }

        let (video, ignored) = try videoAdaptationSet(period, file: file)
        var warnings: [InputWarning] = []
        if !ignored.isEmpty {
            warnings.append(InputWarning(
                file: file, line: video.line, "only this video Adaptation Set is emulated; ignored: " + ignored.joined(separator: ", ")
            ))
        }
        try refuseRemoteElement(video, file: file)
        let setLocation = try baseURL(of: video, against: location, file: file)
        var representations: [Representation] = []
        for element in video.children(named: "Representation") {
            let attributes = MPDAttributes(element, file: file)
            guard let bandwidth = try attributes.positive("bandwidth", maximum: maximumBandwidth) else {
                throw attributes.error("has no @bandwidth; a ladder level needs one")
            }
            let id = attributes.string("id") ?? ""
            guard let addressing = try MPDSegmentAddressing.resolve([period, video, element], file: file) else {
                throw attributes.error(
                    "'\(InputError.excerpt(id))' has no segments: no SegmentList, SegmentBase or SegmentTemplate here, in its Adaptation Set or in its Period"
                )
            }
            let setHeight = try MPDAttributes(video, file: file).positive("height", maximum: 1 << 20)
            let height = try attributes.positive("height", maximum: 1 << 20) ?? setHeight
            representations.append(Representation(
                id: id, bandwidthBitsPerSecond: bandwidth,
                heightPixels: height, frameRate: frameRate(element.attributes["frameRate"] ?? video.attributes["frameRate"]),
                location: try baseURL(of: element, against: setLocation, file: file), addressing: addressing, line: element.line
            ))
        }
        guard !representations.isEmpty else { throw MPDAttributes(video, file: file).error("(video) has no Representation") }
        return MPDManifest(
            representations: representations, periodSeconds: periodSeconds, warnings: warnings, audioSegments: audioSegments(period, file: file)
        )
    }

    /// The nominal segment duration of the first audio Adaptation Set's first Representation
    /// (its `@duration` or first `S@d`); nil when it has none or it does not read.
    private static func audioSegments(_ period: XMLElementNode, file: String) -> AudioSegments? {
        guard let set = period.children(named: "AdaptationSet").first(where: { contentKind($0) == "audio" }),
              let representation = set.child(named: "Representation"),
              let addressing = try? MPDSegmentAddressing.resolve([period, set, representation], file: file) else { return nil }
        let timing: MPDSegmentTiming
        let timescale: Int
        switch addressing {
        case .template(let template): (timing, timescale) = (template.timing, template.timescale)
        case .list(let list): (timing, timescale) = (list.timing, list.timescale)
        case .base: return nil
        }
        switch timing {
        case .duration(let ticks): return AudioSegments(seconds: Double(ticks) / Double(timescale), line: set.line)
        case .timeline(let entries):
            return entries.first.map { AudioSegments(seconds: Double($0.durationTicks) / Double(timescale), line: set.line) }
        }
    }

    /// `25`, `30000/1001`: a frame rate, read leniently as it only feeds hints.
    private static func frameRate(_ text: String?) -> Double? {
        guard let parts = text?.trimmingWhitespace.split(separator: "/", omittingEmptySubsequences: false), (1...2).contains(parts.count),
              let numerator = Double(parts[0]), let denominator = parts.count == 2 ? Double(parts[1]) : 1 else { return nil }
        let rate = numerator / denominator
        return rate.isFinite && rate > 0 && rate <= 1000 ? rate : nil
    }

    /// The first video Adaptation Set that is not trick mode, and what the others are, for the warning.
    private static func videoAdaptationSet(_ period: XMLElementNode, file: String) throws(InputError) -> (XMLElementNode, [String]) {
        var video: XMLElementNode?
        var ignored: [String: [Int]] = [:]
        for set in period.children(named: "AdaptationSet") {
            var kind = contentKind(set)
            if kind == "video", isTrickMode(set) { kind = "trick-mode video" }
            if kind == "video", video == nil {
                video = set
            } else {
                ignored[kind == "video" ? "other video" : kind, default: []].append(set.line)
            }
        }
        guard let video else {
            throw MPDAttributes(period, file: file).error("has no video Adaptation Set (by contentType, mimeType or codecs); abrlab emulates video")
        }
        let described = ignored.keys.sorted().map { kind in
            let lines = ignored[kind, default: []]
            let sets = lines.count == 1 ? "Adaptation Set" : "Adaptation Sets"
            return "\(lines.count) \(kind) \(sets) (line\(lines.count == 1 ? "" : "s") \(lines.map(String.init).joined(separator: ", ")))"
        }
        return (video, described)
    }

    /// `video`, `audio`, `text`, `image` or `unknown`: from `@contentType`, else the media type
    /// of `@mimeType` (the set's, else its first Representation's), else a `ContentComponent`.
    private static func contentKind(_ set: XMLElementNode) -> String {
        let representation = set.child(named: "Representation")
        let declared = set.attributes["contentType"]
            ?? (set.attributes["mimeType"] ?? representation?.attributes["mimeType"]).map { String($0.prefix { $0 != "/" }) }
            ?? set.child(named: "ContentComponent")?.attributes["contentType"]
        switch declared?.trimmingWhitespace.lowercased() {
        case "video"?: return "video"
        case "audio"?: return "audio"
        case "text"?, "application"?: return "text"
        case "image"?: return "image"
        default:
            // Without a declared type, a picture size says video.
            let sized = set.attributes["width"] != nil || set.attributes["height"] != nil || representation?.attributes["height"] != nil
            return sized ? "video" : "unknown"
        }
    }

    private static func isTrickMode(_ set: XMLElementNode) -> Bool {
        (set.children(named: "EssentialProperty") + set.children(named: "SupplementalProperty")).contains {
            $0.attributes["schemeIdUri"]?.trimmingWhitespace == "http://dashif.org/guidelines/trickmode"
        }
    }

    /// `location` moved by the element's first `BaseURL`, if it has one.
    private static func baseURL(of element: XMLElementNode, against location: MPDLocation, file: String) throws(InputError) -> MPDLocation {
        guard let base = element.child(named: "BaseURL") else { return location }
        let text = base.text.trimmingWhitespace
        guard !text.isEmpty else { return location }
        switch location.resolving(text) {
        case .success(let resolved): return resolved
        case .failure(let failure): throw InputError(file: file, line: base.line, "BaseURL \(failure.message)")
        }
    }

    /// A Period or Adaptation Set fetched from elsewhere (`xlink:href`) cannot be read from disk.
    private static func refuseRemoteElement(_ element: XMLElementNode, file: String) throws(InputError) {
        if element.attributes["href"] != nil {
            throw MPDAttributes(element, file: file).error("is a remote element (xlink:href); abrlab reads whole MPDs from disk")
        }
    }
}
