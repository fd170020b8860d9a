import ABRLab
import Foundation

/// Where `fetch` reads a dataset's files: its upstream, or a mirror laid out like the dataset
/// root (`pensieve/cooked_test_traces/…`), as a folder or at an HTTP(S) or file URL.
public enum DatasetSource: Sendable, Equatable {
    case upstream
    case folder(URL)
    case url(URL)

    /// `--from`'s argument: a URL when it has a scheme, else a folder, which must exist.
    public init(from text: String) throws(InputError) {
        if text.contains("://") {
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https", "file"].contains(scheme) else {
                throw InputError(file: LocalFile.clipped(text), "not an http, https or file URL")
            }
            self = scheme == "file" ? .folder(URL(fileURLWithPath: url.path)) : .url(url)
            return
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: text, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw InputError(file: LocalFile.clipped(text), "no such folder; --from takes a folder or a URL laid out like the dataset root")
        }
        self = .folder(URL(fileURLWithPath: text))
    }

    /// Where one file of `dataset` is read from.
    package enum Location {
        case file(String)
        case web(URL)
    }

    package func location(of file: Dataset.File, in dataset: Dataset) throws(InputError) -> Location {
        switch self {
        case .folder(let root):
            return .file(root.appendingPathComponent(dataset.base).appendingPathComponent(file.path).path)
        case .url(let root):
            return .web(Self.join(root, dataset.base + "/" + file.path))
        case .upstream:
            switch dataset.upstream {
            case .github(let repository, let commit, let path, let rename, _):
                let raw = URL(string: "https://raw.githubusercontent.com/\(repository)/\(commit)/")!
                return .web(Self.join(raw, path + "/" + (rename[file.path] ?? file.path)))
            case .shipped(let path, let rename, _):
                let folder = Defaults.locate(path)
                return .file(URL(fileURLWithPath: folder).appendingPathComponent(rename[file.path] ?? file.path).path)
            }
        }
    }

    /// `relative`'s components percent-encoded and appended to `root`.
    private static func join(_ root: URL, _ relative: String) -> URL {
        var text = root.absoluteString
        if !text.hasSuffix("/") { text += "/" }
        let allowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#;"))
        text += relative.split(separator: "/").map { String($0).addingPercentEncoding(withAllowedCharacters: allowed) ?? String($0) }
            .joined(separator: "/")
        return URL(string: text)!
    }

    /// One line for messages.
    public var summary: String {
        switch self {
        case .upstream: "upstream"
        case .folder(let root): root.path
        case .url(let root): root.absoluteString
        }
    }
}
