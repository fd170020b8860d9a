import ABRLab
import ABRLabDatasets
import ABRLabFormats

extension ExperimentSettings {
    /// The warning for the `pensieve` profile playing a video that is not Pensieve's: one of
    /// another shape, or the shipped synthetic video (which has Pensieve's ladder but not its
    /// sizes). The profile alone does not make Pensieve's numbers; the video must be Pensieve's too.
    public func pensieveShapeWarning(_ plan: ExperimentPlan) -> InputWarning? {
        guard plan.emulator.profile.name == EmulationProfile.pensieve.name else { return nil }
        let problem = VideoPreset.pensieveShapeProblem(of: plan.video)
            ?? (video == Defaults.video ? "it is abrlab's synthetic video with Pensieve's ladder, not Pensieve's sizes" : nil)
        guard let problem else { return nil }
        return InputWarning(
            file: "",
            mentioning: "\(Setting.profile) pensieve with video '\(video)', which is not Pensieve's (\(problem)); "
                + "pass Pensieve's video_size_N folder with \(Setting.ladderKbps) 300,750,1200,1850,2850,4300 \(Setting.segmentDurationS) 4"
        )
    }
}
