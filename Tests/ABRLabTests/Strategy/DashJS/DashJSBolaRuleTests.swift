@testable import ABRLab
import Foundation
import Testing
import TestSupport

/// BOLA's worked example in ../shared/specs/dashjs.md section B.2 (ladder 300/750/1500/3000 kbit/s, T = 18 s).
@Suite(.tags(.core), .selectedByTags) struct DashJSBolaRuleTests {
    let ladder = DashJSLadder([300, 750, 1500, 3000].enumerated().map { DashJSRepresentation(id: "v\($0.offset)", bandwidthBps: Double($0.element) * 1000) })

    func state() throws -> DashJSBolaRule.State {
        let logs = ladder.representations.map { Foundation.log($0.bandwidthBps) }
        let utilities = logs.map { $0 - logs[0] + 1 }
        let params = try #require(DashJSBolaRule.parameters(bufferTimeDefaultSeconds: 18, count: 4, utilities: utilities))
        return DashJSBolaRule.State(phase: .steady, ladder: ladder.representations, utilities: utilities, bufferTimeDefaultSeconds: 18,
                                    vp: params.vp, gp: params.gp)
    }

    @Test func parametersAndBuffersMatchTheSpecExample() throws {
        let s = try state()
        #expect(abs(s.gp - 2.8782) < 1e-4 && abs(s.vp - 3.4744) < 1e-4)
        let maxBuffers = ladder.representations.map { s.maxBuffer($0) }
        let minBuffers = ladder.representations.map { s.minBuffer($0) }
        for (value, expected) in zip(maxBuffers, [13.47, 16.66, 19.07, 21.47]) { #expect(abs(value - expected) < 0.005) }
        for (value, expected) in zip(minBuffers, [0, 11.35, 14.25, 16.66]) { #expect(abs(value - expected) < 0.005) }
    }

    @Test(arguments: [(5.0, 0), (12.0, 2), (20.0, 3)])
    func effectiveBufferPicksTheSpecExampleLevel(bufferSeconds: Double, index: Int) throws {
        #expect(try state().representation(forBufferSeconds: bufferSeconds).absoluteIndex == index)
    }
}
