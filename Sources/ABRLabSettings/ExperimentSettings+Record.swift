import ABRLab

extension ExperimentSettings {
    /// Every session setting by key in the table's order, each as given or its declared default;
    /// `nil` where the default is the profile's, the video's or the model's (the resolved
    /// values are in `run.json`'s `profile` and `qoe_model`).
    public var record: [(key: String, value: SettingValue?)] {
        SettingDeclaration.sessionSettings.map { ($0.rawValue, self[$0]) }
    }

    /// ``record`` as `run.json`'s `settings` object.
    public var recordValue: PrettyJSON.Value {
        .object(record.map { ($0.key, $0.value.map { .encoded(Array($0.json.utf8)) } ?? .null) })
    }

    /// The settings that decide a plan's output bytes, one `key=value` line each, for the plan
    /// fingerprint: the record without the settings whose content the fingerprint hashes
    /// instead (the video, traces and parameter files, which may move without changing).
    public var fingerprintLines: [String] {
        let hashedElsewhere: Set<Setting> = [.video, .traces, .param, .paramGrid, .experts, .strategyId]
        return SettingDeclaration.sessionSettings.filter { !hashedElsewhere.contains($0) }.map { "\($0.rawValue)=\(self[$0]?.json ?? "null")" }
    }
}
