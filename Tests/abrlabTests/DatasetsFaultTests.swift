import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `abrlab datasets fetch` against broken and hostile mirrors (a folder or a FIFO where a file
/// should be, a body with no end, a lying Content-Length, a redirect out of HTTP, a server that
/// trickles), a full disk and an unresolvable host: each ends in one line naming the file and
/// the cause, within seconds, writes nothing past the registry's size and installs nothing.
@Suite(.tags(.cli, .datasets), .selectedByTags, .needsDatasets("pensieve")) struct DatasetsFaultTests {
    let folder: URL
    let cache: URL
    let environment: [String: String]

    init() throws {
        (folder, cache, environment) = try CLI.datasetCache()
    }

    /// A launch that may not take more than `seconds`: killed then, so a hang fails the test
    /// instead of holding the suite.
    static func launch(_ arguments: [String], environment: [String: String], within seconds: Double = 20) throws -> (output: CLI.Output, seconds: Double) {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (out, err) = (folder.appendingPathComponent("out"), folder.appendingPathComponent("err"))
        FileManager.default.createFile(atPath: out.path, contents: nil)
        FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = arguments
        process.currentDirectoryURL = CLI.packageRoot
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        let start = Date()
        try process.run()
        while process.isRunning, Date().timeIntervalSince(start) < seconds { usleep(20_000) }
        let hung = process.isRunning
        if hung { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        let elapsed = Date().timeIntervalSince(start)
        #expect(!hung, "abrlab \(arguments.joined(separator: " ")) still ran after \(seconds) s")
        let output = CLI.Output(status: process.terminationStatus, stdout: try CLI.read(out), stderr: try CLI.read(err))
        return (output, elapsed)
    }

    func fetch(_ arguments: [String], within seconds: Double = 20) throws -> (output: CLI.Output, seconds: Double) {
        try Self.launch(["datasets", "fetch"] + arguments, environment: environment, within: seconds)
    }

    /// A copy of Pensieve's video folder laid out as a mirror, in the test's folder.
    func videoMirror() throws -> URL {
        let root = folder.appendingPathComponent("mirror")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("pensieve"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Datasets.url("pensieve/video_sizes"), to: root.appendingPathComponent("pensieve/video_sizes"))
        return root
    }

    var installedVideo: Bool { FileManager.default.fileExists(atPath: cache.appendingPathComponent("pensieve/video").path) }

    static let registryBytes = (try? Data(contentsOf: Datasets.url("pensieve/video_sizes/video_size_2")).count) ?? -1

    /// A folder, a FIFO or a file of another size in the mirror is refused unread: a FIFO never
    /// blocks the fetch, and nothing is copied past the registry's size.
    @Test(arguments: ["folder", "FIFO", "64 MiB file"]) func aMirrorFileThatIsNotTheFileIsRefusedUnread(kind: String) throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let mirror = try videoMirror()
        let spoilt = mirror.appendingPathComponent("pensieve/video_sizes/video_size_2")
        try FileManager.default.removeItem(at: spoilt)
        let expected: String
        switch kind {
        case "folder":
            try FileManager.default.createDirectory(at: spoilt.appendingPathComponent("inside"), withIntermediateDirectories: true)
            expected = "is a folder in the mirror, where the file video_size_2 should be"
        case "FIFO":
            try #require(mkfifo(spoilt.path, 0o644) == 0)
            expected = "is a FIFO in the mirror, not a regular file; refused unread"
        default:
            try #require(FileManager.default.createFile(atPath: spoilt.path, contents: nil))
            try #require(truncate(spoilt.path, 64 << 20) == 0)
            expected = "is \(64 << 20) bytes in the mirror, not the registry's \(Self.registryBytes); refused unread"
        }
        let (fetched, _) = try fetch(["pensieve/video", "--from", mirror.path])
        #expect(fetched.status == 1)
        #expect(fetched.stderr == "abrlab: pensieve/video: \(spoilt.path): \(expected)\n")
        #expect(!installedVideo)
        let partial = cache.appendingPathComponent(".staging/pensieve%2Fvideo/video_size_2.part")
        #expect(((try? FileManager.default.attributesOfItem(atPath: partial.path))?[.size] as? Int ?? 0) == 0)
    }

    /// Each answer refused before anything past the registry's size is written, named.
    @Test(arguments: [
        ("endless", "the server sent more than the registry's \(registryBytes) bytes; refused at that size"),
        ("long", "Content-Length 10000000000, not the registry's \(registryBytes) bytes; refused"),
        ("redirect", "HTTP 302 redirects to file:///etc/passwd, not an http(s) URL; refused"),
        ("folder", "HTTP 301 redirects to /pensieve/video_sizes/video_size_2/, a folder: the mirror holds a folder where the file should be"),
        ("refuse", "HTTP 416 Range Not Satisfiable to a request for the whole file (no range asked): the server refused it"),
    ])
    func aHostileHTTPAnswerIsRefusedNamingTheFile(fault: String, message: String) throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try MirrorServer(root: Datasets.root, faults: [(fault, "video_size_2")])
        defer { server.stop() }
        let (fetched, seconds) = try fetch(["pensieve/video", "--from", server.url.absoluteString])
        #expect(fetched.status == 1)
        #expect(fetched.stderr == "abrlab: pensieve/video: \(server.url.absoluteString)pensieve/video_sizes/video_size_2: \(message)\n")
        #expect(seconds < 10, "the refusal took \(seconds) s")
        #expect(!installedVideo)
        let partial = cache.appendingPathComponent(".staging/pensieve%2Fvideo/video_size_2.part")
        #expect(((try? FileManager.default.attributesOfItem(atPath: partial.path))?[.size] as? Int ?? 0) <= Self.registryBytes)
    }

    /// A resumed download's Content-Length is checked against what the registry's size leaves
    /// past the partial file.
    @Test func aRangedAnswerLongerThanTheRestIsRefused() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try MirrorServer(root: Datasets.root, faults: [("longrange", "video_size_2")])
        defer { server.stop() }
        let staging = cache.appendingPathComponent(".staging/pensieve%2Fvideo")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        let start = try Data(contentsOf: Datasets.url("pensieve/video_sizes/video_size_2")).prefix(100)
        try start.write(to: staging.appendingPathComponent("video_size_2.part"))
        let (fetched, seconds) = try fetch(["pensieve/video", "--from", server.url.absoluteString])
        #expect(fetched.status == 1)
        #expect(fetched.stderr == "abrlab: pensieve/video: \(server.url.absoluteString)pensieve/video_sizes/video_size_2: Content-Length "
            + "\(Self.registryBytes - 100 + 1000) from byte 100, where the registry's \(Self.registryBytes) bytes leave \(Self.registryBytes - 100); refused\n")
        #expect(seconds < 4, "the refusal took \(seconds) s")
        #expect(server.requests.contains("/pensieve/video_sizes/video_size_2 bytes=100-"), "\(server.requests)")
        #expect(try Data(contentsOf: staging.appendingPathComponent("video_size_2.part")) == start)
    }

    /// One byte a second is below any useful speed: the low-speed limit ends it, and says so.
    @Test func aServerThatTricklesIsCutOffByTheLowSpeedLimit() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try MirrorServer(root: Datasets.root, faults: [("trickle", "video_size_2")])
        defer { server.stop() }
        let url = "\(server.url.absoluteString)pensieve/video_sizes/video_size_2"
        let stalled = "stalled: under 1024 bytes/s for 2 s (the low-speed limit, --speed-limit and --speed-time); try again, or fetch from another mirror with --from"
        let (fetched, seconds) = try fetch(["pensieve/video", "--from", server.url.absoluteString, "--speed-limit", "1024", "--speed-time", "2"])
        #expect(fetched.status == 1)
        #expect(fetched.stderr == "abrlab: pensieve/video: \(url): \(stalled)\n")
        #expect(seconds >= 2 && seconds < 8, "cut off after \(seconds) s")
        #expect(!installedVideo)
        // reproduce fetches too, under the same flags.
        let (reproduced, _) = try Self.launch(
            ["reproduce", "pensieve", "--from", server.url.absoluteString, "--speed-time", "2", "--quiet"], environment: environment
        )
        #expect(reproduced.status == 1)
        #expect(reproduced.stderr.hasSuffix("abrlab: pensieve/video: \(url): \(stalled)\n"), "\(reproduced.stderr)")
        let refused = try fetch(["pensieve/video", "--from", server.url.absoluteString, "--speed-time", "0"]).output
        #expect(refused.stderr == "abrlab: --speed-time: must be a number of seconds above 0, not 0.0\n")
    }

    /// A disk that fills ends the fetch in one line naming the partial file; what was written
    /// stays, and the same command finishes once there is room.
    @Test(.enabled(if: SmallDisk.canMount, SmallDisk.skipMessage), arguments: [false, true])
    func aFullDiskEndsTheFetchResumably(overHTTP: Bool) throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let disk = try SmallDisk(size: "200k")
        defer { disk.unmount() }
        let server = try MirrorServer(root: Datasets.root)
        defer { server.stop() }
        let environment = ["ABRLAB_DATASETS": disk.mountPoint.appendingPathComponent("cache").path]
        let source = overHTTP ? server.url.absoluteString : Datasets.root.path
        let command = ["datasets", "fetch", "pensieve/model", "--from", source]
        let partial = disk.mountPoint.appendingPathComponent("cache/.staging/pensieve%2Fmodel/pretrain_linear_reward_actor.safetensors.part")
        let (full, _) = try Self.launch(command, environment: environment)
        #expect(full.status == 1)
        #expect(full.stderr == "abrlab: pensieve/model: \(partial.path): cannot write: No space left on device\n")
        let kept = (try? FileManager.default.attributesOfItem(atPath: partial.path))?[.size] as? Int ?? 0
        #expect(kept > 100_000, "the partial file holds \(kept) bytes")
        #expect(try disk.entries("cache") == [".locks", ".staging"])
        try disk.resize("2m")
        let (resumed, _) = try Self.launch(command, environment: environment)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        if overHTTP { #expect(server.requests.last == "/pensieve/models/pretrain_linear_reward_actor.safetensors bytes=\(kept)-") }
        #expect(try Self.launch(["datasets", "verify", "pensieve/model"], environment: environment).output.status == 0)
    }

    /// Offline, the fetch fails at once and names the way that works without the network.
    @Test func anUnresolvableHostFailsFastNamingFrom() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        // No proxy: the check is skipped behind one, which resolves names itself.
        let noProxy = Dictionary(uniqueKeysWithValues: ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"].map { ($0, "") })
        let (fetched, seconds) = try Self.launch(
            ["datasets", "fetch", "pensieve/video", "--from", "http://nonexistent.invalid/datasets/"], environment: environment.merging(noProxy) { $1 }
        )
        #expect(fetched.status == 1)
        #expect(fetched.stderr.hasPrefix("abrlab: pensieve/video: nonexistent.invalid: cannot resolve the host ("), "\(fetched.stderr)")
        // Which file's worker fails first varies: four run at once.
        #expect(
            fetched.stderr.contains(
                "); offline? fetch from a mirror with --from DIR_OR_URL, a folder or an http(s) URL laid out like the dataset root "
                    + "(this file is pensieve/video_sizes/video_size_"
            ) && fetched.stderr.hasSuffix(" there; docs/datasets.md)\n"),
            "\(fetched.stderr)"
        )
        #expect(fetched.stderr.split(separator: "\n").count == 1)
        #expect(seconds < 8, "the fetch took \(seconds) s")
    }

    /// A cache path that is a file is named as one.
    @Test func aCacheThatIsAFileIsNamed() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("cache-file")
        try Data("not a folder\n".utf8).write(to: file)
        for cache in [file, file.appendingPathComponent("below")] {
            let (fetched, _) = try Self.launch(["datasets", "fetch", "pensieve/video", "--from", Datasets.root.path], environment: ["ABRLAB_DATASETS": cache.path])
            #expect(fetched.status == 1)
            #expect(fetched.stderr == "abrlab: pensieve/video: \(file.path): is a file, not a folder (the dataset cache, from ABRLAB_DATASETS)\n")
        }
    }
}
