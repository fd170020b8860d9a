import ABRLab
import Foundation

/// Reads videos from Sabre manifests, folders of Pensieve `video_size_N` files, CBR specs and
/// presets. Every problem is an `InputError` naming the file and, where one applies, the line.
public enum VideoLoader {
    /// What a video spec may be, for error messages and help texts.
    public static let specHelp =
        "a Sabre manifest (.json), an HLS master playlist (.m3u8), a static DASH MPD (.mpd), a folder of Pensieve video_size_N files, a preset ("
        + (VideoPreset.allCases.map(\.rawValue) + [AudioFormatPreset.name]).joined(separator: ", ")
        + ") or a CBR spec such as cbr:300,750,1200@4s"

    /// Loads a video from a spec: a preset name, a `cbr:` spec, or the path of a manifest or folder.
    ///
    /// Preset names win over paths; write `./standard` for a file of that name. `ladderKbps`,
    /// `segmentDurationSeconds` and `segmentCount` fill in what a source leaves open (a Pensieve
    /// folder has neither ladder nor duration; a CBR spec may leave out duration and count).
    /// Contradicting what a source states, or giving a segment count for sizes read from files,
    /// is an error.
    public static func load(
        _ spec: String, ladderKbps: [Double]? = nil, segmentDurationSeconds: Double? = nil, segmentCount: Int? = nil
    ) throws(InputError) -> Video {
        if spec.lowercased().hasPrefix(cbrPrefix) {
            return try cbr(spec, ladderKbps: ladderKbps, segmentDurationSeconds: segmentDurationSeconds, segmentCount: segmentCount)
        }
        if spec == AudioFormatPreset.name {
            guard ladderKbps == nil else { throw InputError(file: spec, "the audio preset has its own ladder") }
            return try AudioFormatPreset.video(
                segmentCount: segmentCount ?? VideoPreset.defaultSegmentCount,
                segmentDurationSeconds: segmentDurationSeconds ?? AudioFormatPreset.defaultSegmentDurationSeconds
            )
        }
        if HLSVideoLoader.handles(spec) {
            guard ladderKbps == nil, segmentDurationSeconds == nil, segmentCount == nil else {
                throw InputError(file: spec, "a playlist states its own ladder, segment duration and segments")
            }
            return try HLSVideoLoader.load(spec).video
        }
        if handlesMPD(spec) {
            guard ladderKbps == nil, segmentDurationSeconds == nil, segmentCount == nil else {
                throw InputError(file: spec, "an MPD states its own ladder, segment duration and segments")
            }
            return try loadMPD(URL(fileURLWithPath: spec)).video
        }
        if let preset = VideoPreset(rawValue: spec) {
            if let ladderKbps, ladderKbps != preset.ladder.map(\.bitrateKbps) {
                throw InputError(file: spec, "the \(spec) preset has its own ladder; use a cbr: spec for another one")
            }
            return try preset.video(
                segmentCount: segmentCount ?? VideoPreset.defaultSegmentCount, segmentDurationSeconds: segmentDurationSeconds
            )
        }
        if spec == Self.renamedPensievePreset, !TextFile.exists(URL(fileURLWithPath: spec)) {
            throw InputError(
                file: spec,
                "no such video; the CBR stand-in with Pensieve's ladder is the preset '\(VideoPreset.pensieveCBR.rawValue)', "
                    + "and Pensieve's own video is the folder of its video_size_N files"
            )
        }
        guard segmentCount == nil else {
            throw InputError(file: spec, "a segment count applies only to presets and cbr: specs, not to sizes read from files")
        }
        return try load(URL(fileURLWithPath: spec), ladderKbps: ladderKbps, segmentDurationSeconds: segmentDurationSeconds)
    }

    /// The old name of ``VideoPreset/pensieveCBR``, refused with a pointer to the new one because
    /// it read as Pensieve's own video.
    static let renamedPensievePreset = "pensieve"

    /// Loads a Sabre manifest file or a folder of Pensieve `video_size_N` files.
    public static func load(
        _ url: URL, ladderKbps: [Double]? = nil, segmentDurationSeconds: Double? = nil
    ) throws(InputError) -> Video {
        let file = TextFile.displayName(url)
        guard TextFile.exists(url) else { throw InputError(file: file, "no such file or folder; a video is \(specHelp)") }
        if TextFile.isDirectory(url) {
            return try loadPensieveSizes(url, ladderKbps: ladderKbps, segmentDurationSeconds: segmentDurationSeconds)
        }
        let text = try TextFile.read(url)
        guard TextLines.trimmed(TextLines(text).firstContentLine?.text ?? "").hasPrefix("{") else {
            throw InputError(file: file, "is neither a Sabre manifest (a JSON object) nor a folder; a video is \(specHelp)")
        }
        let video = try parseSabreManifest(text, file: file, name: TraceLoader.traceName(forFile: file))
        if let ladderKbps, ladderKbps != video.bitratesKbps {
            throw InputError(file: file, "the manifest's ladder \(kbpsList(video.bitratesKbps)) differs from the given \(kbpsList(ladderKbps))")
        }
        if let segmentDurationSeconds, segmentDurationSeconds != video.segmentDurationSeconds {
            throw InputError(
                file: file,
                "the manifest's segment duration \(NumberText.plain(video.segmentDurationSeconds)) s differs from the given "
                    + "\(NumberText.plain(segmentDurationSeconds)) s"
            )
        }
        return video
    }

    /// Levels for bitrates in kbps, labelled `300k`; `file` names the source in errors.
    /// Bitrates must be positive, at most 1 Tbit/s, and ascending.
    public static func ladder(kbps: [Double], file: String, line: Int? = nil) throws(InputError) -> [BitrateLevel] {
        guard !kbps.isEmpty else { throw InputError(file: file, line: line, "the ladder has no bitrates") }
        var levels: [BitrateLevel] = []
        levels.reserveCapacity(kbps.count)
        for value in kbps {
            guard value.isFinite, value > 0, value <= 1e9 else {
                throw InputError(file: file, line: line, "bitrate \(NumberText.plain(value)) kbps must be > 0 and at most 1e9")
            }
            let level = BitrateLevel(bitrate: Int((value * 1000).rounded()), label: label(kbps: value))
            if let previous = levels.last, level.bitrate <= previous.bitrate {
                throw InputError(file: file, line: line, "bitrates must ascend, but \(level.label) follows \(previous.label)")
            }
            levels.append(level)
        }
        return levels
    }

    /// A level's label from its bitrate: `300k`, `1850.5k`.
    public static func label(kbps: Double) -> String { "\(NumberText.plain(kbps))k" }

    /// Rebuilds a video under `file`'s name, reporting `Video`'s own checks under that file.
    static func makeVideo(
        file: String, name: String, segmentDurationSeconds: Double, ladder: [BitrateLevel], sizesBytes: [[Int]],
        quality: [QualityMetric: [[Double]]] = [:]
    ) throws(InputError) -> Video {
        do {
            return try Video(
                name: name, segmentDurationSeconds: segmentDurationSeconds, ladder: ladder, sizesBytes: sizesBytes, quality: quality
            )
        } catch {
            throw InputError(file: file, error.message)
        }
    }

    static func kbpsList(_ kbps: [Double]) -> String {
        "[" + kbps.map(NumberText.plain).joined(separator: ", ") + "] kbps"
    }
}
