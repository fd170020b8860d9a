import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `abrlab datasets`, offline: fetches from a mirror folder and from a local HTTP mirror made from
/// `../shared/datasets`, into a cache of the test's own (`ABRLAB_DATASETS`).
@Suite(.tags(.cli, .datasets), .selectedByTags, .needsDatasets) struct DatasetsCommandTests {
    let cache: URL
    let environment: [String: String]

    init() throws {
        (_, cache, environment) = try CLI.datasetCache()
    }

    func datasets(_ arguments: [String]) throws -> CLI.Output {
        try CLI.launch(["datasets"] + arguments, environment: environment)
    }

    /// A writable mirror holding `relativePaths` of the shared datasets (files or folders).
    static func mirror(_ relativePaths: [String]) throws -> URL {
        let root = try CLI.temporaryFolder().appendingPathComponent("mirror")
        for path in relativePaths {
            let target = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: Datasets.url(path), to: target)
        }
        return root
    }

    @Test func fetchFromAFolderInstallsTheDatasetVerified() throws {
        defer { try? FileManager.default.removeItem(at: cache.deletingLastPathComponent()) }
        let fetched = try datasets(["fetch", "pensieve/video", "--from", Datasets.root.path])
        #expect(fetched.status == 0, "\(fetched.stderr)")
        let folder = cache.appendingPathComponent("pensieve/video")
        #expect(fetched.stdout == "pensieve/video: installed 6 files (2 kB), verified, in \(folder.path)\n")
        #expect(try datasets(["path", "pensieve/video"]).stdout == folder.path + "\n")
        #expect(try datasets(["verify", "pensieve/video"]).stdout == "pensieve/video: ok (6 files)\n")
        let again = try datasets(["fetch", "pensieve/video", "--from", Datasets.root.path])
        #expect(again.stdout == "pensieve/video: already installed in \(folder.path)\n")
    }

    /// Pensieve's actor was never published upstream as safetensors: its upstream is the copy
    /// abrlab ships, checked like any download.
    @Test func theActorIsFetchedFromTheCopyAbrlabShips() throws {
        defer { try? FileManager.default.removeItem(at: cache.deletingLastPathComponent()) }
        let fetched = try datasets(["fetch", "pensieve/model"])
        #expect(fetched.status == 0, "\(fetched.stderr)")
        let model = cache.appendingPathComponent("pensieve/model/pretrain_linear_reward_actor.safetensors")
        #expect(fetched.stdout == "pensieve/model: installed 1 file (448 kB), verified, in \(model.path)\n")
        #expect(FileManager.default.contentsEqual(atPath: model.path, andPath: PackageRoot.file("Strategies/models/pensieve.safetensors").path))
    }

    @Test func fetchFromAnHTTPMirrorInstallsTheDatasetVerified() throws {
        defer { try? FileManager.default.removeItem(at: cache.deletingLastPathComponent()) }
        let server = try MirrorServer(root: Datasets.root)
        defer { server.stop() }
        let fetched = try datasets(["fetch", "pensieve/test", "--from", server.url.absoluteString])
        #expect(fetched.status == 0, "\(fetched.stderr)")
        #expect(server.requests.count == 142)
        #expect(try datasets(["verify"]).stdout == "pensieve/test: ok (142 files)\n")
        let listed = try datasets(["list"]).stdout
        #expect(listed.contains("pensieve/test                    traces      installed"))
    }

    @Test func aTamperedFileIsRefusedNamingItAndNothingIsInstalled() throws {
        let mirror = try Self.mirror(["pensieve/video_sizes"])
        defer {
            try? FileManager.default.removeItem(at: cache.deletingLastPathComponent())
            try? FileManager.default.removeItem(at: mirror.deletingLastPathComponent())
        }
        let tampered = mirror.appendingPathComponent("pensieve/video_sizes/video_size_3")
        var text = try CLI.read(tampered)
        text = text.replacingOccurrences(of: "\n1", with: "\n2", options: [], range: text.range(of: "\n1"))
        try Data(text.utf8).write(to: tampered)
        let server = try MirrorServer(root: mirror)
        defer { server.stop() }
        for source in [mirror.path, server.url.absoluteString] {
            let fetched = try datasets(["fetch", "pensieve/video", "--from", source])
            #expect(fetched.status == 1)
            #expect(fetched.stderr.hasPrefix("abrlab: pensieve/video: video_size_3: SHA-256 "), "\(fetched.stderr)")
            #expect(fetched.stderr.hasSuffix(", not the registry's 6ff70f5356417df616005339980fc5a230726b52ce7f72fc3ef92aa02ed49970; refused, nothing installed\n"))
            #expect(!FileManager.default.fileExists(atPath: cache.appendingPathComponent("pensieve/video").path))
            #expect(try datasets(["path", "pensieve/video"]).stderr == "abrlab: pensieve/video: dataset not fetched yet; run: abrlab datasets fetch pensieve/video\n")
        }
    }

    @Test func aDownloadKilledHalfWayResumesWhereItStopped() throws {
        defer { try? FileManager.default.removeItem(at: cache.deletingLastPathComponent()) }
        let server = try MirrorServer(root: Datasets.root, slow: "pretrain_linear_reward_actor.safetensors")
        defer { server.stop() }
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["datasets", "fetch", "pensieve/model", "--from", server.url.absoluteString]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let partial = cache.appendingPathComponent(".staging/pensieve%2Fmodel/pretrain_linear_reward_actor.safetensors.part")
        var size = 0
        for _ in 0..<500 where size < 65536 {
            usleep(10_000)
            size = ((try? FileManager.default.attributesOfItem(atPath: partial.path))?[.size] as? Int) ?? 0
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let kept = ((try? FileManager.default.attributesOfItem(atPath: partial.path))?[.size] as? Int) ?? 0
        #expect(kept >= 65536 && kept < 448_000, "the partial file holds \(kept) bytes")
        #expect(!FileManager.default.fileExists(atPath: cache.appendingPathComponent("pensieve/model").path))
        let resumed = try datasets(["fetch", "pensieve/model", "--from", server.url.absoluteString])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(server.requests.last == "/pensieve/models/pretrain_linear_reward_actor.safetensors bytes=\(kept)-")
        #expect(try datasets(["verify", "pensieve/model"]).status == 0)
    }

    /// A partial file that is not the start of the file: a server that ignores ranges sends the
    /// whole file, which replaces it; one that honours them gives a file refused by its hash,
    /// removed, so the next fetch starts afresh.
    @Test(arguments: [false, true]) func aWrongPartialFileNeverReachesTheCache(ranges: Bool) throws {
        defer { try? FileManager.default.removeItem(at: cache.deletingLastPathComponent()) }
        let server = try MirrorServer(root: Datasets.root, ranges: ranges)
        defer { server.stop() }
        let staging = cache.appendingPathComponent(".staging/pensieve%2Fvideo")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        try Data("999999\n".utf8).write(to: staging.appendingPathComponent("video_size_0.part"))
        let fetched = try datasets(["fetch", "pensieve/video", "--from", server.url.absoluteString])
        #expect(server.requests.contains("/pensieve/video_sizes/video_size_0 bytes=7-"), "\(server.requests)")
        if ranges {
            #expect(fetched.status == 1)
            #expect(fetched.stderr.hasPrefix("abrlab: pensieve/video: video_size_0: SHA-256 "), "\(fetched.stderr)")
            #expect(!FileManager.default.fileExists(atPath: staging.appendingPathComponent("video_size_0.part").path))
            #expect(try datasets(["fetch", "pensieve/video", "--from", server.url.absoluteString]).status == 0)
        } else {
            #expect(fetched.status == 0, "\(fetched.stderr)")
        }
        #expect(try datasets(["verify", "pensieve/video"]).stdout == "pensieve/video: ok (6 files)\n")
    }

    @Test func twoFetchesOfOneDatasetAtOnceInstallItOnce() throws {
        defer { try? FileManager.default.removeItem(at: cache.deletingLastPathComponent()) }
        let server = try MirrorServer(root: Datasets.root, slow: "pretrain_linear_reward_actor.safetensors")
        defer { server.stop() }
        let outputs = [0, 1].map { _ in Pipe() }
        let processes = outputs.map { output in
            let process = Process()
            process.executableURL = CLI.binary
            process.arguments = ["datasets", "fetch", "pensieve/model", "--from", server.url.absoluteString]
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            return process
        }
        for process in processes { try process.run() }
        let lines = outputs.map { String(decoding: $0.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }
        for process in processes { process.waitUntilExit() }
        #expect(processes.allSatisfy { $0.terminationStatus == 0 })
        #expect(lines.filter { $0.contains(": installed 1 file") }.count == 1, "\(lines)")
        #expect(lines.filter { $0.contains(": already installed") }.count == 1, "\(lines)")
        #expect(try datasets(["verify", "pensieve/model"]).stdout == "pensieve/model: ok (1 file)\n")
    }

    @Test func verifyNamesAFileEditedInTheCache() throws {
        defer { try? FileManager.default.removeItem(at: cache.deletingLastPathComponent()) }
        #expect(try datasets(["fetch", "sabre/manifests", "--from", Datasets.root.path]).status == 0)
        let edited = cache.appendingPathComponent("sabre/manifests/mmsys18/bbb4k.json")
        let handle = try FileHandle(forWritingTo: edited)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(" ".utf8))
        try handle.close()
        let verified = try datasets(["verify"])
        #expect(verified.status == 1)
        #expect(verified.stderr == "abrlab: sabre/manifests: mmsys18/bbb4k.json: 12170 bytes, not the registry's\n")
        #expect(verified.stdout == "sabre/manifests: 1 of its files differ from the registry; run: abrlab datasets fetch --force sabre/manifests\n")
        #expect(try datasets(["fetch", "--force", "sabre/manifests", "--from", Datasets.root.path]).status == 0)
        #expect(try datasets(["verify"]).status == 0)
    }

    @Test func anUnknownIDListsTheKnownOnes() throws {
        defer { try? FileManager.default.removeItem(at: cache.deletingLastPathComponent()) }
        let known = "pensieve/test, pensieve/video, pensieve/model, pensieve/checkpoint, pensieve/train, train/pensieve, sabre/3g, sabre/4g, sabre/fcc-hd, train/fcc-hd, sabre/manifests"
        for arguments in [["fetch", "pensieve/tests"], ["info", "pensieve/tests"], ["path", "pensieve/tests"], ["verify", "pensieve/tests"]] {
            let refused = try datasets(arguments)
            #expect(refused.status == 1)
            #expect(refused.stderr == "abrlab: pensieve/tests: not a known dataset id; did you mean pensieve/test? known: \(known)\n")
        }
        // A misspelt prefix gets the closest id too; a name near none, the list alone.
        #expect(try datasets(["fetch", "pensive/test"]).stderr == "abrlab: pensive/test: not a known dataset id; did you mean pensieve/test? known: \(known)\n")
        #expect(try datasets(["fetch", "mine/traces"]).stderr == "abrlab: mine/traces: not a known dataset id; known: \(known)\n")
    }
}
