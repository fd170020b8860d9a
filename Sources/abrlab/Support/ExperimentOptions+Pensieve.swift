import ABRLab

extension ExperimentOptions {
    /// One line on stderr when the `pensieve` profile plays a video that is not Pensieve's.
    func warnIfNotPensieveShaped(_ plan: ExperimentPlan) {
        if let warning = pensieveShapeWarning(plan) { CommandFailure.warn(warning.description) }
    }

    /// The warning for the `pensieve` profile playing a video that is not Pensieve's: one of
    /// another shape, or the shipped synthetic video (which has Pensieve's ladder but not its
    /// sizes). The profile alone does not make Pensieve's numbers; the video must be Pensieve's too.
    func pensieveShapeWarning(_ plan: ExperimentPlan) -> InputWarning? {
        guard plan.emulator.profile.name == EmulationProfile.pensieve.name else { return nil }
        let problem = VideoPreset.pensieveShapeProblem(of: plan.video)
            ?? (video == Defaults.video ? "it is abrlab's synthetic video with Pensieve's ladder, not Pensieve's sizes" : nil)
        guard let problem else { return nil }
        return InputWarning(
            file: "",
            "--profile pensieve with video '\(video)', which is not Pensieve's (\(problem)); "
                + "pass Pensieve's video_size_N folder with --ladder-kbps 300,750,1200,1850,2850,4300 --segment-duration-s 4"
        )
    }
}
