import ABRLab
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A small folder tree that fuzz input describes, built afresh in a scratch folder for each
/// input: the script folder `s/` and a sibling `outside/` that links may lead to. Inputs are
/// bytes, so links, pipes and big files are entries of the text:
///
///     ==== main.lua            a file of s/ whose bytes follow, up to the next header
///     ==== @secret.lua         the same in outside/
///     ==== link lib -> ../outside
///     ==== fifo lib/pipe.lua
///     ==== big huge.bin 300000000      a sparse file of that many bytes
///     ==== model models/m.safetensors  a small valid actor network
///
/// Names are relative paths of at most four short parts without `.` or `..`; an entry whose
/// folder holds a link is skipped, so nothing is ever written through a link or outside the
/// scratch folder. Link targets are any text: the links are what is fuzzed.
struct LuaFolderTree {
    enum Entry: Equatable {
        case file(String, [UInt8])
        case link(String, target: String)
        case fifo(String)
        case sparse(String, bytes: Int)
        case model(String)
    }

    static let maxEntries = 32
    static let maxSparseBytes = 1 << 31

    let entries: [Entry]

    init(_ bytes: [UInt8]) {
        let header = Array("==== ".utf8)
        var starts: [Int] = []
        var index = 0
        while index + header.count <= bytes.count, starts.count < Self.maxEntries {
            if (index == 0 || bytes[index - 1] == UInt8(ascii: "\n")), bytes[index..<index + header.count].elementsEqual(header) {
                starts.append(index)
            }
            index += 1
        }
        var entries: [Entry] = []
        for (number, start) in starts.enumerated() {
            let end = number + 1 < starts.count ? starts[number + 1] : bytes.count
            let lineEnd = bytes[start..<end].firstIndex(of: UInt8(ascii: "\n")) ?? end
            let line = String(decoding: bytes[(start + header.count)..<lineEnd], as: UTF8.self)
            var body = Array(bytes[min(lineEnd + 1, end)..<end])
            if body.last == UInt8(ascii: "\n") { body.removeLast() }
            if let entry = Self.entry(line, body: body) { entries.append(entry) }
        }
        self.entries = entries
    }

    private static func entry(_ line: String, body: [UInt8]) -> Entry? {
        let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        switch words.first {
        case "link":
            guard words.count == 4, words[2] == "->" else { return nil }
            return .link(words[1], target: String(words[3].prefix(200)))
        case "fifo": return words.count == 2 ? .fifo(words[1]) : nil
        case "big":
            guard words.count == 3, let size = Int(words[2]), size >= 0 else { return nil }
            return .sparse(words[1], bytes: min(size, maxSparseBytes))
        case "model": return words.count == 2 ? .model(words[1]) : nil
        case let name?: return words.count == 1 ? .file(name, body) : nil
        case nil: return nil
        }
    }

    /// Creates the tree under `root` (emptied first): `root/s` and `root/outside`.
    func build(in root: URL) {
        try? FileManager.default.removeItem(at: root)
        for folder in ["s", "outside"] {
            try? FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        for entry in entries {
            switch entry {
            case .file(let name, let bytes):
                guard let path = Self.place(name, in: root) else { continue }
                FileManager.default.createFile(atPath: path, contents: Data(bytes))
            case .link(let name, let target):
                guard let path = Self.place(name, in: root) else { continue }
                _ = symlink(target, path)
            case .fifo(let name):
                guard let path = Self.place(name, in: root) else { continue }
                _ = mkfifo(path, 0o600)
            case .sparse(let name, let bytes):
                guard let path = Self.place(name, in: root) else { continue }
                let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
                guard descriptor >= 0 else { continue }
                _ = ftruncate(descriptor, off_t(bytes))
                close(descriptor)
            case .model(let name):
                guard let path = Self.place(name, in: root) else { continue }
                FileManager.default.createFile(atPath: path, contents: Data(Self.tinyActor))
            }
        }
    }

    /// Where `name` goes under `root`, its folders created; `nil` for a name that is not a short
    /// relative path, already exists, or whose folder holds a link (writing there could leave
    /// the scratch folder).
    private static func place(_ name: String, in root: URL) -> String? {
        let outside = name.hasPrefix("@")
        let parts = (outside ? String(name.dropFirst()) : name).split(separator: "/", omittingEmptySubsequences: false)
        guard (1...4).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." && $0.utf8.count <= 32 && !$0.utf8.contains(0) }) else {
            return nil
        }
        var folder = root.appendingPathComponent(outside ? "outside" : "s").path
        for part in parts.dropLast() {
            folder += "/" + part
            var status = stat()
            if lstat(folder, &status) == 0 {
                guard (status.st_mode & S_IFMT) == S_IFDIR else { return nil }
            } else if mkdir(folder, 0o700) != 0 {
                return nil
            }
        }
        let path = folder + "/" + parts[parts.count - 1]
        var status = stat()
        return lstat(path, &status) == 0 ? nil : path
    }

    /// A Pensieve-style actor with 4-column states and 2 actions: the smallest layout there is.
    static let tinyActor: [UInt8] = {
        var tensors: [SafetensorsFile.Tensor] = []
        func add(_ name: String, _ shape: [Int]) {
            let count = shape.reduce(1, *)
            tensors.append(SafetensorsFile.Tensor(name: "actor/" + name, dtype: "F32", shape: shape, values: (0..<count).map { Double($0 % 7) / 10 - 0.3 }))
        }
        for name in ["FullyConnected", "FullyConnected_1", "FullyConnected_2"] {
            add(name + "/W", [1, 2])
            add(name + "/b", [2])
        }
        for (name, columns) in [("Conv1D", 4), ("Conv1D_1", 4), ("Conv1D_2", 2)] {
            add(name + "/W", [1, 1, columns, 2])
            add(name + "/b", [2])
        }
        add("FullyConnected_3/W", [12, 3])
        add("FullyConnected_3/b", [3])
        add("FullyConnected_4/W", [3, 2])
        add("FullyConnected_4/b", [2])
        let bytes = SafetensorsFile.encode(tensors)
        do { _ = try ActorNetwork(tensors: SafetensorsFile(bytes: bytes, file: "tiny.safetensors")) } catch {
            fatalError("the fuzz actor is invalid: \(error)")
        }
        return bytes
    }()
}
