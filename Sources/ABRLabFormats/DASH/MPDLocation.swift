import ABRLab
import Foundation

/// Where a `BaseURL` chain points on local disk, with the path as messages name it: the MPD's
/// own name joined with the relative BaseURLs, so errors read as the user wrote the paths.
struct MPDLocation: Equatable, Sendable {
    let url: URL
    let display: String
    /// Whether the location is a folder (a BaseURL ending in `/`) rather than a file.
    let isFolder: Bool

    /// The location of the MPD file itself.
    init(mpd url: URL, display: String) {
        self.init(url: url, display: display, isFolder: false)
    }

    private init(url: URL, display: String, isFolder: Bool) {
        self.url = url
        self.display = display
        self.isFolder = isFolder
    }

    /// `reference` (a BaseURL, a SegmentURL@media or an expanded template) resolved against
    /// this location; a remote URL is refused with why.
    func resolving(_ reference: String) -> Result<MPDLocation, MPDLocationError> {
        let folder = reference.hasSuffix("/")
        if let colon = reference.firstIndex(of: ":"), let scheme = Optional(reference[..<colon].lowercased()),
           scheme.count > 1, scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }) {
            guard scheme == "file", let fileURL = URL(string: reference), fileURL.isFileURL else {
                return .failure(.remote(reference))
            }
            return .success(MPDLocation(url: fileURL.standardizedFileURL, display: fileURL.path, isFolder: folder))
        }
        let path = reference.removingPercentEncoding ?? reference
        guard !path.contains("\u{0}") else { return .failure(.notAPath(reference)) }
        if path.hasPrefix("/") {
            return .success(MPDLocation(url: URL(fileURLWithPath: path).standardizedFileURL, display: path, isFolder: folder))
        }
        let base = isFolder ? url : url.deletingLastPathComponent()
        let baseDisplay: String
        if isFolder {
            baseDisplay = display.hasSuffix("/") ? display : display + "/"
        } else {
            baseDisplay = display.lastIndex(of: "/").map { String(display[...$0]) } ?? ""
        }
        let resolved = path.isEmpty ? base : base.appendingPathComponent(path)
        return .success(MPDLocation(url: resolved.standardizedFileURL, display: baseDisplay + path, isFolder: folder || path.isEmpty))
    }
}

enum MPDLocationError: Error, Equatable {
    case remote(String)
    case notAPath(String)

    var message: String {
        switch self {
        case .remote(let reference): "'\(InputError.excerpt(reference))' is remote; the media must be local (abrlab reads segment sizes from disk), so give a relative BaseURL or none"
        case .notAPath(let reference): "'\(InputError.excerpt(reference))' is not a file path"
        }
    }
}
