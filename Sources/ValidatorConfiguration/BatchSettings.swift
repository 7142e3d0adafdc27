/// The settings that only the batch commands (`validate`, `tune`) read; `serve` lists them too, so
/// that `photo-validator config` shows every setting and where its value comes from.
package enum BatchSettings {
    /// The batch commands' own settings (declared in `Setting+ScoresCache.swift`).
    package static let settings = SettingsCatalog([.scoresCacheKeyFile])
}
