import ABRLab

extension ExperimentOptions {
    /// One line on stderr when the `pensieve` profile plays a video of another shape: the
    /// profile alone does not make Pensieve's numbers, the video must be Pensieve's too.
    func warnIfNotPensieveShaped(_ plan: ExperimentPlan) {
        guard plan.emulator.profile.name == EmulationProfile.pensieve.name,
              let problem = VideoPreset.pensieveShapeProblem(of: plan.video) else { return }
        CommandFailure.warn(
            "warning: --profile pensieve with video '\(video)', which is not Pensieve-shaped (\(problem)); "
                + "pass Pensieve's video_size_N folder with --ladder-kbps 300,750,1200,1850,2850,4300 --segment-duration-s 4"
        )
    }
}
