/// The live settings that name a warm-up and a catch-up (`warmup_s`, `warmup_kbps`, `catchup`,
/// `catchup_min_drift_s`), applied over a profile's settings.
extension LiveSettings {
    /// A warm-up of `seconds` (the profile's when nil) on a link of `linkKbps` (the profile's
    /// warm-up's, else ``LiveWarmup/defaultLinkKbps``, when nil).
    public mutating func applyWarmup(seconds: Double?, linkKbps: Double?) throws(InputError) {
        guard let seconds = seconds ?? warmup?.seconds else {
            if linkKbps != nil { throw InputError(setting: .warmupKbps, "sets the warm-up's link; give \(Setting.warmupS) too") }
            return
        }
        warmup = LiveWarmup(seconds: seconds, linkKbps: linkKbps ?? warmup?.linkKbps ?? LiveWarmup.defaultLinkKbps)
    }

    /// The catch-up `name` names (`dashjs5`, `dashjs3`; the profile's when nil) with dash.js's
    /// default `maxDrift` for it, and dash.js 3.0.1's dead band `minDriftSeconds` (the profile's,
    /// else 0.02, when nil).
    public mutating func applyCatchup(name: String?, minDriftSeconds: Double?) throws(InputError) {
        let rule: CatchupRule
        switch name {
        case nil:
            guard let minDriftSeconds else { return }
            guard case .dashjs3 = catchUpRule else {
                throw InputError(setting: .catchupMinDriftS, "is dash.js 3.0.1's dead band; give \(Setting.catchup) dashjs3 too")
            }
            catchUpRule = .dashjs3(minDriftSeconds: minDriftSeconds)
            return
        case "dashjs5":
            if minDriftSeconds != nil { throw InputError(setting: .catchupMinDriftS, "is dash.js 3.0.1's dead band; dashjs5 has none") }
            rule = .dashjs5
        case "dashjs3":
            var current: Double?
            if case .dashjs3(let drift) = catchUpRule { current = drift }
            rule = .dashjs3(minDriftSeconds: minDriftSeconds ?? current ?? CatchupRule.dashjs3DefaultMinDriftSeconds)
        case let name?:
            throw InputError(setting: .catchup, "unknown catch-up '\(name)'; choose dashjs5 or dashjs3")
        }
        catchUpRule = rule
        maxDriftSeconds = rule.defaultMaxDriftSeconds
    }
}
