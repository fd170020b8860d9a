import ABRLab
import ABRLabResults
import Foundation
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct AtomicFileTests {
    static func contents(_ url: URL) throws -> String {
        String(decoding: try Data(contentsOf: url), as: UTF8.self)
    }

    static func entries(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test func nothingAppearsUnderTheRealNameUntilCommit() throws {
        let folder = try FixtureDirectory()
        let url = folder.url.appendingPathComponent("out.csv")
        let file = try AtomicFile(url)
        #expect(file.url == url)
        try file.write("a,b\n")
        try file.write("1,2\n")
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(try !Self.entries(folder.url).contains("out.csv"))
        try file.commit()
        #expect(try Self.contents(url) == "a,b\n1,2\n")
        // The temporary file was renamed, not copied.
        #expect(try Self.entries(folder.url) == ["out.csv"])
    }

    @Test func anUncommittedFileLeavesNothingBehind() throws {
        let folder = try FixtureDirectory()
        let url = folder.url.appendingPathComponent("out.csv")
        func writeWithoutCommitting() throws {
            let file = try AtomicFile(url)
            try file.write("partial")
            #expect(try Self.entries(folder.url).count == 1)
        }
        try writeWithoutCommitting()
        #expect(try Self.entries(folder.url) == [])
    }

    @Test func commitReplacesAnExistingFile() throws {
        let folder = try FixtureDirectory()
        let url = try folder.write("out.csv", "old contents that are longer\n")
        let file = try AtomicFile(url)
        try file.write("new\n")
        #expect(try Self.contents(url) == "old contents that are longer\n")
        try file.commit()
        #expect(try Self.contents(url) == "new\n")
    }

    @Test func anUncommittedFileLeavesAnExistingOneAlone() throws {
        let folder = try FixtureDirectory()
        let url = try folder.write("out.csv", "keep\n")
        func abandon() throws {
            let file = try AtomicFile(url)
            try file.write("discard\n")
        }
        try abandon()
        #expect(try Self.contents(url) == "keep\n")
        #expect(try Self.entries(folder.url) == ["out.csv"])
    }

    @Test func writesPastTheBufferSizeArriveWhole() throws {
        let folder = try FixtureDirectory()
        let url = folder.url.appendingPathComponent("big.txt")
        let file = try AtomicFile(url)
        // 3 MiB in 64 KiB lines crosses the 1 MiB flush threshold several times.
        let line = String(repeating: "x", count: 65_535) + "\n"
        for _ in 0..<48 { try file.write(line) }
        try file.write("end")
        try file.commit()
        let data = try Data(contentsOf: url)
        #expect(data.count == 48 * 65_536 + 3)
        #expect(String(decoding: data.suffix(4), as: UTF8.self) == "\nend")
    }

    @Test func anEmptyCommitMakesAnEmptyFile() throws {
        let folder = try FixtureDirectory()
        let url = folder.url.appendingPathComponent("empty.csv")
        try AtomicFile(url).commit()
        #expect(try Data(contentsOf: url).isEmpty)
    }

    @Test func twoFilesForTheSameNameDoNotInterfere() throws {
        let folder = try FixtureDirectory()
        let url = folder.url.appendingPathComponent("out.csv")
        let first = try AtomicFile(url)
        let second = try AtomicFile(url)
        try first.write("first\n")
        try second.write("second\n")
        // Each has a temporary file of its own; the later commit wins.
        try first.commit()
        #expect(try Self.contents(url) == "first\n")
        try second.commit()
        #expect(try Self.contents(url) == "second\n")
    }

    @Test func aMissingFolderIsAnInputError() throws {
        let folder = try FixtureDirectory()
        let url = folder.url.appendingPathComponent("missing/out.csv")
        #expect(throws: InputError(file: url.path, "cannot create the file")) { try AtomicFile(url) }
    }
}

extension AtomicFileTests {
    @Test func temporaryNamesNameTheirProcess() {
        #expect(AtomicFile.temporaryOwner(of: ".sessions.csv.tmp-1234-ABCD", finalName: "sessions.csv") == 1234)
        #expect(AtomicFile.temporaryOwner(of: "sessions.csv", finalName: "sessions.csv") == nil)
        #expect(AtomicFile.temporaryOwner(of: ".summary.csv.tmp-1-X", finalName: "sessions.csv") == nil)
        #expect(AtomicFile.isTemporaryName(".summary.csv.tmp-1-X"))
        #expect(!AtomicFile.isTemporaryName("summary.csv.tmp-1-X"))
        #expect(!AtomicFile.isTemporaryName(".tmp-1-X"))
        #expect(!AtomicFile.isTemporaryName(".summary.csv.tmp-x-1"))
    }

    /// Written elsewhere on the same file system, it still appears only at its real name.
    @Test func aTemporaryFolderHoldsTheFileUntilCommit() throws {
        let folder = try FixtureDirectory()
        let scratch = try folder.folder("scratch")
        let url = folder.url.appendingPathComponent("out.csv")
        let file = try AtomicFile(url, temporaryFolder: scratch)
        try file.write("a,b\n")
        try file.flush()
        #expect(try Self.entries(folder.url) == ["scratch"])
        #expect(try Self.entries(scratch).count == 1)
        try file.commit()
        #expect(try Self.contents(url) == "a,b\n")
        #expect(try Self.entries(scratch) == [])
    }
}
