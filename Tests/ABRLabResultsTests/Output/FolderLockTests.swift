import ABRLab
import ABRLabResults
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

@Suite(.tags(.core), .selectedByTags) struct FolderLockTests {
    static func entries(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    /// flock belongs to an open file, so a second claim is refused in one process too.
    @Test func aSecondClaimIsRefusedNamingTheHolderUntilTheFirstEnds() throws {
        let folder = try FixtureDirectory()
        let lock = try FolderLock(claiming: folder.url, for: .output)
        #expect(lock.unenforcedReason == nil)
        let line = try String(contentsOf: folder.url.appendingPathComponent(FolderLock.fileName), encoding: .utf8)
        #expect(line.hasPrefix("pid \(getpid()) on "), "\(line)")
        #expect(line.hasSuffix("\n") && line.split(separator: "\n").count == 1)
        do {
            _ = try FolderLock(claiming: folder.url, for: .output)
            Issue.record("a second claim succeeded")
        } catch {
            #expect(error.description == "\(folder.url.path): in use by another abrlab run (\(line.dropLast())); wait for it to end or choose another \(Setting.out)")
        }
        lock.release(removingCreatedFolders: true)
        #expect(try Self.entries(folder.url) == [], "the lock file outlived the claim, or a folder that was there went")
        let next = try FolderLock(claiming: folder.url, for: .input)
        next.release(removingCreatedFolders: false)
    }

    /// A run that opened the lock file just before its holder removed it locks a file no longer at
    /// the path: that lock must not count, and does not stop the next claim either.
    @Test func aLockOnARemovedLockFileDoesNotCount() throws {
        let folder = try FixtureDirectory()
        let lock = try FolderLock(claiming: folder.url, for: .output)
        let late = open(folder.url.appendingPathComponent(FolderLock.fileName).path, O_RDWR | O_CLOEXEC)
        try #require(late >= 0)
        defer { close(late) }
        lock.release(removingCreatedFolders: false)
        #expect(flock(late, LOCK_EX | LOCK_NB) == 0)
        let next = try FolderLock(claiming: folder.url, for: .output)
        next.release(removingCreatedFolders: false)
    }

    /// A failed run removes the folders it made (when they are empty), never one that was there.
    @Test(arguments: [false, true])
    func aFailedRunRemovesOnlyTheEmptyFoldersItCreated(leavesAFile: Bool) throws {
        let folder = try FixtureDirectory()
        let out = folder.url.appendingPathComponent("a/b/results")
        let lock = try FolderLock(claiming: out, for: .output)
        #expect(lock.createdFolders.map(\.lastPathComponent) == ["a", "b", "results"])
        if leavesAFile { try Data("kept".utf8).write(to: out.appendingPathComponent("notes.txt")) }
        lock.release(removingCreatedFolders: true)
        #expect(try Self.entries(folder.url) == (leavesAFile ? ["a"] : []))
        if leavesAFile { #expect(try Self.entries(out) == ["notes.txt"]) }
    }

    @Test func aFileInTheWayIsAnInputErrorAndAnInputFolderIsNeverCreated() throws {
        let folder = try FixtureDirectory()
        let file = try folder.write("results", "not a folder")
        #expect(throws: InputError(file: file.path, mentioning: "is not a folder; choose another \(Setting.out)")) {
            try FolderLock(claiming: file, for: .output)
        }
        let missing = folder.url.appendingPathComponent("missing")
        #expect(throws: InputError.self) { try FolderLock(claiming: missing, for: .input) }
        #expect(!FileManager.default.fileExists(atPath: missing.path))
    }
}
