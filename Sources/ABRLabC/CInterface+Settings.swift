import ABRLabCompare
import ABRLabSettings
import Glibc

/// The settings table as JSON, made once: Python builds its keywords, kinds, defaults and
/// `help()` from it. The library owns the bytes for the life of the process.
@_cdecl("abrlab_settings_json")
public func abrlabSettingsJSON() -> UnsafePointer<CChar> {
    UnsafePointer(settingsJSON)
}

/// Written once, when first read, and never changed or freed: sharing it is sound.
private nonisolated(unsafe) let settingsJSON: UnsafeMutablePointer<CChar> = strdup(SettingTable.json())
