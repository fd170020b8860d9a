import Foundation
import Testing
import TestSupport
@testable import ABRLabC

/// An environment too large is refused before the library allocates it: Swift stops the process
/// when an allocation fails, and the process is Python's interpreter.
@Suite(.tags(.capi), .selectedByTags) struct CInterfaceMemoryTests {
    @Test(arguments: [(Int32(65_537), Int32(1), "num_envs must be from 1 to 65536, not 65537"),
                      (Int32.max, 1, "num_envs must be from 1 to 65536, not 2147483647"),
                      (2, 1_025, "threads must be from 1 to 1024, not 1025")])
    func sizesPastTheBoundsAreRefusedNamingTheKeyword(slots: Int32, threads: Int32, message: String) {
        let created = CInterfaceTests.create(slots: slots, threads: threads)
        #expect(created.env == nil)
        #expect(created.code == 7)
        #expect(created.message == message)
        #expect(created.detail["setting"] as? String == String(message.prefix { $0 != " " }))
    }

    @Test func theEstimateGrowsWithTheSessionsAndTheirSegments() throws {
        let json = "{\"video\": \"\(PackageRoot.file("Traces/video.json").path)\", \"traces\": [\"\(PackageRoot.file("Traces/default").path)\"]"
        let whole = try EnvConfiguration(EnvOptions.parse(json + "}"))
        let short = try EnvConfiguration(EnvOptions.parse(json + ", \"segments\": 4}"))
        // About 20 kB a session measured on this 48-segment video; the estimate is not below it.
        #expect((20_000...40_000).contains(EnvMemory.sessionBytes(whole)))
        #expect(EnvMemory.sessionBytes(short) < EnvMemory.sessionBytes(whole))
        #expect(EnvMemory.available(1 << 20))
        #expect(!EnvMemory.available(Int.max))
        #expect(throws: Never.self) { try EnvMemory.checkCreate(whole, slots: 64, threads: 2) }
        #expect(EnvError.outOfMemory("").code == 6)
    }
}
