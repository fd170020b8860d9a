import ABRLab
import Testing
import TestSupport

/// When a recheck is due, and the projected download time it can wait for.
@Suite(.tags(.core), .selectedByTags) struct AbandonmentRecheckTests {
    /// 1 MB segment, 250 kB received 1 s into the request after a 0.2 s latency.
    static let progress = DownloadProgress(
        segmentIndex: 3, level: 2, sizeBytes: 1_000_000, receivedBytes: 250_000, elapsedSeconds: 1,
        timeToFirstByteSeconds: 0.2, bufferSeconds: 9
    )

    @Test func theProjectionExtendsTheRateSinceTheFirstByte() {
        // 250 kB in 0.8 s: the other 750 kB take 2.4 s more.
        #expect(abs(Self.progress.projectedSeconds - 3.4) < 1e-12)
        var empty = Self.progress
        empty.receivedBytes = 0
        #expect(empty.projectedSeconds == .infinity)
        var instant = Self.progress
        instant.elapsedSeconds = 0.2
        #expect(instant.projectedSeconds == .infinity)
    }

    @Test(arguments: [
        (AbandonmentRecheck.nextStep, true),
        (AbandonmentRecheck.never, false),
        (AbandonmentRecheck(elapsedSeconds: 1), true),
        (AbandonmentRecheck(elapsedSeconds: 1 + 0.5e-6), true),
        (AbandonmentRecheck(elapsedSeconds: 1 + 2e-6), false),
        (AbandonmentRecheck(projectedSeconds: 3.3), true),
        (AbandonmentRecheck(projectedSeconds: 3.4), true),
        (AbandonmentRecheck(projectedSeconds: 3.5), false),
        (AbandonmentRecheck(elapsedSeconds: 0.5, projectedSeconds: 3.5), false),
        (AbandonmentRecheck(elapsedSeconds: 1.5, projectedSeconds: 3), false),
        (AbandonmentRecheck(elapsedSeconds: 0.5, projectedSeconds: 3), true),
    ])
    func aRecheckIsDueOnceEveryConditionHolds(recheck: AbandonmentRecheck, due: Bool) {
        #expect(recheck.isDue(Self.progress) == due)
    }

    @Test func nanIsNotAValidCondition() {
        #expect(AbandonmentRecheck.never.isValid)
        #expect(!AbandonmentRecheck(elapsedSeconds: .nan).isValid)
        #expect(!AbandonmentRecheck(projectedSeconds: .nan).isValid)
    }
}
