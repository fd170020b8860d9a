import ABRLab
import Foundation

/// Builds a `Video` from a master playlist and its media playlists on local disk.
///
/// - Ladder: one level per variant, its bitrate the variant's `BANDWIDTH`, sorted ascending.
///   Variants listed twice with the same URI and bandwidth count once; two different variants
///   with the same bandwidth are an error, since a ladder needs distinct bitrates.
/// - Labels: the level's format if known, else the resolution's height (`720p`), else the
///   bitrate (`1200k`); labels two levels would share fall back to the bitrate.
/// - Segment sizes, per segment: the `EXT-X-BYTERANGE` length; else the size of the segment
///   file next to the media playlist; else `BANDWIDTH × EXTINF / 8`, with a warning per variant.
///   Initialization sections (`EXT-X-MAP`) are not counted: they are fetched once per switch,
///   not per segment.
/// - Segment duration: the median `EXTINF` over all variants, so a short last segment does not
///   set it; a warning when other segments stray from it by more than 1 %.
/// - Segment count: the shortest variant's; a warning when variants differ.
/// - Formats: a level's format is the first one its media playlist announces with
///   `CLASS="com.tidal.format"`; a warning when a playlist announces several.
public enum HLSVideoLoader {
    /// Whether a video spec names a playlist, by its extension (`.m3u8`, `.m3u`).
    public static func handles(_ spec: String) -> Bool {
        let lowered = spec.lowercased()
        return lowered.hasSuffix(".m3u8") || lowered.hasSuffix(".m3u")
    }

    /// Loads the master playlist at `masterURL`; the video is named `name`, else after the file
    /// without its extension.
    public static func load(_ masterURL: URL, name: String? = nil) throws(InputError) -> HLSLoadedVideo {
        let masterFile = TextFile.displayName(masterURL)
        let master = try HLSMasterPlaylist.load(masterURL)
        let variants = try ladderOrder(master.variants, file: masterFile)
        var levels: [LevelSource] = []
        for variant in variants {
            let url = try resolve(variant.uri, against: masterURL, file: masterFile, line: variant.line)
            let file = displayName(variant.uri, relativeTo: masterFile)
            let text: String
            do { text = try TextFile.read(url) } catch { throw InputError(file: file, error.message) }
            let playlist = try HLSMediaPlaylist.parse(text, file: file)
            guard !playlist.segments.isEmpty else { throw InputError(file: file, "the media playlist lists no segments") }
            levels.append(LevelSource(variant: variant, url: url, file: file, playlist: playlist))
        }
        var builder = HLSVideoBuilder(masterFile: masterFile, levels: levels)
        let video = try builder.video(name: name ?? videoName(masterFile))
        return HLSLoadedVideo(
            video: video, warnings: builder.warnings, master: master, variants: variants,
            mediaPlaylists: levels.map(\.playlist)
        )
    }

    /// Loads a master playlist from a path.
    public static func load(_ path: String, name: String? = nil) throws(InputError) -> HLSLoadedVideo {
        try load(URL(fileURLWithPath: path), name: name)
    }

    /// One variant with its media playlist, as the builder needs them.
    struct LevelSource {
        let variant: HLSVariantStream
        let url: URL
        let file: String
        let playlist: HLSMediaPlaylist
    }

    /// Variants sorted by bandwidth, exact repeats dropped, equal bandwidths rejected.
    static func ladderOrder(_ variants: [HLSVariantStream], file: String) throws(InputError) -> [HLSVariantStream] {
        let sorted = variants.enumerated()
            .sorted { ($0.element.bandwidthBitsPerSecond, $0.offset) < ($1.element.bandwidthBitsPerSecond, $1.offset) }
            .map(\.element)
        var ladder: [HLSVariantStream] = []
        for variant in sorted {
            if let previous = ladder.last, previous.bandwidthBitsPerSecond == variant.bandwidthBitsPerSecond {
                if previous.uri == variant.uri { continue }
                throw InputError(
                    file: file, line: variant.line,
                    "variants \(previous.uri) (line \(previous.line)) and \(variant.uri) have the same BANDWIDTH "
                        + "\(variant.bandwidthBitsPerSecond); a ladder needs distinct bitrates"
                )
            }
            ladder.append(variant)
        }
        return ladder
    }

    /// A playlist URI as a local file URL; remote URIs are an error, as abrlab reads from disk.
    static func resolve(_ uri: String, against base: URL, file: String, line: Int?) throws(InputError) -> URL {
        let resolved = URL(string: uri, relativeTo: base)?.absoluteURL
            ?? base.deletingLastPathComponent().appendingPathComponent(uri)
        guard resolved.isFileURL else {
            throw InputError(file: file, line: line, "'\(uri)' is not a local file; abrlab reads playlists from disk")
        }
        return resolved.standardizedFileURL
    }

    /// A URI as messages name it: joined to the folder of the file that lists it.
    static func displayName(_ uri: String, relativeTo file: String) -> String {
        guard !uri.hasPrefix("/"), !uri.contains("://"), let slash = file.lastIndex(of: "/") else { return uri }
        return String(file[...slash]) + uri
    }

    /// The file name without `.m3u8` or `.m3u` (its folder's for `master.m3u8`).
    static func videoName(_ file: String) -> String {
        VideoLoader.videoName(file, suffixes: [".m3u8", ".m3u"])
    }
}
