import ABRLab
import ABRLabSettings
import Testing
import TestSupport

/// Settings resolve to a profile, a QoE model and a video; a mistake names the setting.
@Suite(.tags(.compare), .selectedByTags) struct ExperimentSettingsTests {
    static let mistakes: [(edit: @Sendable (inout ExperimentSettings) -> Void, settings: [Setting])] = [
        ({ $0.profile = "nope" }, [.profile]),
        ({ $0.replace = "left" }, [.replace]),
        ({ $0.noAbandon = true }, [.noAbandon]),
        ({ $0.bandwidthMultiplier = 0 }, [.bandwidthMultiplier]),
        ({ $0.estimator = "ewma:0" }, [.estimator]),
        ({ $0.targetLatencySeconds = 1 }, [.targetLatencyS]),
        ({ $0.maxBufferSeconds = -1 }, [.maxBufferS]),
        ({ $0.segments = 0 }, [.segments]),
    ]

    @Test(arguments: mistakes.indices)
    func aProfileMistakeNamesItsSetting(index: Int) {
        var settings = ExperimentSettings()
        Self.mistakes[index].edit(&settings)
        let error = #expect(throws: InputError.self) { try settings.resolveEmulator() }
        #expect(error?.subject == .settings(Self.mistakes[index].settings), "\(String(describing: error))")
    }

    @Test func theQoEModelsWeightsAreChecked() {
        var settings = ExperimentSettings()
        settings.qoe = "nqoe"
        settings.gammaP = 3
        let error = #expect(throws: InputError.self) { try settings.resolveQoE() }
        #expect(error?.subject == .settings([.gammaP]))
        #expect(error?.text.parts.contains(.setting(.switchPenalty)) == true, "the advice names the setting that does apply")
    }

    @Test func settingsResolveTheSabreProfileWithItsOptions() throws {
        var settings = ExperimentSettings()
        settings.profile = "sabre"
        settings.replace = "left"
        settings.bandwidthMultiplier = 2
        let profile = try settings.resolveProfile()
        #expect(profile.segmentBufferSettings?.replacement == .left)
        #expect(profile.segmentBufferSettings?.bandwidthMultiplier == 2)
    }
}
