import ABRLab
import Foundation
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct InputFileTests {
    /// A sparse file of 2 GiB is refused by its size before a byte is read.
    @Test func refusesAFileLargerThanTheLimitBeforeReadingIt() throws {
        let fixtures = try FixtureDirectory()
        let url = fixtures.url.appendingPathComponent("huge.csv")
        #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 2 << 30)
        try handle.close()
        #expect(throws: InputError(file: url.path, "is too large: inputs are read whole and limited to 64 MiB; this file is 2 GiB")) {
            try TraceLoader.load(url)
        }
        #expect(throws: InputError(file: url.path, "is too large: inputs are read whole and limited to 64 MiB; this file is 2 GiB")) {
            try VideoLoader.load(url)
        }
    }

    @Test func readsUpToTheLimitAndNoFurther() throws {
        let fixtures = try FixtureDirectory()
        try fixtures.write("ten", "0123456789")
        let url = fixtures.url.appendingPathComponent("ten")
        #expect(try InputFile.read(url, limit: 10) == Data("0123456789".utf8))
        #expect(throws: InputError(file: url.path, "is too large: inputs are read whole and limited to 9 bytes; this file is 10 bytes")) {
            try InputFile.read(url, limit: 9)
        }
    }

    /// A device has no size to check; reading stops once the limit is passed.
    @Test func stopsReadingAStreamPastTheLimit() throws {
        #expect(throws: InputError(file: "/dev/zero", "is too large: inputs are read whole and limited to 1 KiB; this file holds more than that")) {
            try InputFile.read(URL(fileURLWithPath: "/dev/zero"), limit: 1024)
        }
    }

    /// The regular-file read behind modules and models: the target's size, at most limit + 1
    /// bytes, and never a pipe or a device.
    @Test func regularFilesAreReadByTheirTargetsSizeAndNothingElseIs() throws {
        let fixtures = try FixtureDirectory()
        let ten = try fixtures.write("ten", "0123456789")
        let link = fixtures.url.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: ten.path)
        #expect(InputFile.regularFile(atPath: link.path, limit: 10) == .success(Array("0123456789".utf8)))
        #expect(InputFile.regularFile(atPath: link.path, limit: 9) == .failure(.tooLarge(bytes: 10)))
        #expect(InputFile.regularFile(atPath: fixtures.url.path, limit: 9) == .failure(.folder))
        #expect(InputFile.regularFile(atPath: fixtures.url.appendingPathComponent("none").path, limit: 9) == .failure(.missing))
        #expect(InputFile.regularFile(atPath: "/dev/zero", limit: 9) == .failure(.notRegularFile))
        let fifo = fixtures.url.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(InputFile.regularFile(atPath: fifo, limit: 9) == .failure(.notRegularFile))
    }

    @Test func namesMissingFilesAndFolders() throws {
        let fixtures = try FixtureDirectory()
        #expect(throws: InputError(file: fixtures.url.path + "/none", "no such file")) {
            try InputFile.read(fixtures.url.appendingPathComponent("none"))
        }
        #expect(throws: InputError(file: fixtures.url.path, "is a folder, not a file")) {
            try InputFile.read(fixtures.url)
        }
    }
}
