import ABRLab
import ABRLabSettings

/// An option of ``ExperimentOptions`` as the command line gave it: text the table's kind reads,
/// a flag, or a repeated option's values.
enum TypedOption {
    case text(String?)
    case flag(Bool)
    case texts([String])
}

extension ExperimentOptions {
    /// The options given, by setting: each text read by its declared kind and checked against
    /// the table by the one door Python's keywords pass too (`ExperimentSettings(given:)`).
    func settings() throws(InputError) -> ExperimentSettings {
        var texts: [Setting: String?] = [:]
        var values: [Setting: SettingValue] = [:]
        for (setting, option) in typed {
            switch option {
            case .text(let text): texts[setting] = text
            case .flag(let on): if on { values[setting] = .flag(true) }
            case .texts(let list): if !list.isEmpty { values[setting] = .texts(list) }
            }
        }
        return try ExperimentSettings(texts: texts, values: values)
    }

    /// The video, its warnings printed.
    func resolveVideo() throws(InputError) -> Video {
        let (video, warnings) = try settings().resolveVideoWithWarnings()
        warnings.forEach { CommandFailure.warn($0.commandLineText) }
        return video
    }
}
