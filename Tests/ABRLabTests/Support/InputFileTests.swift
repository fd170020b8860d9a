import ABRLab
import ABRLabFormats
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

    /// A device is refused unread, saying what it is: it may stream forever.
    @Test func refusesADeviceSayingWhatItIs() throws {
        #expect(throws: InputError(file: "/dev/zero", "is a character device, not a regular file; inputs are read from files")) {
            try InputFile.read(URL(fileURLWithPath: "/dev/zero"), limit: 1024)
        }
    }

    /// A FIFO is refused at once, without waiting for a writer. The read runs on a thread the
    /// test waits for a bounded time; should it block, a writer opening the FIFO releases it.
    @Test func refusesAFIFOWithoutWaitingForAWriter() throws {
        let fixtures = try FixtureDirectory()
        let fifo = fixtures.url.appendingPathComponent("fifo.csv")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        Thread {
            do throws(InputError) { _ = try InputFile.read(fifo) } catch { outcome.error = error }
            done.signal()
        }.start()
        let finished = done.wait(timeout: .now() + 10) == .success
        if !finished {
            let writer = open(fifo.path, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
            _ = done.wait(timeout: .now() + 10)
        }
        #expect(finished, "reading the FIFO blocked")
        #expect(outcome.error == InputError(file: fifo.path, "is a FIFO (named pipe), not a regular file; inputs are read from files"))
    }

    /// What the reading thread saw, read after it signals.
    private final class Outcome: @unchecked Sendable {
        var error: InputError?
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
