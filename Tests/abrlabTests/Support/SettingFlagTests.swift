import ABRLab
import Foundation
import Testing
import TestSupport
@testable import abrlab

/// The library names settings by key; the command line maps each to its option in one place.
/// Every mapped option must exist, and a library error must print with it.
@Suite(.tags(.cli), .selectedByTags) struct SettingFlagTests {
    /// Every option of every command that sets one of the library's settings.
    static let helpTexts: String = [
        Abrlab.Compare.helpMessage(), Abrlab.Run.helpMessage(),
        Abrlab.TracesGenerate.helpMessage(), Abrlab.VideosGenerate.helpMessage(),
    ].joined(separator: "\n")

    @Test(arguments: Setting.allCases)
    func everySettingIsAnOptionTheCommandLineHas(setting: Setting) {
        #expect(Self.helpTexts.contains(setting.flag + " ") || Self.helpTexts.contains(setting.flag + "\n"), "\(setting.flag) is no option")
    }

    @Test func aLibraryErrorPrintsWithTheOptions() {
        let error = InputError(settings: [.minKbps, .maxKbps], "need 0 < min; use a longer \(Setting.stepS)")
        #expect(error.description == "min_kbps/max_kbps: need 0 < min; use a longer step_s")
        #expect(error.commandLineText == "--min-kbps/--max-kbps: need 0 < min; use a longer --step-s")
        let live = EmulationError.liveSessionTooLong(segments: 3, segmentSeconds: 1, limitSeconds: 2)
        #expect(live.commandLineText.hasSuffix("play less media (--live-duration-s, --segments)"))
        #expect(CommandFailure.text(of: live) == live.commandLineText)
    }
}
