import ABRLab
import Foundation

extension VideoLoader {
    /// Whether a video spec names a DASH MPD, by its extension (`.mpd`).
    public static func handlesMPD(_ spec: String) -> Bool { spec.lowercased().hasSuffix(".mpd") }

    /// Reads a static DASH MPD and the sizes of its video segments from local disk.
    ///
    /// - Ladder: one level per Representation of the first video Adaptation Set, its bitrate the
    ///   `@bandwidth`, sorted ascending; two Representations of one bandwidth are an error.
    ///   Labels are the height (`360p`), else the bitrate. Other Adaptation Sets (audio, text,
    ///   more video) are ignored with one warning.
    /// - Sizes: `SegmentList` `mediaRange`s (else the `SegmentURL` files); `SegmentBase`: the
    ///   `sidx` box at `indexRange` in the media file; `SegmentTemplate`: the files its `@media`
    ///   names, numbered by `@duration` and the Period's length or by the `SegmentTimeline`.
    ///   Initialization segments are not counted.
    /// - Segment duration: every segment of every Representation must last as long as the first,
    ///   except a shorter last segment (played as a whole one, which a warning says): the engine
    ///   plays one duration, and averaging unequal durations would misplace every switch. Segment
    ///   counts must agree too, and segments × Representations stay within the video's cap.
    /// - Warnings: media or video segments longer than the MPD or its audio say (an encoder
    ///   without a fixed keyframe interval), with the fix.
    /// - Refused: dynamic MPDs, several Periods, remote media (an absolute `http(s)` BaseURL).
    public static func loadMPD(_ url: URL, name: String? = nil) throws(InputError) -> MPDLoadedVideo {
        let file = TextFile.displayName(url)
        let manifest = try MPDManifest.parse(try InputFile.read(url), location: MPDLocation(mpd: url, display: file), file: file)
        let representations = try ladderOrder(manifest.representations, file: file)
        var reader = MPDSegmentReader(file: file, periodSeconds: manifest.periodSeconds, representationCount: representations.count)
        var levels: [MPDSegmentReader.Segments] = []
        for representation in representations {
            let segments = try reader.segments(of: representation)
            try checkDurations(segments, of: representation, against: levels.first.map { ($0, representations[0]) }, file: file)
            levels.append(segments)
        }
        let reference = levels[0]
        var warnings = manifest.warnings + reader.warnings
        if let short = shortLastSegment(reference, file: file) { warnings.append(short) }
        let durationSeconds = Double(reference.durationsTicks[0]) / Double(reference.timescale)
        if let audio = manifest.audioSegments, durationSeconds > 1.1 * audio.seconds {
            // Audio is cut where asked; video only at keyframes, so longer video segments point at the keyframe interval.
            warnings.append(InputWarning(
                file: file, line: representations[0].line,
                "the video's segments last \(MPDSegmentReader.seconds(durationSeconds)) s but the audio's \(MPDSegmentReader.seconds(audio.seconds)) s "
                    + "(the Adaptation Set of line \(audio.line)). " + MPDSegmentReader.keyframeHint(audio.seconds, frameRate: representations[0].frameRate)
            ))
        }
        let ladder = zip(representations, labels(representations)).map { BitrateLevel(bitrate: $0.bandwidthBitsPerSecond, label: $1) }
        let sizesBytes = (0..<reference.sizesBytes.count).map { segment in levels.map { $0.sizesBytes[segment] } }
        let video: Video
        do {
            video = try Video(
                name: name ?? videoName(file, suffix: ".mpd"), segmentDurationSeconds: durationSeconds, ladder: ladder, sizesBytes: sizesBytes
            )
        } catch {
            throw InputError(file: file, error.message)
        }
        return MPDLoadedVideo(
            video: video, warnings: warnings, addressing: representations.map(\.addressing.kind), representationIDs: representations.map(\.id)
        )
    }

    /// The warning that the last segment is shorter than the others and is played as a whole
    /// one (its size as it is); nil when it is within a hundredth of them (rounding).
    private static func shortLastSegment(_ segments: MPDSegmentReader.Segments, file: String) -> InputWarning? {
        guard let nominal = segments.durationsTicks.first, let last = segments.durationsTicks.last,
              segments.durationsTicks.count > 1, Double(last) < 0.99 * Double(nominal) else { return nil }
        let seconds = { (ticks: Int) in MPDSegmentReader.seconds(Double(ticks) / Double(segments.timescale)) }
        return InputWarning(
            file: file,
            "the last segment, \(segments.durationsTicks.count), lasts \(seconds(last)) s and the others \(seconds(nominal)) s; abrlab's "
                + "videos have one segment duration, so it is played as a whole \(seconds(nominal)) s segment of its own size"
        )
    }

    /// Representations by bandwidth; equal bandwidths are refused, as a ladder needs distinct bitrates.
    private static func ladderOrder(_ representations: [MPDManifest.Representation], file: String) throws(InputError) -> [MPDManifest.Representation] {
        let sorted = representations.enumerated()
            .sorted { ($0.element.bandwidthBitsPerSecond, $0.offset) < ($1.element.bandwidthBitsPerSecond, $1.offset) }
            .map(\.element)
        for (previous, next) in zip(sorted, sorted.dropFirst()) where previous.bandwidthBitsPerSecond == next.bandwidthBitsPerSecond {
            throw InputError(
                file: file, line: next.line,
                "Representations '\(InputError.excerpt(previous.id))' (line \(previous.line)) and '\(InputError.excerpt(next.id))' have the same bandwidth "
                    + "\(next.bandwidthBitsPerSecond); a ladder needs distinct bitrates"
            )
        }
        return sorted
    }

    /// Refuses unequal segment durations within a Representation (a shorter last one aside) and
    /// between it and the first level, and unequal segment counts.
    private static func checkDurations(
        _ segments: MPDSegmentReader.Segments, of representation: MPDManifest.Representation, against first: (MPDSegmentReader.Segments, MPDManifest.Representation)?,
        file: String
    ) throws(InputError) {
        let say = { (message: String) in
            InputError(file: file, line: representation.line, "Representation '\(InputError.excerpt(representation.id))': \(message)")
        }
        let otherID = first.map { InputError.excerpt($0.1.id) } ?? ""
        let durations = segments.durationsTicks
        guard let nominal = durations.first else { throw say("has no segments") }
        let seconds = { (ticks: Int) in NumberText.plain(Double(ticks) / Double(segments.timescale)) }
        for (index, ticks) in durations.enumerated() where ticks != nominal && !(index == durations.count - 1 && ticks < nominal) {
            throw say(
                "segment \(index + 1) lasts \(seconds(ticks)) s but segment 1 lasts \(seconds(nominal)) s; abrlab's videos have one "
                    + "segment duration (only the last segment may be shorter) and unequal ones are not averaged. "
                    + MPDSegmentReader.keyframeHint(Double(nominal) / Double(segments.timescale), frameRate: representation.frameRate)
            )
        }
        guard let (other, _) = first else { return }
        let (left, leftOverflow) = nominal.multipliedReportingOverflow(by: other.timescale)
        let (right, rightOverflow) = other.durationsTicks[0].multipliedReportingOverflow(by: segments.timescale)
        let equal = leftOverflow || rightOverflow
            ? Double(nominal) / Double(segments.timescale) == Double(other.durationsTicks[0]) / Double(other.timescale)
            : left == right
        guard equal else {
            throw say(
                "segments last \(seconds(nominal)) s but those of '\(otherID)' "
                    + "\(NumberText.plain(Double(other.durationsTicks[0]) / Double(other.timescale))) s; a ladder's levels share one segment duration"
            )
        }
        guard durations.count == other.durationsTicks.count else {
            throw say("has \(durations.count) segments but '\(otherID)' has \(other.durationsTicks.count); a ladder's levels have the same segments")
        }
    }


    /// Heights (`360p`) when every level has a distinct one, else bitrates.
    private static func labels(_ representations: [MPDManifest.Representation]) -> [String] {
        let heights = representations.compactMap(\.heightPixels)
        if heights.count == representations.count, Set(heights).count == heights.count { return heights.map { "\($0)p" } }
        return representations.map { label(kbps: Double($0.bandwidthBitsPerSecond) / 1000) }
    }

    /// The file name without `suffix` (any case).
    static func videoName(_ file: String, suffix: String) -> String {
        videoName(file, suffixes: [suffix])
    }

    /// File names encoders give every manifest (ffmpeg's `manifest.mpd`, `master.m3u8`): a video
    /// so named is known by its folder, so two encodes read apart.
    static let genericManifestNames: Set<String> = ["manifest", "master", "index", "stream", "playlist", "dash", "hls", "main"]

    /// The file's name without the first of `suffixes` it ends in; its folder's name instead when
    /// that is one of ``genericManifestNames``.
    static func videoName(_ file: String, suffixes: [String]) -> String {
        let name = file.split(separator: "/").last.map(String.init) ?? file
        let stem = suffixes.first { name.lowercased().hasSuffix($0) }.map { String(name.dropLast($0.count)) } ?? name
        guard genericManifestNames.contains(stem.lowercased()) else { return stem }
        let folder = URL(fileURLWithPath: file).standardizedFileURL.deletingLastPathComponent().lastPathComponent
        return folder.isEmpty || folder == "/" ? stem : folder
    }
}

extension MPDSegmentAddressing {
    /// The element's name, as `abrlab videos import` records it.
    var kind: String {
        switch self {
        case .list: "SegmentList"
        case .base: "SegmentBase"
        case .template: "SegmentTemplate"
        }
    }
}
